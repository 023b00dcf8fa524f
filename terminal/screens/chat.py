"""The table's chat pane (issue 49): the room's messages the reader gets, a line to write one, the quick reactions,
and a message picked to report it or block its sender.

The messages come from the room's stream (the table asks it for chat, and after the game from FollowChat); the pane
keeps them by seq, so a withdrawal blanks the message it names. Every line is built as a :class:`rich.text.Text` from
plain strings: what people write is never read as markup ("[b]" stays "[b]")."""

from __future__ import annotations

import contextlib
from typing import Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option, OptionDoesNotExist

from kickoff.v1 import chat_pb2, room_pb2
from terminal.client import CallFailed, KickoffClient, Refusal, Ticket
from terminal.tables import REACTION_TEXT, REACTIONS

WITHDRAWN = "(message withdrawn)"
TEXT_MAX = 1000  # the most characters the contract takes in a message (the server's own bound is 300 by default)
KEYS_TEXT = "t: talk · q: reactions · c: pick a message (p: report it, b: block its sender)"
REACT_TEXT = " · ".join(f"{key} {words}" for key, (_, words) in enumerate(REACTIONS, 1)) + " · Esc: cancel"


def message_text(message: chat_pb2.ChatMessage) -> Text:
    """A message's line: "name: text" (a reaction in words), "(message withdrawn)" for a withdrawn one; the team
    channel's marked "(team)". Built from plain strings, never parsed as markup."""
    if message.withdrawn:
        return Text(WITHDRAWN, style="dim italic")
    said = REACTION_TEXT.get(message.reaction, "") if message.reaction else message.text
    line = Text()
    if message.channel == chat_pb2.CHAT_CHANNEL_TEAM:
        line.append("(team) ", style="dim")
    line.append(message.name or "someone", style="bold")
    line.append(": ")
    line.append(said, style="italic" if message.reaction else "")
    return line


def muted_text(refusal: Refusal) -> str:
    """What the pane says of a send refused with ``muted``: until when (the refusal's ErrorInfo says, RFC 3339)."""
    until = refusal.detail("until")
    if not until:
        return "muted until an operator ends it"
    day, _, time = until.partition("T")
    return f"muted until {day} {time.rstrip('Z')[:5]} UTC"


class ChatPane(Vertical):
    """The room's chat at the table: its messages, and what the reader may do (``mode``: "" nothing under way,
    "write", "react", "report")."""

    def __init__(self, room_id: str, ticket: Ticket | None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.room_id = room_id
        self.ticket = ticket
        self.chat_mode = chat_pb2.CHAT_MODE_ON
        self.messages: dict[int, chat_pb2.ChatMessage] = {}  # by seq, as the reader got them (withdrawals too)
        self.last_seq = 0  # the highest seq the reader got: a stream opened again resumes after it
        self.received = 0  # chat items the streams delivered (tests count them: a resume sends no old one again)
        self.answered = 0  # sends, reports and blocks answered (done or refused)
        self.blocked: set[str] = set()  # players blocked from here: their messages leave the pane
        self.mode = ""
        self.report_seq = 0
        self.muted = ""  # "muted until ..." after a send refused with muted (until a send passes)
        self.said = ""  # the pane's last word on what was done ("Reported.", "Blocked Bo.")

    @property
    def client(self) -> KickoffClient:
        return self.app.client  # type: ignore[attr-defined, no-any-return]

    @property
    def seat_token(self) -> str | None:
        return self.ticket.token if self.ticket is not None else None

    def compose(self) -> ComposeResult:
        yield OptionList(id="chat")
        yield Input(id="chat-input", max_length=TEXT_MAX)
        yield Static("", id="chat-line")

    def on_mount(self) -> None:
        self.query_one("#chat", OptionList).border_title = "Table talk" if self.ticket else "Spectators' chat"
        self.query_one("#chat-input", Input).display = False
        self.draw_line()

    # -- who may do what ----------------------------------------------------------------------------------------------

    @property
    def player(self) -> bool:
        """Whether the reader is a signed-in player here: a player's seat, or a signed-in spectator."""
        if self.ticket is not None:
            return bool(self.ticket.player_id) and self.client.signed_in
        return self.client.signed_in

    @property
    def off(self) -> bool:
        return self.chat_mode == chat_pb2.CHAT_MODE_OFF

    def may(self, action: str) -> bool:
        """Whether a chat key applies now: "write" (text: a signed-in player, where the room takes text), "react"
        (a seat, or a signed-in spectator), "pick" (there is a message), "report" and "block" (a message picked that
        a signed-in player may report, or whose sender they may block)."""
        if self.off or self.mode:
            return False
        if action == "write":
            return self.player and self.chat_mode != chat_pb2.CHAT_MODE_REACTIONS
        if action == "react":
            return self.ticket is not None or self.client.signed_in
        if action == "pick":
            return self.query_one("#chat", OptionList).option_count > 0
        picked = self.picked()
        if picked is None or not self.player or not self.query_one("#chat", OptionList).has_focus:
            return False
        if action == "report":
            return not picked.withdrawn
        mine = self.client.session.player_id if self.client.session is not None else ""
        return action == "block" and bool(picked.player_id) and picked.player_id != mine

    def picked(self) -> chat_pb2.ChatMessage | None:
        option = self.query_one("#chat", OptionList).highlighted_option
        return self.messages.get(int(option.id)) if option is not None and option.id else None

    # -- the messages -------------------------------------------------------------------------------------------------

    def set_room(self, room: room_pb2.Room) -> None:
        self.chat_mode = room.chat or chat_pb2.CHAT_MODE_ON
        self.display = not self.off
        self.draw_line()

    def take(self, message: chat_pb2.ChatMessage) -> None:
        """A message out of a stream: shown (unless its sender is blocked, or the pane has it), or, a withdrawal,
        the message it names blanked."""
        self.received += 1
        if message.seq in self.messages:
            return
        self.messages[message.seq] = message
        self.last_seq = max(self.last_seq, message.seq)
        options = self.query_one("#chat", OptionList)
        if message.withdraws_seq:
            withdrawn = self.messages.get(message.withdraws_seq)
            if withdrawn is not None and not withdrawn.withdrawn:
                blank = chat_pb2.ChatMessage()
                blank.CopyFrom(withdrawn)
                blank.withdrawn, blank.text, blank.reaction = True, "", chat_pb2.CHAT_REACTION_UNSPECIFIED
                self.messages[blank.seq] = blank
                if blank.player_id not in self.blocked:
                    options.replace_option_prompt(str(blank.seq), message_text(blank))
            return
        if message.player_id and message.player_id in self.blocked:
            return
        at_end = options.highlighted is None or options.highlighted == options.option_count - 1
        options.add_option(Option(message_text(message), id=str(message.seq)))
        if at_end and not options.has_focus:
            options.highlighted = options.option_count - 1  # (the newest in sight, unless a message is picked)

    def lines(self) -> list[str]:
        """The pane's lines as the reader sees them."""
        return [str(option.prompt) for option in self.query_one("#chat", OptionList).options]

    def draw_line(self, text: str = "") -> None:
        """The line under the messages: what is under way, the muted state, what was done, or the keys."""
        if text:
            self.said = text
        if self.off:
            line = "Chat is off at this table."
        elif self.mode == "react":
            line = REACT_TEXT
        elif self.mode == "write":
            line = "Enter: send · Esc: cancel"
        elif self.mode == "report":
            line = "Why do you report it? (optional) Enter: report · Esc: cancel"
        else:
            if self.ticket is None and not self.client.signed_in:
                keys = "Sign in (s in the lobby) to chat: you read the spectators' channel."
            elif not self.player:
                keys = "Reactions only (q): an anonymous seat cannot write; sign in (s in the lobby) to."
            elif self.chat_mode == chat_pb2.CHAT_MODE_REACTIONS:
                keys = "This table takes quick reactions only (q)."
            else:
                keys = KEYS_TEXT
            line = " · ".join(part for part in (self.muted, self.said, keys) if part)
        self.query_one("#chat-line", Static).update(Text(line))

    # -- writing, reacting, reporting, blocking -----------------------------------------------------------------------

    def begin(self, mode: str) -> None:
        """Open the line for ``mode`` ("write", "report" the picked message, or "react": then keys 1-6)."""
        if mode == "report":
            picked = self.picked()
            if picked is None:
                return
            self.report_seq = picked.seq
        self.mode = mode
        self.said = ""
        if mode in ("write", "report"):
            line = self.query_one("#chat-input", Input)
            line.value = ""
            line.placeholder = "a message to the table" if mode == "write" else "the reason (optional)"
            line.display = True
            line.focus()
        self.draw_line()
        self.screen.refresh_bindings()

    def cancel(self) -> None:
        line = self.query_one("#chat-input", Input)
        had_focus = line.has_focus
        line.display = False
        self.mode = ""
        self.draw_line()
        if had_focus:
            self.screen.set_focus(None)
        self.screen.refresh_bindings()

    @on(Input.Submitted, "#chat-input")
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        mode, text = self.mode, event.value.strip()
        if mode == "write" and text:
            self.run_worker(self._send(text=text), group="chat-send")
        elif mode == "report":
            self.run_worker(self._report(self.report_seq, text), group="chat-send")
        self.cancel()

    def react(self, index: int) -> None:
        if self.mode == "react" and 1 <= index <= len(REACTIONS):
            self.cancel()
            self.run_worker(self._send(reaction=REACTIONS[index - 1][0]), group="chat-send")

    def block_picked(self) -> None:
        picked = self.picked()
        if picked is not None and self.may("block"):
            self.run_worker(self._block(picked.player_id, picked.name), group="chat-send")

    async def _send(self, *, text: str = "", reaction: int = 0) -> None:
        try:
            await self.client.send_chat(self.room_id, self.seat_token, text=text, reaction=reaction)
        except CallFailed as failed:
            if failed.refusal.reason == "muted":
                self.muted = muted_text(failed.refusal)
            else:
                self._refused(failed.refusal)
        else:  # (the message itself comes back on the room's stream, in its place among the others)
            self.muted = ""
        self.answered += 1
        self.draw_line()

    async def _report(self, seq: int, reason: str) -> None:
        try:
            await self.client.report_chat(self.room_id, self.seat_token, seq, reason)
        except CallFailed as failed:
            self._refused(failed.refusal)
        else:
            self.draw_line("Reported: the moderators will read it.")
        self.answered += 1

    async def _block(self, player_id: str, name: str) -> None:
        try:
            await self.client.block(player_id)
        except CallFailed as failed:
            self._refused(failed.refusal)
        else:
            self.blocked.add(player_id)
            options = self.query_one("#chat", OptionList)
            for message in self.messages.values():
                if message.player_id == player_id and not message.withdraws_seq:
                    with contextlib.suppress(OptionDoesNotExist):
                        options.remove_option(str(message.seq))
            self.draw_line(f"Blocked {name}: you see no more of their messages.")
            self.screen.refresh_bindings()
        self.answered += 1

    def _refused(self, refusal: Refusal) -> None:
        """A refusal, as the table shows a refused move's: its status, reason and message."""
        self.screen.notice(f"Refused: {refusal}", refusal=True)  # type: ignore[attr-defined]
