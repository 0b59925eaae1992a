# ElastiCache Redis: TLS in transit, encrypted at rest, AUTH token, Multi-AZ with automatic failover,
# daily snapshots. Cluster mode (redis_cluster_mode) shards the index over redis_shards node groups.
#
# Persistence: ElastiCache has no appendfsync-always AOF (the compose file's setting). What a failover
# to a lagging replica or a restore from a snapshot loses, the registry rebuilds from the bucket (the
# index remembers the run id it was complete on and reconciles); chunked uploads in progress at that
# moment are lost and their clients push that blob again. Nothing already pushed is lost.

resource "random_password" "redis_auth" {
  length  = 64
  special = false # ElastiCache AUTH tokens: printable ASCII without @ " / and spaces
}

resource "aws_elasticache_subnet_group" "redis" {
  name       = module.naming.redis
  subnet_ids = var.private_subnet_ids
  tags       = local.tags
}

resource "aws_elasticache_replication_group" "redis" {
  replication_group_id = module.naming.redis
  description          = "Layerfold ${var.name} metadata index"
  engine               = "redis"
  engine_version       = var.redis_engine_version
  node_type            = var.redis_node_type
  port                 = 6379
  parameter_group_name = var.redis_cluster_mode ? "default.redis7.cluster.on" : "default.redis7"

  num_node_groups         = var.redis_cluster_mode ? var.redis_shards : 1
  replicas_per_node_group = var.redis_replicas
  multi_az_enabled        = true

  automatic_failover_enabled = true
  subnet_group_name          = aws_elasticache_subnet_group.redis.name
  security_group_ids         = [aws_security_group.redis.id]

  at_rest_encryption_enabled = true
  kms_key_id                 = var.kms_key_arn
  transit_encryption_enabled = true
  auth_token                 = random_password.redis_auth.result
  auth_token_update_strategy = "ROTATE"

  snapshot_retention_limit   = var.redis_snapshot_retention_days
  snapshot_window            = "03:00-04:00"
  maintenance_window         = "sun:05:00-sun:06:00"
  auto_minor_version_upgrade = true
  apply_immediately          = false
  tags                       = local.tags
}

locals {
  # rediss:// (TLS). ElastiCache's certificates chain to Amazon's public roots, which the JVM trusts.
  # Cluster node addresses may not match the certificate's names: verifyPeer=CA checks the chain only.
  redis_host = var.redis_cluster_mode ? aws_elasticache_replication_group.redis.configuration_endpoint_address : aws_elasticache_replication_group.redis.primary_endpoint_address
  redis_url  = "rediss://:${random_password.redis_auth.result}@${local.redis_host}:6379${var.redis_cluster_mode ? "?verifyPeer=CA" : ""}"
}
