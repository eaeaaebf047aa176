"""Make the screenshots the README and the docs show, with the browser tests' own setup (a real
``inarow serve`` on a free port, Debian's chromium driven by Playwright): ``python scripts/screenshots.py``
writes ``docs/images/*.png`` (``--out FOLDER`` elsewhere). Nothing in the docs is a screenshot by hand."""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "web"))

import httpx  # noqa: E402
from pages import desktop_page  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

from conftest import CHROMIUM, CHROMIUM_ARGS, Server  # noqa: E402 - the browser tests' setup

TREE = "/?leaves=[[3,12,8],[2,4,6],[14,5,2]]&algo=alphabeta"
"""The textbook's tree (Russell and Norvig's Figure 5.5) in Explain, as a teacher's slide links it."""

SHOTS = {"explain.png": ("en-GB", TREE), "explain-zh.png": ("zh-CN", TREE + "&lang=zh")}
"""Each screenshot of Explain: its file, the browser's language and the page it shows."""

CLASS = {"class-zh.png": "zh-CN"}
"""The class board (``/class``) after three students' submissions, by file and language."""

PHONE = {"width": 390, "height": 844}
"""A phone's screen, as the lab guide's browser steps are shown."""

LAB_STEPS = {"en-GB": ("", "Ada"), "zh-CN": ("-zh", "王小明")}
"""The lab guide's browser steps on a phone: the files' suffix by the browser's language, and the student's
name. Each language gives four: ``lab-phone-code`` (``/?student=1``, the code box), ``lab-phone-run`` (the
code run on the position), ``lab-phone-grade`` (graded) and ``lab-phone-submit`` (on the class board)."""

READY = "document.getElementById('explain-panel').dataset.state === 'ready'"

STUDENTS = (("王小明", "textbook", 2), ("李华", "textbook", 1), ("张伟", "zero", 2))
"""The three students: their names, their e(P) (the textbook's, or one that returns 0) and the depth."""


def submit_students(url: str) -> None:
    """Put :data:`STUDENTS` on the class board, their moves chosen by inarow's own textbook search, as each
    one's browser would choose them."""
    import httpx

    from inarow.engines.textbook import search
    from inarow.evaluation.student import code_evaluation_from_source
    from inarow.rules.notation import parse_game, parse_position

    textbook = (ROOT / "src" / "inarow" / "teaching" / "examples" / "textbook_eval.py").read_text("utf-8")
    sources = {"textbook": textbook, "zero": "def e(board):\n    return 0\n"}
    diagrams = httpx.get(f"{url}/api/lab/positions", timeout=30).json()["positions"]
    game = parse_game("tictactoe")
    for name, which, depth in STUDENTS:
        function = code_evaluation_from_source(sources[which])
        moves = [
            str(search(parse_position(diagram, game), "alphabeta", depth, function, record=False).move_name)
            for diagram in diagrams
        ]
        body = {"name": name, "class": "7b", "evaluation": "e", "depth": depth, "source": sources[which]}
        answer = httpx.post(f"{url}/api/class", json={**body, "moves": " ".join(moves)}, timeout=60)
        answer.raise_for_status()


def lab_steps(browser: Any, url: str, out: Path) -> None:
    """The lab guide's browser steps on a phone, as a student follows them: open ``/?student=1``, paste the
    textbook's e(P), run it on the position, grade it at depth 2, submit it with a name."""
    textbook = (ROOT / "src" / "inarow" / "teaching" / "examples" / "textbook_eval.py").read_text("utf-8")
    top = "(id) => document.getElementById(id).scrollIntoView({ block: 'start' }) || window.scrollBy(0, -90)"
    for locale, (suffix, name) in LAB_STEPS.items():
        context = browser.new_context(
            viewport=PHONE, is_mobile=True, has_touch=True, locale=locale, bypass_csp=True
        )
        page = context.new_page()
        page.goto(f"{url}/?student=1")
        page.wait_for_function(READY, timeout=120_000)
        page.screenshot(path=out / f"lab-phone-code{suffix}.png")
        page.get_by_test_id("student-code").fill(textbook)
        page.get_by_test_id("student-run").click()
        page.wait_for_function("!document.getElementById('student-run').disabled", timeout=120_000)
        page.evaluate(top, "student-run")
        page.screenshot(path=out / f"lab-phone-run{suffix}.png")
        page.get_by_test_id("student-name").fill(name)
        page.locator("#student-grade").click()
        page.wait_for_function("!document.getElementById('student-grade').disabled", timeout=300_000)
        page.evaluate(top, "student-grade")
        page.screenshot(path=out / f"lab-phone-grade{suffix}.png")
        page.get_by_test_id("student-submit").click()
        page.wait_for_function("!document.getElementById('student-submit').disabled", timeout=300_000)
        page.evaluate(top, "student-grade")
        page.screenshot(path=out / f"lab-phone-submit{suffix}.png")
        for step in ("code", "run", "grade", "submit"):
            print(out / f"lab-phone-{step}{suffix}.png")
        context.close()


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
                lab_steps(browser, server.url, args.out)
                httpx.delete(f"{server.url}/api/class", timeout=30).raise_for_status()
                submit_students(server.url)
                for name, locale in CLASS.items():
                    with desktop_page(browser, server.url, locale=locale) as page:
                        page.set_viewport_size({"width": 1100, "height": 470})
                        page.goto(f"{server.url}/class?lang={locale[:2]}")
                        page.locator('[data-testid="class-row"]').nth(len(STUDENTS) - 1).wait_for()
                        page.screenshot(path=args.out / name)
                        print(args.out / name)
                browser.close()
        finally:
            server.stop()


if __name__ == "__main__":
    main()
