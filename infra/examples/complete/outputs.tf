output "registry_url" {
  description = "The registry's URL."
  value       = module.layerfold.registry_url
}

output "bucket" {
  description = "The registry's bucket."
  value       = module.layerfold.bucket
}

output "sign_in" {
  description = "How to sign in."
  value       = module.layerfold.sign_in
}
