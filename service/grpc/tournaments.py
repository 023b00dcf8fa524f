"""TournamentService: tournaments over gRPC, and their snapshots and updates as proto messages.

Like the other servicers it holds no rules: the tournament decides, this module reads requests and writes replies.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence
from typing import Any

import grpc

from engine.registry import get_game
from kickoff.v1 import common_pb2, tournament_pb2, tournament_pb2_grpc
from service.actors.requests import RequestKey, request_key
from service.actors.runtime import Remote
from service.errors import InvalidRequest, PermissionDenied, Unauthenticated
from service.grpc.admission import Admission
from service.grpc.codecs import Codec, codec_of
from service.grpc.convert import (
    MODE,
    MODE_NAME,
    STATUS,
    deal_to_proto,
    options_from,
    outcome_to_proto,
    seat_kind,
    struct,
    timestamp,
)
from service.grpc.errors import KickoffError, abort
from service.grpc.limits import check_request
from service.grpc.servicers import RoomAccess, bearer_token, internal, parameters_of, routed, seat_origin, unary
from service.rooms.room import FINISHED, PLAYING, WAITING
from service.tournaments.directory import TournamentDirectory
from service.tournaments.tournament import (
    GameEnded,
    GameInfo,
    GameStarted,
    SeatJoined,
    SeatLeft,
    Snapshot,
    Standings,
    StandingsChanged,
    Tournament,
    TournamentEnded,
    TournamentSeat,
    TournamentUpdate,
)

TOURNAMENT_STATUS = {
    WAITING: tournament_pb2.TOURNAMENT_STATUS_WAITING,
    PLAYING: tournament_pb2.TOURNAMENT_STATUS_PLAYING,
    FINISHED: tournament_pb2.TOURNAMENT_STATUS_FINISHED,
}
TOURNAMENT_STATUS_NAME = {value: name for name, value in TOURNAMENT_STATUS.items()}


def standings_to_proto(standings: Standings, codec: Codec) -> tournament_pb2.Standings:
    message = tournament_pb2.Standings(final=standings.final)
    for line in standings.lines:
        standing = message.lines.add(
            place=line.place,
            seat=line.seat,
            points=line.points,
            games_won=line.games_won,
            name=line.name,
            tallies=[tournament_pb2.Tally(name=name, value=value) for name, value in line.tallies],
        )
        codec.fill_standing(standing, line.tallies)
    for hand in standings.hands:
        message.hands.add(
            deal=hand.deal,
            table_seat=hand.table_seat,
            plays=[
                tournament_pb2.HandPlay(seat=p.seat, name=p.name, game=p.game, points=p.points, won=p.won)
                for p in hand.plays
            ],
        )
    return message


def _codec(game: str) -> Codec:
    return codec_of(get_game(game))


def game_to_proto(game: GameInfo, teams: Sequence[int]) -> tournament_pb2.TournamentGame:
    message = tournament_pb2.TournamentGame(
        index=game.index,
        room_id=game.room_id,
        first_seat=game.first_seat,
        status=STATUS[game.status],
        deal=game.deal,
        table_seats=game.table_seats,
    )
    if game.outcome is not None:
        message.outcome.CopyFrom(outcome_to_proto(game.outcome, teams))
    return message


def _seat(record: TournamentSeat, seed: str = "") -> common_pb2.Seat:
    return common_pb2.Seat(
        seat=record.seat,
        kind=seat_kind(record.kind),
        taken=record.taken,
        name=record.name,
        team=record.team,
        player_id=record.player,
        seed=seed,
    )


def snapshot_to_proto(snapshot: Snapshot) -> tournament_pb2.Tournament:
    codec, teams = _codec(snapshot.game), [seat.team for seat in snapshot.seats]
    seeds = snapshot.seeds
    return tournament_pb2.Tournament(
        tournament_id=snapshot.tournament_id,
        game=snapshot.game,
        games=snapshot.games,
        games_played=snapshot.games_played,
        current_room_id=snapshot.current_room_id,
        standings=standings_to_proto(snapshot.standings, codec),
        created_at=timestamp(snapshot.created_at),
        status=TOURNAMENT_STATUS[snapshot.status],
        mode=MODE[snapshot.mode],
        seats=[_seat(seat, seeds[seat.seat] if seat.seat < len(seeds) else "") for seat in snapshot.seats],
        game_list=[game_to_proto(game, teams) for game in snapshot.game_list],
        options=struct(snapshot.options),
        version=snapshot.version,
        duplicate=snapshot.duplicate,
        deals=[deal_to_proto(deal) for deal in snapshot.deals],
    )


def _event(event: Any, codec: Codec, teams: Sequence[int]) -> tournament_pb2.TournamentEvent:
    kind = type(event)
    if kind is SeatJoined:
        return tournament_pb2.TournamentEvent(seat_taken=tournament_pb2.TournamentSeatTaken(seat=_seat(event.seat)))
    if kind is SeatLeft:
        return tournament_pb2.TournamentEvent(seat_left=tournament_pb2.TournamentSeatLeft(seat=event.seat))
    if kind is GameStarted:
        return tournament_pb2.TournamentEvent(
            game_started=tournament_pb2.TournamentGameStarted(game=game_to_proto(event.game, teams))
        )
    if kind is GameEnded:
        return tournament_pb2.TournamentEvent(
            game_ended=tournament_pb2.TournamentGameEnded(game=game_to_proto(event.game, teams))
        )
    if kind is StandingsChanged:
        return tournament_pb2.TournamentEvent(
            standings_changed=tournament_pb2.StandingsChanged(standings=standings_to_proto(event.standings, codec))
        )
    if kind is TournamentEnded:
        return tournament_pb2.TournamentEvent(
            tournament_ended=tournament_pb2.TournamentEnded(standings=standings_to_proto(event.standings, codec))
        )
    raise TypeError(f"no proto for {event!r}")


def update_to_proto(update: TournamentUpdate) -> tournament_pb2.TournamentUpdate:
    snapshot = update.snapshot
    codec, teams = _codec(snapshot.game), [seat.team for seat in snapshot.seats]
    return tournament_pb2.TournamentUpdate(
        tournament=snapshot_to_proto(snapshot),
        version=update.version,
        events=[_event(event, codec, teams) for event in update.events],
        time=timestamp(update.time),
    )


def _tournament_id(request: Any) -> str:
    if not request.tournament_id:
        raise InvalidRequest("tournament_id is required", code="missing_tournament_id")
    return request.tournament_id


class TournamentServicer(tournament_pb2_grpc.TournamentServiceServicer):
    SERVICE = tournament_pb2.DESCRIPTOR.services_by_name["TournamentService"].full_name

    def __init__(self, tournaments: TournamentDirectory, access: RoomAccess, admission: Admission) -> None:
        self.tournaments = tournaments
        self.access = access
        self.admission = admission

    async def locate(self, request: Any) -> Tournament | Remote:
        """The tournament the request names: here, or on the node that owns it."""
        return await self.tournaments.locate(_tournament_id(request))

    @unary
    async def CreateTournament(
        self, request: tournament_pb2.CreateTournamentRequest, context: Any
    ) -> tournament_pb2.CreateTournamentResponse:
        self.admission.admit(context, "create")
        if request.mode not in MODE_NAME:
            raise InvalidRequest("mode must be ROOM_MODE_ONLINE or ROOM_MODE_SOLO", code="bad_mode")
        if not request.game:
            raise InvalidRequest("game is required", code="missing_game")
        key = None
        if request.request_id:  # (whose id it is: the signed-in player's, or the caller's secret)
            player = await self.access.player(context)
            key = request_key(request.request_id, player.player_id if player else "", parameters_of(request))
        found = await self.tournaments.create_once(key, lambda: self._create(request, key))  # (a retry: the one made)
        if isinstance(found, Remote):  # (a retry: the tournament is on the node that holds it, which answers)
            assert self.access.forwarder is not None
            return await self.access.forwarder.unary(f"/{self.SERVICE}/CreateTournament", request, context, found)
        return tournament_pb2.CreateTournamentResponse(tournament=snapshot_to_proto(found.current()))

    async def _create(self, request: tournament_pb2.CreateTournamentRequest, key: RequestKey | None) -> Tournament:
        return await self.tournaments.create(
            game=request.game,
            mode=MODE_NAME[request.mode],
            system_players=request.system_players,
            options=options_from(request.options),
            system_player=request.system_player,
            think_seconds=request.think_seconds if request.HasField("think_seconds") else None,
            request=key,
            duplicate=request.duplicate,
        )

    @routed
    async def GetTournament(
        self, request: tournament_pb2.GetTournamentRequest, context: Any, tournament: Tournament
    ) -> tournament_pb2.GetTournamentResponse:
        return tournament_pb2.GetTournamentResponse(tournament=snapshot_to_proto(tournament.current()))

    @unary
    async def ListTournaments(
        self, request: tournament_pb2.ListTournamentsRequest, context: Any
    ) -> tournament_pb2.ListTournamentsResponse:
        if request.status and request.status not in TOURNAMENT_STATUS_NAME:
            names = ", ".join(tournament_pb2.TournamentStatus.Name(value) for value in sorted(TOURNAMENT_STATUS_NAME))
            raise InvalidRequest(f"status must be unset or one of {names}", code="bad_status", field="status")
        found, following = await self.tournaments.list(
            status=TOURNAMENT_STATUS_NAME.get(request.status, ""),
            page_size=request.page_size,
            page_token=request.page_token,
        )
        tournaments = await asyncio.gather(*(self._summary(t, context) for t in found))
        return tournament_pb2.ListTournamentsResponse(
            tournaments=[t for t in tournaments if t is not None], next_page_token=following
        )

    async def _summary(self, tournament: Tournament | Remote, context: Any) -> tournament_pb2.Tournament | None:
        """A tournament of a page: this node's, or asked of the node that owns it (None: it did not answer)."""
        if isinstance(tournament, Tournament):
            return snapshot_to_proto(tournament.current())
        assert self.access.forwarder is not None
        request = tournament_pb2.GetTournamentRequest(tournament_id=tournament.target_id)
        answer = await self.access.forwarder.fetch(f"/{self.SERVICE}/GetTournament", request, context, tournament)
        return None if answer is None else tournament_pb2.GetTournamentResponse.FromString(answer).tournament

    @routed
    async def JoinTournament(
        self, request: tournament_pb2.JoinTournamentRequest, context: Any, tournament: Tournament
    ) -> tournament_pb2.JoinTournamentResponse:
        self.admission.admit(context, "join")
        player = await self.access.player(context)
        key = request_key(request.request_id, player.player_id if player else "", parameters_of(request))
        seat, nonce = await tournament.join(
            request.seat if request.HasField("seat") else None,
            request.name or (player.name if player else ""),
            player.player_id if player else "",
            seat_origin(self.access, self.admission, context),
            key,
            request.seed,
        )
        token = self.access.tokens.issue(tournament.tournament_id, seat, nonce)
        return tournament_pb2.JoinTournamentResponse(
            tournament=snapshot_to_proto(tournament.current()), seat=seat, seat_token=token
        )

    @routed
    async def LeaveTournament(
        self, request: tournament_pb2.LeaveTournamentRequest, context: Any, tournament: Tournament
    ) -> tournament_pb2.LeaveTournamentResponse:
        token = bearer_token(context)
        if token is None:
            raise Unauthenticated("this call needs a seat token: send 'authorization: Bearer <token>'")
        claim = self.access.tokens.verify(token)
        if claim.room_id != tournament.tournament_id:
            raise PermissionDenied("this seat token is not for a seat of this tournament")
        await tournament.leave(claim.seat, claim.nonce)
        return tournament_pb2.LeaveTournamentResponse(tournament=snapshot_to_proto(tournament.current()))

    @routed
    async def GetStandings(
        self, request: tournament_pb2.GetStandingsRequest, context: Any, tournament: Tournament
    ) -> tournament_pb2.GetStandingsResponse:
        snapshot = tournament.current()
        return tournament_pb2.GetStandingsResponse(
            standings=standings_to_proto(snapshot.standings, _codec(snapshot.game))
        )

    async def StreamTournament(
        self, request: tournament_pb2.StreamTournamentRequest, context: grpc.aio.ServicerContext
    ) -> AsyncIterator[tournament_pb2.StreamTournamentResponse]:
        try:
            check_request(request)
            tournament = await self.locate(request)
            if isinstance(tournament, Remote):  # another node's: relayed from there
                assert self.access.forwarder is not None
                path = f"/{self.SERVICE}/StreamTournament"
                async for message in self.access.forwarder.server_stream(path, request, context, tournament):
                    yield message
                return
            with self.admission.stream(context), self.access.directory.telemetry.instruments.stream("tournament"):
                await context.send_initial_metadata(())  # accepted: say so now, not with the first update
                async for update in tournament.subscribe(request.after_version):
                    yield tournament_pb2.StreamTournamentResponse(update=update_to_proto(update))
        except KickoffError as error:
            await abort(context, error)
        except grpc.aio.AbortError:
            raise
        except Exception:
            await internal(context, "StreamTournament")
