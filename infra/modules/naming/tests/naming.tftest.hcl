# Provider-free: runs with `tofu test` (or `terraform test`) without the AWS provider.

run "short_name" {
  command = apply

  variables {
    name       = "lf"
    account_id = "123456789012"
    region     = "eu-west-1"
  }

  assert {
    condition     = output.bucket == "lf-123456789012-eu-west-1"
    error_message = "bucket name is name-account-region"
  }

  assert {
    condition     = output.target_group == "lf-5000"
    error_message = "target group names the registry port"
  }

  assert {
    condition     = output.tags["layerfold:deployment"] == "lf"
    error_message = "every resource is tagged with the deployment"
  }
}

run "longest_name_fits_every_limit" {
  command = apply

  variables {
    name       = "abcdefghijklmnopqrstuvwx"
    account_id = "123456789012"
    region     = "ap-southeast-2"
  }

  assert {
    condition     = length(output.alb) <= 32 && length(output.target_group) <= 32
    error_message = "ALB and target group names fit 32 characters"
  }

  assert {
    condition     = length(output.bucket) <= 63 && can(regex("^[a-z0-9][a-z0-9-]*[a-z0-9]$", output.bucket))
    error_message = "bucket name fits S3's rules"
  }

  assert {
    condition     = length(output.redis) <= 40
    error_message = "replication group id fits 40 characters"
  }
}

run "rejects_uppercase_name" {
  command = plan

  variables {
    name       = "Layerfold"
    account_id = "123456789012"
    region     = "eu-west-1"
  }

  expect_failures = [var.name]
}

run "rejects_bad_account" {
  command = plan

  variables {
    name       = "lf"
    account_id = "1234"
    region     = "eu-west-1"
  }

  expect_failures = [var.account_id]
}
