"""`kickoff bench match` at a tiny size: a few dozen guests' tickets at a steady rate against a real server, every
ticket ending matched, and the figures the report gives. No timing is asserted (the figures are the benchmark's);
short ticks and fill wait keep it to a few seconds."""

from __future__ import annotations

import json
import os

import pytest

from benchmarks.match import bench_match, match_report
from cli import main

SMALL = {"players": 40, "rate": 40.0, "interval": 0.2, "fill_seconds": 1.0}


def _check(figures: dict) -> None:
    assert figures["tickets"] == figures["players"] == 40
    trouble = {key: figures[key] for key in ("not_ended", "cancelled", "expired", "errors", "server_log")}
    assert figures["ended"] == figures["tickets"] == figures["matched"], f"every ticket ended, matched: {trouble}"
    assert figures["not_enqueued"] == 0 and figures["matched_without_seat_token"] == 0
    assert figures["store"]["statuses"] == {"matched": 40}
    tables = figures["store"]["tables"]
    assert tables["started"] > 0 and tables["not_started"] == 0 and figures["store"]["rooms"] == tables["started"]
    assert 2 <= tables["mean_size"] <= 4 and tables["mean_spread"] >= 0 and tables["mean_system_players"] >= 0
    client = figures["client"]
    assert 0 < client["matched_s"]["p50"] <= client["matched_s"]["p99"]
    assert 0 < figures["store"]["wait_s"]["p50"] <= figures["store"]["wait_s"]["p99"]
    cpu = figures["cpu"]
    assert cpu["matching_ms_per_ticket"] > 0 and cpu["server_ms_per_ticket"] > cpu["matchmaker_ms_per_ticket"] > 0
    assert cpu["matchmaker"]["tick"]["calls"] > 0 and cpu["matchmaker"]["accept"]["calls"] >= 40
    text = match_report(figures)
    for words in ("40 ended (40 matched", "enqueue -> matched", "matching CPU", "mean rating spread", "mean size"):
        assert words in text


def test_bench_match_matches_every_ticket_on_sqlite() -> None:
    figures = bench_match(**SMALL)
    assert figures["database"] == "sqlite"
    _check(figures)


def test_bench_match_matches_every_ticket_on_postgresql() -> None:
    if not os.environ.get("KICKOFF_TEST_POSTGRES_URL"):
        reason = "no PostgreSQL: run the tests with `make test`, which starts a throwaway PostgreSQL 15"
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    figures = bench_match(**SMALL, database_url=os.environ["KICKOFF_TEST_POSTGRES_URL"])
    assert figures["database"] == "postgresql" and "postgres_ms_per_ticket" in figures["cpu"]
    _check(figures)


def test_the_command_prints_json_and_exits_by_whether_every_ticket_ended(capsys) -> None:
    args = ["bench", "match", "--players", "12", "--rate", "40", "--interval", "0.2", "--fill-seconds", "1", "--json"]
    status = main(args)
    figures = json.loads(capsys.readouterr().out)
    assert status == (0 if figures["ended"] == figures["tickets"] else 1) and figures["tickets"] == 12
    assert main(["bench", "match", "--database-url", "mysql://x"]) == 2  # refused before anything runs
    assert main(["bench", "match", "--players", "1"]) == 2
