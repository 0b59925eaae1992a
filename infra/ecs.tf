# ECS on Fargate (see README.md, "Why Fargate"): the registry task and a CloudWatch agent sidecar.

resource "aws_ecs_cluster" "registry" {
  name = var.name
  tags = local.tags

  setting {
    name  = "containerInsights"
    value = "enabled"
  }
}

locals {
  registry_memory = var.memory - var.agent_memory

  # The registry reads its users and signing key from files (layerfold.auth.htpasswd / .signing-key).
  # ECS hands secrets over as variables: write them to files readable by the registry's user only,
  # drop the variables, and start the JVM as the image's ENTRYPOINT does.
  entrypoint_script = join("\n", [
    "set -eu",
    "umask 077",
    "mkdir -p ${local.secrets_dir}",
    "if [ -n \"$${LF_HTPASSWD_CONTENT:-}\" ]; then printf '%s\\n' \"$LF_HTPASSWD_CONTENT\" > ${local.secrets_dir}/htpasswd; export LAYERFOLD_AUTH_HTPASSWD=${local.secrets_dir}/htpasswd; fi",
    "if [ -n \"$${LF_SIGNING_KEY_PEM:-}\" ]; then printf '%s\\n' \"$LF_SIGNING_KEY_PEM\" > ${local.secrets_dir}/signing-key.pem; export LAYERFOLD_AUTH_SIGNING_KEY=${local.secrets_dir}/signing-key.pem; fi",
    "unset LF_HTPASSWD_CONTENT LF_SIGNING_KEY_PEM",
    "exec java -XX:MaxRAMPercentage=75 -XX:+ExitOnOutOfMemoryError -jar /opt/layerfold/layerfold.jar",
  ])

  # Readiness on the management port, from inside the container (bash's /dev/tcp: the image has no curl).
  health_command = "exec 3<>/dev/tcp/127.0.0.1/${local.management_port} && printf 'GET /actuator/health/readiness HTTP/1.0\\r\\n\\r\\n' >&3 && grep -q '\"UP\"' <&3"

  registry_container = {
    name             = "registry"
    image            = var.image
    essential        = true
    memory           = local.registry_memory
    entryPoint       = ["bash", "-c", local.entrypoint_script]
    portMappings     = [{ containerPort = local.registry_port, protocol = "tcp", name = "registry" }]
    environment      = module.registry_env.environment
    secrets          = module.registry_env.secrets
    stopTimeout      = 120
    ulimits          = [{ name = "nofile", softLimit = 65536, hardLimit = 65536 }]
    linuxParameters  = { initProcessEnabled = true }
    healthCheck      = { command = ["CMD", "bash", "-c", local.health_command], interval = 15, timeout = 5, retries = 3, startPeriod = 120 }
    logConfiguration = { logDriver = "awslogs", options = { "awslogs-group" = aws_cloudwatch_log_group.registry.name, "awslogs-region" = local.region, "awslogs-stream-prefix" = "registry" } }
  }

  agent_container = {
    name      = "cloudwatch-agent"
    image     = var.agent_image
    essential = false
    memory    = var.agent_memory
    # The agent's configuration and scrape configuration come from SSM parameters by reference.
    secrets = [
      { name = "CW_CONFIG_CONTENT", valueFrom = aws_ssm_parameter.agent_config.arn },
      { name = "PROMETHEUS_CONFIG_CONTENT", valueFrom = aws_ssm_parameter.prometheus_config.arn },
    ]
    dependsOn        = [{ containerName = "registry", condition = "START" }]
    logConfiguration = { logDriver = "awslogs", options = { "awslogs-group" = aws_cloudwatch_log_group.agent.name, "awslogs-region" = local.region, "awslogs-stream-prefix" = "agent" } }
  }
}

resource "aws_ecs_task_definition" "registry" {
  family                   = var.name
  requires_compatibilities = ["FARGATE"]
  network_mode             = "awsvpc"
  cpu                      = var.cpu
  memory                   = var.memory
  execution_role_arn       = aws_iam_role.execution.arn
  task_role_arn            = aws_iam_role.task.arn
  container_definitions    = jsonencode([local.registry_container, local.agent_container])
  tags                     = local.tags

  ephemeral_storage {
    size_in_gib = var.ephemeral_storage_gib
  }

  runtime_platform {
    operating_system_family = "LINUX"
    cpu_architecture        = "X86_64"
  }
}

resource "aws_ecs_service" "registry" {
  name                              = var.name
  cluster                           = aws_ecs_cluster.registry.id
  task_definition                   = aws_ecs_task_definition.registry.arn
  desired_count                     = var.min_tasks
  launch_type                       = "FARGATE"
  platform_version                  = "LATEST"
  health_check_grace_period_seconds = 180
  propagate_tags                    = "SERVICE"
  enable_execute_command            = false
  tags                              = local.tags

  deployment_minimum_healthy_percent = 100
  deployment_maximum_percent         = 200

  deployment_circuit_breaker {
    enable   = true
    rollback = true
  }

  network_configuration {
    subnets          = var.private_subnet_ids
    security_groups  = [aws_security_group.tasks.id]
    assign_public_ip = false
  }

  load_balancer {
    target_group_arn = aws_lb_target_group.registry.arn
    container_name   = "registry"
    container_port   = local.registry_port
  }

  lifecycle {
    ignore_changes = [desired_count] # autoscaling owns it
  }

  depends_on = [aws_lb_listener.https, aws_iam_role_policy.execution, aws_iam_role_policy.task]
}
