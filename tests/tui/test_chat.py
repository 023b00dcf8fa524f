"""Table talk in the terminal client (issue 49): the chat pane at a seat and for a spectator, writing, quick reactions
by key, messages kept as text (never markup), the muted state and other refusals, reporting and blocking from a
message, a message an operator withdraws, and a stream resumed after it broke off. The other person is the
ChatService stub. Each test runs one app against a server with chat on a SQLite file (2-4 s each; ~20 s in all)."""

from __future__ import annotations

import shutil
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import grpc
import pytest
from textual.pilot import Pilot
from textual.widgets import Input, OptionList

from kickoff.v1 import chat_pb2, chat_pb2_grpc, common_pb2, operator_pb2, operator_pb2_grpc, player_pb2, room_pb2
from service.chat.reports import ChatModeration
from service.grpc.server import create_server
from service.grpc.tokens import SeatTokens
from service.operators.keys import OperatorKeys, new_key, parse_entries
from service.settings import ChatSettings
from service.store.database import create_engine, upgrade
from service.store.journal import SqlJournal
from terminal.app import KickoffApp, TableScreen
from tests.server.conftest import Harness
from tests.servers import SECRET, Start
from tests.tui.conftest import SIZE, at_table, create_room, lobby, shown, sign_in, table, until, visible_text

CHAT = ChatSettings(max_length=60, history=200, keep_days=7, player_per_minute=20, room_per_minute=120)
_, OPERATOR_KEY, OPERATOR_ENTRY = new_key()
OPERATOR = (("x-operator-key", OPERATOR_KEY),)


@pytest.fixture(scope="module")
def migrated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite file migrated once for the module (each test gets a copy: migrating takes seconds)."""
    path = tmp_path_factory.mktemp("chat") / "kickoff.db"
    upgrade(f"sqlite+aiosqlite:///{path}")
    return path


@pytest.fixture
async def talk(start: Start, tmp_path: Path, migrated: Path) -> AsyncIterator[Harness]:
    """A server with players and rooms' chat (messages of at most 60 characters) on a SQLite file, and an operator
    key for the moderation."""
    shutil.copy(migrated, tmp_path / "kickoff.db")
    url = f"sqlite+aiosqlite:///{tmp_path}/kickoff.db"
    keys = OperatorKeys(parse_entries(OPERATOR_ENTRY))
    harness = await start(journal=SqlJournal(create_engine(url)), chat=CHAT, operator_keys=keys)
    # Reports filed where the operators' API reads them (the ``start`` fixture's chat takes none: reports_off).
    harness.chat.reports = ChatModeration.on(harness.player_store.engine, harness.clock.now).reports
    yield harness


def auth(token: str) -> tuple[tuple[str, str], ...]:
    return (("authorization", f"Bearer {token}"),)


async def guest(harness: Harness, name: str) -> player_pb2.Session:
    return (await harness.players.SignInAsGuest(player_pb2.SignInAsGuestRequest(name=name))).session


async def seated_room(harness: Harness, *people: player_pb2.Session, seats: int = 2) -> str:
    """A room of ``seats`` seats with ``people`` seated (the first made it)."""
    request = room_pb2.CreateRoomRequest(game="soker", mode=common_pb2.ROOM_MODE_ONLINE, seats=seats)
    room_id = (await harness.rooms.CreateRoom(request, metadata=auth(people[0].access_token))).room.room_id
    for person in people[1:]:
        await harness.rooms.JoinRoom(room_pb2.JoinRoomRequest(room_id=room_id), metadata=auth(person.access_token))
    return room_id


async def say(harness: Harness, who: player_pb2.Session, room_id: str, text: str = "", **fields: Any) -> int:
    """``who`` sends a message through the ChatService stub: its seq."""
    request = chat_pb2.SendChatMessageRequest(room_id=room_id, text=text, **fields)
    stub = chat_pb2_grpc.ChatServiceStub(harness.channel)
    return (await stub.SendChatMessage(request, metadata=auth(who.access_token))).message.seq


async def read(harness: Harness, who: Any, room_id: str) -> list[chat_pb2.ChatMessage]:
    """The room's messages ``who`` (a session: the stubs' or the app's) reads, as ListChatMessages answers them."""
    stub = chat_pb2_grpc.ChatServiceStub(harness.channel)
    request = chat_pb2.ListChatMessagesRequest(room_id=room_id)
    return list((await stub.ListChatMessages(request, metadata=auth(who.access_token))).messages)


def said(messages: list[chat_pb2.ChatMessage]) -> list[str]:
    return [message.text or chat_pb2.ChatReaction.Name(message.reaction) for message in messages]


async def at_my_table(pilot: Pilot) -> TableScreen:
    """Sign in from the lobby (s), then make a room of two online seats through the app's client and open its table
    for the player's seat, as the lobby's form would (the form's keys are the form test's)."""
    app = pilot.app
    await sign_in(pilot)
    created = await app.client.create_room("soker", seats=2, solo=False, system_players=0)
    assert created.ticket is not None
    await app.push_screen(TableScreen(created.room.room_id, created.ticket))
    return await at_table(pilot, turn=False)


def lines(app: KickoffApp) -> list[str]:
    """The chat pane's lines, as the reader sees them."""
    return table(app).chat.lines()


async def test_two_people_talk_a_reaction_goes_by_key_and_markup_stays_text(talk: Harness) -> None:
    """The seat's play stream carries the chat both ways: t writes, q then 1 sends "Good game", and a message full of
    Rich markup is shown as the characters it holds, on the screen itself."""
    app = KickoffApp(f"127.0.0.1:{talk.server.port}", name="Ana")
    async with app.run_test(size=SIZE) as pilot:
        screen = await at_my_table(pilot)
        assert screen.check_action("chat", ("write",)) and "t: talk" in shown(app, "#chat-line")
        bo = await guest(talk, "Bo")
        await talk.rooms.JoinRoom(room_pb2.JoinRoomRequest(room_id=screen.room_id), metadata=auth(bo.access_token))

        await pilot.press("t", *"never mind", "escape")  # (Escape: nothing is sent, the line closes)
        assert not screen.query_one("#chat-input", Input).display and not screen.chat.mode
        await pilot.press("t", *"hello Bo", "enter")
        await until(pilot, lambda: lines(app) == ["Ana: hello Bo"], "Ana's message in her pane")
        assert said(await read(talk, bo, screen.room_id)) == ["hello Bo"], "Bo reads it"
        await say(talk, bo, screen.room_id, "hi Ana")
        await until(pilot, lambda: lines(app)[-1:] == ["Bo: hi Ana"], "Bo's answer")

        await pilot.press("q")
        assert "1 Good game" in shown(app, "#chat-line") and "6 One more?" in shown(app, "#chat-line")
        await pilot.press("1")
        await until(pilot, lambda: lines(app)[-1:] == ["Ana: Good game"], "the reaction, in words")
        assert said(await read(talk, bo, screen.room_id))[-1] == "CHAT_REACTION_GOOD_GAME"

        markup = "[b]x[/b] [red]y[/red] [link=https://e.x]z[/link]"
        await say(talk, bo, screen.room_id, markup)
        await until(pilot, lambda: lines(app)[-1:] == [f"Bo: {markup}"], "the message with markup, as text")
        await pilot.pause()
        drawn = app.export_screenshot().replace("&#160;", " ")
        for part in ("[b]x[/b]", "[red]y[/red]", "[link=https://e.x]z[/link]"):
            assert part in drawn, f"{part} is drawn as the characters it is"


async def test_a_spectator_reads_and_writes_the_spectators_channel_only(talk: Harness) -> None:
    """A signed-in spectator's pane (on the room's event stream) shows the spectators' channel and none of what the
    players say; what they write reaches the spectators and never the players."""
    ann, bo, cy = await guest(talk, "Ann"), await guest(talk, "Bo"), await guest(talk, "Cy")
    room_id = await seated_room(talk, ann, bo)
    await say(talk, ann, room_id, "psst: play the red one")
    await say(talk, cy, room_id, "what a match")
    app = KickoffApp(f"127.0.0.1:{talk.server.port}", name="Dee")
    async with app.run_test(size=SIZE) as pilot:
        await sign_in(pilot)
        screen = await lobby(pilot)
        await until(pilot, lambda: room_id in screen.rooms, "the room in the lobby")
        await pilot.press("w")
        spectator = await at_table(pilot, turn=False)
        assert spectator.viewer is None
        await until(pilot, lambda: lines(app) == ["Cy: what a match"], "the spectators' channel")
        assert spectator.query_one("#chat", OptionList).border_title == "Spectators' chat"

        await pilot.press("t", *"go Ann", "enter")
        await until(pilot, lambda: lines(app)[-1:] == ["Dee: go Ann"], "the spectator's own message")
        await say(talk, bo, room_id, "gg soon")
        await say(talk, cy, room_id, "indeed")
        await until(pilot, lambda: lines(app)[-1:] == ["Cy: indeed"], "the next spectator's message")
        assert lines(app) == ["Cy: what a match", "Dee: go Ann", "Cy: indeed"]
        assert "psst" not in visible_text(app) and "gg soon" not in visible_text(app), "nothing of the players'"
        assert said(await read(talk, ann, room_id)) == ["psst: play the red one", "gg soon"], "players never read it"
        assert said(await read(talk, cy, room_id)) == ["what a match", "go Ann", "indeed"]


async def test_an_anonymous_seat_sends_reactions_only_and_says_why(talk: Harness) -> None:
    """A seat taken without signing in gets the reactions (q, then 4: "Thanks") and a line saying why it cannot
    write; t offers nothing."""
    ann = await guest(talk, "Ann")
    room_id = await seated_room(talk, ann)
    app = KickoffApp(f"127.0.0.1:{talk.server.port}", name="Eve")
    async with app.run_test(size=SIZE) as pilot:
        await lobby(pilot)
        await pilot.press("i", *room_id, "enter")  # join by the room's id, as nobody in particular
        screen = await at_table(pilot, turn=False)
        assert "Reactions only (q): an anonymous seat cannot write" in shown(app, "#chat-line")
        assert not screen.check_action("chat", ("write",)) and screen.check_action("chat", ("react",))
        await pilot.press("t")
        assert not screen.query_one("#chat-input", Input).display, "no line to write in"
        await pilot.press("q", "4")
        await until(pilot, lambda: lines(app) == ["Eve: Thanks"], "the reaction")
        [thanks] = await read(talk, ann, room_id)
        assert (thanks.reaction, thanks.player_id, thanks.name) == (chat_pb2.CHAT_REACTION_THANKS, "", "Eve")


async def test_the_room_form_makes_a_reactions_only_room(talk: Harness) -> None:
    """The create-room form's chat field: "quick reactions only" makes such a room, and its table offers no t."""
    app = KickoffApp(f"127.0.0.1:{talk.server.port}", name="Ana")
    async with app.run_test(size=SIZE) as pilot:
        await sign_in(pilot)
        await create_room(pilot, "soker", seats=2, online=True, chat=1)
        screen = await at_table(pilot, turn=False)
        assert screen.room is not None and screen.room.chat == chat_pb2.CHAT_MODE_REACTIONS
        assert "quick reactions only (q)" in shown(app, "#chat-line")
        assert not screen.check_action("chat", ("write",)) and screen.check_action("chat", ("react",))


async def test_a_refusal_shows_its_reason_and_a_mute_shows_until_when(talk: Harness) -> None:
    """A message over the server's length (60 here) is refused as a move is (status and reason under the turn); once an
    operator mutes the player, a send shows "muted until <time>" in the pane, and nothing was kept of either."""
    app = KickoffApp(f"127.0.0.1:{talk.server.port}", name="Ana")
    async with app.run_test(size=SIZE) as pilot:
        screen = await at_my_table(pilot)
        session = app.client.session
        assert session is not None
        pane = screen.chat
        await pilot.press("t")
        screen.query_one("#chat-input", Input).value = "a message pasted in, longer than the sixty characters it may be"
        await pilot.press("enter")
        await until(pilot, lambda: pane.answered == 1, "the refusal")
        assert shown(app, "#notice").startswith("Refused: INVALID_ARGUMENT (message_too_long): "), shown(app, "#notice")

        ops = operator_pb2_grpc.OperatorServiceStub(talk.channel)
        mute = operator_pb2.MutePlayerRequest(player_id=session.player_id, seconds=600, reason="spam")
        await ops.MutePlayer(mute, metadata=OPERATOR)
        until_when = datetime.fromtimestamp(talk.clock.now() + 600, UTC).strftime("%Y-%m-%d %H:%M UTC")
        await pilot.press("t", *"hi", "enter")
        await until(pilot, lambda: pane.answered == 2, "the muted refusal")
        assert f"muted until {until_when}" in shown(app, "#chat-line"), shown(app, "#chat-line")
        assert lines(app) == [] and pane.received == 0, "nothing was sent"


async def test_report_and_block_from_a_message_and_a_withdrawn_message_is_blanked(talk: Harness) -> None:
    """c picks a message: p reports it with a reason (the moderators get it), an operator's deletion blanks it in
    the pane, and b blocks its sender: their messages leave the pane and the server hides them from the reader."""
    app = KickoffApp(f"127.0.0.1:{talk.server.port}", name="Ana")
    async with app.run_test(size=SIZE) as pilot:
        screen = await at_my_table(pilot)
        session = app.client.session
        assert session is not None
        bo = await guest(talk, "Bo")
        await talk.rooms.JoinRoom(room_pb2.JoinRoomRequest(room_id=screen.room_id), metadata=auth(bo.access_token))
        rude = await say(talk, bo, screen.room_id, "you play like a goat")
        await say(talk, bo, screen.room_id, "buy cheap cards here")
        await until(pilot, lambda: len(lines(app)) == 2, "Bo's messages")

        await pilot.press("c")
        pane = screen.chat
        options = screen.query_one("#chat", OptionList)
        assert options.has_focus and screen.check_action("chat", ("report",))
        assert screen.check_action("chat", ("block",))
        await pilot.press("home", "p", *"insults", "enter")
        await until(pilot, lambda: pane.answered == 1, "the report")
        assert "Reported" in shown(app, "#chat-line"), shown(app, "#notice")
        ops = operator_pb2_grpc.OperatorServiceStub(talk.channel)
        [report] = (await ops.ListChatReports(operator_pb2.ListChatReportsRequest(), metadata=OPERATOR)).reports
        assert (report.reporter_id, report.reason, report.message.seq) == (session.player_id, "insults", rude)

        delete = operator_pb2.DeleteChatMessageRequest(room_id=screen.room_id, seq=rude)
        assert (await ops.DeleteChatMessage(delete, metadata=OPERATOR)).deleted
        await until(pilot, lambda: lines(app)[0] == "(message withdrawn)", "the message blanked")
        assert lines(app) == ["(message withdrawn)", "Bo: buy cheap cards here"], "the withdrawal itself shows nothing"

        options.focus()
        await pilot.press("end", "b")
        await until(pilot, lambda: pane.answered == 2, "the block")
        assert lines(app) == [] and "Blocked Bo" in shown(app, "#chat-line")
        assert [m.player_id for m in await read(talk, session, screen.room_id)] == [""], "(only the withdrawal)"
        received = pane.received
        await say(talk, bo, screen.room_id, "hello?")
        await until(pilot, lambda: pane.received > received, "Bo's next message to arrive")
        assert lines(app) == [], "a blocked sender's new message stays hidden"


async def test_a_stream_resumed_after_it_broke_off_shows_no_message_twice(talk: Harness) -> None:
    """The server stops and comes back; r follows the room again after the last chat seq seen: the message said in
    between arrives, and none seen before is sent or shown again."""
    app = KickoffApp(f"127.0.0.1:{talk.server.port}", name="Ana")
    async with app.run_test(size=SIZE) as pilot:
        screen = await at_my_table(pilot)
        bo = await guest(talk, "Bo")
        join = room_pb2.JoinRoomRequest(room_id=screen.room_id)
        bo_seat = (await talk.rooms.JoinRoom(join, metadata=auth(bo.access_token))).seat_token
        await say(talk, bo, screen.room_id, "one")
        await pilot.press("t", *"two", "enter")
        await until(pilot, lambda: lines(app) == ["Bo: one", "Ana: two"], "the first messages")
        received = screen.chat.received

        await talk.server.server.stop(0)
        await until(pilot, lambda: screen.stream_over, "the stream to break off")
        again = await create_server(talk.directory, SeatTokens(SECRET), port=talk.server.port, chat=talk.chat)
        channel = grpc.aio.insecure_channel(f"127.0.0.1:{talk.server.port}")
        try:
            stub = chat_pb2_grpc.ChatServiceStub(channel)  # (with Bo's seat token: this server signs nobody in)
            three = chat_pb2.SendChatMessageRequest(room_id=screen.room_id, text="three")
            await stub.SendChatMessage(three, metadata=auth(bo_seat))
            await pilot.press("r")
            await until(pilot, lambda: lines(app)[-1:] == ["Bo: three"], "the message said after")
            assert lines(app) == ["Bo: one", "Ana: two", "Bo: three"]
            assert screen.chat.received == received + 1, "nothing seen before came again"
        finally:
            await channel.close()
            await again.server.stop(0)
