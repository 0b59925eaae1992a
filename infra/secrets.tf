# Every secret lives in Secrets Manager; the task definition carries only their ARNs (ECS `secrets`),
# resolved by the ECS agent when a task starts. The values the module generates (Redis token, the first
# user's password, the signing key) are also in the Terraform state: keep the state encrypted.

resource "aws_secretsmanager_secret" "redis_url" {
  name                    = "${module.naming.secret_prefix}/redis-url"
  description             = "Layerfold ${var.name}: rediss:// URL with the ElastiCache AUTH token"
  kms_key_id              = var.kms_key_arn
  recovery_window_in_days = 7
  tags                    = local.tags
}

resource "aws_secretsmanager_secret_version" "redis_url" {
  secret_id     = aws_secretsmanager_secret.redis_url.id
  secret_string = local.redis_url
}

# The first user, when you bring no htpasswd file: admin_username with a random password. The hash
# is random_password's own bcrypt hash (stable across plans, unlike bcrypt()), which the registry's
# htpasswd reader accepts like htpasswd -B output.
resource "random_password" "admin" {
  count = var.htpasswd_secret_arn == null && var.auth_mode != "none" ? 1 : 0

  length  = 32
  special = false
}

resource "aws_secretsmanager_secret" "admin_password" {
  count = length(random_password.admin)

  name                    = "${module.naming.secret_prefix}/admin-password"
  description             = "Layerfold ${var.name}: password of ${var.admin_username}"
  kms_key_id              = var.kms_key_arn
  recovery_window_in_days = 7
  tags                    = local.tags
}

resource "aws_secretsmanager_secret_version" "admin_password" {
  count = length(random_password.admin)

  secret_id     = aws_secretsmanager_secret.admin_password[0].id
  secret_string = random_password.admin[0].result
}

resource "aws_secretsmanager_secret" "htpasswd" {
  count = length(random_password.admin)

  name                    = "${module.naming.secret_prefix}/htpasswd"
  description             = "Layerfold ${var.name}: htpasswd file (bcrypt) of the registry's users"
  kms_key_id              = var.kms_key_arn
  recovery_window_in_days = 7
  tags                    = local.tags
}

resource "aws_secretsmanager_secret_version" "htpasswd" {
  count = length(random_password.admin)

  secret_id     = aws_secretsmanager_secret.htpasswd[0].id
  secret_string = "${var.admin_username}:${random_password.admin[0].bcrypt_hash}\n"
}

# One signing key for every task, so a token from one task is valid at all of them.
resource "tls_private_key" "signing" {
  count = var.signing_key_secret_arn == null && var.auth_mode == "token" ? 1 : 0

  algorithm   = "ECDSA"
  ecdsa_curve = "P256"
}

resource "aws_secretsmanager_secret" "signing_key" {
  count = length(tls_private_key.signing)

  name                    = "${module.naming.secret_prefix}/token-signing-key"
  description             = "Layerfold ${var.name}: PKCS#8 PEM key the built-in /token endpoint signs with"
  kms_key_id              = var.kms_key_arn
  recovery_window_in_days = 7
  tags                    = local.tags
}

resource "aws_secretsmanager_secret_version" "signing_key" {
  count = length(tls_private_key.signing)

  secret_id     = aws_secretsmanager_secret.signing_key[0].id
  secret_string = tls_private_key.signing[0].private_key_pem_pkcs8
}

locals {
  htpasswd_secret_arn    = var.htpasswd_secret_arn != null ? var.htpasswd_secret_arn : try(aws_secretsmanager_secret.htpasswd[0].arn, null)
  signing_key_secret_arn = var.signing_key_secret_arn != null ? var.signing_key_secret_arn : try(aws_secretsmanager_secret.signing_key[0].arn, null)
}
