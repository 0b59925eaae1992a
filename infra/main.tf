# Layerfold on AWS: ECS on Fargate behind an ALB, blobs in S3, the index in ElastiCache Redis.
# See README.md for the design, the choices and the cost drivers.

data "aws_caller_identity" "current" {}
data "aws_region" "current" {}

locals {
  account_id      = data.aws_caller_identity.current.account_id
  region          = data.aws_region.current.name
  registry_port   = 5000
  management_port = 5001
  data_path       = "/var/lib/layerfold/data"
  secrets_dir     = "/var/lib/layerfold/secrets"
  tags            = module.naming.tags
}

module "naming" {
  source = "./modules/naming"

  name       = var.name
  account_id = local.account_id
  region     = local.region
  tags       = var.tags
}

module "registry_env" {
  source = "./modules/registry-env"

  region                 = local.region
  bucket                 = aws_s3_bucket.registry.bucket
  redis_cluster          = var.redis_cluster_mode
  redis_namespace        = var.name
  registry_port          = local.registry_port
  management_port        = local.management_port
  data_path              = local.data_path
  auth_mode              = var.auth_mode
  auth_realm             = var.auth_mode == "token" ? "https://${var.domain_name}/token" : null
  dedup_workers          = var.dedup_workers
  predictor_disk_size    = var.predictor_disk_size
  redis_url_secret_arn   = aws_secretsmanager_secret.redis_url.arn
  htpasswd_secret_arn    = var.auth_mode == "none" ? null : local.htpasswd_secret_arn
  signing_key_secret_arn = var.auth_mode == "token" ? local.signing_key_secret_arn : null
  extra_environment      = var.extra_environment
}

module "iam_policies" {
  source = "./modules/iam-policies"

  bucket_arn               = aws_s3_bucket.registry.arn
  secret_arns              = [for s in module.registry_env.secrets : s.valueFrom]
  ssm_parameter_arns       = [aws_ssm_parameter.agent_config.arn, aws_ssm_parameter.prometheus_config.arn]
  container_log_group_arns = [aws_cloudwatch_log_group.registry.arn, aws_cloudwatch_log_group.agent.arn]
  metrics_log_group_arn    = aws_cloudwatch_log_group.metrics.arn
  kms_key_arns             = var.kms_key_arn == null ? [] : [var.kms_key_arn]
  ecr_repository_arn       = var.ecr_repository_arn
  account_id               = local.account_id
}
