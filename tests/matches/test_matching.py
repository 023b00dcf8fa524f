"""The matching rules as pure functions: sizes, rating windows that hold and widen, parties kept whole and on one
team, system players filling after the wait, oldest first."""

from __future__ import annotations

import math

from engine.registry import get_game
from service.matches.matching import Vacant, Waiting, assign, plan, window

T0 = 1_000.0


def teams_of(game: str):
    rules = get_game(game)
    return lambda size, key: rules.teams(size, rules.spec.resolve(size, {}))


def ticket(name: str, rating: float = 25.0, *, players: int = 1, counts=(2, 3, 4), at: float = T0) -> Waiting:
    return Waiting(name, players, rating, frozenset(counts), "k", at)


def sizes(tables) -> list[int]:
    return sorted((t.size for t in tables), reverse=True)


def test_four_six_and_seven_players_make_tables_of_the_right_sizes() -> None:
    teams = teams_of("soker")
    for players, expected in ((4, [4]), (6, [4, 2]), (7, [4, 3])):
        queue = [ticket(f"t{i}", at=T0 + i) for i in range(players)]
        tables = plan(queue, [], T0 + 10, teams, None)
        assert sizes(tables) == expected, players
        seated = [name for table in tables for name, _ in table.tickets]
        assert sorted(seated) == sorted(t.ticket_id for t in queue), "everyone is seated once"
        assert all(not table.bots for table in tables)


def test_a_table_takes_only_the_sizes_every_ticket_takes() -> None:
    queue = [ticket("a", counts=(2,)), ticket("b", counts=(4,), at=T0 + 1), ticket("c", counts=(2, 4), at=T0 + 2)]
    tables = plan(queue, [], T0 + 1, teams_of("soker"), None)
    assert [(t.size, [n for n, _ in t.tickets]) for t in tables] == [(2, ["a", "c"])]


def test_the_rating_window_holds_then_widens_with_the_wait() -> None:
    teams = teams_of("soker")
    queue = [ticket("low", 20.0, counts=(2,)), ticket("high", 27.0, counts=(2,), at=T0 + 0.5)]
    assert window(0) == 3.0 and window(10) == 6.0 and window(20) == 12.0 and window(40) == math.inf
    assert plan(queue, [], T0 + 9.9, teams, None) == [], "7 apart: not within +-3 in the first 10 s"
    assert plan(queue, [], T0 + 19.9, teams, None) == [], "nor +-6 until 20 s"
    tables = plan(queue, [], T0 + 20, teams, None)
    assert [[n for n, _ in t.tickets] for t in tables] == [["low", "high"]]
    assert tables[0].spread == 7.0


def test_the_oldest_ticket_is_matched_first() -> None:
    queue = [
        ticket("new", at=T0 + 5, counts=(2,)),
        ticket("old", at=T0, counts=(2,)),
        ticket("mid", at=T0 + 2, counts=(2,)),
    ]
    tables = plan(queue, [], T0 + 6, teams_of("soker"), None)
    assert [[n for n, _ in t.tickets] for t in tables] == [["old", "mid"]]


def test_a_party_sits_together_and_in_carta_on_one_team() -> None:
    carta = teams_of("carta-futbol-club")
    queue = [
        ticket("solo1", counts=(4,)),
        ticket("pair", players=2, counts=(4,), at=T0 + 1),
        ticket("solo2", counts=(4,), at=T0 + 2),
    ]
    (table,) = plan(queue, [], T0 + 3, carta, None)
    seats = dict(table.tickets)
    team = get_game("carta-futbol-club").teams(4, {})
    assert len({team[s] for s in seats["pair"]}) == 1, "the pair plays on one team"
    assert sorted(s for group in seats.values() for s in group) == [0, 1, 2, 3]
    assert assign(team, range(4), [2, 2]) is not None and assign(team, range(4), [3, 1]) is None


def test_system_players_fill_the_seats_left_after_the_wait_and_a_person_keeps_one() -> None:
    teams = teams_of("soker")
    queue = [ticket("alone", counts=(3, 4))]
    assert plan(queue, [], T0 + 29, teams, 30.0) == []
    (table,) = plan(queue, [], T0 + 30, teams, 30.0)
    assert table.size == 3 and table.tickets == [("alone", (0,))] and table.bots == (1, 2)
    assert plan(queue, [], T0 + 1000, teams, None) == [], "no filling when it is off"


def test_a_table_that_lost_people_is_filled_first_and_its_people_keep_their_place() -> None:
    teams = teams_of("soker")
    vacant = Vacant("m1", 3, "k", T0 - 50, (0, 1, 2), (2,), (25.0, 25.0))
    queue = [ticket("a", counts=(2, 3)), ticket("b", counts=(2, 3), at=T0 + 1)]
    tables = plan(queue, [vacant], T0 + 2, teams, None)
    assert tables[0].match_id == "m1" and tables[0].tickets == [("a", (2,))]
    assert [t.match_id for t in tables[1:]] == [], "b alone makes no table of 2"


def test_random_queues_make_tables_that_keep_every_rule() -> None:
    """Seeded random queues: no ticket at two tables, every table full (or filled by system players only after the
    wait), of a size each of its tickets takes, its ratings within the window of the ticket that made it, every seat
    taken once."""
    import random

    teams = teams_of("soker")
    for seed in range(40):
        chooser = random.Random(seed)
        now = T0 + 60
        queue = [
            Waiting(
                f"t{i}",
                chooser.choice((1, 1, 1, 2)),
                chooser.gauss(25, 8),
                frozenset(chooser.sample((2, 3, 4), chooser.randint(1, 3))),
                chooser.choice("ab"),
                now - chooser.uniform(0, 45),
            )
            for i in range(chooser.randint(0, 60))
        ]
        by_id = {t.ticket_id: t for t in queue}
        tables = plan(queue, [], now, teams, 30.0)
        seated = [ticket for table in tables for ticket, _ in table.tickets]
        assert len(seated) == len(set(seated)), seed
        for table in tables:
            members = [by_id[ticket] for ticket, _ in table.tickets]
            assert all(table.size in t.counts and t.key == members[0].key for t in members), seed
            # the ticket that made the table (the oldest left when it did: an older one left unmatched may join)
            anchors = [a for a in members if all(abs(t.rating - a.rating) <= window(now - a.place) for t in members)]
            assert anchors, seed
            people = sum(t.players for t in members)
            assert people + len(table.bots) == table.size and people >= 1, seed
            assert not table.bots or any(now - a.place >= 30.0 for a in anchors), seed
            seats = sorted(s for _, group in table.tickets for s in group) + list(table.bots)
            assert sorted(seats) == list(range(table.size)), seed
