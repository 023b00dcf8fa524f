"""`kickoff grpc` as a process: it serves health checks and reflection, and stops gracefully on SIGTERM."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys

import grpc
from google.protobuf import descriptor_pb2
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

from kickoff.v1 import game_pb2, game_pb2_grpc


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_for_port_line(process: subprocess.Popen, port: int) -> None:
    for line in process.stdout:
        if f":{port}" in line and "on 127.0.0.1" in line:
            return
    raise AssertionError("the server never said it listens")


def test_the_server_process_serves_health_and_reflection_and_stops_on_sigterm(tmp_path) -> None:
    port = free_port()
    env = {**os.environ, "KICKOFF_GRPC_PORT": str(port), "KICKOFF_DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path}/k.db"}
    process = subprocess.Popen(
        [sys.executable, "-m", "cli", "grpc"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        wait_for_port_line(process, port)
        with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
            health = health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(service=""), timeout=5)
            assert health.status == health_pb2.HealthCheckResponse.SERVING
            games = game_pb2_grpc.GameServiceStub(channel).ListGames(game_pb2.ListGamesRequest(), timeout=5)
            assert games.games[0].name == "soker"
            reflection = reflection_pb2_grpc.ServerReflectionStub(channel)
            answers = reflection.ServerReflectionInfo(iter([reflection_pb2.ServerReflectionRequest(list_services="")]))
            names = {service.name for answer in answers for service in answer.list_services_response.service}
            assert {"kickoff.v1.GameService", "kickoff.v1.RoomService", "kickoff.v1.MoveService"} <= names
            # grpc.reflection.v1, what current grpcurl asks first: the same messages under the v1 service name.
            v1 = channel.stream_stream(
                "/grpc.reflection.v1.ServerReflection/ServerReflectionInfo",
                request_serializer=reflection_pb2.ServerReflectionRequest.SerializeToString,
                response_deserializer=reflection_pb2.ServerReflectionResponse.FromString,
            )
            asked = [
                reflection_pb2.ServerReflectionRequest(list_services=""),
                reflection_pb2.ServerReflectionRequest(file_containing_symbol="kickoff.v1.MoveService"),
            ]
            listed, described = list(v1(iter(asked), timeout=5))
            v1_names = {service.name for service in listed.list_services_response.service}
            assert names | {"grpc.reflection.v1.ServerReflection"} == v1_names
            files = [
                descriptor_pb2.FileDescriptorProto.FromString(raw)
                for raw in described.file_descriptor_response.file_descriptor_proto
            ]
            assert "kickoff/v1/move.proto" in {f.name for f in files}
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=15) == 0
        assert "stopping" in process.stdout.read()
    finally:
        if process.poll() is None:
            process.kill()
