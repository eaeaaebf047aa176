"""The transposition table's probe answers a window only when the stored bounds decide it, and then as the
search would; numba compiles the same text for the kernels."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import cast

from numba import njit

from inarow.engines.table import probe

VALUES = range(-3, 4)


def answers(value: int, true: int, alpha: int, beta: int) -> bool:
    """Whether ``value`` is a right fail-soft answer of the window for a position worth ``true``."""
    if true >= beta:
        return value >= beta
    if true <= alpha:
        return value <= alpha
    return value == true


def test_a_decided_probe_answers_right_for_every_value_the_bounds_allow() -> None:
    """Exhaustive over bounds and windows in -3..3: every true value within the stored bounds gets a right
    answer from the value the probe returns."""
    for lower, upper, alpha, beta in itertools.product(VALUES, repeat=4):
        if lower > upper or alpha >= beta:
            continue
        decided, value = probe(2, lower, upper, 2, alpha, beta)
        if decided:
            assert all(answers(value, true, alpha, beta) for true in range(lower, upper + 1))


def test_the_probe_declines_only_when_no_answer_would_do() -> None:
    """When it declines, the bounds allow two true values that no one value answers rightly: the position
    must be searched."""
    for lower, upper, alpha, beta in itertools.product(VALUES, repeat=4):
        if lower > upper or alpha >= beta:
            continue
        decided, _ = probe(2, lower, upper, 2, alpha, beta)
        if not decided:
            trues = range(lower, upper + 1)
            candidates = range(-5, 6)
            assert not any(all(answers(v, true, alpha, beta) for true in trues) for v in candidates)


def test_a_shallower_entry_decides_nothing_and_a_deeper_one_does() -> None:
    assert probe(1, 3, 3, 2, -5, 5) == (False, 0)
    assert probe(3, 3, 3, 2, -5, 5) == (True, 3)
    assert probe(2, 4, 9, 2, -5, 3) == (True, 4)
    assert probe(2, -9, -6, 2, -5, 3) == (True, -6)


def test_numba_compiles_the_same_probe() -> None:
    compiled = cast("Callable[..., tuple[bool, int]]", njit()(probe))
    for case in itertools.product((1, 2), VALUES, VALUES, (2,), VALUES, VALUES):
        _, lower, upper, _, alpha, beta = case
        if lower <= upper and alpha < beta:
            assert compiled(*case) == probe(*case)
