"""service/players/identity.py: external identity providers' tokens, verified against key sets served on loopback (a
tiny HTTP responder counting its requests) or read from a file, with the clock injected."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import json
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import jwt
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from jwt.algorithms import ECAlgorithm, RSAAlgorithm

from service.errors import Unauthenticated
from service.players.identity import ExternalIdentity, ExternalTokens, Issuer, issuers_from_json

ISS = "https://id.example.com/"
AUD = "kickoff-game"
SUBJECT = "player-42"
NOW = 1_800_000_000.0

# Key generation once for the module (RSA takes tens of milliseconds).
RSA_A = rsa.generate_private_key(public_exponent=65537, key_size=2048)
RSA_B = rsa.generate_private_key(public_exponent=65537, key_size=2048)
EC_A = ec.generate_private_key(ec.SECP256R1())
EC_384 = ec.generate_private_key(ec.SECP384R1())


def jwk(private_key: Any, kid: str | None, **extra: Any) -> dict[str, Any]:
    """The public JWK of a private key, with its ``kid`` and ``use: sig`` (and any ``extra`` members)."""
    public = private_key.public_key()
    algorithm = RSAAlgorithm if isinstance(public, rsa.RSAPublicKey) else ECAlgorithm
    data = algorithm.to_jwk(public, as_dict=True)
    data["use"] = "sig"
    if kid is not None:
        data["kid"] = kid
    return {**data, **extra}


def key_set(*keys: dict[str, Any]) -> dict[str, Any]:
    return {"keys": list(keys)}


STANDARD_KEYS = key_set(jwk(RSA_A, "rsa-1"), jwk(EC_A, "ec-1"))


def claims(**changes: Any) -> dict[str, Any]:
    """Valid claims, changed: a claim given None is left out."""
    payload = {"iss": ISS, "aud": AUD, "sub": SUBJECT, "iat": int(NOW), "exp": int(NOW) + 3600}
    payload.update(changes)
    return {name: value for name, value in payload.items() if value is not None}


def token(key: Any = RSA_A, kid: str | None = "rsa-1", algorithm: str = "RS256", **changes: Any) -> str:
    return jwt.encode(claims(**changes), key, algorithm=algorithm, headers={"kid": kid} if kid is not None else None)


def ec_token(**changes: Any) -> str:
    return token(EC_A, "ec-1", "ES256", **changes)


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def hs256_signed_with_public_pem() -> str:
    """The classic confusion attack: HS256 keyed with the RSA public key's PEM (PyJWT refuses to sign this)."""
    secret = RSA_A.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    signing_input = b64(json.dumps({"alg": "HS256", "typ": "JWT", "kid": "rsa-1"}).encode())
    signing_input += "." + b64(json.dumps(claims()).encode())
    signature = hmac.new(secret, signing_input.encode(), hashlib.sha256).digest()
    return f"{signing_input}.{b64(signature)}"


def tampered() -> str:
    """A valid token's signature on another payload (a different subject)."""
    header, _, signature = token().split(".")
    payload = token(sub="someone-else").split(".")[1]
    return f"{header}.{payload}.{signature}"


class Clock:
    def __init__(self) -> None:
        self.now = NOW

    def __call__(self) -> float:
        return self.now


class JwksServer:
    """A key set over plain HTTP on 127.0.0.1 (port 0), counting the requests it answers."""

    def __init__(self) -> None:
        self.document: Any = STANDARD_KEYS
        self.body: bytes | None = None  # sent instead of the document when set
        self.status = 200
        self.declare_length = True  # else the body ends when the connection closes
        self.requests = 0
        self.url = ""
        self._server: asyncio.Server | None = None

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._answer, "127.0.0.1", 0)
        port = self._server.sockets[0].getsockname()[1]
        self.url = f"http://127.0.0.1:{port}/.well-known/jwks.json"

    async def stop(self) -> None:
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()
            self._server = None

    async def _answer(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            await reader.readuntil(b"\r\n\r\n")
            self.requests += 1
            body = self.body if self.body is not None else json.dumps(self.document).encode()
            length = f"Content-Length: {len(body)}\r\n" if self.declare_length else ""
            head = f"HTTP/1.1 {self.status} Whatever\r\n{length}Connection: close\r\n\r\n"
            writer.write(head.encode() + body)
            await writer.drain()
        except (ConnectionError, asyncio.IncompleteReadError):
            pass
        finally:
            writer.close()


@pytest.fixture(autouse=True)
def no_proxies(monkeypatch: pytest.MonkeyPatch) -> None:
    """httpx honours proxy settings from the environment; the loopback key sets must be reached directly."""
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
async def server() -> AsyncIterator[JwksServer]:
    server = JwksServer()
    await server.start()
    yield server
    await server.stop()


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def make() -> AsyncIterator[Callable[..., ExternalTokens]]:
    """Builds ExternalTokens (closed at the end of the test)."""
    made: list[ExternalTokens] = []

    def build(*issuers: Issuer, **options: Any) -> ExternalTokens:
        tokens = ExternalTokens(issuers, **options)
        made.append(tokens)
        return tokens

    yield build
    for tokens in made:
        await tokens.close()


@pytest.fixture
def tokens(server: JwksServer, clock: Clock, make: Callable[..., ExternalTokens]) -> ExternalTokens:
    """Verifies against the loopback key set (RS256 and ES256 allowed), on the injected clock."""
    return make(Issuer(ISS, (AUD,), jwks_url=server.url), clock=clock)


async def refused(tokens: ExternalTokens, sent: str) -> Unauthenticated:
    """The refusal of ``sent``, checked not to repeat the token or its claims."""
    with pytest.raises(Unauthenticated) as caught:
        await tokens.verify(sent)
    message = str(caught.value)
    for echoed in (sent, SUBJECT, "someone-else", ISS, "evil.example", AUD):
        assert not echoed or echoed not in message
    return caught.value


# --- accepted -----------------------------------------------------------------------------------------------------


async def test_an_rs256_token_verifies_against_a_jwks_url(tokens: ExternalTokens, server: JwksServer) -> None:
    assert tokens.configured
    assert await tokens.verify(token()) == ExternalIdentity(issuer=ISS, subject=SUBJECT)
    assert server.requests == 1


async def test_an_es256_token_verifies_against_a_jwks_url(tokens: ExternalTokens) -> None:
    assert await tokens.verify(ec_token()) == ExternalIdentity(issuer=ISS, subject=SUBJECT)


@pytest.mark.parametrize("make_token", [token, ec_token], ids=["RS256", "ES256"])
async def test_tokens_verify_against_a_jwks_file(
    make_token: Callable[[], str], tmp_path: Path, clock: Clock, make: Callable[..., ExternalTokens]
) -> None:
    path = tmp_path / "jwks.json"
    path.write_text(json.dumps(STANDARD_KEYS))
    tokens = make(Issuer(ISS, (AUD,), jwks_file=str(path)), clock=clock)
    assert await tokens.verify(make_token()) == ExternalIdentity(issuer=ISS, subject=SUBJECT)


async def test_ps256_verifies_with_an_rsa_key_that_names_no_algorithm(
    server: JwksServer, clock: Clock, make: Callable[..., ExternalTokens]
) -> None:
    tokens = make(Issuer(ISS, (AUD,), jwks_url=server.url, algorithms=("PS256",)), clock=clock)
    assert (await tokens.verify(token(algorithm="PS256"))).subject == SUBJECT
    error = await refused(tokens, token())  # RS256: not allowed for this issuer
    assert error.code == "bad_algorithm"


async def test_one_matching_audience_is_enough(
    server: JwksServer, clock: Clock, make: Callable[..., ExternalTokens]
) -> None:
    tokens = make(Issuer(ISS, ("web", AUD), jwks_url=server.url), clock=clock)
    assert (await tokens.verify(token(aud=["someone-else", AUD]))).subject == SUBJECT
    assert (await tokens.verify(token(aud="web"))).subject == SUBJECT


async def test_the_issuer_is_picked_by_iss(
    server: JwksServer, clock: Clock, make: Callable[..., ExternalTokens]
) -> None:
    other = "https://other.example.org"
    tokens = make(
        Issuer(other, ("other-app",), jwks_url=server.url), Issuer(ISS, (AUD,), jwks_url=server.url), clock=clock
    )
    assert await tokens.verify(token(iss=other, aud="other-app")) == ExternalIdentity(issuer=other, subject=SUBJECT)
    assert await tokens.verify(token()) == ExternalIdentity(issuer=ISS, subject=SUBJECT)
    assert (await refused(tokens, token(iss=other))).code == "bad_audience"  # each issuer has its own audiences


async def test_a_token_without_kid_uses_the_only_key(
    server: JwksServer, tokens: ExternalTokens, clock: Clock, make: Callable[..., ExternalTokens]
) -> None:
    assert (await refused(tokens, token(kid=None))).code == "unknown_key"  # two keys: which one?
    server.document = key_set(jwk(RSA_A, None))
    single = make(Issuer(ISS, (AUD,), jwks_url=server.url), clock=clock)
    assert (await single.verify(token(kid=None))).subject == SUBJECT


async def test_times_within_the_leeway_are_accepted(tokens: ExternalTokens) -> None:
    for changes in ({"exp": int(NOW) - 30}, {"nbf": int(NOW) + 30}, {"iat": int(NOW) + 30}):
        assert (await tokens.verify(token(**changes))).subject == SUBJECT


async def test_a_subject_of_255_characters_is_accepted(tokens: ExternalTokens) -> None:
    assert (await tokens.verify(token(sub="s" * 255))).subject == "s" * 255


# --- refused ------------------------------------------------------------------------------------------------------


REFUSALS: dict[str, tuple[Callable[[], str], str]] = {
    "forged signature (another key, same kid)": (lambda: token(RSA_B), "bad_signature"),
    "forged ES256 signature": (
        lambda: token(ec.generate_private_key(ec.SECP256R1()), "ec-1", "ES256"),
        "bad_signature",
    ),
    "payload swapped under a signature": (tampered, "bad_signature"),
    "the wrong audience": (lambda: token(aud="someone-else"), "bad_audience"),
    "no audience": (lambda: token(aud=None), "bad_audience"),
    "an audience of the wrong type": (lambda: token(aud=7), "bad_audience"),
    "an unknown issuer": (lambda: token(iss="https://evil.example/"), "unknown_issuer"),
    "the issuer spelled slightly differently": (lambda: token(iss=ISS.rstrip("/")), "unknown_issuer"),
    "no issuer": (lambda: token(iss=None), "unknown_issuer"),
    "alg none": (lambda: jwt.encode(claims(), None, algorithm="none", headers={"kid": "rsa-1"}), "bad_algorithm"),
    "alg none, crafted": (lambda: b64(b'{"alg":"none"}') + "." + token().split(".")[1] + ".", "bad_algorithm"),
    "HS256 keyed with the public key's PEM": (hs256_signed_with_public_pem, "bad_algorithm"),
    "RS384, not among the issuer's algorithms": (lambda: token(algorithm="RS384"), "bad_algorithm"),
    "ES256 naming an RSA key": (lambda: token(EC_A, "rsa-1", "ES256"), "bad_algorithm"),
    "RS256 naming an EC key": (lambda: token(RSA_A, "ec-1", "RS256"), "bad_algorithm"),
    "an unknown kid": (lambda: token(kid="no-such-key"), "unknown_key"),
    "no kid while the set holds two keys": (lambda: token(kid=None), "unknown_key"),
    "no subject": (lambda: token(sub=None), "bad_subject"),
    "an empty subject": (lambda: token(sub=""), "bad_subject"),
    "a subject of 256 characters": (lambda: token(sub="s" * 256), "bad_subject"),
    "a numeric subject": (lambda: token(sub=42), "bad_subject"),
    "expired beyond the leeway": (lambda: token(exp=int(NOW) - 61), "token_expired"),
    "no exp": (lambda: token(exp=None), "token_expired"),
    "an exp that is not a number": (lambda: token(exp="tomorrow"), "token_expired"),
    "an infinite exp": (lambda: token(exp=float("inf")), "token_expired"),
    "nbf beyond the leeway": (lambda: token(nbf=int(NOW) + 61), "token_not_yet_valid"),
    "an nbf that is not a number": (lambda: token(nbf="soon"), "token_not_yet_valid"),
    "no iat": (lambda: token(iat=None), "bad_issued_at"),
    "iat in the future": (lambda: token(iat=int(NOW) + 3600), "bad_issued_at"),
    "not a JWT": (lambda: "not-a-token", "token_malformed"),
    "empty": (lambda: "", "token_malformed"),
    "three segments of garbage": (lambda: "a.b.c", "token_malformed"),
    "five segments (JWE)": (lambda: token() + ".x.y", "token_malformed"),
    "a header that is not JSON": (lambda: b64(b"{nope") + "." + token().split(".", 1)[1], "token_malformed"),
    "a payload that is not an object": (lambda: token().split(".")[0] + "." + b64(b"[1]") + ".sig", "token_malformed"),
    "not ASCII": (lambda: token() + "é", "token_malformed"),
    "longer than 8192 characters": (lambda: token(pad="x" * 8200), "token_malformed"),
}


@pytest.mark.parametrize("case", list(REFUSALS))
async def test_each_refusal_has_its_own_reason(case: str, tokens: ExternalTokens) -> None:
    make_token, code = REFUSALS[case]
    error = await refused(tokens, make_token())
    assert error.code == code


async def test_a_token_expires_as_the_clock_moves(tokens: ExternalTokens, clock: Clock) -> None:
    sent = token()
    assert (await tokens.verify(sent)).subject == SUBJECT
    clock.now = NOW + 3600 + 59  # within the leeway
    assert (await tokens.verify(sent)).subject == SUBJECT
    clock.now = NOW + 3600 + 61
    assert (await refused(tokens, sent)).code == "token_expired"


async def test_a_token_becomes_valid_as_the_clock_moves(tokens: ExternalTokens, clock: Clock) -> None:
    sent = token(nbf=int(NOW) + 600, iat=int(NOW) + 600)
    assert (await refused(tokens, sent)).code == "token_not_yet_valid"
    clock.now = NOW + 600
    assert (await tokens.verify(sent)).subject == SUBJECT


async def test_the_leeway_is_configurable(
    server: JwksServer, clock: Clock, make: Callable[..., ExternalTokens]
) -> None:
    strict = make(Issuer(ISS, (AUD,), jwks_url=server.url), clock=clock, leeway=0)
    assert (await refused(strict, token(exp=int(NOW) - 1))).code == "token_expired"
    assert (await refused(strict, token(iat=int(NOW) + 1))).code == "bad_issued_at"


async def test_nothing_configured_trusts_no_token(make: Callable[..., ExternalTokens]) -> None:
    tokens = make()
    assert not tokens.configured
    assert (await refused(tokens, token())).code == "unknown_issuer"


# --- key sets -----------------------------------------------------------------------------------------------------


async def test_a_rotated_key_is_found_by_one_refetch(tokens: ExternalTokens, server: JwksServer) -> None:
    assert (await tokens.verify(token())).subject == SUBJECT
    assert server.requests == 1
    server.document = key_set(jwk(RSA_A, "rsa-1"), jwk(RSA_B, "rsa-2"))  # the provider rotates in a new key
    assert (await tokens.verify(token(RSA_B, "rsa-2"))).subject == SUBJECT
    assert server.requests == 2
    assert (await tokens.verify(token(RSA_B, "rsa-2"))).subject == SUBJECT
    assert (await tokens.verify(token())).subject == SUBJECT
    assert server.requests == 2


async def test_unknown_kids_refetch_at_most_once_per_min_refetch_seconds(
    tokens: ExternalTokens, server: JwksServer, clock: Clock
) -> None:
    for number in range(25):
        assert (await refused(tokens, token(kid=f"random-{number}"))).code == "unknown_key"
    assert server.requests == 2  # the first fetch, and one refetch for the first unknown kid
    assert (await tokens.verify(token())).subject == SUBJECT
    clock.now += 59
    assert (await refused(tokens, token(kid="random-x"))).code == "unknown_key"
    assert server.requests == 2
    clock.now += 1  # min_refetch_seconds (60) after the refetch
    await asyncio.gather(*(refused(tokens, token(kid=f"again-{number}")) for number in range(10)))
    assert server.requests == 3
    assert (await tokens.verify(token())).subject == SUBJECT


async def test_concurrent_verifies_share_one_fetch(tokens: ExternalTokens, server: JwksServer) -> None:
    identities = await asyncio.gather(*(tokens.verify(token() if n % 2 else ec_token()) for n in range(20)))
    assert {identity.subject for identity in identities} == {SUBJECT}
    assert server.requests == 1


async def test_keys_are_fetched_again_after_refresh_seconds(
    tokens: ExternalTokens, server: JwksServer, clock: Clock
) -> None:
    assert (await tokens.verify(token(exp=int(NOW) + 86400))).subject == SUBJECT
    clock.now += 3599
    assert (await tokens.verify(token(exp=int(NOW) + 86400))).subject == SUBJECT
    assert server.requests == 1
    server.document = key_set(jwk(EC_A, "ec-1"))  # the provider withdrew its RSA key
    clock.now += 1
    assert (await refused(tokens, token(exp=int(NOW) + 86400))).code == "unknown_key"
    assert server.requests == 3  # the refresh, and one refetch for the kid it no longer holds
    assert (await refused(tokens, token(exp=int(NOW) + 86400))).code == "unknown_key"
    assert server.requests == 3
    assert (await tokens.verify(ec_token(exp=int(NOW) + 86400))).subject == SUBJECT


@pytest.mark.parametrize(
    "failure",
    [
        "HTTP 503",
        "connection refused",
        "not JSON",
        "no keys member",
        "larger than 1 MiB",
        "larger than 1 MiB, length undeclared",
        "only unusable keys",
    ],
)
async def test_keys_unavailable_when_the_url_fails_and_nothing_is_cached(
    failure: str, tokens: ExternalTokens, server: JwksServer, clock: Clock
) -> None:
    if failure == "HTTP 503":
        server.status = 503
    elif failure == "connection refused":
        await server.stop()
    elif failure == "not JSON":
        server.body = b"<html>maintenance</html>"
    elif failure == "no keys member":
        server.document = {"keys_": []}
    elif failure.startswith("larger than 1 MiB"):
        server.document = {"keys": [jwk(RSA_A, "rsa-1")], "padding": "x" * (1 << 20)}
        server.declare_length = failure == "larger than 1 MiB"
    else:
        server.document = key_set({"kty": "oct", "k": b64(b"secret" * 8), "kid": "rsa-1"}, {"kty": "nope"})
    error = await refused(tokens, token())
    assert error.code == "keys_unavailable"
    assert str(error) == "the identity provider's keys cannot be read now"
    assert error.retry_after is not None and error.retry_after > 0
    requests = server.requests
    assert (await refused(tokens, ec_token())).code == "keys_unavailable"  # not fetched again this soon
    assert server.requests == requests
    if failure == "connection refused":
        return
    server.status, server.body, server.document, server.declare_length = 200, None, STANDARD_KEYS, True  # back
    clock.now += 60
    assert (await tokens.verify(token())).subject == SUBJECT
    assert server.requests == requests + 1


async def test_cached_keys_are_used_when_the_url_goes_down_later(
    tokens: ExternalTokens, server: JwksServer, clock: Clock
) -> None:
    assert (await tokens.verify(token(exp=int(NOW) + 86400))).subject == SUBJECT
    server.status = 500
    clock.now += 3600  # the keys are due a refresh, which fails
    assert (await tokens.verify(token(exp=int(NOW) + 86400))).subject == SUBJECT
    assert server.requests == 2
    await server.stop()
    clock.now += 3600
    assert (await tokens.verify(ec_token(exp=int(NOW) + 86400))).subject == SUBJECT
    assert (await refused(tokens, token(kid="new-key", exp=int(NOW) + 86400))).code == "unknown_key"


@pytest.mark.filterwarnings("ignore::jwt.InsecureKeyLengthWarning")  # signing with the 1024-bit key
async def test_unusable_keys_are_skipped(server: JwksServer, tokens: ExternalTokens) -> None:
    weak = rsa.generate_private_key(public_exponent=65537, key_size=1024)
    server.document = {
        "keys": [
            "not an object",
            {"kty": "oct", "k": b64(b"secret" * 8), "kid": "oct-1"},
            {"kty": "OKP", "crv": "X25519", "x": b64(b"x" * 32), "kid": "okp-1"},
            {"kty": "what", "kid": "what-1"},
            {"kty": "RSA", "kid": "broken-1", "n": "???", "e": "AQAB"},
            jwk(RSA_A, "enc-1", use="enc"),
            jwk(RSA_A, "ops-1", key_ops=["encrypt"]),
            jwk(RSA_A, "oaep-1", alg="RSA-OAEP"),
            jwk(weak, "weak-1"),
            {**jwk(RSA_B, "private-1"), "d": "AQAB"},
            jwk(RSA_A, "rsa-1"),
        ]
    }
    assert (await tokens.verify(token())).subject == SUBJECT
    for kid, key in (("enc-1", RSA_A), ("ops-1", RSA_A), ("oaep-1", RSA_A), ("weak-1", weak), ("private-1", RSA_B)):
        assert (await refused(tokens, token(key, kid))).code == "unknown_key"


async def test_a_key_naming_its_algorithm_verifies_only_that_one(
    server: JwksServer, clock: Clock, make: Callable[..., ExternalTokens]
) -> None:
    server.document = key_set(jwk(RSA_A, "rsa-1", alg="RS256"), jwk(EC_384, "ec-384"))
    tokens = make(Issuer(ISS, (AUD,), jwks_url=server.url, algorithms=("RS256", "PS256", "ES256")), clock=clock)
    assert (await tokens.verify(token())).subject == SUBJECT
    assert (await refused(tokens, token(algorithm="PS256"))).code == "bad_algorithm"
    header = b64(json.dumps({"alg": "ES256", "kid": "ec-384"}).encode())  # PyJWT will not sign this with P-384
    assert (
        await refused(tokens, f"{header}.{b64(json.dumps(claims()).encode())}.{b64(b'sig')}")
    ).code == "bad_algorithm"


async def test_a_jwks_file_is_read_again_for_a_new_kid_and_after_refresh_seconds(
    tmp_path: Path, clock: Clock, make: Callable[..., ExternalTokens]
) -> None:
    path = tmp_path / "jwks.json"
    path.write_text(json.dumps(key_set(jwk(RSA_A, "rsa-1"))))
    tokens = make(Issuer(ISS, (AUD,), jwks_file=str(path)), clock=clock)
    assert (await tokens.verify(token(exp=int(NOW) + 86400))).subject == SUBJECT
    path.write_text(json.dumps(key_set(jwk(RSA_B, "rsa-2"))))
    assert (await tokens.verify(token(RSA_B, "rsa-2", exp=int(NOW) + 86400))).subject == SUBJECT
    assert (await refused(tokens, token(exp=int(NOW) + 86400))).code == "unknown_key"  # rsa-1 is gone
    path.write_text(json.dumps(key_set(jwk(EC_A, "ec-1"))))
    clock.now += 3600
    assert (await tokens.verify(ec_token(exp=int(NOW) + 86400))).subject == SUBJECT
    path.unlink()  # the file goes away: the keys read before stay in use
    clock.now += 3600
    assert (await tokens.verify(ec_token(exp=int(NOW) + 86400))).subject == SUBJECT


async def test_a_missing_jwks_file_is_keys_unavailable(
    tmp_path: Path, clock: Clock, make: Callable[..., ExternalTokens]
) -> None:
    tokens = make(Issuer(ISS, (AUD,), jwks_file=str(tmp_path / "absent.json")), clock=clock)
    assert (await refused(tokens, token())).code == "keys_unavailable"


async def test_close_releases_the_client_and_verify_still_works_after(
    tokens: ExternalTokens, server: JwksServer, clock: Clock
) -> None:
    assert (await tokens.verify(token())).subject == SUBJECT
    await tokens.close()
    await tokens.close()
    clock.now += 3600  # a refresh opens another client
    assert (await tokens.verify(token(exp=int(NOW) + 86400))).subject == SUBJECT
    assert server.requests == 2


# --- configuration ------------------------------------------------------------------------------------------------


def test_issuer_from_json_reads_every_field() -> None:
    issuer = Issuer.from_json(
        {
            "issuer": ISS,
            "audiences": [AUD, "web"],
            "jwks_url": "https://id.example.com/.well-known/jwks.json",
            "algorithms": ["ES256", "PS256"],
        }
    )
    assert issuer == Issuer(
        ISS, (AUD, "web"), jwks_url="https://id.example.com/.well-known/jwks.json", algorithms=("ES256", "PS256")
    )
    single = Issuer.from_json({"issuer": ISS, "audiences": AUD, "jwks_file": "/etc/kickoff/jwks.json"})
    assert single.audiences == (AUD,)
    assert single.algorithms == ("RS256", "ES256")
    assert single.jwks_file == "/etc/kickoff/jwks.json"


GOOD = {"issuer": ISS, "audiences": [AUD], "jwks_url": "https://id.example.com/jwks"}


@pytest.mark.parametrize(
    ("data", "match"),
    [
        ([GOOD], "JSON object"),
        ({**GOOD, "audience": AUD}, "unknown field"),
        ({"audiences": [AUD], "jwks_url": GOOD["jwks_url"]}, "issuer"),
        ({**GOOD, "issuer": 7}, "issuer"),
        ({**GOOD, "issuer": ""}, "issuer"),
        ({"issuer": ISS, "jwks_url": GOOD["jwks_url"]}, "audiences"),
        ({**GOOD, "audiences": []}, "at least one audience"),
        ({**GOOD, "audiences": 7}, "audiences"),
        ({**GOOD, "audiences": [AUD, 7]}, "audiences"),
        ({**GOOD, "jwks_file": "/etc/jwks.json"}, "exactly one"),
        ({"issuer": ISS, "audiences": [AUD]}, "exactly one"),
        ({**GOOD, "jwks_url": 7}, "jwks_url"),
        ({**GOOD, "algorithms": ["HS256"]}, "not allowed"),
        ({**GOOD, "algorithms": "none"}, "not allowed"),
        ({**GOOD, "algorithms": ["RS256", "ES512"]}, "not allowed"),
        ({**GOOD, "algorithms": []}, "at least one algorithm"),
        ({**GOOD, "jwks_url": "http://id.example.com/jwks"}, "loopback"),
        ({**GOOD, "jwks_url": "ftp://id.example.com/jwks"}, "https"),
        ({**GOOD, "jwks_url": "https:///jwks"}, "host"),
        ({**GOOD, "jwks_url": "https://id.example.com:99999/jwks"}, "not a valid URL"),
    ],
)
def test_issuer_from_json_refuses(data: Any, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        Issuer.from_json(data)


@pytest.mark.parametrize("algorithm", ["HS256", "HS384", "HS512", "none", "EdDSA", "rs256"])
def test_an_issuer_allows_only_the_asymmetric_algorithms(algorithm: str) -> None:
    with pytest.raises(ValueError, match="not allowed"):
        Issuer(ISS, (AUD,), jwks_url=GOOD["jwks_url"], algorithms=("RS256", algorithm))


@pytest.mark.parametrize(
    ("url", "allowed"),
    [
        ("http://127.0.0.1:8080/jwks", True),
        ("http://[::1]:8080/jwks", True),
        ("http://localhost/jwks", True),
        ("https://id.example.com/jwks", True),
        ("http://id.example.com/jwks", False),
        ("http://10.0.0.1/jwks", False),
        ("http://localhost.example.com/jwks", False),
        ("http://[::2]/jwks", False),
    ],
)
def test_plain_http_only_on_loopback(url: str, allowed: bool) -> None:
    if allowed:
        assert Issuer(ISS, (AUD,), jwks_url=url).jwks_url == url
    else:
        with pytest.raises(ValueError, match="loopback"):
            Issuer(ISS, (AUD,), jwks_url=url)


def test_issuers_from_json() -> None:
    other = {"issuer": "https://other.example.org", "audiences": "app", "jwks_file": "/etc/other.json"}
    issuers = issuers_from_json(json.dumps([GOOD, other]))
    assert [issuer.issuer for issuer in issuers] == [ISS, "https://other.example.org"]
    assert issuers_from_json("[]") == ()
    assert issuers_from_json("  ") == ()


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("[{", "not valid JSON"),
        (json.dumps(GOOD), "JSON list"),
        (json.dumps([GOOD, "x"]), "#2: .*JSON object"),
        (json.dumps([GOOD, {**GOOD, "audiences": []}]), "#2: .*audience"),
        (json.dumps([GOOD, GOOD]), "given twice"),
    ],
)
def test_issuers_from_json_refuses(text: str, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        issuers_from_json(text)


def test_external_tokens_refuse_a_duplicate_issuer_and_bad_options() -> None:
    issuer = Issuer.from_json(GOOD)
    with pytest.raises(ValueError, match="twice"):
        ExternalTokens([issuer, issuer])
    with pytest.raises(ValueError):
        ExternalTokens([issuer], leeway=-1)
    with pytest.raises(ValueError):
        ExternalTokens([issuer], fetch_timeout=0)
    assert ExternalTokens([issuer]).configured
