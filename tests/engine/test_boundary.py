"""The walls of the house: the engine is pure, and games do not import each other."""

from __future__ import annotations

import ast
from pathlib import Path

import engine

ENGINE = Path(engine.__file__).parent
# What the engine must never import: the service, transports, storage, concurrency, clocks and logging.
FORBIDDEN = {"service", "clients", "grpc", "sqlalchemy", "asyncio", "logging", "time", "litestar", "threading"}


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def test_engine_imports_nothing_impure() -> None:
    offenders = {
        f"{path.relative_to(ENGINE.parent)}: {name}"
        for path in ENGINE.rglob("*.py")
        for name in _imports(path)
        if name.split(".")[0] in FORBIDDEN
    }
    assert not offenders, f"the engine imports what it must not: {sorted(offenders)}"


def test_games_do_not_import_each_other() -> None:
    games = {p.name for p in ENGINE.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    offenders = set()
    for game in games:
        for path in (ENGINE / game).rglob("*.py"):
            for name in _imports(path):
                parts = name.split(".")
                if parts[0] == "engine" and len(parts) > 1 and parts[1] in games and parts[1] != game:
                    offenders.add(f"{path.relative_to(ENGINE.parent)}: {name}")
    assert not offenders, f"one game imports another: {sorted(offenders)}"


def test_the_check_sees_a_forbidden_import(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text("import asyncio\nfrom sqlalchemy.orm import Session\nfrom . import sibling\n")
    assert _imports(sample) == {"asyncio", "sqlalchemy.orm"}


def test_the_gateway_reaches_the_game_only_through_the_stubs() -> None:
    gateway = ENGINE.parent / "service" / "gateway"
    offenders = {
        f"{path.name}: {name}"
        for path in gateway.rglob("*.py")
        for name in _imports(path)
        if name.split(".")[0] == "engine" or name.startswith(("service.rooms", "service.grpc", "service.store"))
    }
    assert not offenders, f"the gateway imports game or server internals: {sorted(offenders)}"
    assert any("kickoff.v1" in name for path in gateway.rglob("*.py") for name in _imports(path))
