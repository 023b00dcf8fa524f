"""The contracts as any language's tooling sees them: proto/ builds on its own (no include path from this project's
Python packages), passes buf's STANDARD lint rules, and `buf breaking` catches a change that would break a client of
the last release (release/kickoff-v1.binpb)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BUF = ROOT / "node_modules" / ".bin" / "buf"
pytestmark = pytest.mark.skipif(
    not BUF.exists() and os.environ.get("CI") != "true", reason="buf is not installed here (make install does it)"
)


def buf(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(BUF), *args], cwd=cwd, capture_output=True, text=True, timeout=120)


def test_proto_builds_on_its_own_and_lints_clean() -> None:
    built = buf("build", "-o", "-#format=json")
    assert built.returncode == 0, built.stderr
    assert '"name":"kickoff/v1/move.proto"' in built.stdout.replace(" ", "")
    linted = buf("lint")
    assert linted.returncode == 0, linted.stdout + linted.stderr


def test_a_change_that_breaks_the_last_release_is_caught(tmp_path: Path) -> None:
    shutil.copy(ROOT / "buf.yaml", tmp_path / "buf.yaml")
    shutil.copytree(ROOT / "proto", tmp_path / "proto")
    room = tmp_path / "proto" / "kickoff" / "v1" / "room.proto"
    text = room.read_text()
    assert "  Room room = 1;\n" in text
    room.write_text(text.replace("  Room room = 1;\n", "  Room room = 9;\n", 1))
    against = str(ROOT / "release" / "kickoff-v1.binpb")
    assert buf("breaking", "--against", against).returncode == 0, "the repository itself keeps the release"
    broken = buf("breaking", "--against", against, cwd=tmp_path)
    assert broken.returncode != 0 and "CreateRoomResponse" in broken.stdout, broken.stdout + broken.stderr
