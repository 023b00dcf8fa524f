"""Soker's 58 cards as small integers, with the precomputed tables the rules run on.

Card ids:

* ``0..47`` are player cards: ``club = id >> 2`` (0..11), ``position = id & 3`` (GKP, DEF, MID, FRW) and
  ``country = club // 3`` (Italy, Germany, Spain, England). Each club has exactly one card per position.
* ``48..51`` Yellow, ``52..53`` Red, ``54..57`` Joker.

A hand is a bitmask over these ids (bit ``id`` set when the card is held), so "which cards in this hand are legal on
that top discard" is one ``&``. The top discard is a *top key*: a card id, or ``58 + club`` for a Joker that ended a
package and stands for that club's card.

Each card has a stable code for the wire and for people: ``JUV-GKP``, ``YELLOW-1``, ``RED-2``, ``JOKER-3``.

:data:`CATALOGUE` is every card as a front-end draws it (the rulebook's table): the country's colour as the background,
the position word top left, the club's crest bottom right in the club's coloured ring, the legend's name on hover.
The rulebook gives the four country colours and says only that each club's ring has a colour of its own; the twelve
ring colours are *settled here*, each distinct from the others and at least 3:1 in contrast with its own country's
background (the contrast WCAG asks of a part of a picture that carries meaning: a Dortmund ring is not yellow on a
yellow card), and the crest carries the club's code too, so a colour is never the only sign of a club.
"""

from __future__ import annotations

from typing import NamedTuple

from engine.core import CardFace

COUNTRIES = ("Italy", "Germany", "Spain", "England")
COUNTRY_CODES = ("ITA", "GER", "ESP", "ENG")
COUNTRY_COLOURS = ("green", "yellow", "red", "white")
COUNTRY_RGB = ("#2e7d32", "#fdd835", "#c62828", "#f5f5f5")  # the colours as a front-end paints them
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

# Each club's ring: club -> (colour, as a front-end paints it). Settled here (see the module docstring).
RINGS: dict[str, tuple[str, str]] = {
    "JUV": ("black", "#111111"),
    "MIL": ("white", "#ffffff"),
    "INT": ("navy", "#0d1b4c"),
    "BAY": ("red", "#c8102e"),
    "BVB": ("brown", "#6d3b07"),
    "HSV": ("blue", "#0057b8"),
    "RMA": ("gold", "#ffd700"),
    "FCB": ("sky blue", "#8fd3f4"),
    "ATM": ("mint", "#a5f2c9"),
    "LIV": ("orange", "#e65100"),
    "MUN": ("purple", "#6a1b9a"),
    "ARS": ("forest green", "#1b5e20"),
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


SPECIAL_TEXT = {
    YELLOW: "All opponents skip; you play again with any card.",
    RED: "As a Yellow card (all opponents skip; you play again with any card), and every opponent draws one card.",
    JOKER: "Always legal; the next player may play anything. It joins a club's package as that club's card and "
    "completes a winning set of one country.",
}


def _face(card: int) -> CardFace:
    if card >= PLAYER_CARDS:
        kind = special_kind(card)
        assert kind is not None
        return CardFace(CODES[card], label(card), kind, text=SPECIAL_TEXT[kind])
    club = CLUBS[card >> 2]
    position = card & 3
    ring, ring_rgb = RINGS[club.code]
    details = {
        "country": COUNTRIES[club.country],
        "country_code": COUNTRY_CODES[club.country],
        "country_colour": COUNTRY_COLOURS[club.country],
        "country_rgb": COUNTRY_RGB[club.country],
        "position": POSITIONS[position],
        "position_name": POSITION_NAMES[position],
        "club": club.code,
        "club_name": club.name,
        "ring_colour": ring,
        "ring_rgb": ring_rgb,
        "legend": LEGENDS[club.code][position],
    }
    return CardFace(CODES[card], f"{club.name} {POSITION_NAMES[position]}", "player", details=details)


CATALOGUE: tuple[CardFace, ...] = tuple(_face(card) for card in range(DECK_SIZE))
