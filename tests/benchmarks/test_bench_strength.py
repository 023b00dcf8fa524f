"""`kickoff bench bots --deals` and `kickoff bench ladder` at a tiny size (Soker, a fixed few iterations a decision,
one or two deals, one worker): ablations, resumable runs, runs stopped by a signal, the ladder's table. No strength
is asserted (the figures are the benchmark's); the counts, names, files and tables are."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

from benchmarks.ladder import ladder_table, markers
from benchmarks.strength import Sighted, _player, bench_strength, deals_for
from cli import main
from engine.registry import get_game

ROOT = Path(__file__).resolve().parents[2]
TINY = ["--game", "soker", "--iterations", "8", "--workers", "1"]


def test_an_ablation_names_both_settings_and_counts_the_games_of_each_deal(capsys) -> None:
    """Two settings of the hard player meet on the same deals, and the report says which is which (under 1 s)."""
    args = ["bench", "bots", *TINY, "--bot", "hard:bias=2,exploration=1", "--opponent", "hard", "--seats", "2"]
    assert main([*args, "--deals", "2", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert (figures["bot"], figures["opponent"]) == ("hard:bias=2,exploration=1", "hard")
    assert figures["deals"] == 2 and figures["games"] == figures["planned_games"] == 4 and not figures["stopped"]
    assert figures["decisions"] > 0 and figures["iterations_p50"] == 8
    assert main([*args, "--deals", "1"]) == 0
    assert "one hard:bias=2,exploration=1 against 1 hard over 1 duplicate deals (2 games" in capsys.readouterr().out


def test_a_setting_the_hard_player_lacks_is_refused_with_the_known_ones(capsys) -> None:
    """A typo in an ablation fails before any game, naming the settings there are (instant)."""
    assert main(["bench", "bots", *TINY, "--bot", "hard:judg=off", "--opponent", "hard", "--deals", "1"]) == 2
    error = capsys.readouterr().err
    assert "no setting 'judg'" in error and "judge" in error and "bias" in error
    assert main(["bench", "bots", *TINY, "--bot", "normal:bias=1", "--deals", "1"]) == 2
    assert "only a searching level" in capsys.readouterr().err
    assert main(["bench", "bots", *TINY, "--bot", "hard:seconds=5", "--deals", "1"]) == 2
    assert "--think" in capsys.readouterr().err


def test_a_player_that_sees_all_searches_the_true_table(capsys) -> None:
    """``hard:sees=all`` (the bench's upper bound on beliefs) deals each iteration the true table, hidden hands and the
    deck's order included, where the hard player deals from its view; ``sees=hands`` every hand as it is and the deck
    shuffled anew; another value, or hands in a game whose decks the bench does not name, is refused (under a
    second)."""
    game = get_game("soker")
    state = game.new_game(4, None, 3)
    sighted = _player(game, "hard:sees=all", 1)
    plain = _player(game, "hard", 1)
    assert isinstance(sighted, Sighted) and not isinstance(plain, Sighted)
    sighted.iterations = plain.iterations = 8
    seat = state.to_act()[0]
    sighted.choose(state, seat)
    view = state.view(seat)
    assert sighted.sample(view, 5).to_json() == state.to_json()
    assert plain.sample(view, 5).to_json() != state.to_json()
    hands = _player(game, "hard:sees=hands", 1)
    hands.iterations = 8
    hands.choose(state, seat)
    dealt = [hands.sample(view, seed) for seed in (5, 6)]
    assert [d.hands for d in dealt] == [state.hands] * 2  # every hand as it is,
    assert dealt[0].deck != dealt[1].deck and sorted(dealt[0].deck) == sorted(state.deck)  # the deck dealt anew
    assert main(["bench", "bots", *TINY, "--bot", "hard:sees=most", "--deals", "1"]) == 2
    assert "'all'" in capsys.readouterr().err
    assert main(["bench", "bots", "--game", "carta-futbol-club", "--bot", "hard:sees=hands", "--deals", "1"]) == 2
    assert "not offered" in capsys.readouterr().err


def test_margin_picks_the_deals_its_interval_needs(capsys) -> None:
    """--margin without --deals plays as many deals as a 95% interval that narrow needs at the expected rate."""
    assert deals_for(0.05, 0.45, 4) == 95  # 380 games: the Wilson interval at 45% is 40.1-50.0%
    assert deals_for(0.05, 0.25, 4) < deals_for(0.05, 0.45, 4) < deals_for(0.03, 0.45, 4)
    args = ["bench", "bots", *TINY, "--bot", "normal", "--seats", "2", "--margin", "0.4", "--expect", "0.5"]
    assert main([*args, "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["deals"] == deals_for(0.4, 0.5, 2) and figures["games"] == 2 * figures["deals"]


def test_a_run_resumes_from_its_file_without_playing_its_games_again(tmp_path) -> None:
    """A file cut short by a stop (its last line half written) resumes: only the missing games are played, with the
    seeds a run without a file uses, so the figures are the same (about 1 s)."""
    out = tmp_path / "games.jsonl"
    options = {"name": "soker", "bot": "hard", "opponent": "normal", "seats": 2, "iterations": 8, "workers": 1}
    first = bench_strength(deals=1, out=str(out), **options)
    lines = out.read_text().splitlines()
    assert first.games == len(lines) == 2 and not first.resumed
    out.write_text(lines[0] + "\n" + lines[1][: len(lines[1]) // 2])  # the second game's line, cut by the stop
    seen: list[str] = []
    again = bench_strength(deals=2, out=str(out), progress=seen.append, **options)
    assert again.resumed == 1 and len(seen) == 3, "one game read back, three played (one of deal 0, deal 1's two)"
    assert out.read_text().startswith(lines[0] + "\n"), "the cut line is dropped, the whole one kept"
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert sorted((record["deal"], record["side"]) for record in records) == [(0, 0), (0, 1), (1, 0), (1, 1)]
    fresh = bench_strength(deals=2, **options)
    assert (again.games, again.wins, sorted(again.decision_iterations)) == (
        fresh.games,
        fresh.wins,
        sorted(fresh.decision_iterations),
    )
    other = bench_strength(deals=1, out=str(out), **(options | {"opponent": "random"}))
    assert other.resumed == 0 and other.games == 2, "another run's games in the same file are not its own"


def test_a_run_stopped_by_sigint_reports_what_it_has_and_its_file_resumes(tmp_path) -> None:
    """SIGINT after the first game: the run reports the games that ended, marked stopped, exits 1, and its file holds
    them (about 2 s: a process of its own)."""
    out = tmp_path / "games.jsonl"
    command = [sys.executable, "-m", "cli", "bench", "bots", *TINY, "--bot", "hard", "--opponent", "normal"]
    command += ["--seats", "4", "--deals", "500", "--iterations", "100", "--out", str(out), "--json"]
    env = os.environ | {"PYTHONPATH": os.pathsep.join([str(ROOT / "clients"), str(ROOT)])}
    with subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as run:
        assert run.stderr is not None
        first = run.stderr.readline()
        assert first.startswith("deal 0, side "), first
        run.send_signal(signal.SIGINT)
        stdout, stderr = run.communicate(timeout=60)
    assert run.returncode == 1, stderr
    figures = json.loads(stdout)
    assert figures["stopped"] and 1 <= figures["games"] < figures["planned_games"] == 2000
    assert len(out.read_text().splitlines()) == figures["games"]
    resumed = bench_strength("soker", 1, "hard", "normal", 4, iterations=100, workers=1, out=str(out))
    assert resumed.games == 4 and resumed.resumed == min(4, figures["games"])


def test_the_ladder_writes_its_table_between_the_games_markers(tmp_path, capsys) -> None:
    """Each level against every weaker one, one row each, written into the page between Soker's markers (about 1 s)."""
    begin, end = markers("soker")
    readme = tmp_path / "benchmarks.md"
    readme.write_text(f"# x\n{begin}\nold\n{end}\nafter\n")
    args = ["bench", "ladder", *TINY, "--seats", "2", "--levels", "random,normal,hard", "--deals", "1"]
    assert main([*args, "--json", "--readme", str(readme)]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert [(row["bot"], row["opponent"]) for row in figures["rows"]] == [
        ("normal", "random"),
        ("hard", "random"),
        ("hard", "normal"),
    ]
    assert all(row["games"] == 2 and row["chance"] == 0.5 for row in figures["rows"])
    table = ladder_table(figures)
    assert readme.read_text() == f"# x\n{begin}\n{table}\n{end}\nafter\n"
    assert table.count("\n| 2 | ") == 3 and "--deals 1 --iterations 8" in table
    assert main([*args, "--levels", "random,super"]) == 2
