output "registry_url" {
  description = "The registry's URL."
  value       = "https://${var.domain_name}"
}

output "registry_host" {
  description = "Host name for image references: <registry_host>/team/app:1.0."
  value       = var.domain_name
}

output "load_balancer_dns_name" {
  description = "The load balancer's DNS name (point domain_name at it when route53_zone_id is null)."
  value       = aws_lb.registry.dns_name
}

output "load_balancer_arn" {
  description = "The load balancer, e.g. to associate a WAF web ACL."
  value       = aws_lb.registry.arn
}

output "bucket" {
  description = "S3 bucket holding every blob and metadata record (the system of record)."
  value       = aws_s3_bucket.registry.bucket
}

output "redis_endpoint" {
  description = "Redis endpoint (TLS, AUTH token in the redis-url secret)."
  value       = local.redis_host
}

output "ecs_cluster" {
  description = "ECS cluster name."
  value       = aws_ecs_cluster.registry.name
}

output "ecs_service" {
  description = "ECS service name."
  value       = aws_ecs_service.registry.name
}

output "log_group" {
  description = "CloudWatch log group of the registry."
  value       = aws_cloudwatch_log_group.registry.name
}

output "metric_namespace" {
  description = "CloudWatch namespace of the registry's own metrics."
  value       = local.metric_namespace
}

output "admin_password_secret_arn" {
  description = "Secrets Manager secret with the password of admin_username (when the module made the htpasswd file)."
  value       = try(aws_secretsmanager_secret.admin_password[0].arn, null)
}

output "sign_in" {
  description = "How to sign in."
  value = var.auth_mode == "none" ? "No sign-in: the registry is open (auth_mode = none)." : (
    length(aws_secretsmanager_secret.admin_password) > 0
    ? "aws secretsmanager get-secret-value --secret-id ${aws_secretsmanager_secret.admin_password[0].arn} --query SecretString --output text | docker login ${var.domain_name} -u ${var.admin_username} --password-stdin"
    : "docker login ${var.domain_name} with a user of your htpasswd secret (${var.htpasswd_secret_arn})"
  )
}
