"""Carta Fútbol Club's cards as small integers, with their codes and the tables the rules read.

Two decks of 60, Blue (``B``) and Green (``G``): card ``id = colour * 60 + k``. Within a deck, ``k``:

* ``0..9``: Pass/Intercept 1-10 (``B-PI-6``: "Pass 6" for the team with the ball, "Intercept 6" for the other);
* ``10..19``: Dribble/Slide Tackle 1-10 (``B-DT-8``);
* ``20..27``: Shot on Goal/Save 3-10 (``B-SS-9``);
* ``28, 29``: the Jokers 8 and 10 (``B-JOKER-8``), declared as any of the six actions at their printed value;
* ``30..47``: Special cards: Cañito x5 (``B-CANITO``), Off-side x4 (``B-OFFSIDE``), Siga-siga x4 (``B-SIGA``),
  Super Defensa x5 (``B-SUPER``);
* ``48..59``: Luck cards: Goal x6 (``B-GOAL``), No goal x6 (``B-NOGOAL``).

Skill cards are each one of a kind; Special and Luck cards have copies that look alike. A card's *face* is what
players see and name (``B-CANITO``); its *instance* (``B-CANITO#3``) tells the copies apart for the audits only.

:data:`CATALOGUE` is every face as a front-end draws it: its deck's colour, its group (Skill, Special, Luck), its kind
and number, the actions it is played as, and what it does (a Special card's text as the rulebook has it read aloud).
"""

from __future__ import annotations

from engine.core import CardFace

COLOURS = ("B", "G")
COLOUR_NAMES = ("blue", "green")
DECK = 60
CARDS = 2 * DECK

# Kinds.
PI, DT, SS, JOKER = "PI", "DT", "SS", "JOKER"
CANITO, OFFSIDE, SIGA, SUPER = "CANITO", "OFFSIDE", "SIGA", "SUPER"
GOAL, NOGOAL = "GOAL", "NOGOAL"
SKILL_KINDS = frozenset((PI, DT, SS, JOKER))
SPECIAL_KINDS = frozenset((CANITO, OFFSIDE, SIGA, SUPER))
LUCK_KINDS = frozenset((GOAL, NOGOAL))

# Actions: what a card is played as.
PASS, DRIBBLE, SHOT = "pass", "dribble", "shot"
INTERCEPT, TACKLE, SAVE = "intercept", "tackle", "save"
ATTACKING = (PASS, DRIBBLE, SHOT)
DEFENDING = (INTERCEPT, TACKLE, SAVE)
ACTIONS = ATTACKING + DEFENDING
ATTACK_OF = {PI: PASS, DT: DRIBBLE, SS: SHOT}  # a dual Skill card for the team with the ball
DEFENCE_OF = {PI: INTERCEPT, DT: TACKLE, SS: SAVE}  # and for the other team
PAIR = {PASS: INTERCEPT, DRIBBLE: TACKLE, SHOT: SAVE}  # the actions that compete

_layout: list[tuple[str, int]] = (
    [(PI, n) for n in range(1, 11)]
    + [(DT, n) for n in range(1, 11)]
    + [(SS, n) for n in range(3, 11)]
    + [(JOKER, 8), (JOKER, 10)]
    + [(CANITO, 0)] * 5
    + [(OFFSIDE, 0)] * 4
    + [(SIGA, 0)] * 4
    + [(SUPER, 0)] * 5
    + [(GOAL, 0)] * 6
    + [(NOGOAL, 0)] * 6
)
assert len(_layout) == DECK

KIND = tuple(kind for _ in COLOURS for kind, _ in _layout)  # card id -> kind
VALUE = tuple(value for _ in COLOURS for _, value in _layout)  # card id -> printed number (0: none)
COLOUR = tuple(card // DECK for card in range(CARDS))


def _face(card: int) -> str:
    kind, value = KIND[card], VALUE[card]
    return f"{COLOURS[COLOUR[card]]}-{kind}" + (f"-{value}" if value else "")


FACE = tuple(_face(card) for card in range(CARDS))
_copies: dict[str, int] = {}
_instances = []
for _card in range(CARDS):
    if VALUE[_card]:
        _instances.append(FACE[_card])
    else:
        _copies[FACE[_card]] = _copies.get(FACE[_card], 0) + 1
        _instances.append(f"{FACE[_card]}#{_copies[FACE[_card]]}")
INSTANCE = tuple(_instances)
FACES = frozenset(FACE)
BY_FACE: dict[str, tuple[int, ...]] = {}
for _card, _f in enumerate(FACE):
    BY_FACE[_f] = (*BY_FACE.get(_f, ()), _card)

SKILL = tuple(k for k in range(DECK) if _layout[k][0] in SKILL_KINDS)  # a deck's skill cards, by k
SPECIAL = tuple(k for k in range(DECK) if _layout[k][0] in SPECIAL_KINDS)
LUCK = tuple(k for k in range(DECK) if _layout[k][0] in LUCK_KINDS)
SKILL_DEALT = 10  # per team per hand
SPECIAL_DEALT = 3


def is_skill(card: int) -> bool:
    return KIND[card] in SKILL_KINDS


def is_special(card: int) -> bool:
    return KIND[card] in SPECIAL_KINDS


def deck_cards(colour: int, ks: tuple[int, ...]) -> list[int]:
    """The ids of one deck's cards of the given layout positions."""
    return [colour * DECK + k for k in ks]


def low_key(card: int) -> tuple[int, int]:
    """The order of "lowest card": by number, then kind (Pass/Intercept, Dribble/Tackle, Shot/Save, Joker)."""
    return VALUE[card], card % DECK


GROUP = {
    **dict.fromkeys(SKILL_KINDS, "skill"),
    **dict.fromkeys(SPECIAL_KINDS, "special"),
    **dict.fromkeys(LUCK_KINDS, "luck"),
}
KIND_WORD = {
    PI: "pass_intercept",
    DT: "dribble_tackle",
    SS: "shot_save",
    JOKER: "joker",
    CANITO: "canito",
    OFFSIDE: "offside",
    SIGA: "siga_siga",
    SUPER: "super_defensa",
    GOAL: "goal",
    NOGOAL: "no_goal",
}
NAMES = {
    PI: "Pass / Intercept {n}",
    DT: "Dribble / Slide Tackle {n}",
    SS: "Shot on Goal / Save {n}",
    JOKER: "Joker {n}",
    CANITO: "Cañito",
    OFFSIDE: "Off-side",
    SIGA: "Siga-siga",
    SUPER: "Super Defensa",
    GOAL: "Goal",
    NOGOAL: "No goal",
}
TEXT = {
    PI: "Pass {n} for the team with the ball, Intercept {n} for the other. The higher wins; a tie goes to the "
    "Intercept.",
    DT: "Dribble {n} for the team with the ball, Slide Tackle {n} for the other. The higher wins; a tie is a foul by "
    "the tackling team.",
    SS: "Shot on Goal {n} for the team with the ball (after three attacking plays in a row, or from a direct free "
    "kick), Save {n} for the other. The higher wins; on a tie the shooter's Luck card decides.",
    JOKER: "Played as any of the six actions at {n}: Pass, Dribble or Shot on Goal, Intercept, Slide Tackle or Save.",
    CANITO: "Counts as one attacking play. Only a Super Defensa stops it.",
    OFFSIDE: "Called after any pass. Cancelled with Siga-siga.",
    SIGA: "Cancels an Off-side: the pass stands and its player goes on.",
    SUPER: "Stops a Pass, a Dribble or a Cañito.",
    GOAL: "Drawn to settle a tied shot or a penalty: a goal.",
    NOGOAL: "Drawn to settle a tied shot or a penalty: no goal.",
}


def _catalogue_face(card: int) -> CardFace:
    kind, number = KIND[card], VALUE[card]
    if kind in ATTACK_OF:
        actions: tuple[str, ...] = (ATTACK_OF[kind], DEFENCE_OF[kind])
    elif kind == JOKER:
        actions = ACTIONS
    else:
        actions = ()
    details: dict[str, str | int | bool | tuple[str, ...]] = {
        "deck": COLOUR_NAMES[COLOUR[card]],
        "deck_code": COLOURS[COLOUR[card]],
        "group": GROUP[kind],
        "number": number,
        "actions": actions,
    }
    return CardFace(
        FACE[card],
        NAMES[kind].format(n=number),
        KIND_WORD[kind],
        copies=len(BY_FACE[FACE[card]]),
        text=TEXT[kind].format(n=number),
        details=details,
    )


CATALOGUE: tuple[CardFace, ...] = tuple(_catalogue_face(cards[0]) for cards in BY_FACE.values())
