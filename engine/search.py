"""The search that ``hard`` system players use: information-set Monte Carlo tree search (Cowling, Powley and
Whitehouse, "Information Set Monte Carlo Tree Search", IEEE TCIAIG 2012), in its single-observer form.

The bot is given its seat's view and nothing else. Each iteration:

1. **Determinise**: the game deals a whole state that view could have come from (``Game.sample``): the bot's own
   cards and every public card as the view shows them, every hidden card at random among the hidden places. With
   beliefs on (``SearchSettings.beliefs``, engine/beliefs.py), the deal is picked among a few such deals by how likely
   the other seats' public moves were with the cards each gives them.
2. **Select**: from the root (the bot's decision) down one tree shared by every determinisation, each node a move. At a
   node only the moves legal in this determinisation compete; each such child counts one *availability*, and the
   child chosen is the one with the best ``mean reward + c * sqrt(ln(availability) / visits)`` for the seat that
   makes that move (each seat maximises its own reward, so opponents play their best against the bot, not its
   wishes), the playout policy's own move there adding ``bias / (visits + 1)`` (progressive bias). The policy is
   asked once a node, in the first determinisation that reaches it, not at every visit: the answer is a hint, and
   asking at every visit would cost a cheap game most of its iterations.
3. **Expand** one move legal here that the node has not tried: the playout policy's own move first when the game
   sets a bias (and that move is legal in this determinisation), else one at random.
4. **Play out** to the end with the game's playout policy (its ``normal`` bot where that plays better than random:
   every game's does), each seat choosing from its own view of the determinisation.
5. **Back up** the result: 1 for a seat whose team won, 0 for one that lost, a share for a drawn game.

The move played is the root's most visited child. Searching one tree over every determinisation (rather than a tree
per sample, then a vote) spends the whole budget on the moves that are the bot's to choose, which matters when the
budget allows only hundreds of iterations; the price is that opponents are searched as if they knew the sampled
hands ("strategy fusion"), which the many samples average out.

It is anytime: it stops at a deadline on an injectable clock (always after at least ``min_iterations``), or after a
fixed number of iterations, and it is deterministic for a seed given a fixed number of iterations. It answers early
when the decision is settled: when the most visited move leads the next by more than the iterations left (counted, or
at the rate so far until the deadline), since no other move could overtake it (with a fixed number, the answer is
the one the whole budget would give). Games choose their
settings (:class:`SearchSettings`) and say why in their ``bots`` module.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any

from engine.beliefs import weighted_sample
from engine.core import Bot, GameState, View

__all__ = ["Decision", "SearchBot", "SearchSettings", "rewards"]

SETTLED_EVERY = 16  # iterations between two looks at whether the decision is settled (see _settled)
PLAYOUT_LIMIT = 5_000  # moves a playout may take before it is scored as it stands (no game comes near it)


@dataclass(frozen=True)
class SearchSettings:
    """How a game's ``hard`` players search. ``exploration``: UCB's ``c`` (rewards lie in [0, 1]); ``seconds``: the
    think time a decision when none is given (the service caps it by the seat's clock); ``min_iterations``: the fewest
    iterations even a deadline already past allows; ``playout``: the game's bot that plays the playouts; ``bias``:
    progressive bias (Chaslot et al., 2008) towards the move the playout policy would make at a node, worth
    ``bias / (visits + 1)`` on top of its UCB score and tried first, so that with few iterations a decision falls back
    on the policy's judgement instead of on a handful of noisy playouts; ``judge``: a game's early verdict on a
    playout (a football game's next goal decides it: the rest of a long match is mostly noise to one decision)."""

    exploration: float = 0.7
    bias: float = 0.0  # progressive bias towards the playout policy's own move at each node (0: none)
    seconds: float = 1.0
    min_iterations: int = 8
    playout: str = "normal"
    iterations: int = 1_000  # the budget of a bot given no clock (the engine reads no time of its own)
    # Where a game scores a playout before its end: ``judge(root)`` (the iteration's deal as the decision found it)
    # gives a function that, asked before each playout move, returns each seat's reward to stop there, or None; or
    # gives None where this table is always played to its end.
    judge: Callable[[GameState], Callable[[GameState], list[float] | None] | None] | None = None
    # Beliefs (engine/beliefs.py): ``likelihood(view)`` gives a weigher of the deals sampled from that view (how
    # likely the other seats' public moves were, were the deal true), or None where the view tells nothing; with
    # ``beliefs`` on, each iteration plays the deal picked by weight among ``candidates`` uniform ones. Off by default
    # until the bench shows it stronger.
    likelihood: Callable[[View], Callable[[GameState], float] | None] | None = None
    beliefs: bool = False
    candidates: int = 8
    # The moves the bot weighs at its decision, of the legal ones (``prune(view, legal)``, from the view alone), where
    # a game's rules let a seat go round in circles at no cost (Age of Soccer's boarding and benching in training):
    # the search sees no loss in a move that its next one undoes, and would play such pairs again and again.
    prune: Callable[[View, list[Any]], list[Any]] | None = None


@dataclass(frozen=True)
class Decision:
    """A search's answer: the move, how many iterations it ran and how long it took (by its clock)."""

    move: Any
    iterations: int
    seconds: float


_UNASKED = object()  # a node whose playout policy has not been asked yet


class _Node:
    __slots__ = ("available", "children", "hint", "reward", "seat", "visits")

    def __init__(self, seat: int) -> None:
        self.seat = seat  # the seat whose move led here (the root: the bot's)
        self.children: dict[Any, _Node] = {}
        self.visits = 0
        self.available = 0
        self.reward = 0.0
        self.hint: Any = _UNASKED  # the playout policy's move here, asked once (with a bias), in the first deal seen


def _settled(root: _Node, left: float) -> bool:
    """Whether the most visited move leads the next by more than the iterations ``left``: each iteration visits one
    move of the root, so no other could overtake it and the search may answer now with the move it would end with."""
    first = second = 0
    for child in root.children.values():
        visits = child.visits
        if visits > first:
            first, second = visits, first
        elif visits > second:
            second = visits
    return first - second > left


def _no_clock() -> float:
    return 0.0


def rewards(state: GameState) -> list[float]:
    """Each seat's reward for how ``state`` ended: 1 if its team won, 0 if it lost, ``1 / teams`` each when nobody
    won (a draw, a stalemate, or a playout cut short)."""
    seats = state.seats
    teams = [state.team_of(seat) for seat in range(seats)]
    outcome = state.outcome()
    winning: tuple[int, ...] = ()
    if outcome is not None:
        winning, _ = outcome.for_teams(teams)
    if not winning:
        share = 1.0 / len(set(teams))
        return [share] * seats
    return [1.0 if team in winning else 0.0 for team in teams]


class SearchBot:
    """A system player that searches (see the module docstring). ``sample``: the game's ``sample(view, seed)``;
    ``policies``: the game's bot factories by name (the playout policy is ``settings.playout``); ``iterations`` or
    ``seconds``: a fixed budget a decision (iterations win when both are given); ``clock``: the deadline's clock
    (the engine reads no time: the service and the benchmarks give one; without it a decision takes
    ``settings.iterations``).

    As a :class:`~engine.core.Bot` it reads only ``state.view(seat)``: two states with the same view for its seat give
    the same move for the same seed and a fixed number of iterations."""

    def __init__(
        self,
        sample: Callable[[View, int], GameState],
        policies: Mapping[str, Callable[[int], Bot]],
        seed: int = 0,
        settings: SearchSettings = SearchSettings(),
        *,
        iterations: int | None = None,
        seconds: float | None = None,
        clock: Callable[[], float] | None = None,
    ) -> None:
        self.sample = sample
        self.policy = policies[settings.playout]
        self.seed = seed
        self.settings = settings
        self.iterations = iterations
        self.seconds = settings.seconds if seconds is None else seconds
        self.clock = clock
        self.last: Decision | None = None  # the latest decision (for benchmarks and logs)

    def choose(self, state: GameState, seat: int) -> Any:
        view = state.view(seat)
        decision = self.decide(view, seat, seed=self.seed * 1_000_003 + state.version)
        self.last = decision
        return decision.move

    def decide(
        self,
        view: View,
        seat: int,
        *,
        seed: int,
        iterations: int | None = None,
        deadline: float | None = None,
    ) -> Decision:
        """The move for ``seat`` from its ``view``: search until ``deadline`` (on ``clock``; default: ``seconds``
        from now) or for ``iterations`` (default: the bot's own budget, if it has one)."""
        clock = self.clock or _no_clock
        started = clock()
        iterations = self.iterations if iterations is None else iterations
        if iterations is None and deadline is None:
            if self.clock is None:
                iterations = self.settings.iterations
            else:
                deadline = started + self.seconds
        rng = random.Random(seed)
        sample: Callable[[View, int], GameState] = self.sample
        likelihood = self.settings.likelihood
        if self.settings.beliefs and likelihood is not None:
            weigh = likelihood(view)
            if weigh is not None:
                sample = partial(weighted_sample, sample, weigh, candidates=self.settings.candidates)
        first = sample(view, rng.getrandbits(62))
        legal = first.legal_moves(seat)
        if not legal:
            raise ValueError(f"seat {seat} has no move to make in this view")
        allowed = None
        if self.settings.prune is not None:
            legal = self.settings.prune(view, legal) or legal
            allowed = set(legal)
        if len(legal) == 1:
            return Decision(legal[0], 0, clock() - started)
        policies = [self.policy(rng.getrandbits(62)) for _ in range(first.seats)]
        exploration = self.settings.exploration
        bias = self.settings.bias
        judge = self.settings.judge
        least = max(1, self.settings.min_iterations)
        root = _Node(seat)
        log, sqrt, randrange = math.log, math.sqrt, rng.randrange
        done = 0
        state: GameState | None = first
        while True:
            if done >= least:
                if iterations is not None:
                    if done >= iterations:
                        break
                elif (now := clock()) >= deadline:  # type: ignore[operator]
                    break
                if done % SETTLED_EVERY == 0:
                    if iterations is not None:
                        left: float = iterations - done
                    else:  # (the iterations the rate so far leaves until the deadline)
                        left = (deadline - now) * done / max(now - started, 1e-9)  # type: ignore[operator]
                    if _settled(root, left):
                        break
            if state is None:
                state = sample(view, rng.getrandbits(62))
            verdict = judge(state) if judge is not None else None
            path = [root]
            node = root
            actor = seat
            # Select and expand.
            while True:
                moves = state.legal_moves(actor)
                if node is root and allowed is not None:
                    moves = [move for move in moves if move in allowed] or moves
                children = node.children
                hint = None
                if bias and len(moves) > 1:
                    hint = node.hint
                    if hint is _UNASKED:
                        hint = node.hint = policies[actor].choose(state, actor)
                untried = [move for move in moves if move not in children]
                if untried:
                    for move in moves:
                        child = children.get(move)
                        if child is not None:
                            child.available += 1
                    if hint is not None and hint not in children and hint in moves:
                        move = hint
                    else:
                        move = untried[randrange(len(untried))]
                    child = children[move] = _Node(actor)
                    child.available = 1
                    state.apply(actor, move)
                    path.append(child)
                    break
                best, best_score = None, -1.0
                for move in moves:
                    child = children[move]
                    child.available += 1
                    score = child.reward / child.visits + exploration * sqrt(log(child.available) / child.visits)
                    if move == hint:
                        score += bias / (child.visits + 1)
                    if score > best_score:
                        best, best_score = move, score
                node = children[best]
                state.apply(actor, best)
                path.append(node)
                acting = state.to_act()
                if not acting:
                    break
                actor = acting[0]
            # Play out.
            moves_left = PLAYOUT_LIMIT
            scored = None
            while moves_left:
                acting = state.to_act()
                if not acting:
                    break
                if verdict is not None:
                    scored = verdict(state)
                    if scored is not None:
                        break
                player = acting[0]
                state.apply(player, policies[player].choose(state, player))
                moves_left -= 1
            # Back up.
            if scored is None:
                scored = rewards(state)
            for node in path:
                node.visits += 1
                node.reward += scored[node.seat]
            state = None
            done += 1
        best_move = max(legal, key=lambda move: root.children[move].visits if move in root.children else -1)
        return Decision(best_move, done, clock() - started)
