"""The Gomoku evaluation's tables: what an empty cell is worth by its *pattern code*.

A cell's pattern code for a side names the four pattern kinds that side would make there, one a line
(see :mod:`inarow.engines.gomoku.patterns`), in no order: an open three across a closed two is one code,
two open threes another. It is the sum of the four kinds' :data:`CODE_STEPS`, which are chosen so that no
two sets of four kinds have the same sum; the board keeps each cell's sum up to date as stones come and go
(one addition a line whose kind changed), and the evaluation reads the code's worth from a table, as
Rapfi's classical evaluator reads its pattern codes' (``Evaluator`` and ``PatternConfig`` in its
``eval/`` and ``core/`` folders), with tables of inarow's own.

At a quiet node the search tries the candidate cells in the order of their *order key*: the cell's code for
the side to move read in :attr:`Tables.order_mine` plus its code for the opponent read in
:attr:`Tables.order_theirs`, and only the first few (``Style.width``).

The static worth of a position for the side to move is the sum over the empty cells of the cell's worth
to the side to move by its code for that side (:attr:`Tables.mover`) and its worth to the side that waits
by its code for that side (:attr:`Tables.waiter`), plus :attr:`Tables.waiter_wins` when the side that
waits has a cell that makes an open four or two fours (or a four and an open three) and
:attr:`Tables.waiter_fours` when it has one that makes a four. The tables in use (:data:`IN_USE`) are
read from ``evaluation.json`` beside this module (its ``about`` says where they came from): the lines
evaluation (``bench/gomoku_fit.py``'s ``LINES``) and order keys fitted by code to Rapfi's moves, written by
``bench/gomoku_order.py --write``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache, cached_property
from itertools import combinations_with_replacement
from pathlib import Path
from typing import TYPE_CHECKING, Any

from inarow.engines.gomoku.patterns import NONE

if TYPE_CHECKING:
    import numpy as np

KIND_NAMES = ("-", "B1", "F1", "B2", "F2", "B3", "F3", "B4", "F4", "F5")
"""The pattern kinds' names in the tables' file: nothing, closed one … five (B blocked, F free)."""

CODE_STEPS = (0, 1, 5, 21, 55, 153, 368, 856, 1424, 2603)
"""What each pattern kind adds to a cell's code: a greedy sequence of which no two sums of four terms are
equal (nothing adds 0, so that a cell with fewer than four lines is one with nothing on the rest)."""

CODES = 4 * CODE_STEPS[-1] + 1
"""The room a table needs: codes run from 0 (nothing on any line) to four fives."""

FILE = Path(__file__).with_name("evaluation.json")
"""The tables in use."""


def code(kinds: Iterable[int]) -> int:
    """The pattern code of a cell whose four lines make ``kinds``."""
    return sum(CODE_STEPS[kind] for kind in kinds)


@cache
def every_code() -> dict[int, tuple[int, ...]]:
    """Every pattern code with its four kinds, strongest first (one dict for every caller: read it, do
    not change it)."""
    codes = {}
    for kinds in combinations_with_replacement(range(NONE, len(CODE_STEPS)), 4):
        codes[code(kinds)] = tuple(sorted(kinds, reverse=True))
    assert len(codes) == 715, "the code steps have two sets of kinds with one sum"
    return codes


@dataclass(frozen=True, eq=False)
class Tables:
    """One evaluation: each pattern code's worth to the side to move and to the side that waits (indexed by
    code, :data:`CODES` long), the two terms of the waiting side's threats, and each code's order key for
    the side to move and for the opponent. Compared by identity (a search's transposition table is kept
    per style, tables included)."""

    mover: tuple[int, ...]
    waiter: tuple[int, ...]
    waiter_wins: int
    waiter_fours: int
    order_mine: tuple[int, ...]
    order_theirs: tuple[int, ...]

    def evaluate(
        self, mover_codes: Iterable[int], waiter_codes: Iterable[int], wins: bool, fours: bool
    ) -> int:
        """The evaluation of a position from its empty cells' codes for the side to move and for the side
        that waits, and whether the side that waits has a winning threat and a four to make."""
        value = sum(self.mover[c] for c in mover_codes) + sum(self.waiter[c] for c in waiter_codes)
        return value + (self.waiter_wins if wins else 0) + (self.waiter_fours if fours else 0)

    @cached_property
    def array(self) -> np.ndarray[Any, Any]:
        """The tables as the compiled search reads them: rows 0 and 1 the worths to the side to move and to
        the side that waits, row 2 the waiting side's two threat terms in its first two columns, rows 3 and 4
        the order keys for the side to move and for the opponent (numpy is imported here, not with the
        module: a 3×3 game never loads it)."""
        import numpy as np

        table = np.zeros((5, CODES), dtype=np.int32)
        table[0], table[1] = self.mover, self.waiter
        table[2, :2] = self.waiter_wins, self.waiter_fours
        table[3], table[4] = self.order_mine, self.order_theirs
        table.flags.writeable = False
        return table

    @classmethod
    def from_codes(
        cls, worths: dict[int, tuple[int, int, int, int]], waiter_wins: int, waiter_fours: int
    ) -> Tables:
        """The tables of each code's worths (to the side to move, to the side that waits) and order keys
        (for the side to move, for the opponent); codes left out are worth nothing."""
        columns = [[0] * CODES for _ in range(4)]
        for c, values in worths.items():
            for column, value in zip(columns, values, strict=True):
                column[c] = value
        mover, waiter, mine, theirs = (tuple(column) for column in columns)
        return cls(mover, waiter, waiter_wins, waiter_fours, mine, theirs)

    def codes(self) -> dict[int, tuple[int, int, int, int]]:
        """Each code's worths and order keys, as :meth:`from_codes` takes them."""
        return {
            c: (self.mover[c], self.waiter[c], self.order_mine[c], self.order_theirs[c]) for c in every_code()
        }

    def write(self, path: Path, about: dict[str, Any]) -> None:
        """Write the tables to ``path`` as JSON, ``about`` (where they came from) first: one line a code, its
        kinds by name, strongest first: its worths to the side to move and to the side that waits, its order
        keys for the side to move and for the opponent."""
        lines = [f'  "about": {json.dumps(about, ensure_ascii=False)},']
        lines.append(f'  "waiter_wins": {self.waiter_wins},')
        lines.append(f'  "waiter_fours": {self.waiter_fours},')
        lines.append('  "codes": {')
        entries = [
            f'    "{" ".join(KIND_NAMES[k] for k in kinds)}": '
            f"[{self.mover[c]}, {self.waiter[c]}, {self.order_mine[c]}, {self.order_theirs[c]}]"
            for c, kinds in sorted(every_code().items(), key=lambda item: item[1], reverse=True)
        ]
        lines.append(",\n".join(entries))
        lines.append("  }")
        path.write_text("{\n" + "\n".join(lines) + "\n}\n")


def read(path: Path) -> Tables:
    """The tables written to ``path`` by :meth:`Tables.write` (ValueError if a code is misnamed)."""
    data = json.loads(path.read_text())
    index = {name: kind for kind, name in enumerate(KIND_NAMES)}
    worths = {}
    for names, values in data["codes"].items():
        kinds = names.split()
        if len(kinds) != 4 or any(name not in index for name in kinds):
            raise ValueError(f"{path}: {names!r} is not four pattern kinds")
        if len(values) != 4:
            raise ValueError(f"{path}: {names!r} has {len(values)} numbers, not 4")
        mover, waiter, mine, theirs = (int(value) for value in values)
        worths[code(index[name] for name in kinds)] = (mover, waiter, mine, theirs)
    return Tables.from_codes(worths, int(data["waiter_wins"]), int(data["waiter_fours"]))


IN_USE = read(FILE)
"""The evaluation in use."""
