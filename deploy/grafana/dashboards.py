"""kickoff's Grafana dashboards, built with Grafana's own foundation SDK (grafana-foundation-sdk, a dev dependency, for
Grafana 11.6, the image compose.observability.yaml runs) and written as JSON to deploy/grafana/dashboards/, which
Grafana loads through provisioning/dashboards/kickoff.yaml.

    make dashboards          # write the JSON again after changing this file
    python deploy/grafana/dashboards.py --check   # exit 1 when the JSON checked in is not what this file makes

Every query names metrics as Prometheus has them from the OpenTelemetry Collector's prometheus exporter (dots made
underscores, counters ending in _total, seconds histograms in _seconds_bucket); tests/deploy/test_observability.py
checks each name against the instruments kickoff defines, and that the JSON is up to date. What each panel shows:
deploy/observability.md, "Dashboards".
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from grafana_foundation_sdk.builders import common, dashboard, prometheus, stat, timeseries
from grafana_foundation_sdk.cog.encoder import JSONEncoder
from grafana_foundation_sdk.models.common import LegendDisplayMode, LegendPlacement
from grafana_foundation_sdk.models.dashboard import DataSourceRef, Threshold, ThresholdsMode

HERE = Path(__file__).resolve().parent
DASHBOARDS = HERE / "dashboards"
# The datasource provisioning/datasources/prometheus.yaml makes: every panel names it by this uid.
DATASOURCE = DataSourceRef(type_val="prometheus", uid="kickoff-prometheus")
RATE = "$__rate_interval"  # Grafana's own: at least four scrape intervals, so a rate always has two samples


def query(expr: str, legend: str, ref: str = "A") -> prometheus.Dataquery:
    return prometheus.Dataquery().expr(expr).legend_format(legend).ref_id(ref).datasource(DATASOURCE)


def quantiles(metric: str, by: str = "", legend: str = "") -> list[prometheus.Dataquery]:
    """p50 and p99 of a seconds histogram (``by``: labels to keep apart, besides le)."""
    labels = f"le, {by}" if by else "le"
    return [
        query(
            f"histogram_quantile({q}, sum by ({labels}) (rate({metric}_bucket[{RATE}])))",
            f"p{round(q * 100)}{(' ' + legend) if legend else ''}",
            ref,
        )
        for q, ref in ((0.5, "A"), (0.99, "B"))
    ]


def graph(title: str, description: str, unit: str, targets: list[prometheus.Dataquery], width: int = 12) -> Any:
    panel = (
        timeseries.Panel()
        .title(title)
        .description(description)
        .datasource(DATASOURCE)
        .unit(unit)
        .min(0)
        .span(width)
        .height(8)
        .legend(
            common.VizLegendOptions()
            .show_legend(True)
            .display_mode(LegendDisplayMode.LIST)
            .placement(LegendPlacement.BOTTOM)
        )
    )
    for target in targets:
        panel = panel.with_target(target)
    return panel


def number(title: str, description: str, expr: str, legend: str, red_at: float | None, width: int = 6) -> Any:
    """A stat panel: green, or red from ``red_at`` on (None: always the neutral colour)."""
    steps = [Threshold(value=None, color="green")]
    if red_at is not None:
        steps.append(Threshold(value=red_at, color="red"))
    return (
        stat.Panel()
        .title(title)
        .description(description)
        .datasource(DATASOURCE)
        .span(width)
        .height(8)
        .thresholds(dashboard.ThresholdsConfig().mode(ThresholdsMode.ABSOLUTE).steps(steps))
        .reduce_options(common.ReduceDataOptions().calcs(["lastNotNull"]).values(False))
        .with_target(query(expr, legend))
    )


def overview() -> dashboard.Dashboard:
    return (
        dashboard.Dashboard("kickoff")
        .uid("kickoff-overview")
        .description("Rooms, moves, clocks, the store and the cluster of a kickoff deployment (observability.md)")
        .tags(["kickoff"])
        .refresh("30s")
        .time("now-3h", "now")
        .timezone("browser")
        .readonly()
        .with_row(dashboard.Row("Play"))
        .with_panel(
            graph(
                "Rooms by game and status",
                "Rooms in each node's memory, by game and status (waiting, playing, finished), all nodes together.",
                "short",
                [
                    query(
                        "sum by (kickoff_game, kickoff_room_status) (kickoff_rooms)",
                        "{{kickoff_game}} {{kickoff_room_status}}",
                    )
                ],
            )
        )
        .with_panel(
            graph(
                "Moves per second",
                "Moves accepted, by game and mover (person, system, table).",
                "ops",
                [
                    query(
                        f"sum by (kickoff_game, kickoff_mover) (rate(kickoff_moves_total[{RATE}]))",
                        "{{kickoff_game}} {{kickoff_mover}}",
                    )
                ],
            )
        )
        .with_panel(
            graph(
                "Move latency",
                "A person's move from entering its room to its commit: the median and the 99th percentile.",
                "s",
                quantiles("kickoff_move_duration_seconds"),
            )
        )
        .with_panel(
            graph(
                "Streams open",
                "Open event, play, tournament and ticket streams, by kind, all nodes together.",
                "short",
                [query("sum by (kickoff_stream) (kickoff_event_streams_open)", "{{kickoff_stream}}")],
            )
        )
        .with_panel(
            graph(
                "Clock expiries per second",
                "Turn clocks that ran out (the table moved for the seat), by game.",
                "ops",
                [query(f"sum by (kickoff_game) (rate(kickoff_clock_expiries_total[{RATE}]))", "{{kickoff_game}}")],
            )
        )
        .with_panel(
            graph(
                "Clocks firing late",
                "How long after its deadline the table moved for a seat whose clock ran out, by game (alert: "
                "KickoffClocksLate, p90 over 1 s).",
                "s",
                quantiles("kickoff_clock_lateness_seconds", "kickoff_game", "{{kickoff_game}}"),
            )
        )
        .with_row(dashboard.Row("Store"))
        .with_panel(
            graph(
                "Commit latency",
                "One journal commit (a group of log lines from many rooms): the median and the 99th percentile "
                "(alert: KickoffCommitsSlow, p99 over 250 ms).",
                "s",
                quantiles("kickoff_db_commit_duration_seconds"),
            )
        )
        .with_panel(
            graph(
                "Store unavailable",
                "Writes the journal refused because the store stayed away past its retry budget, and the calls "
                "answered UNAVAILABLE store_unavailable (alert: KickoffStoreUnavailable).",
                "ops",
                [
                    query(f"sum(rate(kickoff_store_unavailable_total[{RATE}]))", "writes refused"),
                    query(
                        f'sum(rate(kickoff_refusals_total{{kickoff_reason="store_unavailable"}}[{RATE}]))',
                        "calls refused",
                        "B",
                    ),
                ],
            )
        )
        .with_row(dashboard.Row("Cluster"))
        .with_panel(
            number(
                "Nodes alive",
                "Nodes whose row in the nodes table is alive, as the nodes' last sweeps saw it (PostgreSQL only; "
                "alert: KickoffNodeGone).",
                "min(kickoff_nodes_alive)",
                "nodes",
                None,
            )
        )
        .with_panel(
            number(
                "Orphaned past the lease",
                "Live rooms and tournaments with no live owner for longer than a lease: nobody is claiming them "
                "(alert: KickoffRoomsOrphaned).",
                "sum(min by (kickoff_lease_kind) (kickoff_leases_orphaned))",
                "leases",
                1,
            )
        )
        .with_panel(
            graph(
                "Lease claims",
                "Leases claimed in 5 minutes, by kind and outcome: swept (a dead or drained node's), call (claimed for "
                "a call), inherited, reclaimed, lost (another node won it).",
                "short",
                [
                    query(
                        "sum by (kickoff_lease_kind, kickoff_lease_outcome) (increase(kickoff_lease_claims_total[5m]))",
                        "{{kickoff_lease_kind}} {{kickoff_lease_outcome}}",
                    )
                ],
                width=6,
            )
        )
        .with_panel(
            graph(
                "Lease hand-overs",
                "Leases that left their node in 5 minutes: given_back (a drain), taken (another node claimed them "
                "while their owner stalled).",
                "short",
                [
                    query(
                        "sum by (kickoff_lease_outcome) (increase(kickoff_lease_handovers_total[5m]))",
                        "{{kickoff_lease_outcome}}",
                    )
                ],
                width=6,
            )
        )
        .with_row(dashboard.Row("Refusals"))
        .with_panel(
            graph(
                "Refusals by reason",
                "Refused calls per second by their ErrorInfo reason (docs/operations/production.md; alert: "
                "KickoffRefusalsSpiking).",
                "ops",
                [query(f"sum by (kickoff_reason) (rate(kickoff_refusals_total[{RATE}]))", "{{kickoff_reason}}")],
                width=24,
            )
        )
    )


def render() -> dict[str, str]:
    """Each dashboard's file name and JSON text (panels numbered in order: Grafana wants unique ids)."""
    built = json.loads(json.dumps(overview().build(), cls=JSONEncoder))
    for number_, panel in enumerate(built["panels"], start=1):
        panel["id"] = number_
    return {"kickoff-overview.json": json.dumps(built, indent=2, sort_keys=True) + "\n"}


def main(argv: list[str]) -> int:
    stale = []
    for name, text in render().items():
        path = DASHBOARDS / name
        if "--check" in argv:
            if not path.exists() or path.read_text() != text:
                stale.append(name)
        else:
            DASHBOARDS.mkdir(exist_ok=True)
            path.write_text(text)
            print(f"wrote {path.relative_to(HERE.parent.parent)}")
    if stale:
        print(f"stale: {', '.join(stale)}: run 'make dashboards'", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
