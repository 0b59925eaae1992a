# Two roles, policies from the provider-free iam-policies module (tested with `tofu test`):
#   execution role: what ECS needs to start a task (its log streams, the named secrets, the image);
#   task role:      what the registry's code and the metrics sidecar call (the bucket, the EMF log group).

resource "aws_iam_role" "execution" {
  name               = "${var.name}-execution"
  assume_role_policy = module.iam_policies.assume_role_policy
  tags               = local.tags
}

resource "aws_iam_role_policy" "execution" {
  name   = "layerfold-execution"
  role   = aws_iam_role.execution.id
  policy = module.iam_policies.execution_role_policy
}

resource "aws_iam_role" "task" {
  name               = "${var.name}-task"
  assume_role_policy = module.iam_policies.assume_role_policy
  tags               = local.tags
}

resource "aws_iam_role_policy" "task" {
  name   = "layerfold-task"
  role   = aws_iam_role.task.id
  policy = module.iam_policies.task_role_policy
}
