"""Readable Soker positions for scenario tests.

    state = position(
        hands=["JUV-GKP JUV-DEF JOKER-1", "LIV-MID", "BAY-FRW", "RMA-DEF"],
        top="INT-FRW",
        deck="ARS-GKP MUN-DEF",       # drawn in this order: ARS-GKP first
        discard="LIV-GKP",            # under the top card, bottom first
    )

Cards a position does not mention are out of play, so a test states only what matters. ``top_as_club="JUV"`` puts a
Joker on top standing for that club (as when a package ended with a Joker).
"""

from __future__ import annotations

from engine.core import Rng
from engine.soker.cards import BY_CODE, CLUBS, JOKER_AS_CLUB
from engine.soker.rules import SOKER, SokerState


def cards(text: str) -> list[int]:
    return [BY_CODE[code] for code in text.split()]


def position(
    hands: list[str],
    top: str,
    *,
    deck: str = "",
    discard: str = "",
    current: int = 0,
    drawn: bool = False,
    top_as_club: str | None = None,
    played: list[int] | None = None,
    seed: int = 7,
) -> SokerState:
    seats = len(hands)
    state = SOKER.new_game(seats, None, seed)  # options and defaults as in a real game; the cards are laid below
    state.hands = [sum(1 << c for c in cards(hand)) for hand in hands]
    state.deck = list(reversed(cards(deck)))
    state.discard = [*cards(discard), BY_CODE[top]]
    state.top = BY_CODE[top]
    if top_as_club is not None:
        state.top = JOKER_AS_CLUB + [club.code for club in CLUBS].index(top_as_club)
    state.current = current
    state.drawn = drawn
    state.played = list(played) if played is not None else [0] * seats
    state.rng = Rng(seed)
    every = [c for hand in hands for c in cards(hand)] + cards(deck) + state.discard
    assert len(every) == len(set(every)), "a card is placed twice in this position"
    return state
