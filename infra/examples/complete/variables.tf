variable "region" {
  description = "AWS region."
  type        = string
  default     = "eu-west-1"
}

variable "name" {
  description = "Deployment name."
  type        = string
  default     = "layerfold"
}

variable "domain_name" {
  description = "Registry host name, e.g. registry.example.com."
  type        = string
}

variable "route53_zone_id" {
  description = "Hosted zone of domain_name (certificate validation and the alias record)."
  type        = string
}

variable "image" {
  description = "Registry image built from the repository's Dockerfile and pushed to a registry the tasks can pull from, e.g. 123456789012.dkr.ecr.eu-west-1.amazonaws.com/layerfold:0.1.0."
  type        = string
}

variable "ecr_repository_arn" {
  description = "ARN of the ECR repository of image, or null for a public image."
  type        = string
  default     = null
}

variable "alarm_email" {
  description = "E-mail address subscribed to the alarms, or null."
  type        = string
  default     = null
}

variable "vpc_cidr" {
  description = "CIDR block of the new VPC."
  type        = string
  default     = "10.40.0.0/16"
}
