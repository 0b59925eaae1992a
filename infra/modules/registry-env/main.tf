# The registry container's environment: plain settings as `environment`, everything secret as ECS
# `secrets` references (Secrets Manager ARNs), never as values. Every LAYERFOLD_* name here is a real
# configuration key: server/src/test/.../InfraConfigurationKeysTest checks them against the
# application's @ConfigurationProperties classes, so a renamed key fails the Java build.
# Provider-free: `tofu test` applies it without any provider.

terraform {
  required_version = ">= 1.6.0"
}

locals {
  managed = merge(
    {
      LAYERFOLD_PORT                    = tostring(var.registry_port)
      LAYERFOLD_STORAGE_BLOB            = "s3"
      LAYERFOLD_STORAGE_METADATA        = "redis"
      LAYERFOLD_STORAGE_PATH            = var.data_path
      LAYERFOLD_STORAGE_S3_BUCKET       = var.bucket
      LAYERFOLD_STORAGE_S3_REGION       = var.region
      LAYERFOLD_STORAGE_REDIS_CLUSTER   = tostring(var.redis_cluster)
      LAYERFOLD_STORAGE_REDIS_NAMESPACE = var.redis_namespace
      LAYERFOLD_AUTH_MODE               = var.auth_mode
      LAYERFOLD_DEDUP_WORKERS           = tostring(var.dedup_workers)
      LAYERFOLD_PREDICTOR_DISK_SIZE     = var.predictor_disk_size
      # Spring Boot's own keys: the actuator on its own port, reachable by the metrics sidecar and
      # the container health check, never by the load balancer (its target group is the registry port).
      MANAGEMENT_SERVER_PORT    = tostring(var.management_port)
      MANAGEMENT_SERVER_ADDRESS = "0.0.0.0"
      # The load balancer terminates TLS: take scheme, host and port of Location headers and the token
      # realm from its X-Forwarded-* headers.
      SERVER_FORWARD_HEADERS_STRATEGY = "native"
    },
    var.auth_realm == null ? {} : { LAYERFOLD_AUTH_REALM = var.auth_realm },
  )

  collisions = setintersection(keys(local.managed), keys(var.extra_environment))
  all        = merge(var.extra_environment, local.managed)

  # ECS `secrets`: the agent resolves each ARN when the task starts; the value never enters the task
  # definition. The htpasswd file and signing key are files for the registry: the container's entry
  # point writes these two variables to files and unsets them (see the root module's ecs.tf).
  secrets = concat(
    [{ name = "LAYERFOLD_STORAGE_REDIS_URL", valueFrom = var.redis_url_secret_arn }],
    var.htpasswd_secret_arn == null ? [] : [{ name = "LF_HTPASSWD_CONTENT", valueFrom = var.htpasswd_secret_arn }],
    var.signing_key_secret_arn == null ? [] : [{ name = "LF_SIGNING_KEY_PEM", valueFrom = var.signing_key_secret_arn }],
  )
}
