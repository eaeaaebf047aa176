"""What the browser tests share: a desktop page of the live server, and waiting for the page to settle.

The page exposes ``data-busy``, ``data-ply`` and ``data-waiting`` on ``<body>``, so a test waits for exactly
the state it needs instead of sleeping.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from inarow.web.lab import PYODIDE

if TYPE_CHECKING:  # tests/web/conftest.py: pytest's module, for its type only
    from conftest import Server

NEEDS_PYODIDE = pytest.mark.skipif(
    not (PYODIDE / "pyodide.asm.wasm").is_file(), reason="Pyodide is not copied (scripts/copy_pyodide.py)"
)
"""The mark of a test that runs a student's Python in the browser (Pyodide, which the test command copies)."""

TEXTBOOK_SOURCE = (
    Path(__file__).resolve().parents[2] / "src" / "inarow" / "teaching" / "examples" / "textbook_eval.py"
).read_text()
"""The textbook e(P) as a student pastes it (``inarow example textbook-eval``)."""

SETTLED = "document.body.dataset.busy === 'false' && document.body.dataset.waiting !== 'computer'"
"""The page has no request under way and does not wait for the computer."""


@contextmanager
def desktop_page(browser: Any, url: str, **context: Any) -> Iterator[Any]:
    """A desktop-size page whose ``base_url`` is ``url``, in a browser context with ``context``'s options
    (``locale="zh-CN"``…); it fails if the page raised a JavaScript error. Its CSP is bypassed because
    Playwright's string expressions are an eval it forbids; test_page_csp.py runs the page under its own
    CSP."""
    opened = browser.new_context(viewport={"width": 1280, "height": 900}, bypass_csp=True, **context)
    page = opened.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.base_url = url
    yield page
    opened.close()
    assert errors == [], f"the page raised JavaScript errors: {errors}"


def stones(page: Any) -> dict[str, str]:
    """Every cell of the board and its stone."""
    cells = page.locator("[data-cell]")
    return {
        cells.nth(i).get_attribute("data-cell"): cells.nth(i).get_attribute("data-stone")
        for i in range(cells.count())
    }


def click_and_settle(page: Any, cell: str) -> None:
    """Click ``cell`` and wait until the move (and the computer's reply) is on the board."""
    ply = int(page.evaluate("document.body.dataset.ply"))
    page.locator(f'[data-cell="{cell}"]').click()
    page.wait_for_function(f"Number(document.body.dataset.ply) > {ply} && ({SETTLED})")


def server_cpu(server: Server) -> float:
    """The processor seconds the server's process has used (user and system, from /proc)."""
    assert server.process is not None
    fields = Path(f"/proc/{server.process.pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
