"""The Gomoku board in a real chromium: a grid of lines with the stones on the intersections, the star
points, coordinates on every board and the last move marked. Screenshots go to ``test-artifacts/``."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pages import SETTLED, desktop_page, stones

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture
def page(page: Any) -> Any:
    """The desktop page of ``conftest.py``, opened and settled."""
    page.goto(page.base_url)
    page.wait_for_function(SETTLED)
    return page


def new_game(page: Any, game: str) -> None:
    page.get_by_label("Game", exact=True).select_option(game)
    page.get_by_label("Players", exact=True).select_option("computer")
    page.get_by_label("Level", exact=True).select_option("medium")
    before = page.evaluate("localStorage.getItem('inarow.game')")
    page.get_by_role("button", name="New game").click()
    page.wait_for_function(f"localStorage.getItem('inarow.game') !== {before!r} && ({SETTLED})")


def test_gomoku_is_drawn_as_lines_with_star_points_coordinates_and_the_last_move_marked(
    page: Any, artifacts: Path
) -> None:
    new_game(page, "gomoku")
    board = page.locator("#board")
    assert "grid" in (board.get_attribute("class") or "")
    stars = page.eval_on_selector_all("#board [data-star='true']", "all => all.map(c => c.dataset.cell)")
    assert sorted(stars) == ["d12", "d4", "h8", "l12", "l4"]
    assert page.eval_on_selector_all("#board .row-label", "all => all.map(l => l.textContent)") == [
        str(n) for n in range(15, 0, -1)
    ]
    assert "".join(
        page.eval_on_selector_all("#board .column-label", "all => all.map(l => l.textContent)")
    ) == ("abcdefghijklmno")
    ply = int(page.evaluate("document.body.dataset.ply"))
    page.locator('#board [data-cell="h8"]').click()
    page.wait_for_function(f"Number(document.body.dataset.ply) >= {ply} + 2 && ({SETTLED})")
    last = page.locator("#board .cell.last")
    assert last.count() == 1 and last.get_attribute("data-stone") == "o"
    assert "last move" in (last.get_attribute("aria-label") or "")
    assert page.locator('#board [data-cell="h8"]').get_attribute("data-stone") == "x"
    board.screenshot(path=artifacts / "gomoku-board.png")


def test_small_boards_keep_their_squares_and_get_coordinates_too(page: Any, artifacts: Path) -> None:
    new_game(page, "tictactoe")
    assert "grid" not in (page.locator("#board").get_attribute("class") or "")
    assert page.eval_on_selector_all("#board .row-label", "all => all.map(l => l.textContent)") == [
        "3",
        "2",
        "1",
    ]
    new_game(page, "connect4")
    assert page.eval_on_selector_all("#board .column-label", "all => all.map(l => l.textContent)") == [
        str(n) for n in range(1, 8)
    ]
    page.locator("#board").screenshot(path=artifacts / "connect4-board.png")


# ------------------------------------------------------------------------- black and white, Renju
def start(page: Any, **choices: str) -> None:
    """A new game with the menus (by their ids) set to ``choices``."""
    for menu, value in choices.items():
        page.locator(f"#{menu}").select_option(value)
    before = page.evaluate("localStorage.getItem('inarow.game')")
    page.locator("#new-game button[type=submit]").click()
    page.wait_for_function(f"localStorage.getItem('inarow.game') !== {before!r} && ({SETTLED})")


def play(page: Any, *cells: str) -> None:
    for cell in cells:
        ply = int(page.evaluate("document.body.dataset.ply"))
        page.locator(f'#board [data-cell="{cell}"]').click()
        page.wait_for_function(f"Number(document.body.dataset.ply) > {ply} && ({SETTLED})")


PLAY_VIEW_TEXT = """() => {
  const view = document.getElementById('play-view');
  const said = [...view.querySelectorAll('[aria-label], [title]')]
    .filter((e) => !e.closest('[hidden]'))
    .flatMap((e) => [e.getAttribute('aria-label'), e.getAttribute('title')].filter(Boolean));
  return [view.innerText, ...said].join('\\n');
}"""


@pytest.fixture
def zh_page(browser: Any, live_server: Any) -> Iterator[Any]:
    with desktop_page(browser, live_server.url, locale="zh-CN") as opened:
        opened.goto(opened.base_url)
        opened.wait_for_function(SETTLED)
        yield opened


def test_a_chinese_gomoku_game_names_black_and_white_and_never_x_or_o(zh_page: Any, artifacts: Path) -> None:
    """The player moves first, so plays black (执黑): the status, the players' line, the move list and the
    board's labels say 黑 and 白; no X or O is left in the play view, and the stones are drawn black for
    the first player."""
    start(zh_page, game="gomoku", mode="computer", level="medium", first="you")
    assert zh_page.locator("#you").is_hidden()
    assert zh_page.get_by_test_id("status").inner_text() == "轮到你走（黑）。"
    play(zh_page, "h8")
    zh_page.wait_for_function(f"Number(document.body.dataset.ply) >= 2 && ({SETTLED})")
    players = zh_page.locator("#players").inner_text()
    assert "你：黑" in players and "电脑：白" in players
    moves = zh_page.locator("#move-list").inner_text()
    assert "1. 黑 h8" in moves and "2. 白 " in moves
    assert "黑" in (zh_page.locator('#board [data-cell="h8"]').get_attribute("aria-label") or "")
    assert zh_page.locator('#board [data-cell="h8"]').get_attribute("data-stone") == "x"  # the black stone
    text = zh_page.evaluate(PLAY_VIEW_TEXT)
    assert "黑" in text and "白" in text
    assert re.findall(r"\b[XO]\b", text) == [], text
    zh_page.screenshot(path=artifacts / "gomoku-zh-black-white.png", full_page=True)


def test_renju_marks_black_s_forbidden_points_and_refuses_them_with_the_reason(
    page: Any, artifacts: Path
) -> None:
    """Two people play the issue's position: Black f8 g8 h9 h10, White in the corners. With Black to move,
    h8 (a double three) is marked, and playing it is refused with why; with White to move, nothing is."""
    start(page, game="renju", mode="humans")
    play(page, "f8", "a1", "g8", "a15", "h9", "o1", "h10", "o15")
    h8 = page.locator('#board [data-cell="h8"]')
    assert "forbidden" in (h8.get_attribute("class") or "")
    assert h8.get_attribute("data-forbidden") == "double-three"
    assert "forbidden point" in (h8.get_attribute("aria-label") or "")
    assert page.locator("#board .cell.forbidden").count() == 1
    page.locator("#board").screenshot(path=artifacts / "renju-forbidden.png")
    h8.click()
    page.wait_for_function("document.getElementById('status').textContent.includes('double three')")
    assert page.evaluate("document.body.dataset.ply") == "8"
    play(page, "e8")
    assert page.locator("#board .cell.forbidden").count() == 0


def test_move_numbers_go_on_the_stones_when_asked(page: Any) -> None:
    start(page, game="gomoku", mode="humans")
    play(page, "h8", "h9", "i9")
    assert page.locator("#board .move-number").count() == 0
    page.locator("#numbers").click()
    numbers = page.eval_on_selector_all(
        "#board .move-number", "all => all.map(n => [n.closest('.cell').dataset.cell, n.textContent])"
    )
    assert sorted(numbers) == [["h8", "1"], ["h9", "2"], ["i9", "3"]]
    assert page.locator("#board .cell.last .move-number").inner_text() == "3"
    assert page.locator("#numbers").get_attribute("aria-pressed") == "true"
    page.locator("#numbers").click()
    assert page.locator("#board .move-number").count() == 0


CELL_TEXTS = """() => [...document.querySelectorAll('#board .cell')]
  .filter((cell) => cell.textContent.trim() !== '')
  .map((cell) => [cell.dataset.cell, cell.textContent.trim()])"""


def test_the_analysis_of_a_gomoku_middle_game_numbers_at_most_ten_candidates_and_writes_nothing_else(
    page: Any, artifacts: Path
) -> None:
    """Twelve stones in, the Analysis view numbers its candidates 1, 2, … on empty points (at most ten),
    lists each with its win rate (a bound, ≤ or ≥, where the time ran out before its depth was done, as
    it can on a loaded machine) and the first moves of its line, and gives the other analysed points no text,
    only a quiet heat map (a faint disc on some of them)."""
    start(page, game="gomoku", mode="humans")
    play(page, "h8", "h9", "i9", "g7", "j10", "k11", "i8", "i7", "g8", "f8", "j8", "k8")
    page.locator("#analysis").click()
    page.wait_for_function("document.querySelectorAll('#candidates li').length > 0")
    texts = page.evaluate(CELL_TEXTS)
    assert 1 <= len(texts) <= 10
    assert sorted(int(text) for _, text in texts) == list(range(1, len(texts) + 1))
    stones_now = {cell for cell, stone in stones(page).items() if stone}
    assert not stones_now & {cell for cell, _ in texts}
    items = page.eval_on_selector_all("#candidates li", "all => all.map(li => li.textContent)")
    assert len(items) == len(texts)
    by_rank = {int(text): cell for cell, text in texts}
    for rank, item in enumerate(items, start=1):
        assert re.fullmatch(
            rf"{rank}\. {by_rank[rank]} — (\d+%, ((≤ |≥ )?eval [+-]\d+|win found, not proven|loss found, not proven)|win in \d+|loss in \d+|draw) — [a-o]\d+( [a-o]\d+)*",
            item,
        ), item
    assert page.locator("#board .eval").count() == 0
    heated = page.eval_on_selector_all(
        "#board .cell[data-heat]", "all => all.map(cell => [cell.dataset.cell, Number(cell.dataset.heat)])"
    )
    assert heated, "the other analysed points get a quiet heat map"
    assert not {cell for cell, _ in heated} & ({cell for cell, _ in texts} | stones_now)
    assert all(0 < level <= 1 for _, level in heated)
    page.screenshot(path=artifacts / "gomoku-analysis.png", full_page=True)


def test_a_gomoku_position_opened_from_a_link_leaves_new_game_on_gomoku(page: Any) -> None:
    """The form starts on its last choice (tic-tac-toe here); a link to a Gomoku position sets it to
    Gomoku, with black and white instead of X and O, so that "New game" starts another Gomoku game."""
    start(page, game="tictactoe", mode="computer")
    page.goto(f"{page.base_url}/?game=gomoku&position=h8%20h9%20i9")
    page.wait_for_function(f"Number(document.body.dataset.ply) === 3 && ({SETTLED})")
    assert page.locator("#game").input_value() == "gomoku"
    assert page.locator("#you").is_hidden() and page.locator("#opener").is_hidden()
    start(page)
    assert len(stones(page)) == 15 * 15
    assert page.evaluate("document.body.dataset.ply") in {"0", "1"}
