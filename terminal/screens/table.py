"""The table: one room followed live on the seat's play stream (or a spectator's event stream), its view drawn by
:mod:`terminal.tables`, the seat's legal moves (choosing one submits it), the turn's clocks, the end, and the room's
chat (:mod:`terminal.screens.chat`: the stream carries it; after the game, FollowChat), and the fair deal: its
commitment during play, and once the game is over the client's own check of the revealed secret
(terminal.tables.deal_lines)."""

from __future__ import annotations

import contextlib
from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Footer, Header, Input, Log, OptionList, Static

from kickoff.v1 import common_pb2, move_pb2, room_pb2
from terminal.client import CallFailed, KickoffClient, PlayItem, RoomStream, Ticket, ViewSnapshot, new_request_id
from terminal.screens.chat import ChatPane
from terminal.screens.private import InviteScreen
from terminal.screens.shared import MODE_TEXT, open_replay, rating_text, timestamp_seconds
from terminal.tables import SeatBook, deal_lines, move_label, outcome_lines, room_event_text, view_parts

REMATCH_LOOK_SECONDS = 5.0  # how often an open rematch is read again
REMATCH_ACTIONS = ("propose_rematch", "answer_rematch", "join_rematch", "look_rematch")
ANSWER_TEXT = {
    room_pb2.REMATCH_ANSWER_WAITING: "asked",
    room_pb2.REMATCH_ANSWER_ACCEPTED: "accepted",
    room_pb2.REMATCH_ANSWER_DECLINED: "declined",
    room_pb2.REMATCH_ANSWER_NO_ANSWER: "did not answer",
}
REFUSED_TEXT = {"declined": "a player declined", "no_answer": "a player did not answer in time"}
CHAT_ACTIONS = ("write", "react", "pick", "report", "block")


class TableScreen(Screen[None]):
    """One room, followed live: the seats (a player's with their rating in this game), the table, the hand, whose
    turn it is and their clock, the events, the seat's legal moves (choosing one submits it), and the room's chat
    (the players' channel for a seat). A spectator (no ticket) sees the public view, the spectators' chat and no
    moves."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel_chat", "Cancel"),  # (a message, a reaction or a report begun: first in line)
        Binding("escape", "back('lobby')", "Lobby"),
        Binding("escape", "back('games')", "My games"),
        Binding("l", "leave", "Back", show=False),
        Binding("m", "focus('#moves')", "Moves"),
        Binding("e", "focus('#feed')", "Events"),
        Binding("r", "reconnect", "Reconnect"),
        Binding("x", "give_back", "Give seat back"),
        Binding("v", "replay", "Replay"),
        Binding("i", "invite", "Invite"),  # (a seat of a room still waiting: a link, a friend)
        # The rematch, once the game is over (a seat's keys: the rematch panel says which apply).
        Binding("n", "propose_rematch", "Rematch"),
        Binding("y", "answer_rematch(True)", "Accept rematch"),
        Binding("d", "answer_rematch(False)", "Decline"),
        Binding("j", "join_rematch", "Join rematch"),
        Binding("u", "look_rematch", "Look again", show=False),
        # The room's chat (the pane's line says which apply): write, quick reactions (then 1-6), pick a message.
        Binding("t", "chat('write')", "Talk"),
        Binding("q", "chat('react')", "Reactions"),
        Binding("c", "chat('pick')", "Chat"),
        Binding("p", "chat('report')", "Report"),
        Binding("b", "chat('block')", "Block sender"),
        *[Binding(str(key), f"reaction({key})", show=False) for key in range(1, 7)],
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
        # The room's deal: Room.deal, then GameStarted's (with the seeds), then GameEnded's secret.
        self.deal: common_pb2.Deal | None = None
        self.refusal_text = ""
        self.stream: RoomStream | None = None
        self.stream_over = False
        self._offset: float | None = None  # the server's clock minus the local monotonic clock (an estimate)
        self._view_busy = False
        self._view_again = False
        self._ticker: Timer | None = None
        self._looked_up: set[str] = set()  # the players whose rating was asked for
        self.rematch: room_pb2.Rematch | None = None  # the finished room's rematch, as last read (None: none yet)
        self.rematch_looks = 0  # the rematch's reads and answers done (tests wait for the next)

    @property
    def client(self) -> KickoffClient:
        return self.app.client  # type: ignore[attr-defined]

    @property
    def seat_token(self) -> str | None:
        """The seat's token (None for a spectator): what shows an unlisted room to the seat."""
        return self.ticket.token if self.ticket is not None else None

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
                yield Static("", id="deal")
            with Vertical(id="table-side"):
                yield OptionList(id="moves")
                yield Static("", id="outcome")
                yield Static("", id="rematch")
        yield Static("", id="turn")
        yield Static("", id="notice")
        with Horizontal(id="lower"):
            yield Log(id="feed", max_lines=500, auto_scroll=True)
            yield ChatPane(self.room_id, self.ticket, id="chat-side")
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = self._subtitle()
        self.query_one("#seats", Static).border_title = "Seats"
        self.query_one("#state", Static).border_title = "Table"
        self.query_one("#hand", Static).border_title = "Your hand" if self.viewer is not None else "Hand"
        self.query_one("#moves", OptionList).border_title = "Your moves" if self.viewer is not None else "Moves"
        self.query_one("#feed", Log).border_title = "Events"
        self.query_one("#outcome", Static).display = False
        self.query_one("#deal", Static).border_title = "Fair deal"
        self.query_one("#deal", Static).display = False
        self.query_one("#rematch", Static).display = False
        if self.viewer is None:  # the board takes the width until the outcome is shown
            self.query_one("#hand", Static).update("spectator: no hand")
            self.query_one("#moves", OptionList).display = False
            self.query_one("#table-side").display = False
        self._ticker = self.set_interval(0.5, self._draw_turn)
        self.set_interval(REMATCH_LOOK_SECONDS, self._look_again)
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
        if action == "invite":  # a link to an unlisted room, or a friend (a player's seat), while the room waits
            unlisted = self.room is not None and self.room.unlisted
            return self.ticket is not None and self.status == common_pb2.ROOM_STATUS_WAITING and (unlisted or self.held)
        if action in REMATCH_ACTIONS:
            return self._rematch_offers(action)
        if action == "chat":
            return self.chat.may(str(parameters[0]))
        if action == "cancel_chat":
            return bool(self.chat.mode)
        if action == "reaction":
            return self.chat.mode == "react"
        return True

    # -- the chat -----------------------------------------------------------------------------------------------------

    @property
    def chat(self) -> ChatPane:
        return self.query_one(ChatPane)

    def action_chat(self, what: str) -> None:
        chat = self.chat
        if not chat.may(what):
            return
        if what == "pick":
            self.query_one("#chat", OptionList).focus()
        elif what == "block":
            chat.block_picked()
        else:
            chat.begin(what)

    def action_cancel_chat(self) -> None:
        self.chat.cancel()

    def action_reaction(self, index: int) -> None:
        self.chat.react(index)

    def _chat_after(self) -> int | None:
        """The seq a room stream's chat resumes after (None: ask for none, the room's chat is off)."""
        return None if self.chat.off else self.chat.last_seq

    async def _follow_chat(self) -> None:
        """After the game (the room's stream ended with it), the room's chat from the last seq seen."""
        try:
            async for message in self.client.follow_chat(self.room_id, self.seat_token, self.chat.last_seq):
                self.chat.take(message)
        except CallFailed as failed:
            self.chat.draw_line(f"The chat broke off: {failed.refusal}")

    # -- the rematch --------------------------------------------------------------------------------------------------

    def _my_answer(self) -> int:
        rematch = self.rematch
        seats = [seat for seat in rematch.seats if seat.seat == self.viewer] if rematch is not None else []
        return seats[0].answer if seats else room_pb2.REMATCH_ANSWER_UNSPECIFIED

    def _rematch_offers(self, action: str) -> bool:
        """Whether a rematch key applies: a seat's, once the game is over, as the rematch stands."""
        if self.ticket is None or not self.finished:
            return False
        rematch = self.rematch
        if action == "propose_rematch":
            return rematch is None
        if action == "answer_rematch":
            open_ = rematch is not None and rematch.status == room_pb2.REMATCH_STATUS_OPEN
            return open_ and self._my_answer() == room_pb2.REMATCH_ANSWER_WAITING
        if action == "join_rematch":
            made = rematch is not None and rematch.status == room_pb2.REMATCH_STATUS_MADE
            return made and self._my_answer() == room_pb2.REMATCH_ANSWER_ACCEPTED
        return rematch is not None  # look again

    def action_propose_rematch(self) -> None:
        if self.ticket is not None and self.finished:
            call = self.client.propose_rematch(self.room_id, self.ticket.token)
            self.run_worker(self._rematch_call(call), group="rematch", exclusive=True)

    def action_answer_rematch(self, accept: bool) -> None:
        if self.ticket is not None and self._rematch_offers("answer_rematch"):
            call = self.client.answer_rematch(self.room_id, self.ticket.token, accept=accept)
            self.run_worker(self._rematch_call(call), group="rematch", exclusive=True)

    def action_look_rematch(self) -> None:
        if self.ticket is not None and self.finished:
            call = self.client.get_room(self.room_id, self.seat_token)
            self.run_worker(self._rematch_call(call), group="rematch", exclusive=True)

    def _look_again(self) -> None:
        """Every few seconds while a rematch is open, read it again (the room's stream ended with the game)."""
        if self.rematch is not None and self.rematch.status == room_pb2.REMATCH_STATUS_OPEN and self.is_current:
            self.action_look_rematch()

    def action_join_rematch(self) -> None:
        if self.ticket is not None and self._rematch_offers("join_rematch"):
            self.run_worker(self._join_rematch(), group="rematch", exclusive=True)

    async def _join_rematch(self) -> None:
        """Sit down in the rematch: the seat's acceptance sent again answers the new room's seat and its token."""
        assert self.ticket is not None
        try:
            _, ticket = await self.client.answer_rematch(self.room_id, self.ticket.token, accept=True)
        except CallFailed as failed:
            self._notice(f"Cannot join the rematch: {failed.refusal}", refusal=True)
            return
        if ticket is None:
            self._notice("The rematch has no seat for you.", refusal=True)
            return
        if self.stream is not None:
            await self.stream.close()
        self.workers.cancel_group(self, "stream")
        self.workers.cancel_group(self, "chat")
        self.app.switch_screen(TableScreen(ticket.room.room_id, ticket, back=self.back))

    async def _rematch_call(self, call: Any) -> None:
        """A rematch call (or a read of the room): the rematch as it now stands, drawn."""
        try:
            answer = await call
        except CallFailed as failed:
            self._notice(f"Rematch: {failed.refusal}", refusal=True)
            self.rematch_looks += 1
            return
        room = answer[0] if isinstance(answer, tuple) else answer
        self.rematch = room.rematch if room.HasField("rematch") else None
        self._notice("")
        self._draw_rematch()
        self.rematch_looks += 1
        self.refresh_bindings()

    def _draw_rematch(self) -> None:
        panel = self.query_one("#rematch", Static)
        panel.border_title = "Rematch"
        panel.display = self.ticket is not None and self.finished
        panel.update(Text(self.rematch_text()))

    def rematch_text(self) -> str:
        """What the rematch panel says: the proposal, each person's answer, and the keys that apply."""
        rematch = self.rematch
        if rematch is None:
            return "n: propose a rematch (the same seats, a new deal)"
        lines = [f"Proposed by {self.book.name(rematch.proposed_by)}"]
        for seat in rematch.seats:
            filled = " (a system player plays)" if seat.filled else ""
            lines.append(f"  {self.book.title(seat.seat)}: {ANSWER_TEXT.get(seat.answer, '?')}{filled}")
        if rematch.status == room_pb2.REMATCH_STATUS_MADE:
            join = "j: join it" if self._my_answer() == room_pb2.REMATCH_ANSWER_ACCEPTED else ""
            lines.append(f"Made: room {rematch.room_id}. {join}".rstrip())
        elif rematch.status == room_pb2.REMATCH_STATUS_REFUSED:
            lines.append(f"No rematch: {REFUSED_TEXT.get(rematch.reason, rematch.reason)}")
        elif self._my_answer() == room_pb2.REMATCH_ANSWER_WAITING:
            lines.append("y: accept, d: decline")
        else:
            lines.append("Waiting for the others (u: look again)")
        return "\n".join(lines)

    def action_invite(self) -> None:
        if self.check_action("invite", ()) and self.ticket is not None and self.room is not None:
            self.app.push_screen(InviteScreen(self.room, self.ticket))

    def action_replay(self) -> None:
        if self.finished:
            self.run_worker(open_replay(self, self.room_id, self.seat_token), group="replay", exclusive=True)

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
            self.room = await self.client.get_room(self.room_id, self.seat_token)
            for seat in self.room.seats:
                self.book.take(seat)
            self._take_deal(self.room)
            self._want_ratings()
            self.sub_title = self._subtitle()
            self.chat.set_room(self.room)
            chat = self._chat_after()
            if self.ticket is not None:
                self.stream = await self.client.play(
                    self.room_id, self.ticket.token, after_version, after_chat_seq=chat
                )
            else:
                self.stream = await self.client.watch(self.room_id, after_version, after_chat_seq=chat)
            if after_version:
                self._notice("")
            self._want_view()
            async for item in self.stream:
                await self._apply(item)
                if self.finished and self.outcome is not None:
                    break
            if self.finished and self.deal is not None and not self.deal.secret:  # (not with the end: read it)
                self._take_deal(await self.client.get_room(self.room_id, self.seat_token))
            if self.finished and not self.chat.off:  # the room's chat goes on after the game, on its own stream
                self.run_worker(self._follow_chat(), group="chat", exclusive=True)
            if self.finished and self.ticket is not None:  # the rematch, as it stands
                await self._rematch_call(self.client.get_room(self.room_id, self.seat_token))
        except CallFailed as failed:
            self._notice(f"The room's stream broke off: {failed.refusal}. r: reconnect", refusal=True)
        finally:
            self.stream_over = True
            self.refresh_bindings()
            if self.stream is not None:
                await self.stream.close()

    async def _apply(self, item: PlayItem) -> None:
        if item.chat is not None:
            self.chat.take(item.chat)
            return
        if item.refusal is not None:
            if item.refusal.request_id == self.pending or not self.pending:
                self.pending = ""
            self._notice(f"Refused: {item.refusal}", refusal=True)
        update = item.update
        if update is not None:
            # An update is made before it is sent: its time less the local clock on arrival is at most the server's
            # lead on the local clock, and the largest such difference seen is the best estimate of it.
            lead = timestamp_seconds(update.time) - self.app.monotonic()  # type: ignore[attr-defined]
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
                if event.WhichOneof("kind") == "game_started" and event.game_started.deal.commitment:
                    self.deal = common_pb2.Deal()
                    self.deal.CopyFrom(event.game_started.deal)
                if event.WhichOneof("kind") == "game_ended":
                    if event.game_ended.deal_secret and self.deal is not None:
                        self.deal.secret = event.game_ended.deal_secret
                    self.outcome = event.game_ended.outcome
                    self.book.results = tuple(self.outcome.results)
                    self._want_ratings(again=True)  # a rated game's end changed them
            self._want_ratings()  # (a seat taken by a player)
            self._want_view()
        if item.accepted and item.accepted == self.pending:
            self.pending = ""
            self._notice("")  # the refusal shown before, if any, is over
        self._draw_moves()
        self._draw_turn()
        self._draw_deal()
        if self.finished:
            self._draw_outcome()

    # -- the fair deal ------------------------------------------------------------------------------------------------

    def _take_deal(self, room: room_pb2.Room) -> None:
        if room.HasField("deal") and room.deal.commitment:
            self.deal = common_pb2.Deal()
            self.deal.CopyFrom(room.deal)
        self._draw_deal()

    def deal_text(self) -> str:
        """What the deal panel says ("" for a room made before fair deals)."""
        game = self.room.game if self.room is not None else ""
        seat = self.book.seats.get(self.viewer) if self.viewer is not None else None
        hint = f"Deal the whole game again: kickoff replay --room {self.room_id} --save FILE, then kickoff verify FILE"
        return "\n".join(deal_lines(self.deal, game, seat.seed if seat is not None else "", file_hint=hint))

    def _draw_deal(self) -> None:
        if not self.is_attached:
            return
        panel = self.query_one("#deal", Static)
        text = self.deal_text()
        panel.display = bool(text)
        panel.update(Text(text))

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
        picking = self.focused is not None and self.chat in self.focused.ancestors_with_self
        if self.legal and not isinstance(self.focused, Input) and not picking:  # (a message picked keeps the focus)
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
        return max(0.0, timestamp_seconds(clock.deadline) - (self.app.monotonic() + self._offset))  # type: ignore[attr-defined]

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

    def notice(self, text: str, *, refusal: bool = False) -> None:
        """Show a line under the turn (the chat pane's refusals show there, as a refused move's do)."""
        self._notice(text, refusal=refusal)

    def _notice(self, text: str, *, refusal: bool = False) -> None:
        """Show a line under the turn: a refusal (kept in ``refusal_text`` until the next notice) or news. Nothing once
        the screen is gone (a stream that breaks off as the app closes)."""
        if not self.is_attached:
            return
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
        self.workers.cancel_group(self, "chat")
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
