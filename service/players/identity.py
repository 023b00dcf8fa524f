"""Verifying ID tokens from external identity providers (OpenID Connect: Auth0, Firebase, Cognito, Keycloak, a
studio's own), so the service can sign a player in as ``(issuer, subject)``.

Each provider the server trusts is an :class:`Issuer`: its exact ``iss``, the audiences accepted, and where its JSON
Web Key Set lies (a URL, or a file for offline use). :class:`ExternalTokens` verifies a token against them with PyJWT:
the issuer is picked by the token's (unverified) ``iss``, its key by ``kid`` from that issuer's key set only (headers
such as ``jku``, ``x5u`` or ``jwk`` are never followed), the algorithm must be one the issuer allows (asymmetric
only: no ``none``, no HMAC), and the signature, the issuer and the audience are checked by :func:`jwt.decode`. The
times (``exp``, ``nbf``, ``iat``) are checked here against the injectable clock, with a leeway.

Key sets are cached for ``refresh_seconds``; a ``kid`` the cached set lacks (the provider rotated its keys) fetches it
again, at most once per ``min_refetch_seconds`` per issuer, so tokens naming random keys cannot make the server hammer
the provider. A failed fetch keeps the keys fetched before; with none, a token is refused as ``keys_unavailable``.

Every refusal is :class:`~service.errors.Unauthenticated` with its own ``code``; no message repeats the token or any
of its claims.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import logging
import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import httpx
import jwt

from service.errors import Unauthenticated

log = logging.getLogger(__name__)

MAX_TOKEN_CHARS = 8192
MAX_SUBJECT_CHARS = 255
MAX_KEY_SET_BYTES = 1 << 20  # a JSON Web Key Set larger than this is treated as unavailable
ALLOWED_ALGORITHMS = frozenset({"RS256", "RS384", "RS512", "ES256", "ES384", "PS256"})

_KEY_TYPES = {"RS": "RSA", "PS": "RSA", "ES": "EC"}  # an algorithm's prefix -> the `kty` of the keys it verifies with
_CURVES = {"ES256": "P-256", "ES384": "P-384"}
_FIELDS = ("issuer", "audiences", "jwks_url", "jwks_file", "algorithms")

# Time claims are checked against the injected clock (below); the signature, `iss` and `aud` by PyJWT. `sub` is checked
# here (PyJWT only checks that it is a string), `jti` is not used.
_DECODE_OPTIONS: Any = {
    "verify_signature": True,
    "verify_exp": False,
    "verify_nbf": False,
    "verify_iat": False,
    "verify_aud": True,
    "verify_iss": True,
    "verify_sub": False,
    "verify_jti": False,
    "require": [],
    "enforce_minimum_key_length": True,
}
_UNVERIFIED_OPTIONS: Any = {"verify_signature": False}


def _strings(value: Any, what: str) -> tuple[str, ...]:
    if isinstance(value, str) or not isinstance(value, (list, tuple)):
        raise ValueError(f"{what} must be a list of strings")
    if not all(isinstance(item, str) and item for item in value):
        raise ValueError(f"{what} must be non-empty strings")
    return tuple(value)


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _check_url(url: str) -> None:
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 -- raises ValueError on a malformed port
    except ValueError as error:
        raise ValueError(f"jwks_url is not a valid URL: {error}") from None
    if parts.scheme not in ("https", "http") or not parts.hostname:
        raise ValueError("jwks_url must be an https URL with a host")
    if parts.scheme == "http" and not _is_loopback(parts.hostname):
        raise ValueError("jwks_url may be plain http only on a loopback host (127.0.0.1, ::1, localhost); use https")


@dataclass(frozen=True)
class Issuer:
    """One identity provider the server trusts."""

    issuer: str  # the exact `iss` its tokens carry
    audiences: tuple[str, ...]  # `aud` values accepted (at least one must match)
    jwks_url: str = ""  # where its JSON Web Key Set is fetched (https, or http on loopback)
    jwks_file: str = ""  # or a file holding the key set (offline use); exactly one of the two
    algorithms: tuple[str, ...] = ("RS256", "ES256")  # asymmetric algorithms only

    def __post_init__(self) -> None:
        if not isinstance(self.issuer, str) or not self.issuer:
            raise ValueError("an identity provider needs its issuer: the exact `iss` its tokens carry")
        where = f"identity provider {self.issuer!r}"
        try:
            audiences = _strings(self.audiences, "audiences")
            algorithms = _strings(self.algorithms, "algorithms")
        except ValueError as error:
            raise ValueError(f"{where}: {error}") from None
        if not audiences:
            raise ValueError(f"{where}: needs at least one audience")
        if not algorithms:
            raise ValueError(f"{where}: needs at least one algorithm")
        refused = [name for name in algorithms if name not in ALLOWED_ALGORITHMS]
        if refused:
            raise ValueError(
                f"{where}: algorithm(s) {', '.join(map(repr, refused))} not allowed; only the asymmetric "
                f"{', '.join(sorted(ALLOWED_ALGORITHMS))} are"
            )
        object.__setattr__(self, "audiences", audiences)
        object.__setattr__(self, "algorithms", algorithms)
        if not isinstance(self.jwks_url, str) or not isinstance(self.jwks_file, str):
            raise ValueError(f"{where}: jwks_url and jwks_file must be strings")
        if bool(self.jwks_url) == bool(self.jwks_file):
            raise ValueError(f"{where}: give exactly one of jwks_url and jwks_file")
        if self.jwks_url:
            try:
                _check_url(self.jwks_url)
            except ValueError as error:
                raise ValueError(f"{where}: {error}") from None

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Issuer:
        """An issuer from its JSON object: ``issuer``, ``audiences`` (a list, or one string), ``jwks_url`` or
        ``jwks_file``, and optionally ``algorithms`` (a list, or one string)."""
        if not isinstance(data, Mapping):
            raise ValueError("an identity provider must be a JSON object")
        unknown = sorted(str(name) for name in data if name not in _FIELDS)
        if unknown:
            raise ValueError(
                f"identity provider: unknown field(s) {', '.join(unknown)}; the fields are {', '.join(_FIELDS)}"
            )
        issuer = data.get("issuer")
        if not isinstance(issuer, str) or not issuer:
            raise ValueError("identity provider: `issuer` (the exact `iss` of its tokens) must be a non-empty string")
        values: dict[str, Any] = {}
        for name in ("audiences", "algorithms"):
            value = data.get(name)
            if value is None:
                continue
            if isinstance(value, str):
                value = [value]
            if not isinstance(value, list):
                raise ValueError(f"identity provider {issuer!r}: `{name}` must be a string or a list of strings")
            values[name] = tuple(value)
        if "audiences" not in values:
            raise ValueError(f"identity provider {issuer!r}: `audiences` is missing")
        for name in ("jwks_url", "jwks_file"):
            value = data.get(name)
            if value is None:
                continue
            if not isinstance(value, str):
                raise ValueError(f"identity provider {issuer!r}: `{name}` must be a string")
            values[name] = value
        return cls(issuer=issuer, **values)


def issuers_from_json(text: str) -> tuple[Issuer, ...]:
    """The issuers of the KICKOFF_IDENTITY_PROVIDERS setting: a JSON list of issuer objects (blank: none)."""
    if not text.strip():
        return ()
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise ValueError(
            f"identity providers: not valid JSON ({error.msg} at line {error.lineno} column {error.colno})"
        ) from None
    if not isinstance(data, list):
        raise ValueError("identity providers: must be a JSON list of identity provider objects")
    issuers: list[Issuer] = []
    for number, item in enumerate(data, start=1):
        try:
            issuers.append(Issuer.from_json(item))
        except ValueError as error:
            raise ValueError(f"identity provider #{number}: {error}") from None
    _check_unique(issuers)
    return tuple(issuers)


def _check_unique(issuers: Sequence[Issuer]) -> None:
    seen: set[str] = set()
    for issuer in issuers:
        if issuer.issuer in seen:
            raise ValueError(f"identity provider {issuer.issuer!r} is given twice")
        seen.add(issuer.issuer)


@dataclass(frozen=True)
class ExternalIdentity:
    """Who a verified token says the player is: the provider's ``iss`` and its ``sub`` for them."""

    issuer: str
    subject: str


class _Unavailable(Exception):
    """A key set that cannot be read now (why, for the log: it names no token)."""


class _Key:
    """One usable key of a key set, and its PyJWK bound to each algorithm it was used with."""

    __slots__ = ("_bound", "_data", "alg", "crv", "kid", "kty")

    def __init__(self, data: dict[str, Any], key: jwt.PyJWK) -> None:
        self._data = data
        self.kid: str | None = data.get("kid")
        self.kty: str = data["kty"]
        self.alg: str | None = data.get("alg")
        self.crv: str | None = data.get("crv")
        self._bound = {key.algorithm_name: key}

    def for_algorithm(self, algorithm: str) -> jwt.PyJWK | None:
        """This key as a PyJWK verifying ``algorithm``, or None when it cannot (another key type or curve, or the key
        set names another algorithm for it)."""
        if self.alg is not None and self.alg != algorithm:
            return None
        if _KEY_TYPES.get(algorithm[:2]) != self.kty or (self.kty == "EC" and _CURVES.get(algorithm) != self.crv):
            return None
        bound = self._bound.get(algorithm)
        if bound is None:
            try:
                bound = jwt.PyJWK(self._data, algorithm)
            except jwt.PyJWTError:
                return None
            self._bound[algorithm] = bound
        return bound


class _KeySet:
    __slots__ = ("keys",)

    def __init__(self, keys: list[_Key]) -> None:
        self.keys = keys

    def with_kid(self, kid: str | None) -> list[_Key]:
        """The keys a token's ``kid`` names; without one, the only key (none if the set holds several)."""
        if kid is None:
            return list(self.keys) if len(self.keys) == 1 else []
        return [key for key in self.keys if key.kid == kid]


def _usable(data: Any) -> jwt.PyJWK | None:
    """The PyJWK of a key set's member, or None for one to skip: not an object, an encryption key, a private key, a
    symmetric or unknown key type, one PyJWT cannot build, or an RSA key under 2048 bits."""
    if not isinstance(data, dict) or data.get("kty") not in ("RSA", "EC"):
        return None
    if data.get("use", "sig") != "sig" or "d" in data:
        return None
    operations = data.get("key_ops")
    if operations is not None and (not isinstance(operations, list) or "verify" not in operations):
        return None
    if not isinstance(data.get("kid", ""), str) or not isinstance(data.get("alg", ""), str):
        return None
    try:
        key = jwt.PyJWK(data)
    except jwt.PyJWTError:
        return None
    if key.Algorithm.check_key_length(key.key) is not None:
        return None
    return key


def _parse_key_set(body: bytes) -> _KeySet:
    try:
        document = json.loads(body)
    except (ValueError, RecursionError):
        raise _Unavailable("is not JSON") from None
    if not isinstance(document, dict) or not isinstance(document.get("keys"), list):
        raise _Unavailable('is not a JSON Web Key Set (no "keys" list)')
    keys = []
    for data in document["keys"]:
        key = _usable(data)
        if key is not None:
            keys.append(_Key(data, key))
    if not keys:
        raise _Unavailable("holds no usable signing key")
    return _KeySet(keys)


def _read_file(path: str) -> bytes:
    try:
        with open(path, "rb") as file:
            body = file.read(MAX_KEY_SET_BYTES + 1)
    except OSError as error:
        raise _Unavailable(f"cannot be read: {error.strerror or error}") from None
    if len(body) > MAX_KEY_SET_BYTES:
        raise _Unavailable("is larger than 1 MiB")
    return body


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    number = float(value)
    return number if math.isfinite(number) else None


class _Provider:
    """One issuer's key set as cached: when it was fetched, when a fetch last failed (none is tried again for
    min_refetch_seconds), and when an unknown ``kid`` last fetched it again."""

    __slots__ = ("failed_at", "fetched_at", "issuer", "keys", "lock", "refetched_at")

    def __init__(self, issuer: Issuer) -> None:
        self.issuer = issuer
        self.lock = asyncio.Lock()  # one fetch at a time; concurrent verifies wait for it
        self.keys: _KeySet | None = None
        self.fetched_at = 0.0
        self.failed_at: float | None = None
        self.refetched_at: float | None = None


def _refused(message: str, code: str) -> Unauthenticated:
    return Unauthenticated(message, code=code)


def _malformed() -> Unauthenticated:
    return _refused("the token is not a well-formed JWT (compact JWS)", "token_malformed")


class ExternalTokens:
    """Verifies external identity providers' tokens against the issuers configured."""

    def __init__(
        self,
        issuers: Sequence[Issuer],
        *,
        leeway: float = 60.0,
        clock: Callable[[], float] = time.time,
        refresh_seconds: float = 3600.0,
        min_refetch_seconds: float = 60.0,
        fetch_timeout: float = 5.0,
    ) -> None:
        if leeway < 0 or min_refetch_seconds < 0:
            raise ValueError("leeway and min_refetch_seconds must not be negative")
        if refresh_seconds <= 0 or fetch_timeout <= 0:
            raise ValueError("refresh_seconds and fetch_timeout must be positive")
        if not all(isinstance(issuer, Issuer) for issuer in issuers):
            raise TypeError("issuers must be Issuer objects")
        _check_unique(issuers)
        self._providers = {issuer.issuer: _Provider(issuer) for issuer in issuers}
        self._leeway = float(leeway)
        self._clock = clock
        self._refresh_seconds = float(refresh_seconds)
        self._min_refetch_seconds = float(min_refetch_seconds)
        self._fetch_timeout = float(fetch_timeout)
        self._client: httpx.AsyncClient | None = None

    @property
    def configured(self) -> bool:
        """Whether any identity provider is trusted at all."""
        return bool(self._providers)

    async def close(self) -> None:
        """Releases the HTTP client (a later verify opens another)."""
        client, self._client = self._client, None
        if client is not None:
            await client.aclose()

    async def verify(self, token: str) -> ExternalIdentity:
        """The identity a token proves, or :class:`Unauthenticated` saying why it proves none."""
        header, unverified = self._unverified(token)
        iss = unverified.get("iss")
        provider = self._providers.get(iss) if isinstance(iss, str) else None
        if provider is None:
            raise _refused("the token's issuer is not an identity provider this server trusts", "unknown_issuer")
        issuer = provider.issuer
        algorithm = header.get("alg")
        if not isinstance(algorithm, str) or algorithm not in issuer.algorithms:
            raise _refused("the token's signing algorithm is not one its identity provider may use", "bad_algorithm")
        key = await self._key(provider, header.get("kid"), algorithm)
        try:
            claims = jwt.decode(
                token,
                key,
                algorithms=list(issuer.algorithms),
                audience=list(issuer.audiences),
                issuer=issuer.issuer,
                options=_DECODE_OPTIONS,
            )
        except jwt.InvalidSignatureError:
            raise _refused("the token's signature does not verify", "bad_signature") from None
        except jwt.InvalidAlgorithmError:
            raise _refused("the token's signing algorithm does not fit its key", "bad_algorithm") from None
        except jwt.InvalidKeyError:
            raise _refused("the token's key cannot verify it", "unknown_key") from None
        except (jwt.InvalidAudienceError, jwt.InvalidIssuerError, jwt.MissingRequiredClaimError) as error:
            if isinstance(error, jwt.InvalidIssuerError) or getattr(error, "claim", "") == "iss":
                raise _refused("the token's issuer does not match its identity provider", "bad_issuer") from None
            raise _refused("the token is not meant for this server (audience)", "bad_audience") from None
        except jwt.PyJWTError:
            raise _malformed() from None
        self._check_times(claims)
        subject = claims.get("sub")
        if not isinstance(subject, str) or not subject or len(subject) > MAX_SUBJECT_CHARS:
            raise _refused(
                f"the token's subject (sub) must be a string of 1 to {MAX_SUBJECT_CHARS} characters", "bad_subject"
            )
        return ExternalIdentity(issuer=issuer.issuer, subject=subject)

    @staticmethod
    def _unverified(token: str) -> tuple[dict[str, Any], dict[str, Any]]:
        """The header and the claims, unverified: only to pick the issuer, its key and algorithm."""
        if not isinstance(token, str) or len(token) > MAX_TOKEN_CHARS or not token.isascii() or token.count(".") != 2:
            raise _malformed()
        try:
            header = jwt.get_unverified_header(token)
            claims = jwt.decode(token, options=_UNVERIFIED_OPTIONS)
        except (jwt.PyJWTError, ValueError):
            raise _malformed() from None
        return header, claims

    def _check_times(self, claims: Mapping[str, Any]) -> None:
        now = self._clock()
        expires = _number(claims.get("exp"))
        if expires is None or expires <= now - self._leeway:
            raise _refused("the token has expired (or carries no valid exp)", "token_expired")
        if "nbf" in claims:
            not_before = _number(claims["nbf"])
            if not_before is None or not_before > now + self._leeway:
                raise _refused("the token is not valid yet (nbf)", "token_not_yet_valid")
        issued = _number(claims.get("iat"))
        if issued is None or issued > now + self._leeway:
            raise _refused("the token's issue time (iat) is missing or in the future", "bad_issued_at")

    async def _key(self, provider: _Provider, kid: str | None, algorithm: str) -> jwt.PyJWK:
        keys = await self._current_keys(provider)
        candidates = keys.with_kid(kid)
        if not candidates and kid is not None:
            keys = await self._refetch(provider, kid)
            candidates = keys.with_kid(kid)
        if not candidates:
            message = "the token names no key" if kid is None else "the token's key is not in its provider's key set"
            raise _refused(message, "unknown_key")
        for candidate in candidates:
            key = candidate.for_algorithm(algorithm)
            if key is not None:
                return key
        raise _refused("the token's signing algorithm does not fit its key", "bad_algorithm")

    def _stale(self, provider: _Provider) -> bool:
        return provider.keys is None or self._clock() - provider.fetched_at >= self._refresh_seconds

    def _recent(self, moment: float | None) -> bool:
        """Whether ``moment`` is less than min_refetch_seconds ago."""
        return moment is not None and self._clock() - moment < self._min_refetch_seconds

    async def _current_keys(self, provider: _Provider) -> _KeySet:
        """The issuer's key set: the cached one, fetched again once it is refresh_seconds old (kept when that
        fails)."""
        if provider.keys is not None and not self._stale(provider):
            return provider.keys
        async with provider.lock:  # concurrent verifies wait for one fetch
            if self._stale(provider) and not self._recent(provider.failed_at):
                await self._load(provider)
            if provider.keys is None:
                assert provider.failed_at is not None
                wait = self._min_refetch_seconds - (self._clock() - provider.failed_at)
                raise Unauthenticated(
                    "the identity provider's keys cannot be read now",
                    code="keys_unavailable",
                    retry_after=max(wait, 1.0),
                )
            return provider.keys

    async def _refetch(self, provider: _Provider, kid: str) -> _KeySet:
        """The key set once more for a ``kid`` the cached one lacks (the provider may have rotated its keys): fetched
        again at most once per min_refetch_seconds, and not while fetching fails."""
        async with provider.lock:
            keys = provider.keys
            if keys is not None and keys.with_kid(kid):  # another verify fetched it meanwhile
                return keys
            if not self._recent(provider.refetched_at) and not self._recent(provider.failed_at):
                provider.refetched_at = self._clock()
                await self._load(provider)
            assert provider.keys is not None  # _current_keys had one, and a failed fetch keeps it
            return provider.keys

    async def _load(self, provider: _Provider) -> None:
        issuer = provider.issuer
        try:
            if issuer.jwks_file:
                body = await asyncio.to_thread(_read_file, issuer.jwks_file)
            else:
                body = await self._fetch(issuer.jwks_url)
            keys = _parse_key_set(body)
        except _Unavailable as error:
            kept = "keeping the keys read before" if provider.keys is not None else "no keys to use"
            log.warning("identity provider %r: its key set %s; %s", issuer.issuer, error, kept)
            provider.failed_at = self._clock()
            return
        provider.keys = keys
        provider.fetched_at = self._clock()
        provider.failed_at = None

    async def _fetch(self, url: str) -> bytes:
        if self._client is None:
            self._client = httpx.AsyncClient(timeout=self._fetch_timeout, follow_redirects=False)
        client = self._client
        try:
            async with asyncio.timeout(self._fetch_timeout):  # the whole exchange, not each read
                async with client.stream(
                    "GET", url, headers={"Accept": "application/json", "Accept-Encoding": "identity"}
                ) as response:
                    if response.status_code != 200:
                        raise _Unavailable(f"cannot be fetched: HTTP {response.status_code}")
                    length = response.headers.get("content-length", "")
                    if length.isdigit() and int(length) > MAX_KEY_SET_BYTES:
                        raise _Unavailable("is larger than 1 MiB")
                    body = bytearray()
                    async for chunk in response.aiter_bytes():
                        body += chunk
                        if len(body) > MAX_KEY_SET_BYTES:
                            raise _Unavailable("is larger than 1 MiB")
                    return bytes(body)
        except (httpx.HTTPError, OSError, TimeoutError) as error:
            raise _Unavailable(f"cannot be fetched: {type(error).__name__}") from None
