"""Age of Soccer's rules: the state, the legal moves, applying a move, views, outcome.

The rulebook, with the house defaults for what it leaves open; where both are silent, the choices below are what
players at a real table would expect (the ones marked *settled here*).

**Set-up.** 2-7 players, each with one of the seven teams (option ``teams``: team codes in seat order, e.g.
``"VIK,ROM"``; unset: Spartans, Vikings, Parthians... in seat order). Team boards start at attack 4 / defence 4, and
each team holds its seven shields. Everyone is dealt five action cards; nobody gets a player card. Seat
``first_seat`` (default 0) plays first; turns go in seat order.

**A turn** is PICK UP, then TRAINING, then MATCH:

* PICK UP: one player card, or two action cards (``pick player`` / ``pick actions``), each offered only where it
  draws at least one card. With no card of either kind left to draw (decks and discard piles empty) the pick-up
  draws nothing and training begins by itself, with the turn (a ``drew`` event of no card): no player is left
  without a move, and the clock and the bots play on from training.
* TRAINING, in any order until ``pass``: one trade a turn (three action cards for a player card, or a player card for an
  action card; offered only when a card can be drawn for it); training cards, any number; team management: ``board``
  a player card from the hand onto its vacant position, ``bench`` one back to the hand, as often as wanted. A team's
  attack and defence are 4 plus its board's cards (GK 0/3, DF 1/2, MF 2/1, AT 3/0). After ``pass``, a player holding
  more than seven action cards discards down to seven, choosing (player cards do not count); one holding seven or
  fewer discards nothing.
* MATCH: ``challenge`` one other player, or ``end`` the turn. A challenge needs attack >= the challenged team's
  defence. The challenger may play Eagle Eye (+4 attack) or Dazzling Cup Run (the challenge stands whatever the points)
  with the challenge; the challenged player may answer with Park the Bus (+4 defence); the two alternate, challenged
  first, until both pass; then the challenge stands or falls. Boosts last for that match, and are played only with a
  challenge (in the challenge itself or in its exchange), never on their own nor once the match has begun; the
  challenge itself carries Eagle Eyes (as many as wanted) or one Dazzling Cup Run, not both, and a second Dazzling
  Cup Run in one exchange would change nothing, so it is not offered. A challenge that falls lets the player
  challenge another player not yet challenged this turn. One match a turn.

**A match.** The attacker must shoot if able (Shoot, or a Super Shot); after a shot of its own is stopped it may shoot
again or ``stop`` (a draw). A Super Shot or Super Save is *activated* when its player's team board is that team, or a
player of that team is on its board; otherwise it is a plain Shoot or Save. Every shot opens a *window*: the defender
and every player outside the match, in seat order from the attacker's left, may answer at once, each with its own clock;
the answer that counts is the first in that order (an answer waits until everyone before it has passed, and one
before it takes the window instead - settled here: answers are simultaneous, their order decides). The defender may
answer with Save (a plain shot only), Super Save (an activated one stops any shot; a plain one, a plain shot), Offside
or Counter Attack; players outside with Offside or Counter Attack. Counter Attack answers a plain shot only (an
unactivated Super Shot is one). Save, Super Save and Offside stop the shot. Counter Attack cancels it and makes its
player the attacker and the former attacker the defender; the new attacker, like any attacker, must shoot if able (a
Super Shot counts as the Shoot it needs), and the match is a draw only when it holds no shot (``stop`` is not
offered to it before a shot of its own is stopped; its clock running out still stops, a draw). When
everyone has passed, the shot scores: the attacker takes one of the defender's own shields (a team with none left
gives none). The first team holding a shield won from every other team (two from each in a three-player game) wins
at once; won shields are never lost.

**Nobody can win any more** (the house default): when a shield taken leaves no seat able to win (each needs a shield
from a team that has none left), the game ends on shields won: the most shields won wins, ties shared (reason
``blocked``); without this a game could go on for ever.

**Training cards.** Millionaire Owner: two action cards (three with two active players of its team on the board).
Greedy Agent: steal one action card (two with the bonus) from another player's hand, chosen blind (the hand is
shuffled first, so a position says nothing). Samba Fever: from its player round the table, everyone picks up one
action card. Bankruptcy: another player loses two action cards, chosen blind, to the discard pile. Red Card: another
player misses a turn (Red Cards stack; a player who misses turns still answers in windows and drafts). Injury: an
opponent's active player goes to the player discard pile. Free Transfer: steal an opponent's active player into the
hand. Insider Trading: take an opponent's active player and give it to any player but oneself (into the hand).
Transfer Window: one player card per player is dealt face up; from its player round the table each takes one (the
last in draft order get nothing if the deck runs short). Greedy Agent, Bankruptcy, Injury, Free Transfer and Insider
Trading need a victim with something to take: a player with no action card in hand is never offered as the victim
of a Greedy Agent or a Bankruptcy (and is refused as one), so the card is never spent for nothing.

**Moves that name several cards** may name them in any order: ``trade BUS RED SAMBA`` and ``trade SAMBA BUS RED`` are
the same trade, and a blind card's positions (``play BANKRUPT 1 3 1``) the same as ``play BANKRUPT 1 1 3``; the
engine reads each in one order (sorted faces, rising positions), so the text form, the proto message and the REST
body all follow.

**Decks.** A played card goes to its discard pile before its effect. A deck that runs out is replaced by its shuffled
discard pile when a card must be drawn; with both empty nothing is drawn (a pick-up of two takes what there is).

**Clocks** (online rooms): ``turn_seconds`` (60) for the player whose turn it is, all phases; ``response_seconds``
(15) for each other seat asked (a window, the challenge exchange, a draft, a counter-attacker's shot), afresh each
time it is asked. The turn clock is the whole turn's: it pauses while other seats are asked and resumes with the time
that was left when play comes back (settled here: the others' thinking is not the player's). At zero the
table plays ``timeout``: for the player whose turn it is, pick up two action cards if not yet picked, end any match
as a draw, discard down to seven (the table discards the last cards picked up) and end the turn; for anyone else, a
pass (a drafter takes the first card; a counter-attacker stops).

**Turn limit** (option ``max_rounds``, off by default): after that many full rounds the game ends and the most shields
won wins (ties shared).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import chain, combinations
from typing import Any, NamedTuple

from engine.age_of_soccer import cards as C
from engine.age_of_soccer.cards import (
    ACTION_FACE,
    ACTION_INSTANCE,
    ACTION_KIND,
    ACTION_TEAM,
    ATTACK,
    BASE,
    DEFENCE,
    FACE_ID,
    FACE_OF,
    PLAYER_BY_CODE,
    PLAYER_CARDS,
    PLAYER_CODES,
    TEAMS,
)
from engine.core import (
    Bot,
    CardFace,
    ChoiceTaken,
    Event,
    Game,
    GameOver,
    GameSpec,
    GameState,
    IllegalMove,
    InvalidOptions,
    MalformedMove,
    Move,
    NotYourTurn,
    OptionSpec,
    Outcome,
    Rng,
)

HAND_LIMIT = 7
DEALT = 5
SHIELDS = 7
PICKUP, TRAINING, DISCARD, DRAFT, MATCH, CHALLENGE, SHOT, WINDOW, OVER = (
    "pickup",
    "training",
    "discard",
    "draft",
    "match",
    "challenge",
    "shot",
    "window",
    "over",
)
WIN_SHIELDS, WIN_ROUNDS, WIN_BLOCKED = "shields", "rounds", "blocked"
# The public moves a view shows (Seen.history): enough for each seat's latest turn, and the windows and exchanges it
# answered since, at a table of four.
HISTORY = 64

SPEC = GameSpec(
    name="age-of-soccer",
    title="Age of Soccer",
    seat_counts=(2, 3, 4, 5, 6, 7),
    deck_size=PLAYER_CARDS + C.ACTION_CARDS,
    summary="Seven ancient teams build boards of players, train, and challenge each other to matches for shields.",
    seat_choice="a team: " + ", ".join(f"{code} ({name})" for code, name in zip(TEAMS, C.TEAM_NAMES, strict=True)),
    options=(
        OptionSpec("teams", "", "team codes in seat order, e.g. VIK,ROM (unset: SPA, VIK, PAR... in seat order)"),
        OptionSpec("first_seat", 0, "the seat that plays first", minimum=0, maximum=6),
        OptionSpec("turn_seconds", 60, "online clock: seconds for a whole turn (all three phases)", 5, 600),
        OptionSpec("response_seconds", 15, "online clock: seconds for each answer asked of another seat", 2, 600),
        OptionSpec("max_rounds", 0, "end after this many full rounds, most shields winning (0: off)", 0, 1000),
    ),
)


# --------------------------------------------------------------------------------------------------------------------
# Moves: small values with a text form. ``args`` are card faces or codes, and seat numbers as text.


KINDS = frozenset(
    (
        "pick",
        "trade",
        "play",
        "board",
        "bench",
        "pass",
        "discard",
        "draft",
        "challenge",
        "end",
        "eagle",
        "cuprun",
        "bus",
        "shoot",
        "stop",
        "answer",
        "timeout",
    )
)


class AosMove(Move):
    """An Age of Soccer move (``play AGENT-VIK 2 1``: kind ``play``, args ``AGENT-VIK 2 1``): card faces and codes in
    capitals, seat numbers and positions as digits; the cards of a move that names several in one order
    (:func:`_canonical`)."""

    __slots__ = ()
    kinds = KINDS

    @staticmethod
    def spell(word: str) -> str:
        return word.upper() if not word.isdigit() else word

    @classmethod
    def parse(cls, text: str) -> AosMove:
        return _canonical(super().parse(text))


PASS = AosMove("pass")
END = AosMove("end")
STOP = AosMove("stop")
TIMEOUT = AosMove("timeout")


# --------------------------------------------------------------------------------------------------------------------
# Events


class AosEvent(Event):
    """What happened (:class:`engine.core.Event`), described in a line of its seats and cards."""

    def describe(self) -> str:
        text = f"{self.kind} seat {self.seat}"
        if self.target >= 0:
            text += f" -> seat {self.target}"
        shown = (*self.cards, *self.private)
        return text + (f": {' '.join(shown)}" if shown else "")


# --------------------------------------------------------------------------------------------------------------------
# Views


# A public move, or a public change to a hand, as the view's history keeps it: (seat, kind, number, facts). Every seat
# saw each of them; none names a hidden card. Changes to a hand: ``out`` (an action card of face ``number`` left it face
# up: played, discarded, a boost, a shot, an answer that counted, lost to a Bankruptcy), ``unseen`` (action cards came
# in or went out unseen: a pick-up, a trade, a Millionaire Owner, Samba Fever, a Greedy Agent's thief and victim),
# ``pout`` / ``pin`` (player card ``number`` left the hand for the board or a trade / came in face up: benched, drafted,
# transferred; a board or a bench with facts (the turn, "board" or "bench")), ``pdrew`` (player cards drawn unseen),
# ``noshot`` (a match's attacker had nothing to shoot: a draw). Choices, with the public facts of the moment they were
# made in (``number``, ``facts``): ``trained`` (passed training; the vacant board positions as bits, (another seat holds
# action cards, an opponent has a player on its board)), ``xpass`` (passed in a challenge's exchange; 1 for the
# challenged seat, (attack, defence, Cup Run played)), ``wpass`` / ``wans`` (passed / answered a shot's window; the
# faces it could answer with as bits of cards.FACE_ID, and for a seat outside the match (attacker, shields won by each
# seat, each seat's attack, the shields the attacker won from each seat); () for the defender), ``shot`` (shot face
# ``number``, or -1: stopped; (the teams whose Super cards it activates as bits, whether it could stop)), ``end`` /
# ``challenge`` (ended the match phase / challenged; for each seat it could still challenge, (Eagle Eyes needed, whether
# it still needs a shield from that seat, whether that seat has no shield left))). The table's moves (``timeout``) are
# not choices.
Record = tuple[int, str, int, tuple[Any, ...]]


class Seen(NamedTuple):
    """What a seat knows of the table that its view's JSON form does not show, for a system player that searches
    (:meth:`AgeOfSoccer.sample`): all of it public, or the seat's own. It stays on the view object and is never sent
    (the service builds the view's message from the JSON form key by key, so a new key there would need a new field
    in the message). ``action_discard``: the faces of the action discard pile, bottom first (every card goes there
    face up; the JSON form shows only the top and the size); ``passes``: the passes in a row in the challenge
    exchange (the next pass settles the challenge after one); ``answer``: the face the viewer answered the shot with,
    waiting for the seats before it ("" if none); ``max_rounds`` and ``turns_begun``: the round limit in force and the
    turns begun so far, missed turns included (they decide when a game with a round limit ends); ``version``: the
    moves made so far (a system player seeds its search with it); ``history``: the latest public moves and what they
    did to the hands (:data:`Record`), for a system player that weighs its deals by them (engine/age_of_soccer/bots.py:
    ``beliefs``)."""

    action_discard: tuple[str, ...] = ()
    passes: int = 0
    answer: str = ""
    max_rounds: int = 0
    turns_begun: int = 1
    version: int = 0
    history: tuple[Record, ...] = ()


@dataclass(frozen=True)
class AosView:
    """A seat's view, or a spectator's: ``data`` is its JSON form, ``seen`` what else the seat knows (:class:`Seen`)."""

    data: dict[str, Any]
    seen: Seen

    @property
    def viewer(self) -> int | None:
        return self.data["viewer"]

    def to_json(self) -> dict[str, Any]:
        return self.data


# --------------------------------------------------------------------------------------------------------------------
# The state


class AosState(GameState):
    """One game. Hands hold player card ids and action card ids; boards hold a player card id per position or -1."""

    def __init__(self) -> None:  # use AgeOfSoccer.new_game or state_from_json
        self.seats = 0
        self.options: dict[str, Any] = {}
        self.version = 0
        self.teams: list[int] = []
        self.boards: list[list[int]] = []
        self.players: list[list[int]] = []  # player cards in each hand
        self.actions: list[list[int]] = []  # action cards in each hand
        self.player_deck: list[int] = []
        self.player_discard: list[int] = []
        self.action_deck: list[int] = []
        self.action_discard: list[int] = []
        self.shields: list[int] = []  # each team's own shields left
        self.won: list[list[int]] = []  # won[seat][other]: shields seat won from other
        self.reds: list[list[int]] = []  # Red Cards waiting in front of each seat (each skips one turn)
        self.active = 0
        self.turn = 1
        self.turns_begun = 1  # the opening turn counts
        self.phase = PICKUP
        self.after_discard = MATCH  # where a discard phase leads: MATCH (after training) or the next turn
        self.traded = False
        self.challenged: list[int] = []  # seats challenged this turn
        self.challenge: dict[str, Any] = {}  # target, eagles, buses, cuprun, mover, passes
        self.match: dict[str, Any] = {}  # attacker, defender, shots, counter, boosts
        self.shot: dict[str, Any] = {}  # card, face, activated
        self.window: dict[str, Any] = {}  # order, passed, held: {seat: card}
        self.draft: dict[str, Any] = {}  # cards (face up), order, turn
        self.asked = 0  # counts each time other seats are asked (windows, exchanges, drafts): their clocks' periods
        self._legal: tuple[int, int, list[AosMove]] = (-1, -1, [])  # (version, seat, moves): the last asked
        self.result: Outcome | None = None
        self.rng = Rng(0)
        self.history: list[Record] = []  # the latest public moves, oldest first (Record); trimmed to HISTORY

    # -- asking -----------------------------------------------------------------------------------------------------

    def to_act(self) -> tuple[int, ...]:
        if self.result is not None:
            return ()
        phase = self.phase
        if phase == WINDOW:
            window = self.window
            return tuple(s for s in window["order"] if s not in window["passed"] and s not in window["held"])
        if phase == CHALLENGE:
            return (self.challenge["mover"],)
        if phase == SHOT:
            return (self.match["attacker"],)
        if phase == DRAFT:
            return (self.draft["order"][self.draft["turn"]],)
        return (self.active,)

    def outcome(self) -> Outcome | None:
        return self.result

    def attack(self, seat: int) -> int:
        a, b, c, d = self.boards[seat]
        return BASE + _ATTACK_OF[a] + _ATTACK_OF[b] + _ATTACK_OF[c] + _ATTACK_OF[d]

    def defence(self, seat: int) -> int:
        a, b, c, d = self.boards[seat]
        return BASE + _DEFENCE_OF[a] + _DEFENCE_OF[b] + _DEFENCE_OF[c] + _DEFENCE_OF[d]

    def activates(self, seat: int, team: int) -> bool:
        """Whether ``seat`` activates a Super card of ``team``: its own board, or a player of that team on it."""
        return self.teams[seat] == team or any(card >= 0 and card >> 2 == team for card in self.boards[seat])

    def active_of_team(self, seat: int, team: int) -> int:
        return sum(1 for card in self.boards[seat] if card >= 0 and card >> 2 == team)

    def faces(self, seat: int) -> list[str]:
        return [ACTION_FACE[card] for card in self.actions[seat]]

    def _holds(self, seat: int, face: str) -> int:
        """An action card of ``face`` in ``seat``'s hand (the first), or -1."""
        for card in self.actions[seat]:
            if ACTION_FACE[card] == face:
                return card
        return -1

    def _kind_cards(self, seat: int, kind: str) -> list[int]:
        return [card for card in self.actions[seat] if ACTION_KIND[card] == kind]

    def can_draw_player(self) -> bool:
        return bool(self.player_deck or self.player_discard)

    def can_draw_action(self) -> bool:
        return bool(self.action_deck or self.action_discard)

    # -- legal moves ------------------------------------------------------------------------------------------------

    def legal_moves(self, seat: int) -> list[AosMove]:
        if self.result is not None or seat not in self.to_act():
            return []
        return list(self._legal_now(seat))

    def _legal_now(self, seat: int) -> list[AosMove]:
        """The legal moves of ``seat`` (which acts now), computed once per position: a chooser asks, then apply
        checks. Callers must not change the list."""
        cached = self._legal
        if cached[0] == self.version and cached[1] == seat:
            return cached[2]
        moves = LEGAL[self.phase](self, seat)
        self._legal = (self.version, seat, moves)
        return moves

    def _legal_pickup(self, seat: int) -> list[AosMove]:
        """Each pick-up that draws at least one card (a turn with nothing to draw skips the phase: _next_turn)."""
        player, actions = self.can_draw_player(), self.can_draw_action()
        return _PICKS[player, actions]

    def _legal_training(self, seat: int) -> list[AosMove]:
        moves: list[AosMove] = [PASS]
        actions = self.actions[seat]
        held = sorted(set(self.players[seat]))
        if not self.traded:
            if len(actions) >= 3 and (self.player_deck or self.player_discard):
                moves.extend(_trades(tuple(sorted([ACTION_FACE[card] for card in actions]))))
            if self.action_deck or self.action_discard:
                moves.extend([_TRADE_PLAYER[card] for card in held])
        board = self.boards[seat]
        moves.extend([_BOARD[card] for card in held if board[card & 3] < 0])
        moves.extend([_BENCH[card] for card in board if card >= 0])
        others = _OTHERS[self.seats][seat]
        seen: set[str] = set()
        for card in actions:
            kind = ACTION_KIND[card]
            if kind not in C.TRAINING:
                continue
            face = ACTION_FACE[card]
            if face in seen:
                continue
            seen.add(face)
            if kind in (C.OWNER, C.SAMBA, C.WINDOW):
                moves.append(_PLAY_ALONE[face])
            elif kind == C.RED:
                moves.extend(_red(face, seat, self.seats))
            elif kind in (C.AGENT, C.BANKRUPT):
                take = 2 if kind == C.BANKRUPT or self.active_of_team(seat, ACTION_TEAM[card]) >= 2 else 1
                for s in others:
                    held_by = len(self.actions[s])
                    if held_by:  # a player with no action card is never the victim
                        moves.extend(_blind(face, s, held_by, take))
            else:  # INJURY, FREE, INSIDER: an opponent's active player
                for s in others:
                    for player in self.boards[s]:
                        if player >= 0:
                            moves.extend(_targeted(face, s, player, kind == C.INSIDER, seat, self.seats))
        return moves

    def _legal_discard(self, seat: int) -> list[AosMove]:
        return [AosMove("discard", (face,)) for face in sorted(set(self.faces(seat)))]

    def _legal_draft(self, seat: int) -> list[AosMove]:
        return [AosMove("draft", (PLAYER_CODES[card],)) for card in sorted(set(self.draft["cards"]))]

    def _legal_match(self, seat: int) -> list[AosMove]:
        moves = [END]
        eagles = len(self._kind_cards(seat, C.EAGLE))
        cupruns = len(self._kind_cards(seat, C.CUPRUN))
        attack = self.attack(seat)
        for target in range(self.seats):
            if target == seat or target in self.challenged:
                continue
            short = self.defence(target) - attack
            least = max(0, -(-short // 4))  # eagles needed
            for count in range(least, eagles + 1):
                moves.append(AosMove("challenge", (str(target), *([C.EAGLE] * count))))
            if cupruns:
                moves.append(AosMove("challenge", (str(target), C.CUPRUN)))
        return moves

    def _legal_challenge(self, seat: int) -> list[AosMove]:
        moves = [PASS]
        if seat == self.challenge["target"]:
            if self._kind_cards(seat, C.BUS):
                moves.append(AosMove("bus"))
        else:
            if self._kind_cards(seat, C.EAGLE):
                moves.append(AosMove("eagle"))
            if self._kind_cards(seat, C.CUPRUN) and not self.challenge["cuprun"]:
                moves.append(AosMove("cuprun"))
        return moves

    def _legal_shot(self, seat: int) -> list[AosMove]:
        """An attacker must shoot if able - a new attacker after a Counter Attack too (a Super Shot is a shot) - and
        may stop only after a shot of its own was stopped (or with nothing to shoot)."""
        moves = [AosMove("shoot", (face,)) for face in sorted(set(self._shot_faces(seat)))]
        match = self.match
        if not moves or (match["shots"] and not match["counter"]):
            moves.append(STOP)
        return moves

    def _shot_faces(self, seat: int) -> list[str]:
        return [ACTION_FACE[card] for card in self.actions[seat] if ACTION_KIND[card] in (C.SHOOT, C.SUPERSHOT)]

    def _legal_window(self, seat: int) -> list[AosMove]:
        return [PASS, *(AosMove("answer", (face,)) for face in self._answers(seat))]

    def _answers(self, seat: int) -> list[str]:
        """The faces ``seat`` may answer the shot in hand with."""
        activated = self.shot["activated"]
        defender = seat == self.match["defender"]
        found: set[str] = set()
        for card in self.actions[seat]:
            kind = ACTION_KIND[card]
            if (
                kind == C.OFFSIDE
                or (kind == C.COUNTER and not activated)
                or (defender and kind == C.SAVE and not activated)
                or (defender and kind == C.SUPERSAVE and (not activated or self.activates(seat, ACTION_TEAM[card])))
            ):
                found.add(ACTION_FACE[card])
        return sorted(found)

    # -- applying ---------------------------------------------------------------------------------------------------

    def apply(self, seat: int, move: AosMove, *, by_table: bool = False) -> list[Any]:
        if self.result is not None:
            raise GameOver("the game is over")
        if seat not in self.to_act():
            raise NotYourTurn(f"seat {seat} may not act now")
        if type(move) is not AosMove:
            raise MalformedMove(f"not an Age of Soccer move: a {type(move).__name__}")
        if move.kind == "timeout":
            if not by_table:
                raise IllegalMove("only the table plays 'timeout', when the clock runs out", code="table_only")
            events: list[Any] = []
            self._timeout(seat, events)
        else:
            legal = self._legal_now(seat)
            if move not in legal and (move := _canonical(move)) not in legal:  # the same move in another order?
                raise IllegalMove(f"'{move.kind}' is not one of the moves allowed now", code="not_allowed")
            if move.kind in _CHOICES:
                self._note_choice(seat, move)
            events = []
            APPLY[move.kind](self, seat, move.args, events)
        self.version += 1
        return events

    # The public history (Record)

    def _note(self, record: Record) -> None:
        """Keep a public move in the history (trimmed to the latest HISTORY now and then, not at every move)."""
        history = self.history
        history.append(record)
        if len(history) > 2 * HISTORY:
            del history[:-HISTORY]

    def _note_choice(self, seat: int, move: AosMove) -> None:
        """A move that says something of its seat's hand, with the public facts of the moment (Record)."""
        kind, phase = move.kind, self.phase
        if kind == "pass" and phase == TRAINING:
            others = _OTHERS[self.seats][seat]
            vacant = sum(1 << position for position, card in enumerate(self.boards[seat]) if card < 0)
            victims = any(self.actions[other] for other in others)
            targets = any(card >= 0 for other in others for card in self.boards[other])
            self._note((seat, "trained", vacant, (victims, targets)))
        elif kind == "pass" and phase == CHALLENGE:
            challenge = self.challenge
            target = challenge["target"]
            attack = self.attack(self.active) + 4 * challenge["eagles"]
            defence = self.defence(target) + 4 * challenge["buses"]
            self._note((seat, "xpass", int(seat == target), (attack, defence, challenge["cuprun"])))
        elif kind in ("pass", "answer"):  # a window
            self._note((seat, "wpass" if kind == "pass" else "wans", self._answer_faces(seat), self._fear_facts(seat)))
        elif kind in ("shoot", "stop"):
            teams = sum(1 << team for team in range(len(TEAMS)) if self.activates(seat, team))
            match = self.match
            face = FACE_ID[move.args[0]] if kind == "shoot" else -1
            self._note((seat, "shot", face, (teams, bool(match["shots"] and not match["counter"]))))
        elif kind in ("end", "challenge") and phase == MATCH:
            needed = 2 if self.seats == 3 else 1
            attack = self.attack(seat)
            targets = tuple(
                (
                    max(0, -(-(self.defence(target) - attack) // 4)),
                    self.won[seat][target] < needed,
                    self.shields[target] == 0,
                )
                for target in range(self.seats)
                if target != seat and target not in self.challenged
            )
            self._note((seat, kind, 0, targets))

    def _answer_faces(self, seat: int) -> int:
        """The faces ``seat`` could answer the shot in hand with, whatever it holds, as bits of cards.FACE_ID."""
        activated = self.shot["activated"]
        faces = _FACE_BIT[C.OFFSIDE] | (0 if activated else _FACE_BIT[C.COUNTER])
        if seat == self.match["defender"]:
            faces |= 0 if activated else _FACE_BIT[C.SAVE]
            for team, face in enumerate(_SUPERSAVES):
                if not activated or self.activates(seat, team):
                    faces |= 1 << FACE_ID[face]
        return faces

    def _fear_facts(self, seat: int) -> tuple[Any, ...]:
        """What a seat outside the match sees of the attacker's threat: (attacker, shields won by each seat, each
        seat's attack, the shields the attacker won from each seat); () for the defender."""
        match = self.match
        if seat == match["defender"]:
            return ()
        attacker = match["attacker"]
        return (
            attacker,
            tuple(sum(row) for row in self.won),
            tuple(self.attack(other) for other in range(self.seats)),
            tuple(self.won[attacker]),
        )

    # Phase 1

    def _pick(self, seat: int, args: tuple[str, ...], events: list[Any]) -> None:
        if args[0] == "PLAYER":
            self._draw_players(seat, 1, events, "pick")
        else:
            self._draw_actions(seat, 2, events, "pick")
        self.phase = TRAINING

    # Phase 2

    def _trade(self, seat: int, args: tuple[str, ...], events: list[Any]) -> None:
        self.traded = True
        if len(args) == 3:
            given = [self._take_action(seat, face) for face in args]
            self.action_discard.extend(given)
            events.append(AosEvent("traded", seat, tuple(args)))
            self._draw_players(seat, 1, events, "trade")
        else:
            card = PLAYER_BY_CODE[args[0]]
            self.players[seat].remove(card)
            self.player_discard.append(card)
            self._note((seat, "pout", card, ()))
            events.append(AosEvent("traded", seat, (args[0],)))
            self._draw_actions(seat, 1, events, "trade")

    def _board(self, seat: int, args: tuple[str, ...], events: list[Any]) -> None:
        card = PLAYER_BY_CODE[args[0]]
        self.players[seat].remove(card)
        self._note((seat, "pout", card, (self.turn, "board")))
        self.boards[seat][card & 3] = card
        events.append(AosEvent("boarded", seat, (args[0],), data=self._points(seat)))

    def _bench(self, seat: int, args: tuple[str, ...], events: list[Any]) -> None:
        card = PLAYER_BY_CODE[args[0]]
        self.boards[seat][card & 3] = -1
        self.players[seat].append(card)
        self._note((seat, "pin", card, (self.turn, "bench")))
        events.append(AosEvent("benched", seat, (args[0],), data=self._points(seat)))

    def _points(self, seat: int) -> tuple[tuple[str, Any], ...]:
        return (("attack", self.attack(seat)), ("defence", self.defence(seat)))

    def _pass(self, seat: int, args: tuple[str, ...], events: list[Any]) -> None:
        phase = self.phase
        if phase == TRAINING:
            events.append(AosEvent("trained", seat))
            self._limit_hand(MATCH, events)
        elif phase == CHALLENGE:
            self._exchange_pass(seat, events)
        else:  # WINDOW
            self._window_pass(seat, events)

    def _play(self, seat: int, args: tuple[str, ...], events: list[Any]) -> None:
        face = args[0]
        card = self._take_action(seat, face)
        kind = ACTION_KIND[card]
        if kind != C.RED:  # a played card goes to the discard pile before its effect (a Red Card waits: see below)
            self.action_discard.append(card)
        if kind == C.OWNER:
            bonus = self.active_of_team(seat, ACTION_TEAM[card]) >= 2
            events.append(AosEvent("played", seat, (face,)))
            self._draw_actions(seat, 3 if bonus else 2, events, "owner")
        elif kind == C.SAMBA:
            events.append(AosEvent("played", seat, (face,)))
            for other in self._round_from(seat):
                self._draw_actions(other, 1, events, "samba")
        elif kind == C.RED:
            target = int(args[1])
            self.reds[target].append(card)  # it waits in front of its target until the turn it costs
            events.append(AosEvent("played", seat, (face,), target))
        elif kind in (C.AGENT, C.BANKRUPT):
            target = int(args[1])
            victim = self.actions[target]
            self.rng.shuffle(victim)  # blind: the positions chosen say nothing
            taken = [victim[int(position) - 1] for position in args[2:]]
            for lost in taken:
                victim.remove(lost)
            faces = tuple(ACTION_FACE[lost] for lost in taken)
            if kind == C.AGENT:
                self.actions[seat].extend(taken)
                self._note((seat, "unseen", 0, ()))
                self._note((target, "unseen", 0, ()))
                events.append(AosEvent("played", seat, (face,), target, private=faces, other=target, count=len(taken)))
            else:
                self.action_discard.extend(taken)
                for lost in taken:
                    self._note((target, "out", FACE_OF[lost], ()))
                events.append(AosEvent("played", seat, (face, *faces), target, count=len(taken)))
        elif kind == C.WINDOW:
            events.append(AosEvent("played", seat, (face,)))
            self._open_draft(seat, events)
        else:  # INJURY, FREE, INSIDER
            target = int(args[1])
            player = PLAYER_BY_CODE[args[2]]
            self.boards[target][player & 3] = -1
            if kind == C.INJURY:
                self.player_discard.append(player)
                events.append(AosEvent("played", seat, (face, args[2]), target, data=self._points(target)))
            elif kind == C.FREE:
                self.players[seat].append(player)
                self._note((seat, "pin", player, ()))
                events.append(AosEvent("played", seat, (face, args[2]), target, data=self._points(target)))
            else:
                to = int(args[3])
                self.players[to].append(player)
                self._note((to, "pin", player, ()))
                events.append(AosEvent("played", seat, (face, args[2]), target, other=to, data=self._points(target)))

    def _round_from(self, seat: int) -> list[int]:
        return [(seat + i) % self.seats for i in range(self.seats)]

    def _open_draft(self, seat: int, events: list[Any]) -> None:
        dealt: list[int] = []
        for _ in range(self.seats):
            card = self._draw_player_card(events)
            if card < 0:
                break
            dealt.append(card)
        if not dealt:
            return
        self.draft = {"cards": dealt, "order": self._round_from(seat)[: len(dealt)], "turn": 0}
        self.phase = DRAFT
        self.asked += 1
        events.append(AosEvent("dealt", seat, tuple(PLAYER_CODES[card] for card in dealt)))

    def _draft(self, seat: int, args: tuple[str, ...], events: list[Any]) -> None:
        card = PLAYER_BY_CODE[args[0]]
        draft = self.draft
        draft["cards"].remove(card)
        self.players[seat].append(card)
        self._note((seat, "pin", card, ()))
        events.append(AosEvent("drafted", seat, (args[0],)))
        draft["turn"] += 1
        self.asked += 1
        if draft["turn"] >= len(draft["order"]):
            self.draft = {}
            self.phase = TRAINING

    def _discard(self, seat: int, args: tuple[str, ...], events: list[Any]) -> None:
        card = self._take_action(seat, args[0])
        self.action_discard.append(card)
        events.append(AosEvent("discarded", seat, (args[0],)))
        if len(self.actions[seat]) <= HAND_LIMIT:
            self._after_limit(events)

    def _limit_hand(self, then: str, events: list[Any]) -> None:
        """The hand limit, then ``then`` (MATCH after training, or the next turn)."""
        self.after_discard = then
        if len(self.actions[self.active]) > HAND_LIMIT:
            self.phase = DISCARD
        else:
            self._after_limit(events)

    def _after_limit(self, events: list[Any]) -> None:
        if self.after_discard == MATCH:
            self.phase = MATCH
        else:
            self._next_turn(events)

    # Phase 3

    def _challenge(self, seat: int, args: tuple[str, ...], events: list[Any]) -> None:
        target = int(args[0])
        boosts = [self._take_action(seat, face) for face in args[1:]]
        self.action_discard.extend(boosts)
        self.challenged.append(target)
        self.challenge = {
            "target": target,
            "eagles": sum(1 for card in boosts if ACTION_KIND[card] == C.EAGLE),
            "buses": 0,
            "cuprun": any(ACTION_KIND[card] == C.CUPRUN for card in boosts),
            "mover": target,
            "passes": 0,
        }
        self.phase = CHALLENGE
        self.asked += 1
        events.append(AosEvent("challenged", seat, tuple(args[1:]), target))

    def _boost(self, seat: int, kind: str, events: list[Any]) -> None:
        card = self._kind_cards(seat, kind)[0]
        self.actions[seat].remove(card)
        self.action_discard.append(card)
        self._note((seat, "out", FACE_OF[card], ()))
        challenge = self.challenge
        key = {C.EAGLE: "eagles", C.BUS: "buses"}.get(kind)
        if key:
            challenge[key] += 1
        else:
            challenge["cuprun"] = True
        challenge["passes"] = 0
        events.append(AosEvent("boosted", seat, (ACTION_FACE[card],), challenge["target"]))
        self._exchange_next(seat)

    def _eagle(self, seat: int, args: tuple[str, ...], events: list[Any]) -> None:
        self._boost(seat, C.EAGLE, events)

    def _cuprun(self, seat: int, args: tuple[str, ...], events: list[Any]) -> None:
        self._boost(seat, C.CUPRUN, events)

    def _bus(self, seat: int, args: tuple[str, ...], events: list[Any]) -> None:
        self._boost(seat, C.BUS, events)

    def _exchange_next(self, seat: int) -> None:
        challenge = self.challenge
        challenge["mover"] = self.active if seat == challenge["target"] else challenge["target"]
        self.asked += 1

    def _exchange_pass(self, seat: int, events: list[Any]) -> None:
        challenge = self.challenge
        events.append(AosEvent("passed", seat))
        challenge["passes"] += 1
        if challenge["passes"] < 2:
            self._exchange_next(seat)
            return
        target = challenge["target"]
        attack = self.attack(self.active) + 4 * challenge["eagles"]
        defence = self.defence(target) + 4 * challenge["buses"]
        stands = challenge["cuprun"] or attack >= defence
        events.append(
            AosEvent(
                "challenge_stands" if stands else "challenge_falls",
                self.active,
                target=target,
                data=(("attack", attack), ("defence", defence)),
            )
        )
        self.challenge = {}
        if stands:
            self.match = {"attacker": self.active, "defender": target, "shots": 0, "counter": False}
            self.phase = SHOT
            self._shot_or_draw(events)
        else:
            self.phase = MATCH

    def _shot_or_draw(self, events: list[Any]) -> None:
        """The attacker shoots, unless it has nothing to shoot with: then the match is a draw."""
        if not self._shot_faces(self.match["attacker"]):
            self._note((self.match["attacker"], "noshot", 0, ()))
            self._end_match(None, events)

    def _shoot(self, seat: int, args: tuple[str, ...], events: list[Any]) -> None:
        face = args[0]
        card = self._take_action(seat, face)
        self.action_discard.append(card)
        activated = ACTION_KIND[card] == C.SUPERSHOT and self.activates(seat, ACTION_TEAM[card])
        match = self.match
        match["shots"] += 1
        match["counter"] = False
        self.shot = {"face": face, "activated": activated}
        defender = match["defender"]
        outside = [s for s in self._round_from(seat) if s not in (seat, defender)]
        self.window = {"order": [defender, *outside], "passed": set(), "held": {}}
        self.phase = WINDOW
        self.asked += 1
        events.append(AosEvent("shot", seat, (face,), defender, data=(("activated", activated),)))

    def _stop(self, seat: int, args: tuple[str, ...], events: list[Any]) -> None:
        events.append(AosEvent("stopped_shooting", seat))
        self._end_match(None, events)

    def _answer(self, seat: int, args: tuple[str, ...], events: list[Any]) -> None:
        self.window["held"][seat] = self._holds(seat, args[0])
        events.append(AosEvent("answered", seat))  # which card, only once it counts
        self._settle_window(events)

    def _window_pass(self, seat: int, events: list[Any]) -> None:
        self.window["passed"].add(seat)
        events.append(AosEvent("passed", seat))
        self._settle_window(events)

    def _settle_window(self, events: list[Any]) -> None:
        """The first seat in order that has not passed decides: its answer counts, or it is still to answer. When
        everyone has passed, the shot scores."""
        window = self.window
        for seat in window["order"]:
            if seat in window["passed"]:
                continue
            card = window["held"].get(seat)
            if card is None:
                return
            self._resolve(seat, card, events)
            return
        attacker, defender = self.match["attacker"], self.match["defender"]
        self.window, self.shot = {}, {}  # (the shot is over: nothing of it stays in the view)
        events.append(AosEvent("scored", attacker, target=defender))
        self._end_match(attacker, events)

    def _resolve(self, seat: int, card: int, events: list[Any]) -> None:
        self.actions[seat].remove(card)
        self.action_discard.append(card)
        self._note((seat, "out", FACE_OF[card], ()))
        face = ACTION_FACE[card]
        self.window = {}
        self.shot = {}
        match = self.match
        if ACTION_KIND[card] == C.COUNTER:
            events.append(AosEvent("countered", seat, (face,), match["attacker"]))
            match["defender"] = match["attacker"]
            match["attacker"] = seat
            match["counter"] = True
        else:
            events.append(AosEvent("stopped", seat, (face,), match["attacker"]))
        self.phase = SHOT
        self.asked += 1
        self._shot_or_draw(events)

    def _end_match(self, winner: int | None, events: list[Any]) -> None:
        match = self.match
        if winner is not None:
            loser = match["defender"]
            if self.shields[loser] > 0:
                self.shields[loser] -= 1
                self.won[winner][loser] += 1
                events.append(AosEvent("shield", winner, (TEAMS[self.teams[loser]],), loser))
                if self._won_all(winner):
                    self._finish((winner,), WIN_SHIELDS, events)
                    return
                if not any(self._can_still_win(seat) for seat in range(self.seats)):
                    self._finish(self._most_shields(), WIN_BLOCKED, events)
                    return
        else:
            events.append(AosEvent("draw", match["attacker"], target=match["defender"]))
        self.match = {}
        self._limit_hand("next", events)

    def _can_still_win(self, seat: int) -> bool:
        """Whether the shields ``seat`` still needs are still there to be won (a team's own shields left)."""
        needed = 2 if self.seats == 3 else 1
        return all(
            needed - self.won[seat][other] <= self.shields[other] for other in range(self.seats) if other != seat
        )

    def _most_shields(self) -> tuple[int, ...]:
        totals = [sum(row) for row in self.won]
        best = max(totals)
        return tuple(seat for seat in range(self.seats) if totals[seat] == best)

    def _won_all(self, seat: int) -> bool:
        needed = 2 if self.seats == 3 else 1
        return all(self.won[seat][other] >= needed for other in range(self.seats) if other != seat)

    def _end(self, seat: int, args: tuple[str, ...], events: list[Any]) -> None:
        events.append(AosEvent("ended_turn", seat))
        self._limit_hand("next", events)

    # Turns

    def _next_turn(self, events: list[Any]) -> None:
        seat = self.active
        while True:
            seat = (seat + 1) % self.seats
            self.turns_begun += 1
            limit = self.options["max_rounds"]
            if limit and self.turns_begun > limit * self.seats:
                self._finish_by_rounds(events)
                return
            if self.reds[seat]:
                self.action_discard.append(self.reds[seat].pop())
                events.append(AosEvent("missed_turn", seat))
                continue
            break
        self.active = seat
        self.turn += 1
        self.phase = PICKUP
        self.traded = False
        self.challenged = []
        events.append(AosEvent("turn_began", seat))
        self._pick_nothing(seat, events)

    def _pick_nothing(self, seat: int, events: list[Any]) -> None:
        """With no card of either kind left to draw (decks and discard piles empty), the pick-up draws nothing and
        training begins: no pick-up is offered, so the player is never left without a move."""
        if self.phase == PICKUP and not self.can_draw_player() and not self.can_draw_action():
            events.append(AosEvent("drew", seat, data=(("cause", "pick"), ("deck", "actions"))))
            self.phase = TRAINING

    def _finish_by_rounds(self, events: list[Any]) -> None:
        self._finish(self._most_shields(), WIN_ROUNDS, events)

    def _finish(self, winners: tuple[int, ...], reason: str, events: list[Any]) -> None:
        self.phase = OVER
        self.match, self.window, self.shot, self.challenge, self.draft = {}, {}, {}, {}, {}
        self.result = Outcome(winners, reason, tuple(sum(row) for row in self.won))
        events.append(AosEvent("game_ended", data=(("winners", list(winners)), ("reason", reason))))

    # The table

    def timeout_move(self, seat: int) -> AosMove:
        return TIMEOUT

    def _timeout(self, seat: int, events: list[Any]) -> None:
        phase = self.phase
        if phase == WINDOW:
            self._window_pass(seat, events)
            return
        if phase == DRAFT:
            self._draft(seat, (PLAYER_CODES[self.draft["cards"][0]],), events)
            return
        if seat != self.active:
            if phase == CHALLENGE:
                self._exchange_pass(seat, events)
            else:  # a counter-attacker who does not shoot: a draw
                self._stop(seat, (), events)
            return
        # The player whose turn it is: pick up, end any match drawn, discard down to seven, end the turn.
        events.append(AosEvent("timed_out", seat))
        if phase == PICKUP:
            self._draw_actions(seat, 2, events, "pick")
        if self.match:
            events.append(AosEvent("draw", self.match["attacker"], target=self.match["defender"]))
        self.match, self.challenge, self.shot, self.window = {}, {}, {}, {}
        hand = self.actions[seat]
        while len(hand) > HAND_LIMIT:
            card = hand.pop()  # the last picked up
            self.action_discard.append(card)
            self._note((seat, "out", FACE_OF[card], ()))
            events.append(AosEvent("discarded", seat, (ACTION_FACE[card],)))
        self._next_turn(events)

    # Cards

    def _take_action(self, seat: int, face: str) -> int:
        card = self._holds(seat, face)
        if card < 0:
            raise IllegalMove("a card named is not in your hand", code="card_not_in_hand", cards=(face,))
        self.actions[seat].remove(card)
        self._note((seat, "out", FACE_OF[card], ()))
        return card

    def _draw_action_card(self, events: list[Any]) -> int:
        if not self.action_deck and self.action_discard:
            self.action_deck, self.action_discard = self.action_discard, []
            self.rng.shuffle(self.action_deck)
            events.append(AosEvent("reshuffled", count=len(self.action_deck), data=(("deck", "actions"),)))
        return self.action_deck.pop() if self.action_deck else -1

    def _draw_player_card(self, events: list[Any]) -> int:
        if not self.player_deck and self.player_discard:
            self.player_deck, self.player_discard = self.player_discard, []
            self.rng.shuffle(self.player_deck)
            events.append(AosEvent("reshuffled", count=len(self.player_deck), data=(("deck", "players"),)))
        return self.player_deck.pop() if self.player_deck else -1

    def _draw_actions(self, seat: int, count: int, events: list[Any], cause: str) -> None:
        drawn = []
        for _ in range(count):
            card = self._draw_action_card(events)
            if card < 0:
                break
            drawn.append(card)
        self.actions[seat].extend(drawn)
        if drawn:
            self._note((seat, "unseen", 0, ()))
        faces = tuple(ACTION_FACE[card] for card in drawn)
        data = (("cause", cause), ("deck", "actions"))
        events.append(AosEvent("drew", seat, private=faces, count=len(drawn), data=data))

    def _draw_players(self, seat: int, count: int, events: list[Any], cause: str) -> None:
        drawn = []
        for _ in range(count):
            card = self._draw_player_card(events)
            if card < 0:
                break
            drawn.append(card)
        self.players[seat].extend(drawn)
        if drawn:
            self._note((seat, "pdrew", 0, ()))
        codes = tuple(PLAYER_CODES[card] for card in drawn)
        data = (("cause", cause), ("deck", "players"))
        events.append(AosEvent("drew", seat, private=codes, count=len(drawn), data=data))

    # -- seeing -----------------------------------------------------------------------------------------------------

    def describe(self) -> str:
        teams = " ".join(f"{seat}:{TEAMS[team]}" for seat, team in enumerate(self.teams))
        return f"teams: {teams}   decks: {len(self.player_deck)} player cards, {len(self.action_deck)} action cards"

    def view(self, viewer: int | None) -> AosView:
        if viewer is not None and not 0 <= viewer < self.seats:
            raise ValueError(f"no seat {viewer} at a table of {self.seats}")
        seats = []
        for seat in range(self.seats):
            seats.append(
                {
                    "seat": seat,
                    "team": TEAMS[self.teams[seat]],
                    "board": [PLAYER_CODES[card] if card >= 0 else "" for card in self.boards[seat]],
                    "attack": self.attack(seat),
                    "defence": self.defence(seat),
                    "shields": self.shields[seat],
                    "won": list(self.won[seat]),
                    "players_held": len(self.players[seat]),
                    "actions_held": len(self.actions[seat]),
                    "red_cards": len(self.reds[seat]),
                }
            )
        data: dict[str, Any] = {
            "viewer": viewer,
            "seats": seats,
            "active": self.active,
            "phase": self.phase,
            "turn": self.turn,
            "traded": self.traded,
            "challenged": list(self.challenged),
            "player_deck": len(self.player_deck),
            "action_deck": len(self.action_deck),
            "player_discard": [PLAYER_CODES[card] for card in self.player_discard],
            "action_discard_top": ACTION_FACE[self.action_discard[-1]] if self.action_discard else "",
            "action_discard_size": len(self.action_discard),
        }
        if self.challenge:
            data["challenge"] = {k: v for k, v in self.challenge.items() if k != "passes"}
        if self.match:
            data["match"] = dict(self.match)
        if self.shot:  # (the card itself is action_discard_top)
            face = self.shot["face"]
            data["shot"] = {"super": C.face_kind(face) == C.SUPERSHOT, "activated": self.shot["activated"]}
        if self.window:
            window = self.window
            data["window"] = {
                "order": list(window["order"]),
                "passed": sorted(window["passed"]),
                "answered": sorted(window["held"]),
            }
        if self.draft:
            data["draft"] = {
                "cards": [PLAYER_CODES[card] for card in self.draft["cards"]],
                "order": list(self.draft["order"]),
                "turn": self.draft["turn"],
            }
        if viewer is not None:
            data["hand"] = {
                "players": sorted(PLAYER_CODES[card] for card in self.players[viewer]),
                "actions": sorted(self.faces(viewer)),
            }
        if self.result is not None:
            data["outcome"] = self.result.to_json()
        held = self.window["held"].get(viewer, -1) if self.window and viewer is not None else -1
        seen = Seen(
            tuple([ACTION_FACE[card] for card in self.action_discard]),
            self.challenge["passes"] if self.challenge else 0,
            ACTION_FACE[held] if held >= 0 else "",
            self.options["max_rounds"],
            self.turns_begun,
            self.version,
            tuple(self.history[-HISTORY:]),
        )
        return AosView(data, seen)

    def locations(self) -> dict[str, list[str]]:
        places = {
            "player_deck": [PLAYER_CODES[card] for card in self.player_deck],
            "player_discard": [PLAYER_CODES[card] for card in self.player_discard],
            "action_deck": [ACTION_INSTANCE[card] for card in self.action_deck],
            "action_discard": [ACTION_INSTANCE[card] for card in self.action_discard],
        }
        if self.draft:
            places["draft"] = [PLAYER_CODES[card] for card in self.draft["cards"]]
        for seat in range(self.seats):
            places[f"board:{seat}"] = [PLAYER_CODES[card] for card in self.boards[seat] if card >= 0]
            places[f"players:{seat}"] = [PLAYER_CODES[card] for card in self.players[seat]]
            places[f"actions:{seat}"] = [ACTION_INSTANCE[card] for card in self.actions[seat]]
            places[f"reds:{seat}"] = [ACTION_INSTANCE[card] for card in self.reds[seat]]
        return places

    def hidden_from(self, viewer: int | None) -> set[str]:
        others = [seat for seat in range(self.seats) if seat != viewer]
        hidden = set(map(PLAYER_CODES.__getitem__, chain(self.player_deck, *[self.players[seat] for seat in others])))
        hidden.update(
            map(ACTION_INSTANCE.__getitem__, chain(self.action_deck, *[self.actions[seat] for seat in others]))
        )
        return hidden

    def clock_key(self, seat: int) -> Any:
        return ("turn", self.turn) if seat == self.active else ("asked", self.asked)

    def clock_seconds(self, seat: int) -> float | None:
        return float(self.options["turn_seconds" if seat == self.active else "response_seconds"])

    # -- serialising ------------------------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        window = self.window
        return {
            "game": SPEC.name,
            "seats": self.seats,
            "options": dict(self.options),
            "version": self.version,
            "teams": list(self.teams),
            "boards": [list(board) for board in self.boards],
            "players": [list(hand) for hand in self.players],
            "actions": [list(hand) for hand in self.actions],
            "player_deck": list(self.player_deck),
            "player_discard": list(self.player_discard),
            "action_deck": list(self.action_deck),
            "action_discard": list(self.action_discard),
            "shields": list(self.shields),
            "won": [list(row) for row in self.won],
            "reds": [list(reds) for reds in self.reds],
            "active": self.active,
            "turn": self.turn,
            "turns_begun": self.turns_begun,
            "phase": self.phase,
            "after_discard": self.after_discard,
            "traded": self.traded,
            "challenged": list(self.challenged),
            "challenge": dict(self.challenge),
            "match": dict(self.match),
            "shot": dict(self.shot),
            "window": {
                "order": list(window["order"]),
                "passed": sorted(window["passed"]),
                "held": {str(seat): card for seat, card in window["held"].items()},
            }
            if window
            else {},
            "draft": dict(self.draft, cards=list(self.draft["cards"]), order=list(self.draft["order"]))
            if self.draft
            else {},
            "asked": self.asked,
            "result": self.result.to_json() if self.result else None,
            "rng": self.rng.to_json(),
            "history": [_listed(record) for record in self.history[-HISTORY:]],
        }

    def __repr__(self) -> str:
        return f"<AosState seats={self.seats} turn={self.turn} active={self.active} phase={self.phase}>"


LEGAL: dict[str, Callable[[AosState, int], list[AosMove]]] = {
    PICKUP: AosState._legal_pickup,
    TRAINING: AosState._legal_training,
    DISCARD: AosState._legal_discard,
    DRAFT: AosState._legal_draft,
    MATCH: AosState._legal_match,
    CHALLENGE: AosState._legal_challenge,
    SHOT: AosState._legal_shot,
    WINDOW: AosState._legal_window,
}
APPLY: dict[str, Callable[[AosState, int, tuple[str, ...], list[Any]], None]] = {
    "pick": AosState._pick,
    "trade": AosState._trade,
    "board": AosState._board,
    "bench": AosState._bench,
    "pass": AosState._pass,
    "play": AosState._play,
    "draft": AosState._draft,
    "discard": AosState._discard,
    "challenge": AosState._challenge,
    "end": AosState._end,
    "eagle": AosState._eagle,
    "cuprun": AosState._cuprun,
    "bus": AosState._bus,
    "shoot": AosState._shoot,
    "stop": AosState._stop,
    "answer": AosState._answer,
}


class AgeOfSoccer(Game):
    """The Age of Soccer rule set; its system players are given to it (engine/age_of_soccer/__init__.py)."""

    spec = SPEC

    def __init__(self, bots: Mapping[str, Callable[[int], Bot]] | None = None) -> None:
        self.bots = dict(bots or {})

    def catalogue(self) -> tuple[CardFace, ...]:
        return C.CATALOGUE

    def new_game(self, seats: int, options: Mapping[str, Any] | None, seed: int) -> AosState:
        resolved = SPEC.resolve(seats, options)
        if resolved["first_seat"] >= seats:
            raise InvalidOptions(f"option 'first_seat' must be below the number of seats ({seats})")
        teams = _teams(resolved["teams"], seats)
        state = AosState()
        state.seats = seats
        state.options = resolved
        state.teams = teams
        state.rng = rng = Rng(seed)
        state.player_deck = list(range(PLAYER_CARDS))
        rng.shuffle(state.player_deck)
        state.action_deck = list(range(C.ACTION_CARDS))
        rng.shuffle(state.action_deck)
        state.boards = [[-1, -1, -1, -1] for _ in range(seats)]
        state.players = [[] for _ in range(seats)]
        state.actions = [[state.action_deck.pop() for _ in range(DEALT)] for _ in range(seats)]
        state.shields = [SHIELDS] * seats
        state.won = [[0] * seats for _ in range(seats)]
        state.reds = [[] for _ in range(seats)]
        state.active = resolved["first_seat"]
        return state

    def state_from_json(self, data: Mapping[str, Any]) -> AosState:
        state = AosState()
        try:
            for name in (
                "seats",
                "version",
                "active",
                "turn",
                "turns_begun",
                "phase",
                "after_discard",
                "traded",
                "asked",
            ):
                setattr(state, name, data[name])
            state.options = dict(data["options"])
            state.teams = list(data["teams"])
            state.boards = [list(board) for board in data["boards"]]
            state.players = [list(hand) for hand in data["players"]]
            state.actions = [list(hand) for hand in data["actions"]]
            state.player_deck, state.player_discard = list(data["player_deck"]), list(data["player_discard"])
            state.action_deck, state.action_discard = list(data["action_deck"]), list(data["action_discard"])
            state.shields = list(data["shields"])
            state.won = [list(row) for row in data["won"]]
            state.reds = [list(reds) for reds in data["reds"]]
            state.challenged = list(data["challenged"])
            state.challenge, state.match, state.shot = dict(data["challenge"]), dict(data["match"]), dict(data["shot"])
            window = data["window"]
            state.window = (
                {
                    "order": list(window["order"]),
                    "passed": set(window["passed"]),
                    "held": {int(seat): card for seat, card in window["held"].items()},
                }
                if window
                else {}
            )
            draft = data["draft"]
            state.draft = (
                {"cards": list(draft["cards"]), "order": list(draft["order"]), "turn": draft["turn"]} if draft else {}
            )
            state.result = Outcome.from_json(data["result"]) if data["result"] else None
            state.rng = Rng.from_json(data["rng"])
            state.history = [_tupled(record) for record in data.get("history", ())]  # (none in a state stored before)
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"not an Age of Soccer state: {exc}") from exc
        return state

    def sample(self, view: AosView, seed: int) -> AosState:  # type: ignore[override]
        """A state that a seat's ``view`` could have come from, for a system player that searches.

        Kept as the view shows them: the teams, every board, the shields left and won, the Red Cards waiting, whose turn
        it is, the phase and the turn's number, whether the seat traded, whom it challenged, the challenge, match, shot,
        window and draft under way, the outcome; the viewer's own hand; the player discard pile and the draft's face-up
        cards; the action discard pile, bottom first (from :class:`Seen`); the passes in a row in a challenge's
        exchange, the viewer's own answer waiting in a window, the round limit, the turns begun, the version and the
        latest public moves (:class:`Seen`).

        Dealt at random from ``Rng(seed)``, uniformly: every other player card among the other hands and the player
        deck, and every other action card among the other hands and the action deck, with the sizes the view shows. A
        deal must fit what the table knows of those hands, or it is dealt again: an attacker asked to shoot holds a shot
        (the match is a draw by itself when it holds none), and a seat that answered a shot and waits for the seats
        before it holds a card that answers it (the one it answered with is drawn among those). After 200 deals that
        do not fit (a position that rare is very rare), a card that fits is swapped into each hand lacking one, which
        is no longer exactly uniform. Copies of one action face are alike: the view's faces take the lowest-numbered
        copies.

        Not in the view, and drawn or set here: the game's random numbers (from ``seed``); the clocks' options (the
        defaults: no rule reads them after the deal) and the clocks' periods (0); where a discard phase leads (the
        match: no action card reaches the hand after training, so only training's hand limit ever asks for one).
        Not kept, because neither the view nor the state records them: which player cards in another hand everyone
        saw go there (a draft, a transfer, a benched player), and which action cards a Greedy Agent took from the
        viewer. Added to the view for this (on the view object, not its JSON form): :class:`Seen`, every part of it
        public but the viewer's own answer, which is the viewer's own card."""
        try:
            return _sample(view.data, view.seen, Rng(seed))
        except (KeyError, IndexError, TypeError) as exc:
            raise ValueError(f"not an Age of Soccer seat's view: {exc!r}") from exc

    def move_from_wire(self, text: str) -> AosMove:
        return AosMove.parse(text)

    def with_choices(self, seats: int, options: Mapping[str, Any] | None, choices: Mapping[int, str]) -> dict[str, Any]:
        """Teams chosen on taking a seat: each a different team; the seats that did not choose get the teams left, in
        seat order. A room whose creator set ``teams`` takes a choice only if it is that seat's team."""
        resolved = SPEC.resolve(seats, options)
        given = _teams(resolved["teams"], seats) if resolved["teams"] else None
        chosen: dict[int, int] = {}
        for seat, choice in sorted(choices.items()):
            code = choice.strip().upper()
            if code not in TEAMS:
                raise InvalidOptions(f"no such team: choose one of {', '.join(TEAMS)}")
            team = TEAMS.index(code)
            if given is not None and given[seat] != team:
                raise InvalidOptions(f"the room's creator set the teams: seat {seat} plays {TEAMS[given[seat]]}")
            taken = next((other for other, held in chosen.items() if held == team), None)
            if taken is not None:
                raise ChoiceTaken(f"seat {taken} plays {code}: choose another team")
            chosen[seat] = team
        if given is not None:
            return dict(options or {})
        left = iter(team for team in range(len(TEAMS)) if team not in chosen.values())
        teams = [chosen[seat] if seat in chosen else next(left) for seat in range(seats)]
        return {**(options or {}), "teams": ",".join(TEAMS[team] for team in teams)}


# A board position's points by the card on it; a vacant position (-1) reads the last entry, 0.
_ATTACK_OF = (*(ATTACK[card & 3] for card in range(PLAYER_CARDS)), 0)
_DEFENCE_OF = (*(DEFENCE[card & 3] for card in range(PLAYER_CARDS)), 0)

# Moves built once: they repeat in every position.
_TRADE_PLAYER = tuple(AosMove("trade", (code,)) for code in PLAYER_CODES)
_BOARD = tuple(AosMove("board", (code,)) for code in PLAYER_CODES)
_BENCH = tuple(AosMove("bench", (code,)) for code in PLAYER_CODES)
_PLAY_ALONE = {face: AosMove("play", (face,)) for face in C.FACES}
_PICK_PLAYER, _PICK_ACTIONS = AosMove("pick", ("PLAYER",)), AosMove("pick", ("ACTIONS",))
_PICKS = {  # (a player card can be drawn, an action card can be drawn) -> the pick-ups offered
    (True, True): [_PICK_PLAYER, _PICK_ACTIONS],
    (True, False): [_PICK_PLAYER],
    (False, True): [_PICK_ACTIONS],
    (False, False): [],  # never asked: _next_turn moves such a turn on to training
}
_CHOICES = frozenset(("pass", "answer", "shoot", "stop", "end", "challenge"))  # the moves noted with their facts
_FACE_BIT = {face: 1 << number for number, face in enumerate(C.FACE_LIST)}
_SUPERSAVES = tuple(f"{C.SUPERSAVE}-{team}" for team in TEAMS)  # by team
_OTHERS = {n: tuple(tuple(s for s in range(n) if s != seat) for seat in range(n)) for n in SPEC.seat_counts}


# -- sampling a state from a view (AgeOfSoccer.sample) -------------------------------------------------------------

_OPTIONS = SPEC.defaults()
_TEAM_OF = {code: team for team, code in enumerate(TEAMS)}
_COPIES = {face: tuple(card for card in range(C.ACTION_CARDS) if ACTION_FACE[card] == face) for face in sorted(C.FACES)}
_SHOTS = frozenset(card for card in range(C.ACTION_CARDS) if ACTION_KIND[card] in (C.SHOOT, C.SUPERSHOT))
_OF_KIND = {kind: frozenset(c for c in range(C.ACTION_CARDS) if ACTION_KIND[c] == kind) for kind in set(ACTION_KIND)}
_SUPERSAVE_OF = {ACTION_TEAM[card]: card for card in _OF_KIND[C.SUPERSAVE]}
_PLAIN_SHOT, _SUPER_SHOT = "SHOOT", ACTION_FACE[min(_OF_KIND[C.SUPERSHOT])]
_DEALS = 200  # deals tried before the cards a constraint needs are placed by hand (a deal that rare is very rare)


def _sample(data: dict[str, Any], seen: Seen, rng: Rng) -> AosState:
    """:meth:`AgeOfSoccer.sample`'s work, from a view's JSON form and what else its seat knows."""
    viewer = data["viewer"]
    if viewer is None or "hand" not in data:
        raise ValueError("a sample needs a seat's view, not a spectator's")
    table = data["seats"]
    seats = len(table)
    phase = data["phase"]
    state = AosState()
    state.seats = seats
    state.version = seen.version
    state.options = {**_OPTIONS, "teams": ",".join(seat["team"] for seat in table), "max_rounds": seen.max_rounds}
    state.teams = [_TEAM_OF[seat["team"]] for seat in table]
    state.boards = boards = [[PLAYER_BY_CODE[code] if code else -1 for code in seat["board"]] for seat in table]
    state.shields = [seat["shields"] for seat in table]
    state.won = [list(seat["won"]) for seat in table]
    hand = data["hand"]

    # Player cards: the viewer's, the boards', the discard pile's and the draft's are seen; the rest are dealt.
    mine = [PLAYER_BY_CODE[code] for code in hand["players"]]
    state.player_discard = [PLAYER_BY_CODE[code] for code in data["player_discard"]]
    draft = data.get("draft")
    drafted = [PLAYER_BY_CODE[code] for code in draft["cards"]] if draft else []
    known = {*mine, *state.player_discard, *drafted}
    for board in boards:
        known.update(board)
    unseen = [card for card in range(PLAYER_CARDS) if card not in known]
    rng.shuffle(unseen)
    players: list[list[int]] = []
    at = 0
    for seat, public in enumerate(table):
        if seat == viewer:
            players.append(mine)
        else:
            size = public["players_held"]
            players.append(unseen[at : at + size])
            at += size
    if len(unseen) - at != data["player_deck"]:
        raise ValueError("the view's player cards do not add up")
    state.players = players
    state.player_deck = unseen[at:]

    # Action cards: the viewer's, the discard pile's and the Red Cards waiting are seen; the rest are dealt.
    used = dict.fromkeys(_COPIES, 0)
    taken: list[list[int]] = []
    for faces in (seen.action_discard, hand["actions"], *(("RED",) * seat["red_cards"] for seat in table)):
        cards = []
        for face in faces:
            copy = used[face]
            used[face] = copy + 1
            cards.append(_COPIES[face][copy])
        taken.append(cards)
    discard, own, *reds = taken
    top = seen.action_discard[-1] if seen.action_discard else ""
    if len(discard) != data["action_discard_size"] or top != data["action_discard_top"]:
        raise ValueError("the view's action discard pile and what its seat saw disagree")
    unseen = [card for face, cards in _COPIES.items() for card in cards[used[face] :]]
    starts = []
    at = 0
    for seat, public in enumerate(table):
        starts.append(at)
        if seat != viewer:
            at += public["actions_held"]
    if len(unseen) - at != data["action_deck"]:
        raise ValueError("the view's action cards do not add up")

    # What the table knows of the hands dealt: each (start, size, the cards that fit, whether one is its answer).
    needs: list[tuple[int, int, frozenset[int], int]] = []
    if phase == SHOT and data["match"]["attacker"] != viewer:
        attacker = data["match"]["attacker"]
        needs.append((starts[attacker], table[attacker]["actions_held"], _SHOTS, -1))
    window = data.get("window")
    if phase == WINDOW:
        activated = data["shot"]["activated"]
        defender = data["match"]["defender"]
        for seat in window["answered"]:
            if seat != viewer:
                needs.append(
                    (starts[seat], table[seat]["actions_held"], _answering(state, seat, defender, activated), seat)
                )
    rng.shuffle(unseen)
    if needs:
        for _ in range(_DEALS):
            if all(not fits.isdisjoint(unseen[start : start + size]) for start, size, fits, _ in needs):
                break
            rng.shuffle(unseen)
        else:
            _place_needed(unseen, needs, rng)
    state.actions = [
        own if seat == viewer else unseen[starts[seat] : starts[seat] + public["actions_held"]]
        for seat, public in enumerate(table)
    ]
    state.action_deck = unseen[at:]
    state.action_discard = discard
    state.reds = reds

    # The turn, and what is under way.
    state.active = data["active"]
    state.turn = data["turn"]
    state.turns_begun = seen.turns_begun
    state.phase = phase
    state.after_discard = MATCH
    state.traded = data["traded"]
    state.challenged = list(data["challenged"])
    if "challenge" in data:
        state.challenge = {**data["challenge"], "passes": seen.passes}
    if "match" in data:
        state.match = dict(data["match"])
    if "shot" in data:
        shot = data["shot"]
        kind = C.face_kind(top)
        if kind in (C.SHOOT, C.SUPERSHOT) and (kind == C.SUPERSHOT) == shot["super"]:
            face = top
        else:  # (the shot of a match over, which only the view's "super" reads)
            face = _SUPER_SHOT if shot["super"] else _PLAIN_SHOT
        state.shot = {"face": face, "activated": shot["activated"]}
    if window:
        held: dict[int, int] = {}
        for seat in window["answered"]:
            if seat == viewer:
                if not seen.answer:
                    raise ValueError("the view says its seat answered, and not with what")
                held[seat] = state._holds(seat, seen.answer)
        for _, _, fits, seat in needs:
            if seat >= 0:
                answers = [card for card in state.actions[seat] if card in fits]
                held[seat] = answers[rng.below(len(answers))]
        state.window = {"order": list(window["order"]), "passed": set(window["passed"]), "held": held}
    if draft:
        state.draft = {"cards": drafted, "order": list(draft["order"]), "turn": draft["turn"]}
    outcome = data.get("outcome")
    state.result = Outcome.from_json(outcome) if outcome else None
    state.rng = Rng(rng.next_u64())
    state.history = list(seen.history)
    return state


def _listed(value: Any) -> Any:
    """A record of the history in its JSON form (lists)."""
    return list(map(_listed, value)) if isinstance(value, tuple) else value


def _tupled(value: Any) -> Any:
    """A record of the history as the JSON form gave it (lists) back in its own form (tuples)."""
    return tuple(map(_tupled, value)) if isinstance(value, list) else value


def _answering(state: AosState, seat: int, defender: int, activated: bool) -> frozenset[int]:
    """The action cards with which ``seat`` may answer the shot under way (as :meth:`AosState._answers` reads them)."""
    fits = set(_OF_KIND[C.OFFSIDE])
    if not activated:
        fits |= _OF_KIND[C.COUNTER]
    if seat == defender:
        if not activated:
            fits |= _OF_KIND[C.SAVE]
        fits.update(card for team, card in _SUPERSAVE_OF.items() if not activated or state.activates(seat, team))
    return frozenset(fits)


def _place_needed(cards: list[int], needs: list[tuple[int, int, frozenset[int], int]], rng: Rng) -> None:
    """After many deals that did not fit: into each hand that lacks a card it needs, one such card from where it
    does not leave another hand short (swapped with a card of that hand, chosen at random)."""
    for start, size, fits, _ in needs:
        if not fits.isdisjoint(cards[start : start + size]):
            continue
        spare = []
        for place, card in enumerate(cards):
            if card not in fits:
                continue
            other = next((need for need in needs if need[0] <= place < need[0] + need[1]), None)
            if other is None or sum(held in other[2] for held in cards[other[0] : other[0] + other[1]]) > (
                card in other[2]
            ):
                spare.append(place)
        if not spare or not size:
            raise ValueError("no deal of the hidden cards fits the view")
        place, into = spare[rng.below(len(spare))], start + rng.below(size)
        cards[place], cards[into] = cards[into], cards[place]


def _canonical(move: AosMove) -> AosMove:
    """A move that names several cards, in the one order the legal moves list them: a three-card trade's faces
    sorted, a blind card's positions (Greedy Agent, Bankruptcy) rising. The cards a move names may come in any order."""
    kind, args = move
    if kind == "trade" and len(args) == 3:
        return AosMove(kind, tuple(sorted(args)))
    if kind == "play" and len(args) > 3 and all(arg.isdigit() for arg in args[1:]):
        return AosMove(kind, (*args[:2], *sorted(args[2:], key=int)))
    return move


@cache
def _red(face: str, mover: int, seats: int) -> tuple[AosMove, ...]:
    return tuple(AosMove("play", (face, str(s))) for s in range(seats) if s != mover)


@lru_cache(maxsize=8192)
def _trades(faces: tuple[str, ...]) -> tuple[AosMove, ...]:
    """Each different three of a sorted hand's action faces, as a trade (hands repeat: computed once per hand)."""
    return tuple(AosMove("trade", three) for three in sorted(set(combinations(faces, 3))))


@cache
def _blind(face: str, victim: int, held: int, take: int) -> tuple[AosMove, ...]:
    """Playing ``face`` on ``victim`` holding ``held`` action cards, taking ``take`` of them by position."""
    return tuple(
        AosMove("play", (face, str(victim), *map(str, positions)))
        for positions in combinations(range(1, held + 1), min(take, held))
    )


@cache
def _targeted(face: str, victim: int, player: int, gift: bool, mover: int, seats: int) -> tuple[AosMove, ...]:
    """Playing ``face`` on ``victim``'s active ``player``; a gift (Insider Trading) names a recipient, anyone but the
    mover."""
    code = PLAYER_CODES[player]
    if not gift:
        return (AosMove("play", (face, str(victim), code)),)
    return tuple(AosMove("play", (face, str(victim), code, str(r))) for r in range(seats) if r != mover)


def _teams(text: str, seats: int) -> list[int]:
    if not text:
        return list(range(seats))
    codes = [code.strip().upper() for code in text.split(",")]
    if len(codes) != seats or any(code not in TEAMS for code in codes) or len(set(codes)) != seats:
        raise InvalidOptions(f"option 'teams' must name {seats} different teams of {', '.join(TEAMS)}")
    return [TEAMS.index(code) for code in codes]
