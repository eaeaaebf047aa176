"""Moves and positions as keyboards type them: full-width forms read as ASCII, other digits refused."""

from __future__ import annotations

import pytest

from inarow import parse_position
from inarow.base.errors import InvalidMoveError
from inarow.rules.game import Game, Position, as_typed


def test_full_width_forms_read_as_their_ascii_forms() -> None:
    assert as_typed("（２，２）") == "(2,2)"
    assert as_typed("ｂ２　ａ１") == "b2 a1"
    assert as_typed("b2、a1") == "b2,a1"


@pytest.mark.parametrize("digit", ["٥", "۵", "²", "५", "𝟓"])
def test_a_digit_other_than_0_9_or_full_width_is_refused_naming_it(digit: str) -> None:
    with pytest.raises(InvalidMoveError, match="invalid digit"):
        as_typed(f"b{digit}")


def test_every_cell_of_3x3_is_read_from_its_full_width_keypad_digit_and_row_column() -> None:
    """Each full-width keypad digit and row,column pair names the same cell as its ASCII form."""
    game = Game.parse("tictactoe")
    for digit in "123456789":
        wide = chr(ord(digit) - ord("0") + ord("０"))
        assert game.parse_cell(wide) == game.parse_cell(digit)
    for row in range(1, 4):
        for column in range(1, 4):
            wide = f"（{chr(0xFF10 + row)}，{chr(0xFF10 + column)}）"
            assert game.parse_cell(wide) == game.parse_cell(f"({row},{column})")


def test_a_full_width_column_number_plays_in_connect_four() -> None:
    start = Position.start(Game.parse("connect4"))
    assert start.play("４") == start.play("4")
    assert parse_position("４４５３", "connect4") == parse_position("4453", "connect4")


def test_a_full_width_diagram_reads_like_the_ascii_one() -> None:
    assert parse_position("ｘ．ｏ／．ｘ．／．．ｏ") == parse_position("x.o/.x./..o")
