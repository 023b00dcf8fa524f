"""Carta Fútbol Club's system players. They see what a person in their seat sees: ``state.view(seat)`` and the legal
moves, nothing more.

* :class:`RandomBot` picks uniformly among the legal moves (the benchmark's and the conformance suite's player).
* :class:`HeuristicBot` plays to win: it counts the plays to the shot and shoots with its best card once it may;
  attacks with cards hard to beat (a Cañito when the shot is one play away), keeps its Shots and Jokers for shooting;
  defends with the cheapest card that wins the ball, keeps Super Defensa for a Cañito or for a play near the shot,
  tackles for a foul only while a foul restarts the count; answers an Off-side with its Siga-siga; and lays face down
  the card it needs least.

The levels (engine/levels.py) build ``easy``, ``normal`` and ``hard`` from these two; why ``hard`` searches as it
does in this game is said at :data:`SEARCH`.

Measured by ``kickoff bench bots --game carta-futbol-club`` (docs/benchmarks.md has the figure).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Any

from engine.beliefs import SOFTNESS
from engine.carta import cards as C
from engine.carta.rules import (
    _ANSWERS,
    _ATTACK,
    _ATTACK_SHOOTING,
    _KICK,
    _SAVE_ONLY,
    BY_FACE,
    DEALT,
    PLAY,
    SHOOTOUT,
    SIGA,
    CartaMove,
    CartaState,
    CartaView,
)
from engine.core import Rng
from engine.search import SearchSettings

# How much a card is worth keeping (the card laid face down is the one worth least).
_KEEP = {C.SS: 30, C.JOKER: 40, C.SUPER: 35, C.CANITO: 25, C.OFFSIDE: 12, C.SIGA: 10, C.PI: 0, C.DT: 0}


def _kind(face: str) -> str:
    return face.split("-")[1]


def _value(face: str) -> int:
    parts = face.split("-")
    return int(parts[2]) if len(parts) > 2 else 0


def _keep(face: str) -> int:
    kind = _kind(face)
    return _KEEP.get(kind, 0) + _value(face) * (2 if kind == C.SS else 1)


class RandomBot:
    """Chooses uniformly among the legal moves. Seeded: the same seed and positions give the same choices."""

    def __init__(self, seed: int = 0) -> None:
        self._rng = Rng(seed)

    def choose(self, state: CartaState, seat: int) -> CartaMove:
        moves = state.legal_moves(seat)
        return moves[self._rng.below(len(moves))]


class HeuristicBot:
    """Picks by the rules of thumb above, from its seat's view and its legal moves."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, state: CartaState, seat: int) -> CartaMove:
        moves = state.legal_moves(seat)
        if len(moves) == 1:
            return moves[0]
        view = state.view(seat).to_json()
        phase = view["phase"]
        if phase in ("toss", "choice", "deck"):
            return next((m for m in moves if m.args == ("kickoff",)), moves[0])
        if phase == "siga":
            return next((m for m in moves if m.kind == "play"), moves[0])
        pending = view.get("pending")
        if phase == "shootout":
            return self._kick(moves) if pending is None else self._keep_goal(moves, pending)
        if pending is None:
            return self._attack(moves, view)
        return self._defend(moves, view, pending)

    # Attacking

    def _attack(self, moves: list[CartaMove], view: dict[str, Any]) -> CartaMove:
        shots = [m for m in moves if _action(m) == C.SHOT]
        if shots:
            return max(shots, key=lambda m: _value(m.args[0]))
        count = view["count"]
        canitos = [m for m in moves if m.kind == "play" and _kind(m.args[0]) == C.CANITO]
        if canitos and count == 2:
            return canitos[0]
        plays = [m for m in moves if m.kind == "play" and _action(m) in (C.PASS, C.DRIBBLE)]
        plays = [m for m in plays if _kind(m.args[0]) != C.JOKER]  # Jokers are kept for the shot
        if plays:
            return max(plays, key=lambda m: (_value(m.args[0]), _action(m) == C.DRIBBLE))
        if canitos:
            return canitos[0]
        jokers = [m for m in moves if m.kind == "play" and _action(m) in (C.PASS, C.DRIBBLE)]
        if jokers and count >= 1:
            return max(jokers, key=lambda m: _action(m) == C.DRIBBLE)
        return _least(moves)

    def _kick(self, moves: list[CartaMove]) -> CartaMove:
        shots = [m for m in moves if m.kind == "play"]
        return max(shots, key=lambda m: _value(m.args[0])) if shots else _least(moves)

    # Defending

    def _defend(self, moves: list[CartaMove], view: dict[str, Any], pending: dict[str, Any]) -> CartaMove:
        action, value = pending["action"], pending["value"]
        count = view["count"]
        plays = [m for m in moves if m.kind == "play"]
        supers = [m for m in plays if _kind(m.args[0]) == C.SUPER]
        if action == C.SHOT:
            return self._keep_goal(moves, pending)
        if action == "canito":
            return supers[0] if supers else _least(moves)
        if action == "down":
            skills = [m for m in plays if _kind(m.args[0]) in (C.PI, C.DT)]
            return min(skills, key=lambda m: _value(m.args[0])) if skills else _least(moves)
        kind = C.PI if action == C.PASS else C.DT
        cards = [m for m in plays if _kind(m.args[0]) == kind]
        winning = [m for m in cards if _value(m.args[0]) > value or (kind == C.PI and _value(m.args[0]) == value)]
        if winning:
            return min(winning, key=lambda m: _value(m.args[0]))
        if kind == C.DT and count + 1 <= 2:
            foul = [m for m in cards if _value(m.args[0]) == value]
            if foul:
                return foul[0]  # a foul on plays 1-2 sends the attack back to play one
        danger = count + 1 >= 3
        if supers and danger:
            return supers[0]
        offside = [m for m in plays if _kind(m.args[0]) == C.OFFSIDE]
        if offside:
            return offside[0]
        jokers = [m for m in plays if _kind(m.args[0]) == C.JOKER]
        if jokers and danger:
            return max(jokers, key=lambda m: _value(m.args[0]) if _value(m.args[0]) >= value else -1)
        return _least(moves)

    def _keep_goal(self, moves: list[CartaMove], pending: dict[str, Any]) -> CartaMove:
        value = pending["value"]
        saves = [m for m in moves if m.kind == "play"]
        better = [m for m in saves if _value(m.args[0]) > value]
        if better:
            return min(better, key=lambda m: _value(m.args[0]))
        level = [m for m in saves if _value(m.args[0]) == value]
        if level:
            return level[0]  # the shooter's Luck card: an even chance
        return _least(moves)  # a Save that cannot stop it is lost for nothing


def _action(move: CartaMove) -> str:
    if move.kind != "play":
        return ""
    if len(move.args) > 1:
        return move.args[1]
    kind = _kind(move.args[0])
    return {C.PI: C.PASS, C.DT: C.DRIBBLE, C.SS: C.SHOT}.get(kind, kind.lower())


def _least(moves: list[CartaMove]) -> CartaMove:
    """The face-down move that gives up the card worth least (or the first move when nothing may go face down)."""
    downs = [m for m in moves if m.kind == "down"]
    return min(downs, key=lambda m: _keep(m.args[0])) if downs else moves[0]


BOTS = {"random": RandomBot, "heuristic": HeuristicBot}


# Beliefs (engine/beliefs.py): which of a seat's public moves say what about its hand, under the normal player above
# (HeuristicBot). Cards come into a hand only when a hand is dealt (a shootout's deal in full too), so a seat's moves
# since the latest deal (CartaSeen.history) are weighed against the hand a sampled deal gives it now, with the cards it
# played face up since added back, walking back from now. For each such move the normal player's choice is a card it
# holds: the one with the highest rank below (a tie, which only the order of its hand decides, allows each), or a card
# face down (or a ``decline``) where it holds none ranked. The move the seat made weighs 1 where it is that choice,
# ``SOFTNESS / n`` where not (``n``: its legal moves then, counted as each card face down plus each face-up play, copies
# apart), and 0 where the rules forbade it (a kick face down with a Shot in hand). So:
#
# * **face down, or a decline**, where the normal player would have played a card face up, tells which cards it lacked:
#   answering a Pass of 6 face down, no Intercept of 6 or more (nor an Off-side; nor a Super Defensa or a Joker from
#   the third play); a Cañito, no Super Defensa; a card face down, no Intercept or Tackle; a Shot, no Save (a Joker
#   either) of its value or more; attacking face down, no Pass, Dribble or Cañito (from the second play no Joker, from
#   the fourth no Shot); an Off-side declined, no Siga-siga;
# * **a card face up** below the normal player's choice tells it held no better one: an Intercept of 9 against a Pass
#   of 5 says no Intercept of 5 to 8, an attacking Pass of 4 no Pass or Dribble above 4 (a Cañito on the third play
#   none either), a kick of 7 no Shot above 7;
# * what a face-down card was is hidden, so it is not added back: the older moves are weighed with the part of the hand
#   the deal and the history tell, which can only miss what the card would have said (the normal player's choice
#   from fewer cards is the same card, or one where it had none), never read more than the moves say;
# * a move the table made for a seat whose clock ran out is read as the seat's (the history does not tell them apart:
#   a log replayed plays every move as the table's); the softness covers it.
#
# Every seat but the viewer is weighed (a teammate's hand is hidden too), from the latest HISTORY records.
def _offered(phase: str, asked: str, count: int) -> Mapping[str, tuple[str, ...]]:
    """The face-up plays a hand offers (kind -> actions), as the rules list them."""
    if phase == SIGA:
        return {C.SIGA: ("",)}
    if phase == SHOOTOUT:
        return _SAVE_ONLY if asked else _KICK
    if asked:
        return _ANSWERS[asked]
    return _ATTACK_SHOOTING if count >= 3 else _ATTACK


def _rank(phase: str, asked: str, value: int, count: int, card: int, action: str) -> int:
    """How the normal player ranks playing ``card`` face up as ``action`` (a play the rules offer): it plays the
    highest ranked; 0 for a play it would rather not make than lay a card face down."""
    kind, number = C.KIND[card], C.VALUE[card]
    if phase == SIGA:
        return 1
    if phase == SHOOTOUT and not asked:  # a kick: its highest Shot
        return 100 + number
    if asked == C.SHOT:  # a Save: the lowest that wins, else one level with the Shot
        return 320 - number if number > value else 200 if number == value else 0
    if not asked:  # attacking
        if action == C.SHOT:
            return 500 + number
        if kind == C.CANITO:
            return 400 if count == 2 else 200
        if kind == C.JOKER:  # kept for the shot, or from the second play declared a Dribble
            return 100 + (action == C.DRIBBLE) if count >= 1 else 0
        return 300 + 2 * number + (kind == C.DT)  # the highest Pass or Dribble (a Dribble on a tie)
    if asked == "canito":
        return 100  # (a Super Defensa)
    if asked == "down":
        return 0 if kind == C.JOKER else 120 - number  # the lowest Intercept or Tackle
    danger = count + 1 >= 3
    if kind == C.SUPER:
        return 400 if danger else 0
    if kind == C.OFFSIDE:
        return 300
    if kind == C.JOKER:
        return 200 + (number + 1 if number >= value else 0) if danger else 0
    if number > value or (kind == C.PI and number == value):
        return 620 - number  # the lowest that wins the ball
    if kind == C.DT and number == value and count < 2:
        return 500  # a foul on plays 1-2: the attack starts again
    return 0


@functools.cache
def _tables(phase: str, asked: str, value: int, count: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """For a decision: each card's best rank (0 where none, or no face-up play) and the legal moves it gives."""
    offered = _offered(phase, asked, count)
    downs = phase != SIGA and not (phase == SHOOTOUT and not asked)  # (a kick goes face down only without a Shot)
    ranks, counts = [], []
    for card in range(C.CARDS):
        actions = offered.get(C.KIND[card], ())
        ranks.append(max((_rank(phase, asked, value, count, card, action) for action in actions), default=0))
        counts.append(len(actions) + downs)
    return tuple(ranks), tuple(counts)


def beliefs(view: CartaView) -> Callable[[CartaState], float] | None:
    """A weigher of the deals sampled from ``view``: how likely the other seats' public moves since the latest deal
    (the view's history) were, had they held the cards a deal gives them (see above); None where none tells anything."""
    viewer = view.viewer
    # Walking back from now, each seat's steps: (the card it played face up, to add back, or -1; each card's rank and
    # legal moves then; the move's own rank; the legal moves a hand adds to (1: a decline); whether it was a kick).
    steps: dict[int, list[tuple[int, tuple[int, ...], tuple[int, ...], int, int, bool]]] = {}
    for seat, phase, asked, value, count, kind, face, action in reversed(view.seen.history):
        if kind == DEALT:
            break
        if seat == viewer or phase not in (PLAY, SIGA, SHOOTOUT):
            continue
        card = BY_FACE[face][0] if face else -1
        ranks, counts = _tables(phase, asked, value, count)
        own = 0
        if card >= 0:
            actions = _offered(phase, asked, count)[C.KIND[card]]
            own = _rank(phase, asked, value, count, card, action or actions[0])
        kick = phase == SHOOTOUT and not asked
        steps.setdefault(seat, []).append((card, ranks, counts, own, int(phase == SIGA), kick))
    programs = list(steps.items())
    if not programs:
        return None
    soft = SOFTNESS

    def weigh(state: CartaState) -> float:
        weight = 1.0
        hands = state.hands
        for seat, program in programs:
            hand = list(hands[seat])
            for card, ranks, counts, own, moves, kick in program:
                if card >= 0:
                    hand.append(card)  # its hand before it played that card
                best = 0
                for held in hand:
                    rank = ranks[held]
                    if rank > best:
                        best = rank
                    moves += counts[held]
                if own == best:
                    continue  # the normal player's move (or one it ties with)
                if kick and not own:
                    return 0.0  # a kick face down with a Shot in hand: not a legal move
                weight *= soft / moves
        return weight

    return weigh


def _lead(state: CartaState) -> int:
    """Team 0's lead: goals, and in a shootout the penalties scored."""
    return state.goals[0] - state.goals[1] + state.scored[0] - state.scored[1]


def next_goal(root: CartaState) -> Any:
    """A playout's verdict at the next goal (or penalty) after the decision: 1 for the team that scored it, 0 for the
    other; a match that ends first is scored as it ended."""
    start = _lead(root)
    teams = [root.team_of(seat) for seat in range(root.seats)]

    def verdict(state: CartaState) -> list[float] | None:
        lead = _lead(state)
        if lead == start:
            return None
        won = 0 if lead > start else 1
        return [1.0 if team == won else 0.0 for team in teams]

    return verdict


# How ``hard`` searches (engine/search.py): information-set MCTS, one tree over every deal of the hidden cards. Carta's
# decisions are many and small (which card, face up or down, to pass, dribble or shoot) and its hidden cards are the
# others' hands and the decks; one shared tree keeps the whole budget on the seat's own choices, and rewards count for
# the seat's team, so teammates search for the same result. The playouts use the normal player: random play in Carta
# rarely reaches a shot, so random playouts would score nearly every line as a draw. A playout ends at the next goal
# (or penalty): a match is about 150 moves, and what follows the next goal says little about one decision, so judged
# there a playout costs a fraction and says more (at 0.5 s a decision against normal, 2 seats, 8 duplicate deals:
# 10 of 14 matches not drawn won with it, 4 of 13 without). The bias towards the normal player's own move keeps a
# decision of few iterations from being a random one (at 30 iterations without it: 0 of 12 won).
BIAS = 2.0  # (see SEARCH)
SEARCH = SearchSettings(bias=BIAS, judge=next_goal, likelihood=beliefs)  # type: ignore[arg-type]
