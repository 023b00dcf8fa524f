"""The gateway's health probes, written by hand (they call no RPC of kickoff.v1): liveness at /healthz, readiness at
/readyz. They answer whatever the request's Host (hosts.py): kubelets call them by the pod's address."""

from __future__ import annotations

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc
from litestar import get
from litestar.datastructures import CacheControlHeader, State

from service.gateway.calls import upstream
from service.gateway.hosts import ANY_HOST
from service.gateway.problems import problem

READY_TIMEOUT = 2.0  # seconds /readyz waits for the gRPC server's health check (at most the gateway's deadline)


@get("/healthz", include_in_schema=False, cache_control=CacheControlHeader(no_store=True), opt={ANY_HOST: True})
async def healthz() -> dict[str, str]:
    """Liveness: the gateway's process answers HTTP. It asks nothing of the gRPC server, so a server that is away
    (or draining) never gets the gateways restarted."""
    return {"status": "ok"}


@get("/readyz", include_in_schema=False, cache_control=CacheControlHeader(no_store=True), opt={ANY_HOST: True})
async def readyz(state: State) -> dict[str, str]:
    """Readiness: the gRPC server behind the gateway answers its health check SERVING ("": the server as a whole);
    else 503 problem details, so a load balancer stops sending requests here while no node can take them."""
    up = upstream(state)
    stub = up.health or health_pb2_grpc.HealthStub(up.channel)
    try:
        reply = await stub.Check(health_pb2.HealthCheckRequest(), timeout=min(up.timeout, READY_TIMEOUT))
    except grpc.aio.AioRpcError as error:
        detail = f"the game server did not answer its health check: {error.code().name}"
        raise problem(503, detail, "not_ready") from None
    if reply.status != health_pb2.HealthCheckResponse.SERVING:
        status = health_pb2.HealthCheckResponse.ServingStatus.Name(reply.status)
        raise problem(503, f"the game server reports {status}", "not_ready")
    return {"status": "ok"}
