"""The Gomoku board in a real chromium: a grid of lines with the stones on the intersections, the star
points, coordinates on every board and the last move marked. Screenshots go to ``test-artifacts/``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pages import SETTLED

pytestmark = pytest.mark.browser


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
