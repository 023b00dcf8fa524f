"""Soker's 58 cards as small integers, with the precomputed tables the rules run on.

Card ids:

* ``0..47`` are player cards: ``club = id >> 2`` (0..11), ``position = id & 3`` (GKP, DEF, MID, FRW) and
  ``country = club // 3`` (Italy, Germany, Spain, England). Each club has exactly one card per position.
* ``48..51`` Yellow, ``52..53`` Red, ``54..57`` Joker.

A hand is a bitmask over these ids (bit ``id`` set when the card is held), so "which cards in this hand are legal on
that top discard" is one ``&``. The top discard is a *top key*: a card id, or ``58 + club`` for a Joker that ended a
package and stands for that club's card.

Each card has a stable code for the wire and for people: ``JUV-GKP``, ``YELLOW-1``, ``RED-2``, ``JOKER-3``.
"""

from __future__ import annotations

from typing import NamedTuple

COUNTRIES = ("Italy", "Germany", "Spain", "England")
COUNTRY_CODES = ("ITA", "GER", "ESP", "ENG")
COUNTRY_COLOURS = ("green", "yellow", "red", "white")
POSITIONS = ("GKP", "DEF", "MID", "FRW")
POSITION_NAMES = ("Goalkeeper", "Defender", "Midfielder", "Forward")


class Club(NamedTuple):
    code: str
    name: str
    country: int


CLUBS = (
    Club("JUV", "Juventus", 0),
    Club("MIL", "AC Milan", 0),
    Club("INT", "Inter", 0),
    Club("BAY", "Bayern Munich", 1),
    Club("BVB", "Borussia Dortmund", 1),
    Club("HSV", "Hamburger SV", 1),
    Club("RMA", "Real Madrid", 2),
    Club("FCB", "FC Barcelona", 2),
    Club("ATM", "Atletico Madrid", 2),
    Club("LIV", "Liverpool", 3),
    Club("MUN", "Manchester United", 3),
    Club("ARS", "Arsenal", 3),
)

# The legend printed on each player card: club -> (GKP, DEF, MID, FRW).
LEGENDS: dict[str, tuple[str, str, str, str]] = {
    "JUV": ("Gianluigi Buffon", "Gaetano Scirea", "Michel Platini", "Alessandro Del Piero"),
    "MIL": ("Dida", "Paolo Maldini", "Gianni Rivera", "Marco van Basten"),
    "INT": ("Walter Zenga", "Giacinto Facchetti", "Javier Zanetti", "Giuseppe Meazza"),
    "BAY": ("Sepp Maier", "Franz Beckenbauer", "Lothar Matthäus", "Gerd Müller"),
    "BVB": ("Roman Weidenfeller", "Jürgen Kohler", "Michael Zorc", "Marco Reus"),
    "HSV": ("Uli Stein", "Manfred Kaltz", "Felix Magath", "Uwe Seeler"),
    "RMA": ("Iker Casillas", "Sergio Ramos", "Zinedine Zidane", "Alfredo Di Stéfano"),
    "FCB": ("Víctor Valdés", "Carles Puyol", "Xavi Hernández", "Lionel Messi"),
    "ATM": ("Jan Oblak", "Diego Godín", "Koke", "Fernando Torres"),
    "LIV": ("Ray Clemence", "Alan Hansen", "Steven Gerrard", "Kenny Dalglish"),
    "MUN": ("Peter Schmeichel", "Rio Ferdinand", "Paul Scholes", "Bobby Charlton"),
    "ARS": ("David Seaman", "Tony Adams", "Patrick Vieira", "Thierry Henry"),
}

PLAYER_CARDS = 48
YELLOW_IDS = (48, 49, 50, 51)
RED_IDS = (52, 53)
JOKER_IDS = (54, 55, 56, 57)
DECK_SIZE = 58
JOKER_AS_CLUB = 58  # top key 58 + club: a Joker that ended a package of that club

BIT = tuple(1 << card for card in range(DECK_SIZE))  # BIT[card]: the card's bit in a hand, without building it anew
ALL_MASK = (1 << DECK_SIZE) - 1
PLAYER_MASK = (1 << PLAYER_CARDS) - 1
YELLOW_MASK = sum(1 << c for c in YELLOW_IDS)
RED_MASK = sum(1 << c for c in RED_IDS)
JOKER_MASK = sum(1 << c for c in JOKER_IDS)
SPECIAL_MASK = YELLOW_MASK | RED_MASK | JOKER_MASK
CARD_MASK_BY_COUNTRY = tuple(sum(1 << c for c in range(12 * k, 12 * k + 12)) for k in range(4))
CLUB_MASKS = tuple(0xF << (4 * k) for k in range(12))

YELLOW, RED, JOKER = "yellow", "red", "joker"


def is_player(card: int) -> bool:
    return card < PLAYER_CARDS


def club_of(card: int) -> int:
    return card >> 2


def country_of(card: int) -> int:
    return card // 12


def position_of(card: int) -> int:
    return card & 3


def special_kind(card: int) -> str | None:
    """``yellow``, ``red`` or ``joker`` for a special card; None for a player card."""
    if card < PLAYER_CARDS:
        return None
    if card < 52:
        return YELLOW
    if card < 54:
        return RED
    return JOKER


def _code(card: int) -> str:
    if card < PLAYER_CARDS:
        return f"{CLUBS[card >> 2].code}-{POSITIONS[card & 3]}"
    if card < 52:
        return f"YELLOW-{card - 47}"
    if card < 54:
        return f"RED-{card - 51}"
    return f"JOKER-{card - 53}"


CODES: tuple[str, ...] = tuple(_code(c) for c in range(DECK_SIZE))
BY_CODE: dict[str, int] = {code: card for card, code in enumerate(CODES)}


def code(card: int) -> str:
    """The card's stable code, e.g. ``JUV-GKP`` or ``JOKER-2``."""
    return CODES[card]


def legend(card: int) -> str | None:
    """The legend pictured on a player card; None for a special card."""
    if card >= PLAYER_CARDS:
        return None
    return LEGENDS[CLUBS[card >> 2].code][card & 3]


def label(card: int) -> str:
    """A readable name: ``JUV-FRW (Alessandro Del Piero, Juventus, Italy)`` or ``Yellow card``."""
    if card < PLAYER_CARDS:
        club = CLUBS[card >> 2]
        return f"{CODES[card]} ({legend(card)}, {club.name}, {COUNTRIES[club.country]})"
    return {YELLOW: "Yellow card", RED: "Red card", JOKER: "Joker"}[special_kind(card)]  # type: ignore[index]


def top_label(top: int) -> str:
    """A readable name for a top key (a card, or a Joker standing for a club)."""
    if top >= JOKER_AS_CLUB:
        club = CLUBS[top - JOKER_AS_CLUB]
        return f"Joker as {club.name} ({COUNTRIES[club.country]})"
    return label(top)


def bits(mask: int) -> list[int]:
    """The card ids set in ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def mask_of(cards: list[int] | tuple[int, ...]) -> int:
    mask = 0
    for c in cards:
        mask |= 1 << c
    return mask


def _legal_mask(top: int) -> int:
    """The cards legal on a top key: specials always; a special top allows anything; else country or position."""
    if top >= JOKER_AS_CLUB:
        # A Joker standing for a club is that club's card with no position: its country matches.
        return CARD_MASK_BY_COUNTRY[CLUBS[top - JOKER_AS_CLUB].country] | SPECIAL_MASK
    if top >= PLAYER_CARDS:
        return ALL_MASK
    mask = CARD_MASK_BY_COUNTRY[country_of(top)] | SPECIAL_MASK
    for c in range(PLAYER_CARDS):
        if position_of(c) == position_of(top):
            mask |= 1 << c
    return mask


TOP_KEYS = DECK_SIZE + len(CLUBS)
LEGAL_ON: tuple[int, ...] = tuple(_legal_mask(top) for top in range(TOP_KEYS))
# The club a top key stands for (a Link continues it); -1 for a special card on top.
TOP_CLUB: tuple[int, ...] = tuple(
    (t >> 2) if t < PLAYER_CARDS else (t - JOKER_AS_CLUB if t >= JOKER_AS_CLUB else -1) for t in range(TOP_KEYS)
)


def is_country_set(hand: int) -> bool:
    """Exactly four cards, all player cards of one country (one Joker may stand in); Yellow and Red never count."""
    if hand.bit_count() != 4 or hand & (YELLOW_MASK | RED_MASK) or (hand & JOKER_MASK).bit_count() > 1:
        return False
    players = hand & PLAYER_MASK
    return any(players & ~country == 0 for country in CARD_MASK_BY_COUNTRY)
