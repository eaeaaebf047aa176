"""Gomoku line patterns: what one more stone on an empty cell makes along one line.

A cell's neighbourhood along one direction is the five cells on each side of it, read as a *window* of
ten cells (nearest to farthest does not matter, the order is left to right with the cell itself left out)::

    window slot   0 1 2 3 4 [cell] 5 6 7 8 9
    offset       -5-4-3-2-1   0    1 2 3 4 5

Each cell of the window is written as a base-4 digit of a *line code*: 0 empty, 1 an X stone, 2 an O
stone, 3 off the board. :func:`pattern` classifies a line code for one side, as if that side played the
cell, into one of the pattern kinds below, strongest last. Five cells on each side are exactly enough to
see a five through the cell and, under the standard rule, the stone just beyond it that makes an overline.

The kinds follow the Gomoku player's words: a *four* can become five in one way, an *open four* in two; an
*open three* can become an open four, a *closed three* only a four; and so on down to a single stone.
"""

from __future__ import annotations

from functools import cache

NONE, B1, F1, B2, F2, B3, F3, B4, F4, FIVE = range(10)
"""Pattern kinds: nothing, closed one, open one, closed two, open two, closed three, open three, four,
open four, five (B for blocked on a side, F for free)."""

SLOTS = 10
"""Cells in a window, five on each side of the cell."""

_EMPTY, _OWN, _BLOCKED = 0, 1, 2


def slot_weight(offset: int) -> int:
    """The base-4 place value of the window cell ``offset`` steps from the cell (``offset`` ±1 … ±5)."""
    slot = offset + 5 if offset < 0 else offset + 4
    return 1 << (2 * slot)


def view(code: int, side: int) -> tuple[int, ...]:
    """The line as ``side`` (1 X, 2 O) sees it: 11 cells, the middle one its own new stone, each cell 0
    empty, 1 its own stone, 2 blocked (an opponent's stone or off the board)."""
    cells = []
    for _ in range(SLOTS):
        digit = code & 3
        code >>= 2
        cells.append(_EMPTY if digit == 0 else _OWN if digit == side else _BLOCKED)
    return (*cells[:5], _OWN, *cells[5:])


def _run(line: tuple[int, ...], at: int) -> int:
    """The length of the run of own stones through ``at``."""
    start = at
    while start > 0 and line[start - 1] == _OWN:
        start -= 1
    end = at
    while end < len(line) - 1 and line[end + 1] == _OWN:
        end += 1
    return end - start + 1


@cache
def _classify(line: tuple[int, ...], exact: bool) -> int:
    run = _run(line, 5)
    if run == 5 or (run > 5 and not exact):
        return FIVE
    if run > 5:
        return NONE
    fives = 0
    best = NONE
    for i, cell in enumerate(line):
        if cell != _EMPTY:
            continue
        kind = _classify((*line[:i], _OWN, *line[i + 1 :]), exact)
        if kind == FIVE:
            fives += 1
        elif kind > best:
            best = kind
    if fives >= 2:
        return F4
    if fives == 1:
        return B4
    # One more stone makes the next kind up: an open four means this is an open three, and so on.
    return {F4: F3, B4: B3, F3: F2, B3: B2, F2: F1, B2: B1}.get(best, NONE)


@cache
def pattern(code: int, side: int, exact: bool) -> int:
    """The pattern kind ``side`` (1 X, 2 O) makes by playing the cell whose window is ``code``; with
    ``exact`` (the standard rule) an overline is no five."""
    return _classify(view(code, side), exact)
