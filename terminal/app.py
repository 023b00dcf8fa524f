"""`kickoff client`: a full-screen terminal client of a kickoff server (Textual), keyboard-driven, fit for 80x24.

Two screens: the lobby (the games, the rooms, creating, joining or watching a room) and the table (a room followed
through the seat's play stream, or a spectator's event stream). Every call goes through :mod:`terminal.client`;
how each game's table looks is :mod:`terminal.tables`. Like any third party's client, it imports nothing from the
engine or the server.
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

from kickoff.v1 import common_pb2, game_pb2, move_pb2, room_pb2
from terminal.client import CallFailed, KickoffClient, PlayItem, RoomStream, Ticket, ViewSnapshot, new_request_id
from terminal.tables import SeatBook, move_label, outcome_lines, room_event_text, view_parts

STATUS_TEXT = {
    common_pb2.ROOM_STATUS_WAITING: "waiting",
    common_pb2.ROOM_STATUS_PLAYING: "playing",
    common_pb2.ROOM_STATUS_FINISHED: "finished",
}
MODE_TEXT = {common_pb2.ROOM_MODE_ONLINE: "online", common_pb2.ROOM_MODE_SOLO: "solo"}


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


# -- the lobby ---------------------------------------------------------------------------------------------------------


class CreateRoomScreen(ModalScreen[dict[str, Any] | None]):
    """The form for a new room: the game, its seats (from the game's seat counts), solo or online, how many system
    players, and options over the game's defaults. Answers the request's fields, or None."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel"),
        Binding("ctrl+s", "create", "Create"),
    ]

    def __init__(self, games: list[game_pb2.GameInfo], game: str) -> None:
        super().__init__()
        self.games = {info.name: info for info in games}
        self.game = game if game in self.games else next(iter(self.games), "")

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Label("Create a room", id="dialog-title")
            with Horizontal(classes="field"):
                yield Label("Game")
                yield Select(
                    [(info.title or name, name) for name, info in self.games.items()],
                    value=self.game,
                    allow_blank=False,
                    id="create-game",
                )
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
            yield Static(self._hint(), id="create-hint")
            with Horizontal(id="dialog-buttons"):
                yield Button("Create", variant="primary", id="create")
                yield Button("Cancel", id="cancel")
        yield Footer()

    def _seat_options(self) -> list[tuple[str, int]]:
        info = self.games.get(self.game)
        counts = list(info.seat_counts) if info else [2]
        return [(f"{count} seats", count) for count in counts]

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
                "options": options,
            }
        )

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)


class LobbyScreen(Screen[None]):
    """The games the server hosts, its rooms (waiting ones first), and what to do with them."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("c", "create", "Create"),
        Binding("j", "join", "Join"),
        Binding("w", "watch", "Watch"),
        Binding("r", "refresh", "Refresh"),
        Binding("g", "focus('#games')", "Games"),
        Binding("n", "focus('#name')", "Name"),
        Binding("i", "focus('#room-id')", "Room id"),
        Binding("escape", "focus('#rooms')", "Rooms", show=False),
        Binding("q", "app.quit", "Quit"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.games: list[game_pb2.GameInfo] = []
        self.rooms: dict[str, room_pb2.Room] = {}

    @property
    def client(self) -> KickoffClient:
        return self.app.client  # type: ignore[attr-defined]

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="lobby"):
            with Vertical(id="lobby-side"):
                yield Label("Games", classes="heading")
                yield OptionList(id="games")
                yield Label("Your name (n)", classes="heading")
                yield Input(self.app.player_name, placeholder="shown at the table", id="name")  # type: ignore[attr-defined]
                yield Label("Choice (e.g. a team code)", classes="heading")
                yield Input(placeholder="if the game offers one", id="choice")
                yield Label("Room id (i): Enter joins", classes="heading")
                yield Input(placeholder="a room's id", id="room-id")
            with Vertical(id="lobby-main"):
                yield Label("Rooms (waiting first)", classes="heading")
                yield DataTable(id="rooms", cursor_type="row", zebra_stripes=True)
        yield Static("", id="lobby-status")
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = f"lobby - {self.client.target}"
        table = self.query_one("#rooms", DataTable)
        table.add_columns("Room", "Game", "Mode", "Status", "Seats", "Players")
        table.focus()

    def on_screen_resume(self) -> None:
        """Shown (first, or back from a table): list the games and rooms afresh."""
        self.action_refresh()

    def say(self, text: str) -> None:
        self.query_one("#lobby-status", Static).update(Text(text))

    def action_refresh(self) -> None:
        self.run_worker(self._load(), group="refresh", exclusive=True)

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
        table = self.query_one("#rooms", DataTable)
        table.clear()
        for room in rooms:
            players = ", ".join(seat.name for seat in room.seats if seat.taken and seat.name)
            table.add_row(
                room.room_id,
                room.game,
                MODE_TEXT.get(room.mode, "?"),
                STATUS_TEXT.get(room.status, "?"),
                seat_summary(room),
                Text(players[:40]),
                key=room.room_id,
            )
        self.say(f"{len(self.games)} games, {len(rooms)} rooms. c: create, j: join, w: watch the highlighted room.")

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
            room = await self.client.create_room(
                request["game"],
                seats=request["seats"],
                solo=request["solo"],
                system_players=request["system_players"],
                options=request["options"],
            )
        except CallFailed as failed:
            self.say(f"Refused: {failed.refusal}")
            return
        await self.join(room.room_id)

    async def join(self, room_id: str) -> None:
        try:
            ticket = await self.client.join_room(room_id, name=self.player_name(), choice=self.choice())
        except CallFailed as failed:
            self.say(f"Refused: {failed.refusal}")
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

    @on(Input.Submitted, "#room-id")
    def _join_by_id(self, event: Input.Submitted) -> None:
        room_id = event.value.strip()
        if room_id:
            self.run_worker(self.join(room_id), group="lobby", exclusive=True)

    @on(Input.Submitted, "#name, #choice")
    def _back_to_rooms(self) -> None:
        self.query_one("#rooms", DataTable).focus()


# -- the table ---------------------------------------------------------------------------------------------------------


class TableScreen(Screen[None]):
    """One room, followed live: the seats, the table, the hand, whose turn it is and their clock, the events, and the
    seat's legal moves (choosing one submits it). A spectator (no ticket) sees the public view and no moves."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "leave", "Lobby"),
        Binding("l", "leave", "Lobby", show=False),
        Binding("m", "focus('#moves')", "Moves"),
        Binding("e", "focus('#feed')", "Events"),
        Binding("r", "reconnect", "Reconnect"),
    ]

    def __init__(self, room_id: str, ticket: Ticket | None) -> None:
        super().__init__()
        self.room_id = room_id
        self.ticket = ticket
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

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "reconnect":  # shown only once the room's stream broke off before the end
            return self.stream_over and not self.finished
        return True

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
            self.status = update.status
            self.to_act = tuple(update.to_act)
            self.clocks = tuple(update.clocks)
            self.legal = list(update.legal_moves)
            feed = self.query_one("#feed", Log)
            for event in update.events:
                feed.write_line(f"{update.version:>4} {room_event_text(event, self.book)}")
                if event.WhichOneof("kind") == "game_ended":
                    self.outcome = event.game_ended.outcome
                    self.book.winners = frozenset(self.outcome.winners)
            self._want_view()
        if item.accepted and item.accepted == self.pending:
            self.pending = ""
            self._notice("")  # the refusal shown before, if any, is over
        self._draw_moves()
        self._draw_turn()
        if self.finished:
            self._draw_outcome()

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
        panel.update(Text("\n".join([*lines, "", "Escape: back to the lobby"])))
        panel.border_title = "Final whistle"
        panel.display = True
        self.query_one("#moves", OptionList).display = False
        self.query_one("#table-side").display = True

    def outcome_text(self) -> str:
        return str(self.query_one("#outcome", Static).content)

    async def action_leave(self) -> None:
        """Back to the lobby; a seat taken in a room still waiting for players is given back."""
        if self.stream is not None:
            await self.stream.close()
        self.workers.cancel_group(self, "stream")
        if self.ticket is not None and self.status == common_pb2.ROOM_STATUS_WAITING:
            with contextlib.suppress(CallFailed):  # (the game began meanwhile: the seat stays, as it must)
                await self.client.leave_room(self.room_id, self.ticket.token)
        self.app.pop_screen()


def _seconds(stamp: Any) -> float:
    return stamp.seconds + stamp.nanos / 1e9


# -- the app -----------------------------------------------------------------------------------------------------------


class KickoffApp(App[None]):
    """The terminal client: starts in the lobby; with a room id, joins that room (or watches it) at once."""

    TITLE = "kickoff"
    CSS = """
    .heading { color: $accent; text-style: bold; }
    #lobby-side { width: 32; }
    #lobby-side Input { height: 1; border: none; padding: 0 1; margin-bottom: 1; background: $boost; }
    #lobby-side Input:focus { background: $primary 40%; }
    #games { height: auto; max-height: 7; border: none; }
    #rooms { height: 1fr; }
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
    #create-hint { color: $text-muted; height: auto; max-height: 4; }
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
    ) -> None:
        """``monotonic``: the local clock the turn clocks count down by (tests pass one they move by hand)."""
        super().__init__()
        self.monotonic = monotonic
        self.target = target
        self.player_name = name
        self.start_room = room
        self.start_watching = watch
        self.api_key = api_key
        self.timeout = timeout
        self.client: KickoffClient

    async def on_mount(self) -> None:
        self.client = KickoffClient(self.target, api_key=self.api_key, timeout=self.timeout)
        lobby = LobbyScreen()
        await self.push_screen(lobby)
        if self.start_room:
            if self.start_watching:
                await self.push_screen(TableScreen(self.start_room, None))
            else:
                lobby.run_worker(lobby.join(self.start_room), group="lobby", exclusive=True)

    async def on_unmount(self) -> None:
        for screen in _tables(self.screen_stack):
            if screen.stream is not None:
                await screen.stream.close()
        await self.client.close()


def _tables(screens: Iterable[Screen[Any]]) -> list[TableScreen]:
    return [screen for screen in screens if isinstance(screen, TableScreen)]


def run(target: str, *, name: str = "", room: str | None = None, watch: bool = False, api_key: str = "") -> int:
    """Run the client full screen until the user quits."""
    KickoffApp(target, name=name, room=room, watch=watch, api_key=api_key).run()
    return 0
