"""Nodes and time of the textbook searches and the engine on a few positions, as tables.

Run: ``.venv/bin/python bench/compare.py [--nodes N]``. Speed is measured here, never asserted in tests.
"""

from __future__ import annotations

import argparse

from inarow.rules.notation import parse_position
from inarow.teaching.explain import compare_algorithms

POSITIONS = (
    ("tictactoe", "", None),
    ("tictactoe", "x../.o./...", None),
    ("tictactoe", "", 4),
    ("4x4", "b2 c3 b3 b1", None),
    ("4x4", "", 4),
    ("5x5", "c3 b2", 3),
    ("4x4:4:gravity", "2332", 6),
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--nodes", type=int, default=1_000_000, help="node limit per algorithm")
    arguments = parser.parse_args()
    for game, position, depth in POSITIONS:
        report = compare_algorithms(parse_position(position, game), depth, max_nodes=arguments.nodes)
        print(f"\n{game} {position or '(empty)'}, depth {report.depth}")
        print(f"{'algorithm':<26}{'nodes':>14}{'seconds':>10}{'b*':>7}  value")
        for row in report.rows:
            nodes = f"{row.nodes:,}" if row.complete else f">{row.nodes:,}"
            branching = "" if row.branching is None else f"{row.branching:.2f}"
            print(f"{row.label:<26}{nodes:>14}{row.seconds:>10.3f}{branching:>7}  {row.value_text()}")


if __name__ == "__main__":
    main()
