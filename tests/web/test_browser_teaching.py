"""End to end, the Explain panel as a student uses it: stepping through α-β with the current node in sight,
the log naming every cut-off, the answer hidden until the search reaches it, "Try it" scored, node details,
big boards drawn at a depth that fits, and a phone-size screen. Screenshots go to ``test-artifacts/``."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from pages import SETTLED, desktop_page

pytestmark = [pytest.mark.browser, pytest.mark.slow]

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
        # How many steps there are depends on the pruning: said only at the end.
        last = index + 1 == tree["steps"]
        progress = f"step {index + 1} of {tree['steps']}" if last else f"step {index + 1}"
        assert page.locator("#explain-progress").inner_text() == progress
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
            feedback = page.locator("#quiz-feedback").inner_text()
            right += feedback.startswith("Right")
            if not feedback.startswith("Right"):
                assert re.fullmatch(
                    r"Not quite: it is a cut-off; a cut-off: \S+ [≥≤] [αβ] = \S+\.", feedback
                ), feedback
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


def test_explain_on_gomoku_draws_one_ply_and_says_why_without_overflowing(
    browser: Any, make_server: Any, artifacts: Path
) -> None:
    """On a server of its own with the longest think time (60 s): the tree and the comparison are bounded by
    their node limits, not by a busy machine's speed."""
    server = make_server(seed=5, think_time=60.0).start()
    with desktop_page(browser, server.url) as page:
        _explain_on_gomoku(page, artifacts)


def _explain_on_gomoku(page: Any, artifacts: Path) -> None:
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
    page.wait_for_function(READY)
    assert page.get_by_test_id("deepening-table").is_hidden(), (
        "each depth's value and best move give the answer away"
    )
    page.get_by_role("button", name="Show the whole tree").click()
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


# ------------------------------------------------------------------------ one screen per step
SIZES = [(1280, 800), (1366, 768), (390, 844)]

IN_VIEW = """(selector) => {
  const r = document.querySelector(selector).getBoundingClientRect();
  return r.width > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth;
}"""

NEWEST_IN_VIEW = """() => {
  const log = document.querySelector('[data-testid=explain-log]');
  const r = log.lastElementChild.getBoundingClientRect();
  const box = log.getBoundingClientRect();
  return r.top >= Math.max(0, box.top - 1) && r.bottom <= Math.min(innerHeight, box.bottom + 1) && r.bottom <= innerHeight;
}"""

LABELS = """() => [...document.querySelectorAll('#tree text')]
  .filter((t) => getComputedStyle(t).display !== 'none' && t.textContent.trim() && t.closest('.reason') === null)
  .map((t) => { const r = t.getBoundingClientRect(); return {text: t.textContent, cls: t.getAttribute('class') ?? '',
    size: parseFloat(getComputedStyle(t).fontSize) * (r.height / t.getBBox().height || 1),
    box: [r.left, r.top, r.right, r.bottom]}; })"""


def sized_page(browser: Any, url: str, width: int, height: int) -> Any:
    context = browser.new_context(
        viewport={"width": width, "height": height},
        bypass_csp=True,
        has_touch=width < 500,
        is_mobile=width < 500,
    )
    page = context.new_page()
    page.base_url = url
    return page


@pytest.mark.parametrize(("width", "height"), SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_every_step_of_alpha_beta_shows_step_the_current_node_and_the_newest_line_on_one_screen(
    browser: Any, live_server: Any, client: Any, artifacts: Path, width: int, height: int
) -> None:
    """
    . . .
    . x .
    o . .      x to move, α-β two plies: every step by the → key, nothing scrolled by hand
    """
    page = sized_page(browser, live_server.url, width, height)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        explain_after(page, ["b2", "a1"])
        tree = client.post(
            "/api/explain", json={"position": "b2 a1", "algorithm": "alphabeta", "depth": 2}
        ).json()
        answer = f"value {value_text(tree['value'])}, best move {tree['move']}"
        nodes = f"{tree['nodes_visited']} nodes"
        for index in range(tree["steps"]):
            assert page.locator("#explain-panel").get_attribute("data-step") in (str(index), "end")
            assert page.evaluate(IN_VIEW, "#explain-step"), f"step {index + 1}: Step is out of sight"
            assert page.evaluate(IN_VIEW, "[data-testid=tree-current]"), f"step {index + 1}: the current node"
            assert page.evaluate(NEWEST_IN_VIEW), f"step {index + 1}: the newest line of the log"
            assert page.get_by_test_id("explain-log").locator("> *").count() == index + 1
            labels = page.evaluate(LABELS)
            small = [
                (label["text"], round(label["size"], 1)) for label in labels if label["size"] < 12 - 0.05
            ]
            assert small == [], f"step {index + 1}: labels under 12 px"
            windows = [label["box"] for label in labels if "window" in label["cls"]]
            for i, (l1, t1, r1, b1) in enumerate(windows):
                for l2, t2, r2, b2 in windows[i + 1 :]:
                    assert r1 <= l2 or r2 <= l1 or b1 <= t2 or b2 <= t1, (
                        f"step {index + 1}: two windows overlap"
                    )
            if index + 1 < tree["steps"]:
                shown = page.locator("#explain-panel").inner_text()
                assert answer not in shown and nodes not in shown, f"step {index + 1} gives the answer away"
                assert page.get_by_test_id("explain-compare").is_hidden()
                root = page.locator('[data-testid=tree-node][data-path=""] text.value')
                assert root.text_content() == "?", f"step {index + 1} shows the root's value"
            if index == 14:
                page.screenshot(path=artifacts / f"teaching-one-screen-{width}x{height}.png")
            if index + 1 < tree["steps"]:
                page.keyboard.press("ArrowRight")
        assert answer in page.get_by_test_id("explain-summary").inner_text()
        assert nodes in page.get_by_test_id("explain-summary").inner_text()
        assert page.get_by_test_id("explain-compare").is_visible()
        page.keyboard.press("Home")
        assert page.locator("#explain-panel").get_attribute("data-step") == "0"
        page.keyboard.press("ArrowRight")
        page.keyboard.press("ArrowLeft")
        assert page.locator("#explain-panel").get_attribute("data-step") == "0"
        page.locator("#explain-step").focus()  # Space on another button (Explain) presses that button
        page.keyboard.press(" ")
        assert page.locator("#explain-run").get_attribute("aria-pressed") == "true"
        page.keyboard.press(" ")
        assert page.locator("#explain-run").get_attribute("aria-pressed") == "false"
        assert errors == []
    finally:
        page.context.close()


def test_a_link_opens_the_textbook_tree_and_after_the_run_exactly_b2_and_b3_are_pruned(
    browser: Any, live_server: Any, artifacts: Path
) -> None:
    page = sized_page(browser, live_server.url, 1280, 800)
    try:
        page.goto(f"{live_server.url}/?leaves=[[3,12,8],[2,4,6],[14,5,2]]&algo=alphabeta")
        page.wait_for_function(READY)
        assert page.locator("#explain-source").input_value() == "tree"
        states = "[...document.querySelectorAll('[data-testid=tree-node]')].map((n) => [n.dataset.path, n.dataset.state])"
        while not page.locator("#explain-step").is_disabled():
            page.keyboard.press("ArrowRight")
        drawn = dict(page.evaluate(states))
        assert sorted(path for path, state in drawn.items() if state == "pruned") == ["b2", "b3"]
        assert sorted(drawn) == ["", "a", "a1", "a2", "a3", "b", "b1", "b2", "b3", "c", "c1", "c2", "c3"]
        assert (
            page.get_by_test_id("explain-summary")
            .inner_text()
            .startswith("α-β (fail-soft) on a tree of your own, to its leaves: value +3, best move a")
        )
        page.get_by_role("button", name="Fit the whole tree").click()
        page.screenshot(path=artifacts / "teaching-link-tree.png")
    finally:
        page.context.close()


def test_a_link_opens_a_position_with_its_algorithm_and_depth_and_lang_picks_the_language(
    browser: Any, live_server: Any, client: Any
) -> None:
    page = sized_page(browser, live_server.url, 1366, 768)
    try:
        page.goto(f"{live_server.url}/?game=tictactoe&position=b2%20a1%20c3&explain=minimax&depth=2")
        page.wait_for_function(READY)
        tree = client.post(
            "/api/explain", json={"position": "b2 a1 c3", "algorithm": "minimax", "depth": 2}
        ).json()
        assert page.locator("#explain-algorithm").input_value() == "minimax"
        page.get_by_role("button", name="Show the whole tree").click()
        summary = page.get_by_test_id("explain-summary").inner_text()
        assert f"value {value_text(tree['value'])}, best move {tree['move']}" in summary
        assert f"{tree['nodes_visited']} nodes" in summary
        assert page.locator("[data-testid=tree-node]").count() == len(tree["nodes"])
        page.goto(f"{live_server.url}/?leaves=[[3,12,8],[2,4,6],[14,5,2]]&algo=alphabeta&lang=zh")
        page.wait_for_function(READY)
        assert page.evaluate("document.documentElement.lang").startswith("zh")
        assert (
            page.get_by_role("button", name="单步：下一个节点").count()
            + page.locator("#explain-step").count()
            >= 1
        )
        while not page.locator("#explain-step").is_disabled():
            page.keyboard.press("ArrowRight")
        assert (
            page.get_by_test_id("explain-log").locator("> *").last.inner_text()
            == "根节点的倒推值为 +3：最佳走法 a"
        )
    finally:
        page.context.close()


def test_a_tree_of_your_own_from_a_preset_a_random_seed_and_in_the_best_and_worst_order(
    page: Any, artifacts: Path
) -> None:
    explain_after(page, [])
    page.get_by_label("Explain", exact=True).select_option("tree")
    page.wait_for_function(READY)
    assert page.locator("[data-testid=tree-node]").count() == 1, "the replay starts at the root"
    page.get_by_label("A preset", exact=True).select_option("binary-3")
    page.wait_for_function(READY)
    assert page.locator("#explain-leaves").input_value() == "[[[3,17],[2,12]],[[15,25],[0,2]]]"
    page.get_by_label("Plies", exact=True).fill("2")
    page.get_by_label("Branching", exact=True).fill("3")
    page.get_by_label("Seed", exact=True).fill("5")
    page.get_by_role("button", name="Random tree").click()
    page.wait_for_function(READY)
    leaves = page.locator("#explain-leaves").input_value()
    assert re.fullmatch(r"\[(\[-?\d+,-?\d+,-?\d+\],?){3}\]", leaves), leaves
    assert page.get_by_test_id("explain-orders").is_hidden(), "the counts give the pruning away"
    page.get_by_role("button", name="Best order").click()
    page.wait_for_function(READY)
    page.get_by_role("button", name="Show the whole tree").click()
    orders = page.get_by_test_id("explain-orders").locator("tbody tr")
    assert orders.count() == 3
    best = [int(n) for n in re.findall(r"\d+", orders.nth(1).locator("td").inner_text())]
    typed = [int(n) for n in re.findall(r"\d+", orders.nth(0).locator("td").inner_text())]
    worst = [int(n) for n in re.findall(r"\d+", orders.nth(2).locator("td").inner_text())]
    assert typed == best, "the tree is in the best order now"
    assert best[0] <= worst[0] and best[1] == worst[1] == 9
    pruned = page.locator('[data-testid=tree-node][data-state="pruned"]').count()
    assert pruned == 9 - best[0], "every leaf the best order leaves out is drawn pruned"
    page.locator("#explain-panel").screenshot(path=artifacts / "teaching-own-tree.png")


def test_presenter_mode_lays_the_panel_over_the_whole_width(browser: Any, live_server: Any) -> None:
    page = sized_page(browser, live_server.url, 1920, 1080)
    try:
        explain_after(page, ["b2", "a1"])
        before = page.locator("#tree-frame").bounding_box()
        page.get_by_role("button", name="Presenter mode: the whole window").click()
        after = page.locator("#tree-frame").bounding_box()
        assert before is not None and after is not None
        assert page.locator("#explain-panel").bounding_box()["width"] == 1920
        assert after["width"] > 1.8 * before["width"]
        page.keyboard.press("Escape")
        assert page.locator("#explain-panel").bounding_box()["width"] < 1000
    finally:
        page.context.close()


def test_a_pasted_e_p_is_used_at_the_leaves_graded_and_ranked_and_a_broken_one_is_named(
    page: Any, client: Any, artifacts: Path
) -> None:
    """The pasted e(P) runs in the page's own Python (a Web Worker), never on the server. The textbook e(P) in the
    box reproduces weights:1,1,1,inf at the leaves; graded one ply deep, it joins the ranking."""
    explain_after(page, ["b2", "a1"])
    named = client.post(
        "/api/explain", json={"position": "b2 a1", "depth": 2, "evaluation": "weights:1,1,1,inf"}
    ).json()
    page.get_by_label("Use it at the leaves of the tree above").check()
    page.wait_for_function(
        f"{READY} && document.getElementById('explain-summary').textContent.includes('pasted')"
    )
    page.get_by_role("button", name="Show the whole tree").click()
    assert (
        f"value {value_text(named['value'])}, best move {named['move']}"
        in page.get_by_test_id("explain-summary").inner_text()
    )
    page.get_by_label("Depth", exact=True).select_option("1")
    page.wait_for_function(READY)
    page.get_by_label("Whose (for the ranking)").fill("Ada")
    page.get_by_role("button", name="Grade it against perfect play").click()
    done = "!document.getElementById('student-grade').disabled"
    page.wait_for_function(done, timeout=240_000)
    kept = page.locator("#student-result .student-kept").inner_text()
    found = re.fullmatch(
        r"Over every position: kept the value in ([\d,]+) of 4,520 positions \((\d+\.\d)%\)", kept
    )
    assert found, kept
    share = f"{100 * int(found[1].replace(',', '')) / 4520:.1f}%"
    assert found[2] == share.removesuffix("%")
    headline = page.get_by_test_id("student-headline").inner_text()
    assert headline.startswith("where e(P) decides, kept the value in 753 of 1,287 positions (58.5%)"), (
        headline
    )
    row = page.get_by_test_id("student-ranking").locator("tbody tr")
    assert row.count() == 1 and row.first.locator("th").inner_text() == "Ada"
    assert row.first.locator("td.accuracy").all_inner_texts() == ["58.5%", share]
    page.locator("#student-source").fill("def e(board):\n    return 1 / 0\n")
    page.get_by_role("button", name="Grade it against perfect play").click()
    page.wait_for_function(done, timeout=240_000)
    status = page.locator("#student-status").inner_text()
    assert status.startswith("the evaluation '<pasted>:e' raised ZeroDivisionError: division by zero on '")
    assert row.count() == 1, "a broken e(P) is not ranked"
    page.locator("#student-box").screenshot(path=artifacts / "teaching-student.png")
