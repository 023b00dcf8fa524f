"""`kickoff client`: a full-screen terminal client of a kickoff server (Textual), keyboard-driven, fit for 80x24.

The lobby (the games, the rooms, creating, joining or watching a room, signing in as a guest, "Play now": a game's
matchmaking queue, and the search until a table is found) and the table (a room followed through the seat's play
stream, or a spectator's event stream); for a signed-in player, "My games" (their rooms, their turn first: choosing one
takes their seat up again) and each game's leaderboard. Every call goes through
:mod:`terminal.client`; how each game's table looks is :mod:`terminal.tables`. Like any third party's client, it
imports nothing from the engine or the server.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterable
from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.timer import Timer
from textual.widgets import (
    Button,
    DataTable,
    Footer,
    Header,
    Input,
    Label,
    Log,
    OptionList,
    Select,
    Static,
)

from kickoff.v1 import common_pb2, game_pb2, match_pb2, move_pb2, player_pb2, room_pb2
from terminal.client import (
    CallFailed,
    KickoffClient,
    PlayItem,
    Refusal,
    RoomStream,
    SessionEnded,
    Ticket,
    ViewSnapshot,
    new_request_id,
)
from terminal.replay import ReplayScreen
from terminal.tables import SeatBook, move_label, outcome_lines, room_event_text, view_parts

STATUS_TEXT = {
    common_pb2.ROOM_STATUS_WAITING: "waiting",
    common_pb2.ROOM_STATUS_PLAYING: "playing",
    common_pb2.ROOM_STATUS_FINISHED: "finished",
}
MODE_TEXT = {common_pb2.ROOM_MODE_ONLINE: "online", common_pb2.ROOM_MODE_SOLO: "solo"}
# The lobby's rooms table: each column's width but the players', which takes what is left of the table (at least
# PLAYERS_WIDTH), so that the table fits an 80-column terminal; a highlighted room's line below says the rest.
ROOM_COLUMNS = (("Room", 8), ("Game", 13), ("Status", 8), ("Seats", 5))
PLAYERS_WIDTH = 8


def parse_options(text: str) -> dict[str, Any]:
    """Game options typed as ``name=value`` pairs (spaces or commas between): numbers, true/false, or text."""
    options: dict[str, Any] = {}
    for pair in text.replace(",", " ").split():
        name, sep, raw = pair.partition("=")
        if not sep or not name or not raw:
            raise ValueError(f"write options as name=value, not {pair!r}")
        value: Any = raw
        if raw.lower() in ("true", "false"):
            value = raw.lower() == "true"
        else:
            for kind in (int, float):
                try:
                    value = kind(raw)
                    break
                except ValueError:
                    continue
        options[name] = value
    return options


def seat_counts(counts: Iterable[int]) -> str:
    """A game's table sizes in short: "2-7", or "2/4/6" when some are missing."""
    counts = sorted(counts)
    if counts and counts == list(range(counts[0], counts[-1] + 1)) and len(counts) > 2:
        return f"{counts[0]}-{counts[-1]} seats"
    return "/".join(map(str, counts)) + " seats"


def seat_summary(room: room_pb2.Room) -> str:
    taken = sum(1 for seat in room.seats if seat.taken)
    return f"{taken}/{len(room.seats)}"


def seat_names(room: room_pb2.Room) -> str:
    return ", ".join(seat.name for seat in room.seats if seat.taken and seat.name)


def plural(count: int, thing: str) -> str:
    return f"{count} {thing}{'s' if count != 1 else ''}"


def rating_text(rating: player_pb2.Rating) -> str:
    """A rating as shown: its display figure (mu - 3 sigma), one decimal."""
    return f"{rating.display:.1f}"


def refused(failed: CallFailed) -> str:
    """A refusal in a status line; a session the server ended says so."""
    if isinstance(failed, SessionEnded):
        return session_ended_text(failed.refusal)
    return f"Refused: {failed.refusal}"


def session_ended_text(refusal: Refusal) -> str:
    return f"Signed out: the server ended the session ({refusal.reason or refusal.code}). s: sign in again."


# -- the lobby ---------------------------------------------------------------------------------------------------------


class GameForm(ModalScreen[dict[str, Any] | None]):
    """A form about one of the server's games (the lobby's highlighted one first): the room form, Play now."""

    def __init__(self, games: list[game_pb2.GameInfo], game: str) -> None:
        super().__init__()
        self.games = {info.name: info for info in games}
        self.game = game if game in self.games else next(iter(self.games), "")

    def game_field(self, widget_id: str) -> ComposeResult:
        with Horizontal(classes="field"):
            yield Label("Game")
            yield Select(
                [(info.title or name, name) for name, info in self.games.items()],
                value=self.game,
                allow_blank=False,
                id=widget_id,
            )


class CreateRoomScreen(GameForm):
    """The form for a new room: the game, its seats (from the game's seat counts), solo or online, how many system
    players, and options over the game's defaults. Answers the request's fields, or None."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel"),
        Binding("ctrl+s", "create", "Create"),
    ]

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Label("Create a room", id="dialog-title")
            yield from self.game_field("create-game")
            with Horizontal(classes="field"):
                yield Label("Seats")
                yield Select(self._seat_options(), allow_blank=False, id="create-seats")
            with Horizontal(classes="field"):
                yield Label("Mode")
                yield Select(
                    [("Solo (you and system players)", "solo"), ("Online (people, with the clock)", "online")],
                    value="solo",
                    allow_blank=False,
                    id="create-mode",
                )
            with Horizontal(classes="field"):
                yield Label("System players")
                yield Input(self._default_system(), type="integer", id="create-system")
            with Horizontal(classes="field"):
                yield Label("Options")
                yield Input(placeholder="e.g. max_rounds=2 turn_seconds=30", id="create-options")
            with Horizontal(classes="field"):
                yield Label("Their level")
                yield Select(self._level_options(), value="normal", allow_blank=False, id="create-level")
            yield Static(self._hint(), id="create-hint")
            with Horizontal(id="dialog-buttons"):
                yield Button("Create", variant="primary", id="create")
                yield Button("Cancel", id="cancel")
        yield Footer()

    def _seat_options(self) -> list[tuple[str, int]]:
        info = self.games.get(self.game)
        counts = list(info.seat_counts) if info else [2]
        return [(f"{count} seats", count) for count in counts]

    def _level_options(self) -> list[tuple[str, str]]:
        info = self.games.get(self.game)
        levels = list(info.levels) if info and info.levels else ["normal"]
        return [(f"{level} (searches)" if level == "hard" else level, level) for level in levels]

    def _level(self) -> str:
        value = self.query_one("#create-level", Select).value
        return value if isinstance(value, str) else "normal"

    def _seats(self) -> int:
        try:
            value = self.query_one("#create-seats", Select).value
        except Exception:  # not composed yet
            value = Select.NULL
        if isinstance(value, int):
            return value
        return self._seat_options()[0][1]

    def _solo(self) -> bool:
        try:
            return self.query_one("#create-mode", Select).value != "online"
        except Exception:
            return True

    def _default_system(self) -> str:
        return str(self._seats() - 1) if self._solo() else "0"

    def _hint(self, error: str = "") -> str:
        info = self.games.get(self.game)
        text = info.summary if info else ""
        if info and info.seat_choice:
            text += f" Choose {info.seat_choice.split(':')[0]} in the lobby's choice field."
        return f"{error}\n{text}".strip() if error else text

    @on(Select.Changed, "#create-game")
    def _game_changed(self, event: Select.Changed) -> None:
        if isinstance(event.value, str) and event.value != self.game:
            self.game = event.value
            seats = self.query_one("#create-seats", Select)
            seats.set_options(self._seat_options())
            self.query_one("#create-hint", Static).update(self._hint())
            self.query_one("#create-system", Input).value = self._default_system()

    @on(Select.Changed, "#create-seats")
    @on(Select.Changed, "#create-mode")
    def _seats_changed(self) -> None:
        self.query_one("#create-system", Input).value = self._default_system()

    @on(Button.Pressed, "#create")
    @on(Input.Submitted)
    def action_create(self) -> None:
        try:
            system = int(self.query_one("#create-system", Input).value or "0")
            options = parse_options(self.query_one("#create-options", Input).value)
        except ValueError as error:
            self.query_one("#create-hint", Static).update(self._hint(str(error)))
            return
        self.dismiss(
            {
                "game": self.game,
                "seats": self._seats(),
                "solo": self._solo(),
                "system_players": system,
                "system_player": self._level(),
                "options": options,
            }
        )

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)


class PlayNowScreen(GameForm):
    """Play now: the game whose queue to join (the lobby's highlighted one first, as the room form does) and the table
    size, any or one. Answers ``{"game", "seat_counts"}`` (an empty list: any size), or None."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel"),
        Binding("ctrl+s", "play", "Play"),
    ]

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Label("Play now: a table found for you", id="dialog-title")
            yield from self.game_field("play-game")
            with Horizontal(classes="field"):
                yield Label("Table")
                yield Select(self._size_options(), allow_blank=False, id="play-seats")
            yield Static(self._hint(), id="play-hint")
            with Horizontal(id="dialog-buttons"):
                yield Button("Play", variant="primary", id="play")
                yield Button("Cancel", id="cancel")
        yield Footer()

    def _size_options(self) -> list[tuple[str, int]]:
        info = self.games.get(self.game)
        counts = list(info.seat_counts) if info else []
        return [(f"any size ({seat_counts(counts)})", 0)] + [(f"{count} seats", count) for count in counts]

    def _hint(self) -> str:
        return (
            "You join the game's queue as a player (signed in as a guest if you are not): people of a similar "
            "rating share a table, and after a wait system players take the seats nobody did. Ctrl+S: play."
        )

    @on(Select.Changed, "#play-game")
    def _game_changed(self, event: Select.Changed) -> None:
        if isinstance(event.value, str) and event.value != self.game:
            self.game = event.value
            self.query_one("#play-seats", Select).set_options(self._size_options())

    def sizes(self) -> list[int]:
        """The table sizes asked for: one, or none (any size the game takes)."""
        value = self.query_one("#play-seats", Select).value
        return [value] if isinstance(value, int) and value > 0 else []

    @on(Button.Pressed, "#play")
    def action_play(self) -> None:
        self.dismiss({"game": self.game, "seat_counts": self.sizes()})

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)


class LobbyScreen(Screen[None]):
    """The games the server hosts, its rooms (waiting ones first), and what to do with them."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("c", "create", "Create"),
        Binding("j", "join", "Join"),
        Binding("w", "watch", "Watch"),
        Binding("p", "play_now", "Play now"),
        Binding("v", "replay", "Replay", show=False),
        # (the panels' headings name these keys, so that the footer has room for the players' keys at 80 columns)
        Binding("r", "refresh", "Refresh", show=False),
        Binding("g", "focus('#games')", "Games", show=False),
        Binding("n", "focus('#name')", "Name", show=False),
        Binding("i", "focus('#room-id')", "Room id", show=False),
        Binding("s", "sign_in", "Sign in"),
        Binding("o", "sign_out", "Sign out"),
        Binding("m", "my_games", "My games"),
        Binding("l", "leaderboard", "Leaderboard"),
        Binding("escape", "focus('#rooms')", "Rooms", show=False),
        Binding("q", "app.quit", "Quit"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.games: list[game_pb2.GameInfo] = []
        self.rooms: dict[str, room_pb2.Room] = {}
        self.told = ""  # word left by a screen that came back to the lobby, shown after the next listing

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "sign_in":
            return not self.client.signed_in
        if action in ("sign_out", "my_games"):
            return self.client.signed_in
        return True

    @property
    def client(self) -> KickoffClient:
        return self.app.client  # type: ignore[attr-defined]

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="lobby"):
            with Vertical(id="lobby-side"):
                yield Label("Games (g)", classes="heading")
                yield OptionList(id="games")
                yield Label("Your name (n)", classes="heading")
                yield Input(self.app.player_name, placeholder="shown at the table", id="name")  # type: ignore[attr-defined]
                yield Label("Choice (e.g. a team code)", classes="heading")
                yield Input(placeholder="if the game offers one", id="choice")
                yield Label("Room id (i): Enter joins", classes="heading")
                yield Input(placeholder="a room's id", id="room-id")
            with Vertical(id="lobby-main"):
                yield Label("Rooms (waiting first; r: refresh, v: replay)", classes="heading")
                yield DataTable(id="rooms", cursor_type="row", zebra_stripes=True)
                yield Static("", id="room-line")
        yield Static("", id="lobby-status")
        yield Footer(compact=True, show_command_palette=False)  # (so that every key of the lobby fits 80 columns)

    def on_mount(self) -> None:
        self.sub_title = self._subtitle()
        self.query_one("#rooms", DataTable).focus()

    def _columns(self, table: DataTable[Any]) -> None:
        """The rooms table's columns, the players' as wide as the table leaves (a cell's padding is one each side)."""
        players = table.scrollable_content_region.width - sum(width + 2 for _, width in ROOM_COLUMNS) - 2
        table.clear(columns=True)
        for label, width in ROOM_COLUMNS:
            table.add_column(label, width=width)
        table.add_column("Players", width=max(players, PLAYERS_WIDTH))

    def on_resize(self) -> None:
        if self.rooms:
            self._show_rooms()

    def on_screen_resume(self) -> None:
        """Shown (first, or back from a table): list the games and rooms afresh."""
        self.action_refresh()

    def say(self, text: str) -> None:
        self.query_one("#lobby-status", Static).update(Text(text))

    def tell(self, text: str) -> None:
        """Say ``text`` now and again once the rooms are listed afresh (coming back to the lobby lists them, and the
        listing's own line would hide why the user is back)."""
        self.told = text
        self.say(text)

    def _subtitle(self) -> str:
        session = self.client.session
        signed = f" - signed in as {session.name}" if session is not None else ""
        return f"lobby - {self.client.target}{signed}"

    def session_changed(self, text: str) -> None:
        """Signed in or out: the subtitle, the keys offered, and a line saying so."""
        self.sub_title = self._subtitle()
        self.refresh_bindings()
        self.say(text)

    # -- the player's session -----------------------------------------------------------------------------------------

    def action_sign_in(self) -> None:
        if not self.client.signed_in:
            self.run_worker(self._sign_in(), group="session", exclusive=True)

    async def _sign_in(self) -> bool:
        """Sign in as a guest with the lobby's name; whether it worked (the status line says why not)."""
        try:
            session = await self.client.sign_in_as_guest(self.player_name())
        except CallFailed as failed:
            self.say(f"Cannot sign in: {failed.refusal}")
            return False
        self.query_one("#name", Input).value = session.name
        self.session_changed(
            f"Signed in as {session.name}, a guest player: the rooms you create or join are yours "
            "(p: play now, m: My games, l: leaderboards, o: sign out)."
        )
        return True

    def action_sign_out(self) -> None:
        if self.client.signed_in:
            self.run_worker(self._sign_out(), group="session", exclusive=True)

    async def _sign_out(self) -> None:
        try:
            await self.client.sign_out()
        except CallFailed as failed:
            self.session_changed(f"Signed out here; the server could not be told: {failed.refusal}")
            return
        self.session_changed("Signed out: you play anonymously again (s: sign in).")

    def action_my_games(self) -> None:
        if self.client.signed_in:
            self.app.push_screen(MyGamesScreen(self.app.page_size))  # type: ignore[attr-defined]

    def action_leaderboard(self) -> None:
        if not self.games:
            self.say("No games yet: is the server up? (r: refresh)")
            return
        self.app.push_screen(LeaderboardScreen(self.games, self.selected_game(), self.app.page_size))  # type: ignore[attr-defined]

    def action_refresh(self) -> None:
        self.run_worker(self._load(), group="refresh", exclusive=True)

    # -- play now: a game's matchmaking queue -------------------------------------------------------------------------

    def action_play_now(self) -> None:
        if not self.games:
            self.say("No games yet: is the server up? (r: refresh)")
            return
        self.app.push_screen(PlayNowScreen(self.games, self.selected_game()), self._play_chosen)

    def _play_chosen(self, request: dict[str, Any] | None) -> None:
        if request is not None:
            self.run_worker(self._play_now(request["game"], request["seat_counts"]), group="lobby", exclusive=True)

    async def _play_now(self, game: str, counts: list[int]) -> None:
        """Join the game's queue (signed in as a guest first: matchmaking seats players) and follow the ticket. A
        ticket of the player's already in that queue is followed instead."""
        if not self.client.signed_in and not await self._sign_in():
            return
        try:
            ticket = await self.client.enqueue(game, seat_counts=counts)
        except CallFailed as failed:
            ticket = await self._live_ticket(game) if failed.refusal.reason == "already_queued" else None
            if ticket is None:
                self.say(refused(failed))
                return
        title = next((info.title for info in self.games if info.name == game and info.title), game)
        self.app.push_screen(SearchScreen(ticket, title))

    async def _live_ticket(self, game: str) -> match_pb2.Ticket | None:
        """The player's live ticket in ``game``'s queue, if any."""
        try:
            tickets = await self.client.my_tickets()
        except CallFailed:
            return None
        return next((ticket for ticket in tickets if ticket.game == game), None)

    async def _load(self) -> None:
        try:
            if not self.games:
                self.games = await self.client.list_games()
                games = self.query_one("#games", OptionList)
                games.set_options(Text(f"{g.title}  {seat_counts(g.seat_counts)}") for g in self.games)
                if self.games:
                    games.highlighted = 0
            rooms = await self.client.list_rooms()
        except CallFailed as failed:
            self.say(f"Cannot reach the server: {failed.refusal}")
            return
        self.rooms = {room.room_id: room for room in rooms}
        self._show_rooms()
        if self.told:
            self.say(self.told)
            self.told = ""
        elif self.client.session_ended is not None:  # (until the next sign-in)
            self.say(session_ended_text(self.client.session_ended))
        else:
            self.say(
                f"{len(self.games)} games, {len(rooms)} rooms. c: create, j: join, w: watch the highlighted room; "
                "p: play now (a table found for you)."
            )

    def _show_rooms(self) -> None:
        table = self.query_one("#rooms", DataTable)
        self._columns(table)
        for room in self.rooms.values():
            table.add_row(
                room.room_id,
                self._game_title(room.game),
                STATUS_TEXT.get(room.status, "?"),
                seat_summary(room),
                Text(seat_names(room) or "-"),
                key=room.room_id,
            )

    def _game_title(self, name: str) -> str:
        return next((game.title for game in self.games if game.name == name), name)

    @on(DataTable.RowHighlighted, "#rooms")
    def _room_highlighted(self, event: DataTable.RowHighlighted) -> None:
        room = self.rooms.get(str(event.row_key.value))
        if room is not None:
            players = seat_names(room) or "no one seated yet"
            self.query_one("#room-line", Static).update(
                Text(
                    f"{room.room_id} {self._game_title(room.game)}, {MODE_TEXT.get(room.mode, '?')}, "
                    f"{STATUS_TEXT.get(room.status, '?')}: {players}"
                )
            )

    @on(OptionList.OptionHighlighted, "#games")
    def _game_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if 0 <= event.option_index < len(self.games):
            game = self.games[event.option_index]
            choice = f" Seat choice: {game.seat_choice}." if game.seat_choice else ""
            self.say(f"{game.title}: {game.summary}{choice}")

    @on(OptionList.OptionSelected, "#games")
    def _game_selected(self) -> None:
        self.action_create()

    def selected_game(self) -> str:
        index = self.query_one("#games", OptionList).highlighted
        return self.games[index].name if index is not None and 0 <= index < len(self.games) else ""

    def selected_room(self) -> str | None:
        table = self.query_one("#rooms", DataTable)
        if not table.row_count:
            return None
        row_key, _ = table.coordinate_to_cell_key((table.cursor_row, 0))
        return row_key.value

    def player_name(self) -> str:
        return self.query_one("#name", Input).value.strip()

    def choice(self) -> str:
        return self.query_one("#choice", Input).value.strip()

    def action_create(self) -> None:
        if not self.games:
            self.say("No games yet: is the server up? (r: refresh)")
            return
        self.app.push_screen(CreateRoomScreen(self.games, self.selected_game()), self._created)

    def _created(self, request: dict[str, Any] | None) -> None:
        if request is not None:
            self.run_worker(self._create_and_join(request), group="lobby", exclusive=True)

    async def _create_and_join(self, request: dict[str, Any]) -> None:
        try:
            created = await self.client.create_room(
                request["game"],
                seats=request["seats"],
                solo=request["solo"],
                system_players=request["system_players"],
                system_player=request.get("system_player", ""),
                options=request["options"],
                choice=self.choice(),  # (a signed-in player is seated by CreateRoom, with it)
            )
        except CallFailed as failed:
            self.say(refused(failed))
            return
        if created.ticket is not None:
            self.app.push_screen(TableScreen(created.room.room_id, created.ticket))
        else:
            await self.join(created.room.room_id)

    async def join(self, room_id: str) -> None:
        try:
            ticket = await self.client.join_room(room_id, name=self.player_name(), choice=self.choice())
        except CallFailed as failed:
            # A player holding a seat there already: take the seat up.
            if not self.client.signed_in or failed.refusal.reason != "already_seated":
                self.say(refused(failed))
                return
            try:
                ticket = await self.client.take_seat(room_id)
            except CallFailed as again:
                self.say(refused(again if again.refusal.reason != "no_seat" else failed))
                return
        self.app.push_screen(TableScreen(room_id, ticket))

    def action_join(self) -> None:
        room_id = self.selected_room()
        if room_id is None:
            self.say("No room to join: create one (c), or type a room's id (i).")
            return
        self.run_worker(self.join(room_id), group="lobby", exclusive=True)

    def action_watch(self) -> None:
        room_id = self.selected_room()
        if room_id is None:
            self.say("No room to watch.")
            return
        self.app.push_screen(TableScreen(room_id, None))

    def action_replay(self) -> None:
        room_id = self.selected_room()
        if room_id is None:
            self.say("No room to replay.")
            return
        self.run_worker(open_replay(self, room_id), group="lobby", exclusive=True)

    @on(Input.Submitted, "#room-id")
    def _join_by_id(self, event: Input.Submitted) -> None:
        room_id = event.value.strip()
        if room_id:
            self.run_worker(self.join(room_id), group="lobby", exclusive=True)

    @on(Input.Submitted, "#name, #choice")
    def _back_to_rooms(self) -> None:
        self.query_one("#rooms", DataTable).focus()


# -- play now: the search ----------------------------------------------------------------------------------------------

TICKET_PROPOSED = match_pb2.TICKET_STATUS_PROPOSED
TICKET_MATCHED = match_pb2.TICKET_STATUS_MATCHED
TICKET_ENDED = (match_pb2.TICKET_STATUS_CANCELLED, match_pb2.TICKET_STATUS_EXPIRED)
RATING_NOTE = (
    "People of a similar rating share a table, the oldest tickets first; the longer you wait, the wider the window "
    "of ratings taken, and after a wait system players take the seats nobody did."
)


def minutes(seconds: float) -> str:
    """A duration as m:ss."""
    whole = max(0, int(seconds))
    return f"{whole // 60}:{whole % 60:02d}"


class SearchScreen(Screen[None]):
    """Play now, once in the queue: the ticket followed (FollowTicket) until it ends. While it searches: the game,
    the wait so far, how the rating window works, and Escape cancels it (CancelTicket). A table found is taken up at
    once (AcceptMatch: the person asked to play) and the others are waited for; once everyone has, the table opens at
    the player's seat with its seat token, as joining a room opens it (Escape there goes back to the lobby). A ticket
    cancelled or expired goes back to the lobby, which says so."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel search"),
        Binding("r", "follow_again", "Follow again"),
    ]

    def __init__(self, ticket: match_pb2.Ticket, game_title: str) -> None:
        super().__init__()
        self.ticket = ticket
        self.game_title = game_title
        self.following = False  # the stream has sent the ticket
        self.stream_over = False
        self.taking_up = ""  # the room id of the table whose seat was taken up (once per table)
        self.cancelling = False
        self.ended = False  # on to the table, or back to the lobby
        self.expires = 0.0  # when the search ends, as the ticket said last while searching (the server's time)
        self._ticker: Timer | None = None
        self._heard(ticket)

    @property
    def client(self) -> KickoffClient:
        return self.app.client  # type: ignore[attr-defined]

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical(id="search"):
            yield Static("", id="search-title", classes="heading")
            yield Static("", id="search-wait")
            yield Static("", id="search-note")
            yield Static("", id="search-table")
            yield Static("", id="search-status")
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = f"play now - {self.game_title}"
        self.app.searching.add(self.ticket.ticket_id)  # type: ignore[attr-defined]
        self._draw()
        self.say("Escape: cancel the search.")
        self._ticker = self.set_interval(0.5, self._draw_wait)
        self.run_worker(self._follow(), group="ticket", exclusive=True)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "follow_again":  # shown only once the ticket's stream broke off
            return self.stream_over and not self.ended
        return True

    def say(self, text: str) -> None:
        self.query_one("#search-status", Static).update(Text(text))

    def _me(self) -> str:
        session = self.client.session
        return session.player_id if session is not None else ""

    # -- following the ticket -----------------------------------------------------------------------------------------

    async def _follow(self) -> None:
        """Read the ticket's stream until the ticket ends (or the stream breaks off: r follows it again)."""
        self.stream_over = False
        self.refresh_bindings()
        try:
            async with contextlib.aclosing(self.client.follow_ticket(self.ticket.ticket_id)) as tickets:
                async for ticket in tickets:
                    self.following = True
                    await self._apply(ticket)
                    if self.ended:
                        return
        except CallFailed as failed:
            if not self.ended and self.is_attached:
                self.say(f"The ticket's stream broke off: {refused(failed)}. r: follow it again, Escape: cancel it.")
        finally:
            self.stream_over = True
            self.refresh_bindings()

    def action_follow_again(self) -> None:
        if self.stream_over and not self.ended:
            self.say("Following the ticket again...")
            self.run_worker(self._follow(), group="ticket", exclusive=True)

    async def _apply(self, ticket: match_pb2.Ticket) -> None:
        """A ticket heard (on the stream, or in the answer to a take-up or a cancel): older news than the ticket
        shown changes nothing, and nothing does once the screen is gone (the app ending)."""
        if self.ended or not self.is_attached or ticket.version < self.ticket.version:
            return
        self._heard(ticket)
        if ticket.status == TICKET_MATCHED:
            await self._open_table(ticket)
        elif ticket.status in TICKET_ENDED:
            self._back(self._ended_text(ticket))
        else:
            if ticket.status == TICKET_PROPOSED:
                self._take_up(ticket)
            self._draw()

    def _heard(self, ticket: match_pb2.Ticket) -> None:
        self.ticket = ticket
        if ticket.HasField("expire_time"):  # (only while it searches)
            self.expires = _seconds(ticket.expire_time)

    def _take_up(self, ticket: match_pb2.Ticket) -> None:
        """Take the player's seat up at a table found, at once and once per table."""
        me = next((member for member in ticket.members if member.player_id == self._me()), None)
        if me is not None and not me.accepted and self.taking_up != ticket.table.room_id:
            self.taking_up = ticket.table.room_id
            self.run_worker(self._accept(ticket.ticket_id), group="take-up")

    async def _accept(self, ticket_id: str) -> None:
        try:
            ticket = await self.client.accept_match(ticket_id)
        except CallFailed as failed:  # (not_proposed: back in the queue meanwhile; the stream says so)
            self.say(f"Cannot take the seat up: {refused(failed)}")
            return
        await self._apply(ticket)

    async def _open_table(self, ticket: match_pb2.Ticket) -> None:
        """The room is made: the table at the player's seat, in this screen's place."""
        self.ended = True
        self._stop()
        try:
            seat = await self.client.matched_seat(ticket)
        except CallFailed as failed:
            self._back(
                f"A {self.game_title} table was found (room {ticket.table.room_id}) but cannot be opened: "
                f"{refused(failed)}. m: My games takes your seat up."
            )
            return
        self.app.switch_screen(TableScreen(seat.room.room_id, seat))

    def _ended_text(self, ticket: match_pb2.Ticket) -> str:
        if ticket.status == match_pb2.TICKET_STATUS_EXPIRED:
            searched = self.expires - _seconds(ticket.create_time) if self.expires else 0.0
            after = f" after {minutes(searched)}" if searched > 0 else ""
            return f"No {self.game_title} table was found in time: the search expired{after}. p: play now again."
        if self.cancelling:
            return f"Search cancelled: you left the {self.game_title} queue. p: play now again."
        return f"Your {self.game_title} ticket was cancelled (by another member, or another client). p: play now."

    def _back(self, text: str) -> None:
        """Back to the lobby, which says ``text``."""
        self.ended = True
        self._stop()
        for screen in self.app.screen_stack:
            if isinstance(screen, LobbyScreen):
                screen.tell(text)
        if self.app.screen is self:
            self.app.pop_screen()

    def _stop(self) -> None:
        """The search is over: no more redraws, and nothing to cancel when the app ends."""
        if self._ticker is not None:
            self._ticker.stop()
        self.app.searching.discard(self.ticket.ticket_id)  # type: ignore[attr-defined]

    # -- cancelling ---------------------------------------------------------------------------------------------------

    def action_cancel(self) -> None:
        if not self.ended and not self.cancelling:
            self.cancelling = True
            self.say("Cancelling the search...")
            self.run_worker(self._cancel(), group="cancel", exclusive=True)

    async def _cancel(self) -> None:
        ticket_id = self.ticket.ticket_id
        try:
            ticket = await self.client.cancel_ticket(ticket_id)
        except CallFailed as failed:
            self.cancelling = False
            self.say(f"Cannot cancel: {refused(failed)}")
            if failed.refusal.reason != "ticket_ended":
                return
            try:  # (it ended meanwhile, matched or expired: go where that leads)
                ticket = await self.client.get_ticket(ticket_id)
            except CallFailed:
                return
        await self._apply(ticket)

    # -- drawing ------------------------------------------------------------------------------------------------------

    def waited(self) -> float:
        """Seconds since the ticket joined the queue, by the app's wall clock."""
        return max(0.0, self.app.clock() - _seconds(self.ticket.create_time))  # type: ignore[attr-defined]

    def wait_text(self) -> str:
        ticket = self.ticket
        if ticket.status == TICKET_PROPOSED:
            people = [seat for seat in ticket.table.table_seats if seat.kind == common_pb2.SEAT_KIND_PERSON]
            seated = sum(1 for seat in people if seat.accepted)
            people_text = "person" if len(people) == 1 else "people"
            return (
                f"Table found, waiting for the others: {seated} of {len(people)} {people_text} seated "
                f"({minutes(self.waited())} since you joined the queue)."
            )
        text = f"Searching: {minutes(self.waited())} so far"
        if self.expires:
            left = self.expires - self.app.clock()  # type: ignore[attr-defined]
            text += f", {minutes(left)} left before the search ends"
        return text + "."

    def _draw_wait(self) -> None:
        self.query_one("#search-wait", Static).update(Text(self.wait_text()))

    def _draw(self) -> None:
        ticket = self.ticket
        sizes = seat_counts(ticket.seat_counts)
        self.query_one("#search-title", Static).update(Text(f"{self.game_title}, a table of {sizes}"))
        self._draw_wait()
        note = f"Your ticket's rating (mu, its members' mean): {ticket.rating:.1f}. {RATING_NOTE}"
        self.query_one("#search-note", Static).update(Text(note))
        lines = []
        if ticket.status == TICKET_PROPOSED:
            for seat in ticket.table.table_seats:
                if seat.kind == common_pb2.SEAT_KIND_SYSTEM:
                    lines.append(f"{seat.seat:>3} {seat.name} (system player)")
                elif seat.kind == common_pb2.SEAT_KIND_PERSON:
                    you = " (you)" if seat.player_id == self._me() else ""
                    taken = "seated" if seat.accepted else "not seated yet"
                    lines.append(f"{seat.seat:>3} {seat.name}{you}: {taken}")
                else:
                    lines.append(f"{seat.seat:>3} (a seat being filled again)")
        elif ticket.returned and ticket.reason == "not_taken_up":
            lines.append("Back in the queue: the seat at the table found was not taken up in time.")
        self.query_one("#search-table", Static).update(Text("\n".join(lines)))


# -- a player's games and the leaderboards -----------------------------------------------------------------------------


class PagedScreen(Screen[None]):
    """A screen of one list the server pages: the tokens of the pages seen (the last is this page's), and the next."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "app.pop_screen", "Lobby"),
        Binding("n", "next_page", "Next page"),
        Binding("p", "previous_page", "Previous page"),
        Binding("r", "refresh", "Refresh"),
    ]

    def __init__(self, page_size: int) -> None:
        super().__init__()
        self.page_size = page_size
        self.tokens = [""]
        self.next_token = ""
        self.loads = 0  # pages loaded (tests wait for the next)

    @property
    def client(self) -> KickoffClient:
        return self.app.client  # type: ignore[attr-defined]

    @property
    def page(self) -> int:
        """This page's number, from 1."""
        return len(self.tokens)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "next_page":
            return bool(self.next_token)
        if action == "previous_page":
            return len(self.tokens) > 1
        return True

    def on_screen_resume(self) -> None:
        """Shown (first, or back from a table): this page afresh."""
        self.action_refresh()

    def action_refresh(self) -> None:
        self.run_worker(self._loaded(), group="page", exclusive=True)

    def action_next_page(self) -> None:
        if self.next_token:
            self.tokens.append(self.next_token)
            self.action_refresh()

    def action_previous_page(self) -> None:
        if len(self.tokens) > 1:
            self.tokens.pop()
            self.action_refresh()

    async def _loaded(self) -> None:
        try:
            await self.load(self.tokens[-1])
        finally:
            self.loads += 1
            self.refresh_bindings()

    async def load(self, token: str) -> None:
        raise NotImplementedError

    def say(self, text: str) -> None:
        self.query_one(".page-status", Static).update(Text(text))


class MyGamesScreen(PagedScreen):
    """The signed-in player's rooms in the server's order (their turn first, then the live, the waiting and the
    finished ones), a page at a time; choosing one takes the player's seat up again (a fresh seat token)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("t", "take_seat", "Take seat")]

    def __init__(self, page_size: int) -> None:
        super().__init__(page_size)
        self.rooms: list[player_pb2.MyRoom] = []

    def compose(self) -> ComposeResult:
        yield Header()
        yield Label("My games (your turn first)", classes="heading")
        yield DataTable(id="my-rooms", cursor_type="row", zebra_stripes=True)
        yield Static("", id="my-status", classes="page-status")
        yield Footer()

    def on_mount(self) -> None:
        session = self.client.session
        self.sub_title = f"my games - {session.name if session else ''}"
        table = self.query_one("#my-rooms", DataTable)
        table.add_columns("Turn", "Room", "Game", "Mode", "Status", "Seat", "Players")
        table.focus()

    async def load(self, token: str) -> None:
        try:
            found = await self.client.list_my_rooms(page_size=self.page_size, page_token=token)
        except CallFailed as failed:
            self.say(refused(failed))
            return
        self.rooms, self.next_token = found.rooms, found.next_page_token
        table = self.query_one("#my-rooms", DataTable)
        table.clear()
        for mine in self.rooms:
            room = mine.room
            table.add_row(
                "your turn" if mine.my_turn else "",
                room.room_id,
                room.game,
                MODE_TEXT.get(room.mode, "?"),
                STATUS_TEXT.get(room.status, "?"),
                str(mine.seat),
                Text(seat_names(room)[:40]),
                key=room.room_id,
            )
        turns = sum(1 for mine in self.rooms if mine.my_turn)
        more = " n: next page." if self.next_token else ""
        if self.rooms:
            rooms = plural(len(self.rooms), "room")
            self.say(f"Page {self.page}: {rooms}, your turn in {turns}. Enter (t): take your seat.{more}")
        elif self.page > 1:
            self.say(f"Page {self.page}: no more rooms. p: the previous page.")
        else:
            self.say("No games yet: create a room or join one in the lobby.")

    def selected(self) -> str | None:
        table = self.query_one("#my-rooms", DataTable)
        if not table.row_count:
            return None
        row_key, _ = table.coordinate_to_cell_key((table.cursor_row, 0))
        return row_key.value

    @on(DataTable.RowSelected, "#my-rooms")
    def action_take_seat(self) -> None:
        room_id = self.selected()
        if room_id is not None:
            self.run_worker(self._take_seat(room_id), group="seat", exclusive=True)

    async def _take_seat(self, room_id: str) -> None:
        try:
            ticket = await self.client.take_seat(room_id)
        except CallFailed as failed:
            self.say(refused(failed))
            return
        self.app.push_screen(TableScreen(room_id, ticket, back="games"))


class LeaderboardScreen(PagedScreen):
    """A game's leaderboard, a page at a time: rank, name, rating (its display figure), rated games; and, for a
    signed-in player, their own place. g: the next game's."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("g", "next_game", "Next game")]

    def __init__(self, games: list[game_pb2.GameInfo], game: str, page_size: int) -> None:
        super().__init__(page_size)
        self.games = games
        names = [info.name for info in games]
        self.game = game if game in names else (names[0] if names else "")
        self.lines: list[player_pb2.LeaderboardLine] = []
        self.min_games = 0

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("", id="board-title", classes="heading")
        yield Static("", id="board-me")
        yield DataTable(id="board", cursor_type="row", zebra_stripes=True)
        yield Static("", id="board-status", classes="page-status")
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one("#board", DataTable)
        table.add_columns("Rank", "Player", "Rating", "Games", "Won")
        table.focus()

    def title_of(self, game: str) -> str:
        return next((info.title for info in self.games if info.name == game and info.title), game)

    def action_next_game(self) -> None:
        names = [info.name for info in self.games]
        if self.game in names and len(names) > 1:
            self.game = names[(names.index(self.game) + 1) % len(names)]
            self.tokens, self.next_token = [""], ""
            self.action_refresh()

    async def load(self, token: str) -> None:
        game = self.game
        self.sub_title = f"leaderboard - {self.title_of(game)}"
        try:
            board = await self.client.leaderboard(game, page_size=self.page_size, page_token=token)
        except CallFailed as failed:
            self.say(refused(failed))
            return
        self.lines, self.next_token, self.min_games = board.lines, board.next_page_token, board.min_games
        games = plural(board.min_games, "rated game")
        self.query_one("#board-title", Static).update(
            Text(f"{self.title_of(game)}: the players with at least {games}, best first")
        )
        session = self.client.session
        table = self.query_one("#board", DataTable)
        table.clear()
        for line in self.lines:
            mine = session is not None and line.player_id == session.player_id
            table.add_row(
                str(line.rank),
                Text(line.name + (" (you)" if mine else "")),
                rating_text(line.rating),
                str(line.rating.games),
                str(line.rating.wins),
                key=line.player_id,
            )
        more = " n: next page." if self.next_token else ""
        if self.lines:
            self.say(f"Page {self.page}: {len(self.lines)} players.{more}")
        else:
            self.say("Nobody is on it yet." if self.page == 1 else f"Page {self.page}: nobody more.")
        self.query_one("#board-me", Static).update(Text(await self._me(game)))

    async def _me(self, game: str) -> str:
        """The signed-in player's place (GetRank for the caller)."""
        if not self.client.signed_in:
            return "Sign in (s, in the lobby) to see your place."
        try:
            rank = await self.client.rank(game)
        except CallFailed as failed:
            return refused(failed) if isinstance(failed, SessionEnded) else f"Your place: {failed.refusal}"
        if rank.line is None:
            return f"You are not on it yet: it takes {plural(rank.min_games, 'rated game')}."
        line = rank.line
        return (
            f"You: #{line.rank} of {rank.ranked}, rating {rating_text(line.rating)}, "
            f"{plural(line.rating.games, 'rated game')}, {line.rating.wins} won"
        )


# -- the table ---------------------------------------------------------------------------------------------------------


class TableScreen(Screen[None]):
    """One room, followed live: the seats (a player's with their rating in this game), the table, the hand, whose
    turn it is and their clock, the events, and the seat's legal moves (choosing one submits it). A spectator (no
    ticket) sees the public view and no moves."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back('lobby')", "Lobby"),
        Binding("escape", "back('games')", "My games"),
        Binding("l", "leave", "Back", show=False),
        Binding("m", "focus('#moves')", "Moves"),
        Binding("e", "focus('#feed')", "Events"),
        Binding("r", "reconnect", "Reconnect"),
        Binding("x", "give_back", "Give seat back"),
        Binding("v", "replay", "Replay"),
    ]

    def __init__(self, room_id: str, ticket: Ticket | None, *, back: str = "lobby") -> None:
        """``back``: where Escape goes, "lobby" or "games" (My games)."""
        super().__init__()
        self.room_id = room_id
        self.ticket = ticket
        self.back = back
        self.viewer = ticket.seat if ticket else None
        self.book = SeatBook(ticket.room.seats if ticket else (), self.viewer)
        self.room: room_pb2.Room | None = ticket.room if ticket else None
        self.version = 0
        self.status = common_pb2.ROOM_STATUS_UNSPECIFIED
        self.to_act: tuple[int, ...] = ()
        self.clocks: tuple[common_pb2.TurnClock, ...] = ()
        self.legal: list[move_pb2.Move] = []
        self.pending = ""  # the request id of the move in flight
        self.snapshot: ViewSnapshot | None = None
        self.outcome: common_pb2.Outcome | None = None
        self.refusal_text = ""
        self.stream: RoomStream | None = None
        self.stream_over = False
        self._offset: float | None = None  # the server's clock minus the local monotonic clock (an estimate)
        self._view_busy = False
        self._view_again = False
        self._ticker: Timer | None = None
        self._looked_up: set[str] = set()  # the players whose rating was asked for

    @property
    def client(self) -> KickoffClient:
        return self.app.client  # type: ignore[attr-defined]

    @property
    def finished(self) -> bool:
        return self.status == common_pb2.ROOM_STATUS_FINISHED

    @property
    def settled(self) -> bool:
        """Nothing in flight: the stream has begun, the view drawn is as new as the last update, no move is waiting
        for its answer."""
        fresh = self.snapshot is not None and self.snapshot.version >= self.version and not self._view_busy
        return self.version > 0 and fresh and not self.pending

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="table"):
            with VerticalScroll(id="board"):
                yield Static("", id="seats")
                yield Static("", id="state")
                yield Static("", id="hand")
            with Vertical(id="table-side"):
                yield OptionList(id="moves")
                yield Static("", id="outcome")
        yield Static("", id="turn")
        yield Static("", id="notice")
        yield Log(id="feed", max_lines=500, auto_scroll=True)
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = self._subtitle()
        self.query_one("#seats", Static).border_title = "Seats"
        self.query_one("#state", Static).border_title = "Table"
        self.query_one("#hand", Static).border_title = "Your hand" if self.viewer is not None else "Hand"
        self.query_one("#moves", OptionList).border_title = "Your moves" if self.viewer is not None else "Moves"
        self.query_one("#feed", Log).border_title = "Events"
        self.query_one("#outcome", Static).display = False
        if self.viewer is None:  # the board takes the width until the outcome is shown
            self.query_one("#hand", Static).update("spectator: no hand")
            self.query_one("#moves", OptionList).display = False
            self.query_one("#table-side").display = False
        self._ticker = self.set_interval(0.5, self._draw_turn)
        self.run_worker(self._follow(0), group="stream", exclusive=True)

    @property
    def held(self) -> bool:
        """Whether the seat is a signed-in player's (kept when they leave the table: My games takes it up again)."""
        return self.ticket is not None and bool(self.ticket.player_id)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "reconnect":  # shown only once the room's stream broke off before the end
            return self.stream_over and not self.finished
        if action == "back":  # Escape says where it goes back to
            return parameters == (self.back,)
        if action == "give_back":  # a player's seat in a room still waiting (an anonymous one goes back on leaving)
            return self.held and self.status == common_pb2.ROOM_STATUS_WAITING
        if action == "replay":  # the game again, every hand shown, once it is over
            return self.finished
        return True

    def action_replay(self) -> None:
        if self.finished:
            self.run_worker(open_replay(self, self.room_id), group="replay", exclusive=True)

    def action_reconnect(self) -> None:
        """Follow the room again from the last version seen (after the stream broke off)."""
        if self.stream_over and not self.finished:
            self.stream_over = False
            self.refresh_bindings()
            self._notice("Reconnecting...")
            self.run_worker(self._follow(self.version), group="stream", exclusive=True)

    def _subtitle(self) -> str:
        seat = f"seat {self.viewer}" if self.viewer is not None else "spectator"
        if self.room is None:
            return f"{self.room_id} · {seat}"
        return f"{self.room.game} · {MODE_TEXT.get(self.room.mode, '')} · {self.room_id} · {seat}"

    # -- following the room -------------------------------------------------------------------------------------------

    async def _follow(self, after_version: int) -> None:
        """Read the room's stream (from after ``after_version``) until the game ends or the stream breaks off."""
        self.stream = None
        try:
            self.room = await self.client.get_room(self.room_id)
            for seat in self.room.seats:
                self.book.take(seat)
            self._want_ratings()
            self.sub_title = self._subtitle()
            if self.ticket is not None:
                self.stream = await self.client.play(self.room_id, self.ticket.token, after_version)
            else:
                self.stream = await self.client.watch(self.room_id, after_version)
            if after_version:
                self._notice("")
            self._want_view()
            async for item in self.stream:
                await self._apply(item)
                if self.finished and self.outcome is not None:
                    break
        except CallFailed as failed:
            self._notice(f"The room's stream broke off: {failed.refusal}. r: reconnect", refusal=True)
        finally:
            self.stream_over = True
            self.refresh_bindings()
            if self.stream is not None:
                await self.stream.close()

    async def _apply(self, item: PlayItem) -> None:
        if item.refusal is not None:
            if item.refusal.request_id == self.pending or not self.pending:
                self.pending = ""
            self._notice(f"Refused: {item.refusal}", refusal=True)
        update = item.update
        if update is not None:
            # An update is made before it is sent: its time less the local clock on arrival is at most the server's
            # lead on the local clock, and the largest such difference seen is the best estimate of it.
            lead = _seconds(update.time) - self.app.monotonic()  # type: ignore[attr-defined]
            self._offset = lead if self._offset is None else max(self._offset, lead)
            self.version = update.version
            if update.status != self.status:
                self.status = update.status
                self.refresh_bindings()
            self.to_act = tuple(update.to_act)
            self.clocks = tuple(update.clocks)
            self.legal = list(update.legal_moves)
            feed = self.query_one("#feed", Log)
            for event in update.events:
                feed.write_line(f"{update.version:>4} {room_event_text(event, self.book)}")
                if event.WhichOneof("kind") == "game_ended":
                    self.outcome = event.game_ended.outcome
                    self.book.winners = frozenset(self.outcome.winners)
                    self._want_ratings(again=True)  # a rated game's end changed them
            self._want_ratings()  # (a seat taken by a player)
            self._want_view()
        if item.accepted and item.accepted == self.pending:
            self.pending = ""
            self._notice("")  # the refusal shown before, if any, is over
        self._draw_moves()
        self._draw_turn()
        if self.finished:
            self._draw_outcome()

    # -- the players' ratings -----------------------------------------------------------------------------------------

    def _want_ratings(self, *, again: bool = False) -> None:
        """Look up the rating in this game of each player at the table not asked for yet (``again``: every one, as
        the server has it now)."""
        for seat in list(self.book.seats.values()):
            player_id = seat.player_id
            if player_id and (again or player_id not in self._looked_up):
                self._looked_up.add(player_id)
                self.run_worker(self._load_rating(player_id, again), group="ratings")

    async def _load_rating(self, player_id: str, fresh: bool) -> None:
        """A player's rating beside their name; a failed lookup shows nothing (and changes nothing else)."""
        try:
            player = await self.client.get_player(player_id, fresh=fresh)
        except CallFailed:
            return
        game = self.room.game if self.room is not None else ""
        rating = next((rating for rating in player.ratings if rating.game == game), None)
        if rating is None:
            self.book.ratings.pop(player_id, None)
        else:
            self.book.ratings[player_id] = rating_text(rating)
        self._draw_view()

    # -- the view -----------------------------------------------------------------------------------------------------

    def _want_view(self) -> None:
        """Fetch the view after an update; updates that come while one is fetched cost one more fetch in all."""
        if self._view_busy:
            self._view_again = True
        else:
            self._view_busy = True
            self.run_worker(self._load_view(), group="view")

    async def _load_view(self) -> None:
        try:
            while True:
                self._view_again = False
                token = self.ticket.token if self.ticket else None
                snapshot = await self.client.get_view(self.room_id, token)
                if self.snapshot is None or snapshot.version >= self.snapshot.version:
                    self.snapshot = snapshot
                    self._draw_view()
                if not self._view_again:
                    break
        except CallFailed as failed:
            self._notice(f"Cannot read the table: {failed.refusal}", refusal=True)
        finally:
            self._view_busy = False

    def _draw_view(self) -> None:
        snapshot = self.snapshot
        if snapshot is None:
            return
        renderer, view = view_parts(snapshot.view)
        to_act = snapshot.to_act
        if view is None:  # the game has not begun
            free = sum(1 for seat in self.book.seats.values() if not seat.taken)
            seats = renderer.seat_lines(None, self.book, to_act)
            state = [f"Waiting for {free} more player{'s' if free != 1 else ''} to join.", f"Room id: {self.room_id}"]
            if self.held:
                state.append("Your seat stays yours when you leave (My games); x gives it back.")
            hand = ""
        else:
            seats = renderer.seat_lines(view, self.book, to_act)
            state = renderer.state_lines(view, self.book)
            hand = renderer.hand_text(view)
        self.query_one("#seats", Static).update(Text("\n".join(seats)))
        self.query_one("#state", Static).update(Text("\n".join(state)))
        if self.viewer is not None:
            self.query_one("#hand", Static).update(Text(hand or "(no cards)"))
        else:
            self.query_one("#hand", Static).update(Text("spectator: no hand"))

    # -- moves --------------------------------------------------------------------------------------------------------

    def _draw_moves(self) -> None:
        if self.viewer is None:
            return
        moves = self.query_one("#moves", OptionList)
        if self.pending or self.finished:
            moves.clear_options()
            moves.border_subtitle = "sent..." if self.pending else ""
            return
        labels = [move_label(move) for move in self.legal]
        if labels != [str(option.prompt) for option in moves.options]:  # (else the highlight stays where it was)
            moves.set_options(Text(label) for label in labels)
            if labels:
                moves.highlighted = 0
        moves.border_subtitle = f"{len(self.legal)} legal" if self.legal else "not your turn"
        if self.legal and not isinstance(self.focused, Input):
            moves.focus()

    @on(OptionList.OptionSelected, "#moves")
    def _move_chosen(self, event: OptionList.OptionSelected) -> None:
        if 0 <= event.option_index < len(self.legal) and not self.pending:
            self.submit(self.legal[event.option_index])

    def submit(self, move: move_pb2.Move, *, expected_version: int | None = None) -> str:
        """Send a move for the seat on its play stream, expecting the version last seen (unless told another); the
        answer comes back on the stream. Returns the move's request id ("" when there is no stream to send it on)."""
        if self.stream is None or self.ticket is None or self.stream_over:
            self._notice("No move can be sent: " + ("you are watching." if self.ticket is None else "reconnect (r)."))
            return ""
        request_id = new_request_id()
        self.pending = request_id  # at once: a second Enter sends nothing until the answer
        self._draw_moves()
        expected = self.version if expected_version is None else expected_version
        self.run_worker(self._send(self.stream, move, request_id, expected), group="moves")
        return request_id

    async def _send(self, stream: RoomStream, move: move_pb2.Move, request_id: str, expected: int) -> None:
        try:
            await stream.send(move, request_id, expected)
        except CallFailed as failed:
            if self.pending == request_id:
                self.pending = ""
            self._notice(f"Refused: {failed.refusal}", refusal=True)
            self._draw_moves()

    # -- the turn, the notices, the end -------------------------------------------------------------------------------

    def seconds_left(self, clock: common_pb2.TurnClock) -> float:
        """The clock's remaining seconds, by the server's time estimated from its updates' times."""
        if self._offset is None:
            return float(clock.turn_seconds)
        return max(0.0, _seconds(clock.deadline) - (self.app.monotonic() + self._offset))  # type: ignore[attr-defined]

    def turn_text(self) -> str:
        if self.finished:
            return "Game over."
        if self.status == common_pb2.ROOM_STATUS_WAITING:
            return "Waiting for players."
        if not self.to_act:
            return ""
        clocks = {clock.seat: clock for clock in self.clocks}
        parts = []
        for seat in self.to_act:
            clock = clocks.get(seat)
            left = f" {self.seconds_left(clock):.0f} s" if clock is not None else ""
            parts.append(f"{self.book.name(seat)}{left}")
        if self.viewer in self.to_act:
            mine = clocks.get(self.viewer)  # type: ignore[arg-type]
            lead = "Your turn" + (f": {self.seconds_left(mine):.0f} s left" if mine is not None else "")
            others = [part for seat, part in zip(self.to_act, parts, strict=True) if seat != self.viewer]
            return lead + (f" (also to act: {', '.join(others)})" if others else "")
        return "Waiting for " + ", ".join(parts)

    def _draw_turn(self) -> None:
        self.query_one("#turn", Static).update(Text(self.turn_text()))

    def _notice(self, text: str, *, refusal: bool = False) -> None:
        """Show a line under the turn: a refusal (kept in ``refusal_text`` until the next notice) or news."""
        self.refusal_text = text if refusal else ""
        notice = self.query_one("#notice", Static)
        notice.set_class(refusal and bool(text), "refusal")
        notice.update(Text(text))

    def _draw_outcome(self) -> None:
        outcome = self.outcome or (self.room.outcome if self.room is not None else common_pb2.Outcome())
        lines = outcome_lines(outcome, self.book)
        panel = self.query_one("#outcome", Static)
        back = "My games" if self.back == "games" else "the lobby"
        panel.update(Text("\n".join([*lines, "", f"Escape: back to {back}"])))
        panel.border_title = "Final whistle"
        panel.display = True
        self.query_one("#moves", OptionList).display = False
        self.query_one("#table-side").display = True

    def outcome_text(self) -> str:
        return str(self.query_one("#outcome", Static).content)

    async def action_leave(self, give_back: bool = False) -> None:
        """Back (to the lobby, or My games); an anonymous seat taken in a room still waiting for players is given
        back, a player's only when asked (``give_back``: x)."""
        if self.stream is not None:
            await self.stream.close()
        self.workers.cancel_group(self, "stream")
        if self.ticket is not None and self.status == common_pb2.ROOM_STATUS_WAITING and (give_back or not self.held):
            with contextlib.suppress(CallFailed):  # (the game began meanwhile: the seat stays, as it must)
                await self.client.leave_room(self.room_id, self.ticket.token)
        self.app.pop_screen()

    async def action_back(self, to: str) -> None:
        await self.action_leave()

    async def action_give_back(self) -> None:
        """Give a player's seat back while the room waits, and leave the table."""
        if self.held and self.status == common_pb2.ROOM_STATUS_WAITING:
            await self.action_leave(give_back=True)


def _seconds(stamp: Any) -> float:
    return stamp.seconds + stamp.nanos / 1e9


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
    #dialog-buttons { height: auto; align-horizontal: right; }
    #table { height: 2fr; }
    #board { width: 1fr; }
    #seats, #state, #hand { border: round $primary; height: auto; padding: 0 1; }
    #table-side { width: 30; }
    #board { scrollbar-size-vertical: 1; }
    #moves { height: 1fr; border: round $accent; }
    #outcome { height: auto; border: double $success; padding: 0 1; }
    #turn { height: 1; padding: 0 1; text-style: bold; }
    #notice { height: auto; max-height: 2; padding: 0 1; }
    #notice.refusal { color: $error; }
    #feed { height: 1fr; min-height: 5; border: round $primary; }
    #search { padding: 1 2; height: 1fr; }
    #search Static { height: auto; margin-bottom: 1; }
    #search-note, #search-status { color: $text-muted; }
    #replay { height: 1fr; }
    #replay-board { width: 1fr; }
    #replay-seats, #replay-state, #replay-hands { border: round $primary; height: auto; padding: 0 1; }
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

    async def on_unmount(self) -> None:
        for screen in _tables(self.screen_stack):
            if screen.stream is not None:
                await screen.stream.close()
        for ticket_id in list(self.searching):  # a search left open ends with the client: nobody would play the seat
            with contextlib.suppress(CallFailed):
                await self.client.cancel_ticket(ticket_id)
        await self.client.close()


async def open_replay(screen: Screen[Any], room_id: str) -> None:
    """Fetch a room's replay and show it (a refusal is said where the screen says things)."""
    client: KickoffClient = screen.app.client  # type: ignore[attr-defined]
    try:
        replay = await client.replay(room_id)
    except CallFailed as failed:
        screen.notify(f"No replay: {failed.refusal}", severity="warning")
        return
    await screen.app.push_screen(ReplayScreen(replay))


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
