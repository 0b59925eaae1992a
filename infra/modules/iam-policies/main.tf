# IAM policy documents of the registry's task role and task execution role, built with jsonencode.
# Provider-free: `tofu test` applies it without any provider. Every statement names its resources:
# the only wildcards are sub-resource suffixes of a named resource (the bucket's objects
# "<bucket-arn>/*", a named log group's streams "<log-group-arn>:*"), and ecr:GetAuthorizationToken,
# which AWS defines on no resource, appears only when a private ECR repository is used.

terraform {
  required_version = ">= 1.6.0"
}

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

output "assume_role_policy" {
  description = "Trust policy for both roles: ECS tasks of this account."
  value       = local.assume_role
}

output "task_role_policy" {
  description = "Policy of the role the registry's code runs as."
  value       = jsonencode({ Version = "2012-10-17", Statement = local.task_statements })
}

output "execution_role_policy" {
  description = "Policy of the role ECS starts the task with (logs, secrets, image)."
  value       = jsonencode({ Version = "2012-10-17", Statement = local.execution_statements })
}
