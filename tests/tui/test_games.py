"""Whole games from the lobby: a solo room created with the keys, every move chosen with the keys, the end shown."""

from __future__ import annotations

import pytest
from textual.widgets import DataTable, Footer, Input

from kickoff.v1 import common_pb2, room_pb2
from terminal.app import KickoffApp
from tests.tui.conftest import SIZE, at_table, cells, create_room, lobby, play_to_end, rooms, shown, until

GAMES = [
    # game, seats, what is typed into the options field, what the table shows of the game, cards before the first move
    ("soker", 4, "", "Top card:", True),
    ("carta-futbol-club", 4, "", "Goals 0-0", False),  # the coin toss comes before the deal
    ("age-of-soccer", 3, "max_rounds=2", "Turn 1:", True),
    ("relay", 3, "", "deck_size: 7", True),  # the tests' own game, without messages of its own: the generic table
]


@pytest.mark.parametrize(("game", "seats", "options", "marker", "dealt"), GAMES, ids=[g[0] for g in GAMES])
async def test_a_solo_room_made_in_the_lobby_is_played_to_its_end_with_the_keys(
    start, tmp_path, game: str, seats: int, options: str, marker: str, dealt: bool
) -> None:
    harness = await start()
    app = KickoffApp(f"127.0.0.1:{harness.server.port}", name="Ana")
    async with app.run_test(size=SIZE) as pilot:
        await create_room(pilot, game, seats=seats, options=options)
        screen = await at_table(pilot)

        [room] = await rooms(harness, screen.room_id)
        assert room.game == game and room.mode == common_pb2.ROOM_MODE_SOLO and len(room.seats) == seats
        assert sum(seat.kind == common_pb2.SEAT_KIND_SYSTEM for seat in room.seats) == seats - 1
        if options:
            assert room.options["max_rounds"] == 2
        assert screen.viewer == 0 and "Ana (you)" in shown(app, "#seats")
        assert marker in shown(app, "#state")
        assert (shown(app, "#hand") != "(no cards)") == dealt, "the seat sees its hand"
        assert "Your turn" in shown(app, "#turn")
        shot = tmp_path / f"{game}-table.svg"
        app.save_screenshot(shot.name, path=str(tmp_path))
        assert shot.exists() and shot.stat().st_size > 0

        moves = await play_to_end(pilot, seed=7)
        assert moves > 0

        [room] = await rooms(harness, screen.room_id)
        assert room.status == common_pb2.ROOM_STATUS_FINISHED
        outcome = shown(app, "#outcome")
        winners = next(line for line in outcome.splitlines() if line.startswith("Winners:"))
        for seat in range(seats):
            assert (f"(seat {seat})" in winners) == (seat in room.outcome.winners), (winners, room.outcome)
        assert f"Reason: {room.outcome.reason.replace('_', ' ')}" in outcome
        headline = outcome.splitlines()[0]
        results = list(room.outcome.results)  # each seat's result, as the server decided it
        assert len(results) == seats, room.outcome
        drawn, shared = common_pb2.SEAT_RESULT_DRAWN, common_pb2.SEAT_RESULT_SHARED_WIN
        sharing = [seat for seat, result in enumerate(results) if result == shared]
        if all(result == drawn for result in results):
            assert headline == ("A draw: every seat finished level." if room.outcome.winners else "A draw: nobody won.")
        elif sharing and results[0] != common_pb2.SEAT_RESULT_LOST:
            assert headline.startswith("Shared win: "), headline
        else:
            assert headline == ("You won!" if results[0] == common_pb2.SEAT_RESULT_WON else "You lost."), headline
        marked = [line for line in shown(app, "#seats").splitlines() if line.endswith(("winner", "shared win"))]
        assert sorted(int(line.split()[0]) for line in marked) == sorted(room.outcome.winners) * (
            not all(result == drawn for result in results)
        ), marked
        assert "Game over" in shown(app, "#turn")
        end = tmp_path / f"{game}-end.svg"
        app.save_screenshot(end.name, path=str(tmp_path))
        assert end.stat().st_size > 0

        await pilot.press("escape")  # back to the lobby, where the finished room is listed
        back = await lobby(pilot)
        await until(pilot, lambda: screen.room_id in back.rooms, "the room in the lobby's list")
        assert back.rooms[screen.room_id].status == common_pb2.ROOM_STATUS_FINISHED


async def test_the_form_fills_in_the_system_players_and_refuses_bad_options(start) -> None:
    harness = await start()
    app = KickoffApp(f"127.0.0.1:{harness.server.port}")
    async with app.run_test(size=SIZE) as pilot:
        await create_room(pilot, "soker", seats=3, options="hand_size")
        await pilot.pause()
        form = app.screen
        assert form.query_one("#create-system", Input).value == "2", "solo: every other seat a system player"
        assert "name=value" in shown(app, "#create-hint"), "the form says what is wrong and stays"
        await pilot.press("escape")
        await lobby(pilot)
        assert not await rooms(harness)


async def test_the_lobby_and_a_table_fit_an_80x24_terminal_with_their_keys_in_the_footer(start) -> None:
    harness = await start()
    app = KickoffApp(f"127.0.0.1:{harness.server.port}", name="Ana")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await lobby(pilot)
        assert {"Create", "Join", "Watch", "Quit"} <= footer_keys(app)
        for selector in ("#games", "#name", "#room-id", "#rooms", "#lobby-status"):
            assert_inside(app, selector, 80, 24)
        await create_room(pilot, "age-of-soccer", seats=4, options="max_rounds=1")  # the widest seats panel
        table = await at_table(pilot)
        assert {"Lobby", "Moves", "Events"} <= footer_keys(app)
        for selector in ("#seats", "#moves", "#turn", "#feed"):
            assert_inside(app, selector, 80, 24)
        assert table.query_one("#moves").region.height >= 5 and table.query_one("#feed").region.height >= 5
        assert screen is not table


async def test_the_lobbys_rooms_fit_80_columns_and_the_highlighted_room_says_the_rest(start) -> None:
    harness = await start()
    for game in ("carta-futbol-club", "age-of-soccer", "soker"):
        created = await harness.rooms.CreateRoom(
            room_pb2.CreateRoomRequest(game=game, mode=common_pb2.ROOM_MODE_ONLINE, seats=4)
        )
        for name in ("Alexandrina", "Bartholomew"):
            await harness.rooms.JoinRoom(room_pb2.JoinRoomRequest(room_id=created.room.room_id, name=name))
    app = KickoffApp(f"127.0.0.1:{harness.server.port}", name="Ana")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await lobby(pilot)
        table = screen.query_one("#rooms", DataTable)
        await until(pilot, lambda: table.row_count == 3, "the three rooms listed")
        assert table.virtual_size.width <= table.scrollable_content_region.width, "no column is cut off"
        assert_inside(app, "#room-line", 80, 24)
        listed = cells(table)
        assert {row[1] for row in listed} == {"Soker", "Age of Soccer", "Carta Fútbol Club"}
        assert all(row[3] == "2/4" and row[4] == "Alexandrina, Bartholomew" for row in listed)
        newest = shown(app, "#room-line")
        assert newest.startswith(listed[0][0]) and "Alexandrina, Bartholomew" in newest, "the whole of the room"


def footer_keys(app: KickoffApp) -> set[str]:
    """The keys the screen's footer shows."""
    assert app.screen.query_one(Footer).region.bottom == app.size.height, "the footer is at the bottom"
    return {active.binding.description for active in app.screen.active_bindings.values() if active.binding.show}


def assert_inside(app: KickoffApp, selector: str, width: int, height: int) -> None:
    region = app.screen.query_one(selector).region
    assert region.width > 0 and region.height > 0, f"{selector} is not shown"
    assert region.right <= width and region.bottom <= height, f"{selector} at {region} is off the screen"
