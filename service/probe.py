"""Asks a gRPC server's health service once: the container image's HEALTHCHECK and a shell's quick look.

    python -m service.probe [--target 127.0.0.1:50051] [--service NAME] [--timeout 2]

Exit status 0 when the server answers SERVING for the service ("" by default: the server as a whole), else 1 with one
line on stderr saying why (NOT_SERVING while it drains, an unknown service, no answer in time, no server there).
The target defaults to this host's gRPC port, 127.0.0.1:$KICKOFF_GRPC_PORT (50051 when unset), where `kickoff grpc`
listens. Only the standard library, grpcio and grpcio-health-checking: it starts quickly and imports nothing of the
server.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc


def check(target: str, service: str = "", timeout: float = 2.0) -> str | None:
    """None when ``target`` reports ``service`` SERVING within ``timeout`` seconds, else why not, in a few words."""
    with grpc.insecure_channel(target) as channel:
        stub = health_pb2_grpc.HealthStub(channel)
        try:
            reply = stub.Check(health_pb2.HealthCheckRequest(service=service), timeout=timeout)
        except grpc.RpcError as error:
            code = error.code() if isinstance(error, grpc.Call) else None
            if code == grpc.StatusCode.NOT_FOUND:
                return f"{target}: no health status for service {service!r}"
            name = code.name if code is not None else type(error).__name__
            return f"{target}: health check failed: {name}"
    if reply.status != health_pb2.HealthCheckResponse.SERVING:
        status = health_pb2.HealthCheckResponse.ServingStatus.Name(reply.status)
        return f"{target}: {service or 'server'} is {status}"
    return None


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m service.probe", description=__doc__.splitlines()[0])
    port = os.environ.get("KICKOFF_GRPC_PORT") or "50051"
    parser.add_argument(
        "--target", default=f"127.0.0.1:{port}", help="the gRPC server, host:port (default %(default)s)"
    )
    parser.add_argument("--service", default="", help='the service to ask about (default "": the whole server)')
    parser.add_argument("--timeout", type=float, default=2.0, help="seconds to wait for the answer")
    args = parser.parse_args(argv)
    if args.timeout <= 0:
        parser.error("--timeout must be positive")
    problem = check(args.target, args.service, args.timeout)
    if problem is not None:
        print(f"unhealthy: {problem}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
