# Autoscaling on load: CPU (restores, dedup and TLS-free streaming all show up there) and, optionally,
# requests per task at the load balancer. Scale-in is slow so long pulls and uploads are not cut.

resource "aws_appautoscaling_target" "registry" {
  service_namespace  = "ecs"
  resource_id        = "service/${aws_ecs_cluster.registry.name}/${aws_ecs_service.registry.name}"
  scalable_dimension = "ecs:service:DesiredCount"
  min_capacity       = var.min_tasks
  max_capacity       = var.max_tasks
  tags               = local.tags
}

resource "aws_appautoscaling_policy" "cpu" {
  name               = "${var.name}-cpu"
  policy_type        = "TargetTrackingScaling"
  service_namespace  = aws_appautoscaling_target.registry.service_namespace
  resource_id        = aws_appautoscaling_target.registry.resource_id
  scalable_dimension = aws_appautoscaling_target.registry.scalable_dimension

  target_tracking_scaling_policy_configuration {
    target_value       = var.cpu_target_percent
    scale_out_cooldown = 60
    scale_in_cooldown  = 600

    predefined_metric_specification {
      predefined_metric_type = "ECSServiceAverageCPUUtilization"
    }
  }
}

resource "aws_appautoscaling_policy" "requests" {
  count = var.requests_per_task_target == null ? 0 : 1

  name               = "${var.name}-requests"
  policy_type        = "TargetTrackingScaling"
  service_namespace  = aws_appautoscaling_target.registry.service_namespace
  resource_id        = aws_appautoscaling_target.registry.resource_id
  scalable_dimension = aws_appautoscaling_target.registry.scalable_dimension

  target_tracking_scaling_policy_configuration {
    target_value       = var.requests_per_task_target
    scale_out_cooldown = 60
    scale_in_cooldown  = 600

    predefined_metric_specification {
      predefined_metric_type = "ALBRequestCountPerTarget"
      resource_label         = "${aws_lb.registry.arn_suffix}/${aws_lb_target_group.registry.arn_suffix}"
    }
  }
}
