"""API keys in the store: made and revoked by `kickoff keys`, read by the server (see service/grpc/admission.py).

A key reads ``kk_<key id>_<secret>``. The store keeps the key id, a name and the key's SHA-256, never the key: it is
shown once, when made.
"""

from __future__ import annotations

import hashlib
import secrets
import time

from sqlalchemy import insert, select, update
from sqlalchemy.ext.asyncio import AsyncEngine

from service.store.models import ApiKeyRow


def key_hash(key: str) -> str:
    """What the store keeps of an API key (never the key itself)."""
    return hashlib.sha256(key.encode()).hexdigest()


async def create_key(engine: AsyncEngine, name: str) -> tuple[str, str]:
    """A new key named ``name``: returns (key id, the key)."""
    key_id = secrets.token_hex(6)
    key = f"kk_{key_id}_{secrets.token_urlsafe(32)}"
    async with engine.begin() as connection:
        await connection.execute(
            insert(ApiKeyRow).values(key_id=key_id, name=name, key_hash=key_hash(key), created_at=time.time())
        )
    return key_id, key


async def list_keys(engine: AsyncEngine) -> list[ApiKeyRow]:
    """Every key, oldest first, revoked ones included."""
    async with engine.connect() as connection:
        return list((await connection.execute(select(ApiKeyRow).order_by(ApiKeyRow.created_at))).all())


async def revoke_key(engine: AsyncEngine, key_id: str) -> bool:
    """Revoke a key (servers stop accepting it at their next refresh); False when there is no such live key."""
    async with engine.begin() as connection:
        result = await connection.execute(
            update(ApiKeyRow)
            .where(ApiKeyRow.key_id == key_id, ApiKeyRow.revoked_at.is_(None))
            .values(revoked_at=time.time())
        )
    return result.rowcount == 1


async def live_keys(engine: AsyncEngine) -> list[tuple[str, str]]:
    """The keys not revoked, as (key id, key hash)."""
    async with engine.connect() as connection:
        rows = await connection.execute(
            select(ApiKeyRow.key_id, ApiKeyRow.key_hash).where(ApiKeyRow.revoked_at.is_(None))
        )
        return [(row.key_id, row.key_hash) for row in rows]
