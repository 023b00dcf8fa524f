"""Settings, one dataclass per concern, read from the environment (each field says which variable sets it)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field


def _secret_from_env() -> bytes:
    value = os.environ.get("KICKOFF_TOKEN_SECRET", "")
    return value.encode()


@dataclass(frozen=True)
class GrpcSettings:
    """The gRPC server."""

    host: str = field(default_factory=lambda: os.environ.get("KICKOFF_GRPC_HOST", "127.0.0.1"))  # KICKOFF_GRPC_HOST
    port: int = field(default_factory=lambda: int(os.environ.get("KICKOFF_GRPC_PORT", "50051")))  # KICKOFF_GRPC_PORT
    # KICKOFF_TOKEN_SECRET signs seat tokens; unset, the store keeps one made on the first start.
    token_secret: bytes = field(default_factory=_secret_from_env, repr=False)
    # KICKOFF_GRACE_SECONDS: how long a stopping server lets calls in flight finish.
    grace_seconds: float = field(default_factory=lambda: float(os.environ.get("KICKOFF_GRACE_SECONDS", "5")))


@dataclass(frozen=True)
class StoreSettings:
    """The database."""

    # KICKOFF_DATABASE_URL: e.g. postgresql+asyncpg://user@host/db; unset, a SQLite file under ./var/. "memory" keeps
    # nothing (benchmarks only).
    database_url: str = field(
        default_factory=lambda: os.environ.get("KICKOFF_DATABASE_URL") or "sqlite+aiosqlite:///var/kickoff.db"
    )
