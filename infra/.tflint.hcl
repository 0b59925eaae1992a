# tflint with its built-in Terraform ruleset, every rule on. The AWS ruleset (tflint-ruleset-aws) is a
# plugin downloaded from GitHub releases, which these machines cannot reach: it is not used.
config {
  call_module_type = "local"
}

plugin "terraform" {
  enabled = true
  preset  = "all"
}
