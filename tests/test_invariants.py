"""The engines' preconditions: checked always by the Python wrappers where cheap, and compiled into the
kernels only under their ``DEBUG`` flags (off, so that the machine code is that of the unchecked search)."""

from __future__ import annotations

import pytest

from inarow.rules import Game, Position
from inarow.search import gomoku_compiled, gomoku_kernel, kernel
from inarow.search.compiled import CompiledEngine
from inarow.search.limits import Budget

CONNECT4 = Game.parse("connect4")
GOMOKU = Game.parse("gomoku")


def test_the_kernels_are_compiled_without_their_checks() -> None:
    assert kernel.DEBUG is False
    assert gomoku_kernel.DEBUG is False


def test_a_connect_four_search_of_overlapping_stones_is_refused_before_the_kernel() -> None:
    _, stone = Position.start(CONNECT4).play("4").sides()
    with pytest.raises(AssertionError, match="stones overlap"):
        CompiledEngine(CONNECT4, Budget(), table_bits=4).solve(stone, stone)


def test_a_connect_four_search_of_stones_off_the_board_is_refused() -> None:
    off_board = 1 << (CONNECT4.columns * CONNECT4.height)
    assert not off_board & CONNECT4.board_mask
    with pytest.raises(AssertionError, match="off the board"):
        CompiledEngine(CONNECT4, Budget(), table_bits=4).solve(off_board, 0)


def test_a_gomoku_board_with_two_stones_on_one_cell_is_refused() -> None:
    board = gomoku_compiled.CompiledBoard(GOMOKU, [])
    cell = int(board.board[112])
    with pytest.raises(AssertionError, match="two stones on one cell"):
        gomoku_compiled.CompiledBoard(GOMOKU, [(cell, 1), (cell, 2)])


def test_a_gomoku_board_with_a_stone_off_the_board_or_of_no_side_is_refused() -> None:
    board = gomoku_compiled.CompiledBoard(GOMOKU, [])
    cell = int(board.board[112])
    with pytest.raises(AssertionError, match="off the board or of no side"):
        gomoku_compiled.CompiledBoard(GOMOKU, [(0, 1)])  # cell 0 is in the margin
    with pytest.raises(AssertionError, match="off the board or of no side"):
        gomoku_compiled.CompiledBoard(GOMOKU, [(cell, 3)])
