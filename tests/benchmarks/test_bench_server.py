"""`kickoff bench server` runs against a real server process and reports the documented figures."""

from __future__ import annotations

import pytest

from benchmarks.server import bench_server


@pytest.mark.parametrize("transport", ["stream", "unary", "rest"])
def test_bench_server_reports_moves_latency_games_and_memory(transport: str) -> None:
    figures = bench_server(rooms=3, seconds=1.5, transport=transport, bots=1)
    expected = {"moves_per_s", "p50_ms", "p99_ms", "games", "rss_mb", "server_cpu_us_per_move", "update_bytes"}
    assert set(figures) == expected | ({"gateway_cpu_us_per_move"} if transport == "rest" else set())
    assert figures["server_cpu_us_per_move"] > 0
    assert figures["moves_per_s"] > 0 and 0 < figures["p50_ms"] <= figures["p99_ms"]
    assert figures["rss_mb"] > 10


def test_bench_server_open_loop_sends_moves_at_the_rate_asked() -> None:
    figures = bench_server(rooms=4, seconds=3, transport="stream", database_url="memory", rate=20)
    assert 10 <= figures["moves_per_s"] <= 21, "about 20 moves a second, no more (room set-up takes some of it)"
    assert 0 < figures["p50_ms"] <= figures["p99_ms"]
    with pytest.raises(ValueError, match="rate"):
        bench_server(rooms=1, seconds=1, rate=-1)


def test_bench_server_refuses_a_room_of_only_system_players() -> None:
    with pytest.raises(ValueError, match="bots"):
        bench_server(rooms=1, seconds=1, bots=4)


def test_bench_server_measures_tracing_against_no_tracing_in_one_run() -> None:
    import json
    import subprocess
    import sys

    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "cli",
            "bench",
            "server",
            "--rooms",
            "2",
            "--seconds",
            "1",
            "--tracing",
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    figures = json.loads(run.stdout)
    assert figures["off"]["moves_per_s"] > 0 and figures["on"]["moves_per_s"] > 0
    assert figures["rounds"] == 1
    assert figures["cost_percent"] == round((1 - figures["on"]["moves_per_s"] / figures["off"]["moves_per_s"]) * 100, 1)


@pytest.mark.parametrize("transport", ["stream", "unary"])
def test_bench_server_measures_kickoff_against_a_bare_fan_out_server_in_one_run(transport: str) -> None:
    from benchmarks.server import bench_against_baseline

    figures = bench_against_baseline(rooms=3, seconds=1.5, transport=transport, database_url="memory", rounds=1)
    ours, bare = figures["kickoff"], figures["baseline"]
    assert ours["moves_per_s"] > 0 and bare["moves_per_s"] > 0
    assert ours["server_cpu_us_per_move"] > 0 and bare["server_cpu_us_per_move"] > 0
    assert abs(bare["update_bytes"] - ours["update_bytes"]) <= 0.05 * ours["update_bytes"], "updates of one size"
    assert figures["moves_per_s_ratio"] == round(ours["moves_per_s"] / bare["moves_per_s"], 3)
    assert figures["cpu_per_move_ratio"] == round(ours["server_cpu_us_per_move"] / bare["server_cpu_us_per_move"], 3)
    with pytest.raises(ValueError, match="unary"):
        bench_against_baseline(rooms=1, seconds=1, transport="rest")


def test_bench_history_reports_memory_as_games_finish_and_startup_with_finished_rooms() -> None:
    from benchmarks.history import bench_history

    figures = bench_history(games=16, stored=[3, 6], starts=1)
    assert [reading["games"] for reading in figures["memory"]] == [0, 8, 16, 24, 32]
    assert all(reading["rss_mb"] > 10 for reading in figures["memory"])
    assert [reading["finished_rooms"] for reading in figures["startup"]] == [3, 6]
    assert all(0 < reading["startup_s"] < 30 for reading in figures["startup"])


def test_bench_goals_measures_every_goal_as_a_ratio_inside_one_run() -> None:
    from benchmarks.goals import Goal, bench_goals, table

    figures = bench_goals(rooms=2, seconds=0.8, rounds=1, tracing_rounds=1)
    names = [goal["goal"] for goal in figures["goals"]]
    assert len(names) == 12 and figures["of"] == 12
    assert any("bare fan-out" in name for name in names) and any("SQLite" in name for name in names)
    assert sum("bare REST relay" in name for name in names) == 2
    assert any("open-loop" in name for name in names) and sum("tracing" in name for name in names) == 3
    assert all(goal["figure"] == goal["figure"] and goal["detail"] for goal in figures["goals"])  # numbers, no NaN
    assert figures["met"] == sum(goal["met"] for goal in figures["goals"])
    text = table(figures)
    assert text.count("\n| ") == 12 and f"{figures['met']} of 12 goals met" in text
    assert Goal("x", 1.4, 1.5, True, "").met and not Goal("x", 0.6, 0.67, False, "").met


def test_the_goals_table_is_written_between_the_readme_markers(tmp_path) -> None:
    from benchmarks.goals import BEGIN, END, write_into

    readme = tmp_path / "README.md"
    readme.write_text(f"# x\n{BEGIN}\nold table\n{END}\nafter\n")
    write_into(str(readme), "| new |")
    assert readme.read_text() == f"# x\n{BEGIN}\n| new |\n{END}\nafter\n"
    (tmp_path / "plain.md").write_text("no markers")
    with pytest.raises(ValueError, match="block"):
        write_into(str(tmp_path / "plain.md"), "| new |")


def test_bench_cluster_plays_through_one_gateway_in_front_of_the_nodes() -> None:
    import os

    from benchmarks.cluster import bench_cluster, cluster_report

    admin = os.environ.get("KICKOFF_TEST_POSTGRES_URL")
    if not admin:
        if os.environ.get("CI") == "true":
            pytest.fail("no PostgreSQL: run the tests with `make test`")
        pytest.skip("no PostgreSQL: run the tests with `make test`")
    figures = bench_cluster(admin, [1, 2], rooms=4, seconds=1.5, rounds=1, transport="rest")
    for count in (1, 2):
        line = figures[f"nodes_{count}"]
        assert line["moves_per_s"] > 0 and line["server_cpu_us_per_move"] > 0
        assert line["gateway_cpu_us_per_move"] > 0, "the moves went through the gateway"
    assert figures["nodes_2"]["cpu_per_move_ratio"] > 0
    assert "REST gateway" in cluster_report(figures, [1, 2], 4, 1.5, 1, False, transport="rest")
    with pytest.raises(ValueError, match="follows owners itself"):
        bench_cluster(admin, [1], rooms=1, seconds=1, rounds=1, transport="rest", follow=True)


def test_the_rest_floor_relays_the_rest_load_to_the_bare_server_and_refuses_a_stale_move() -> None:
    """The floor under kickoff's gateway works: the REST load plays through it (its moves answer 201, and its CPU is
    measured), a seat's event stream carries the seat's legal moves in the gateway's JSON, and a move that is no
    longer the seat's to make answers 409, as the gateway's does. About 4 s, as much as the bare fan-out test above."""
    import json

    import grpc
    import httpx

    from benchmarks.harness import BaselineProcess, RestFloorProcess
    from benchmarks.load import measure
    from kickoff.v1 import room_pb2, room_pb2_grpc

    figures = measure(BaselineProcess(400), 3, 1.5, "rest", 0, 1, gateway=RestFloorProcess)
    assert figures["moves_per_s"] > 0
    assert figures["gateway_cpu_us_per_move"] > 0 and figures["server_cpu_us_per_move"] > 0

    server = BaselineProcess(400)
    relay = RestFloorProcess(server.target)
    try:
        with grpc.insecure_channel(server.target) as channel:
            rooms = room_pb2_grpc.RoomServiceStub(channel)
            room_id = rooms.CreateRoom(room_pb2.CreateRoomRequest(game="soker", seats=4)).room.room_id
            joined = [rooms.JoinRoom(room_pb2.JoinRoomRequest(room_id=room_id)) for _ in range(4)]
        seat = {"Authorization": f"Bearer {joined[0].seat_token}"}
        with (
            httpx.Client(base_url=relay.url, headers=seat, timeout=10) as client,
            client.stream("GET", f"/v1/rooms/{room_id}/events", params={"after_version": 3}) as events,
        ):
            lines = events.iter_lines()
            head = [next(lines) for _ in range(3)]
            assert head[:2] == ["id: 4", "event: update"] and head[2].startswith("data: ")
            update = json.loads(head[2].removeprefix("data: "))
            assert update["status"] == "ROOM_STATUS_PLAYING" and update["toAct"] == [0]
            move = {"move": update["legalMoves"][0], "requestId": "1", "expectedVersion": update["version"]}
            made = client.post(f"/v1/rooms/{room_id}/moves", json=move)
            assert made.status_code == 201 and made.json()["version"] == "5", made.text
            again = client.post(f"/v1/rooms/{room_id}/moves", json={**move, "requestId": "2"})
            assert again.status_code == 409, "the seat's turn is over: the move is stale"
    finally:
        relay.stop()
        server.stop()
