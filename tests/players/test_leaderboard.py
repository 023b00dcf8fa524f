"""Leaderboards: best rating first, ties in player-id order sharing their rank, players under the minimum of rated
games (and system players) left out, pages that join up, a player's rank with neighbours; and deleting a player."""

from __future__ import annotations

import grpc
from sqlalchemy import insert, select

from kickoff.v1 import player_pb2
from service.store.database import create_engine
from service.store.journal import SqlJournal
from service.store.models import BoardCountRow, PlayerRow, RatingRow
from tests.players.conftest import Served, auth
from tests.server.conftest import refusal
from tests.servers import Start

BOARD = [  # (player id, display, games)
    ("a1", 10.0, 5),
    ("b2", 12.5, 3),
    ("c3", 10.0, 9),
    ("d4", 3.0, 1),
    ("e5", 10.0, 2),
    ("f6", -1.0, 4),
    ("g7", 30.0, 0),  # no rated game yet: never on the board
]


async def seed(served: Served) -> None:
    journal = served.harness.directory.journal
    async with journal.engine.begin() as connection:  # type: ignore[attr-defined]
        await connection.execute(
            insert(PlayerRow),
            [{"player_id": p, "kind": "person", "name": p.upper(), "created_at": 0.0} for p, _, _ in BOARD],
        )
        rows = [
            {
                "game": "soker",
                "player_id": p,
                "kind": "person",
                "mu": d + 3.0,
                "sigma": 1.0,
                "display": d,
                "games": g,
                "wins": 0,
                "updated_at": 0.0,
            }
            for p, d, g in BOARD
        ]
        rows.append({**rows[0], "player_id": "system-heuristic", "kind": "system", "display": 99.0, "games": 50})
        rows.append({**rows[0], "game": "carta-futbol-club", "display": 50.0})  # another game's board
        await connection.execute(insert(RatingRow), rows)
    await served.harness.player_store.recount()  # (ratings written past the store: counted as a server starting)


async def test_the_leaderboard_orders_ties_and_pages(served: Served) -> None:
    """Every page size gives the same board: a page may end inside a tie or just after one, and the next page's ranks
    go on from the token (which the server signs: an edited rank is refused)."""
    await seed(served)
    players = served.harness.players
    tokens: dict[int, list[str]] = {}
    for size in range(1, 8):
        lines, token = [], ""
        while True:
            page = await players.GetLeaderboard(
                player_pb2.GetLeaderboardRequest(game="soker", page_size=size, page_token=token)
            )
            lines += [(line.rank, line.player_id, line.name, line.rating.display) for line in page.lines]
            token = page.next_page_token
            if not token:
                break
            tokens.setdefault(size, []).append(token)
        assert lines == [
            (1, "b2", "B2", 12.5),
            (2, "a1", "A1", 10.0),
            (2, "c3", "C3", 10.0),
            (2, "e5", "E5", 10.0),
            (5, "d4", "D4", 3.0),
            (6, "f6", "F6", -1.0),
        ], size
        assert page.min_games == 1
    display, player_id, rank, before, mac = tokens[2][0].split("|")  # (after a1, rank 2)
    assert (player_id, rank) == ("a1", "2")
    forged = "|".join([display, player_id, "1", before, mac])
    code, why, _ = await refusal(
        players.GetLeaderboard(player_pb2.GetLeaderboardRequest(game="soker", page_token=forged))
    )
    assert (code, why) == (grpc.StatusCode.INVALID_ARGUMENT, "bad_page_token")


async def test_the_minimum_of_games_and_a_rank_with_neighbours(start: Start, database_url: str) -> None:
    served = Served(await start(journal=SqlJournal(create_engine(database_url)), min_games=3))
    await seed(served)
    players = served.harness.players
    page = await players.GetLeaderboard(player_pb2.GetLeaderboardRequest(game="soker"))
    assert [(line.rank, line.player_id) for line in page.lines] == [(1, "b2"), (2, "a1"), (2, "c3"), (4, "f6")]
    rank = await players.GetRank(player_pb2.GetRankRequest(game="soker", player_id="c3", neighbours=1))
    assert (rank.line.rank, rank.line.player_id, rank.ranked) == (2, "c3", 4)
    assert [(x.rank, x.player_id) for x in rank.above] == [(2, "a1")]
    assert [(x.rank, x.player_id) for x in rank.below] == [(4, "f6")]
    under = await players.GetRank(player_pb2.GetRankRequest(game="soker", player_id="e5"))
    assert not under.HasField("line") and under.min_games == 3  # two games: not on the board yet
    code, why, _ = await refusal(players.GetLeaderboard(player_pb2.GetLeaderboardRequest(game="chess")))
    assert (code, why) == (grpc.StatusCode.INVALID_ARGUMENT, "unknown_game")
    code, why, _ = await refusal(players.GetLeaderboard(player_pb2.GetLeaderboardRequest(game="soker", page_token="x")))
    assert (code, why) == (grpc.StatusCode.INVALID_ARGUMENT, "bad_page_token")


async def test_a_rank_under_the_minimum_says_the_games_played_and_the_games_still_to_play(
    start: Start, database_url: str
) -> None:
    """Off the board, GetRank's answer says how far the player is from it: their rated games and the games still to
    play (0 once on it); a player with no rating yet (the caller here, a new guest) has all the minimum to play."""
    served = Served(await start(journal=SqlJournal(create_engine(database_url)), min_games=3))
    await seed(served)
    players = served.harness.players

    async def standing(player_id: str, metadata: tuple = ()) -> tuple[bool, int, int, int]:
        rank = await players.GetRank(player_pb2.GetRankRequest(game="soker", player_id=player_id), metadata=metadata)
        return rank.HasField("line"), rank.rated_games, rank.games_to_play, rank.min_games

    assert await standing("e5") == (False, 2, 1, 3)  # two rated games of three: one more to play
    assert await standing("d4") == (False, 1, 2, 3)
    assert await standing("g7") == (False, 0, 3, 3)  # a rating, but no rated game yet
    assert await standing("c3") == (True, 9, 0, 3)  # on the board: nothing left to play
    assert await standing("system-heuristic") == (False, 50, 0, 3)  # a system player is never on the board
    newcomer = await served.guest(name="Newcomer")
    assert await standing("", auth(newcomer.access_token)) == (False, 0, 3, 3)  # the caller, with no rating yet


async def test_a_deleted_player_leaves_a_pseudonym_and_nothing_else(served: Served) -> None:
    ann, bo = await served.guest(name="Ann", device_id="ann-phone-0123456789"), await served.guest(name="Bo")
    players = served.harness.players
    live = await served.create(ann)
    code, why, _ = await refusal(
        players.DeletePlayer(player_pb2.DeletePlayerRequest(), metadata=auth(ann.access_token))
    )
    assert (code, why) == (grpc.StatusCode.FAILED_PRECONDITION, "live_games")  # a game not finished holds her seat
    joined = await served.join(live.room.room_id, bo)
    ended = await served.play_out(live.room.room_id, {live.seat: live.seat_token, joined.seat: joined.seat_token})
    assert ended.rated
    await players.DeletePlayer(player_pb2.DeletePlayerRequest(), metadata=auth(ann.access_token))
    code, why, _ = await refusal(players.GetPlayer(player_pb2.GetPlayerRequest(), metadata=auth(ann.access_token)))
    assert (code, why) == (grpc.StatusCode.UNAUTHENTICATED, "session_revoked")
    code, why, _ = await refusal(
        players.RefreshSession(player_pb2.RefreshSessionRequest(refresh_token=ann.refresh_token))
    )
    assert code == grpc.StatusCode.UNAUTHENTICATED
    code, why, _ = await refusal(players.GetPlayer(player_pb2.GetPlayerRequest(player_id=ann.player.player_id)))
    assert (code, why) == (grpc.StatusCode.NOT_FOUND, "player_not_found")
    board = await players.GetLeaderboard(player_pb2.GetLeaderboardRequest(game="soker"))
    assert [line.player_id for line in board.lines] == [bo.player.player_id]
    # Bo's history keeps the game, with Ann's seat under a pseudonym; the device id signs nobody in any more.
    [game] = (await players.ListPlayerGames(player_pb2.ListPlayerGamesRequest(player_id=bo.player.player_id))).games
    theirs = game.seats[live.seat]
    assert theirs.name.startswith("Former player") and theirs.player_id == ""
    again = await served.guest(device_id="ann-phone-0123456789")
    assert again.player.player_id != ann.player.player_id
    room = await served.harness.rooms.GetRoom(
        __import__("kickoff.v1.room_pb2", fromlist=["x"]).GetRoomRequest(room_id=live.room.room_id)
    )
    assert room.room.seats[live.seat].name.startswith("Former player")


async def band_counts(served: Served) -> dict[tuple[str, int], int]:
    async with served.harness.directory.journal.engine.connect() as connection:  # type: ignore[attr-defined]
        rows = await connection.execute(select(BoardCountRow.game, BoardCountRow.band, BoardCountRow.players))
        return {(game, band): n for game, band, n in rows if n}


async def test_ranks_agree_with_the_board_as_games_end_and_players_go(start: Start, database_url: str) -> None:
    """A rank sums the board's band counts, which every rated game's end and every deletion keep: after each, every
    player's rank and the board's size are what the whole board says, and the counts are what counting them afresh
    (as a server starting does) finds. Two games are needed to be on the board, so players also come onto it."""
    served = Served(await start(journal=SqlJournal(create_engine(database_url)), min_games=2))
    players = served.harness.players
    people = [await served.guest(name=name) for name in ("Ann", "Bo", "Cy", "Di")]
    pairs = [(0, 1), (2, 3), (0, 2), (1, 3), (0, 3), (2, 1), (3, 0)]

    async def check() -> int:
        board = await players.GetLeaderboard(player_pb2.GetLeaderboardRequest(game="soker"))
        for line in board.lines:
            rank = await players.GetRank(player_pb2.GetRankRequest(game="soker", player_id=line.player_id))
            assert (rank.line.rank, rank.ranked) == (line.rank, len(board.lines))
        kept = await band_counts(served)
        await served.harness.player_store.recount()
        assert await band_counts(served) == kept
        return len(board.lines)

    sizes = []
    for first, second in pairs:
        created = await served.create(people[first])
        joined = await served.join(created.room.room_id, people[second])
        tokens = {created.seat: created.seat_token, joined.seat: joined.seat_token}
        assert (await served.play_out(created.room.room_id, tokens)).rated
        sizes.append(await check())
    assert sizes[0] == 0 and sizes[-1] == 4  # (each comes onto the board at their second game)
    await players.DeletePlayer(player_pb2.DeletePlayerRequest(), metadata=auth(people[0].access_token))
    assert await check() == 3
