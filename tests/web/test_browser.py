"""End to end: the page in a real chromium against ``inarow serve`` on a free localhost port.

Screenshots go to ``test-artifacts/``. The page exposes ``data-busy``, ``data-ply`` and ``data-waiting`` on
``<body>``, so a test waits for exactly the state it needs instead of sleeping.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.browser

SETTLED = "document.body.dataset.busy === 'false' && document.body.dataset.waiting !== 'computer'"


@pytest.fixture
def page(browser: Any, live_server: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.base_url = live_server.url
    yield page
    context.close()
    assert errors == [], "the page raised JavaScript errors"


def start(
    page: Any, game: str = "tictactoe", level: str = "perfect", mode: str = "computer", **choices: str
) -> None:
    page.goto(page.base_url)
    page.wait_for_function(SETTLED)
    page.get_by_label("Game", exact=True).select_option(game)
    page.get_by_label("Players", exact=True).select_option(mode)
    if mode != "humans":
        page.get_by_label("Level", exact=True).select_option(level)
    for label, value in choices.items():
        page.get_by_label(label.replace("_", " ").capitalize(), exact=True).select_option(value)
    before = page.evaluate("localStorage.getItem('inarow.game')")
    page.get_by_role("button", name="New game").click()
    page.wait_for_function(f"localStorage.getItem('inarow.game') !== {before!r} && ({SETTLED})")


def stones(page: Any) -> dict[str, str]:
    cells = page.locator("[data-cell]")
    return {
        cells.nth(i).get_attribute("data-cell"): cells.nth(i).get_attribute("data-stone")
        for i in range(cells.count())
    }


def click_and_settle(page: Any, cell: str) -> None:
    ply = int(page.evaluate("document.body.dataset.ply"))
    page.locator(f'[data-cell="{cell}"]').click()
    page.wait_for_function(f"Number(document.body.dataset.ply) > {ply} && ({SETTLED})")


def status(page: Any) -> Any:
    return page.get_by_test_id("status")


def test_a_whole_game_against_perfect_cannot_be_won(page: Any, artifacts: Path) -> None:
    start(page, level="perfect")
    expect_status = status(page)
    assert expect_status.inner_text() == "Your move (X)."
    for _ in range(5):
        board = stones(page)
        empty = [cell for cell, stone in board.items() if stone == ""]
        click_and_settle(page, empty[0])
        if page.evaluate("document.body.dataset.waiting") == "none":
            break
    text = expect_status.inner_text()
    assert text in ("Draw.", "The computer wins — 3 in a row."), text
    assert not text.startswith("You win")
    board = stones(page)
    assert sum(stone == "x" for stone in board.values()) - sum(stone == "o" for stone in board.values()) in (
        0,
        1,
    )
    if text != "Draw.":
        assert page.locator(".cell.winning").count() == 3
    assert page.locator("#wins").inner_text() == "0"
    page.screenshot(path=artifacts / "browser-whole-game.png", full_page=True)


def test_an_illegal_click_is_explained_and_changes_nothing(page: Any, artifacts: Path) -> None:
    start(page, level="perfect")
    click_and_settle(page, "b2")
    before = stones(page)
    page.locator('[data-cell="b2"]').click()
    page.wait_for_function("document.querySelector('[data-testid=status]').textContent.includes('taken')")
    assert status(page).inner_text() == "Can't play b2: cell is taken."
    assert stones(page) == before
    assert page.get_by_role("button", name="b2, X").count() == 1, "cells have accessible names"
    page.screenshot(path=artifacts / "browser-illegal.png")


def test_undo_takes_back_your_move_and_the_reply(page: Any) -> None:
    start(page, level="medium")
    click_and_settle(page, "a1")
    assert sum(stone != "" for stone in stones(page).values()) == 2
    page.get_by_role("button", name="Undo").click()
    page.wait_for_function("document.body.dataset.ply === '0' && document.body.dataset.busy === 'false'")
    assert set(stones(page).values()) == {""}
    assert page.get_by_role("button", name="Undo").is_disabled()


def test_the_keypad_keys_play_on_three_by_three(page: Any) -> None:
    start(page, level="perfect")
    page.keyboard.press("7")
    page.wait_for_function(f"Number(document.body.dataset.ply) >= 2 && ({SETTLED})")
    assert stones(page)["a3"] == "x"
    page.locator('[data-cell="c1"]').focus()
    page.keyboard.press("ArrowUp")
    focused = page.evaluate("document.activeElement.dataset.cell")
    assert focused == "c2"


def test_hint_shows_the_best_move(page: Any) -> None:
    """
    . . .
    . . .
    x . .      after x a1 the only reply that holds the draw is the centre
    """
    start(page, mode="humans")
    click_and_settle(page, "a1")
    page.get_by_role("button", name="Hint").click()
    page.wait_for_function("document.querySelector('[data-testid=status]').textContent.startsWith('Hint')")
    assert status(page).inner_text() == "Hint: play b2 (draw with best play)."
    assert page.locator(".cell.hint").get_attribute("data-cell") == "b2"


def test_analysis_shows_the_value_of_every_empty_cell(page: Any, artifacts: Path) -> None:
    """
    . . .
    o x .
    x . .      o to move loses: c3 holds out longest (loss in 2), the rest lose at once
    """
    start(page, mode="humans")
    for cell in ("a1", "a2", "b2"):
        click_and_settle(page, cell)
    page.get_by_role("button", name="Analysis").click()
    page.wait_for_function("document.querySelectorAll('.cell .eval').length === 6")
    labels = {
        cell: page.locator(f'[data-cell="{cell}"] .eval').inner_text()
        for cell in ("a3", "b1", "b3", "c1", "c2", "c3")
    }
    assert labels == {
        "a3": "loss in 1", "b1": "loss in 1", "b3": "loss in 1", "c1": "loss in 1", "c2": "loss in 1", "c3": "loss in 2",
    }  # fmt: skip
    assert page.locator('[data-cell="c3"] .eval.loss').count() == 1
    assert page.locator("#analysis-summary").inner_text() == "O to move: X wins in 2 moves."
    assert page.locator("#pv").inner_text() == "c3 b1 b3 c1"
    assert page.get_by_role("button", name="c3, empty, loss in 2").count() == 1
    page.screenshot(path=artifacts / "browser-analysis.png", full_page=True)


def test_a_reload_mid_game_carries_on_the_same_game(page: Any) -> None:
    start(page, level="medium")
    click_and_settle(page, "b2")
    before = stones(page)
    game_id = page.evaluate("localStorage.getItem('inarow.game')")
    page.reload()
    page.wait_for_function(f"document.body.dataset.ply === '2' && ({SETTLED})")
    assert stones(page) == before
    assert page.evaluate("localStorage.getItem('inarow.game')") == game_id
    assert status(page).inner_text() == "Your move (X)."


def test_a_connect_four_game_is_played_by_columns_to_the_end(page: Any, artifacts: Path) -> None:
    start(page, game="connect4", level="easy")
    assert page.locator("[data-cell]").count() == 42
    page.locator('[data-cell="d6"]').click()  # anywhere in the column: the disc falls to d1
    page.wait_for_function(f"Number(document.body.dataset.ply) >= 2 && ({SETTLED})")
    board = stones(page)
    assert board["d1"] == "x" and board["d6"] == ""
    assert sum(stone == "o" for stone in board.values()) == 1
    for _ in range(25):
        if page.evaluate("document.body.dataset.waiting") == "none":
            break
        board = stones(page)
        column = next(c for c in "dcebfag" if board[f"{c}6"] == "")
        click_and_settle(page, f"{column}6")
    assert page.evaluate("document.body.dataset.waiting") == "none"
    assert re.fullmatch(
        r"You win — 4 in a row!|The computer wins — 4 in a row\.|Draw\.", status(page).inner_text()
    )
    page.screenshot(path=artifacts / "browser-connect4.png", full_page=True)


def test_the_history_replays_a_game_with_its_mistake_marked(page: Any, artifacts: Path) -> None:
    start(page, mode="humans")
    for cell in ("b2", "b1"):
        click_and_settle(page, cell)
    page.get_by_role("button", name="History").click()
    page.locator("#games button").first.click()
    page.wait_for_function("document.querySelectorAll('#review-moves li').length === 2")
    assert page.locator("#review-moves .mistake").inner_text() == "2. O b1 ✗"
    page.locator("#review-moves .mistake button").click()
    assert "Mistake: it turned a draw into a loss." in page.locator("#review-status").inner_text()
    page.screenshot(path=artifacts / "browser-review.png", full_page=True)


def test_the_page_fits_a_phone(browser: Any, live_server: Any, artifacts: Path) -> None:
    context = browser.new_context(viewport={"width": 375, "height": 740}, has_touch=True, is_mobile=True)
    phone = context.new_page()
    phone.base_url = live_server.url
    try:
        start(phone, level="perfect")
        phone.locator('[data-cell="b2"]').tap()
        phone.wait_for_function(f"Number(document.body.dataset.ply) >= 2 && ({SETTLED})")
        assert stones(phone)["b2"] == "x"
        box = phone.locator("#board").bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 375
        assert phone.evaluate("document.documentElement.scrollWidth") <= 375, "no sideways scrolling"
        for name in ("New game", "Undo", "Hint", "Analysis"):
            assert phone.get_by_role("button", name=name, exact=True).is_visible()
        phone.screenshot(path=artifacts / "browser-phone.png", full_page=True)
    finally:
        context.close()
