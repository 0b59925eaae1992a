variable "bucket_arn" {
  description = "ARN of the registry's bucket."
  type        = string

  validation {
    condition     = can(regex("^arn:aws[a-z-]*:s3:::[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$", var.bucket_arn))
    error_message = "bucket_arn must be the ARN of one bucket, without wildcards."
  }
}

variable "secret_arns" {
  description = "Secrets Manager ARNs the execution role resolves into the container's `secrets`."
  type        = list(string)

  validation {
    condition     = alltrue([for arn in var.secret_arns : can(regex("^arn:aws[a-z-]*:secretsmanager:[a-z0-9-]+:[0-9]{12}:secret:[^*?]+$", arn))])
    error_message = "secret_arns must be full secret ARNs without wildcards."
  }
}

variable "ssm_parameter_arns" {
  description = "SSM parameter ARNs the execution role resolves (the metrics agent's configuration)."
  type        = list(string)
  default     = []

  validation {
    condition     = alltrue([for arn in var.ssm_parameter_arns : can(regex("^arn:aws[a-z-]*:ssm:[a-z0-9-]+:[0-9]{12}:parameter/[^*?]+$", arn))])
    error_message = "ssm_parameter_arns must be full parameter ARNs without wildcards."
  }
}

variable "container_log_group_arns" {
  description = "Log groups the awslogs driver writes the containers' output to (execution role)."
  type        = list(string)
}

variable "metrics_log_group_arn" {
  description = "Log group the CloudWatch agent writes embedded-metric-format events to (task role)."
  type        = string
}

variable "kms_key_arns" {
  description = "Customer managed KMS keys of the bucket and secrets, if any."
  type        = list(string)
  default     = []
}

variable "ecr_repository_arn" {
  description = "Private ECR repository of the image, or null for a public image."
  type        = string
  default     = null
}

variable "account_id" {
  description = "Account allowed to assume the roles (confused-deputy guard)."
  type        = string
}
