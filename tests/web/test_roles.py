"""Two keys, two roles: every route has a role in one table (a route left out fails here), a student's key
opens the students' routes and is refused the teacher's with a sentence in the reader's language, the
teacher's opens everything, either key works wherever a key is taken, and the teacher turns the keys over."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from starlette.routing import Mount
from typer.testing import CliRunner

from inarow.web.app import Settings, create_app
from inarow.web.roles import MOUNTS, ROLES, Keys, route_role

CLASS_KEY = "the-class-key-0123456"
TEACHER_KEY = "the-teachers-key-0123"


def declared(routes: list[Any]) -> Iterator[tuple[str, str]]:
    """Every (method, path) of ``routes``, into included routers and mounts."""
    for route in routes:
        inner = getattr(route, "original_router", None)  # FastAPI's included router
        if inner is not None:
            yield from declared(inner.routes)
        elif isinstance(route, Mount):
            yield ("GET", route.path)
        else:
            for method in route.methods or ():
                if method != "HEAD":
                    yield (method, route.path)


@pytest.fixture
def app(tmp_path: Path) -> FastAPI:
    return create_app(
        Settings(db=tmp_path / "g.sqlite3", pool="inline", token=CLASS_KEY, teacher_token=TEACHER_KEY)
    )


def test_every_route_has_a_role_in_the_one_table_and_the_table_names_no_other(app: FastAPI) -> None:
    routes = set(declared(app.routes))
    assert len(routes) > 30
    missing = routes - set(ROLES)
    assert not missing, f"routes without a role in inarow.web.roles.ROLES: {sorted(missing)}"
    stale = set(ROLES) - routes
    assert not stale, f"roles of routes that do not exist: {sorted(stale)}"
    assert {path for _, path in routes} >= MOUNTS
    teachers = {path for (_, path), role in ROLES.items() if role == "teacher"}
    assert {
        "/class",
        "/api/class",
        "/api/class.csv",
        "/exam",
        "/api/keys",
        "/api/class/verification",
    } <= teachers
    assert route_role("GET", "/static/js/main.js") == "public"
    assert route_role("HEAD", "/class") == "teacher"
    assert route_role("PUT", "/api/class") == "teacher", "a method the path does not take: its strictest role"
    assert route_role("GET", "/no/such/page") == "student"


TEACHERS_ONLY = [
    ("GET", "/class", None),
    ("GET", "/api/class", None),
    ("GET", "/api/class.csv", None),
    ("GET", "/exam?seed=3", None),
    ("DELETE", "/api/class", None),
    ("GET", "/api/class/students", None),
    ("POST", "/api/class/release", {"name": "Ann"}),
    ("POST", "/api/class/roster", {"csv": "1,Ann"}),
    ("POST", "/api/class/verification", {"id": 1, "verified": "yes", "checked": 1, "differing": 0}),
    ("GET", "/api/keys", None),
]


@pytest.mark.parametrize(("method", "path", "body"), TEACHERS_ONLY)
def test_a_students_key_is_refused_the_teachers_routes_and_the_teachers_opens_them(
    app: FastAPI, method: str, path: str, body: Any
) -> None:
    with TestClient(app, base_url="http://127.0.0.1") as client:
        for header in ({"X-Inarow-Token": CLASS_KEY}, {"Authorization": f"Bearer {CLASS_KEY}"}):
            refused = client.request(method, path, json=body, headers=header)
            assert refused.status_code == 403, path
            assert refused.json()["reason"] == "the teacher's key required"
            assert refused.json()["detail"].startswith("this is the teacher's: the class link opens")
        opened = client.request(method, path, json=body, headers={"X-Inarow-Token": TEACHER_KEY})
        assert opened.status_code in (200, 404), (path, opened.text)  # 404: release a name never seen


def test_the_students_routes_take_either_key_and_no_key_is_refused(app: FastAPI) -> None:
    with TestClient(app, base_url="http://127.0.0.1") as client:
        for key in (CLASS_KEY, TEACHER_KEY):
            assert client.get("/api/menus", headers={"X-Inarow-Token": key}).status_code == 200
            assert (
                client.post(
                    "/api/class/check", json={"name": "Ann"}, headers={"X-Inarow-Token": key}
                ).status_code
                == 200
            )
        refused = client.get("/api/menus")
        assert refused.status_code == 403 and refused.json()["reason"] == "token required"
        assert client.get("/static/style.css").status_code == 200
        assert client.get("/i18n/zh-CN.json").status_code == 200


def test_a_refusal_is_a_page_in_the_browsers_language_and_json_to_the_api(app: FastAPI) -> None:
    with TestClient(app, base_url="http://127.0.0.1") as client:
        client.get(f"/?token={CLASS_KEY}")  # a student's browser: the cookie
        page = client.get("/class", headers={"Accept": "text/html", "Accept-Language": "zh-CN,zh;q=0.9"})
        assert page.status_code == 403 and page.headers["content-type"].startswith("text/html")
        assert '<html lang="zh-CN">' in page.text and "这是教师的页面" in page.text
        english = client.get("/class", headers={"Accept": "text/html", "Accept-Language": "en"})
        assert '<html lang="en">' in english.text and "this is the teacher&#x27;s" in english.text
        asked = client.get("/api/class", headers={"Accept-Language": "zh-CN"})
        assert asked.status_code == 403 and asked.headers["content-type"] == "application/json"
        assert asked.json()["detail"].startswith("这是教师的页面")
        nobody = TestClient(app, base_url="http://127.0.0.1")
        without = nobody.get("/exam", headers={"Accept": "text/html", "Accept-Language": "zh-CN"})
        assert without.status_code == 403 and "需要它的密钥" in without.text


@pytest.mark.parametrize(
    ("path", "location"),
    [
        ("/class?token={key}&class=7b", "/class?class=7b"),
        ("/exam?seed=3&token={key}&lang=zh", "/exam?seed=3&lang=zh"),
        ("/?token={key}", "/"),
    ],
)
def test_any_page_opened_with_the_teachers_key_in_its_link_opens_and_sets_the_cookie(
    app: FastAPI, path: str, location: str
) -> None:
    with TestClient(app, base_url="http://127.0.0.1") as client:
        moved = client.get(path.format(key=TEACHER_KEY), follow_redirects=False)
        assert (moved.status_code, moved.headers["location"]) == (303, location)
        assert "HttpOnly" in moved.headers["set-cookie"] and "SameSite=Lax" in moved.headers["set-cookie"]
        assert client.get(location).status_code == 200
        assert client.get("/api/class").status_code == 200  # the cookie is the teacher's


def test_the_teacher_turns_the_keys_over_and_the_old_ones_open_nothing(app: FastAPI) -> None:
    with TestClient(app, base_url="http://127.0.0.1") as teacher:
        student = TestClient(app, base_url="http://127.0.0.1")
        student.get(f"/?token={CLASS_KEY}")
        assert student.get("/api/menus").status_code == 200
        teacher.get(f"/class?token={TEACHER_KEY}")
        links = teacher.get("/api/keys").json()
        assert links["student_link"] == f"/?student=1&token={CLASS_KEY}"
        assert links["teacher_link"] == f"/class?token={TEACHER_KEY}"
        assert student.post("/api/keys").status_code == 403
        turned = teacher.post("/api/keys")
        assert turned.status_code == 200
        new = turned.json()
        assert CLASS_KEY not in (new["student"], new["teacher"]) and TEACHER_KEY not in (
            new["student"],
            new["teacher"],
        )
        assert len(new["student"]) >= 32 and len(new["teacher"]) >= 32 and new["student"] != new["teacher"]
        assert teacher.get("/api/class").status_code == 200, "the answer set the new teacher's key as cookie"
        assert student.get("/api/menus").status_code == 403
        assert student.get("/api/menus", headers={"X-Inarow-Token": TEACHER_KEY}).status_code == 403
        assert student.get(f"/?token={new['student']}").status_code == 200
        assert student.get("/api/menus").status_code == 200


def test_on_loopback_without_keys_one_person_is_both(client: TestClient) -> None:
    assert client.get("/class").status_code == 200
    assert client.get("/api/class").status_code == 200
    assert client.get("/exam?seed=3").status_code == 200
    refused = client.post("/api/keys")
    assert refused.status_code == 400 and refused.json()["reason"] == "this server has no keys"
    assert client.get("/api/keys").json()["student"] is None


def test_keys_given_for_one_role_make_the_other(tmp_path: Path) -> None:
    assert Keys.of(None, None).open
    made = Keys.of("the-class-key-0123456", None)
    assert made.student == "the-class-key-0123456" and made.teacher is not None and len(made.teacher) >= 32
    assert made.role_of("the-class-key-0123456") == "student" and made.role_of(made.teacher) == "teacher"
    assert made.role_of("密钥") is None and made.role_of("\udcff") is None


def test_serve_refuses_the_same_key_for_both_roles() -> None:
    from inarow.cli import app

    said = CliRunner().invoke(
        app,
        ["--lang", "en", "serve", "--token", "same-key-for-both-0", "--teacher-token", "same-key-for-both-0"],
    )
    assert said.exit_code == 2 and said.output.startswith(
        "error: invalid keys: --token and --teacher-token are the same"
    )
    short = CliRunner().invoke(app, ["--lang", "en", "serve", "--teacher-token", "short"])
    assert short.exit_code == 2 and "at least 16 characters" in short.output
