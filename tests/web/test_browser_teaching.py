"""End to end, the Explain panel as a student uses it: stepping through α-β with the current node in sight,
the log naming every cut-off, the answer hidden until the search reaches it, "Try it" scored, node details,
big boards drawn at a depth that fits, and a phone-size screen. Screenshots go to ``test-artifacts/``."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from pages import SETTLED

pytestmark = pytest.mark.browser

READY = "document.getElementById('explain-panel').dataset.state === 'ready'"


def explain_after(page: Any, moves: list[str], game: str = "tictactoe", wait: float = 30_000) -> None:
    """Two people play ``moves`` on ``game``, then Explain opens on the position."""
    page.goto(page.base_url)
    page.wait_for_function(SETTLED)
    page.get_by_label("Game", exact=True).select_option(game)
    page.get_by_label("Players", exact=True).select_option("humans")
    before = page.evaluate("localStorage.getItem('inarow.game')")
    page.get_by_role("button", name="New game").click()
    page.wait_for_function(f"localStorage.getItem('inarow.game') !== {before!r} && ({SETTLED})")
    for move in moves:
        ply = int(page.evaluate("document.body.dataset.ply"))
        page.locator(f'[data-cell="{move}"]').click()
        page.wait_for_function(f"Number(document.body.dataset.ply) > {ply} && ({SETTLED})")
    page.get_by_role("button", name="Explain", exact=True).click()
    page.wait_for_function(READY, timeout=wait)


def value_text(value: int | str) -> str:
    """As the page writes a value: +∞, −∞, +3, −1, 0."""
    if value == "inf":
        return "+∞"
    if value == "-inf":
        return "−∞"
    assert isinstance(value, int)
    return f"+{value}" if value > 0 else f"−{-value}" if value < 0 else "0"


def current_inside_frame(page: Any) -> bool:
    node = page.get_by_test_id("tree-current").bounding_box()
    frame = page.locator("#tree-frame").bounding_box()
    assert node is not None and frame is not None
    return bool(
        frame["x"] <= node["x"]
        and node["x"] + node["width"] <= frame["x"] + frame["width"]
        and frame["y"] <= node["y"]
        and node["y"] + node["height"] <= frame["y"] + frame["height"]
    )


def test_stepping_alpha_beta_keeps_the_current_node_in_sight_names_each_cutoff_and_hides_the_answer(
    page: Any, client: Any, artifacts: Path
) -> None:
    """
    . . .
    . x .
    o . .      x to move: two plies of α-β, step by step from the root to its value
    """
    explain_after(page, ["b2", "a1"])
    tree = client.post(
        "/api/explain", json={"position": "b2 a1", "algorithm": "alphabeta", "depth": 2}
    ).json()
    root_exit = tree["nodes"][0]["exit"]
    answer = f"value {value_text(tree['value'])}, best move {tree['move']}"
    step = page.get_by_role("button", name="Step: the next node")
    summary = page.locator("#explain-summary")
    log = page.get_by_test_id("explain-log")
    for index in range(tree["steps"]):
        assert page.locator("#explain-progress").inner_text() == f"step {index + 1} of {tree['steps']}"
        assert page.get_by_test_id("tree-current").count() == 1
        assert current_inside_frame(page), f"step {index + 1}: the current node is out of sight"
        assert log.locator("li").count() == index + 1
        assert log.locator("li.current").get_attribute("data-step") == str(index)
        if index < root_exit:
            assert answer not in summary.inner_text(), f"step {index + 1} gives the answer away"
            assert "appear when the search gets back to the root" in summary.inner_text()
        else:
            assert answer in summary.inner_text()
        if index == 14:
            page.screenshot(path=artifacts / "teaching-step.png", full_page=True)
        if index + 1 < tree["steps"]:
            step.click()
    lines = log.locator("li").all_inner_texts()
    cutoffs = [event for event in tree["events"] if event["kind"] == "cutoff"]
    assert cutoffs, "the position needs cut-offs"
    said = [line for line in lines if "cut-off" in line]
    assert len(said) == len(cutoffs)
    for event, line in zip(cutoffs, said, strict=True):
        assert line.startswith(f"{event['move']} returns {value_text(event['value'])}")
        assert " ".join(event["pruned"]) in line
    assert lines[-1] == f"The root's value is {value_text(tree['value'])}: best move {tree['move']}"
    assert page.locator("#explain-standpoint").inner_text() == (
        "Max is X, Min is O: every value is X's, so higher is better for X."
    )
    assert page.locator("#compare-value").text_content() == "Value for Max (X)"


def test_alpha_and_beta_show_on_every_node_of_the_path_and_a_leaf_shows_its_e_p(page: Any) -> None:
    explain_after(page, ["b2", "a1"])
    for _ in range(9):
        page.get_by_role("button", name="Step: the next node").click()
    path = page.get_by_test_id("explain-path").locator("li")
    assert path.count() >= 2
    assert all("α" in text and "β" in text for text in path.all_inner_texts())
    leaf = page.locator("#tree g.node.leaf:not(.open)").first
    leaf.hover()
    detail = page.get_by_test_id("node-detail").inner_text()
    assert "e(P) = " in detail and " − " in detail and "X: " in detail and "O: " in detail
    assert page.locator("#node-detail .mini-board .mini-cell").count() == 9


def test_try_it_asks_before_each_value_and_cutoff_and_scores_the_run(
    page: Any, client: Any, artifacts: Path
) -> None:
    explain_after(page, ["b2", "a1"])
    tree = client.post(
        "/api/explain", json={"position": "b2 a1", "algorithm": "alphabeta", "depth": 2}
    ).json()
    page.get_by_role("button", name="Try it: predict each step").click()
    step = page.get_by_role("button", name="Step: the next node")
    asked = right = 0
    while page.locator("#explain-panel").get_attribute("data-step") != "end":
        if page.locator("#quiz-value").is_visible():
            question = page.locator("#quiz-question").inner_text()
            name = question.removeprefix("What value does ").removesuffix(" return?")
            node = next(
                n
                for n in tree["nodes"]
                if (n["move"] if n["parent"] is not None else "the root") == name
                and n["exit"] > int(page.locator("#explain-panel").get_attribute("data-step"))
            )
            page.locator("#quiz-input").fill(value_text(node["value"]))
            page.get_by_role("button", name="Check").click()
            asked, right = asked + 1, right + 1
        elif page.locator("#quiz-cutoff").is_visible():
            if asked == 3:
                page.screenshot(path=artifacts / "teaching-try-it.png", full_page=True)
            page.get_by_role("button", name="No cut-off").click()
            asked += 1
            right += page.locator("#quiz-feedback").inner_text().startswith("Right")
        else:
            step.click()
    assert asked > 0 and right < asked, "every cut-off question was answered 'no', and some were cut-offs"
    assert page.get_by_test_id("explain-score").inner_text() == f"Score: {right} of {asked} right."


def test_explain_fits_a_phone_and_the_current_node_stays_in_sight(
    browser: Any, live_server: Any, artifacts: Path
) -> None:
    context = browser.new_context(
        viewport={"width": 375, "height": 740}, has_touch=True, is_mobile=True, bypass_csp=True
    )
    phone = context.new_page()
    phone.base_url = live_server.url
    try:
        explain_after(phone, ["b2", "a1"])
        for _ in range(25):
            phone.get_by_role("button", name="Step: the next node").tap()
            assert current_inside_frame(phone)
        assert phone.evaluate("document.documentElement.scrollWidth") <= 375, "no sideways scrolling"
        phone.screenshot(path=artifacts / "teaching-phone.png", full_page=True)
        phone.get_by_role("button", name="Fit the whole tree").tap()
        frame = phone.locator("#tree-frame").bounding_box()
        for node in phone.locator("#tree g.node").all():
            box = node.bounding_box()
            assert frame["x"] <= box["x"] and box["x"] + box["width"] <= frame["x"] + frame["width"] + 1
        phone.locator("#explain-panel").screenshot(path=artifacts / "teaching-phone-fit.png")
    finally:
        context.close()


def test_explain_on_gomoku_draws_one_ply_and_says_why_without_overflowing(page: Any, artifacts: Path) -> None:
    explain_after(page, ["h8"], game="gomoku", wait=180_000)  # the comparison shares the search workers
    note = page.locator("#explain-note")
    assert note.is_visible()
    assert note.inner_text() == (
        "2 plies would draw more than 2,000 nodes, too many to follow: the tree is drawn 1 ply deep."
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= 1280
    assert page.locator("#tree g.node").count() == 1, "the replay starts at the root"
    page.get_by_role("button", name="Show the whole tree").click()
    assert page.locator("#tree g.node").count() == 1 + 224
    page.get_by_role("button", name="Fit the whole tree").click()
    page.locator("#explain-panel").screenshot(path=artifacts / "teaching-gomoku.png")


def test_a_player_of_your_own_with_your_own_weights_plays_a_whole_game(page: Any) -> None:
    page.goto(page.base_url)
    page.wait_for_function(SETTLED)
    page.get_by_label("Players", exact=True).select_option("computers")
    assert page.get_by_label("Your own player", exact=True).is_hidden()
    page.get_by_label("O player", exact=True).select_option("own")
    page.get_by_label("Your own player", exact=True).fill("alphabeta:3:weights:0,1,5,inf")
    page.get_by_label("Speed", exact=True).select_option("100")
    page.get_by_role("button", name="New game").click()
    page.wait_for_function("document.body.dataset.waiting === 'none'")
    assert (
        page.locator("#players").inner_text() == "Tic-tac-toe · X: rules · O: α-β, 3 plies, weights:0,1,5,inf"
    )


def test_iterative_deepening_shows_a_row_per_depth_above_the_last_tree(page: Any, artifacts: Path) -> None:
    explain_after(page, ["b2", "a1"])
    page.get_by_label("Depth", exact=True).select_option("3")
    page.wait_for_function(READY)
    assert page.get_by_test_id("deepening-table").is_hidden()
    page.get_by_role("checkbox", name=re.compile("^Iterative deepening")).check()
    page.wait_for_function(f"{READY} && !document.getElementById('deepening').hidden")
    rows = page.get_by_test_id("deepening-table").locator("tbody tr")
    assert rows.count() == 3
    assert [row.locator("th").inner_text() for row in rows.all()] == ["1 ply", "2 plies", "3 plies"]
    first = rows.nth(1).locator("td").nth(0).inner_text()
    assert first == rows.nth(0).locator("td").nth(1).inner_text(), "depth 2 searches depth 1's best first"
    page.locator("#deepening").screenshot(path=artifacts / "teaching-deepening.png")


def test_a_wide_tree_fitted_to_the_frame_keeps_every_label_it_shows_readable_and_apart(
    page: Any, artifacts: Path
) -> None:
    """Minimax two plies deep on the empty board: 9 + 72 nodes, too wide for the frame at full size. Fitted,
    no value shown is smaller than 10 pixels, no two overlap, and the levels too crowded for a label
    (the 72 leaves) leave theirs to the node's title and details."""
    explain_after(page, [])
    page.get_by_label("Algorithm", exact=True).select_option("minimax")
    page.get_by_label("Depth", exact=True).select_option("2")
    page.wait_for_function(READY)
    page.get_by_role("button", name="Show the whole tree").click()
    page.get_by_role("button", name="Fit the whole tree").click()
    assert page.locator("#tree g.node").count() == 1 + 9 + 72
    boxes = page.evaluate(
        """[...document.querySelectorAll('#tree g.node text.value')]
            .filter((t) => getComputedStyle(t).display !== 'none')
            .map((t) => { const r = t.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; })"""
    )
    page.locator("#explain-panel").screenshot(path=artifacts / "teaching-fit-wide.png")
    assert len(boxes) >= 10, "the root and its nine children keep their values"
    for _left, top, _right, bottom in boxes:
        assert bottom - top >= 10, "a value shown is readable"
    for i, (l1, t1, r1, b1) in enumerate(boxes):
        for l2, t2, r2, b2 in boxes[i + 1 :]:
            assert r1 <= l2 or r2 <= l1 or b1 <= t2 or b2 <= t1, "two values overlap"
