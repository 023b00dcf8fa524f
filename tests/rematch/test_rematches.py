"""Rematches over gRPC, on SQLite and PostgreSQL: proposed by one person of a finished room, made as a new room when
everyone accepts (same people and options, the first seat moved on, a new deal), a declined or silent seat filled or
the rematch refused as the creator chose, the proposal's inbox item, and a proposal across a restart."""

from __future__ import annotations

from pathlib import Path

import grpc
import pytest

from kickoff.v1 import common_pb2, inbox_pb2, inbox_pb2_grpc, move_pb2, player_pb2, room_pb2
from tests.players.conftest import Served, auth
from tests.private.conftest import refusal
from tests.rematch.conftest import NO_REMATCH, SYSTEM, answer, finished, propose, room, start_served
from tests.servers import Start

ACCEPTED, DECLINED = room_pb2.REMATCH_ANSWER_ACCEPTED, room_pb2.REMATCH_ANSWER_DECLINED
WAITING, NO_ANSWER = room_pb2.REMATCH_ANSWER_WAITING, room_pb2.REMATCH_ANSWER_NO_ANSWER


def answers(shown: room_pb2.Room) -> list[int]:
    return [seat.answer for seat in shown.rematch.seats]


async def test_two_players_rematch_with_the_first_seat_moved_on(served: Served) -> None:
    """Buys: the whole path a pair sees: the proposal on the finished room and in the other's inbox, the acceptance
    that makes the rematch (same players at the same seats, same options but the first seat, a new seed, playing at
    once), each person's new seat token (the acceptance's answer, the proposer's answer again, /my-seat), and the
    finished room's replay linking to it. About a second."""
    done = await finished(served)
    proposed = await propose(served, done.room_id, done.tokens[0])
    assert proposed.rematch.status == room_pb2.REMATCH_STATUS_OPEN
    assert proposed.rematch.proposed_by == 0 and answers(proposed) == [ACCEPTED, WAITING]
    assert proposed.rematch.deadline.seconds == int(served.now + 60)
    inbox = inbox_pb2_grpc.InboxServiceStub(served.harness.channel)
    items = await inbox.ListInbox(inbox_pb2.ListInboxRequest(), metadata=auth(done.sessions[1].access_token))
    assert [(item.kind, item.data["room_id"]) for item in items.items] == [("rematch.proposed", done.room_id)]
    mine = await inbox.ListInbox(inbox_pb2.ListInboxRequest(), metadata=auth(done.sessions[0].access_token))
    assert "rematch.proposed" not in [item.kind for item in mine.items]

    accepted = await answer(served, done.room_id, done.sessions[1].access_token, True)
    made = accepted.room.rematch
    assert made.status == room_pb2.REMATCH_STATUS_MADE and made.room_id and answers(accepted.room) == [ACCEPTED] * 2
    old, new = await room(served, done.room_id), await room(served, made.room_id)
    assert old.rematch.room_id == made.room_id
    assert new.status == common_pb2.ROOM_STATUS_PLAYING
    assert [(s.kind, s.player_id) for s in new.seats] == [(s.kind, s.player_id) for s in old.seats]
    assert new.options["first_seat"] == 1 and new.options["hand_size"] == 1
    directory = served.harness.directory
    assert directory.get(made.room_id).seed != directory.get(done.room_id).seed
    assert accepted.seat == 1
    view = await served.harness.moves.GetView(
        move_pb2.GetViewRequest(room_id=made.room_id), metadata=auth(accepted.seat_token)
    )
    assert view.viewer == 1
    again = await answer(served, done.room_id, done.tokens[0], True)  # (the proposer's token in the new room)
    assert again.seat == 0 and again.seat_token
    taken = await served.harness.players.TakeSeat(
        player_pb2.TakeSeatRequest(room_id=made.room_id), metadata=auth(done.sessions[0].access_token)
    )
    assert taken.seat == 0
    replay = await served.harness.moves.GetReplay(move_pb2.GetReplayRequest(room_id=done.room_id))
    assert replay.rematch_room_id == made.room_id
    twice = propose(served, done.room_id, done.tokens[1])
    assert await refusal(twice) == (grpc.StatusCode.FAILED_PRECONDITION, "rematch_over")


@pytest.mark.parametrize("fill", [SYSTEM, NO_REMATCH])
async def test_a_rematch_of_three_where_one_declines_is_filled_or_refused_as_chosen(served: Served, fill: int) -> None:
    """Buys: the issue's test: with a system player chosen, the declined seat is a system player's in the rematch
    (the others keep theirs); with no rematch chosen, one decline refuses it (reason declined) and nothing more can
    be proposed or answered. About a second each."""
    done = await finished(served, 3, fill=fill)
    await propose(served, done.room_id, done.tokens[0])
    declined = await answer(served, done.room_id, done.tokens[2], False)
    if fill == NO_REMATCH:
        assert declined.room.rematch.status == room_pb2.REMATCH_STATUS_REFUSED
        assert declined.room.rematch.reason == "declined" and not declined.room.rematch.room_id
        late = answer(served, done.room_id, done.tokens[1], True)
        assert await refusal(late) == (grpc.StatusCode.FAILED_PRECONDITION, "rematch_over")
        again = propose(served, done.room_id, done.tokens[1])
        assert await refusal(again) == (grpc.StatusCode.FAILED_PRECONDITION, "rematch_over")
        return
    assert declined.room.rematch.status == room_pb2.REMATCH_STATUS_OPEN
    made = (await answer(served, done.room_id, done.tokens[1], True)).room
    assert [(s.answer, s.filled) for s in made.rematch.seats] == [
        (ACCEPTED, False),
        (ACCEPTED, False),
        (DECLINED, True),
    ]
    new = await room(served, made.rematch.room_id)
    assert [s.kind for s in new.seats] == [common_pb2.SEAT_KIND_PERSON] * 2 + [common_pb2.SEAT_KIND_SYSTEM]
    assert new.rematch_fill == SYSTEM and new.status == common_pb2.ROOM_STATUS_PLAYING


@pytest.mark.parametrize("fill", [SYSTEM, NO_REMATCH])
async def test_a_seat_that_does_not_answer_in_the_window(served: Served, fill: int) -> None:
    """Buys: the window runs on the rooms' clock: just before it nothing happens; once it passes the silent seat is
    no_answer, and the rematch is made with a system player there or refused (no_answer), as chosen. About a second
    each."""
    done = await finished(served, 2, fill=fill)
    await propose(served, done.room_id, done.tokens[0])
    served.harness.clock.advance(59)
    assert (await room(served, done.room_id)).rematch.status == room_pb2.REMATCH_STATUS_OPEN
    served.harness.clock.advance(1)
    await served.harness.server.rematches.settled()
    shown = await room(served, done.room_id)
    assert answers(shown) == [ACCEPTED, NO_ANSWER]
    if fill == NO_REMATCH:
        assert shown.rematch.status == room_pb2.REMATCH_STATUS_REFUSED and shown.rematch.reason == "no_answer"
    else:
        new = await room(served, shown.rematch.room_id)
        assert [s.kind for s in new.seats] == [common_pb2.SEAT_KIND_PERSON, common_pb2.SEAT_KIND_SYSTEM]


async def test_proposing_twice_answers_the_same_and_strangers_are_refused(served: Served) -> None:
    """Buys: a second proposal (by anyone seated) answers the first one, unchanged; a player not seated, a call
    without a token and a game not over are refused with their reasons. About a second."""
    done = await finished(served)
    first = await propose(served, done.room_id, done.tokens[0])
    served.harness.clock.advance(10)
    second = await propose(served, done.room_id, done.sessions[1].access_token)
    assert second.rematch == first.rematch
    stranger = await served.guest("Stranger")
    asked = propose(served, done.room_id, stranger.access_token)
    assert await refusal(asked) == (grpc.StatusCode.PERMISSION_DENIED, "not_seated")
    anonymous = served.harness.rooms.ProposeRematch(room_pb2.ProposeRematchRequest(room_id=done.room_id))
    assert (await refusal(anonymous))[0] == grpc.StatusCode.UNAUTHENTICATED
    playing = await served.create(await served.guest("Solo"), seats=2, system_players=1)
    early = propose(served, playing.room.room_id, playing.seat_token)
    assert await refusal(early) == (grpc.StatusCode.FAILED_PRECONDITION, "game_not_over")
    unknown = answer(served, "0123456789abcdef", done.tokens[0], True)
    assert (await refusal(unknown))[0] == grpc.StatusCode.NOT_FOUND


async def test_a_correspondence_game_offers_a_rematch_with_its_own_window(served: Served) -> None:
    """Buys: a correspondence room's people have the room's period (24 hours) to answer, not the live window; the
    rematch is a correspondence room too. About a second."""
    done = await finished(served, 2, correspondence_hours=24)
    proposed = await propose(served, done.room_id, done.tokens[1])
    assert proposed.rematch.deadline.seconds == int(served.now + 24 * 3600)
    served.harness.clock.advance(3600)
    made = (await answer(served, done.room_id, done.tokens[0], True)).room
    new = await room(served, made.rematch.room_id)
    assert new.correspondence_hours == 24 and new.options["first_seat"] == 1


async def test_a_proposal_survives_a_restart(start: Start, database_url: str, tmp_path: Path) -> None:
    """Buys: the proposal and its answers are the store's: a server started again on the same database shows it
    open and makes the rematch on the last acceptance. About a second."""
    first = await start_served(start, database_url, tmp_path)
    done = await finished(first, 3, fill=NO_REMATCH)
    await propose(first, done.room_id, done.tokens[0])
    await answer(first, done.room_id, done.tokens[1], True)
    await first.harness.server.stop(0)

    second = await start_served(start, database_url, tmp_path)
    shown = await room(second, done.room_id)
    assert shown.rematch.status == room_pb2.REMATCH_STATUS_OPEN and answers(shown) == [ACCEPTED, ACCEPTED, WAITING]
    made = (await answer(second, done.room_id, done.sessions[2].access_token, True)).room
    assert made.rematch.status == room_pb2.REMATCH_STATUS_MADE
    assert (await room(second, made.rematch.room_id)).status == common_pb2.ROOM_STATUS_PLAYING


async def test_the_proposer_and_the_accepting_seat_give_the_rematch_their_seeds(served: Served) -> None:
    """Buys: every seat of a rematch may add its seed to the new room's fair deal, the proposer's too (it accepts by
    proposing, so ProposeRematch takes it as AnswerRematch does), and a bad one is refused before anything is
    proposed. About a second."""
    done = await finished(served)
    bad = served.harness.rooms.ProposeRematch(
        room_pb2.ProposeRematchRequest(room_id=done.room_id, seed="with space"), metadata=auth(done.tokens[0])
    )
    assert await refusal(bad) == (grpc.StatusCode.INVALID_ARGUMENT, "bad_seed")
    assert not (await room(served, done.room_id)).HasField("rematch"), "a refused proposal proposes nothing"
    await served.harness.rooms.ProposeRematch(
        room_pb2.ProposeRematchRequest(room_id=done.room_id, seed="proposer-0"), metadata=auth(done.tokens[0])
    )
    accepted = await served.harness.rooms.AnswerRematch(
        room_pb2.AnswerRematchRequest(room_id=done.room_id, accept=True, seed="answer-1"),
        metadata=auth(done.sessions[1].access_token),
    )
    new = await room(served, accepted.room.rematch.room_id)
    assert [seat.seed for seat in new.seats] == ["proposer-0", "answer-1"]
    assert list(new.deal.seeds) == ["proposer-0", "answer-1"], "the new game's seed is derived from both"
