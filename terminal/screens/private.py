"""Private tables (issue 48) in the terminal client: inviting people to a room that waits for players (an unlisted
room's invitation link, made and copied; a friend picked from the player's friends), and joining a room with a link
someone pasted. Every call goes through :mod:`terminal.client`; the server decides who may see and join a room."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, Input, Label, OptionList, Select, Static

from kickoff.v1 import room_pb2
from terminal.client import CallFailed, KickoffClient, Ticket, link_token
from terminal.screens.shared import plural, refused

LINK_TEXT_MAX = 1024  # the most characters the link field takes (a link's token has at most 512; the rest: its address)
USES = [("one join (a single-use link)", 1), ("many joins (the server's most)", 0)]


class InviteScreen(ModalScreen[None]):
    """Inviting people to the room the seat waits in: for an unlisted room, an invitation link (single use, or the
    server's most joins; ``l`` makes it, ``c`` copies its token); for a signed-in player's seat, one of their friends
    (Enter invites the highlighted one). Escape goes back to the table."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "dismiss(None)", "Back"),
        Binding("l", "make_link", "Make a link"),
        Binding("c", "copy_link", "Copy it"),
    ]

    def __init__(self, room: room_pb2.Room, ticket: Ticket) -> None:
        super().__init__()
        self.room = room
        self.ticket = ticket
        self.link: room_pb2.CreateInvitationLinkResponse | None = None
        self.friends: list[tuple[str, str]] = []  # (player id, name), as the friends list shows them
        self.loads = 0  # friends lists read and calls answered (tests wait for the next)

    @property
    def client(self) -> KickoffClient:
        return self.app.client  # type: ignore[attr-defined]

    @property
    def as_player(self) -> bool:
        """Whether the seat is the signed-in player's: only a player invites a friend."""
        session = self.client.session
        return session is not None and bool(self.ticket.player_id) and self.ticket.player_id == session.player.player_id

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "make_link":
            return self.room.unlisted
        if action == "copy_link":
            return self.link is not None
        return True

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="dialog"):  # (the link and a long friends list scroll in 80x24)
            yield Label(f"Invite people to room {self.room.room_id}", id="dialog-title")
            if self.room.unlisted:
                yield Static(
                    "This table is unlisted: nobody finds it in the lobby. Whoever holds an invitation link sees it "
                    "and may take a free seat. l: make a link.",
                    classes="invite-note",
                )
                with Horizontal(classes="field"):
                    yield Label("The link lets in")
                    yield Select(USES, value=1, allow_blank=False, id="link-uses")
                yield Static("", id="invite-link")
            if self.as_player:
                yield Label("Invite a friend (Enter invites the highlighted one)", classes="heading")
                yield OptionList(id="invite-friends")
            yield Static("", id="invite-status")
        yield Footer()

    def on_mount(self) -> None:
        if self.room.unlisted:
            self.query_one("#invite-link", Static).display = False
        if self.as_player:
            self.run_worker(self._load_friends(), group="invite", exclusive=True)
        if self.room.unlisted:
            self.query_one("#link-uses", Select).focus()
        elif self.as_player:
            self.query_one("#invite-friends", OptionList).focus()
        else:
            self.say("Only a signed-in player invites a friend; this room is in the lobby for anyone to join.")

    def say(self, text: str) -> None:
        self.query_one("#invite-status", Static).update(Text(text))

    async def _load_friends(self) -> None:
        try:
            listed = await self.client.list_friends()
        except CallFailed as failed:
            self.say(f"Your friends cannot be read now: {refused(failed)}")
            self.loads += 1
            return
        self.friends = [(friend.player_id, friend.name) for friend in listed.friends]
        options = self.query_one("#invite-friends", OptionList)
        options.set_options(Text(name or player_id) for player_id, name in self.friends)
        if self.friends:
            options.highlighted = 0
        else:
            self.say("You have no friends to invite yet: add one by their code (f in the lobby).")
        self.loads += 1

    # -- the link -----------------------------------------------------------------------------------------------------

    def action_make_link(self) -> None:
        if self.room.unlisted:
            uses = self.query_one("#link-uses", Select).value
            self.run_worker(self._make_link(uses if isinstance(uses, int) else 1), group="invite", exclusive=True)

    async def _make_link(self, max_uses: int) -> None:
        try:
            room_id, token = self.room.room_id, self.ticket.token
            self.link = await self.client.create_invitation_link(room_id, token, max_uses=max_uses)
        except CallFailed as failed:
            self.say(f"No link was made: {refused(failed)}")
            self.loads += 1
            return
        link = self.link.link
        until = link.expire_time.ToDatetime().strftime("%d %b %H:%M UTC")
        shown = self.query_one("#invite-link", Static)
        shown.update(
            Text(
                f"The link's token (c: copy it), good for {plural(link.max_uses, 'join')} until {until}:\n"
                f"{self.link.token}\n"
                f"The web page opens it as {self.link.url} on the server's web address; in a terminal client, "
                "k in the lobby takes the link or the token."
            )
        )
        shown.display = True
        self.say("Send it to the people you want to play: it is shown once.")
        self.refresh_bindings()
        self.loads += 1

    def action_copy_link(self) -> None:
        if self.link is not None:
            self.app.copy_to_clipboard(self.link.token)
            self.say("The token is copied (where the terminal lets a program copy; else select it above).")

    # -- a friend -----------------------------------------------------------------------------------------------------

    @on(OptionList.OptionSelected, "#invite-friends")
    def _friend_chosen(self, event: OptionList.OptionSelected) -> None:
        if 0 <= event.option_index < len(self.friends):
            player_id, name = self.friends[event.option_index]
            self.run_worker(self._invite(player_id, name), group="invite", exclusive=True)

    async def _invite(self, player_id: str, name: str) -> None:
        try:
            await self.client.invite_to_room(self.room.room_id, player_id)
        except CallFailed as failed:
            self.say(f"{name} was not invited: {refused(failed)}")
        else:
            self.say(f"{name} is invited: they find it in their inbox and their invitations (t in the lobby).")
        self.loads += 1


class JoinLinkScreen(ModalScreen[str | None]):
    """Join with a link: the link someone sent (pasted whole, ``.../play#join=<token>``, or its token alone); Enter
    answers its token, or says why the text is not a link. Escape answers None."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "dismiss(None)", "Cancel")]

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Label("Join with an invitation link", id="dialog-title")
            yield Input(placeholder="paste the link, or its token", id="link-input", max_length=LINK_TEXT_MAX)
            yield Static(
                "A private table's link takes you to a free seat (as the signed-in player, or under the lobby's "
                "name). Enter joins.",
                id="link-hint",
            )
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#link-input", Input).focus()

    @on(Input.Submitted, "#link-input")
    def _submitted(self, event: Input.Submitted) -> None:
        try:
            token = link_token(event.value)
        except ValueError as error:
            self.query_one("#link-hint", Static).update(Text(f"Not joined: {error}."))
            return
        self.dismiss(token)
