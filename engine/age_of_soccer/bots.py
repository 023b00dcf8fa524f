"""Age of Soccer's system players. They see what a person in their seat sees: ``state.view(seat)`` and the legal
moves, nothing more.

* :class:`RandomBot` picks uniformly among the legal moves (the benchmark's and the conformance suite's player).
* :class:`HeuristicBot` plays to win: it fills its board (attack first), keeps the Super cards it can activate, takes
  cards from the richest opponent and players from the strongest, challenges an opponent it still needs a shield from
  when it holds a shot, shoots its strongest shot first, defends with the card that stops the shot, and interferes
  from outside when the attacker is the one to fear (the leader, or a win for it).

The levels (engine/levels.py) build ``easy``, ``normal`` and ``hard`` from these two; why ``hard`` searches as it
does in this game is said at :data:`SEARCH`.

Measured by ``kickoff bench bots --game age-of-soccer`` (docs/benchmarks.md has the figure).
"""

from __future__ import annotations

from typing import Any

from engine.age_of_soccer import cards as C
from engine.age_of_soccer.rules import AosMove, AosState
from engine.core import Rng
from engine.search import SearchSettings

# What an action card is worth keeping, by kind (the discard goes from the least).
KEEP = {
    C.SUPERSHOT: 9,
    C.SHOOT: 8,
    C.OFFSIDE: 8,
    C.SUPERSAVE: 7,
    C.COUNTER: 6,
    C.SAVE: 6,
    C.CUPRUN: 5,
    C.EAGLE: 4,
    C.FREE: 4,
    C.OWNER: 4,
    C.INJURY: 3,
    C.BUS: 3,
    C.AGENT: 3,
    C.WINDOW: 3,
    C.RED: 2,
    C.SAMBA: 2,
    C.INSIDER: 1,
    C.BANKRUPT: 2,
}
POSITION_VALUE = (1, 2, 3, 4)  # GK, DF, MF, AT: attack wins shields


class RandomBot:
    """Chooses uniformly among the legal moves. Seeded: the same seed and positions give the same choices."""

    def __init__(self, seed: int = 0) -> None:
        self._rng = Rng(seed)

    def choose(self, state: AosState, seat: int) -> AosMove:
        moves = state.legal_moves(seat)
        return moves[self._rng.below(len(moves))]


class HeuristicBot:
    """Scores the legal moves from its seat's view and plays the best (ties: the first listed)."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, state: AosState, seat: int) -> AosMove:
        moves = state.legal_moves(seat)
        if len(moves) == 1:
            return moves[0]
        view = state.view(seat).to_json()
        table = _Table(view, seat)
        best, best_score = moves[0], float("-inf")
        for move in moves:
            score = table.score(move)
            if score > best_score:
                best, best_score = move, score
        return best


class _Table:
    """What the bot reads off its view, and how it scores a move."""

    def __init__(self, view: dict[str, Any], seat: int) -> None:
        self.view = view
        self.seat = seat
        self.me = view["seats"][seat]
        self.seats = len(view["seats"])
        self.hand_actions: list[str] = view["hand"]["actions"]
        self.hand_players: list[str] = view["hand"]["players"]
        self.needed = 2 if self.seats == 3 else 1
        self.my_team = C.TEAMS.index(self.me["team"])
        board_teams = {C.TEAMS.index(code.split("-")[0]) for code in self.me["board"] if code}
        self.activates = {self.my_team, *board_teams}
        self.vacant = [position for position, code in enumerate(self.me["board"]) if not code]
        self.totals = [sum(seat["won"]) for seat in view["seats"]]

    def need_from(self, other: int) -> bool:
        return self.me["won"][other] < self.needed

    def leader(self) -> int:
        others = [s for s in range(self.seats) if s != self.seat]
        return max(others, key=lambda s: (self.totals[s], self.view["seats"][s]["attack"]))

    def shots(self) -> int:
        return sum(1 for face in self.hand_actions if C.face_kind(face) in (C.SHOOT, C.SUPERSHOT))

    def score(self, move: AosMove) -> float:
        return getattr(self, f"_{move.kind}", self._default)(move)

    def _default(self, move: AosMove) -> float:
        return 0.0

    def _pick(self, move: AosMove) -> float:
        wants_player = bool(self.vacant) and not any(
            C.PLAYER_BY_CODE[code] & 3 in self.vacant for code in self.hand_players
        )
        return 2.0 if (move.args[0] == "PLAYER") == wants_player else 1.0

    def _board(self, move: AosMove) -> float:
        card = C.PLAYER_BY_CODE[move.args[0]]
        return 50.0 + POSITION_VALUE[card & 3] + (1.0 if card >> 2 in self.activates else 0.0)

    def _bench(self, move: AosMove) -> float:
        return -100.0

    def _trade(self, move: AosMove) -> float:
        if len(move.args) == 3:  # three action cards for a player card: when the board has room and the cards are weak
            if not self.vacant:
                return -10.0
            return 6.0 - sum(KEEP[C.face_kind(face)] for face in move.args) / 3
        return -5.0  # a player card for an action card

    def _play(self, move: AosMove) -> float:
        face, *rest = move.args
        kind = C.face_kind(face)
        if kind == C.OWNER:
            return 30.0
        if kind == C.SAMBA:
            return 10.0
        if kind == C.WINDOW:
            return 12.0 if self.vacant else 2.0
        target = int(rest[0])
        seats = self.view["seats"]
        threat = 5.0 if target == self.leader() else 0.0
        if kind == C.AGENT:
            return 20.0 + seats[target]["actions_held"] + threat
        if kind == C.BANKRUPT:
            return 8.0 + seats[target]["actions_held"] / 2 + threat
        if kind == C.RED:
            return 6.0 + threat + self.totals[target]
        player = C.PLAYER_BY_CODE[rest[1]]
        value = POSITION_VALUE[player & 3]
        if kind == C.FREE:
            return 25.0 + value + threat + (5.0 if player & 3 in self.vacant else 0.0)
        if kind == C.INJURY:
            return 15.0 + value + threat
        # Insider Trading: away from the strongest, to the weakest
        receiver = int(rest[2])
        return 5.0 + value + threat - self.totals[receiver] - seats[receiver]["attack"] / 4

    def _pass(self, move: AosMove) -> float:
        phase = self.view["phase"]
        if phase == "training":
            return 0.5
        return 0.0

    def _discard(self, move: AosMove) -> float:
        kind = C.face_kind(move.args[0])
        keep = KEEP[kind]
        if kind in (C.SUPERSHOT, C.SUPERSAVE) and C.face_team(move.args[0]) not in self.activates:
            keep -= 2
        return -keep

    def _draft(self, move: AosMove) -> float:
        card = C.PLAYER_BY_CODE[move.args[0]]
        return POSITION_VALUE[card & 3] + (10.0 if card & 3 in self.vacant else 0.0)

    def _challenge(self, move: AosMove) -> float:
        target = int(move.args[0])
        if not self.shots():
            return -20.0
        boosts = len(move.args) - 1
        score = 30.0 - 2.0 * boosts
        if self.need_from(target):
            score += 20.0
        if self.view["seats"][target]["shields"] == 0:
            score -= 40.0
        return score

    def _end(self, move: AosMove) -> float:
        return 0.0

    def _eagle(self, move: AosMove) -> float:
        return self._boost_needed()

    def _cuprun(self, move: AosMove) -> float:
        return self._boost_needed() - 1.0

    def _boost_needed(self) -> float:
        challenge = self.view.get("challenge") or {}
        if challenge.get("cuprun"):
            return -1.0
        target = challenge["target"]
        attack = self.me["attack"] + 4 * challenge["eagles"]
        defence = self.view["seats"][target]["defence"] + 4 * challenge["buses"]
        return 5.0 if attack < defence else -1.0

    def _bus(self, move: AosMove) -> float:
        challenge = self.view["challenge"]
        attacker = self.view["seats"][self.view["active"]]
        attack = attacker["attack"] + 4 * challenge["eagles"]
        defence = self.me["defence"] + 4 * challenge["buses"]
        return 5.0 if attack >= defence and not challenge["cuprun"] else -1.0

    def _shoot(self, move: AosMove) -> float:
        face = move.args[0]
        if C.face_kind(face) == C.SUPERSHOT:
            return 20.0 if C.face_team(face) in self.activates else 5.0
        return 10.0

    def _stop(self, move: AosMove) -> float:
        return 1.0

    def _answer(self, move: AosMove) -> float:
        match = self.view["match"]
        attacker, defender = match["attacker"], match["defender"]
        kind = C.face_kind(move.args[0])
        if self.seat == defender:
            if kind == C.COUNTER:
                return 12.0 if self.shots() else 6.0
            return {C.SAVE: 10.0, C.SUPERSAVE: 9.0, C.OFFSIDE: 8.0}[kind]
        # From outside: only against the one to fear.
        winning = sum(1 for s in range(self.seats) if s != attacker and self.view["seats"][attacker]["won"][s])
        fear = (attacker == self.leader() and self.totals[attacker] > 0) or winning >= self.seats - 2
        if not fear:
            return -1.0
        if kind == C.COUNTER:
            return 4.0 if self.shots() and self.need_from(attacker) else 1.0
        return 3.0


BOTS = {"random": RandomBot, "heuristic": HeuristicBot}


def next_shield(root: AosState) -> Any:
    """A playout's verdict at the next shield won after the decision (at three or more seats, where one shield does
    not end the game): 1 for the seat that won it, 0 for the seat that lost it, a half for the others; a game that
    ends first is scored as it ended."""
    seats = root.seats
    if seats == 2:
        return None  # (played to its end: its first shield ends it)
    base = [sum(row) - sum(line[seat] for line in root.won) for seat, row in enumerate(root.won)]  # won - lost
    total = sum(map(sum, root.won))

    def verdict(state: AosState) -> list[float] | None:
        won = state.won
        if sum(map(sum, won)) == total:
            return None
        net = [sum(row) - sum(line[seat] for line in won) - base[seat] for seat, row in enumerate(won)]
        return [min(1.0, max(0.0, 0.5 + 0.5 * change)) for change in net]

    return verdict


# How ``hard`` searches (engine/search.py): information-set MCTS, one tree over every deal of the hidden cards. Most of
# a turn's decisions (whom to challenge, which shot, which defence) depend on what the seat holds and the boards, which
# every deal shares; the hidden hands change which answers the opponents have, and the shared tree weighs each line by
# how often it is legal. Games are long (a playout takes milliseconds), so the budget allows hundreds of iterations, not
# the thousands a tree per sample would need. The playouts use the normal player, which fills boards and shoots as a
# person does. At three or four seats a playout ends at the next shield won, where the game moves most (at two, that
# shield ends the game anyway); the bias towards the normal player's own move keeps a decision of few iterations
# from being a random one (2 seats, 100 iterations, 20 duplicate deals against normal: 27 of 40 won with it, 23
# without).
BIAS = 2.0  # (see SEARCH)
SEARCH = SearchSettings(bias=BIAS, judge=next_shield)
