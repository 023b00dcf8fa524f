"""Replays in the terminal: the replay file, read back line by line (`kickoff replay FILE`), and the client's replay
screen (step back and forth, jump to a version, play at a chosen speed).

A replay file is a room's whole replay in one GetReplayResponse, in protobuf's JSON form: what
``GET /v1/rooms/{room_id}/replay`` answers, with every page's steps in one ``steps`` list (``kickoff replay --room ID
--save FILE`` writes one). Until the game is over each step is what a spectator saw; once it is over every hand is
shown (each step's ``hands``, by seat, and the cards drawn in its events). A replay fetched by someone who sat at
the table (its seat token, or their player's access token) also holds the table's chat (``chat``), which is shown
beside the steps: each message after the last step whose time is at or before the message's, as plain text. A room
made since fair deals carries its deal (``room.deal``); once the game is over its secret too, which the replay screen
checks against the commitment itself (terminal.tables.deal_lines) before ``kickoff verify FILE`` deals it again.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

from google.protobuf import json_format
from rich.text import Text
from textual import on
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Footer, Header, Input, Log, Static

from kickoff.v1 import chat_pb2, move_pb2
from terminal.tables import REACTION_TEXT, SeatBook, deal_lines, outcome_lines, room_event_text, view_parts

MAX_FILE_BYTES = 64 * 1024 * 1024  # a replay file larger than this is refused unread
SPEEDS = (0.5, 1.0, 2.0, 4.0, 8.0)  # steps a second the replay screen plays at
FEED_LINES = 500  # the event lines the replay screen keeps


def read_replay(path: str | Path) -> move_pb2.GetReplayResponse:
    """A replay file, checked: ValueError naming what is wrong (not JSON of a replay, versions out of order)."""
    path = Path(path)
    if path.stat().st_size > MAX_FILE_BYTES:
        raise ValueError(f"{path} is over {MAX_FILE_BYTES // 2**20} MiB: not a replay file")
    try:
        replay = json_format.Parse(path.read_text(encoding="utf-8"), move_pb2.GetReplayResponse())
    except (json_format.ParseError, UnicodeDecodeError) as error:
        raise ValueError(f"{path} is not a replay file: {error}") from None
    versions = [step.update.version for step in replay.steps]
    if not versions or versions != list(range(versions[0], versions[0] + len(versions))):
        raise ValueError(f"{path} is not a whole replay: its steps' versions are not one run without gaps")
    return replay


def replay_json(replay: move_pb2.GetReplayResponse) -> str:
    """A replay in the file's form."""
    return json_format.MessageToJson(replay, indent=1, ensure_ascii=False) + "\n"


def heading(replay: move_pb2.GetReplayResponse) -> str:
    room = replay.room
    shown = "every hand shown" if replay.revealed else "as a spectator saw it: the game is not over"
    talk = f", {len(replay.chat)} chat messages" if replay.chat else ""
    return f"{room.game} room {room.room_id}, {len(room.seats)} seats, {len(replay.steps)} versions{talk} ({shown})"


def step_texts(replay: move_pb2.GetReplayResponse) -> list[list[str]]:
    """Each step's event lines, the seats named as the replay goes (as a spectator: nobody is "you")."""
    book = SeatBook(replay.room.seats, None)
    return [[room_event_text(event, book) for event in step.update.events] for step in replay.steps]


def chat_text(message: chat_pb2.ChatMessage) -> str:
    """A chat message as one line of plain text: ``Ann (team): good luck``; a withdrawn one says so. A character
    that is not printable (none is in what a server sends; a file may hold anything) shows as U+FFFD."""
    said = "(withdrawn)" if message.withdrawn else message.text or REACTION_TEXT.get(message.reaction, "(a reaction)")
    where = " (team)" if message.channel == chat_pb2.CHAT_CHANNEL_TEAM else ""
    line = f"{message.name or 'someone'}{where}: {said}"
    return "".join(char if char.isprintable() else "\ufffd" for char in line)


def step_chat(replay: move_pb2.GetReplayResponse) -> list[list[chat_pb2.ChatMessage]]:
    """Each step's chat: every message goes after the last step whose time is at or before the message's (after the
    first step when none is); a withdrawal item (which names a message shown withdrawn already) is left out."""
    times = [step.update.time.seconds + step.update.time.nanos / 1e9 for step in replay.steps]
    placed: list[list[chat_pb2.ChatMessage]] = [[] for _ in replay.steps]
    for message in replay.chat:
        if placed and not message.withdraws_seq:
            at = bisect_right(times, message.create_time.seconds + message.create_time.nanos / 1e9) - 1
            placed[max(at, 0)].append(message)
    return placed


def replay_lines(replay: move_pb2.GetReplayResponse) -> Iterator[str]:
    """The whole game, one line an event, each after its version, the table's chat (if the replay holds it) among
    them, each message marked with a ``>``; then how it ended."""
    yield heading(replay)
    for step, texts, said in zip(replay.steps, step_texts(replay), step_chat(replay), strict=True):
        for text in texts:
            yield f"{step.update.version:>6}  {text}"
        for message in said:
            yield f"{step.update.version:>6}  > {chat_text(message)}"
    if replay.room.HasField("outcome"):
        yield from outcome_lines(replay.room.outcome, SeatBook(replay.room.seats, None))


class ReplayScreen(Screen[None]):
    """A replay, one version at a time: the table after it (every seat's hand once the game is over), the events so
    far (with the table's chat, where the replay holds it, placed by time), and where it stands. Arrows step, Page
    Up/Down ten, Home/End the first/last, g jumps to a version, Space plays and pauses, + and - change the speed."""

    AUTO_FOCUS = ""  # (nothing: the jump field is hidden until g, and the keys are the screen's)
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Back"),
        Binding("left", "step(-1)", "Back a step"),
        Binding("right", "step(1)", "Next"),
        Binding("pageup", "step(-10)", "-10", show=False),
        Binding("pagedown", "step(10)", "+10", show=False),
        Binding("home", "step(-1000000)", "First", show=False),
        Binding("end", "step(1000000)", "Last", show=False),
        Binding("g", "jump", "Go to"),
        Binding("space", "play", "Play/pause"),
        Binding("plus,equals_sign", "speed(1)", "Faster"),
        Binding("minus", "speed(-1)", "Slower"),
    ]

    def __init__(self, replay: move_pb2.GetReplayResponse) -> None:
        super().__init__()
        self.replay = replay
        self.steps = list(replay.steps)
        self.texts = [
            [*texts, *(f"> {chat_text(message)}" for message in said)]
            for texts, said in zip(step_texts(replay), step_chat(replay), strict=True)
        ]
        self.book = SeatBook(replay.room.seats, None)
        self.index = 0
        self.playing = False
        self.speed = SPEEDS.index(1.0)
        self._timer: Timer | None = None

    def compose(self) -> Any:
        yield Header()
        with Horizontal(id="replay"):
            # Neither the board nor the feed takes the focus: the arrows, Home and End step the replay, never scroll.
            with VerticalScroll(id="replay-board", can_focus=False):
                yield Static("", id="replay-seats")
                yield Static("", id="replay-state")
                yield Static("", id="replay-hands")
                yield Static("", id="replay-deal")
            feed = Log(id="replay-feed", max_lines=FEED_LINES, auto_scroll=True)
            feed.can_focus = False
            yield feed
        yield Input(placeholder="a version, then Enter", id="replay-jump", type="integer")
        yield Static("", id="replay-position")
        yield Footer(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        self.sub_title = heading(self.replay)
        self.query_one("#replay-jump", Input).display = False
        room = self.replay.room
        hint = f"Deal the whole game again: kickoff replay --room {room.room_id} --save FILE, then kickoff verify FILE"
        deal = deal_lines(room.deal if room.HasField("deal") else None, room.game, file_hint=hint)
        panel = self.query_one("#replay-deal", Static)
        panel.border_title = "Fair deal"
        panel.display = bool(deal)
        panel.update(Text("\n".join(deal)))
        self._draw()

    @property
    def version(self) -> int:
        return self.steps[self.index].update.version if self.steps else 0

    def position_text(self) -> str:
        last = self.steps[-1].update.version if self.steps else 0
        state = f"playing at {SPEEDS[self.speed]:g} a second" if self.playing else "paused"
        return f"Version {self.version} of {last} ({state}). Arrows step, g goes to a version, Space plays."

    def _draw(self) -> None:
        if not self.steps:
            self.query_one("#replay-position", Static).update("This replay has no steps.")
            return
        step = self.steps[self.index]
        renderer, view = view_parts(step.view)
        to_act = tuple(step.update.to_act)
        seats = renderer.seat_lines(view, self.book, to_act)
        state = renderer.state_lines(view, self.book) if view is not None else ["The game has not begun."]
        ended = [event.game_ended.outcome for event in step.update.events if event.HasField("game_ended")]
        if ended:
            state += ["", *outcome_lines(ended[0], self.book)]
        hands = []
        for seat, hand in enumerate(step.hands):
            hand_renderer, member = view_parts(hand)
            hands.append(f"{self.book.name(seat)}: {hand_renderer.hand_text(member) or '(no cards)'}")
        if not hands:
            hands = ["Hands are shown once the game is over."] if not self.replay.revealed else []
        self.query_one("#replay-seats", Static).update(Text("\n".join(seats)))
        self.query_one("#replay-state", Static).update(Text("\n".join(state)))
        self.query_one("#replay-hands", Static).update(Text("\n".join(hands)))
        feed = self.query_one("#replay-feed", Log)
        feed.clear()
        lines = [
            f"{self.steps[index].update.version:>5} {text}"
            for index in range(max(0, self.index + 1 - FEED_LINES), self.index + 1)
            for text in self.texts[index]
        ]
        feed.write_lines(lines[-FEED_LINES:])
        self.query_one("#replay-position", Static).update(Text(self.position_text()))

    def action_step(self, by: int) -> None:
        self.go_to(self.index + by)

    def go_to(self, index: int) -> None:
        self.index = min(max(index, 0), max(len(self.steps) - 1, 0))
        if self.index == len(self.steps) - 1:
            self._pause()
        self._draw()

    def action_jump(self) -> None:
        field = self.query_one("#replay-jump", Input)
        field.display = True
        field.value = ""
        field.focus()

    @on(Input.Submitted, "#replay-jump")
    def _jumped(self, event: Input.Submitted) -> None:
        field = self.query_one("#replay-jump", Input)
        field.display = False
        if event.value.strip().lstrip("-").isdigit() and self.steps:
            self.go_to(int(event.value) - self.steps[0].update.version)

    def action_play(self) -> None:
        if self.playing:
            self._pause()
        elif self.steps:
            if self.index == len(self.steps) - 1:
                self.index = 0  # (played to the end: from the start again)
            self.playing = True
            self._start_timer()
        self._draw()

    def action_speed(self, by: int) -> None:
        self.speed = min(max(self.speed + by, 0), len(SPEEDS) - 1)
        if self.playing:
            self._start_timer()
        self._draw()

    def tick(self) -> None:
        """One step of play (the timer's, at the speed chosen)."""
        if self.playing:
            self.go_to(self.index + 1)

    def _start_timer(self) -> None:
        if self._timer is not None:
            self._timer.stop()
        self._timer = self.set_interval(1 / SPEEDS[self.speed], self.tick)

    def _pause(self) -> None:
        self.playing = False
        if self._timer is not None:
            self._timer.stop()
            self._timer = None

    def action_close(self) -> None:
        jump = self.query_one("#replay-jump", Input)
        if jump.display:
            jump.display = False
            return
        self._pause()
        self.dismiss()
