"""Structural tests of infra/ over its parsed HCL: what must be there, and what must never be."""
import re

import pytest

from hcl import INFRA, all_resources, blocks, expr, first, load_dir, locals_of, resources

REQUIRED = {
    "aws_ecs_cluster": 1,
    "aws_ecs_task_definition": 1,
    "aws_ecs_service": 1,
    "aws_lb": 1,
    "aws_lb_target_group": 1,
    "aws_lb_listener": 2,
    "aws_s3_bucket": 1,
    "aws_s3_bucket_public_access_block": 1,
    "aws_s3_bucket_server_side_encryption_configuration": 1,
    "aws_s3_bucket_versioning": 1,
    "aws_s3_bucket_lifecycle_configuration": 1,
    "aws_elasticache_replication_group": 1,
    "aws_iam_role": 2,
    "aws_secretsmanager_secret": 1,
    "aws_cloudwatch_log_group": 3,
    "aws_cloudwatch_metric_alarm": 5,
    "aws_appautoscaling_target": 1,
    "aws_appautoscaling_policy": 1,
    "aws_acm_certificate": 1,
}


@pytest.mark.parametrize("rtype,count", sorted(REQUIRED.items()))
def test_required_resources_exist(root, rtype, count):
    assert len(resources(root, rtype)) >= count, f"{rtype}: expected at least {count}"


def test_launch_type_is_fargate(root):
    service = first(resources(root, "aws_ecs_service")["registry"])
    assert service["launch_type"] == "FARGATE"
    net = first(service["network_configuration"])
    assert net["assign_public_ip"] is False


def test_bucket_blocks_public_access_and_encrypts(root):
    pab = resources(root, "aws_s3_bucket_public_access_block")["registry"]
    for flag in ("block_public_acls", "block_public_policy", "ignore_public_acls", "restrict_public_buckets"):
        assert pab[flag] is True, flag
    sse = resources(root, "aws_s3_bucket_server_side_encryption_configuration")["registry"]
    default = first(first(sse["rule"])["apply_server_side_encryption_by_default"])
    assert "AES256" in default["sse_algorithm"] and "aws:kms" in default["sse_algorithm"]


def test_lifecycle_aborts_incomplete_multipart_uploads(root):
    lifecycle = resources(root, "aws_s3_bucket_lifecycle_configuration")["registry"]
    rules = lifecycle["rule"]
    abort = [r for r in rules if "abort_incomplete_multipart_upload" in r]
    assert abort and abort[0]["status"] == "Enabled"
    assert "var.abort_multipart_days" in expr(first(abort[0]["abort_incomplete_multipart_upload"])["days_after_initiation"])


def test_redis_has_tls_auth_encryption_failover_and_snapshots(root):
    redis = resources(root, "aws_elasticache_replication_group")["redis"]
    assert redis["transit_encryption_enabled"] is True
    assert redis["at_rest_encryption_enabled"] is True
    assert redis["automatic_failover_enabled"] is True
    assert redis["multi_az_enabled"] is True
    assert "random_password.redis_auth" in expr(redis["auth_token"])
    assert "var.redis_snapshot_retention_days" in expr(redis["snapshot_retention_limit"])
    assert "var.redis_cluster_mode" in expr(redis["num_node_groups"])


def test_redis_url_is_tls(root):
    assert "rediss://" in expr(locals_of(root)["redis_url"])


# --- secrets are references ----------------------------------------------------------------------

SECRET_NAME = re.compile(r"(SECRET|PASSWORD|TOKEN|REDIS_URL|ACCESS_KEY|HTPASSWD_CONTENT|SIGNING_KEY_PEM)", re.I)


def test_plain_environment_has_no_secret(registry_env):
    managed = expr(locals_of(registry_env)["managed"])
    names = re.findall(r"\b([A-Z][A-Z0-9_]+)\s*=", managed)
    assert "LAYERFOLD_STORAGE_BLOB" in names
    assert not [n for n in names if SECRET_NAME.search(n)], names


def test_secrets_are_secrets_manager_references(registry_env):
    secrets = expr(locals_of(registry_env)["secrets"])
    pairs = re.findall(r'name\s*=\s*\\?"([A-Z_]+)\\?",\s*valueFrom\s*=\s*([\w.]+)', secrets)
    assert dict(pairs) == {
        "LAYERFOLD_STORAGE_REDIS_URL": "var.redis_url_secret_arn",
        "LF_HTPASSWD_CONTENT": "var.htpasswd_secret_arn",
        "LF_SIGNING_KEY_PEM": "var.signing_key_secret_arn",
    }


def test_containers_take_environment_and_secrets_from_the_env_module(root):
    container = locals_of(root)["registry_container"]
    assert expr(container["environment"]) == "module.registry_env.environment"
    assert expr(container["secrets"]) == "module.registry_env.secrets"
    agent = locals_of(root)["agent_container"]
    assert "environment" not in agent
    for ref in re.findall(r"valueFrom\s*=\s*([\w.]+)", expr(agent["secrets"])):
        assert ref.startswith("aws_ssm_parameter."), ref


def test_module_passes_secret_arns_not_values(root):
    env_module = blocks(root, "module")["registry_env"]
    for key in ("redis_url_secret_arn", "htpasswd_secret_arn", "signing_key_secret_arn"):
        assert "arn" in expr(env_module[key]), key
    for version in resources(root, "aws_secretsmanager_secret_version").values():
        assert "secret_string" in version


def test_no_secret_in_ssm_plaintext_parameters(root):
    for name, param in resources(root, "aws_ssm_parameter").items():
        assert not SECRET_NAME.search(expr(param["value"]) if "local." not in expr(param["value"]) else ""), name


# --- IAM: no resource wildcards --------------------------------------------------------------------

def _statements(text: str) -> list[str]:
    return re.findall(r"\{Sid = .*?Resource = (?:\[[^\]]*\]|[\w.]+)\}", text)


def test_iam_statements_have_no_resource_wildcard(iam_policies):
    local = locals_of(iam_policies)
    text = expr(local["task_statements"]) + expr(local["execution_statements"])
    statements = _statements(text)
    assert len(statements) >= 6
    for st in statements:
        resource = re.search(r"Resource = (.*)\}$", st).group(1)
        sid = re.search(r'Sid = \\?"(\w+)', st).group(1)
        if sid == "EcrAuthorizationTokenHasNoResource":
            assert re.search(r'Action = \[\\?"ecr:GetAuthorizationToken\\?"\]', st), st
            continue
        assert not re.search(r'\\?"\*\\?"', resource), f"{sid}: resource wildcard"
        # Wildcards only as a sub-resource suffix of a named resource: <bucket-arn>/* or <log-group-arn>:*
        for literal in re.findall(r'\\?"([^"\\]*\*[^"\\]*)\\?"', resource):
            # (":*" alone is trimsuffix's argument, which strips a suffix.)
            assert literal == ":*" or re.fullmatch(r"\$\{[^}*]+\}(/\*|:\*)", literal), f"{sid}: {literal}"
        assert "s3:*" not in st and '"*"' not in st.replace("\\", "")


def test_iam_actions_are_named(iam_policies):
    local = locals_of(iam_policies)
    text = expr(local["task_statements"]) + expr(local["execution_statements"])
    for action in re.findall(r'\\?"([a-z0-9-]+:[A-Za-z*]+)\\?"', text):
        assert "*" not in action, action


def test_roles_use_the_policy_module(root):
    for name, policy in resources(root, "aws_iam_role_policy").items():
        assert expr(policy["policy"]).startswith("module.iam_policies."), name
    assert not resources(root, "aws_iam_role_policy_attachment"), "no managed policies attached"


def test_bucket_actions_only_on_that_bucket(root):
    iam = blocks(root, "module")["iam_policies"]
    assert expr(iam["bucket_arn"]) == "aws_s3_bucket.registry.arn"


# --- logs ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("where", ["root", "example"])
def test_every_log_group_has_retention(where, root, example):
    module = root if where == "root" else example
    groups = resources(module, "aws_cloudwatch_log_group")
    assert groups
    for name, group in groups.items():
        assert "retention_in_days" in group, name


def test_container_logs_go_to_cloudwatch(root):
    for key in ("registry_container", "agent_container"):
        assert "awslogs" in expr(locals_of(root)[key]["logConfiguration"])


# --- alarms on the registry's own metrics --------------------------------------------------------

@pytest.mark.parametrize("metric", [
    "http_server_requests_seconds_count",
    "layerfold_restore_verification_failures_total",
    "layerfold_dedup_backlog",
    "redis_client_errors",
    "s3_client_errors",
])
def test_alarm_on(root, metric):
    alarms = resources(root, "aws_cloudwatch_metric_alarm")
    assert any(metric in str(alarm) for alarm in alarms.values()), metric


def test_scraped_metrics_are_the_alarmed_ones(root):
    scraped = expr(locals_of(root)["registry_metrics"])
    for metric in ("layerfold_restore_verification_failures_total", "layerfold_dedup_backlog"):
        assert metric in scraped


# --- the management plane is never on the public listener ---------------------------------------

def test_ports(root):
    local = locals_of(root)
    assert local["registry_port"] == 5000
    assert local["management_port"] == 5001


def test_public_listeners_reach_the_registry_port_only(root):
    groups = resources(root, "aws_lb_target_group")
    assert len(groups) == 1
    group = groups["registry"]
    assert expr(group["port"]) == "local.registry_port"
    check = first(group["health_check"])
    assert check["path"] == "/v2/"
    assert check["matcher"] == "200,401"
    assert check["port"] == "traffic-port"
    for name, listener in resources(root, "aws_lb_listener").items():
        action = first(listener["default_action"])
        if action["type"] == "forward":
            assert expr(action["target_group_arn"]) == "aws_lb_target_group.registry.arn", name
        else:
            assert action["type"] == "redirect" and first(action["redirect"])["protocol"] == "HTTPS", name


def test_actuator_paths_refused_at_the_listener(root):
    rule = resources(root, "aws_lb_listener_rule")["no_actuator"]
    assert "/actuator/*" in str(rule["condition"])
    assert first(rule["action"])["type"] == "fixed-response"


def test_load_balancer_sg_reaches_the_registry_port_only(root):
    rules = resources(root, "aws_vpc_security_group_egress_rule")
    alb = [r for r in rules.values() if expr(r["security_group_id"]) == "aws_security_group.alb.id"]
    assert alb and all(expr(r["from_port"]) == expr(r["to_port"]) == "local.registry_port" for r in alb)
    for name, rule in resources(root, "aws_vpc_security_group_ingress_rule").items():
        if "management_port" in expr(rule.get("from_port", "")):
            assert "referenced_security_group_id" not in rule, name
            assert "var.management_cidr_blocks" in expr(rule["for_each"]), name


def test_management_port_not_mapped(root):
    container = locals_of(root)["registry_container"]
    assert "management_port" not in expr(container["portMappings"])
    assert "local.management_port" in expr(locals_of(root)["health_command"])


# --- inputs and outputs ----------------------------------------------------------------------------

@pytest.mark.parametrize("where", ["", "modules/naming", "modules/registry-env", "modules/iam-policies"])
def test_variables_have_type_and_description(where):
    module = load_dir(INFRA / where) if where else load_dir(INFRA)
    for name, var in blocks(module, "variable").items():
        assert "type" in var and "description" in var, name
    for name, out in blocks(module, "output").items():
        assert "description" in out, name


def test_outputs_tell_how_to_sign_in(root):
    outputs = blocks(root, "output")
    for name in ("registry_url", "bucket", "sign_in"):
        assert name in outputs


def test_environment_names_are_registry_or_spring_keys(registry_env):
    managed = expr(locals_of(registry_env)["managed"])
    for name in re.findall(r"\b([A-Z][A-Z0-9_]+)\s*=", managed):
        assert name.startswith("LAYERFOLD_") or name in {
            "MANAGEMENT_SERVER_PORT", "MANAGEMENT_SERVER_ADDRESS", "SERVER_FORWARD_HEADERS_STRATEGY"}, name
