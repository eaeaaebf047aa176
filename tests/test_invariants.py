"""The engines' preconditions: checked always by the Python wrappers where cheap, and compiled into the
kernels only under their ``DEBUG`` flags (off, so that the machine code is that of the unchecked search).
Connect Four's wrapper refusing overlapping or off-board stones: tests/test_compiled.py."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from inarow.engines import compiling
from inarow.engines.exact import kernel_template
from inarow.engines.gomoku import driver, kernel
from inarow.rules.game import Game

GOMOKU = Game.parse("gomoku")


def test_the_kernels_are_compiled_without_their_checks() -> None:
    assert kernel_template.DEBUG is False
    assert kernel.DEBUG is False


def test_a_gomoku_board_with_two_stones_on_one_cell_is_refused() -> None:
    board = driver.CompiledBoard(GOMOKU, [])
    cell = int(board.board[112])
    with pytest.raises(AssertionError, match="two stones on one cell"):
        driver.CompiledBoard(GOMOKU, [(cell, 1), (cell, 2)])


def test_a_gomoku_board_with_a_stone_off_the_board_or_of_no_side_is_refused() -> None:
    board = driver.CompiledBoard(GOMOKU, [])
    cell = int(board.board[112])
    with pytest.raises(AssertionError, match="off the board or of no side"):
        driver.CompiledBoard(GOMOKU, [(0, 1)])  # cell 0 is in the margin
    with pytest.raises(AssertionError, match="off the board or of no side"):
        driver.CompiledBoard(GOMOKU, [(cell, 3)])


def _checked_kernels(checked: bool) -> list[dict[str, object]]:
    """The answers of tests/checked_kernels.py in a process of its own, its kernels checked or not."""
    env = {**os.environ, compiling.CHECKS_VARIABLE: "1" if checked else ""}
    script = Path(__file__).parent / "checked_kernels.py"
    output = subprocess.run(
        [sys.executable, str(script)], env=env, check=True, capture_output=True, text=True
    ).stdout
    return [json.loads(line) for line in output.splitlines()]


@pytest.mark.slow
def test_the_kernels_compiled_with_their_asserts_answer_as_the_normal_build() -> None:
    """With INAROW_KERNEL_CHECKS set, both engines' kernels are compiled with DEBUG=True (into a folder of
    their own; a minute of compiling the first time) and their asserts run: a stone on a taken cell is
    refused there and not in the normal build; on some of the engine tests' positions (Connect Four solved
    exactly, Gomoku middle games within 3,000 nodes and a VCF) no assert fails and every answer, node count
    and line is the normal build's."""
    checked, normal = _checked_kernels(True), _checked_kernels(False)
    assert checked[0] == {"checked": True, "gomoku": True}
    assert normal[0] == {"checked": False, "gomoku": False}
    assert checked[-1] == {"a stone on a taken cell refused": True}
    assert normal[-1] == {"a stone on a taken cell refused": False}
    assert checked[1:-1] == normal[1:-1]
    solved = [answer for answer in normal if "connect4" in answer]
    assert len(solved) == 8 and all(answer["score"] == answer["expected"] for answer in solved)
    assert [answer["vcf"] for answer in normal if "vcf" in answer] == ["vcf"]
