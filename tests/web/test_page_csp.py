"""The page under its own content-security policy, in chromium: it loads, plays a move and draws the
computer's reply with nothing refused by the policy (no inline script, no eval, nothing from elsewhere)."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_the_page_plays_under_its_content_security_policy(browser: Any, live_server: Any) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.on("console", lambda message: problems.append(message.text) if message.type == "error" else None)
    try:
        answer = page.goto(live_server.url)
        assert "frame-ancestors 'none'" in answer.headers["content-security-policy"]
        page.locator("body[data-busy='false']").wait_for()
        page.get_by_label("Game", exact=True).select_option("tictactoe")
        page.get_by_role("button", name="New game").click()
        page.locator("body[data-ply='0'][data-busy='false']").wait_for()
        page.locator("#board .cell").nth(4).click()
        page.locator("body[data-ply='2'][data-busy='false']").wait_for()
    finally:
        context.close()
    assert problems == []
