"""The operators' API tests: an operator key (and its hash, as KICKOFF_OPERATOR_KEYS holds it), its metadata, and the
browser fixtures of tests/web for the /ops page."""

from __future__ import annotations

from typing import Any

from kickoff.v1 import operator_pb2_grpc
from service.operators.keys import OperatorKeys, new_key, parse_entries
from tests.server.conftest import Harness
from tests.web.conftest import artifacts, pages  # noqa: F401  (the /ops page's browser tests)

KEY_ID, KEY, ENTRY = new_key()
OTHER_ID, OTHER_KEY, OTHER_ENTRY = new_key()  # a key some other server takes, not this one


def operator_keys() -> OperatorKeys:
    return OperatorKeys(parse_entries(ENTRY))


def op(key: str = KEY) -> tuple[tuple[str, str], ...]:
    return (("x-operator-key", key),)


def ops(harness: Any) -> operator_pb2_grpc.OperatorServiceStub:
    channel = harness.channel
    return operator_pb2_grpc.OperatorServiceStub(channel)


__all__ = ["ENTRY", "KEY", "KEY_ID", "OTHER_KEY", "Harness", "op", "operator_keys", "ops"]


from tests.cluster.conftest import cluster  # noqa: E402, F401  (nodes on one PostgreSQL, for the drain)
