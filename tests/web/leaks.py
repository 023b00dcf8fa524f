"""What a spectator's page may show, version by version, computed from the server's own game state.

The room's log is replayed from its seed (as tests/watch.py does) to know, at every version, how many copies of each
card face lie in places open to a spectator (``state.hidden_from(None)``). Cards are counted by face, as the conformance
suite counts them (identical cards share a face): the page may show a face as often as it has open copies.

* The table (everything but the events) is drawn from a view of one version: it may show what is open at that version.
* An event line may also show a card that its move then took out of sight (a Soker reshuffle), so the lines of the
  update at version v may show what is open before or after it.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from typing import Any

from tests.engine.conformance import face, open_faces
from tests.server.conftest import Harness

TOKEN = re.compile(r"[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*")


def faces_in(text: str, faces: set[str]) -> Counter[str]:
    """How often each card face appears as a word of a page's text."""
    return Counter(word for word in TOKEN.findall(text) if word in faces)


def open_to_spectators(
    harness: Harness, room_id: str, log: list[Any] | None = None
) -> tuple[set[str], dict[int, Counter[str]]]:
    """Every card face of the room's game, and the faces open to a spectator at each version (by copies). ``log``: the
    room's log, where the journal is not the one in memory (a SQL journal's ``load("room", room_id)``)."""
    live = harness.directory.get(room_id)
    game = live.game
    state = game.new_game(len(live.seats), live.state.options, live.seed)
    faces = {face(card) for cards in state.locations().values() for card in cards}
    open_at = {0: open_faces(state, None)}
    for entry in harness.directory.journal.log("room", room_id) if log is None else log:
        if entry.kind in ("move", "table"):
            state.apply(entry.seat, game.move_from_wire(entry.move), by_table=entry.kind == "table")
        open_at[entry.version] = open_faces(state, None)
    assert state.to_json() == live.state.to_json(), "the log replays to the room's game"
    return faces, open_at


def check_spectator_page(
    harness: Harness,
    room_id: str,
    renders: list[dict[str, Any]],
    feed: list[tuple[int, str]],
    log: list[Any] | None = None,
) -> tuple[int, int]:
    """Fails if the spectator's page showed a card face hidden from spectators; returns how many drawings it checked
    and how many cards (open ones) they showed.

    ``renders``: the table's text at each drawing with the view's version it showed; ``feed``: every event line with
    the version of its update."""
    faces, open_at = open_to_spectators(harness, room_id, log)
    checked = cards = 0
    for render in renders:
        version = int(render["viewVersion"])
        if version < 0:
            continue  # no view yet: the page shows seats and names only
        shown = faces_in(render["text"], faces)
        leaked = {name: count for name, count in shown.items() if count > open_at[version][name]}
        assert not leaked, f"room {room_id}: the spectator's table at version {version} showed hidden cards {leaked}"
        checked += 1
        cards += shown.total()
    lines: dict[int, list[str]] = defaultdict(list)
    for version, text in feed:
        lines[version].append(text)
    for version, texts in lines.items():
        allowed = open_at[version] | open_at.get(version - 1, Counter())
        shown = faces_in("\n".join(texts), faces)
        leaked = {name: count for name, count in shown.items() if count > allowed[name]}
        assert not leaked, f"room {room_id}: the spectator's events of version {version} showed hidden cards {leaked}"
    return checked, cards
