# Three security groups, each open only to the one before it:
#   clients -> ALB (443, and 80 which only redirects) -> tasks (registry port 5000 only) -> Redis (6379)
# The management port (5001) has no rule from the ALB: the management plane is never behind the
# public listener. Only management_cidr_blocks (e.g. a bastion) may reach it, and by default nothing.

resource "aws_security_group" "alb" {
  name        = "${var.name}-alb"
  description = "Layerfold load balancer: HTTPS from clients"
  vpc_id      = var.vpc_id
  tags        = local.tags
}

resource "aws_vpc_security_group_ingress_rule" "alb_https" {
  for_each = toset(var.allowed_cidr_blocks)

  security_group_id = aws_security_group.alb.id
  description       = "HTTPS from clients"
  cidr_ipv4         = each.value
  ip_protocol       = "tcp"
  from_port         = 443
  to_port           = 443
}

resource "aws_vpc_security_group_ingress_rule" "alb_http" {
  for_each = toset(var.allowed_cidr_blocks)

  security_group_id = aws_security_group.alb.id
  description       = "HTTP from clients, answered with a redirect to HTTPS"
  cidr_ipv4         = each.value
  ip_protocol       = "tcp"
  from_port         = 80
  to_port           = 80
}

resource "aws_vpc_security_group_egress_rule" "alb_to_registry" {
  security_group_id            = aws_security_group.alb.id
  description                  = "To the registry port of the tasks only"
  referenced_security_group_id = aws_security_group.tasks.id
  ip_protocol                  = "tcp"
  from_port                    = local.registry_port
  to_port                      = local.registry_port
}

resource "aws_security_group" "tasks" {
  name        = "${var.name}-tasks"
  description = "Layerfold tasks: the registry port from the load balancer"
  vpc_id      = var.vpc_id
  tags        = local.tags
}

resource "aws_vpc_security_group_ingress_rule" "registry_from_alb" {
  security_group_id            = aws_security_group.tasks.id
  description                  = "Registry API from the load balancer"
  referenced_security_group_id = aws_security_group.alb.id
  ip_protocol                  = "tcp"
  from_port                    = local.registry_port
  to_port                      = local.registry_port
}

resource "aws_vpc_security_group_ingress_rule" "management_from_operators" {
  for_each = toset(var.management_cidr_blocks)

  security_group_id = aws_security_group.tasks.id
  description       = "Actuator (health, metrics, dedup, gc) from operator networks inside the VPC"
  cidr_ipv4         = each.value
  ip_protocol       = "tcp"
  from_port         = local.management_port
  to_port           = local.management_port
}

resource "aws_vpc_security_group_egress_rule" "tasks_https" {
  security_group_id = aws_security_group.tasks.id
  description       = "S3, Secrets Manager, SSM, ECR, CloudWatch APIs (HTTPS)"
  cidr_ipv4         = "0.0.0.0/0"
  ip_protocol       = "tcp"
  from_port         = 443
  to_port           = 443
}

resource "aws_vpc_security_group_egress_rule" "tasks_to_redis" {
  security_group_id            = aws_security_group.tasks.id
  description                  = "Redis (TLS)"
  referenced_security_group_id = aws_security_group.redis.id
  ip_protocol                  = "tcp"
  from_port                    = 6379
  to_port                      = 6379
}

resource "aws_security_group" "redis" {
  name        = "${var.name}-redis"
  description = "Layerfold Redis: from the tasks only"
  vpc_id      = var.vpc_id
  tags        = local.tags
}

resource "aws_vpc_security_group_ingress_rule" "redis_from_tasks" {
  security_group_id            = aws_security_group.redis.id
  description                  = "Redis (TLS) from the registry tasks"
  referenced_security_group_id = aws_security_group.tasks.id
  ip_protocol                  = "tcp"
  from_port                    = 6379
  to_port                      = 6379
}
