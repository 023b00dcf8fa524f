"""Age of Soccer's cards as small integers, with their codes and the tables the rules read.

Player cards ``0..27``: ``team = id >> 2`` (Spartans, Vikings, Parthians, Romans, Zulus, Aztecs, Mongols) and
``position = id & 3`` (GK, DF, MF, AT). Each team has one card per position. A card's code is ``VIK-DF``.

Action cards ``0..87``, a separate numbering: the 28 team cards (Millionaire Owner, Greedy Agent, Super Shot and
Super Save, one of each per team: ``OWNER-ROM``, ``AGENT-VIK``, ``SUPERSHOT-ZUL``, ``SUPERSAVE-AZT``) and the 60
common ones, whose copies are alike (``SHOOT`` x12, ``SAVE`` x10, ``OFFSIDE`` x4, ``COUNTER`` x4, ``EAGLE`` x4,
``BUS`` x4, ``CUPRUN`` x2, ``SAMBA`` x3, ``BANKRUPT`` x3, ``RED`` x3, ``INJURY`` x3, ``FREE`` x3, ``INSIDER`` x3,
``WINDOW`` x2). A card's *face* is what players see and name (``SHOOT``); its *instance* (``SHOOT#07``) tells the copies
apart for the audits only.

:data:`CATALOGUE` is every face as a front-end draws it: the player cards (team, position, attack and defence) and the
action faces (kind, name, what it does, whether it is a training card), copies that look alike sharing one face.
"""

from __future__ import annotations

from engine.core import CardFace

TEAMS = ("SPA", "VIK", "PAR", "ROM", "ZUL", "AZT", "MON")
TEAM_NAMES = ("Spartans", "Vikings", "Parthians", "Romans", "Zulus", "Aztecs", "Mongols")
POSITIONS = ("GK", "DF", "MF", "AT")
POSITION_NAMES = ("Goalkeeper", "Defender", "Midfielder", "Attacker")
ATTACK = (0, 1, 2, 3)  # by position (house default)
DEFENCE = (3, 2, 1, 0)
BASE = 4  # a team board's attack and defence with nobody on it

PLAYER_CARDS = len(TEAMS) * len(POSITIONS)
PLAYER_CODES = tuple(f"{TEAMS[card >> 2]}-{POSITIONS[card & 3]}" for card in range(PLAYER_CARDS))
PLAYER_BY_CODE = {code: card for card, code in enumerate(PLAYER_CODES)}

# Action kinds.
OWNER, AGENT, SUPERSHOT, SUPERSAVE = "OWNER", "AGENT", "SUPERSHOT", "SUPERSAVE"
SHOOT, SAVE, OFFSIDE, COUNTER, EAGLE, BUS, CUPRUN = "SHOOT", "SAVE", "OFFSIDE", "COUNTER", "EAGLE", "BUS", "CUPRUN"
SAMBA, BANKRUPT, RED, INJURY, FREE, INSIDER, WINDOW = "SAMBA", "BANKRUPT", "RED", "INJURY", "FREE", "INSIDER", "WINDOW"
TEAM_KINDS = (OWNER, AGENT, SUPERSHOT, SUPERSAVE)
COMMON = (
    (SHOOT, 12),
    (SAVE, 10),
    (OFFSIDE, 4),
    (COUNTER, 4),
    (EAGLE, 4),
    (BUS, 4),
    (CUPRUN, 2),
    (SAMBA, 3),
    (BANKRUPT, 3),
    (RED, 3),
    (INJURY, 3),
    (FREE, 3),
    (INSIDER, 3),
    (WINDOW, 2),
)
TRAINING = frozenset((OWNER, AGENT, SAMBA, BANKRUPT, RED, INJURY, FREE, INSIDER, WINDOW))
MATCH = frozenset((SUPERSHOT, SUPERSAVE, SHOOT, SAVE, OFFSIDE, COUNTER, EAGLE, BUS, CUPRUN))

_kinds: list[str] = []
_teams: list[int] = []
for _kind in TEAM_KINDS:
    for _team in range(len(TEAMS)):
        _kinds.append(_kind)
        _teams.append(_team)
for _kind, _copies in COMMON:
    _kinds.extend([_kind] * _copies)
    _teams.extend([-1] * _copies)

ACTION_KIND = tuple(_kinds)  # action id -> kind
ACTION_TEAM = tuple(_teams)  # action id -> team, or -1
ACTION_CARDS = len(ACTION_KIND)
ACTION_FACE = tuple(
    f"{kind}-{TEAMS[team]}" if team >= 0 else kind for kind, team in zip(ACTION_KIND, ACTION_TEAM, strict=True)
)
ACTION_INSTANCE = tuple(
    face if ACTION_TEAM[card] >= 0 else f"{face}#{ACTION_FACE[: card + 1].count(face):02d}"
    for card, face in enumerate(ACTION_FACE)
)
FACES = frozenset(ACTION_FACE)
# The faces numbered (team cards first, then the common ones, as the cards are): a set of faces is a bit mask of these,
# for the public history of moves a view keeps (rules.py) and the beliefs that read it (bots.py).
FACE_LIST = tuple(dict.fromkeys(ACTION_FACE))
FACE_ID = {face: number for number, face in enumerate(FACE_LIST)}
FACE_OF = tuple(FACE_ID[face] for face in ACTION_FACE)  # action id -> face number
IS_TEAM_FACE = {face: ACTION_TEAM[ACTION_FACE.index(face)] >= 0 for face in FACES}

assert PLAYER_CARDS == 28 and ACTION_CARDS == 88


def player_team(card: int) -> int:
    return card >> 2


def player_position(card: int) -> int:
    return card & 3


def face_team(face: str) -> int:
    """The team a team card's face names (``SUPERSHOT-VIK`` -> Vikings), or -1."""
    _, _, team = face.partition("-")
    return TEAMS.index(team) if team else -1


def face_kind(face: str) -> str:
    return face.partition("-")[0]


def label_player(card: int) -> str:
    return f"{TEAM_NAMES[card >> 2]} {POSITION_NAMES[card & 3]} ({ATTACK[card & 3]}/{DEFENCE[card & 3]})"


ACTION_NAMES = {
    OWNER: "Millionaire Owner",
    AGENT: "Greedy Agent",
    SUPERSHOT: "Super Shot",
    SUPERSAVE: "Super Save",
    SHOOT: "Shoot",
    SAVE: "Save",
    OFFSIDE: "Offside",
    COUNTER: "Counter Attack",
    EAGLE: "Eagle Eye",
    BUS: "Park the Bus",
    CUPRUN: "Dazzling Cup Run",
    SAMBA: "Samba Fever",
    BANKRUPT: "Bankruptcy",
    RED: "Red Card",
    INJURY: "Injury",
    FREE: "Free Transfer",
    INSIDER: "Insider Trading",
    WINDOW: "Transfer Window",
}
_ACTIVATED = "when your team board is the {teams}' or a {team} player is on your board"
ACTION_TEXT = {
    OWNER: "Pick up two action cards; three with two {team} players on your board.",
    AGENT: "Steal one action card, chosen blind, from another player's hand; two with two {team} players on your "
    "board.",
    SUPERSHOT: "A shot at goal. Activated (" + _ACTIVATED + "), only a Super Save or an Offside stops it; otherwise "
    "it is a plain Shoot.",
    SUPERSAVE: "Stops a plain shot. Activated (" + _ACTIVATED + "), it stops a Super Shot too; otherwise it is a "
    "plain Save.",
    SHOOT: "A shot at goal, played by the attacker in a match: unless it is stopped, the attacker takes one of the "
    "defender's shields.",
    SAVE: "The defender stops a plain shot (not an activated Super Shot).",
    OFFSIDE: "Stops any shot. The defender or any player outside the match may play it.",
    COUNTER: "Cancels a plain shot (not an activated Super Shot) and makes its player the attacker, who must then "
    "shoot. The defender or any player outside the match may play it.",
    EAGLE: "+4 attack for one match, played with a challenge or in its exchange; as many as you like.",
    BUS: "+4 defence for one match, played against a challenge; as many as you like.",
    CUPRUN: "Played with a challenge: the challenge stands whatever the points.",
    SAMBA: "From you round the table, everyone picks up one action card.",
    BANKRUPT: "Another player loses two action cards, chosen blind, to the discard pile.",
    RED: "Another player misses a turn (Red Cards stack).",
    INJURY: "An opponent's active player goes to the player discard pile.",
    FREE: "Steal an opponent's active player into your hand.",
    INSIDER: "Take an opponent's active player and give it to any other player, into their hand.",
    WINDOW: "One player card per player is dealt face up; from you round the table, each takes one.",
}


def _player_face(card: int) -> CardFace:
    team, position = card >> 2, card & 3
    details = {
        "team": TEAMS[team],
        "team_name": TEAM_NAMES[team],
        "position": POSITIONS[position],
        "position_name": POSITION_NAMES[position],
        "attack": ATTACK[position],
        "defence": DEFENCE[position],
    }
    name = f"{TEAM_NAMES[team].removesuffix('s')} {POSITION_NAMES[position]}"  # "a Zulu Goalkeeper", as the rulebook
    text = f"On your board: +{ATTACK[position]} attack, +{DEFENCE[position]} defence."
    return CardFace(PLAYER_CODES[card], name, "player", text=text, details=details)


def _action_face(face: str) -> CardFace:
    kind, team = face_kind(face), face_team(face)
    details: dict[str, str | int | bool | tuple[str, ...]] = {"action": kind, "training": kind in TRAINING}
    name = ACTION_NAMES[kind]
    text = ACTION_TEXT[kind]
    if team >= 0:
        details |= {"team": TEAMS[team], "team_name": TEAM_NAMES[team]}
        one = TEAM_NAMES[team].removesuffix("s")  # "the Roman Millionaire Owner Card", as the rulebook
        name = f"{one} {name}"
        text = text.replace("{teams}", TEAM_NAMES[team]).replace("{team}", one)
    return CardFace(face, name, "action", copies=ACTION_FACE.count(face), text=text, details=details)


CATALOGUE: tuple[CardFace, ...] = tuple(_player_face(card) for card in range(PLAYER_CARDS)) + tuple(
    _action_face(face) for face in dict.fromkeys(ACTION_FACE)
)
