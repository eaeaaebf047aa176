"""The README's examples are run as written, so they stay true."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from inarow.cli import app

README = (Path(__file__).parent.parent / "README.md").read_text()


def test_the_python_example_runs_and_prints_what_its_comments_say(
    capsys: pytest.CaptureFixture[str],
) -> None:
    (code,) = re.findall(r"```python\n(.*?)```", README, re.S)
    exec(compile(code, "README.md", "exec"), {})
    printed = capsys.readouterr().out
    assert printed.startswith("draw with best play ('a3', 'c1') ('a3',")
    assert "a2 loss in 2 -2" in printed
    assert printed.rstrip().endswith("False ('h8',)")


def test_the_commented_best_moves_of_the_command_line_examples_are_what_inarow_prints() -> None:
    examples = re.findall(r'^inarow best "([^"]*)"\s+# (.*)$', README, re.M)
    assert len(examples) == 2
    for position, said in examples:
        assert CliRunner().invoke(app, ["best", position]).output == said + "\n", position
