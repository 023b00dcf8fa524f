"""A tournament's games across a takeover: each game has one room, whichever node made it and whichever node
plays it. (A fault soak saw a tournament of 8 games leave 9 rooms: a game's room made just before its node stopped
was made again by the node that took the tournament over.)"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from sqlalchemy import text

from kickoff.v1 import tournament_pb2
from service.errors import Moved
from service.rooms.directory import NewRoom
from tests.cluster.conftest import Cluster, Monotonic


async def game_rooms(cluster: Cluster, tournament_id: str) -> list[tuple[str, int]]:
    async with cluster._direct().journal.engine.connect() as connection:
        rows = await connection.execute(
            text("SELECT room_id, tournament_game FROM rooms WHERE tournament_id = :t ORDER BY tournament_game"),
            {"t": tournament_id},
        )
        return [(row.room_id, row.tournament_game) for row in rows]


async def test_a_game_room_made_just_before_its_node_stopped_is_the_one_the_next_node_plays(cluster: Cluster) -> None:
    a = await cluster.start("a")
    clock = Monotonic()
    b = await cluster.start("b", monotonic=clock)
    created = await a.tournament_stub.CreateTournament(
        tournament_pb2.CreateTournamentRequest(game="soker", mode=1, system_players=3, think_seconds=0)
    )
    tournament_id = created.tournament.tournament_id

    # a makes game 0's room as the last seat is taken, then stops before the tournament's "game" line is stored.
    stopped = asyncio.Event()
    append = a.journal.append

    async def stop_at_the_game_line(kind: str, entry: Any, status: str) -> None:
        if kind == "tournament" and entry.kind == "game":
            stopped.set()
            await asyncio.Event().wait()  # (a stopped process: this line is never stored)
        await append(kind, entry, status)

    a.journal.append = stop_at_the_game_line  # type: ignore[method-assign]
    joining = asyncio.ensure_future(
        a.tournament_stub.JoinTournament(tournament_pb2.JoinTournamentRequest(tournament_id=tournament_id))
    )
    await stopped.wait()
    made = await game_rooms(cluster, tournament_id)
    assert [game for _, game in made] == [0]

    # b takes the tournament over (its game's room comes with it) while b cannot vouch for its own lease: nothing it
    # claimed is rebuilt by the sweep, the next call for the tournament loads it.
    await cluster.expire("a")
    clock.now += 31.0
    assert await b.runtime.sweep() == 2  # the tournament and its game (claimed with it)
    assert ("room", made[0][0]) in b.node.held and made[0][0] not in b.rooms._actors
    await b.runtime.renew()
    clock.now += 0.1
    await b.tournament_stub.GetTournament(tournament_pb2.GetTournamentRequest(tournament_id=tournament_id))  # loads it
    await b.tournaments.get(tournament_id).advance()  # (after the moving on its rebuild queued)
    standing = await b.tournament_stub.GetTournament(tournament_pb2.GetTournamentRequest(tournament_id=tournament_id))
    assert [game.room_id for game in standing.tournament.game_list] == [made[0][0]]
    assert await game_rooms(cluster, tournament_id) == made
    joining.cancel()


async def test_a_node_that_lost_a_tournament_makes_no_room_for_it(cluster: Cluster) -> None:
    a = await cluster.start("a")
    b = await cluster.start("b")
    created = await a.tournament_stub.CreateTournament(
        tournament_pb2.CreateTournamentRequest(game="soker", mode=1, system_players=3, think_seconds=0)
    )
    tournament_id = created.tournament.tournament_id
    await cluster.expire("a")
    assert await b.runtime.sweep() == 1

    # a has not heard yet (its renewal is late): its tournament asks for the next game's room.
    with pytest.raises(Moved):
        await a.rooms.create(
            NewRoom(
                game="soker",
                mode="online",
                seats=4,
                system_players=4,
                tournament_id=tournament_id,
                tournament_game=0,
            )
        )
    assert await game_rooms(cluster, tournament_id) == []
