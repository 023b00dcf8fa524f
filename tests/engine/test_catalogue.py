"""Each game's card catalogue: every card dealt has its face, with what the rulebook prints on it, so that a front-end
draws the table from the catalogue alone."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.registry import get_game

HOSTED = ("soker", "age-of-soccer", "carta-futbol-club")


@pytest.mark.parametrize("name", HOSTED)
def test_every_card_dealt_has_its_face_and_the_copies_are_the_deck(name: str) -> None:
    game = get_game(name)
    faces = game.catalogue()
    codes = [face.code for face in faces]
    assert len(codes) == len(set(codes)), "a face listed twice"
    state = game.new_game(game.spec.seat_counts[0], None, 7)
    dealt = Counter(card.partition("#")[0] for cards in state.locations().values() for card in cards)
    assert dealt == {face.code: face.copies for face in faces}
    assert sum(dealt.values()) == game.spec.deck_size
    assert all(face.name and face.kind for face in faces)


def _luminance(rgb: str) -> float:
    def channel(value: float) -> float:
        return value / 12.92 if value <= 0.03928 else ((value + 0.055) / 1.055) ** 2.4

    red, green, blue = (channel(int(rgb[i : i + 2], 16) / 255) for i in (1, 3, 5))
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def _contrast(one: str, other: str) -> float:
    light, dark = sorted((_luminance(one), _luminance(other)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


RULEBOOK_CLUBS = {
    "Italy": ("Juventus", "AC Milan", "Inter"),
    "Germany": ("Bayern Munich", "Borussia Dortmund", "Hamburger SV"),
    "Spain": ("Real Madrid", "FC Barcelona", "Atletico Madrid"),
    "England": ("Liverpool", "Manchester United", "Arsenal"),
}


def test_soker_cards_read_as_the_rulebook_draws_them() -> None:
    faces = {face.code: face for face in get_game("soker").catalogue()}
    players = [face for face in faces.values() if face.kind == "player"]
    assert len(players) == 48
    colours = {"Italy": "green", "Germany": "yellow", "Spain": "red", "England": "white"}
    positions = {"GKP": "Goalkeeper", "DEF": "Defender", "MID": "Midfielder", "FRW": "Forward"}
    rings: dict[str, tuple[str, str]] = {}
    for face in players:
        d = face.details
        club, _, position = face.code.partition("-")
        assert (d["club"], d["position"], d["position_name"]) == (club, position, positions[position])
        assert d["club_name"] in RULEBOOK_CLUBS[str(d["country"])], face
        assert d["country_colour"] == colours[str(d["country"])]
        assert d["legend"] and face.name == f"{d['club_name']} {positions[position]}"
        # the ring: one colour a club, readable on its country's background (3:1, as WCAG asks of a graphic)
        assert rings.setdefault(club, (str(d["ring_colour"]), str(d["ring_rgb"]))) == (d["ring_colour"], d["ring_rgb"])
        assert _contrast(str(d["ring_rgb"]), str(d["country_rgb"])) >= 3, face
    assert len(rings) == 12 and len({word for word, _ in rings.values()}) == 12
    assert len({rgb for _, rgb in rings.values()}) == 12
    assert faces["JUV-FRW"].details["legend"] == "Alessandro Del Piero"
    specials = Counter(face.kind for face in faces.values() if face.kind != "player")
    assert specials == {"yellow": 4, "red": 2, "joker": 4}
    assert "every opponent draws one card" in faces["RED-1"].text
    assert all(faces[code].text for code in ("YELLOW-1", "JOKER-1"))


def test_age_of_soccer_cards_carry_their_points_and_what_they_do() -> None:
    faces = {face.code: face for face in get_game("age-of-soccer").catalogue()}
    points = {"GK": (0, 3), "DF": (1, 2), "MF": (2, 1), "AT": (3, 0)}
    players = [face for face in faces.values() if face.kind == "player"]
    assert len(players) == 28
    for face in players:
        team, _, position = face.code.partition("-")
        assert (face.details["team"], face.details["position"]) == (team, position)
        assert (face.details["attack"], face.details["defence"]) == points[position]
    assert faces["ZUL-GK"].name == "Zulu Goalkeeper"
    actions = [face for face in faces.values() if face.kind == "action"]
    assert sum(face.copies for face in actions) == 88 and all(face.text for face in actions)
    training = {face.details["action"] for face in actions if face.details["training"]}
    # the rulebook's training cards; the others are played in a match
    assert training == {"OWNER", "AGENT", "SAMBA", "BANKRUPT", "RED", "INJURY", "FREE", "INSIDER", "WINDOW"}
    assert (faces["SHOOT"].copies, faces["SAVE"].copies, faces["EAGLE"].name) == (12, 10, "Eagle Eye")
    assert faces["OWNER-ROM"].name == "Roman Millionaire Owner" and "Roman" in faces["OWNER-ROM"].text
    assert faces["SUPERSHOT-VIK"].details["team"] == "VIK" and "Super Save" in faces["SUPERSHOT-VIK"].text


def test_carta_cards_carry_their_deck_number_and_actions() -> None:
    faces = {face.code: face for face in get_game("carta-futbol-club").catalogue()}
    assert {face.details["deck"] for face in faces.values()} == {"blue", "green"}
    for deck in "BG":
        assert [faces[f"{deck}-PI-{n}"].details["number"] for n in range(1, 11)] == list(range(1, 11))
        assert faces[f"{deck}-SS-3"].details["actions"] == ("shot", "save")
        assert len(faces[f"{deck}-JOKER-8"].details["actions"]) == 6
        copies = {kind: faces[f"{deck}-{kind}"].copies for kind in ("CANITO", "OFFSIDE", "SIGA", "SUPER", "GOAL")}
        assert copies == {"CANITO": 5, "OFFSIDE": 4, "SIGA": 4, "SUPER": 5, "GOAL": 6}
        assert faces[f"{deck}-CANITO"].details["group"] == "special"
        assert faces[f"{deck}-NOGOAL"].details["group"] == "luck"
    # a Special card's text, as the rulebook has it read aloud
    assert faces["B-CANITO"].text == "Counts as one attacking play. Only a Super Defensa stops it."
    assert faces["G-OFFSIDE"].text == "Called after any pass. Cancelled with Siga-siga."
    assert all(face.text for face in faces.values() if face.details["group"] == "special")
