"""The engines' preconditions: checked always by the Python wrappers where cheap, and compiled into the
kernels only under their ``DEBUG`` flags (off, so that the machine code is that of the unchecked search).
Connect Four's wrapper refusing overlapping or off-board stones: tests/test_compiled.py."""

from __future__ import annotations

import pytest

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
