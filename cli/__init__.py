"""The `kickoff` command: `kickoff play`, `kickoff client`, `kickoff bench engine`, `kickoff bench bots`..."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from engine.core import RuleError
from engine.registry import GAMES


def _cors_origin(parser: argparse.ArgumentParser) -> None:
    """``--cors-origin``, the same on `kickoff gateway` and `kickoff serve`."""
    parser.add_argument(
        "--cors-origin",
        action="append",
        default=None,
        metavar="ORIGIN",
        help="a page origin (scheme://host[:port]) that may call the gateway from a browser, repeatable; '*' lets any "
        "page read what a spectator may read (default $KICKOFF_CORS_ORIGINS, comma-separated, or none)",
    )


def _allowed_host(parser: argparse.ArgumentParser) -> None:
    """``--allowed-host``, the same on `kickoff gateway` and `kickoff serve`."""
    parser.add_argument(
        "--allowed-host",
        action="append",
        default=None,
        metavar="NAME",
        help="a host name requests may name in their Host header (DNS rebinding: service/gateway/hosts.py), "
        "repeatable; '*' for any; IP addresses are always accepted (default $KICKOFF_ALLOWED_HOSTS, comma-separated, "
        "or localhost and the --host it listens on)",
    )


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="kickoff", description="kickoff: a game-as-a-service backend for card games")
    commands = parser.add_subparsers(dest="command", required=True)

    play = commands.add_parser("play", help="play one seeded game between system players and print it move by move")
    play.add_argument("--game", default="soker", choices=sorted(GAMES))
    play.add_argument("--seed", type=int, default=1)
    play.add_argument("--seats", type=int, default=4)
    play.add_argument(
        "--bots", default="heuristic,random,random,random", help="one system player per seat, comma-separated"
    )

    grpc_server = commands.add_parser("grpc", help="run the gRPC server (health checking and reflection on)")
    grpc_server.add_argument(
        "--host", default=None, help="address to listen on (default $KICKOFF_GRPC_HOST or 127.0.0.1)"
    )
    grpc_server.add_argument("--port", type=int, default=None, help="port (default $KICKOFF_GRPC_PORT or 50051)")
    grpc_server.add_argument(
        "--database-url", default=None, help="the store (default $KICKOFF_DATABASE_URL or SQLite under ./var/)"
    )
    grpc_server.add_argument(
        "--node-id",
        default=None,
        help="on PostgreSQL, this node's name in the cluster: stable across restarts, unique among the nodes "
        "(default $KICKOFF_NODE_ID or the host name)",
    )
    grpc_server.add_argument(
        "--advertise-address",
        default=None,
        help="host:port the other nodes reach this one at (default $KICKOFF_ADVERTISE_ADDRESS or host name:port)",
    )
    grpc_server.add_argument(
        "--lease-seconds",
        type=float,
        default=None,
        help="how long a node's rooms stay its own after its last renewal (default $KICKOFF_LEASE_SECONDS or 10)",
    )
    grpc_server.add_argument(
        "--renew-seconds",
        type=float,
        default=None,
        help="how often a node renews its leases and looks for rooms of dead nodes (default $KICKOFF_RENEW_SECONDS "
        "or 3)",
    )
    grpc_server.add_argument(
        "--discard-spans",
        action="store_true",
        help="benchmarks: trace every call through the SDK, then drop the spans (overrides OTEL_TRACES_EXPORTER)",
    )
    grpc_server.add_argument(
        "--room-seeds",
        default=None,
        metavar="SEED:COUNT",
        help="benchmarks: the k-th room made is dealt with seed SEED + k %% COUNT, so that runs repeat the same games "
        "(anyone who knows them knows every deal: never on a server people play on)",
    )

    gateway = commands.add_parser("gateway", help="run the REST gateway (Litestar) in front of a gRPC server")
    gateway.add_argument("--host", default="127.0.0.1")
    gateway.add_argument("--port", type=int, default=8080)
    gateway.add_argument(
        "--grpc-target",
        default="127.0.0.1:50051",
        help="the gRPC server, host:port; several nodes: dns:///name:port (an address per node) or a comma-separated "
        "list of IP:port, called in turn",
    )
    gateway.add_argument("--timeout", type=float, default=5.0, help="the deadline of each gRPC call, seconds")
    gateway.add_argument(
        "--max-header-bytes",
        type=int,
        default=None,
        help="a request's line and headers, bytes; more is refused 431 "
        "(default $KICKOFF_HTTP_MAX_HEADER_BYTES or 16384)",
    )
    gateway.add_argument(
        "--header-timeout",
        type=float,
        default=None,
        help="seconds a request's head may take to arrive; then 408 (default $KICKOFF_HTTP_HEADER_TIMEOUT or 10)",
    )
    gateway.add_argument(
        "--max-connections-per-client",
        type=int,
        default=None,
        help="open connections from one IP address; more are refused 429 "
        "(default $KICKOFF_HTTP_MAX_CONNECTIONS_PER_CLIENT or 64)",
    )
    _cors_origin(gateway)
    _allowed_host(gateway)
    gateway.add_argument(
        "--discard-spans",
        action="store_true",
        help="benchmarks: trace every call through the SDK, then drop the spans (overrides OTEL_TRACES_EXPORTER)",
    )

    serve = commands.add_parser(
        "serve",
        help="run the gRPC server and the REST gateway, stop both on Ctrl-C",
        description="Run `kickoff grpc` and `kickoff gateway` in front of it (what `make run` starts); Ctrl-C or "
        "SIGTERM stops both. Each option is passed on to the command that takes it; the rest come from their "
        "environment variables (see `kickoff grpc --help` and `kickoff gateway --help`).",
    )
    serve.add_argument("--host", default="127.0.0.1", help="address the REST gateway listens on (default 127.0.0.1)")
    serve.add_argument(
        "--port",
        "--http-port",
        dest="http_port",
        type=int,
        default=8080,
        metavar="PORT",
        help="the REST gateway's port (default 8080)",
    )
    serve.add_argument(
        "--grpc-host",
        default=None,
        help="address the gRPC server listens on (default $KICKOFF_GRPC_HOST or 127.0.0.1); the gateway calls it there",
    )
    serve.add_argument("--grpc-port", type=int, default=50051, help="the gRPC server's port (default 50051)")
    serve.add_argument(
        "--database-url", default=None, help="the store (default $KICKOFF_DATABASE_URL or SQLite under ./var/)"
    )
    _cors_origin(serve)
    _allowed_host(serve)

    client = commands.add_parser("client", help="play or watch in the terminal: a full-screen client of a gRPC server")
    client.add_argument("--target", default="127.0.0.1:50051", help="the gRPC server, host:port")
    client.add_argument("--room", default=None, help="a room's id: join it at once (or watch it, with --watch)")
    client.add_argument("--name", default="", help="the name shown at the table")
    client.add_argument("--watch", action="store_true", help="with --room: watch it as a spectator instead of joining")
    client.add_argument(
        "--api-key", default=None, help="for servers that require one to create rooms (default $KICKOFF_API_KEY)"
    )

    replay = commands.add_parser(
        "replay",
        help="a room's game move by move: read back from a replay file, or fetched from a server (--room)",
        description="A replay file is a room's whole replay in GetReplayResponse's JSON form (GET "
        "/v1/rooms/{room_id}/replay with every page's steps in one list). Until the game is over it holds what a "
        "spectator saw; after, every hand.",
    )
    replay.add_argument("file", nargs="?", help="the replay file to read (with --room --save: the one to write)")
    replay.add_argument("--room", default=None, help="fetch this room's replay from the server instead")
    replay.add_argument("--target", default="127.0.0.1:50051", help="with --room: the gRPC server, host:port")
    replay.add_argument("--save", action="store_true", help="with --room: write the replay to FILE, print nothing")
    replay.add_argument("--keys", action="store_true", help="step through it full screen (arrows, g, Space, + and -)")

    db = commands.add_parser("db", help="the database")
    db_commands = db.add_subparsers(dest="db", required=True)
    db_upgrade = db_commands.add_parser("upgrade", help="apply the migrations (from an empty database too)")
    db_upgrade.add_argument("--database-url", default=None, help="default $KICKOFF_DATABASE_URL or SQLite under ./var/")

    keys = commands.add_parser("keys", help="API keys for creating rooms and tournaments (KICKOFF_REQUIRE_API_KEY=1)")
    keys.add_argument("--database-url", default=None, help="default $KICKOFF_DATABASE_URL or SQLite under ./var/")
    key_commands = keys.add_subparsers(dest="keys", required=True)
    key_create = key_commands.add_parser("create", help="make a key and print it (it is shown only this once)")
    key_create.add_argument("name", help="who the key is for, e.g. the front-end's name")
    key_commands.add_parser("list", help="every key: id, name, made, revoked")
    key_revoke = key_commands.add_parser("revoke", help="revoke a key (servers refuse it within 30 s)")
    key_revoke.add_argument("key_id")

    from cli import webhooks

    webhooks.add_parser(commands)
    from cli import operators

    operators.add_parser(commands)
    _bench_parser(commands)
    return parser


def _bench_parser(commands: argparse._SubParsersAction) -> None:
    """`kickoff bench engine|server|goals|cluster|clocks|history|players|match|webhooks|bots` and their options."""
    bench = commands.add_parser("bench", help="benchmarks")
    kinds = bench.add_subparsers(dest="bench", required=True)
    engine = kinds.add_parser("engine", help="random games in one process: games/s, moves/s, mean moves per game")
    engine.add_argument("--game", default="soker", choices=sorted(GAMES))
    engine.add_argument("--games", type=int, default=20_000)
    engine.add_argument("--seats", type=int, default=4)
    engine.add_argument("--seed", type=int, default=0)
    engine.add_argument("--rounds", type=int, default=5, help="report the median of this many rounds")
    engine.add_argument(
        "--baseline", default="", choices=["", *sorted(GAMES)], help="alternate rounds with this game; report the ratio"
    )
    engine.add_argument("--json", action="store_true", help="print one JSON object")
    server = kinds.add_parser("server", help="rooms playing whole games against a server in another process")
    server.add_argument("--rooms", type=int, default=200)
    server.add_argument("--seconds", type=float, default=20.0)
    server.add_argument("--transport", choices=("stream", "unary", "rest"), default="stream")
    server.add_argument("--bots", type=int, default=0, help="system players per 4-seat room (think time 0)")
    server.add_argument("--seed", type=int, default=0)
    server.add_argument("--database-url", default="", help="the server's store: default a fresh SQLite file; 'memory'")
    server.add_argument(
        "--tracing", action="store_true", help="run tracing off, then on (spans made and dropped): tracing's cost"
    )
    server.add_argument(
        "--rounds",
        type=int,
        default=1,
        help="with --tracing or --baseline: alternate the two this many times, report medians",
    )
    server.add_argument(
        "--rate",
        type=float,
        default=0,
        help="open-loop: this many moves a second over the rooms, each sent when due whether or not earlier ones "
        "were answered, latency counted from when it was due (default 0: each seat moves as soon as it may)",
    )
    server.add_argument(
        "--baseline",
        action="store_true",
        help="also run a bare grpc.aio fan-out server (no rules, store or telemetry) under the same load, in "
        "alternating rounds; report both and their ratios (stream or unary)",
    )
    server.add_argument("--json", action="store_true", help="print one JSON object")
    goals = kinds.add_parser(
        "goals", help="every per-move goal of the server as a ratio inside one run: the figures and pass/fail"
    )
    goals.add_argument("--rooms", type=int, default=200)
    goals.add_argument("--seconds", type=float, default=15.0)
    goals.add_argument("--rounds", type=int, default=3)
    goals.add_argument(
        "--tracing-rounds",
        type=int,
        default=7,
        help="rounds of the tracing comparison (its 2%% goal is finer than one run's noise, so it takes more)",
    )
    goals.add_argument("--json", action="store_true", help="print one JSON object")
    goals.add_argument("--readme", default="", help="also write the table into this file, between its markers")
    cluster = kinds.add_parser(
        "cluster",
        help="moves/s of 1, 2, 3... nodes on one PostgreSQL, alternating rounds: what leases and routing cost",
    )
    cluster.add_argument(
        "--database-url", required=True, help="a PostgreSQL database: each run makes its own beside it"
    )
    cluster.add_argument("--nodes", default="1,2,3", help="the node counts to compare, comma-separated")
    cluster.add_argument("--rooms", type=int, default=200)
    cluster.add_argument("--seconds", type=float, default=15.0)
    cluster.add_argument("--rounds", type=int, default=3)
    cluster.add_argument("--seed", type=int, default=0)
    routing = cluster.add_mutually_exclusive_group()
    routing.add_argument(
        "--local", action="store_true", help="play each room through the node that owns it (no forwarding)"
    )
    routing.add_argument(
        "--follow",
        action="store_true",
        help="join through a node at random asking for the owner (kickoff-route: owner), then play on the owner",
    )
    cluster.add_argument(
        "--transport",
        choices=("stream", "rest"),
        default="stream",
        help="play streams (gRPC), or REST through one gateway in front of every node (it follows owners itself)",
    )
    cluster.add_argument("--json", action="store_true", help="print one JSON object")
    nemesis = kinds.add_parser(
        "nemesis",
        help="a fault soak of a cluster (kills, stops, cuts from PostgreSQL and from the other nodes) while people "
        "play; fails when any acknowledged move is missing from its log",
    )
    nemesis.add_argument(
        "--database-url", required=True, help="a PostgreSQL database: the run makes its own beside it, and drops it"
    )
    nemesis.add_argument("--nodes", type=int, default=3)
    nemesis.add_argument("--rooms", type=int, default=24, help="rooms played at once (a new one as each game ends)")
    nemesis.add_argument("--seconds", type=float, default=90.0)
    nemesis.add_argument(
        "--every", default="8,15", help="seconds between faults: a range, low,high (one fault at a time)"
    )
    nemesis.add_argument("--lease-seconds", type=float, default=4.0)
    nemesis.add_argument("--renew-seconds", type=float, default=1.0)
    nemesis.add_argument("--seed", type=int, default=0)
    nemesis.add_argument("--json", action="store_true", help="print one JSON object")
    clocks = kinds.add_parser("clocks", help="idle online rooms with running clocks: server CPU and clock accuracy")
    clocks.add_argument("--rooms", type=int, default=5000)
    clocks.add_argument("--quiet-seconds", type=float, default=10.0)
    clocks.add_argument("--json", action="store_true", help="print one JSON object")
    history = kinds.add_parser(
        "history", help="finished games: server memory as they pile up, and start-up time with many in the store"
    )
    history.add_argument("--games", type=int, default=2_000, help="finished games to play for the memory figure")
    history.add_argument(
        "--stored", default="1000,10000", help="finished rooms in the store for the start-up figure, comma-separated"
    )
    history.add_argument("--json", action="store_true", help="print one JSON object")
    players = kinds.add_parser(
        "players",
        help="leaderboards with many rated players (GetLeaderboard, GetRank: p99) and a rated game's server CPU "
        "against an unrated one's, alternating rounds: the figures and pass/fail",
    )
    players.add_argument("--players", type=int, default=100_000, help="rated players written into the store")
    players.add_argument("--game", default="soker", choices=sorted(GAMES))
    players.add_argument("--calls", type=int, default=2_000, help="GetLeaderboard calls, and as many GetRank calls")
    players.add_argument(
        "--rounds", type=int, default=10, help="rounds of rated and of unrated games, alternating (0: none)"
    )
    players.add_argument("--games", type=int, default=50, help="games of four signed-in guests a round, all at once")
    players.add_argument(
        "--database-url",
        default="",
        help="a PostgreSQL database (a fresh one is made beside it, and dropped); default a fresh SQLite file",
    )
    players.add_argument("--seed", type=int, default=0)
    players.add_argument("--json", action="store_true", help="print one JSON object")
    players.add_argument(
        "--readme", default="", help="also write the table into this file, between its markers for the store"
    )
    match = kinds.add_parser(
        "match",
        help="matchmaking under tickets at a steady rate: enqueue -> matched p50/p99, matching CPU a ticket, the "
        "tables' rating spread",
    )
    match.add_argument("--players", type=int, default=10_000, help="guests signed in and rated, one ticket each")
    match.add_argument(
        "--rate", type=float, default=30.0, help="tickets enqueued a second, open loop (default: what 2 cores sustain)"
    )
    match.add_argument("--game", default="soker", choices=sorted(GAMES))
    match.add_argument("--interval", type=float, default=0.5, help="seconds between the queues' turns")
    match.add_argument(
        "--fill-seconds", type=float, default=10.0, help="a ticket's wait before system players fill its table"
    )
    match.add_argument(
        "--database-url",
        default="",
        help="a PostgreSQL database (a fresh one is made beside it, and dropped); default a fresh SQLite file",
    )
    match.add_argument("--seed", type=int, default=0)
    match.add_argument("--server-log", default="", help="keep the server's log in this file")
    match.add_argument("--json", action="store_true", help="print one JSON object")
    webhooks = kinds.add_parser(
        "webhooks",
        help="deliveries a second to a loopback receiver; server CPU a move with a delivery a move, against none; "
        "idle correspondence rooms' memory and CPU",
    )
    webhooks.add_argument("--deliveries", type=int, default=5000, help="events put in the outbox at once")
    webhooks.add_argument("--rooms", type=int, default=40, help="rooms played at once in the CPU rounds")
    webhooks.add_argument("--seconds", type=float, default=8.0, help="a CPU round's length")
    webhooks.add_argument("--rounds", type=int, default=3, help="CPU rounds of each side, alternating")
    webhooks.add_argument("--idle", type=int, default=10_000, help="idle correspondence rooms (0: none)")
    webhooks.add_argument("--quiet", type=float, default=10.0, help="seconds over which idle CPU is measured")
    webhooks.add_argument(
        "--database-url",
        default="",
        help="a PostgreSQL database (a fresh one is made beside it, and dropped); default a fresh SQLite file",
    )
    webhooks.add_argument("--seed", type=int, default=0)
    webhooks.add_argument("--json", action="store_true", help="print one JSON object")
    bots = kinds.add_parser("bots", help="a system player's win rate against random players")
    bots.add_argument("--game", default="soker", choices=sorted(GAMES))
    bots.add_argument("--games", type=int, default=1_000)
    bots.add_argument("--bot", default="normal")
    bots.add_argument("--opponent", default="random")
    bots.add_argument(
        "--seats", default="4", help="table size, or sizes taken in turn (e.g. 2,4); a team game's bot plays a team"
    )
    bots.add_argument("--seed", type=int, default=0)
    bots.add_argument(
        "--deals",
        type=int,
        default=0,
        help="play duplicate deals instead (each once for every side the bot takes)",
    )
    bots.add_argument("--think", type=float, default=1.0, help="with --deals: a searching bot's seconds a decision")
    bots.add_argument("--iterations", type=int, default=0, help="with --deals: a fixed search budget, not --think")
    bots.add_argument("--workers", type=int, default=2, help="with --deals: games played at once (one core each)")
    bots.add_argument("--json", action="store_true", help="print one JSON object")


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        return _COMMANDS[args.command](args)
    except (RuleError, ValueError) as exc:
        print(f"kickoff: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # the reader went away (`kickoff play | head`): stop quietly
        sys.stdout = None  # type: ignore[assignment]
        return 0


def _play(args: argparse.Namespace) -> int:
    from service.play import play_game

    play_game(args.game, args.seats, args.seed, [b.strip() for b in args.bots.split(",")], sys.stdout)
    return 0


def _upgrade_database(args: argparse.Namespace) -> int:
    from service.settings import StoreSettings
    from service.store.database import upgrade

    url = args.database_url or StoreSettings().database_url
    upgrade(url)
    print(f"database at the newest schema: {url.split('@')[-1]}")
    return 0


def _bench(args: argparse.Namespace) -> int:
    """`kickoff bench ...`: each benchmark (from the benchmarks package, imported only when run) and its report."""
    return _BENCHES[args.bench](args)


def _bench_engine(args: argparse.Namespace) -> int:
    from benchmarks.engine import bench_engine, engine_report

    if args.games < 1:
        raise ValueError("--games must be at least 1")
    figures = bench_engine(args.game, args.games, args.seats, args.seed, args.rounds, args.baseline).to_json()
    _report(args, figures, engine_report(figures, args.game, args.games, args.seats, args.rounds, args.baseline))
    return 0


def _bench_server(args: argparse.Namespace) -> int:
    from benchmarks.server import (
        baseline_report,
        bench_against_baseline,
        bench_server,
        bench_tracing,
        server_report,
        tracing_report,
    )

    if args.rooms < 1 or args.seconds <= 0:
        raise ValueError("--rooms and --seconds must be positive")
    if args.baseline:
        if args.tracing or args.bots:
            raise ValueError("--baseline compares kickoff without tracing or system players")
        figures = bench_against_baseline(
            args.rooms, args.seconds, args.transport, args.seed, args.database_url, args.rounds
        )
        _report(args, figures, baseline_report(figures, args.database_url, args.rooms, args.transport, args.rounds))
    elif args.tracing:
        if args.rounds < 1:
            raise ValueError("--rounds must be positive")
        figures, cpu = bench_tracing(
            args.rooms, args.seconds, args.transport, args.bots, args.seed, args.database_url, args.rounds
        )
        _report(args, figures, tracing_report(figures, cpu, args.database_url, args.rooms, args.transport))
    else:
        result = bench_server(
            args.rooms, args.seconds, args.transport, args.bots, args.seed, args.database_url, rate=args.rate
        )
        text = server_report(result, args.database_url, args.rooms, args.transport, args.bots, args.rate)
        _report(args, result, text)
    return 0


def _bench_goals(args: argparse.Namespace) -> int:
    from benchmarks.goals import bench_goals, table, write_into

    if args.rooms < 1 or args.seconds <= 0 or args.rounds < 1 or args.tracing_rounds < 1:
        raise ValueError("--rooms, --seconds, --rounds and --tracing-rounds must be positive")
    result = bench_goals(args.rooms, args.seconds, args.rounds, tracing_rounds=args.tracing_rounds)
    _report(args, result, table(result))
    if args.readme:
        write_into(args.readme, table(result))
    return 0


def _bench_cluster(args: argparse.Namespace) -> int:
    from benchmarks.cluster import bench_cluster, cluster_report

    counts = [int(part) for part in args.nodes.split(",") if part.strip()]
    figures = bench_cluster(
        args.database_url,
        counts,
        args.rooms,
        args.seconds,
        args.rounds,
        args.seed,
        local=args.local,
        follow=args.follow,
        transport=args.transport,
    )
    report = cluster_report(
        figures, counts, args.rooms, args.seconds, args.rounds, args.local, args.follow, args.transport
    )
    _report(args, figures, report)
    return 0


def _bench_nemesis(args: argparse.Namespace) -> int:
    import asyncio

    from benchmarks.nemesis import nemesis_report, soak

    low, high = (float(part) for part in args.every.split(","))
    figures = asyncio.run(
        soak(
            args.database_url,
            nodes=args.nodes,
            rooms=args.rooms,
            seconds=args.seconds,
            every=(low, high),
            lease=args.lease_seconds,
            renew=args.renew_seconds,
            seed=args.seed,
        )
    )
    _report(args, figures, nemesis_report(figures))
    return 0 if figures["ok"] else 1


def _bench_clocks(args: argparse.Namespace) -> int:
    from benchmarks.server import bench_clocks, clocks_report

    if args.rooms < 1:
        raise ValueError("--rooms must be positive")
    result = bench_clocks(args.rooms, args.quiet_seconds)
    _report(args, result, clocks_report(result, args.rooms))
    return 0


def _bench_history(args: argparse.Namespace) -> int:
    from benchmarks.history import bench_history, history_report

    stored = [int(count) for count in args.stored.split(",") if count.strip()]
    if args.games < 8 or not stored or min(stored) < 1:
        raise ValueError("--games must be at least 8 and --stored positive counts")
    result = bench_history(args.games, stored)
    _report(args, result, history_report(result))
    return 0


def _bench_players(args: argparse.Namespace) -> int:
    """Exits 1 when a goal is missed."""
    from benchmarks.goals import write_into
    from benchmarks.players import bench_players, markers, players_table

    figures = bench_players(args.players, args.game, args.calls, args.rounds, args.games, args.database_url, args.seed)
    _report(args, figures, players_table(figures))
    if args.readme:
        write_into(args.readme, players_table(figures), *markers(figures["database"]))
    return 0 if figures["met"] == figures["of"] else 1


def _bench_match(args: argparse.Namespace) -> int:
    """Exits 1 when a ticket never ended."""
    from benchmarks.match import bench_match, match_report

    figures = bench_match(
        args.players,
        args.rate,
        args.game,
        args.interval,
        args.fill_seconds,
        args.database_url,
        args.seed,
        args.server_log,
    )
    _report(args, figures, match_report(figures))
    return 0 if figures["ended"] == figures["tickets"] else 1


def _bench_webhooks(args: argparse.Namespace) -> int:
    """Exits 1 when a delivery was lost, repeated or badly signed."""
    from benchmarks.webhooks import bench_webhooks, webhooks_report

    figures = bench_webhooks(
        deliveries=args.deliveries,
        rooms=args.rooms,
        seconds=args.seconds,
        rounds=args.rounds,
        idle=args.idle,
        quiet=args.quiet,
        database_url=args.database_url,
        seed=args.seed,
    )
    _report(args, figures, webhooks_report(figures))
    through = figures["throughput"]
    clean = through["delivered"] == through["deliveries"] and not through["repeats"] and not through["bad_signatures"]
    return 0 if clean and not figures["cpu"]["bad_signatures"] else 1


def _bench_bots(args: argparse.Namespace) -> int:
    from benchmarks.engine import bench_bots, bots_report

    if args.games < 1:
        raise ValueError("--games must be at least 1")
    counts = tuple(int(part) for part in args.seats.split(","))
    if args.deals:
        from benchmarks.strength import bench_strength, strength_report

        for count in counts:
            result = bench_strength(
                args.game,
                args.deals,
                args.bot,
                args.opponent,
                count,
                args.seed,
                args.think,
                args.iterations or None,
                args.workers,
            )
            _report(args, result.to_json(), strength_report(result))
        return 0
    figures = bench_bots(args.game, args.games, args.bot, args.opponent, counts, args.seed)
    _report(args, figures.to_json(), bots_report(figures, args.game, counts))
    return 0


def _report(args: argparse.Namespace, figures: dict, text: str) -> None:
    """A benchmark's figures: one JSON object with --json, else one line for people."""
    print(json.dumps(figures) if args.json else text)


def _run_client(args: argparse.Namespace) -> int:
    import os

    from terminal.app import run

    if args.watch and not args.room:
        raise ValueError("--watch needs --room")
    api_key = args.api_key if args.api_key is not None else os.environ.get("KICKOFF_API_KEY", "")
    return run(args.target, name=args.name, room=args.room, watch=args.watch, api_key=api_key)


def _replay(args: argparse.Namespace) -> int:
    import asyncio

    from terminal.replay import read_replay, replay_json, replay_lines

    if args.room is None:
        if args.file is None or args.save:
            raise ValueError("give a replay FILE to read, or --room ID (with --save FILE to write one)")
        replay = read_replay(args.file)
    else:
        if args.save and args.file is None:
            raise ValueError("--save needs the FILE to write")
        replay = asyncio.run(_fetch_replay(args.target, args.room))
        if args.save:
            with open(args.file, "w", encoding="utf-8") as out:
                out.write(replay_json(replay))
            print(f"{len(replay.steps)} versions of room {args.room} written to {args.file}")
            return 0
    if args.keys:
        from terminal.app import run_replay

        return run_replay(replay)
    for line in replay_lines(replay):
        print(line)
    return 0


async def _fetch_replay(target: str, room_id: str) -> Any:
    from terminal.client import CallFailed, KickoffClient

    client = KickoffClient(target)
    try:
        return await client.replay(room_id)
    except CallFailed as failed:
        raise ValueError(f"the server gave no replay of {room_id}: {failed.refusal}") from None
    finally:
        await client.close()


def _run_gateway(args: argparse.Namespace) -> int:
    import dataclasses
    import os

    from service import collector
    from service.gateway import http
    from service.gateway.app import create_app
    from service.gateway.cors import CorsPolicy
    from service.gateway.hosts import HostPolicy
    from service.settings import HttpLimits
    from service.telemetry import from_environment

    given = {
        "max_header_bytes": args.max_header_bytes,
        "header_timeout": args.header_timeout,
        "max_connections_per_client": args.max_connections_per_client,
    }
    limits = dataclasses.replace(HttpLimits(), **{k: v for k, v in given.items() if v is not None})
    telemetry = from_environment("kickoff-gateway", discard_spans=args.discard_spans)
    try:
        cors = CorsPolicy.parse(args.cors_origin or [os.environ.get("KICKOFF_CORS_ORIGINS", "")])
        hosts = HostPolicy.parse(args.allowed_host or limits.allowed_hosts, listen=args.host)
    except ValueError as error:
        print(f"kickoff gateway: {error}", file=sys.stderr)
        return 2
    app = create_app(
        args.grpc_target,
        timeout=args.timeout,
        telemetry=telemetry,
        max_body_bytes=limits.max_body_bytes,
        cors=cors,
        hosts=hosts,
    )
    print(
        f"kickoff REST gateway on http://{args.host}:{args.port} (OpenAPI at /schema) -> gRPC {args.grpc_target}",
        flush=True,
    )
    collector.settle()  # (what start-up made stays for good: see service/collector.py)
    http.serve(app, args.host, args.port, limits)
    telemetry.shutdown()  # export what is still buffered
    return 0


def serve_commands(args: argparse.Namespace) -> tuple[list[str], list[str]]:
    """`kickoff serve`'s two commands: `kickoff grpc` and `kickoff gateway` with the options given passed on."""
    import os

    base = [sys.executable, "-m", "cli"]
    grpc_command = [*base, "grpc", "--port", str(args.grpc_port)]
    if args.grpc_host:
        grpc_command += ["--host", args.grpc_host]
    if args.database_url:
        grpc_command += ["--database-url", args.database_url]
    listening = args.grpc_host or os.environ.get("KICKOFF_GRPC_HOST") or "127.0.0.1"
    reach = "127.0.0.1" if listening in ("0.0.0.0", "::", "") else listening  # a wildcard: call it on loopback
    target = f"[{reach}]:{args.grpc_port}" if ":" in reach else f"{reach}:{args.grpc_port}"
    gateway_command = [*base, "gateway", "--host", args.host, "--port", str(args.http_port), "--grpc-target", target]
    for origin in args.cors_origin or ():
        gateway_command += ["--cors-origin", origin]
    for name in args.allowed_host or ():
        gateway_command += ["--allowed-host", name]
    return grpc_command, gateway_command


def serve_environment(environment: dict[str, str]) -> dict[str, str]:
    """`kickoff grpc`'s environment under `kickoff serve`: unless KICKOFF_TRUSTED_PROXIES says otherwise, the server
    believes the caller's address its own gateway names (the gateway calls it from this machine, on loopback):
    otherwise every REST client would seem to be the gateway's one address, and share its rate limits and, seated
    together, play unrated (`same_address`)."""
    if environment.get("KICKOFF_TRUSTED_PROXIES"):
        return environment
    return {**environment, "KICKOFF_TRUSTED_PROXIES": "127.0.0.1/32,::1/128"}


def _serve_both(args: argparse.Namespace) -> int:
    """Both processes; Ctrl-C (or SIGTERM) stops both, the gateway first."""
    import os
    import signal
    import subprocess

    grpc_command, gateway_command = serve_commands(args)
    grpc_server = subprocess.Popen(grpc_command, env=serve_environment(dict(os.environ)))
    gateway = subprocess.Popen(gateway_command)

    def stop(*_: object) -> None:
        for process in (gateway, grpc_server):
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)

    signal.signal(signal.SIGTERM, stop)
    try:
        while grpc_server.poll() is None and gateway.poll() is None:
            try:
                grpc_server.wait(timeout=0.5)
            except subprocess.TimeoutExpired:
                continue
    except KeyboardInterrupt:
        pass
    finally:
        stop()
        for process in (gateway, grpc_server):
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
    return 0


def _run_grpc(args: argparse.Namespace) -> int:
    import asyncio
    import dataclasses
    import itertools
    import logging

    from service.grpc.server import serve
    from service.settings import GrpcSettings, NodeSettings, Settings, StoreSettings
    from service.store.database import upgrade

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    overrides = {k: v for k, v in {"host": args.host, "port": args.port}.items() if v is not None}
    node_flags = {
        "node_id": args.node_id,
        "advertise_address": args.advertise_address,
        "lease_seconds": args.lease_seconds,
        "renew_seconds": args.renew_seconds,
    }
    given = {
        "grpc": dataclasses.replace(GrpcSettings(), **overrides),
        "node": NodeSettings(**{k: v for k, v in node_flags.items() if v is not None}),
    }
    if args.database_url:
        given["store"] = StoreSettings(database_url=args.database_url)
    settings = Settings.from_environment(**given)  # every setting, once: a bad KICKOFF_* value stops the start here
    seed_source = None
    if args.room_seeds:
        try:
            first, count = (int(part) for part in args.room_seeds.split(":"))
            if count < 1:
                raise ValueError(count)
        except ValueError:
            print("--room-seeds takes SEED:COUNT, two whole numbers, COUNT at least 1", file=sys.stderr)
            return 2
        seeds = itertools.cycle(range(first, first + count))
        seed_source = lambda: next(seeds)  # noqa: E731
    if settings.store.database_url != "memory":
        upgrade(settings.store.database_url)  # the server applies the migrations on start
    asyncio.run(serve(settings, discard_spans=args.discard_spans, seed_source=seed_source))
    return 0


def _keys(args: argparse.Namespace) -> int:
    """`kickoff keys create|list|revoke`: the store's API keys (the server reads them every 30 s)."""
    import asyncio
    import time

    from service.settings import StoreSettings
    from service.store import keys
    from service.store.database import create_engine, upgrade

    url = args.database_url or StoreSettings().database_url
    upgrade(url)

    async def run() -> int:
        engine = create_engine(url)
        try:
            if args.keys == "create":
                if not 0 < len(args.name) <= 64:
                    raise ValueError("a key's name takes 1-64 characters")
                key_id, key = await keys.create_key(engine, args.name)
                print(f"key {key_id} for {args.name}:\n{key}\n(shown only now: send it as 'x-api-key: <key>')")
            elif args.keys == "list":
                for row in await keys.list_keys(engine):
                    made = time.strftime("%Y-%m-%d %H:%M", time.gmtime(row.created_at))
                    revoked = time.strftime("%Y-%m-%d %H:%M", time.gmtime(row.revoked_at)) if row.revoked_at else ""
                    print(f"{row.key_id}  {row.name:<24}  made {made} UTC  {'revoked ' + revoked if revoked else ''}")
            elif not await keys.revoke_key(engine, args.key_id):
                print(f"kickoff: no live key {args.key_id!r}", file=sys.stderr)
                return 2
            else:
                print(f"key {args.key_id} revoked")
            return 0
        finally:
            await engine.dispose()

    return asyncio.run(run())


def _webhooks(args: argparse.Namespace) -> int:
    from cli import webhooks

    return webhooks.run(args)


def _operator_keys(args: argparse.Namespace) -> int:
    from cli import operators

    return operators.run(args)


# `kickoff COMMAND` and `kickoff bench KIND`: the function that runs each (each imports what it needs when called).
_COMMANDS = {
    "play": _play,
    "grpc": _run_grpc,
    "gateway": _run_gateway,
    "serve": _serve_both,
    "client": _run_client,
    "replay": _replay,
    "db": _upgrade_database,
    "keys": _keys,
    "webhooks": _webhooks,
    "operator-keys": _operator_keys,
    "bench": _bench,
}
_BENCHES = {
    "engine": _bench_engine,
    "server": _bench_server,
    "goals": _bench_goals,
    "cluster": _bench_cluster,
    "nemesis": _bench_nemesis,
    "clocks": _bench_clocks,
    "history": _bench_history,
    "players": _bench_players,
    "match": _bench_match,
    "webhooks": _bench_webhooks,
    "bots": _bench_bots,
}
