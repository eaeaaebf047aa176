"""Start-up benchmark: what a user waits for, as whole processes, beside ``python -c pass`` and easyAI.

    .venv/bin/python bench/startup.py [--repeat 5] [--with-connect4]

Runs each command ``--repeat`` times as a fresh process and prints one table: the median wall time, its
ratio to ``python -c pass`` (the interpreter's own start) and to easyAI's tic-tac-toe solver script
(``bench/easyai_tictactoe.py``: ``solve_with_iterative_deepening`` on easyAI's TicTacToe, Negamax with a
transposition table, depths 2 to 9), the median peak resident memory (``ru_maxrss`` of the process), and
the target of issue 10 where there is one. easyAI comes with the ``bench`` extra
(``pip install -e '.[bench]'``); without it its row says so and the ratios to it are left out.

``--with-connect4`` adds a first big-board answer (the first position of Pons' Test_L2_R1 set, 17 empty
cells), which loads the compiled engine from numba's cache (run ``inarow warm-up`` once first, or its first
run compiles), and ``inarow warm-up`` itself.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console
from rich.table import Table

BENCH = Path(__file__).resolve().parent


@dataclass(frozen=True)
class Command:
    """One command of the table: what it runs, as a user would type it, and its target."""

    label: str
    argv: list[str]
    target: str = ""
    seconds: float | None = None
    """The time target, if any (for the verdict column)."""
    megabytes: float | None = None
    """The peak memory target, if any."""
    easyai_share: float | None = None
    """At most this share of easyAI's time, if a target."""


@dataclass(frozen=True)
class Measure:
    seconds: float
    megabytes: float
    output: str
    cpu: float
    """User and system CPU seconds: what a loaded machine changes least."""


def inarow() -> list[str]:
    """The ``inarow`` command next to this interpreter (the console script a user runs), else ``-m``."""
    script = Path(sys.executable).with_name("inarow")
    return [str(script)] if script.exists() else [sys.executable, "-m", "inarow"]


METER = """
import os, sys, time
quiet = [(os.POSIX_SPAWN_OPEN, fd, os.devnull, os.O_WRONLY, 0) for fd in (1, 2)]
start = time.perf_counter()
pid = os.posix_spawn(sys.argv[1], sys.argv[1:], os.environ, file_actions=quiet)
_, status, usage = os.wait4(pid, 0)
cpu = usage.ru_utime + usage.ru_stime
print(time.perf_counter() - start, usage.ru_maxrss, os.waitstatus_to_exitcode(status), cpu)
"""
"""Runs one command and prints its seconds, peak resident kilobytes, exit status and CPU seconds. It runs
in a small interpreter of its own (``python -S``): Linux counts a child's peak memory from its parent's at
the time it was spawned, so spawning from this process (rich and all) would add its memory to every
figure."""


def run(argv: list[str]) -> Measure:
    """Run ``argv`` once through :data:`METER`: its wall time and its peak resident set."""
    meter = subprocess.run(
        [sys.executable, "-S", "-c", METER, *argv], capture_output=True, text=True, check=True
    )
    seconds, kilobytes, status, cpu = meter.stdout.split()
    if int(status) != 0:
        raise SystemExit(f"{' '.join(argv)} failed with status {status}")
    return Measure(seconds=float(seconds), megabytes=int(kilobytes) / 1024, output="", cpu=float(cpu))


def measure(commands: list[Command], repeat: int, say: Callable[[str], None]) -> dict[str, Measure]:
    """The medians of ``repeat`` runs of each command, run in rounds (each command once per round, after
    one round not counted that fills the page cache), so that a machine whose load changes during the
    benchmark weighs on every command alike."""
    runs: dict[str, list[Measure]] = {command.label: [] for command in commands}
    for round_ in range(repeat + 1):
        for command in commands:
            say(f"round {round_} of {repeat}: {command.label}")
            found = run(command.argv)
            if round_:
                runs[command.label].append(found)
    return {
        command.label: Measure(
            seconds=statistics.median(r.seconds for r in runs[command.label]),
            megabytes=statistics.median(r.megabytes for r in runs[command.label]),
            cpu=statistics.median(r.cpu for r in runs[command.label]),
            output=subprocess.run(command.argv, capture_output=True, text=True).stdout,
        )
        for command in commands
    }


def easyai_installed() -> bool:
    return subprocess.run([sys.executable, "-c", "import easyAI"], capture_output=True).returncode == 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--repeat", type=int, default=5, help="runs per command (the median is shown)")
    parser.add_argument("--with-connect4", action="store_true", help="add the first Connect Four answer")
    args = parser.parse_args()

    me = inarow()
    commands = [
        Command("python -c pass", [sys.executable, "-c", "pass"]),
        Command("inarow --help", [*me, "--help"], "≤ 0.25 s", seconds=0.25),
        Command(
            'inarow best "x.o/.x./..o" (3×3)',
            [*me, "best", "x.o/.x./..o"],
            "≤ 0.25 s, ≤ 80 MB",
            seconds=0.25,
            megabytes=80,
        ),
        Command('inarow analyze "b2 a1 c3" (3×3)', [*me, "analyze", "b2 a1 c3"]),
        Command("inarow solve (3×3 table)", [*me, "solve"], "≤ ½ of easyAI", easyai_share=0.5),
        Command("inarow solve --game 4x4", [*me, "solve", "--game", "4x4"]),
    ]
    if args.with_connect4:
        first = (BENCH.parent / "tests" / "data" / "connect4" / "Test_L2_R1").read_text().split()[0]
        commands += [
            Command("inarow warm-up (numba's cache)", [*me, "warm-up"]),
            Command("inarow best (Connect Four, 17 empty cells)", [*me, "best", first, "--game", "connect4"]),
        ]
    easyai = Command(
        "easyAI solving 3×3 (bench/easyai_tictactoe.py)", [sys.executable, str(BENCH / "easyai_tictactoe.py")]
    )
    have_easyai = easyai_installed()

    console = Console(stderr=True)
    with console.status("measuring…") as status:
        results = measure([*commands, easyai] if have_easyai else commands, args.repeat, status.update)

    python = results["python -c pass"].seconds
    easy = results[easyai.label].seconds if have_easyai else None
    easy_cpu = results[easyai.label].cpu if have_easyai else None
    load = os.getloadavg()[0]
    title = f"whole processes, median of {args.repeat} ({os.cpu_count()} cores, load average {load:.1f})"
    table = Table(title=title)
    columns = ("command", "time", "× python -c pass", "× easyAI", "CPU time", "× easyAI (CPU)", "peak memory")
    for column in (*columns, "target", "met"):
        table.add_column(column, justify="left" if column in ("command", "target", "met") else "right")
    for command in [*commands, easyai]:
        found = results.get(command.label)
        if found is None:
            table.add_row(command.label, "not installed: pip install -e '.[bench]'", *[""] * 7)
            continue
        met = []
        if command.seconds is not None:
            met.append(found.seconds <= command.seconds)
        if command.megabytes is not None:
            met.append(found.megabytes <= command.megabytes)
        if command.easyai_share is not None and easy is not None:
            met.append(found.seconds <= command.easyai_share * easy)
        table.add_row(
            command.label,
            f"{found.seconds * 1000:.0f} ms",
            f"{found.seconds / python:.1f}",
            "" if easy is None else f"{found.seconds / easy:.2f}",
            f"{found.cpu * 1000:.0f} ms",
            "" if easy_cpu is None else f"{found.cpu / easy_cpu:.2f}",
            f"{found.megabytes:.0f} MB",
            command.target,
            "" if not met else ("yes" if all(met) else "NO"),
        )
    Console(width=max(170, shutil.get_terminal_size().columns)).print(table)
    if have_easyai:
        print(f"easyAI printed: {results[easyai.label].output.strip()}")


if __name__ == "__main__":
    main()
