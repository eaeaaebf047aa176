"""The transposition table's probe, written once for every engine that keeps α-β bounds: Connect Four's
and the small boards' heuristic search (:mod:`inarow.engines.heuristic`), the Gomoku search in Python
(:mod:`inarow.engines.gomoku.search`) and its numba kernel (:mod:`inarow.engines.gomoku.kernel`).

An entry stores what a search of a position ``stored_depth`` plies deep proved: its value ``v`` lies in
``lower <= v <= upper`` (a fail-high stored ``lower`` and no upper bound, a fail-low the reverse; an exact
value both). :func:`probe` says whether that settles a new search of the window ``(alpha, beta)``
``depth`` plies deep, without searching.

The function is plain Python with no imports, so that the Python engines call it as it is and the kernel
compiles it with numba (``probe = njit(cache=True)(table.probe)`` in the kernel's module): one text, two
forms, and numba stays unloaded where only Python searches.
"""

from __future__ import annotations


def probe(stored_depth: int, lower: int, upper: int, depth: int, alpha: int, beta: int) -> tuple[bool, int]:
    """``(True, value)`` when the entry decides the search: it is at least as deep (``stored_depth >=
    depth``) and its bounds fail high (``lower >= beta``: ``value = lower``), fail low (``upper <= alpha``:
    ``value = upper``), or meet (``lower == upper``: the exact value). The value answers the window as the
    search would (fail-soft): ``value >= beta`` only if the true value is ``>= beta``, ``value <= alpha``
    only if it is ``<= alpha``, else it is the true value. ``(False, 0)`` when the position must be
    searched (the entry's best move may still order it first)."""
    if stored_depth < depth:
        return False, 0
    if lower >= beta:
        return True, lower
    if upper <= alpha:
        return True, upper
    if lower == upper:
        return True, lower
    return False, 0
