"""OperatorService: the operators' API, behind an operator key (service/operators/keys.py; ``x-operator-key``).

It reads the nodes, leases and live rooms from the store (service/operators/store.py), a room's timeline from its log
(the spectator's view of every update, whatever the game's state: no card a spectator may not see), and hands its
actions to the room (closing it, revoking a seat's token: through the room's actor, stored before they are answered)
or to the node (draining it, as SIGTERM does). A call for a room another node owns is forwarded there whole, as every
room call is; DrainNode reaches the node it names.

Every call, answered or refused, is one log line (``operator action=... key_id=...``, with the room, seat or node it
concerns) and one span (``operator.<action>``): they name the operator key's id, never the key, and never a card."""

from __future__ import annotations

import functools
import logging
import platform
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import grpc
from google.protobuf import timestamp_pb2
from opentelemetry.trace import Status, StatusCode

from kickoff.v1 import common_pb2, move_pb2, operator_pb2, operator_pb2_grpc
from service.actors.directory import page_size_of
from service.actors.runtime import Remote
from service.chat.reports import ChatModeration, Line, Mute, Report
from service.errors import InvalidRequest, NotFound, PlayerNotFound, PreconditionFailed
from service.grpc.admission import Admission
from service.grpc.chat_stream import CHANNEL
from service.grpc.convert import MODE, STATUS, room_to_proto, update_bytes
from service.grpc.errors import KickoffError, abort
from service.grpc.limits import check_request
from service.grpc.servicers import RoomAccess, internal, invitation_to_proto
from service.operators import store
from service.operators.keys import Operator, OperatorKeys
from service.rooms.room import Room
from service.store.journal import SqlJournal

OPERATOR_SERVICE = operator_pb2.DESCRIPTOR.services_by_name["OperatorService"].full_name
Response = TypeVar("Response")
log = logging.getLogger(__name__)


def _time(seconds: float | None) -> timestamp_pb2.Timestamp | None:
    if seconds is None:
        return None
    stamp = timestamp_pb2.Timestamp()
    stamp.FromNanoseconds(round(seconds * 1e9))
    return stamp


def _concerns(request: Any) -> dict[str, Any]:
    """What a request names, for the log line and the span: its room, seat and node (never a key or a reason's
    text beyond its length)."""
    named: dict[str, Any] = {}
    for field in ("room_id", "node_id", "game", "player_id", "report_id", "seq"):
        value = getattr(request, field, "")
        if value:
            named[field] = value
    if request.DESCRIPTOR.fields_by_name.get("seat") is not None:
        named["seat"] = request.seat
    return named


def action(name: str, *, room: bool = False, by: bool = False) -> Callable[..., Callable[..., Awaitable[Response]]]:
    """An OperatorService call: the operator key is checked first (nothing else is said to a caller without one),
    then the request's bounds; a call naming a room (``room``) finds it, and one another node owns is forwarded there
    (which checks the key again, and logs and traces the action itself). The call is logged and traced as
    ``name``; typed refusals become statuses. ``by``: the method is told who the operator is (``operator=``: what
    it records)."""

    def decorate(method: Callable[..., Awaitable[Response]]) -> Callable[..., Awaitable[Response]]:
        rpc = method.__name__

        @functools.wraps(method)
        async def wrapper(self: OperatorServicer, request: Any, context: grpc.aio.ServicerContext) -> Response:
            concerns: dict[str, Any] = {}
            operator: Operator | None = None
            try:
                operator = self.admission.operator(context, self.keys, self._failed)
                check_request(request)
                concerns = _concerns(request)
                found = None
                if room:
                    found = await self.access.locate(request)
                    if isinstance(found, Remote):
                        assert self.access.forwarder is not None
                        return await self.access.forwarder.unary(f"/{OPERATOR_SERVICE}/{rpc}", request, context, found)
                return await self._run(name, operator, concerns, method, request, context, found, by)
            except KickoffError as error:
                self._refused(name, operator, concerns, error)
                await abort(context, error)
            except grpc.aio.AbortError:  # (a forwarded call's status, already set)
                raise
            except Exception:
                await internal(context, rpc)

        return wrapper

    return decorate


def _words(concerns: dict[str, Any]) -> str:
    return " ".join(f"{key}={value}" for key, value in concerns.items())


class OperatorServicer(operator_pb2_grpc.OperatorServiceServicer):
    SERVICE = OPERATOR_SERVICE

    def __init__(
        self,
        keys: OperatorKeys,
        access: RoomAccess,
        admission: Admission,
        drain: Callable[[], Awaitable[dict[str, int]]] | None = None,
        chat: ChatModeration | None = None,
        withdraw: Callable[[Room, int], Awaitable[Any]] | None = None,
    ) -> None:
        self.keys = keys
        self.access = access
        self.admission = admission  # (checks the key, throttled by address after wrong ones)
        self.drain = drain  # DrainNode's: the server's HandOver.by_operator (service/grpc/server.py)
        self.chat = chat  # (issue 49: reports, mutes and the record of actions; none without players)
        # (issue 49) The chat core's withdraw(room, seq): everyone reading the room's chat sees the message go (None:
        # a server without chat; a deletion is then only recorded, ChatActions.deleted says which).
        self.withdraw = withdraw

    @property
    def _instruments(self) -> Any:
        return self.access.directory.telemetry.instruments

    def _failed(self, throttled: bool) -> None:
        self._instruments.operator_key_failures.add(1, {"kickoff.throttled": throttled})

    @property
    def _node(self) -> Any:
        return self.access.directory.runtime.node

    @property
    def _engine(self) -> Any:
        journal = self.access.directory.journal
        return journal.engine if isinstance(journal, SqlJournal) else None

    async def _run(
        self,
        name: str,
        operator: Operator,
        concerns: dict[str, Any],
        method: Callable[..., Awaitable[Any]],
        request: Any,
        context: Any,
        found: Any,
        by: bool = False,
    ) -> Any:
        node = self._node
        here = node.node_id if node is not None else ""
        attributes = {
            "kickoff.operator.action": name,
            "kickoff.operator.key_id": operator.key_id,
            **({"kickoff.node": here} if here else {}),
            **{f"kickoff.{key}": value for key, value in concerns.items()},
        }
        tracer = self.access.directory.telemetry.tracer
        with tracer.start_as_current_span(f"operator.{name}", attributes=attributes, record_exception=False) as span:
            try:
                told = {"operator": operator} if by else {}
                answer = await (
                    method(self, request, context, found, **told)
                    if found is not None
                    else method(self, request, context, **told)
                )
            except KickoffError as error:
                span.set_attribute("kickoff.refusal", error.code)
                span.set_status(Status(StatusCode.ERROR, error.code))
                raise
        log.info(
            "operator action=%s key_id=%s %s%s",
            name,
            operator.key_id,
            _words(concerns),
            f" on_node={here}" if here else "",
            extra={"kickoff_operator": {"action": name, "key_id": operator.key_id, **concerns}},
        )
        return answer

    def _refused(self, name: str, operator: Operator | None, concerns: dict[str, Any], error: Any) -> None:
        key_id = operator.key_id if operator is not None else "-"
        log.warning(
            "operator action=%s key_id=%s %s refused=%s",
            name,
            key_id,
            _words(concerns),
            error.code,
            extra={"kickoff_operator": {"action": name, "key_id": key_id, "refused": error.code, **concerns}},
        )

    # -- reading --------------------------------------------------------------------------------------------------

    @action("list_nodes")
    async def ListNodes(self, request: operator_pb2.ListNodesRequest, context: Any) -> Any:
        size = page_size_of(request.page_size)
        node = self._node
        if node is None:  # a single server: this one
            if request.page_token:
                raise store.bad_page_token()
            return operator_pb2.ListNodesResponse(
                nodes=[operator_pb2.ClusterNode(node_id=platform.node(), alive=True, this_node=True)], cluster=False
            )
        found, following = await store.nodes(node.table.engine, size, request.page_token)
        answer = operator_pb2.ListNodesResponse(next_page_token=following, cluster=True)
        for info in found:
            into = answer.nodes.add(
                node_id=info.node_id,
                address=info.address,
                alive=info.alive,
                leases=info.leases,
                this_node=info.node_id == node.node_id,
            )
            for field, seconds in (("expire_time", info.expires_at), ("start_time", info.started_at)):
                stamp = _time(seconds)
                if stamp is not None:
                    getattr(into, field).CopyFrom(stamp)
        return answer

    @action("list_leases")
    async def ListLeases(self, request: operator_pb2.ListLeasesRequest, context: Any) -> Any:
        size = page_size_of(request.page_size)
        node = self._node
        if node is None:  # a single server holds no leases
            return operator_pb2.ListLeasesResponse()
        found, following = await store.leases(node.table.engine, request.node_id, size, request.page_token)
        return operator_pb2.ListLeasesResponse(
            leases=[
                operator_pb2.Lease(
                    kind=info.kind,
                    target_id=info.target_id,
                    node_id=info.node_id,
                    epoch=info.epoch,
                    tournament_id=info.tournament_id,
                    claim_time=_time(info.claimed_at),
                    orphaned=info.orphaned,
                )
                for info in found
            ],
            next_page_token=following,
        )

    @action("list_live_rooms")
    async def ListLiveRooms(self, request: operator_pb2.ListLiveRoomsRequest, context: Any) -> Any:
        size = page_size_of(request.page_size)
        engine = self._engine
        if engine is not None:
            found, following = await store.live_rooms(
                engine, node_id=request.node_id, game=request.game, size=size, after=request.page_token
            )
        else:  # a store in memory (tests, benchmarks): the rooms in memory are every room
            found, following = self._live_in_memory(request, size)
        return operator_pb2.ListLiveRoomsResponse(
            rooms=[
                operator_pb2.LiveRoom(
                    room_id=info.room_id,
                    game=info.game,
                    status=STATUS.get(info.status, common_pb2.ROOM_STATUS_UNSPECIFIED),
                    mode=MODE.get(info.mode, common_pb2.ROOM_MODE_UNSPECIFIED),
                    seats=info.seats,
                    node_id=info.node_id,
                    epoch=info.epoch,
                    tournament_id=info.tournament_id,
                    create_time=_time(info.created_at),
                )
                for info in found
            ],
            next_page_token=following,
        )

    def _live_in_memory(self, request: operator_pb2.ListLiveRoomsRequest, size: int) -> tuple[list[Any], str]:
        rooms = [
            room
            for room in self.access.directory.held()
            if room.status in store.LIVE and (not request.game or room.game.spec.name == request.game)
        ]
        if request.node_id:
            rooms = []
        rooms.sort(key=lambda room: (room.created_at, room.room_id), reverse=True)
        if request.page_token:
            ids = [room.room_id for room in rooms]
            if request.page_token not in ids:
                raise store.bad_page_token()
            rooms = rooms[ids.index(request.page_token) + 1 :]
        page = rooms[: size + 1]
        infos = [
            store.LiveRoomInfo(
                room.room_id,
                room.game.spec.name,
                room.status,
                room.mode,
                len(room.seats),
                "",
                0,
                room.tournament_id,
                room.created_at,
            )
            for room in page[:size]
        ]
        return infos, page[size - 1].room_id if len(page) > size else ""

    @action("get_player_social")
    async def GetPlayerSocial(self, request: operator_pb2.GetPlayerSocialRequest, context: Any) -> Any:
        invitations = self.access.invitations
        engine = self._engine
        if invitations is None or engine is None:
            raise PreconditionFailed("this server keeps no players", code="players_off")
        if not request.player_id:
            raise InvalidRequest("player_id is required", code="missing_player_id", field="player_id")
        found = await store.social(engine, request.player_id)
        if found is None:
            raise PlayerNotFound("no such player", field="player_id")
        received, sent = await invitations.report(request.player_id)

        def people(others: list[store.Other]) -> list[operator_pb2.SocialPlayer]:
            return [
                operator_pb2.SocialPlayer(
                    player_id=o.player_id, name=o.name, create_time=_time(o.time), delivered=o.delivered
                )
                for o in others
            ]

        def invited(pairs: list[Any]) -> list[operator_pb2.SocialInvitation]:
            return [operator_pb2.SocialInvitation(invitation=invitation_to_proto(i), delivered=d) for i, d in pairs]

        return operator_pb2.GetPlayerSocialResponse(
            player_id=found.player_id,
            name=found.name,
            blocks=people(found.blocks),
            blocked_by=people(found.blocked_by),
            friend_requests_received=people(found.received),
            friend_requests_sent=people(found.sent),
            room_invitations_received=invited(received),
            room_invitations_sent=invited(sent),
        )

    @action("get_room_timeline", room=True)
    async def GetRoomTimeline(self, request: operator_pb2.GetRoomTimelineRequest, context: Any, room: Room) -> Any:
        if request.after_version < 0:
            raise InvalidRequest("after_version must be 0 or more", code="bad_after_version", field="after_version")
        steps, _, last = await room.replay_steps(request.after_version, page_size_of(request.page_size))
        answer = operator_pb2.GetRoomTimelineResponse(room=room_to_proto(room), last_version=last)
        for step in steps:  # (each update as a spectator saw it, also once the game is over: never a hidden card)
            answer.updates.append(move_pb2.RoomUpdate.FromString(update_bytes(room, step.update, None)))
        if steps and steps[-1].update.version < last:
            answer.next_after_version = steps[-1].update.version
        return answer

    # -- acting ---------------------------------------------------------------------------------------------------

    @action("close_room", room=True)
    async def CloseRoom(self, request: operator_pb2.CloseRoomRequest, context: Any, room: Room) -> Any:
        if not request.reason:
            raise InvalidRequest("reason is required: say why the room closes", code="missing_reason", field="reason")
        await room.close_by_operator(request.reason)
        return operator_pb2.CloseRoomResponse(room=room_to_proto(room))

    @action("revoke_seat_token", room=True)
    async def RevokeSeatToken(self, request: operator_pb2.RevokeSeatTokenRequest, context: Any, room: Room) -> Any:
        released = await room.revoke_seat(request.seat)
        return operator_pb2.RevokeSeatTokenResponse(room=room_to_proto(room), released=released)

    @action("drain_node")
    async def DrainNode(self, request: operator_pb2.DrainNodeRequest, context: Any) -> Any:
        node = self._node
        if node is None:
            raise PreconditionFailed(
                "a single server is not a node of a cluster: it has no leases to hand over (stop it instead)",
                code="not_a_cluster",
            )
        target = request.node_id or node.node_id
        if target != node.node_id:
            found = await store.node(node.table.engine, target)
            if found is None:
                raise NotFound("node", "no such node", code="node_not_found", field="node_id")
            if not found.alive:
                raise PreconditionFailed(
                    "the node is not alive: its leases are claimable already", code="node_not_alive"
                )
            assert self.access.forwarder is not None
            elsewhere = Remote(target, found.address, "")
            return await self.access.forwarder.unary(f"/{OPERATOR_SERVICE}/DrainNode", request, context, elsewhere)
        assert self.drain is not None
        handed = await self.drain()
        return operator_pb2.DrainNodeResponse(
            node_id=node.node_id,
            rooms=handed.get("room", 0),
            tournaments=handed.get("tournament", 0),
            leases=handed.get("leases", 0),
        )

    # -- the chat's moderation (issue 49) --------------------------------------------------------------------------

    def _moderation(self) -> ChatModeration:
        if self.chat is None:
            raise PreconditionFailed("this server keeps no players, so no chat to moderate", code="players_off")
        return self.chat

    async def _report_to_proto(self, report: Report, *, context: bool) -> operator_pb2.ChatReport:
        lines = [report.message, *(report.context if context else ())]
        gone = await self._moderation().actions.deleted(report.room_id, [line.seq for line in lines])
        answer = operator_pb2.ChatReport(
            report_id=report.report_id,
            room_id=report.room_id,
            reporter_id=report.reporter_id,
            reason=report.reason,
            message=_line(report.message, gone),
            create_time=_time(report.created_at),
            open=report.open,
            close_time=_time(report.closed_at),
            closed_by=report.closed_by,
            note=report.note,
        )
        if context:
            answer.context.extend(_line(line, gone) for line in report.context)
        return answer

    @action("list_chat_reports")
    async def ListChatReports(self, request: operator_pb2.ListChatReportsRequest, context: Any) -> Any:
        size = page_size_of(request.page_size)
        found, following = await self._moderation().reports.page(size, request.page_token)
        return operator_pb2.ListChatReportsResponse(
            reports=[await self._report_to_proto(report, context=False) for report in found],
            next_page_token=following,
        )

    @action("get_chat_report")
    async def GetChatReport(self, request: operator_pb2.GetChatReportRequest, context: Any) -> Any:
        if not request.report_id:
            raise InvalidRequest("report_id is required", code="missing_report_id", field="report_id")
        report = await self._moderation().reports.get(request.report_id)
        return operator_pb2.GetChatReportResponse(report=await self._report_to_proto(report, context=True))

    @action("close_chat_report", by=True)
    async def CloseChatReport(
        self, request: operator_pb2.CloseChatReportRequest, context: Any, operator: Operator
    ) -> Any:
        if not request.report_id:
            raise InvalidRequest("report_id is required", code="missing_report_id", field="report_id")
        report = await self._moderation().reports.close(request.report_id, operator.key_id, request.note)
        self._instruments.chat_moderation.add(1, {"kickoff.chat.action": "close_report"})
        return operator_pb2.CloseChatReportResponse(report=await self._report_to_proto(report, context=True))

    @action("delete_chat_message", room=True, by=True)
    async def DeleteChatMessage(
        self, request: operator_pb2.DeleteChatMessageRequest, context: Any, room: Room, operator: Operator
    ) -> Any:
        chat = self._moderation()
        deleted = await chat.actions.delete_message(room.room_id, request.seq, operator.key_id)
        if self.withdraw is not None:  # (also when recorded before: a withdrawal that failed halfway goes again)
            withdrawal = await self.withdraw(room, request.seq)
            if withdrawal is not None:
                kind = {"kickoff.chat.channel": withdrawal.channel, "kickoff.chat.kind": "withdrawal"}
                self._instruments.chat_messages.add(1, kind)
        if deleted:
            self._instruments.chat_moderation.add(1, {"kickoff.chat.action": "delete_message"})
        return operator_pb2.DeleteChatMessageResponse(deleted=deleted)

    async def _player(self, player_id: str) -> None:
        engine = self._engine
        if engine is None:
            raise PreconditionFailed("this server keeps no players", code="players_off")
        if not player_id:
            raise InvalidRequest("player_id is required", code="missing_player_id", field="player_id")
        if not await store.player_exists(engine, player_id):
            raise PlayerNotFound("no such player", field="player_id")

    @action("mute_player", by=True)
    async def MutePlayer(self, request: operator_pb2.MutePlayerRequest, context: Any, operator: Operator) -> Any:
        chat = self._moderation()
        await self._player(request.player_id)
        if request.until_ended == (request.seconds != 0):
            raise InvalidRequest(
                "give seconds (how long the mute lasts) or until_ended, one of the two",
                code="bad_seconds",
                field="seconds",
            )
        seconds = None if request.until_ended else float(request.seconds)
        mute = await chat.mutes.mute(request.player_id, seconds, request.reason, operator.key_id)
        self._instruments.chat_moderation.add(1, {"kickoff.chat.action": "mute_player"})
        return operator_pb2.MutePlayerResponse(mute=_mute(mute, chat.mutes.now()))

    @action("end_mute", by=True)
    async def EndMute(self, request: operator_pb2.EndMuteRequest, context: Any, operator: Operator) -> Any:
        chat = self._moderation()
        if not request.player_id:
            raise InvalidRequest("player_id is required", code="missing_player_id", field="player_id")
        mute = await chat.mutes.end(request.player_id, operator.key_id)
        self._instruments.chat_moderation.add(1, {"kickoff.chat.action": "end_mute"})
        return operator_pb2.EndMuteResponse(mute=_mute(mute, chat.mutes.now()))

    @action("list_mutes")
    async def ListMutes(self, request: operator_pb2.ListMutesRequest, context: Any) -> Any:
        chat = self._moderation()
        size = page_size_of(request.page_size)
        found, following = await chat.mutes.page(size, request.page_token, ended=request.include_ended)
        now = chat.mutes.now()
        return operator_pb2.ListMutesResponse(mutes=[_mute(mute, now) for mute in found], next_page_token=following)


def _line(line: Line, deleted: set[int]) -> operator_pb2.ReportedChatLine:
    return operator_pb2.ReportedChatLine(
        seq=line.seq,
        channel=CHANNEL.get(line.channel, 0),  # type: ignore[arg-type]
        player_id=line.player_id,
        name=line.name,
        text=line.text,
        send_time=_time(line.time),
        deleted=line.seq in deleted,
    )


def _mute(mute: Mute, now: float) -> operator_pb2.ChatMute:
    return operator_pb2.ChatMute(
        player_id=mute.player_id,
        until=_time(mute.until),
        reason=mute.reason,
        create_time=_time(mute.created_at),
        created_by=mute.created_by,
        end_time=_time(mute.ended_at),
        ended_by=mute.ended_by,
        active=mute.active(now),
    )
