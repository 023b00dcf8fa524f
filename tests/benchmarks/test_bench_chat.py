"""`kickoff bench chat` at a tiny size (3 rooms, 2 s a round, one round of each side) through the command line: it
runs against a real server, prints its figures with the ratios and a verdict, exits 1 exactly when the verdict is a
miss, and chat reached the seats' streams in the on round and none in the off round. No timing is asserted (the
figures are the benchmark's). Some 15 s: two server starts, 24 guests signed in, two 2-second rounds."""

from __future__ import annotations

import json
import subprocess
import sys

from benchmarks.chat import chat_report


def test_bench_chat_delivers_chat_in_on_rounds_only_and_reports_its_ratios() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "cli", "bench", "chat", "--rooms", "3", "--seconds", "2", "--rounds", "1", "--json"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode in (0, 1), run.stderr[-2000:]
    figures = json.loads(run.stdout)
    assert run.returncode == (0 if figures["met"] else 1)
    (on,), (off,) = figures["runs"]["on"], figures["runs"]["off"]
    assert on["chat"] and not off["chat"]
    assert on["moves"] > 0 and off["moves"] > 0 and on["server_cpu_us_per_move"] > 0
    assert on["chat_sent"] > 0 and on["chat_refused"] == {}, "a message a second a room is within the chat's limits"
    assert 0 < on["chat_delivered"] <= 4 * on["chat_sent"], "each message reaches the room's four seats at most"
    assert off["chat_sent"] == off["chat_delivered"] == 0, "no chat sent, and streams that did not ask get none"
    assert figures["delivered_as_asked"]
    ratio = round(on["server_cpu_us_per_move"] / off["server_cpu_us_per_move"], 3)
    assert figures["cpu_per_move_ratio"] == ratio
    text = chat_report(figures)
    for words in ("server CPU a move", "delivered/s to the seats' streams", "move p99", "verdict: "):
        assert words in text
    assert ("all goals met" in text) == figures["met"]


def test_bench_chat_calls_prints_each_calls_server_cpu() -> None:
    """`kickoff bench chat --calls N` (the cost of one chat call against a plain GetRoom, docs/benchmarks.md) runs
    against a real server and gives a positive CPU figure for each call (200 of each: the process's CPU is counted in
    10 ms ticks, which 20 GetRooms would not fill). A few seconds: one server, 3 x 250 calls."""
    run = subprocess.run(
        [sys.executable, "-m", "cli", "bench", "chat", "--calls", "200", "--json"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    figures = json.loads(run.stdout)
    assert set(figures["cpu_us"]) == {"GetRoom", "SendChatMessage", "ListChatMessages"}
    assert all(cost > 0 for cost in figures["cpu_us"].values())
