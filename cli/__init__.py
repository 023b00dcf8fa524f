"""The `kickoff` command: `kickoff play`, `kickoff client`, `kickoff bench engine`, `kickoff bench bots`..."""

from __future__ import annotations

import argparse
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
        help="benchmarks: the k-th room made is dealt from the secret SEED + k %% COUNT, bound to the subject "
        "'seeded/<that number>' instead of the room's id, so that runs repeat the same games. Such a deal is no fair "
        "deal: anyone who knows the numbers knows every deal, and `kickoff verify` refuses it (its subject is not the "
        "room's). Never on a server people play on",
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
    replay.add_argument(
        "--token",
        default=None,
        help="with --room: a seat token of the room, or the access token of a player who sat at it: the replay then "
        "carries the table's chat (default $KICKOFF_TOKEN; none: the public replay, without chat)",
    )
    replay.add_argument("--keys", action="store_true", help="step through it full screen (arrows, g, Space, + and -)")

    verify = commands.add_parser(
        "verify",
        help="check a finished game's replay file against its deal: deal it again and replay every move",
        description="Checks the deal's commitment against its revealed secret, derives the game's seed from the secret "
        "and every seat's seed, deals the game again and plays every move of the file through the engine, comparing "
        "every version's table and every hand (docs/guides/fair-deals.md). Exit status: 0 verified, 1 the file "
        "differs (the first version that does, and why), 2 it cannot be read (not JSON, not a replay, no secret yet).",
    )
    verify.add_argument("file", help="a replay file, as `kickoff replay --room ID --save FILE` writes it")
    verify.add_argument("--json", action="store_true", help="print one JSON object instead of a line")

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
    from benchmarks.cli import add_bench_commands

    add_bench_commands(commands)
    return parser


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
    """`kickoff bench ...`: benchmarks/cli.py runs each benchmark and prints its report."""
    from benchmarks.cli import run_bench

    return run_bench(args)


def _run_client(args: argparse.Namespace) -> int:
    import os

    from terminal.app import run

    if args.watch and not args.room:
        raise ValueError("--watch needs --room")
    api_key = args.api_key if args.api_key is not None else os.environ.get("KICKOFF_API_KEY", "")
    return run(args.target, name=args.name, room=args.room, watch=args.watch, api_key=api_key)


def _replay(args: argparse.Namespace) -> int:
    import asyncio
    import os

    from terminal.replay import read_replay, replay_json, replay_lines

    if args.room is None:
        if args.file is None or args.save:
            raise ValueError("give a replay FILE to read, or --room ID (with --save FILE to write one)")
        replay = read_replay(args.file)
    else:
        if args.save and args.file is None:
            raise ValueError("--save needs the FILE to write")
        token = args.token if args.token is not None else os.environ.get("KICKOFF_TOKEN") or None
        replay = asyncio.run(_fetch_replay(args.target, args.room, token))
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


def _verify(args: argparse.Namespace) -> int:
    import json

    from deals.verify import verify_file

    verdict = verify_file(args.file)
    line = json.dumps(verdict.to_json()) if args.json else verdict.describe()
    print(line, file=sys.stdout if verdict.readable or args.json else sys.stderr)
    return 0 if verdict.ok else 1 if verdict.readable else 2


async def _fetch_replay(target: str, room_id: str, token: str | None = None) -> Any:
    from terminal.client import CallFailed, KickoffClient

    client = KickoffClient(target)
    try:
        return await client.replay(room_id, token)
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
    import logging

    from service.grpc.server import serve
    from service.rooms.directory import seeded_deals
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
    deals = None
    if args.room_seeds:
        try:
            first, count = (int(part) for part in args.room_seeds.split(":"))
            if count < 1:
                raise ValueError(count)
        except ValueError:
            print("--room-seeds takes SEED:COUNT, two whole numbers, COUNT at least 1", file=sys.stderr)
            return 2
        deals = seeded_deals(first, count)
    if settings.store.database_url != "memory":
        upgrade(settings.store.database_url)  # the server applies the migrations on start
    asyncio.run(serve(settings, discard_spans=args.discard_spans, deals=deals))
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


# `kickoff COMMAND`: the function that runs each (each imports what it needs when called; `kickoff bench KIND`'s are in
# benchmarks/cli.py).
_COMMANDS = {
    "play": _play,
    "grpc": _run_grpc,
    "gateway": _run_gateway,
    "serve": _serve_both,
    "client": _run_client,
    "replay": _replay,
    "verify": _verify,
    "db": _upgrade_database,
    "keys": _keys,
    "webhooks": _webhooks,
    "operator-keys": _operator_keys,
    "bench": _bench,
}
