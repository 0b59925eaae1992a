# Provider-free: runs with `tofu test` without the AWS provider.

variables {
  bucket_arn               = "arn:aws:s3:::lf-123456789012-eu-west-1"
  secret_arns              = ["arn:aws:secretsmanager:eu-west-1:123456789012:secret:/layerfold/lf/redis-url-AbCdEf"]
  ssm_parameter_arns       = ["arn:aws:ssm:eu-west-1:123456789012:parameter/layerfold/lf/cwagent-config"]
  container_log_group_arns = ["arn:aws:logs:eu-west-1:123456789012:log-group:/layerfold/lf/registry"]
  metrics_log_group_arn    = "arn:aws:logs:eu-west-1:123456789012:log-group:/layerfold/lf/metrics"
  account_id               = "123456789012"
}

run "task_role_is_the_bucket_only" {
  command = apply

  assert {
    condition = alltrue(flatten([
      for s in jsondecode(output.task_role_policy).Statement : [
        for r in s.Resource : r != "*"
      ]
    ]))
    error_message = "no statement of the task role is on every resource"
  }

  assert {
    condition = alltrue(flatten([
      for s in jsondecode(output.task_role_policy).Statement : [
        for r in s.Resource : startswith(r, "arn:aws:s3:::lf-123456789012-eu-west-1") if startswith(s.Sid, "Registry")
      ]
    ]))
    error_message = "S3 actions only on the registry's bucket and its objects"
  }

  assert {
    condition     = !strcontains(output.task_role_policy, "s3:*")
    error_message = "no S3 action wildcard"
  }
}

run "execution_role_names_every_secret" {
  command = apply

  assert {
    condition = alltrue(flatten([
      for s in jsondecode(output.execution_role_policy).Statement : [for r in s.Resource : r != "*"]
    ]))
    error_message = "without ECR, no statement is on every resource"
  }

  assert {
    condition = contains(flatten([
      for s in jsondecode(output.execution_role_policy).Statement : s.Resource if s.Sid == "SecretsByReference"
    ]), "arn:aws:secretsmanager:eu-west-1:123456789012:secret:/layerfold/lf/redis-url-AbCdEf")
    error_message = "the execution role resolves exactly the named secrets"
  }

  assert {
    condition     = jsondecode(output.assume_role_policy).Statement[0].Condition.StringEquals["aws:SourceAccount"] == "123456789012"
    error_message = "roles are assumable by this account's tasks only"
  }
}

run "ecr_token_is_the_one_documented_wildcard" {
  command = apply

  variables {
    ecr_repository_arn = "arn:aws:ecr:eu-west-1:123456789012:repository/layerfold"
  }

  assert {
    condition = alltrue([
      for s in jsondecode(output.execution_role_policy).Statement :
      s.Action == ["ecr:GetAuthorizationToken"] if contains(s.Resource, "*")
    ])
    error_message = "only ecr:GetAuthorizationToken may be on every resource"
  }
}

run "rejects_wildcard_bucket" {
  command = plan

  variables {
    bucket_arn = "arn:aws:s3:::*"
  }

  expect_failures = [var.bucket_arn]
}

run "rejects_wildcard_secret" {
  command = plan

  variables {
    secret_arns = ["arn:aws:secretsmanager:eu-west-1:123456789012:secret:*"]
  }

  expect_failures = [var.secret_arns]
}
