"""Tests of the Helm chart's rendered manifests (infra/test/run renders ci/*-values.yaml into
$LAYERFOLD_HELM_RENDERED first): probes on the management port, which is in no public Service or
Ingress, secrets only by reference, and the workload kind per backend."""
import os
from pathlib import Path

import pytest
import yaml

RENDERED = os.environ.get("LAYERFOLD_HELM_RENDERED")

pytestmark = pytest.mark.skipif(not RENDERED, reason="needs LAYERFOLD_HELM_RENDERED (infra/test/run sets it)")


def renders():
    if not RENDERED:
        return []
    return sorted(Path(RENDERED).glob("*.yaml"))


def objects(path):
    return [doc for doc in yaml.safe_load_all(path.read_text()) if doc]


def by_kind(docs, kind):
    return [d for d in docs if d["kind"] == kind]


def workload(docs):
    found = by_kind(docs, "Deployment") + by_kind(docs, "StatefulSet")
    assert len(found) == 1
    return found[0]


def container(docs):
    return workload(docs)["spec"]["template"]["spec"]["containers"][0]


def env(docs):
    return {e["name"]: e for e in container(docs)["env"]}


def test_every_values_file_rendered():
    assert len(renders()) >= 4


@pytest.mark.parametrize("path", renders(), ids=lambda p: p.stem)
def test_probes_use_the_management_port(path):
    c = container(objects(path))
    ports = {p["name"]: p["containerPort"] for p in c["ports"]}
    assert ports["management"] != ports["registry"]
    for probe in ("startupProbe", "livenessProbe", "readinessProbe"):
        assert c[probe]["httpGet"]["port"] == "management", probe
        assert c[probe]["httpGet"]["path"].startswith("/actuator/health/"), probe
    e = env(objects(path))
    assert e["MANAGEMENT_SERVER_PORT"]["value"] == str(ports["management"])
    assert e["MANAGEMENT_SERVER_ADDRESS"]["value"] == "0.0.0.0"


@pytest.mark.parametrize("path", renders(), ids=lambda p: p.stem)
def test_management_port_not_in_the_main_service_or_ingress(path):
    docs = objects(path)
    for svc in by_kind(docs, "Service"):
        ports = [p["targetPort"] for p in svc["spec"]["ports"]]
        if svc["metadata"]["name"].endswith("-management"):
            assert svc["spec"]["type"] == "ClusterIP"
            assert ports == ["management"]
        else:
            assert ports == ["registry"]
    for ing in by_kind(docs, "Ingress"):
        for rule in ing["spec"]["rules"]:
            for p in rule["http"]["paths"]:
                assert p["backend"]["service"]["port"]["name"] == "registry"
                assert not p["path"].startswith("/actuator")


@pytest.mark.parametrize("path", renders(), ids=lambda p: p.stem)
def test_secrets_only_by_reference(path):
    docs = objects(path)
    assert not by_kind(docs, "Secret"), "the chart never holds secret values"
    for name, e in env(docs).items():
        if any(word in name for word in ("SECRET_KEY", "ACCESS_KEY", "REDIS_URL")):
            assert "secretKeyRef" in e.get("valueFrom", {}), name
            assert "value" not in e, name


@pytest.mark.parametrize("path", renders(), ids=lambda p: p.stem)
def test_workload_kind_follows_the_backend(path):
    docs = objects(path)
    w = workload(docs)
    backend = env(docs)["LAYERFOLD_STORAGE_BLOB"]["value"]
    if backend == "filesystem":
        assert w["kind"] == "StatefulSet" and w["spec"]["replicas"] == 1
        assert w["spec"]["volumeClaimTemplates"][0]["metadata"]["name"] == "data"
    else:
        assert w["kind"] == "Deployment"
        assert env(docs)["LAYERFOLD_STORAGE_METADATA"]["value"] == "redis"


@pytest.mark.parametrize("path", renders(), ids=lambda p: p.stem)
def test_runs_unprivileged_with_sized_memory(path):
    docs = objects(path)
    pod = workload(docs)["spec"]["template"]["spec"]
    assert pod["securityContext"]["runAsNonRoot"] is True
    c = container(docs)
    assert c["securityContext"]["readOnlyRootFilesystem"] is True
    assert c["resources"]["limits"]["memory"] == c["resources"]["requests"]["memory"]


def test_service_monitor_scrapes_the_management_service():
    found = [p for p in renders() if by_kind(objects(p), "ServiceMonitor")]
    assert found, "one values file turns the ServiceMonitor on"
    for path in found:
        docs = objects(path)
        sm = by_kind(docs, "ServiceMonitor")[0]
        assert sm["spec"]["endpoints"][0]["port"] == "management"
        assert sm["spec"]["endpoints"][0]["path"] == "/actuator/prometheus"
        assert sm["spec"]["selector"]["matchLabels"]["app.kubernetes.io/component"] == "management"
