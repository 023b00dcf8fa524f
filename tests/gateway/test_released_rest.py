"""The REST surface of the last release (release/kickoff-v1.openapi.json, `make release-openapi`) is still served the
same way: a front-end built against it works unchanged.

Every path and method of the released document is still in the gateway's document, with the same operation id, the
same parameters (name, where, required, schema), request body, answers (status codes, media types, schemas) and
security; schemas are compared with their ``$ref`` followed into the components. What a release added is free to be
there (a path, an operation, a field of a message, an enum value, an optional body where there was none), and a
request's upper bound may rise (what was sent before is still taken); nothing else released may change or go.
Descriptions, summaries and examples are words for people, not the surface, and are not compared. And the released
operations are really answered at their path and method, not only documented.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from httpx import AsyncClient as AsyncTestClient

from service.gateway.release import document

RELEASED = Path(__file__).parents[2] / "release" / "kickoff-v1.openapi.json"
WORDS = {"description", "summary", "example", "examples"}  # for people: not compared
# A request's upper bounds may rise (what a front-end sent before is still taken); a reply's may not change.
LOOSER_IN_REQUESTS = {"maxItems", "maxLength", "maximum"}
METHODS = {"get", "put", "post", "delete", "patch"}


def released() -> dict[str, Any]:
    return json.loads(RELEASED.read_text(encoding="utf-8"))


def operations(doc: dict[str, Any]) -> dict[tuple[str, str], dict[str, Any]]:
    return {
        (method, path): op for path, item in doc["paths"].items() for method, op in item.items() if method in METHODS
    }


class Compare:
    """What of the released document ``old`` the current one ``new`` no longer serves the same way, as a list of
    places and what changed there."""

    def __init__(self, old: dict[str, Any], new: dict[str, Any]) -> None:
        self.old, self.new = old, new
        self.changes: list[str] = []
        self._seen: set[tuple[str, str]] = set()

    def _component(self, doc: dict[str, Any], ref: str) -> Any:
        return doc["components"]["schemas"].get(ref.removeprefix("#/components/schemas/"))

    def schema(self, where: str, old: Any, new: Any) -> None:
        """``new`` reads everything ``old`` did: a ``$ref`` is followed (each pair once, for messages that hold
        themselves); a message may gain properties and an enum values, nothing else may differ."""
        if isinstance(old, dict) and "$ref" in old:
            if not isinstance(new, dict) or "$ref" not in new:
                self.changes.append(f"{where}: was {old['$ref']}, now {new}")
                return
            pair = (old["$ref"], new["$ref"], _in_request(where))
            if pair in self._seen:
                return
            self._seen.add(pair)
            target = self._component(self.new, new["$ref"])
            if target is None:
                self.changes.append(f"{where}: {new['$ref']} is not in the components")
                return
            self.schema(f"{where}->{old['$ref']}", self._component(self.old, old["$ref"]), target)
            return
        if isinstance(old, dict):
            if not isinstance(new, dict):
                self.changes.append(f"{where}: was an object, now {new!r}")
                return
            for key, value in old.items():
                if key in WORDS:
                    continue
                if key not in new:
                    self.changes.append(f"{where}.{key}: gone")
                elif key == "properties":
                    for name, field in value.items():
                        if name not in new[key]:
                            self.changes.append(f"{where}.properties.{name}: gone")
                        else:
                            self.schema(f"{where}.{name}", field, new[key][name])
                elif key in LOOSER_IN_REQUESTS and _in_request(where) and _at_least(new[key], value):
                    continue
                elif key in ("enum", "required"):  # (only replies' messages have required fields)
                    missing = [name for name in value if name not in new[key]]
                    if missing:
                        self.changes.append(f"{where}.{key}: {missing} gone")
                else:
                    self.schema(f"{where}.{key}", value, new[key])
            for key in new.keys() - old.keys() - WORDS:
                if key == "required" and not _in_request(where):
                    continue  # a reply's message that gained its first always-present field (a reader gets more)
                self.changes.append(f"{where}.{key}: new ({new[key]!r})")
            return
        if isinstance(old, list):
            if not isinstance(new, list) or len(old) != len(new):
                self.changes.append(f"{where}: was {old!r}, now {new!r}")
                return
            for index, (a, b) in enumerate(zip(old, new, strict=True)):
                self.schema(f"{where}[{index}]", a, b)
            return
        if old != new:
            self.changes.append(f"{where}: was {old!r}, now {new!r}")

    def operation(self, where: str, old: dict[str, Any], new: dict[str, Any]) -> None:
        for key in ("operationId", "security"):
            if old.get(key) != new.get(key):
                self.changes.append(f"{where} {key}: was {old.get(key)!r}, now {new.get(key)!r}")
        new_parameters = {(p["name"], p["in"]): p for p in new.get("parameters", [])}
        for parameter in old.get("parameters", []):
            key = (parameter["name"], parameter["in"])
            found = new_parameters.pop(key, None)
            if found is None:
                self.changes.append(f"{where} parameter {key}: gone")
                continue
            if found.get("required", False) != parameter.get("required", False):
                self.changes.append(f"{where} parameter {key}: required was {parameter.get('required', False)}")
            self.schema(f"{where} parameter {key}", parameter.get("schema"), found.get("schema"))
        for key, parameter in new_parameters.items():
            if parameter.get("required"):
                self.changes.append(f"{where} parameter {key}: new and required")
        if "requestBody" in new and "requestBody" not in old and not new["requestBody"].get("required"):
            # An optional body where there was none: what a front-end sent before (no body) is still served; the
            # 415 for a body that is not JSON comes with it.
            old = {**old, "responses": {"415": new["responses"].get("415", {}), **old["responses"]}}
        elif ("requestBody" in old) != ("requestBody" in new):
            self.changes.append(f"{where} requestBody: {'gone' if 'requestBody' in old else 'new'}")
        elif "requestBody" in old:
            self.content(f"{where} requestBody", old["requestBody"], new["requestBody"])
            if old["requestBody"].get("required") != new["requestBody"].get("required"):
                self.changes.append(f"{where} requestBody: required changed")
        for status, answer in old["responses"].items():
            if status not in new["responses"]:
                self.changes.append(f"{where} response {status}: gone")
            else:
                self.content(f"{where} response {status}", answer, new["responses"][status])
        for status in new["responses"].keys() - old["responses"].keys():
            self.changes.append(f"{where} response {status}: new")

    def content(self, where: str, old: dict[str, Any], new: dict[str, Any]) -> None:
        old_content, new_content = old.get("content", {}), new.get("content", {})
        if old_content.keys() != new_content.keys():
            self.changes.append(f"{where}: media types were {sorted(old_content)}, now {sorted(new_content)}")
            return
        for media, body in old_content.items():
            self.schema(f"{where} {media}", body.get("schema"), new_content[media].get("schema"))

    def run(self) -> list[str]:
        current = operations(self.new)
        for (method, path), op in sorted(operations(self.old).items()):
            where = f"{method.upper()} {path}"
            if (method, path) not in current:
                self.changes.append(f"{where}: no longer served")
            else:
                self.operation(where, op, current[(method, path)])
        return self.changes


def _in_request(where: str) -> bool:
    """Whether a place of the comparison is in what a front-end sends (a parameter or a request body)."""
    return " parameter " in where or " requestBody" in where


def _at_least(new: Any, old: Any) -> bool:
    numbers = (int, float)
    return isinstance(new, numbers) and isinstance(old, numbers) and new >= old


def test_every_released_operation_is_still_served_the_same_way() -> None:
    old = released()
    assert len(operations(old)) >= 58  # (the released document is the whole surface, not a part of it)
    assert Compare(old, document()).run() == []


def test_the_comparison_sees_a_changed_path_status_parameter_or_schema() -> None:
    """The check above fails for each kind of change a front-end would notice."""
    old = released()
    for change, expected in [
        (lambda d: d["paths"].pop("/v1/rooms/{room_id}/seat"), "DELETE /v1/rooms/{room_id}/seat: no longer served"),
        (
            lambda d: d["paths"]["/v1/rooms"]["post"]["responses"].update(
                {"200": d["paths"]["/v1/rooms"]["post"]["responses"].pop("201")}
            ),
            "POST /v1/rooms response 201: gone",
        ),
        (
            lambda d: d["paths"]["/v1/rooms"]["get"]["parameters"][2].update(name="pageSize"),
            "GET /v1/rooms parameter ('page_size', 'query'): gone",
        ),
        (
            lambda d: d["components"]["schemas"]["Room"]["properties"].pop("roomId"),
            "->#/components/schemas/Room.properties.roomId: gone",
        ),
        (  # (a request's bound lowered: what a front-end sent may now be refused)
            lambda d: d["components"]["schemas"]["AddEndpointRequest"]["properties"]["events"].update(maxItems=4),
            "AddEndpointRequest.events.maxItems: was 8, now 4",
        ),
    ]:
        new = released()
        change(new)
        changes = Compare(old, new).run()
        assert any(line.endswith(expected) for line in changes), changes


def _path(template: str, parameters: list[dict[str, Any]]) -> str:
    for parameter in parameters:
        if parameter["in"] == "path":
            value = "1" if parameter["schema"].get("type") == "integer" else "x"
            template = template.replace("{" + parameter["name"] + "}", value)
    return template


@pytest.mark.parametrize("method", ["get", "post"])
async def test_every_released_operation_is_answered_at_its_path_and_method(
    client: AsyncTestClient, method: str
) -> None:
    """Each released operation reaches its RPC: the answer is the server's own (a refusal with its reason, or a
    success), never the router's 404 or 405 for a route it does not have."""
    missing = await client.get("/v1/no-such-route")
    assert missing.status_code == 404
    for (verb, template), op in sorted(operations(released()).items()):
        if verb != method and not (method == "post" and verb in {"delete", "patch"}):
            continue
        path = _path(template, op.get("parameters", []))
        body = {"json": {}} if "requestBody" in op else {}
        answer = await client.request(verb.upper(), path, headers={"Last-Event-ID": "0"}, **body)
        assert answer.status_code != 405, (verb, path)
        if answer.status_code == 404:
            assert answer.json() != missing.json() and answer.json().get("reason"), (verb, path, answer.text)


async def test_released_statuses_are_answered(client: AsyncTestClient) -> None:
    """A room created, joined, looked at and left answers the status codes the released document names."""
    ops = operations(released())

    def success(method: str, path: str) -> int:
        return min(int(code) for code in ops[(method, path)]["responses"] if code.isdigit())

    created = await client.post("/v1/rooms", json={"game": "soker", "mode": "ROOM_MODE_ONLINE", "seats": 2})
    assert created.status_code == success("post", "/v1/rooms") == 201
    room_id = created.json()["roomId"]
    joined = await client.post(f"/v1/rooms/{room_id}/seats", json={"name": "ann"})
    assert joined.status_code == success("post", "/v1/rooms/{room_id}/seats") == 201
    token = joined.json()["seatToken"]
    room = await client.get(f"/v1/rooms/{room_id}")
    assert room.status_code == success("get", "/v1/rooms/{room_id}") == 200 and room.json()["roomId"] == room_id
    left = await client.delete(f"/v1/rooms/{room_id}/seat", headers={"Authorization": f"Bearer {token}"})
    assert left.status_code == success("delete", "/v1/rooms/{room_id}/seat") == 200
    ticket = await client.post(f"/v1/rooms/{room_id}/stream-tickets")
    assert ticket.status_code == 401 and ticket.json()["reason"]
