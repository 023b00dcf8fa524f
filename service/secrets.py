"""Secrets the store keeps sealed: the webhook endpoints' signing secrets and the rooms' deal secrets.

Both are sealed with one Fernet key the nodes of a cluster share (:class:`Sealer`), handed to the webhooks and the
rooms by the composition root (service/grpc/server.py). A room's deal secret (deals/scheme.py) is sealed from the
moment the room is made until it is revealed, so a copy of the rooms table alone does not show a deal in play.

A Standard Webhooks signature is an HMAC-SHA256 of the message with the endpoint's secret, so the server must hold
the secret itself (a hash of it would not sign). It is kept sealed with Fernet (the ``cryptography`` library:
AES-128-CBC with an HMAC) under KICKOFF_SECRETS_KEY where that is set; otherwise under a key the store keeps (made on
the first use, as the seat-token secret is), which keeps the secrets out of backups of the endpoints table alone but
not out of a copy of the whole database: set KICKOFF_SECRETS_KEY where that matters. The secret is shown once, when
the endpoint is registered, and afterwards only by its first characters.
"""

from __future__ import annotations

import base64
import binascii
import secrets

from cryptography.fernet import Fernet, InvalidToken
from sqlalchemy import insert, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from service.errors import InvalidRequest
from service.store.models import SettingRow

PREFIX = "whsec_"
STORE_KEY = "webhook_secrets_key"  # (the name the first users, the webhooks, gave it)


def new_secret() -> str:
    """A fresh signing secret: ``whsec_`` and 32 random bytes in base64."""
    return PREFIX + base64.b64encode(secrets.token_bytes(32)).decode()


def check_secret(secret: str) -> str:
    """``secret`` if it is one (``whsec_`` and the base64 of 24 to 64 bytes), else InvalidRequest bad_secret."""
    body = secret.removeprefix(PREFIX)
    try:
        raw = base64.b64decode(body + "=" * (-len(body) % 4), validate=True)
    except (binascii.Error, ValueError):
        raw = b""
    if not secret.startswith(PREFIX) or not 24 <= len(raw) <= 64:
        raise InvalidRequest(
            "secret must be 'whsec_' and the base64 of 24 to 64 random bytes (or empty: the server makes one)",
            code="bad_secret",
            field="secret",
        )
    return secret


def hint(secret: str) -> str:
    """What tells secrets apart without giving one away: its prefix and first four characters."""
    return secret[: len(PREFIX) + 4] + "..."


_PROCESS_SEALER: Sealer | None = None


class Sealer:
    """Seals and opens secrets with one Fernet key."""

    @classmethod
    def of_process(cls) -> Sealer:
        """The sealer of a server without a store (a store in memory, tests and tools): one fresh key for the whole
        process, so that every node started in it opens what the others sealed."""
        global _PROCESS_SEALER
        if _PROCESS_SEALER is None:
            _PROCESS_SEALER = cls(Fernet.generate_key())
        return _PROCESS_SEALER

    def __init__(self, key: bytes) -> None:
        self._fernet = Fernet(key)

    def seal(self, secret: str) -> str:
        return self._fernet.encrypt(secret.encode()).decode()

    def open(self, sealed: str) -> str:
        try:
            return self._fernet.decrypt(sealed.encode()).decode()
        except InvalidToken:
            raise ValueError("a secret sealed under another key (was KICKOFF_SECRETS_KEY changed?)") from None

    @classmethod
    async def for_store(cls, engine: AsyncEngine, key: str = "") -> Sealer:
        """The sealer under ``key`` (KICKOFF_SECRETS_KEY), else under the store's own key (made once; nodes starting
        together agree on the first one written)."""
        if key:
            try:
                return cls(key.encode())
            except (ValueError, binascii.Error):
                raise ValueError(
                    "KICKOFF_SECRETS_KEY must be 32 url-safe base64 bytes (Fernet.generate_key())"
                ) from None
        query = select(SettingRow.value).where(SettingRow.key == STORE_KEY)
        async with engine.connect() as connection:
            stored = (await connection.execute(query)).scalar()
        if stored is None:
            try:
                async with engine.begin() as connection:
                    stored = Fernet.generate_key().decode()
                    await connection.execute(insert(SettingRow).values(key=STORE_KEY, value=stored))
            except IntegrityError:  # another node made it first
                async with engine.connect() as connection:
                    stored = (await connection.execute(query)).scalar_one()
        return cls(stored.encode())
