"""Soker's rules: the state, the legal moves, applying a move, views, outcome.

The rulebook is ``shared/rules/000_7727e0f0b8c80caa.txt``; the house defaults for what it leaves open are in that
folder's README. Where both are silent, the choices below are what a player at a real table would expect:

* **A Joker in a package is always legal.** A special card is always legal, and a package is legal when one of its
  cards is, so a Joker makes any same-club package legal.
* **A Joker that ends a package lies on top as that club's card** (house default). It has that club's country and no
  position, so the next card must match the country (or be a special), and a card of the same club on it is a Link. It
  is not a special card on top, so it gives no free play.
* **A package holds at least one player card** and any number of the player's Jokers; two Jokers alone are no package.
  Yellow and Red never join one.
* **Only the player who just played can win** by that play (the rulebook: "checked immediately after you play"). A
  winning Red ends the game at once: the opponents' penalty draws would change no score.
* **The draw** is always available until the player has drawn this turn, even with nothing left to draw; then it takes
  nothing, and the player may only play or end the turn. Ending a turn is allowed only after drawing.
* **Red's penalty draws** go to the opponents in seat order from the player's left, each with the reshuffle rule.
* **Stalemate** counts turns that *begin* with nothing left to draw (deck empty, the discard pile only its top card) and
  end with no card played (house default). A turn that begins with a card to draw, whoever draws it (the player or the
  table), resets the count, and so does a play: whoever drew the last card always gets a later turn to play it. When
  the count reaches two full rounds (2 x seats), the game ends without a winner.
* **The table's move** for a seat whose clock ran out is one move, ``timeout``: draw one card unless the player already
  drew this turn, then end the turn. Players cannot choose it: ``apply`` takes it only with ``by_table=True``.
* **Skips** are applied when the turn passes: after a Link the next player in seat order loses one turn (with two
  players that gives the player another turn); after a Yellow or Red every opponent skips, i.e. the player takes a new
  turn at once (the draw is available again) on a free top.

Moves are ``SokerMove(kind, cards)`` values: ``play`` (one card, or a same-club package in the order given - the last
becomes the top discard), ``draw``, ``end`` and the table's ``timeout``. ``legal_moves`` lists each distinct play once:
a package's cards in id order with each possible last card; ``apply`` accepts a legal package in any order.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from itertools import combinations
from typing import Any, NamedTuple

from engine.core import (
    Bot,
    CardFace,
    Game,
    GameOver,
    GameSpec,
    GameState,
    IllegalMove,
    InvalidOptions,
    MalformedMove,
    NotYourTurn,
    OptionSpec,
    Outcome,
    Rng,
)
from engine.soker import cards as C
from engine.soker.cards import (
    BIT,
    BY_CODE,
    CODES,
    DECK_SIZE,
    JOKER_AS_CLUB,
    JOKER_IDS,
    JOKER_MASK,
    LEGAL_ON,
    PLAYER_CARDS,
    PLAYER_MASK,
    RED_MASK,
    TOP_CLUB,
    YELLOW_MASK,
    bits,
    is_country_set,
)

PLAY, DRAW, END, TIMEOUT = "play", "draw", "end", "timeout"
WIN_EMPTY_HAND, WIN_ONE_COUNTRY, STALEMATE = "empty_hand", "one_country", "stalemate"
BONUS = {WIN_EMPTY_HAND: 3, WIN_ONE_COUNTRY: 7}

SPEC = GameSpec(
    name="soker",
    title="Soker",
    seat_counts=(2, 3, 4),
    deck_size=DECK_SIZE,
    summary="A UNO-like game of countries, positions and clubs, with packages, Links and special cards.",
    options=(
        OptionSpec("hand_size", 7, "cards dealt to each seat", minimum=1, maximum=12),
        OptionSpec("first_seat", 0, "the seat that plays first (a tournament rotates it)", minimum=0, maximum=3),
        OptionSpec("turn_seconds", 30, "online clock: seconds for a whole turn (drawing does not restart it)", 5, 600),
    ),
)


# --------------------------------------------------------------------------------------------------------------------
# Moves


class SokerMove(NamedTuple):
    """A move: ``play`` with its cards in order (the last becomes the top discard), ``draw``, ``end`` or ``timeout``."""

    kind: str
    cards: tuple[int, ...] = ()

    @classmethod
    def play(cls, *cards: int | str) -> SokerMove:
        return cls(PLAY, tuple(BY_CODE[c] if isinstance(c, str) else c for c in cards))

    def to_wire(self) -> str:
        """``draw``, ``end``, ``timeout`` or ``play JUV-DEF JUV-FRW JOKER-1``."""
        if self.kind == PLAY:
            return "play " + " ".join(CODES[c] for c in self.cards)
        return self.kind

    @classmethod
    def from_wire(cls, text: str) -> SokerMove:
        if not isinstance(text, str):
            raise MalformedMove(f"a move is text, got {type(text).__name__}")
        words = text.split()
        if not words:
            raise MalformedMove("empty move")
        kind = words[0].lower()
        if kind == PLAY:
            if len(words) < 2:
                raise MalformedMove("'play' needs at least one card code")
            if any(w.upper() not in BY_CODE for w in words[1:]):
                raise MalformedMove(
                    "'play' names a card code that does not exist (club-position, YELLOW-n, RED-n, JOKER-n)"
                )
            return cls(PLAY, tuple(BY_CODE[w.upper()] for w in words[1:]))
        if kind in (DRAW, END, TIMEOUT):
            if len(words) > 1:
                raise MalformedMove(f"'{kind}' takes no cards")
            return MOVE_OF_KIND[kind]
        raise MalformedMove(f"unknown move {words[0]!r} (known: play, draw, end)")

    def __repr__(self) -> str:
        if self.kind == PLAY:
            return "SokerMove.play(" + ", ".join(repr(CODES[c]) for c in self.cards) + ")"
        return f"SokerMove({self.kind!r})"


DRAW_MOVE = SokerMove(DRAW)
END_MOVE = SokerMove(END)
TIMEOUT_MOVE = SokerMove(TIMEOUT)
MOVE_OF_KIND = {DRAW: DRAW_MOVE, END: END_MOVE, TIMEOUT: TIMEOUT_MOVE}
SINGLES = tuple(SokerMove(PLAY, (c,)) for c in range(DECK_SIZE))
_SEAT_TUPLES = tuple((seat,) for seat in range(SPEC.max_seats))
# _OPPONENTS[seats][seat]: the other seats in order from the seat's left.
_OPPONENTS = {n: tuple(tuple((seat + i) % n for i in range(1, n)) for seat in range(n)) for n in SPEC.seat_counts}
# The public moves a view shows (SokerView.history): enough for a seat's latest turns at a table of four.
HISTORY = 32
# The options a sample sets (Soker.sample): the defaults for each number of seats.
_DEFAULT_OPTIONS = {n: SPEC.resolve(n, None) for n in SPEC.seat_counts}


def _packages(club: int, owned: int, jokers: int) -> tuple[tuple[int, bool, SokerMove], ...]:
    """Every distinct package of ``club`` from the club cards owned (a 4-bit mask by position) and the Jokers held (a
    4-bit mask over the four Jokers).

    Each entry is ``(bitmask of its player cards, holds a Joker, move)``. Jokers are interchangeable, so a package with
    ``m`` Jokers uses the ``m`` lowest held; the cards before the last are in id order.
    """
    reals = [4 * club + position for position in bits(owned)]
    joker_ids = [C.JOKER_IDS[0] + j for j in bits(jokers)]
    out = []
    for size in range(1, len(reals) + 1):
        for chosen in combinations(reals, size):
            real_mask = sum(1 << c for c in chosen)
            for m in range(len(joker_ids) + 1):
                if size + m < 2:
                    continue
                used_jokers = joker_ids[:m]
                for last in chosen:
                    rest = sorted([c for c in chosen if c != last] + used_jokers)
                    out.append((real_mask, m > 0, SokerMove(PLAY, (*rest, last))))
                if m:
                    rest = sorted([*chosen, *used_jokers[1:]])
                    out.append((real_mask, True, SokerMove(PLAY, (*rest, used_jokers[0]))))
    return tuple(out)


# (club << 8 | owned << 4 | jokers) -> _packages(club, owned, jokers), filled as hands are seen (at most 3,072 keys).
_PACKAGES: dict[int, tuple[tuple[int, bool, SokerMove], ...]] = {}


# --------------------------------------------------------------------------------------------------------------------
# Events: what a move caused. Each can render itself for one viewer (redacting secrets), as JSON, and as a line of text.


class TurnBegan(NamedTuple):
    seat: int

    def for_viewer(self, viewer: int | None) -> TurnBegan:
        return self

    def to_json(self) -> dict[str, Any]:
        return {"type": "turn_began", "seat": self.seat}

    def describe(self) -> str:
        return f"seat {self.seat} to play"


class Played(NamedTuple):
    seat: int
    cards: tuple[int, ...]
    link: bool
    top: int  # the top key after the play

    def for_viewer(self, viewer: int | None) -> Played:
        return self

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "type": "played",
            "seat": self.seat,
            "cards": [CODES[c] for c in self.cards],
            "link": self.link,
        }
        if self.top >= JOKER_AS_CLUB:
            data["joker_as_club"] = C.CLUBS[self.top - JOKER_AS_CLUB].code
        return data

    def describe(self) -> str:
        what = " + ".join(C.label(c) for c in self.cards)
        noun = "a package" if len(self.cards) > 1 else "a card"
        text = f"seat {self.seat} plays {noun}: {what}"
        if self.top >= JOKER_AS_CLUB:
            text += f" [{C.top_label(self.top)} on top]"
        return text + (" - LINK!" if self.link else "")


class Drew(NamedTuple):
    seat: int
    count: int  # 1, or 0 when nothing was left to draw
    card: int | None  # None when hidden from the viewer or nothing was drawn
    cause: str  # "draw" (the player's choice), "red" (a penalty), "table" (the clock ran out)

    def for_viewer(self, viewer: int | None) -> Drew:
        if viewer == self.seat or self.card is None:
            return self
        return self._replace(card=None)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"type": "drew", "seat": self.seat, "count": self.count, "cause": self.cause}
        if self.card is not None:
            data["card"] = CODES[self.card]
        return data

    def describe(self) -> str:
        why = {"draw": "draws", "red": "draws a penalty card", "table": "has a card drawn by the table"}[self.cause]
        if self.count == 0:
            return f"seat {self.seat} {why}: nothing left to draw"
        return f"seat {self.seat} {why}" + (f": {C.label(self.card)}" if self.card is not None else "")


class Reshuffled(NamedTuple):
    deck_size: int

    def for_viewer(self, viewer: int | None) -> Reshuffled:
        return self

    def to_json(self) -> dict[str, Any]:
        return {"type": "reshuffled", "deck_size": self.deck_size}

    def describe(self) -> str:
        return f"the discard pile is shuffled into a new deck of {self.deck_size} cards"


class Skipped(NamedTuple):
    seats: tuple[int, ...]
    cause: str  # "link", "yellow" or "red"

    def for_viewer(self, viewer: int | None) -> Skipped:
        return self

    def to_json(self) -> dict[str, Any]:
        return {"type": "skipped", "seats": list(self.seats), "cause": self.cause}

    def describe(self) -> str:
        who = ", ".join(f"seat {s}" for s in self.seats)
        return f"{who} skip{'s' if len(self.seats) == 1 else ''} ({self.cause})"


class TurnEnded(NamedTuple):
    seat: int
    by_table: bool  # the clock ran out and the table ended the turn

    def for_viewer(self, viewer: int | None) -> TurnEnded:
        return self

    def to_json(self) -> dict[str, Any]:
        return {"type": "turn_ended", "seat": self.seat, "by_table": self.by_table}

    def describe(self) -> str:
        return f"seat {self.seat} ends the turn" + (" (time ran out: the table played)" if self.by_table else "")


class GameEnded(NamedTuple):
    outcome: Outcome

    def for_viewer(self, viewer: int | None) -> GameEnded:
        return self

    def to_json(self) -> dict[str, Any]:
        return {"type": "game_ended", **self.outcome.to_json()}

    def describe(self) -> str:
        points = ", ".join(f"seat {s}: {p}" for s, p in enumerate(self.outcome.points))
        if not self.outcome.winners:
            return f"stalemate: nobody wins (points {points})"
        how = {WIN_EMPTY_HAND: "by emptying the hand", WIN_ONE_COUNTRY: "with four cards of one country"}
        return f"seat {self.outcome.winners[0]} wins {how[self.outcome.reason]} (points {points})"


# Events are built on every move: ``tuple.__new__`` skips the Python-level ``__new__`` a NamedTuple generates, which
# halves the cost of building one. Same values, same classes.
_event = tuple.__new__


# --------------------------------------------------------------------------------------------------------------------
# Views


@dataclass(frozen=True)
class SokerView:
    """What one seat (``viewer``) or a spectator (``viewer`` None) may see. ``hand`` is the viewer's own, else None.

    Everyone may also see the discard pile under the top card (``under``, ``discard_under`` in JSON, bottom first: each
    of its cards was played face up, or flipped at the deal) and the stalemate count (``idle_turns``, and
    ``idle_start``: whether the turn in hand began with nothing left to draw, so that it counts if it ends without a
    play). Every seat saw each of these happen; a searching system player needs them to deal a table its view could
    have come from (``Soker.sample``). ``history`` holds the latest public moves (who played what, drew, ended a
    turn), for a searching player that weighs its deals by them.
    """

    viewer: int | None
    hand: tuple[int, ...] | None
    hand_sizes: tuple[int, ...]
    top_card: int  # the card lying on top of the discard pile
    top: int  # what it stands for: the same card, or JOKER_AS_CLUB + club for a Joker that ended a package
    deck_size: int
    discard_size: int
    current: int
    drawn: bool
    points: tuple[int, ...]
    version: int
    outcome: Outcome | None
    under: tuple[int, ...]  # the discard pile under the top card, bottom first
    idle_turns: int
    idle_start: bool
    # The latest public moves, oldest first (at most HISTORY): (seat, the top key it saw, kind, the cards it played).
    # Every seat saw each of them (a draw names no card); a searching system player reads them to weigh the deals it
    # samples (engine/soker/bots.py: beliefs). Not in ``to_json``: the events already told every client.
    history: tuple[tuple[int, int, str, tuple[int, ...]], ...] = ()

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "viewer": self.viewer,
            "hand_sizes": list(self.hand_sizes),
            "top": CODES[self.top_card],
            "deck_size": self.deck_size,
            "discard_size": self.discard_size,
            "current": self.current,
            "drawn": self.drawn,
            "points": list(self.points),
            "version": self.version,
            "outcome": self.outcome.to_json() if self.outcome else None,
            "discard_under": [CODES[c] for c in self.under],
            "idle_turns": self.idle_turns,
            "idle_start": self.idle_start,
        }
        if self.top >= JOKER_AS_CLUB:
            data["joker_as_club"] = C.CLUBS[self.top - JOKER_AS_CLUB].code
        if self.hand is not None:
            data["hand"] = [CODES[c] for c in self.hand]
        return data


# --------------------------------------------------------------------------------------------------------------------
# The state


class SokerState(GameState):
    """One Soker game. Hands are bitmasks of card ids; the deck draws from its end; the last discard is on top."""

    __slots__ = (
        "seats",
        "options",
        "hands",
        "deck",
        "discard",
        "top",
        "current",
        "drawn",
        "played",
        "idle_turns",
        "idle_start",
        "result",
        "rng",
        "version",
        "turns",
        "history",
    )

    def __init__(self) -> None:  # use Soker.new_game or Soker.state_from_json
        self.seats = 0
        self.options: dict[str, Any] = {}
        self.hands: list[int] = []
        self.deck: list[int] = []
        self.discard: list[int] = []
        self.top = 0
        self.current = 0
        self.drawn = False
        self.played: list[int] = []
        self.idle_turns = 0
        self.idle_start = False  # the turn in hand began with nothing left to draw
        self.result: Outcome | None = None
        self.rng = Rng(0)
        self.version = 0
        self.turns = 1  # turns begun (the first begins with the deal); the online clock restarts with each
        # The latest public moves (seat, top key before, kind, cards played), oldest first; trimmed to HISTORY.
        self.history: list[tuple[int, int, str, tuple[int, ...]]] = []

    # -- asking -----------------------------------------------------------------------------------------------------

    def to_act(self) -> tuple[int, ...]:
        return () if self.result is not None else _SEAT_TUPLES[self.current]

    def outcome(self) -> Outcome | None:
        return self.result

    def hand(self, seat: int) -> list[int]:
        """The card ids in ``seat``'s hand, lowest first."""
        return bits(self.hands[seat])

    def legal_moves(self, seat: int) -> list[SokerMove]:
        if self.result is not None or seat != self.current:
            return []
        hand = self.hands[seat]
        legal = LEGAL_ON[self.top]
        moves = [END_MOVE if self.drawn else DRAW_MOVE]
        m = hand & legal
        while m:
            low = m & -m
            moves.append(SINGLES[low.bit_length() - 1])
            m ^= low
        players = hand & PLAYER_MASK
        if not players:
            return moves
        jokers = hand & JOKER_MASK
        if jokers:
            clubs = players | players >> 1 | players >> 2 | players >> 3
        else:
            # Clubs holding two or more cards: count the bits of each nibble at once (SWAR), keep counts of 2 or more.
            counts = players - (players >> 1 & 0x555555555555)
            counts = (counts & 0x333333333333) + (counts >> 2 & 0x333333333333)
            clubs = counts >> 1 | counts >> 2
        clubs &= 0x111111111111  # bit 4k set: club k can make a package
        while clubs:
            low = clubs & -clubs
            shift = low.bit_length() - 1
            key = shift << 6 | ((players >> shift) & 0xF) << 4 | jokers >> 54  # (club << 8) == (shift << 6)
            packages = _PACKAGES.get(key)
            if packages is None:
                packages = _PACKAGES[key] = _packages(shift >> 2, (players >> shift) & 0xF, jokers >> 54)
            for real_mask, with_joker, move in packages:
                if with_joker or real_mask & legal:
                    moves.append(move)
            clubs ^= low
        return moves

    def can_draw(self) -> bool:
        """Whether a draw would take a card (the deck, or the discard pile under its top card)."""
        return bool(self.deck) or len(self.discard) > 1

    # -- applying -------------------------------------------------------------------------------------------------

    def apply(self, seat: int, move: SokerMove, *, by_table: bool = False) -> list[Any]:
        if self.result is not None:
            raise GameOver("the game is over")
        if seat != self.current:
            raise NotYourTurn(f"it is seat {self.current}'s turn, not seat {seat}'s")
        if type(move) is not SokerMove:
            raise MalformedMove(f"not a Soker move: {move!r}")
        kind, cards = move
        top = self.top
        if kind == PLAY:
            if type(cards) is not tuple:
                raise MalformedMove(f"a play's cards are a tuple of card ids, got {cards!r}")
            events = self._play(seat, cards)
            self._note((seat, top, PLAY, cards))
            return events
        if kind == DRAW:
            if self.drawn:
                raise IllegalMove("you have already drawn this turn: play a card or end the turn", code="already_drew")
            events: list[Any] = []
            self._draw(seat, "draw", events)
            self.drawn = True
        elif kind == END:
            if not self.drawn:
                raise IllegalMove("draw a card before ending the turn", code="must_draw_first")
            events = self._end_turn(seat, by_table=False)
        elif kind == TIMEOUT:
            if not by_table:
                raise IllegalMove("only the table plays 'timeout', when the clock runs out", code="table_only")
            events = []
            if not self.drawn:
                self._draw(seat, "table", events)
                self.drawn = True
            events += self._end_turn(seat, by_table=True)
        else:
            raise MalformedMove(f"unknown move kind {kind!r}")
        self.version += 1
        self._note((seat, top, kind, ()))
        return events

    def _note(self, record: tuple[int, int, str, tuple[int, ...]]) -> None:
        """Keep a public move in the history (trimmed to the latest HISTORY now and then, not at every move)."""
        history = self.history
        history.append(record)
        if len(history) > 2 * HISTORY:
            del history[:-HISTORY]

    def timeout_move(self, seat: int) -> SokerMove:
        return TIMEOUT_MOVE

    def clock_key(self, seat: int) -> int:
        """The turn: drawing does not restart the clock; a new turn (a Yellow's or Red's included) does."""
        return self.turns

    def _check_play(self, seat: int, cards: tuple[int, ...]) -> tuple[int, int]:
        """Validate a play; returns (its cards as a bitmask, the club of a package or -1)."""
        if not cards:
            raise MalformedMove("a play needs at least one card")
        hand = self.hands[seat]
        mask = 0
        for c in cards:
            if type(c) is not int or not 0 <= c < DECK_SIZE:
                raise MalformedMove(f"not a card: {c!r}")
            if mask >> c & 1:
                raise IllegalMove("a card appears twice in the play", code="duplicate_card", cards=(CODES[c],))
            mask |= 1 << c
        if mask & ~hand:
            missing = tuple(CODES[c] for c in bits(mask & ~hand))
            raise IllegalMove("a card played is not in your hand", code="card_not_in_hand", cards=missing)
        legal = LEGAL_ON[self.top]
        if len(cards) == 1:
            if not mask & legal:
                raise IllegalMove(
                    "the card matches neither the country nor the position of the top card",
                    code="no_match",
                    cards=(CODES[cards[0]],),
                )
            return mask, -1
        if mask & (YELLOW_MASK | RED_MASK):
            raise IllegalMove("Yellow and Red cards never join a package", code="special_in_package")
        players = mask & PLAYER_MASK
        if not players:
            raise IllegalMove("a package needs at least one player card", code="package_without_club")
        club = (players.bit_length() - 1) >> 2
        if players & ~C.CLUB_MASKS[club]:
            raise IllegalMove("a package's cards must all be of one club (a Joker may join)", code="mixed_clubs")
        if not (mask & JOKER_MASK or players & legal):
            raise IllegalMove("no card of the package matches the top card", code="no_match")
        return mask, club

    def _play(self, seat: int, cards: tuple[int, ...]) -> list[Any]:
        top = self.top
        hand = self.hands[seat]
        last = cards[-1] if cards else -1
        if len(cards) == 1 and type(last) is int and 0 <= last < DECK_SIZE and (LEGAL_ON[top] & hand) >> last & 1:
            # The common case, checked inline: one legal card from the hand. A Link when it continues the club on
            # top (a lone Joker never is).
            link = last < PLAYER_CARDS and TOP_CLUB[top] == last >> 2
            new_top = last
            hand ^= 1 << last
            self.discard.append(last)
        else:
            mask, club = self._check_play(seat, cards)
            cards = tuple(cards)
            if club >= 0:  # a package is always a Link; a Joker on its end stands for the club
                link = True
                new_top = last if last < PLAYER_CARDS else JOKER_AS_CLUB + club
            else:
                link = last < PLAYER_CARDS and TOP_CLUB[top] == last >> 2
                new_top = last
            hand &= ~mask
            self.discard.extend(cards)
        self.hands[seat] = hand
        self.top = new_top
        self.played[seat] += len(cards)
        self.idle_turns = 0
        self.version += 1
        events: list[Any] = [_event(Played, (seat, cards, link, new_top))]

        if not hand:
            return self._finish(events, (seat,), WIN_EMPTY_HAND)
        if hand.bit_count() == 4 and is_country_set(hand):
            return self._finish(events, (seat,), WIN_ONE_COUNTRY)

        n = self.seats
        if PLAYER_CARDS <= last < JOKER_IDS[0]:  # Yellow or Red: every opponent skips, the player goes again
            red = last >= C.RED_IDS[0]
            opponents = _OPPONENTS[n][seat]
            events.append(_event(Skipped, (opponents, "red" if red else "yellow")))
            if red:
                for opponent in opponents:
                    self._draw(opponent, "red", events)
            following = seat
        elif link:
            events.append(_event(Skipped, (_SEAT_TUPLES[(seat + 1) % n], "link")))
            following = (seat + 2) % n
        else:
            following = (seat + 1) % n
        self.current = following
        self.drawn = False
        self.turns += 1
        self.idle_start = not self.can_draw()
        events.append(_event(TurnBegan, (following,)))
        return events

    def _draw(self, seat: int, cause: str, events: list[Any]) -> None:
        """One card from the deck to ``seat``, reshuffling the discard pile (all but its top) when the deck is empty."""
        deck = self.deck
        if not deck and len(self.discard) > 1:
            discard = self.discard
            deck.extend(discard[:-1])
            del discard[:-1]
            self.rng.shuffle(deck)
            events.append(Reshuffled(len(deck)))
        if deck:
            card = deck.pop()
            self.hands[seat] |= BIT[card]
            events.append(_event(Drew, (seat, 1, card, cause)))
        else:
            events.append(Drew(seat, 0, None, cause))

    def _end_turn(self, seat: int, by_table: bool) -> list[Any]:
        events: list[Any] = [_event(TurnEnded, (seat, by_table))]
        # A turn that ends here played no card (a play passes the turn by itself). It counts only if it began with
        # nothing to draw: one in which a card could still be drawn gives its drawer later turns to play it.
        if self.idle_start:
            self.idle_turns += 1
            if self.idle_turns >= 2 * self.seats:
                return self._finish(events, (), STALEMATE)
        else:
            self.idle_turns = 0
        self._begin_turn((seat + 1) % self.seats, events)
        return events

    def _begin_turn(self, seat: int, events: list[Any]) -> None:
        self.current = seat
        self.drawn = False
        self.turns += 1
        self.idle_start = not self.can_draw()
        events.append(_event(TurnBegan, (seat,)))

    def _finish(self, events: list[Any], winners: tuple[int, ...], reason: str) -> list[Any]:
        points = list(self.played)
        for seat in winners:
            points[seat] += BONUS[reason]
        self.result = Outcome(winners, reason, tuple(points))
        events.append(GameEnded(self.result))
        return events

    def points(self) -> tuple[int, ...]:
        """Points so far: 1 per card each seat discarded (the win bonus is added when the game ends)."""
        return self.result.points if self.result else tuple(self.played)

    # -- seeing -----------------------------------------------------------------------------------------------------

    def describe(self) -> str:
        return f"top card: {CODES[self.discard[-1]]}   deck: {len(self.deck)} cards"

    def view(self, viewer: int | None) -> SokerView:
        if viewer is not None and not 0 <= viewer < self.seats:
            raise ValueError(f"no seat {viewer} at a table of {self.seats}")
        return SokerView(
            viewer=viewer,
            hand=tuple(bits(self.hands[viewer])) if viewer is not None else None,
            hand_sizes=tuple(h.bit_count() for h in self.hands),
            top_card=self.discard[-1],
            top=self.top,
            deck_size=len(self.deck),
            discard_size=len(self.discard),
            current=self.current,
            drawn=self.drawn,
            points=self.points(),
            version=self.version,
            outcome=self.result,
            under=tuple(self.discard[:-1]),
            idle_turns=self.idle_turns,
            idle_start=self.idle_start,
            history=tuple(self.history[-HISTORY:]),
        )

    def locations(self) -> dict[str, list[str]]:
        places = {"deck": [CODES[c] for c in self.deck], "discard": [CODES[c] for c in self.discard]}
        for seat, hand in enumerate(self.hands):
            places[f"hand:{seat}"] = [CODES[c] for c in bits(hand)]
        return places

    def hidden_from(self, viewer: int | None) -> set[str]:
        code = CODES.__getitem__
        hidden = set(map(code, self.deck))
        for seat, hand in enumerate(self.hands):
            if seat != viewer:
                hidden.update(map(code, bits(hand)))
        return hidden

    # -- serialising ------------------------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        return {
            "game": SPEC.name,
            "seats": self.seats,
            "options": dict(self.options),
            "hands": [bits(h) for h in self.hands],
            "deck": list(self.deck),
            "discard": list(self.discard),
            "top": self.top,
            "current": self.current,
            "drawn": self.drawn,
            "played": list(self.played),
            "idle_turns": self.idle_turns,
            "idle_start": self.idle_start,
            "result": self.result.to_json() if self.result else None,
            "rng": self.rng.to_json(),
            "version": self.version,
            "turns": self.turns,
            "history": [[seat, top, kind, list(cards)] for seat, top, kind, cards in self.history[-HISTORY:]],
        }

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SokerState) and self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<SokerState seats={self.seats} version={self.version} current={self.current} over={self.is_over()}>"


class Soker(Game):
    """The Soker rule set. Its system players are given to it (engine/soker/__init__.py makes :data:`SOKER`): the
    bots read the rules, and the rules never need the bots."""

    spec = SPEC

    def __init__(self, bots: Mapping[str, Callable[[int], Bot]] | None = None) -> None:
        self.bots = dict(bots or {})

    def catalogue(self) -> tuple[CardFace, ...]:
        return C.CATALOGUE

    def new_game(self, seats: int, options: Mapping[str, Any] | None, seed: int) -> SokerState:
        resolved = SPEC.resolve(seats, options)
        if resolved["first_seat"] >= seats:
            raise InvalidOptions(f"option 'first_seat' must be below the number of seats ({seats})")
        if resolved["hand_size"] * seats >= DECK_SIZE - len(C.YELLOW_IDS) - len(C.RED_IDS) - len(C.JOKER_IDS):
            raise InvalidOptions(f"{seats} hands of {resolved['hand_size']} leave no card to start the discard pile")
        state = SokerState()
        state.seats = seats
        state.options = resolved
        state.rng = rng = Rng(seed)
        deck = list(range(DECK_SIZE))
        rng.shuffle(deck)
        hand_size = resolved["hand_size"]
        state.hands = []
        for _ in range(seats):
            hand = 0
            for card in deck[-hand_size:]:
                hand |= BIT[card]
            del deck[-hand_size:]
            state.hands.append(hand)
        # Flip the top card; a special flipped goes back at a random place below the top, and the next one is flipped.
        while deck[-1] >= PLAYER_CARDS:
            card = deck.pop()
            deck.insert(rng.below(len(deck)), card)
        first = deck.pop()
        state.deck = deck
        state.discard = [first]
        state.top = first
        state.current = resolved["first_seat"]
        state.played = [0] * seats
        return state

    def state_from_json(self, data: Mapping[str, Any]) -> SokerState:
        state = SokerState()
        try:
            state.seats = data["seats"]
            state.options = dict(data["options"])
            state.hands = [sum(1 << c for c in hand) for hand in data["hands"]]
            state.deck = list(data["deck"])
            state.discard = list(data["discard"])
            state.top = data["top"]
            state.current = data["current"]
            state.drawn = data["drawn"]
            state.played = list(data["played"])
            state.idle_turns = data["idle_turns"]
            state.idle_start = data["idle_start"]
            state.result = Outcome.from_json(data["result"]) if data["result"] else None
            state.rng = Rng.from_json(data["rng"])
            state.version = data["version"]
            state.turns = data["turns"]
            state.history = [
                (seat, top, kind, tuple(cards)) for seat, top, kind, cards in data.get("history", ())
            ]  # (a state stored before the history was kept has none)
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"not a Soker state: {exc}") from exc
        return state

    def sample(self, view: SokerView, seed: int) -> SokerState:  # type: ignore[override]
        """A state ``view`` could have come from, for a searching system player; it reads nothing but ``view``.

        Kept as the view shows them: the viewer's hand, the whole discard pile in its order (the top card, the club a
        Joker on top stands for, and the cards under it: all public), every hand's size, the deck's size, whose turn
        it is and whether they drew, the points (and the outcome, with the cards each seat discarded), the stalemate
        count and whether the turn in hand counts towards it, the version, and the latest public moves (``history``).

        Dealt at random from ``Rng(seed)``, uniformly: the cards hidden from the viewer (the other hands and the deck,
        the deck in a random order) among the other hands and the deck, with the sizes the view shows; then the
        game's own generator (which shuffles the next reshuffle), from the same ``Rng``.

        Not shown and not needed by any rule after the deal, so set as a new table sets them: the options (the
        defaults) and the turns begun (1; only the online clock reads it).

        Added to the view for this (``discard_under``, ``idle_turns`` and ``idle_start``, all public): the discard
        pile under the top card and the stalemate count. Without them a sample would move public cards, or end a
        stalemate on another turn than the true table. The view does not say which hidden cards
        came from the discard pile at a reshuffle (a seat that remembers knows the deck holds only those), so the
        sample does not keep that: every hidden card is equally likely in every hidden place."""
        viewer = view.viewer
        if viewer is None or view.hand is None:
            raise ValueError("a sample needs a seat's view, not a spectator's")
        seen = 0
        for card in view.hand:
            seen |= BIT[card]
        own = seen
        discard = [*view.under, view.top_card]
        for card in discard:
            seen |= BIT[card]
        hidden = [card for card in range(DECK_SIZE) if not seen >> card & 1]
        sizes = view.hand_sizes
        if len(hidden) != sum(sizes) - sizes[viewer] + view.deck_size or len(discard) != view.discard_size:
            raise ValueError("the view's sizes do not add up to the deck")
        rng = Rng(seed)
        rng.shuffle(hidden)
        seats = len(sizes)
        hands = []
        at = 0
        for seat in range(seats):
            if seat == viewer:
                hands.append(own)
                continue
            hand = 0
            end = at + sizes[seat]
            for card in hidden[at:end]:
                hand |= BIT[card]
            hands.append(hand)
            at = end
        state = SokerState()
        state.seats = seats
        state.options = dict(_DEFAULT_OPTIONS[seats])
        state.hands = hands
        state.deck = hidden[at:]
        state.discard = discard
        state.top = view.top
        state.current = view.current
        state.drawn = view.drawn
        outcome = view.outcome
        played = list(view.points)
        if outcome is not None and outcome.reason in BONUS:
            for seat in outcome.winners:
                played[seat] -= BONUS[outcome.reason]
        state.played = played
        state.idle_turns = view.idle_turns
        state.idle_start = view.idle_start
        state.result = outcome
        state.rng = Rng(rng.next_u64())
        state.version = view.version
        state.history = list(view.history)
        return state

    def move_from_wire(self, text: str) -> SokerMove:
        return SokerMove.from_wire(text)
