"""Invitations to a friend over gRPC on both stores: an unlisted room seen, accepted and declined by the friend
invited; every refusal and bound with its reason; a block that swallows an invitation; the inbox item and the webhook
event; an invitation ended by its room starting; and one that holds across a restart."""

from __future__ import annotations

import grpc

from kickoff.v1 import move_pb2, room_pb2
from service.store.database import create_engine
from service.store.journal import SqlJournal
from tests.invitations.conftest import FRIENDS, SMALL, Hosts
from tests.server.conftest import auth, refusal
from tests.servers import Start


async def reason(call) -> tuple[grpc.StatusCode, str]:
    return (await refusal(call))[:2]


async def test_a_friend_invited_to_an_unlisted_room_sees_it_accepts_and_is_seated(hosts: Hosts) -> None:
    """The path a player takes: Ann invites her friend Bo to her unlisted room; Bo lists the invitation, sees the room
    (hidden from him before), accepts, and holds a seat with a token that works; the invitation is gone from both
    lists. About a second."""
    ann, bo = await hosts.guests("Ann", "Bo")
    await hosts.befriend(ann, bo)
    room_id = await hosts.table(ann, seats=3)
    get = room_pb2.GetRoomRequest(room_id=room_id)
    assert await reason(hosts.harness.rooms.GetRoom(get, metadata=auth(bo.access_token))) == (
        grpc.StatusCode.NOT_FOUND,
        "room_not_found",
    )
    sent = (await hosts.invite(ann, room_id, bo)).invitation
    assert (sent.room_id, sent.game, sent.from_name, sent.name) == (room_id, "soker", "Ann", "Bo")
    assert await hosts.invitations(bo) == {"received": [(room_id, "Ann")], "sent": []}
    assert await hosts.invitations(ann) == {"received": [], "sent": [(room_id, "Bo")]}
    seen = await hosts.harness.rooms.GetRoom(get, metadata=auth(bo.access_token))
    assert seen.room.unlisted and seen.room.room_id == room_id
    accepted = await hosts.answer("AcceptRoomInvitation", bo, room_id)
    assert accepted.room.seats[accepted.seat].name == "Bo" and accepted.seat_token
    view = await hosts.harness.moves.GetView(
        move_pb2.GetViewRequest(room_id=room_id),
        metadata=auth(accepted.seat_token),
    )
    assert view.viewer == accepted.seat
    assert await hosts.invitations(bo) == await hosts.invitations(ann) == {"received": [], "sent": []}
    assert await reason(hosts.answer("AcceptRoomInvitation", bo, room_id)) == (
        grpc.StatusCode.NOT_FOUND,
        "invitation_not_found",
    )


async def test_declined_and_withdrawn_invitations(hosts: Hosts) -> None:
    """A declined invitation is gone from both lists and opens the unlisted room no more; a withdrawn one is refused
    to its invitee with its own reason (invitation_withdrawn), and the room is hidden from them again."""
    ann, bo, cy = await hosts.guests("Ann", "Bo", "Cy")
    await hosts.befriend(ann, bo)
    await hosts.befriend(ann, cy)
    room_id = await hosts.table(ann, seats=3)
    await hosts.invite(ann, room_id, bo)
    await hosts.invite(ann, room_id, cy)
    await hosts.answer("DeclineRoomInvitation", bo, room_id)
    assert await hosts.invitations(ann) == {"received": [], "sent": [(room_id, "Cy")]}
    get = room_pb2.GetRoomRequest(room_id=room_id)
    assert (await reason(hosts.harness.rooms.GetRoom(get, metadata=auth(bo.access_token))))[1] == "room_not_found"
    await hosts.withdraw(ann, room_id, cy)
    assert await hosts.invitations(cy) == {"received": [], "sent": []}
    assert await reason(hosts.answer("AcceptRoomInvitation", cy, room_id)) == (
        grpc.StatusCode.FAILED_PRECONDITION,
        "invitation_withdrawn",
    )
    assert await reason(hosts.answer("DeclineRoomInvitation", cy, room_id)) == (
        grpc.StatusCode.FAILED_PRECONDITION,
        "invitation_withdrawn",
    )
    assert (await reason(hosts.harness.rooms.GetRoom(get, metadata=auth(cy.access_token))))[1] == "room_not_found"
    assert await reason(hosts.withdraw(ann, room_id, cy)) == (grpc.StatusCode.NOT_FOUND, "invitation_not_found")


async def test_each_refusal_has_its_reason(hosts: Hosts) -> None:
    """A stranger can not be invited (not_friends), nor oneself, a blocked player, a player invited or seated
    already; only a seated player invites; a stranger asking to answer an unlisted room's invitation is told the room
    does not exist; without an access token, no_session."""
    ann, bo, cy, di = await hosts.guests("Ann", "Bo", "Cy", "Di")
    await hosts.befriend(ann, bo)
    room_id = await hosts.table(ann, seats=3)
    failed = grpc.StatusCode.FAILED_PRECONDITION
    assert await reason(hosts.invite(ann, room_id, cy)) == (failed, "not_friends")
    assert await reason(hosts.invite(ann, room_id, ann)) == (grpc.StatusCode.ALREADY_EXISTS, "already_seated")
    assert await reason(hosts.invite(ann, room_id, "0123456789abcdef0123")) == (
        grpc.StatusCode.NOT_FOUND,
        "player_not_found",
    )
    assert await reason(hosts.invite(ann, room_id, "")) == (grpc.StatusCode.INVALID_ARGUMENT, "missing_player_id")
    await hosts.invite(ann, room_id, bo)
    assert await reason(hosts.invite(ann, room_id, bo)) == (grpc.StatusCode.ALREADY_EXISTS, "already_invited")
    await hosts.block(ann, di)
    assert await reason(hosts.invite(ann, room_id, di)) == (failed, "you_blocked")
    listed = await hosts.table(cy, unlisted=False)
    assert await reason(hosts.invite(ann, listed, bo)) == (grpc.StatusCode.PERMISSION_DENIED, "not_seated")
    assert await reason(hosts.invite(cy, room_id, bo)) == (grpc.StatusCode.NOT_FOUND, "room_not_found")
    assert await reason(hosts.answer("AcceptRoomInvitation", cy, room_id)) == (
        grpc.StatusCode.NOT_FOUND,
        "room_not_found",
    )
    assert await reason(hosts.answer("AcceptRoomInvitation", cy, listed)) == (
        grpc.StatusCode.NOT_FOUND,
        "invitation_not_found",
    )
    assert await reason(hosts.harness.rooms.ListRoomInvitations(room_pb2.ListRoomInvitationsRequest())) == (
        grpc.StatusCode.UNAUTHENTICATED,
        "no_session",
    )
    long = room_pb2.InviteToRoomRequest(room_id=room_id, player_id="x" * 41)
    assert (await reason(hosts.harness.rooms.InviteToRoom(long, metadata=auth(ann.access_token))))[0] == (
        grpc.StatusCode.INVALID_ARGUMENT
    )


async def test_every_bound_is_refused_with_its_reason(hosts: Hosts) -> None:
    """SMALL bounds: 2 invitations pending per room, 2 per invitee; each refusal RESOURCE_EXHAUSTED with its reason,
    and a withdrawn invitation makes room for another."""
    ann, bo, cy, di, ed = await hosts.guests("Ann", "Bo", "Cy", "Di", "Ed")
    for friend in (bo, cy, di):
        await hosts.befriend(ann, friend)
    await hosts.befriend(ed, di)
    rooms = [await hosts.table(ann, seats=4) for _ in range(3)]
    exhausted = grpc.StatusCode.RESOURCE_EXHAUSTED
    await hosts.invite(ann, rooms[0], bo)
    await hosts.invite(ann, rooms[0], cy)
    assert await reason(hosts.invite(ann, rooms[0], di)) == (exhausted, "room_invitations_full")
    await hosts.withdraw(ann, rooms[0], cy)
    await hosts.invite(ann, rooms[0], di)
    await hosts.invite(ann, rooms[1], di)  # (Di: two pending)
    ed_room = await hosts.table(ed, seats=3)
    assert await reason(hosts.invite(ed, ed_room, di)) == (exhausted, "their_invitations_full")
    await hosts.answer("DeclineRoomInvitation", di, rooms[1])
    await hosts.invite(ed, ed_room, di)


async def test_a_block_swallows_an_invitation(hosts: Hosts) -> None:
    """Bo blocks Ann after she invited him: he sees nothing (no invitation, the room hidden again, nothing to
    accept), while Ann's list shows it pending as one nobody answers. A new invitation is refused not_friends, as to
    any player who is no friend: nothing tells Ann she is blocked."""
    ann, bo, cy = await hosts.guests("Ann", "Bo", "Cy")
    await hosts.befriend(ann, bo)
    await hosts.befriend(ann, cy)
    room_id = await hosts.table(ann, seats=3)
    await hosts.invite(ann, room_id, bo)
    await hosts.block(bo, ann)
    assert await hosts.invitations(bo) == {"received": [], "sent": []}
    assert await hosts.invitations(ann) == {"received": [], "sent": [(room_id, "Bo")]}
    get = room_pb2.GetRoomRequest(room_id=room_id)
    assert (await reason(hosts.harness.rooms.GetRoom(get, metadata=auth(bo.access_token))))[1] == "room_not_found"
    assert (await reason(hosts.answer("AcceptRoomInvitation", bo, room_id)))[1] == "room_not_found"
    # Cy removes Ann instead: Ann's next invitation of each is refused alike.
    await hosts.call("RemoveFriend", cy, ann)
    other = await hosts.table(ann, seats=3)
    assert await reason(hosts.invite(ann, other, bo)) == await reason(hosts.invite(ann, other, cy))


async def test_the_inbox_item_and_the_webhook_event(hosts: Hosts) -> None:
    """An invitation is a room.invited item in the invitee's inbox and a room.invited webhook delivery, each naming
    the invitee, the room, its game and the inviter, and nothing else."""
    ann, bo = await hosts.guests("Ann", "Bo")
    await hosts.listen("room.invited")
    await hosts.befriend(ann, bo)
    room_id = await hosts.table(ann)
    await hosts.invite(ann, room_id, bo)
    data = {
        "player_id": bo.player.player_id,
        "room_id": room_id,
        "game": "soker",
        "from_player_id": ann.player.player_id,
        "from_name": "Ann",
    }
    assert (await hosts.inbox(bo))[0] == ("room.invited", data)
    assert await hosts.room_invited() == [data]


async def test_an_invitation_ends_when_its_room_starts(hosts: Hosts) -> None:
    """Bo and Cy are invited to Ann's two-seat room; Bo accepts, the game starts, and Cy's invitation is gone from
    both lists, refused room_started if he tries it (the room's status ends it: no write needed)."""
    ann, bo, cy = await hosts.guests("Ann", "Bo", "Cy")
    await hosts.befriend(ann, bo)
    await hosts.befriend(ann, cy)
    room_id = await hosts.table(ann, seats=2, unlisted=False)
    await hosts.invite(ann, room_id, bo)
    await hosts.invite(ann, room_id, cy)
    await hosts.answer("AcceptRoomInvitation", bo, room_id)
    await hosts.harness.settle(room_id)
    assert await hosts.invitations(cy) == await hosts.invitations(ann) == {"received": [], "sent": []}
    assert (await reason(hosts.answer("AcceptRoomInvitation", cy, room_id)))[1] == "invitation_not_found"
    assert await reason(hosts.invite(ann, room_id, cy)) == (grpc.StatusCode.FAILED_PRECONDITION, "room_started")


async def test_an_invitation_holds_across_a_restart(start: Start, database_url: str) -> None:
    """The invitation is the store's: a server started again on the same database lists it, lets the invitee see the
    unlisted room and accept it. About a second."""
    first = Hosts(await start(journal=SqlJournal(create_engine(database_url)), friends=FRIENDS, invitations=SMALL))
    ann, bo = await first.guests("Ann", "Bo")
    await first.befriend(ann, bo)
    room_id = await first.table(ann, seats=2)
    await first.invite(ann, room_id, bo)
    await first.harness.server.stop(0)

    second = Hosts(await start(journal=SqlJournal(create_engine(database_url)), friends=FRIENDS, invitations=SMALL))
    await second.harness.directory.restore(await second.harness.directory.journal.load_live("room"))
    assert await second.invitations(bo) == {"received": [(room_id, "Ann")], "sent": []}
    accepted = await second.answer("AcceptRoomInvitation", bo, room_id)
    assert [seat.name for seat in accepted.room.seats] == ["Ann", "Bo"]


async def test_a_server_without_players_has_no_invitations(start: Start) -> None:
    """A store in memory keeps no players: every invitation call is refused players_off, not INTERNAL."""
    harness = await start()
    room = await harness.create(seats=2)
    calls = [
        harness.rooms.InviteToRoom(room_pb2.InviteToRoomRequest(room_id=room.room_id, player_id="p")),
        harness.rooms.ListRoomInvitations(room_pb2.ListRoomInvitationsRequest()),
        harness.rooms.AcceptRoomInvitation(room_pb2.AcceptRoomInvitationRequest(room_id=room.room_id)),
    ]
    for call in calls:
        assert await reason(call) == (grpc.StatusCode.FAILED_PRECONDITION, "players_off")
