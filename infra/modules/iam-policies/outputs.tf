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
