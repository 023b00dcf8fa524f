"""Unlisted rooms and their invitation links, over gRPC, on SQLite and PostgreSQL: hidden from everyone but the room's
seated players and its links' holders, on every read path, exactly as a room never made; each link refusal with its
own reason; a single-use link raced by two joiners; and the links' uses and revocation across a restart."""

from __future__ import annotations

import asyncio
from pathlib import Path

import grpc

from kickoff.v1 import common_pb2, move_pb2, player_pb2, room_pb2
from service.players.identity import Issuer
from service.store.database import create_engine
from service.store.journal import SqlJournal
from tests.players.conftest import AUDIENCE, ISSUER, Served, auth, key_file
from tests.private.conftest import SMALL, link, made_link, reason_of, refusal, unlisted
from tests.servers import Start

NOT_FOUND = (grpc.StatusCode.NOT_FOUND, "room_not_found")


async def hidden_answers(served: Served, room_id: str, metadata: tuple[tuple[str, str], ...] = ()) -> list[object]:
    """What every read path of a room answers for ``room_id`` to a caller with ``metadata``."""
    rooms, moves = served.harness.rooms, served.harness.moves

    async def stream() -> None:
        async for _ in moves.StreamEvents(move_pb2.StreamEventsRequest(room_id=room_id), metadata=metadata):
            break

    calls = [
        rooms.GetRoom(room_pb2.GetRoomRequest(room_id=room_id), metadata=metadata),
        moves.GetView(move_pb2.GetViewRequest(room_id=room_id), metadata=metadata),
        moves.GetReplay(move_pb2.GetReplayRequest(room_id=room_id), metadata=metadata),
        moves.ListLegalMoves(move_pb2.ListLegalMovesRequest(room_id=room_id), metadata=metadata),
        rooms.JoinRoom(room_pb2.JoinRoomRequest(room_id=room_id), metadata=metadata),
        rooms.ListInvitationLinks(room_pb2.ListInvitationLinksRequest(room_id=room_id), metadata=metadata),
        stream(),
    ]
    return [await refusal(call) for call in calls]


async def test_an_unlisted_room_is_seen_by_its_seated_players_only(served: Served) -> None:
    """Buys: the lobby leaves the room out, and every read path answers a stranger exactly as for a missing room,
    while the creator sees it by access token, by seat token and in ListMyRooms. About a second."""
    created, owner = await unlisted(served)
    room_id = created.room.room_id
    assert created.room.unlisted and created.seat == 0
    listed = await served.harness.rooms.ListRooms(room_pb2.ListRoomsRequest())
    assert room_id not in [room.room_id for room in listed.rooms]
    stranger = await served.guest("Stranger")
    missing = await hidden_answers(served, "0123456789abcdef", auth(stranger.access_token))
    assert await hidden_answers(served, room_id, auth(stranger.access_token)) == missing
    assert await hidden_answers(served, room_id) == [NOT_FOUND] * 7
    seen = await served.harness.rooms.GetRoom(room_pb2.GetRoomRequest(room_id=room_id), metadata=auth(owner))
    assert seen.room.unlisted
    view = await served.harness.moves.GetView(
        move_pb2.GetViewRequest(room_id=room_id), metadata=auth(created.seat_token)
    )
    assert view.viewer == 0
    mine = await served.harness.players.ListMyRooms(player_pb2.ListMyRoomsRequest(), metadata=auth(owner))
    assert [room.room.room_id for room in mine.rooms] == [room_id]
    anonymous = served.harness.rooms.CreateRoom(
        room_pb2.CreateRoomRequest(game="soker", mode=common_pb2.ROOM_MODE_ONLINE, seats=2, unlisted=True)
    )
    assert await refusal(anonymous) == (grpc.StatusCode.INVALID_ARGUMENT, "unlisted_needs_player")


async def test_a_link_lets_its_holder_join_watch_and_replay_as_a_spectator(served: Served) -> None:
    """Buys: a link opens the room to join (one use each join), to watch and to read the replay, and its holder sees
    what a spectator sees: no viewer, no hand. About a second."""
    created, owner = await unlisted(served, seats=3)
    room_id = created.room.room_id
    token = await link(served, room_id, owner, max_uses=1)
    joined = await served.harness.rooms.JoinRoom(room_pb2.JoinRoomRequest(room_id=room_id, invitation_token=token))
    assert joined.room.unlisted and joined.seat == 1
    third = served.harness.rooms.JoinRoom(room_pb2.JoinRoomRequest(room_id=room_id, invitation_token=token))
    assert await refusal(third) == (grpc.StatusCode.FAILED_PRECONDITION, "link_used_up")
    # (the used-up link still lets its holder watch: watching uses nothing)
    seen = await served.harness.rooms.GetRoom(room_pb2.GetRoomRequest(room_id=room_id, invitation_token=token))
    assert [seat.taken for seat in seen.room.seats] == [True, True, False]
    listed = await served.harness.rooms.ListInvitationLinks(
        room_pb2.ListInvitationLinksRequest(room_id=room_id), metadata=auth(joined.seat_token)
    )
    assert [(item.max_uses, item.uses) for item in listed.links] == [(1, 1)]
    # A second link fills the table; the game starts, and the link's holder watches as a spectator.
    again = await link(served, room_id, joined.seat_token, max_uses=1)
    await served.harness.rooms.JoinRoom(room_pb2.JoinRoomRequest(room_id=room_id, invitation_token=again))
    view = await served.harness.moves.GetView(move_pb2.GetViewRequest(room_id=room_id, invitation_token=token))
    seat_view = await served.harness.moves.GetView(
        move_pb2.GetViewRequest(room_id=room_id), metadata=auth(created.seat_token)
    )
    assert not view.HasField("viewer") and view.version == seat_view.version
    assert seat_view.view.soker.hand and not view.view.soker.hand
    replay = await served.harness.moves.GetReplay(move_pb2.GetReplayRequest(room_id=room_id, invitation_token=token))
    assert replay.steps and not replay.revealed
    stream = served.harness.moves.StreamEvents(move_pb2.StreamEventsRequest(room_id=room_id, invitation_token=token))
    first = await anext(aiter(stream))
    stream.cancel()
    assert first.update.version == 1 and not first.update.HasField("viewer")


async def test_each_refused_link_says_why(served: Served) -> None:
    """Buys: expired (the clock driven past it), revoked, another room's, garbage (even for a room that does not
    exist: it says nothing of the room), over the bound of links, bad uses and expiry, a stranger making one. About a
    second."""
    created, owner = await unlisted(served, seats=4)
    room_id = created.room.room_id
    rooms = served.harness.rooms

    def join(token: str, room: str = room_id) -> object:
        return rooms.JoinRoom(room_pb2.JoinRoomRequest(room_id=room, invitation_token=token))

    short = await link(served, room_id, owner, seconds=60)
    made = await made_link(served, room_id, owner)
    revoked, revoked_id = made.token, made.link.link_id
    gone = await rooms.RevokeInvitationLink(
        room_pb2.RevokeInvitationLinkRequest(room_id=room_id, link_id=revoked_id), metadata=auth(owner)
    )
    assert gone.link.revoked
    served.harness.clock.advance(61)
    assert await refusal(join(short)) == (grpc.StatusCode.FAILED_PRECONDITION, "link_expired")
    assert await refusal(join(revoked)) == (grpc.StatusCode.FAILED_PRECONDITION, "link_revoked")
    other, other_owner = await unlisted(served)
    other_link = await link(served, other.room.room_id, other_owner)
    invalid = (grpc.StatusCode.FAILED_PRECONDITION, "link_invalid")
    assert await refusal(join(other_link)) == invalid
    assert await refusal(join("not.a.token")) == invalid
    assert await refusal(join("not.a.token", "0123456789abcdef")) == invalid
    await link(served, room_id, owner)
    assert await refusal(
        rooms.CreateInvitationLink(room_pb2.CreateInvitationLinkRequest(room_id=room_id), metadata=auth(owner))
    ) == (grpc.StatusCode.RESOURCE_EXHAUSTED, "too_many_links")
    uses = room_pb2.CreateInvitationLinkRequest(room_id=other.room.room_id, max_uses=SMALL.max_uses + 1)
    assert await refusal(rooms.CreateInvitationLink(uses, metadata=auth(other_owner))) == (
        grpc.StatusCode.INVALID_ARGUMENT,
        "bad_max_uses",
    )
    expiry = room_pb2.CreateInvitationLinkRequest(room_id=other.room.room_id, expires_in_seconds=7201)
    assert await refusal(rooms.CreateInvitationLink(expiry, metadata=auth(other_owner))) == (
        grpc.StatusCode.INVALID_ARGUMENT,
        "bad_expires_in",
    )
    assert (
        await refusal(
            rooms.CreateInvitationLink(
                room_pb2.CreateInvitationLinkRequest(room_id=room_id), metadata=auth(other_owner)
            )
        )
        == NOT_FOUND
    )


async def test_two_joiners_racing_for_a_single_use_link_one_wins(served: Served) -> None:
    """Buys: the use is counted atomically in the store: of two joins at once with a single-use link, exactly one
    takes a seat and the other is link_used_up. Under a second."""
    created, owner = await unlisted(served, seats=4)
    room_id = created.room.room_id
    token = await link(served, room_id, owner, max_uses=1)
    request = room_pb2.JoinRoomRequest(room_id=room_id, invitation_token=token)

    async def attempt() -> str:
        try:
            await served.harness.rooms.JoinRoom(request)
        except grpc.aio.AioRpcError as error:
            return reason_of(error)
        return "joined"

    assert sorted(await asyncio.gather(attempt(), attempt())) == ["joined", "link_used_up"]
    room = await served.harness.rooms.GetRoom(room_pb2.GetRoomRequest(room_id=room_id), metadata=auth(owner))
    assert sum(seat.taken for seat in room.room.seats) == 2


async def test_a_links_uses_and_revocation_hold_across_a_restart(
    start: Start, database_url: str, tmp_path: Path
) -> None:
    """Buys: the store keeps the link's use count and its revocation: a server started again on the same database
    refuses the used-up and the revoked link with their reasons. About a second."""
    issuer = Issuer(ISSUER, (AUDIENCE,), jwks_file=str(key_file(tmp_path / "jwks.json")))
    first = Served(await start(journal=SqlJournal(create_engine(database_url)), issuers=(issuer,), private=SMALL))
    created, owner = await unlisted(first, seats=4)
    room_id = created.room.room_id
    single = await link(first, room_id, owner, max_uses=1)
    made = await made_link(first, room_id, owner)
    revoked = made.token
    await first.harness.rooms.JoinRoom(room_pb2.JoinRoomRequest(room_id=room_id, invitation_token=single))
    await first.harness.rooms.RevokeInvitationLink(
        room_pb2.RevokeInvitationLinkRequest(room_id=room_id, link_id=made.link.link_id), metadata=auth(owner)
    )
    await first.harness.server.stop(0)

    second = Served(await start(journal=SqlJournal(create_engine(database_url)), issuers=(issuer,), private=SMALL))
    await second.harness.directory.restore(await second.harness.directory.journal.load_live("room"))

    def join(token: str) -> object:
        return second.harness.rooms.JoinRoom(room_pb2.JoinRoomRequest(room_id=room_id, invitation_token=token))

    assert await refusal(join(single)) == (grpc.StatusCode.FAILED_PRECONDITION, "link_used_up")
    assert await refusal(join(revoked)) == (grpc.StatusCode.FAILED_PRECONDITION, "link_revoked")
    after = await second.harness.rooms.ListInvitationLinks(
        room_pb2.ListInvitationLinksRequest(room_id=room_id), metadata=auth(created.seat_token)
    )
    assert sorted((item.uses, item.revoked) for item in after.links) == [(0, True), (1, False)]
    listed = await second.harness.rooms.ListRooms(room_pb2.ListRoomsRequest())
    assert room_id not in [room.room_id for room in listed.rooms]
