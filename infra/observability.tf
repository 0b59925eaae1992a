# Logs, the registry's own metrics in CloudWatch, and alarms on them.
#
# How metrics reach CloudWatch: the registry serves Micrometer's Prometheus format at
# /actuator/prometheus on the management port. A CloudWatch agent sidecar in the same task (awsvpc:
# one network namespace) scrapes localhost:5001 every 30 s and writes the selected series as
# embedded-metric-format log events to the metrics log group, which CloudWatch turns into metrics in
# the namespace Layerfold/<name>, dimension `deployment`. The agent sends counters (and the _count of
# timers) as the delta since its previous scrape, so Sum over a period is the events in that period.

resource "aws_cloudwatch_log_group" "registry" {
  name              = module.naming.log_groups.registry
  retention_in_days = var.log_retention_days
  kms_key_id        = var.kms_key_arn
  tags              = local.tags
}

resource "aws_cloudwatch_log_group" "agent" {
  name              = module.naming.log_groups.agent
  retention_in_days = var.log_retention_days
  kms_key_id        = var.kms_key_arn
  tags              = local.tags
}

resource "aws_cloudwatch_log_group" "metrics" {
  name              = module.naming.log_groups.metrics
  retention_in_days = var.log_retention_days
  kms_key_id        = var.kms_key_arn
  tags              = local.tags
}

locals {
  metric_namespace = module.naming.metric_namespace
  dimensions       = { deployment = var.name }

  # Meter names as the registry registers them (grep 'builder("layerfold' in the Java sources), in
  # Prometheus form: dots become underscores, counters end in _total.
  registry_metrics = [
    "layerfold_restore_verification_failures_total", # restore-service LayerRestorer
    "layerfold_dedup_backlog",                       # dedup-core DedupMetrics
    "layerfold_dedup_saved_bytes",
    "layerfold_dedup_tasks_total",
    "layerfold_restore_duration_seconds_count",
    "layerfold_gc_check_problems", # server GcRuns
    "jvm_memory_used_bytes",
  ]

  prometheus_config = yamlencode({
    global = { scrape_interval = "30s", scrape_timeout = "10s" }
    scrape_configs = [{
      job_name     = "layerfold"
      metrics_path = "/actuator/prometheus"
      static_configs = [{
        targets = ["localhost:${local.management_port}"]
        labels  = { deployment = var.name }
      }]
    }]
  })

  agent_config = jsonencode({
    agent = { debug = false }
    logs = {
      force_flush_interval = 15
      metrics_collected = {
        prometheus = {
          log_group_name         = aws_cloudwatch_log_group.metrics.name
          prometheus_config_path = "env:PROMETHEUS_CONFIG_CONTENT"
          emf_processor = {
            metric_namespace = local.metric_namespace
            metric_declaration = [
              {
                # http.server.requests by outcome (SUCCESS, CLIENT_ERROR, SERVER_ERROR, ...) and all together.
                source_labels    = ["job"]
                label_matcher    = "^layerfold$"
                dimensions       = [["deployment", "outcome"], ["deployment"]]
                metric_selectors = ["^http_server_requests_seconds_count$"]
              },
              {
                source_labels    = ["job"]
                label_matcher    = "^layerfold$"
                dimensions       = [["deployment"]]
                metric_selectors = [for m in local.registry_metrics : "^${m}$"]
              },
            ]
          }
        }
      }
    }
  })
}

resource "aws_ssm_parameter" "agent_config" {
  name        = "${module.naming.secret_prefix}/cloudwatch-agent-config"
  description = "CloudWatch agent configuration of the ${var.name} tasks (not secret)"
  type        = "String"
  tier        = "Standard"
  value       = local.agent_config
  tags        = local.tags
}

resource "aws_ssm_parameter" "prometheus_config" {
  name        = "${module.naming.secret_prefix}/prometheus-scrape-config"
  description = "Prometheus scrape configuration of the ${var.name} CloudWatch agent (not secret)"
  type        = "String"
  tier        = "Standard"
  value       = local.prometheus_config
  tags        = local.tags
}

# Redis and S3 errors. The registry wraps backend failures in IOExceptions and has no meter per
# backend (yet): count them from its log, where every failed request logs its stack trace and the
# awslogs driver makes each line an event, so each failure's root cause is one "Caused by:" line.
resource "aws_cloudwatch_log_metric_filter" "redis_errors" {
  name           = "${var.name}-redis-errors"
  log_group_name = aws_cloudwatch_log_group.registry.name
  pattern        = "\"Caused by: io.lettuce.core\""

  metric_transformation {
    name          = "redis_client_errors"
    namespace     = local.metric_namespace
    value         = "1"
    default_value = "0"
    unit          = "Count"
  }
}

resource "aws_cloudwatch_log_metric_filter" "s3_errors" {
  name           = "${var.name}-s3-errors"
  log_group_name = aws_cloudwatch_log_group.registry.name
  pattern        = "\"Caused by: software.amazon.awssdk\""

  metric_transformation {
    name          = "s3_client_errors"
    namespace     = local.metric_namespace
    value         = "1"
    default_value = "0"
    unit          = "Count"
  }
}

resource "aws_cloudwatch_metric_alarm" "server_error_rate" {
  alarm_name          = "${var.name}-5xx-rate"
  alarm_description   = "More than ${var.error_rate_percent}% of the registry's requests answered 5xx (http_server_requests, outcome SERVER_ERROR) for 5 minutes."
  comparison_operator = "GreaterThanThreshold"
  threshold           = var.error_rate_percent
  evaluation_periods  = 5
  datapoints_to_alarm = 5
  treat_missing_data  = "notBreaching"
  alarm_actions       = var.alarm_actions
  ok_actions          = var.alarm_actions
  tags                = local.tags

  metric_query {
    id          = "rate"
    expression  = "IF(total > 20, 100 * FILL(errors, 0) / total, 0)"
    label       = "5xx percent"
    return_data = true
  }

  metric_query {
    id = "errors"
    metric {
      namespace   = local.metric_namespace
      metric_name = "http_server_requests_seconds_count"
      dimensions  = merge(local.dimensions, { outcome = "SERVER_ERROR" })
      period      = 60
      stat        = "Sum"
    }
  }

  metric_query {
    id = "total"
    metric {
      namespace   = local.metric_namespace
      metric_name = "http_server_requests_seconds_count"
      dimensions  = local.dimensions
      period      = 60
      stat        = "Sum"
    }
  }
}

resource "aws_cloudwatch_metric_alarm" "restore_verification_failures" {
  alarm_name          = "${var.name}-restore-verification-failures"
  alarm_description   = "A rebuilt layer did not match its digest (layerfold_restore_verification_failures_total): the codec or stored data is wrong. Never expected; investigate at once."
  namespace           = local.metric_namespace
  metric_name         = "layerfold_restore_verification_failures_total"
  dimensions          = local.dimensions
  statistic           = "Sum"
  period              = 300
  evaluation_periods  = 1
  threshold           = 0
  comparison_operator = "GreaterThanThreshold"
  treat_missing_data  = "notBreaching"
  alarm_actions       = var.alarm_actions
  ok_actions          = var.alarm_actions
  tags                = local.tags
}

resource "aws_cloudwatch_metric_alarm" "dedup_backlog" {
  alarm_name          = "${var.name}-dedup-backlog"
  alarm_description   = "More than ${var.dedup_backlog_threshold} layers waited for deduplication for an hour (layerfold_dedup_backlog): add workers (dedup_workers, max_tasks) or look for a stuck worker."
  namespace           = local.metric_namespace
  metric_name         = "layerfold_dedup_backlog"
  dimensions          = local.dimensions
  statistic           = "Minimum"
  period              = 600
  evaluation_periods  = 6
  threshold           = var.dedup_backlog_threshold
  comparison_operator = "GreaterThanThreshold"
  treat_missing_data  = "notBreaching"
  alarm_actions       = var.alarm_actions
  ok_actions          = var.alarm_actions
  tags                = local.tags
}

resource "aws_cloudwatch_metric_alarm" "redis_errors" {
  alarm_name          = "${var.name}-redis-errors"
  alarm_description   = "The registry logged more than ${var.backend_errors_threshold} Redis client failures in 5 minutes."
  namespace           = local.metric_namespace
  metric_name         = "redis_client_errors"
  statistic           = "Sum"
  period              = 300
  evaluation_periods  = 1
  threshold           = var.backend_errors_threshold
  comparison_operator = "GreaterThanThreshold"
  treat_missing_data  = "notBreaching"
  alarm_actions       = var.alarm_actions
  ok_actions          = var.alarm_actions
  tags                = local.tags
}

resource "aws_cloudwatch_metric_alarm" "s3_errors" {
  alarm_name          = "${var.name}-s3-errors"
  alarm_description   = "The registry logged more than ${var.backend_errors_threshold} S3 client failures in 5 minutes."
  namespace           = local.metric_namespace
  metric_name         = "s3_client_errors"
  statistic           = "Sum"
  period              = 300
  evaluation_periods  = 1
  threshold           = var.backend_errors_threshold
  comparison_operator = "GreaterThanThreshold"
  treat_missing_data  = "notBreaching"
  alarm_actions       = var.alarm_actions
  ok_actions          = var.alarm_actions
  tags                = local.tags
}

resource "aws_cloudwatch_metric_alarm" "no_healthy_tasks" {
  alarm_name          = "${var.name}-no-healthy-tasks"
  alarm_description   = "The load balancer sees fewer than one healthy registry task (GET /v2/ answers neither 200 nor 401)."
  namespace           = "AWS/ApplicationELB"
  metric_name         = "HealthyHostCount"
  dimensions          = { LoadBalancer = aws_lb.registry.arn_suffix, TargetGroup = aws_lb_target_group.registry.arn_suffix }
  statistic           = "Minimum"
  period              = 60
  evaluation_periods  = 3
  threshold           = 1
  comparison_operator = "LessThanThreshold"
  treat_missing_data  = "breaching"
  alarm_actions       = var.alarm_actions
  ok_actions          = var.alarm_actions
  tags                = local.tags
}

resource "aws_cloudwatch_metric_alarm" "redis_memory" {
  alarm_name          = "${var.name}-redis-memory"
  alarm_description   = "Redis uses more than 80% of its memory: the index outgrows redis_node_type."
  namespace           = "AWS/ElastiCache"
  metric_name         = "DatabaseMemoryUsagePercentage"
  dimensions          = { ReplicationGroupId = aws_elasticache_replication_group.redis.id }
  statistic           = "Maximum"
  period              = 300
  evaluation_periods  = 3
  threshold           = 80
  comparison_operator = "GreaterThanThreshold"
  treat_missing_data  = "notBreaching"
  alarm_actions       = var.alarm_actions
  ok_actions          = var.alarm_actions
  tags                = local.tags
}
