"""A ticket's life is one trace (enqueue, proposed, matched: each step a span of it, linked to the call that began
it), and the wait and the rating spread of matched rooms are metrics."""

from __future__ import annotations

from sqlalchemy import insert

from service.matches.matchmaker import Matchmaker
from service.matches.store import MatchStore
from service.players.store import PlayerStore
from service.rooms.clock import ManualClock
from service.rooms.directory import RoomDirectory
from service.settings import MatchSettings
from service.store.database import create_engine, upgrade_in_thread
from service.store.journal import SqlJournal
from service.store.models import RatingRow
from tests.telemetry.conftest import side


def points(reader, name: str) -> list:
    found = []
    for resource in reader.get_metrics_data().resource_metrics:
        for scope in resource.scope_metrics:
            for metric in scope.metrics:
                if metric.name == name:
                    found += list(metric.data.data_points)
    return found


async def test_a_tickets_life_is_one_trace_and_its_wait_and_spread_are_measured(tmp_path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path}/kickoff.db"
    await upgrade_in_thread(url)
    telemetry = side("kickoff-grpc")
    clock = ManualClock()
    engine = create_engine(url)
    journal = SqlJournal(engine, telemetry.telemetry)
    rooms = RoomDirectory(clock=clock, journal=journal, telemetry=telemetry.telemetry, default_think_seconds=0)
    players = PlayerStore(engine, clock.now)
    settings = MatchSettings(fill_seconds=30)
    matchmaker = Matchmaker(MatchStore(engine, clock.now, settings), rooms, players, settings, clock=clock)
    await matchmaker.start(turning=False)
    try:
        ann, bob = [(await players.guest(None, name))[0] for name in ("Ann", "Bob")]
        async with engine.begin() as connection:
            rows = [
                {"game": "soker", "player_id": p.player_id, "kind": "person", "mu": mu, "sigma": 2.0}
                | {"display": mu - 6, "games": 9, "wins": 4, "updated_at": clock.now()}
                for p, mu in ((ann, 24.0), (bob, 26.5))
            ]
            await connection.execute(insert(RatingRow), rows)
        tickets = [await matchmaker.enqueue(p.player_id, game="soker", counts=[2]) for p in (ann, bob)]
        clock.advance(4)
        await matchmaker.tick()
        for player, ticket in zip((ann, bob), tickets, strict=True):
            await matchmaker.accept(ticket.ticket_id, player.player_id)
    finally:
        await matchmaker.close()
        await rooms.close()
        await journal.close()

    spans = telemetry.finished()
    for ticket in tickets:
        (enqueued,) = [
            s
            for s in spans
            if s.name == "ticket.enqueue" and ticket.trace.split("-")[1] == f"{s.context.trace_id:032x}"
        ]
        steps = [
            s.name for s in spans if s.context.trace_id == enqueued.context.trace_id and s.name.startswith("ticket.")
        ]
        assert steps == ["ticket.enqueue", "ticket.proposed", "ticket.matched"], steps
        assert enqueued.parent is None, "a ticket's life is a trace of its own"
    assert len({s.context.trace_id for s in spans if s.name == "ticket.enqueue"}) == 2
    (spread,) = points(telemetry.metrics, "kickoff.match.rating_spread")
    assert spread.sum == 2.5 and spread.count == 1
    (wait,) = points(telemetry.metrics, "kickoff.match.wait")
    assert wait.count == 2 and wait.sum == 8.0, "each waited the 4 s from enqueue to its room"
