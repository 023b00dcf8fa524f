"""`kickoff verify FILE`: its line and exit status (0 verified, 1 differs, 2 cannot be read), and `--json`; and the
wall around deals/: a third party's verifier needs the engines and the standard library only (well under a second)."""

from __future__ import annotations

import ast
import json
import sys
from pathlib import Path

import pytest

import deals
from cli import main
from tests.deals.replays import played_replay


@pytest.fixture(scope="module")
def replay() -> dict:
    return played_replay("soker", 2, seed=3).replay


def _write(path: Path, replay: object) -> str:
    path.write_text(json.dumps(replay, indent=1), encoding="utf-8")
    return str(path)


def test_a_verified_file_exits_0_with_its_line(
    tmp_path: Path, replay: dict, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["verify", _write(tmp_path / "game.json", replay)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"verified: soker r-verify, {len(replay['steps'])} versions, deal ")
    assert replay["room"]["deal"]["commitment"] in out


def test_a_file_that_differs_exits_1_with_the_version_and_why(
    tmp_path: Path, replay: dict, capsys: pytest.CaptureFixture[str]
) -> None:
    changed = json.loads(json.dumps(replay))
    del changed["steps"][5]
    assert main(["verify", _write(tmp_path / "game.json", changed)]) == 1
    assert capsys.readouterr().out == "differs at version 7: version 6 missing: the versions skip from 5 to 7\n"
    assert main(["verify", "--json", str(tmp_path / "game.json")]) == 1
    answer = json.loads(capsys.readouterr().out)
    assert answer["verified"] is False and answer["readable"] is True and answer["version"] == 7


@pytest.mark.parametrize(
    ("content", "words"),
    [
        ("{not json", "is not JSON"),
        ('{"room_id": "r-1"}', "not a replay"),
        ("no secret", "secret is not revealed yet"),
    ],
)
def test_a_file_that_cannot_be_read_exits_2(
    tmp_path: Path, replay: dict, content: str, words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "game.json"
    if content == "no secret":
        in_play = json.loads(json.dumps(replay))
        del in_play["room"]["deal"]["secret"]
        _write(path, in_play)
    else:
        path.write_text(content, encoding="utf-8")
    assert main(["verify", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("cannot verify: ") and words in err
    assert main(["verify", "--json", str(path)]) == 2
    assert json.loads(capsys.readouterr().out)["readable"] is False


def test_deals_imports_the_engines_and_the_standard_library_only() -> None:
    allowed = {"engine", "deals", "__future__", *sys.stdlib_module_names}
    offenders = set()
    for path in Path(deals.__file__).parent.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [alias.name for alias in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            offenders.update(f"{path.name}: {name}" for name in names if name.split(".")[0] not in allowed)
    assert not offenders, f"deals/ imports what a third party's verifier would not have: {sorted(offenders)}"
