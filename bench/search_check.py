"""How long a full check of a student's own search takes: on the command line, and in a phone-sized page.

    python bench/search_check.py [--repeat 5] [--throttle 1 4]

The searches are the lab's test files (tests/data/searches/): a correct fail-soft α-β, which every case
passes, and one that cuts with > instead of ≥, whose failing cases are also searched by each planted bug to
name it (and, in the page, the first is drawn on the Explain tree).

- **Command line**: ``inarow check --search FILE:alphabeta`` as a student types it (a new Python, the child
  process it checks in, every case), wall clock; and the same check in this process, without the child.
- **Browser**: ``inarow serve`` on a free port, ``/?student=1`` at 390×844 in Debian's chromium, the code box
  switched to search; the time from pressing ``search-check`` to the last case shown, with Python already
  started (the first check after the page opens waits for Pyodide as a first e(P) run does: bench/lab.py),
  for each CPU slow-down of ``--throttle`` (Chromium slows the page, not the sandbox's worker).

Prints one table of each, min / median / max over ``--repeat`` runs, naming the processor.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from machine import processor

ROOT = Path(__file__).resolve().parent.parent
SEARCHES = ROOT / "tests" / "data" / "searches"
FILES = {"correct α-β": SEARCHES / "alphabeta.py", "cut with >": SEARCHES / "bugs" / "strict_alphabeta.py"}
PHONE: Any = {"width": 390, "height": 844}
READY = "document.getElementById('explain-panel').dataset.state === 'ready'"
CHECKED = "!document.getElementById('search-check').disabled"


def spread(seconds: list[float]) -> str:
    seconds = sorted(seconds)
    return f"{seconds[0]:.2f} / {statistics.median(seconds):.2f} / {seconds[-1]:.2f} s"


def command_line(repeat: int) -> Table:
    from inarow.teaching.checking.verdict import algorithm_for, check_search, load_search

    table = Table(title=f"inarow check on the command line, {repeat} runs (min / median / max)")
    for column in ("search", "cases exact", "inarow check (new process, child)", "in this process"):
        table.add_column(column, justify="right")
    for name, path in FILES.items():
        runs = []
        for _ in range(repeat):
            start = time.perf_counter()
            done = subprocess.run(
                [sys.executable, "-m", "inarow", "check", "--search", f"{path}:alphabeta"],
                capture_output=True,
                text=True,
                check=False,
            )
            runs.append(time.perf_counter() - start)
        inside = []
        for _ in range(repeat):
            start = time.perf_counter()
            report = check_search(
                load_search(path.read_text(encoding="utf-8"), "alphabeta"), algorithm_for("alphabeta", None)
            )
            inside.append(time.perf_counter() - start)
        if done.returncode not in (0, 1):
            raise SystemExit(f"inarow check failed: {done.stderr}")
        table.add_row(name, f"{report.passed} of {len(report.cases)}", spread(runs), spread(inside))
    return table


def browser(repeat: int, throttles: list[float]) -> Table:
    from playwright.sync_api import sync_playwright

    sys.path.insert(0, str(Path(__file__).parent))
    from load import start_server  # bench/load.py

    table = Table(title=f"The check in a phone-sized page (390×844), Python started, {repeat} runs")
    for column in ("CPU slow-down", "search", "cases exact", "press to last case (min / median / max)"):
        table.add_column(column, justify="right")
    with tempfile.TemporaryDirectory() as folder:
        server, url = start_server(Path(folder))
        try:
            with sync_playwright() as playwright:
                chromium = playwright.chromium.launch(
                    executable_path="/usr/bin/chromium", args=["--headless", "--no-sandbox", "--disable-gpu"]
                )
                for throttle in throttles:
                    context = chromium.new_context(
                        viewport=PHONE, is_mobile=True, has_touch=True, bypass_csp=True
                    )
                    page = context.new_page()
                    context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": throttle})
                    page.goto(f"{url}/?student=1")
                    page.wait_for_function(READY, timeout=300_000)
                    page.get_by_test_id("student-mode").select_option("search")
                    page.wait_for_function("document.getElementById('student-source').value", timeout=300_000)
                    for name, path in FILES.items():
                        page.get_by_test_id("student-code").fill(path.read_text(encoding="utf-8"))
                        runs = []
                        for _ in range(repeat):
                            start = time.perf_counter()
                            page.get_by_test_id("search-check").click()
                            page.wait_for_function(CHECKED, timeout=300_000)
                            runs.append(time.perf_counter() - start)
                        cases = page.get_by_test_id("search-case")
                        ok = page.locator('[data-testid="search-case"][data-ok="yes"]').count()
                        table.add_row(f"{throttle:g}×", name, f"{ok} of {cases.count()}", spread(runs))
                    context.close()
                chromium.close()
        finally:
            server.terminate()
            server.wait(timeout=10)
    return table


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--throttle", type=float, nargs="+", default=[1.0, 4.0])
    parser.add_argument("--no-browser", action="store_true", help="the command line only")
    args = parser.parse_args()
    console = Console(width=140)
    console.print(command_line(args.repeat))
    if not args.no_browser:
        console.print(browser(args.repeat, args.throttle))
    load = ", ".join(f"{value:.2f}" for value in os.getloadavg())
    console.print(f"{processor()}, {os.cpu_count()} cores, load average {load} (1, 5, 15 min) after the runs")


if __name__ == "__main__":
    main()
