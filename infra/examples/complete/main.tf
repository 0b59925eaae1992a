# A complete Layerfold registry in a new VPC: copy this folder, set the variables in a
# terraform.tfvars (see terraform.tfvars.example), then `terraform init && terraform apply`
# (or `tofu init && tofu apply`).

terraform {
  required_version = ">= 1.6.0"

  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = ">= 5.40.0, < 7.0.0"
    }
  }

  # Keep the state remote and encrypted: it holds the generated Redis token, first password and
  # signing key. For example:
  # backend "s3" {
  #   bucket       = "my-terraform-state"
  #   key          = "layerfold/terraform.tfstate"
  #   region       = "eu-west-1"
  #   encrypt      = true
  #   use_lockfile = true
  # }
}

provider "aws" {
  region = var.region

  default_tags {
    tags = { project = "layerfold" }
  }
}

module "layerfold" {
  source = "../.."

  name               = var.name
  vpc_id             = aws_vpc.this.id
  public_subnet_ids  = aws_subnet.public[*].id
  private_subnet_ids = aws_subnet.private[*].id
  domain_name        = var.domain_name
  route53_zone_id    = var.route53_zone_id
  image              = var.image
  ecr_repository_arn = var.ecr_repository_arn
  alarm_actions      = aws_sns_topic.alarms[*].arn

  # The load balancer is protected from deletion and the bucket is never emptied by Terraform. To tear
  # a trial down: apply with deletion_protection = false and force_destroy = true, then destroy.
}

resource "aws_sns_topic" "alarms" {
  count = var.alarm_email == null ? 0 : 1

  name              = "${var.name}-alarms"
  kms_master_key_id = "alias/aws/sns"
}

resource "aws_sns_topic_subscription" "alarms" {
  count = var.alarm_email == null ? 0 : 1

  topic_arn = aws_sns_topic.alarms[0].arn
  protocol  = "email"
  endpoint  = var.alarm_email
}
