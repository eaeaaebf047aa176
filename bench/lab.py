"""The lab on a phone: what a student's page downloads and how long until their first e(P) has run, on a
cold page and when the page is opened again.

    python bench/lab.py [--repeat 3] [--throttle 1 4]

Starts ``inarow serve --token`` on a free port (as a LAN server for a class is protected), behind a small
TCP relay of this script's that counts the bytes the server sends, then for each CPU slow-down in
``--throttle`` (Chromium's own ``Emulation.setCPUThrottlingRate``: 4 is the usual stand-in for a mid-range
phone; Chromium slows the page's own thread, not the Web Worker where Python runs, so the rows differ by the
page's work only) opens ``/?student=1`` ``--repeat`` times in a fresh browser context at 390×844 (nothing
cached: a cold page), pastes the textbook e(P) into ``student-code`` and presses ``student-run``; then
reloads the page in the same context (its cache kept, as a student's phone keeps it) and does it again.
Prints one table: the bytes the server sent (the relay's count, which covers the requests of the lab's
sandboxed worker too; on a cold page, the Pyodide files and inarow's modules among them, as the browser
received them: compressed when it accepts gzip), the time until the page is usable, and the time until the
e(P)'s value is shown (min, median, max). On this machine the server is on loopback, so the times are
Pyodide's start, not the network's: what a reload saves is the bytes, the classroom Wi-Fi's time.
(The class board's picture in the docs is scripts/screenshots.py's.)

Needs Pyodide copied into the package (``npm ci && python scripts/copy_pyodide.py``), Playwright for Python
and Debian's chromium (``/usr/bin/chromium``).
"""

from __future__ import annotations

import argparse
import asyncio
import secrets
import statistics
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright
from rich.console import Console
from rich.table import Table

from load import start_server  # bench/load.py: this script's folder is on the path
from machine import processor

ROOT = Path(__file__).resolve().parent.parent
TEXTBOOK = (ROOT / "src" / "inarow" / "teaching" / "examples" / "textbook_eval.py").read_text(
    encoding="utf-8"
)
PHONE: Any = {"width": 390, "height": 844}
READY = "document.getElementById('explain-panel').dataset.state === 'ready'"
DONE = (
    "!document.getElementById('student-run').disabled && document.getElementById('student-output').innerText"
)


class Relay:
    """A TCP relay on a free localhost port to ``port``, counting the bytes the server sends back."""

    def __init__(self, port: int) -> None:
        self.target = port
        self.sent = 0
        self.loop = asyncio.new_event_loop()
        ready = threading.Event()
        threading.Thread(target=self._run, args=(ready,), daemon=True).start()
        ready.wait()

    def _run(self, ready: threading.Event) -> None:
        asyncio.set_event_loop(self.loop)
        server = self.loop.run_until_complete(asyncio.start_server(self._serve, "127.0.0.1", 0))
        self.port = server.sockets[0].getsockname()[1]
        ready.set()
        self.loop.run_forever()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        upstream_reader, upstream_writer = await asyncio.open_connection("127.0.0.1", self.target)

        async def pipe(source: asyncio.StreamReader, sink: asyncio.StreamWriter, counted: bool) -> None:
            try:
                while data := await source.read(65536):
                    if counted:
                        self.sent += len(data)
                    sink.write(data)
                    await sink.drain()
            except (ConnectionError, asyncio.CancelledError):
                pass
            finally:
                sink.close()

        await asyncio.gather(pipe(reader, upstream_writer, False), pipe(upstream_reader, writer, True))

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)


def first_result(page: Any, relay: Relay, load: Any) -> dict[str, float]:
    """Load the page (``load()``), run the textbook e(P): bytes the server sent, seconds to a usable page
    and to the first e(P) value shown."""
    sent = relay.sent
    start = time.perf_counter()
    load()
    page.wait_for_function(READY, timeout=300_000)
    usable = time.perf_counter() - start
    page.get_by_test_id("student-code").fill(TEXTBOOK)
    page.get_by_test_id("student-run").click()
    page.wait_for_function(DONE, timeout=300_000)
    first = time.perf_counter() - start
    said = page.get_by_test_id("student-output").inner_text()
    if "=" not in said:
        raise SystemExit(f"the first run did not show a value: {said!r}")
    return {"relayed": float(relay.sent - sent), "usable": usable, "first": first}


def cold_and_reload(
    browser: Any, url: str, token: str, throttle: float, relay: Relay
) -> tuple[dict[str, float], dict[str, float]]:
    """One cold page, then the same page reloaded with its cache: bytes received by kind (the page's own
    responses, as Playwright sees them; the relay's count of everything), seconds to a usable page and to
    the first e(P) value."""
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, bypass_csp=True)
    context.add_cookies([{"name": "inarow_token", "value": token, "url": url}])
    page = context.new_page()
    sizes = {"pyodide": 0.0, "modules": 0.0}

    def received(response: Any) -> None:
        if response.status != 200 or response.request.timing.get("responseStart", -1) < 0:
            return
        length = float(response.headers.get("content-length") or 0)
        if "/lab/pyodide/" in response.url:
            sizes["pyodide"] += length
        elif response.url.endswith("/lab/inarow.zip"):
            sizes["modules"] += length

    context.on("response", received)
    session = context.new_cdp_session(page)
    session.send("Emulation.setCPUThrottlingRate", {"rate": throttle})
    cold = first_result(page, relay, lambda: page.goto(f"{url}/?student=1")) | sizes
    page.wait_for_timeout(500)  # what the page still loads after its first result
    sizes.update(pyodide=0.0, modules=0.0)
    again = first_result(page, relay, page.reload) | sizes
    context.close()
    return cold, again


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
        server, direct = start_server(Path(folder), ["--token", token], {"X-Inarow-Token": token})
        relay = Relay(int(direct.rpartition(":")[2]))
        url = f"http://127.0.0.1:{relay.port}"
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(
                    executable_path="/usr/bin/chromium", args=["--headless", "--no-sandbox", "--disable-gpu"]
                )
                table = Table(
                    title=f"A phone-sized page (390×844), /?student=1, cold and reloaded, {args.repeat} runs "
                    f"each, on {processor()}"
                )
                for column in ("CPU slow-down", "page", "server sent", "Pyodide", "inarow's modules",
                               "page usable", "first e(P) shown (min / median / max)"):  # fmt: skip
                    table.add_column(column, justify="right")
                for throttle in args.throttle:
                    runs = [cold_and_reload(browser, url, token, throttle, relay) for _ in range(args.repeat)]
                    for which, label in ((0, "cold"), (1, "reloaded")):
                        rows = [run[which] for run in runs]
                        firsts = sorted(row["first"] for row in rows)
                        table.add_row(
                            f"{throttle:g}×",
                            label,
                            f"{statistics.median(row['relayed'] for row in rows) / 1e6:.2f} MB",
                            f"{statistics.median(row['pyodide'] for row in rows) / 1e6:.1f} MB"
                            if not which
                            else "—",
                            f"{statistics.median(row['modules'] for row in rows) / 1e3:.0f} kB"
                            if not which
                            else "—",
                            f"{statistics.median(row['usable'] for row in rows):.1f} s",
                            f"{firsts[0]:.1f} / {statistics.median(firsts):.1f} / {firsts[-1]:.1f} s",
                        )
                console.print(table)
                browser.close()
        finally:
            relay.stop()
            server.terminate()
            server.wait(timeout=10)


if __name__ == "__main__":
    main()
