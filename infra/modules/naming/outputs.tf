output "prefix" {
  description = "Prefix of every name."
  value       = var.name
}

output "alb" {
  description = "Load balancer name."
  value       = trimsuffix(local.alb, "-")
}

output "target_group" {
  description = "Target group name (the registry port)."
  value       = trimsuffix(local.target_group, "-")
}

output "bucket" {
  description = "S3 bucket name."
  value       = trimsuffix(local.bucket, "-")
}

output "redis" {
  description = "ElastiCache replication group id."
  value       = trimsuffix(local.redis, "-")
}

output "log_groups" {
  description = "CloudWatch log group names: the registry, the metrics agent, and the metrics (EMF) group."
  value = {
    registry = "/layerfold/${var.name}/registry"
    agent    = "/layerfold/${var.name}/cloudwatch-agent"
    metrics  = "/layerfold/${var.name}/metrics"
  }
}

output "secret_prefix" {
  description = "Prefix of Secrets Manager secret and SSM parameter names."
  value       = "/layerfold/${var.name}"
}

output "metric_namespace" {
  description = "CloudWatch namespace of the registry's own metrics."
  value       = "Layerfold/${var.name}"
}

output "tags" {
  description = "Tags for every resource."
  value       = merge({ "layerfold:deployment" = var.name, "managed-by" = "terraform" }, var.tags)
}
