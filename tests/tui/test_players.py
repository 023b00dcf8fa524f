"""Players in the terminal client, with the keys: signing in as a guest from the lobby and creating a room as the
player, My games (the player's rooms, their turn marked) taking a seat up again, the leaderboard after rated games, a
player's rating beside their name at the table, an expired access token refreshed, a session the server ended, and
signing out. Against a server with players on SQLite (tests/tui/conftest.py's ``served``)."""

from __future__ import annotations

import random
from pathlib import Path

import grpc
import pytest
from textual.widgets import DataTable

from kickoff.v1 import common_pb2, player_pb2
from service.store.database import create_engine, upgrade_in_thread
from service.store.journal import SqlJournal
from terminal.app import KickoffApp, LeaderboardScreen, LobbyScreen, MyGamesScreen, TableScreen, rating_text
from terminal.client import CallFailed, KickoffClient, Refusal
from tests.players.conftest import Served, auth
from tests.server.conftest import refusal
from tests.servers import Start
from tests.tui.conftest import (
    SIZE,
    as_session,
    at_table,
    cells,
    create_room,
    leaderboard,
    lobby,
    my_games,
    paged,
    play_move,
    player,
    rooms,
    shown,
    sign_in,
    target,
    until,
)
from tests.tui.test_games import assert_inside, footer_keys


def seat_line(app: KickoffApp, seat: int) -> str:
    """The line of the seats panel for one seat (soker: "  0 Ana (you) [12.3]  7 cards   0 pts")."""
    return next(line for line in shown(app, "#seats").splitlines() if line[2:].startswith(f"{seat} "))


async def test_a_guest_signs_in_in_the_lobby_and_the_room_it_creates_seats_the_player(served: Served) -> None:
    harness = served.harness
    app = KickoffApp(target(harness), name="Ana")
    async with app.run_test(size=SIZE) as pilot:
        await lobby(pilot)
        assert "Sign in" in footer_keys(app) and not {"Sign out", "My games"} & footer_keys(app)
        session = await sign_in(pilot)
        assert session.name == "Ana" and session.player_id
        assert app.screen.sub_title.endswith("signed in as Ana")
        assert {"Sign out", "My games", "Leaderboard"} <= footer_keys(app) and "Sign in" not in footer_keys(app)

        await create_room(pilot, "soker", seats=2, online=True)
        screen = await at_table(pilot, turn=False)
        [room] = await rooms(harness, screen.room_id)
        assert room.seats[0].player_id == session.player_id and room.seats[0].name == "Ana"
        assert screen.viewer == 0 and screen.ticket is not None and screen.ticket.player_id == session.player_id
        assert "Your seat stays yours when you leave" in shown(app, "#state")
        assert "Give seat back" in footer_keys(app)

        await pilot.press("escape")  # a player's seat in a waiting room stays theirs
        await lobby(pilot)
        [room] = await rooms(harness, screen.room_id)
        assert room.seats[0].taken and room.seats[0].player_id == session.player_id

        # Joining it again takes the seat up (JoinRoom says already_seated; TakeSeat gives its token).
        await pilot.press("i", *room.room_id, "enter")
        again = await at_table(pilot, turn=False)
        assert again is not screen and again.viewer == 0 and again.held
        await pilot.press("x")  # gives the seat back, and leaves
        await lobby(pilot)
        [room] = await rooms(harness, screen.room_id)
        assert not room.seats[0].taken and room.status == common_pb2.ROOM_STATUS_WAITING


async def test_my_games_marks_the_players_turn_pages_and_takes_the_seat_up(served: Served) -> None:
    harness = served.harness
    app = KickoffApp(target(harness), name="Ana", page_size=1)
    async with app.run_test(size=SIZE) as pilot:
        session = await sign_in(pilot)
        await create_room(pilot, "soker", seats=2)  # solo: the player's turn at once
        solo = await at_table(pilot)
        await pilot.press("escape")
        await lobby(pilot)
        waiting = await served.create(as_session(session), seats=3)  # online, waiting: made with the app's token
        assert waiting.seat == 0

        screen = await my_games(pilot)
        table = screen.query_one("#my-rooms", DataTable)
        assert [row[:2] for row in cells(table)] == [["your turn", solo.room_id]], "the player's turn first"
        assert cells(table)[0][4:6] == ["playing", "0"]
        assert "your turn in 1" in shown(app, "#my-status") and "Next page" in footer_keys(app)
        await pilot.press("n")
        await paged(pilot, screen, 2)
        assert [row[:2] for row in cells(table)] == [["", waiting.room.room_id]] and screen.page == 2
        assert cells(table)[0][4] == "waiting" and "Previous page" in footer_keys(app)
        await pilot.press("p")
        await paged(pilot, screen, 3)
        assert cells(table)[0][1] == solo.room_id and "Previous page" not in footer_keys(app)

        await pilot.press("enter")  # TakeSeat: a fresh token for the player's seat, and the table at that seat
        table_screen = await at_table(pilot)
        assert table_screen.room_id == solo.room_id and table_screen.viewer == 0 and table_screen.held
        assert "Ana (you)" in shown(app, "#seats") and "Your turn" in shown(app, "#turn")
        assert "My games" in footer_keys(app) and "Lobby" not in footer_keys(app)
        version = table_screen.version
        await play_move(pilot, random.Random(4))  # the seat taken up plays
        assert table_screen.version > version

        await pilot.press("escape")  # back to My games, read afresh
        await until(pilot, lambda: app.screen is screen and screen.loads >= 4, "My games again")
        assert isinstance(app.screen, MyGamesScreen)
        await pilot.press("escape")
        assert isinstance((await lobby(pilot)), LobbyScreen)


async def test_the_table_shows_players_ratings_and_the_leaderboard_their_places(served: Served) -> None:
    harness = served.harness
    bo = await served.guest(name="Bo")
    app = KickoffApp(target(harness), name="Ana", page_size=1)
    async with app.run_test(size=SIZE) as pilot:
        ana = await sign_in(pilot)
        await create_room(pilot, "soker", seats=2, online=True)
        screen = await at_table(pilot, turn=False)
        joined = await served.join(screen.room_id, bo)
        assert joined.room.rated, "online, every person a player: rated"
        await until(pilot, lambda: "Bo" in shown(app, "#seats") and screen.settled, "Bo at the table")
        assert "[" not in shown(app, "#seats"), "no rating in this game yet: nothing shown"

        assert screen.ticket is not None
        ended = await served.play_out(screen.room_id, {0: screen.ticket.token, 1: joined.seat_token})
        assert ended.status == common_pb2.ROOM_STATUS_FINISHED and ended.rated
        await until(pilot, lambda: screen.finished and screen.settled, "the end at the table")
        ratings = {}
        for who in (ana.player_id, bo.player.player_id):
            [rating] = (await player(harness, who)).ratings
            assert (rating.game, rating.games) == ("soker", 1)
            ratings[who] = rating_text(rating)
        # The end of a rated game changed the ratings: the table asks again and shows them beside the names.
        await until(pilot, lambda: shown(app, "#seats").count("[") == 2, "the ratings at the table")
        assert f"Ana (you) [{ratings[ana.player_id]}]" in seat_line(app, 0)
        assert f"Bo [{ratings[bo.player.player_id]}]" in seat_line(app, 1)

        await pilot.press("escape")
        screen_lobby = await lobby(pilot)
        index = [info.name for info in screen_lobby.games].index("soker")
        await pilot.press("g", *["down"] * index, "l")  # the highlighted game's leaderboard
        await until(pilot, lambda: isinstance(app.screen, LeaderboardScreen), "the leaderboard")
        board = app.screen
        assert isinstance(board, LeaderboardScreen) and board.game == "soker"
        await paged(pilot, board)
        await until(pilot, lambda: shown(app, "#board-me") != "", "the player's own place")
        assert "at least 1 rated game," in shown(app, "#board-title")
        expected = await leaderboard(harness, "soker")
        assert len(expected.lines) == 2
        lines = []
        for page in (1, 2):
            [row] = cells(board.query_one("#board", DataTable))
            lines.append(row)
            if page == 1:
                assert "Next page" in footer_keys(app)
                await pilot.press("n")
                await paged(pilot, board, 2)
        assert "Next page" not in footer_keys(app)
        names = {ana.player_id: "Ana (you)", bo.player.player_id: "Bo"}
        assert lines == [
            [str(line.rank), names[line.player_id], ratings[line.player_id], "1", str(line.rating.wins)]
            for line in expected.lines
        ]
        mine = next(line for line in expected.lines if line.player_id == ana.player_id)
        assert shown(app, "#board-me") == (
            f"You: #{mine.rank} of 2, rating {ratings[ana.player_id]}, 1 rated game, {mine.rating.wins} won"
        )


async def test_an_empty_leaderboard_says_its_minimum_and_the_player_the_games_still_to_play(
    start: Start, tmp_path: Path
) -> None:
    """With a minimum of 3, after one rated game: the empty board says what it takes to appear, and the signed-in
    player's line says the game played and the two still to play."""
    url = f"sqlite+aiosqlite:///{tmp_path}/kickoff.db"
    await upgrade_in_thread(url)
    served = Served(await start(journal=SqlJournal(create_engine(url)), min_games=3))
    harness = served.harness
    bo = await served.guest(name="Bo")
    app = KickoffApp(target(harness), name="Ana")
    async with app.run_test(size=SIZE) as pilot:
        ana = await sign_in(pilot)
        created = await served.create(as_session(ana))
        joined = await served.join(created.room.room_id, bo)
        ended = await served.play_out(
            created.room.room_id, {created.seat: created.seat_token, joined.seat: joined.seat_token}
        )
        assert ended.rated and ended.status == common_pb2.ROOM_STATUS_FINISHED
        screen_lobby = await lobby(pilot)
        index = [info.name for info in screen_lobby.games].index("soker")
        await pilot.press("g", *["down"] * index, "l")
        await until(pilot, lambda: isinstance(app.screen, LeaderboardScreen), "the leaderboard")
        board = app.screen
        assert isinstance(board, LeaderboardScreen)
        await paged(pilot, board)
        await until(pilot, lambda: shown(app, "#board-me") != "", "the player's own place")
        assert shown(app, "#board-status") == "Nobody is on it yet: a player appears after 3 rated games."
        assert shown(app, "#board-me") == (
            "You have played 1 rated game: 2 more rated games to appear on the leaderboard."
        )


async def test_a_rating_shows_only_for_a_player_and_a_failed_lookup_breaks_nothing(
    served: Served, monkeypatch: pytest.MonkeyPatch
) -> None:
    harness = served.harness
    ana, bo = await served.guest(name="Ana"), await served.guest(name="Bo")
    created = await served.create(ana)  # a rated game first, so that both have a rating in soker
    joined = await served.join(created.room.room_id, bo)
    await served.play_out(created.room.room_id, {0: created.seat_token, 1: joined.seat_token})
    [rating] = (await player(harness, ana.player.player_id)).ratings
    app = KickoffApp(target(harness), name="Cy")
    async with app.run_test(size=SIZE) as pilot:
        await lobby(pilot)
        looked_up: list[str] = []
        lookup = app.client.get_player

        async def failing(player_id: str, *, fresh: bool = False) -> player_pb2.Player:
            looked_up.append(player_id)
            if player_id == bo.player.player_id:
                raise CallFailed(Refusal("UNAVAILABLE", "the store is away"))
            return await lookup(player_id, fresh=fresh)

        monkeypatch.setattr(app.client, "get_player", failing)
        await create_room(pilot, "soker", seats=3, online=True)  # Cy, anonymous: no player, no rating
        screen = await at_table(pilot, turn=False)
        await served.join(screen.room_id, ana)
        await served.join(screen.room_id, bo)
        await until(
            pilot,
            lambda: len(looked_up) == 2 and "[" in shown(app, "#seats") and "Bo" in shown(app, "#seats"),
            "Ana's rating, and Bo's lookup",
        )
        await until(pilot, lambda: screen.settled, "the table settled")
        assert f"1 Ana [{rating_text(rating)}] " in seat_line(app, 1)
        assert "[" not in seat_line(app, 0) and "Cy (you)" in seat_line(app, 0)
        assert "Bo" in seat_line(app, 2) and "[" not in seat_line(app, 2), "a failed lookup shows nothing"
        assert sorted(looked_up) == sorted([ana.player.player_id, bo.player.player_id]), "players only, once each"
        assert not screen.refusal_text and shown(app, "#notice") == ""
        await until(pilot, lambda: screen.status == common_pb2.ROOM_STATUS_PLAYING, "the game")
        assert isinstance(app.screen, TableScreen)


@pytest.mark.parametrize("lagging", [False, True], ids=["refreshed-before", "refreshed-on-token-expired"])
async def test_an_expired_access_token_is_refreshed_and_the_calls_go_on(served: Served, lagging: bool) -> None:
    harness = served.harness
    # The client's clock: the server's (it refreshes before the expiry), or one far behind it (the server's
    # token_expired makes it refresh, once).
    app = KickoffApp(target(harness), name="Ana", clock=(lambda: 0.0) if lagging else harness.clock.now)
    async with app.run_test(size=SIZE) as pilot:
        first = await sign_in(pilot)
        created = await served.create(as_session(first), seats=2, system_players=1, solo=True)
        harness.clock.advance(15 * 60 + 1)
        screen = await my_games(pilot)
        assert [row[1] for row in cells(screen.query_one("#my-rooms", DataTable))] == [created.room.room_id]
        client = app.client
        assert client.refreshes == 1 and client.session is not None
        assert client.session.access_token != first.access_token and client.session.refresh_token != first.refresh_token
        assert "Refused" not in shown(app, "#my-status")
        await pilot.press("enter")  # and TakeSeat with the new access token
        table = await at_table(pilot)
        assert table.viewer == 0 and client.refreshes == 1


async def test_a_session_the_server_ended_is_forgotten_and_the_lobby_says_so(served: Served) -> None:
    harness = served.harness
    app = KickoffApp(target(harness), name="Ana", clock=harness.clock.now)
    async with app.run_test(size=SIZE) as pilot:
        session = await sign_in(pilot)
        thief = KickoffClient(target(harness))
        try:
            thief.session = session
            await thief.refresh_session()  # someone else used the refresh token
        finally:
            await thief.close()
        harness.clock.advance(15 * 60 + 1)
        await lobby(pilot)
        await pilot.press("m")
        await until(pilot, lambda: app.client.session is None, "the session forgotten")
        assert app.client.session_ended is not None and app.client.session_ended.reason == "refresh_reused"
        assert isinstance(app.screen, MyGamesScreen)
        await until(pilot, lambda: "Signed out" in shown(app, "#my-status"), "My games saying so")
        await pilot.press("escape")
        await lobby(pilot)
        await until(pilot, lambda: "Signed out" in shown(app, "#lobby-status"), "the lobby saying so")
        assert "(refresh_reused)" in shown(app, "#lobby-status") and "s: sign in again" in shown(app, "#lobby-status")
        assert "Sign in" in footer_keys(app) and "My games" not in footer_keys(app)
        assert not app.screen.sub_title.endswith("Ana")


async def test_signing_out_ends_the_session_and_play_is_anonymous_again(served: Served) -> None:
    harness = served.harness
    app = KickoffApp(target(harness), name="Ana")
    async with app.run_test(size=SIZE) as pilot:
        session = await sign_in(pilot)
        await pilot.press("o")
        await until(pilot, lambda: app.client.session is None, "the sign-out")
        # (the client forgets the session before the server has answered; the lobby says so once it has)
        await until(pilot, lambda: "Signed out: you play anonymously again" in shown(app, "#lobby-status"), "saying so")
        assert app.client.session_ended is None and "Sign in" in footer_keys(app)
        code, why, _ = await refusal(  # the server ended it: its token is refused
            harness.players.GetPlayer(player_pb2.GetPlayerRequest(), metadata=auth(session.access_token))
        )
        assert (code, why) == (grpc.StatusCode.UNAUTHENTICATED, "session_revoked")

        await create_room(pilot, "soker", seats=2, online=True)
        screen = await at_table(pilot, turn=False)
        [room] = await rooms(harness, screen.room_id)
        assert room.seats[0].taken and room.seats[0].player_id == "" and not screen.held
        assert "Give seat back" not in footer_keys(app)
        await pilot.press("escape")  # anonymous, as ever: the waiting room's seat goes back
        back = await lobby(pilot)
        await until(
            pilot, lambda: screen.room_id in back.rooms and not back.rooms[screen.room_id].seats[0].taken, "seat free"
        )


async def test_the_lobbys_keys_my_games_and_a_leaderboard_fit_an_80x24_terminal(served: Served) -> None:
    harness = served.harness
    app = KickoffApp(target(harness), name="Ana")
    async with app.run_test(size=(80, 24)) as pilot:
        await lobby(pilot)
        assert shown_keys(app) == {"Create", "Join", "Watch", "Play now", "Sign in", "Leaderboard", "Quit"}
        session = await sign_in(pilot)
        await served.create(as_session(session), seats=2, system_players=1, solo=True)
        await pilot.pause()
        assert shown_keys(app) == {
            "Create", "Join", "Watch", "Play now", "Sign out", "My games", "Leaderboard", "Quit"
        }  # fmt: skip
        await my_games(pilot)
        for selector in ("#my-rooms", "#my-status"):
            assert_inside(app, selector, 80, 24)
        assert shown_keys(app) >= {"Lobby", "Take seat", "Refresh"}
        await pilot.press("escape")
        await lobby(pilot)
        await pilot.press("l")
        await until(pilot, lambda: isinstance(app.screen, LeaderboardScreen), "the leaderboard")
        await paged(pilot, app.screen)
        for selector in ("#board-title", "#board-me", "#board", "#board-status"):
            assert_inside(app, selector, 80, 24)
        assert shown_keys(app) >= {"Lobby", "Next game", "Refresh"}


def shown_keys(app: KickoffApp) -> set[str]:
    """The keys the footer shows whole within the screen's width."""
    keys = app.screen.query("FooterKey")
    assert keys, "a footer with keys"
    for key in keys:
        assert key.region.width > 0 and key.region.right <= app.size.width, f"{key.description} is cut off"
    return {key.description for key in keys}
