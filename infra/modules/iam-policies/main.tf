# IAM policy documents of the registry's task role and task execution role, built with jsonencode.
# Provider-free: `tofu test` applies it without any provider. Every statement names its resources:
# the only wildcards are sub-resource suffixes of a named resource (the bucket's objects
# "<bucket-arn>/*", a named log group's streams "<log-group-arn>:*"), and ecr:GetAuthorizationToken,
# which AWS defines on no resource, appears only when a private ECR repository is used.

terraform {
  required_version = ">= 1.6.0"
}

locals {
  log_streams = [for arn in var.container_log_group_arns : "${trimsuffix(arn, ":*")}:*"]

  assume_role = jsonencode({
    Version = "2012-10-17"
    Statement = [{
      Effect    = "Allow"
      Principal = { Service = "ecs-tasks.amazonaws.com" }
      Action    = "sts:AssumeRole"
      Condition = { StringEquals = { "aws:SourceAccount" = var.account_id } }
    }]
  })

  # What the registry calls (storage/src/main/java/dev/layerfold/storage/s3): HeadBucket and
  # ListObjectsV2 (s3:ListBucket), ListMultipartUploads; Get/Put/DeleteObject, multipart upload
  # parts (s3:PutObject), AbortMultipartUpload.
  task_statements = concat(
    [
      {
        Sid      = "RegistryBucket"
        Effect   = "Allow"
        Action   = ["s3:ListBucket", "s3:ListBucketMultipartUploads", "s3:GetBucketLocation"]
        Resource = [var.bucket_arn]
      },
      {
        Sid      = "RegistryObjects"
        Effect   = "Allow"
        Action   = ["s3:GetObject", "s3:PutObject", "s3:DeleteObject", "s3:AbortMultipartUpload", "s3:ListMultipartUploadParts"]
        Resource = ["${var.bucket_arn}/*"]
      },
      {
        Sid      = "MetricsAgentEmf"
        Effect   = "Allow"
        Action   = ["logs:CreateLogStream", "logs:PutLogEvents", "logs:DescribeLogStreams"]
        Resource = [var.metrics_log_group_arn, "${trimsuffix(var.metrics_log_group_arn, ":*")}:*"]
      },
    ],
    length(var.kms_key_arns) == 0 ? [] : [{
      Sid      = "BucketKey"
      Effect   = "Allow"
      Action   = ["kms:Decrypt", "kms:GenerateDataKey"]
      Resource = var.kms_key_arns
    }],
  )

  execution_statements = concat(
    [
      {
        Sid      = "ContainerLogs"
        Effect   = "Allow"
        Action   = ["logs:CreateLogStream", "logs:PutLogEvents"]
        Resource = local.log_streams
      },
      {
        Sid      = "SecretsByReference"
        Effect   = "Allow"
        Action   = ["secretsmanager:GetSecretValue"]
        Resource = var.secret_arns
      },
    ],
    length(var.ssm_parameter_arns) == 0 ? [] : [{
      Sid      = "AgentConfiguration"
      Effect   = "Allow"
      Action   = ["ssm:GetParameters"]
      Resource = var.ssm_parameter_arns
    }],
    length(var.kms_key_arns) == 0 ? [] : [{
      Sid      = "SecretsKey"
      Effect   = "Allow"
      Action   = ["kms:Decrypt"]
      Resource = var.kms_key_arns
    }],
    var.ecr_repository_arn == null ? [] : [
      {
        Sid      = "PullImage"
        Effect   = "Allow"
        Action   = ["ecr:BatchCheckLayerAvailability", "ecr:BatchGetImage", "ecr:GetDownloadUrlForLayer"]
        Resource = [var.ecr_repository_arn]
      },
      {
        # AWS defines GetAuthorizationToken on no resource: "*" is the only value it accepts.
        Sid      = "EcrAuthorizationTokenHasNoResource"
        Effect   = "Allow"
        Action   = ["ecr:GetAuthorizationToken"]
        Resource = ["*"]
      },
    ],
  )
}
