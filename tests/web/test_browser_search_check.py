"""End to end, on a phone in Chinese: a student's own α-β checked node by node in the student's own browser
(the lab's sandboxed Pyodide; the server runs nothing): the skeleton pasted and checked shows its cases, a
search that cuts with > instead of ≥ fails with the case drawn on the Explain tree and the node where it
parted marked, and an endless loop is stopped and the page goes on; the check reaches the class board, its first failing case opening as its tree."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx
import pytest
from pages import NEEDS_PYODIDE, server_cpu

from inarow.teaching.checking.skeleton import SKELETONS
from inarow.web import browser as browser_side

if TYPE_CHECKING:  # tests/web/conftest.py: pytest's module, for its type only
    from conftest import Server

pytestmark = [pytest.mark.browser, pytest.mark.slow, NEEDS_PYODIDE]

PHONE = {"width": 390, "height": 844}
READY = "document.getElementById('explain-panel').dataset.state === 'ready'"
CHECKED = "!document.getElementById('search-check').disabled"
STRICT = (
    Path(__file__).resolve().parents[1] / "data" / "searches" / "bugs" / "strict_alphabeta.py"
).read_text()
ZERO = "def e(board):\n    return 0\n"
LOOP = "def alphabeta(node, depth, alpha, beta):\n    while True:\n        pass\n"


@pytest.fixture
def phone(browser: Any, live_server: Server) -> Iterator[Any]:
    context = browser.new_context(
        viewport=PHONE, is_mobile=True, has_touch=True, locale="zh-CN", bypass_csp=True
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    context.close()
    assert errors == [], errors


def check(page: Any, source: str, wait: float = 120_000) -> float:
    """Paste ``source``, run the check, wait for it to end; the seconds it took."""
    page.get_by_test_id("student-code").fill(source)
    started = time.monotonic()
    page.get_by_test_id("search-check").click()
    page.wait_for_function(CHECKED, timeout=wait)
    return time.monotonic() - started


def test_a_students_alphabeta_is_checked_node_by_node_in_the_phones_browser(
    phone: Any, live_server: Server, artifacts: Path
) -> None:
    phone.goto(f"{live_server.url}/?student=1")
    phone.wait_for_function(READY, timeout=60_000)
    mode = phone.get_by_test_id("student-mode")
    mode.select_option("search")
    # The box starts from the skeleton, in the page's language.
    phone.wait_for_function(
        "document.getElementById('student-source').value.startsWith('\"\"\"我自己的 α-β')", timeout=60_000
    )
    assert phone.locator("#student-function").input_value() == "alphabeta"
    assert not phone.get_by_test_id("student-run").is_visible(), "the e(P)'s buttons are put away"

    cpu = server_cpu(live_server)
    seconds = check(phone, SKELETONS["zh"])
    cases = phone.get_by_test_id("search-case")
    assert cases.count() >= 10
    assert {cases.nth(i).get_attribute("data-ok") for i in range(cases.count())} <= {"yes", "no"}
    assert cases.first.get_attribute("data-ok") == "no"  # the skeleton does not prune yet
    print(f"a full check of the skeleton on a phone-sized page: {seconds:.2f} s")

    seconds = check(phone, STRICT)
    assert server_cpu(live_server) - cpu < 0.5, "the server worked while the student's search was checked"
    print(f"a full check of a search cutting with >: {seconds:.2f} s")
    failed = phone.locator('[data-testid="search-case"][data-ok="no"]')
    assert failed.count() >= 1 and failed.first.get_attribute("data-name") == "random-2"
    words = failed.first.inner_text()
    assert "在 c 处你搜索了 c2，而 α-β 会剪掉它（α = +8 ≥ β = +8）" in words, words
    assert "剪枝条件写成了 > 而不是 ≥" in words, words
    # The case drawn on the Explain tree, the node where the search parted marked.
    mark = phone.get_by_test_id("search-divergence")
    mark.wait_for(timeout=30_000)
    assert mark.get_attribute("data-path") == "c"
    node = phone.locator('[data-testid="tree-node"][data-path="c"]')
    assert node.count() == 1
    pruned = phone.locator('[data-testid="tree-node"][data-path="c2"]')
    assert pruned.get_attribute("data-state") == "pruned"
    phone.locator("#tree").screenshot(path=artifacts / "search-check-tree-zh.png")
    phone.get_by_test_id("search-cases").screenshot(path=artifacts / "search-check-cases-zh.png")


def test_an_endless_loop_in_a_search_is_stopped_and_the_page_recovers(
    phone: Any, live_server: Server
) -> None:
    phone.goto(f"{live_server.url}/?student=1")
    phone.wait_for_function(READY, timeout=60_000)
    phone.get_by_test_id("student-mode").select_option("search")
    phone.wait_for_function("document.getElementById('student-source').value.length > 0", timeout=60_000)
    started = time.monotonic()
    check(phone, LOOP, wait=60_000)
    stopped = time.monotonic() - started
    said = phone.get_by_test_id("search-status").inner_text()
    assert "alphabeta" in said and "5" in said and "russell-norvig" in said, said
    assert stopped < 5 + 3, f"stopped after {stopped:.1f} s"
    assert phone.get_by_test_id("search-case").count() == 0
    # The next check runs in a new Python and works.
    check(phone, SKELETONS["zh"])
    assert phone.get_by_test_id("search-case").count() >= 10
    # And the box goes back to its e(P), kept apart.
    phone.get_by_test_id("student-mode").select_option("e(P)")
    assert phone.locator("#student-function").input_value() == "e"
    assert phone.get_by_test_id("student-code").input_value().startswith("def e(board)")
    assert phone.get_by_test_id("student-run").is_visible()


def test_a_checked_search_reaches_the_class_board_and_its_first_failing_case_opens_as_its_tree(
    browser: Any, phone: Any, live_server: Server, artifacts: Path
) -> None:
    # 'Bo' of the class 检索班 has an e(P) on the board (sent as a browser sends it), which claimed the name.
    diagrams = httpx.get(f"{live_server.url}/api/lab/positions").json()["positions"]
    browser_side.load("zero", ZERO)
    body = {
        "name": "Bo",
        "class": "检索班",
        "evaluation": "e",
        "algorithm": "alphabeta",
        "depth": 1,
        "source": ZERO,
    }
    body |= browser_side.choose("zero", "tictactoe", diagrams, "alphabeta", 1)
    submitted = httpx.post(f"{live_server.url}/api/class", json=body, timeout=300)
    assert submitted.status_code == 200
    secret = submitted.json()["secret"]

    phone.goto(f"{live_server.url}/?student=1")
    phone.wait_for_function(READY, timeout=60_000)
    phone.get_by_test_id("student-mode").select_option("search")
    phone.wait_for_function("document.getElementById('student-source').value.length > 0", timeout=60_000)
    check(phone, STRICT)
    phone.get_by_test_id("student-name").fill("Bo")
    phone.locator("#student-class").fill("检索班")
    phone.get_by_test_id("search-submit").click()
    phone.wait_for_function("document.getElementById('search-status').className.includes('error')")
    said = phone.get_by_test_id("search-status").inner_text()
    assert "Bo" in said and "taken" not in said, said  # the name is taken (in Chinese): the code is needed
    phone.get_by_test_id("student-secret-entry").fill(secret)
    phone.get_by_test_id("search-submit").click()
    phone.wait_for_function("document.getElementById('search-status').className.includes('done')")
    assert "11" in phone.get_by_test_id("search-status").inner_text()

    teacher = browser.new_context(viewport={"width": 1280, "height": 900}, locale="zh-CN", bypass_csp=True)
    page = teacher.new_page()
    page.goto(f"{live_server.url}/class?class=%E6%A3%80%E7%B4%A2%E7%8F%AD")
    checked = page.locator('[data-testid="class-row"][data-name="Bo"] [data-testid="class-search-check"]')
    checked.wait_for(timeout=30_000)
    assert (checked.get_attribute("data-passed"), checked.get_attribute("data-total")) == ("11", "20")
    assert "20 个用例中 11 个完全一致" in checked.inner_text()
    with page.expect_popup() as opened:
        checked.get_by_test_id("class-search-case").click()
    tree = opened.value
    tree.wait_for_function(
        f"{READY} && document.getElementById('explain-leaves').value.startsWith('[[[2,4],[6]')",
        timeout=60_000,
    )
    assert tree.locator('[data-testid="tree-node"][data-path=""]').count() == 1, "random-2's tree is drawn"
    page.screenshot(path=artifacts / "class-search-check-zh.png", full_page=True)
    teacher.close()
