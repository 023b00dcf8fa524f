"""The dashboards and alerts of deploy/, checked offline: no Prometheus, Grafana or collector needs to run.

- Every metric a dashboard, an alert or an alert's unit test names is one kickoff exports, under the name the
  OpenTelemetry Collector's prometheus exporter gives it (otel-collector.yaml): the instruments are read from
  service.telemetry.Instruments, and their names turned into Prometheus's as the collector does (its translator's
  normalisation, on by default since v0.85: dots to underscores, the unit's word, _total on counters, _ratio on
  gauges of unit 1; histograms as _bucket, _sum and _count). Every label a query names is one kickoff records.
- deploy/observability.md's table gives every instrument and its Prometheus name, and says what each alert means.
- promtool (Debian's prometheus package: `make system-packages`) checks the rules and the configuration, and runs the
  alerts' unit tests (alerts.test.yml: each alert fires on a synthetic series and stays silent otherwise). The
  promtool tests skip without it, except under CI=true, where they fail.
- The Grafana dashboards are what deploy/grafana/dashboards.py makes (`make dashboards`), with unique panel ids, a
  place on the grid, and the provisioned datasource's uid; the provisioning and the compose file agree on paths.

Each check is also shown failing on a broken copy or a wrong name, so that a check that passes proves something.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import promql_parser
import pytest
import yaml
from opentelemetry.metrics import NoOpMeter

from service.telemetry import Instruments

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
ALERTS = DEPLOY / "prometheus" / "alerts.yml"
ALERT_TESTS = DEPLOY / "prometheus" / "alerts.test.yml"
PROMETHEUS_CONFIG = DEPLOY / "prometheus.yml"
GRAFANA = DEPLOY / "grafana"
OBSERVABILITY = DEPLOY / "observability.md"
ON_CI = os.environ.get("CI") == "true"

# -- what kickoff exports, named as Prometheus sees it -----------------------------------------------------------------

# The collector's unit words (pkg/translator/prometheus, normalize_name.go), for the units kickoff uses and a few more.
UNITS = {"s": "seconds", "ms": "milliseconds", "us": "microseconds", "ns": "nanoseconds", "By": "bytes", "1": ""}
PER_UNITS = {"s": "second", "m": "minute", "h": "hour", "d": "day"}
NOT_ALNUM = re.compile(r"[^A-Za-z0-9]+")


def prometheus_name(name: str, unit: str, kind: str) -> str:
    """The name the collector's prometheus exporter gives an instrument (``kind``: counter, up_down_counter, histogram
    or gauge; an up-down counter is a non-monotonic sum, which Prometheus gets as a gauge)."""
    tokens = [token for token in NOT_ALNUM.split(name) if token]
    main, _, per = unit.partition("/")
    main, per = main.strip(), per.strip()
    if main and "{" not in main and "}" not in main:
        word = "_".join(t for t in NOT_ALNUM.split(UNITS.get(main, main)) if t)
        if word and word not in tokens:
            tokens.append(word)
    if per and "{" not in per and "}" not in per:
        word = "_".join(t for t in NOT_ALNUM.split(PER_UNITS.get(per, per)) if t)
        if word and word not in tokens:
            tokens += ["per", word]
    if kind == "counter":
        tokens = [t for t in tokens if t != "total"] + ["total"]
    if unit == "1" and kind == "gauge":
        tokens = [t for t in tokens if t != "ratio"] + ["ratio"]
    return "_".join(tokens)


class RecordingMeter(NoOpMeter):
    """A meter that notes every instrument made on it: (name, unit, kind)."""

    def __init__(self) -> None:
        super().__init__("kickoff")
        self.made: list[tuple[str, str, str]] = []

    def _note(self, kind: str, make: Callable[..., Any]) -> Callable[..., Any]:
        def made(name: str, *args: Any, unit: str = "", **kwargs: Any) -> Any:
            self.made.append((name, unit, kind))
            return make(name, *args, unit=unit, **kwargs)

        return made

    def __getattribute__(self, attribute: str) -> Any:
        kinds = {
            "create_counter": "counter",
            "create_up_down_counter": "up_down_counter",
            "create_histogram": "histogram",
            "create_observable_gauge": "gauge",
            "create_observable_counter": "counter",
            "create_observable_up_down_counter": "up_down_counter",
            "create_gauge": "gauge",
        }
        if attribute in kinds:
            return object.__getattribute__(self, "_note")(kinds[attribute], super().__getattribute__(attribute))
        return super().__getattribute__(attribute)


def instruments() -> list[tuple[str, str, str]]:
    """Every instrument kickoff defines (service.telemetry.Instruments, its gauges included): (name, unit, kind)."""
    meter = RecordingMeter()
    made = Instruments(meter)
    made.observe_rooms(dict)
    made.observe_cluster(lambda: None)
    made.observe_inbox(lambda: None)
    return meter.made


def exported() -> dict[str, str]:
    """Every series name Prometheus gets from kickoff, and the instrument it comes from."""
    names: dict[str, str] = {}
    for name, unit, kind in instruments():
        base = prometheus_name(name, unit, kind)
        for series in [f"{base}_bucket", f"{base}_sum", f"{base}_count"] if kind == "histogram" else [base]:
            names[series] = name
    return names


ATTRIBUTE = re.compile(r"[\"'](kickoff\.[a-z_.]+)[\"']")
# What every series carries besides its attributes: the resource's attributes (resource_to_telemetry_conversion),
# Prometheus's own job and instance, and a histogram bucket's bound.
RESOURCE_LABELS = {"service_name", "service_version", "service_instance_id", "job", "instance", "le"}


def labels() -> set[str]:
    """Every label a kickoff series may carry: the kickoff.* attribute names the service records, made labels."""
    found = {m for path in (ROOT / "service").rglob("*.py") for m in ATTRIBUTE.findall(path.read_text())}
    return {NOT_ALNUM.sub("_", name) for name in found} | RESOURCE_LABELS


def names_in(expr: str) -> tuple[set[str], set[str]]:
    """The metric names and the label names a PromQL expression uses (Grafana's $__rate_interval read as 5m)."""
    metrics: set[str] = set()
    used: set[str] = set()

    def visit(node: Any) -> None:
        if isinstance(node, promql_parser.VectorSelector):
            if node.name:
                metrics.add(node.name)
            used.update(m.name for m in node.matchers.matchers if m.name != "__name__")
        elif isinstance(node, promql_parser.AggregateExpr) and node.modifier is not None:
            used.update(node.modifier.labels)
        elif isinstance(node, promql_parser.BinaryExpr) and node.modifier is not None:
            if node.modifier.matching is not None:
                used.update(node.modifier.matching.labels)
            used.update(node.modifier.group_labels or ())

    promql_parser.walk(promql_parser.parse(expr.replace("$__rate_interval", "5m")), visit)
    return metrics, used


def unknown(expr: str) -> set[str]:
    """What ``expr`` names that kickoff does not export: metrics, and labels no kickoff series carries."""
    metrics, used = names_in(expr)
    return (metrics - set(exported())) | (used - labels())


def test_the_prometheus_names_are_the_collectors() -> None:
    # (cases of the collector's own normalize_name_test.go, and kickoff's names as the README has always given them)
    assert prometheus_name("system.filesystem.usage", "By", "gauge") == "system_filesystem_usage_bytes"
    assert prometheus_name("system.network.io", "By", "counter") == "system_network_io_bytes_total"
    assert prometheus_name("hw.temperature.ratio", "1", "gauge") == "hw_temperature_ratio"
    assert prometheus_name("sum.duration", "s", "counter") == "sum_duration_seconds_total"
    assert prometheus_name("requests.total", "{request}", "counter") == "requests_total"
    assert prometheus_name("throughput", "By/s", "gauge") == "throughput_bytes_per_second"
    assert prometheus_name("kickoff.moves", "{move}", "counter") == "kickoff_moves_total"
    assert prometheus_name("kickoff.move.duration", "s", "histogram") == "kickoff_move_duration_seconds"
    assert prometheus_name("kickoff.event_streams.open", "{stream}", "up_down_counter") == "kickoff_event_streams_open"


def documented() -> dict[str, tuple[str, str]]:
    """observability.md's metrics table: instrument -> (Prometheus name, kind)."""
    rows = re.findall(r"^\| `(kickoff\.[a-z_.]+)` \| `([a-z_]+)` \| ([a-z -]+) \|", OBSERVABILITY.read_text(), re.M)
    return {name: (prom, kind.strip()) for name, prom, kind in rows}


def test_every_instrument_is_documented_under_its_prometheus_name() -> None:
    kinds = {"counter": "counter", "up_down_counter": "up-down counter", "histogram": "histogram", "gauge": "gauge"}
    expected = {name: (prometheus_name(name, unit, kind), kinds[kind]) for name, unit, kind in instruments()}
    assert {"kickoff.clock.lateness", "kickoff.refusals", "kickoff.nodes.alive", "kickoff.leases.orphaned"} <= set(
        expected
    )
    assert documented() == expected


def alert_rules() -> list[dict[str, Any]]:
    return [rule for group in yaml.safe_load(ALERTS.read_text())["groups"] for rule in group["rules"]]


def dashboard_files() -> list[Path]:
    return sorted((GRAFANA / "dashboards").glob("*.json"))


def panels(dashboard: dict[str, Any]) -> Iterator[dict[str, Any]]:
    for panel in dashboard["panels"]:
        yield panel
        yield from panel.get("panels", ())


def dashboard_queries() -> list[tuple[str, str]]:
    """(where, expr) of every query of every dashboard panel."""
    found = []
    for path in dashboard_files():
        for panel in panels(json.loads(path.read_text())):
            for target in panel.get("targets", ()):
                found.append((f"{path.name}: {panel['title']} {target['refId']}", target["expr"]))
    return found


def alert_test_series() -> list[tuple[str, str]]:
    tests = yaml.safe_load(ALERT_TESTS.read_text())["tests"]
    return [(f"alerts.test.yml: {s['series']}", s["series"]) for test in tests for s in test["input_series"]]


def test_every_query_of_the_dashboards_and_the_alerts_names_what_kickoff_exports() -> None:
    queries = [(rule["alert"], rule["expr"]) for rule in alert_rules()] + dashboard_queries() + alert_test_series()
    assert len(queries) > 20
    for where, expr in queries:
        metrics, _ = names_in(expr)
        assert metrics and all(m.startswith("kickoff_") for m in metrics), where
        assert not unknown(expr), f"{where}: {unknown(expr)} is not exported by kickoff"
    named = {exported()[m] for _, expr in queries for m in names_in(expr)[0]}
    for instrument in ("kickoff.clock.lateness", "kickoff.store.unavailable", "kickoff.refusals", "kickoff.rooms"):
        assert instrument in named, f"{instrument} is on no dashboard and in no alert"
    cluster = {"kickoff.lease.claims", "kickoff.lease.handovers", "kickoff.nodes.alive", "kickoff.leases.orphaned"}
    assert cluster <= named


def test_a_name_kickoff_does_not_export_is_caught() -> None:
    assert unknown("rate(kickoff_moves_total[5m])") == set()
    assert unknown("rate(kickoff_moves[5m])") == {"kickoff_moves"}, "a counter without _total"
    unitless = "histogram_quantile(0.9, rate(kickoff_move_duration_bucket[5m]))"
    assert unknown(unitless) == {"kickoff_move_duration_bucket"}, "a histogram without its unit"
    assert unknown("sum by (kickoff_gmae) (kickoff_rooms)") == {"kickoff_gmae"}, "a label no series has"
    assert unknown('kickoff_rooms{kickoff_room_satus="playing"}') == {"kickoff_room_satus"}


# -- the alerts ----------------------------------------------------------------------------------------------------


def test_every_alert_says_how_bad_what_and_why_and_is_documented() -> None:
    rules = alert_rules()
    assert {rule["alert"] for rule in rules} == {
        "KickoffStoreUnavailable",
        "KickoffCommitsSlow",
        "KickoffNodeGone",
        "KickoffRoomsOrphaned",
        "KickoffClocksLate",
        "KickoffRefusalsSpiking",
    }
    doc = OBSERVABILITY.read_text()
    for rule in rules:
        assert rule["expr"] and re.fullmatch(r"\d+m", rule["for"]), rule["alert"]
        assert rule["labels"]["severity"] in {"warning", "critical"}, rule["alert"]
        assert rule["annotations"]["summary"] and rule["annotations"]["description"], rule["alert"]
        assert f"`{rule['alert']}`" in doc, f"{rule['alert']} is not explained in observability.md"


def test_every_alert_has_a_unit_test_where_it_fires_and_one_where_it_stays_silent() -> None:
    fires: set[str] = set()
    silent: set[str] = set()
    for test in yaml.safe_load(ALERT_TESTS.read_text())["tests"]:
        for case in test["alert_rule_test"]:
            (fires if case["exp_alerts"] else silent).add(case["alertname"])
    names = {rule["alert"] for rule in alert_rules()}
    assert fires == names and silent == names


def promtool() -> str:
    path = shutil.which("promtool")
    if path is None:
        reason = "no promtool (Debian's prometheus package: make system-packages)"
        if ON_CI:
            pytest.fail(reason)
        pytest.skip(reason)
    return path


def run(*args: str | Path, cwd: Path = DEPLOY) -> subprocess.CompletedProcess[str]:
    return subprocess.run([promtool(), *map(str, args)], cwd=cwd, capture_output=True, text=True, timeout=120)


def test_promtool_checks_the_rules_and_the_configuration_that_loads_them() -> None:
    rules = run("check", "rules", ALERTS)
    assert rules.returncode == 0, rules.stdout + rules.stderr
    assert "SUCCESS: 6 rules found" in rules.stdout
    config = run("check", "config", PROMETHEUS_CONFIG)
    assert config.returncode == 0, config.stdout + config.stderr
    assert "1 rule files found" in config.stdout + config.stderr, "prometheus.yml loads the alerts"


def test_promtool_runs_the_alerts_unit_tests() -> None:
    result = run("test", "rules", ALERT_TESTS.name, cwd=ALERTS.parent)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize(
    ("change", "why"),
    [
        (("> 0.25", "> 2.5"), "commits of 500 ms no longer alert"),
        (("for: 10m", "for: 60m"), "clocks late for 20 minutes are not yet an alert"),
        (("min by (kickoff_lease_kind) (kickoff_leases_orphaned) > 0", "min(kickoff_leases_orphaned) > 0"), "labels"),
    ],
)
def test_the_unit_tests_fail_a_broken_alert(tmp_path: Path, change: tuple[str, str], why: str) -> None:
    text = ALERTS.read_text()
    assert change[0] in text
    (tmp_path / "alerts.yml").write_text(text.replace(change[0], change[1], 1))
    shutil.copy(ALERT_TESTS, tmp_path / ALERT_TESTS.name)
    result = run("test", "rules", ALERT_TESTS.name, cwd=tmp_path)
    assert result.returncode != 0, why
    assert "FAILED" in result.stdout + result.stderr


def test_promtool_rejects_a_rule_file_that_does_not_parse(tmp_path: Path) -> None:
    broken = tmp_path / "alerts.yml"
    broken.write_text(ALERTS.read_text().replace("sum(rate(kickoff_store_unavailable_total[2m]))", "sum(rate(", 1))
    assert run("check", "rules", broken).returncode != 0


# -- Grafana -------------------------------------------------------------------------------------------------------


def generator() -> Any:
    spec = importlib.util.spec_from_file_location("kickoff_dashboards", GRAFANA / "dashboards.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_dashboards_checked_in_are_what_the_generator_makes() -> None:
    rendered = generator().render()
    assert sorted(rendered) == [path.name for path in dashboard_files()]
    for name, text in rendered.items():
        assert (GRAFANA / "dashboards" / name).read_text() == text, f"{name} is stale: run 'make dashboards'"


def provisioned_datasource() -> dict[str, Any]:
    provisioning = GRAFANA / "provisioning" / "datasources" / "prometheus.yaml"
    (source,) = yaml.safe_load(provisioning.read_text())["datasources"]
    return source


def layout_problems(dashboard: dict[str, Any], uid: str) -> list[str]:
    """What Grafana would load wrong or show badly: duplicate ids, panels off the grid or on top of one another,
    another datasource than the provisioned one, queries without a refId or sharing one."""
    problems = []
    ids = [panel.get("id") for panel in panels(dashboard)]
    if len(set(ids)) != len(ids) or not all(isinstance(i, int) and i > 0 for i in ids):
        problems.append(f"panel ids {ids}")
    cells: dict[tuple[int, int], str] = {}
    for panel in panels(dashboard):
        title = panel.get("title", "")
        grid = panel.get("gridPos") or {}
        if not all(isinstance(grid.get(k), int) for k in "hwxy") or grid["w"] < 1 or grid["h"] < 1:
            problems.append(f"{title}: gridPos {grid}")
            continue
        if grid["x"] < 0 or grid["x"] + grid["w"] > 24:
            problems.append(f"{title}: off the 24 columns")
        for x in range(grid["x"], grid["x"] + grid["w"]):
            for y in range(grid["y"], grid["y"] + grid["h"]):
                if (x, y) in cells:
                    problems.append(f"{title}: on top of {cells[(x, y)]}")
                    break
                cells[(x, y)] = title
        if panel["type"] == "row":
            continue
        if not panel.get("targets"):
            problems.append(f"{title}: no query")
        refs = [t.get("refId") for t in panel.get("targets", ())]
        if len(set(refs)) != len(refs) or not all(refs):
            problems.append(f"{title}: refIds {refs}")
        for source in [panel.get("datasource")] + [t.get("datasource") for t in panel.get("targets", ())]:
            if source != {"type": "prometheus", "uid": uid}:
                problems.append(f"{title}: datasource {source}")
    return problems


def test_every_panel_has_its_place_an_id_and_the_provisioned_datasource() -> None:
    uid = provisioned_datasource()["uid"]
    assert dashboard_files()
    for path in dashboard_files():
        dashboard = json.loads(path.read_text())
        assert dashboard["uid"] and dashboard["title"] and dashboard["schemaVersion"] >= 39, path.name
        assert not layout_problems(dashboard, uid), path.name
        titles = {panel["title"] for panel in panels(dashboard)}
        for shown in ("Rooms by game and status", "Move latency", "Clocks firing late", "Commit latency"):
            assert shown in titles
        for shown in ("Store unavailable", "Lease claims", "Lease hand-overs", "Nodes alive", "Streams open"):
            assert shown in titles
        assert "Refusals by reason" in titles


def test_the_layout_checks_catch_a_broken_dashboard() -> None:
    uid = provisioned_datasource()["uid"]
    dashboard = json.loads(dashboard_files()[0].read_text())
    graphs = [panel for panel in dashboard["panels"] if panel["type"] != "row"]
    graphs[1]["id"] = graphs[0]["id"]
    graphs[2]["gridPos"] = dict(graphs[3]["gridPos"])
    graphs[4]["datasource"] = {"type": "prometheus", "uid": "another"}
    del graphs[5]["gridPos"]
    problems = "\n".join(layout_problems(dashboard, uid))
    assert "panel ids" in problems and "on top of" in problems and "another" in problems and "gridPos" in problems


# -- compose: Grafana and Prometheus find what they are given ---------------------------------------------------


def observability_services() -> dict[str, Any]:
    return yaml.safe_load((DEPLOY / "compose.observability.yaml").read_text())["services"]


def mounts(service: dict[str, Any]) -> dict[str, str]:
    """A service's bind mounts: container path -> the path in deploy/."""
    found = {}
    for volume in service.get("volumes", ()):
        source, target, *_ = volume.split(":")
        found[target] = source
    return found


def in_container(service: dict[str, Any], path: str) -> Path | None:
    """Where a container path of ``service`` comes from in deploy/ (None: from no mount)."""
    for target, source in sorted(mounts(service).items(), key=lambda item: -len(item[0])):
        if path == target or path.startswith(target.rstrip("/") + "/"):
            return (DEPLOY / source / os.path.relpath(path, target)).resolve()
    return None


def test_prometheus_loads_the_alerts_from_its_mounts() -> None:
    prometheus = observability_services()["prometheus"]
    config = yaml.safe_load(PROMETHEUS_CONFIG.read_text())
    assert in_container(prometheus, "/etc/prometheus/prometheus.yml") == PROMETHEUS_CONFIG
    assert config["rule_files"]
    for rule_file in config["rule_files"]:  # (relative to the configuration's folder, in the container and here)
        assert in_container(prometheus, f"/etc/prometheus/{rule_file}") == ALERTS
        assert (PROMETHEUS_CONFIG.parent / rule_file).resolve() == ALERTS


def test_grafana_is_pinned_and_provisioned_with_the_datasource_and_the_dashboards() -> None:
    services = observability_services()
    grafana = services["grafana"]
    assert re.fullmatch(r"grafana/grafana:\d+\.\d+\.\d+", grafana["image"]), "a pinned release"
    assert in_container(grafana, "/etc/grafana/provisioning") == (GRAFANA / "provisioning").resolve()
    source = provisioned_datasource()
    assert source["type"] == "prometheus" and source["url"] == "http://prometheus:9090"
    assert "prometheus" in services and "9090:9090" in services["prometheus"]["ports"]
    (provider,) = yaml.safe_load((GRAFANA / "provisioning" / "dashboards" / "kickoff.yaml").read_text())["providers"]
    assert in_container(grafana, provider["options"]["path"]) == (GRAFANA / "dashboards").resolve()
    home = grafana["environment"]["GF_DASHBOARDS_DEFAULT_HOME_DASHBOARD_PATH"]
    assert in_container(grafana, home) in [path.resolve() for path in dashboard_files()]
    assert not any("PASSWORD" in key for key in grafana.get("environment", {})), "no secret in the file"
