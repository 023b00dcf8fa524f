"""`kickoff client`: a full-screen terminal client of a kickoff server (Textual), keyboard-driven, fit for 80x24.

The lobby (the games, the rooms, creating, joining or watching a room, signing in as a guest, "Play now": a game's
matchmaking queue, and the search until a table is found) and the table (a room followed through the seat's play
stream, or a spectator's event stream); for a signed-in player, "My games" (their rooms, their turn first: choosing one
takes their seat up again) and each game's leaderboard. Every call goes through
:mod:`terminal.client`; how each game's table looks is :mod:`terminal.tables`. Like any third party's client, it
imports nothing from the engine or the server.

Each of those rooms is a module of :mod:`terminal.screens`; this one holds the app: the style of every screen, where
the client starts (the lobby, or a room at once), and what reaches the lobby from elsewhere (the server ending the
session, a search that ended). The screens' names stay importable from here.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterable
from typing import Any

from textual.app import App
from textual.screen import Screen

from kickoff.v1 import move_pb2
from terminal.client import CallFailed, KickoffClient, Refusal
from terminal.replay import ReplayScreen
from terminal.screens.forms import CreateRoomScreen, GameForm, PlayNowScreen, parse_options
from terminal.screens.lobby import LobbyScreen
from terminal.screens.players import LeaderboardScreen, MyGamesScreen, PagedScreen
from terminal.screens.search import SearchScreen
from terminal.screens.shared import open_replay, rating_text, seat_counts, session_ended_text
from terminal.screens.table import TableScreen

__all__ = [  # (the screens, and what the tests read of them, by their old address)
    "CreateRoomScreen",
    "GameForm",
    "KickoffApp",
    "LeaderboardScreen",
    "LobbyScreen",
    "MyGamesScreen",
    "PagedScreen",
    "PlayNowScreen",
    "ReplayApp",
    "SearchScreen",
    "TableScreen",
    "open_replay",
    "parse_options",
    "rating_text",
    "run",
    "run_replay",
    "seat_counts",
]


# -- the app -----------------------------------------------------------------------------------------------------------


class KickoffApp(App[None]):
    """The terminal client: starts in the lobby; with a room id, joins that room (or watches it) at once."""

    TITLE = "kickoff"
    CSS = """
    .heading { color: $accent; text-style: bold; }
    #lobby-side { width: 26; }
    #lobby-side Input { height: 1; border: none; padding: 0 1; margin-bottom: 1; background: $boost; }
    #lobby-side Input:focus { background: $primary 40%; }
    #games { height: auto; max-height: 7; border: none; }
    #rooms { height: 1fr; scrollbar-size-vertical: 1; }
    #inbox-line { height: auto; color: $accent; padding: 0 1; }
    #friend-code { height: auto; padding: 0 1; text-style: bold; }
    #friend-code-input { height: 1; border: none; padding: 0 1; background: $boost; }
    #room-line { height: 1; color: $text-muted; text-wrap: nowrap; text-overflow: ellipsis; }
    #lobby-status { height: 2; color: $text-muted; padding: 0 1; }
    #dialog { width: 70; height: auto; max-height: 100%; border: thick $accent; background: $surface; padding: 0 1; }
    #dialog-title { text-style: bold; }
    .field { height: auto; }
    .field { margin-bottom: 1; }
    .field Label { width: 16; }
    .field Select, .field Input { width: 1fr; }
    .field SelectCurrent { border: none; height: 1; padding: 0 1; background: $boost; }
    .field Select:focus > SelectCurrent { background: $primary 40%; }
    .field Input { border: none; height: 1; padding: 0 1; background: $boost; }
    .field Input:focus { background: $primary 40%; }
    #create-hint, #play-hint { color: $text-muted; height: auto; max-height: 4; }
    .invite-note, #link-hint { color: $text-muted; height: auto; margin-bottom: 1; }
    #invite-link { height: auto; margin-bottom: 1; }
    #invite-friends { height: auto; max-height: 6; border: none; }
    #invite-status { height: auto; }
    #link-input { height: 1; border: none; padding: 0 1; margin-bottom: 1; background: $boost; }
    #presence-line { height: auto; padding: 0 1; }
    #dialog-buttons { height: auto; align-horizontal: right; }
    #table { height: 2fr; }
    #board { width: 1fr; }
    #seats, #state, #hand, #deal { border: round $primary; height: auto; padding: 0 1; }
    #table-side { width: 30; }
    #board { scrollbar-size-vertical: 1; }
    #moves { height: 1fr; border: round $accent; }
    #outcome { height: auto; border: double $success; padding: 0 1; }
    #rematch { height: auto; border: round $accent; padding: 0 1; }
    #turn { height: 1; padding: 0 1; text-style: bold; }
    #notice { height: auto; max-height: 2; padding: 0 1; }
    #notice.refusal { color: $error; }
    #lower { height: 1fr; min-height: 5; }
    #feed { height: 1fr; width: 1fr; border: round $primary; }
    #chat-side { width: 1fr; }
    #chat { height: 1fr; border: round $accent; }
    #chat-input { height: 1; border: none; padding: 0 1; background: $boost; }
    #chat-input:focus { background: $primary 40%; }
    #chat-line { height: auto; max-height: 2; padding: 0 1; color: $text-muted; }
    #search { padding: 1 2; height: 1fr; }
    #search Static { height: auto; margin-bottom: 1; }
    #search-note, #search-status { color: $text-muted; }
    #replay { height: 1fr; }
    #replay-board { width: 1fr; }
    #replay-seats, #replay-state, #replay-hands, #replay-deal { border: round $primary; height: auto; padding: 0 1; }
    #replay-feed { width: 1fr; border: round $primary; }
    #replay-jump { height: 1; border: none; padding: 0 1; background: $boost; }
    #replay-position { height: 1; padding: 0 1; text-style: bold; }
    """

    def __init__(
        self,
        target: str = "127.0.0.1:50051",
        *,
        name: str = "",
        room: str | None = None,
        watch: bool = False,
        api_key: str = "",
        timeout: float = 10.0,
        monotonic: Callable[[], float] = time.monotonic,
        clock: Callable[[], float] = time.time,
        page_size: int = 20,
    ) -> None:
        """``monotonic``: the local clock the turn clocks count down by (tests pass one they move by hand); ``clock``:
        the wall clock a signed-in player's access token is refreshed by; ``page_size``: the lines of a page of My
        games and of a leaderboard."""
        super().__init__()
        self.monotonic = monotonic
        self.clock = clock
        self.page_size = page_size
        self.target = target
        self.player_name = name
        self.start_room = room
        self.start_watching = watch
        self.api_key = api_key
        self.timeout = timeout
        self.client: KickoffClient
        self.searching: set[str] = set()  # the tickets of the searches open (cancelled when the app ends)

    async def on_mount(self) -> None:
        self.client = KickoffClient(
            self.target,
            api_key=self.api_key,
            timeout=self.timeout,
            clock=self.clock,
            on_session_ended=self._session_ended,
        )
        lobby = LobbyScreen()
        await self.push_screen(lobby)
        if self.start_room:
            if self.start_watching:
                await self.push_screen(TableScreen(self.start_room, None))
            else:
                lobby.run_worker(lobby.join(self.start_room), group="lobby", exclusive=True)

    def _session_ended(self, refusal: Refusal) -> None:
        """The server ended the player's session (the client has forgotten it): say so, wherever the user is."""
        text = session_ended_text(refusal)
        for screen in self.screen_stack:
            if isinstance(screen, LobbyScreen):
                screen.session_changed(text)
        if not isinstance(self.screen, LobbyScreen):
            self.notify(text, severity="warning", timeout=10)

    def tell_lobby(self, text: str) -> None:
        """Leave word in the lobby (a search that ended sends the user back there): said now, and again once it has
        listed the rooms afresh."""
        for screen in self.screen_stack:
            if isinstance(screen, LobbyScreen):
                screen.tell(text)

    async def on_unmount(self) -> None:
        for screen in _tables(self.screen_stack):
            if screen.stream is not None:
                await screen.stream.close()
        for ticket_id in list(self.searching):  # a search left open ends with the client: nobody would play the seat
            with contextlib.suppress(CallFailed):
                await self.client.cancel_ticket(ticket_id)
        await self.client.close()


def _tables(screens: Iterable[Screen[Any]]) -> list[TableScreen]:
    return [screen for screen in screens if isinstance(screen, TableScreen)]


class ReplayApp(App[None]):
    """A replay file, full screen, without a server: the client's replay screen alone (Escape quits)."""

    TITLE = "kickoff replay"
    CSS = KickoffApp.CSS

    def __init__(self, replay: move_pb2.GetReplayResponse) -> None:
        super().__init__()
        self.replay = replay

    async def on_mount(self) -> None:
        await self.push_screen(ReplayScreen(self.replay), callback=lambda _: self.exit())


def run_replay(replay: move_pb2.GetReplayResponse) -> int:
    """Step through a replay full screen until the user leaves it."""
    ReplayApp(replay).run()
    return 0


def run(target: str, *, name: str = "", room: str | None = None, watch: bool = False, api_key: str = "") -> int:
    """Run the client full screen until the user quits."""
    KickoffApp(target, name=name, room=room, watch=watch, api_key=api_key).run()
    return 0
