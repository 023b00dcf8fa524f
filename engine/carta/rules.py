"""Carta Fútbol Club's rules: the state, the legal moves, applying a move, views, outcome.

The rulebook, with the house defaults for what it leaves open; where both are silent, the choices below are what
players at a real table would expect (the ones marked *settled here*).

**Teams and seats.** 2, 4 or 6 players in two teams seated alternately: seat ``s`` plays for team ``s % 2``, so each
player has an opponent on each side. "The player to the left" of seat ``s`` is seat ``s + 1`` (round the table).

**The toss.** Seat 0 (the first seat of the team seated first) calls the coin (``call heads`` / ``call tails``); the
coin is seeded. The toss is won by the team whose call matches the coin: seat 0's team when the coin shows its call,
the other team when it does not. The winning team's first seat chooses a deck (``choose blue`` / ``choose green``:
the other team then has the kick-off) or the kick-off (``choose kickoff``: the other team's first seat then chooses
its deck). The kick-off is taken by the first seat of the team that has it: that player *started the match*; the
second half is started by the player to its left.

**Decks.** Each team plays with its own 60 cards (Blue or Green): 30 Skill cards (Pass/Intercept 1-10, Dribble/Slide
Tackle 1-10, Shot on Goal/Save 3-10, Jokers 8 and 10), 18 Special cards (Cañito x5, Off-side x4, Siga-siga x4, Super
Defensa x5) and 12 Luck cards (Goal x6, No goal x6). A dual Skill card is its attacking action for the team with the
ball and its defending action for the other team; a Joker is declared as any of the six at its printed value.

**Dealing.** Each hand, each team is dealt 10 Skill and 3 Special cards among its players: with 2 players, 10 and 3;
with 4, 5 Skill each, 1 Special each and one more Special; with 6, 3 Skill each and one more Skill, 1 Special each.
The extra card goes to the team's first seat in the first hand and moves to the next teammate clockwise every hand
(extra time included) - *settled here* for the 6-player Skill card too (the rulebook names "the player who won the
toss", which only one team has). Luck cards are never dealt: a Luck card is drawn from the top of its team's deck to
settle a shot, shown to everyone and put at the bottom (so the bottom of a Luck deck is known to all).

**A play.** The player to act with the ball plays an attacking card face up: a Pass, a Dribble, a Joker declared as
either, a Cañito, or - after at least three attacking plays in a row by the team, or a direct free kick - a Shot on
Goal (a Shot/Save card or a Joker); or any card face down ("juego tapada"). The player to its left answers:

* a Pass: an Intercept (higher wins; a tie goes to the Intercept), an Off-side, a Super Defensa;
* a Dribble: a Slide Tackle (higher wins; a tie is a foul by the tackling team), a Super Defensa;
* a Cañito: only a Super Defensa;
* a face-down card: an Intercept or a Slide Tackle of any value (not a Special card);
* a Shot on Goal: a Save (higher wins; a tie: the shooter's Luck card decides);
* anything: any card face down ("paso"). Face down against face down, and a paso, count one attacking play; a paso
  against a Shot on Goal is a goal.

A defender who wins the ball starts its team's attack, from play one. A play that stands counts one, and the player
to the left of the defender continues. After an Off-side the player to the left of its caller (of the team with the
ball) may answer with a Siga-siga (``play B-SIGA``: the pass stands, that player continues) or ``decline`` (the
caller's team takes the ball and the caller starts).

**Goals and saves.** After a goal or a save (a No goal included) the player who faced the shot has the ball for its
team and starts from play one.

**Fouls.** The play number of a foul is the number of the Dribble being made (plays made + 1). On plays 1-2 the team
with the ball keeps it and starts again from play one; on play 3, a direct free kick: the count becomes 3 (a shot may
follow, it is not forced); on play 4 or later, a penalty: the Luck card of the player to the left of the tackler
decides it. In both cases that player continues; after a penalty play restarts as after a goal or a save, by the
player to the taker's left (*settled here*: the keeper's seat of a shootout).

**Hands and halves.** A hand ends when the turn comes to a player with no cards: every card still held goes face down
to the common pile, out of play, and the next hand is dealt. A play's cards leave the table the same way: a card
played face down joins that hidden pile, a card played face up stays known to everyone (the view counts both) -
*settled here*, since everyone saw it. Within a half the ball, the play count, a card waiting
for its answer (an Off-side waiting for its Siga-siga too) and the turn carry over into the next hand. Six hands,
three per half. At half time the table is cleared, the Skill decks are reshuffled whole, the Special decks continue
from where they stand, and the second half's starter has the ball. A match level after six hands ends drawn, unless:

* ``extra_time`` (off): every deck is shuffled again and two hands are played, the first started by the player who
  started the match, the second (play does not continue) by the player who started the second half;
* ``penalties`` (off): a shootout after the 90 minutes or after extra time. Only the Skill cards are shuffled and
  dealt in full. The team that started the match shoots first, from the player who started it; the keeper is the
  player to the shooter's left and shoots next (whoever saved shoots next, as the rulebook says; after a goal too, so
  the kicks go round the table - *settled here*). A kick is a Shot on Goal or a Joker declared as one; only a player
  with neither may shoot face down (a Shot 1). Only a Save stops a kick; a tie is decided by the shooter's Luck card.
  Five kicks each, stopping as soon as one team cannot be caught, even before the trailing team's kick (4-1 after
  four kicks and three ends it; 4-3 after four each goes on: the fifth kicks may level it); then one each until a
  round ends with a difference. A player who must act with no card: every Skill card not on the table is dealt
  again. After ten rounds of sudden death the coin decides.

**Clock** (online rooms): ``turn_seconds`` (30) per card. At zero the table plays for the seat: at the toss, heads;
the toss winner takes the kick-off; the deck chooser takes the first colour left; a keeper in a shootout its lowest
Save (a Joker as one) if it holds one; a shooter its lowest Shot; against an Off-side, no Siga-siga; otherwise its
lowest Skill card (by number, then kind) face down, or, if it holds no Skill card, its first Special card face down
in the house order Cañito, Off-side, Siga-siga, Super Defensa (not the order the cards were dealt in, which the
player never sees).

**Moves** name one card at most (``play B-JOKER-8 pass``: the card and the action it is declared as), so the order
in which a move names its cards never arises here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import chain
from typing import Any

from engine.carta import cards as C
from engine.carta.cards import ACTIONS, BY_FACE, CARDS, COLOURS, DECK, FACE, INSTANCE, KIND, VALUE
from engine.core import (
    Bot,
    CardFace,
    Event,
    Game,
    GameOver,
    GameSpec,
    GameState,
    IllegalMove,
    MalformedMove,
    Move,
    NotYourTurn,
    OptionSpec,
    Outcome,
    Rng,
)

TOSS, CHOICE, DECK_CHOICE, PLAY, SIGA, SHOOTOUT, OVER = "toss", "choice", "deck", "play", "siga", "shootout", "over"
HANDS_PER_HALF = 3
REGULAR_HANDS = 6
EXTRA_HANDS = 2
SHOOTOUT_KICKS = 5
SUDDEN_DEATH_ROUNDS = 10
WIN_GOALS, WIN_EXTRA_TIME, WIN_PENALTIES, WIN_COIN, DRAW = "goals", "extra_time", "penalties", "coin", "draw"
SIDES = ("heads", "tails")
# The public moves a view shows (CartaSeen.history): more than a hand's worth (26 cards and the Off-sides' answers).
HISTORY = 40
DEALT = "dealt"  # a history's record of a deal: the hands it holds before it say nothing of the hands after it

SPEC = GameSpec(
    name="carta-futbol-club",
    title="Carta Fútbol Club",
    seat_counts=(2, 4, 6),
    deck_size=CARDS,
    summary="Two teams pass, dribble and shoot with cards: three attacking plays before a shot, six hands a match.",
    options=(
        OptionSpec("extra_time", False, "a level match goes to two hands of extra time"),
        OptionSpec("penalties", False, "a match still level is decided by a penalty shootout"),
        OptionSpec("turn_seconds", 30, "online clock: seconds for each card to play", 5, 600),
    ),
)


# --------------------------------------------------------------------------------------------------------------------
# Moves


KINDS = frozenset(("call", "choose", "play", "down", "decline"))
_WORDS = frozenset((*ACTIONS, *SIDES, *C.COLOUR_NAMES, "kickoff"))


class CartaMove(Move):
    """A Carta Fútbol Club move (``play B-JOKER-8 pass``: kind ``play``, args ``B-JOKER-8 pass``): card faces in
    capitals, the words of an action, a side, a colour or the kick-off in lower case."""

    __slots__ = ()
    kinds = KINDS

    @staticmethod
    def spell(word: str) -> str:
        return word.lower() if word.lower() in _WORDS else word.upper()


DECLINE = CartaMove("decline")
CALLS = (CartaMove("call", ("heads",)), CartaMove("call", ("tails",)))
COLOUR_CHOICES = tuple(CartaMove("choose", (name,)) for name in C.COLOUR_NAMES)
KICKOFF = CartaMove("choose", ("kickoff",))
# Moves built once: a card face up (its action implied), a Joker declared, a card face down.
_PLAY = tuple(CartaMove("play", (FACE[card],)) for card in range(CARDS))
_JOKER = {(card, action): CartaMove("play", (FACE[card], action)) for card in range(CARDS) for action in ACTIONS}
_DOWN = tuple(CartaMove("down", (FACE[card],)) for card in range(CARDS))


# --------------------------------------------------------------------------------------------------------------------
# Events (engine.core.Event: private faces only to ``seat``, the cards dealt to it) and views


@dataclass(frozen=True)
class CartaSeen:
    """What a seat knows of the match that its view's JSON form does not show, for a system player that searches
    (:meth:`CartaFutbolClub.sample`): all of it public. It stays on the view object and is never sent (the service
    builds the view's message from the JSON form key by key, so a new key there would need a new field in the
    message). ``played``: the faces of the cards played face up and out of play, in the order they left the table
    (everyone saw them; the JSON form counts them); ``options``: the table's options as (name, value) pairs (they say
    whether a level match goes to extra time and penalties); ``version``: the moves made so far (a system player seeds
    its search with it); ``history``: the latest public moves (at most HISTORY, oldest first), each ``(seat, phase,
    the action it answered or "", that action's value, the attacking plays counted, the move's kind, the card's face
    or "" where it went face down, the action declared or the word called)``, and a deal as ``(-1, phase, "", 0, 0,
    "dealt", "", "")``: every seat saw them (the events told every client), and a searching system player weighs the
    deals it samples by them (engine/carta/bots.py: ``beliefs``)."""

    played: tuple[str, ...] = ()
    options: tuple[tuple[str, Any], ...] = ()
    version: int = 0
    history: tuple[tuple[int, str, str, int, int, str, str, str], ...] = ()


@dataclass(frozen=True)
class CartaView:
    """A seat's view, or a spectator's: ``data`` is its JSON form, ``seen`` what else the seat knows
    (:class:`CartaSeen`)."""

    data: dict[str, Any]
    seen: CartaSeen = CartaSeen()

    @property
    def viewer(self) -> int | None:
        return self.data["viewer"]

    def to_json(self) -> dict[str, Any]:
        return self.data


# --------------------------------------------------------------------------------------------------------------------
# The state


class CartaState(GameState):
    """One match. Hands, decks and piles hold card ids (see cards.py)."""

    def __init__(self) -> None:  # use CartaFutbolClub.new_game or state_from_json
        self.seats = 0
        self.options: dict[str, Any] = {}
        self.version = 0
        self.phase = TOSS
        self.call = ""  # the side seat 0 called
        self.coin = ""  # the side the coin showed
        self.winner_team = -1  # the team that won the toss
        self.colours = [-1, -1]  # each team's deck colour
        self.starter = -1  # the seat that started the match
        self.hand = 0  # the hand being played: 1-6, then 7-8 in extra time (0: before the deal)
        self.skill: list[list[int]] = [[], []]  # each team's decks, drawn from the end
        self.special: list[list[int]] = [[], []]
        self.luck: list[list[int]] = [[], []]  # index 0 is the bottom
        self.luck_known = [0, 0]  # how many of a Luck deck's bottom cards everyone saw go there
        self.hands: list[list[int]] = []
        self.pile: list[int] = []  # the common face-down pile: out of play
        self.played: list[int] = []  # cards played face up, out of play: everyone saw them
        self.table: list[int] = []  # the cards of the play being decided, in the order laid
        self.down: list[bool] = []  # for each card on the table: laid face down
        self.extra = [0, 0]  # which teammate gets the team's extra card this hand (an index into its seats)
        self.ball = -1  # the team with the ball
        self.count = 0  # its attacking plays in a row
        self.actor = 0  # the seat to act
        self.pending: dict[str, Any] = {}  # the attacking card waiting for its answer: seat, card, action, value, down
        self.offside = -1  # the seat that called an Off-side waiting for a Siga-siga (-1: none)
        self.goals = [0, 0]
        self.kicks = [0, 0]  # a shootout's kicks taken and scored by each team
        self.scored = [0, 0]
        self.sudden = 0  # sudden-death rounds played level
        self.rng = Rng(0)
        self.result: Outcome | None = None
        # The latest public moves and deals (CartaSeen.history), oldest first; trimmed to HISTORY now and then.
        self.history: list[tuple[int, str, str, int, int, str, str, str]] = []
        self._legal: tuple[int, int, list[CartaMove]] = (-1, -1, [])

    # -- reading ---------------------------------------------------------------------------------------------------

    def to_act(self) -> tuple[int, ...]:
        return () if self.result is not None else (self.actor,)

    def outcome(self) -> Outcome | None:
        return self.result

    def team_of(self, seat: int) -> int:
        return seat % 2

    def team_seats(self, team: int) -> list[int]:
        return list(range(team, self.seats, 2))

    def left(self, seat: int) -> int:
        return (seat + 1) % self.seats

    def faces(self, seat: int) -> list[str]:
        return [FACE[card] for card in self.hands[seat]]

    def describe(self) -> str:
        colours = " ".join(
            f"team {team}: {C.COLOUR_NAMES[c] if c >= 0 else '?'}" for team, c in enumerate(self.colours)
        )
        return f"seats {self.seats} in two teams (seat s plays for team s % 2)   {colours}"

    # -- legal moves -----------------------------------------------------------------------------------------------

    def legal_moves(self, seat: int) -> list[CartaMove]:
        if self.result is not None or seat != self.actor:
            return []
        return list(self._legal_now(seat))

    def _legal_now(self, seat: int) -> list[CartaMove]:
        cached = self._legal
        if cached[0] == self.version and cached[1] == seat:
            return cached[2]
        moves = self._compute_legal(seat)
        self._legal = (self.version, seat, moves)
        return moves

    def _compute_legal(self, seat: int) -> list[CartaMove]:
        phase = self.phase
        if phase == TOSS:
            return list(CALLS)
        if phase == CHOICE:
            return [*COLOUR_CHOICES, KICKOFF]
        if phase == DECK_CHOICE:
            return list(COLOUR_CHOICES)
        hand = self.hands[seat]
        if phase == SIGA:
            moves = [DECLINE]
            siga = next((card for card in hand if KIND[card] == C.SIGA), -1)
            if siga >= 0:
                moves.append(_PLAY[siga])
            return moves
        moves = []
        pending = self.pending
        if phase == SHOOTOUT:
            if not pending:  # the shooter
                moves = _face_up(hand, _KICK)
                if moves:
                    return moves  # only a player with no Shot may shoot face down
            else:
                moves = _face_up(hand, _SAVE_ONLY)
            return moves + _face_down(hand)
        if not pending:
            moves = _face_up(hand, _ATTACK_SHOOTING if self.count >= 3 else _ATTACK)
        else:
            moves = _face_up(hand, _ANSWERS[pending["action"]])
        return moves + _face_down(hand)

    # -- applying --------------------------------------------------------------------------------------------------

    def apply(self, seat: int, move: CartaMove, *, by_table: bool = False) -> list[Any]:
        if self.result is not None:
            raise GameOver("the match is over")
        if seat != self.actor:
            raise NotYourTurn(f"seat {seat} may not act now")
        if type(move) is not CartaMove:
            raise MalformedMove(f"not a Carta Fútbol Club move: a {type(move).__name__}")
        if move not in self._legal_now(seat):
            named = move.args[0] if move.kind in ("play", "down") and move.args else None
            if named is not None and not any(FACE[c] == named for c in self.hands[seat]):
                raise IllegalMove("a card named is not in your hand", code="card_not_in_hand", cards=move.args[:1])
            raise IllegalMove(f"'{move.kind}' is not one of the moves allowed now", code="not_allowed")
        events: list[Any] = []
        kind = move.kind
        pending = self.pending
        args = move.args
        self._note(
            (
                seat,
                self.phase,
                pending.get("action", ""),
                pending.get("value", 0),
                self.count,
                kind,
                args[0] if kind == "play" else "",  # (a card laid face down is not named)
                args[-1] if len(args) > 1 or kind in ("call", "choose") else "",
            )
        )
        if kind == "call":
            self._call(seat, move.args[0], events)
        elif kind == "choose":
            self._choose(seat, move.args[0], events)
        elif kind == "decline":
            self._decline(seat, events)
        else:
            card = self._take(seat, move.args[0])
            down = kind == "down"
            action = move.args[1] if len(move.args) > 1 else ""
            if self.phase == SIGA:
                self._siga(seat, card, events)
            elif self.phase == SHOOTOUT:
                self._kick(seat, card, down, action, events)
            elif self.pending:
                self._answer(seat, card, down, action, events)
            else:
                self._attack(seat, card, down, action, events)
        self._settle(events)
        self.version += 1
        return events

    def _note(self, record: tuple[int, str, str, int, int, str, str, str]) -> None:
        """Keep a public move or a deal in the history (trimmed to the latest HISTORY now and then, not every move)."""
        history = self.history
        history.append(record)
        if len(history) > 2 * HISTORY:
            del history[:-HISTORY]

    def _take(self, seat: int, face: str) -> int:
        hand = self.hands[seat]
        for index, card in enumerate(hand):
            if FACE[card] == face:
                return hand.pop(index)
        raise IllegalMove("a card named is not in your hand", code="card_not_in_hand", cards=(face,))

    # The toss

    def _call(self, seat: int, side: str, events: list[Any]) -> None:
        self.call = side
        self.coin = SIDES[self.rng.below(2)]
        self.winner_team = 0 if self.coin == side else 1
        events.append(Event("toss", seat, data=(("call", side), ("coin", self.coin), ("winner", self.winner_team))))
        self.phase = CHOICE
        self.actor = self.winner_team  # the winning team's first seat

    def _choose(self, seat: int, what: str, events: list[Any]) -> None:
        team = self.team_of(seat)
        events.append(Event("chose", seat, data=(("choice", what),)))
        if what == "kickoff":  # the other team chooses its deck
            self.phase = DECK_CHOICE
            self.actor = 1 - team
            return
        colour = C.COLOUR_NAMES.index(what)
        self.colours[team] = colour
        self.colours[1 - team] = 1 - colour
        self._begin_match(1 - team, events)  # whoever chose a deck, the other team kicks off

    def _begin_match(self, kicking_team: int, events: list[Any]) -> None:
        for team in (0, 1):
            colour = self.colours[team]
            self.skill[team] = C.deck_cards(colour, C.SKILL)
            self.special[team] = C.deck_cards(colour, C.SPECIAL)
            self.luck[team] = C.deck_cards(colour, C.LUCK)
            for deck in (self.skill[team], self.special[team], self.luck[team]):
                self.rng.shuffle(deck)
        self.starter = kicking_team  # the team's first seat
        events.append(
            Event(
                "kick_off",
                self.starter,
                data=(("colours", [C.COLOUR_NAMES[c] for c in self.colours]), ("team", kicking_team)),
            )
        )
        self._restart(self.starter)
        self.phase = PLAY
        self._deal(events)

    # Regular play

    def _attack(self, seat: int, card: int, down: bool, action: str, events: list[Any]) -> None:
        kind = KIND[card]
        if down:
            action, value = "down", 0
            events.append(Event("laid_down", seat, data=(("play", self.count + 1),)))
        else:
            if kind == C.CANITO:
                action, value = "canito", 0
            else:
                action = action or C.ATTACK_OF[kind]
                value = VALUE[card]
            events.append(Event("played", seat, (FACE[card],), data=(("action", action), ("value", value))))
        self.table, self.down = [card], [down]
        self.pending = {"seat": seat, "card": card, "action": action, "value": value}
        self.actor = self.left(seat)

    def _answer(self, seat: int, card: int, down: bool, action: str, events: list[Any]) -> None:
        pending = self.pending
        attacking = pending["action"]
        kind = KIND[card]
        self.table.append(card)
        self.down.append(down)
        if down:
            events.append(Event("laid_down", seat, data=(("answer", True),)))
            if attacking == C.SHOT:
                self._goal(pending["seat"], seat, events)
            else:
                self._stands(seat, events)
            return
        if kind == C.SUPER:
            events.append(Event("played", seat, (FACE[card],), data=(("action", "super_defensa"),)))
            self._win_ball(seat, events)
            return
        if kind == C.OFFSIDE:
            events.append(Event("played", seat, (FACE[card],), data=(("action", "offside"),)))
            self.phase = SIGA
            self.offside = seat
            self.actor = self.left(seat)
            return
        action = action or C.DEFENCE_OF[kind]
        value = VALUE[card]
        events.append(Event("played", seat, (FACE[card],), data=(("action", action), ("value", value))))
        against = pending["value"]
        if attacking == "down":  # any Intercept or Slide Tackle beats a face-down card
            self._win_ball(seat, events)
        elif attacking == C.PASS:
            self._win_ball(seat, events) if value >= against else self._stands(seat, events)
        elif attacking == C.DRIBBLE:
            if value > against:
                self._win_ball(seat, events)
            elif value == against:
                self._foul(seat, events)
            else:
                self._stands(seat, events)
        else:  # a Save against a Shot on Goal
            shooter = pending["seat"]
            if value > against or (value == against and not self._luck(shooter, events)):
                self._saved(seat, events)
            else:
                self._goal(shooter, seat, events)

    def _clear_table(self) -> None:
        for card, down in zip(self.table, self.down, strict=True):
            (self.pile if down else self.played).append(card)
        self.table, self.down = [], []
        self.pending = {}

    def _restart(self, seat: int) -> None:
        """``seat``'s team has the ball, from play one, and ``seat`` plays."""
        self._clear_table()
        self.ball = self.team_of(seat)
        self.count = 0
        self.actor = seat

    def _win_ball(self, seat: int, events: list[Any]) -> None:
        self._restart(seat)
        events.append(Event("won_ball", seat, data=(("team", self.ball),)))

    def _stands(self, defender: int, events: list[Any]) -> None:
        """The attacking play stands: one more play, and the player left of the defender continues."""
        self._clear_table()
        self.count += 1
        self.actor = self.left(defender)
        events.append(Event("play_stands", self.actor, count=self.count, data=(("team", self.ball),)))

    def _foul(self, tackler: int, events: list[Any]) -> None:
        play = self.count + 1
        taker = self.left(tackler)
        self._clear_table()
        if play <= 2:
            self.count = 0
            outcome = "restart"
        elif play == 3:
            self.count = 3
            outcome = "free_kick"
        else:
            outcome = "penalty"
        events.append(Event("foul", tackler, target=taker, data=(("play", play), ("outcome", outcome))))
        self.actor = taker
        if outcome == "penalty":
            keeper = self.left(taker)
            if self._luck(taker, events):
                self._goal(taker, keeper, events)
            else:
                self._saved(keeper, events)

    def _luck(self, seat: int, events: list[Any]) -> bool:
        """``seat`` draws its team's top Luck card, shows it and puts it at the bottom; True for a Goal."""
        team = self.team_of(seat)
        deck = self.luck[team]
        card = deck.pop()
        deck.insert(0, card)
        self.luck_known[team] = min(self.luck_known[team] + 1, len(deck))
        goal = KIND[card] == C.GOAL
        events.append(Event("luck", seat, (FACE[card],), data=(("goal", goal),)))
        return goal

    def _goal(self, shooter: int, keeper: int, events: list[Any]) -> None:
        team = self.team_of(shooter)
        self.goals[team] += 1
        events.append(Event("goal", shooter, target=keeper, data=(("team", team), ("goals", list(self.goals)))))
        self._restart(keeper)

    def _saved(self, keeper: int, events: list[Any]) -> None:
        events.append(Event("saved", keeper, data=(("team", self.team_of(keeper)),)))
        self._restart(keeper)

    def _siga(self, seat: int, card: int, events: list[Any]) -> None:
        self.table.append(card)
        self.down.append(False)
        events.append(Event("played", seat, (FACE[card],), data=(("action", "siga_siga"),)))
        self.phase = PLAY
        self.offside = -1
        self._clear_table()
        self.count += 1
        self.actor = seat
        events.append(Event("play_stands", seat, count=self.count, data=(("team", self.ball),)))

    def _decline(self, seat: int, events: list[Any]) -> None:
        caller = self.offside
        events.append(Event("offside_given", seat, target=caller))
        self.phase = PLAY
        self.offside = -1
        self._win_ball(caller, events)

    # The shootout

    def _kick(self, seat: int, card: int, down: bool, action: str, events: list[Any]) -> None:
        pending = self.pending
        if not pending:  # the shooter
            value = 1 if down else VALUE[card]
            if down:
                events.append(Event("laid_down", seat, data=(("action", C.SHOT), ("value", 1))))
            else:
                events.append(Event("played", seat, (FACE[card],), data=(("action", C.SHOT), ("value", value))))
            self.table, self.down = [card], [down]
            self.pending = {"seat": seat, "card": card, "action": C.SHOT, "value": value}
            self.actor = self.left(seat)
            return
        shooter = pending["seat"]
        self.table.append(card)
        self.down.append(down)
        if down:
            events.append(Event("laid_down", seat, data=(("answer", True),)))
            goal = True
        else:
            value = VALUE[card]
            events.append(Event("played", seat, (FACE[card],), data=(("action", C.SAVE), ("value", value))))
            against = pending["value"]
            goal = value < against or (value == against and self._luck(shooter, events))
        team = self.team_of(shooter)
        self.kicks[team] += 1
        self.scored[team] += goal
        self._clear_table()
        events.append(
            Event(
                "kick",
                shooter,
                target=seat,
                data=(("goal", goal), ("kicks", list(self.kicks)), ("scored", list(self.scored))),
            )
        )
        self.actor = seat  # the keeper shoots next
        self._shootout_over(events)

    def _shootout_over(self, events: list[Any]) -> None:
        kicks, scored = self.kicks, self.scored
        if max(kicks) <= SHOOTOUT_KICKS:
            for team in (0, 1):
                other = 1 - team
                if scored[team] > scored[other] + (SHOOTOUT_KICKS - kicks[other]):
                    self._finish(team, WIN_PENALTIES, events)
                    return
            return
        if kicks[0] != kicks[1]:
            return
        if scored[0] != scored[1]:
            self._finish(0 if scored[0] > scored[1] else 1, WIN_PENALTIES, events)
            return
        self.sudden += 1
        if self.sudden >= SUDDEN_DEATH_ROUNDS:
            team = self.rng.below(2)
            events.append(Event("coin", data=(("winner", team),)))
            self._finish(team, WIN_COIN, events)

    # Hands, halves, the end

    def _settle(self, events: list[Any]) -> None:
        """After a move: a hand whose player to act holds no card ends (the next is dealt, or the match moves on)."""
        while self.result is None and self.phase in (PLAY, SIGA, SHOOTOUT) and not self.hands[self.actor]:
            if self.phase == SHOOTOUT:
                self._deal_skill_in_full(events)
            else:
                self._end_hand(events)

    def _end_hand(self, events: list[Any]) -> None:
        for hand in self.hands:
            self.pile.extend(hand)
            hand.clear()
        events.append(Event("hand_ended", count=self.hand))
        hand = self.hand
        if hand == HANDS_PER_HALF:
            self._clear_play()
            for team in (0, 1):
                self._gather(team, self.skill[team], C.SKILL)
            events.append(Event("half_time", data=(("goals", list(self.goals)),)))
            self._restart(self.left(self.starter))
        elif hand == REGULAR_HANDS or hand == REGULAR_HANDS + EXTRA_HANDS:
            self._clear_play()
            if self.goals[0] != self.goals[1]:
                winner = 0 if self.goals[0] > self.goals[1] else 1
                self._finish(winner, WIN_GOALS if hand == REGULAR_HANDS else WIN_EXTRA_TIME, events)
                return
            if hand == REGULAR_HANDS and self.options["extra_time"]:
                for team in (0, 1):
                    for deck, layout in ((self.skill, C.SKILL), (self.special, C.SPECIAL), (self.luck, C.LUCK)):
                        self._gather(team, deck[team], layout)
                    self.luck_known[team] = 0
                events.append(Event("extra_time", data=(("goals", list(self.goals)),)))
                self._restart(self.starter)
            elif self.options["penalties"]:
                self._start_shootout(events)
                return
            else:
                self._finish(-1, DRAW, events)
                return
        elif hand == REGULAR_HANDS + 1:  # the first half of extra time: play does not continue
            self._clear_play()
            events.append(Event("extra_time_half", data=(("goals", list(self.goals)),)))
            self._restart(self.left(self.starter))
        self.hand += 1
        self._deal(events)

    def _clear_play(self) -> None:
        self._clear_table()
        self.phase = PLAY
        self.offside = -1

    def _gather(self, team: int, deck: list[int], layout: tuple[int, ...]) -> None:
        """Every card of the team's deck of that layout back into it, shuffled (from the pile and the deck)."""
        colour = self.colours[team]
        mine = set(C.deck_cards(colour, layout))
        self.pile = [card for card in self.pile if card not in mine]
        self.played = [card for card in self.played if card not in mine]
        deck[:] = sorted(mine)
        self.rng.shuffle(deck)

    def _deal(self, events: list[Any]) -> None:
        if self.hand == 0:
            self.hand = 1
        for team in (0, 1):
            seats = self.team_seats(team)
            players = len(seats)
            extra = seats[self.extra[team] % players]
            skill, special = self.skill[team], self.special[team]
            per_skill = C.SKILL_DEALT // players
            per_special = C.SPECIAL_DEALT // players
            for _ in range(per_skill):
                for seat in seats:
                    self.hands[seat].append(skill.pop())
            if players == 3:
                self.hands[extra].append(skill.pop())
            for _ in range(per_special):
                for seat in seats:
                    self.hands[seat].append(special.pop())
            if players == 2:
                self.hands[extra].append(special.pop())
            self.extra[team] = (self.extra[team] + 1) % players
        self._note((-1, self.phase, "", 0, 0, DEALT, "", ""))
        for seat in range(self.seats):
            events.append(
                Event(
                    "dealt",
                    seat,
                    private=tuple(FACE[card] for card in self.hands[seat]),
                    count=len(self.hands[seat]),
                    data=(("hand", self.hand),),
                )
            )

    def _start_shootout(self, events: list[Any]) -> None:
        self.phase = SHOOTOUT
        self.kicks, self.scored, self.sudden = [0, 0], [0, 0], 0
        self._clear_table()
        self.ball, self.count = -1, 0
        self.actor = self.starter
        events.append(Event("shootout", self.starter, data=(("goals", list(self.goals)),)))
        self._deal_skill_in_full(events)

    def _deal_skill_in_full(self, events: list[Any]) -> None:
        """Every Skill card not on the table, shuffled and dealt in full to its team's players."""
        on_table = set(self.table)
        for team in (0, 1):
            seats = self.team_seats(team)
            mine = set(C.deck_cards(self.colours[team], C.SKILL)) - on_table
            for seat in seats:
                self.hands[seat] = [card for card in self.hands[seat] if card not in mine]
            self.pile = [card for card in self.pile if card not in mine]
            self.played = [card for card in self.played if card not in mine]
            self.skill[team] = []
            deck = sorted(mine)
            self.rng.shuffle(deck)
            while deck:
                for seat in seats:
                    if deck:
                        self.hands[seat].append(deck.pop())
        self._note((-1, self.phase, "", 0, 0, DEALT, "", ""))
        for seat in range(self.seats):
            events.append(
                Event(
                    "dealt",
                    seat,
                    private=tuple(FACE[card] for card in self.hands[seat]),
                    count=len(self.hands[seat]),
                    data=(("shootout", True),),
                )
            )

    def _finish(self, team: int, reason: str, events: list[Any]) -> None:
        self.phase = OVER
        self._clear_table()
        winners = tuple(self.team_seats(team)) if team >= 0 else ()
        self.result = Outcome(
            winners,
            reason,
            tuple(self.goals[self.team_of(seat)] for seat in range(self.seats)),
            (team,) if team >= 0 else (),
            tuple(self.goals),
        )
        data: tuple[tuple[str, Any], ...] = (
            ("winners", list(winners)),
            ("reason", reason),
            ("goals", list(self.goals)),
        )
        if reason in (WIN_PENALTIES, WIN_COIN):
            data += (("penalties", list(self.scored)),)
        events.append(Event("game_ended", data=data))

    # The table

    def timeout_move(self, seat: int) -> CartaMove:
        phase = self.phase
        if phase == TOSS:
            return CALLS[0]
        if phase == CHOICE:
            return KICKOFF
        if phase == DECK_CHOICE:
            return COLOUR_CHOICES[0]
        if phase == SIGA:
            return DECLINE
        hand = self.hands[seat]
        if phase == SHOOTOUT:
            kinds = (C.SS, C.JOKER)
            action = C.SHOT if not self.pending else C.SAVE
            best = min((card for card in hand if KIND[card] in kinds), key=C.low_key, default=-1)
            if best >= 0:
                return _PLAY[best] if KIND[best] == C.SS else _JOKER[best, action]
        skills = [card for card in hand if C.is_skill(card)]
        if skills:
            return _DOWN[min(skills, key=C.low_key)]
        return _DOWN[min(hand, key=_SPECIAL_RANK.__getitem__)]  # the house order, not the deal's

    # -- seeing -----------------------------------------------------------------------------------------------------

    def view(self, viewer: int | None) -> CartaView:
        if viewer is not None and not 0 <= viewer < self.seats:
            raise ValueError(f"no seat {viewer} at a table of {self.seats}")
        data: dict[str, Any] = {
            "viewer": viewer,
            "phase": self.phase,
            "seats": [
                {"seat": seat, "team": self.team_of(seat), "cards": len(self.hands[seat])} for seat in range(self.seats)
            ],
            "coin": {"call": self.call, "side": self.coin, "winner": self.winner_team},
            "colours": [C.COLOUR_NAMES[c] if c >= 0 else "" for c in self.colours],
            "starter": self.starter,
            "hand": self.hand,
            "goals": list(self.goals),
            "ball": self.ball,
            "count": self.count,
            "actor": self.actor,
            "decks": {
                "skill": [len(deck) for deck in self.skill],
                "special": [len(deck) for deck in self.special],
                "luck": [len(deck) for deck in self.luck],
            },
            "luck_bottom": [[FACE[card] for card in self.luck[team][: self.luck_known[team]]] for team in (0, 1)],
            "pile": len(self.pile),
            "played": len(self.played),
        }
        if self.pending:
            pending = self.pending
            down = self.down[0]
            data["pending"] = {
                "seat": pending["seat"],
                "action": pending["action"],
                "value": pending["value"],
                "card": "" if down else FACE[pending["card"]],
                "down": down,
            }
        if self.offside >= 0:
            data["offside"] = {"caller": self.offside, "card": FACE[self.table[-1]]}
        if self.phase == SHOOTOUT or self.kicks != [0, 0]:
            data["shootout"] = {"kicks": list(self.kicks), "scored": list(self.scored), "sudden": self.sudden}
        if viewer is not None:
            data["hand_cards"] = sorted(self.faces(viewer))
        if self.result is not None:
            data["outcome"] = self.result.to_json()
        seen = CartaSeen(
            tuple(map(FACE.__getitem__, self.played)),
            tuple(self.options.items()),
            self.version,
            tuple(self.history[-HISTORY:]),
        )
        return CartaView(data, seen)

    def locations(self) -> dict[str, list[str]]:
        places: dict[str, list[str]] = {"pile": [INSTANCE[card] for card in self.pile]}
        places["table"] = [INSTANCE[card] for card in self.table]
        places["played"] = [INSTANCE[card] for card in self.played]
        for team in (0, 1):
            places[f"skill:{team}"] = [INSTANCE[card] for card in self.skill[team]]
            places[f"special:{team}"] = [INSTANCE[card] for card in self.special[team]]
            places[f"luck:{team}"] = [INSTANCE[card] for card in self.luck[team]]
        for seat in range(self.seats):
            places[f"hand:{seat}"] = [INSTANCE[card] for card in self.hands[seat]]
        if self.colours[0] < 0:  # before the toss's choice, the decks are still in their boxes
            places["boxes"] = list(INSTANCE)
        return places

    def hidden_from(self, viewer: int | None) -> set[str]:
        teams = [(self.skill[team], self.special[team], self.luck[team][self.luck_known[team] :]) for team in (0, 1)]
        others = [self.hands[seat] for seat in range(self.seats) if seat != viewer]
        hidden = set(map(INSTANCE.__getitem__, chain(self.pile, *chain.from_iterable(teams), *others)))
        hidden.update(INSTANCE[card] for card, down in zip(self.table, self.down, strict=True) if down)
        if self.colours[0] < 0:
            hidden.update(INSTANCE)
        return hidden

    # -- serialising ------------------------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        return {
            "seats": self.seats,
            "options": dict(self.options),
            "version": self.version,
            "phase": self.phase,
            "call": self.call,
            "coin": self.coin,
            "winner_team": self.winner_team,
            "colours": list(self.colours),
            "starter": self.starter,
            "hand": self.hand,
            "skill": [list(deck) for deck in self.skill],
            "special": [list(deck) for deck in self.special],
            "luck": [list(deck) for deck in self.luck],
            "luck_known": list(self.luck_known),
            "hands": [list(hand) for hand in self.hands],
            "pile": list(self.pile),
            "played": list(self.played),
            "table": list(self.table),
            "down": list(self.down),
            "extra": list(self.extra),
            "ball": self.ball,
            "count": self.count,
            "actor": self.actor,
            "pending": dict(self.pending),
            "offside": self.offside,
            "goals": list(self.goals),
            "kicks": list(self.kicks),
            "scored": list(self.scored),
            "sudden": self.sudden,
            "rng": self.rng.to_json(),
            "result": self.result.to_json() if self.result else None,
            "history": [list(record) for record in self.history[-HISTORY:]],
        }

    def __repr__(self) -> str:
        return f"<CartaState {self.phase} hand {self.hand} goals {self.goals} actor {self.actor}>"


# Which face-up plays a hand offers, by what is asked: kind -> the actions it is played as.
_ATTACK = {C.PI: (C.PASS,), C.DT: (C.DRIBBLE,), C.JOKER: (C.PASS, C.DRIBBLE), C.CANITO: ("",)}
_ATTACK_SHOOTING = {**_ATTACK, C.SS: (C.SHOT,), C.JOKER: (C.PASS, C.DRIBBLE, C.SHOT)}
_ANSWERS = {
    C.PASS: {C.PI: (C.INTERCEPT,), C.JOKER: (C.INTERCEPT,), C.OFFSIDE: ("",), C.SUPER: ("",)},
    C.DRIBBLE: {C.DT: (C.TACKLE,), C.JOKER: (C.TACKLE,), C.SUPER: ("",)},
    "canito": {C.SUPER: ("",)},
    "down": {C.PI: (C.INTERCEPT,), C.DT: (C.TACKLE,), C.JOKER: (C.INTERCEPT, C.TACKLE)},
    C.SHOT: {C.SS: (C.SAVE,), C.JOKER: (C.SAVE,)},
}
_KICK = {C.SS: (C.SHOT,), C.JOKER: (C.SHOT,)}
# The clock's order for a hand of Special cards only: Cañito, Off-side, Siga-siga, Super Defensa (by card id).
_SPECIAL_ORDER = (C.CANITO, C.OFFSIDE, C.SIGA, C.SUPER)
_SPECIAL_RANK = tuple(_SPECIAL_ORDER.index(KIND[card]) if KIND[card] in _SPECIAL_ORDER else 4 for card in range(CARDS))
_SAVE_ONLY = {C.SS: (C.SAVE,), C.JOKER: (C.SAVE,)}


def _face_up(hand: list[int], offered: Mapping[str, tuple[str, ...]]) -> list[CartaMove]:
    moves: list[CartaMove] = []
    seen: set[str] = set()
    for card in hand:
        actions = offered.get(KIND[card])
        if actions is None:
            continue
        face = FACE[card]
        if face in seen:
            continue
        seen.add(face)
        if KIND[card] == C.JOKER:
            moves.extend(_JOKER[card, action] for action in actions)
        else:
            moves.append(_PLAY[card])
    return moves


def _face_down(hand: list[int]) -> list[CartaMove]:
    seen: set[str] = set()
    moves = []
    for card in hand:
        face = FACE[card]
        if face not in seen:
            seen.add(face)
            moves.append(_DOWN[card])
    return moves


# A sample's card tables: each colour's Skill, Special and Luck card ids, and a colour's index by its name.
_SKILL_IDS = tuple(tuple(C.deck_cards(colour, C.SKILL)) for colour in range(len(COLOURS)))
_SPECIAL_IDS = tuple(tuple(C.deck_cards(colour, C.SPECIAL)) for colour in range(len(COLOURS)))
_LUCK_IDS = tuple(tuple(C.deck_cards(colour, C.LUCK)) for colour in range(len(COLOURS)))
_COLOUR_OF_NAME = {"": -1, **{name: colour for colour, name in enumerate(C.COLOUR_NAMES)}}


def _place(faces: Sequence[str], taken: bytearray) -> list[int]:
    """A card for each of ``faces``: of the copies that look alike, the first not yet placed (so that the same view
    places the same copies)."""
    cards = []
    for face in faces:
        for card in BY_FACE[face]:
            if not taken[card]:
                break
        else:
            raise ValueError(f"not a view of a Carta Fútbol Club state: more {face} than the deck holds")
        taken[card] = 1
        cards.append(card)
    return cards


class CartaFutbolClub(Game):
    """The Carta Fútbol Club rule set; its system players are given to it (engine/carta/__init__.py)."""

    spec = SPEC

    def __init__(self, bots: Mapping[str, Callable[[int], Bot]] | None = None) -> None:
        self.bots = dict(bots or {})

    def catalogue(self) -> tuple[CardFace, ...]:
        return C.CATALOGUE

    def new_game(self, seats: int, options: Mapping[str, Any] | None, seed: int) -> CartaState:
        resolved = SPEC.resolve(seats, options)
        state = CartaState()
        state.seats = seats
        state.options = resolved
        state.rng = Rng(seed)
        state.hands = [[] for _ in range(seats)]
        state.actor = 0
        return state

    def teams(self, seats: int, options: Mapping[str, Any]) -> tuple[int, ...]:
        return tuple(seat % 2 for seat in range(seats))

    def state_from_json(self, data: Mapping[str, Any]) -> CartaState:
        state = CartaState()
        try:
            for name in (
                "seats",
                "version",
                "phase",
                "call",
                "coin",
                "winner_team",
                "starter",
                "hand",
                "ball",
                "count",
                "actor",
                "offside",
                "sudden",
            ):
                setattr(state, name, data[name])
            state.options = dict(data["options"])
            state.colours = list(data["colours"])
            for name in ("skill", "special", "luck", "hands"):
                setattr(state, name, [list(part) for part in data[name]])
            for name in ("luck_known", "pile", "played", "table", "down", "extra", "goals", "kicks", "scored"):
                setattr(state, name, list(data[name]))
            state.pending = dict(data["pending"])
            state.result = Outcome.from_json(data["result"]) if data["result"] else None
            state.rng = Rng.from_json(data["rng"])
            # (a state stored before the history was kept has none)
            state.history = [tuple(record) for record in data.get("history", ())]
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"not a Carta Fútbol Club state: {exc}") from exc
        return state

    def sample(self, view: CartaView, seed: int) -> CartaState:  # type: ignore[override]
        """A state ``view`` could have come from, for a searching system player (a seat's view, or a spectator's).

        Kept as the view shows them: the phase, the toss, the colours, the starter, the hand, the goals, the ball, the
        count, whose turn it is, the card waiting for its answer and an Off-side waiting for its Siga-siga, the
        shootout's kicks, the outcome; the viewer's own hand; every card played face up (the table's, and those out of
        play); the Luck cards everyone saw go to the bottom of their decks, in order; the size of every hand, deck and
        the pile; the options, the move count and the latest public moves. Copies that look alike (the Special and
        Luck cards) are told apart by the order of their ids, the view showing faces only. Derived from the rules: who
        gets each team's extra card next (it moves on one teammate a hand).

        Dealt at random from ``Rng(seed)``, uniformly among the places that may hold them, each colour apart: the rest
        of a team's cards among its Skill deck (Skill cards only, in random order), its Special deck (Special cards
        only), its players' hands other than the viewer's and a face-down card one of them has on the table (any of
        the team's Skill and Special cards), and the pile (whatever is left of both colours: the sizes above fix how
        many of each); the Luck cards not seen at the bottom, in random order above those that were. The view shows
        neither the pile's cards nor who laid which face-down card, so the viewer's own face-down cards are dealt like
        any other hidden card of its colour (none of them is on the table when the viewer has to play: it lays one
        only for the next player to answer), and so is the split of another hand between Skill and Special cards.
        Not shown, and drawn from the seed: the game's RNG (the coin, the shuffles to come).

        For this the view object carries four public facts its JSON form does not show (:class:`CartaSeen`, never
        sent): the faces of the cards played face up and out of play (everyone saw them; the JSON form only counts
        them), the options (whether a level match goes to extra time and penalties), the move count (a system
        player seeds its search with it) and the latest public moves (``history``, copied as they are)."""
        data = view.to_json()
        viewer = data["viewer"]
        rows = data["seats"]
        seats = len(rows)
        rng = Rng(seed)
        state = CartaState()
        seen = view.seen
        if not seen.options or len(seen.played) != data["played"]:
            raise ValueError("a sample needs a view as a state gives it (with its CartaSeen), not rebuilt from JSON")
        state.seats = seats
        state.options = dict(seen.options)
        state.version = seen.version
        state.history = list(seen.history)
        state.phase = data["phase"]
        coin = data["coin"]
        state.call, state.coin, state.winner_team = coin["call"], coin["side"], coin["winner"]
        colours = state.colours = [_COLOUR_OF_NAME[name] for name in data["colours"]]
        state.starter = data["starter"]
        state.hand = data["hand"]
        state.goals = list(data["goals"])
        state.ball = data["ball"]
        state.count = data["count"]
        state.actor = data["actor"]
        shootout = data.get("shootout")
        if shootout is not None:
            state.kicks, state.scored = list(shootout["kicks"]), list(shootout["scored"])
            state.sudden = shootout["sudden"]
        outcome = data.get("outcome")
        state.result = Outcome.from_json(outcome) if outcome is not None else None
        state.extra = [state.hand % (seats // 2)] * 2  # each hand dealt moves it on one teammate
        hands: list[list[int]] = [[] for _ in range(seats)]
        state.hands = hands
        if colours[0] < 0:  # before the colours are chosen every card is in its box
            state.rng = Rng(rng.next_u64())
            return state
        taken = bytearray(CARDS)
        if viewer is not None:
            hands[viewer] = _place(data["hand_cards"], taken)
        state.played = _place(seen.played, taken)
        pending = data.get("pending")
        offside = data.get("offside")
        table: list[int] = []
        down: list[bool] = []
        laid_down = -1  # the team whose player has a card face down on the table
        if pending is not None:
            if pending["down"]:
                laid_down = pending["seat"] % 2
                table.append(-1)  # dealt below
            else:
                table += _place([pending["card"]], taken)
            down.append(pending["down"])
            if offside is not None:
                table += _place([offside["card"]], taken)
                down.append(False)
                state.offside = offside["caller"]
        decks = data["decks"]
        pile: list[int] = []
        for team in (0, 1):
            colour = colours[team]
            bottom = _place(data["luck_bottom"][team], taken)
            luck = [card for card in _LUCK_IDS[colour] if not taken[card]]
            rng.shuffle(luck)
            bottom.extend(luck)
            state.luck[team] = bottom
            state.luck_known[team] = len(data["luck_bottom"][team])
            skill = [card for card in _SKILL_IDS[colour] if not taken[card]]
            special = [card for card in _SPECIAL_IDS[colour] if not taken[card]]
            in_skill, in_special = decks["skill"][team], decks["special"][team]
            if in_skill > len(skill) or in_special > len(special) or decks["luck"][team] != len(bottom):
                raise ValueError("not a view of a Carta Fútbol Club state: its decks do not add up")
            # Each deck: a random choice of the hidden cards of its kind, in random order; the rest may be anywhere.
            cut = len(skill) - in_skill
            rng.shuffle(skill, in_skill)
            state.skill[team] = skill[cut:]
            rest = skill[:cut]
            cut = len(special) - in_special
            rng.shuffle(special, in_special)
            state.special[team] = special[cut:]
            rest += special[:cut]
            held = [seat for seat in range(team, seats, 2) if seat != viewer]
            dealt = sum(rows[seat]["cards"] for seat in held) + (laid_down == team)
            cut = len(rest) - dealt
            if cut < 0:
                raise ValueError("not a view of a Carta Fútbol Club state: its hands do not add up")
            rng.shuffle(rest, dealt)  # the hands' and the face-down card's, at the end; the pile's in front
            for seat in held:
                size = rows[seat]["cards"]
                hands[seat] = rest[cut : cut + size]
                cut += size
            if laid_down == team:
                table[0] = rest[cut]
            pile += rest[: len(rest) - dealt]
        if len(pile) != data["pile"]:
            raise ValueError("not a view of a Carta Fútbol Club state: its pile does not add up")
        if pending is not None:
            state.pending = {
                "seat": pending["seat"],
                "card": table[0],
                "action": pending["action"],
                "value": pending["value"],
            }
        state.table, state.down, state.pile = table, down, pile
        state.rng = Rng(rng.next_u64())
        return state

    def move_from_wire(self, text: str) -> CartaMove:
        return CartaMove.parse(text)


__all__ = [
    "BY_FACE",
    "COLOURS",
    "DECK",
    "CartaFutbolClub",
    "CartaMove",
    "CartaSeen",
    "CartaState",
    "CartaView",
    "Event",
]
