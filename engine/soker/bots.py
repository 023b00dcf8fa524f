"""Soker's system players. They see what a person in their seat sees: ``state.view(seat)`` and the legal moves.

* :class:`RandomBot` picks uniformly among the legal moves (the benchmark's and the conformance suite's player).
* :class:`HeuristicBot` plays to win: it wins at once when a move wins, prefers discarding many cards at once (packages,
  Links that make the next player skip), keeps the cards of its strongest country and a Joker for a country win, holds
  Yellow and Red back for when it has nothing better, and spends Red when an opponent is close to going out.

The levels (engine/levels.py) build ``easy``, ``normal`` and ``hard`` from these two; why ``hard`` searches as it
does in this game is said at :data:`SEARCH`.

Measured by ``kickoff bench bots`` (docs/benchmarks.md has the figure).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from engine.beliefs import SOFTNESS
from engine.search import SearchSettings
from engine.soker.cards import (
    CARD_MASK_BY_COUNTRY,
    JOKER_MASK,
    LEGAL_ON,
    PLAYER_CARDS,
    PLAYER_MASK,
    RED_MASK,
    TOP_CLUB,
    YELLOW_MASK,
    is_country_set,
    mask_of,
)
from engine.soker.rules import DRAW, END, PLAY, SokerMove, SokerState, SokerView

WIN = 1_000.0


class RandomBot:
    """Chooses uniformly among the legal moves. Seeded: the same seed and positions give the same choices."""

    def __init__(self, seed: int = 0) -> None:
        self._random = random.Random(seed).random

    def choose(self, state: SokerState, seat: int) -> SokerMove:
        moves = state.legal_moves(seat)
        return moves[int(self._random() * len(moves))]


class HeuristicBot:
    """Scores every legal move from its seat's view and plays the best one (ties: the first listed)."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, state: SokerState, seat: int) -> SokerMove:
        view = state.view(seat)
        moves = state.legal_moves(seat)
        hand = mask_of(view.hand or ())
        others = [size for s, size in enumerate(view.hand_sizes) if s != seat]
        threat = min(others) <= 3 if others else False
        keep = _strongest_country(hand)
        best, best_score = moves[0], float("-inf")
        for move in moves:
            score = self._score(move, hand, view.top, keep, threat)
            if score > best_score:
                best, best_score = move, score
        return best

    @staticmethod
    def _score(move: SokerMove, hand: int, top: int, keep: int, threat: bool) -> float:
        if move.kind == DRAW:
            return -5.0
        if move.kind == END:
            return -6.0
        assert move.kind == PLAY
        cards = move.cards
        mask = mask_of(cards)
        after = hand & ~mask
        if not after:
            return WIN + 3
        if is_country_set(after):
            return WIN + 7
        last = cards[-1]
        if len(cards) == 1 and last >= PLAYER_CARDS:
            if (1 << last) & RED_MASK:
                return 30.0 if threat else 2.0
            if (1 << last) & YELLOW_MASK:
                return 3.0
            return -4.0 if after.bit_count() > 3 else 4.0  # a lone Joker: better kept for a country set
        score = 10.0 * len(cards)
        if len(cards) > 1 or TOP_CLUB[top] == last >> 2:
            score += 6.0  # a Link: the next player skips
        jokers = (mask & JOKER_MASK).bit_count()
        score -= 12.0 * jokers if after.bit_count() > 3 else 0.0
        kept = (mask & keep).bit_count()
        score -= 3.0 * kept
        score += 1.0 * (len(cards) - kept - jokers)
        return score


def _strongest_country(hand: int) -> int:
    """The card mask of the country with most cards in ``hand`` (the one to collect for a country win)."""
    return max(CARD_MASK_BY_COUNTRY, key=lambda country: (hand & country).bit_count())


# Beliefs (engine/beliefs.py): which of a seat's public moves say what about its hand, under the normal player above.
# The normal player draws, and ends a turn after drawing, only when it holds no card legal on the top card (every play
# it scores above both: a lone Joker -4, a draw -5, an end -6). So, walking back from now through the seat's moves,
# its hand then being its hand now and the cards it played since:
#
# * **end** after a draw on top T: it held no card legal on T, the card drawn included. Each legal card it held makes
#   the move one the model gives SOFTNESS / n (n: its legal moves then, counted as its single cards plus the end);
# * **draw** on top T: it held no card legal on T before the card it drew. Which card of its hand then was the one
#   drawn is hidden, so the likelihood is the average over each card of that hand being it; the walk back through the
#   seat's moves stops there (its hand before a hidden card is not known);
# * **play** of player cards of one club: the normal player plays the longest package it can (each card adds 10 to a
#   play's score, a kept country's card still 7), so it held no other player card of that club (a Joker may stay out:
#   it costs 12). Each such card makes the play one the model gives SOFTNESS / n (n: those cards plus the play);
# * **play** of a lone Yellow or Joker: it held no player card legal on T (any scores 7 or more; a Yellow 3, a lone
#   Joker 4 at most). A lone Red tells nothing: it scores 30 when an opponent is close to going out, which the history
#   does not say;
# * a Red's penalty draw or the table's move (a draw on an expired clock) stops the walk: a hidden card came in.
#
# Only seats other than the viewer are weighed, from the view's history (the latest HISTORY public moves).
_OR, _END, _DRAW, _PACKAGE, _LONE = 0, 1, 2, 3, 4
_CLUB_MASK = tuple(0xF << (4 * club) for club in range(PLAYER_CARDS // 4))
_LONE_MASK = YELLOW_MASK | JOKER_MASK  # a lone special that says: no player card legal on the top card


def beliefs(view: SokerView) -> Callable[[SokerState], float] | None:
    """A weigher of the deals sampled from ``view``: how likely the other seats' latest public moves (the view's
    history) were, had they held the cards a deal gives them (see above); None where no move tells anything."""
    viewer = view.viewer
    programs: list[tuple[int, list[tuple[int, int, int]]]] = []
    for seat in range(len(view.hand_sizes)):
        if seat == viewer:
            continue
        steps: list[tuple[int, int, int]] = []  # walking back from now: (what, the cards played, the top then)
        for player, top, kind, cards in reversed(view.history):
            if player != seat:
                if kind == PLAY and cards and (1 << cards[-1]) & RED_MASK:
                    break  # (the seat drew a penalty card)
                continue
            if kind == PLAY:
                mask = mask_of(cards)
                players = mask & PLAYER_MASK
                if players:
                    steps.append((_PACKAGE, mask, _CLUB_MASK[(players & -players).bit_length() - 1 >> 2]))
                elif len(cards) == 1 and mask & _LONE_MASK:
                    steps.append((_LONE, mask, top))
                else:
                    steps.append((_OR, mask, 0))
            elif kind == END:
                steps.append((_END, 0, top))
            elif kind == DRAW:
                steps.append((_DRAW, 0, top))
                break
            else:  # the table's move: a hidden card drawn
                break
        if any(op != _OR for op, _, _ in steps):
            programs.append((seat, steps))
    if not programs:
        return None
    soft = SOFTNESS

    def weigh(state: SokerState) -> float:
        weight = 1.0
        hands = state.hands
        for seat, steps in programs:
            hand = hands[seat]
            for op, mask, arg in steps:
                if op == _PACKAGE:  # (arg: the club's cards)
                    hand |= mask
                    left = (hand & arg & ~mask).bit_count()
                    if left:
                        weight *= soft / (1 + left)
                    continue
                if op == _OR:
                    hand |= mask
                    continue
                if op == _LONE:
                    hand |= mask
                    legal = (hand & LEGAL_ON[arg] & PLAYER_MASK).bit_count()
                    if legal:
                        weight *= soft / (1 + legal)
                    continue
                legal = (hand & LEGAL_ON[arg]).bit_count()
                if not legal:
                    continue  # the model's own move, and the only one: likelihood 1
                if op == _END:
                    weight *= soft / (1 + legal)
                else:  # a draw: one card of ``hand`` was the card drawn, each as likely
                    size = hand.bit_count()
                    held = (1.0 if legal == 1 else soft / legal) * legal / size  # the card drawn was a legal one
                    weight *= held + soft / (1 + legal) * (size - legal) / size
        return weight

    return weigh


BOTS = {"random": RandomBot, "heuristic": HeuristicBot}
# How ``hard`` searches (engine/search.py): information-set MCTS, one tree over every deal of the hidden cards. A Soker
# turn's choices (a card, a package and its order, draw, end) are few and the same whatever the opponents hold, and a
# game is short (a playout with normal players is about 0.2 ms), so one shared tree gets thousands of iterations a
# second; a tree per sampled deal would split them. The playouts use the normal player: it plays packages and Links as
# a person does, where random play wastes cards and makes every line look alike. No bias towards the normal player's
# move: it helps at a short budget (one hard against three normal over 25 duplicate deals at 0.3 s a decision: 35 of
# 100 won with it, 29 without), but asking the normal player at every node costs Soker's cheap iterations most of
# their number, and at 1 s a decision hard did worse with it (2 seats: 63.0% of 200 games, 4 seats: 35.4% of 240)
# than without (67.0% of 100, 41.5% of 200). Asked once a node instead (engine/search.py), a bias of 2.0 still did not
# help at 4 seats: 154 of 400 games (38.5%, 95% interval 33.9-43.4%), p50 852 ms, 4,944 iterations. Beliefs (above)
# stay off: at 1 s a decision, one hard against three normal on 100 duplicate deals won 150 of 400 games with them
# and 151 without (2026-12-06), and 100 of 200 head to head at 2 seats; a hard player that sees every hand won 187.
SEARCH = SearchSettings(likelihood=beliefs)  # type: ignore[arg-type]
