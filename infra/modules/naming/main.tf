# Names of every resource of one deployment, within each AWS service's length and character limits.
# Provider-free: `tofu test` plans and applies it without any provider.

terraform {
  required_version = ">= 1.6.0"
}

variable "name" {
  description = "Deployment name: lowercase letters, digits and hyphens, starting with a letter, 2 to 24 characters."
  type        = string

  validation {
    condition     = can(regex("^[a-z][a-z0-9-]{0,22}[a-z0-9]$", var.name))
    error_message = "name must be 2-24 characters of a-z, 0-9 and '-', start with a letter and not end with '-'."
  }
}

variable "account_id" {
  description = "AWS account id, made part of the bucket name (bucket names are global)."
  type        = string

  validation {
    condition     = can(regex("^[0-9]{12}$", var.account_id))
    error_message = "account_id must be 12 digits."
  }
}

variable "region" {
  description = "AWS region, made part of the bucket name."
  type        = string

  validation {
    condition     = can(regex("^[a-z]{2}(-[a-z]+)+-[0-9]$", var.region))
    error_message = "region must look like eu-west-1."
  }
}

variable "tags" {
  description = "Extra tags for every resource."
  type        = map(string)
  default     = {}
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
