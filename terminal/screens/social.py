"""A signed-in player's people (issue 48): their inbox (newest first, marked read), their friends (their friend
code, adding one by code, the requests they received, each friend's presence, who sees their own presence, removing
or blocking one), and the invitations to a room friends sent them (accepted: the table opens; declined). They only
call the server's InboxService, FriendService, PresenceService and RoomService through :mod:`terminal.client`."""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, Input, Label, Static

from kickoff.v1 import inbox_pb2, presence_pb2, room_pb2
from terminal.client import CallFailed, KickoffClient
from terminal.screens.players import PagedScreen
from terminal.screens.shared import plural, refused
from terminal.screens.table import TableScreen

PRESENCE_TEXT = {
    presence_pb2.PRESENCE_STATE_AWAY: "away",
    presence_pb2.PRESENCE_STATE_ONLINE: "online",
    presence_pb2.PRESENCE_STATE_SEARCHING: "looking for a table",
    presence_pb2.PRESENCE_STATE_AT_TABLE: "at a table",
}


def _field(data: Any, name: str) -> str:
    value = data.fields.get(name)
    if value is None:
        return ""
    kind = value.WhichOneof("kind")
    if kind == "number_value":
        return str(int(value.number_value))
    return str(getattr(value, kind)) if kind in ("string_value", "bool_value") else ""


def item_text(item: inbox_pb2.InboxItem) -> str:
    """What an inbox item says, in a line (a kind the client does not know: its kind alone)."""
    data = item.data
    room, game = _field(data, "room_id"), _field(data, "game")
    if item.kind == "friend.requested":
        return f"{_field(data, 'other_name') or 'someone'} asked to be your friend (f: friends)"
    if item.kind == "friend.accepted":
        return f"{_field(data, 'other_name') or 'someone'} is your friend now"
    if item.kind == "room.invited":
        return f"{_field(data, 'from_name') or 'a friend'} invited you to {game} room {room} (t: your invitations)"
    if item.kind == "rematch.proposed":
        return f"a rematch of {game} room {room} was proposed by seat {_field(data, 'proposed_by')}"
    if item.kind == "turn.began":
        return f"your turn in {game} room {room}"
    if item.kind == "match.found":
        return f"a {game} table was found for you"
    if item.kind == "chat.message":
        count = _field(data, "count")
        more = f" ({count} messages)" if count not in ("", "1") else ""
        return f"{_field(data, 'from_name') or 'someone'} wrote in your {game} room {room}{more}"
    if item.kind == "tournament.game_ready":
        return f"your tournament's next game is ready: room {room}"
    return item.kind


class InboxScreen(PagedScreen):
    """The signed-in player's inbox, newest first, a page at a time: an unread item is marked "new"; Enter (a) marks
    the highlighted item read, A every item read, d deletes the highlighted item, t opens the player's invitations to
    a room (where an invitation is answered)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("a", "mark_read", "Mark read"),
        Binding("A", "mark_all_read", "All read"),
        Binding("d", "delete", "Delete"),
        Binding("t", "invitations", "Invitations"),
    ]

    def __init__(self, page_size: int) -> None:
        super().__init__(page_size)
        self.items: list[inbox_pb2.InboxItem] = []
        self.unread = 0

    def compose(self) -> ComposeResult:
        yield Header()
        yield Label("Inbox (newest first)", classes="heading")
        yield DataTable(id="inbox", cursor_type="row", zebra_stripes=True)
        yield Static("", id="inbox-status", classes="page-status")
        yield Footer()

    def on_mount(self) -> None:
        session = self.client.session
        self.sub_title = f"inbox - {session.name if session else ''}"
        table = self.query_one("#inbox", DataTable)
        table.add_columns("", "When", "What")
        table.focus()

    async def load(self, token: str) -> None:
        try:
            page = await self.client.list_inbox(page_size=self.page_size, page_token=token)
        except CallFailed as failed:
            self.say(refused(failed))
            return
        self.items, self.next_token, self.unread = page.items, page.next_token, page.unread
        table = self.query_one("#inbox", DataTable)
        row = table.cursor_row
        table.clear()
        for item in self.items:
            when = item.create_time.ToDatetime().strftime("%d %b %H:%M")
            table.add_row("new" if not item.read else "", when, Text(item_text(item)), key=str(item.item_id))
        if self.items:
            table.move_cursor(row=min(row, len(self.items) - 1))
        more = " n: next page." if self.next_token else ""
        if self.items:
            self.say(f"{self.unread} unread. Enter (a): mark read, A: all read, d: delete.{more}")
        elif self.page > 1:
            self.say("No more items. p: the previous page.")
        else:
            self.say("Your inbox is empty: invitations, friend requests and rematches come here.")

    def selected(self) -> inbox_pb2.InboxItem | None:
        table = self.query_one("#inbox", DataTable)
        if not table.row_count:
            return None
        row_key, _ = table.coordinate_to_cell_key((table.cursor_row, 0))
        return next((item for item in self.items if str(item.item_id) == row_key.value), None)

    @on(DataTable.RowSelected, "#inbox")
    def action_mark_read(self) -> None:
        item = self.selected()
        if item is not None and not item.read:
            self.run_worker(self._changed(self.client.mark_inbox_read([item.item_id])), group="page", exclusive=True)

    def action_invitations(self) -> None:
        self.app.push_screen(RoomInvitationsScreen())

    def action_mark_all_read(self) -> None:
        if self.items:
            newest = max(item.item_id for item in self.items)
            self.run_worker(self._changed(self.client.mark_inbox_read(up_to=newest)), group="page", exclusive=True)

    def action_delete(self) -> None:
        item = self.selected()
        if item is not None:
            self.run_worker(self._changed(self.client.delete_inbox_item(item.item_id)), group="page", exclusive=True)

    async def _changed(self, call: Any) -> None:
        try:
            await call
        except CallFailed as failed:
            self.say(refused(failed))
            return
        await self._loaded()


class FriendsScreen(Screen[None]):
    """The signed-in player's friend code, who sees their presence (v: their friends or nobody), the requests they
    received (a: accept, x: decline), their friends with each one's presence (R: remove, B: block), and adding a
    friend by code (the input: Enter sends)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "app.pop_screen", "Lobby"),
        Binding("a", "accept", "Accept"),
        Binding("x", "decline", "Decline"),
        Binding("R", "remove", "Remove"),
        Binding("B", "block", "Block"),
        Binding("c", "focus('#friend-code-input')", "Add by code"),
        Binding("r", "refresh", "Refresh"),
        Binding("v", "visibility", "Who sees me"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.code = ""
        self.visibility = presence_pb2.PRESENCE_VISIBILITY_UNSPECIFIED  # who sees the player's presence, as last read
        self.loads = 0  # loads done (tests wait for the next)
        self.rows: dict[str, tuple[str, str]] = {}  # row key -> (what: "received" / "friend" / "sent", player id)

    @property
    def client(self) -> KickoffClient:
        return self.app.client  # type: ignore[attr-defined]

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("", id="friend-code")
        yield Static("", id="presence-line")
        yield Label("Add a friend by their code (c): Enter sends", classes="heading")
        yield Input(placeholder="a friend code", id="friend-code-input", max_length=16)
        yield Label("Requests and friends", classes="heading")
        yield DataTable(id="friends", cursor_type="row", zebra_stripes=True)
        yield Static("", id="friends-status", classes="page-status")
        yield Footer()

    def on_mount(self) -> None:
        session = self.client.session
        self.sub_title = f"friends - {session.name if session else ''}"
        table = self.query_one("#friends", DataTable)
        table.add_columns("Who", "", "Now")
        table.focus()

    def on_screen_resume(self) -> None:
        self.action_refresh()

    def say(self, text: str) -> None:
        self.query_one("#friends-status", Static).update(Text(text))

    def action_refresh(self) -> None:
        self.run_worker(self._load(), group="friends", exclusive=True)

    async def _load(self, said: str = "") -> None:
        try:
            if not self.code:
                self.code = await self.client.friend_code()
            listed = await self.client.list_friends()
            seen_now = await self.client.friends_presence()
        except CallFailed as failed:
            self.say(refused(failed))
            self.loads += 1
            return
        self.query_one("#friend-code", Static).update(
            Text(f"Your friend code: {self.code} (give it to a friend, who adds you with it)")
        )
        presence = seen_now.friends
        self._show_visibility(seen_now.visibility)
        table = self.query_one("#friends", DataTable)
        table.clear()
        self.rows = {}
        for request in listed.received:
            self.rows[f"in:{request.player_id}"] = ("received", request.player_id)
            table.add_row(Text(request.name), "asks you", "a: accept, x: decline", key=f"in:{request.player_id}")
        for friend in listed.friends:
            seen = presence.get(friend.player_id)
            now = PRESENCE_TEXT.get(seen.state, "hidden") if seen is not None else "hidden"
            if seen is not None and seen.room_id:
                now += f" (room {seen.room_id})"
            self.rows[f"f:{friend.player_id}"] = ("friend", friend.player_id)
            table.add_row(Text(friend.name), "friend", now, key=f"f:{friend.player_id}")
        for request in listed.sent:
            self.rows[f"out:{request.player_id}"] = ("sent", request.player_id)
            table.add_row(Text(request.name), "asked", "waiting for their answer", key=f"out:{request.player_id}")
        friends = plural(len(listed.friends), "friend")
        asks = f", {plural(len(listed.received), 'request')} to answer" if listed.received else ""
        self.say(said or f"{friends}{asks}.")
        self.loads += 1

    def _show_visibility(self, visibility: int) -> None:
        self.visibility = visibility
        if visibility == presence_pb2.PRESENCE_VISIBILITY_NOBODY:
            text = "Your presence: hidden. Your friends see you away (v: show it to your friends)"
        else:
            text = "Your presence: your friends see it (v: hide it from everyone)"
        self.query_one("#presence-line", Static).update(Text(text))

    def action_visibility(self) -> None:
        """Turn who sees the player's presence over: their friends, or nobody."""
        to_friends = self.visibility == presence_pb2.PRESENCE_VISIBILITY_NOBODY
        self.run_worker(self._set_visibility(to_friends), group="friends", exclusive=True)

    async def _set_visibility(self, to_friends: bool) -> None:
        try:
            visibility = await self.client.set_presence_visibility(to_friends=to_friends)
        except CallFailed as failed:
            self.say(refused(failed))
            self.loads += 1
            return
        self._show_visibility(visibility)
        self.say("Your friends see your presence again." if to_friends else "Nobody sees your presence now.")
        self.loads += 1

    def selected(self, what: str) -> str | None:
        """The highlighted line's player, where the line is a ``what`` (received, friend)."""
        table = self.query_one("#friends", DataTable)
        if not table.row_count:
            return None
        row_key, _ = table.coordinate_to_cell_key((table.cursor_row, 0))
        kind, player_id = self.rows.get(str(row_key.value), ("", ""))
        return player_id if kind == what else None

    def _act(self, what: str, call: Any, done: str) -> None:
        player_id = self.selected(what)
        if player_id is None:
            self.say(f"Highlight a {'request' if what == 'received' else 'friend'} first.")
            return
        self.run_worker(self._acted(call(player_id), done), group="friends", exclusive=True)

    async def _acted(self, call: Any, done: str) -> None:
        try:
            await call
        except CallFailed as failed:
            self.say(refused(failed))
            return
        await self._load(done)

    def action_accept(self) -> None:
        self._act("received", self.client.accept_friend, "Accepted: you are friends.")

    def action_decline(self) -> None:
        self._act("received", self.client.decline_friend, "Declined.")

    def action_remove(self) -> None:
        self._act("friend", self.client.remove_friend, "Removed from your friends.")

    def action_block(self) -> None:
        self._act("friend", self.client.block, "Blocked: they can no longer ask you.")

    @on(Input.Submitted, "#friend-code-input")
    def _add(self, event: Input.Submitted) -> None:
        code = event.value.strip()
        if code:
            event.input.value = ""
            self.query_one("#friends", DataTable).focus()
            self.run_worker(self._added(code), group="friends", exclusive=True)

    async def _added(self, code: str) -> None:
        try:
            answer = await self.client.add_friend(code)
        except CallFailed as failed:
            self.say(refused(failed))
            return
        if answer.HasField("friend"):
            await self._load(f"{answer.friend.name} is your friend now.")
        else:
            await self._load(f"Asked {answer.request.name}: they are your friend once they accept.")


class RoomInvitationsScreen(Screen[None]):
    """The invitations to a room the signed-in player's friends sent them (Enter or a: accept, which seats them and
    opens the table; x: decline), and those they sent (W: withdraw), the latest first. An invitation lasts while its
    room waits for players."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "app.pop_screen", "Back"),
        Binding("a", "accept", "Accept"),
        Binding("x", "decline", "Decline"),
        Binding("W", "withdraw", "Withdraw"),
        Binding("r", "refresh", "Refresh"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.loads = 0  # loads done and answers given (tests wait for the next)
        self.rows: dict[str, room_pb2.RoomInvitation] = {}  # row key ("in:room" / "out:room:player") -> invitation

    @property
    def client(self) -> KickoffClient:
        return self.app.client  # type: ignore[attr-defined]

    def compose(self) -> ComposeResult:
        yield Header()
        yield Label("Invitations to a room (latest first)", classes="heading")
        yield DataTable(id="invitations", cursor_type="row", zebra_stripes=True)
        yield Static("", id="invitations-status", classes="page-status")
        yield Footer()

    def on_mount(self) -> None:
        session = self.client.session
        self.sub_title = f"invitations - {session.name if session else ''}"
        table = self.query_one("#invitations", DataTable)
        table.add_columns("Who", "Game", "Room", "Sent")
        table.focus()

    def on_screen_resume(self) -> None:
        """Shown (first, or back from a table): the invitations afresh."""
        self.action_refresh()

    def say(self, text: str) -> None:
        self.query_one("#invitations-status", Static).update(Text(text))

    def action_refresh(self) -> None:
        self.run_worker(self._load(), group="invitations", exclusive=True)

    async def _load(self, said: str = "") -> None:
        try:
            listed = await self.client.room_invitations()
        except CallFailed as failed:
            self.say(refused(failed))
            self.loads += 1
            return
        table = self.query_one("#invitations", DataTable)
        table.clear()
        self.rows = {}
        for invitation in listed.received:
            key = f"in:{invitation.room_id}"
            self.rows[key] = invitation
            who = f"{invitation.from_name or 'a friend'} invites you"
            table.add_row(Text(who), invitation.game, invitation.room_id, _when(invitation), key=key)
        for invitation in listed.sent:
            key = f"out:{invitation.room_id}:{invitation.player_id}"
            self.rows[key] = invitation
            who = f"you invited {invitation.name or 'a friend'}"
            table.add_row(Text(who), invitation.game, invitation.room_id, _when(invitation), key=key)
        if said:
            self.say(said)
        elif listed.received:
            self.say(f"{plural(len(listed.received), 'invitation')} to answer. Enter (a): accept, x: decline.")
        elif listed.sent:
            self.say("Nobody has invited you. W withdraws the highlighted invitation you sent.")
        else:
            self.say("No invitations: a friend invites you from their table, you invite one from yours (i).")
        self.loads += 1

    def selected(self, received: bool) -> room_pb2.RoomInvitation | None:
        """The highlighted invitation, where it is one the player received (``received``) or sent."""
        table = self.query_one("#invitations", DataTable)
        if not table.row_count:
            return None
        row_key, _ = table.coordinate_to_cell_key((table.cursor_row, 0))
        key = str(row_key.value)
        return self.rows.get(key) if key.startswith("in:" if received else "out:") else None

    @on(DataTable.RowSelected, "#invitations")
    def action_accept(self) -> None:
        invitation = self.selected(True)
        if invitation is None:
            self.say("Highlight an invitation you received first.")
            return
        self.run_worker(self._accept(invitation), group="invitations", exclusive=True)

    async def _accept(self, invitation: room_pb2.RoomInvitation) -> None:
        try:
            ticket = await self.client.accept_room_invitation(invitation.room_id)
        except CallFailed as failed:
            await self._load(f"Not seated: {refused(failed)}")
            return
        self.loads += 1
        self.app.push_screen(TableScreen(invitation.room_id, ticket))

    def action_decline(self) -> None:
        invitation = self.selected(True)
        if invitation is None:
            self.say("Highlight an invitation you received first.")
            return
        call = self.client.decline_room_invitation(invitation.room_id)
        done = f"Declined {invitation.from_name}'s invitation."
        self.run_worker(self._answered(call, done), group="invitations")

    def action_withdraw(self) -> None:
        invitation = self.selected(False)
        if invitation is None:
            self.say("Highlight an invitation you sent first.")
            return
        call = self.client.withdraw_room_invitation(invitation.room_id, invitation.player_id)
        done = f"Withdrawn: {invitation.name} is no longer invited."
        self.run_worker(self._answered(call, done), group="invitations")

    async def _answered(self, call: Any, done: str) -> None:
        try:
            await call
        except CallFailed as failed:
            await self._load(refused(failed))
            return
        await self._load(done)


def _when(invitation: room_pb2.RoomInvitation) -> str:
    return invitation.create_time.ToDatetime().strftime("%d %b %H:%M")
