"""Make the screenshots the README and the docs show, with the browser tests' own setup (a real
``inarow serve`` on a free port, Debian's chromium driven by Playwright): ``python scripts/screenshots.py``
writes ``docs/images/*.png`` (``--out FOLDER`` elsewhere). Nothing in the docs is a screenshot by hand."""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "web"))

from conftest import CHROMIUM, CHROMIUM_ARGS, Server  # noqa: E402 - the browser tests' setup
from pages import desktop_page  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

TREE = "/?leaves=[[3,12,8],[2,4,6],[14,5,2]]&algo=alphabeta"
"""The textbook's tree (Russell and Norvig's Figure 5.5) in Explain, as a teacher's slide links it."""

SHOTS = {"explain.png": ("en-GB", TREE), "explain-zh.png": ("zh-CN", TREE + "&lang=zh")}
"""Each screenshot: its file, the browser's language and the page it shows."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "images")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        server = Server(Path(folder) / "games.sqlite3").start()
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                for name, (locale, path) in SHOTS.items():
                    with desktop_page(browser, server.url, locale=locale) as page:
                        page.goto(server.url + path)
                        page.locator("#tree g.node").first.wait_for()
                        page.locator("#explain-all").click()
                        page.wait_for_timeout(300)  # the tree's last transition
                        box = page.locator("#tree").bounding_box()
                        assert box is not None, "the tree is drawn"
                        page.evaluate(f"window.scrollBy(0, {box['y']} - 330)")  # the tree under the top bar
                        page.screenshot(path=args.out / name)
                        print(args.out / name)
                browser.close()
        finally:
            server.stop()


if __name__ == "__main__":
    main()
