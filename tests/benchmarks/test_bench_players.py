"""`kickoff bench players` at a tiny size: a seeded board checked call by call, the same seeded games played rated and
unrated, the goals' table and the benchmarks page's block. No timing is asserted (the figures are the benchmark's)."""

from __future__ import annotations

import json
import os

import pytest

from benchmarks.players import bench_players, markers, players_table
from cli import main


def test_bench_players_measures_the_board_and_rated_games_on_sqlite() -> None:
    figures = bench_players(players=300, calls=20, rounds=1, games=2)
    assert figures["database"] == "sqlite" and figures["of"] == 3
    assert figures["ranked"] + figures["below_min_games"] == 300 and figures["below_min_games"] > 0
    assert figures["leaderboard"]["calls"] == 20 and figures["rank"]["calls"] == 20
    assert 0 < figures["leaderboard"]["p50_ms"] <= figures["leaderboard"]["p99_ms"]
    games = figures["games"]
    assert games["same_games"], "the seeded games come out the same rated and unrated"
    assert len(games["runs"]["rated"]) == len(games["runs"]["unrated"]) == 1
    assert games["rated_cpu_ms_per_game"] > 0 and games["unrated_cpu_ms_per_game"] > 0
    assert figures["met"] == sum(goal["met"] for goal in figures["goals"])
    text = players_table(figures)
    assert text.count("\n| ") == 3 and f"{figures['met']} of 3 goals met on sqlite" in text


def test_bench_players_measures_the_board_on_postgresql() -> None:
    if not os.environ.get("KICKOFF_TEST_POSTGRES_URL"):
        reason = "no PostgreSQL: run the tests with `make test`, which starts a throwaway PostgreSQL 15"
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    figures = bench_players(players=200, calls=10, rounds=0, database_url=os.environ["KICKOFF_TEST_POSTGRES_URL"])
    assert figures["database"] == "postgresql" and figures["of"] == 2 and "games" not in figures
    assert figures["rank"]["calls"] == 10


def test_the_command_prints_json_writes_the_readme_block_and_exits_by_the_goals(tmp_path, capsys) -> None:
    begin, end = markers("sqlite")
    readme = tmp_path / "README.md"
    readme.write_text(f"# x\n{begin}\nold\n{end}\n")
    args = ["bench", "players", "--players", "100", "--calls", "5", "--rounds", "0", "--json", "--readme", str(readme)]
    status = main(args)
    figures = json.loads(capsys.readouterr().out)
    assert status == (0 if figures["met"] == figures["of"] else 1)
    assert readme.read_text() == f"# x\n{begin}\n{players_table(figures)}\n{end}\n"
    assert main(["bench", "players", "--database-url", "mysql://x"]) == 2  # refused before anything runs
