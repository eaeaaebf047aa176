"""Engine benchmark: the 3×3 full table, the 4×4 empty board, the cost of a compiled engine, how soon a
time limit stops a search, and Pons' easy Connect Four sets.

    .venv/bin/python bench/engine.py [--repeat 5] [--sample 1000]

Prints one table: for each task the positions explored, the time (median of the repeats, or the mean per
position for the test sets) and, where a published figure exists, that figure and our ratio to it. The
reference engine is the pure-Python one; the compiled engine (numba) is timed after a warm-up call.
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from rich.console import Console
from rich.table import Table

from inarow import Game, Limits, analyze, parse_position
from inarow.engines.exact import compiled
from inarow.engines.exact.reference import Engine
from inarow.engines.limits import Budget, SearchAborted
from inarow.rules.census import census

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "connect4"
PONS = {"Test_L3_R1": (6.1e-6, 51.3), "Test_L2_R1": (53.4e-6, 449.1)}
"""Pons' C++ solver on this kind of machine: mean seconds and positions explored per position."""


def timed(task: Callable[[], int], repeat: int) -> tuple[float, int]:
    """The median seconds of ``repeat`` runs and what the last run returned (positions explored)."""
    times, count = [], 0
    for _ in range(repeat):
        start = time.perf_counter()
        count = task()
        times.append(time.perf_counter() - start)
    return statistics.median(times), count


def solve_empty(game: Game, engine: str) -> Callable[[], int]:
    def task() -> int:
        budget = Budget()
        solver: Engine | compiled.CompiledEngine = Engine(game, budget)
        if engine != "reference":
            solver = compiled.CompiledEngine(game, budget, fresh=True)
        solver.solve(0, 0)
        return budget.nodes

    return task


def make_engine(game: Game) -> Callable[[], int]:
    """Making a compiled engine after the first (it shares the process's table): 1,000 of them per run."""

    def task() -> int:
        for _ in range(1000):
            compiled.CompiledEngine(game, Budget())
        return 0

    return task


def overshoot(game: Game, seconds: float) -> float:
    """How long a compiled search of the empty board, limited to ``seconds``, takes to raise SearchAborted."""
    budget = Budget(Limits(time=seconds))
    with contextlib.suppress(SearchAborted):
        compiled.CompiledEngine(game, budget, fresh=True).solve(0, 0)
    return budget.elapsed


def test_set(name: str, sample: int, engine: str) -> tuple[float, float, int, int]:
    """Mean seconds and positions explored per position, positions solved, scores wrong."""
    game = Game.parse("connect4")
    lines = (DATA / name).read_text().splitlines()[:sample]
    total_time, total_nodes, wrong = 0.0, 0, 0
    for line in lines:
        moves, score = line.split()
        position = parse_position(moves, game)
        cur, opp = position.sides()
        budget = Budget()
        solver: Engine | compiled.CompiledEngine = Engine(game, budget)
        if engine != "reference":
            solver = compiled.CompiledEngine(game, budget, fresh=True)
        start = time.perf_counter()
        value = solver.solve(cur, opp)
        total_time += time.perf_counter() - start
        total_nodes += budget.nodes
        wrong += value != int(score)
    return total_time / len(lines), total_nodes / len(lines), len(lines), wrong


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--repeat", type=int, default=5, help="runs of each timed task (the median is shown)")
    parser.add_argument("--sample", type=int, default=1000, help="positions of each Connect Four set")
    args = parser.parse_args()
    tictactoe, four = Game.parse("tictactoe"), Game.parse("4x4")
    engines = ["reference"] + (["compiled"] if compiled.supports(four) else [])
    if "compiled" in engines:  # pay numba's compilation (or cache load) before timing
        analyze(parse_position("", "connect4"), Limits(nodes=1000))
        compiled.CompiledEngine(four, Budget(), fresh=True).solve(0, 0)

    table = Table(title="inarow engine benchmark", header_style="bold")
    for column in ("task", "engine", "positions", "time", "target / published", "ratio"):
        table.add_column(column, justify="left" if column in ("task", "engine") else "right")

    seconds, _ = timed(lambda: census(tictactoe, symmetry=False).positions, args.repeat)
    positions = census(tictactoe, symmetry=False).positions
    table.add_row(
        "3×3 full table: every position's value, game counts",
        "reference",
        f"{positions:,}",
        f"{seconds * 1e3:.1f} ms",
        "30 ms (easyAI/OpenSpiel 125–140 ms)",
        f"{seconds / 0.030:.2f}",
    )
    seconds, _ = timed(lambda: census(tictactoe, symmetry=True).positions, args.repeat)
    table.add_row(
        "3×3 full table with symmetry classes",
        "reference",
        f"{positions:,}",
        f"{seconds * 1e3:.1f} ms",
        "",
        "",
    )
    for engine in engines:
        seconds, nodes = timed(solve_empty(tictactoe, engine), args.repeat)
        table.add_row("3×3 empty board, exact", engine, f"{nodes:,}", f"{seconds * 1e3:.2f} ms", "", "")
    for engine in engines:
        seconds, nodes = timed(solve_empty(four, engine), max(1, args.repeat // 2))
        table.add_row(
            "4×4 (k=4) empty board, exact",
            engine,
            f"{nodes:,}",
            f"{seconds * 1e3:.0f} ms",
            "1 s (easyAI 18 s)",
            f"{seconds / 1.0:.2f}",
        )
    if "compiled" in engines:
        connect4 = Game.parse("connect4")
        seconds, _ = timed(make_engine(connect4), args.repeat)
        table.add_row(
            "a Connect Four engine after the first (shares the table)",
            "compiled",
            "",
            f"{seconds * 1e3:.1f} µs",
            "a few µs (README)",
            "",
        )
        stops = statistics.median(overshoot(connect4, 0.2) for _ in range(args.repeat))
        table.add_row(
            "empty Connect Four board, time limit 0.2 s: until SearchAborted",
            "compiled",
            "",
            f"{stops:.3f} s",
            "0.2 s + one slice (0.1 s)",
            f"{stops / 0.2:.2f}",
        )
    for name, (pons_time, pons_nodes) in PONS.items():
        for engine in engines:
            mean_time, mean_nodes, solved, wrong = test_set(name, args.sample, engine)
            table.add_row(
                f"{name}: mean per position ({solved} solved, {wrong} wrong)",
                engine,
                f"{mean_nodes:,.1f} (Pons {pons_nodes:,.1f}, ×{mean_nodes / pons_nodes:.2f})",
                f"{mean_time * 1e3:.3f} ms",
                f"50 ms; Pons C++ {pons_time * 1e6:.1f} µs",
                f"×{mean_time / pons_time:,.0f} Pons",
            )
    Console(width=170).print(table)


if __name__ == "__main__":
    main()
