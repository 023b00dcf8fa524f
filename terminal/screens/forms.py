"""The lobby's forms about one of the server's games: a new room's (the game, its seats, solo, online or an unlisted
online room, system players, options typed as name=value, and the room's chat) and Play now's (the game's queue, and
the table size)."""

from __future__ import annotations

from typing import Any, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Footer, Input, Label, Select, Static

from kickoff.v1 import chat_pb2, game_pb2
from terminal.screens.shared import seat_counts

# The games whose seats play in teams, where a room may give each team a channel of its own (docs/guides/chat.md);
# the server refuses team chat elsewhere (team_chat_not_allowed), and says so.
TEAM_GAMES = frozenset({"carta-futbol-club", "age-of-soccer"})
CHAT_MODES = [
    ("chat on", chat_pb2.CHAT_MODE_ON),
    ("quick reactions only", chat_pb2.CHAT_MODE_REACTIONS),
    ("chat off", chat_pb2.CHAT_MODE_OFF),
]


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
    """The form for a new room: the game, its seats (from the game's seat counts), solo, online or online and
    unlisted (a private table, for a player: the lobby signs in first), how many system players, options over the
    game's defaults, and the room's chat (on, quick reactions only, off; a team game's team chat). Answers the
    request's fields, or None."""

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
                    [
                        ("Solo (you and system players)", "solo"),
                        ("Online (people, with the clock)", "online"),
                        ("Unlisted (online, only those you invite)", "unlisted"),
                    ],
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
            with Horizontal(classes="field"):
                yield Label("Chat")
                yield Select(CHAT_MODES, value=chat_pb2.CHAT_MODE_ON, allow_blank=False, id="create-chat")
                yield Select(
                    [("no team chat", False), ("team chat", True)], value=False, allow_blank=False, id="create-team"
                )
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

    def on_mount(self) -> None:
        self.query_one("#create-team", Select).display = self.game in TEAM_GAMES

    def _chat(self) -> int:
        value = self.query_one("#create-chat", Select).value
        return value if isinstance(value, int) else chat_pb2.CHAT_MODE_ON

    def _team_chat(self) -> bool:
        return self.game in TEAM_GAMES and self.query_one("#create-team", Select).value is True

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

    def _mode(self) -> str:
        try:
            value = self.query_one("#create-mode", Select).value
        except Exception:  # not composed yet
            return "solo"
        return value if isinstance(value, str) else "solo"

    def _solo(self) -> bool:
        return self._mode() == "solo"

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
            self.query_one("#create-team", Select).display = self.game in TEAM_GAMES

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
                "unlisted": self._mode() == "unlisted",
                "system_players": system,
                "system_player": self._level(),
                "options": options,
                "chat": self._chat(),
                "team_chat": self._team_chat(),
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
