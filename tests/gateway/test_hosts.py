"""The gateway answers only requests whose Host is one of its names: a page on a DNS name of its own that resolves to
the gateway's address (DNS rebinding) can neither change anything nor read anything, though its Origin and its Host
agree. IP addresses, the probes and the gateway's own pages keep working."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import httpx
import pytest
import uvicorn
from litestar import Litestar

from service.gateway.app import create_app
from service.gateway.hosts import HostPolicy
from service.settings import HttpLimits

ROOM = {"game": "soker", "mode": "ROOM_MODE_ONLINE", "seats": 2}
PORT = 18080


@asynccontextmanager
async def served(app: Litestar) -> AsyncIterator[httpx.AsyncClient]:
    """The app served by uvicorn on loopback in this test's event loop (as conftest.py's ``client``)."""
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    listener.bind(("127.0.0.1", 0))
    server = uvicorn.Server(uvicorn.Config(app, loop="none", lifespan="on", log_level="warning"))
    serving = asyncio.create_task(server.serve(sockets=[listener]))
    while not server.started:
        await asyncio.sleep(0.01)
    try:
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{listener.getsockname()[1]}", timeout=10) as http:
            yield http
    finally:
        server.should_exit = True
        await serving


async def rooms(http: httpx.AsyncClient) -> int:
    return len((await http.get("/v1/rooms", headers={"Host": f"127.0.0.1:{PORT}"})).json()["rooms"])


async def answers(http: httpx.AsyncClient, host: str) -> dict[str, int]:
    """The status of a room created from a page on ``host`` (its Origin the same), of reading the rooms, of the /play
    page and of the probe, each with ``Host: host``."""
    page = f"http://{host}"
    return {
        "create": (await http.post("/v1/rooms", json=ROOM, headers={"Host": host, "Origin": page})).status_code,
        "read": (await http.get("/v1/rooms", headers={"Host": host})).status_code,
        "play": (await http.get("/play/", headers={"Host": host})).status_code,
        "probe": (await http.get("/healthz", headers={"Host": host})).status_code,
    }


ANSWERED = {"create": 201, "read": 200, "play": 200, "probe": 200}
REFUSED = {"create": 400, "read": 400, "play": 400, "probe": 200}


async def test_a_page_on_a_name_of_its_own_that_resolves_to_the_gateway_is_refused(grpc_server) -> None:
    app = create_app(f"127.0.0.1:{grpc_server.port}", timeout=5.0)  # the default: the loopback names
    async with served(app) as http:
        before = await rooms(http)
        attack = await http.post(
            "/v1/rooms",
            json=ROOM,
            headers={"Host": f"attacker.example:{PORT}", "Origin": f"http://attacker.example:{PORT}"},
        )
        assert attack.status_code == 400
        assert attack.headers["content-type"].startswith("application/problem+json")
        problem = attack.json()
        assert problem["reason"] == "host_not_allowed" and problem["field"] == "Host"
        assert "--allowed-host" in problem["detail"] and "attacker" not in problem["detail"]
        assert await rooms(http) == before, "no room was made"
        seen = {
            host: await answers(http, host)
            for host in (
                f"attacker.example:{PORT}",
                "attacker.example",
                f"localhost.attacker.example:{PORT}",
                f"LOCALHOST:{PORT}",
                f"localhost:{PORT}",
                f"127.0.0.1:{PORT}",
                f"[::1]:{PORT}",
                f"192.168.1.20:{PORT}",
            )
        }
    assert seen == {
        f"attacker.example:{PORT}": REFUSED,
        "attacker.example": REFUSED,
        f"localhost.attacker.example:{PORT}": REFUSED,
        f"LOCALHOST:{PORT}": ANSWERED,
        f"localhost:{PORT}": ANSWERED,
        f"127.0.0.1:{PORT}": ANSWERED,
        f"[::1]:{PORT}": ANSWERED,
        f"192.168.1.20:{PORT}": ANSWERED,  # an address: no DNS name to rebind (a LAN client, a probe by pod IP)
    }


async def test_the_names_given_replace_the_loopback_names_and_star_takes_any(grpc_server) -> None:
    target = f"127.0.0.1:{grpc_server.port}"
    named = create_app(target, hosts=HostPolicy.parse(["play.example.com, kickoff-gateway"], listen="0.0.0.0"))
    async with served(named) as http:
        seen = {host: await answers(http, host) for host in ("play.example.com", "kickoff-gateway:8080", "localhost")}
    assert seen == {"play.example.com": ANSWERED, "kickoff-gateway:8080": ANSWERED, "localhost": REFUSED}
    anything = create_app(target, hosts=HostPolicy.parse(["*"]))
    async with served(anything) as http:
        assert await answers(http, "attacker.example") == ANSWERED


async def test_a_page_on_another_of_the_gateways_names_is_another_origin(grpc_server) -> None:
    app = create_app(f"127.0.0.1:{grpc_server.port}", hosts=HostPolicy.parse(["play.example.com", "localhost"]))
    async with served(app) as http:
        other = await http.post(
            "/v1/rooms", json=ROOM, headers={"Host": "play.example.com", "Origin": "http://localhost"}
        )
        assert (other.status_code, other.json()["reason"]) == (403, "origin_not_allowed")
        rebound = await http.post(
            "/v1/rooms", json=ROOM, headers={"Host": "play.example.com", "Origin": "http://attacker.example"}
        )
        assert (rebound.status_code, rebound.json()["reason"]) == (403, "origin_not_allowed")
        own = await http.post(
            "/v1/rooms", json=ROOM, headers={"Host": "play.example.com", "Origin": "http://play.example.com"}
        )
        assert own.status_code == 201


def test_the_default_names_follow_the_address_the_gateway_listens_on() -> None:
    loopback = {"localhost", "127.0.0.1", "::1"}
    assert HostPolicy.parse([], listen="127.0.0.1").names == loopback
    assert HostPolicy.parse([], listen="0.0.0.0").names == loopback, "every address: loopback names and addresses"
    assert HostPolicy.parse([], listen="play.internal").names == loopback | {"play.internal"}
    assert HostPolicy.parse(["Play.Example.COM.", "[::1]"]).names == {"play.example.com", "::1"}
    for wrong in ("http://play.example.com", "play.example.com:8080", "play.example.com/x", "a b"):
        with pytest.raises(ValueError, match="allowed host"):
            HostPolicy.parse([wrong])


def test_the_setting_is_read_from_the_environment_and_passed_on_by_kickoff_serve(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from cli import _parser, serve_commands

    monkeypatch.setenv("KICKOFF_ALLOWED_HOSTS", " play.example.com, kickoff-gateway ,")
    assert HttpLimits().allowed_hosts == ("play.example.com", "kickoff-gateway")
    monkeypatch.delenv("KICKOFF_ALLOWED_HOSTS")
    assert HttpLimits().allowed_hosts == ()
    given = ["serve", "--allowed-host", "play.example.com", "--allowed-host", "kickoff.lan"]
    _, gateway_command = serve_commands(_parser().parse_args(given))
    assert gateway_command[-4:] == ["--allowed-host", "play.example.com", "--allowed-host", "kickoff.lan"]
    gateway = _parser().parse_args(["gateway", "--allowed-host", "play.example.com"])
    assert gateway.allowed_host == ["play.example.com"]
