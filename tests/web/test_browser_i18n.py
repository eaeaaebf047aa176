"""The page in Chinese: a chromium whose language is zh-CN gets the page, a whole game, Explain and a review
with no English word left in what a person reads; the switch back to English is remembered; O may open.

What a person reads is the visible text and the labels a screen reader says (aria-label, title, placeholder
of what is shown), and the titles of the tree's nodes. Left in are the names a notation gives: cells
(``a1``), moves, diagrams (``x.o/…``), the marks X and O, e(P), α and β, numbers, weights typed in
(``weights:1,1,1,inf``), the program's name and the switch's ``English``, which names the language in itself.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pages import SETTLED, click_and_settle, desktop_page, stones

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [pytest.mark.browser, pytest.mark.slow]

EXPLAINED = "document.getElementById('explain-panel').dataset.state === 'ready'"

READ = """() => {
  const shown = (e) => !e.closest('[hidden]') && e.getClientRects().length > 0;
  const said = [...document.querySelectorAll('[aria-label], [title], [placeholder]')]
    .filter(shown)
    .flatMap((e) => ['aria-label', 'title', 'placeholder'].map((name) => e.getAttribute(name)).filter(Boolean));
  const titles = [...document.querySelectorAll('svg title')].map((e) => e.textContent);
  return [document.title, document.body.innerText, ...said, ...titles].join('\\n');
}"""

ALLOWED = re.compile(
    r"\b[a-z]\d{1,2}\b"  # cells
    r"|\b[xo.]+(?:/[xo.]+)+"  # diagrams
    r"|\bweights:[0-9,.inf-]+"  # an evaluation typed in, as the player's name says it
    r"|\binarow serve\b|\bboard\.\w+(?:\(\))?|\.py\b|\bPython\b"  # code a student writes, and its language
    r"|\bHome\b"  # a key, named as written on it
    r"|\be\(P\)|\binarow\b|\bEnglish\b|\binf\b|\bSGF\b"  # SGF: a file format's name
)
ENGLISH_WORD = re.compile(r"[A-Za-z]{2,}")


def english_words(page: Any) -> list[str]:
    """The English words left in what a person reads on ``page``."""
    text = ALLOWED.sub(" ", page.evaluate(READ))
    return sorted(set(ENGLISH_WORD.findall(text)))


@pytest.fixture
def zh_page(browser: Any, live_server: Any) -> Iterator[Any]:
    """As the ``page`` fixture, in a browser whose language is Chinese (navigator.language and
    Accept-Language zh-CN)."""
    with desktop_page(browser, live_server.url, locale="zh-CN") as page:
        yield page


def open_page(page: Any) -> None:
    page.goto(page.base_url)
    page.wait_for_function(SETTLED)


def start(page: Any, **choices: str) -> None:
    """A new game with the menus (by their ids) set to ``choices``."""
    for menu, value in choices.items():
        page.locator(f"#{menu}").select_option(value)
    before = page.evaluate("localStorage.getItem('inarow.game')")
    page.locator("#new-game button[type=submit]").click()
    page.wait_for_function(f"localStorage.getItem('inarow.game') !== {before!r} && ({SETTLED})")


def play_to_the_end(page: Any) -> None:
    for _ in range(5):
        if page.evaluate("document.body.dataset.waiting") == "none":
            return
        empty = [cell for cell, stone in stones(page).items() if stone == ""]
        click_and_settle(page, empty[0])


def test_a_chinese_browser_gets_the_page_and_the_new_game_form_in_chinese(
    zh_page: Any, artifacts: Path
) -> None:
    open_page(zh_page)
    assert zh_page.evaluate("document.documentElement.lang") == "zh-CN"
    assert zh_page.locator("button.language[aria-pressed=true]").inner_text() == "中文"
    form = zh_page.locator("#new-game")
    assert form.locator("h2").inner_text() == "新的一局"
    for label in ("棋类", "对弈双方", "谁先走", "你执", "先手", "难度"):
        assert form.get_by_label(label, exact=True).count() == 1, label
    assert zh_page.locator("#game option[value=tictactoe]").inner_text() == "井字棋（3×3）"
    assert zh_page.locator("#opener option[value=o]").inner_text() == "O 先走"
    assert zh_page.title() == "inarow — k 子连线"
    assert english_words(zh_page) == []
    zh_page.screenshot(path=artifacts / "browser-zh-page.png", full_page=True)


def test_a_whole_game_in_chinese(zh_page: Any, artifacts: Path) -> None:
    open_page(zh_page)
    start(zh_page, level="perfect", mode="computer", you="x", first="you")
    assert zh_page.get_by_test_id("status").inner_text() == "轮到你走（X）。"
    requests: list[str] = []
    zh_page.on(
        "request",
        lambda r: requests.append(r.headers.get("accept-language", "")) if "/api/" in r.url else None,
    )
    play_to_the_end(zh_page)
    assert zh_page.get_by_test_id("status").inner_text() in ("和棋。", "电脑获胜——3 子连线。")
    notes = [zh_page.locator("#move-list li").nth(i).get_attribute("title") for i in range(2)]
    assert notes[0] == "由人走出" and notes[1].startswith("电脑：")
    # The server is asked in the page's language, so its errors come back in it.
    assert requests and set(requests) == {"zh-CN"}
    assert english_words(zh_page) == [], zh_page.evaluate(READ)
    zh_page.screenshot(path=artifacts / "browser-zh-game.png", full_page=True)


def test_hint_analysis_and_explain_in_chinese_with_the_textbooks_terms(zh_page: Any, artifacts: Path) -> None:
    open_page(zh_page)
    start(zh_page, level="medium", mode="computer", you="x", first="you")
    click_and_settle(zh_page, "a1")
    zh_page.locator("#analysis").click()
    zh_page.wait_for_function("!document.getElementById('analysis-summary').textContent.includes('…')")
    assert zh_page.locator("#analysis-summary").inner_text().startswith("轮到 X 走：")
    zh_page.locator("#hint").click()
    zh_page.wait_for_function("document.getElementById('status').textContent.startsWith('提示：')")
    zh_page.locator("#explain").click()
    zh_page.wait_for_function(EXPLAINED)
    zh_page.wait_for_function("document.querySelectorAll('#compare-table tbody tr').length > 0")
    assert zh_page.locator("#path-title").inner_text() == "路径上的 α 和 β"
    log = zh_page.get_by_test_id("explain-log")
    assert log.inner_text().startswith("从根节点开始：极大节点（X）走棋，α = −∞, β = +∞")
    zh_page.locator("#explain-all").click()
    text = log.inner_text()
    assert "极小节点（O）" in text and "到达深度限制：e(P) = " in text
    assert re.search(r"处 [αβ] 剪枝", text), text
    assert "根节点的倒推值为 " in text  # the course's 倒推值 (#19)
    zh_page.locator("#tree g.node[data-depth='2']").first.hover()
    assert zh_page.get_by_test_id("node-detail").inner_text().count("e(P) = ") == 1
    summary = zh_page.locator("#explain-summary").inner_text()
    assert summary.startswith("α-β（软失败），2 层，e(P) 为开放线：值 ") and "次剪枝剪掉了" in summary
    assert zh_page.locator("#compare-table tbody th").first.inner_text() == "极大极小"
    zh_page.locator("#explain-try").click()
    assert zh_page.locator("#quiz-question").inner_text().startswith("按“单步”")
    assert english_words(zh_page) == [], zh_page.evaluate(READ)
    zh_page.screenshot(path=artifacts / "browser-zh-explain.png", full_page=True)


def test_history_and_review_in_chinese(zh_page: Any, artifacts: Path) -> None:
    open_page(zh_page)
    start(zh_page, level="easy", mode="computer", you="x", first="you")
    play_to_the_end(zh_page)
    game_id = zh_page.evaluate("localStorage.getItem('inarow.game')")
    zh_page.locator(".tab[data-view=history]").click()
    entry = zh_page.locator(f'#games button[data-game="{game_id}"]')
    entry.wait_for()
    assert "对电脑（简单）" in entry.inner_text()
    entry.click()
    zh_page.wait_for_function("document.getElementById('review-status').textContent.startsWith('第 1 步')")
    assert zh_page.locator("#review-title").inner_text().startswith("复盘 · 井字棋 · ")
    assert re.fullmatch(
        r"第 1 步（共 \d 步）：X 走了 [a-c][1-3]（.+）；最佳走法是 .+（.+）。.*",
        zh_page.locator("#review-status").inner_text(),
    )
    zh_page.locator("#review-last").click()
    assert zh_page.locator("#review-status").inner_text().startswith("终局：")
    assert english_words(zh_page) == [], zh_page.evaluate(READ)
    zh_page.screenshot(path=artifacts / "browser-zh-review.png", full_page=True)


def test_the_switch_back_to_english_is_remembered(zh_page: Any) -> None:
    open_page(zh_page)
    assert zh_page.locator("#undo").inner_text() == "悔棋"
    with zh_page.expect_navigation():  # the page reloads in the language chosen
        zh_page.locator("button.language[lang=en]").click()
    zh_page.wait_for_function(
        "document.documentElement.lang === 'en' && document.body.dataset.busy === 'false'"
    )
    assert zh_page.locator("#undo").inner_text() == "Undo"
    assert zh_page.get_by_test_id("status").inner_text() == "Your move (X)."
    assert zh_page.evaluate("localStorage.getItem('inarow.language')") == "en"
    zh_page.reload()
    zh_page.wait_for_function(SETTLED)
    assert zh_page.evaluate("document.documentElement.lang") == "en"
    assert zh_page.locator("#new-game h2").text_content() == "New game"
    assert zh_page.locator("button.language[aria-pressed=true]").inner_text() == "English"
    with zh_page.expect_navigation():
        zh_page.locator("button.language[lang=zh-CN]").click()
    zh_page.wait_for_function(f"document.documentElement.lang === 'zh-CN' && ({SETTLED})")
    assert zh_page.locator("#undo").inner_text() == "悔棋"


def test_an_english_browser_keeps_the_page_in_english(page: Any) -> None:
    open_page(page)
    assert page.evaluate("document.documentElement.lang") == "en"
    assert page.locator("#new-game h2").text_content() == "New game"
    assert page.locator("button.language[aria-pressed=true]").inner_text() == "English"
    assert {"Undo", "Hint", "Explain", "Players"} <= set(english_words(page))  # the check sees English


def test_a_game_where_o_moves_first_from_the_page(page: Any, artifacts: Path) -> None:
    """
    . . .
    . . .
    . . .      O moves first: the person plays O and opens; the computer answers with X
    """
    open_page(page)
    assert page.locator("#opener").is_hidden()  # against the computer: the side you play and who starts
    start(page, level="perfect", mode="computer", you="o", first="you")
    assert page.get_by_test_id("status").inner_text() == "Your move (O)."
    assert page.locator("#players").inner_text().startswith("Tic-tac-toe, O moves first · You: O (first)")
    click_and_settle(page, "b2")
    board = stones(page)
    assert board["b2"] == "o" and list(board.values()).count("x") == 1
    assert page.evaluate("localStorage.getItem('inarow.game')")
    page.locator(".tab[data-view=history]").click()
    first = page.locator("#games button").first
    first.wait_for()
    assert first.inner_text().startswith("Tic-tac-toe, O moves first")
    # And the computer opens with O when the person plays X and lets it start.
    page.locator(".tab[data-view=play]").click()
    start(page, level="perfect", mode="computer", you="x", first="computer")
    assert list(stones(page).values()).count("o") == 1 and page.get_by_test_id(
        "status"
    ).inner_text().endswith("Your move (X).")
    # Between two people, "Who opens" says which side moves first.
    start(page, mode="humans", opener="o")
    assert page.get_by_test_id("status").inner_text() == "O to move."
    page.screenshot(path=artifacts / "browser-o-first.png", full_page=True)


def test_the_glossary_page_is_linked_from_the_page(zh_page: Any) -> None:
    open_page(zh_page)
    link = zh_page.locator("#glossary-link")
    assert link.inner_text() == "术语表"
    link.click()
    zh_page.wait_for_url("**/glossary?lang=zh-CN")
    table = zh_page.get_by_test_id("glossary")
    assert "极大节点 / 极小节点" in table.inner_text() and "Max node / Min node" in table.inner_text()


# ------------------------------------------------------------------ a phone in Chinese (390×844), issue 22
@pytest.fixture
def zh_phone(browser: Any, live_server: Any) -> Iterator[Any]:
    """A phone-size page (390×844, touch) in a browser whose language is Chinese."""
    context = browser.new_context(
        viewport={"width": 390, "height": 844},
        has_touch=True,
        is_mobile=True,
        locale="zh-CN",
        bypass_csp=True,
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.base_url = live_server.url
    yield page
    context.close()
    assert errors == [], f"the page raised JavaScript errors: {errors}"


def in_view(page: Any, selector: str) -> bool:
    """Whether the element's top is on the screen, below the sticky top bar."""
    return bool(
        page.evaluate(
            """(selector) => {
              const box = document.querySelector(selector).getBoundingClientRect();
              const bar = document.querySelector('.topbar').getBoundingClientRect().bottom;
              return box.top >= bar - 1 && box.top < innerHeight && box.height > 0;
            }""",
            selector,
        )
    )


def test_on_a_phone_new_game_brings_the_new_board_into_view(zh_phone: Any, artifacts: Path) -> None:
    """The form is under the board on a phone: tapping 新的一局 there scrolls back to the status and board."""
    open_page(zh_phone)
    zh_phone.locator("#first").select_option("computer")
    zh_phone.locator("#new-game button[type=submit]").scroll_into_view_if_needed()
    assert not in_view(zh_phone, "#board")
    before = zh_phone.evaluate("localStorage.getItem('inarow.game')")
    zh_phone.locator("#new-game button[type=submit]").tap()
    zh_phone.wait_for_function(f"localStorage.getItem('inarow.game') !== {before!r} && ({SETTLED})")
    assert in_view(zh_phone, "#status") and in_view(zh_phone, "#board")
    assert sum(1 for stone in stones(zh_phone).values() if stone) == 1, (
        "the computer's first move, on the new board"
    )
    assert zh_phone.locator("#keys-help").inner_text() == "", "no keyboard hints on a touch screen"
    assert zh_phone.get_by_role("button", name="重新开始").is_visible()
    coordinate = zh_phone.evaluate(
        "parseFloat(getComputedStyle(document.querySelector('.coord.row-label')).fontSize)"
    )
    assert coordinate >= 12, "coordinates readable on a phone"
    zh_phone.screenshot(path=artifacts / "phone-zh-new-game.png")


def test_the_glossary_fits_the_window_on_a_phone_and_a_desktop(
    zh_phone: Any, browser: Any, live_server: Any, artifacts: Path
) -> None:
    wide = browser.new_context(viewport={"width": 1280, "height": 800}, locale="zh-CN", bypass_csp=True)
    desktop = wide.new_page()
    try:
        for page, width in ((zh_phone, 390), (desktop, 1280)):
            page.goto(f"{live_server.url}/glossary")
            table = page.locator("[data-testid=glossary]").bounding_box()
            assert table["x"] >= 0 and table["x"] + table["width"] <= width
            assert page.evaluate("document.documentElement.scrollWidth") <= width, "no sideways scrolling"
            assert page.locator(".topbar .language").count() == 2, "the site's language switch"
            assert page.locator(".topbar .tab[aria-current=page]").inner_text() == "术语表"
            page.screenshot(path=artifacts / f"glossary-zh-{width}.png")
    finally:
        wide.close()


def test_a_position_opened_from_a_url_shows_its_stones_to_play_on(zh_phone: Any, artifacts: Path) -> None:
    zh_phone.goto(f"{zh_phone.base_url}/?game=tictactoe&position=b2%20a1")
    zh_phone.wait_for_function(f"document.body.dataset.ply === '2' && ({SETTLED})")
    placed = {cell: stone for cell, stone in stones(zh_phone).items() if stone}
    assert placed == {"b2": "x", "a1": "o"}
    assert "id=" in zh_phone.evaluate("location.search"), "the game opened has its own link"
    click_and_settle(zh_phone, "c3")
    assert stones(zh_phone)["c3"] == "x"
    zh_phone.screenshot(path=artifacts / "phone-zh-position-link.png")


def test_a_diagram_opened_from_a_url_shows_its_stones(zh_phone: Any) -> None:
    zh_phone.goto(f"{zh_phone.base_url}/?game=tictactoe&position=x.o%2F.x.%2F...")
    zh_phone.wait_for_function(f"document.body.dataset.ply === '3' && ({SETTLED})")
    placed = {cell: stone for cell, stone in stones(zh_phone).items() if stone}
    assert placed == {"a3": "x", "c3": "o", "b2": "x"}


def test_the_review_graph_has_a_point_per_move(zh_phone: Any, live_server: Any, artifacts: Path) -> None:
    """
    X O .
    X X .     two people play a1… to X's win at c1; the review of /?review=ID draws 7 points.
    X O O
    """
    import httpx

    game = httpx.post(f"{live_server.url}/api/games", json={"mode": "humans"}).json()
    moves = ["b2", "b1", "a1", "c3", "a3", "a2", "c1"]
    for move in moves:
        httpx.post(f"{live_server.url}/api/games/{game['id']}/moves", json={"move": move})
    zh_phone.goto(f"{zh_phone.base_url}/?review={game['id']}")
    points = zh_phone.locator("#review-graph .point")
    points.nth(len(moves) - 1).wait_for()
    assert points.count() == len(moves)
    assert [points.nth(i).get_attribute("data-ply") for i in range(len(moves))] == [
        str(n) for n in range(1, len(moves) + 1)
    ]
    points.nth(2).tap()
    assert zh_phone.locator("#review-slider").input_value() == "2"
    assert zh_phone.locator("#review-lines").inner_text().startswith("最佳路线：")
    zh_phone.locator("#review-graph").scroll_into_view_if_needed()
    zh_phone.screenshot(path=artifacts / "phone-zh-review-graph.png")


def _built_help() -> None:
    """The docs site built where the app serves it (scripts/test.sh builds it before the tests)."""
    import subprocess
    import sys

    from inarow.web.routes.pages import HELP

    if not (HELP / "zh" / "lab.html").is_file():
        root = Path(__file__).resolve().parents[2]
        subprocess.run([sys.executable, "-m", "mkdocs", "build", "--quiet"], cwd=root, check=True)


def test_the_help_link_opens_the_docs_offline_and_finds_the_lab_guide_in_chinese(zh_page: Any) -> None:
    _built_help()
    outside: list[str] = []

    def local_only(route: Any) -> None:
        if route.request.url.startswith(zh_page.base_url):
            route.continue_()
        else:
            outside.append(route.request.url)
            route.abort()

    zh_page.route("**/*", local_only)
    open_page(zh_page)
    link = zh_page.get_by_test_id("help-link")
    assert link.inner_text() == "帮助"
    link.click()
    zh_page.wait_for_url("**/help/zh/index.html")
    zh_page.get_by_role("link", name="一字棋 α-β 实验指导").first.click()
    zh_page.wait_for_url("**/help/zh/lab.html")
    assert "定义估价函数" in zh_page.locator("article").inner_text()
    assert "α 剪枝" in zh_page.locator("article").inner_text()
    assert outside == []


def test_the_docs_screenshots_are_made_by_their_script(tmp_path: Path) -> None:
    """``scripts/screenshots.py`` makes the README's and the docs' pictures with this suite's own setup; the
    README and the teaching pages show the ones it makes."""
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "screenshots.py"), "--out", str(tmp_path)],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    made = sorted(path.name for path in tmp_path.glob("*.png"))
    steps = [
        f"lab-phone-{step}{tail}.png" for step in ("code", "grade", "run", "submit") for tail in ("-zh", "")
    ]
    assert made == sorted(["class-zh.png", "explain-zh.png", "explain.png", *steps])
    assert all((tmp_path / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for name in made)
    assert "](docs/images/explain.png)" in (ROOT / "README.md").read_text(encoding="utf-8")
    assert (ROOT / "docs" / "images" / "explain.png").is_file()
    for page in ("teaching.md", "teaching.zh.md"):
        assert "](images/class-zh.png)" in (ROOT / "docs" / page).read_text(encoding="utf-8"), page
    assert (ROOT / "docs" / "images" / "class-zh.png").is_file()
    for page, tail in (("lab.md", ""), ("lab.zh.md", "-zh")):
        text = (ROOT / "docs" / page).read_text(encoding="utf-8")
        for step in ("code", "run", "grade", "submit"):
            assert f"](images/lab-phone-{step}{tail}.png)" in text, (page, step)
            assert (ROOT / "docs" / "images" / f"lab-phone-{step}{tail}.png").is_file()
