"""The report's "forwarding headers are trusted by default": from 127.0.0.1 the gateway believed X-Forwarded-For
(uvicorn's own default), so a client behind a same-host proxy that passed the header on, or any local process, got 8
of 8 creations past a rate of 3 by naming a new address each time; and the gRPC server believed ``x-forwarded-for``
from any loopback peer, so a local process opened streams past its per-caller cap.

Now both believe it only from the peers KICKOFF_TRUSTED_PROXIES names: none by default."""

from __future__ import annotations

import pytest

from service.gateway import http
from service.gateway.app import create_app
from service.settings import HttpLimits, LimitSettings, Rate
from tests.abuse.test_quotas import first_update
from tests.servers import Start

LOOPBACK = ("127.0.0.1", "::1")  # where the tests' gateways call the server from
ROOM = {"game": "soker", "mode": "ROOM_MODE_ONLINE", "seats": 2}


@pytest.fixture(autouse=True)
def unset(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("KICKOFF_TRUSTED_PROXIES", raising=False)


def rotated(n: int) -> dict[str, str]:
    """A client naming a new address each time, in every header a proxy might set."""
    return {"X-Forwarded-For": f"203.0.113.{n}", "Forwarded": f"for=203.0.113.{n}", "X-Real-IP": f"203.0.113.{n}"}


async def creations(client, count: int = 8) -> list[int]:
    return [(await client.post("/v1/rooms", json=ROOM, headers=rotated(n))).status_code for n in range(count)]


async def test_the_gateway_believes_no_forwarding_header_by_default(start: Start, gateway) -> None:
    # The server believes the gateway (its operator named it), as it must to count the gateway's clients apart.
    harness = await start(create_rate=Rate(3, 60), trusted_proxies=LOOPBACK)
    client = await gateway(harness)
    assert await creations(client) == [201] * 3 + [429] * 5, "every request counts as the one client it came from"


async def test_the_gateway_believes_x_forwarded_for_only_from_the_peers_named(
    start: Start, gateway, monkeypatch: pytest.MonkeyPatch
) -> None:
    harness = await start(create_rate=Rate(3, 60), trusted_proxies=LOOPBACK)
    monkeypatch.setenv("KICKOFF_TRUSTED_PROXIES", "192.0.2.0/24")  # a proxy elsewhere: this loopback client is not it
    elsewhere = await gateway(harness)
    assert await creations(elsewhere) == [201] * 3 + [429] * 5
    monkeypatch.setenv("KICKOFF_TRUSTED_PROXIES", "127.0.0.1")  # a proxy on this host, in front of the gateway
    behind = await gateway(harness)
    assert await creations(behind) == [201] * 8, "each client the proxy names is a caller of its own"
    again = [(await behind.post("/v1/rooms", json=ROOM, headers=rotated(0))).status_code for _ in range(3)]
    assert again == [201, 201, 429], "and is held to its own rate"


def test_the_gateways_uvicorn_takes_proxy_headers_only_from_the_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FORWARDED_ALLOW_IPS", "*")  # uvicorn's own variable is not read
    app = create_app("127.0.0.1:1", web=False)
    assert HttpLimits().trusted_proxies == () and LimitSettings().trusted_proxies == ()
    off = http.config(app, "127.0.0.1", 0, HttpLimits())
    assert off.proxy_headers is False and off.forwarded_allow_ips == []
    monkeypatch.setenv("KICKOFF_TRUSTED_PROXIES", " 10.1.2.3/8, 192.0.2.7 ,::1")
    assert HttpLimits().trusted_proxies == LimitSettings().trusted_proxies == ("10.0.0.0/8", "192.0.2.7/32", "::1/128")
    on = http.config(app, "127.0.0.1", 0, HttpLimits())
    assert on.proxy_headers is True and on.forwarded_allow_ips == ["10.0.0.0/8", "192.0.2.7/32", "::1/128"]
    monkeypatch.setenv("KICKOFF_TRUSTED_PROXIES", "gateway.internal")
    with pytest.raises(ValueError, match="KICKOFF_TRUSTED_PROXIES"):
        HttpLimits()
    with pytest.raises(ValueError, match="KICKOFF_TRUSTED_PROXIES"):
        LimitSettings()


async def test_the_server_believes_x_forwarded_for_only_from_the_peers_named(
    start: Start, monkeypatch: pytest.MonkeyPatch
) -> None:
    harness = await start(streams_per_caller=3)  # the default settings: KICKOFF_TRUSTED_PROXIES unset
    room_id = (await harness.create(seats=2)).room_id
    await harness.join(room_id)
    opened = [await first_update(harness, room_id, f"192.0.2.{n}") for n in range(6)]
    assert [version for _, version in opened] == [1, 1, 1, -1, -1, -1], "a local process is one caller"
    for stream, _ in opened:
        stream.cancel()

    monkeypatch.setenv("KICKOFF_TRUSTED_PROXIES", "127.0.0.1/32")  # this peer is a gateway
    named = await start(streams_per_caller=3)
    room_id = (await named.create(seats=2)).room_id
    await named.join(room_id)
    opened = [await first_update(named, room_id, f"192.0.2.{n}") for n in range(6)]
    assert [version for _, version in opened] == [1] * 6, "each client the gateway names is a caller of its own"
    for stream, _ in opened:
        stream.cancel()
