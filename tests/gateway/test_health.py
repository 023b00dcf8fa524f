"""The gateway's probes: /healthz (the process answers) and /readyz (the gRPC server behind it answers SERVING)."""

from __future__ import annotations

import socket

import httpx
from grpc_health.v1 import health_pb2
from litestar.testing import AsyncTestClient

from service.gateway.app import create_app


async def test_healthz_answers_ok(client: httpx.AsyncClient) -> None:
    response = await client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}
    assert response.headers["cache-control"] == "no-store"


async def test_readyz_is_ready_while_the_grpc_server_serves(client: httpx.AsyncClient) -> None:
    response = await client.get("/readyz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}


async def test_readyz_is_503_once_the_grpc_server_reports_not_serving(client: httpx.AsyncClient, grpc_server) -> None:
    await grpc_server.health.set("", health_pb2.HealthCheckResponse.NOT_SERVING)  # as when it starts draining
    response = await client.get("/readyz")
    assert response.status_code == 503
    assert response.headers["content-type"].startswith("application/problem+json")
    body = response.json()
    assert body["reason"] == "not_ready" and body["status"] == 503
    assert "NOT_SERVING" in body["detail"]
    assert (await client.get("/healthz")).status_code == 200, "liveness does not follow the server"
    await grpc_server.health.set("", health_pb2.HealthCheckResponse.SERVING)
    assert (await client.get("/readyz")).status_code == 200


async def test_readyz_is_503_when_no_grpc_server_answers() -> None:
    with socket.socket() as sock:  # a port nothing listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    async with AsyncTestClient(create_app(f"127.0.0.1:{port}", timeout=1.0, web=False)) as http:
        ready = await http.get("/readyz")
        assert ready.status_code == 503
        assert ready.json()["reason"] == "not_ready"
        assert "UNAVAILABLE" in ready.json()["detail"] or "DEADLINE_EXCEEDED" in ready.json()["detail"]
        assert (await http.get("/healthz")).status_code == 200


async def test_the_probes_stay_out_of_the_openapi_document(client: httpx.AsyncClient) -> None:
    paths = (await client.get("/schema/openapi.json")).json()["paths"]
    assert "/healthz" not in paths and "/readyz" not in paths
    assert "/v1/rooms" in paths
