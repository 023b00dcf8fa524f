"""The PlayerService: sign-in and sessions, profiles, a player's rooms and seats, leaderboards and history. It reads
requests and hands the work to the players (service/players/) and the rooms; it holds no rules of its own.

A correspondence room that rests (service/rooms/directory.py) is not woken by a player's lists: ListMyTurns reads the
rooms' rows only (who must act now, kept with every line), and ListMyRooms shows a resting room as its row and seats
say, rather than asking the room."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

from deals.scheme import SCHEME
from engine.core import Outcome, UnknownGame
from engine.registry import GAMES, get_game
from kickoff.v1 import common_pb2, player_pb2, player_pb2_grpc, room_pb2
from service.actors.directory import page_size_of
from service.actors.runtime import Remote
from service.errors import InvalidRequest, NotFound, PlayerNotFound
from service.grpc.admission import Admission
from service.grpc.convert import (
    MODE,
    STATUS,
    add_clocks,
    outcome_to_proto,
    room_to_proto,
    seat_kind,
    struct,
    timestamp,
)
from service.grpc.servicers import RoomAccess, bearer_token, routed, unary
from service.players.players import Players, SignedIn
from service.players.ratings import Skill
from service.players.sessions import Caller
from service.players.store import SYSTEM, PlayerInfo, RatingInfo
from service.rooms.clocks import Deadline
from service.rooms.deals import RoomDeal
from service.rooms.room import FINISHED, PERSON, PLAYING, WAITING, Room, why_unrated
from service.rooms.seats import SYSTEM as SYSTEM_SEAT
from service.secrets import Sealer
from service.store.records import SYSTEM_RATING

PLAYER_SERVICE = player_pb2.DESCRIPTOR.services_by_name["PlayerService"].full_name
DEFAULT_NEIGHBOURS, MOST_NEIGHBOURS = 2, 25


def known_game(game: str) -> str:
    if not game:
        raise InvalidRequest("game is required", code="missing_game", field="game")
    try:
        get_game(game)
    except UnknownGame:
        known = ", ".join(sorted(GAMES))
        raise InvalidRequest(f"no such game (known: {known})", code="unknown_game", field="game") from None
    return game


def skill_to_proto(game: str, skill: Skill) -> player_pb2.Rating:
    """A rating as it stood before or after one game (mu, sigma and the figure shown)."""
    return player_pb2.Rating(game=game, mu=skill.mu, sigma=skill.sigma, display=skill.display)


def rating_to_proto(rating: RatingInfo) -> player_pb2.Rating:
    return player_pb2.Rating(
        game=rating.game,
        mu=rating.mu,
        sigma=rating.sigma,
        display=rating.display,
        games=rating.games,
        wins=rating.wins,
    )


def player_to_proto(
    player: PlayerInfo, ratings: Sequence[RatingInfo] = (), identities: Sequence[tuple[str, str, float]] = ()
) -> player_pb2.Player:
    return player_pb2.Player(
        player_id=player.player_id,
        name=player.name,
        created_at=timestamp(player.created_at),
        ratings=[rating_to_proto(r) for r in ratings],
        identities=[
            player_pb2.Identity(issuer=issuer, subject=subject, linked_at=timestamp(linked))
            for issuer, subject, linked in identities
        ],
        kind=seat_kind(player.kind),
    )


def session_to_proto(signed: SignedIn, ratings: Sequence[RatingInfo] = ()) -> player_pb2.Session:
    tokens = signed.tokens
    return player_pb2.Session(
        access_token=tokens.access_token,
        access_expire_time=timestamp(tokens.access_expires),
        refresh_token=tokens.refresh_token,
        refresh_expire_time=timestamp(tokens.refresh_expires),
        player=player_to_proto(signed.player, ratings),
    )


def _outcome(data: dict[str, Any] | None, teams: Sequence[int]) -> common_pb2.Outcome | None:
    if not data:
        return None
    outcome = Outcome(
        tuple(data.get("winners", ())),
        data.get("reason", ""),
        tuple(data.get("points", ())),
        tuple(data.get("winning_teams", ())),
        tuple(data.get("team_points", ())),
    )
    return outcome_to_proto(outcome, teams)


def _teams(game: str, seats: int, options: dict[str, Any]) -> tuple[int, ...]:
    try:
        return get_game(game).teams(seats, options)
    except Exception:  # a game no longer hosted: every seat its own team
        return tuple(range(seats))


def stored_seats(rows: Sequence[Any], teams: Sequence[int], deal: RoomDeal | None = None) -> list[common_pb2.Seat]:
    """The seats as their rows keep them; a system player's seat's seed is the one its deal publishes."""
    return [
        common_pb2.Seat(
            seat=row.seat,
            kind=seat_kind(row.kind),
            taken=row.taken,
            name=row.name,
            team=teams[row.seat] if row.seat < len(teams) else row.seat,
            player_id=row.player_id or "",
            seed=(deal.system_seat_seed(row.seat) if deal and row.kind == SYSTEM_SEAT else row.seed) or "",
        )
        for row in rows
    ]


def stored_deal(row: Any, seats: Sequence[common_pb2.Seat], deal: RoomDeal) -> common_pb2.Deal:
    """A stored room's deal as the room shows it (service/rooms/room.py, deal_shown): the commitment; the seeds once
    its game has started; the secret once it is over, unless the deal is held (a duplicate tournament's: its row does
    not say when the tournament reveals it, so a stored one never shows it; the room itself does)."""
    message = common_pb2.Deal(scheme=SCHEME, subject=deal.subject, commitment=deal.commitment)
    if row.status != WAITING:
        message.seeds.extend(deal.seeds if deal.seeds is not None else [seat.seed for seat in seats])
    if row.status == FINISHED and not row.deal_held:
        message.secret = deal.revealed()
    return message


def stored_room(row: Any, seats: Sequence[Any], version: int, sealer: Sealer | None = None) -> room_pb2.Room:
    """A finished room as the store keeps it (no replay of its log); with the ``sealer`` of the rooms' secrets, its
    deal too."""
    teams = _teams(row.game, row.seats, row.options)
    deal = RoomDeal.of(row, sealer) if sealer is not None else None  # (a row names its deal as a record does)
    message = room_pb2.Room(
        room_id=row.room_id,
        game=row.game,
        mode=MODE.get(row.mode, 0),
        status=STATUS.get(row.status, 0),
        seats=stored_seats(seats, teams, deal),
        options=struct(row.options),
        version=version,
        created_at=timestamp(row.created_at),
        tournament_id=row.tournament_id or "",
        tournament_game=row.tournament_game or 0,
        rated=bool((row.outcome or {}).get("rated")),
        unrated_reason=(row.outcome or {}).get("unrated_reason", ""),
        correspondence_hours=row.correspondence_hours or 0,
    )
    outcome = _outcome(row.outcome, teams)
    if outcome is not None:
        message.outcome.CopyFrom(outcome)
    if deal is not None:
        message.deal.CopyFrom(stored_deal(row, message.seats, deal))
    return message


def resting_room(row: Any, seats: Sequence[Any], version: int, sealer: Sealer | None = None) -> room_pb2.Room:
    """A live room that rests, as the store keeps it (no replay of its log, nothing woken): its row says who must act
    now and each acting seat's deadline (rooms.turns, written with its last line), so the answer is the room as of
    that line, as the room itself would answer. Only a seat's choice is not kept there (it is left out); whether the
    game is rated follows the room's rule (service/rooms/room.py, why_unrated) from the seats' players and origins."""
    message = stored_room(row, seats, version, sealer)
    turns: dict[str, list[Any]] = row.turns or {}
    message.to_act.extend(int(seat) for seat in turns)
    period = (row.correspondence_hours or 0) * 3600.0
    add_clocks(
        message,
        [Deadline(int(seat), turn[1], period) for seat, turn in turns.items() if len(turn) > 1 and turn[1] is not None],
    )
    if row.status == PLAYING:
        people = [(seat.taken, seat.player_id or "", seat.origin or "") for seat in seats if seat.kind == PERSON]
        message.unrated_reason = why_unrated(True, row.rated, row.mode, people)
        message.rated = not message.unrated_reason
    return message


class PlayerServicer(player_pb2_grpc.PlayerServiceServicer):
    SERVICE = PLAYER_SERVICE

    def __init__(self, players: Players, access: RoomAccess, admission: Admission) -> None:
        self.players = players
        self.store = players.store
        self.access = access
        self.admission = admission

    async def locate(self, request: Any) -> Room | Remote:
        return await self.access.locate(request)

    async def _caller(self, context: Any) -> Caller:
        return await self.players.caller(bearer_token(context))

    async def _player_id(self, request: Any, context: Any) -> str:
        """The player a request names, or the caller's when it names none."""
        if request.player_id:
            return request.player_id  # type: ignore[no-any-return]
        return (await self._caller(context)).player_id

    # -- sign-in ----------------------------------------------------------------------------------------------------

    @unary
    async def SignInAsGuest(
        self, request: player_pb2.SignInAsGuestRequest, context: Any
    ) -> player_pb2.SignInAsGuestResponse:
        self.admission.admit(context, "sign_in")
        signed = await self.players.sign_in_as_guest(request.device_id, request.name)
        ratings = await self.store.ratings(signed.player.player_id) if not signed.created else []
        return player_pb2.SignInAsGuestResponse(session=session_to_proto(signed, ratings), created=signed.created)

    @unary
    async def SignInWithToken(
        self, request: player_pb2.SignInWithTokenRequest, context: Any
    ) -> player_pb2.SignInWithTokenResponse:
        self.admission.admit(context, "sign_in")
        signed = await self.players.sign_in_with_token(request.id_token, request.name)
        ratings = await self.store.ratings(signed.player.player_id) if not signed.created else []
        return player_pb2.SignInWithTokenResponse(session=session_to_proto(signed, ratings), created=signed.created)

    @unary
    async def RefreshSession(
        self, request: player_pb2.RefreshSessionRequest, context: Any
    ) -> player_pb2.RefreshSessionResponse:
        self.admission.admit(context, "sign_in")
        signed = await self.players.refresh(request.refresh_token)
        return player_pb2.RefreshSessionResponse(session=session_to_proto(signed))

    @unary
    async def SignOut(self, request: player_pb2.SignOutRequest, context: Any) -> player_pb2.SignOutResponse:
        caller = None if request.refresh_token else await self._caller(context)
        await self.players.sign_out(caller, request.refresh_token)
        return player_pb2.SignOutResponse()

    @unary
    async def LinkIdentity(
        self, request: player_pb2.LinkIdentityRequest, context: Any
    ) -> player_pb2.LinkIdentityResponse:
        caller = await self._caller(context)
        await self.players.link(caller, request.id_token)
        player = await self.players.me(caller)
        identities = await self.store.identities(caller.player_id)
        ratings = await self.store.ratings(caller.player_id)
        return player_pb2.LinkIdentityResponse(player=player_to_proto(player, ratings, identities))

    # -- profiles ---------------------------------------------------------------------------------------------------

    @unary
    async def GetPlayer(self, request: player_pb2.GetPlayerRequest, context: Any) -> player_pb2.GetPlayerResponse:
        if not request.player_id:
            caller = await self._caller(context)
            player = await self.players.me(caller)
            identities = await self.store.identities(caller.player_id)
        else:
            identities = []
            if request.player_id.startswith(SYSTEM_RATING):  # a kind of system player, rated like a player
                kind = request.player_id[len(SYSTEM_RATING) :]
                player = PlayerInfo(request.player_id, SYSTEM, f"{kind} bot", 0.0)
            else:
                found = await self.store.player(request.player_id)
                if found is None:
                    raise PlayerNotFound("no such player", field="player_id")
                player = found
        ratings = await self.store.ratings(player.player_id)
        if player.kind == SYSTEM and not ratings:
            raise PlayerNotFound("no such player", field="player_id")
        return player_pb2.GetPlayerResponse(player=player_to_proto(player, ratings, identities))

    @unary
    async def UpdatePlayer(
        self, request: player_pb2.UpdatePlayerRequest, context: Any
    ) -> player_pb2.UpdatePlayerResponse:
        caller = await self._caller(context)
        if not request.name:
            raise InvalidRequest("name is required", code="missing_name", field="name")
        await self.store.rename(caller.player_id, request.name)
        player = await self.players.me(caller)
        return player_pb2.UpdatePlayerResponse(
            player=player_to_proto(player, await self.store.ratings(player.player_id))
        )

    @unary
    async def DeletePlayer(
        self, request: player_pb2.DeletePlayerRequest, context: Any
    ) -> player_pb2.DeletePlayerResponse:
        caller = await self._caller(context)
        rooms = await self.store.delete(caller.player_id)
        # Finished rooms this node holds in memory go, so that their seats are read again (with the pseudonym).
        self.access.directory.forget_finished(rooms)
        return player_pb2.DeletePlayerResponse()

    # -- seats ------------------------------------------------------------------------------------------------------

    @unary
    async def ListMyRooms(self, request: player_pb2.ListMyRoomsRequest, context: Any) -> player_pb2.ListMyRoomsResponse:
        """The live rooms (at most the store's bound of them, so they are ordered whole: the caller's turn first, then
        playing, then waiting, newest first in each), then the finished ones, a page at a time."""
        caller = await self._caller(context)
        size = page_size_of(request.page_size)
        token = request.page_token
        if token and not (token[0] in "lf" and (token[0] == "f" or token[1:].isdigit())):
            raise InvalidRequest("page_token is not one this server gave", code="bad_page_token", field="page_token")
        answer = player_pb2.ListMyRoomsResponse()
        if not token or token[0] == "l":
            start = int(token[1:]) if token else 0
            held = await self.store.seats_held(caller.player_id, live=True)
            directory = self.access.directory
            resting = [seat.room_id for seat in held if directory.rests(seat.room_id, seat.wake_at)]
            stored = await self.store.summaries(resting) if resting else {}
            found = await asyncio.gather(
                *(
                    self._resting(stored[seat.room_id], seat.seat)
                    if seat.room_id in stored
                    else self._live(seat.room_id, seat.seat, context)
                    for seat in held
                )
            )
            live = [mine for mine in found if mine is not None]
            live.sort(key=lambda mine: (not mine.my_turn, mine.room.status != common_pb2.ROOM_STATUS_PLAYING))
            answer.rooms.extend(live[start : start + size])
            if start + size < len(live):
                answer.next_page_token = f"l{start + size}"
                return answer
            size -= len(answer.rooms)
            token = "f"
            if not size:  # the live rooms filled the page: a next one only if there are finished rooms to show
                more, _ = await self.store.finished_seats(caller.player_id, 1, "")
                answer.next_page_token = "f" if more else ""
                return answer
        finished, following = await self.store.finished_seats(caller.player_id, size, token[1:])
        stored = await self.store.summaries([seat.room_id for seat in finished])
        for seat in finished:
            if seat.room_id in stored:
                room = stored_room(*stored[seat.room_id], self.access.directory.surroundings.sealer)
                answer.rooms.append(player_pb2.MyRoom(room=room, seat=seat.seat))
        answer.next_page_token = f"f{following}" if following else ""
        return answer

    async def _live(self, room_id: str, seat: int, context: Any) -> player_pb2.MyRoom | None:
        """A live room of the caller's: this node's, or asked of the node that owns it (None: not reachable now)."""
        try:
            room = await self.access.summary(await self.access.directory.locate(room_id), context)
        except NotFound:
            return None
        if room is None:
            return None
        my_turn = room.status == common_pb2.ROOM_STATUS_PLAYING and seat in room.to_act
        return player_pb2.MyRoom(room=room, seat=seat, my_turn=my_turn)

    async def _resting(self, stored: tuple[Any, list[Any], int], seat: int) -> player_pb2.MyRoom:
        """A live room of the caller's that rests, from the store (asking for it would wake it)."""
        room = resting_room(*stored, self.access.directory.surroundings.sealer)
        my_turn = room.status == common_pb2.ROOM_STATUS_PLAYING and seat in room.to_act
        return player_pb2.MyRoom(room=room, seat=seat, my_turn=my_turn)

    @unary
    async def ListMyTurns(self, request: player_pb2.ListMyTurnsRequest, context: Any) -> player_pb2.ListMyTurnsResponse:
        """The rooms where the caller must act now, the nearest deadline first (rooms without a clock last), read
        from the rooms' rows: no room is loaded, and none that rests is woken."""
        caller = await self._caller(context)
        answer = player_pb2.ListMyTurnsResponse()
        for held in await self.store.turns(caller.player_id, page_size_of(request.page_size)):
            turn = answer.turns.add(
                room_id=held.room_id, game=held.game, seat=held.seat, correspondence_hours=held.correspondence_hours
            )
            if held.deadline is not None:
                turn.deadline.CopyFrom(timestamp(held.deadline))
        return answer

    @routed
    async def TakeSeat(
        self, request: player_pb2.TakeSeatRequest, context: Any, room: Room
    ) -> player_pb2.TakeSeatResponse:
        caller = await self._caller(context)

        def read() -> tuple[int, str] | None:
            record = room.seat_of(caller.player_id)
            return None if record is None else (record.seat, record.nonce)

        held = await room.read(read)
        if held is None:
            raise NotFound("room", "the player holds no seat of this room", code="no_seat")
        seat, nonce = held
        # A tournament's game: the tournament seat's token, which every game of it accepts.
        token = self.access.tokens.issue(room.tournament_id or room.room_id, seat, nonce)
        return player_pb2.TakeSeatResponse(room=room_to_proto(room), seat=seat, seat_token=token)

    # -- leaderboards and history -----------------------------------------------------------------------------------

    @unary
    async def GetLeaderboard(
        self, request: player_pb2.GetLeaderboardRequest, context: Any
    ) -> player_pb2.GetLeaderboardResponse:
        game = known_game(request.game)
        lines, following = await self.store.leaderboard(game, page_size_of(request.page_size), request.page_token)
        return player_pb2.GetLeaderboardResponse(
            lines=[self._line(line) for line in lines], next_page_token=following, min_games=self.store.min_games
        )

    @staticmethod
    def _line(line: Any) -> player_pb2.LeaderboardLine:
        return player_pb2.LeaderboardLine(
            rank=line.rank, player_id=line.player_id, name=line.name, rating=rating_to_proto(line.rating)
        )

    @unary
    async def GetRank(self, request: player_pb2.GetRankRequest, context: Any) -> player_pb2.GetRankResponse:
        game = known_game(request.game)
        if not 0 <= request.neighbours <= MOST_NEIGHBOURS:
            raise InvalidRequest(f"neighbours must be 0-{MOST_NEIGHBOURS}", field="neighbours")
        player_id = await self._player_id(request, context)
        line, above, below, ranked, games = await self.store.rank(
            game, player_id, request.neighbours or DEFAULT_NEIGHBOURS
        )
        answer = player_pb2.GetRankResponse(
            above=[self._line(x) for x in above],
            below=[self._line(x) for x in below],
            ranked=ranked,
            min_games=self.store.min_games,
            rated_games=games,
            # Still to play: 0 on the board, and for a system player (never on it) who has played the minimum.
            games_to_play=0 if line is not None else max(0, self.store.min_games - games),
        )
        if line is not None:
            answer.line.CopyFrom(self._line(line))
        return answer

    @unary
    async def ListRatingChanges(
        self, request: player_pb2.ListRatingChangesRequest, context: Any
    ) -> player_pb2.ListRatingChangesResponse:
        game = known_game(request.game)
        player_id = await self._player_id(request, context)
        rows, following = await self.store.rating_changes(
            player_id, game, page_size_of(request.page_size), request.page_token
        )
        return player_pb2.ListRatingChangesResponse(
            changes=[
                player_pb2.RatingChange(
                    room_id=row.room_id,
                    game=row.game,
                    time=timestamp(row.time),
                    before=skill_to_proto(row.game, Skill(row.mu_before, row.sigma_before)),
                    after=skill_to_proto(row.game, Skill(row.mu, row.sigma)),
                    place=row.place,
                )
                for row in rows
            ],
            next_page_token=following,
        )

    @unary
    async def ListPlayerGames(
        self, request: player_pb2.ListPlayerGamesRequest, context: Any
    ) -> player_pb2.ListPlayerGamesResponse:
        game = known_game(request.game) if request.game else ""
        player_id = await self._player_id(request, context)
        games, following, played, won = await self.store.games(
            player_id, game, page_size_of(request.page_size), request.page_token
        )
        answer = player_pb2.ListPlayerGamesResponse(next_page_token=following, played=played, won=won)
        for row, seats in games:
            teams = _teams(row.game, row.seat_count, row.options)
            item = player_pb2.PlayerGame(
                room_id=row.room_id,
                game=row.game,
                ended_at=timestamp(row.ended_at or 0.0),
                seat=row.seat,
                place=row.place or 0,
                won=bool(row.won),
                rated=bool((row.outcome or {}).get("rated")),
                unrated_reason=(row.outcome or {}).get("unrated_reason", ""),
                seats=stored_seats(seats, teams),
            )
            outcome = _outcome(row.outcome, teams)
            if outcome is not None:
                item.outcome.CopyFrom(outcome)
            answer.games.append(item)
        return answer
