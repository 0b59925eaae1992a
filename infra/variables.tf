# ---------------------------------------------------------------------------------------------------
# Where it runs
# ---------------------------------------------------------------------------------------------------

variable "name" {
  description = "Deployment name, the prefix of every resource: 2-24 of a-z, 0-9, '-'."
  type        = string
  default     = "layerfold"

  validation {
    condition     = can(regex("^[a-z][a-z0-9-]{0,22}[a-z0-9]$", var.name))
    error_message = "name must be 2-24 characters of a-z, 0-9 and '-', start with a letter and not end with '-'."
  }
}

variable "vpc_id" {
  description = "VPC to deploy into."
  type        = string

  validation {
    condition     = can(regex("^vpc-[0-9a-f]+$", var.vpc_id))
    error_message = "vpc_id must be a VPC id (vpc-...)."
  }
}

variable "public_subnet_ids" {
  description = "Subnets of the load balancer (public ones for an internet-facing registry), in at least two AZs."
  type        = list(string)

  validation {
    condition     = length(var.public_subnet_ids) >= 2
    error_message = "The load balancer needs subnets in at least two availability zones."
  }
}

variable "private_subnet_ids" {
  description = "Subnets of the tasks and Redis, in at least two AZs, with a route to S3 (gateway endpoint recommended) and to the ECS, Secrets Manager and CloudWatch APIs."
  type        = list(string)

  validation {
    condition     = length(var.private_subnet_ids) >= 2
    error_message = "Tasks and Redis need subnets in at least two availability zones."
  }
}

variable "internal" {
  description = "true: the load balancer is internal (reachable from the VPC and its peers only)."
  type        = bool
  default     = false
}

variable "allowed_cidr_blocks" {
  description = "Client networks allowed to reach the load balancer on 443 (and 80, which only redirects)."
  type        = list(string)
  default     = ["0.0.0.0/0"]

  validation {
    condition     = alltrue([for c in var.allowed_cidr_blocks : can(cidrhost(c, 0))])
    error_message = "allowed_cidr_blocks must be CIDR blocks."
  }
}

variable "management_cidr_blocks" {
  description = "Networks inside the VPC (a bastion, a Prometheus) allowed to reach the management port on the tasks directly. Empty: only the task itself (health check, metrics sidecar) reaches it."
  type        = list(string)
  default     = []

  validation {
    condition     = alltrue([for c in var.management_cidr_blocks : can(cidrhost(c, 0)) && c != "0.0.0.0/0"])
    error_message = "management_cidr_blocks must be CIDR blocks, never 0.0.0.0/0."
  }
}

# ---------------------------------------------------------------------------------------------------
# TLS and the name clients use
# ---------------------------------------------------------------------------------------------------

variable "domain_name" {
  description = "Host name clients use, e.g. registry.example.com (docker login <domain_name>)."
  type        = string

  validation {
    condition     = can(regex("^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\\.)+[a-z]{2,}$", var.domain_name))
    error_message = "domain_name must be a lowercase DNS name."
  }
}

variable "certificate_arn" {
  description = "ACM certificate for domain_name. null: the module requests one and validates it in route53_zone_id."
  type        = string
  default     = null

  validation {
    condition     = var.certificate_arn == null || can(regex("^arn:aws[a-z-]*:acm:", var.certificate_arn))
    error_message = "certificate_arn must be an ACM certificate ARN."
  }
}

variable "route53_zone_id" {
  description = "Route 53 hosted zone for domain_name: the certificate's DNS validation and an alias record. null: manage DNS yourself (then certificate_arn is required)."
  type        = string
  default     = null
}

variable "ssl_policy" {
  description = "TLS policy of the HTTPS listener."
  type        = string
  default     = "ELBSecurityPolicy-TLS13-1-2-2021-06"
}

# ---------------------------------------------------------------------------------------------------
# The service
# ---------------------------------------------------------------------------------------------------

variable "image" {
  description = "Registry image (built from the repository's Dockerfile), pinned by tag or digest."
  type        = string

  validation {
    condition     = !endswith(var.image, ":latest") && (strcontains(var.image, ":") || strcontains(var.image, "@sha256:"))
    error_message = "image must be pinned to a tag other than latest, or a digest."
  }
}

variable "ecr_repository_arn" {
  description = "ARN of the private ECR repository holding the image, or null for an image the task pulls without credentials."
  type        = string
  default     = null
}

variable "cpu" {
  description = "Task vCPU units (1024 = 1 vCPU). Restores and dedup workers use every core."
  type        = number
  default     = 1024

  validation {
    condition     = contains([512, 1024, 2048, 4096, 8192, 16384], var.cpu)
    error_message = "cpu must be a Fargate size: 512, 1024, 2048, 4096, 8192 or 16384."
  }
}

variable "memory" {
  description = "Task memory in MiB. The registry gets this minus agent_memory; its heap is 75% of that (the image's -XX:MaxRAMPercentage=75)."
  type        = number
  default     = 2048

  validation {
    condition     = var.memory >= 1024 && var.memory <= 122880
    error_message = "memory must be 1024-122880 MiB (and a size Fargate allows for the cpu chosen)."
  }
}

variable "agent_memory" {
  description = "MiB of the task's memory reserved for the CloudWatch agent sidecar."
  type        = number
  default     = 256

  validation {
    condition     = var.agent_memory >= 128 && var.agent_memory <= 1024
    error_message = "agent_memory must be 128-1024 MiB."
  }
}

variable "ephemeral_storage_gib" {
  description = "Fargate ephemeral storage per task (GiB): dedup scratch, restore spools (a layer at a time) and the predictor's disk tier."
  type        = number
  default     = 50

  validation {
    condition     = var.ephemeral_storage_gib >= 21 && var.ephemeral_storage_gib <= 200
    error_message = "ephemeral_storage_gib must be 21-200."
  }
}

variable "predictor_disk_size" {
  description = "Predictor disk tier per task (layerfold.predictor.disk-size); keep it well under ephemeral_storage_gib."
  type        = string
  default     = "8GB"
}

variable "min_tasks" {
  description = "Fewest tasks (at least 2: one per AZ survives the loss of the other)."
  type        = number
  default     = 2

  validation {
    condition     = var.min_tasks >= 2
    error_message = "min_tasks must be at least 2."
  }
}

variable "max_tasks" {
  description = "Most tasks autoscaling may run."
  type        = number
  default     = 8

  validation {
    condition     = var.max_tasks >= 2 && var.max_tasks <= 100
    error_message = "max_tasks must be 2-100."
  }
}

variable "cpu_target_percent" {
  description = "Autoscaling keeps the service's average CPU near this."
  type        = number
  default     = 60

  validation {
    condition     = var.cpu_target_percent >= 20 && var.cpu_target_percent <= 90
    error_message = "cpu_target_percent must be 20-90."
  }
}

variable "requests_per_task_target" {
  description = "Autoscaling also keeps ALB requests per task per minute near this; null turns that policy off."
  type        = number
  default     = 3000
}

variable "dedup_workers" {
  description = "Dedup worker threads per task (layerfold.dedup.workers); 0 makes every task API-only."
  type        = number
  default     = 1
}

variable "auth_mode" {
  description = "layerfold.auth.mode: token (default; Docker registry tokens from the built-in /token), basic, or none (an open registry: anyone who reaches it may push and delete)."
  type        = string
  default     = "token"

  validation {
    condition     = contains(["token", "basic", "none"], var.auth_mode)
    error_message = "auth_mode must be token, basic or none."
  }
}

variable "htpasswd_secret_arn" {
  description = "Secrets Manager secret with your htpasswd file (htpasswd -B). null: the module makes one with a single user, admin_username, and keeps its password in Secrets Manager."
  type        = string
  default     = null
}

variable "admin_username" {
  description = "The user the module creates when htpasswd_secret_arn is null."
  type        = string
  default     = "admin"

  validation {
    condition     = can(regex("^[a-z][a-z0-9._-]{0,31}$", var.admin_username))
    error_message = "admin_username must be 1-32 of a-z, 0-9, '.', '_', '-'."
  }
}

variable "signing_key_secret_arn" {
  description = "Secrets Manager secret with the PKCS#8 PEM key tokens are signed with (shared by every task). null: the module generates an EC P-256 key."
  type        = string
  default     = null
}

variable "extra_environment" {
  description = "More plain registry settings (LAYERFOLD_* keys from the README's configuration table), e.g. { LAYERFOLD_DEDUP_MODE = \"selective\" }. Never secrets."
  type        = map(string)
  default     = {}
}

# ---------------------------------------------------------------------------------------------------
# Storage
# ---------------------------------------------------------------------------------------------------

variable "bucket_versioning" {
  description = "Keep noncurrent versions of overwritten and deleted objects for noncurrent_version_days (recovery from a bad delete or GC bug), at the cost of storing them that long."
  type        = bool
  default     = true
}

variable "noncurrent_version_days" {
  description = "Days a noncurrent object version is kept when bucket_versioning is on."
  type        = number
  default     = 7

  validation {
    condition     = var.noncurrent_version_days >= 1 && var.noncurrent_version_days <= 365
    error_message = "noncurrent_version_days must be 1-365."
  }
}

variable "abort_multipart_days" {
  description = "Days after which S3 aborts an incomplete multipart upload. The registry sweeps its own abandoned uploads after 24h (layerfold.storage.abandoned-upload-age); this is the backstop and must be longer."
  type        = number
  default     = 3

  validation {
    condition     = var.abort_multipart_days >= 2
    error_message = "abort_multipart_days must be at least 2, beyond the registry's 24h abandoned-upload-age."
  }
}

variable "kms_key_arn" {
  description = "Customer managed KMS key for the bucket, secrets, logs and Redis at rest. null: AWS managed keys (SSE-S3, aws/secretsmanager, CloudWatch's own, ElastiCache's default)."
  type        = string
  default     = null
}

variable "force_destroy" {
  description = "Let terraform destroy delete a bucket that still holds images (never in production)."
  type        = bool
  default     = false
}

# ---------------------------------------------------------------------------------------------------
# Redis
# ---------------------------------------------------------------------------------------------------

variable "redis_node_type" {
  description = "ElastiCache node type. The index is small (sorted sets per repository, the dedup file index): size by file count, about 200 bytes per unique file."
  type        = string
  default     = "cache.t4g.medium"

  validation {
    condition     = startswith(var.redis_node_type, "cache.")
    error_message = "redis_node_type must be an ElastiCache node type (cache.*)."
  }
}

variable "redis_engine_version" {
  description = "Redis engine version."
  type        = string
  default     = "7.1"
}

variable "redis_cluster_mode" {
  description = "Redis Cluster (cluster mode enabled): shards the index across redis_shards node groups (sets layerfold.storage.redis.cluster)."
  type        = bool
  default     = false
}

variable "redis_shards" {
  description = "Node groups (shards) in cluster mode."
  type        = number
  default     = 2

  validation {
    condition     = var.redis_shards >= 1 && var.redis_shards <= 90
    error_message = "redis_shards must be 1-90."
  }
}

variable "redis_replicas" {
  description = "Replicas per node group (at least 1: Multi-AZ with automatic failover)."
  type        = number
  default     = 1

  validation {
    condition     = var.redis_replicas >= 1 && var.redis_replicas <= 5
    error_message = "redis_replicas must be 1-5."
  }
}

variable "redis_snapshot_retention_days" {
  description = "Days of daily Redis snapshots kept (persistence beyond the replicas). The bucket is the system of record: a lost index is rebuilt from it."
  type        = number
  default     = 7

  validation {
    condition     = var.redis_snapshot_retention_days >= 1 && var.redis_snapshot_retention_days <= 35
    error_message = "redis_snapshot_retention_days must be 1-35."
  }
}

# ---------------------------------------------------------------------------------------------------
# Operations
# ---------------------------------------------------------------------------------------------------

variable "log_retention_days" {
  description = "CloudWatch Logs retention of the registry's, the agent's and the metrics log groups."
  type        = number
  default     = 90

  validation {
    condition     = contains([1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, 1096, 1827, 2192, 2557, 2922, 3288, 3653], var.log_retention_days)
    error_message = "log_retention_days must be a value CloudWatch Logs accepts (1, 3, 5, 7, 14, 30, 60, 90, ... 3653)."
  }
}

variable "alarm_actions" {
  description = "SNS topic ARNs notified when an alarm fires or recovers."
  type        = list(string)
  default     = []
}

variable "error_rate_percent" {
  description = "Alarm when more than this share of the registry's requests fail with 5xx for 5 minutes."
  type        = number
  default     = 5
}

variable "dedup_backlog_threshold" {
  description = "Alarm when more layers than this wait for deduplication for an hour (workers cannot keep up)."
  type        = number
  default     = 1000
}

variable "backend_errors_threshold" {
  description = "Alarm when the registry logs more Redis (or S3) client failures than this in 5 minutes."
  type        = number
  default     = 10
}

variable "agent_image" {
  description = "CloudWatch agent image, the sidecar that scrapes the registry's Prometheus endpoint into CloudWatch."
  type        = string
  default     = "public.ecr.aws/cloudwatch-agent/cloudwatch-agent:1.300062.0b1304"
}

variable "deletion_protection" {
  description = "Protect the load balancer from deletion (turn off before terraform destroy)."
  type        = bool
  default     = true
}

variable "alb_access_logs_bucket" {
  description = "Existing bucket for the load balancer's access logs, or null for none."
  type        = string
  default     = null
}

variable "idle_timeout" {
  description = "Load balancer idle timeout (s): the longest a client may send or read nothing mid-request."
  type        = number
  default     = 120
}

variable "tags" {
  description = "Tags added to every resource."
  type        = map(string)
  default     = {}
}
