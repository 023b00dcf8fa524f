"""Server-sent events as a client reads them: the events of a whole answer's text."""

from __future__ import annotations

import json


def sse_events(text: str) -> list[tuple[str, dict]]:
    """(event name, data as JSON) for every event with data, in order; comments and the retry line are skipped."""
    events = []
    for block in text.replace("\r\n", "\n").split("\n\n"):
        fields: dict[str, str] = {}
        for line in block.splitlines():
            if line and not line.startswith(":"):
                name, _, value = line.partition(":")
                fields[name] = value.removeprefix(" ")
        if "data" in fields:
            events.append((fields.get("event", "message"), json.loads(fields["data"])))
    return events


def sse_updates(text: str) -> list[dict]:
    """The data of every `update` event."""
    return [data for name, data in sse_events(text) if name == "update"]
