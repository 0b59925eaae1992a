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
