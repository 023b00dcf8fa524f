"""The examples are what a third party would write: they import nothing of the project but the generated stubs."""

from __future__ import annotations

import ast

import pytest

from tests.examples.example_process import ROOT

PROJECT = {"engine", "deals", "service", "terminal", "benchmarks", "cli", "tests", "kickoff"}
EXAMPLES = sorted(path.relative_to(ROOT).as_posix() for path in (ROOT / "examples").rglob("*.py"))


def imported(path: str) -> set[str]:
    """Every module the file imports, by its full name."""
    names = set()
    for node in ast.walk(ast.parse((ROOT / path).read_text())):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            names.add("." * node.level + (node.module or ""))
    return names


@pytest.mark.parametrize("path", EXAMPLES)
def test_an_example_imports_only_the_generated_stubs_of_the_project(path: str) -> None:
    """Buys: an example keeps working outside this repository, with the stubs and public packages alone (a helper
    of service/ slipping in would not fail its run here). Milliseconds."""
    project = {name for name in imported(path) if name.split(".")[0] in PROJECT or name.startswith(".")}
    assert all(name == "kickoff.v1" or name.startswith("kickoff.v1.") for name in project), project


def test_the_examples_are_found() -> None:
    """Buys: the test above checks the examples the docs quote, not an empty list. Milliseconds."""
    assert {"examples/rest/play.py", "examples/grpc/bot.py"} <= set(EXAMPLES)
