"""The Gomoku engine's tactics: fives, fours, threes, four-threes, double threes, VCFs of 3 to 7 fours,
VCTs through the defender's counter-fours and defence against the opponent's VCF, every position drawn,
each answer checked by reasoning (in the docstring) or by the independent checks of :mod:`gomoku_oracle`
(a VCF line; a win against every reply of the defender on the whole board). The engine gets 100,000
positions a move (:data:`SEARCH`), so that it searches the same on every machine however busy; the tests
assert what it answers, never how long it took.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

import bench_scripts
from gomoku_oracle import escapes, is_vcf, random_tables, vcf_exists, wins_against_every_reply
from inarow.engines.gomoku import board as gomoku_board
from inarow.engines.gomoku import driver as gomoku_driver
from inarow.engines.gomoku import kernel as gomoku_kernel
from inarow.engines.gomoku import search as gomoku_search
from inarow.engines.gomoku.board import GomokuBoard
from inarow.engines.gomoku.patterns import pattern
from inarow.engines.gomoku.search import GomokuSearch, Style, supports
from inarow.engines.gomoku.threats import ThreatSearch
from inarow.engines.gomoku.weights import IN_USE
from inarow.engines.limits import Budget, Limits
from inarow.engines.policy import analyze
from inarow.engines.scores import EXACT
from inarow.rules.game import Game, Position
from inarow.rules.notation import parse_position

SEARCH = Limits(nodes=100_000)
"""The tactics' budget: about a second of the quiet machine, the same search on every machine."""


@pytest.fixture(autouse=True, scope="module")
def compiled_search() -> None:
    """The tactics are played by the compiled α-β search (compiled, or loaded from numba's cache, first)."""
    gomoku_driver.warm_up()


def board(drawing: str, game: str = "9x9:5") -> Position:
    """A drawn board: rows from the top, cells separated by spaces, the row number last, a line of column
    letters under it."""
    rows = [line.split()[:-1] for line in drawing.strip().splitlines()[:-1]]
    return parse_position("/".join("".join(row) for row in rows), game)


def vct(position: Position, threats: int = 4, fours: int = 8, compiled: bool = False) -> list[str] | None:
    """The engine's VCT for the side to move (its threat search alone, without a clock; in Python or
    compiled), as cell names."""
    grid = GomokuBoard.from_position(position)
    side = 1 if position.turn == "x" else 2
    line = ThreatSearch(grid, Budget(), compiled=compiled).vct(side, threats, fours)
    return None if line is None else [position.game.cell_name(grid.to_bit(i)) for i in line]


def vct_move(threats: int = 4, fours: int = 8, compiled: bool = False) -> Callable[[Position], str | None]:
    """The first move of the engine's VCT, for :func:`gomoku_oracle.wins_against_every_reply` to check."""

    def choose(position: Position) -> str | None:
        line = vct(position, threats, fours, compiled)
        return None if line is None else line[0]

    return choose


def test_the_engine_plays_five_in_a_row_boards_too_big_for_the_exact_engines_and_every_standard_board() -> (
    None
):
    assert supports(Game.parse("gomoku"))
    assert supports(Game.parse("19x19:5"))
    assert supports(Game.parse("gomoku-standard"))
    assert supports(Game.parse("7x7:5:exact"))
    assert not supports(Game.parse("7x7:5"))  # the compiled engine solves it
    assert not supports(Game.parse("connect4"))
    assert not supports(Game.parse("15x15:4"))


def test_x_makes_five_with_its_four() -> None:
    position = board(
        """
        . . . . . . . . .   9
        . . . . . . . . .   8
        . . x x x x . . .   7
        . . . . . . . . .   6
        . . o . o . . . .   5
        . . . o . . . . .   4
        . . . . o . . . .   3
        . . . . . . . . .   2
        . . . . . . . . .   1
        a b c d e f g h i
        """
    )
    result = analyze(position, SEARCH)
    assert result.best[0] in ("b7", "g7")
    assert (result.exact, result.outcome, result.plies) == (True, "win", 1)


OPEN_THREE = """
    . . . . . . . . .   9
    . . . . . . . . .   8
    . . x x x . . . .   7
    . . . . . . . . .   6
    . . . . . . . . .   5
    . . . o . o . . .   4
    . . . . . . . . .   3
    . . . . . . . o .   2
    . . . . . . . . .   1
    a b c d e f g h i
"""
"""x's open three c7 d7 e7 on a 9×9 board, x to move: b7 or f7 makes an open four."""


def test_x_makes_an_open_four_from_its_open_three_and_wins_in_three_plies() -> None:
    """b7 or f7 makes .xxxx. with both ends empty: o blocks one end, x fills the other."""
    position = board(OPEN_THREE)
    result = analyze(position, SEARCH)
    assert result.best[0] in ("b7", "f7")
    assert (result.exact, result.outcome, result.plies) == (True, "win", 3)
    assert is_vcf(position, list(result.pv))


@pytest.mark.parametrize(
    ("drawing", "block"),
    [
        (
            """
            . . . . . . . . x   9
            . . . . . . . . .   8
            . . . . . . . . .   7
            . . . . . x . . .   6
            . . . . x . . . .   5
            . . . . . . . . .   4
            x o o o o . . . .   3
            . . . . . . . . .   2
            . . . . . . . . .   1
            a b c d e f g h i
            """,
            "f3",
        ),
        (
            """
            . . . . . . . . x   9
            . . . . . . . . .   8
            . . . . . . . . .   7
            . . . . . x . . .   6
            . . . . . . . . .   5
            . . . . . . x . .   4
            . o o . o o . . .   3
            . . . . . . . . .   2
            . . . . . . . x .   1
            a b c d e f g h i
            """,
            "d3",
        ),
        (
            """
            . . . . . . . . x   9
            . . . . x . . . .   8
            . . . . . . . . .   7
            . . . . . . . . .   6
            . . . . . . . . .   5
            . . . . . . . . .   4
            . . . . . . . . .   3
            . o o o . o . . .   2
            . . . . x . . x .   1
            a b c d e f g h i
            """,
            "e2",
        ),
        (
            """
            . . . . . . . . x   9
            . . . . . . . . .   8
            . . . . . o . . .   7
            . . . . o . . . .   6
            . . . o . . . . .   5
            . . o . . . . . .   4
            . x . . . . x . .   3
            . . . . . . . . .   2
            . . . x . . . . .   1
            a b c d e f g h i
            """,
            "g8",
        ),
    ],
    ids=["four", "split four oo.oo", "split four ooo.o", "diagonal four"],
)
def test_x_blocks_every_kind_of_four(drawing: str, block: str) -> None:
    """o threatens five on exactly one cell; any other move loses at once."""
    result = analyze(board(drawing), SEARCH)
    assert result.best == (block,)


@pytest.mark.parametrize(
    ("drawing", "blocks"),
    [
        (
            """
            . . . . . . . . x   9
            . . . . . . . . .   8
            . . . . . . . x .   7
            . . . . . . . . .   6
            . . . o o o . . .   5
            . . . . . . . . .   4
            . . . . . . . . .   3
            . x . . . . . . .   2
            . . . . . . . . .   1
            a b c d e f g h i
            """,
            {"c5", "g5"},
        ),
        (
            """
            . . . . . . . . x   9
            . . . . . . . x .   8
            . . . . . . . . .   7
            . . . . . . . . .   6
            . . o o . o . . .   5
            . . . . . . . . .   4
            . . . . . . . . .   3
            . x . . . . . . .   2
            . . . . . . . . .   1
            a b c d e f g h i
            """,
            {"b5", "e5", "g5"},
        ),
        (
            """
            . . . . . . . . .   9
            . x . . . . . . .   8
            . . . . . . . . .   7
            . . . . o . . . .   6
            . . . . . . . . .   5
            . . . . o . . . .   4
            . . . . o . . x .   3
            x . . . . . . . .   2
            . . . . . . . . .   1
            a b c d e f g h i
            """,
            {"e2", "e5", "e7"},
        ),
    ],
    ids=["open three .ooo.", "split three .oo.o.", "split three in a column"],
)
def test_x_answers_every_kind_of_open_three_on_its_line(drawing: str, blocks: set[str]) -> None:
    """Left alone, o's three becomes an open four. The answers that hold are the cells next to the three,
    and for a split three its gap: blocking one cell farther leaves room for .oooo. on the other side."""
    result = analyze(board(drawing), SEARCH)
    assert result.best[0] in blocks


def test_x_wins_with_a_four_three() -> None:
    """f3 makes the four c3-f3 (b3 is o's) and the open three f3-f5 at once: o must block g3, then f6 makes
    an open four: five plies."""
    position = board(
        """
        o . o . . . . . .   9
        . . . . . . . o o   8
        . . . . . . . . .   7
        . . . . . . . . .   6
        . . . . . x . . .   5
        . . . . . x . . .   4
        . o x x x . . . .   3
        . . . . . . . . .   2
        . . . . . . . . .   1
        a b c d e f g h i
        """
    )
    result = analyze(position, SEARCH)
    assert result.best == ("f3",)
    assert (result.exact, result.outcome, result.plies) == (True, "win", 5)
    assert is_vcf(position, list(result.pv))


def test_x_wins_with_a_double_three() -> None:
    """e5 makes two open threes, c5-e5 and e3-e5; o has no four to play, so whichever it blocks, the other
    becomes an open four: a win in five plies that needs a three, so no VCF finds it (a VCT does)."""
    position = board(
        """
        o . . . . . . . o   9
        . . . . . . . . .   8
        . . . . . . . . .   7
        . . . . . . . . .   6
        . . x x . . . . .   5
        . . . . x . . . .   4
        . . . . x . . . .   3
        . . . . . . . . .   2
        o . . . . . . . o   1
        a b c d e f g h i
        """
    )
    assert not vcf_exists(position, "x", 4)
    result = analyze(position, SEARCH)
    assert result.best == ("e5",)
    assert (result.exact, result.outcome, result.plies) == (True, "win", 5)
    assert wins_against_every_reply(position, vct_move(), 4)


COUNTER_FOUR = """
        x . . . . x . . o   9
        . . . . o . . . .   8
        . . . o . . . . .   7
        . . o o . . . . .   6
        . . x x . . . . .   5
        . . . . x . . . .   4
        . . . . x . . . .   3
        . . . . . o . . .   2
        x . . . . . . . o   1
        a b c d e f g h i
        """


def test_a_double_three_refuted_by_a_counter_four_is_not_claimed_as_a_win() -> None:
    """e5 makes two open threes, c5-e5 and e3-e5, and every answer of o on their lines loses: a VCT that
    tried only those answers would call e5 a win. But o's b5 (or a4) blocks the row and makes a four on
    the diagonal b5-e8 (f9 is x's, so a4 is its one five): x must block it, and o then blocks the
    column. The engine tries o's fours among the answers, so it claims no win, here or in the analysis."""
    position = board(COUNTER_FOUR)
    after = position.play("e5")
    assert escapes(after, "x", "o") == {"a4", "b5"}
    assert after.play("b5").winner is None and vct(after.play("b5").play("a4").play("e6")) is None
    assert vct(position) is None
    result = analyze(position, SEARCH)
    assert not (result.exact and result.outcome == "win")


@pytest.mark.parametrize("compiled", [False, True])
def test_the_double_three_refuted_by_a_counter_four_is_no_vct_in_python_nor_compiled(compiled: bool) -> None:
    """The threat search alone, in Python and compiled by numba, finds no VCT where o's counter-four
    refutes e5 (see above)."""
    assert vct(board(COUNTER_FOUR), compiled=compiled) is None


@pytest.mark.parametrize("compiled", [False, True])
def test_the_same_double_three_wins_once_o_has_no_counter_four(compiled: bool) -> None:
    """With o's e8 moved to h8, b5 is no four for o: e5 wins, against every reply on the whole board (the
    threat search in Python and compiled alike)."""
    position = board(COUNTER_FOUR.replace(". . . . o . . . .   8", ". . . . . . . o .   8"))
    assert vct(position, compiled=compiled) is not None
    result = analyze(position, SEARCH)
    assert result.best == ("e5",)
    assert (result.exact, result.outcome) == (True, "win")
    assert wins_against_every_reply(position, vct_move(compiled=compiled), 4)


@pytest.mark.slow
@pytest.mark.parametrize("compiled", [False, True])
def test_a_vct_through_the_defender_s_counter_fours_holds_against_every_reply(compiled: bool) -> None:
    """h8 makes two open threes, f8-h8 and h6-h8. o's answers that do not lose at once are its counter-four
    d5-h1 (f3 or e4): x blocks, o's next four on the diagonal f3-i6 (h5, which also blocks the column)
    is blocked at j7, and x wins on from there with threes and fours. The engine's line is checked by
    the oracle against every empty cell as o's answer at every step, not only the ones the engine tried."""
    position = board(
        """
        . . . . . . . . . . . . . . x  15
        . . . . . . . . . . . . . . .  14
        . . . . . . . . . . . . . . .  13
        . . . . . . . . . . . . . . .  12
        . . . . . . . . . . . . . . .  11
        . . . . . . . . . . . . . . .  10
        . . . . . . . . . . . . . . .   9
        . . . . . x x . . . . . . . .   8
        . . . . . . . x . . . . . . .   7
        . . x . . . . x o . . . . . .   6
        . . . o . . . . . . . . . . .   5
        . . . . . . o . . . . . . . .   4
        . . . . . . . . . . . . . . .   3
        . . . . x . o . . . . . . . .   2
        o . . . . . . o . . . . . . o   1
        a b c d e f g h i j k l m n o
        """,
        "gomoku",
    )
    after = position.play("h8")
    assert escapes(after, "x", "o") == {"e4", "f3"}
    line = vct(position, 6, 12, compiled)
    assert line is not None and line[:2] == ["h8", "f3"]
    assert wins_against_every_reply(position, vct_move(6, 12, compiled), 8)


VCFS = {
    3: """
        . . . . o . o x .   9
        . . . . . . . x .   8
        . . . . . . . . x   7
        . . x o . o . o .   6
        . x . o . x . x .   5
        . . . x . . . . .   4
        o . . . . . o . .   3
        o . . . x x . o x   2
        . . . . o x . o .   1
        a b c d e f g h i
        """,
    4: """
        . . o . . . . . .   9
        . . . . . . . . .   8
        . . . . . . . . .   7
        . o . x . . o . .   6
        . o x . . x . . .   5
        . . o . x . . x .   4
        . . . . . x . o x   3
        . . . o . . . . .   2
        o . . . x . o x .   1
        a b c d e f g h i
        """,
    5: """
        . . o . . x x . o   9
        . . . . . . . o .   8
        o . x o . . . . .   7
        . . x x . . . . .   6
        . . x . . . . x .   5
        . . o . . o . . .   4
        . x . o . . x . .   3
        . . . . x o . o .   2
        . x o . . . . . .   1
        a b c d e f g h i
        """,
    6: """
        . o o . . o . . .   9
        o . . . . . o . o   8
        . o x . x . o . .   7
        . x . o x . . . .   6
        . . . . x . x . x   5
        . . . . o . . o .   4
        x x . . . . . . .   3
        o x . . . x . x o   2
        . . . . . x x . o   1
        a b c d e f g h i
        """,
    7: """
        . . . o . . . x x   9
        . x . o . . . . .   8
        o . . x . . . . .   7
        . o o . . . . . .   6
        . . . . . x x . .   5
        o x . . . o . x .   4
        x . . . o x . o .   3
        . . o . . x . . .   2
        . . . . x . o o .   1
        a b c d e f g h i
        """,
}
"""Positions with a win by fours and none shorter, x to move; o has no VCF of its own and no four."""


@pytest.mark.parametrize("fours", sorted(VCFS))
def test_x_finds_a_vcf_of_three_to_seven_fours(fours: int) -> None:
    """The line the engine gives is checked move by move by the independent rules-only oracle: each four
    leaves one five threat, o's reply is its only block, o never has a five to make, and x ends with five."""
    position = board(VCFS[fours])
    assert not vcf_exists(position, "x", fours - 1)
    result = analyze(position, SEARCH)
    assert (result.exact, result.outcome) == (True, "win")
    assert is_vcf(position, list(result.pv))
    assert len(result.pv) == 2 * fours + 1 == result.plies


DEFENCES = [
    """
        . . . . . x o . o   9
        . . . . . . . x .   8
        . . . x o o o . .   7
        x x . x . . x o x   6
        . . . . . . . . .   5
        . . o . o x o . .   4
        . . . . x o . o .   3
        . . . . . . o . .   2
        . x x . . o . x .   1
        a b c d e f g h i
    """,
    """
        . . . . . . . . .   9
        . . o . . . . . x   8
        . o . . o . o . o   7
        o . . x . . x . .   6
        . . . . o o . . .   5
        x . . . . . . . x   4
        . . . . . o . . .   3
        x . o . x . x . x   2
        . x . o . x . x o   1
        a b c d e f g h i
    """,
    """
        . . . . . x x . .   9
        . x . . . . . . .   8
        . . o o . . . . .   7
        . . o . o . . . x   6
        . . o x . . . . o   5
        . . x x . . . . .   4
        . . . . . . . . .   3
        . . . . o . o . .   2
        . . o . x . . x .   1
        a b c d e f g h i
    """,
    """
        . . . x . x . . o   9
        . . . o x x o . .   8
        . . x . o . . o .   7
        . . . o . . . x o   6
        . . o . . o . o .   5
        . x . . . . . . .   4
        . . . . . . . o .   3
        . . x . . x x . o   2
        . . . x . x . o x   1
        a b c d e f g h i
    """,
]
"""Positions where o, if it moved, would win by fours, and x has no VCF of its own: x must break the VCF."""


@pytest.mark.parametrize("drawing", DEFENCES, ids=["1", "2", "3", "4"])
def test_x_defends_against_o_s_vcf(drawing: str) -> None:
    """The oracle confirms o's VCF, that most moves let it through, and that none is left after x's move."""
    position = board(drawing)
    assert vcf_exists(position, "o", 6)
    result = analyze(position, SEARCH)
    losing = [move for move in position.legal_moves() if vcf_exists(position.play(move), "o", 3)]
    assert len(losing) > len(position.legal_moves()) // 2
    assert not vcf_exists(position.play(result.best[0]), "o", 6)


def test_under_the_standard_rule_an_overline_is_no_five_so_x_blocks_instead() -> None:
    """x's d3 would make six in a row: a win in freestyle, nothing under the standard rule, where x must
    block o's four on row 7 instead."""
    drawing = """
        . . . . . . . . .   9
        . . . . . . . . .   8
        o o o o . . . . .   7
        . . . . . . . . .   6
        . . . . . . . . .   5
        . . . . . . . . .   4
        x x x . x x . . .   3
        . . . . . . . . .   2
        . o . . . . . . .   1
        a b c d e f g h i
        """
    freestyle = analyze(board(drawing, "9x9:5"), SEARCH)
    assert (freestyle.best, freestyle.outcome, freestyle.plies) == (("d3",), "win", 1)
    standard = analyze(board(drawing, "9x9:5:exact"), SEARCH)
    assert standard.best == ("e7",)
    assert board(drawing, "9x9:5:exact").play("d3").winner is None


def test_on_a_19_by_19_board_x_blocks_the_open_three_far_from_the_centre() -> None:
    position = parse_position("a1 r17 b19 r16 s1 r15 a19", "19x19:5")
    result = analyze(position, SEARCH)
    assert result.best[0] in ("r18", "r14")


def test_the_empty_gomoku_board_opens_in_the_centre() -> None:
    result = analyze(Position.start(Game.parse("gomoku")), Limits(nodes=50_000))
    assert result.best == ("h8",)
    assert not result.exact


# ------------------------------------------------------------------------------------ the compiled search
@pytest.mark.parametrize("exact", [False, True])
def test_the_compiled_pattern_table_classifies_lines_as_the_pattern_module_does(exact: bool) -> None:
    table = gomoku_driver.patterns(exact)
    rng = random.Random(13)
    codes = [rng.getrandbits(20) for _ in range(20_000)]
    # and lines without off-board cells, where fives, overlines and open fours are frequent
    codes += [sum(rng.choice((0, 1, 1, 2)) << 2 * slot for slot in range(10)) for _ in range(20_000)]
    for code in codes:
        for side in (1, 2):
            assert table[side, code] == pattern(code, side, exact), (code, side)


def python_board_position(board: GomokuBoard) -> Position:
    """The position of ``board``'s stones (whoever is to move)."""
    x = o = 0
    for i in board.board_cells:
        if board.cells[i]:
            bit = 1 << board.to_bit(i)
            x, o = (x | bit, o) if board.cells[i] == 1 else (x, o | bit)
    return Position(board.game, x, o)


def test_the_kernel_s_evaluation_constants_are_the_python_board_s() -> None:
    names = ["WEIGHTS", "DOUBLE_THREAT", "DOUBLE_THREE"]
    for name in names:
        assert getattr(gomoku_kernel, name) == getattr(gomoku_board, name), name


def test_the_blunder_bench_replays_the_openings_and_charges_a_move_what_the_oracle_s_verdict_fell() -> None:
    blunders = bench_scripts.load("gomoku_blunders")
    game = Game.parse("gomoku")
    for seed in range(5):
        start = blunders.opening(game, 3, random.Random(seed))
        replayed = Position.start(game)
        for bit in blunders.opening_moves(start):
            replayed = replayed.play(bit)
        assert (replayed.x, replayed.o, replayed.turn) == (start.x, start.o, "o")

    verdicts = {"h8 i9 h9": -100, "h8 i9 h9 h10": 300, "h8 i9 h9 h7": 100}

    class Oracle:  # the side to move's verdicts, as a pbrain engine gives them
        def verdict(self, moves: list[str]) -> int:
            return verdicts[" ".join(moves)]

    # O at -100 before; after h10, X stands at +300: O's move cost 200. After h7, X at +100 is O's -100.
    assert blunders.drop(Oracle(), ["h8", "i9", "h9"], "h10") == 200
    assert blunders.drop(Oracle(), ["h8", "i9", "h9"], "h7") == 0


@pytest.mark.slow
def test_the_lines_order_ranks_rapfi_s_moves_as_its_refit_does_and_above_the_hand_set_order() -> None:
    """On the first 80 of the games (the whole refit is ``bench/gomoku_order.py``'s, a minute)."""
    order = bench_scripts.load("gomoku_order")
    samples = order.read(order.GAMES, Game.parse("gomoku"), slice(None, 80))
    assert len(samples) > 1_500
    fitted, held_out = samples.split(len(samples) * 4 // 5)
    refit = order.recall(held_out, *order.best_fit(fitted))
    in_use = order.recall(held_out, *order.in_use())
    weights, double, double_three, mine, theirs = order.HAND_SET
    hand_set = order.recall(held_out, order.weights_of(weights, double, double_three), mine, theirs)
    twelve = order.RANKS.index(12)  # the search's width
    assert in_use[twelve] >= refit[twelve] - 0.01
    assert in_use[twelve] >= hand_set[twelve] + 0.02
    # The weights are a likelihood fit: the engine's own moves rank first far more often than chance.
    assert in_use[0] > 0.2


@pytest.mark.parametrize(("name", "tables"), [("gomoku", None), ("gomoku-standard", 1), ("19x19:5", 2)])
def test_the_compiled_board_keeps_the_worth_and_threat_cells_of_the_python_board_through_play_and_undo(
    name: str, tables: int | None
) -> None:
    """With the tables in use, and with random tables (the kernel reads the tables it is given)."""
    game = Game.parse(name)
    evaluation = IN_USE if tables is None else random_tables(tables)
    python_board = GomokuBoard(game, evaluation)
    rng = random.Random(name)
    cells = list(python_board.board_cells)
    rng.shuffle(cells)
    stones = [(i, 1 + number % 2) for number, i in enumerate(cells[:70])]
    for i, side in stones[:40]:
        python_board.play(i, side)
    compiled = gomoku_driver.CompiledBoard(game, stones[:40], evaluation)

    def same() -> None:
        fresh = GomokuBoard.from_position(python_board_position(python_board), evaluation)
        for side in (1, 2):
            assert compiled.state[gomoku_kernel.S_WORTH + 2 * side] == python_board.mover_total[side]
            assert compiled.state[gomoku_kernel.S_WORTH + 2 * side + 1] == python_board.waiter_total[side]
            assert gomoku_kernel.evaluate(side, compiled.arrays) == python_board.evaluate(side)
            assert python_board.evaluate(side) == fresh.evaluate(side)
            for i in python_board.board_cells:
                flags = int(compiled.flags[side, i])
                assert compiled.value[side, i] == python_board.value[side][i]
                assert bool(flags & 1) == (i in python_board.fives[side])
                assert bool(flags & 2) == (i in python_board.fours[side])
                assert bool(flags & 4) == (i in python_board.wins[side])
                assert bool(flags & 8) == (i in python_board.threes[side])

    same()
    for i, side in stones[40:]:
        python_board.play(i, side)
        gomoku_kernel.place(i, side, 1, compiled.arrays)
    same()
    for i, side in reversed(stones[20:]):
        python_board.undo()
        gomoku_kernel.place(i, side, -1, compiled.arrays)
    same()


def test_without_threat_search_the_alpha_beta_search_makes_the_open_four_that_wins() -> None:
    """No VCF or VCT at the root: the α-β search alone sees that b7 or f7 makes an open four, a win two
    plies later, and plays it; a win α-β finds is not called proven."""
    position = board(OPEN_THREE)
    style = Style(vcf=False, vct=False, max_depth=4)
    found = GomokuSearch(position.game, Budget(Limits(nodes=500_000)), style).run(position)
    assert position.game.cell_name(found.best) in ("b7", "f7")
    assert found.value >= EXACT
    assert (found.proven, found.reason) == (False, "search")


LABELLED = Path(__file__).parent / "data" / "gomoku" / "rapfi-labels.txt"

PINNED_STYLES = {
    "everything": Style(fresh=True, max_depth=6),
    "plain": Style(fresh=True, vct=False, quiescence=False, lmr=False, prune=0, max_depth=4),
    "no threats, every depth": Style(fresh=True, vcf=False, vct=False, step=1, max_depth=5),
}
"""Three ways through the kernel: the quiescence search, LMR by the table and move-count pruning; the short
VCF at the horizon and the fixed reductions; α-β alone at odd and even depths."""

PINNED_SEARCHES = {
    # label line: {style: (nodes, best, value, depth)}, from main before the kernel's arrays were named
    5: {
        "everything": (16847, "i7", 6816, 6),
        "plain": (1523, "l7", 6341, 4),
        "no threats, every depth": (2905, "i4", 9388, 5),
    },
    155: {
        "everything": (8466, "g11", 2232, 6),
        "plain": (927, "f9", -755, 4),
        "no threats, every depth": (2224, "f7", 3997, 5),
    },
    305: {
        "everything": (2643, "b7", 883, 6),
        "plain": (749, "b7", 1432, 4),
        "no threats, every depth": (574, "b7", 698, 5),
    },
    455: {
        "everything": (158, "j13", -54 * EXACT, 0),
        "plain": (116, "j13", -54 * EXACT, 0),
        "no threats, every depth": (20, "j13", -54 * EXACT, 1),
    },
    605: {
        "everything": (7615, "i5", -93 * EXACT, 6),
        "plain": (7170, "i5", -28509, 4),
        "no threats, every depth": (2584, "d5", -29298, 5),
    },
}
"""What the compiled search finds on five labelled positions (every 150th line from the sixth), each
style from an empty table: the nodes must not change when the kernel changes shape, only when its search
does (then record them anew, and say why in the commit)."""

PINNED_THREATS = {
    # label line: the compiled VCF (8 fours, 5,000 nodes) and VCT (4 threats, 5,000 nodes) of X, then O
    5: [(None, 0), (None, 5011), (None, 0), (None, 735)],
    155: [(None, 0), (None, 0), (None, 0), (None, 1801)],
    305: [(["b7"], 0), (["b7"], 0), (None, 0), (None, 3)],
    455: [(None, 0), (None, 42), (["j13", "g10", "l15"], 1), (["j13", "g10", "l15"], 1)],
    605: [(["d5", "c4", "h9"], 1), (["d5", "c4", "h9"], 1), (None, 48), (None, 616)],
}


def _labelled(line: int) -> Position:
    position = Position.start(Game.parse("gomoku"))
    for name in LABELLED.read_text().splitlines()[line].split("\t")[0].split():
        position = position.play(position.move_bit(name))
    return position


@pytest.mark.parametrize("line", sorted(PINNED_SEARCHES))
def test_the_compiled_search_explores_the_same_nodes_on_the_pinned_positions(line: int) -> None:
    position = _labelled(line)
    game = position.game
    for name, style in PINNED_STYLES.items():
        gomoku_driver.forget()
        found = GomokuSearch(game, Budget(Limits(nodes=400_000)), style).run(position)
        assert (found.nodes, game.cell_name(found.best), found.value, found.depth) == PINNED_SEARCHES[line][
            name
        ]
    grid = GomokuBoard.from_position(position)
    compiled = gomoku_driver.CompiledBoard(game, [(i, grid.cells[i]) for i in grid.history])
    threats = []
    for side in (1, 2):
        for cells, nodes in (compiled.vcf(side, 8, 5_000), compiled.vct(side, 4, 8, 5_000)):
            names = None if cells is None else [game.cell_name(grid.to_bit(i)) for i in cells]
            threats.append((names, nodes))
    assert threats == PINNED_THREATS[line]


# ------------------------------------------------------------------------------ rules, players, review
@pytest.mark.parametrize(
    ("name", "canonical"),
    [
        ("gomoku-standard", "gomoku-standard"),
        ("15x15:5:exact", "gomoku-standard"),
        ("9x9:5:exact", "9x9:5:exact"),
    ],
)
def test_the_standard_rule_is_chosen_by_the_game_name_and_named_back(name: str, canonical: str) -> None:
    game = Game.parse(name)
    assert game.exact and game.k == 5
    assert game.name == canonical and Game.parse(game.name) == game
    assert Game.parse("gomoku").name == "gomoku" and not Game.parse("gomoku").exact


def test_six_in_a_row_wins_freestyle_and_not_the_standard_rule() -> None:
    moves = "a1 a15 b1 b15 c1 c15 e1 e15 f1 f15 d1"
    assert parse_position(moves, "gomoku").winner == "x"
    assert parse_position(moves, "gomoku-standard").winner is None
    assert parse_position("a1 a15 b1 b15 c1 c15 d1 d15 e1", "gomoku-standard").winner == "x"


@pytest.mark.parametrize(
    ("moves", "note", "expected"),
    [
        ("h8 a1 i8 a2 j8 a3 k8 a4", "five", {"g8", "l8"}),
        ("h8 a1 i8 a2 j8 a3 b10 a4", "block four", {"a5"}),
        ("h8 a1 i8 b2 j8 o15", "open four or four-three", {"g8", "k8"}),
        ("a1 h8 a3 i8 o15 j8", "block open three", {"g8", "k8", "f8", "l8"}),
    ],
)
def test_the_threat_player_follows_its_rules_of_thumb(moves: str, note: str, expected: set[str]) -> None:
    import random

    from inarow.play.players import player

    choice = player("threats").choose(parse_position(moves, "gomoku"), random.Random(1))
    assert (choice.note.rule, choice.move in expected) == (note, True)


def test_every_level_blocks_a_four_on_a_gomoku_board_and_easy_may_play_anywhere_near() -> None:
    import random

    from inarow.play.players import player

    position = parse_position("a1 h8 a3 i8 o15 j8 o1 k8", "gomoku")
    for level in ("medium", "hard", "perfect"):
        assert player(level, 0.5).choose(position, random.Random(1)).move in ("g8", "l8")
    easy = player("easy", 0.5).choose(position, random.Random(2))
    assert easy.note.kind == "random" and easy.move in position.legal_moves()


def test_a_review_marks_letting_an_open_three_become_a_forced_win() -> None:
    """x has the open three h8-j8; o plays b2, far away: x's open four wins by force."""
    from inarow.sessions.review import review_move

    before = parse_position("h8 a1 i8 a2 j8", "gomoku")
    reviewed = review_move(before, "b2", "human", 0.5)
    assert reviewed.mistake and reviewed.verdict == "let the opponent's forced win through"
    blocked = review_move(before, "k8", "human", 0.5)
    assert not blocked.mistake and blocked.verdict == ""


def test_a_review_marks_a_proven_win_let_go() -> None:
    """x has four in a row (h8-k8, g8 blocked): playing anywhere but l8 lets the win go."""
    from inarow.sessions.review import review_move

    before = parse_position("h8 g8 i8 a1 j8 a2 k8 a3", "gomoku")
    missed = review_move(before, "c12", "human", 0.5)
    assert missed.mistake and missed.verdict == "let a proven win go"
    assert not review_move(before, "l8", "human", 0.5).mistake


def test_a_review_marks_a_move_that_drops_the_evaluation_by_more_than_the_margin() -> None:
    """o answers x's two stones in the centre with a move in the corner: no forced win yet for x, but the
    evaluation falls by far more than the margin."""
    from inarow.engines.gomoku.analyst import MISTAKE_MARGIN, judge

    before = parse_position("h8 h9 i8", "gomoku")
    first = analyze(before, Limits(nodes=50_000))
    judgement = judge(before, "a1", first, 0.5)
    assert judgement.kind == "dropped" and judgement.best - judgement.played > MISTAKE_MARGIN
    assert judge(before, first.best[0], first, 0.5).kind is None


def _middle_game(seed: int, plies: int) -> Position:
    """A seeded middle game: ``plies`` moves of the reference player from three random central stones,
    none of them over."""
    from inarow.play.players import player

    game = Game.parse("gomoku")
    rng = random.Random(seed)
    position = Position.start(game)
    centre = [game.bit(7 + dc, 7 + dr) for dc in range(-2, 3) for dr in range(-2, 3)]
    for bit in rng.sample(centre, 3):
        position = position.play(bit)
    reference = player("threats")
    for _ in range(plies):
        after = position.play(reference.choose(position, rng).move)
        if after.is_over:
            break
        position = after
    return position


def test_while_the_kernels_compile_a_search_plays_the_static_order_at_depth_0(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Before the kernels are compiled (the first search after an install), a search does not wait for the
    compiler: with no threat on the board it plays the candidate its static order ranks first (the most
    points for the mover and against the opponent, ties in board order), valued by the static evaluation
    at depth 0, and not called proven."""
    monkeypatch.setattr(gomoku_search, "compiled_ready", lambda: False)
    position = parse_position("h8 h9 i8", "gomoku")
    grid = GomokuBoard.from_position(position)
    mine, theirs = grid.value[2], grid.value[1]  # o to move
    first = min(grid.candidates, key=lambda i: (-4 * mine[i] - 3 * theirs[i], i))
    found = GomokuSearch(position.game, Budget(Limits(depth=8)), Style(max_depth=8)).run(position)
    assert (found.best, found.depth, found.reason, found.proven) == (grid.to_bit(first), 0, "search", False)
    assert found.value == grid.evaluate(2)
    assert found.pv == (found.best,)


def test_while_the_kernels_compile_a_search_still_proves_a_vcf_with_its_python_threat_search(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The root's threat search runs in Python until the kernels are compiled: a VCF on the board is found
    and proven as the compiled engine proves it (the oracle checks the line)."""
    position = board(VCFS[3])
    monkeypatch.setattr(gomoku_search, "compiled_ready", lambda: False)
    found = GomokuSearch(position.game, Budget(Limits(nodes=50_000)), Style()).run(position)
    assert (found.proven, found.reason, found.depth) == (True, "vcf", 0)
    assert is_vcf(position, [position.game.cell_name(b) for b in found.pv])


def test_the_compiled_search_keeps_its_table_from_one_search_to_the_next_of_the_same_kind() -> None:
    """A second search of the same position with the same style starts from the first one's table (fewer
    nodes to the same depth and the same value); after ``forget`` it starts afresh (as many nodes)."""
    position = _middle_game(2, 6)
    style = Style(max_depth=6, vcf=False, vct=False)

    def search() -> tuple[int, int]:
        found = GomokuSearch(position.game, Budget(), style).run(position)
        return found.nodes, found.value

    gomoku_driver.forget()
    first = search()
    again = search()
    assert again[1] == first[1] and again[0] < first[0]
    gomoku_driver.forget()
    assert search() == first


def _quiesce(position: Position, fours: int) -> tuple[int, int]:
    """The horizon's quiescence value of ``position`` for the side to move with the whole window and at
    most ``fours`` fours (the kernel's), and the nodes it took."""
    side = 1 if position.turn == "x" else 2
    grid = GomokuBoard.from_position(position)
    board = gomoku_driver.CompiledBoard(position.game, [(i, grid.cells[i]) for i in grid.history])
    board.state[gomoku_kernel.S_LIMIT] = 1 << 62
    window = gomoku_kernel.INFINITY
    value = gomoku_kernel.quiesce(
        side, -window, window, fours, -1, 0, board.arrays, board.board, board.buffers
    )
    return int(value), int(board.state[gomoku_kernel.S_NODES])


@pytest.mark.parametrize("fours", sorted(VCFS))
def test_the_horizon_s_quiescence_search_wins_by_a_vcf_only_when_given_enough_fours(fours: int) -> None:
    """At the horizon, the quiescence search over the side to move's fours values each VCF position as a
    win once it may play all the fours of the shortest VCF but its last (the oracle says none is shorter),
    which makes two fives at once (an open four or a double four: a win on the board, as at every node),
    and as no win with one four fewer."""
    position = board(VCFS[fours])
    assert not vcf_exists(position, "x", fours - 1)
    for allowed in (fours - 2, fours - 1):
        value, _ = _quiesce(position, allowed)
        assert (value >= EXACT) == (allowed == fours - 1)


@pytest.mark.parametrize("seed", range(6))
def test_the_quiescence_search_never_values_a_middle_game_below_its_static_evaluation(seed: int) -> None:
    """The side to move may always stand pat: the quiescence value is at least the static evaluation (no
    four of the opponent being on the board)."""
    position = _middle_game(seed, 6 + seed)
    grid = GomokuBoard.from_position(position)
    side = 1 if position.turn == "x" else 2
    value, _ = _quiesce(position, 8)
    if not grid.fives[3 - side]:
        assert value >= min(EXACT - 1, grid.evaluate(side))


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(8))
def test_the_compiled_vct_finds_the_python_vct_s_line_in_middle_games(seed: int) -> None:
    """The VCT compiled by numba is the Python threat search's algorithm: in seeded middle games, for
    both sides, both find the same line, or both none, within 20,000 nodes."""
    position = _middle_game(seed, 6 + 2 * seed)
    for side in (1, 2):
        lines = [
            ThreatSearch(GomokuBoard.from_position(position), Budget(), compiled=compiled).vct(
                side, 4, 8, 20_000
            )
            for compiled in (False, True)
        ]
        assert lines[0] == lines[1]


def test_a_late_move_reduction_is_at_least_a_ply_and_always_leaves_one() -> None:
    """Every depth and move number the compiled search reads from its table (both up to 63): a reduction
    is at least a ply, leaves at least one, and grows with the depth and with the move number."""
    table = gomoku_kernel.lmr_table(2.0)
    for depth in range(2, 64):
        for number in range(64):
            assert 1 <= table[depth, number] <= depth - 1
            assert number == 0 or table[depth, number] >= table[depth, number - 1]
            assert depth == 2 or table[depth, number] >= table[depth - 1, number]


def test_move_count_pruning_keeps_more_moves_the_deeper_the_node() -> None:
    """The counts grow with the depth as the base plus the depth to the power (3 + d² here), so the
    nodes just above the horizon are pruned most."""
    counts = gomoku_kernel.prune_counts(3, 2.0)
    assert [int(c) for c in counts[:5]] == [3, 4, 7, 12, 19]
    assert all(counts[d] <= counts[d + 1] for d in range(len(counts) - 1))


@pytest.mark.parametrize("seed", range(4))
def test_move_count_pruning_searches_fewer_nodes_and_changes_nothing_once_its_counts_reach_the_width(
    seed: int,
) -> None:
    """In seeded middle games at depth 6: pruning with counts that reach the width (no quiet move is
    ever late enough) searches exactly what the search without it does, and the pruning in use searches
    fewer nodes."""
    position = _middle_game(seed, 8 + seed)

    def search(prune: int) -> tuple[int, int, int]:
        style = Style(max_depth=6, vcf=False, vct=False, prune=prune, fresh=True)
        found = GomokuSearch(position.game, Budget(Limits(depth=6)), style).run(position)
        return found.nodes, found.value, found.best

    off = search(0)
    assert search(Style().width) == off
    assert search(Style().prune)[0] < off[0]


def test_the_compiled_table_refuses_an_entry_whose_fields_two_threads_wrote() -> None:
    """An entry is found with the key and generation it was stored with, and gives back what was stored
    (negative bounds and no move included); an entry one of whose fields another write changed, as two
    search threads writing one slot at once may leave it, is not found, nor one of another generation."""
    table = gomoku_driver.new_table(4)
    key = np.uint64(0x1234_5678_9ABC_DEF0)
    gomoku_kernel._store(table, 1, key, 7, 6, -gomoku_kernel.INFINITY, -3500, -1)
    assert gomoku_kernel._entry(table, 1, key, 7) == (True, 6, -gomoku_kernel.INFINITY, -3500, -1)
    assert not gomoku_kernel._entry(table, 1, key, 8)[0]
    assert not gomoku_kernel._entry(table, 1, key ^ np.uint64(1), 7)[0]
    for field, torn in ((1, 4), (2, -3400), (3, -3400), (4, 40)):
        copy = gomoku_kernel.Table(*(array.copy() for array in table))
        copy[field][1] = torn
        assert not gomoku_kernel._entry(copy, 1, key, 7)[0]


def test_a_search_limited_by_time_alone_has_a_helper_thread_and_counts_its_nodes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With a time limit and two threads, a helper thread searches beside the main search (and its
    nodes are counted in the result's); with a node limit there is none, and the search is the same with
    one thread or two (the same move, value and nodes)."""
    position = _middle_game(3, 10)
    helped: list[int] = []
    stop = gomoku_driver._Helper.stop

    def spy(helper: gomoku_driver._Helper) -> int:
        helped.append(stop(helper))
        return helped[-1]

    monkeypatch.setattr(gomoku_driver._Helper, "stop", spy)
    two = Style(threads=2, vct=False)
    found = GomokuSearch(position.game, Budget(Limits(time=0.5)), two).run(position)
    if (os.cpu_count() or 1) >= 2:
        assert len(helped) == 1 and helped[0] > 0 and found.nodes > helped[0]
    assert found.best in position.legal_bits()
    helped.clear()

    def by_nodes(threads: int) -> gomoku_search.GomokuResult:
        gomoku_driver.forget()
        budget = Budget(Limits(nodes=30_000))
        return GomokuSearch(position.game, budget, replace(two, threads=threads)).run(position)

    one, two_threads = by_nodes(1), by_nodes(2)
    assert helped == []
    assert (one.best, one.value, one.nodes) == (two_threads.best, two_threads.value, two_threads.nodes)


def test_against_a_vct_the_root_keeps_the_mover_s_own_open_threes_as_defences() -> None:
    """A middle game of inarow against Rapfi: o would win by a VCT were it to move, and the cells of its
    line and its threats all lose for x (the search called the position lost and played l9, which lost).
    x's k8 makes an open three on the diagonal i6–j7–k8, which o must answer: it is one of the root's
    defences, and the search no longer finds the position lost (Rapfi at 3,000,000 nodes rates it +207
    for x, with k8)."""
    position = Position.start(Game.parse("gomoku"))
    for move in ["j7", "f8", "j8", "j9", "k7", "i8", "h7", "i7", "i6", "i9", "f9", "g8"]:
        position = position.play(move)
    search = GomokuSearch(position.game, Budget(Limits(nodes=400_000)))
    search.board = GomokuBoard.from_position(position)
    search.threats = ThreatSearch(search.board, search.budget)
    k8 = search.board.from_bit(position.game.bit(10, 7))
    assert k8 in search.board.threes[1]
    assert k8 in search._threat_defence(1, 0)
    found = GomokuSearch(position.game, Budget(Limits(nodes=400_000))).run(position)
    assert abs(found.value) < EXACT


def test_the_match_bench_splits_the_first_player_s_points_by_colour(
    capsys: pytest.CaptureFixture[str],
) -> None:
    bench = bench_scripts.load("gomoku")
    row = bench.run(("medium", "random"), "gomoku", 4, 0.05, 1, 3, False)
    t = row.tally
    assert t.games == 4
    assert row.as_x + row.as_o == t.wins + t.draws / 2
    assert 0 <= row.as_x <= 2 and 0 <= row.as_o <= 2
    assert f"| {row.as_x:g} / {row.as_o:g} of 2 |" in capsys.readouterr().out
