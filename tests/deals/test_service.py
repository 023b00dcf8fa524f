"""Fair deals end to end from the service: a room of each game played to its end through the server (a person with a
seed of its own, system players, the table's moves), its whole replay fetched a page at a time, and deals.verify says
verified; the same through the commands a person would run (`kickoff replay --room ID --save FILE`, then `kickoff
verify FILE`), and the file with one card of a hand changed refused at its version; over REST, a bad seed is a 400
problem and a good one shows in the seat and the room's deal."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path

import pytest

import cli
from deals import scheme
from deals.verify import verify
from engine.registry import get_game
from kickoff.v1 import common_pb2
from tests.deals.replays import replay_dict
from tests.deals.served import GAMES, VIEW_FIELD, play_to_the_end, seated_room, whole_replay
from tests.servers import Start


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_a_game_played_through_the_server_verifies_from_its_replay(start: Start, game: str) -> None:
    """Buys: the server's deal, seeds, replay pages and revealed secret are exactly what the verifier needs, for every
    game, with moves by a person, system players and the table (about a second each)."""
    harness = await start()
    room_id, token = await seated_room(harness, game, seed=f"ann's-{game}-seed")
    last = await play_to_the_end(harness, room_id, token, random.Random(game), clock_odds=0.2)
    whole, pages = await whole_replay(harness, room_id, page_size=8)
    assert len(pages) > 1 and all(page.revealed for page in pages)
    assert [step.update.version for step in whole.steps] == list(range(1, last + 1))
    moves = [step.move for step in whole.steps if step.HasField("move")]
    setup = GAMES[game]
    assert {move.seat for move in moves if not move.by_table} == set(range(setup.seats)), "every seat moved"
    assert any(move.by_table for move in moves), "the table moved for the person"
    room = whole.room
    assert room.status == common_pb2.ROOM_STATUS_FINISHED
    assert room.seats[0].seed == f"ann's-{game}-seed" and list(room.deal.seeds) == [seat.seed for seat in room.seats]
    secret = scheme.secret_from_hex(room.deal.secret)
    for seat in setup.system_seats:
        assert room.seats[seat].seed == scheme.system_seat_seed(secret, room_id, game, seat)

    verdict = verify(replay_dict(whole))
    assert verdict.ok, verdict.describe()
    assert (verdict.room_id, verdict.versions, verdict.commitment) == (room_id, last, room.deal.commitment)


async def test_kickoff_replay_then_kickoff_verify_and_a_changed_card_is_refused(
    start: Start, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Buys: what a doubting player would run, against a real server's port: the saved file verifies (exit 0), and the
    same file with one card of the person's hand changed in the middle of the game is refused with that version
    (exit 1). (About a second.)"""
    harness = await start()
    room_id, token = await seated_room(harness, "soker")
    last = await play_to_the_end(harness, room_id, token, random.Random(7))
    path = tmp_path / "game.json"
    target = f"127.0.0.1:{harness.server.port}"
    saved = await asyncio.to_thread(cli.main, ["replay", str(path), "--room", room_id, "--target", target, "--save"])
    assert saved == 0 and f"{last} versions of room {room_id} written" in capsys.readouterr().out

    assert cli.main(["verify", str(path)]) == 0
    commitment = json.loads(path.read_text())["room"]["deal"]["commitment"]
    assert capsys.readouterr().out == f"verified: soker {room_id}, {last} versions, deal {commitment}\n"

    replay = json.loads(path.read_text())
    version = last // 2
    hand = replay["steps"][version - 1]["hands"][0][VIEW_FIELD["soker"]]["hand"]
    assert hand, "the person holds cards in the middle of the game"
    hand[0] = next(face.code for face in get_game("soker").catalogue() if face.code not in hand)
    changed = tmp_path / "changed.json"
    changed.write_text(json.dumps(replay), encoding="utf-8")
    assert cli.main(["verify", str(changed)]) == 1
    out = capsys.readouterr().out
    assert out.startswith(f"differs at version {version}: seat 0's view differs: hand"), out


async def test_a_seed_over_rest_is_refused_when_bad_and_shown_in_the_seat_and_the_deal(start: Start, gateway) -> None:
    """Buys: the body field ``seed`` and the JSON ``deal`` that REST builds from the contract, with a bad seed a 400
    problem naming bad_seed (well under a second)."""
    harness = await start()
    client = await gateway(harness)
    created = await client.post(
        "/v1/rooms", json={"game": "soker", "mode": "ROOM_MODE_SOLO", "seats": 2, "systemPlayers": 1}
    )
    assert created.status_code == 201, created.text
    room = created.json()
    room_id = room["roomId"]
    assert len(room["deal"]["commitment"]) == 64 and not room["deal"].get("secret")
    for bad in ("with space", "x" * 65, "é"):
        refused = await client.post(f"/v1/rooms/{room_id}/seats", json={"name": "ann", "seed": bad})
        assert refused.status_code == 400, refused.text
        assert refused.headers["content-type"].startswith("application/problem+json")
        problem = refused.json()
        assert problem["reason"] == "bad_seed" and problem["type"] == "urn:kickoff:problem:bad_seed"
        assert "seed" in problem["detail"] and bad not in problem["detail"], "the input is never carried back"

    joined = await client.post(f"/v1/rooms/{room_id}/seats", json={"name": "ann", "seed": "ann-seed-1"})
    assert joined.status_code == 201, joined.text
    room = (await client.get(f"/v1/rooms/{room_id}")).json()
    seats = room["seats"]
    assert seats[joined.json().get("seat", 0)]["seed"] == "ann-seed-1"
    deal = room["deal"]
    assert deal["scheme"] == scheme.SCHEME and deal["subject"] == room_id and len(deal["commitment"]) == 64
    assert deal["seeds"] == [seat["seed"] for seat in seats] and not deal.get("secret"), "the game is being played"
