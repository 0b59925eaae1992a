# OpenTofu >= 1.6 and Terraform >= 1.6 both read this module (tests use `tofu test` / `terraform test`).
terraform {
  required_version = ">= 1.6.0"

  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = ">= 5.40.0, < 7.0.0"
    }
    random = {
      source  = "hashicorp/random"
      version = ">= 3.4.0" # random_password.bcrypt_hash
    }
    tls = {
      source  = "hashicorp/tls"
      version = ">= 4.0.0"
    }
  }
}
