"""How tickets become tables: the matchmaker's choices, as pure functions of the queue and the time (no store, no
clock), so that every rule is tested by itself and the same queue always makes the same tables.

The rules, in the order they apply at each tick:

1. **Oldest first.** Tickets are taken in the order of their place in the queue (when they joined it, or were put
   back in it). A table found earlier that lost people (they did not take their seats up in time) is filled before
   any new table is made, oldest first: its people keep their place. A ticket put back is never offered the table it
   left again.
2. **Similar ratings.** A ticket's rating is the mean of its members' mu in the game. The oldest ticket (the anchor)
   takes tickets whose rating is within its window of its own; the window widens with the anchor's wait, as
   :data:`WINDOWS` says (+-3 for its first 10 s, +-6 to 20 s, +-12 to 40 s, then anyone), so a table's ratings lie
   within twice the anchor's window. A table with lost people widens with its oldest ticket's wait the same way.
3. **Sizes.** Tickets share a table only when they take its size (each names the sizes it takes, default all the
   game's) and ask for the same options. The anchor's table is the largest size it can fill with people now; 7
   players who take 2-4 seats make a table of 4 and one of 3, 6 make 4 and 2.
4. **Parties whole.** A party's members sit at one table, and where the game has teams (Carta Fútbol Club), on one
   team: a party larger than a team never matches (its ticket is refused).
5. **Blocks keep apart.** Two tickets of which a player of one blocked a player of the other (FriendService's
   BlockPlayer) never share a table: each skips the other, as if its rating were out of the window.
6. **System players fill.** Once the anchor has waited the fill time, the smallest table its ticket takes is made with
   the people in its window that fit, and system players take the seats still empty; a table with lost people fills
   them the same way once its oldest ticket has waited that long. Every table keeps at least one person (the anchor).
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

# (waited at least this many seconds, the rating window's half width from then on)
WINDOWS: tuple[tuple[float, float], ...] = ((0.0, 3.0), (10.0, 6.0), (20.0, 12.0), (40.0, math.inf))


def window(waited: float) -> float:
    """How far from the anchor's rating a ticket may be, after the anchor waited ``waited`` seconds."""
    width = WINDOWS[0][1]
    for since, half in WINDOWS:
        if waited >= since:
            width = half
    return width


@dataclass(frozen=True)
class Waiting:
    """A ticket searching: ``players`` people (a party of more than one sits together), their mean ``rating``, the
    table sizes it takes, the key of its options (tickets of one key may share a table) and its place."""

    ticket_id: str
    players: int
    rating: float
    counts: frozenset[int]
    key: str
    place: float
    left: str = ""  # the table it was put back from (its people did not take up in time): never offered it again
    people: frozenset[str] = frozenset()  # its players' ids
    apart: frozenset[str] = frozenset()  # the players its players blocked, or were blocked by: never at its table


@dataclass(frozen=True)
class Vacant:
    """A table found before that lost people: its size, each seat's team, the seats free, the ratings of the tickets
    still at it, and its oldest place."""

    match_id: str
    size: int
    key: str
    place: float
    teams: tuple[int, ...]
    free: tuple[int, ...]
    ratings: tuple[float, ...]
    people: frozenset[str] = frozenset()  # the players still at it
    apart: frozenset[str] = frozenset()  # those they blocked or were blocked by


@dataclass
class Table:
    """What a tick makes: a new table (``match_id`` empty) or more people for a table that lost some; each ticket
    with the seats its people take, and the seats system players take."""

    match_id: str
    size: int
    key: str
    tickets: list[tuple[str, tuple[int, ...]]] = field(default_factory=list)
    bots: tuple[int, ...] = ()
    ratings: tuple[float, ...] = ()  # every ticket's at the table (the spread is theirs)

    @property
    def spread(self) -> float:
        return max(self.ratings) - min(self.ratings) if self.ratings else 0.0


def clash(people: frozenset[str], apart: frozenset[str], other: Waiting) -> bool:
    """Whether ``other`` may not sit with ``people`` (who keep ``apart`` away): a block either way."""
    return bool(apart & other.people or other.apart & people)


def _order(ticket: Waiting) -> tuple[float, str]:
    return (ticket.place, ticket.ticket_id)


def assign(teams: Sequence[int], free: Sequence[int], parties: Sequence[int]) -> list[tuple[int, ...]] | None:
    """Seats for tickets of ``parties`` people each, among the ``free`` seats of a table whose seat s plays for team
    ``teams[s]``: a party of several on one team where teams have several seats. None: they do not fit."""
    if sum(parties) > len(free):
        return None
    seats_of: dict[int, list[int]] = {}
    for seat in free:
        seats_of.setdefault(teams[seat], []).append(seat)
    teamed = max(Counter(teams).values()) > 1
    given: list[tuple[int, ...] | None] = [None] * len(parties)
    order = sorted(range(len(parties)), key=lambda i: -parties[i])  # (largest parties first; stable)
    for index in order:
        count = parties[index]
        if count == 1 or not teamed:
            continue
        fitting = [team for team, seats in seats_of.items() if len(seats) >= count]
        if not fitting:
            return None
        team = min(fitting, key=lambda t: (len(seats_of[t]), t))  # (the tightest team that takes the party)
        given[index], seats_of[team] = tuple(seats_of[team][:count]), seats_of[team][count:]
    rest = sorted(seat for seats in seats_of.values() for seat in seats)
    for index in order:
        if given[index] is None:
            count = parties[index]
            given[index], rest = tuple(rest[:count]), rest[count:]
    return [seats for seats in given if seats is not None] if all(given) else None


def plan(
    waiting: Sequence[Waiting],
    vacant: Sequence[Vacant],
    now: float,
    teams: Callable[[int, str], Sequence[int]],
    fill_seconds: float | None,
) -> list[Table]:
    """The tables one tick makes (see the module docstring). ``teams(size, key)`` gives each seat's team at a table
    of that size and options; ``fill_seconds`` None: system players never fill."""
    queue = sorted(waiting, key=_order)
    used: set[str] = set()
    tables: list[Table] = []
    # Each key's tickets by rating, so that a window is found by bisection rather than by reading the whole queue
    # (a queue of 2,000 tickets none of which match took 1.2 s a turn that way; now a few milliseconds).
    by_key: dict[str, list[Waiting]] = {}
    for ticket in sorted(queue, key=lambda t: t.rating):
        by_key.setdefault(ticket.key, []).append(ticket)
    ratings = {key: [t.rating for t in tickets] for key, tickets in by_key.items()}

    def candidates(
        key: str, size: int, rating: float, width: float, exclude: str = "", table: str = ""
    ) -> list[Waiting]:
        """The tickets not yet used within ``width`` of ``rating`` that take ``size`` (and did not leave ``table``),
        oldest first."""
        pool, line = by_key.get(key, []), ratings.get(key, [])
        low, high = bisect_left(line, rating - width), bisect_right(line, rating + width)
        found = [t for t in pool[low:high] if t.ticket_id not in used and t.ticket_id != exclude and size in t.counts]
        return sorted(found, key=_order)

    def gather(
        table_teams: tuple[int, ...],
        free: Sequence[int],
        first: list[Waiting],
        pool: list[Waiting],
        seated: tuple[frozenset[str], frozenset[str]] = (frozenset(), frozenset()),
    ):
        """The tickets that fit the free seats, the ``first`` ones always, then the pool's in order, skipping those
        blocked by (or blocking) someone at the table: ``seated`` (its people and those they keep apart) or chosen."""
        chosen = list(first)
        seats = assign(table_teams, free, [t.players for t in chosen])
        if seats is None:
            return [], None
        people, apart = seated
        for ticket in chosen:
            people, apart = people | ticket.people, apart | ticket.apart
        for ticket in pool:
            if sum(t.players for t in chosen) == len(free):
                break
            if clash(people, apart, ticket):
                continue
            trial = assign(table_teams, free, [t.players for t in [*chosen, ticket]])
            if trial is not None:
                chosen.append(ticket)
                seats = trial
                people, apart = people | ticket.people, apart | ticket.apart
        return chosen, seats

    def filling(waited: float) -> bool:
        return fill_seconds is not None and waited >= fill_seconds

    for table in sorted(vacant, key=lambda v: (v.place, v.match_id)):
        rating = sum(table.ratings) / len(table.ratings) if table.ratings else 0.0
        pool = candidates(table.key, table.size, rating, window(now - table.place), table=table.match_id)
        chosen, seats = gather(table.teams, table.free, [], pool, (table.people, table.apart))
        taken = {seat for group in seats or [] for seat in group}
        left = tuple(seat for seat in table.free if seat not in taken)
        bots = left if left and filling(now - table.place) else ()
        if chosen or bots:
            used.update(t.ticket_id for t in chosen)
            made = Table(table.match_id, table.size, table.key, bots=bots)
            made.tickets = [(t.ticket_id, group) for t, group in zip(chosen, seats or [], strict=True)]
            made.ratings = (*table.ratings, *(t.rating for t in chosen))
            tables.append(made)

    for anchor in queue:
        if anchor.ticket_id in used:
            continue
        width = window(now - anchor.place)
        made = None
        for size in sorted(anchor.counts, reverse=True):
            table_teams = tuple(teams(size, anchor.key))
            pool = candidates(anchor.key, size, anchor.rating, width, exclude=anchor.ticket_id)
            chosen, seats = gather(table_teams, range(size), [anchor], pool)
            if seats is not None and sum(t.players for t in chosen) == size:
                made = Table("", size, anchor.key)
                made.tickets = [(t.ticket_id, group) for t, group in zip(chosen, seats, strict=True)]
                made.ratings = tuple(t.rating for t in chosen)
                break
        if made is None and filling(now - anchor.place):
            for size in sorted(anchor.counts):
                table_teams = tuple(teams(size, anchor.key))
                pool = candidates(anchor.key, size, anchor.rating, width, exclude=anchor.ticket_id)
                chosen, seats = gather(table_teams, range(size), [anchor], pool)
                if seats is not None:
                    taken = {seat for group in seats for seat in group}
                    made = Table("", size, anchor.key, bots=tuple(s for s in range(size) if s not in taken))
                    made.tickets = [(t.ticket_id, group) for t, group in zip(chosen, seats, strict=True)]
                    made.ratings = tuple(t.rating for t in chosen)
                    break
        if made is not None:
            used.update(ticket for ticket, _ in made.tickets)
            tables.append(made)
    return tables
