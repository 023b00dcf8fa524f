"""A signed-in player's games (My games: their seats taken up again) and each game's leaderboard, a page at a time."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, Label, Static

from kickoff.v1 import game_pb2, player_pb2
from terminal.client import CallFailed, KickoffClient, SessionEnded
from terminal.screens.shared import MODE_TEXT, STATUS_TEXT, plural, rating_text, refused, seat_names
from terminal.screens.table import TableScreen


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
    signed-in player, their own place, or until they have one their rated games and how many more they have to play
    (an empty board says the minimum too). g: the next game's."""

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
            nobody = f"Nobody is on it yet: a player appears after {games}."
            self.say(nobody if self.page == 1 else f"Page {self.page}: nobody more.")
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
            # Off the board: the games played and those still to play (none left but off the board: a count the
            # board has not caught up with; the minimum then).
            done = f"You have played {plural(rank.rated_games, 'rated game')}"
            if rank.games_to_play > 0:
                return f"{done}: {plural(rank.games_to_play, 'more rated game')} to appear on the leaderboard."
            return f"{done}: a player appears after {plural(rank.min_games, 'rated game')}."
        line = rank.line
        return (
            f"You: #{line.rank} of {rank.ranked}, rating {rating_text(line.rating)}, "
            f"{plural(line.rating.games, 'rated game')}, {line.rating.wins} won"
        )
