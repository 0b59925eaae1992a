# Provider-free: runs with `tofu test` without the AWS provider.

variables {
  region               = "eu-west-1"
  bucket               = "lf-123456789012-eu-west-1"
  redis_url_secret_arn = "arn:aws:secretsmanager:eu-west-1:123456789012:secret:/layerfold/lf/redis-url-AbCdEf"
  htpasswd_secret_arn  = "arn:aws:secretsmanager:eu-west-1:123456789012:secret:/layerfold/lf/htpasswd-AbCdEf"
}

run "s3_and_redis_with_sign_in" {
  command = apply

  assert {
    condition     = { for e in output.environment : e.name => e.value }["LAYERFOLD_STORAGE_BLOB"] == "s3"
    error_message = "blobs go to S3"
  }

  assert {
    condition     = { for e in output.environment : e.name => e.value }["LAYERFOLD_STORAGE_METADATA"] == "redis"
    error_message = "metadata goes to Redis"
  }

  assert {
    condition     = { for e in output.environment : e.name => e.value }["MANAGEMENT_SERVER_PORT"] == "5001"
    error_message = "the actuator is on its own port"
  }

  assert {
    condition     = length([for e in output.environment : e if can(regex("REDIS_URL|HTPASSWD|SIGNING_KEY|SECRET", e.name))]) == 0
    error_message = "no secret is a plain environment value"
  }

  assert {
    condition     = alltrue([for s in output.secrets : startswith(s.valueFrom, "arn:aws:secretsmanager:")])
    error_message = "secrets are ARNs"
  }

  assert {
    condition     = contains([for s in output.secrets : s.name], "LAYERFOLD_STORAGE_REDIS_URL")
    error_message = "the Redis URL (with its token) is a secret reference"
  }

  assert {
    condition     = length(output.names) == length(distinct(output.names))
    error_message = "no name twice"
  }
}

run "cluster_mode" {
  command = apply

  variables {
    redis_cluster = true
  }

  assert {
    condition     = { for e in output.environment : e.name => e.value }["LAYERFOLD_STORAGE_REDIS_CLUSTER"] == "true"
    error_message = "cluster mode is passed on"
  }
}

run "extra_settings_merge" {
  command = apply

  variables {
    extra_environment = { LAYERFOLD_DEDUP_MODE = "selective" }
  }

  assert {
    condition     = contains([for e in output.environment : e.name], "LAYERFOLD_DEDUP_MODE")
    error_message = "extra settings are added"
  }
}

run "extra_settings_may_not_override" {
  command = plan

  variables {
    extra_environment = { LAYERFOLD_STORAGE_BLOB = "filesystem" }
  }

  expect_failures = [output.environment]
}

run "extra_settings_may_not_carry_secrets" {
  command = plan

  variables {
    extra_environment = { LAYERFOLD_STORAGE_S3_SECRET_KEY = "x" }
  }

  expect_failures = [output.environment]
}

run "token_mode_needs_users" {
  command = plan

  variables {
    htpasswd_secret_arn = null
  }

  expect_failures = [output.environment]
}

run "management_port_is_not_the_registry_port" {
  command = plan

  variables {
    management_port = 5000
  }

  expect_failures = [var.management_port]
}
