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

from typing import Any

from engine.carta import cards as C
from engine.carta.rules import CartaMove, CartaState
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
SEARCH = SearchSettings(bias=BIAS, judge=next_goal)
