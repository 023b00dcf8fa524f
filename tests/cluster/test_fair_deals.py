"""A fair deal across a failover (two nodes in this process on the throwaway PostgreSQL): a room committed on node a,
a's lease lapsing mid-game, node b taking the room over and playing it to its end. The secret reaches b through the
store only, sealed; b reveals the very secret a committed to, and the replay b serves verifies."""

from __future__ import annotations

from sqlalchemy import text

from deals import scheme
from deals.verify import verify
from kickoff.v1 import move_pb2, room_pb2
from tests.cluster.conftest import Cluster, Member, auth, create_room, play_turn
from tests.deals.replays import replay_dict


async def play_until(member: Member, room_id: str, token: str, moves: int | None = None) -> int:
    """The person (seat 0) plays its first legal move whenever it is to act, through ``member`` (which owns the room:
    its system player moves as the room settles), ``moves`` times or until the game ends; the room's version."""
    played = 0
    while True:
        await member.rooms.get(room_id).settle()
        view = await member.move_stub.GetView(move_pb2.GetViewRequest(room_id=room_id))
        if not view.to_act or played == moves:
            return view.version
        assert view.to_act == [0], "the system player moves as the room settles"
        await play_turn(member, room_id, token, f"{member.node.node_id}-{view.version}")
        played += 1


async def get_room(member: Member, room_id: str) -> room_pb2.Room:
    return (await member.room_stub.GetRoom(room_pb2.GetRoomRequest(room_id=room_id))).room


async def test_the_node_that_takes_a_room_over_reveals_the_secret_committed_by_the_first(cluster: Cluster) -> None:
    """Buys: failover between commitment and reveal keeps the deal (the same secret, the same game's seed), and the
    secret is at rest sealed, never in the clear (about a second on PostgreSQL)."""
    a = await cluster.start("a")
    b = await cluster.start("b")
    created = await create_room(a, seats=2, system_players=1)
    room_id, published = created.room_id, created.deal.commitment
    assert len(published) == 64 and not created.deal.secret
    joined = await a.room_stub.JoinRoom(room_pb2.JoinRoomRequest(room_id=room_id, seat=0, seed="ann-failover"))
    token = joined.seat_token
    middle = await play_until(a, room_id, token, moves=3)
    on_a = a.rooms.get(room_id)
    seed_on_a, status_on_a = on_a.seed, on_a.status
    assert status_on_a == "playing" and middle > 4
    seen_through_b = await get_room(b, room_id)  # (forwarded to a, the owner)
    assert seen_through_b.deal.commitment == published and not seen_through_b.deal.secret
    async with cluster._direct().journal.engine.connect() as connection:
        sealed = await connection.execute(text("SELECT deal_secret FROM rooms WHERE room_id = :r"), {"r": room_id})
        sealed = sealed.scalar_one()

    await cluster.expire("a")  # a stalled mid-game: b takes its room over
    assert await b.runtime.sweep() == 1
    assert b.node.held == {("room", room_id): 2}
    assert b.rooms.get(room_id).seed == seed_on_a, "b deals the same game: the same secret and seeds"
    last = await play_until(b, room_id, token)
    assert last > middle

    ended = await get_room(b, room_id)
    assert ended.deal.secret and ended.deal.commitment == published
    secret = scheme.secret_from_hex(ended.deal.secret)
    assert scheme.commitment(secret, room_id, "soker") == published, "b revealed the secret a committed to"
    assert ended.deal.secret not in sealed and secret.hex() not in sealed, "at rest the secret is sealed"
    log = await cluster.log(room_id)
    assert {entry.epoch for entry in log if entry.version <= middle} == {1}
    assert log[-1].epoch == 2, "b wrote the end"
    whole = move_pb2.GetReplayResponse()
    after = 0
    while True:
        request = move_pb2.GetReplayRequest(room_id=room_id, after_version=after, page_size=20)
        page = await b.move_stub.GetReplay(request, metadata=auth(token))
        whole.steps.extend(page.steps)
        whole.room.CopyFrom(page.room)
        whole.revealed, whole.last_version = page.revealed, page.last_version
        after = page.next_after_version
        if not after:
            break
    verdict = verify(replay_dict(whole))
    assert verdict.ok, verdict.describe()
    assert verdict.versions == last and verdict.commitment == published
