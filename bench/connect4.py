"""Pascal Pons' Connect Four test sets: how fast and how lean the exact engine is, beside his C++ solver.

Usage::

    .venv/bin/python bench/connect4.py [--sets Test_L3_R1 ...] [--sample N] [--table fresh|kept|both]
                                       [--pons PATH] [--follow-ups N]

What is measured: the CPU time of the solve alone (``time.thread_time`` around :meth:`CompiledEngine.solve`,
Python wrapper included: on a loaded machine wall time runs 2-3× CPU time), and the positions explored
(calls of the negamax, comparable across languages). The sets are interleaved: position 1 of every set,
then position 2 of every set, and so on, so that a change of load on the machine touches every set alike.
``--sample N`` takes the first N lines of each set (default: all 1,000, and the first 20 of Test_L1_R3).

Preparation, outside the timing on both sides and right before each solve: his driver calls
``solver.reset()`` (a memset of his 80 MB table); we make the :class:`CompiledEngine` (its scratch and
state arrays, a few kilobytes; with ``fresh`` a new generation of the table, which empties it at no cost,
and the clearing of the words of the table's 1 MB filter that the last fresh engine set). Nothing else is
done for either solver: no warming of caches, no second solve.

Table sizes: his, 2**24 + 3 entries (the next prime) of a 32-bit partial key and a byte, 80 MB; ours, 2**23
entries of a 64-bit key and a 64-bit word (both bounds, the best move, the generation), 128 MB, and its 1 MB
filter. Every table the script prints names the processor and the load average at its start and end (the
machine may be shared: the figures that travel between runs are the ratios, measured interleaved).

``--table fresh`` (the default) solves every position on an empty table, as Pons measures (the table is
touched once before the first solve, as his ``reset()`` clears his before each: page faults are not timed
on either side); ``--table kept`` keeps the table from one position to the next, as a game does;
``--table both`` prints both. ``--follow-ups N`` adds a table of what a kept table saves where it is meant
to: for the first N positions of each set, every child position (what an analysis after a move solves) on
the table the parent's solve left, beside a fresh solve of the same child.

Pons' figures: with ``--pons PATH``, his solver is run interleaved with ours, position by position, on this
machine. PATH is a program that reads one position per line (``<moves>``, anything after a space ignored)
and answers ``<score> <nodes> <nanoseconds>``: his ``Solver`` (github.com/PascalPons/connect4, commit
d6ba50d8aaf2308c769d9bf2abd42d90f34baf41, no opening book) built with ``g++ -O3 -DNDEBUG`` and a driver of
about twenty lines that, per line, calls ``solver.reset()`` (outside the timing), then times
``solver.solve(P)`` with ``clock_gettime(CLOCK_THREAD_CPUTIME_ID)`` and prints the three numbers. None of his
code (AGPL-3.0) is in this repository. Without ``--pons`` the figures of :data:`PONS` are printed, which
were measured that way, interleaved with this engine on the project's 2-core machine (2026-11-22).
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from rich.console import Console
from rich.table import Table

from inarow.engines.exact.compiled import CompiledEngine, warm_up
from inarow.engines.limits import Budget
from inarow.rules.game import Game, Position
from machine import load, processor

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "connect4"
SETS = ("Test_L3_R1", "Test_L2_R1", "Test_L2_R2", "Test_L1_R1", "Test_L1_R2", "Test_L1_R3")
DEFAULT_SAMPLE = {"Test_L1_R3": 20}
"""Lines taken by default: all 1,000 of each set, but the first 20 of Test_L1_R3 (seconds each)."""

CONNECT4 = Game.parse("connect4")

PONS: dict[str, tuple[float, float]] = {
    # set: (mean CPU seconds per position, mean positions explored), measured with --pons (see the docstring)
    # on all 1,000 lines of each set, the six sets interleaved, his solver interleaved with this engine by
    # blocks of 20 positions (``--table both --pons PATH``, the quiet machine, load average 1.0-1.1,
    # 2026-11-22, 18:29); Test_L1_R3: its first 20 lines
    "Test_L3_R1": (9.0e-6, 51.3),
    "Test_L2_R1": (52.2e-6, 449.1),
    "Test_L2_R2": (5.13e-3, 39_807.5),
    "Test_L1_R1": (345.9e-6, 3_295.5),
    "Test_L1_R2": (150.77e-3, 1_187_922.8),
    "Test_L1_R3": (3.45, 25_578_112.2),
}


class Machine:
    """The processor and the load average when a measurement started, for the caption of its table."""

    def __init__(self) -> None:
        self.start = load()

    def caption(self) -> str:
        cpus = os.cpu_count()
        return f"{processor()}, {cpus} CPUs; load average {self.start} at the start, {load()} at the end"


@dataclass
class Figures:
    """What one set gave one solver: per position, CPU seconds and explored positions, and wrong scores."""

    seconds: list[float] = field(default_factory=list)
    nodes: list[int] = field(default_factory=list)
    wrong: int = 0

    def add(self, seconds: float, nodes: int, right: bool) -> None:
        self.seconds.append(seconds)
        self.nodes.append(nodes)
        self.wrong += not right


class Pons:
    """Pons' solver as a child process answering one position per line (see the module docstring)."""

    def __init__(self, path: str) -> None:
        self.process = subprocess.Popen(
            [path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )

    def solve_all(self, moves: list[str]) -> list[tuple[int, int, float]]:
        """The score, explored positions and CPU seconds of his solve of each position, which he solves
        one after the other."""
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write("".join(line + "\n" for line in moves))
        self.process.stdin.flush()
        answers = []
        for _ in moves:
            score, nodes, nanoseconds = self.process.stdout.readline().split()[-3:]
            answers.append((int(score), int(nodes), int(nanoseconds) / 1e9))
        return answers

    def close(self) -> None:
        self.process.terminate()
        self.process.wait()


def position_of(moves: str) -> Position:
    """The Connect Four position after a string of 1-based column digits."""
    position = Position.start(CONNECT4)
    for digit in moves:
        position = position.play(digit)
    return position


def solve(position: Position, fresh: bool) -> tuple[int, float, int]:
    """Our score of ``position``, the CPU seconds of the solve and the positions explored."""
    budget = Budget()
    engine = CompiledEngine(CONNECT4, budget, fresh=fresh)
    cur, opp = position.sides()
    start = time.thread_time()
    score = engine.solve(cur, opp)
    return score, time.thread_time() - start, budget.nodes


def lines(name: str, sample: int | None) -> list[tuple[str, int]]:
    pairs = [line.split() for line in (DATA / name).read_text().splitlines()]
    count = sample if sample is not None else DEFAULT_SAMPLE.get(name)
    return [(moves, int(score)) for moves, score in pairs[:count]]


BLOCK = 20
"""Positions solved by one solver before the other takes its turn on the same positions."""


def run(
    names: list[str], sample: int | None, modes: list[str], pons: Pons | None
) -> dict[tuple[str, str], Figures]:
    """Every position of the sets, interleaved, solved in each mode (and by Pons' solver if given).

    The order is round-robin over the sets; the solvers take turns by blocks of :data:`BLOCK` positions
    (tens of milliseconds): close enough for both to see the same load, and not a switch of process per
    position, which would leave each solve to start on caches the other process has just filled.
    """
    sets = {name: lines(name, sample) for name in names}
    schedule = [
        (name, *each[i])
        for i in range(max(len(each) for each in sets.values()))
        for name, each in sets.items()
        if i < len(each)
    ]
    results = {(name, who): Figures() for name in names for who in [*modes, "pons"]}
    clock = time.thread_time  # a local name: his driver calls clock_gettime directly
    for first in range(0, len(schedule), BLOCK):
        block = schedule[first : first + BLOCK]
        sides = [position_of(moves).sides() for _, moves, _ in block]
        for mode in modes:
            fresh = mode == "fresh"
            for (name, _, expected), (cur, opp) in zip(block, sides, strict=True):
                # Each engine is made right before its solve, outside the timing, as Pons' driver resets
                # his table right before his: the preparation of a solve, on both sides.
                budget = Budget()
                engine = CompiledEngine(CONNECT4, budget, fresh=fresh)
                start = clock()
                score = engine.solve(cur, opp)
                seconds = clock() - start
                results[name, mode].add(seconds, budget.nodes, score == expected)
        if pons is not None:
            for (name, _, expected), (score, nodes, seconds) in zip(
                block, pons.solve_all([moves for _, moves, _ in block]), strict=True
            ):
                results[name, "pons"].add(seconds, nodes, score == expected)
    return results


def duration(seconds: float) -> str:
    """Seconds in the unit that suits them: µs, ms or s."""
    if seconds < 1e-3:
        return f"{seconds * 1e6:.1f} µs"
    if seconds < 1:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds:.2f} s"


def table(
    results: dict[tuple[str, str], Figures],
    names: list[str],
    modes: list[str],
    measured: bool,
    machine: Machine,
) -> Table:
    """The rich table of the results beside Pons' figures."""
    source = "measured now, interleaved" if measured else "recorded (see the docstring)"
    out = Table(
        title=f"Pons' Connect Four test sets: CPU time of the solve; Pons' figures {source}",
        caption=machine.caption(),
    )
    for header in ("set", "table", "solved", "wrong", "mean time", "Pons time", "time ratio"):
        out.add_column(header, justify="left" if header in ("set", "table") else "right")
    for header in ("mean explored", "Pons explored", "explored ratio", "ns per position", "Pons ns"):
        out.add_column(header, justify="right")
    for name in names:
        pons = results[name, "pons"]
        if measured:
            pons_time, pons_nodes = statistics.fmean(pons.seconds), statistics.fmean(pons.nodes)
        else:
            pons_time, pons_nodes = PONS[name]
        for mode in modes:
            ours = results[name, mode]
            mean_time, mean_nodes = statistics.fmean(ours.seconds), statistics.fmean(ours.nodes)
            out.add_row(
                name,
                mode,
                str(len(ours.nodes)),
                str(ours.wrong) + (f" (Pons {pons.wrong})" if measured and pons.wrong else ""),
                duration(mean_time),
                duration(pons_time),
                f"{mean_time / pons_time:.2f}",
                f"{mean_nodes:,.1f}",
                f"{pons_nodes:,.1f}",
                f"{mean_nodes / pons_nodes:.3f}",
                f"{mean_time / mean_nodes * 1e9:.0f}",
                f"{pons_time / pons_nodes * 1e9:.0f}",
            )
    return out


def follow_ups(names: list[str], count: int) -> Table:
    """Every child of the first ``count`` positions of each set, solved on the table its parent's solve
    left (kept) and on an empty one (fresh)."""
    machine = Machine()
    out = Table(title="Follow-up positions (every child of a solved position): kept table against fresh")
    for header in ("set", "children", "fresh time", "kept time", "time ratio", "fresh explored"):
        out.add_column(header, justify="left" if header == "set" else "right")
    out.add_column("kept explored", justify="right")
    out.add_column("explored ratio", justify="right")
    for name in names:
        fresh, kept = Figures(), Figures()
        for moves, _ in lines(name, count):
            parent = position_of(moves)
            solve(parent, fresh=False)  # the kept table now holds what the parent's solve proved
            children = [child for _, child in parent.children() if not child.is_over]
            for child in children:
                _, seconds, nodes = solve(child, fresh=False)
                kept.add(seconds, nodes, True)
            for child in children:
                _, seconds, nodes = solve(child, fresh=True)
                fresh.add(seconds, nodes, True)
        out.add_row(
            name,
            str(len(kept.nodes)),
            duration(statistics.fmean(fresh.seconds)),
            duration(statistics.fmean(kept.seconds)),
            f"{statistics.fmean(kept.seconds) / statistics.fmean(fresh.seconds):.2f}",
            f"{statistics.fmean(fresh.nodes):,.1f}",
            f"{statistics.fmean(kept.nodes):,.1f}",
            f"{sum(kept.nodes) / sum(fresh.nodes):.2f}",
        )
    out.caption = machine.caption()
    return out


FHOURSTONES_POSITIONS = 1_479_113_766
"""What Fhourstones reports for the empty board (FACTS.md): its explored positions, a check of its output."""


def fhourstones_solve(path: str, moves: str = "") -> tuple[str, int, float]:
    """John Tromp's Fhourstones (``SearchGame``, github.com/kaushik327/fhourstones, built with its own
    Makefile outside this repository) on the position after ``moves``: its score letter (``+`` a win for the
    side to move, ``=`` a draw, ``-`` a loss), the positions it explored, and its CPU time (user + system of
    the child process: its start and the clearing of its 64 MB table are in it, some 30 ms)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run([path], input=moves + "\n", capture_output=True, text=True, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    seconds = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    found = re.search(r"score = \w+ \((.)\).*?\n(\d+) pos /", done.stdout, re.S)
    assert found is not None, done.stdout
    return found.group(1), int(found.group(2)), seconds


def weak_solve(moves: str = "") -> tuple[str, int, float]:
    """Our weak solve (win, draw or loss) of the position after ``moves``, without any book, on a fresh
    table whose pages were touched before: its score letter as Fhourstones writes it, the positions
    explored, and the CPU time of the solve."""
    budget = Budget()
    engine = CompiledEngine(CONNECT4, budget, fresh=True)
    cur, opp = position_of(moves).sides()
    start = time.thread_time()
    score = engine.solve(cur, opp, weak=True)
    return "-=+"[score + 1], budget.nodes, time.thread_time() - start


def weak_race(path: str, rounds: int, moves: str = "") -> Table:
    """The empty board's (or ``moves``') weak solve by Fhourstones and by inarow, one after the other,
    ``rounds`` times, the order alternating, in the same run."""
    figures: dict[str, list[tuple[str, int, float]]] = {"Fhourstones": [], "inarow": []}
    machine = Machine()
    for round_ in range(rounds):
        order = ["Fhourstones", "inarow"] if round_ % 2 == 0 else ["inarow", "Fhourstones"]
        for who in order:
            answer = fhourstones_solve(path, moves) if who == "Fhourstones" else weak_solve(moves)
            figures[who].append(answer)
            print(f"  round {round_ + 1}: {who}: {answer[0]} {answer[1]:,} positions, {answer[2]:.1f} s CPU")
    title = f"Weak solve of {moves if moves else 'the empty board'!r}, no book, interleaved"
    out = Table(title=title, caption=machine.caption())
    for header in (
        "program",
        "score",
        "positions",
        "CPU s (each round)",
        "mean CPU s",
        "time ratio",
        "ns per position",
    ):
        out.add_column(header, justify="left" if header == "program" else "right")
    base = statistics.fmean(seconds for _, _, seconds in figures["Fhourstones"])
    for who, answers in figures.items():
        mean = statistics.fmean(seconds for _, _, seconds in answers)
        out.add_row(
            who,
            " ".join(sorted({score for score, _, _ in answers})),
            " ".join(f"{nodes:,}" for _, nodes, _ in answers),
            " ".join(f"{seconds:.1f}" for _, _, seconds in answers),
            f"{mean:.1f}",
            f"{mean / base:.2f}",
            f"{sum(seconds for _, _, seconds in answers) / sum(nodes for _, nodes, _ in answers) * 1e9:.0f}",
        )
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--sets", nargs="+", choices=SETS, default=list(SETS), metavar="SET", help="sets to run"
    )
    parser.add_argument("--sample", type=int, default=None, help="only the first N lines of each set")
    parser.add_argument("--table", choices=("fresh", "kept", "both"), default="fresh")
    parser.add_argument("--pons", metavar="PATH", help="Pons' solver with a timing driver, run interleaved")
    parser.add_argument(
        "--follow-ups", type=int, default=0, metavar="N", help="follow-ups of N positions per set"
    )
    parser.add_argument(
        "--fhourstones",
        metavar="PATH",
        help="also the empty board's weak solve beside Fhourstones' SearchGame",
    )
    parser.add_argument("--rounds", type=int, default=1, help="rounds of the weak solves (order alternates)")
    parser.add_argument("--weak-moves", default="", metavar="MOVES", help="weak-solve this position instead")
    parser.add_argument("--no-sets", action="store_true", help="only the weak solves")
    args = parser.parse_args(argv)
    console = Console(width=max(Console().width, 170))
    console.print(f"warm-up (compile or load the cached code): {warm_up(CONNECT4):.2f} s")
    CompiledEngine(CONNECT4, Budget()).table.fill(0)  # fault the table's pages in once, as Pons' reset does
    if args.fhourstones:
        console.print(weak_race(args.fhourstones, args.rounds, args.weak_moves))
        if args.no_sets:
            return 0
    modes = ["fresh", "kept"] if args.table == "both" else [args.table]
    pons = Pons(args.pons) if args.pons else None
    machine = Machine()
    start = time.perf_counter()
    try:
        results = run(args.sets, args.sample, modes, pons)
    finally:
        if pons is not None:
            pons.close()
    console.print(f"solved in {time.perf_counter() - start:.1f} s of wall time", style="dim")
    console.print(table(results, args.sets, modes, pons is not None, machine))
    if args.follow_ups:
        console.print(follow_ups(args.sets, args.follow_ups))
    return 1 if any(figures.wrong for (_, who), figures in results.items() if who != "pons") else 0


if __name__ == "__main__":
    sys.exit(main())
