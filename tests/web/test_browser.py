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
from pages import SETTLED, click_and_settle, desktop_page, stones

pytestmark = [pytest.mark.browser, pytest.mark.slow]

EXPLAINED = "document.getElementById('explain-panel').dataset.state"


def start(
    page: Any, game: str = "tictactoe", level: str = "perfect", mode: str = "computer", **choices: str
) -> None:
    page.goto(page.base_url)
    page.wait_for_function(SETTLED)
    page.get_by_label("Game", exact=True).select_option(game)
    page.get_by_label("Players", exact=True).select_option(mode)
    if mode == "computer":
        page.get_by_label("Level", exact=True).select_option(level)
    for label, value in choices.items():
        page.get_by_label(label.replace("_", " ").capitalize(), exact=True).select_option(value)
    before = page.evaluate("localStorage.getItem('inarow.game')")
    page.get_by_role("button", name="New game").click()
    page.wait_for_function(f"localStorage.getItem('inarow.game') !== {before!r} && ({SETTLED})")


def status(page: Any) -> Any:
    return page.get_by_test_id("status")


def test_a_whole_game_against_perfect_cannot_be_won(page: Any, artifacts: Path) -> None:
    start(page, level="perfect")
    # The server is shared: other tests may have won on it. The wins on tictactoe before this game:
    wins = page.evaluate(
        "fetch('/api/scores').then((r) => r.json())"
        ".then((s) => String(s.find((e) => e.game === 'tictactoe')?.wins ?? 0))"
    )
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
    assert page.locator("#wins").inner_text() == wins
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


def test_the_analysis_of_connect_four_says_its_values_come_from_the_opening_book(page: Any) -> None:
    """The empty board's seven moves are all in the shipped book: the panel says so, and so does each
    column's labelled cell (data-source, and its spoken label)."""
    start(page, game="connect4", mode="humans")
    page.get_by_role("button", name="Analysis").click()
    source = page.get_by_test_id("analysis-source")
    source.wait_for(state="visible")
    assert source.inner_text() == "Every value from the opening book, without a search."
    booked = page.locator('[data-cell][data-source="book"]')
    assert booked.count() == 7
    assert booked.first.get_attribute("aria-label").endswith("from the opening book")


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
    context = browser.new_context(
        viewport={"width": 375, "height": 740}, has_touch=True, is_mobile=True, bypass_csp=True
    )
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
        for name in ("New game", "Undo", "Hint", "Analysis", "Explain"):
            assert phone.get_by_role("button", name=name, exact=True).is_visible()
        phone.screenshot(path=artifacts / "browser-phone.png", full_page=True)
        phone.get_by_role("button", name="Explain", exact=True).tap()
        phone.wait_for_function(f"{EXPLAINED} === 'ready'")
        assert phone.evaluate("document.documentElement.scrollWidth") <= 375, "the tree scrolls in its frame"
        phone.screenshot(path=artifacts / "browser-phone-explain.png", full_page=True)
    finally:
        context.close()


def test_the_menus_offer_what_the_server_accepts(page: Any, client: Any) -> None:
    """The level, players and Explain menus are built from GET /api/menus; every player offered can play."""
    page.goto(page.base_url)
    page.wait_for_function(SETTLED)
    menus = client.get("/api/menus").json()

    def options(select: str) -> list[str]:
        values: list[str] = page.eval_on_selector_all(f"#{select} option", "all => all.map(o => o.value)")
        return values

    def chosen(select: str) -> str:
        value: str = page.locator(f"#{select}").input_value()
        return value

    assert options("explain-algorithm") == menus["algorithms"]
    assert options("explain-evaluation") == [*menus["evaluations"], "custom"], "then your own weights"
    assert options("level") == menus["levels"]
    assert [int(depth) for depth in options("explain-depth")[:-1]] == list(range(1, 7))
    assert options("explain-depth")[-1] == "end"
    players = options("x-player")
    assert players[: len(menus["players"])] == menus["players"], "every named player, then a few searches"
    assert players[-1] == "own", "and last a player of your own, typed in"
    assert options("o-player") == players
    for name in players[:-1]:
        game = client.post("/api/games", json={"mode": "computers", "x_player": name, "o_player": name})
        assert game.status_code == 201, (name, game.text)
    defaults = {"level": "medium", "x-player": "rules", "o-player": "minimax:2:open-lines"}
    assert {select: chosen(select) for select in defaults} == defaults
    assert page.locator("#x-player option:checked").inner_text() == "Rules (win, block, corner…)"
    weighted = page.locator('#o-player option[value="alphabeta:4:weighted"]')
    assert weighted.inner_text() == "α-β, 4 plies, weighted"


# ------------------------------------------------------------------------------ explain and watch
def shown_nodes(page: Any) -> int:
    count: int = page.locator("#tree g.node").count()
    return count


@pytest.fixture
def patient_page(browser: Any, make_server: Any) -> Iterator[Any]:
    """A page of a server that thinks 10 s, so that each of the comparison table's ten rows may take a
    second: on the shared server's 1 s, a busy machine's stall of over 0.1 s once stopped the 65-node
    minimax at 51 nodes."""
    server = make_server(think_time=10.0).start()
    with desktop_page(browser, server.url) as page:
        yield page


def test_explain_draws_the_alphabeta_tree_with_its_pruned_branches_and_steps_through_it(
    patient_page: Any, artifacts: Path
) -> None:
    """
    . . .
    . x .
    . . .      o to move; two plies of α-β visit 23 nodes where minimax visits 65

    O, the side to move, is MAX (the side whose standpoint the student takes): the value is O's, -3;
    the course's α-β is fail-soft.
    """
    page = patient_page
    start(page, mode="humans")
    click_and_settle(page, "b2")
    page.get_by_role("button", name="Explain").click()
    page.wait_for_function(f"{EXPLAINED} === 'ready'")
    assert page.get_by_label("Algorithm", exact=True).input_value() == "alphabeta"
    assert page.get_by_label("Depth", exact=True).input_value() == "2"
    assert shown_nodes(page) == 1, "the replay starts at the root"
    assert page.locator("#path-title").inner_text() == "α and β on the path"  # as read: not Α and Β
    page.get_by_role("button", name="Show the whole tree").click()
    assert shown_nodes(page) == 23
    pruned = page.locator("#tree [data-pruned]")
    assert pruned.count() == 42
    assert "≤" in pruned.first.locator("title").text_content()  # an α cut-off at x's Min node
    pruned.first.hover()
    reason = page.locator("#tree .reason.shown")
    assert reason.count() == 1 and "≤" in reason.text_content() and reason.is_visible()
    assert (
        page.locator("#explain-summary")
        .inner_text()
        .startswith(
            "α-β (fail-soft), 2 plies, e(P) open-lines: value −3, best move a1 · 23 nodes · 7 cut-offs "
            "pruned 42 moves."
        )
    )

    page.wait_for_function("document.querySelectorAll('#compare-table tbody tr').length === 11")
    counts = {
        row.get_attribute("data-algorithm"): row.locator(".count").inner_text()
        for row in page.locator("#compare-table tbody tr").all()
    }
    assert counts["minimax"] == counts["negamax"] == "65"
    assert counts["alphabeta"] == counts["alphabeta-hard"] == counts["negamax-alphabeta"] == "23"
    page.screenshot(path=artifacts / "browser-explain.png", full_page=True)

    page.get_by_role("button", name="Reset: back to the root").click()
    assert shown_nodes(page) == 1 and pruned.count() == 0
    step = page.get_by_role("button", name="Step: the next node")
    for _ in range(3):
        step.click()
    assert shown_nodes(page) == 3, "the root, a1, and a1's first reply, which has just returned"
    assert page.locator("#explain-progress").inner_text() == "step 4", (
        "how many steps there are is said at the end"
    )
    assert page.locator("#tree g.node.current").count() == 1
    page.get_by_role("button", name="Show the whole tree").click()
    assert shown_nodes(page) == 23

    first = page.locator('#tree g.node[data-id="1"]')
    assert first.get_attribute("aria-expanded") == "true"
    first.press("Enter")
    assert shown_nodes(page) == 23 - 7 and first.get_attribute("aria-expanded") == "false"
    page.locator('#tree g.node[data-id="1"]').press("Enter")
    assert shown_nodes(page) == 23

    page.emulate_media(color_scheme="dark")
    page.locator("#explain-panel").screenshot(path=artifacts / "browser-explain-dark.png")
    page.emulate_media(color_scheme="light")

    page.get_by_label("Algorithm", exact=True).select_option("minimax")
    page.wait_for_function(f"{EXPLAINED} === 'ready'")
    page.get_by_role("button", name="Show the whole tree").click()
    assert shown_nodes(page) == 65 and pruned.count() == 0
    page.get_by_label("Depth", exact=True).select_option("4")
    page.wait_for_function(f"{EXPLAINED} === 'ready' && !document.getElementById('explain-note').hidden")
    assert page.locator("#explain-note").inner_text() == (
        "4 plies would draw more than 2,000 nodes, too many to follow: the tree is drawn 3 plies deep."
    )


def test_explain_follows_the_position_on_the_board(page: Any) -> None:
    """The root is a Max node for whichever side is to move: X, then O after X's a1."""
    start(page, mode="humans")
    page.get_by_role("button", name="Explain").click()
    page.wait_for_function(f"{EXPLAINED} === 'ready'")
    assert (
        page.locator('#tree g.node[data-id="0"]')
        .get_attribute("aria-label")
        .startswith("Max node (X to move)")
    )
    click_and_settle(page, "a1")
    page.wait_for_function(
        "document.querySelector('#tree g.node[data-id=\"0\"]')?.getAttribute('aria-label')"
        ".startsWith('Max node (O to move)')"
    )
    page.get_by_label("MAX, whose standpoint").select_option("x")  # X's standpoint at O's turn: a Min root
    page.wait_for_function(
        "document.querySelector('#tree g.node[data-id=\"0\"]')?.getAttribute('aria-label')"
        ".startsWith('Min node (O to move)')"
    )
    page.get_by_role("button", name="Show the whole tree").click()
    assert shown_nodes(page) > 1


def test_watch_two_chosen_players_play_a_whole_game_and_it_replays_in_the_history(
    page: Any, artifacts: Path
) -> None:
    start(page, mode="computers", x_player="rules", o_player="minimax:2:open-lines", speed="100")
    assert page.get_by_label("Level", exact=True).is_hidden(), "each side has its own player"
    page.wait_for_function("document.body.dataset.waiting === 'none'")
    text = status(page).inner_text()
    assert text in ("Draw.", "X wins — 3 in a row.", "O wins — 3 in a row."), text
    assert page.locator("#players").inner_text() == "Tic-tac-toe · X: rules · O: minimax, 2 plies"
    plies = int(page.evaluate("document.body.dataset.ply"))
    assert 5 <= plies <= 9 and page.locator("#move-list li").count() == plies
    titles = [item.get_attribute("title") for item in page.locator("#move-list li").all()]
    assert all(t.startswith("The computer: minimax 2 plies deep: value ") for t in titles[1::2]), titles
    page.screenshot(path=artifacts / "browser-watch.png", full_page=True)

    page.get_by_role("button", name="History").click()
    entry = page.locator("#games button").first
    assert "rules vs minimax, 2 plies" in entry.inner_text()
    entry.click()
    page.wait_for_function(f"document.querySelectorAll('#review-moves li').length === {plies}")
    page.get_by_role("button", name="Last position").click()
    assert page.locator("#review-status").inner_text().startswith("Final position:")


def test_a_slow_first_move_while_the_engine_warms_up_says_so_and_then_plays(page: Any) -> None:
    """The server answers its health as ``warming`` (the engine still loading, as on a fresh install): the
    computer's first Gomoku move, which takes its whole think time, shows the warming-up line meanwhile,
    then the game goes on as usual."""
    import json

    health = {"status": "warming", "engine_ready": False, "pools": []}
    page.route(
        "**/api/health", lambda route: route.fulfill(content_type="application/json", body=json.dumps(health))
    )
    page.goto(page.base_url)
    page.wait_for_function(SETTLED)
    page.get_by_label("Game", exact=True).select_option("gomoku")
    page.get_by_label("Level", exact=True).select_option("perfect")
    page.get_by_label("First move", exact=True).select_option("computer")
    page.get_by_role("button", name="New game").click()
    page.wait_for_function(
        "document.getElementById('status').textContent.startsWith('Warming up the engine')", timeout=20_000
    )
    assert status(page).inner_text() == "Warming up the engine … the first move on a big board waits for it."
    page.wait_for_function(f"Number(document.body.dataset.ply) === 1 && ({SETTLED})", timeout=60_000)
    assert status(page).inner_text().startswith("The computer played ")
