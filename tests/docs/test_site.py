"""The documentation site builds as `make docs` builds it (`mkdocs build --strict`), and what would leave a reader on a
dead end fails the build: a link to a page or an anchor that is not there, a page missing from the nav, a page that
quotes a file (`--8<--`) that is gone, a link out of the repository. The README is the front door: short, and every
link in it opens something in the repository."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]


def build(root: Path, site: Path) -> subprocess.CompletedProcess[str]:
    """`mkdocs build --strict` of the site whose mkdocs.yml is in ``root``, run from there as `make docs` runs it."""
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=root,
        env={"NO_MKDOCS_2_WARNING": "1", "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_site_builds_with_every_page_in_its_nav(tmp_path: Path) -> None:
    built = build(ROOT, tmp_path / "site")
    assert built.returncode == 0, built.stderr
    for page in ("getting-started/rest", "guides/webhooks", "games/soker", "contract/changelog", "benchmarks"):
        assert (tmp_path / "site" / page / "index.html").is_file(), page


def quoted(page: str) -> list[str]:
    """The repository's files a page quotes: `--8<-- "path"` on one line, or each line of a `--8<--` block."""
    paths, block = [], False
    for line in page.splitlines():
        if line.strip() == "--8<--":
            block = not block
        elif block and line.strip():
            paths.append(line.strip())
        elif line.startswith('--8<-- "'):
            paths.append(line.split('"')[1].split(":")[0])
    return paths


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    """The site's sources (mkdocs.yml, docs/, and the repository's files the pages quote) copied, to be broken without
    touching the real ones."""
    shutil.copy(ROOT / "mkdocs.yml", tmp_path / "mkdocs.yml")
    shutil.copytree(ROOT / "docs", tmp_path / "docs")
    for page in (tmp_path / "docs").rglob("*.md"):
        for path in quoted(page.read_text()):
            (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(ROOT / path, tmp_path / path)
    return tmp_path


BROKEN = {
    "a link to a page that is not there": ("guides/players.md", "See [the lobby](lobby.md).", "lobby.md"),
    "an anchor no heading makes": ("guides/players.md", "See [it](../guides/rooms.md#no-such-part).", "no-such-part"),
    "a link out of the repository": ("guides/players.md", "See [the notes](../../../shared/notes.md).", "shared/notes"),
    "a quoted file that is gone": ("guides/players.md", '```python\n--8<-- "examples/gone.py"\n```', "gone.py"),
    "a quoted part of a file that is gone": (
        "getting-started/rest.md",
        '```python\n--8<-- "examples/rest/play.py:gone-part"\n```',
        "gone-part",
    ),
    "a page missing from the nav": ("guides/lobby.md", "# The lobby", "lobby.md"),
}


@pytest.mark.parametrize("defect", BROKEN, ids=list(BROKEN))
def test_a_dead_end_fails_the_build(copy: Path, defect: str) -> None:
    page, text, named = BROKEN[defect]
    path = copy / "docs" / page
    path.write_text((path.read_text() if path.exists() else "") + "\n" + text + "\n")
    built = build(copy, copy / "site")
    assert built.returncode != 0, defect
    assert named in built.stderr, built.stderr


def test_a_quoted_file_that_is_there_is_quoted(copy: Path) -> None:
    (copy / "examples").mkdir(exist_ok=True)
    (copy / "examples" / "hello.py").write_text("print('quoted from the file itself')\n")
    page = copy / "docs" / "guides" / "players.md"
    page.write_text(page.read_text() + '\n```python\n--8<-- "examples/hello.py"\n```\n')
    built = build(copy, copy / "site")
    assert built.returncode == 0, built.stderr
    assert "quoted from the file itself" in (copy / "site" / "guides" / "players" / "index.html").read_text()


def test_the_readme_is_a_short_front_door_whose_links_stay_in_the_repository() -> None:
    text = (ROOT / "README.md").read_text()
    assert len(text.splitlines()) <= 200
    targets = re.findall(r"\]\(([^)\s]+)\)", text)
    local = [target.split("#")[0] for target in targets if not re.match(r"[a-z]+:", target)]
    assert any(target.startswith("docs/") for target in local), "the README links into the docs"
    for target in local:
        path = (ROOT / target).resolve()
        assert path.is_relative_to(ROOT.resolve()) and path.exists(), target


def test_make_bench_writes_its_tables_into_the_benchmarks_page() -> None:
    makefile = (ROOT / "Makefile").read_text()
    pages = set(re.findall(r"--readme ([^\s;]+)", makefile))
    assert pages == {"docs/benchmarks.md"}
    page = (ROOT / "docs" / "benchmarks.md").read_text()
    ladders = [f"ladder {game}" for game in ("soker", "age-of-soccer", "carta-futbol-club")]
    for block in ("goals", "players sqlite", "players postgresql", *ladders):
        assert f"<!-- kickoff bench {block}: begin -->" in page and f"<!-- kickoff bench {block}: end -->" in page
