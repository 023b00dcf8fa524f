"""Helpers for the terminal client's tests: the app against an in-process server (the ``start`` fixture of
tests/servers.py; ``served``: one with players, on SQLite), waiting through the pilot, reading what the screen shows,
and playing with keys."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import DataTable, Log, OptionList, Static

from kickoff.v1 import player_pb2, room_pb2
from service.store.database import create_engine, upgrade_in_thread
from service.store.journal import SqlJournal
from terminal.app import CreateRoomScreen, KickoffApp, LobbyScreen, MyGamesScreen, PagedScreen, TableScreen
from terminal.client import KickoffClient, LeaderboardPage, PlayerSession
from tests.players.conftest import Served
from tests.server.conftest import Harness
from tests.servers import Start

SIZE = (100, 32)
PAUSES = 1000  # how many pilot pauses a wait may take before it fails (each at least one tick of the event loop)


async def rooms(harness: Harness, room_id: str = "") -> list[room_pb2.Room]:
    """The server's rooms (or the one room) as RoomService reports them, read through the client's own module, so the
    tests too read every RPC response in one place."""
    client = KickoffClient(f"127.0.0.1:{harness.server.port}")
    try:
        return [await client.get_room(room_id)] if room_id else await client.list_rooms()
    finally:
        await client.close()


@pytest.fixture
async def served(start: Start, tmp_path: Path) -> AsyncIterator[Served]:
    """A server with players (sign-in, sessions, ratings; a leaderboard needs one rated game) on a SQLite file."""
    url = f"sqlite+aiosqlite:///{tmp_path}/kickoff.db"
    await upgrade_in_thread(url)
    yield Served(await start(journal=SqlJournal(create_engine(url))))  # (the server stops, and closes the journal)


def target(harness: Harness) -> str:
    return f"127.0.0.1:{harness.server.port}"


async def player(harness: Harness, player_id: str) -> player_pb2.Player:
    """A player as GetPlayer reports them, read through the client's module."""
    client = KickoffClient(target(harness))
    try:
        return await client.get_player(player_id)
    finally:
        await client.close()


async def leaderboard(harness: Harness, game: str) -> LeaderboardPage:
    """A game's leaderboard (one page) as GetLeaderboard reports it, read through the client's module."""
    client = KickoffClient(target(harness))
    try:
        return await client.leaderboard(game)
    finally:
        await client.close()


def as_session(session: PlayerSession) -> player_pb2.Session:
    """The app's session as the players' harness (tests/players) takes one."""
    return player_pb2.Session(access_token=session.access_token, player=session.player)


async def sign_in(pilot: Pilot) -> PlayerSession:
    """Sign in as a guest from the lobby with its key (the lobby's name)."""
    app = pilot.app
    await lobby(pilot)
    await pilot.press("s")
    await until(pilot, lambda: app.client.session is not None, "the sign-in")
    assert app.client.session is not None
    return app.client.session


async def paged(pilot: Pilot, screen: PagedScreen, loads: int = 1) -> None:
    """Wait until a paged screen has loaded ``loads`` pages in all."""
    await until(pilot, lambda: pilot.app.screen is screen and screen.loads >= loads, f"page load {loads}")


async def my_games(pilot: Pilot) -> MyGamesScreen:
    """Open My games from the lobby with its key and wait for the first page."""
    await lobby(pilot)
    await pilot.press("m")
    await until(pilot, lambda: isinstance(pilot.app.screen, MyGamesScreen), "My games")
    screen = pilot.app.screen
    assert isinstance(screen, MyGamesScreen)
    await paged(pilot, screen)
    return screen


def cells(table: DataTable) -> list[list[str]]:
    """A table's rows as the text of their cells."""
    return [[str(cell) for cell in table.get_row_at(row)] for row in range(table.row_count)]


async def until(pilot: Pilot, condition: Callable[[], bool], what: str) -> None:
    """Let the app run (through the pilot) until ``condition`` holds."""
    for _ in range(PAUSES):
        if condition():
            return
        await pilot.pause()
    raise AssertionError(f"waited in vain for {what}; the screen shows:\n{visible_text(pilot.app)}")


def visible_text(app: KickoffApp) -> str:
    """What the current screen shows in its panels, lists and logs (not its frame: header, footer, borders)."""
    screen = app.screen
    parts = [str(widget.content) for widget in screen.query(Static) if widget.display]
    for options in screen.query(OptionList):
        if options.display:
            parts.extend(str(option.prompt) for option in options.options)
    for log in screen.query(Log):
        parts.extend(log.lines)
    return "\n".join(parts)


def shown(app: KickoffApp, selector: str) -> str:
    return str(app.screen.query_one(selector, Static).content)


def table(app: KickoffApp) -> TableScreen:
    screen = app.screen
    assert isinstance(screen, TableScreen), f"not at a table: {screen}"
    return screen


async def lobby(pilot: Pilot) -> LobbyScreen:
    """Wait for the lobby to list the server's games."""
    app = pilot.app
    await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and bool(app.screen.games), "the lobby")
    assert isinstance(app.screen, LobbyScreen)
    return app.screen


async def at_table(pilot: Pilot, *, turn: bool = True) -> TableScreen:
    """Wait until a table is open and settled; with ``turn``, until the seat's moves are offered (or the game is
    over)."""
    app = pilot.app
    await until(pilot, lambda: isinstance(app.screen, TableScreen) and app.screen.settled, "the table")
    screen = table(app)
    if turn:
        await my_turn(pilot, screen)
    return screen


async def my_turn(pilot: Pilot, screen: TableScreen) -> None:
    """Wait until the table is settled with the seat's moves offered (or the game over)."""
    await until(pilot, lambda: screen.settled and (bool(screen.legal) or screen.finished), "the seat's turn")


async def choose(pilot: Pilot, options: OptionList, index: int) -> None:
    """Pick an option of a focused list with the keys a person would press."""
    assert options.has_focus, "the list must have the focus"
    current = options.highlighted or 0
    key = "down" if index >= current else "up"
    await pilot.press(*[key] * abs(index - current), "enter")


async def play_move(pilot: Pilot, rng: random.Random) -> str:
    """Choose one of the offered moves with the keys (a play when there is one, half the time) and wait until the
    table has answered; returns the move's label."""
    screen = table(pilot.app)
    options = screen.query_one("#moves", OptionList)
    labels = [str(option.prompt) for option in options.options]
    assert labels, "no moves offered"
    plays = [i for i, label in enumerate(labels) if label.startswith("play")]
    index = rng.choice(plays[:4]) if plays and rng.random() < 0.5 else rng.randrange(min(len(labels), 4))
    version = screen.version
    await choose(pilot, options, index)
    await until(pilot, lambda: screen.version > version or bool(screen.refusal_text), f"an answer to {labels[index]}")
    await my_turn(pilot, screen)
    assert not screen.refusal_text, screen.refusal_text
    return labels[index]


async def play_to_end(pilot: Pilot, seed: int, limit: int = 400) -> int:
    """Play the seat's moves with the keys until the game ends; returns how many moves it took."""
    rng = random.Random(seed)
    screen = table(pilot.app)
    for played in range(limit):
        if screen.finished:
            return played
        await play_move(pilot, rng)
    raise AssertionError(f"the game did not end in {limit} moves")


async def create_room(
    pilot: Pilot,
    game: str,
    *,
    seats: int,
    online: bool = False,
    options: str = "",
    system: int | None = None,
    unlisted: bool = False,
    chat: int = 0,
) -> None:
    """Create a room from the lobby with the keys: the game from the lobby's list, then the form (``unlisted``: an
    online room in nobody's lobby; ``chat``: the chat field's choice, 0 on, 1 quick reactions only, 2 off)."""
    screen = await lobby(pilot)
    names = [info.name for info in screen.games]
    await pilot.press("g")
    await choose(pilot, screen.query_one("#games", OptionList), names.index(game))
    await until(pilot, lambda: isinstance(pilot.app.screen, CreateRoomScreen), "the form")
    form = pilot.app.screen
    assert isinstance(form, CreateRoomScreen) and form.game == game
    counts = list(form.games[game].seat_counts)
    await pilot.press("tab", "enter")  # the seats list
    await pilot.pause()
    await pilot.press(*["down"] * counts.index(seats), "enter", "tab")
    if online or unlisted:
        await pilot.press("enter", "down", *["down"] * unlisted, "enter")
    await pilot.press("tab")  # system players: the form fills in seats - 1 (solo) or 0 (online)
    if system is not None:
        await pilot.press("ctrl+a", "backspace", *str(system))
    await pilot.press("tab", *options)
    if chat:
        await pilot.press("tab", "tab", "enter", *["down"] * chat, "enter")  # (past their level, to the chat field)
    await pilot.pause()
    await pilot.press("ctrl+s")
