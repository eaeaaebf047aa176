"""Pascal Pons' Connect Four test sets: how fast and how lean the exact engine is, beside his C++ solver.

Usage::

    .venv/bin/python bench/connect4.py [--sets Test_L3_R1 ...] [--sample N] [--engine compiled|reference]

Every position is solved by a fresh engine (an empty transposition table), as Pons measures; the time is that
of :meth:`solve` alone, after a warm-up that compiles (or loads) the numba code. ``--sample N`` takes the
first N lines of each set. Pons' figures are those of ``tests/data/connect4/README.md`` (his solver built
with -O3, no opening book, on this project's 2-core machine); "explored" counts calls of the negamax, which
is comparable across languages.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console
from rich.table import Table

from inarow.rules import Game, Position
from inarow.search.compiled import CompiledEngine
from inarow.search.engine import Engine
from inarow.search.limits import Budget

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "connect4"
SETS = ("Test_L3_R1", "Test_L2_R1", "Test_L2_R2", "Test_L1_R1", "Test_L1_R2", "Test_L1_R3")

PONS: dict[str, tuple[float, float, int]] = {
    # set: (mean seconds per position, mean positions explored, median explored); L1_R3: first 100 lines
    "Test_L3_R1": (6.1e-6, 51.3, 11),
    "Test_L2_R1": (53.4e-6, 449.1, 60),
    "Test_L2_R2": (6.76e-3, 39_807.5, 12_681),
    "Test_L1_R1": (0.444e-3, 3_295.5, 216),
    "Test_L1_R2": (183.7e-3, 1_187_922.8, 455_116),
    "Test_L1_R3": (9.08, 58_220_589.8, 14_690_282),
}


@dataclass
class Result:
    """What one set gave: per position, the seconds and explored positions, and how many scores were wrong."""

    name: str
    seconds: list[float]
    nodes: list[int]
    wrong: int


def sides(game: Game, moves: str) -> tuple[int, int]:
    """The bitboards (side to move, opponent) after a string of 1-based column digits."""
    position = Position.start(game)
    for digit in moves:
        position = position.play(digit)
    return position.sides()


def run_set(name: str, sample: int | None, engine: str) -> Result:
    """Solve every position of a set (or its first ``sample`` lines) with a fresh engine each."""
    game = Game.parse("connect4")
    lines = (DATA / name).read_text().splitlines()
    if sample is not None:
        lines = lines[:sample]
    seconds, nodes, wrong = [], [], 0
    for line in lines:
        moves, expected = line.split()
        cur, opp = sides(game, moves)
        budget = Budget()
        solver = CompiledEngine(game, budget) if engine == "compiled" else Engine(game, budget)
        start = time.perf_counter()
        score = solver.solve(cur, opp)
        seconds.append(time.perf_counter() - start)
        nodes.append(budget.nodes)
        wrong += score != int(expected)
    return Result(name, seconds, nodes, wrong)


def duration(seconds: float) -> str:
    """Seconds in the unit that suits them: µs, ms or s."""
    if seconds < 1e-3:
        return f"{seconds * 1e6:.1f} µs"
    if seconds < 1:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds:.2f} s"


def table(results: list[Result], engine: str, sample: int | None) -> Table:
    """The rich table of the results beside Pons' figures."""
    title = f"Pons' Connect Four test sets, {engine} engine" + (f", first {sample} lines" if sample else "")
    out = Table(title=title)
    for header in (
        "set",
        "solved",
        "wrong",
        "mean time",
        "median time",
        "Pons time",
        "time ratio",
        "mean explored",
        "median explored",
        "Pons explored",
        "explored ratio",
    ):
        out.add_column(header, justify="left" if header == "set" else "right")
    for result in results:
        pons_time, pons_nodes, _ = PONS[result.name]
        mean_time = statistics.fmean(result.seconds)
        mean_nodes = statistics.fmean(result.nodes)
        out.add_row(
            result.name,
            str(len(result.nodes)),
            str(result.wrong),
            duration(mean_time),
            duration(statistics.median(result.seconds)),
            duration(pons_time),
            f"{mean_time / pons_time:.2f}",
            f"{mean_nodes:,.1f}",
            f"{statistics.median(result.nodes):,.0f}",
            f"{pons_nodes:,.1f}",
            f"{mean_nodes / pons_nodes:.3f}",
        )
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--sets", nargs="+", choices=SETS, default=list(SETS), metavar="SET", help="sets to run"
    )
    parser.add_argument("--sample", type=int, default=None, help="only the first N lines of each set")
    parser.add_argument("--engine", choices=("compiled", "reference"), default="compiled")
    args = parser.parse_args(argv)
    console = Console(width=max(Console().width, 170))
    start = time.perf_counter()
    CompiledEngine(Game.parse("connect4"), Budget())  # compiles, or loads numba's cache
    console.print(f"warm-up (compile or load the cached code): {time.perf_counter() - start:.2f} s")
    results = []
    for name in args.sets:
        results.append(run_set(name, args.sample, args.engine))
        console.print(f"{name}: done in {sum(results[-1].seconds):.1f} s", style="dim")
    console.print(table(results, args.engine, args.sample))
    return 1 if any(result.wrong for result in results) else 0


if __name__ == "__main__":
    sys.exit(main())
