"""The `kickoff` command line: play, and the benchmarks' output shapes."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from cli import main


def test_play_prints_a_seeded_game_move_by_move(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--game", "soker", "--seed", "1"]) == 0
    first = capsys.readouterr().out
    assert first.startswith("Soker: 4 seats, seed 1")
    assert "   1. seat 0: " in first and "Game over after" in first
    assert "<- winner" in first or "stalemate" in first
    assert main(["play", "--game", "soker", "--seed", "1"]) == 0
    assert capsys.readouterr().out == first  # the same seed gives the same game
    assert main(["play", "--game", "soker", "--seed", "2"]) == 0
    assert capsys.readouterr().out != first


def test_play_refuses_a_wrong_number_of_bots(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--seats", "3", "--bots", "random,random"]) == 2
    assert "3 seats need 3 system players" in capsys.readouterr().err


def test_bench_engine_json_has_the_documented_keys(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "engine", "--game", "soker", "--games", "20", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert set(figures) == {"games_per_s", "moves_per_s", "mean_moves"}
    assert figures["mean_moves"] > 10 and figures["moves_per_s"] > figures["games_per_s"] > 0


def test_bench_engine_with_a_baseline_alternates_rounds_and_reports_the_ratio(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = ["bench", "engine", "--game", "age-of-soccer", "--games", "6", "--rounds", "3", "--baseline", "soker"]
    assert main([*args, "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert set(figures) == {"games_per_s", "moves_per_s", "mean_moves", "baseline", "ratio"}
    assert figures["baseline"]["game"] == "soker" and figures["baseline"]["mean_moves"] > 10
    assert figures["ratio"] == pytest.approx(figures["moves_per_s"] / figures["baseline"]["moves_per_s"], rel=0.01)
    assert main(args) == 0 and "ratio" in capsys.readouterr().out


def test_bench_bots_reports_a_win_rate(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "bots", "--games", "8", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["games"] == 8 and 0 <= result["win_rate"] <= 1 and result["bot"] == "normal"


def test_bench_bots_plays_duplicate_deals_and_reports_an_interval_and_the_decisions(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = ["bench", "bots", "--game", "soker", "--seats", "2", "--bot", "hard", "--opponent", "random", "--deals", "3"]
    assert main([*args, "--iterations", "12", "--workers", "1", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["deals"] == 3 and result["games"] == 6  # (each deal once with the hard player in each seat)
    low, high = result["interval_95"]
    assert 0 <= low <= result["win_rate"] <= high <= 1
    assert result["decisions"] > 0 and result["iterations_p50"] == 12 and result["decision_p99_ms"] > 0


def test_the_console_script_runs() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "cli", "bench", "engine", "--games", "5"], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert "moves/s" in done.stdout


def test_db_upgrade_builds_the_schema_of_an_empty_database(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    import sqlite3

    url = f"sqlite+aiosqlite:///{tmp_path}/new/kickoff.db"
    assert main(["db", "upgrade", "--database-url", url]) == 0
    assert "newest schema" in capsys.readouterr().out
    tables = {
        name for (name,) in sqlite3.connect(tmp_path / "new" / "kickoff.db").execute("select name from sqlite_master")
    }
    assert {"rooms", "room_log", "server_settings"} <= tables


def test_play_prints_an_age_of_soccer_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(["play", "--game", "age-of-soccer", "--seed", "3", "--seats", "3", "--bots", "heuristic,random,random"])
        == 0
    )
    out = capsys.readouterr().out
    assert "teams: 0:SPA 1:VIK 2:PAR   decks: 28 player cards, 73 action cards" in out
    assert "Game over after" in out and "<- winner" in out


def test_client_runs_the_terminal_client_with_its_options(monkeypatch: pytest.MonkeyPatch) -> None:
    import terminal.app

    runs: list[tuple[str, dict]] = []
    monkeypatch.setattr(terminal.app, "run", lambda target, **options: runs.append((target, options)) or 0)
    monkeypatch.setenv("KICKOFF_API_KEY", "from-the-environment")
    assert main(["client", "--target", "example:50051", "--room", "r1", "--name", "Ana"]) == 0
    assert main(["client", "--room", "r1", "--watch", "--api-key", "k"]) == 0
    assert runs == [
        ("example:50051", {"name": "Ana", "room": "r1", "watch": False, "api_key": "from-the-environment"}),
        ("127.0.0.1:50051", {"name": "", "room": "r1", "watch": True, "api_key": "k"}),
    ]


def test_client_refuses_to_watch_without_a_room(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["client", "--watch"]) == 2
    assert "--watch needs --room" in capsys.readouterr().err


def test_grpc_refuses_a_renew_interval_that_is_not_under_the_lease(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["grpc", "--database-url", "memory", "--lease-seconds", "2", "--renew-seconds", "3"]) == 2
    assert "KICKOFF_RENEW_SECONDS (3) must be above 0 and below KICKOFF_LEASE_SECONDS (2)" in capsys.readouterr().err


def test_grpc_refuses_a_node_id_from_the_environment_that_is_too_long(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("KICKOFF_NODE_ID", "n" * 65)
    assert main(["grpc", "--database-url", "memory"]) == 2
    assert "KICKOFF_NODE_ID (--node-id) must be 1-64 characters" in capsys.readouterr().err


def test_serve_documents_its_options_and_passes_them_on(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as done:
        main(["serve", "--help"])
    assert done.value.code == 0
    usage = capsys.readouterr().out
    for option, words in (
        ("--host HOST", "the REST gateway listens on"),
        ("--port PORT, --http-port PORT", "the REST gateway's port"),
        ("--grpc-host GRPC_HOST", "the gRPC server listens on"),
        ("--grpc-port GRPC_PORT", "the gRPC server's port"),
        ("--database-url DATABASE_URL", "$KICKOFF_DATABASE_URL"),
        ("--cors-origin ORIGIN", "repeatable"),
    ):
        assert option in usage and words in " ".join(usage.split()), option

    from cli import _parser, serve_commands

    monkeypatch.delenv("KICKOFF_GRPC_HOST", raising=False)
    grpc_command, gateway_command = serve_commands(_parser().parse_args(["serve"]))
    assert grpc_command[-3:] == ["grpc", "--port", "50051"]
    assert gateway_command[-7:] == [
        "gateway",
        "--host",
        "127.0.0.1",
        "--port",
        "8080",
        "--grpc-target",
        "127.0.0.1:50051",
    ]
    given = [
        *("serve", "--host", "0.0.0.0", "--port", "9000", "--grpc-host", "0.0.0.0", "--grpc-port", "50111"),
        *("--database-url", "memory", "--cors-origin", "https://a.example", "--cors-origin", "https://b.example"),
    ]
    grpc_command, gateway_command = serve_commands(_parser().parse_args(given))
    assert grpc_command[-7:] == ["grpc", "--port", "50111", "--host", "0.0.0.0", "--database-url", "memory"]
    assert gateway_command[-11:] == [
        *("gateway", "--host", "0.0.0.0", "--port", "9000", "--grpc-target", "127.0.0.1:50111"),
        *("--cors-origin", "https://a.example", "--cors-origin", "https://b.example"),
    ], "the gateway calls a server listening on every address over loopback"
    _, gateway_command = serve_commands(_parser().parse_args(["serve", "--http-port", "9001", "--grpc-host", "::1"]))
    assert gateway_command[-4:] == ["--port", "9001", "--grpc-target", "[::1]:50051"]

    # The server believes the callers its own gateway names (so REST players are not all one address), unless told.
    from cli import serve_environment

    assert serve_environment({"PATH": "/bin"})["KICKOFF_TRUSTED_PROXIES"] == "127.0.0.1/32,::1/128"
    assert serve_environment({"KICKOFF_TRUSTED_PROXIES": "10.0.0.0/8"})["KICKOFF_TRUSTED_PROXIES"] == "10.0.0.0/8"


def test_make_test_lists_the_slowest_tests() -> None:
    from pathlib import Path

    makefile = (Path(__file__).resolve().parents[2] / "Makefile").read_text()
    recipe = makefile.split("\ntest:", 1)[1].split("\n\n", 1)[0]
    pytest_line = next(line for line in recipe.splitlines() if "-m pytest" in line)
    assert "--durations=" in pytest_line, "`make test` prints only dots otherwise: nobody sees which tests are slow"


def test_grpc_refuses_room_seeds_it_cannot_read(capsys: pytest.CaptureFixture[str]) -> None:
    for bad in ("7", "7:0", "a:b"):
        assert main(["grpc", "--database-url", "memory", "--room-seeds", bad]) == 2
        assert "--room-seeds takes SEED:COUNT" in capsys.readouterr().err
