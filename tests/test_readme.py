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
    (code,) = [
        block for block in re.findall(r"```python\n(.*?)```", README, re.S) if "inarow.analyze" in block
    ]
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


def test_the_readmes_student_e_p_is_the_example_file_and_the_textbook_weights(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from inarow import parse_position
    from inarow.evaluation.lines import evaluation_named, static_value
    from inarow.evaluation.student import code_evaluation_from_source

    blocks = re.findall(r"```python\n(.*?)```", README, re.S)
    (student,) = [block for block in blocks if block.startswith("def e(board):")]
    example = (Path(__file__).parent.parent / "examples" / "textbook_eval.py").read_text()
    assert student.split('"""', 2)[2].strip() in example
    pasted = code_evaluation_from_source(student)
    textbook = evaluation_named("weights:1,1,1,inf")
    for moves in ("", "b2", "b2 a1", "b2 a1 c3 a3", "a1 b2 c3 b1 b3"):
        position = parse_position(moves)
        assert static_value(position, "x", pasted) == static_value(position, "x", textbook), moves
    (api,) = [block for block in blocks if "from inarow.engines.textbook import search" in block]
    exec(compile("import inarow\n" + api, "README.md", "exec"), {})
    assert capsys.readouterr().out == "b2 1.0\n"
