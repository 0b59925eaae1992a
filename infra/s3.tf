# The bucket is the registry's system of record: blobs, one small object per repository link,
# manifest, tag and referrer, dedup packs and layer records. Redis is an index rebuilt from it.
#
# Versioning (on by default, bucket_versioning): blobs are content-addressed and never rewritten, but
# tags and links are overwritten and garbage collection and dedup thinning delete. Noncurrent versions
# are a window to undo a wrong delete (an operator, a GC bug) and expire after noncurrent_version_days,
# so storage savings from GC and dedup arrive that many days late. Off: deletes are final at once.

resource "aws_s3_bucket" "registry" {
  bucket        = module.naming.bucket
  force_destroy = var.force_destroy
  tags          = local.tags
}

resource "aws_s3_bucket_ownership_controls" "registry" {
  bucket = aws_s3_bucket.registry.id
  rule {
    object_ownership = "BucketOwnerEnforced"
  }
}

resource "aws_s3_bucket_public_access_block" "registry" {
  bucket                  = aws_s3_bucket.registry.id
  block_public_acls       = true
  block_public_policy     = true
  ignore_public_acls      = true
  restrict_public_buckets = true
}

resource "aws_s3_bucket_server_side_encryption_configuration" "registry" {
  bucket = aws_s3_bucket.registry.id
  rule {
    apply_server_side_encryption_by_default {
      sse_algorithm     = var.kms_key_arn == null ? "AES256" : "aws:kms"
      kms_master_key_id = var.kms_key_arn
    }
    bucket_key_enabled = var.kms_key_arn != null
  }
}

resource "aws_s3_bucket_versioning" "registry" {
  bucket = aws_s3_bucket.registry.id
  versioning_configuration {
    status = var.bucket_versioning ? "Enabled" : "Suspended"
  }
}

resource "aws_s3_bucket_lifecycle_configuration" "registry" {
  bucket = aws_s3_bucket.registry.id

  # The registry aborts its own abandoned uploads after layerfold.storage.abandoned-upload-age (24h);
  # this catches what a process that died for good left behind, and never bills parts forever.
  rule {
    id     = "abort-incomplete-multipart-uploads"
    status = "Enabled"
    filter {}
    abort_incomplete_multipart_upload {
      days_after_initiation = var.abort_multipart_days
    }
  }

  rule {
    id     = "expire-noncurrent-versions"
    status = var.bucket_versioning ? "Enabled" : "Disabled"
    filter {}
    noncurrent_version_expiration {
      noncurrent_days = var.noncurrent_version_days
    }
    expiration {
      expired_object_delete_marker = true
    }
  }

  depends_on = [aws_s3_bucket_versioning.registry]
}

# TLS only: every request to the bucket must use HTTPS.
resource "aws_s3_bucket_policy" "registry" {
  bucket = aws_s3_bucket.registry.id
  policy = jsonencode({
    Version = "2012-10-17"
    Statement = [{
      Sid       = "DenyInsecureTransport"
      Effect    = "Deny"
      Principal = { AWS = "*" }
      Action    = "s3:*"
      Resource  = [aws_s3_bucket.registry.arn, "${aws_s3_bucket.registry.arn}/*"]
      Condition = { Bool = { "aws:SecureTransport" = "false" } }
    }]
  })

  depends_on = [aws_s3_bucket_public_access_block.registry]
}
