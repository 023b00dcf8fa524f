"""Fixtures that start servers in this process on port 0, with a manual clock and fixed seeds: ``start`` (a gRPC server
with the limits, journal, room limits and seeds a test asks for) and ``gateway`` (the REST gateway in front of one).
Every suite may use them (tests/conftest.py loads this module as a plugin)."""

from __future__ import annotations

import asyncio
import itertools
import socket
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from dataclasses import replace
from typing import Any

import grpc
import httpx
import pytest
import uvicorn

from service.actors.actor import Journal
from service.chat.reports import ChatModeration
from service.friends.store import FriendStore
from service.gateway import http
from service.gateway.app import create_app
from service.grpc.admission import Admission
from service.grpc.server import create_server, no_limits
from service.grpc.tokens import SeatTokens
from service.matches.matchmaker import Matchmaker
from service.matches.store import MatchStore
from service.operators.keys import OperatorKeys
from service.players.identity import ExternalTokens, Issuer
from service.players.players import Players, page_key
from service.players.store import PlayerStore
from service.rooms.clock import ManualClock
from service.rooms.directory import RoomDirectory
from service.rooms.invitations import RoomInvitations
from service.rooms.room import RoomLimits
from service.rooms.thinking import Thinkers
from service.settings import (
    ChatSettings,
    FriendSettings,
    HttpLimits,
    InboxSettings,
    LimitSettings,
    MatchSettings,
    PresenceSettings,
    PrivateRoomSettings,
    RoomInvitationSettings,
    WebhookSettings,
)
from service.store.journal import SqlJournal
from service.telemetry import Telemetry
from service.tournaments.directory import TournamentDirectory
from tests.room_ids import room_ids_for_test
from tests.server.conftest import Harness

SECRET = b"a test secret of 32 bytes......."
Start = Callable[..., Awaitable[Harness]]


@pytest.fixture
async def start() -> AsyncIterator[Start]:
    """Starts servers with the given limits (the rest: none), a journal (default: in memory), room limits and the
    rooms' seeds (default 1, 2, 3...)."""
    started: list[Harness] = []

    async def start(
        journal: Journal | None = None,
        room_limits: RoomLimits | None = None,
        seeds: Iterator[int] | None = None,
        issuers: tuple[Issuer, ...] = (),
        min_games: int = 1,
        match: MatchSettings | None = None,
        webhooks: WebhookSettings | None = None,
        friends: FriendSettings | None = None,
        thinkers: Thinkers | None = None,
        operator_keys: OperatorKeys | None = None,
        private: PrivateRoomSettings | None = None,
        inbox: InboxSettings | None = None,
        presence: PresenceSettings | None = None,
        node_id: str = "",
        invitations: RoomInvitationSettings | None = None,
        telemetry: Telemetry | None = None,
        chat: ChatSettings | None = None,
        **limits: object,
    ) -> Harness:
        """``journal``: a SqlJournal gets players (sign-in, ratings) and matchmaking (``match``'s settings; the queues
        turn when the test says) on its database, with ``issuers`` trusted; and webhooks with ``webhooks``' settings
        (the test steps the dispatcher: Harness.webhooks.dispatcher.step). ``thinkers``: where hard system players
        search (default: in the test's thread, 16 iterations a decision). ``operator_keys``: the keys OperatorService
        takes (default none: operator_api_off). ``private``: the bounds of invitation links (default: the settings').
        ``inbox``: the players' inboxes with these settings (a SqlJournal's server: every event that names a player is
        an item, through an outbox with no endpoint unless ``webhooks``; its watch polls only when the test calls
        Harness.inbox.watch.look()). ``friends``: FriendService's bounds (with players; default: the
        settings' defaults). ``presence``: PresenceService with these settings (with players), as node ``node_id``
        ('' : a single server); its rounds run only when the test calls Harness.presence.round() (or flush, look).
        ``invitations``: the bounds of invitations to a friend (likewise). ``telemetry``: the server's (default: none;
        tests/telemetry read metrics from an in-memory reader's). ``chat``: rooms' chat with these settings (a
        SqlJournal's server; its times and rate windows the manual clock's)."""
        match = match or MatchSettings(fill_seconds=30, take_up_seconds=20, ticket_seconds=300)
        clock = ManualClock()
        seeds = seeds or itertools.count(1)
        settings: LimitSettings = replace(no_limits(), **limits)  # type: ignore[arg-type]
        players = store = matchmaker = friend_store = seen = invitation_store = None
        if isinstance(journal, SqlJournal):
            store = PlayerStore(journal.engine, clock.now, min_games=min_games, page_key=page_key(SECRET))
            await store.recount()  # (as a server starting does)
            journal.rater = store.rate
            if presence is not None:  # (issue 48: presence; its room lookup is set below, with the directory)
                from service.presence.presence import Presence

                seen = Presence(journal.engine, node_id, presence, now=clock.now)
            players = Players(store, SECRET, ExternalTokens(issuers, clock=clock.now), presence=seen)
            friend_store = FriendStore(store.engine, clock.now, friends or FriendSettings())
            store.erasers.append(friend_store.erase)
            invitation_store = RoomInvitations(store.engine, clock.now, invitations or RoomInvitationSettings())
            store.erasers.append(invitation_store.erase)
        directory = RoomDirectory(
            clock=clock,
            journal=journal,
            seed_source=lambda: next(seeds),
            room_ids=room_ids_for_test(),
            default_think_seconds=0,
            limits=room_limits,
            max_live_rooms=settings.max_live_rooms or None,
            rates=players is not None,
            thinkers=thinkers or Thinkers(0, iterations=16),
            telemetry=telemetry,
        )
        tournaments = TournamentDirectory(directory, max_live=settings.max_live_tournaments or None)
        if seen is not None:
            seen.room, seen.telemetry = directory.in_memory, directory.telemetry
        if store is not None:
            matchmaker = Matchmaker(MatchStore(store.engine, clock.now, match), directory, store, match, clock=clock)
            await matchmaker.start(turning=False)  # (a test turns the queues itself: Harness.matchmaker.tick)
        hooks = None
        if webhooks is not None and isinstance(journal, SqlJournal):
            from service.webhooks.webhooks import Webhooks

            hooks = await Webhooks.open(journal.engine, webhooks, clock=clock, telemetry=directory.telemetry)
            journal.outbox = hooks.outbox
            if matchmaker is not None:
                matchmaker.store.outbox = hooks.outbox
            if friend_store is not None:
                friend_store.outbox = hooks.outbox
            if invitation_store is not None:
                invitation_store.outbox = hooks.outbox
        box = None
        if inbox is not None and isinstance(journal, SqlJournal):  # (issue 48: the inbox)
            from service.inbox.inbox import Inbox
            from service.webhooks.outbox import Outbox

            box = Inbox(journal.engine, inbox, now=clock.now, telemetry=directory.telemetry)
            assert store is not None and matchmaker is not None
            store.erasers.append(box.erase)
            if hooks is not None:
                hooks.outbox.inbox = box
            outbox = hooks.outbox if hooks is not None else Outbox(journal.engine, WebhookSettings(), now=clock.now)
            outbox.inbox = box
            journal.outbox = matchmaker.store.outbox = outbox
            if friend_store is not None:  # (its events reach the inbox too)
                friend_store.outbox = outbox
            if invitation_store is not None:
                invitation_store.outbox = outbox
        moderation = None
        if store is not None:  # (issue 49: the chat's moderation; a deleted player's name leaves the reports)
            moderation = ChatModeration.on(store.engine, clock.now)
            store.erasers.append(moderation.reports.erase)
        talk = None
        if chat is not None and isinstance(journal, SqlJournal):  # (issue 49: rooms' chat, with its moderation)
            from service.chat.chat import Chat
            from service.chat.moderation import ChatRules

            talk = Chat(
                journal.engine,
                chat,
                now=clock.now,
                clustered=bool(node_id),
                reports=moderation.reports if moderation is not None else None,
                rules=ChatRules.from_settings(chat),
                mutes=moderation.mutes if moderation is not None else None,
                outbox=journal.outbox,  # (the webhooks' or the inbox's, when the test has one)
            )
            if store is not None:
                store.erasers.append(talk.erase)
        server = await create_server(
            directory,
            SeatTokens(SECRET),
            tournaments=tournaments,
            admission=Admission(settings),
            players=players,
            matchmaker=matchmaker,
            webhooks=hooks,
            operator_keys=operator_keys,
            private=private,
            inbox=box,
            friends=friend_store,
            presence=seen,
            invitations=invitation_store,
            chat=talk,
            moderation=moderation,
        )
        channel = grpc.aio.insecure_channel(f"127.0.0.1:{server.port}")
        harness = Harness(
            server, clock, directory, channel, store, matchmaker, hooks, box, friend_store, seen, invitation_store, talk
        )
        started.append(harness)
        return harness

    yield start
    for harness in started:
        if harness.matchmaker is not None:
            await harness.matchmaker.close()
        await harness.channel.close()
        await harness.server.stop(0)
        if harness.webhooks is not None:
            await harness.webhooks.close()
        harness.directory.thinkers.close()
        if isinstance(harness.directory.journal, SqlJournal):
            await harness.directory.journal.close()


@pytest.fixture
async def gateway() -> AsyncIterator[Callable[[Harness], Awaitable[httpx.AsyncClient]]]:
    """Serves the REST gateway (with its HTTP limits) in front of a started server; returns a client of it."""
    running: list[tuple[uvicorn.Server, asyncio.Task[None], httpx.AsyncClient]] = []

    async def serve(harness: Harness, **options: Any) -> httpx.AsyncClient:
        app = create_app(f"127.0.0.1:{harness.server.port}", timeout=5.0, **options)
        # IPPROTO_TCP, as uvicorn's own sockets: asyncio then sets TCP_NODELAY (see tests/gateway/conftest.py).
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        listener.bind(("127.0.0.1", 0))
        server = uvicorn.Server(http.config(app, "127.0.0.1", 0, HttpLimits(), loop="none", lifespan="on"))
        serving = asyncio.create_task(server.serve(sockets=[listener]))
        while not server.started:
            await asyncio.sleep(0.01)
        client = httpx.AsyncClient(base_url=f"http://127.0.0.1:{listener.getsockname()[1]}", timeout=10)
        running.append((server, serving, client))
        return client

    yield serve
    for server, serving, client in running:
        await client.aclose()
        server.should_exit = True
        await serving
