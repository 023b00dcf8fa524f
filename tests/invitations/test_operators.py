"""The operators' view of a player's social side (OperatorService GetPlayerSocial), over gRPC and REST."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import grpc
import httpx

from kickoff.v1 import operator_pb2
from tests.invitations.conftest import Hosts
from tests.ops.conftest import KEY, op, ops
from tests.server.conftest import Harness, refusal


async def test_an_operator_sees_a_players_blocks_requests_and_invitations(
    hosts: Hosts, gateway: Callable[[Harness], Awaitable[httpx.AsyncClient]]
) -> None:
    """Buys: for a report, an operator reads what the player never sees told: whom they blocked and who blocked them,
    a friend request a block withheld, an invitation a block swallowed (each delivered false), and what is pending
    either way; only with the operator key. About a second."""
    ann, bo, cy, di = await hosts.guests("Ann", "Bo", "Cy", "Di")
    await hosts.befriend(ann, bo)
    await hosts.befriend(ann, cy)
    room_id = await hosts.table(ann, seats=4)
    await hosts.invite(ann, room_id, bo)
    await hosts.invite(ann, room_id, cy)
    await hosts.block(bo, ann)  # (swallows Ann's invitation of Bo)
    await hosts.block(ann, di)
    await hosts.ask(cy, di)  # (a pending request, unrelated to Ann)
    await hosts.block(di, bo)
    await hosts.ask(bo, di)  # (withheld: Di blocked Bo)
    request = operator_pb2.GetPlayerSocialRequest(player_id=ann.player.player_id)
    report = await ops(hosts.harness).GetPlayerSocial(request, metadata=op())
    assert report.name == "Ann"
    assert [p.name for p in report.blocks] == ["Di"] and [p.name for p in report.blocked_by] == ["Bo"]
    assert sorted((i.invitation.name, i.delivered) for i in report.room_invitations_sent) == [
        ("Bo", False),
        ("Cy", True),
    ]
    bob = await ops(hosts.harness).GetPlayerSocial(
        operator_pb2.GetPlayerSocialRequest(player_id=bo.player.player_id), metadata=op()
    )
    assert [(p.name, p.delivered) for p in bob.friend_requests_sent] == [("Di", False)]
    assert [p.name for p in bob.blocks] == ["Ann"] and [p.name for p in bob.blocked_by] == ["Di"]
    assert bob.room_invitations_received[0].delivered is False

    assert (await refusal(ops(hosts.harness).GetPlayerSocial(request)))[:2] == (
        grpc.StatusCode.UNAUTHENTICATED,
        "operator_key_required",
    )
    missing = operator_pb2.GetPlayerSocialRequest(player_id="0123456789abcdef0123")
    assert (await refusal(ops(hosts.harness).GetPlayerSocial(missing, metadata=op())))[:2] == (
        grpc.StatusCode.NOT_FOUND,
        "player_not_found",
    )

    client = await gateway(hosts.harness)
    answer = await client.get(f"/v1/ops/players/{cy.player.player_id}/social", headers={"X-Operator-Key": KEY})
    assert answer.status_code == 200 and "no-store" in answer.headers["cache-control"]
    assert [i["invitation"]["fromName"] for i in answer.json()["roomInvitationsReceived"]] == ["Ann"]
    assert [p["name"] for p in answer.json()["friendRequestsSent"]] == ["Di"]
    assert (await client.get(f"/v1/ops/players/{cy.player.player_id}/social")).status_code == 401
