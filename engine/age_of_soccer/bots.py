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

from collections.abc import Callable
from typing import Any

from engine.age_of_soccer import cards as C
from engine.age_of_soccer.rules import AosMove, AosState, AosView
from engine.beliefs import SOFTNESS
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


# Beliefs (engine/beliefs.py): which of a seat's public moves say what about its hidden cards, under the normal player
# above (HeuristicBot). The view's history (rules.Record) notes each choice with the public facts of its moment, and
# each public change to a hand. Walking back from now through a seat's records, its hand then is its hand now, plus the
# action cards it let go face up since (``out``), plus the player cards it boarded or traded away, minus those it took
# in face up; the walk over action cards stops where action cards came in or went out unseen (a pick-up, a trade, a
# Millionaire Owner, Samba Fever, a Greedy Agent either way), the walk over player cards where player cards were drawn.
# What the normal player does, and what the other move says of the hand then:
#
# * **window, passed**: the defender answers with any card it may (Save, Super Save, Offside, Counter Attack: each
#   scores above a pass), and a seat outside the match does so with Offside or Counter Attack when it fears the
#   attacker (the leader, with a shield, or a seat one shield from winning). So a pass there says: none of those;
# * **window, answered**: it held a card it could answer with (the rules: a deal without one is impossible, weight 0);
#   from outside, against an attacker it does not fear, the normal player would have passed;
# * **shot**: the normal player shoots whenever it can, an activated Super Shot first (the first by name), then a
#   Shoot, then an unactivated Super Shot. A stop says: no shot; a shot, none it ranks above the one shot. A match the
#   attacker could not shoot in (a draw with no move) says, by the rules, no shot (weight 0 otherwise);
# * **challenge exchange, passed**: the challenged seat plays Park the Bus when the challenge stands (attack >= defence,
#   no Cup Run), the challenger an Eagle Eye or a Cup Run when it falls. A pass there says: no Bus / no Eagle Eye or
#   Cup Run;
# * **match phase**: the normal player challenges, when it holds a shot, any seat it can reach (its attack, with the
#   Eagle Eyes it holds or a Cup Run) whose challenge it scores above ending the turn. Ending says: no shot, or no seat
#   in reach; challenging says: a shot;
# * **training, passed**: every training card but Insider Trading scores above a pass where it can be played (Owner,
#   Samba, Window and Red always; Agent and Bankruptcy with a victim holding action cards; Injury and Free Transfer
#   with an opponent's player on a board), and so does boarding a player card on a vacant position. A pass says: none
#   of those (Insider Trading and the three-card trade, whose score depends on the whole hand, are not read);
# * picks, plays, trades, discards, boards and the table's moves (``timeout``) are not read (which the normal player
#   prefers depends on its whole scoring); their cards are what the walk adds back.
#
# How soft: a move the normal player makes counts 1; any other, SOFTNESS / n, where n is the move made plus the moves
# the deal makes legal that the normal player ranks above it (each face once; in the match phase, each challenge it
# could make). Only seats other than the viewer are weighed, from the latest HISTORY records (rules.py).
_ADD, _PADD, _PDROP, _NONE, _ANSWERED, _SHOT, _NOSHOT, _MATCH = range(8)
_BIT = tuple(1 << number for number in range(len(C.FACE_LIST)))
_CARD_FACE_BIT = tuple(_BIT[face] for face in C.FACE_OF)  # action id -> its face's bit
_IS_EAGLE = tuple(int(kind == C.EAGLE) for kind in C.ACTION_KIND)


def _faces(*kinds: str) -> int:
    return sum(_BIT[number] for number, face in enumerate(C.FACE_LIST) if C.face_kind(face) in kinds)


_SHOTS = _faces(C.SHOOT, C.SUPERSHOT)
_SHOOT = _faces(C.SHOOT)
_EAGLE_FACE = C.FACE_ID[C.EAGLE]
_BUS, _BOOSTS, _CUPRUN = _faces(C.BUS), _faces(C.EAGLE, C.CUPRUN), _faces(C.CUPRUN)
_ALWAYS = _faces(C.OWNER, C.SAMBA, C.WINDOW, C.RED)  # training cards always playable (each scores above a pass)
_ON_HANDS, _ON_BOARDS = _faces(C.AGENT, C.BANKRUPT), _faces(C.INJURY, C.FREE)
# The Super Shots by name (the order the legal moves list them in, which breaks the normal player's ties), by team.
_SUPERSHOTS = sorted((f"{C.SUPERSHOT}-{team}", number) for number, team in enumerate(C.TEAMS))
_ON_VACANT = tuple(  # the vacant positions as bits -> the player cards that could be boarded there, as bits
    sum(1 << card for card in range(C.PLAYER_CARDS) if vacant >> (card & 3) & 1) for vacant in range(16)
)


def _fears(seat: int, seats: int, facts: tuple[Any, ...]) -> bool:
    """Whether the normal player at ``seat``, outside the match, answers the attacker (_Table._answer)."""
    attacker, totals, attacks, row = facts
    leader = max((s for s in range(seats) if s != seat), key=lambda s: (totals[s], attacks[s]))
    winning = sum(1 for s in range(seats) if s != attacker and row[s])
    return (attacker == leader and totals[attacker] > 0) or winning >= seats - 2


def _step(seat: int, seats: int, record: tuple[Any, ...], actions: bool, players: bool) -> tuple[Any, ...] | None:
    """A record's weighing step, for a seat whose action cards then are known (``actions``) or player cards
    (``players``); None where it says nothing."""
    _, kind, number, facts = record
    if kind == "trained":
        faces = 0
        if actions:
            victims, targets = facts
            faces = _ALWAYS | (_ON_HANDS if victims else 0) | (_ON_BOARDS if targets else 0)
        return (_NONE, faces, _ON_VACANT[number] if players else 0)
    if not actions:
        return None
    if kind == "wpass":
        return (_NONE, number, 0) if not facts or _fears(seat, seats, facts) else None
    if kind == "wans":
        return (_ANSWERED, number, not facts or _fears(seat, seats, facts))
    if kind == "xpass":
        attack, defence, cuprun = facts
        if cuprun:
            return None
        if number:  # the challenged seat
            return (_NONE, _BUS, 0) if attack >= defence else None
        return (_NONE, _BOOSTS, 0) if attack < defence else None
    if kind == "shot":
        teams, can_stop = facts
        activated = [_BIT[C.FACE_ID[face]] for face, team in _SUPERSHOTS if teams >> team & 1]
        plain = [_BIT[C.FACE_ID[face]] for face, team in _SUPERSHOTS if not teams >> team & 1]
        ranked = (*activated, _SHOOT, *plain)  # the normal player's order
        return (_SHOT, _BIT[number] if number >= 0 else 0, (ranked, can_stop))
    if kind == "noshot":
        return (_NOSHOT,)
    if kind in ("end", "challenge"):
        reach = tuple((least, 30.0 + 20.0 * need - 40.0 * bare) for least, need, bare in facts)
        return (_MATCH, kind == "end", reach)
    return None


def beliefs(view: AosView) -> Callable[[AosState], float] | None:
    """A weigher of the deals sampled from ``view``: how likely the other seats' latest public moves (the view's
    history) were, had they held the cards a deal gives them (see above); None where no move tells anything."""
    viewer = view.viewer
    seats = len(view.data["seats"])
    history = view.seen.history
    programs: list[tuple[int, list[tuple[Any, ...]]]] = []
    for seat in range(seats):
        if seat == viewer:
            continue
        steps: list[tuple[Any, ...]] = []  # walking back from now: add cards to the hands, or weigh a move
        actions = players = True  # whether the walk still knows the seat's action cards / player cards
        weighs = False
        for record in reversed(history):
            if record[0] != seat:
                continue
            kind = record[1]
            if kind == "out":
                if actions:
                    steps.append((_ADD, _BIT[record[2]], int(record[2] == _EAGLE_FACE)))
            elif kind == "unseen":
                actions = False
            elif kind == "pout":
                if players:
                    steps.append((_PADD, 1 << record[2]))
            elif kind == "pin":
                if players:
                    steps.append((_PDROP, ~(1 << record[2])))
            elif kind == "pdrew":
                players = False
            else:
                step = _step(seat, seats, record, actions, players)
                if step is not None:
                    steps.append(step)
                    weighs = True
            if not actions and not players:
                break
        if weighs:
            programs.append((seat, steps))
    if not programs:
        return None
    soft = SOFTNESS

    def weigh(state: AosState) -> float:
        weight = 1.0
        for seat, steps in programs:
            hand = eagles = players = 0
            for card in state.actions[seat]:
                hand |= _CARD_FACE_BIT[card]
                eagles += _IS_EAGLE[card]
            for card in state.players[seat]:
                players |= 1 << card
            for step in steps:
                op = step[0]
                if op == _ADD:
                    hand |= step[1]
                    eagles += step[2]
                elif op == _PADD:
                    players |= step[1]
                elif op == _PDROP:
                    players &= step[1]
                elif op == _NONE:  # the normal player would have played any of these faces / boarded these players
                    held = (hand & step[1]).bit_count() + (players & step[2]).bit_count()
                    if held:
                        weight *= soft / (1 + held)
                elif op == _ANSWERED:
                    held = (hand & step[1]).bit_count()
                    if not held:
                        return 0.0
                    if not step[2]:
                        weight *= soft / (1 + held)
                elif op == _SHOT:
                    shot, (ranked, can_stop) = step[1], step[2]
                    held = hand & _SHOTS
                    best = next((face for face in ranked if held & face), 0)  # (0: stop)
                    if best != shot:
                        weight *= soft / (held.bit_count() + (1 if can_stop or not shot else 0))
                elif op == _NOSHOT:
                    if hand & _SHOTS:
                        return 0.0
                else:  # _MATCH: would the normal player have challenged?
                    ended, reach = step[1], step[2]
                    cuprun = bool(hand & _CUPRUN)
                    challenges = sum(max(0, eagles - least + 1) + cuprun for least, _ in reach)
                    wants = bool(hand & _SHOTS) and any(
                        score - 2 * min(least if least <= eagles else 99, 1 if cuprun else 99) > 0
                        for least, score in reach
                    )
                    if wants == ended:
                        weight *= soft / (1 + challenges)
        return weight

    return weigh


BOTS = {"random": RandomBot, "heuristic": HeuristicBot}


def no_circles(view: AosView, moves: list[AosMove]) -> list[AosMove]:
    """The moves the hard player weighs at its decision: the legal ones but benching a player card it boarded this
    turn or boarding one it benched this turn (the rules allow any number of changes in training, and the search,
    seeing no loss in a change the next move undoes, boarded and benched one card hundreds of times in a turn).
    Read from the view's history: its boards and benches with their turn."""
    turn, seat = view.data["turn"], view.viewer
    boarded: set[str] = set()
    benched: set[str] = set()
    for who, _, card, facts in view.seen.history:
        if who == seat and facts and facts[0] == turn:
            if facts[1] == "board":
                boarded.add(C.PLAYER_CODES[card])
            elif facts[1] == "bench":
                benched.add(C.PLAYER_CODES[card])
    if not boarded and not benched:
        return moves
    return [
        move
        for move in moves
        if not (move.kind == "bench" and move.args[0] in boarded)
        and not (move.kind == "board" and move.args[0] in benched)
    ]


# How ``hard`` searches (engine/search.py): information-set MCTS, one tree over every deal of the hidden cards. Most of
# a turn's decisions (whom to challenge, which shot, which defence) depend on what the seat holds and the boards, which
# every deal shares; the hidden hands change which answers the opponents have, and the shared tree weighs each line by
# how often it is legal. Games are long (a playout takes milliseconds), so the budget allows hundreds of iterations, not
# the thousands a tree per sample would need. The playouts use the normal player, which fills boards and shoots as a
# person does. Every playout is played to the end: a judge that stopped it at the next shield won (1 for who won it, 0
# for who lost it, a half for the others) made the hard player worse than the normal one at four seats, where a game
# is won by a shield from every other team and normal players answer shots against the leader (0.5 s a decision, one
# hard against three normal, 2026-12-06: 6 of 48 games won judged; 10 of 22 played out, on the same deals); at two
# seats the first shield ends the game, so nothing changes there. The bias towards the normal player's own move keeps
# a decision of few iterations from being a random one (2 seats, 100 iterations, 20 duplicate deals against normal: 27
# of 40 won with it, 23 without).
BIAS = 2.0  # (see SEARCH)
SEARCH = SearchSettings(bias=BIAS, likelihood=beliefs, prune=no_circles)  # type: ignore[arg-type]
