# The registry container's environment: plain settings as `environment`, everything secret as ECS
# `secrets` references (Secrets Manager ARNs), never as values. Every LAYERFOLD_* name here is a real
# configuration key: server/src/test/.../InfraConfigurationKeysTest checks them against the
# application's @ConfigurationProperties classes, so a renamed key fails the Java build.
# Provider-free: `tofu test` applies it without any provider.

terraform {
  required_version = ">= 1.6.0"
}

variable "region" {
  description = "AWS region of the bucket."
  type        = string
}

variable "bucket" {
  description = "S3 bucket holding blobs and metadata records."
  type        = string
}

variable "redis_cluster" {
  description = "Whether the Redis URL names a Redis Cluster (cluster mode enabled)."
  type        = bool
  default     = false
}

variable "redis_namespace" {
  description = "Key prefix in Redis; every node of one registry uses the same."
  type        = string
  default     = "layerfold"
}

variable "registry_port" {
  description = "Port of the distribution API (the only port the load balancer reaches)."
  type        = number
  default     = 5000
}

variable "management_port" {
  description = "Port of the actuator endpoints (health, prometheus, dedup, gc); never behind the public listener."
  type        = number
  default     = 5001

  validation {
    condition     = var.management_port != 5000
    error_message = "management_port must differ from the registry port, or the management plane is public."
  }
}

variable "data_path" {
  description = "Local directory for scratch space and the predictor's disk tier."
  type        = string
  default     = "/var/lib/layerfold/data"
}

variable "auth_mode" {
  description = "layerfold.auth.mode: token, basic or none."
  type        = string
  default     = "token"

  validation {
    condition     = contains(["token", "basic", "none"], var.auth_mode)
    error_message = "auth_mode must be token, basic or none."
  }
}

variable "auth_realm" {
  description = "Token endpoint URL named in 401 challenges (https://<host>/token), or null for the registry's default."
  type        = string
  default     = null
}

variable "dedup_workers" {
  description = "Dedup worker threads per task (0: this task serves the API only)."
  type        = number
  default     = 1

  validation {
    condition     = var.dedup_workers >= 0 && var.dedup_workers <= 16 && floor(var.dedup_workers) == var.dedup_workers
    error_message = "dedup_workers must be an integer from 0 to 16."
  }
}

variable "predictor_disk_size" {
  description = "layerfold.predictor.disk-size, e.g. 4GB."
  type        = string
  default     = "4GB"

  validation {
    condition     = can(regex("^[0-9]+(MB|GB)$", var.predictor_disk_size))
    error_message = "predictor_disk_size must be a size like 512MB or 4GB."
  }
}

variable "redis_url_secret_arn" {
  description = "Secrets Manager ARN of the secret holding the full rediss:// URL with its auth token."
  type        = string
}

variable "htpasswd_secret_arn" {
  description = "Secrets Manager ARN of the htpasswd file's content (bcrypt), or null without built-in users."
  type        = string
  default     = null
}

variable "signing_key_secret_arn" {
  description = "Secrets Manager ARN of the PKCS#8 PEM key tokens are signed with, or null."
  type        = string
  default     = null
}

variable "extra_environment" {
  description = "More plain (non-secret) settings, e.g. LAYERFOLD_DEDUP_MODE = \"selective\". Must not repeat a managed name."
  type        = map(string)
  default     = {}
}

locals {
  managed = merge(
    {
      LAYERFOLD_PORT                    = tostring(var.registry_port)
      LAYERFOLD_STORAGE_BLOB            = "s3"
      LAYERFOLD_STORAGE_METADATA        = "redis"
      LAYERFOLD_STORAGE_PATH            = var.data_path
      LAYERFOLD_STORAGE_S3_BUCKET       = var.bucket
      LAYERFOLD_STORAGE_S3_REGION       = var.region
      LAYERFOLD_STORAGE_REDIS_CLUSTER   = tostring(var.redis_cluster)
      LAYERFOLD_STORAGE_REDIS_NAMESPACE = var.redis_namespace
      LAYERFOLD_AUTH_MODE               = var.auth_mode
      LAYERFOLD_DEDUP_WORKERS           = tostring(var.dedup_workers)
      LAYERFOLD_PREDICTOR_DISK_SIZE     = var.predictor_disk_size
      # Spring Boot's own keys: the actuator on its own port, reachable by the metrics sidecar and
      # the container health check, never by the load balancer (its target group is the registry port).
      MANAGEMENT_SERVER_PORT    = tostring(var.management_port)
      MANAGEMENT_SERVER_ADDRESS = "0.0.0.0"
      # The load balancer terminates TLS: take scheme, host and port of Location headers and the token
      # realm from its X-Forwarded-* headers.
      SERVER_FORWARD_HEADERS_STRATEGY = "native"
    },
    var.auth_realm == null ? {} : { LAYERFOLD_AUTH_REALM = var.auth_realm },
  )

  collisions = setintersection(keys(local.managed), keys(var.extra_environment))
  all        = merge(var.extra_environment, local.managed)

  # ECS `secrets`: the agent resolves each ARN when the task starts; the value never enters the task
  # definition. The htpasswd file and signing key are files for the registry: the container's entry
  # point writes these two variables to files and unsets them (see the root module's ecs.tf).
  secrets = concat(
    [{ name = "LAYERFOLD_STORAGE_REDIS_URL", valueFrom = var.redis_url_secret_arn }],
    var.htpasswd_secret_arn == null ? [] : [{ name = "LF_HTPASSWD_CONTENT", valueFrom = var.htpasswd_secret_arn }],
    var.signing_key_secret_arn == null ? [] : [{ name = "LF_SIGNING_KEY_PEM", valueFrom = var.signing_key_secret_arn }],
  )
}

output "environment" {
  description = "ECS container `environment`: name/value pairs, sorted by name."
  value       = [for name in sort(keys(local.all)) : { name = name, value = local.all[name] }]

  precondition {
    condition     = length(local.collisions) == 0
    error_message = "extra_environment repeats managed settings: ${join(", ", local.collisions)}."
  }

  precondition {
    condition     = length([for name in keys(var.extra_environment) : name if can(regex("(?i)(SECRET|PASSWORD|TOKEN|REDIS_URL|ACCESS_KEY|HTPASSWD|SIGNING_KEY)", name))]) == 0
    error_message = "extra_environment must not carry secrets (names with SECRET, PASSWORD, TOKEN, ...): pass them as Secrets Manager references."
  }

  precondition {
    condition     = var.auth_mode == "none" || var.htpasswd_secret_arn != null
    error_message = "auth_mode token or basic needs htpasswd_secret_arn (users)."
  }
}

output "secrets" {
  description = "ECS container `secrets`: name/valueFrom pairs (ARNs only)."
  value       = local.secrets
}

output "names" {
  description = "Every variable name the container gets, plain and secret."
  value       = sort(concat(keys(local.all), [for s in local.secrets : s.name]))
}
