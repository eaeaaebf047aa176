"""The lab on a phone: what a student's page downloads and how long until their first e(P) has run.

    python bench/lab.py [--repeat 3] [--throttle 1 4]

Starts ``inarow serve --token`` on a free port (as a LAN server for a class is protected), then for each
CPU slow-down in ``--throttle`` (Chromium's own ``Emulation.setCPUThrottlingRate``: 4 is the usual stand-in
for a mid-range phone; Chromium slows the page's own thread, not the Web Worker where Python runs, so the
rows differ by the page's work only) opens ``/?student=1`` ``--repeat`` times in a fresh browser context at
390×844 (nothing cached: a cold page), pastes the textbook e(P) into ``student-code`` and presses
``student-run``. Prints one table: the bytes the server sent (all of them, and the Pyodide files and inarow's
modules among them, as the browser received them: compressed when it accepts gzip), the time until the page is
usable, and the time until the e(P)'s value is shown (min, median, max).
(The class board's picture in the docs is scripts/screenshots.py's.)

Needs Pyodide copied into the package (``npm ci && python scripts/copy_pyodide.py``), Playwright for Python
and Debian's chromium (``/usr/bin/chromium``).
"""

from __future__ import annotations

import argparse
import secrets
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright
from rich.console import Console
from rich.table import Table

from load import start_server  # bench/load.py: this script's folder is on the path

ROOT = Path(__file__).resolve().parent.parent
TEXTBOOK = (ROOT / "src" / "inarow" / "teaching" / "examples" / "textbook_eval.py").read_text(
    encoding="utf-8"
)
PHONE: Any = {"width": 390, "height": 844}
READY = "document.getElementById('explain-panel').dataset.state === 'ready'"
DONE = (
    "!document.getElementById('student-run').disabled && document.getElementById('student-output').innerText"
)


def cold_run(browser: Any, url: str, token: str, throttle: float) -> dict[str, float]:
    """One cold page: bytes received by kind, seconds to a usable page and to the first e(P) value."""
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, bypass_csp=True)
    context.add_cookies([{"name": "inarow_token", "value": token, "url": url}])
    page = context.new_page()
    sizes = {"all": 0.0, "pyodide": 0.0, "modules": 0.0}

    def received(response: Any) -> None:
        length = float(response.headers.get("content-length") or 0)
        sizes["all"] += length
        if "/lab/pyodide/" in response.url:
            sizes["pyodide"] += length
        elif response.url.endswith("/lab/inarow.zip"):
            sizes["modules"] += length

    page.on("response", received)
    session = context.new_cdp_session(page)
    session.send("Emulation.setCPUThrottlingRate", {"rate": throttle})
    start = time.perf_counter()
    page.goto(f"{url}/?student=1")
    page.wait_for_function(READY, timeout=300_000)
    usable = time.perf_counter() - start
    page.get_by_test_id("student-code").fill(TEXTBOOK)
    page.get_by_test_id("student-run").click()
    page.wait_for_function(DONE, timeout=300_000)
    first = time.perf_counter() - start
    said = page.get_by_test_id("student-output").inner_text()
    context.close()
    if "e(P)" not in said and "=" not in said:
        raise SystemExit(f"the first run did not show a value: {said!r}")
    return {**sizes, "usable": usable, "first": first}


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--throttle", type=float, nargs="+", default=[1.0, 4.0])
    args = parser.parse_args()
    token = secrets.token_urlsafe(24)
    console = Console(width=140)
    with tempfile.TemporaryDirectory() as folder:
        server, url = start_server(Path(folder), ["--token", token], {"X-Inarow-Token": token})
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(
                    executable_path="/usr/bin/chromium", args=["--headless", "--no-sandbox", "--disable-gpu"]
                )
                table = Table(
                    title=f"A cold phone-sized page (390×844), /?student=1, {args.repeat} runs each"
                )
                for column in ("CPU slow-down", "sent, all", "Pyodide", "inarow's modules", "page usable",
                               "first e(P) shown (min / median / max)"):  # fmt: skip
                    table.add_column(column, justify="right")
                for throttle in args.throttle:
                    runs = [cold_run(browser, url, token, throttle) for _ in range(args.repeat)]
                    firsts = sorted(run["first"] for run in runs)
                    table.add_row(
                        f"{throttle:g}×",
                        f"{runs[0]['all'] / 1e6:.1f} MB",
                        f"{runs[0]['pyodide'] / 1e6:.1f} MB",
                        f"{runs[0]['modules'] / 1e3:.0f} kB",
                        f"{statistics.median(run['usable'] for run in runs):.1f} s",
                        f"{firsts[0]:.1f} / {statistics.median(firsts):.1f} / {firsts[-1]:.1f} s",
                    )
                console.print(table)
                browser.close()
        finally:
            server.terminate()
            server.wait(timeout=10)


if __name__ == "__main__":
    main()
