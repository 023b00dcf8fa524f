"""docs/guides/fair-deals.md: its test vectors are what deals/scheme.py computes, so that a verifier written from the
page agrees with the server (a few milliseconds)."""

from __future__ import annotations

import json
from pathlib import Path

from deals import scheme

PAGE = Path(__file__).parents[2] / "docs" / "guides" / "fair-deals.md"


def _vectors() -> list[list[str]]:
    text = PAGE.read_text(encoding="utf-8").split("### Test vectors", 1)[1]
    rows = [line for line in text.splitlines() if line.startswith("| `")]
    return [[cell.strip().strip("`") for cell in row.strip("|").split("|")] for row in rows]


def test_the_pages_test_vectors_are_the_schemes() -> None:
    vectors = _vectors()
    assert len(vectors) >= 3 and any(json.loads(row[3]) for row in vectors)  # (seeds given in some, none in one)
    for secret_hex, subject, game, seeds, commitment, seed, system_seed in vectors:
        secret = scheme.secret_from_hex(secret_hex)
        assert scheme.commitment(secret, subject, game) == commitment, subject
        assert scheme.game_seed(secret, subject, game, json.loads(seeds)) == int(seed), subject
        assert scheme.system_seat_seed(secret, subject, game, 2) == system_seed, subject


def test_the_page_names_the_schemes_version() -> None:
    text = PAGE.read_text(encoding="utf-8")
    assert f"`{scheme.SCHEME}`" in text and "## What the server does" in text
