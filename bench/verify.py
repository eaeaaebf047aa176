"""The teacher's check of the grades: how long one browser takes to check a class's submissions.

    python bench/verify.py [--students 40] [--depth 2] [--every]

Starts ``inarow serve`` with a class key and a teacher key on a free port, submits ``--students`` e(P)s
through the API as the students' browsers would (each its own source: the textbook e(P) with a weight of
its own, so each is compiled apart; the moves its search chooses, α-β at ``--depth``), opens ``/class`` in
Chromium with the teacher's key and presses **Check the grades** (``class-verify``) twice, and with
``--every`` once on every position too. Each submission is checked in a Python of its own (a new sandbox:
its start is part of the time). Each time is from the click until every row is marked (``data-verified``)
and the button is back. Prints one table naming the processor and the machine's load average (this
measures a shared machine as it is). The page runs under its own content-security policies (nothing
bypassed).

Needs Pyodide copied into the package (``npm ci && python scripts/copy_pyodide.py``), Playwright for Python
and Debian's chromium (``/usr/bin/chromium``).
"""

from __future__ import annotations

import argparse
import os
import secrets
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import expect, sync_playwright
from rich.console import Console
from rich.table import Table

from inarow.web import browser as browser_side
from load import start_server  # bench/load.py: this script's folder is on the path
from machine import processor

ROOT = Path(__file__).resolve().parent.parent
TEXTBOOK = (ROOT / "src" / "inarow" / "teaching" / "examples" / "textbook_eval.py").read_text(
    encoding="utf-8"
)


def source_of(student: int) -> str:
    """The textbook e(P) with a weight of the student's own (the same moves, another source)."""
    return TEXTBOOK.replace(
        "return open_for_max - open_for_min", f"return {student + 1} * (open_for_max - open_for_min)"
    )


def submit(url: str, key: str, students: int, depth: int) -> None:
    headers = {"X-Inarow-Token": key}
    diagrams = httpx.get(f"{url}/api/lab/positions", headers=headers, timeout=300).json()["positions"]
    for student in range(students):
        source = source_of(student)
        browser_side.load(f"s{student}", source)
        body = {
            "name": f"Student {student + 1:02d}",
            "evaluation": "e",
            "algorithm": "alphabeta",
            "depth": depth,
        }
        body |= {
            "source": source,
            **browser_side.choose(f"s{student}", "tictactoe", diagrams, "alphabeta", depth),
        }
        answer = httpx.post(f"{url}/api/class", json=body, headers=headers, timeout=300)
        if answer.status_code != 200:
            raise SystemExit(f"the submission was refused: {answer.status_code} {answer.text}")


def check(page: Any, every: bool) -> float:
    """Seconds from the click on class-verify until every row is marked and the button is back."""
    box = page.get_by_test_id("class-verify-all")
    if box.is_checked() != every:
        box.click()
    start = time.perf_counter()
    page.get_by_test_id("class-verify").click()
    expect(page.get_by_test_id("class-verify")).to_be_disabled()
    expect(page.get_by_test_id("class-verify")).to_be_enabled(timeout=3_600_000)
    seconds = time.perf_counter() - start
    marked = page.locator('[data-testid="class-row"][data-verified="yes"]').count()
    rows = page.get_by_test_id("class-row").count()
    if marked != rows:
        raise SystemExit(
            f"{rows - marked} of {rows} rows were not verified: {page.locator('#class-status').inner_text()}"
        )
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--students", type=int, default=40)
    parser.add_argument("--depth", type=int, default=2)
    parser.add_argument("--every", action="store_true", help="check on every position too")
    args = parser.parse_args()
    student, teacher = secrets.token_urlsafe(16), secrets.token_urlsafe(16)
    console = Console(width=140)
    with tempfile.TemporaryDirectory() as folder:
        options = ["--token", student, "--teacher-token", teacher]
        server, url = start_server(Path(folder), options, {"X-Inarow-Token": teacher})
        try:
            submit(url, student, args.students, args.depth)
            positions = len(
                httpx.get(f"{url}/api/lab/positions", headers={"X-Inarow-Token": teacher}).json()["positions"]
            )
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(
                    executable_path="/usr/bin/chromium", args=["--headless", "--no-sandbox", "--disable-gpu"]
                )
                context = browser.new_context(viewport={"width": 1280, "height": 800})
                context.add_cookies([{"name": "inarow_token", "value": teacher, "url": url}])
                page = context.new_page()
                page.goto(f"{url}/class")
                expect(page.get_by_test_id("class-row")).to_have_count(args.students, timeout=120_000)
                sample = page.evaluate("async () => (await import('/static/js/verify.js')).SAMPLE")
                runs = [("a sample", sample, check(page, False))]
                runs.append(("a sample, again", sample, check(page, False)))
                if args.every:
                    runs.append(("every position", positions, check(page, True)))
                browser.close()
        finally:
            server.terminate()
            server.wait(timeout=10)
    table = Table(
        title=f"Checking {args.students} submissions (α-β, depth {args.depth}, 3×3) in one Chromium, "
        f"on {processor()} ({os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f})"
    )
    for column in ("check", "positions per submission", "seconds", "per submission"):
        table.add_column(column, justify="right")
    for name, count, seconds in runs:
        table.add_row(name, f"{count:,}", f"{seconds:.1f} s", f"{seconds / args.students:.2f} s")
    console.print(table)


if __name__ == "__main__":
    main()
