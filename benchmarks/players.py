"""`kickoff bench players`: leaderboards with many rated players, and what rating a game costs the server.

Three goals, each with its figure and pass/fail, against `kickoff grpc` in another process on loopback, on a fresh
store (a SQLite file, or a database made beside the PostgreSQL one named, dropped after):

* **Leaderboards**: ``players`` people are written straight into the store (made by the migrations the server runs)
  with seeded ratings in one game: most with at least the leaderboard's minimum of rated games, some below it, some
  sharing a rating (ties), two system players' ratings and some ratings in another game beside them. A client then
  walks the whole board once, 500 lines a page (the figures of that walk are reported too), keeping each page's token,
  and makes ``calls`` GetLeaderboard calls, each a page of 50 starting at one of those tokens chosen at random (the
  first page, the deepest and every 500th line between), and ``calls`` GetRank calls for random players on the board,
  with their neighbours, one call at a time; every answer is checked against the seeded board. Goal: p99 < 10 ms each.
  PostgreSQL's tables are vacuumed and analysed after the load, as autovacuum soon would; SQLite's file is left as a
  server leaves it (no ANALYZE).
* **A rated game's end**: the same seeded games (``games`` a round, four signed-in guests at each table, seeded legal
  moves on play streams) are played rated and unrated in alternating rounds (the order swapped each round, after one
  round of each to warm up) on the same server, whose CPU (user + system, from /proc) is read before and after each
  round; the medians of the per-round CPU per game are compared. Goal: rated costs < 5% more.

The rooms' deals are seeded (`kickoff grpc --room-seeds SEED:GAMES`): the k-th room the server makes gets the secret
``seed + k % games`` bound to the subject ``seeded/<that number>`` (not its random id, so no fair deal), so the k-th
game of every round is the same game, and its moves (chosen from the game's index and the room's version) the same
moves; the figures say whether every game came out the same in every round.
"""

from __future__ import annotations

import asyncio
import os
import random
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import grpc
from sqlalchemy import insert

from benchmarks.goals import Goal
from benchmarks.harness import ServerProcess, fresh_store
from engine.registry import GAMES
from kickoff.v1 import common_pb2, move_pb2, move_pb2_grpc, player_pb2, player_pb2_grpc, room_pb2, room_pb2_grpc

SEATS = 4  # players at each table of the rated-game rounds
PAGE, WALK_PAGE, NEIGHBOURS = 50, 500, 2
WARM_UP = 50  # calls of each kind made first and not counted
LIMIT_MS, LIMIT_PERCENT = 10.0, 5.0


def markers(dialect: str) -> tuple[str, str]:
    """The benchmarks page's block for one store's figures (`--readme`)."""
    return f"<!-- kickoff bench players {dialect}: begin -->", f"<!-- kickoff bench players {dialect}: end -->"


# -- the seeded board ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Board:
    """The leaderboard as seeded: (display, player id) best first, each line's rank, and the players under the
    minimum of games."""

    lines: list[tuple[float, str]]
    ranks: list[int]
    below: list[str]


def _ratings(players: int, game: str, seed: int, min_games: int, now: float) -> tuple[list[dict], list[dict], Board]:
    """The rows of ``players`` people and their ratings (and the board they make)."""
    from service.players.ratings import Skill

    rng = random.Random(seed)
    other = next(name for name in sorted(GAMES) if name != game)
    tied = [(round(rng.gauss(25, 3), 3), round(rng.uniform(1, 4), 3)) for _ in range(30)]
    people, ratings, board, below = [], [], [], []
    ids: set[str] = set()
    for number in range(players):
        player_id = f"{rng.getrandbits(80):020x}"
        while player_id in ids:
            player_id = f"{rng.getrandbits(80):020x}"
        ids.add(player_id)
        people.append({"player_id": player_id, "kind": "person", "name": f"Player {number}", "created_at": now})
        if rng.random() < 0.1:  # under the minimum of rated games: not on the board
            games = rng.randint(1, max(1, min_games - 1)) if min_games > 1 else 0
        else:
            games = min_games + int(rng.expovariate(1 / 40))
        if rng.random() < 0.03:  # a rating shared with others: ties, which share their rank
            mu, sigma = rng.choice(tied)
        else:
            mu, sigma = round(rng.gauss(25, 5), 3), round(rng.uniform(0.8, 6.0), 3)
        display = Skill(mu, sigma).display
        row = {"game": game, "player_id": player_id, "kind": "person", "mu": mu, "sigma": sigma}
        row |= {"display": display, "games": games, "wins": rng.randint(0, games), "updated_at": now}
        ratings.append(row)
        if games >= min_games:
            board.append((display, player_id))
        else:
            below.append(player_id)
        if rng.random() < 0.2:  # another game's rating: rows of the same table, not on this board
            ratings.append({**row, "game": other, "display": display - 1.0})
    for kind in ("heuristic", "random"):  # system players are rated, and never on the board
        row = {"game": game, "player_id": f"system-{kind}", "kind": "system", "mu": 40.0, "sigma": 1.0}
        ratings.append(row | {"display": 37.0, "games": 10_000, "wins": 5_000, "updated_at": now})
    board.sort(key=lambda line: (-line[0], line[1]))
    ranks: list[int] = []
    for index, (display, _) in enumerate(board):
        ranks.append(ranks[-1] if index and display == board[index - 1][0] else index + 1)
    return people, ratings, Board(board, ranks, below)


async def _write(url: str, people: list[dict], ratings: list[dict]) -> None:
    from service.store.database import create_engine
    from service.store.models import PlayerRow, RatingRow

    engine = create_engine(url)
    try:
        async with engine.begin() as connection:
            for table, rows in ((PlayerRow, people), (RatingRow, ratings)):
                for start in range(0, len(rows), 5_000):
                    await connection.execute(insert(table), rows[start : start + 5_000])
        if engine.dialect.name == "postgresql":  # what autovacuum does soon after a bulk load (SQLite: nothing)
            async with engine.connect() as connection:
                autocommit = await connection.execution_options(isolation_level="AUTOCOMMIT")
                for table in ("players", "ratings"):
                    await autocommit.exec_driver_sql(f"VACUUM ANALYZE {table}")
    finally:
        await engine.dispose()


def seed_board(url: str, players: int, game: str, seed: int, min_games: int) -> Board:
    """``players`` people and their ratings, written in bulk into the store at ``url`` (at the newest schema)."""
    people, ratings, board = _ratings(players, game, seed, min_games, time.time())
    asyncio.run(_write(url, people, ratings))
    return board


# -- leaderboard calls --------------------------------------------------------------------------------------------


def _percentiles(seconds: list[float]) -> dict[str, float]:
    ordered = sorted(seconds) or [0.0]

    def at(p: float) -> float:
        return round(ordered[min(len(ordered) - 1, int(p * len(ordered)))] * 1000, 2)

    return {"calls": len(seconds), "p50_ms": at(0.5), "p99_ms": at(0.99), "max_ms": round(ordered[-1] * 1000, 2)}


def _check_lines(lines: Sequence[Any], board: Board, start: int, what: str) -> None:
    for index, line in enumerate(lines):
        display, player_id = board.lines[start + index]
        if (line.player_id, line.rank, line.rating.display) != (player_id, board.ranks[start + index], display):
            raise RuntimeError(
                f"{what}: line {start + index} is {line.player_id} rank {line.rank}, seeded as {player_id} rank "
                f"{board.ranks[start + index]}"
            )


async def _board_calls(target: str, game: str, board: Board, calls: int, seed: int) -> dict[str, Any]:
    """The walk of the whole board, then ``calls`` pages at random tokens and ``calls`` ranks, one call at a time."""
    rng = random.Random(seed)
    async with grpc.aio.insecure_channel(target) as channel:
        stub = player_pb2_grpc.PlayerServiceStub(channel)
        tokens: dict[int, str] = {0: ""}
        walk: list[float] = []
        offset, token = 0, ""
        while True:
            began = time.perf_counter()
            page = await stub.GetLeaderboard(
                player_pb2.GetLeaderboardRequest(game=game, page_size=WALK_PAGE, page_token=token)
            )
            walk.append(time.perf_counter() - began)
            _check_lines(page.lines, board, offset, "the walk")
            offset += len(page.lines)
            token = page.next_page_token
            if not token:
                break
            tokens[offset] = token
        if offset != len(board.lines):
            raise RuntimeError(f"the walk saw {offset} lines of {len(board.lines)}")
        starts = sorted(tokens)
        pages: list[float] = []
        for index in range(WARM_UP + calls):
            start = rng.choice(starts)
            request = player_pb2.GetLeaderboardRequest(game=game, page_size=PAGE, page_token=tokens[start])
            began = time.perf_counter()
            page = await stub.GetLeaderboard(request)
            took = time.perf_counter() - began
            if index >= WARM_UP:
                pages.append(took)
            if len(page.lines) != min(PAGE, len(board.lines) - start):
                raise RuntimeError(f"a page at line {start} has {len(page.lines)} lines")
            _check_lines(page.lines, board, start, "a page")
        ranks: list[float] = []
        for index in range(WARM_UP + calls):
            at = rng.randrange(len(board.lines))
            request = player_pb2.GetRankRequest(game=game, player_id=board.lines[at][1], neighbours=NEIGHBOURS)
            began = time.perf_counter()
            answer = await stub.GetRank(request)
            took = time.perf_counter() - began
            if index >= WARM_UP:
                ranks.append(took)
            if answer.ranked != len(board.lines) or len(answer.above) != min(NEIGHBOURS, at):
                raise RuntimeError(f"the rank of line {at}: {answer.ranked} ranked, {len(answer.above)} above")
            _check_lines([*answer.above, answer.line, *answer.below], board, at - len(answer.above), "a rank")
        if board.below:  # a player under the minimum: no line, and the minimum said
            answer = await stub.GetRank(player_pb2.GetRankRequest(game=game, player_id=board.below[0]))
            if answer.HasField("line"):
                raise RuntimeError("a player under the minimum of games has a rank")
    return {
        "walk": {**_percentiles(walk), "page_size": WALK_PAGE},
        "leaderboard": {**_percentiles(pages), "page_size": PAGE, "offsets": len(starts)},
        "rank": {**_percentiles(ranks), "neighbours": NEIGHBOURS},
    }


# -- rated and unrated games --------------------------------------------------------------------------------------


def _auth(token: str) -> tuple[tuple[str, str], ...]:
    return (("authorization", f"Bearer {token}"),)


async def _seat(moves: move_pb2_grpc.MoveServiceStub, room_id: str, after: int, token: str, game: int) -> int:
    """One seat on its play stream: whenever it may act, the legal move the game's index and the version choose.
    Returns the version the game ended at."""
    outgoing: asyncio.Queue[move_pb2.PlayRequest | None] = asyncio.Queue()
    outgoing.put_nowait(move_pb2.PlayRequest(hello=move_pb2.PlayHello(room_id=room_id, after_version=after)))

    async def requests() -> Any:
        while (message := await outgoing.get()) is not None:
            yield message

    latest: move_pb2.RoomUpdate | None = None
    pending = closed = False
    sent = 0
    async for response in moves.Play(requests(), metadata=_auth(token)):
        if response.HasField("update"):
            latest = response.update
            if latest.status == common_pb2.ROOM_STATUS_FINISHED and not closed:
                closed = True
                outgoing.put_nowait(None)
        if response.HasField("result"):
            if not response.result.accepted:
                raise RuntimeError(f"a seeded move was refused in room {room_id}: {response.result}")
            pending = False
        if not pending and not closed and latest is not None and latest.legal_moves:
            choice = random.Random(f"{game}:{latest.version}").randrange(len(latest.legal_moves))
            sent += 1
            request = move_pb2.SubmitMoveRequest(
                move=latest.legal_moves[choice], request_id=str(sent), expected_version=latest.version
            )
            pending = True
            outgoing.put_nowait(move_pb2.PlayRequest(move=request))
    return latest.version if latest is not None else 0


async def _sign_in(target: str, count: int) -> list[player_pb2.Session]:
    async with grpc.aio.insecure_channel(target) as channel:
        stub = player_pb2_grpc.PlayerServiceStub(channel)
        return [
            (await stub.SignInAsGuest(player_pb2.SignInAsGuestRequest(name=f"Bench {number}"))).session
            for number in range(count)
        ]


async def _refresh(target: str, sessions: list[player_pb2.Session]) -> list[player_pb2.Session]:
    """The same players' sessions with new access tokens (they last 15 minutes)."""
    async with grpc.aio.insecure_channel(target) as channel:
        stub = player_pb2_grpc.PlayerServiceStub(channel)
        return [
            (await stub.RefreshSession(player_pb2.RefreshSessionRequest(refresh_token=s.refresh_token))).session
            for s in sessions
        ]


async def _round(target: str, game: str, sessions: list[player_pb2.Session], games: int, rated: bool) -> list[int]:
    """``games`` whole games at once, table g seating sessions 4g..4g+3; the version each ended at."""
    async with grpc.aio.insecure_channel(target) as channel:
        rooms, moves = room_pb2_grpc.RoomServiceStub(channel), move_pb2_grpc.MoveServiceStub(channel)
        created = []
        for table in range(games):  # one after another: the k-th room made is the k-th seed
            request = room_pb2.CreateRoomRequest(
                game=game, mode=common_pb2.ROOM_MODE_ONLINE, seats=SEATS, think_seconds=0, rated=rated
            )
            created.append(await rooms.CreateRoom(request, metadata=_auth(sessions[table * SEATS].access_token)))

        async def table(index: int) -> int:
            room_id = created[index].room.room_id
            seats = [(created[index].seat, created[index].seat_token)]
            for player in sessions[index * SEATS + 1 : (index + 1) * SEATS]:
                joined = await rooms.JoinRoom(
                    room_pb2.JoinRoomRequest(room_id=room_id), metadata=_auth(player.access_token)
                )
                seats.append((joined.seat, joined.seat_token))
            if joined.room.rated != rated:
                raise RuntimeError(f"room {room_id} is {'' if joined.room.rated else 'not '}rated")
            after = joined.room.version - 1  # from the update that started the game
            ended = await asyncio.gather(*(_seat(moves, room_id, after, token, index) for _, token in seats))
            return max(ended)

        return list(await asyncio.gather(*(table(index) for index in range(games))))


def _rated_rounds(server: ServerProcess, game: str, games: int, rounds: int) -> dict[str, Any]:
    sessions = asyncio.run(_sign_in(server.target, games * SEATS))
    signed = time.monotonic()
    runs: dict[str, list[dict[str, float]]] = {"rated": [], "unrated": []}
    versions: dict[str, list[list[int]]] = {"rated": [], "unrated": []}
    for index in range(rounds + 1):  # the first pair warms up, and is not counted
        for side in ("rated", "unrated") if index % 2 else ("unrated", "rated"):
            if time.monotonic() - signed > 600:  # (between rounds, outside the CPU measured)
                sessions, signed = asyncio.run(_refresh(server.target, sessions)), time.monotonic()
            cpu, began = server.cpu_seconds(), time.perf_counter()
            ended = asyncio.run(_round(server.target, game, sessions, games, side == "rated"))
            time.sleep(0.2)  # (what the server does as the streams close)
            cpu, took = server.cpu_seconds() - cpu, time.perf_counter() - began
            if index:
                runs[side].append({"cpu_ms_per_game": round(cpu / games * 1000, 2), "seconds": round(took, 2)})
                versions[side].append(ended)
    every = versions["rated"] + versions["unrated"]
    rated = round(statistics.median([run["cpu_ms_per_game"] for run in runs["rated"]]), 2)
    unrated = round(statistics.median([run["cpu_ms_per_game"] for run in runs["unrated"]]), 2)
    pairs = [r["cpu_ms_per_game"] / u["cpu_ms_per_game"] for r, u in zip(runs["rated"], runs["unrated"], strict=True)]
    return {
        "games_per_round": games,
        "seats": SEATS,
        "rounds": rounds,
        "rated_cpu_ms_per_game": rated,
        "unrated_cpu_ms_per_game": unrated,
        "percent_more": round((rated / unrated - 1) * 100, 1),
        "percent_more_pairs": round((statistics.median(pairs) - 1) * 100, 1),  # the median of each round's own ratio
        "same_games": all(ended == every[0] for ended in every),
        "mean_version": round(sum(every[0]) / len(every[0]), 1),
        "runs": runs,
    }


# -- the benchmark ------------------------------------------------------------------------------------------------


def bench_players(
    players: int = 100_000,
    game: str = "soker",
    calls: int = 2_000,
    rounds: int = 10,
    games: int = 50,
    database_url: str = "",
    seed: int = 0,
) -> dict[str, Any]:
    """Both goals on one server over one store (see the module docstring); ``rounds`` 0 leaves the rated games out."""
    from service.settings import PlayerSettings
    from service.store.database import upgrade

    if game not in GAMES:
        raise ValueError(f"--game is one of {', '.join(sorted(GAMES))}")
    if players < 1 or calls < 1 or rounds < 0 or games < 1:
        raise ValueError("--players, --calls and --games must be positive, --rounds 0 or more")
    min_games = PlayerSettings().min_games
    url, remove = fresh_store(database_url, "players")
    try:
        upgrade(url)  # the schema the server's migrations make (the server runs them again at its start: nothing)
        began = time.perf_counter()
        board = seed_board(url, players, game, seed, min_games)
        seeded = time.perf_counter() - began
        if not board.lines:
            raise ValueError("no seeded player is on the board: --players is too small")
        env = {"KICKOFF_SIGN_IN_RATE": "off", "KICKOFF_LEADERBOARD_MIN_GAMES": str(min_games)}
        server = ServerProcess(url, env=env, extra=("--room-seeds", f"{seed}:{games}"))
        try:
            figures: dict[str, Any] = asyncio.run(_board_calls(server.target, game, board, calls, seed))
            if rounds:
                figures["games"] = _rated_rounds(server, game, games, rounds)
        finally:
            server.stop()
    finally:
        remove()
    figures |= {
        "database": "postgresql" if url.startswith("postgresql") else "sqlite",
        "game": game,
        "players": players,
        "ranked": len(board.lines),
        "below_min_games": len(board.below),
        "min_games": min_games,
        "seed_seconds": round(seeded, 1),
        "cpu_count": os.cpu_count(),
    }
    goals = [
        Goal(
            f"GetLeaderboard: p99 ms, a page of {PAGE} at a random depth",
            figures["leaderboard"]["p99_ms"],
            LIMIT_MS,
            True,
            f"p50 {figures['leaderboard']['p50_ms']} ms, {calls:,} calls over {figures['leaderboard']['offsets']} "
            "depths",
        ),
        Goal(
            f"GetRank: p99 ms, a random player with {NEIGHBOURS} neighbours each side",
            figures["rank"]["p99_ms"],
            LIMIT_MS,
            True,
            f"p50 {figures['rank']['p50_ms']} ms, {calls:,} calls",
        ),
    ]
    if rounds:
        played = figures["games"]
        goals.append(
            Goal(
                "a rated game: server CPU a game, % more than unrated",
                played["percent_more"],
                LIMIT_PERCENT,
                True,
                f"{played['unrated_cpu_ms_per_game']} -> {played['rated_cpu_ms_per_game']} ms a game "
                f"(each round's own ratio: median {played['percent_more_pairs']}%)"
                + ("" if played["same_games"] else "; the games were not all the same!"),
            )
        )
    figures["goals"] = [goal.to_json() for goal in goals]
    figures["met"] = sum(goal.met for goal in goals)
    figures["of"] = len(goals)
    return figures


def players_table(figures: dict[str, Any]) -> str:
    """The goals as a Markdown table, and a line of what was run (docs/benchmarks.md quotes them)."""
    lines = ["| goal | figure | limit | met | measured |", "|---|---|---|---|---|"]
    for goal in figures["goals"]:
        met = "yes" if goal["met"] else "**no**"
        lines.append(f"| {goal['goal']} | {goal['figure']} | {goal['limit']} | {met} | {goal['detail']} |")
    walk = figures["walk"]
    text = (
        f"\n{figures['met']} of {figures['of']} goals met on {figures['database']}: {figures['players']:,} players "
        f"rated in {figures['game']} ({figures['ranked']:,} on the board, {figures['below_min_games']:,} under "
        f"{figures['min_games']} games), one call at a time over loopback; the whole board walked {walk['page_size']} "
        f"lines a page: p50 {walk['p50_ms']} ms, p99 {walk['p99_ms']} ms"
    )
    if "games" in figures:
        played = figures["games"]
        text += (
            f"; the same {played['games_per_round']} seeded games of {played['seats']} signed-in guests "
            f"({played['mean_version']} versions each) a round, rated and unrated: medians of {played['rounds']} "
            "alternating rounds of each"
        )
    lines.append(text + f"; {figures['cpu_count']} cores.")
    return "\n".join(lines)
