"""Play now in the terminal client, with the keys: a person (signed in as a guest on the way) joins Soker's queue, sees
the search with its wait, and lands at a table once the queue is turned (system players after the fill wait, or
another person who takes their seat up too) and plays; Escape cancels the ticket on the server; a search that expires
goes back to the lobby; a ticket already in the queue is followed again; quitting ends a search's ticket. Against a
server with players and matchmaking on SQLite, whose queues the test turns (the manual clock, then
``matchmaker.tick()``)."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Select

from kickoff.v1 import common_pb2, match_pb2
from service.store.database import create_engine, upgrade_in_thread
from service.store.journal import SqlJournal
from terminal.app import KickoffApp, LobbyScreen, PlayNowScreen, SearchScreen
from terminal.client import CallFailed, KickoffClient
from tests.matches.conftest import SETTINGS, Queue
from tests.players.conftest import Served
from tests.server.conftest import Harness
from tests.servers import Start
from tests.tui.conftest import SIZE, as_session, at_table, lobby, play_move, rooms, shown, target, until
from tests.tui.test_games import assert_inside, footer_keys
from tests.tui.test_players import shown_keys

SEARCHING, PROPOSED, MATCHED, CANCELLED, EXPIRED = (
    match_pb2.TICKET_STATUS_SEARCHING,
    match_pb2.TICKET_STATUS_PROPOSED,
    match_pb2.TICKET_STATUS_MATCHED,
    match_pb2.TICKET_STATUS_CANCELLED,
    match_pb2.TICKET_STATUS_EXPIRED,
)


@pytest.fixture
async def unfilled(start: Start, tmp_path: Path) -> AsyncIterator[Harness]:
    """A server whose system players never fill a table (fill_seconds 0): a lone ticket expires."""
    url = f"sqlite+aiosqlite:///{tmp_path}/kickoff.db"
    await upgrade_in_thread(url)
    yield await start(journal=SqlJournal(create_engine(url)), match=replace(SETTINGS, fill_seconds=0))


async def play_now(pilot: Pilot, game: str, seats: int | None = None) -> SearchScreen:
    """Press p in the lobby, choose the game (and a table size, else any) in the form with the keys, play, and wait
    for the search to follow its ticket."""
    app = pilot.app
    await lobby(pilot)
    await pilot.press("p")
    await until(pilot, lambda: isinstance(app.screen, PlayNowScreen), "the play now form")
    form = app.screen
    assert isinstance(form, PlayNowScreen)
    names = list(form.games)
    current = names.index(form.game)
    await pilot.press("enter")  # the game list opens at the lobby's game
    await pilot.pause()
    key = "down" if names.index(game) >= current else "up"
    await pilot.press(*[key] * abs(names.index(game) - current), "enter")
    await until(pilot, lambda: form.game == game, f"{game} chosen")
    if seats is not None:
        sizes = list(form.games[game].seat_counts)
        await pilot.press("tab", "enter")  # the table sizes: any, then each
        await pilot.pause()
        await pilot.press(*["down"] * (sizes.index(seats) + 1), "enter")
        await until(pilot, lambda: form.query_one("#play-seats", Select).value == seats, f"{seats} seats chosen")
    await pilot.press("ctrl+s")
    await until(pilot, lambda: isinstance(app.screen, SearchScreen) and app.screen.following, "the search")
    search = app.screen
    assert isinstance(search, SearchScreen)
    return search


async def test_play_now_finds_a_table_with_system_players_after_the_wait_and_the_person_plays(served: Served) -> None:
    harness = served.harness
    app = KickoffApp(target(harness), name="Ana", clock=harness.clock.now)
    async with app.run_test(size=SIZE) as pilot:
        await lobby(pilot)
        assert "Play now" in footer_keys(app) and app.client.session is None
        search = await play_now(pilot, "soker", seats=3)
        session = app.client.session
        assert session is not None and session.name == "Ana", "signed in as a guest on the way"
        ticket = search.ticket
        assert ticket.status == SEARCHING and list(ticket.seat_counts) == [3] and ticket.game == "soker"
        assert [m.player_id for m in ticket.members] == [session.player_id]
        assert shown(app, "#search-title") == "Soker, a table of 3 seats"
        assert shown(app, "#search-wait").startswith("Searching: 0:00 so far, 5:00 left")
        assert "rating" in shown(app, "#search-note") and "wider the window" in shown(app, "#search-note")
        assert "Escape: cancel" in shown(app, "#search-status") and "Cancel search" in footer_keys(app)

        harness.clock.advance(12)  # the wait so far, by the app's clock (here the server's)
        await until(pilot, lambda: "0:12 so far" in shown(app, "#search-wait"), "the wait redrawn")
        await harness.matchmaker.tick()  # nobody else, and not yet the fill wait
        assert (await app.client.get_ticket(ticket.ticket_id)).status == SEARCHING
        assert isinstance(app.screen, SearchScreen)

        harness.clock.advance(18)  # 30 s: system players take the seats nobody did
        await harness.matchmaker.tick()
        screen = await at_table(pilot)  # taken up at once: the only person, so matched
        [room] = await rooms(harness, screen.room_id)
        assert room.mode == common_pb2.ROOM_MODE_ONLINE and room.status == common_pb2.ROOM_STATUS_PLAYING
        assert len(room.seats) == 3 and [s.kind for s in room.seats].count(common_pb2.SEAT_KIND_SYSTEM) == 2
        [mine] = [s for s in room.seats if s.kind == common_pb2.SEAT_KIND_PERSON]
        assert mine.player_id == session.player_id and screen.viewer == mine.seat and screen.held
        matched = await app.client.get_ticket(ticket.ticket_id)
        assert matched.status == MATCHED and matched.table.room_id == screen.room_id
        assert screen.ticket is not None and screen.ticket.token == matched.table.seat_token
        assert "Ana (you)" in shown(app, "#seats") and "Your turn" in shown(app, "#turn")

        version = screen.version
        await play_move(pilot, random.Random(2))  # the seat plays
        assert screen.version > version
        await pilot.press("escape")  # the table goes back to the lobby, as a joined room's does
        await lobby(pilot)
        assert isinstance(app.screen, LobbyScreen)


async def test_a_table_found_is_taken_up_at_once_and_opens_once_the_other_person_takes_theirs(
    served: Served,
) -> None:
    harness = served.harness
    queue = Queue(harness)
    app = KickoffApp(target(harness), name="Ana", clock=harness.clock.now)
    async with app.run_test(size=SIZE) as pilot:
        search = await play_now(pilot, "soker", seats=2)
        [bo] = await queue.players(1, prefix="Bo")
        other = await queue.enqueue(bo, counts=[2])
        harness.clock.advance(1)
        await harness.matchmaker.tick()
        await until(
            pilot,
            lambda: search.ticket.status == PROPOSED and "1 of 2 people seated" in shown(app, "#search-wait"),
            "the table found, the seat taken up",
        )
        assert shown(app, "#search-wait") == (
            "Table found, waiting for the others: 1 of 2 people seated (0:01 since you joined the queue)."
        )
        table = shown(app, "#search-table")
        assert "Ana (you): seated" in table and "Bo0: not seated yet" in table
        seen = await queue.get(bo, other.ticket_id)
        assert [seat.accepted for seat in seen.table.table_seats if seat.name == "Ana"] == [True]
        assert isinstance(app.screen, SearchScreen)

        matched = await queue.accept(bo, other.ticket_id)  # the last one: the room is made
        assert matched.status == MATCHED
        screen = await at_table(pilot, turn=False)
        assert screen.room_id == matched.table.room_id and screen.viewer != matched.table.seat
        [room] = await rooms(harness, screen.room_id)
        assert sorted(s.name for s in room.seats) == ["Ana", "Bo0"]
        assert all(s.kind == common_pb2.SEAT_KIND_PERSON for s in room.seats)


async def test_escape_cancels_the_search_and_the_ticket_on_the_server(served: Served) -> None:
    harness = served.harness
    app = KickoffApp(target(harness), name="Ana", clock=harness.clock.now)
    async with app.run_test(size=SIZE) as pilot:
        search = await play_now(pilot, "soker")
        ticket = search.ticket
        assert list(ticket.seat_counts) == [2, 3, 4], "any size: every size the game takes"
        assert shown(app, "#search-title") == "Soker, a table of 2-4 seats"
        await pilot.press("escape")
        back = await lobby(pilot)
        # (the lobby says it at once, and again once its listing is back: wait for both, not for the machine's speed)
        await until(
            pilot, lambda: "Search cancelled" in shown(app, "#lobby-status") and not back.told, "the lobby saying so"
        )
        assert "you left the Soker queue" in shown(app, "#lobby-status")
        cancelled = await app.client.get_ticket(ticket.ticket_id)
        assert cancelled.status == CANCELLED and cancelled.reason == "cancelled"
        assert not await app.client.my_tickets()
        harness.clock.advance(60)  # a ticket cancelled is out of the queue: nothing is made of it
        await harness.matchmaker.tick()
        assert (await app.client.get_ticket(ticket.ticket_id)).status == CANCELLED
        assert not await rooms(harness)

        again = await play_now(pilot, "soker")  # free to queue again (already signed in: the same player)
        assert again.ticket.ticket_id != ticket.ticket_id and again.ticket.status == SEARCHING
        assert [m.player_id for m in again.ticket.members] == [cancelled.members[0].player_id]


async def test_a_search_that_expires_goes_back_to_the_lobby_and_a_live_ticket_is_followed_again(
    unfilled: Harness,
) -> None:
    harness = unfilled
    app = KickoffApp(target(harness), name="Ana", clock=harness.clock.now)
    async with app.run_test(size=SIZE) as pilot:
        await lobby(pilot)
        await pilot.press("s")
        await until(pilot, lambda: app.client.session is not None, "the sign-in")
        assert app.client.session is not None
        queue = Queue(harness)
        live = await queue.enqueue(as_session(app.client.session), counts=[4])  # from another client of the player
        search = await play_now(pilot, "soker")
        assert search.ticket.ticket_id == live.ticket_id, "already in that queue: its ticket is followed"
        assert shown(app, "#search-title") == "Soker, a table of 4 seats"

        harness.clock.advance(300)
        await harness.matchmaker.tick()
        await lobby(pilot)
        await until(pilot, lambda: "expired" in shown(app, "#lobby-status"), "the lobby saying so")
        assert shown(app, "#lobby-status").startswith("No Soker table was found in time: the search expired after 5:00")
        assert (await app.client.get_ticket(live.ticket_id)).status == EXPIRED


async def test_the_play_now_form_and_the_search_fit_an_80x24_terminal_and_quitting_ends_the_ticket(
    served: Served,
) -> None:
    harness = served.harness
    app = KickoffApp(target(harness), name="Ana", clock=harness.clock.now)
    async with app.run_test(size=(80, 24)) as pilot:
        await lobby(pilot)
        await pilot.press("p")
        await until(pilot, lambda: isinstance(app.screen, PlayNowScreen), "the play now form")
        for selector in ("#play-game", "#play-seats", "#play-hint", "#play"):
            assert_inside(app, selector, 80, 24)
        assert shown_keys(app) >= {"Cancel", "Play"}
        await pilot.press("escape")  # the form's Escape: back to the lobby, nothing queued
        await lobby(pilot)
        assert app.client.session is None

        search = await play_now(pilot, "soker", seats=2)
        for selector in ("#search-title", "#search-wait", "#search-note", "#search-status"):
            assert_inside(app, selector, 80, 24)
        assert "Cancel search" in shown_keys(app) and "Follow again" not in shown_keys(app), "only once it broke off"
        [bo] = await Queue(harness).players(1, prefix="Bo")
        await Queue(harness).enqueue(bo, counts=[2])
        await harness.matchmaker.tick()
        await until(pilot, lambda: search.ticket.status == PROPOSED and search.taking_up != "", "the table found")
        for selector in ("#search-wait", "#search-table", "#search-status"):
            assert_inside(app, selector, 80, 24)
        assert app.client.session is not None
        ana = as_session(app.client.session)
    # Quitting with a search open ends its ticket: nobody would be there to play the seat.
    assert (await Queue(harness).get(ana, search.ticket.ticket_id)).status == CANCELLED


async def test_the_clients_ticket_stream_refreshes_an_expired_access_token_and_ends_with_the_ticket(
    served: Served,
) -> None:
    harness = served.harness
    client = KickoffClient(target(harness), clock=lambda: 0.0)  # far behind: only the server's token_expired refreshes
    try:
        await client.sign_in_as_guest("Ana")
        ticket = await client.enqueue("soker", seat_counts=[2])
        with pytest.raises(CallFailed) as early:
            await client.accept_match(ticket.ticket_id)
        assert (early.value.refusal.code, early.value.refusal.reason) == ("FAILED_PRECONDITION", "not_proposed")
        with pytest.raises(CallFailed):
            await client.matched_seat(ticket)
        harness.clock.advance(15 * 60 + 1)  # the access token expires (the ticket searches on: nothing turned)
        heard: list[match_pb2.Ticket] = []
        async for seen in client.follow_ticket(ticket.ticket_id):
            heard.append(seen)
            if len(heard) == 1:
                assert (await client.cancel_ticket(ticket.ticket_id)).status == CANCELLED
        assert [t.status for t in heard] == [SEARCHING, CANCELLED], "the stream ends with the ticket"
        assert client.refreshes == 1
    finally:
        await client.close()
