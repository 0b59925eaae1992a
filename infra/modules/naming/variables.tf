variable "name" {
  description = "Deployment name: lowercase letters, digits and hyphens, starting with a letter, 2 to 24 characters."
  type        = string

  validation {
    condition     = can(regex("^[a-z][a-z0-9-]{0,22}[a-z0-9]$", var.name))
    error_message = "name must be 2-24 characters of a-z, 0-9 and '-', start with a letter and not end with '-'."
  }
}

variable "account_id" {
  description = "AWS account id, made part of the bucket name (bucket names are global)."
  type        = string

  validation {
    condition     = can(regex("^[0-9]{12}$", var.account_id))
    error_message = "account_id must be 12 digits."
  }
}

variable "region" {
  description = "AWS region, made part of the bucket name."
  type        = string

  validation {
    condition     = can(regex("^[a-z]{2}(-[a-z]+)+-[0-9]$", var.region))
    error_message = "region must look like eu-west-1."
  }
}

variable "tags" {
  description = "Extra tags for every resource."
  type        = map(string)
  default     = {}
}
