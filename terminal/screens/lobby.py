"""The lobby: the games the server hosts, its rooms (waiting ones first), signing in as a guest, and what to do with
a room (create, join, watch, replay; join a private table with a link; a friend's invitations) or a game (Play now,
its leaderboard)."""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, Input, Label, OptionList, Static

from kickoff.v1 import game_pb2, match_pb2, room_pb2
from terminal.client import CallFailed, KickoffClient, link_room
from terminal.screens.forms import CreateRoomScreen, PlayNowScreen
from terminal.screens.players import LeaderboardScreen, MyGamesScreen
from terminal.screens.private import JoinLinkScreen
from terminal.screens.search import SearchScreen
from terminal.screens.shared import (
    MODE_TEXT,
    STATUS_TEXT,
    open_replay,
    refused,
    seat_counts,
    seat_names,
    seat_summary,
    session_ended_text,
)
from terminal.screens.social import FriendsScreen, InboxScreen, RoomInvitationsScreen
from terminal.screens.table import TableScreen

# The lobby's rooms table: each column's width but the players', which takes what is left of the table (at least
# PLAYERS_WIDTH), so that the table fits an 80-column terminal; a highlighted room's line below says the rest.
ROOM_COLUMNS = (("Room", 8), ("Game", 13), ("Status", 8), ("Seats", 5))
PLAYERS_WIDTH = 8


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
        Binding("b", "inbox", "Inbox", show=False),  # (the inbox's line in the side panel names these two)
        Binding("f", "friends", "Friends", show=False),
        Binding("t", "invitations", "Invitations", show=False),
        Binding("k", "join_link", "Join with a link", show=False),  # (the room id's heading names it)
        Binding("escape", "focus('#rooms')", "Rooms", show=False),
        Binding("q", "app.quit", "Quit"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.games: list[game_pb2.GameInfo] = []
        self.rooms: dict[str, room_pb2.Room] = {}
        self.told = ""  # word left by a screen that came back to the lobby, shown after the next listing
        self.unread: int | None = None  # the signed-in player's unread inbox items, as last read (None: not read)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "sign_in":
            return not self.client.signed_in
        if action in ("sign_out", "my_games", "inbox", "friends", "invitations"):
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
                yield Label("Room id (i), a link (k)", classes="heading")
                yield Input(placeholder="a room's id", id="room-id")
                yield Static("", id="inbox-line")
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
        """Signed in or out: the subtitle, the keys offered, the inbox's line, and a line saying so."""
        self.sub_title = self._subtitle()
        self.refresh_bindings()
        self.say(text)
        self.run_worker(self._count_unread(), group="inbox", exclusive=True)

    async def _count_unread(self) -> None:
        """The side panel's inbox line: the signed-in player's unread items (nothing when signed out)."""
        line = self.query_one("#inbox-line", Static)
        if not self.client.signed_in:
            self.unread = None
            line.update("")
            return
        try:
            self.unread = (await self.client.list_inbox(page_size=1)).unread
        except CallFailed as failed:  # (a server without players' inboxes: no line)
            unserved = failed.refusal.code == "UNIMPLEMENTED"
            line.update("" if unserved else Text("Inbox (b): cannot be read now\nFriends (f) Invites (t)"))
            return
        line.update(Text(f"Inbox (b): {self.unread} unread\nFriends (f) Invites (t)"))

    def action_inbox(self) -> None:
        if self.client.signed_in:
            self.app.push_screen(InboxScreen(self.app.page_size))  # type: ignore[attr-defined]

    def action_friends(self) -> None:
        if self.client.signed_in:
            self.app.push_screen(FriendsScreen())

    def action_invitations(self) -> None:
        if self.client.signed_in:
            self.app.push_screen(RoomInvitationsScreen())

    # -- a private table's invitation link ----------------------------------------------------------------------------

    def action_join_link(self) -> None:
        self.app.push_screen(JoinLinkScreen(), self._link_pasted)

    def _link_pasted(self, token: str | None) -> None:
        if token:
            self.run_worker(self.join_with_link(token), group="lobby", exclusive=True)

    async def join_with_link(self, token: str) -> None:
        """Take a seat in the room an invitation link opens (as the signed-in player, or anonymously under the
        lobby's name) and open its table."""
        room_id = link_room(token)
        if not room_id:
            self.say("Not joined: this invitation link does not name a room this client can read.")
            return
        await self.join(room_id, invitation_token=token)

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
        await self._count_unread()
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
        unlisted = bool(request.get("unlisted"))
        if unlisted and not self.client.signed_in and not await self._sign_in():
            return  # (an unlisted room is a player's: signed in as a guest first)
        try:
            created = await self.client.create_room(
                request["game"],
                seats=request["seats"],
                solo=request["solo"],
                system_players=request["system_players"],
                system_player=request.get("system_player", ""),
                options=request["options"],
                choice=self.choice(),  # (a signed-in player is seated by CreateRoom, with it)
                unlisted=unlisted,
                chat=request.get("chat", 0),
                team_chat=bool(request.get("team_chat")),
            )
        except CallFailed as failed:
            self.say(refused(failed))
            return
        if created.ticket is not None:
            self.app.push_screen(TableScreen(created.room.room_id, created.ticket))
        else:
            await self.join(created.room.room_id)

    async def join(self, room_id: str, *, invitation_token: str = "") -> None:
        """Take a seat in the room (with an invitation link's token: an unlisted one) and open its table; a player
        seated there already takes their seat up."""
        try:
            ticket = await self.client.join_room(
                room_id, name=self.player_name(), choice=self.choice(), invitation_token=invitation_token
            )
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
