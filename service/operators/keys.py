"""Operator keys: what the operators' API (OperatorService, REST under /v1/ops, the /ops page) takes, and nothing else.

A key reads ``ko_<key id>_<secret>`` (`kickoff operator-keys create` makes one and prints it with its hash). The server
is given hashes only: ``KICKOFF_OPERATOR_KEYS``, comma-separated ``<key id>:<SHA-256 hex of the key>`` entries; the
webhooks' ``KICKOFF_OPERATOR_KEY`` (a key itself, of 32 characters or more) is taken too, hashed as it is read, under
the id its hash begins with. A key offered is hashed and compared with every hash held in constant time.

An operator key is never an API key or a seat token, nor the other way round: the sets are apart (an API key's
``kk_`` form is refused here before any comparison, a setting that names an API key's hash as an operator key's is
refused at start, and neither admission nor the seat tokens know these hashes).
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from service.errors import PermissionDenied, Unauthenticated

OPERATOR_HEADER = "x-operator-key"
PREFIX = "ko_"
API_KEY_PREFIX = "kk_"  # service/store/keys.py's form: never an operator key
KEY_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")
HASH = re.compile(r"[0-9a-f]{64}")
MAX_KEY_LENGTH = 256


def offered_key(metadata: Iterable[tuple[str, Any]]) -> str | None:
    """The operator key a call's metadata carries (``x-operator-key``), if any."""
    for key, value in metadata or ():
        if key == OPERATOR_HEADER:
            return value  # type: ignore[no-any-return]
    return None


def key_hash(key: str) -> str:
    """What the server is given of an operator key: its SHA-256, in hex."""
    return hashlib.sha256(key.encode()).hexdigest()


def new_key() -> tuple[str, str, str]:
    """A new operator key: (key id, the key, the ``id:hash`` entry for KICKOFF_OPERATOR_KEYS)."""
    key_id = secrets.token_hex(6)
    key = f"{PREFIX}{key_id}_{secrets.token_urlsafe(32)}"
    return key_id, key, f"{key_id}:{key_hash(key)}"


def parse_entries(text: str, name: str = "KICKOFF_OPERATOR_KEYS") -> tuple[tuple[str, str], ...]:
    """``id:hash,id:hash`` -> ((id, hash), ...); a bare hash takes its first 12 digits as its id. ValueError (naming
    the setting, never the value) for an entry that is not one."""
    entries: list[tuple[str, str]] = []
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        key_id, _, digest = part.rpartition(":")
        digest = digest.lower()
        key_id = key_id or digest[:12]
        if not HASH.fullmatch(digest) or not KEY_ID.fullmatch(key_id):
            raise ValueError(
                f"{name}: each entry is <key id>:<SHA-256 of the key, 64 hex digits> (`kickoff operator-keys create`)"
            )
        if any(known == key_id for known, _ in entries):
            raise ValueError(f"{name}: each key id once")
        entries.append((key_id, digest))
    return tuple(entries)


@dataclass(frozen=True)
class Operator:
    """Who a call is from: the operator key's id (what logs and spans name; never the key)."""

    key_id: str


class OperatorKeys:
    """The operator keys a server takes, as (key id, SHA-256 digest) pairs."""

    def __init__(self, entries: Iterable[tuple[str, str]] = ()) -> None:
        self._digests = tuple((key_id, bytes.fromhex(digest)) for key_id, digest in entries)

    @classmethod
    def from_settings(
        cls, entries: Sequence[tuple[str, str]], plain_key: str = "", api_keys: Sequence[str] = ()
    ) -> OperatorKeys:
        """The keys of KICKOFF_OPERATOR_KEYS (``entries``) and the webhooks' KICKOFF_OPERATOR_KEY (``plain_key``).
        ValueError when one of them is an API key of KICKOFF_API_KEYS (``api_keys``): a key is one or the other."""
        found = list(entries)
        if plain_key:
            digest = key_hash(plain_key)
            if all(known != digest for _, known in found):
                found.append((digest[:12], digest))
        api = {key_hash(key) for key in api_keys}
        if any(digest in api for _, digest in found):
            raise ValueError("an operator key must not be an API key (KICKOFF_API_KEYS): make one of its own")
        return cls(found)

    @property
    def enabled(self) -> bool:
        return bool(self._digests)

    def __len__(self) -> int:
        return len(self._digests)

    def check(self, offered: str | None) -> Operator:
        """The operator whose key ``offered`` is. Raises PermissionDenied ``operator_api_off`` (the server has no
        operator key), Unauthenticated ``operator_key_required`` (none offered) or Unauthenticated
        ``bad_operator_key`` (not one of this server's, an API key's form included: the webhooks' reason, one check
        for every operator call)."""
        if not self._digests:
            raise PermissionDenied(
                "this server has no operator API: start it with KICKOFF_OPERATOR_KEYS", code="operator_api_off"
            )
        if not offered:
            raise Unauthenticated(
                f"the operator API needs an operator key: send '{OPERATOR_HEADER}: <key>'", code="operator_key_required"
            )
        if len(offered) > MAX_KEY_LENGTH or offered.startswith(API_KEY_PREFIX):
            raise Unauthenticated("the operator key is not valid", code="bad_operator_key")
        digest = hashlib.sha256(offered.encode()).digest()
        found = ""
        for key_id, known in self._digests:  # (every hash is compared: the time says nothing of which matched)
            if hmac.compare_digest(digest, known):
                found = key_id
        if not found:
            raise Unauthenticated("the operator key is not valid", code="bad_operator_key")
        return Operator(found)
