"""The deal's secret appears nowhere before the end. A whole game of each game is played with everything recorded that
leaves the server or reaches a system player: every gRPC answer and stream message (the person's Play stream, a
seat's and a spectator's StreamEvents, and at every fourth version GetRoom, GetView, ListLegalMoves, GetReplay and
the operator API's live rooms and timeline), every log record (DEBUG and up), every span and its attributes, the
metrics, and what each system player is given (the state handed to a bot's ``choose``, the view handed to a searching
player's thinker). All of it is searched for the secret in hex and base64 and for the game's seed in decimal and hex:
none of it may hold one while the game is played; the answers that show the final version (and only they) hold the
secret, as do Room.deal and the final update; the logs, spans, metrics, webhooks and the system players' inputs never
hold either. One game of Soker is played over REST instead (its answers and server-sent events), on a SQLite store
with a signed-in person and a webhook endpoint for every room event: every payload delivered is searched too."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import itertools
import json
import logging
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from google.protobuf import json_format
from google.protobuf.message import Message
from opentelemetry.sdk.metrics.export import InMemoryMetricReader
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from engine.core import Game
from kickoff.v1 import common_pb2, move_pb2, operator_pb2, operator_pb2_grpc, player_pb2, room_pb2, webhook_pb2
from service.operators.keys import OperatorKeys, new_key, parse_entries
from service.rooms.thinking import Thinkers, Thought
from service.store.database import create_engine, upgrade_in_thread
from service.store.journal import SqlJournal
from service.telemetry import build
from tests.deals.served import GAMES, create_request
from tests.server.conftest import Harness, auth
from tests.servers import Start
from tests.sse import sse_updates
from tests.webhooks.conftest import OPERATOR_KEY, SERVER_SETTINGS, Receiver

_, OPS_KEY, OPS_ENTRY = new_key()
FINISHED = common_pb2.ROOM_STATUS_FINISHED
SECRETS = int.from_bytes(hashlib.sha256(b"secrecy").digest(), "big") >> 1  # the rooms' secrets: this, then + 1...


@dataclass
class Seen:
    """What left the server, each piece with the room's version it shows (``public``), and what must never hold a
    secret whenever it was made (``private``: logs, spans, metrics, webhooks, the system players' inputs)."""

    public: list[tuple[str, int, str]] = field(default_factory=list)
    private: list[tuple[str, str]] = field(default_factory=list)

    def said(self, where: str, version: int, message: Message | Any) -> None:
        text = str(message) if isinstance(message, Message) else json.dumps(message)
        self.public.append((where, version, text))


class Needles:
    """The secret and the game's seed in every spelling searched for."""

    def __init__(self, secret: bytes, seed: int) -> None:
        self.secret = {"the secret in hex": secret.hex(), "the secret in base64": base64.b64encode(secret).decode()}
        self.seed = {"the game's seed in decimal": str(seed), "the game's seed in hex": f"{seed:x}"}

    def found(self, text: str, *, secret: bool = True) -> list[str]:
        """The needles in ``text`` (hex compared without case); ``secret``: look for the secret too."""
        lower = text.lower()
        needles = {**(self.secret if secret else {}), **self.seed}
        return [name for name, needle in needles.items() if needle.lower() in lower or needle in text]


Played = tuple[str, int, Needles]  # a room's id, its last version and its deal's needles


class RecordingThinkers(Thinkers):
    """The test's thinkers (inline, 16 iterations a decision), recording what each search is given."""

    def __init__(self, seen: Seen) -> None:
        super().__init__(0, iterations=16)
        self.seen = seen

    async def think(self, game: str, view: Any, seat: int, seed: int, seconds: float) -> Thought:
        self.seen.private.append(("a thinker's input", f"{game} {json.dumps(view.to_json())} {seat} {seed} {seconds}"))
        return await super().think(game, view, seat, seed, seconds)


class RecordingBot:
    """A system player's bot, recording the state it is given at each choice (and the seed it was made with)."""

    def __init__(self, bot: Any, seed: int, seen: Seen) -> None:
        self._bot, self._seen = bot, seen
        seen.private.append(("a system player's own seed", str(seed)))

    def choose(self, state: Any, seat: int) -> Any:
        self._seen.private.append(("a bot's input", f"{json.dumps(state.to_json())} {seat}"))
        return self._bot.choose(state, seat)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._bot, name)


@pytest.fixture
def seen(monkeypatch: pytest.MonkeyPatch) -> Seen:
    """What the test saw; every bot a game makes (a system player's, a stand-in's) records what it is given."""
    seen = Seen()
    new_bot = Game.new_bot
    monkeypatch.setattr(Game, "new_bot", lambda game, name, seed: RecordingBot(new_bot(game, name, seed), seed, seen))
    return seen


@dataclass
class Served:
    harness: Harness
    spans: InMemorySpanExporter
    metrics: InMemoryMetricReader
    ops: operator_pb2_grpc.OperatorServiceStub
    receiver: Receiver | None = None

    async def person(self) -> tuple[tuple[str, str], ...]:
        """The metadata of a person signed in now (each game's own: the clock's runs outlast an access token), or
        none where the server has no players."""
        if self.harness.player_store is None:
            return ()
        request = player_pb2.SignInAsGuestRequest(name="Ann")
        return auth((await self.harness.players.SignInAsGuest(request)).session.access_token)

    async def deliver(self) -> None:
        """Every webhook due delivered (the test steps the dispatcher)."""
        for _ in range(100):
            await self.harness.directory.settle()
            sent = await self.harness.webhooks.dispatcher.step()
            await self.harness.webhooks.dispatcher.settle()
            if not sent:
                return


async def serve(start: Start, seen: Seen, url: str = "") -> Served:
    """A server with the operator API, tracing and metrics into memory, and thinkers that record their inputs; with a
    database ``url``: players and webhooks too, an endpoint registered for every room event."""
    spans, metrics = InMemorySpanExporter(), InMemoryMetricReader()
    telemetry = build("kickoff-grpc", span_processors=[SimpleSpanProcessor(spans)], metric_readers=[metrics])
    options: dict[str, Any] = {}
    if url:
        await upgrade_in_thread(url)
        options = {"journal": SqlJournal(create_engine(url), telemetry), "webhooks": SERVER_SETTINGS}
    harness = await start(
        seeds=itertools.count(SECRETS),
        operator_keys=OperatorKeys(parse_entries(OPS_ENTRY)),
        telemetry=telemetry,
        thinkers=RecordingThinkers(seen),
        **options,
    )
    served = Served(harness, spans, metrics, operator_pb2_grpc.OperatorServiceStub(harness.channel))
    if url:
        served.receiver = await Receiver().start()
        events = [
            webhook_pb2.WEBHOOK_EVENT_TURN_BEGAN,
            webhook_pb2.WEBHOOK_EVENT_GAME_ENDED,
            webhook_pb2.WEBHOOK_EVENT_CLOCK_RUNNING_OUT,
        ]
        request = webhook_pb2.AddEndpointRequest(url=served.receiver.url, events=events)
        await harness.webhook_admin.AddEndpoint(request, metadata=(("x-operator-key", OPERATOR_KEY),))
    return served


async def new_room(served: Served, game: str, seen: Seen, system_player: str) -> tuple[str, str, Needles]:
    """A room of ``game`` (tests/deals/served.py's setup) with the signed-in person at seat 0 with a seed of its own;
    its id, the person's seat token and the needles of its deal (read from the room itself: the test's privilege)."""
    harness, setup = served.harness, GAMES[game]
    created = await harness.rooms.CreateRoom(create_request(game, system_player))
    seen.said("CreateRoom", created.room.version, created)
    room_id = created.room.room_id
    join = room_pb2.JoinRoomRequest(room_id=room_id, seat=0, choice=setup.choice, seed=f"ann-{game}")
    joined = await harness.rooms.JoinRoom(join, metadata=await served.person())
    seen.said("JoinRoom", joined.room.version, joined)
    room = harness.directory.get(room_id)
    assert room.status == "playing" and room.deal is not None
    return room_id, joined.seat_token, Needles(bytes.fromhex(room.deal.revealed()), room.seed)


async def follow(served: Served, room_id: str, token: str, seen: Seen, where: str) -> list[move_pb2.RoomUpdate]:
    """A StreamEvents stream of the room (a seat's with ``token``, else a spectator's) to the game's end."""
    updates = []
    metadata = auth(token) if token else ()
    async for response in served.harness.moves.StreamEvents(
        move_pb2.StreamEventsRequest(room_id=room_id), metadata=metadata
    ):
        seen.said(where, response.update.version, response)
        updates.append(response.update)
    return updates


async def ask_everything(served: Served, room_id: str, token: str, seen: Seen) -> None:
    """Every reader's unary answer for the room as it is now, each recorded with the version it shows."""
    harness = served.harness
    room = await harness.rooms.GetRoom(room_pb2.GetRoomRequest(room_id=room_id))
    seen.said("GetRoom", room.room.version, room)
    for viewer, metadata in (("a spectator's", ()), ("the seat's", auth(token))):
        view = await harness.moves.GetView(move_pb2.GetViewRequest(room_id=room_id), metadata=metadata)
        seen.said(f"GetView, {viewer}", view.version, view)
    legal = await harness.moves.ListLegalMoves(move_pb2.ListLegalMovesRequest(room_id=room_id), metadata=auth(token))
    seen.said("ListLegalMoves", legal.version, legal)
    after = max(0, room.room.version - 3)
    for metadata in ((), auth(token)):
        page = await harness.moves.GetReplay(
            move_pb2.GetReplayRequest(room_id=room_id, after_version=after), metadata=metadata
        )
        seen.said("GetReplay", page.last_version, page)
    ops = (("x-operator-key", OPS_KEY),)
    live = await served.ops.ListLiveRooms(operator_pb2.ListLiveRoomsRequest(), metadata=ops)
    seen.said("the operator API's live rooms", room.room.version, live)
    timeline = await served.ops.GetRoomTimeline(
        operator_pb2.GetRoomTimelineRequest(room_id=room_id, after_version=after), metadata=ops
    )
    for update in timeline.updates:
        seen.said("the operator API's timeline", update.version, update)


async def play_over_grpc(served: Served, game: str, seen: Seen, system_player: str) -> tuple[str, int, Needles]:
    """A whole game, the person's moves on its Play stream (now and then its clock runs out instead), every reader's
    answers asked at every fourth version and after the end, a seat's and a spectator's streams open throughout."""
    harness = served.harness
    room_id, token, needles = await new_room(served, game, seen, system_player)
    streams = [
        asyncio.create_task(follow(served, room_id, token, seen, "StreamEvents, the seat's")),
        asyncio.create_task(follow(served, room_id, "", seen, "StreamEvents, a spectator's")),
    ]
    outgoing: asyncio.Queue[move_pb2.PlayRequest | None] = asyncio.Queue()
    outgoing.put_nowait(move_pb2.PlayRequest(hello=move_pb2.PlayHello(room_id=room_id)))

    async def requests() -> Any:
        while (message := await outgoing.get()) is not None:
            yield message

    chooser, last = random.Random(game), 0
    async for response in harness.moves.Play(requests(), metadata=auth(token)):
        if not response.HasField("update"):
            seen.said("Play, a result", response.result.version or last, response)
            continue
        update = response.update
        last = update.version
        seen.said("Play, an update", last, response)
        if last % 4 == 1:  # (every version's answers would only repeat the streams' at four times the cost)
            await ask_everything(served, room_id, token, seen)
        if update.status == FINISHED:
            outgoing.put_nowait(None)
        elif 0 in update.to_act and update.legal_moves:
            if chooser.random() < 0.1:
                harness.clock.advance(600)  # the person's clock runs out: the table moves for it
            else:
                move = chooser.choice(list(update.legal_moves))
                request = move_pb2.SubmitMoveRequest(move=move, request_id=f"r{last}")
                outgoing.put_nowait(move_pb2.PlayRequest(move=request))
    heard = await asyncio.gather(*streams)
    await harness.settle(room_id)
    await ask_everything(served, room_id, token, seen)
    for updates in heard:
        assert [update.version for update in updates] == list(range(1, last + 1))
        assert needles.secret["the secret in hex"] in str(updates[-1]), "the final update reveals the secret"
    return room_id, last, needles


async def play_over_rest(served: Served, client: Any, seen: Seen) -> tuple[str, int, Needles]:
    """A whole game of Soker over REST: every answer recorded, the server-sent events once the game is over."""
    harness = served.harness
    body = {"game": "soker", "mode": "ROOM_MODE_ONLINE", "seats": 3, "systemSeats": [1, 2], "thinkSeconds": 0}
    created = (await client.post("/v1/rooms", json=body)).json()
    seen.said("POST /v1/rooms", int(created["version"]), created)
    room_id = created["roomId"]
    headers = dict(await served.person())
    joined = await client.post(f"/v1/rooms/{room_id}/seats", json={"seat": 0, "seed": "ann-rest"}, headers=headers)
    assert joined.status_code == 201, joined.text
    seen.said("POST seats", int(joined.json()["room"]["version"]), joined.json())
    room = harness.directory.get(room_id)
    needles = Needles(bytes.fromhex(room.deal.revealed()), room.seed)
    headers = {"Authorization": f"Bearer {joined.json()['seatToken']}"}
    chooser = random.Random(11)
    while True:
        await harness.settle(room_id)
        answers = {
            "GET room": await client.get(f"/v1/rooms/{room_id}"),
            "GET view, a spectator's": await client.get(f"/v1/rooms/{room_id}/view"),
            "GET view, the seat's": await client.get(f"/v1/rooms/{room_id}/view", headers=headers),
            "GET legal-moves": await client.get(f"/v1/rooms/{room_id}/legal-moves", headers=headers),
            "GET replay": await client.get(f"/v1/rooms/{room_id}/replay"),
        }
        version = int(answers["GET view, a spectator's"].json()["version"])
        for where, answer in answers.items():
            assert answer.status_code == 200, answer.text
            seen.said(where, version, answer.json())
        if answers["GET room"].json()["status"] == "ROOM_STATUS_FINISHED":
            break
        if chooser.random() < 0.1:
            harness.clock.advance(600)
            continue
        legal = answers["GET legal-moves"].json()["moves"]
        move = {"move": chooser.choice(legal), "requestId": f"m{version}", "expectedVersion": version}
        answer = await client.post(f"/v1/rooms/{room_id}/moves", json=move, headers=headers)
        assert answer.status_code == 201, answer.text
        seen.said("POST moves", int(answer.json()["version"]), answer.json())
    events = sse_updates((await client.get(f"/v1/rooms/{room_id}/events", headers=headers)).text)
    assert [int(event["version"]) for event in events] == list(range(1, version + 1))
    for event in events:
        seen.said("server-sent events", int(event["version"]), event)
    assert needles.secret["the secret in hex"] in json.dumps(events[-1]), "the final event reveals the secret"
    return room_id, version, needles


async def check(served: Served, seen: Seen, caplog: pytest.LogCaptureFixture, played: list[Played]) -> None:
    """Nothing private ever holds the secret or the seed; nothing public holds either before the final version (the
    seed, never); the secret is shown at the end, in Room.deal too."""
    harness = served.harness
    for record in caplog.records:
        text = record.getMessage() + (f"\n{record.exc_text}" if record.exc_text else "") + repr(vars(record))
        seen.private.append((f"a log record of {record.name}", text))
    spans = served.spans.get_finished_spans()
    for span in spans:
        seen.private.append((f"the span {span.name}", span.to_json()))
    seen.private.append(("the metrics", served.metrics.get_metrics_data().to_json()))
    assert len(caplog.records) > 100 and len(spans) > 100, "the logs and the traces were recorded"
    for room_id, last, needles in played:
        for where, text in seen.private:
            assert not needles.found(text), f"room {room_id}: {where} holds {needles.found(text)}"
        shown = 0
        for where, version, text in seen.public:
            found = needles.found(text, secret=version < last)
            assert not found, f"room {room_id}: {where} at version {version} (of {last}) holds {found}"
            shown += needles.secret["the secret in hex"] in text
        assert shown, f"room {room_id}: the secret is revealed at the end"
        room = (await harness.rooms.GetRoom(room_pb2.GetRoomRequest(room_id=room_id))).room
        assert room.status == FINISHED and room.version == last
        assert room.deal.secret == needles.secret["the secret in hex"], "Room.deal shows the secret after the end"
        assert json_format.MessageToDict(room)["deal"]["secret"] == room.deal.secret


@pytest.mark.parametrize(
    ("game", "system_player"), [("soker", "hard"), ("age-of-soccer", ""), ("carta-futbol-club", "")]
)
async def test_the_secret_and_the_seed_appear_nowhere_before_the_end_over_grpc(
    start: Start, seen: Seen, caplog: pytest.LogCaptureFixture, game: str, system_player: str
) -> None:
    """Buys: the secrecy the commitment rests on, searched in everything a whole game sends over gRPC, its logs,
    traces and metrics, the operator API's answers and what its system players see (a bot's whole state; Soker's
    hard player, a searching thinker's view). About a second a game (Carta's 150-odd versions: two)."""
    caplog.set_level(logging.DEBUG)
    served = await serve(start, seen)
    played = await play_over_grpc(served, game, seen, system_player)
    inputs = {name for name, _ in seen.private}
    assert ("a thinker's input" if system_player == "hard" else "a bot's input") in inputs
    await check(served, seen, caplog, [played])


async def test_the_secret_and_the_seed_appear_nowhere_before_the_end_over_rest_and_in_webhooks(
    start: Start, seen: Seen, gateway: Any, caplog: pytest.LogCaptureFixture, tmp_path: Path
) -> None:
    """Buys: the same for a game of Soker over REST (its answers, its server-sent events) on a SQLite store (its
    driver's DEBUG lines included), the person signed in so that every room event goes to a registered webhook
    endpoint: every payload delivered is searched too. About two seconds."""
    caplog.set_level(logging.DEBUG)
    served = await serve(start, seen, f"sqlite+aiosqlite:///{tmp_path}/kickoff.db")
    client = await gateway(served.harness)
    try:
        played = await play_over_rest(served, client, seen)
        await served.deliver()
        assert served.receiver is not None
        kinds = {json.loads(request.body)["type"] for request in served.receiver.requests}
        assert {"turn.began", "game.ended"} <= kinds, kinds
        for request in served.receiver.requests:
            seen.private.append(("a webhook", request.body + json.dumps(request.headers)))
        await check(served, seen, caplog, [played])
    finally:
        await served.receiver.close()
