"""The Gomoku evaluation's tables (:mod:`inarow.engines.gomoku.weights`): pattern codes, the tables' file,
the evaluation they make, and their fit to Rapfi's verdicts (``bench/gomoku_fit.py``)."""

from __future__ import annotations

import random
from itertools import combinations_with_replacement
from pathlib import Path

import numpy as np
import pytest

import bench_scripts
from gomoku_oracle import random_tables
from inarow.engines.gomoku import driver, kernel, weights
from inarow.engines.gomoku.board import ORDER_MINE, ORDER_THEIRS, WEIGHTS, GomokuBoard, lines_order
from inarow.engines.gomoku.patterns import pattern
from inarow.engines.gomoku.weights import IN_USE, Tables
from inarow.rules.game import Game, Position


def test_every_set_of_four_pattern_kinds_has_a_code_of_its_own() -> None:
    sets = list(combinations_with_replacement(range(10), 4))
    codes = {weights.code(kinds) for kinds in sets}
    assert len(codes) == len(sets) == 715
    assert max(codes) < weights.CODES
    for code, kinds in weights.every_code().items():
        assert weights.code(kinds) == code and list(kinds) == sorted(kinds, reverse=True)


def test_tables_written_to_a_file_read_back_the_same(tmp_path: Path) -> None:
    tables = random_tables(5)
    tables.write(tmp_path / "tables.json", {"seed": 5})
    again = weights.read(tmp_path / "tables.json")
    assert (again.mover, again.waiter) == (tables.mover, tables.waiter)
    assert (again.waiter_wins, again.waiter_fours) == (tables.waiter_wins, tables.waiter_fours)
    assert (again.order_mine, again.order_theirs) == (tables.order_mine, tables.order_theirs)
    assert '"F3 F3 B2 -": [' in (tmp_path / "tables.json").read_text()


def test_a_tables_file_with_a_misnamed_code_or_too_few_numbers_is_refused_by_name(tmp_path: Path) -> None:
    path = tmp_path / "tables.json"
    path.write_text('{"waiter_wins": 0, "waiter_fours": 0, "codes": {"F3 F3 X9 -": [1, 2, 3, 4]}}')
    with pytest.raises(ValueError, match="'F3 F3 X9 -' is not four pattern kinds"):
        weights.read(path)
    path.write_text('{"waiter_wins": 0, "waiter_fours": 0, "codes": {"F3 F3 B2 -": [1, 2]}}')
    with pytest.raises(ValueError, match="'F3 F3 B2 -' has 2 numbers, not 4"):
        weights.read(path)


def from_scratch(board: GomokuBoard, position: Position, tables: Tables) -> int:
    """The evaluation for the side to move computed from nothing but the stones: every empty cell's
    four pattern kinds for each side, read in the tables."""
    mover = 1 if position.turn == "x" else 2
    codes: dict[int, list[int]] = {1: [], 2: []}
    wins = fours = False
    for i in board.board_cells:
        if board.cells[i]:
            continue
        for side in (1, 2):
            kinds = [pattern(board.codes[d][i], side, board.exact) for d in range(4)]
            codes[side].append(weights.code(kinds))
            if side != mover:
                four_count = sum(2 if k == 8 else 1 if k == 7 else 0 for k in kinds)
                wins = wins or four_count >= 2 or (four_count > 0 and 6 in kinds)
                fours = fours or four_count > 0
    return tables.evaluate(codes[mover], codes[3 - mover], wins, fours)


@pytest.mark.parametrize("seed", range(4))
def test_the_board_s_evaluation_is_the_tables_read_at_every_empty_cell(seed: int) -> None:
    """The Python board and the compiled one, kept up to date stone by stone, against the evaluation
    computed afresh from the cells' patterns, with random tables and with those in use."""
    rng = random.Random(seed)
    game = Game.parse("gomoku")
    for tables in (random_tables(seed), IN_USE):
        position = Position.start(game)
        board = GomokuBoard(game, tables)
        compiled = driver.CompiledBoard(game, [], tables)
        for _ in range(rng.randrange(6, 40)):
            bit = rng.choice(position.legal_bits())
            side = 1 if position.turn == "x" else 2
            after = position.play(bit)
            if after.is_over:
                break
            board.play(board.from_bit(bit), side)
            kernel.place(board.from_bit(bit), side, 1, compiled.arrays)
            position = after
        mover = 1 if position.turn == "x" else 2
        expected = from_scratch(board, position, tables)
        assert board.evaluate(mover) == expected
        assert kernel.evaluate(mover, compiled.arrays) == max(
            -kernel.EXACT + 1, min(kernel.EXACT - 1, expected)
        )


def test_the_evaluation_in_use_is_the_lines_evaluation() -> None:
    """The pattern-code tables trained on Rapfi's verdicts (and on the games' outcomes) lost their
    side-by-side matches against the lines evaluation (see ``docs/research.md``), so the evaluation in use
    is the lines', written as codes."""
    lines = bench_scripts.load("gomoku_fit").lines()
    assert (IN_USE.mover, IN_USE.waiter) == (lines.mover, lines.waiter)
    assert (IN_USE.waiter_wins, IN_USE.waiter_fours) == (lines.waiter_wins, lines.waiter_fours)
    f3, b2 = 6, 3
    worth = WEIGHTS[f3] + WEIGHTS[b2]
    assert lines_order()[weights.code((f3, b2, 0, 0))] == (ORDER_MINE * worth, ORDER_THEIRS * worth)


@pytest.mark.slow
def test_the_order_in_use_is_the_fit_by_code_of_rapfi_s_moves() -> None:
    """Refitted on the games (``bench/gomoku_order.py --write``'s fit, half a minute)."""
    order = bench_scripts.load("gomoku_order")
    samples = order.read(order.GAMES, Game.parse("gomoku"))
    fitted, _ = samples.split(len(samples) * 4 // 5)
    refit = order.fit_codes(fitted, IN_USE)
    assert (refit.order_mine, refit.order_theirs) == (IN_USE.order_mine, IN_USE.order_theirs)


@pytest.mark.slow
def test_the_order_in_use_ranks_rapfi_s_moves_in_games_it_never_saw_above_the_lines_order() -> None:
    """On the last 80 games, all in the held-out fifth of the fit."""
    order = bench_scripts.load("gomoku_order")
    samples = order.read(order.GAMES, Game.parse("gomoku"), slice(-80, None))
    assert len(samples) > 1_400
    in_use = order.table_recall(samples, IN_USE)
    lines = order.recall(samples, *order.in_use())
    three, twelve = order.RANKS.index(3), order.RANKS.index(12)  # 12: the search's width
    assert in_use[three] >= lines[three] + 0.01
    assert in_use[twelve] >= lines[twelve]


@pytest.mark.slow
def test_the_pattern_code_fit_predicts_rapfi_s_held_out_verdicts_better_than_the_lines() -> None:
    """Refitted on the saved features of the labelled positions (reading the positions takes a while: the
    next test checks the saved features are theirs)."""
    fit = bench_scripts.load("gomoku_fit")
    x, y = fit.load(fit.FEATURES)
    assert len(y) == 9941
    held = fit.held_out(y)
    w = fit.fit(x[:held], y[:held])
    lines = x[held:] @ fit.vector(fit.lines())
    mean = float(np.mean(y[:held]))
    blind = fit.cross_entropy(np.full(len(y) - held, np.log(mean / (1 - mean))), y[held:])
    assert fit.cross_entropy(lines, y[held:]) < 0.8 * blind
    assert fit.cross_entropy(x[held:] @ w, y[held:]) < 0.97 * fit.cross_entropy(lines, y[held:])
    # The fit is the lines' form plus small corrections: the code weights of a few stones stay close.
    assert (
        abs(fit.tables(w).mover[weights.code((6, 0, 0, 0))] - IN_USE.mover[weights.code((6, 0, 0, 0))]) < 2000
    )


def test_the_saved_features_are_those_of_the_first_labelled_positions(tmp_path: Path) -> None:
    fit = bench_scripts.load("gomoku_fit")
    sample = tmp_path / "labels.txt"
    sample.write_text("\n".join(fit.LABELS[0].read_text().splitlines()[:120]) + "\n")
    x, y = fit.read((sample,), Game.parse("gomoku"))
    saved_x, saved_y = fit.load(fit.FEATURES)
    assert len(y) > 50
    assert np.array_equal(saved_x[: len(y)], x) and np.array_equal(saved_y[: len(y)], y)
