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
