"""What makes a game count (issue 45, item 5): one person seating throwaway guests at their own table and beating them
gets no rating and stays off the leaderboard, each such room saying why (same_address) before its game starts and
after it ends, across a restart too; honest players on distinct addresses are rated as before.

The servers here run with the default limits behind a trusted gateway on loopback (KICKOFF_TRUSTED_PROXIES): each call
names the client's address in x-forwarded-for, as the REST gateway does, so a test says who calls from where."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import fields
from pathlib import Path

import httpx
import pytest

from kickoff.v1 import common_pb2, match_pb2, player_pb2, room_pb2, tournament_pb2
from service.settings import LimitSettings, PlayerSettings
from service.store.database import create_engine, upgrade_in_thread
from service.store.journal import SqlJournal
from tests.players.conftest import Served, auth, calling_from
from tests.server.conftest import Harness
from tests.servers import Start

FARM = "203.0.113.7"  # the farmer's one address
REST_SECONDS = 300.0  # KICKOFF_REST_SECONDS' default: an idle correspondence room rests after it
HONEST = ("198.51.100.11", "198.51.100.12", "2001:db8:5::1")  # three honest players, each at home


def public_limits(**changes: object) -> dict[str, object]:
    """The default limits (a public server's), with loopback trusted as the gateway."""
    defaults = LimitSettings()
    return {
        **{field.name: getattr(defaults, field.name) for field in fields(LimitSettings)},
        "rate_shared_addresses": False,
        "trusted_proxies": ("127.0.0.1/32",),
        **changes,
    }


@pytest.fixture
async def public(start: Start, database_url: str) -> AsyncIterator[Served]:
    journal = SqlJournal(create_engine(database_url))
    yield Served(await start(journal=journal, min_games=PlayerSettings().min_games, **public_limits()))


async def room_of(served: Served, room_id: str) -> room_pb2.Room:
    return (await served.harness.rooms.GetRoom(room_pb2.GetRoomRequest(room_id=room_id))).room


async def test_throwaway_guests_from_one_address_farm_nothing_while_honest_players_are_rated(public: Served) -> None:
    players = public.harness.players
    min_games = PlayerSettings().min_games
    farmer = await public.guest(name="Farmer", address=FARM)
    for game in range(min_games):
        created = await public.create(farmer, seats=3, address=FARM)
        room_id = created.room.room_id
        victims = [await public.guest(name=f"Throwaway {game}{n}", address=FARM) for n in range(2)]
        first = await public.join(room_id, victims[0], address=FARM)
        # Before the game starts, the room says it will not count, and why.
        assert first.room.status == common_pb2.ROOM_STATUS_WAITING
        assert first.room.unrated_reason == "same_address"
        second = await public.join(room_id, victims[1], address=FARM)
        assert not second.room.rated and second.room.unrated_reason == "same_address"
        tokens = {created.seat: created.seat_token, first.seat: first.seat_token, second.seat: second.seat_token}
        ended = await public.play_out(room_id, tokens)
        assert ended.status == common_pb2.ROOM_STATUS_FINISHED
        assert not ended.rated and ended.unrated_reason == "same_address"

    honest = [await public.guest(name=f"Honest {n}", address=address) for n, address in enumerate(HONEST)]
    for _ in range(min_games):
        created = await public.create(honest[0], seats=3, address=HONEST[0])
        room_id = created.room.room_id
        first = await public.join(room_id, honest[1], address=HONEST[1])
        assert first.room.status == common_pb2.ROOM_STATUS_WAITING and first.room.unrated_reason == ""
        second = await public.join(room_id, honest[2], address=HONEST[2])
        assert second.room.rated and second.room.unrated_reason == ""
        tokens = {created.seat: created.seat_token, first.seat: first.seat_token, second.seat: second.seat_token}
        assert (await public.play_out(room_id, tokens)).rated

    board = await players.GetLeaderboard(player_pb2.GetLeaderboardRequest(game="soker"))
    assert sorted(line.player_id for line in board.lines) == sorted(p.player.player_id for p in honest)
    assert all(line.rating.games == min_games for line in board.lines)
    rank = await players.GetRank(player_pb2.GetRankRequest(game="soker"), metadata=auth(farmer.access_token))
    assert not rank.HasField("line") and rank.ranked == len(HONEST)
    # The farmer's history shows every game played, none rated, each with its reason.
    games = await players.ListPlayerGames(player_pb2.ListPlayerGamesRequest(player_id=farmer.player.player_id))
    assert len(games.games) == min_games
    assert {(game.rated, game.unrated_reason) for game in games.games} == {(False, "same_address")}
    me = (await players.GetPlayer(player_pb2.GetPlayerRequest(), metadata=auth(farmer.access_token))).player
    assert list(me.ratings) == []


async def test_one_address_at_a_table_of_honest_players_makes_it_unrated_and_a_free_seat_clears_it(
    public: Served,
) -> None:
    """The rule is about the table: a second person from the farmer's address makes the whole room unrated; when
    that person leaves before the game starts, the reason goes with them."""
    farmer, alt = await public.guest(address=FARM), await public.guest(address=FARM)
    honest = await public.guest(address=HONEST[0])
    created = await public.create(farmer, seats=4, address=FARM)
    room_id = created.room.room_id
    await public.join(room_id, honest, address=HONEST[0])
    assert (await room_of(public, room_id)).unrated_reason == ""
    joined = await public.join(room_id, alt, seat=2, address=FARM)
    assert joined.room.unrated_reason == "same_address"
    await public.harness.rooms.LeaveRoom(room_pb2.LeaveRoomRequest(room_id=room_id), metadata=auth(joined.seat_token))
    assert (await room_of(public, room_id)).unrated_reason == ""
    for address in HONEST[1:]:
        again = await public.join(room_id, await public.guest(address=address), address=address)
    assert again.room.status == common_pb2.ROOM_STATUS_PLAYING
    assert again.room.rated and again.room.unrated_reason == ""


async def test_a_room_seated_from_one_address_stays_unrated_across_a_restart(start: Start, tmp_path: Path) -> None:
    """The origins are stored with the seats (the join lines): a server that loads the room again decides as the
    first did, and the game's end changes no rating."""
    url = f"sqlite+aiosqlite:///{tmp_path}/kickoff.db"
    await upgrade_in_thread(url)
    first = Served(await start(journal=SqlJournal(create_engine(url)), **public_limits()))
    farmer, victim = await first.guest(address=FARM), await first.guest(address=FARM)
    created = await first.create(farmer, address=FARM)
    room_id = created.room.room_id
    joined = await first.join(room_id, victim, address=FARM)
    assert joined.room.status == common_pb2.ROOM_STATUS_PLAYING and joined.room.unrated_reason == "same_address"
    await first.harness.server.stop(0)

    second = Served(await start(journal=SqlJournal(create_engine(url)), **public_limits()))
    await second.harness.directory.restore(await second.harness.directory.journal.load_live("room"))
    room = await room_of(second, room_id)
    assert room.status == common_pb2.ROOM_STATUS_PLAYING and not room.rated
    assert room.unrated_reason == "same_address"
    ended = await second.play_out(room_id, {created.seat: created.seat_token, joined.seat: joined.seat_token})
    assert not ended.rated and ended.unrated_reason == "same_address"
    me = await second.harness.players.GetPlayer(player_pb2.GetPlayerRequest(), metadata=auth(farmer.access_token))
    assert list(me.player.ratings) == []


async def rest_guest(client: httpx.AsyncClient) -> dict[str, str]:
    signed = await client.post("/v1/players/guest", json={})
    return {"Authorization": f"Bearer {signed.json()['session']['accessToken']}"}


async def test_the_reason_over_rest(
    start: Start, database_url: str, gateway: Callable[[Harness], Awaitable[httpx.AsyncClient]]
) -> None:
    """Two guests through the gateway from one client address: the waiting room's REST view says the game will not
    be rated and why, and so does the room once its game has started."""
    harness = await start(journal=SqlJournal(create_engine(database_url)), **public_limits())
    client = await gateway(harness)
    ann, bo = [await rest_guest(client) for _ in range(2)]
    created = await client.post(
        "/v1/rooms", json={"game": "soker", "mode": "ROOM_MODE_ONLINE", "seats": 3}, headers=ann
    )
    room_id = created.json()["roomId"]
    joined = await client.post(f"/v1/rooms/{room_id}/seats", json={}, headers=bo)
    assert joined.status_code == 201
    waiting = (await client.get(f"/v1/rooms/{room_id}")).json()
    assert (waiting["status"], waiting["rated"], waiting["unratedReason"]) == (
        "ROOM_STATUS_WAITING",
        False,
        "same_address",
    )


async def test_a_tournament_entered_from_one_address_plays_its_games_unrated(public: Served) -> None:
    """A tournament's games are seated by the tournament, with the origins its people entered from: two entrants
    from one address make every game of it unrated, as a room would be."""
    farmer, victim = await public.guest(address=FARM), await public.guest(address=FARM)
    tournaments = public.harness.tournaments
    created = await tournaments.CreateTournament(
        tournament_pb2.CreateTournamentRequest(game="soker", system_players=2, mode=common_pb2.ROOM_MODE_ONLINE),
        metadata=calling_from(FARM),
    )
    tid = created.tournament.tournament_id
    for session in (farmer, victim):
        await tournaments.JoinTournament(
            tournament_pb2.JoinTournamentRequest(tournament_id=tid),
            metadata=auth(session.access_token) + calling_from(FARM),
        )
    await public.harness.server.tournaments.settle()
    tournament = (await tournaments.GetTournament(tournament_pb2.GetTournamentRequest(tournament_id=tid))).tournament
    room = await room_of(public, tournament.current_room_id)
    assert room.status == common_pb2.ROOM_STATUS_PLAYING
    assert not room.rated and room.unrated_reason == "same_address"


async def matched_room(public: Served, sessions: list[player_pb2.Session], addresses: list[str]) -> room_pb2.Room:
    """Queue each session for a table of two, turn the queue, take each seat up from its address: the room made."""
    stub = public.harness.matches
    tickets = [
        (
            await stub.Enqueue(
                match_pb2.EnqueueRequest(game="soker", seat_counts=[2]),
                metadata=auth(session.access_token) + calling_from(address),
            )
        ).ticket
        for session, address in zip(sessions, addresses, strict=True)
    ]
    public.harness.clock.advance(1)
    await public.harness.matchmaker.tick()
    for session, ticket, address in zip(sessions, tickets, addresses, strict=True):
        taken = await stub.AcceptMatch(
            match_pb2.AcceptMatchRequest(ticket_id=ticket.ticket_id),
            metadata=auth(session.access_token) + calling_from(address),
        )
    return await room_of(public, taken.ticket.table.room_id)


async def test_a_matched_table_taken_up_from_one_address_plays_unrated(public: Served) -> None:
    """A matched room is seated by the matchmaker, with the origins its people took their seats up from: two from
    one address play unrated; two from their own addresses are rated."""
    farmed = await matched_room(public, [await public.guest(address=FARM) for _ in range(2)], [FARM, FARM])
    assert farmed.status == common_pb2.ROOM_STATUS_PLAYING
    assert not farmed.rated and farmed.unrated_reason == "same_address"
    honest = [await public.guest(address=address) for address in HONEST[:2]]
    room = await matched_room(public, honest, list(HONEST[:2]))
    assert room.status == common_pb2.ROOM_STATUS_PLAYING and room.rated and room.unrated_reason == ""


async def test_a_resting_room_seated_from_one_address_is_shown_unrated_from_the_store(public: Served) -> None:
    """A correspondence room that rests is shown from its rows (ListMyRooms wakes nothing): its seats' origins are
    there too, so it says same_address as the room itself did."""
    farmer, victim = await public.guest(address=FARM), await public.guest(address=FARM)
    request = room_pb2.CreateRoomRequest(
        game="soker", mode=common_pb2.ROOM_MODE_ONLINE, seats=2, think_seconds=0, correspondence_hours=24
    )
    created = await public.harness.rooms.CreateRoom(request, metadata=auth(farmer.access_token) + calling_from(FARM))
    room_id = created.room.room_id
    joined = await public.join(room_id, victim, address=FARM)
    assert not joined.room.rated and joined.room.unrated_reason == "same_address"
    public.harness.clock.advance(REST_SECONDS)
    assert (await public.harness.directory.rest_and_wake())[0] == [room_id]
    listed = await public.harness.players.ListMyRooms(
        player_pb2.ListMyRoomsRequest(), metadata=auth(farmer.access_token)
    )
    [mine] = listed.rooms
    assert room_id not in {room.room_id for room in public.harness.directory.held()}, "the list woke nothing"
    assert (mine.room.room_id, mine.room.rated, mine.room.unrated_reason) == (room_id, False, "same_address")
