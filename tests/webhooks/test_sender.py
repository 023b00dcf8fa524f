"""One attempt: signed as Standard Webhooks says, sent only to vetted addresses (checked again after every lookup),
TLS verified against the URL's host name, no redirects, within the timeout, with short reasons for failures."""

from __future__ import annotations

import asyncio
import datetime
import json
import ssl
import time
from typing import Any

import httpcore
import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID
from standardwebhooks import Webhook
from standardwebhooks.webhooks import WebhookVerificationError

from service.webhooks.addresses import AddressPolicy
from service.webhooks.sender import USER_AGENT, Sender, VettedBackend
from tests.webhooks.conftest import LOOPBACK, Received, new_secret

PAYLOAD = json.dumps({"type": "turn.began", "timestamp": "2027-01-15T08:00:00.000Z", "data": {"room_id": "r1"}})


class Recording(httpcore.AnyIOBackend):
    """AnyIO's backend, noting every connection it opens."""

    def __init__(self) -> None:
        self.connects: list[tuple[str, int]] = []

    async def connect_tcp(self, host: str, port: int, *args: Any, **kwargs: Any) -> Any:
        self.connects.append((host, port))
        return await super().connect_tcp(host, port, *args, **kwargs)


def sender_for(policy: AddressPolicy, **options: Any) -> tuple[Sender, Recording]:
    recording = Recording()
    return Sender(policy, backend=VettedBackend(policy, recording), **options), recording


async def send(sender: Sender, url: str, secret: str, *, timeout: float = 2.0, delivery_id: str = "msg_1") -> Any:
    return await sender.send(url, secret=secret, delivery_id=delivery_id, payload=PAYLOAD, timeout=timeout)


async def test_a_delivery_is_signed_as_standard_webhooks_says(receivers) -> None:
    receiver = await receivers()
    secret = new_secret()
    sender = Sender(AddressPolicy(LOOPBACK))
    before = time.time()
    attempt = await send(sender, receiver.url, secret, delivery_id="msg_abc")
    await sender.aclose()
    assert (attempt.ok, attempt.status, attempt.error) == (True, 200, "")
    assert 0 < attempt.seconds < 2
    [request] = receiver.requests
    assert (request.method, request.target, request.body) == ("POST", "/hook?x=1", PAYLOAD)
    headers = request.headers
    assert headers["content-type"] == "application/json"
    assert headers["user-agent"] == USER_AGENT == "kickoff-webhooks/1"
    assert headers["webhook-id"] == "msg_abc"
    assert headers["host"] == f"127.0.0.1:{receiver.port}"
    assert int(before) <= int(headers["webhook-timestamp"]) <= time.time()  # the wall clock's, to the second
    assert headers["webhook-signature"].startswith("v1,")
    assert Webhook(secret).verify(request.body, headers) == json.loads(PAYLOAD)
    with pytest.raises(WebhookVerificationError):
        Webhook(new_secret()).verify(request.body, headers)
    with pytest.raises(WebhookVerificationError):
        Webhook(secret).verify(request.body.replace("r1", "r2"), headers)


REFUSED_URLS = [
    ("http://127.0.0.1:{port}/hook", "refused address 127.0.0.1 (loopback)"),
    ("http://localhost:{port}/hook", "refused address "),  # (127.0.0.1 or ::1, as this machine resolves it)
    ("http://[::1]:{port}/hook", "refused address ::1 (loopback)"),
    ("http://[::ffff:127.0.0.1]:{port}/hook", "refused address ::ffff:7f00:1 (loopback, carried in IPv6)"),
    ("http://169.254.169.254/latest/meta-data/", "refused address 169.254.169.254 (metadata)"),
    ("http://10.1.2.3:{port}/", "refused address 10.1.2.3 (private)"),
    ("http://[fd00:ec2::254]/", "refused address fd00:ec2::254 (metadata)"),
]


@pytest.mark.parametrize(("url", "error"), REFUSED_URLS)
async def test_refused_addresses_are_never_connected(receivers, url: str, error: str) -> None:
    receiver = await receivers()  # listening on 127.0.0.1: nothing may reach it
    sender, recording = sender_for(AddressPolicy())  # nothing allowed
    secret = new_secret()
    attempt = await send(sender, url.format(port=receiver.port), secret)
    await sender.aclose()
    assert (attempt.ok, attempt.status) == (False, 0)
    assert attempt.error.startswith(error)
    assert secret not in attempt.error
    assert recording.connects == [] and receiver.connections == 0 and receiver.requests == []


async def test_a_name_is_checked_again_after_every_lookup(receivers, monkeypatch: pytest.MonkeyPatch) -> None:
    """DNS rebinding: the name resolved to a public address when it was registered, to loopback when it is sent."""
    receiver = await receivers()
    policy = AddressPolicy()
    answers = iter([["93.184.216.34"], ["127.0.0.1"]])

    async def lookup(host: str, port: int) -> list[str]:
        assert host == "hooks.test"
        return next(answers)

    monkeypatch.setattr(policy, "lookup", lookup)
    assert [str(a) for a in await policy.resolve("hooks.test", receiver.port)] == ["93.184.216.34"]  # registered
    sender, recording = sender_for(policy)
    attempt = await send(sender, f"http://hooks.test:{receiver.port}/hook", new_secret())
    await sender.aclose()
    assert attempt.error == "refused address 127.0.0.1 (loopback)" and attempt.status == 0
    assert recording.connects == [] and receiver.connections == 0


async def test_it_connects_to_the_vetted_address_and_names_the_host(receivers, monkeypatch) -> None:
    receiver = await receivers()
    policy = AddressPolicy(LOOPBACK)
    lookups: list[str] = []

    async def lookup(host: str, port: int) -> list[str]:
        lookups.append(host)
        return ["127.0.0.1"]

    monkeypatch.setattr(policy, "lookup", lookup)
    sender, recording = sender_for(policy)
    attempt = await send(sender, f"http://hooks.test:{receiver.port}/in", new_secret())
    assert attempt.ok
    assert recording.connects == [("127.0.0.1", receiver.port)] and lookups == ["hooks.test"]
    assert receiver.requests[0].headers["host"] == f"hooks.test:{receiver.port}"
    again = await send(sender, f"http://hooks.test:{receiver.port}/in", new_secret())  # (the kept connection)
    await sender.aclose()
    assert again.ok and receiver.connections == 1 and len(recording.connects) == 1


def _certificate(names: list[str], issuer: Any = None) -> tuple[Any, Any]:
    key = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, names[0] if names else "kickoff test CA")])
    now = datetime.datetime.now(datetime.UTC)
    builder = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(issuer[0].subject if issuer else subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(hours=1))
        .not_valid_after(now + datetime.timedelta(hours=1))
    )
    if issuer is None:
        builder = builder.add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
    else:
        builder = builder.add_extension(x509.SubjectAlternativeName([x509.DNSName(n) for n in names]), critical=False)
    certificate = builder.sign(issuer[1] if issuer else key, hashes.SHA256())
    return certificate, key


def _tls(tmp_path, name: str) -> tuple[ssl.SSLContext, ssl.SSLContext]:
    """A server context with a certificate for ``name`` from a new CA, and a client context trusting that CA."""
    from cryptography.hazmat.primitives import serialization

    authority = _certificate([])
    leaf, key = _certificate([name], issuer=authority)
    pem = serialization.Encoding.PEM
    (tmp_path / "leaf.pem").write_bytes(leaf.public_bytes(pem))
    (tmp_path / "key.pem").write_bytes(
        key.private_bytes(pem, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    )
    server = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    server.load_cert_chain(tmp_path / "leaf.pem", tmp_path / "key.pem")
    client = ssl.create_default_context(cadata=authority[0].public_bytes(pem).decode())
    return server, client


@pytest.mark.parametrize(("certified", "error"), [("hooks.test", ""), ("other.test", "TLS certificate not valid")])
async def test_tls_verifies_the_host_name_though_it_connects_to_an_address(
    receivers, monkeypatch, tmp_path, certified: str, error: str
) -> None:
    server, client = _tls(tmp_path, certified)
    receiver = await receivers(tls=server)
    policy = AddressPolicy(LOOPBACK)

    async def lookup(host: str, port: int) -> list[str]:
        return ["127.0.0.1"]

    monkeypatch.setattr(policy, "lookup", lookup)
    sender, recording = sender_for(policy, ssl_context=client)
    attempt = await send(sender, f"https://hooks.test:{receiver.port}/hook", new_secret())
    await sender.aclose()
    assert recording.connects == [("127.0.0.1", receiver.port)]
    assert attempt.ok is (not error) and attempt.error.startswith(error)
    assert len(receiver.requests) == (0 if error else 1)


async def test_failures_have_short_reasons(receivers) -> None:
    async def fail(_: Received) -> int:
        return 500

    async def moved(_: Received) -> int:
        return 302

    failing = await receivers(fail)
    moving = await receivers(moved, extra=b"location: http://127.0.0.1:9/elsewhere\r\n")
    silent = await receivers()
    silent.answer = silent.hang
    closed = await receivers()
    await closed.close()  # (a port nobody listens on now)
    big = await receivers(body=b"x" * 1_000_000)
    sender = Sender(AddressPolicy(LOOPBACK))
    secret = new_secret()

    attempt = await send(sender, failing.url, secret)
    assert (attempt.ok, attempt.status, attempt.error) == (False, 500, "HTTP 500")
    attempt = await send(sender, moving.url, secret)
    assert (attempt.ok, attempt.status, attempt.error) == (False, 302, "HTTP 302 (redirects are not followed)")
    assert len(moving.requests) == 1
    started = time.monotonic()
    attempt = await send(sender, silent.url, secret, timeout=0.2)
    assert (attempt.ok, attempt.status, attempt.error) == (False, 0, "timeout")
    # (a lower bound only where the machine's speed could break an upper one: 10 s is the default timeout)
    assert 0.19 <= attempt.seconds < 5.0 and time.monotonic() - started < 5.0
    attempt = await send(sender, closed.url, secret)
    assert (attempt.ok, attempt.status, attempt.error) == (False, 0, "connection refused")
    attempt = await send(sender, big.url, secret)  # (its answer is read no further than 4 KiB)
    assert attempt.ok
    attempt = await send(sender, failing.url, "whsec_%%%%not-base64")
    assert attempt.error == "the signing secret is not valid" and "%%%%" not in attempt.error
    attempt = await send(sender, "ftp://example.com/", secret)
    assert attempt.error == "refused URL"
    await sender.aclose()
    assert (await send(sender, failing.url, secret)).status == 500  # (a closed sender opens new pools)
    await sender.aclose()


async def test_a_pool_is_bounded_by_its_endpoints_in_flight(receivers) -> None:
    async def slow(_: Received) -> int:
        await asyncio.sleep(0.05)
        return 200

    receiver = await receivers(slow)
    sender = Sender(AddressPolicy(LOOPBACK))
    secret = new_secret()
    attempts = await asyncio.gather(
        *(
            sender.send(
                receiver.url, secret=secret, delivery_id=f"msg_{i}", payload="{}", timeout=2, pool="e", connections=2
            )
            for i in range(6)
        )
    )
    await sender.aclose()
    assert all(attempt.ok for attempt in attempts)
    assert receiver.peak == 2 and receiver.connections == 2
