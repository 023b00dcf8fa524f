"""`kickoff bench bots --deals N`: one level against another on duplicate deals.

Each deal is played once for every side the bot can take (every seat of a game of single seats, every team of a team
game), with the same cards, so the luck of the deal cancels. Games run in parallel worker processes, one core each, so
a search's think time is a core's; each game is a task of its own, so the games of one deal (its rotations) spread over
the workers. The report gives the bot's win rate with a 95% Wilson interval (for a game played by teams, Carta Fútbol
Club, of the matches not drawn, one against one too), the interval's half-width and the deals a wanted half-width would
take at the rate measured, the decisions' p50 and p99 time and the iterations a decision of a searching bot (decisions
with one legal move are not searched and not counted).

**Ablations.** A player is a level, or a searching level with settings changed: ``hard:judge=off`` or
``hard:bias=0,exploration=1`` (see :func:`parse_player`), so two settings of the hard player meet on the same deals at
the same time a decision (``--bot hard:judge=off --opponent hard``).

**A run that can be stopped.** With ``out`` each game is appended to a JSON-lines file as it ends, under the run's key
(game, seats, both players, seed, budget); a run started again with the same file and arguments plays only the games
the file lacks, with the same seeds, and one with more deals plays only the new deals. SIGINT or SIGTERM stops a run:
the games in progress are dropped (a resumed run plays them again) and the report gives what has ended.
"""

from __future__ import annotations

import dataclasses
import json
import math
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from engine.core import Game, Rng
from engine.registry import get_game
from engine.search import SearchBot, SearchSettings

__all__ = [
    "BOT_SWITCHES",
    "StrengthFigures",
    "bench_strength",
    "deals_for",
    "parse_player",
    "sides_of",
    "strength_report",
    "wilson",
]

# Settings the bench itself gives both players alike (equal time a decision), so no player may change them.
FIXED = {"seconds": "--think", "iterations": "--iterations"}

STOPS = (signal.SIGINT, signal.SIGTERM)  # the signals that stop a run (it reports what it has)

_ON = {"on", "true", "yes", "1"}
_OFF = {"off", "false", "no", "0", "none"}


def _switch(value: str) -> bool:
    if value.lower() in _ON:
        return True
    if value.lower() in _OFF:
        return False
    raise ValueError(f"'{value}' is not on or off")


# Switches of SearchBot's constructor (not of SearchSettings) a player may set: the keyword's name and the parser of
# its value. A field of SearchSettings needs nothing here: it is parsed by the type of the game's own value.
BOT_SWITCHES: dict[str, Callable[[str], Any]] = {}


# The decks a game deals from, for ``sees=hands``: shuffled anew for each deal the player searches (with the game's
# RNG), so that it knows every hand but not what is drawn next. A game not named here offers only ``sees=all``.
DECKS = {"soker": ("deck",), "age-of-soccer": ("player_deck", "action_deck")}
_SEES = ("view", "hands", "all")


def _sees(value: str) -> str:
    if value not in _SEES:
        raise ValueError(
            "'all' (the whole table, the decks' order included), 'hands' (every hand, the decks shuffled) or 'view'"
        )
    return value


# Switches of the bench's own, not of the player: ``sees=all`` makes the hard player search the true table at every
# iteration instead of deals sampled from its view, and ``sees=hands`` the true table with its decks shuffled anew: a
# bench-only cheat, an upper bound on what beliefs about the hidden cards could give (``hands``: knowing every hand;
# ``all``: knowing what will be drawn too).
BENCH_SWITCHES: dict[str, Callable[[str], Any]] = {"sees": _sees}


class Sighted(SearchBot):
    """The hard player given the true table (``sees=all``: each iteration plays a copy of it, not a deal sampled
    from the view) or every hand (``sees=hands``: the copy's decks and RNG dealt anew from the iteration's seed). For
    the bench only: it reads what no seat may."""

    game: Game
    decks: tuple[str, ...] | None = None  # (None: the decks as they are)

    def choose(self, state: Any, seat: int) -> Any:
        game, text, decks = self.game, json.dumps(state.to_json()), self.decks
        self.sample = lambda view, seed: self._copy(game.state_from_json(json.loads(text)), decks, seed)
        return super().choose(state, seat)

    @staticmethod
    def _copy(state: Any, decks: tuple[str, ...] | None, seed: int) -> Any:
        if decks is not None:
            rng = Rng(seed)
            for deck in decks:
                rng.shuffle(getattr(state, deck))
            state.rng = Rng(rng.next_u64())
        return state


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return max(0.0, centre - half), min(1.0, centre + half)


def _half_width(rate: float, games: int, z: float = 1.96) -> float:
    return z * math.sqrt(rate * (1 - rate) / games + z * z / (4 * games * games)) / (1 + z * z / games)


def deals_for(margin: float, rate: float, sides: int) -> int:
    """The fewest duplicate deals (each ``sides`` games) whose 95% Wilson interval at win rate ``rate`` is at most
    ``margin`` either side (for a team game, of the games not drawn)."""
    if not 0 < margin < 0.5 or not 0 <= rate <= 1:
        raise ValueError("the margin must lie between 0 and 0.5, the rate between 0 and 1")
    low, high = 1, 1
    while _half_width(rate, high) > margin:
        low, high = high, high * 2
    while low < high:
        middle = (low + high) // 2
        if _half_width(rate, middle) > margin:
            low = middle + 1
        else:
            high = middle
    return -(-high // sides)


def sides_of(name: str, seats: int) -> list[int]:
    """The sides the bot takes in turn at ``seats`` seats: every seat, or every team of a team game."""
    game = get_game(name)
    return sorted(set(game.teams(seats, game.spec.resolve(seats, None))))


def parse_player(game: Game, text: str) -> tuple[str, dict[str, Any], dict[str, Any]]:
    """A player's name on the command line: a level (``hard``), or a searching level and settings changed from the
    game's own, ``LEVEL:FIELD=VALUE[,FIELD=VALUE...]`` (``hard:judge=off``, ``hard:bias=0,exploration=1``). Returns
    the level, the changes to its :class:`~engine.search.SearchSettings` and the keywords for SearchBot's constructor
    (:data:`BOT_SWITCHES`). A field's value is read by the type of the game's own: a number, a word (``playout=easy``),
    on/off; a function (``judge``) is ``off`` (none) or ``on`` (the game's own). ``seconds`` and ``iterations`` are
    the bench's (``--think``, ``--iterations``), the same for both players. A bad name or value is a ValueError that
    says what is known."""
    level, _, rest = text.partition(":")
    if level not in game.bots:
        raise ValueError(f"{game.spec.title} has no system player '{level}' (known: {', '.join(game.bots)})")
    if not rest:
        return level, {}, {}
    if not isinstance(game.new_bot(level, 0), SearchBot):
        raise ValueError(f"'{text}': only a searching level (hard) takes settings, not '{level}'")
    own: SearchSettings = game.search  # type: ignore[attr-defined]
    fields = [field.name for field in dataclasses.fields(SearchSettings) if field.name not in FIXED]
    settings: dict[str, Any] = {}
    switches: dict[str, Any] = {}
    for part in rest.split(","):
        name, equals, value = (piece.strip() for piece in part.partition("="))
        if not equals or not name or not value:
            raise ValueError(f"'{text}': write a setting as FIELD=VALUE, not '{part}'")
        if name in FIXED:
            raise ValueError(f"'{text}': the bench sets {name} for both players alike ({FIXED[name]})")
        parse = BOT_SWITCHES.get(name) or BENCH_SWITCHES.get(name)
        if parse is not None:
            try:
                switches[name] = parse(value)
            except ValueError as error:
                raise ValueError(f"'{text}': {name}: {error}") from None
            continue
        if name not in fields:
            known = ", ".join([*fields, *BOT_SWITCHES, *BENCH_SWITCHES])
            raise ValueError(f"'{text}': the hard player has no setting '{name}' (known: {known})")
        settings[name] = _value(game, own, name, value, text)
    if switches.get("sees") == "hands" and game.spec.name not in DECKS:
        raise ValueError(f"'{text}': sees=hands is not offered for {game.spec.title} (only all or view)")
    return level, settings, switches


def _value(game: Game, own: SearchSettings, name: str, value: str, text: str) -> Any:
    current = getattr(own, name)
    try:
        if isinstance(current, bool):
            return _switch(value)
        if isinstance(current, int):
            return int(value)
        if isinstance(current, float):
            return float(value)
        if isinstance(current, str):
            if name == "playout" and value not in game.bots:
                raise ValueError(f"no system player '{value}' (known: {', '.join(game.bots)})")
            return value
        if _switch(value):
            if current is None:
                raise ValueError(f"{game.spec.title} has none to switch on")
            return current
        return None
    except ValueError as error:
        raise ValueError(f"'{text}': {name}={value}: {error}") from None


def _player(game: Game, text: str, seed: int) -> Any:
    level, settings, switches = parse_player(game, text)
    if not settings and not switches:
        return game.new_bot(level, seed)
    base: SearchBot = game.new_bot(level, seed)  # type: ignore[assignment]
    changed = dataclasses.replace(base.settings, **settings)
    sees = switches.pop("sees", "view")
    if sees != "view":
        sighted = Sighted(base.sample, game.bots, seed, changed, **switches)
        sighted.game = game
        sighted.decks = DECKS[game.spec.name] if sees == "hands" else None
        return sighted
    return SearchBot(base.sample, game.bots, seed, changed, **switches)


@dataclass(frozen=True)
class StrengthFigures:
    game: str
    bot: str
    opponent: str
    seats: int
    deals: int
    games: int
    wins: int
    draws: int
    teams: bool
    seconds: float | None
    iterations: int | None
    decision_seconds: tuple[float, ...]
    decision_iterations: tuple[int, ...]
    planned: int = 0  # the games the run was to play (0: as many as it played)
    resumed: int = 0  # of the games, those read back from the run's file
    stopped: bool = False  # whether SIGINT or SIGTERM stopped it before its end
    margin: float = 0.05  # the half-width the report says how many deals would take
    sides: int = 2

    def to_json(self) -> dict[str, Any]:
        decided = self.games - self.draws if self.teams else self.games
        low, high = wilson(self.wins, decided)
        times = sorted(self.decision_seconds)
        counts = sorted(self.decision_iterations)
        rate = self.wins / decided if decided else None

        def pick(values: list[Any], q: float) -> Any:
            return values[min(len(values) - 1, int(q * len(values)))] if values else None

        return {
            "game": self.game,
            "bot": self.bot,
            "opponent": self.opponent,
            "seats": self.seats,
            "deals": self.deals,
            "games": self.games,
            "planned_games": self.planned or self.games,
            "resumed_games": self.resumed,
            "stopped": self.stopped,
            "wins": self.wins,
            "draws": self.draws,
            "decided": decided,
            "win_rate": round(rate, 4) if rate is not None else None,
            "interval_95": [round(low, 4), round(high, 4)],
            "half_width": round((high - low) / 2, 4),
            "margin": self.margin,
            "deals_for_margin": deals_for(self.margin, rate, self.sides) if rate is not None else None,
            "of": "matches not drawn" if self.teams else "games",
            "think_seconds": self.seconds,
            "fixed_iterations": self.iterations,
            "decisions": len(times),
            "decision_p50_ms": round(pick(times, 0.5) * 1000, 1) if times else None,
            "decision_p99_ms": round(pick(times, 0.99) * 1000, 1) if times else None,
            "iterations_p50": pick(counts, 0.5),
            "iterations_p1": pick(counts, 0.01),
        }


Task = tuple[str, int, int, int, str, str, float | None, int | None]


def _one(task: Task) -> tuple[int, int, int, int, list[float], list[int]]:
    """One game of a deal with the bot on one side: (deal, side, won, drawn, its searched decisions' seconds and
    iterations)."""
    name, seats, deal, hero, bot, opponent, seconds, iterations = task
    game = get_game(name)
    state = game.new_game(seats, None, deal)
    teams = [state.team_of(seat) for seat in range(seats)]
    players = []
    for seat in range(seats):
        player = _player(game, bot if teams[seat] == hero else opponent, deal * 16 + seat)
        if isinstance(player, SearchBot):
            player.clock = time.perf_counter
            player.iterations = iterations
            if seconds is not None:
                player.seconds = seconds
        players.append(player)
    times: list[float] = []
    counts: list[int] = []
    while state.to_act():
        seat = state.to_act()[0]
        player = players[seat]
        move = player.choose(state, seat)
        last = getattr(player, "last", None)
        if last is not None and last.iterations:
            times.append(last.seconds)
            counts.append(last.iterations)
        state.apply(seat, move)
    outcome = state.outcome()
    assert outcome is not None
    winning, _ = outcome.for_teams(teams)
    return deal, hero, int(hero in winning), int(not winning), times, counts


def _quiet() -> None:
    """A worker's start: Ctrl-C reaches the whole process group, and only the parent answers it (it ends them)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _interrupt(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt


def _read(path: str, key: dict[str, Any]) -> dict[tuple[int, int], dict[str, Any]]:
    """The games of run ``key`` in the JSON-lines file ``path`` (none if it does not exist), by (deal, side). A last
    line cut short by a stop is cut off the file (that game is played again); any other bad line is an error."""
    if not os.path.exists(path):
        return {}
    with open(path, encoding="utf-8") as file:
        content = file.read()
    lines = content.split("\n")
    if lines[-1].strip():  # (no newline after it: the write was cut short)
        try:
            json.loads(lines[-1])
        except json.JSONDecodeError:
            content = content[: len(content) - len(lines[-1])]
            with open(path, "w", encoding="utf-8") as file:
                file.write(content)
            lines[-1] = ""
    done: dict[tuple[int, int], dict[str, Any]] = {}
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
            if record.get("run") == key:
                done[(record["deal"], record["side"])] = record
        except (json.JSONDecodeError, AttributeError, KeyError):
            raise ValueError(f"{path}:{number} is not a game of a bots bench (a JSON object a line)") from None
    if lines[-1].strip():  # (a whole last line with no newline: the next game starts a line of its own)
        with open(path, "a", encoding="utf-8") as file:
            file.write("\n")
    return done


def _play(tasks: list[Task], workers: int) -> Iterator[tuple[int, int, int, int, list[float], list[int]]]:
    """The tasks' results as each game ends: in this process with one worker (no pool to start), else in a pool of
    spawned processes that the caller's stop (KeyboardInterrupt) ends at once."""
    if workers == 1:
        for task in tasks:
            yield _one(task)
        return
    pool = multiprocessing.get_context("spawn").Pool(workers, initializer=_quiet)
    try:
        yield from pool.imap_unordered(_one, tasks, chunksize=1)
        pool.close()
    finally:
        pool.terminate()
        pool.join()


def bench_strength(
    name: str,
    deals: int,
    bot: str = "hard",
    opponent: str = "normal",
    seats: int = 2,
    seed: int = 0,
    seconds: float | None = 1.0,
    iterations: int | None = None,
    workers: int = 2,
    out: str | None = None,
    margin: float = 0.05,
    progress: Callable[[str], None] | None = None,
) -> StrengthFigures:
    """``bot`` against ``opponent`` on ``deals`` duplicate deals at ``seats`` seats (see the module docstring); each
    a level or a setting of one (:func:`parse_player`). With ``out``, the games go to (and are resumed from) that
    JSON-lines file, and ``progress`` is told of each as it ends."""
    if deals < 1 or workers < 1:
        raise ValueError("--deals and --workers must be at least 1")
    game = get_game(name)
    parse_player(game, bot)  # (a bad name is refused here, before any worker starts)
    parse_player(game, opponent)
    sides = sides_of(name, seats)
    # A game played by teams at some table size (Carta: two against two) counts its matches not drawn at every size,
    # one against one too: a side is a team of one.
    team_game = any(
        len(set(game.teams(count, game.spec.resolve(count, None)))) < count for count in game.spec.seat_counts
    )
    if iterations is not None:
        seconds = None
    key = {
        "game": name,
        "seats": seats,
        "bot": bot,
        "opponent": opponent,
        "seed": seed,
        "seconds": seconds,
        "iterations": iterations,
    }
    done = _read(out, key) if out else {}
    results = [
        (deal, side, record["won"], record["drawn"], record["decision_seconds"], record["decision_iterations"])
        for (deal, side), record in sorted(done.items())
        if deal < deals
    ]
    resumed = len(results)
    # Deal by deal, so the games of one deal are played together, each by the next free worker.
    tasks: list[Task] = [
        (name, seats, seed + deal, side, bot, opponent, seconds, iterations)
        for deal in range(deals)
        for side in sides
        if (deal, side) not in done
    ]
    planned = deals * len(sides)
    stopped = False
    main = threading.current_thread() is threading.main_thread()  # (only its signal handlers may be set)
    # Both signals stop the run, even where SIGINT came in ignored (a command started with & by a script).
    previous = {number: signal.signal(number, _interrupt) for number in STOPS} if main else {}
    sink = open(out, "a", encoding="utf-8") if out else None  # noqa: SIM115 (closed below)
    games = _play(tasks, workers)
    try:
        for deal_seed, side, won, drawn, spent, counts in games:
            deal = deal_seed - seed
            results.append((deal, side, won, drawn, spent, counts))
            if sink is not None:
                record = {"run": key, "deal": deal, "side": side, "won": won, "drawn": drawn}
                record |= {"decision_seconds": [round(value, 6) for value in spent], "decision_iterations": counts}
                sink.write(json.dumps(record) + "\n")
                sink.flush()
            if progress is not None:
                verdict = "drawn" if drawn else ("won" if won else "lost")
                progress(f"deal {deal}, side {side}: {verdict} ({len(results)} of {planned} games)")
    except KeyboardInterrupt:
        stopped = True
    finally:
        games.close()  # (ends the workers, and the games in progress with them)
        if sink is not None:
            sink.close()
        for number, handler in previous.items():
            signal.signal(number, handler)
    return StrengthFigures(
        name,
        bot,
        opponent,
        seats,
        deals,
        len(results),
        sum(result[2] for result in results),
        sum(result[3] for result in results),
        team_game,
        seconds,
        iterations,
        tuple(value for result in results for value in result[4]),
        tuple(value for result in results for value in result[5]),
        planned=planned,
        resumed=resumed,
        stopped=stopped,
        margin=margin,
        sides=len(sides),
    )


def strength_report(figures: StrengthFigures) -> str:
    data = figures.to_json()
    low, high = data["interval_95"]
    side = "a team of" if figures.teams else "one"
    against = f"a team of {figures.opponent}" if figures.teams else f"{figures.seats - 1} {figures.opponent}"
    budget = f"{figures.iterations} iterations" if figures.iterations else f"{figures.seconds:g} s"
    text = (
        f"{figures.game}, {figures.seats} seats: {side} {figures.bot} against {against} over {figures.deals} duplicate "
        f"deals ({figures.games} games, {budget} a decision): won {figures.wins} of {data['decided']} {data['of']} "
        f"({data['win_rate'] or 0:.1%}, 95% interval {low:.1%}-{high:.1%}; {figures.draws} drawn)"
    )
    if data["deals_for_margin"] is not None:
        text += (
            f"; interval ±{data['half_width']:.1%}, ±{figures.margin:.1%} at this rate takes about "
            f"{data['deals_for_margin']} deals"
        )
    if data["decisions"]:
        text += (
            f"; {data['decisions']} searched decisions, p50 {data['decision_p50_ms']} ms, p99 "
            f"{data['decision_p99_ms']} ms, {data['iterations_p50']} iterations at p50"
        )
    if figures.resumed:
        text += f"; {figures.resumed} games read back from the run's file"
    if figures.stopped:
        text += f"; STOPPED after {figures.games} of {data['planned_games']} games (run it again to resume)"
    return text
