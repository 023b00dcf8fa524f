"""The table: refusals, the turn clock, what a spectator sees, a stream that breaks off, leaving a waiting room, and
a game every seat won shown as the draw it is."""

from __future__ import annotations

import random

from textual.widgets import OptionList

from kickoff.v1 import common_pb2, move_pb2, room_pb2
from service.grpc.server import create_server
from service.grpc.tokens import SeatTokens
from terminal.app import KickoffApp
from tests.server.conftest import soker_move
from tests.servers import SECRET
from tests.tui.conftest import (
    SIZE,
    at_table,
    create_room,
    lobby,
    my_turn,
    play_move,
    rooms,
    shown,
    until,
    visible_text,
)


class HandClock:
    """The client's local clock, moved by hand (the server's is the harness's ManualClock)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def test_a_refused_move_shows_its_status_and_reason_and_the_table_goes_on(start) -> None:
    harness = await start()
    room = await harness.create(seats=2, system_players=1, solo=True)
    app = KickoffApp(f"127.0.0.1:{harness.server.port}", name="Ana")
    async with app.run_test(size=SIZE) as pilot:
        await lobby(pilot)
        await pilot.press("i", *room.room_id, "enter")  # join by the room's id
        screen = await at_table(pilot)
        offered = [str(option.prompt) for option in screen.query_one("#moves", OptionList).options]

        # A card the seat does not hold, sent through the client's play stream as any move is.
        screen.submit(soker_move("play", "NOPE-GKP"))
        await until(pilot, lambda: bool(screen.refusal_text), "the refusal")
        notice = shown(app, "#notice")
        assert notice.startswith("Refused: INVALID_ARGUMENT (") and "card code that does not exist" in notice, notice
        reason = notice.split("(", 1)[1].split(")", 1)[0]
        assert reason and " " not in reason, "the ErrorInfo reason is shown"
        await my_turn(pilot, screen)
        assert [str(o.prompt) for o in screen.query_one("#moves", OptionList).options] == offered, "moves offered again"

        # A legal move, but against a version whose moves were not the seat's: stale.
        screen.submit(screen.legal[0], expected_version=screen.version - 1)
        await until(pilot, lambda: "ABORTED" in screen.refusal_text, "the stale move's refusal")
        assert "(stale_version)" in shown(app, "#notice")
        await my_turn(pilot, screen)

        version = screen.version
        await play_move(pilot, random.Random(3))  # the table goes on
        assert screen.version > version and shown(app, "#notice") == "" and not screen.refusal_text


async def test_the_turn_clock_counts_down_and_the_table_plays_for_the_seat_at_zero(start, tmp_path) -> None:
    harness = await start()
    local = HandClock()
    app = KickoffApp(f"127.0.0.1:{harness.server.port}", name="Ana", monotonic=local)
    async with app.run_test(size=SIZE) as pilot:
        await create_room(pilot, "soker", seats=2, online=True)
        screen = await at_table(pilot, turn=False)
        assert "Waiting for players" in shown(app, "#turn") and "Waiting for 1 more player" in shown(app, "#state")
        await harness.join(screen.room_id, name="Bea")  # the second person, through the stubs
        await my_turn(pilot, screen)
        assert "Bea" in shown(app, "#seats")
        assert shown(app, "#turn") == "Your turn: 30 s left"
        hand = shown(app, "#hand").split()

        local.now += 10  # the client's timer redraws the seconds left
        await until(pilot, lambda: shown(app, "#turn") == "Your turn: 20 s left", "the clock at 20 s")
        app.save_screenshot("clock.svg", path=str(tmp_path))
        assert (tmp_path / "clock.svg").stat().st_size > 0

        harness.clock.advance(30)  # the server's clock passes the deadline: the table plays for the seat
        await harness.settle(screen.room_id)
        await until(pilot, lambda: not screen.legal and screen.settled, "the update the table made")
        feed = "\n".join(screen.query_one("#feed").lines)
        assert "(the clock ran out)" in feed and "you ended the turn (the clock ran out)" in feed, feed
        drawn = next(line for line in feed.splitlines() if "you drew" in line).split("you drew ")[1].split()[0]
        assert sorted(shown(app, "#hand").split()) == sorted([*hand, drawn]), "the drawn card is in the hand"
        assert shown(app, "#turn") == "Waiting for Bea 30 s", "Bea's clock runs, from the server's new time"
        assert screen.query_one("#moves", OptionList).border_subtitle == "not your turn"


async def test_a_spectator_sees_the_table_without_any_hand(start, tmp_path) -> None:
    harness = await start()
    room = await harness.create(seats=2)
    _, first = await harness.join(room.room_id, name="Ana")
    _, second = await harness.join(room.room_id, name="Bea")
    await harness.submit(room.room_id, first, soker_move("draw"))
    app = KickoffApp(f"127.0.0.1:{harness.server.port}", name="Cy")
    async with app.run_test(size=SIZE) as pilot:
        screen = await lobby(pilot)
        await until(pilot, lambda: room.room_id in screen.rooms, "the room in the lobby")
        assert screen.rooms[room.room_id].status == common_pb2.ROOM_STATUS_PLAYING
        await pilot.press("w")
        table = await at_table(pilot, turn=False)
        assert table.viewer is None and table.sub_title.endswith("spectator")

        seats = shown(app, "#seats")
        assert "Ana" in seats and "Bea" in seats and "8 cards" in seats and "7 cards" in seats
        assert "Top card:" in shown(app, "#state") and "(has drawn)" in shown(app, "#state")
        assert shown(app, "#hand") == "spectator: no hand"
        assert not table.query_one("#moves", OptionList).display, "no moves for a spectator"
        assert "Ana drew a card" in "\n".join(table.query_one("#feed").lines), "a drawn card stays hidden"
        for token in (first, second):
            for card in (await harness.view(room.room_id, token)).view.soker.hand:
                assert card not in visible_text(app), f"{card} of a hand is shown"
        app.save_screenshot("spectator.svg", path=str(tmp_path))
        assert (tmp_path / "spectator.svg").stat().st_size > 0

        version = table.version
        await harness.submit(room.room_id, first, move_pb2.Move(soker={"end_turn": {}}))
        await until(pilot, lambda: table.version > version and table.settled, "the next update")
        assert "Ana ended the turn" in "\n".join(table.query_one("#feed").lines)
        assert shown(app, "#turn").startswith("Waiting for Bea")


async def test_after_the_stream_breaks_off_r_follows_the_room_again_from_the_last_version(start) -> None:
    harness = await start()
    room = await harness.create(seats=2, system_players=1, solo=True)
    app = KickoffApp(f"127.0.0.1:{harness.server.port}", name="Ana")
    async with app.run_test(size=SIZE) as pilot:
        await lobby(pilot)
        await pilot.press("i", *room.room_id, "enter")
        screen = await at_table(pilot)
        assert not screen.check_action("reconnect", ()), "no Reconnect while the stream runs"
        # The server's gRPC side stops (its rooms stay, as in a restart that keeps them) and comes back on its port.
        await harness.server.server.stop(0)
        await until(pilot, lambda: screen.stream_over, "the stream to break off")
        assert "stream broke off: UNAVAILABLE" in shown(app, "#notice") and "r: reconnect" in shown(app, "#notice")
        assert screen.check_action("reconnect", ()) is True, "r: Reconnect is offered"
        lines = len(screen.query_one("#feed").lines)
        again = await create_server(harness.directory, SeatTokens(SECRET), port=harness.server.port)
        try:
            await pilot.press("r")
            await my_turn(pilot, screen)
            assert not screen.stream_over and shown(app, "#notice") == ""
            assert len(screen.query_one("#feed").lines) == lines, "nothing seen before is shown twice"
            version = screen.version
            await play_move(pilot, random.Random(5))
            assert screen.version > version
        finally:
            await again.server.stop(0)


async def test_leaving_a_room_that_waits_for_players_gives_the_seat_back(start) -> None:
    harness = await start()
    app = KickoffApp(f"127.0.0.1:{harness.server.port}", name="Ana")
    async with app.run_test(size=SIZE) as pilot:
        await create_room(pilot, "soker", seats=2, online=True)
        screen = await at_table(pilot, turn=False)
        room_id = screen.room_id
        assert (await rooms(harness, room_id))[0].seats[0].taken
        await pilot.press("escape")
        back = await lobby(pilot)
        await until(pilot, lambda: room_id in back.rooms and not back.rooms[room_id].seats[0].taken, "the seat free")
        assert back.rooms[room_id].status == common_pb2.ROOM_STATUS_WAITING


async def test_a_game_that_every_seat_won_is_shown_as_a_draw_not_a_win(start) -> None:
    """Nobody plays an Age of Soccer game of one round: every clock runs out, nobody wins a shield, and the turn limit
    lists both seats as winners. The seat is told it is a draw, not that it won: the outcome, the feed's last line,
    the list of seats."""
    harness = await start()
    request = room_pb2.CreateRoomRequest(game="age-of-soccer", mode=common_pb2.ROOM_MODE_ONLINE, seats=2)
    request.options.update({"max_rounds": 1})
    room = (await harness.rooms.CreateRoom(request)).room
    app = KickoffApp(f"127.0.0.1:{harness.server.port}", name="Ana")
    async with app.run_test(size=SIZE) as pilot:
        await lobby(pilot)
        await pilot.press("i", *room.room_id, "enter")  # join by the room's id
        screen = await at_table(pilot, turn=False)
        await harness.join(room.room_id, name="Bea")
        for _ in range(40):  # every clock runs out in turn, until the round is over
            [room] = await rooms(harness, room.room_id)
            if room.status == common_pb2.ROOM_STATUS_FINISHED:
                break
            harness.clock.advance(31)
            await harness.settle(room.room_id)
        assert (room.outcome.reason, sorted(room.outcome.winners)) == ("rounds", [0, 1]), room.outcome
        await until(pilot, lambda: screen.finished and bool(screen.outcome_text()), "the outcome")
        lines = screen.outcome_text().splitlines()
        assert lines[:2] == ["A draw: every seat finished level.", "Winners: you (seat 0), Bea (seat 1)"], lines
        drawn = common_pb2.SEAT_RESULT_DRAWN
        assert list(room.outcome.results) == [drawn, drawn], room.outcome  # the contract says so, for each seat
        feed = "\n".join(screen.query_one("#feed").lines)
        assert "game over (rounds): a draw" in feed and "won by" not in feed, feed
        await until(pilot, lambda: "draw" in shown(app, "#seats"), "the seats' results")
        marks = [line for line in shown(app, "#seats").splitlines() if line.endswith(("winner", "draw"))]
        assert len(marks) == 2 and all(line.endswith("  draw") for line in marks), marks  # no seat marked "winner"
