"""A duplicate tournament through the service and the store (issue 50): its eight rooms seat the players rotated and
deal each deal's same cards to the same table seats, one commitment per deal, its held rooms revealed once the deal's
last rotation has ended; its standings and comparison follow the rooms' outcomes; a restart in the middle goes on with
the same deals. Runs on SQLite (and PostgreSQL where there is one); about a second each."""

from __future__ import annotations

import random

import pytest

from deals.scheme import commitment, secret_from_hex, system_seat_seed
from engine import registry
from engine.registry import get_game
from engine.soker.tournament import Tournament as Rules
from engine.soker.tournament import standings as engine_standings
from engine.soker.tournament import to_players
from service.errors import InvalidRequest
from service.rooms.clock import ManualClock
from service.rooms.room import FINISHED, SYSTEM
from tests.store.test_tournament_recovery import Server, rooms_of, table


class Revealing(Server):
    """A server whose rooms note each reveal asked of them (the rooms' reveal lands with the fair deals' core)."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.revealed: list[str] = []
        self.specs: dict[int, object] = {}
        create = self.rooms.create

        async def reveal(room_id: str) -> None:
            self.revealed.append(room_id)

        async def noted(asked=None, /, **named):
            self.specs[asked.tournament_game] = asked.deal
            return await create(asked, **named)

        self.rooms.reveal = reveal  # type: ignore[method-assign]
        self.rooms.create = noted  # type: ignore[method-assign]


async def play(tournament, nonce: str, chooser: random.Random, moves: int | None = None):
    """The person plays the current game (``moves`` of their moves, or to the end) at whichever table seat the
    rotation gave them (found by their tournament nonce); returns the room."""
    room = rooms_of(tournament)[-1]
    seat = next(s.seat for s in room.seats if s.nonce == nonce)
    played = 0
    while moves is None or played < moves:
        await room.settle()
        if room.status == FINISHED:
            break
        assert room.state.to_act() == (seat,), "in a solo game the system players have moved"
        move = chooser.choice(room.state.legal_moves(seat))
        await room.move(seat, nonce, move, f"g{room.tournament_game}-{played}", room.version)
        played += 1
    await room.settle()
    return room


def first_hands(room) -> list[int]:
    """The hands each table seat of ``room`` was dealt, from its seed and options through the engine."""
    return list(get_game("soker").new_game(4, dict(room.options), room.seed).hands)


async def test_a_duplicate_tournament_deals_each_deal_to_every_rotation_and_survives_a_restart(
    database_url: str,
) -> None:
    """Seats rotated as documented; the same cards at the same table seats in a deal's four rooms; one commitment per
    deal, its secret shown only after its last rotation; held rooms revealed then; a restart in game 3 keeps it all."""
    clock = ManualClock()
    server = await Revealing.start(database_url, clock)
    tournament = await server.tournaments.create(game="soker", mode="solo", system_players=3, duplicate=True)
    tid = tournament.tournament_id
    committed = [(deal.subject, deal.commitment) for deal in tournament.current().deals]
    assert [subject for subject, _ in committed] == [f"{tid}/deal/0", f"{tid}/deal/1"]
    assert all(len(c) == 64 for _, c in committed) and committed[0][1] != committed[1][1]
    seat, nonce = await tournament.join(None, "ann", seed="ann-seed-1")
    assert seat == 0
    deals = tournament.current().deals
    assert deals[0].seeds[0] == "ann-seed-1" and not any(deal.secret for deal in deals), "nothing revealed yet"
    secret0 = tournament.deal_secrets[0]
    assert deals[0].seeds[1:] == tuple(system_seat_seed(secret0, f"{tid}/deal/0", "soker", s) for s in (1, 2, 3))
    chooser = random.Random(7)
    for _ in range(2):
        await play(tournament, nonce, chooser)
        await server.tournaments.settle()
    room = await play(tournament, nonce, chooser, moves=1)  # game 3 (index 2) begun: the restart comes mid-deal
    assert room.tournament_game == 2
    assert server.revealed == [] and not tournament.current().deals[0].secret
    started = list(tournament.game_room_ids)
    await server.crash()

    server = await Revealing.start(database_url, clock)
    tournament = server.tournaments.get(tid)
    assert [(deal.subject, deal.commitment) for deal in tournament.current().deals] == committed, "the same deals"
    assert tournament.deal_secrets[0] == secret0 and tournament.game_room_ids[:3] == started
    await play(tournament, nonce, chooser)  # game 3 ends after the restart
    await server.tournaments.settle()
    await play(tournament, nonce, chooser)  # game 4: the deal's last rotation
    await server.tournaments.settle()
    rooms = rooms_of(tournament)
    assert server.revealed == [room.room_id for room in rooms[:3]], "the deal's held rooms, once its last has ended"
    shown = tournament.current().deals[0]
    assert commitment(secret_from_hex(shown.secret), shown.subject, "soker") == shown.commitment
    assert not tournament.current().deals[1].secret
    for _ in range(4):
        await play(tournament, nonce, chooser)
        await server.tournaments.settle()
    assert tournament.status == FINISHED and len(tournament.game_room_ids) == 8
    rooms = rooms_of(tournament)
    assert server.revealed[-3:] == [room.room_id for room in rooms[4:7]]
    assert [spec.held for _, spec in sorted(server.specs.items())][-5:] == [False, True, True, True, False]

    hands = [first_hands(room) for room in rooms]
    for game, room in enumerate(rooms):
        rotation, deal = game % 4, game // 4
        assert room.seats[rotation].nonce == nonce, "ann (tournament seat 0) sits at table seat (0 + r) % 4"
        assert [s.seat for s in room.seats if s.kind == SYSTEM] == sorted({1, 2, 3, 0} - {rotation})
        assert room.options["first_seat"] == deal, "a deal's first table seat stays in all its rotations"
        assert hands[game] == hands[deal * 4], "the same cards at the same table seats"
    assert hands[0] != hands[4], "two deals"
    outcomes = [room.state.outcome() for room in rooms]
    by_player = [to_players(outcome, game) for game, outcome in enumerate(outcomes)]
    assert table(tournament) == [
        (s.place, s.seat, s.points, s.games_won, s.country_wins) for s in engine_standings(by_player)
    ]
    hand = tournament.standings().hands[0]  # deal 0, table seat 0: ann, then seats 3, 2, 1
    assert [(p.seat, p.game, p.points) for p in hand.plays] == [
        (s, g, outcomes[g].points[0]) for g, s in enumerate((0, 3, 2, 1))
    ]
    await server.crash()


async def test_a_bad_seed_and_a_tournament_that_cannot_rotate_are_refused(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A seat's seed outside the scheme's bounds: InvalidRequest bad_seed; duplicate for a tournament with no duplicate
    form: InvalidRequest no_duplicate, naming the field."""
    server = await Server.start(database_url, ManualClock())
    tournament = await server.tournaments.create(game="soker", mode="solo", system_players=3, duplicate=True)
    with pytest.raises(InvalidRequest) as bad:
        await tournament.join(None, "ann", seed="two words")
    assert bad.value.code == "bad_seed"
    monkeypatch.setitem(registry.TOURNAMENTS, "soker", lambda: Rules())
    with pytest.raises(InvalidRequest) as refused:
        await server.tournaments.create(game="soker", mode="solo", system_players=3, duplicate=True)
    assert refused.value.code == "no_duplicate" and "rotate" in str(refused.value)
    await server.crash()
