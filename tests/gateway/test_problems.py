"""How the gateway reports what the gRPC server answered, where no running server can be made to answer it on cue."""

from __future__ import annotations

import grpc

from service.gateway.problems import rpc_error_to_problem


def test_a_call_the_server_cancelled_as_it_stopped_is_a_503_to_retry() -> None:
    # grpc answers CANCELLED to the calls that reach a server as it stops (grpc/grpc issue 41785); the gateway cancels
    # a call only when its own client has gone, so a CANCELLED it hears is the server being unavailable.
    error = grpc.aio.AioRpcError(grpc.StatusCode.CANCELLED, grpc.aio.Metadata(), grpc.aio.Metadata(), "CANCELLED")
    problem = rpc_error_to_problem(error)
    assert problem.status_code == 503
    assert problem.extra["reason"] == "unavailable"
    assert problem.headers == {"Retry-After": "1"}
    assert "try again" in problem.detail
