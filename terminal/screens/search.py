"""Play now's search: a ticket in a game's matchmaking queue followed until it ends, at a table (taken up at once)
or back in the lobby."""

from __future__ import annotations

import contextlib
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Footer, Header, Static

from kickoff.v1 import common_pb2, match_pb2
from terminal.client import CallFailed, KickoffClient
from terminal.screens.shared import refused, seat_counts, timestamp_seconds
from terminal.screens.table import TableScreen

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
            self.expires = timestamp_seconds(ticket.expire_time)

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
            searched = self.expires - timestamp_seconds(ticket.create_time) if self.expires else 0.0
            after = f" after {minutes(searched)}" if searched > 0 else ""
            return f"No {self.game_title} table was found in time: the search expired{after}. p: play now again."
        if self.cancelling:
            return f"Search cancelled: you left the {self.game_title} queue. p: play now again."
        return f"Your {self.game_title} ticket was cancelled (by another member, or another client). p: play now."

    def _back(self, text: str) -> None:
        """Back to the lobby, which says ``text``."""
        self.ended = True
        self._stop()
        self.app.tell_lobby(text)  # type: ignore[attr-defined]
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
        return max(0.0, self.app.clock() - timestamp_seconds(self.ticket.create_time))  # type: ignore[attr-defined]

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
