"""`kickoff bench nemesis` end to end, short (about 20 s): three node processes, each behind its relays, people
playing while a fault strikes every few seconds (a kill, a stop, a cut from PostgreSQL with its connections reset,
a cut from the other nodes), and the store read back.
What it buys: the soak `make bench` runs for minutes cannot rot unseen (the relays, the restarts, the checks), and
each run of the suite is one more short soak whose checks hold: every acknowledged move in its log exactly once."""

from __future__ import annotations

import asyncio
import os

import pytest

from benchmarks.nemesis import nemesis_report, soak


def test_a_short_nemesis_soak_loses_no_acknowledged_move() -> None:
    admin = os.environ.get("KICKOFF_TEST_POSTGRES_URL")
    if not admin:
        if os.environ.get("CI") == "true":
            pytest.fail("no PostgreSQL: run the tests with `make test`")
        pytest.skip("no PostgreSQL: run the tests with `make test`")
    plan = ("kill", "stop", "store-reset", "peers")
    figures = asyncio.run(
        soak(admin, rooms=6, seconds=14, every=(0.5, 1.0), lease=2.0, renew=0.5, seed=3, plan=plan, leases=(1, 1.2))
    )
    report = nemesis_report(figures)
    assert all(figures["faults"][fault] >= 1 for fault in plan), report
    assert figures["moves_acknowledged"] > 0 and figures["log_lines"] >= figures["moves_acknowledged"], report
    assert figures["ok"], report
    assert (figures["lost"], figures["request_ids_twice"], figures["logs_with_epochs_going_back"]) == (0, 0, 0)
