"""Retention on both stores: ended tickets and started tables past KICKOFF_MATCH_KEEP_DAYS, and ended sessions and
spent refresh tokens past KICKOFF_SESSION_KEEP_DAYS, leave the store, a batch per pass; recent and live ones stay, and
a live session keeps working."""

from __future__ import annotations

import pytest
from sqlalchemy import func, insert, select

from service.errors import Unauthenticated
from service.matches.store import MatchStore
from service.players.store import PlayerStore
from service.settings import MatchSettings
from service.store.database import create_engine
from service.store.models import MatchRow, RefreshTokenRow, SessionRow, TicketRow
from service.store.retention import Retention

DAY = 24 * 3600.0
START = 1_800_000_000.0


class Clock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> float:
        return self.now


def ticket(ticket_id: str, status: str, ended_at: float | None) -> dict:
    return {
        "ticket_id": ticket_id,
        "game": "soker",
        "status": status,
        "leader": "p-ann",
        "members": ["p-ann"],
        "joined": ["p-ann"],
        "names": ["ann"],
        "counts": [2],
        "mode": "online",
        "options": {},
        "options_key": "k",
        "rating": 25.0,
        "place": START,
        "created_at": START,
        "expires_at": START + 300,
        "version": 1,
        "ended_at": ended_at,
    }


def table(match_id: str, status: str, started_at: float | None) -> dict:
    return {
        "match_id": match_id,
        "game": "soker",
        "room_id": match_id,
        "status": status,
        "size": 2,
        "mode": "online",
        "options": {},
        "options_key": "k",
        "seats": [],
        "place": START,
        "created_at": START,
        "started_at": started_at,
    }


async def ids(engine, column) -> set[str]:
    async with engine.connect() as connection:
        return set((await connection.execute(select(column))).scalars())


async def test_ended_tickets_and_started_tables_are_pruned_past_their_bound_in_batches(database_url: str) -> None:
    engine = create_engine(database_url)
    clock = Clock()
    store = MatchStore(engine, clock, MatchSettings(keep_days=7))
    old = START - 8 * DAY
    async with engine.begin() as connection:
        await connection.execute(
            insert(TicketRow),
            [
                ticket("matched-old", "matched", old),
                ticket("cancelled-old", "cancelled", old),
                ticket("expired-old", "expired", old + 1),
                ticket("matched-recent", "matched", START - 6 * DAY),
                ticket("searching-long", "searching", None),  # (live: never pruned, however old)
            ],
        )
        await connection.execute(
            insert(MatchRow),
            [
                table("started-old", "started", old),
                table("started-recent", "started", START - 6 * DAY),
                table("proposed", "proposed", None),
                table("starting", "starting", old),  # (a node is making its room: not started yet)
            ],
        )
    retention = Retention(engine, clock, batch=2)
    retention.add(store.retention())
    assert await retention.prune() == {"ended tickets": 2, "started tables": 1}
    assert await retention.prune() == {"ended tickets": 1, "started tables": 0}, "the rest, in the next pass"
    assert await retention.prune() == {"ended tickets": 0, "started tables": 0}
    assert await ids(engine, TicketRow.ticket_id) == {"matched-recent", "searching-long"}
    assert await ids(engine, MatchRow.match_id) == {"started-recent", "proposed", "starting"}
    clock.now += 2 * DAY  # the recent ones' time comes
    assert await retention.prune() == {"ended tickets": 1, "started tables": 1}
    await engine.dispose()


@pytest.mark.parametrize("why", ["signed_out", "expired"])
async def test_ended_sessions_and_spent_refresh_tokens_are_pruned_and_live_ones_kept(
    database_url: str, why: str
) -> None:
    engine = create_engine(database_url)
    clock = Clock()
    store = PlayerStore(engine, clock)
    ann, _ = await store.guest(None, "ann")
    clock.now = START - 100 * DAY
    ended = await store.open_session(ann.player_id, "h-ended", clock.now + 30 * DAY, clock.now + 69 * DAY)
    if why == "signed_out":
        clock.now = START - 31 * DAY
        await store.revoke(ended, "signed_out")
    clock.now = START - 40 * DAY
    live = await store.open_session(ann.player_id, "h-live-1", clock.now + 5 * DAY, clock.now + 90 * DAY)
    await store.rotate("h-live-1", "h-live-2", 30 * DAY)  # (h-live-1 used; it expired 35 days ago)
    clock.now = START - 20 * DAY
    await store.rotate("h-live-2", "h-live-3", 30 * DAY)  # (h-live-2 used, not expired yet: kept)
    recent = await store.open_session(ann.player_id, "h-recent", START - 10 * DAY, START + 80 * DAY)
    clock.now = START - 10 * DAY
    await store.revoke(recent, "signed_out")  # (ended ten days ago: kept)
    clock.now = START

    retention = Retention(engine, clock)
    retention.add(store.retention(30))
    assert await retention.prune() == {"spent refresh tokens": 2, "ended sessions": 1}
    assert await ids(engine, SessionRow.session_id) == {live, recent}
    assert await ids(engine, RefreshTokenRow.token_hash) == {"h-live-2", "h-live-3", "h-recent"}
    # The live session works on; its used token, presented again, still ends it (a stolen copy is noticed).
    assert (await store.rotate("h-live-3", "h-live-4", 30 * DAY))[1] == live
    with pytest.raises(Unauthenticated) as refused:
        await store.rotate("h-live-2", "h-live-5", 30 * DAY)
    assert refused.value.code == "refresh_reused"
    async with engine.connect() as connection:
        count = (await connection.execute(select(func.count()).select_from(SessionRow))).scalar()
    assert count == 2
    await engine.dispose()
