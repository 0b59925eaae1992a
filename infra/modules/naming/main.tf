# Names of every resource of one deployment, within each AWS service's length and character limits.
# Provider-free: `tofu test` plans and applies it without any provider.

terraform {
  required_version = ">= 1.6.0"
}

locals {
  # ALB and target group names: at most 32 characters, no leading or trailing hyphen.
  alb          = substr("${var.name}-alb", 0, 32)
  target_group = substr("${var.name}-5000", 0, 32)
  # S3: at most 63 characters, lowercase, globally unique: name-account-region.
  bucket = substr("${var.name}-${var.account_id}-${var.region}", 0, 63)
  # ElastiCache replication group ids: at most 40 characters.
  redis = substr("${var.name}-redis", 0, 40)
}
