"""What a front end's generated client sees: openapi-python-client makes a Python client from the gateway's own
OpenAPI document with no warning, and that client plays against the real gateway, its answers and refusals typed, its
zero values read as values (seat 0, version "0"), never as unset.

The document is fetched from the running gateway (/schema/openapi.json) and the client generated into tmp_path. The
test skips only where the generator is not installed (it is a dev dependency), and never under CI=true.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx
import pytest

PACKAGE = "kickoff_rest_client"
# How openapi-python-client reports what it could not generate: a header line, then one block per problem.
GENERATOR_PROBLEM = re.compile(r"^(WARNING|ERROR)\b|(Warning|Error)\(s\) encountered", re.MULTILINE)


def require_generator() -> None:
    try:
        import openapi_python_client  # noqa: F401
    except ImportError:
        if os.environ.get("CI") == "true":
            raise
        pytest.skip("openapi-python-client is not installed (a dev dependency: pip install -e '.[dev]')")


@pytest.fixture
def generated_package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Where the client is generated; its folder is on sys.path for the test, and its modules are forgotten after."""
    monkeypatch.syspath_prepend(str(tmp_path))
    yield tmp_path / PACKAGE
    for name in [name for name in sys.modules if name == PACKAGE or name.startswith(f"{PACKAGE}.")]:
        del sys.modules[name]


async def generate(document: bytes, package: Path) -> str:
    """Run the generator on the document; what it printed."""
    source = package.parent / "openapi.json"
    source.write_bytes(document)
    config = package.parent / "generator.json"
    config.write_text(json.dumps({"post_hooks": []}))  # no formatting pass (ruff): the code is only imported
    command = [
        sys.executable,
        "-m",
        "openapi_python_client",
        "generate",
        "--path",
        str(source),
        "--meta",
        "none",
        "--output-path",
        str(package),
        "--config",
        str(config),
        "--fail-on-warning",
    ]
    run = await asyncio.to_thread(subprocess.run, command, capture_output=True, text=True, timeout=120)
    output = run.stdout + run.stderr
    assert run.returncode == 0, output  # --fail-on-warning: a warning exits 1
    assert not GENERATOR_PROBLEM.search(output), output
    return output


async def first_update(http: httpx.AsyncClient, room_id: str, token: str) -> dict[str, Any]:
    """The room's first `update` event, as its fields: event, id, and data parsed from its JSON line."""
    headers = {"Authorization": f"Bearer {token}", "Last-Event-ID": "0"}
    fields: dict[str, Any] = {}
    async with http.stream("GET", f"/v1/rooms/{room_id}/events", headers=headers) as stream:
        async for line in stream.aiter_lines():
            if not line and fields.get("event") == "update":
                return {**fields, "data": json.loads(fields["data"])}
            if not line:
                fields = {}
            elif not line.startswith(":") and ": " in line:
                name, value = line.split(": ", 1)
                fields[name] = value
    raise AssertionError("the stream ended before an update")


async def test_a_generated_client_plays_and_reads_refusals_as_problem_details(
    start, gateway, generated_package
) -> None:
    require_generator()
    http = await gateway(await start())
    document = await http.get("/schema/openapi.json")
    assert document.status_code == 200
    await asyncio.wait_for(generate(document.content, generated_package), 60)

    from kickoff_rest_client import AuthenticatedClient, Client
    from kickoff_rest_client.api.play import list_legal_moves, submit_move
    from kickoff_rest_client.api.rooms import create_room, get_room
    from kickoff_rest_client.api.seats import join_room
    from kickoff_rest_client.models import (
        CreateRoomRequest,
        JoinRoomRequest,
        JoinRoomResponse,
        ListLegalMovesResponse,
        ProblemDetails,
        Room,
        RoomMode,
        RoomStatus,
        RoomUpdate,
        StreamEnd,
        SubmitMoveRequest,
        SubmitMoveResponse,
    )
    from kickoff_rest_client.types import Unset

    base_url = str(http.base_url).rstrip("/")
    async with Client(base_url=base_url) as anyone:
        created = await create_room.asyncio_detailed(
            client=anyone,  # type: ignore[arg-type]  # the API key is optional here (security: {} or apiKey)
            body=CreateRoomRequest(
                game="soker", mode=RoomMode.ROOM_MODE_SOLO, seats=2, system_players=1, think_seconds=0
            ),
        )
        assert created.status_code == 201 and isinstance(created.parsed, Room), created.content
        room = created.parsed
        assert room.mode is RoomMode.ROOM_MODE_SOLO and room.status is RoomStatus.ROOM_STATUS_WAITING
        joined = await join_room.asyncio_detailed(room.room_id, client=anyone, body=JoinRoomRequest(name="ann"))
        assert joined.status_code == 201 and isinstance(joined.parsed, JoinRoomResponse), joined.content
        token = joined.parsed.seat_token

        # Zero values are sent, and the reply-only messages list those fields as required: plain values, never UNSET.
        assert joined.parsed.seat == 0 and not isinstance(joined.parsed.seat, Unset), joined.content
        assert JoinRoomResponse.__annotations__["seat"] == "int" and Room.__annotations__["version"] == "str"
        with pytest.raises(KeyError):
            JoinRoomResponse.from_dict({"seatToken": token})  # a reply without its seat is not a JoinRoomResponse
        online = await create_room.asyncio_detailed(
            client=anyone,  # type: ignore[arg-type]
            body=CreateRoomRequest(game="soker", mode=RoomMode.ROOM_MODE_ONLINE, seats=2),
        )
        assert online.status_code == 201 and isinstance(online.parsed, Room), online.content
        fresh = online.parsed
        assert (fresh.version, fresh.to_act, fresh.tournament_game, fresh.tournament_id) == ("0", [], 0, "")
        assert [(s.seat, s.taken, s.name) for s in fresh.seats] == [(0, False, ""), (1, False, "")]
        fetched = await get_room.asyncio(fresh.room_id, client=anyone)
        assert isinstance(fetched, Room) and fetched.version == "0" and fetched.seats[0].seat == 0
        assert json.loads(online.content)["version"] == "0", "on the wire too, not only the model's default"

    async with AuthenticatedClient(base_url=base_url, token=token) as seat:
        legal = await list_legal_moves.asyncio_detailed(room.room_id, client=seat)
        assert legal.status_code == 200 and isinstance(legal.parsed, ListLegalMovesResponse), legal.content
        assert legal.parsed.moves, "the person's seat acts first in a fresh solo room"
        version = legal.parsed.version
        assert isinstance(version, str) and version.isdigit(), "a 64-bit integer travels as a string"
        move = legal.parsed.moves[0]
        moved = await submit_move.asyncio_detailed(
            room.room_id, client=seat, body=SubmitMoveRequest(move=move, request_id="m1", expected_version=version)
        )
        assert moved.status_code == 201 and isinstance(moved.parsed, SubmitMoveResponse), moved.content
        assert int(moved.parsed.version) > int(version)

        stale = await submit_move.asyncio_detailed(
            room.room_id, client=seat, body=SubmitMoveRequest(move=move, request_id="m2", expected_version=version)
        )
        assert stale.status_code == 409 and isinstance(stale.parsed, ProblemDetails), stale.content
        assert (stale.parsed.status, stale.parsed.reason) == (409, "stale_version")
        assert stale.parsed.type_ == "urn:kickoff:problem:stale_version" and stale.parsed.title

    async with AuthenticatedClient(base_url=base_url, token=token + "x") as stranger:
        refused = await submit_move.asyncio_detailed(room.room_id, client=stranger, body=SubmitMoveRequest(move=move))
        assert refused.status_code == 401 and isinstance(refused.parsed, ProblemDetails), refused.content
        assert refused.parsed.status == 401 and refused.parsed.reason

    # An event stream is no request/response call, but each event's data parses into the generated models, field for
    # field; the stream's schema is that data (RoomUpdate, then StreamEnd), as SSE readers yield it.
    event = await first_update(http, room.room_id, token)
    update = RoomUpdate.from_dict(event["data"])
    assert event["id"] == update.version == "1" and update.room_id == room.room_id
    assert update.to_act == [0] and update.clocks == [], "zero values are in the event's data too"
    echoed = update.to_dict()
    sent_at, echoed_at = (datetime.fromisoformat(e.pop("time")) for e in (event["data"], echoed))  # Z or +00:00
    assert echoed_at == sent_at and echoed == event["data"], "the RoomUpdate schema names every field sent"
    assert StreamEnd.from_dict({"version": "9"}).version == "9"
