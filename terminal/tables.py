"""How each game's table is drawn: its seats, its public state, the viewer's hand, its events and its moves, as plain
text lines (the screens put them in widgets).

The renderer is chosen by the view's oneof (``View.WhichOneof("game")``): ``soker``, ``age_of_soccer``, ``carta``, or
``generic`` for a game without messages of its own, whose Struct is drawn as key/value lines. Events and moves are
drawn by their own oneof the same way. This is display only: the client never judges a move (the server does), and the
moves it offers are the ones the server listed.
"""

from __future__ import annotations

import hmac
from collections.abc import Iterable, Sequence
from typing import Any, ClassVar

from google.protobuf import json_format
from google.protobuf.message import Message

from deals import scheme
from kickoff.v1 import chat_pb2, common_pb2, move_pb2

MAX_LABEL = 60
SEAT_MARK = {  # what ends a seat's line once the game is over
    common_pb2.SEAT_RESULT_WON: "winner",
    common_pb2.SEAT_RESULT_SHARED_WIN: "shared win",
    common_pb2.SEAT_RESULT_DRAWN: "draw",
}

# The quick reactions in the order of their keys (1-6), in the words the client shows (docs/guides/chat.md): the server
# sends only their keys.
REACTIONS = (
    (chat_pb2.CHAT_REACTION_GOOD_GAME, "Good game"),
    (chat_pb2.CHAT_REACTION_WELL_PLAYED, "Well played"),
    (chat_pb2.CHAT_REACTION_OOPS, "Oops"),
    (chat_pb2.CHAT_REACTION_THANKS, "Thanks"),
    (chat_pb2.CHAT_REACTION_HURRY_UP, "Hurry up, please"),
    (chat_pb2.CHAT_REACTION_ONE_MORE, "One more?"),
)
REACTION_TEXT = dict(REACTIONS)


class SeatBook:
    """Who sits where: names and teams from the room's seats, which seat is the viewer's, and the ratings (in the
    room's game) of the players holding seats, as far as they are known."""

    def __init__(self, seats: Sequence[common_pb2.Seat] = (), viewer: int | None = None) -> None:
        self.viewer = viewer
        self.results: tuple[int, ...] = ()  # each seat's SeatResult, once the game is over
        self.ratings: dict[str, str] = {}  # a player's id: their rating, as shown
        self.seats: dict[int, common_pb2.Seat] = {}
        for seat in seats:
            self.take(seat)

    def take(self, seat: common_pb2.Seat) -> None:
        record = common_pb2.Seat()
        record.CopyFrom(seat)
        self.seats[seat.seat] = record

    @property
    def count(self) -> int:
        return max(self.seats, default=-1) + 1

    @property
    def has_teams(self) -> bool:
        """Whether the game has teams (in a game without, every seat is its own team: team = seat)."""
        return any(seat.team != number for number, seat in self.seats.items())

    def name(self, seat: int | None) -> str:
        if seat is None:
            return "the table"
        if seat == self.viewer:
            return "you"
        record = self.seats.get(seat)
        if record is None or not record.name:
            return f"seat {seat}"
        if any(other.name == record.name for number, other in self.seats.items() if number != seat):
            return f"{record.name} {seat}"  # two "heuristic bot"s: tell them apart
        return record.name

    def title(self, seat: int) -> str:
        """The seat's name as a heading: its own name, marked when it is the viewer's or a system player's, and
        when a system player stands in for its person."""
        record = self.seats.get(seat)
        if record is not None and record.stand_in:
            return f"{self._title(seat, record)} ({record.stand_in} stand-in)"
        return self._title(seat, record)

    def _title(self, seat: int, record: common_pb2.Seat | None) -> str:
        if seat == self.viewer:
            return f"{record.name if record is not None and record.name else f'seat {seat}'} (you)"
        name = self.name(seat)
        if record is not None and record.kind == common_pb2.SEAT_KIND_SYSTEM and "bot" not in name.lower():
            return f"{name} (bot)"
        if record is not None and not record.taken:
            return "(free)"
        return name

    def rating(self, seat: int) -> str:
        """The seat's player's rating, shown as "[12.3]" ("" for a seat no player holds, or a rating not known)."""
        record = self.seats.get(seat)
        if record is None or not record.player_id or not record.taken:
            return ""
        rating = self.ratings.get(record.player_id)
        return f"[{rating}]" if rating else ""

    def label(self, seat: int, width: int = 0) -> str:
        """The seat's title with its player's rating beside it; with ``width``, fitted to it (the title shortened,
        never the rating) and padded."""
        title, rating = self.title(seat), self.rating(seat)
        if not width:
            return f"{title} {rating}" if rating else title
        text = f"{title[: max(width - len(rating) - 1, 1)]} {rating}" if rating else title[:width]
        return f"{text:<{width}}"

    def team(self, seat: int) -> int:
        record = self.seats.get(seat)
        return record.team if record is not None else seat

    def names(self, seats: Iterable[int]) -> str:
        return ", ".join(self.name(seat) for seat in seats) or "nobody"

    def mark(self, seat: int) -> str:
        """What ends a seat's line once the game is over: its result (nothing for a seat that lost)."""
        result = self.results[seat] if seat < len(self.results) else common_pb2.SEAT_RESULT_UNSPECIFIED
        return f"  {SEAT_MARK[result]}" if result in SEAT_MARK else ""


def compact(value: Any) -> str:
    """A short text of a JSON-like value: lists joined by commas, objects as key=value."""
    if isinstance(value, list):
        return ",".join(compact(item) for item in value)
    if isinstance(value, dict):
        return " ".join(f"{key}={compact(item)}" for key, item in value.items())
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def shorten(text: str, limit: int = MAX_LABEL) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _fields(message: Message) -> dict[str, Any]:
    return json_format.MessageToDict(message, preserving_proto_field_name=True)


def kind_label(kind: str, member: Message) -> str:
    """A move's text from its message: the kind, then its fields (text and cards bare, numbers as key=value, true
    flags by name); e.g. "play JUV-GKP", "draw", "play B-JOKER-10 shot", "play AGENT-VIK target=2 positions=2,1"."""
    words = [kind.replace("_", " ")]
    for key, value in _fields(member).items():
        if isinstance(value, bool):
            if value:
                words.append(key.replace("_", " "))
        elif isinstance(value, str):
            words.append(value)
        elif isinstance(value, list) and all(isinstance(item, str) for item in value):
            words.append(" ".join(value))
        else:
            words.append(f"{key}={compact(value)}")
    return shorten(" ".join(words))


class TableRenderer:
    """The default drawing of a game whose view is a Struct (``generic``); the games with messages of their own
    override what they draw differently."""

    game = "generic"

    # -- the view -----------------------------------------------------------------------------------------------------

    def seat_lines(self, view: Any, book: SeatBook, to_act: Sequence[int]) -> list[str]:
        lines = []
        for seat in range(book.count):
            team = f"  team {book.team(seat)}" if book.has_teams else ""
            lines.append(f"{_marker(seat, to_act)}{seat} {book.label(seat)}{team}{book.mark(seat)}")
        return lines

    def state_lines(self, view: Any, book: SeatBook) -> list[str]:
        data = _fields(view.data) if view is not None else {}
        return [shorten(f"{key}: {compact(data[key])}", 200) for key in sorted(data) if key != "hand"]

    def hand_text(self, view: Any) -> str:
        data = _fields(view.data) if view is not None else {}
        return compact(data["hand"]) if "hand" in data else ""

    # -- events and moves ---------------------------------------------------------------------------------------------

    def event_text(self, event: Any, book: SeatBook) -> str:
        data = _fields(event.data)
        kind = data.pop("type", "event")
        seat = data.pop("seat", None)
        who = book.name(int(seat) if isinstance(seat, int | float) and seat >= 0 else None) if seat is not None else ""
        rest = " ".join(f"{key}={compact(value)}" for key, value in data.items())
        return " ".join(part for part in (who, kind.replace("_", " "), rest) if part)

    def move_label(self, member: Any) -> str:
        kind = member.WhichOneof("kind")
        return kind_label(kind, getattr(member, kind)) if kind else shorten(compact(_fields(member)))

    # -- shared -------------------------------------------------------------------------------------------------------

    PHRASES: ClassVar[dict[str, str]] = {}
    PHRASE_FIELDS: ClassVar[frozenset[str]] = frozenset()

    def _event_words(self, kind: str, event: Any, book: SeatBook) -> str:
        """An event of a game whose events carry a ``kind``, optional seats, and cards (Age of Soccer, Carta): the
        game's phrase for the kind where it has one (its fields by name: who, target, cards...), then any other field
        the event carries as key=value; else the kind's words and every field."""
        fields = _fields(event)
        private = f"[{' '.join(event.private_cards)}]" if event.private_cards else ""
        cards = " ".join(part for part in (" ".join(event.cards), private) if part)
        target = book.name(event.target) if event.HasField("target") else ""
        words = {
            **{key: _score(value) for key, value in fields.items()},
            "who": book.name(event.seat) if event.HasField("seat") else "the table",
            "target": target,
            "on_target": f"on {target}" if target else "",
            "cards": cards or f"{event.count or 'a'} card{'s' if event.count != 1 else ''}",
        }
        phrase = self.PHRASES.get(kind)
        if phrase is None:
            text = f"{words['who']} {kind.replace('_', ' ')}" + (f" {cards}" if cards else "")
            text += f" -> {words['target']}" if words["target"] else ""
            used = {"kind", "seat", "target", "cards", "private_cards"}
        else:
            text = " ".join(phrase.format_map(_Blank(words)).split()).replace(" )", ")").replace(" ()", "")
            used = {"kind", "seat", "target", "cards", "private_cards", "count", *self.PHRASE_FIELDS}
            used |= {name for name in fields if "{" + name + "}" in phrase}
        extra = " ".join(f"{key}={compact(value)}" for key, value in fields.items() if key not in used)
        return f"{text} ({extra})" if extra else text


def _score(value: Any) -> str:
    """A field's text in a phrase: numbers per team as a score ("1-3"), anything else compact."""
    if isinstance(value, list) and value and all(isinstance(item, int | float) for item in value):
        return "-".join(compact(item) for item in value)
    return compact(value)


class _Blank(dict[str, str]):
    """Format fields: a field the event does not carry is blank."""

    def __missing__(self, key: str) -> str:
        return ""


def _marker(seat: int, to_act: Sequence[int]) -> str:
    return "> " if seat in to_act else "  "


class SokerTable(TableRenderer):
    game = "soker"

    def seat_lines(self, view: Any, book: SeatBook, to_act: Sequence[int]) -> list[str]:
        lines = []
        for seat in range(max(book.count, len(view.hand_sizes))):
            held = view.hand_sizes[seat] if seat < len(view.hand_sizes) else 0
            points = view.points[seat] if seat < len(view.points) else 0
            lines.append(
                f"{_marker(seat, to_act)}{seat} {book.label(seat, 18)} {held:>2} cards {points:>3} pts"
                + book.mark(seat)
            )
        return lines

    def state_lines(self, view: Any, book: SeatBook) -> list[str]:
        top = view.top_card or "-"
        if view.joker_as_club:
            top += f" (as {view.joker_as_club})"
        turn = book.name(view.current) + (" (has drawn)" if view.drawn else "")
        return [f"Top card: {top}", f"Deck: {view.deck_size}  Discard: {view.discard_size}", f"Turn: {turn}"]

    def hand_text(self, view: Any) -> str:
        return " ".join(view.hand)

    def event_text(self, event: Any, book: SeatBook) -> str:
        kind = event.WhichOneof("kind")
        body = getattr(event, kind) if kind else None
        if kind == "turn_began":
            return f"{book.name(body.seat)}: turn begins"
        if kind == "played":
            text = f"{book.name(body.seat)} played {' '.join(body.cards)}"
            if body.joker_as_club:
                text += f" (Joker as {body.joker_as_club})"
            return text + (" - link!" if body.link else "")
        if kind == "drew":
            card = body.card or ("a card" if body.count else "nothing")
            cause = {"red": " (red card penalty)", "table": " (the clock ran out)"}.get(body.cause, "")
            return f"{book.name(body.seat)} drew {card}{cause}"
        if kind == "reshuffled":
            return f"the discard pile became a new deck of {body.deck_size}"
        if kind == "skipped":
            one = len(body.seats) == 1 and body.seats[0] != book.viewer  # "you skip", "ann skips", "ann, bo skip"
            return f"{book.names(body.seats)} skip{'s' if one else ''} a turn ({body.cause})"
        if kind == "turn_ended":
            return f"{book.name(body.seat)} ended the turn" + (" (the clock ran out)" if body.by_table else "")
        return kind or "event"


AOS_POSITIONS = ("GK", "DF", "MF", "AT")


class AgeOfSoccerTable(TableRenderer):
    game = "age_of_soccer"
    PHRASES: ClassVar[dict[str, str]] = {
        "turn_began": "{who}: turn begins",
        "missed_turn": "{who} missed the turn (red card)",
        "drew": "{who} drew {cards} from the {deck} ({cause})",
        "reshuffled": "the {deck} discard pile became a new deck of {count}",
        "traded": "{who} traded {cards}",
        "played": "{who} played {cards} {on_target}",
        "boarded": "{who} boarded {cards}: attack {attack}, defence {defence}",
        "benched": "{who} benched {cards}: attack {attack}, defence {defence}",
        "trained": "{who} trained",
        "discarded": "{who} discarded {cards}",
        "dealt": "transfer window opens: {cards}",
        "drafted": "{who} drafted {cards}",
        "challenged": "{who} challenged {target}",
        "boosted": "{who} boosted: {cards}",
        "passed": "{who} passed",
        "challenge_stands": "the challenge on {target} stands",
        "challenge_falls": "the challenge on {target} falls",
        "shot": "{who} shot: {cards}",
        "answered": "{who} answered: {cards}",
        "stopped": "{who} stopped the shot",
        "countered": "{who} countered!",
        "scored": "{who} scored against {target}",
        "shield": "{who} won a shield ({cards}) from {target}",
        "draw": "the match is a draw",
        "stopped_shooting": "{who} stopped shooting",
        "ended_turn": "{who} ended the turn",
        "timed_out": "{who} ran out of time",
    }
    PHRASE_FIELDS = frozenset({"attack", "defence", "activated"})

    def seat_lines(self, view: Any, book: SeatBook, to_act: Sequence[int]) -> list[str]:
        lines = []
        for side in view.seats:
            lines.append(
                f"{_marker(side.seat, to_act)}{side.seat} {book.label(side.seat, 14)} {side.team} "
                f"att {side.attack} def {side.defence} shields {side.shields}{book.mark(side.seat)}"
            )
            board = " ".join(card or f"({pos})" for pos, card in zip(AOS_POSITIONS, side.board, strict=False))
            red = f" red {side.red_cards}" if side.red_cards else ""
            lines.append(f"    {board} won {sum(side.won)} hand {side.players_held}+{side.actions_held}{red}")
        return lines

    def state_lines(self, view: Any, book: SeatBook) -> list[str]:
        lines = [
            f"Turn {view.turn}: {book.name(view.active)}, {view.phase}" + (" (traded)" if view.traded else ""),
            f"Decks: {view.player_deck} players, {view.action_deck} actions; "
            f"discard top {view.action_discard_top or '-'} ({view.action_discard_size})",
        ]
        if view.player_discard:
            lines.append(f"Player discard: {' '.join(view.player_discard[-4:])} ({len(view.player_discard)})")
        if view.challenged:
            lines.append(f"Challenged this turn: {book.names(view.challenged)}")
        if view.HasField("challenge"):
            c = view.challenge
            lines.append(
                f"Challenge on {book.name(c.target)}: eagles {c.eagles}, buses {c.buses}"
                + (", cup run" if c.cuprun else "")
                + f"; {book.name(c.mover)} to boost"
            )
        if view.HasField("match"):
            m = view.match
            lines.append(
                f"Match: {book.name(m.attacker)} attacks {book.name(m.defender)}, {m.shots} shots"
                + (" (counter)" if m.counter else "")
            )
        if view.HasField("shot"):
            lines.append(
                "Shot: "
                + ("super shot" if view.shot.super else "shot")
                + (" (activated)" if view.shot.activated else "")
            )
        if view.HasField("window"):
            w = view.window
            lines.append(f"Answers: {book.names(w.order)}; passed {book.names(w.passed)}")
        if view.HasField("draft"):
            d = view.draft
            lines.append(f"Transfer window: {' '.join(d.cards)}")
        return lines

    def hand_text(self, view: Any) -> str:
        if not view.HasField("hand"):
            return ""
        return f"players: {' '.join(view.hand.players) or '-'} | actions: {' '.join(view.hand.actions) or '-'}"

    def event_text(self, event: Any, book: SeatBook) -> str:
        return self._event_words(event.kind, event, book)

    def move_label(self, member: Any) -> str:
        if member.WhichOneof("kind") == "pick":
            return "pick a player card" if member.pick.player else "pick two action cards"
        return super().move_label(member)


class CartaTable(TableRenderer):
    game = "carta"
    PHRASES: ClassVar[dict[str, str]] = {
        "toss": "{who} called {call}, the coin shows {coin}: team {winner} wins the toss",
        "chose": "{who} chose {choice}",
        "kick_off": "kick-off by team {team} (decks {colours})",
        "dealt": "{who} received {cards}",
        "played": "{who} played {cards} ({action} {value})",
        "laid_down": "{who} laid a card face down ({action})",
        "play_stands": "the play stands ({count} in a row)",
        "won_ball": "{who} won the ball for team {team}",
        "offside_given": "off-side given against {target}",
        "foul": "{who} fouled {target}: {outcome}",
        "luck": "{who} showed {cards}",
        "goal": "GOAL for team {team}! {goals}",
        "saved": "{who} saved it for team {team}",
        "hand_ended": "hand {count} is over",
        "half_time": "half time: {goals}",
        "extra_time": "extra time: {goals}",
        "extra_time_half": "extra time, second half: {goals}",
        "shootout": "penalty shootout: {goals}",
        "kick": "{who} took a penalty (goals {scored}, kicks {kicks})",
        "coin": "the coin decides: team {winner} wins",
    }
    PHRASE_FIELDS = frozenset({"hand", "shootout", "play", "answer", "goal"})

    def seat_lines(self, view: Any, book: SeatBook, to_act: Sequence[int]) -> list[str]:
        return [
            f"{_marker(side.seat, to_act)}{side.seat} {book.label(side.seat, 18)} team {side.team} "
            f"{side.cards:>2} cards{book.mark(side.seat)}"
            for side in view.seats
        ]

    def state_lines(self, view: Any, book: SeatBook) -> list[str]:
        goals = "-".join(str(goal) for goal in view.goals) or "0-0"
        colours = "/".join(colour or "?" for colour in view.colours)
        lines = [f"Goals {goals}  Hand {view.hand}  Phase: {view.phase}", f"Deck colours: {colours}"]
        if view.coin.call:
            lines.append(f"Toss: called {view.coin.call}, showed {view.coin.side}, won by team {view.coin.winner}")
        if view.HasField("ball"):
            lines.append(f"Ball: team {view.ball}, attacking play {view.count}")
        if view.HasField("actor"):
            lines.append(f"To act: {book.name(view.actor)}")
        decks = view.decks
        if any(decks.skill) or any(decks.special) or any(decks.luck):
            left = zip(decks.skill, decks.special, decks.luck, strict=False)
            lines.append(
                "Decks (skill/special/luck): "
                + ", ".join(f"team {team} {a}/{b}/{c}" for team, (a, b, c) in enumerate(left))
            )
        lines.append(f"Face-down pile {view.pile}, played {view.played}")
        if view.HasField("pending"):
            p = view.pending
            card = "face down" if p.down else f"{p.card} ({p.action} {p.value})"
            lines.append(f"Waiting for an answer: {book.name(p.seat)} played {card}")
        if view.HasField("offside"):
            lines.append(f"Off-side by {book.name(view.offside.caller)} ({view.offside.card}): Siga-siga?")
        if view.HasField("shootout"):
            s = view.shootout
            lines.append(f"Shootout: goals {'-'.join(map(str, s.scored))}, kicks {'-'.join(map(str, s.kicks))}")
        return lines

    def hand_text(self, view: Any) -> str:
        return " ".join(view.hand_cards)

    def event_text(self, event: Any, book: SeatBook) -> str:
        text = self._event_words(event.kind, event, book)
        if event.kind in ("luck", "kick"):
            text += " - goal!" if event.goal else " - no goal"
        return text


RENDERERS: dict[str, TableRenderer] = {
    renderer.game: renderer for renderer in (SokerTable(), AgeOfSoccerTable(), CartaTable(), TableRenderer())
}


def renderer_for(game: str | None) -> TableRenderer:
    """The renderer of a view's (or an event's, or a move's) oneof name; the generic one for any other."""
    return RENDERERS.get(game or "generic", RENDERERS["generic"])


def view_parts(view: move_pb2.View) -> tuple[TableRenderer, Any]:
    """The view's renderer and its oneof member (None before the game has begun)."""
    game = view.WhichOneof("game")
    return renderer_for(game), (getattr(view, game) if game else None)


def move_label(move: move_pb2.Move) -> str:
    """A move's text for the list of legal moves: a generic move's wire text, else a compact text of its message."""
    game = move.WhichOneof("game")
    if game is None:
        return "(empty move)"
    if game == "generic":
        return shorten(move.generic.wire)
    return renderer_for(game).move_label(getattr(move, game))


def every_seat_drew(outcome: common_pb2.Outcome) -> bool:
    """Whether the server says the game is a draw for every seat (Outcome.results): nobody won, or every seat is a
    winner (an Age of Soccer game ended on the turn limit with the shields level). Never inferred from the winners."""
    return bool(outcome.results) and all(result == common_pb2.SEAT_RESULT_DRAWN for result in outcome.results)


def sharing_seats(outcome: common_pb2.Outcome) -> list[int]:
    """The seats that share the win (several winners who are not one team), by the server's results."""
    return [seat for seat, result in enumerate(outcome.results) if result == common_pb2.SEAT_RESULT_SHARED_WIN]


def outcome_summary(outcome: common_pb2.Outcome, book: SeatBook) -> str:
    """The game's result in a few words: "a draw", "a shared win for Ana, Bo" or "won by Ana"."""
    if every_seat_drew(outcome):
        return "a draw"
    if shared := sharing_seats(outcome):
        return f"a shared win for {book.names(shared)}"
    return f"won by {book.names(outcome.winners)}"


def outcome_lines(outcome: common_pb2.Outcome, book: SeatBook) -> list[str]:
    """How a game ended: each seat's result as the server decided it (the viewer's own first), who won, why, and the
    points."""
    if outcome.reason == "expired":
        return ["The room closed unplayed (nobody joined in time)."]
    named = ", ".join(f"{book.name(seat)} (seat {seat})" for seat in sharing_seats(outcome))
    mine = outcome.results[book.viewer] if book.viewer is not None and book.viewer < len(outcome.results) else None
    if every_seat_drew(outcome):
        headline = "A draw: every seat finished level." if outcome.winners else "A draw: nobody won."
    elif named and mine != common_pb2.SEAT_RESULT_LOST:
        headline = f"Shared win: {named}"
    elif mine == common_pb2.SEAT_RESULT_WON:
        headline = "You won!"
    elif mine == common_pb2.SEAT_RESULT_LOST:
        headline = "You lost."
    else:
        headline = "Game over."
    winners = ", ".join(f"{book.name(seat)} (seat {seat})" for seat in outcome.winners) or "nobody"
    lines = [headline, f"Winners: {winners}", f"Reason: {outcome.reason.replace('_', ' ')}"]
    if outcome.points:
        lines.append("Points: " + ", ".join(f"{book.name(s)} {p}" for s, p in enumerate(outcome.points)))
    if book.has_teams and outcome.team_points:
        lines.append("Teams: " + ", ".join(f"team {t} {p}" for t, p in enumerate(outcome.team_points)))
        if outcome.winning_teams:
            lines.append("Winning team: " + ", ".join(str(team) for team in outcome.winning_teams))
    return lines


VERIFIED = "Deal verified"
NOT_VERIFIED = "Deal NOT verified: the secret does not match the commitment"
SHORT_COMMITMENT = 12  # the commitment's characters the table shows during play


def deal_verified(deal: common_pb2.Deal, game: str) -> bool | None:
    """The client's own check of a revealed deal (deals/scheme.py, standard library only): whether the secret's
    commitment for the room's ``game`` is the one published before the first card; None when this client cannot tell
    (a scheme it does not know)."""
    if deal.scheme not in scheme.SCHEMES:
        return None
    try:
        made = scheme.commitment(scheme.secret_from_hex(deal.secret), deal.subject, game, deal.scheme)
    except scheme.SchemeError:
        return False
    return hmac.compare_digest(made, deal.commitment.lower())


def deal_lines(deal: common_pb2.Deal | None, game: str, my_seed: str = "", *, file_hint: str = "") -> list[str]:
    """The fair deal (docs/guides/fair-deals.md) as lines: during play its commitment, short, and the seeds; once the
    secret is revealed the client's check ("Deal verified"), the commitment, the secret, the seeds, and how to deal
    the whole game again (``file_hint``: the replay file's command, else ``kickoff verify FILE``). None for a room made
    before fair deals."""
    if deal is None or not deal.commitment:
        return []
    mine = [f"Your seat's seed: {my_seed}"] if my_seed else []
    seeds = f"Seeds: {' '.join(seed or '(none)' for seed in deal.seeds)}" if deal.seeds else "Seeds: fixed at the start"
    if not deal.secret:
        short = f"{deal.commitment[:SHORT_COMMITMENT]}..."
        return [f"Deal committed: {short} (the secret is shown at the end)", *mine, seeds]
    verdict = deal_verified(deal, game)
    said = VERIFIED if verdict else NOT_VERIFIED if verdict is False else f"Deal not checked: scheme {deal.scheme!r}"
    return [
        said,
        f"Commitment: {deal.commitment}",
        f"Secret: {deal.secret}",
        seeds,
        *mine,
        f"Scheme: {deal.scheme}, subject: {deal.subject}",
        file_hint or "Deal the whole game again: kickoff replay --room ID --save FILE, then kickoff verify FILE",
    ]


def room_event_text(event: move_pb2.RoomEvent, book: SeatBook) -> str:
    """One line for one event of a room: the room's own (seats, start, end) or the game's, by its renderer."""
    kind = event.WhichOneof("kind")
    if kind == "seat_taken":
        seat = event.seat_taken.seat
        book.take(seat)
        return f"{seat.name or f'seat {seat.seat}'} took seat {seat.seat}"
    if kind == "seat_left":
        return f"seat {event.seat_left.seat} is free again"
    if kind == "stand_in":
        seat, level = event.stand_in.seat, event.stand_in.level
        if seat in book.seats:
            book.seats[seat].stand_in = level
        who = book.name(seat)
        if not level:
            return f"{who} {'are' if who == 'you' else 'is'} back"
        if who == "you":
            return f"a {level} system player stands in for you: your next move takes your seat back"
        return f"a {level} system player stands in for {who}"
    if kind == "game_started":
        return f"the game begins: {book.name(event.game_started.first_seat)} first"
    if kind == "game_ended":
        outcome = event.game_ended.outcome
        return f"game over ({outcome.reason.replace('_', ' ')}): {outcome_summary(outcome, book)}"
    if kind == "game":
        game = event.game.WhichOneof("game")
        if game is None:
            return "(empty event)"
        return renderer_for(game).event_text(getattr(event.game, game), book)
    return kind or "(empty event)"
