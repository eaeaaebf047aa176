"""The explain answers the page's JavaScript tests read (tests/data/explain/) are what ``inarow tree
--format json`` answers today, so the words tested in node are the words of real answers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from inarow.cli import app

DATA = Path(__file__).parent / "data" / "explain"


@pytest.mark.parametrize(
    ("name", "args"),
    [
        ("russell-norvig.json", ["tree", "--leaves", "[[3,12,8],[2,4,6],[14,5,2]]", "-f", "json"]),
        ("b2-a1-alphabeta-2.json", ["tree", "b2 a1", "--algo", "alphabeta", "-d", "2", "-f", "json"]),
        (
            "russell-norvig-negamax.json",
            ["tree", "--leaves", "[[3,12,8],[2,4,6],[14,5,2]]", "--algo", "negamax-alphabeta", "-f", "json"],
        ),
    ],
)
def test_the_javascript_fixtures_are_current_answers(name: str, args: list[str]) -> None:
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    answer = json.loads(result.output) | {"seconds": 0}
    assert json.loads((DATA / name).read_text(encoding="utf-8")) == answer
