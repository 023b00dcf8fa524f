"""`kickoff bench ...`: the benchmarks' command line, beside the benchmarks it runs. The `kickoff` command (cli/) wires
it in: :func:`add_bench_commands` adds `kickoff bench` and each kind's options to its parser, and :func:`run_bench` runs
the kind asked for and prints its report (one JSON object with --json). Each benchmark's module is imported only when
it runs, so the parser costs the other commands nothing; a bad option is a ValueError, which `kickoff` prints as an
error (exit status 2).
"""

from __future__ import annotations

import argparse
import json
import sys

from engine.registry import GAMES


def add_bench_commands(commands: argparse._SubParsersAction) -> None:
    """`kickoff bench engine|server|goals|cluster|clocks|history|players|match|webhooks|social|chat|bots|
    ladder` and their
    options, on the `kickoff` parser's commands."""
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
    social = kinds.add_parser(  # (issue 48)
        "social",
        help="friends' presence on two nodes: a change's delay as a friend on the other node sees it, the store's "
        "writes and the CPU a change; an inbox's pages and following",
    )
    social.add_argument("--players", type=int, default=10_000, help="signed-in players, half on each node")
    social.add_argument("--friends", type=int, default=50, help="friends each (even), all on the other node")
    social.add_argument("--seconds", type=float, default=180.0, help="over which each goes online, to a table, ...")
    social.add_argument("--items", type=int, default=1000, help="items in the inbox listed and followed")
    social.add_argument(
        "--database-url",
        default="",
        help="a PostgreSQL database (a fresh one is made beside it, and dropped); default a fresh SQLite file",
    )
    social.add_argument("--seed", type=int, default=0)
    social.add_argument("--json", action="store_true", help="print one JSON object")
    chat = kinds.add_parser(  # (issue 49)
        "chat",
        help="rooms playing while each room's people send a message a second, against the same rooms without chat, "
        "alternating rounds: server CPU a move, move latency p99, messages delivered a second; pass/fail",
    )
    chat.add_argument("--rooms", type=int, default=200, help="rooms of four signed-in guests played at once")
    chat.add_argument("--seconds", type=float, default=15.0, help="a round's length")
    chat.add_argument("--rounds", type=int, default=3, help="rounds of chat on and of chat off, alternating")
    chat.add_argument(
        "--database-url",
        default="",
        help="a PostgreSQL database (a fresh one is made beside it a round, and dropped); default a fresh SQLite file",
    )
    chat.add_argument("--seed", type=int, default=0)
    chat.add_argument(
        "--calls",
        type=int,
        default=0,
        help="instead: the server's CPU a call of GetRoom, SendChatMessage and ListChatMessages, this many of each",
    )
    chat.add_argument("--in-flight", type=int, default=4, help="with --calls: calls in flight at once")
    chat.add_argument("--json", action="store_true", help="print one JSON object")
    bots = kinds.add_parser(
        "bots",
        help="a system player's win rate against random players, or (--deals, --margin) one level or setting "
        "against another on duplicate deals",
        description="A player is a level (random, easy, normal, hard) or, for an ablation, the hard player with "
        "settings changed: hard:FIELD=VALUE[,FIELD=VALUE...], e.g. --bot hard:judge=off --opponent hard, or "
        "hard:bias=0,exploration=1. FIELD is a field of engine.search.SearchSettings (a new field is taken as it "
        "is added: its value is read by the type of the game's own, on/off for a switch or a function such as "
        "judge), or a keyword of SearchBot's constructor named in benchmarks.strength.BOT_SWITCHES (add one line "
        "there: its name and the parser of its value). seconds and iterations are the bench's own (--think, "
        "--iterations), the same for both players.",
    )
    bots.add_argument("--game", default="soker", choices=sorted(GAMES))
    bots.add_argument("--games", type=int, default=1_000)
    bots.add_argument("--bot", default="normal", help="a level, or hard:FIELD=VALUE,... (see above)")
    bots.add_argument("--opponent", default="random", help="a level, or hard:FIELD=VALUE,... (see above)")
    bots.add_argument(
        "--seats", default="4", help="table size, or sizes taken in turn (e.g. 2,4); a team game's bot plays a team"
    )
    bots.add_argument("--seed", type=int, default=0)
    _add_deals_options(bots)
    bots.add_argument(
        "--margin",
        type=float,
        default=0,
        help="duplicate deals, as many as a 95%% interval of this half-width needs (e.g. 0.05) at the rate --expect; "
        "with --deals too, the report only says how many deals that would take",
    )
    bots.add_argument(
        "--expect", type=float, default=0.5, help="with --margin: the win rate expected (0.5 needs the most deals)"
    )
    bots.add_argument("--json", action="store_true", help="print one JSON object")
    ladder = kinds.add_parser(
        "ladder",
        help="the levels against each other on duplicate deals (each stronger one against every weaker one): win "
        "rates with 95%% intervals, a table per game",
    )
    ladder.add_argument("--game", default="soker", choices=sorted(GAMES))
    ladder.add_argument("--seats", default="2,4", help="table sizes, comma-separated")
    ladder.add_argument("--levels", default="random,easy,normal,hard", help="the levels, weakest first")
    ladder.add_argument("--seed", type=int, default=0)
    _add_deals_options(ladder, deals=20)
    ladder.add_argument("--json", action="store_true", help="print one JSON object")
    ladder.add_argument("--readme", default="", help="also write the table into this file, between the game's markers")


def _add_deals_options(parser: argparse.ArgumentParser, deals: int = 0) -> None:
    """The options of a bench on duplicate deals (bots --deals, ladder)."""
    parser.add_argument(
        "--deals",
        type=int,
        default=deals,
        help="play duplicate deals (each once for every side the bot takes)",
    )
    parser.add_argument("--think", type=float, default=1.0, help="a searching bot's seconds a decision")
    parser.add_argument("--iterations", type=int, default=0, help="a fixed search budget a decision, not --think")
    parser.add_argument("--workers", type=int, default=2, help="games played at once (one core each)")
    parser.add_argument(
        "--out",
        default="",
        help="append each game to this JSON-lines file as it ends; run again with the same file and options to "
        "resume (the games it holds are not played again); SIGINT or SIGTERM stops a run, which reports what it has",
    )


def run_bench(args: argparse.Namespace) -> int:
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


def _bench_social(args: argparse.Namespace) -> int:
    """Exits 1 when the delay's p99 misses its goal (2 s) or an inbox item was not listed or followed."""
    from benchmarks.social import GOAL_P99_MS, bench_social, social_report

    figures = bench_social(
        players=args.players,
        friends=args.friends,
        seconds=args.seconds,
        items=args.items,
        database_url=args.database_url,
        seed=args.seed,
    )
    _report(args, figures, social_report(figures))
    inbox = figures["inbox"]
    whole = inbox["listed"] == inbox["followed"] == inbox["items"]
    return 0 if whole and figures["presence"]["delay_p99_ms"] < GOAL_P99_MS else 1


def _bench_chat(args: argparse.Namespace) -> int:
    """Exits 1 when a goal is missed, or chat was not delivered as asked (none in an on round, any in an off one)."""
    from benchmarks.chat import bench_calls, bench_chat, calls_report, chat_report

    if args.calls:
        figures = bench_calls(args.calls, args.in_flight, args.database_url)
        _report(args, figures, calls_report(figures))
        return 0
    figures = bench_chat(args.rooms, args.seconds, args.rounds, args.database_url, args.seed)
    _report(args, figures, chat_report(figures))
    return 0 if figures["met"] else 1


def _bench_bots(args: argparse.Namespace) -> int:
    """Exits 1 when a run on duplicate deals was stopped (SIGINT, SIGTERM) before its end."""
    from benchmarks.engine import bench_bots, bots_report

    if args.games < 1:
        raise ValueError("--games must be at least 1")
    counts = tuple(int(part) for part in args.seats.split(","))
    if args.deals or args.margin:
        from benchmarks.strength import bench_strength, deals_for, sides_of, strength_report

        for count in counts:
            deals = args.deals or deals_for(args.margin, args.expect, len(sides_of(args.game, count)))
            result = bench_strength(
                args.game,
                deals,
                args.bot,
                args.opponent,
                count,
                args.seed,
                args.think,
                args.iterations or None,
                args.workers,
                out=args.out or None,
                margin=args.margin or 0.05,
                progress=_progress if args.out else None,
            )
            _report(args, result.to_json(), strength_report(result))
            if result.stopped:
                return 1
        return 0
    figures = bench_bots(args.game, args.games, args.bot, args.opponent, counts, args.seed)
    _report(args, figures.to_json(), bots_report(figures, args.game, counts))
    return 0


def _bench_ladder(args: argparse.Namespace) -> int:
    """Exits 1 when the run was stopped (SIGINT, SIGTERM) before its end; the table is then not written."""
    from benchmarks.goals import write_into
    from benchmarks.ladder import bench_ladder, ladder_table, markers

    levels = tuple(level.strip() for level in args.levels.split(",") if level.strip())
    counts = tuple(int(part) for part in args.seats.split(",") if part.strip())
    figures = bench_ladder(
        args.game,
        counts,
        args.deals,
        levels,
        args.seed,
        args.think,
        args.iterations or None,
        args.workers,
        out=args.out or None,
        progress=_progress if args.out else None,
    )
    text = ladder_table(figures)
    _report(args, figures, text)
    if figures["stopped"]:
        return 1
    if args.readme:
        write_into(args.readme, text, *markers(args.game))
    return 0


def _progress(line: str) -> None:
    """A long run's progress, on standard error (standard output keeps the report)."""
    print(line, file=sys.stderr, flush=True)


def _report(args: argparse.Namespace, figures: dict, text: str) -> None:
    """A benchmark's figures: one JSON object with --json, else one line for people."""
    print(json.dumps(figures) if args.json else text)


# `kickoff bench KIND`: the function that runs each (each imports what it needs when called).
_BENCHES = {
    "engine": _bench_engine,
    "server": _bench_server,
    "goals": _bench_goals,
    "cluster": _bench_cluster,
    "nemesis": _bench_nemesis,
    "clocks": _bench_clocks,
    "social": _bench_social,
    "chat": _bench_chat,
    "history": _bench_history,
    "players": _bench_players,
    "match": _bench_match,
    "webhooks": _bench_webhooks,
    "bots": _bench_bots,
    "ladder": _bench_ladder,
}
