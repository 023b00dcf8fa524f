"""FriendService over gRPC on both stores: friend codes, requests and their answers, every refusal and bound, blocks,
the events a request writes, and a deleted player's friends."""

from __future__ import annotations

import asyncio
import json

import grpc
from sqlalchemy import func, select

from kickoff.v1 import friend_pb2, player_pb2
from service.store.models import FriendshipRow
from tests.friends.conftest import Circle
from tests.server.conftest import auth, refusal, refusal_info


async def test_two_players_become_friends_by_a_friend_code(circle: Circle) -> None:
    """The path a player takes: share a code, ask, the other accepts; both see each other as friends. A rotated code
    finds nobody."""
    ann, bob = await circle.guests("Ann", "Bob")
    code = await circle.code(bob)
    assert len(code) == 11 and code[5] == "-" and code == await circle.code(bob), "the same code until rotated"
    sent = await circle.send(ann, code=code.lower().replace("-", ""))  # (typed in any case, without the dash)
    assert (sent.request.player_id, sent.request.name) == (bob.player.player_id, "Bob")
    assert await circle.lists(ann) == {"friends": [], "received": [], "sent": ["Bob"], "blocks": []}
    assert (await circle.lists(bob))["received"] == ["Ann"]
    friend = (await circle.accept(bob, ann)).friend
    assert (friend.player_id, friend.name) == (ann.player.player_id, "Ann")
    assert await circle.lists(ann) == {"friends": ["Bob"], "received": [], "sent": [], "blocks": []}
    assert await circle.lists(bob) == {"friends": ["Ann"], "received": [], "sent": [], "blocks": []}

    rotated = await circle.stub.RotateFriendCode(friend_pb2.RotateFriendCodeRequest(), metadata=auth(bob.access_token))
    assert rotated.friend_code != code
    cyd = await circle.guest("Cyd")
    assert await refusal(circle.send(cyd, code=code)) == (
        grpc.StatusCode.NOT_FOUND,
        "friend_code_not_found",
        "no player has this friend code",
    )
    assert (await circle.send(cyd, code=rotated.friend_code)).request.name == "Bob"


async def test_asking_back_makes_friends_and_two_at_once_make_one_friendship(circle: Circle) -> None:
    """A request to a player who asked already accepts theirs; two players asking each other at the same moment end
    friends exactly once (two friendship rows, not four, and no request left pending)."""
    ann, bob, cyd, dan = await circle.guests("Ann", "Bob", "Cyd", "Dan")
    await circle.ask(ann, bob)
    back = await circle.ask(bob, ann)
    assert back.friend.name == "Ann" and not back.HasField("request")
    codes = await circle.code(dan), await circle.code(cyd)
    await asyncio.gather(circle.send(cyd, code=codes[0]), circle.send(dan, code=codes[1]))
    assert (await circle.lists(cyd)) == {"friends": ["Dan"], "received": [], "sent": [], "blocks": []}
    async with circle.harness.player_store.engine.connect() as connection:
        query = select(func.count()).where(FriendshipRow.player_id.in_([cyd.player.player_id, dan.player.player_id]))
        assert (await connection.execute(query)).scalar_one() == 2


async def test_each_refusal_has_its_reason(circle: Circle) -> None:
    """Every refusal a player can meet outside the bounds, each with its own reason and status."""
    ann, bob, cyd = await circle.guests("Ann", "Bob", "Cyd")
    not_found, invalid = grpc.StatusCode.NOT_FOUND, grpc.StatusCode.INVALID_ARGUMENT
    exists, failed = grpc.StatusCode.ALREADY_EXISTS, grpc.StatusCode.FAILED_PRECONDITION

    async def reason(call) -> tuple[grpc.StatusCode, str]:
        return (await refusal(call))[:2]

    assert await reason(circle.send(ann, code=await circle.code(ann))) == (invalid, "not_yourself")
    assert await reason(circle.send(ann)) == (invalid, "missing_friend")
    assert await reason(circle.send(ann, code="ABCDE-FGHJK", player_id="x")) == (invalid, "ambiguous_friend")
    assert await reason(circle.send(ann, code="not a code!")) == (invalid, "bad_characters")  # (its text kind)
    assert await reason(circle.send(ann, code="UUUUU-UUUUU")) == (not_found, "friend_code_not_found")
    assert await reason(circle.send(ann, player_id=bob.player.player_id)) == (failed, "no_shared_table")
    assert await reason(circle.accept(ann, bob)) == (not_found, "request_not_found")
    circle.harness.clock.advance(60)  # (Ann's code lookups: another test's)
    await circle.ask(ann, bob)
    assert await reason(circle.ask(ann, bob)) == (exists, "request_pending")
    assert await reason(circle.call("CancelFriendRequest", ann, cyd)) == (not_found, "request_not_found")
    assert await reason(circle.call("DeclineFriendRequest", ann, bob)) == (not_found, "request_not_found")
    await circle.accept(bob, ann)
    assert await reason(circle.ask(bob, ann)) == (exists, "already_friends")
    assert await reason(circle.call("RemoveFriend", ann, cyd)) == (not_found, "not_friends")
    assert await reason(circle.call("UnblockPlayer", ann, cyd)) == (not_found, "not_blocked")
    assert await reason(circle.call("BlockPlayer", ann, ann)) == (invalid, "not_yourself")
    request = friend_pb2.BlockPlayerRequest(player_id="0123456789abcdef0123")
    assert await reason(circle.stub.BlockPlayer(request, metadata=auth(ann.access_token))) == (
        not_found,
        "player_not_found",
    )
    assert await reason(circle.stub.ListFriends(friend_pb2.ListFriendsRequest())) == (
        grpc.StatusCode.UNAUTHENTICATED,
        "no_session",
    )
    await circle.block(ann, cyd)
    assert await reason(circle.ask(ann, cyd)) == (failed, "you_blocked")
    # Declined and cancelled requests are gone from both lists; a friend removed is gone for both.
    await circle.ask(cyd, bob)
    await circle.call("DeclineFriendRequest", bob, cyd)
    await circle.ask(bob, cyd)
    await circle.call("CancelFriendRequest", bob, cyd)
    await circle.call("RemoveFriend", bob, ann)
    assert await circle.lists(bob) == {"friends": [], "received": [], "sent": [], "blocks": []}
    assert (await circle.lists(ann))["friends"] == []


async def test_a_player_id_asks_a_player_one_shared_a_table_with(circle: Circle) -> None:
    """Found from a table they shared: by player id, once the two were seated in one room (never by name)."""
    ann, bob = await circle.guests("Ann", "Bob")
    await circle.seat_together(ann, bob)
    sent = await circle.send(ann, player_id=bob.player.player_id)
    assert sent.request.name == "Bob"


async def test_every_bound_is_refused_with_its_reason(circle: Circle) -> None:
    """The SMALL bounds of tests/friends/conftest.py: 2 friends, 2 pending sent, 2 pending received, 2 blocks, 4
    requests a day, 3 code lookups a minute; each refusal is RESOURCE_EXHAUSTED with its own reason."""
    ann, bob, cyd, dan, eve, fay = await circle.guests("Ann", "Bob", "Cyd", "Dan", "Eve", "Fay")
    exhausted = grpc.StatusCode.RESOURCE_EXHAUSTED
    codes = {s.player.name: await circle.code(s) for s in (ann, bob, cyd, dan, eve, fay)}

    async def reason(call) -> tuple[grpc.StatusCode, str]:
        return (await refusal(call))[:2]

    # Pending sent: Ann asks Bob and Cyd, then Dan is one too many.
    await circle.send(ann, code=codes["Bob"])
    await circle.send(ann, code=codes["Cyd"])
    assert await reason(circle.send(ann, code=codes["Dan"])) == (exhausted, "pending_requests")
    # Code lookups: that was Ann's third lookup; a fourth within the minute is refused, with when to try again.
    code, info, _ = await refusal_info(circle.send(ann, code=codes["Eve"]))
    assert (code, info.reason) == (exhausted, "code_lookups_rate_limited")
    circle.harness.clock.advance(60)
    # Pending received: Bob has Ann's; Cyd's makes two; Dan's is one too many for Bob.
    await circle.send(cyd, code=codes["Bob"])
    assert await reason(circle.send(dan, code=codes["Bob"])) == (exhausted, "their_pending_requests")
    # Friends: Bob accepts both; a third friend is refused on either side.
    await circle.accept(bob, ann)
    await circle.accept(bob, cyd)
    await circle.send(eve, code=codes["Fay"])
    assert await reason(circle.send(bob, code=codes["Eve"])) == (exhausted, "friends_full")
    assert await reason(circle.send(eve, code=codes["Bob"])) == (exhausted, "their_friends_full")
    # Blocks: two, then a third is refused.
    await circle.block(fay, ann)
    await circle.block(fay, bob)
    assert await reason(circle.block(fay, cyd)) == (exhausted, "blocks_full")
    # Requests a day: Eve sent two (Fay, Bob refused: not counted, as it was never stored); two more, then the fifth.
    await circle.call("CancelFriendRequest", eve, fay)
    circle.harness.clock.advance(60)
    for name in ("Fay", "Dan"):
        await circle.send(eve, code=codes[name])
        await circle.call("CancelFriendRequest", eve, fay if name == "Fay" else dan)
    circle.harness.clock.advance(60)  # (the code lookups' minute)
    await circle.send(eve, code=codes["Ann"])
    code, info, _ = await refusal_info(circle.send(eve, code=codes["Cyd"]))
    assert (code, info.reason) == (exhausted, "requests_per_day")
    circle.harness.clock.advance(86400)
    request = player_pb2.RefreshSessionRequest(refresh_token=eve.refresh_token)  # (her access token expired)
    eve = (await circle.harness.players.RefreshSession(request)).session
    assert (await circle.send(eve, code=codes["Cyd"])).request.name == "Cyd", "a day later"


async def test_a_block_ends_the_friendship_and_swallows_later_requests(circle: Circle) -> None:
    """Blocking ends the friendship; the blocked player's later request looks to them like one nobody answered (in
    their sent list, nothing else), the blocker never sees it, and no event is written for it; neither player is in
    the other's lists. Lifting the block ends that request, as a declined one ends."""
    ann, bob = await circle.guests("Ann", "Bob")
    await circle.listen("friend.requested", "friend.accepted")
    await circle.befriend(ann, bob)
    blocked = (await circle.block(ann, bob)).blocked
    assert (blocked.player_id, blocked.name) == (bob.player.player_id, "Bob")
    assert (await circle.block(ann, bob)).blocked.create_time == blocked.create_time, "blocking again changes nothing"
    assert await circle.lists(ann) == {"friends": [], "received": [], "sent": [], "blocks": ["Bob"]}
    assert await circle.lists(bob) == {"friends": [], "received": [], "sent": [], "blocks": []}
    events = len(await circle.deliveries())
    sent = await circle.ask(bob, ann)
    assert sent.request.name == "Ann", "answered as any request is"
    assert await circle.lists(bob) == {"friends": [], "received": [], "sent": ["Ann"], "blocks": []}
    assert await circle.lists(ann) == {"friends": [], "received": [], "sent": [], "blocks": ["Bob"]}
    assert (await refusal(circle.ask(bob, ann)))[1] == "request_pending", "as for a request nobody answered"
    assert (await refusal(circle.accept(ann, bob)))[1] == "request_not_found"
    assert len(await circle.deliveries()) == events, "no event for a request the recipient never sees"
    await circle.call("UnblockPlayer", ann, bob)
    assert await circle.lists(bob) == {"friends": [], "received": [], "sent": [], "blocks": []}
    assert await circle.lists(ann) == {"friends": [], "received": [], "sent": [], "blocks": []}


async def test_a_request_and_its_acceptance_are_webhook_events(circle: Circle) -> None:
    """With an endpoint that wants them, friend.requested (to the player asked) and friend.accepted (to the player who
    asked) are delivery rows, written with the change; each names its recipient and the other player, nothing more."""
    ann, bob = await circle.guests("Ann", "Bob")
    await circle.listen("friend.requested", "friend.accepted")
    await circle.befriend(ann, bob)
    events = [(event, json.loads(payload)["data"]) for event, payload in await circle.deliveries()]
    assert events == [
        (
            "friend.requested",
            {"player_id": bob.player.player_id, "other_player_id": ann.player.player_id, "other_name": "Ann"},
        ),
        (
            "friend.accepted",
            {"player_id": ann.player.player_id, "other_player_id": bob.player.player_id, "other_name": "Bob"},
        ),
    ]


async def test_a_deleted_player_leaves_every_list(circle: Circle) -> None:
    """A player who deletes themselves is nobody's friend, and their pending requests and blocks go with them."""
    ann, bob, cyd = await circle.guests("Ann", "Bob", "Cyd")
    await circle.befriend(ann, bob)
    await circle.ask(bob, cyd)
    await circle.block(cyd, ann)
    await circle.harness.players.DeletePlayer(player_pb2.DeletePlayerRequest(), metadata=auth(bob.access_token))
    assert await circle.lists(ann) == {"friends": [], "received": [], "sent": [], "blocks": []}
    assert await circle.lists(cyd) == {"friends": [], "received": [], "sent": [], "blocks": ["Ann"]}


async def test_a_bound_holds_when_requests_are_sent_at_once(circle: Circle) -> None:
    """Three requests sent at the same moment by a player who may have two pending: two are stored, the third is
    refused pending_requests (the count and the insert are one transaction, the sender's row locked on PostgreSQL)."""
    ann, bob, cyd, dan = await circle.guests("Ann", "Bob", "Cyd", "Dan")
    codes = [await circle.code(session) for session in (bob, cyd, dan)]
    answers = await asyncio.gather(*(circle.send(ann, code=code) for code in codes), return_exceptions=True)
    refused = [answer for answer in answers if isinstance(answer, grpc.aio.AioRpcError)]
    assert len(refused) == 1 and refused[0].code() == grpc.StatusCode.RESOURCE_EXHAUSTED, answers
    assert len((await circle.lists(ann))["sent"]) == 2
