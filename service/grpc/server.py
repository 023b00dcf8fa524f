"""The gRPC server: `create_server` builds it (tests bind port 0); `serve` runs it until a signal stops it."""

from __future__ import annotations

import asyncio
import logging
import secrets
import signal

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_health.v1.health import aio as health_aio
from grpc_reflection.v1alpha import reflection
from opentelemetry.instrumentation.grpc import aio_server_interceptor

from kickoff.v1 import (
    game_pb2,
    game_pb2_grpc,
    move_pb2,
    move_pb2_grpc,
    room_pb2,
    room_pb2_grpc,
    tournament_pb2,
    tournament_pb2_grpc,
)
from service.grpc.servicers import GameServicer, MoveServicer, RoomServicer, Seats
from service.grpc.tokens import SeatTokens
from service.grpc.tournaments import TournamentServicer
from service.rooms.directory import RoomDirectory
from service.settings import GrpcSettings, StoreSettings
from service.store.database import create_engine
from service.store.journal import SqlJournal
from service.telemetry import from_environment, traced_call
from service.tournaments.directory import TournamentDirectory

log = logging.getLogger(__name__)

SERVICES = (
    game_pb2.DESCRIPTOR.services_by_name["GameService"].full_name,
    room_pb2.DESCRIPTOR.services_by_name["RoomService"].full_name,
    move_pb2.DESCRIPTOR.services_by_name["MoveService"].full_name,
    tournament_pb2.DESCRIPTOR.services_by_name["TournamentService"].full_name,
)


class KickoffServer:
    """A started gRPC server with its rooms and tournaments."""

    def __init__(
        self,
        server: grpc.aio.Server,
        port: int,
        directory: RoomDirectory,
        tournaments: TournamentDirectory,
        health: health_aio.HealthServicer,
    ):
        self.server = server
        self.port = port
        self.directory = directory
        self.tournaments = tournaments
        self.health = health

    async def stop(self, grace: float | None = None) -> None:
        """Stop gracefully: report NOT_SERVING, let calls in flight finish within ``grace``, close the rooms."""
        await self.health.enter_graceful_shutdown()
        await self.server.stop(grace)
        await self.tournaments.close()
        await self.directory.close()


async def create_server(
    directory: RoomDirectory,
    tokens: SeatTokens,
    *,
    host: str = "127.0.0.1",
    port: int = 0,
    tournaments: TournamentDirectory | None = None,
) -> KickoffServer:
    """Build and start the server on ``host:port`` (0: any free port; the one bound is in ``.port``). Its
    telemetry is the room directory's: with tracing on, every call gets a server span that the rooms' spans join."""
    telemetry = directory.telemetry
    interceptors = (
        [aio_server_interceptor(tracer_provider=telemetry.tracer_provider, filter_=traced_call())]
        if telemetry.tracing
        else []
    )
    server = grpc.aio.server(interceptors=interceptors)
    seats = Seats(directory, tokens)
    tournaments = tournaments or TournamentDirectory(directory)
    tournament_pb2_grpc.add_TournamentServiceServicer_to_server(TournamentServicer(tournaments, seats), server)
    game_pb2_grpc.add_GameServiceServicer_to_server(GameServicer(), server)
    room_pb2_grpc.add_RoomServiceServicer_to_server(RoomServicer(seats), server)
    move_pb2_grpc.add_MoveServiceServicer_to_server(MoveServicer(seats), server)
    health = health_aio.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health, server)
    reflection.enable_server_reflection(
        (*SERVICES, health_pb2.DESCRIPTOR.services_by_name["Health"].full_name, reflection.SERVICE_NAME), server
    )
    bound = server.add_insecure_port(f"{host}:{port}")
    if not bound:
        raise OSError(f"cannot listen on {host}:{port}")
    await server.start()
    await health.set("", health_pb2.HealthCheckResponse.SERVING)
    for name in SERVICES:
        await health.set(name, health_pb2.HealthCheckResponse.SERVING)
    return KickoffServer(server, bound, directory, tournaments, health)


async def serve(settings: GrpcSettings, store: StoreSettings, *, discard_spans: bool = False) -> None:
    """Open the store, restore every room it holds, serve until SIGINT or SIGTERM, then stop gracefully."""
    journal: SqlJournal | None = None
    telemetry = from_environment("kickoff-grpc", discard_spans=discard_spans)
    if store.database_url == "memory":
        directory = RoomDirectory(telemetry=telemetry)
        tournaments = TournamentDirectory(directory)
        secret = settings.token_secret or secrets.token_bytes(32)
    else:
        journal = SqlJournal(create_engine(store.database_url), telemetry)
        directory = RoomDirectory(journal=journal, telemetry=telemetry)
        tournaments = TournamentDirectory(directory)  # listens for finished games, so before the rooms come back
        secret = settings.token_secret or await journal.token_secret()
        unfinished = await directory.restore(await journal.load())
        log.info("restored %d unfinished rooms", unfinished)
        unfinished = await tournaments.restore(await journal.load_tournaments())
        log.info("restored %d unfinished tournaments", unfinished)
    running = await create_server(
        directory, SeatTokens(secret), host=settings.host, port=settings.port, tournaments=tournaments
    )
    log.info("kickoff gRPC server listening on %s:%d", settings.host, running.port)
    print(f"kickoff gRPC server on {settings.host}:{running.port} (health and reflection on)", flush=True)
    stopping = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stopping.set)
    await stopping.wait()
    print("kickoff gRPC server stopping", flush=True)
    await running.stop(settings.grace_seconds)
    if journal is not None:
        await journal.close()
    telemetry.shutdown()
