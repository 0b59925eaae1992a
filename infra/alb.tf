# The public listener forwards to one target group: the registry port. Its health check is the
# distribution API's own `GET /v2/` (200 when open, 401 with sign-in required: both mean the registry
# answers), so the load balancer needs nothing on the management port. Readiness and liveness on the
# management port are checked inside the task by the container health check (ecs.tf).

resource "aws_acm_certificate" "registry" {
  count = var.certificate_arn == null ? 1 : 0

  domain_name       = var.domain_name
  validation_method = "DNS"
  tags              = local.tags

  lifecycle {
    create_before_destroy = true

    precondition {
      condition     = var.route53_zone_id != null
      error_message = "Without certificate_arn the module validates a certificate in route53_zone_id: set one of them."
    }
  }
}

resource "aws_route53_record" "certificate_validation" {
  for_each = var.certificate_arn == null ? {
    for o in aws_acm_certificate.registry[0].domain_validation_options : o.domain_name => o
  } : {}

  zone_id         = var.route53_zone_id
  name            = each.value.resource_record_name
  type            = each.value.resource_record_type
  records         = [each.value.resource_record_value]
  ttl             = 300
  allow_overwrite = true
}

resource "aws_acm_certificate_validation" "registry" {
  count = var.certificate_arn == null ? 1 : 0

  certificate_arn         = aws_acm_certificate.registry[0].arn
  validation_record_fqdns = [for r in aws_route53_record.certificate_validation : r.fqdn]
}

locals {
  certificate_arn = var.certificate_arn != null ? var.certificate_arn : aws_acm_certificate_validation.registry[0].certificate_arn
}

resource "aws_lb" "registry" {
  name                       = module.naming.alb
  load_balancer_type         = "application"
  internal                   = var.internal
  subnets                    = var.public_subnet_ids
  security_groups            = [aws_security_group.alb.id]
  idle_timeout               = var.idle_timeout
  drop_invalid_header_fields = true
  enable_deletion_protection = var.deletion_protection
  tags                       = local.tags

  dynamic "access_logs" {
    for_each = var.alb_access_logs_bucket == null ? [] : [var.alb_access_logs_bucket]
    content {
      bucket  = access_logs.value
      prefix  = var.name
      enabled = true
    }
  }
}

resource "aws_lb_target_group" "registry" {
  name                 = module.naming.target_group
  port                 = local.registry_port
  protocol             = "HTTP"
  target_type          = "ip"
  vpc_id               = var.vpc_id
  deregistration_delay = 120 # uploads in flight finish; clients resume anything longer
  tags                 = local.tags

  health_check {
    path                = "/v2/"
    port                = "traffic-port"
    protocol            = "HTTP"
    matcher             = "200,401"
    interval            = 15
    timeout             = 5
    healthy_threshold   = 2
    unhealthy_threshold = 3
  }
}

resource "aws_lb_listener" "https" {
  load_balancer_arn = aws_lb.registry.arn
  port              = 443
  protocol          = "HTTPS"
  ssl_policy        = var.ssl_policy
  certificate_arn   = local.certificate_arn
  tags              = local.tags

  default_action {
    type             = "forward"
    target_group_arn = aws_lb_target_group.registry.arn
  }
}

# The management plane never goes through the public listener, even by path: the target group is the
# registry port, where /actuator is not served once MANAGEMENT_SERVER_PORT moves it to 5001. This rule
# refuses the path anyway, should an image without that setting run.
resource "aws_lb_listener_rule" "no_actuator" {
  listener_arn = aws_lb_listener.https.arn
  priority     = 1
  tags         = local.tags

  condition {
    path_pattern {
      values = ["/actuator", "/actuator/*"]
    }
  }

  action {
    type = "fixed-response"
    fixed_response {
      content_type = "text/plain"
      message_body = "not found"
      status_code  = "404"
    }
  }
}

resource "aws_lb_listener" "http_redirect" {
  load_balancer_arn = aws_lb.registry.arn
  port              = 80
  protocol          = "HTTP"
  tags              = local.tags

  default_action {
    type = "redirect"
    redirect {
      port        = "443"
      protocol    = "HTTPS"
      status_code = "HTTP_301"
    }
  }
}

resource "aws_route53_record" "registry" {
  count = var.route53_zone_id == null ? 0 : 1

  zone_id = var.route53_zone_id
  name    = var.domain_name
  type    = "A"

  alias {
    name                   = aws_lb.registry.dns_name
    zone_id                = aws_lb.registry.zone_id
    evaluate_target_health = true
  }
}
