"""End to end, the lab on a server protected the way a LAN server is (``--token``), on a phone: a student's
e(P) runs in the page's own Python (Pyodide in a Web Worker), never on the server; a run past its limit
is stopped and the next one works; the class board at ``/class`` shows the submission."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx
import pytest
from pages import NEEDS_PYODIDE, TEXTBOOK_SOURCE, server_cpu

from inarow.evaluation.student import code_evaluation_from_source
from inarow.rules.notation import parse_game
from inarow.teaching.grading import grade
from inarow.web import browser as browser_side

if TYPE_CHECKING:  # tests/web/conftest.py: pytest's module, for its type only
    from conftest import Server

pytestmark = [pytest.mark.browser, pytest.mark.slow, NEEDS_PYODIDE]

TOKEN = "T0ken-for-the-class"
TEACHER_TOKEN = "T0ken-of-the-teacher"
TEXTBOOK = TEXTBOOK_SOURCE
PHONE = {"width": 390, "height": 844}
READY = "document.getElementById('explain-panel').dataset.state === 'ready'"
OUTPUT_DONE = "!document.getElementById('student-run').disabled"
ZERO = "def e(board):\n    return 0\n"
CORNERS, EDGES = ("a1", "a3", "c1", "c3"), ("a2", "b1", "b3", "c2")


@pytest.fixture
def token_server(make_server: Any) -> Server:
    server: Server = make_server(
        extra=("--token", TOKEN, "--teacher-token", TEACHER_TOKEN), headers={"X-Inarow-Token": TOKEN}
    )
    return server.start()


@pytest.fixture
def phone(browser: Any, token_server: Server) -> Iterator[Any]:
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, bypass_csp=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{token_server.url}/?token={TOKEN}")  # the token becomes a cookie
    yield page
    context.close()
    assert errors == [], errors


def run(page: Any, source: str, wait: float = 120_000) -> str:
    page.get_by_test_id("student-code").fill(source)
    page.get_by_test_id("student-run").click()
    page.wait_for_function(OUTPUT_DONE, timeout=wait)
    text: str = page.get_by_test_id("student-output").inner_text()
    return text


def test_a_students_e_runs_in_the_phones_browser(phone: Any, token_server: Server, artifacts: Path) -> None:
    started = time.monotonic()
    phone.goto(f"{token_server.url}/?student=1")
    code = phone.get_by_test_id("student-code")
    phone.wait_for_function(READY, timeout=60_000)
    assert code.is_visible()
    box = code.bounding_box()
    assert box is not None and box["y"] < PHONE["height"] and box["y"] + box["height"] > 0, (
        "student-code in view"
    )
    assert run(phone, TEXTBOOK).startswith("e(.../.../...) = 0")
    print(f"first e(P) run on a cold phone page: {time.monotonic() - started:.1f} s")

    # The textbook e(P) at the leaves, minimax 2 plies deep from the empty board.
    phone.get_by_label("Algorithm", exact=True).select_option("minimax")
    phone.get_by_label("Depth", exact=True).select_option("2")
    phone.wait_for_function(READY)
    phone.get_by_label("Use it at the leaves of the tree above").check()
    phone.wait_for_function(
        f"{READY} && document.getElementById('explain-summary').textContent.includes('pasted')"
    )
    phone.get_by_role("button", name="Show the whole tree").click()
    values = {
        move: phone.locator(f'[data-testid="tree-node"][data-path="{move}"] .value').first.text_content()
        for move in ("b2", *CORNERS, *EDGES)
    }
    assert values["b2"] in ("1", "+1"), values
    assert {values[move] for move in CORNERS} == {"−1"} or {values[m] for m in CORNERS} == {"-1"}, values
    assert {values[move].replace("−", "-") for move in EDGES} == {"-2"}, values
    # The algorithms compared with it, in the phone's Python too: minimax's row has the root's value.
    compared = phone.get_by_test_id("explain-compare").locator("tbody tr")
    compared.nth(3).wait_for(timeout=60_000)
    minimax = phone.locator('#compare-table tbody tr[data-algorithm="minimax"]')
    assert minimax.count() == 1 and "+1" in minimax.inner_text(), minimax.inner_text()
    phone.get_by_test_id("student-code").screenshot(path=artifacts / "lab-phone.png")


def test_the_server_is_out_of_reach_and_a_loop_is_stopped(
    phone: Any, token_server: Server, tmp_path: Path
) -> None:
    phone.goto(f"{token_server.url}/?student=1")
    phone.wait_for_function(READY, timeout=60_000)
    target = tmp_path / "written-by-a-student.txt"
    writes = (
        "def e(board):\n"
        f"    open({str(target)!r}, 'w').write('hello')\n"
        "    import os\n"
        f"    return len(os.listdir({str(tmp_path)!r}))\n"
    )
    said = run(phone, writes)
    assert not target.exists(), "the e(P) wrote on the server's disk"
    assert re.search(r"= \d+", said) or "Error" in said, said

    cpu = server_cpu(token_server)
    started = time.monotonic()
    said = run(phone, "def e(board):\n    while True:\n        pass\n", wait=30_000)
    stopped = time.monotonic() - started
    assert server_cpu(token_server) - cpu < 0.5, "the server worked while the student's loop ran"
    assert "e ran longer than 3 s on the empty board" in said, said
    assert stopped < 3 + 2, f"stopped after {stopped:.1f} s"
    assert run(phone, TEXTBOOK).startswith("e(.../.../...) = 0"), "the next run works"

    said = run(phone, "def e(board):\n    return len([0] * 10**12)\n")
    assert said.startswith("the evaluation '<pasted>:e' raised OverflowError") and ".../.../..." in said, said
    said = run(phone, "def e(board):\n    return e(board) + 1\n")
    assert "RecursionError" in said or "call stack" in said, said
    assert run(phone, TEXTBOOK).startswith("e(.../.../...) = 0"), "and after a blow-up too"


def test_a_submission_reaches_the_class_board_in_chinese(
    browser: Any, phone: Any, token_server: Server, artifacts: Path
) -> None:
    phone.goto(f"{token_server.url}/?student=1")
    phone.wait_for_function(READY, timeout=60_000)
    phone.get_by_label("Depth", exact=True).select_option("1")
    phone.wait_for_function(READY)
    algorithm = phone.get_by_label("Algorithm", exact=True).input_value()
    phone.get_by_test_id("student-code").fill(TEXTBOOK)
    phone.get_by_test_id("student-name").fill("Ada")
    phone.get_by_test_id("student-submit").click()
    phone.wait_for_function("!document.getElementById('student-submit').disabled", timeout=300_000)
    assert "On the class board as Ada." in phone.locator("#student-status").inner_text()
    # A second student, sent the way a browser sends (the moves its worker chose), through the API.
    diagrams = httpx.get(f"{token_server.url}/api/lab/positions", headers=token_server.headers).json()[
        "positions"
    ]
    browser_side.load("zero", ZERO)
    body = {"name": "Bo", "evaluation": "e", "algorithm": algorithm, "depth": 1, "source": ZERO}
    body |= browser_side.choose("zero", "tictactoe", diagrams, algorithm, 1)
    assert (
        httpx.post(f"{token_server.url}/api/class", json=body, headers=token_server.headers).status_code
        == 200
    )

    teacher = browser.new_context(viewport={"width": 1280, "height": 900}, locale="zh-CN", bypass_csp=True)
    page = teacher.new_page()
    page.goto(f"{token_server.url}/class?token={TEACHER_TOKEN}")
    rows = page.get_by_test_id("class-row")
    rows.nth(1).wait_for()
    expected = {
        "Ada": grade(parse_game("tictactoe"), code_evaluation_from_source(TEXTBOOK), 1, algorithm, games=0),
        "Bo": grade(parse_game("tictactoe"), code_evaluation_from_source(ZERO), 1, algorithm, games=0),
    }
    for i in range(rows.count()):
        row = rows.nth(i)
        name = row.get_attribute("data-name")
        assert float(row.get_attribute("data-accuracy") or "nan") == round(expected[name].accuracy, 6)
    assert rows.first.get_attribute("data-name") == "Ada", "best first"
    assert "导出 CSV" in page.locator("#class-csv").inner_text()
    page.get_by_role("button", name="进行循环赛").click()
    page.get_by_test_id("class-cross").locator("tbody tr").nth(1).wait_for(timeout=120_000)
    page.wait_for_function("!document.getElementById('class-tournament').disabled", timeout=120_000)
    page.screenshot(path=artifacts / "class-zh.png", full_page=True)
    page.screenshot(path="/tmp/class-zh.png", full_page=True)
    teacher.close()


def test_python_starts_under_the_pages_own_content_security_policy(browser: Any, live_server: Server) -> None:
    """No CSP bypass here: the worker, Pyodide's WebAssembly and the zip load as the page's policy allows."""
    from playwright.sync_api import expect

    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    blocked: list[str] = []

    def heard(message: Any) -> None:
        if "Content Security Policy" in message.text:
            blocked.append(message.text)

    page.on("console", heard)
    page.goto(f"{live_server.url}/?student=1")
    page.get_by_test_id("student-code").fill(TEXTBOOK)
    page.get_by_test_id("student-run").click()
    expect(page.get_by_test_id("student-output")).to_contain_text("e(.../.../...) = 0", timeout=120_000)
    context.close()
    assert blocked == []


OURS = re.compile(r"[A-Za-z]{3,}")
"""A word in Latin letters: none may be left on the Chinese page but names (below) and Python's own text."""

NAMES = re.compile(
    r"inarow|English|Python|SGF|Home|board\.\w+(\(\))?|<pasted>:e|\.py|[a-c][1-3]|def e\(board\)|[xo.]{3}(/[xo.]{3}){2}"
)


def english_left(page: Any) -> list[str]:
    """The visible texts of the page with a Latin word in them once names are taken out."""
    texts: list[str] = page.evaluate(
        """() => {
          const found = [];
          const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
          while (walker.nextNode()) {
            const element = walker.currentNode.parentElement;
            if (!element || element.closest('textarea, script, style, svg, pre, code, [hidden]')) continue;
            if (!element.checkVisibility()) continue;
            const text = walker.currentNode.textContent.trim();
            if (text) found.push(text);
          }
          return found;
        }"""
    )
    return [text for text in texts if OURS.search(NAMES.sub("", text))]


def test_the_lab_guides_browser_steps_run_as_written_on_a_chinese_phone(
    browser: Any, token_server: Server, artifacts: Path
) -> None:
    """docs/lab.zh.md, section 7, step by step at 390×844 in Chinese: every sentence of ours in Chinese (a
    student's errors too), a failed run clears the grade shown, the page never wider than the screen, and
    Submit sends what was just graded without grading again."""
    context = browser.new_context(
        viewport=PHONE, is_mobile=True, has_touch=True, locale="zh-CN", bypass_csp=True
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{token_server.url}/?token={TOKEN}")
    page.goto(f"{token_server.url}/?student=1")
    page.wait_for_function(READY, timeout=60_000)
    # The page scrolls to the box "用 Python 写的估价函数 e(P)", which holds the textbook's e(P).
    code = page.get_by_test_id("student-code")
    box = code.bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + 80 < PHONE["height"], box
    assert page.locator("#student-title").inner_text() == "用 Python 写的估价函数 e(P)"
    assert code.input_value().startswith("def e(board):")
    # 2. 在此局面上运行; a failing one says why in Chinese.
    page.get_by_role("button", name="在此局面上运行").click()
    page.wait_for_function(OUTPUT_DONE, timeout=120_000)
    assert page.get_by_test_id("student-output").inner_text() == "e(.../.../...) = 0，从 X（极大方）的立场"
    wrong = {
        "def e(board):\n    return 1 / 0\n": "估价函数 '<pasted>:e' 在局面 '.../.../...'（极大方为 x）上第 2 行抛出 "
        "ZeroDivisionError: division by zero",
        "def e(board)\n    return 0\n": "粘贴的估价函数无法编译：第 1 行 expected ':'",
        "def e(board):\n    return 'x'\n": "估价函数 '<pasted>:e' 在局面 '.../.../...'（极大方为 x）上返回了 'x'："
        "应返回一个从极大方立场出发的数",
        "def f(board):\n    return 0\n": "估价函数 '<pasted>:e' 中没有函数 'e'：代码定义了 f",
    }
    for source, said in wrong.items():
        assert run(page, source) == said
    assert run(page, TEXTBOOK).startswith("e(.../.../...) = 0")
    # 3. 在上面博弈树的叶节点使用它; 4. 深度 1, 与完美对弈比较评分.
    page.get_by_label("在上面博弈树的叶节点使用它").check()
    page.wait_for_function(
        f"{READY} && document.getElementById('explain-summary').textContent.includes('pasted')"
    )
    page.get_by_label("深度", exact=True).select_option("1")
    page.wait_for_function(READY)
    page.get_by_test_id("student-name").fill("王小明")
    page.get_by_role("button", name="与完美对弈比较评分").click()
    graded = "!document.getElementById('student-grade').disabled"
    page.wait_for_function(graded, timeout=300_000)
    assert page.get_by_test_id("student-headline").inner_text() == (
        "在由 e(P) 决定的局面上，1,287 个中保住了 753 个博弈值（58.5%）；e ≡ 0 保住 33.9%，随机的 e(P) 保住 33.4%"
    )
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth"), page.evaluate(
        "[document.documentElement.scrollWidth, innerWidth]"
    )
    wide = page.evaluate(
        "[...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > innerWidth + 0.5)"
        ".map((e) => e.tagName + '.' + e.className)"
    )
    assert wide == [], wide
    assert english_left(page) == []
    # 5. 提交到班级看板: what was just graded, no second grading.
    page.evaluate(
        """() => {
          window.statuses = [];
          new MutationObserver(() => window.statuses.push(document.getElementById('student-status').textContent))
            .observe(document.getElementById('student-status'), { childList: true, characterData: true, subtree: true });
        }"""
    )
    page.get_by_role("button", name="提交到班级看板").click()
    page.wait_for_function("!document.getElementById('student-submit').disabled", timeout=60_000)
    assert page.locator("#student-status").inner_text() == "已以 王小明 的名义提交到班级看板。"
    assert not any("评分" in status for status in page.evaluate("window.statuses")), "graded again"
    page.screenshot(path=artifacts / "lab-guide-zh.png", full_page=True)
    # A failing run clears the grade and "已以 … 的名义提交" of the code before it.
    assert run(page, "def e(board):\n    return 1 / 0\n").startswith("估价函数")
    assert page.get_by_test_id("student-grade").inner_text() == ""
    assert page.locator("#student-status").inner_text() == ""
    # A grading time-out names the position; code that loops before e is ever called says so.
    page.get_by_test_id("student-code").fill("def e(board):\n    while True:\n        pass\n")
    page.get_by_role("button", name="与完美对弈比较评分").click()
    page.wait_for_function(graded, timeout=120_000)
    assert page.locator("#student-status").inner_text() == (
        "e 在 .../.../... 上运行超过 3 秒：已被停止，Python 已重新启动"
    )
    page.get_by_test_id("student-code").fill("while True:\n    pass\n")
    page.get_by_role("button", name="与完美对弈比较评分").click()
    page.wait_for_function(graded, timeout=120_000)
    assert page.locator("#student-status").inner_text().startswith("代码在调用 e 之前")
    # The teacher's board shows the headline.
    teacher = browser.new_context(viewport={"width": 1280, "height": 900}, locale="zh-CN", bypass_csp=True)
    board = teacher.new_page()
    board.goto(f"{token_server.url}/class?token={TEACHER_TOKEN}")
    board.get_by_test_id("class-row").first.wait_for()
    assert board.get_by_test_id("class-headline").first.inner_text().startswith("58.5% (753/1,287)")
    teacher.close()
    context.close()
    assert errors == [], errors
