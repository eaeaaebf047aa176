"""End to end, a class server with two keys, in browsers: the class's link opens the lab and nothing of the
teacher's (each refusal a page in the browser's language), the teacher's link opens the board; two phones
under the same name (the second refused until the teacher releases it); a Chinese class code; a stuck
student on the board; the teacher's check on a row."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import httpx
import pytest
from pages import NEEDS_PYODIDE

if TYPE_CHECKING:  # tests/web/conftest.py: pytest's module, for its type only
    from conftest import Server

pytestmark = [pytest.mark.browser, pytest.mark.slow]

CLASS_KEY = "the-class-key-of-7b-2026"
TEACHER_KEY = "the-teachers-key-of-7b-2026"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
REFUSED = {"zh-CN": "这是教师的页面", "en": "this is the teacher's"}
ZERO = "def e(board):\n    return 0\n"


@pytest.fixture
def class_server(make_server: Any) -> Server:
    server: Server = make_server(
        extra=("--host", "127.0.0.1", "--token", CLASS_KEY, "--teacher-token", TEACHER_KEY),
        headers={"X-Inarow-Token": CLASS_KEY},
    )
    return server.start()


@pytest.fixture
def contexts(browser: Any) -> Iterator[Any]:
    """Make browser contexts (CSP bypassed for Playwright's waits); each is closed, and none may have
    raised a JavaScript error."""
    made: list[tuple[Any, list[str]]] = []

    def make(viewport: dict[str, int], locale: str = "en") -> Any:
        context = browser.new_context(viewport=viewport, locale=locale, bypass_csp=True)
        errors: list[str] = []
        context.on("page", lambda page: page.on("pageerror", lambda error: errors.append(str(error))))
        made.append((context, errors))
        return context

    yield make
    for context, errors in made:
        context.close()
        assert errors == [], errors


def status_of(page: Any, method: str, path: str) -> int:
    """The status of a request the page itself sends (its cookie, its origin)."""
    status: int = page.evaluate(
        "async ([method, path]) => (await fetch(path, { method })).status", [method, path]
    )
    return status


@pytest.mark.parametrize(
    ("locale", "viewport"), [("zh-CN", PHONE), ("en", DESKTOP), ("en", PHONE), ("zh-CN", DESKTOP)]
)
def test_the_class_link_opens_the_lab_and_nothing_of_the_teachers_and_the_teachers_link_opens_the_board(
    class_server: Server, contexts: Any, locale: str, viewport: dict[str, int]
) -> None:
    student = contexts(viewport, locale).new_page()
    opened = student.goto(f"{class_server.url}/?token={CLASS_KEY}&student=1")
    assert opened.status == 200 and "token" not in student.url
    student.get_by_test_id("student-code").wait_for()
    for path in ("/class", "/exam?seed=3&count=1"):
        refused = student.goto(f"{class_server.url}{path}")
        assert refused.status == 403, path
        assert REFUSED[locale] in student.get_by_test_id("refusal").inner_text(), path
        assert student.evaluate("document.documentElement.lang") == locale
        width = student.evaluate("document.documentElement.scrollWidth")
        assert width <= viewport["width"], f"the refusal is {width} px wide"
    student.goto(f"{class_server.url}/?student=1")
    assert status_of(student, "GET", "/api/class") == 403
    assert status_of(student, "GET", "/api/class.csv") == 403
    assert status_of(student, "DELETE", "/api/class") == 403
    assert status_of(student, "GET", "/api/menus") == 200

    teacher = contexts(viewport, locale).new_page()
    board = teacher.goto(f"{class_server.url}/class?token={TEACHER_KEY}")
    assert board.status == 200 and teacher.url == f"{class_server.url}/class"
    teacher.get_by_test_id("class-links").wait_for()
    assert f"/?student=1&token={CLASS_KEY}" in teacher.get_by_test_id("class-link").inner_text()
    assert status_of(teacher, "GET", "/api/class.csv") == 200
    assert status_of(teacher, "DELETE", "/api/class") == 200
    sheet = teacher.goto(f"{class_server.url}/exam?seed=3&count=1&token={TEACHER_KEY}")
    assert sheet.status == 200 and "token" not in teacher.url


def test_the_class_link_clicked_on_another_site_opens_the_lab(class_server: Server, contexts: Any) -> None:
    """A course page elsewhere links to the class's link: the click is a cross-site navigation, and the
    page it is redirected to (the key gone from the address) opens with the cookie it set."""
    context = contexts(PHONE, "zh-CN")
    link = f"{class_server.url}/?token={CLASS_KEY}&student=1"
    course = f'<!doctype html><a id="class-link" href="{link}">打开实验</a>'
    context.route(
        "http://localhost:9/course.html", lambda route: route.fulfill(body=course, content_type="text/html")
    )
    page = context.new_page()
    page.goto("http://localhost:9/course.html")
    with page.expect_navigation(url=f"{class_server.url}/?student=1"):
        page.click("#class-link")
    page.get_by_test_id("student-code").wait_for()
    assert status_of(page, "GET", "/api/menus") == 200


@NEEDS_PYODIDE
def test_two_phones_under_one_name_the_second_is_refused_until_the_teacher_releases_it(
    class_server: Server, contexts: Any
) -> None:
    def phone() -> Any:
        page = contexts(PHONE, "zh-CN").new_page()
        page.goto(f"{class_server.url}/?token={CLASS_KEY}&student=1&class=计科2班")
        page.get_by_test_id("student-code").fill(ZERO)
        page.get_by_label("深度", exact=True).select_option("1")
        page.get_by_test_id("student-name").fill("王芳")
        return page

    def submit(page: Any) -> str:
        page.get_by_test_id("student-submit").click()
        page.wait_for_function("!document.getElementById('student-submit').disabled", timeout=300_000)
        text: str = page.locator("#student-status").inner_text()
        return text

    teacher_headers = {"X-Inarow-Token": TEACHER_KEY}

    def rows() -> list[dict[str, Any]]:
        answer: list[dict[str, Any]] = httpx.get(
            f"{class_server.url}/api/class", params={"class": "计科2班"}, headers=teacher_headers
        ).json()
        return answer

    first, second = phone(), phone()
    assert first.get_by_test_id("student-class").input_value() == "计科2班"
    said = submit(first)
    assert "王芳" in said and "已" in said, said
    code = first.get_by_test_id("student-secret")
    assert code.is_visible() and "王芳" in code.inner_text()
    assert len(code.get_attribute("data-code") or "") == 14  # ABCD-EFGH-JKMN
    [row] = rows()
    assert (row["name"], row["class_code"], row["submissions"]) == ("王芳", "计科2班", 1)

    refused = submit(second)
    assert refused.startswith("这个名字已被占用"), refused
    assert second.get_by_test_id("student-grade").inner_text() == "", "refused before grading"
    assert rows() == [row], "the refusal changed the board"

    assert "王芳" in submit(first)
    [again] = rows()
    assert again["submissions"] == 2 and again["id"] != row["id"]
    history = first.get_by_test_id("student-history").locator("li")
    assert [history.nth(i).get_attribute("data-id") for i in range(history.count())] == [
        str(again["id"]),
        str(row["id"]),
    ], "the student's own history, the latest first"

    # The same student on another device, with the code noted: the row's history goes on.
    third = phone()
    third.get_by_test_id("student-secret-entry").fill(code.get_attribute("data-code").lower())
    assert "王芳" in submit(third) and third.get_by_test_id("student-secret").is_hidden()
    [again] = rows()
    assert again["submissions"] == 3

    teacher = contexts(DESKTOP, "zh-CN").new_page()
    teacher.on("dialog", lambda dialog: dialog.accept())
    teacher.goto(f"{class_server.url}/class?token={TEACHER_KEY}&class=计科2班")
    shown = teacher.get_by_test_id("class-row")
    shown.first.wait_for()
    assert (shown.get_attribute("data-name"), shown.get_attribute("data-submissions")) == ("王芳", "3")
    assert shown.get_attribute("data-verified") == "no"
    assert teacher.get_by_test_id("class-flagged").get_attribute("data-count") == "0"
    verdict = {"id": again["id"], "verified": "flagged", "checked": 40, "differing": 3}
    assert httpx.post(
        f"{class_server.url}/api/class/verification", json=verdict, headers=teacher_headers
    ).is_success
    teacher.wait_for_function(
        "document.querySelector('[data-testid=class-row]').dataset.verified === 'flagged'", timeout=15_000
    )
    assert teacher.get_by_test_id("class-flagged").get_attribute("data-count") == "1"
    assert "3" in shown.get_by_test_id("class-check").inner_text()

    shown.get_by_test_id("class-release").click()
    teacher.wait_for_function("document.getElementById('class-status').textContent.includes('王芳')")
    said = submit(second)
    assert "王芳" in said and not said.startswith("这个名字已被占用"), said
    assert second.get_by_test_id("student-secret").is_visible()
    assert rows()[0]["submissions"] == 4
    teacher.wait_for_function(
        "document.querySelector('[data-testid=class-row]').dataset.submissions === '4'", timeout=15_000
    )


@NEEDS_PYODIDE
def test_a_student_whose_e_fails_shows_on_the_board_with_the_error(
    class_server: Server, contexts: Any
) -> None:
    roster = "学号,姓名\n2024001,李雷\n2024002,韩梅梅\n"
    imported = httpx.post(
        f"{class_server.url}/api/class/roster",
        json={"csv": roster, "class": "计科2班"},
        headers={"X-Inarow-Token": TEACHER_KEY},
    )
    assert imported.json()["added"] == 2
    student = contexts(PHONE, "en").new_page()
    student.goto(f"{class_server.url}/?token={CLASS_KEY}&student=1&class=计科2班")
    student.get_by_test_id("student-name").fill("李雷")
    student.get_by_test_id("student-code").fill("def e(board):\n    return 1 / 0\n")
    student.get_by_test_id("student-run").click()
    student.wait_for_function("!document.getElementById('student-run').disabled", timeout=120_000)
    assert "ZeroDivisionError" in student.get_by_test_id("student-output").inner_text()

    teacher = contexts(PHONE, "zh-CN").new_page()
    teacher.goto(f"{class_server.url}/class?token={TEACHER_KEY}&class=计科2班")
    stuck = teacher.get_by_test_id("class-stuck")
    stuck.first.wait_for(timeout=15_000)
    assert stuck.get_attribute("data-name") == "李雷" and "ZeroDivisionError" in stuck.inner_text()
    missing = teacher.get_by_test_id("class-missing")
    assert sorted(missing.nth(i).get_attribute("data-name") for i in range(missing.count())) == [
        "李雷",
        "韩梅梅",
    ]
    width = teacher.evaluate("document.documentElement.scrollWidth")
    wide = teacher.evaluate(
        "[...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > innerWidth)"
        ".map((e) => `${e.tagName}#${e.id}.${e.className} ${Math.round(e.getBoundingClientRect().right)}`)"
    )
    assert width <= PHONE["width"], f"the board is {width} px wide on a phone: {wide}"


def first_empty(diagram: str) -> str:
    """The first empty cell of a 3×3 diagram in reading order: a legal move."""
    rows = diagram.split("/")
    return next(
        "abc"[column] + str(len(rows) - number)
        for number, row in enumerate(rows)
        for column, stone in enumerate(row)
        if stone == "."
    )


def test_the_students_see_the_class_ranking_without_code_once_the_teacher_shows_it(
    class_server: Server, contexts: Any
) -> None:
    student_headers = {"X-Inarow-Token": CLASS_KEY}
    diagrams = httpx.get(f"{class_server.url}/api/lab/positions", headers=student_headers).json()["positions"]
    for name in ("陈静", "Ann"):
        body = {
            "name": name,
            "class": "计科2班",
            "depth": 1,
            "source": f"# the code of {name}, never shown to the class\ndef e(board):\n    return 0\n",
            "moves": " ".join(map(first_empty, diagrams)),
        }
        answer = httpx.post(f"{class_server.url}/api/class", json=body, headers=student_headers, timeout=120)
        assert answer.status_code == 200, answer.text
    student = contexts(PHONE, "zh-CN").new_page()
    student.goto(f"{class_server.url}/?token={CLASS_KEY}&student=1&class=计科2班")
    student.get_by_test_id("student-class-ranking").click()
    student.wait_for_function("document.getElementById('student-board-status').textContent.includes('老师')")
    assert student.get_by_test_id("class-ranking").is_hidden()

    teacher = contexts(DESKTOP, "zh-CN").new_page()
    teacher.goto(f"{class_server.url}/class?token={TEACHER_KEY}&class=计科2班")
    toggle = teacher.get_by_test_id("class-ranking-toggle")
    teacher.get_by_test_id("class-row").first.wait_for()
    assert not toggle.is_checked()
    with teacher.expect_response(lambda response: response.url.endswith("/api/class/settings")):
        toggle.check()

    student.get_by_test_id("student-class-ranking").click()
    table = student.get_by_test_id("class-ranking")
    table.wait_for()
    names = {table.locator("tbody tr").nth(i).get_attribute("data-name") for i in range(2)}
    assert names == {"陈静", "Ann"}
    assert "never shown" not in student.content()
    width = student.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width} px wide on a phone"
