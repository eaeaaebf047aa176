"""The class board as a class can trust it: a row belongs to the student who first submitted under the
name (a secret proves it), every submission is kept, the teacher releases names, imports a roster, sees
who is stuck and stores the check of a submission; names and class codes are compared as people read
them; a long source with Chinese comments fits in a submission."""

from __future__ import annotations

import json
import re
import sqlite3
import unicodedata
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st

from inarow.base.errors import InvalidNameError
from inarow.values.classboard import SECRET_ALPHABET, SECRET_LENGTH, plain_secret
from inarow.values.names import MAX_NAME, class_code, name_key, shown_name
from inarow.values.store import SCHEMA_VERSION, Store
from inarow.web.app import Settings, create_app

CLASS_KEY = "the-class-key-0123456"
TEACHER_KEY = "the-teachers-key-0123"
STUDENT = {"X-Inarow-Token": CLASS_KEY}
TEACHER = {"X-Inarow-Token": TEACHER_KEY}


@pytest.fixture(scope="module")
def diagrams() -> list[str]:
    with TestClient(create_app(Settings(db=":memory:", pool="inline")), base_url="http://127.0.0.1") as c:
        found: list[str] = c.get("/api/lab/positions").json()["positions"]
        return found


def first_empty(diagram: str) -> str:
    """The first empty cell of a 3×3 diagram in reading order (rows from the top): a legal move."""
    rows = diagram.split("/")
    for number, row in enumerate(rows):
        for column, stone in enumerate(row):
            if stone == ".":
                return "abc"[column] + str(len(rows) - number)
    raise AssertionError(f"no empty cell in {diagram!r}")


def last_empty(diagram: str) -> str:
    rows = diagram.split("/")
    for number in reversed(range(len(rows))):
        for column in reversed(range(len(rows[number]))):
            if rows[number][column] == ".":
                return "abc"[column] + str(len(rows) - number)
    raise AssertionError(f"no empty cell in {diagram!r}")


@pytest.fixture
def moves(diagrams: list[str]) -> dict[str, Any]:
    """Two legal sets of moves a browser could send, with their values."""
    return {
        "first": {"moves": " ".join(map(first_empty, diagrams)), "values": [0] * len(diagrams)},
        "last": {"moves": " ".join(map(last_empty, diagrams)), "values": [1] * len(diagrams)},
    }


@pytest.fixture
def server(tmp_path: Path) -> Iterator[TestClient]:
    """A class server with both keys: requests carry the class's key unless a test sends the teacher's."""
    app = create_app(
        Settings(db=tmp_path / "g.sqlite3", pool="inline", token=CLASS_KEY, teacher_token=TEACHER_KEY)
    )
    with TestClient(app, base_url="http://127.0.0.1", headers=STUDENT) as client:
        yield client


def submit(client: TestClient, name: str, sent: dict[str, Any], **more: Any) -> Any:
    return client.post(
        "/api/class", json={"name": name, "depth": 1, "source": "def e(b): return 0", **sent, **more}
    )


def board(client: TestClient, klass: str | None = None) -> list[dict[str, Any]]:
    params = {"class": klass} if klass is not None else {}
    rows: list[dict[str, Any]] = client.get("/api/class", params=params, headers=TEACHER).json()
    return rows


# ---------------------------------------------------------------------------------- a row's owner
def test_a_second_browser_under_the_same_name_is_refused_and_the_first_row_stays(
    server: TestClient, moves: dict[str, Any]
) -> None:
    first = submit(server, "王芳", moves["first"])
    assert first.status_code == 200
    secret = first.json()["secret"]
    assert len(secret) == SECRET_LENGTH and set(secret) <= set(SECRET_ALPHABET)
    before = board(server)
    for name in ("王芳", "王芳 ", "\u00a0王芳\u3000", "王芳"):  # trailing spaces, NBSP, an ideographic space
        refused = submit(server, name, moves["last"])
        assert refused.status_code == 409, name
        assert refused.json()["reason"] == "this name is taken"
        assert refused.json()["detail"].startswith(
            "this name is taken: '王芳' was claimed by another browser"
        )
    wrong = submit(server, "王芳", moves["last"], secret="AAAA-BBBB-CCCC")
    assert wrong.status_code == 409
    assert board(server) == before, "a refused submission changed the board"
    [row] = before
    assert (row["name"], row["submissions"], row["verified"], row["moves"]) == (
        "王芳",
        1,
        "no",
        moves["first"]["moves"],
    )

    # The first browser again, its code typed with dashes and in lower case: a second entry in its history.
    again = submit(
        server, "王芳 ", moves["last"], secret="-".join([secret[:4].lower(), secret[4:8], secret[8:]])
    )
    assert again.status_code == 200 and again.json()["secret"] is None
    [row] = board(server)
    assert (
        row["submissions"] == 2 and row["moves"] == moves["last"]["moves"] and row["id"] == again.json()["id"]
    )
    history = server.get("/api/class/history", params={"name": "王芳"}, headers=TEACHER).json()
    assert [entry["id"] for entry in history] == [again.json()["id"], first.json()["id"]]
    mine = server.post("/api/class/mine", json={"name": "王芳", "secret": secret}).json()
    assert [entry["moves"] for entry in mine] == [moves["last"]["moves"], moves["first"]["moves"]]
    assert server.post("/api/class/mine", json={"name": "王芳"}).status_code == 409

    # The teacher releases the name: the second browser may claim it (the history stays with the name).
    assert server.post("/api/class/release", json={"name": "王芳"}).status_code == 403  # not a student's
    released = server.post("/api/class/release", json={"name": "王芳"}, headers=TEACHER)
    assert released.status_code == 200 and released.json()["state"] == "free"
    claimed = submit(server, "王芳", moves["first"])
    assert claimed.status_code == 200 and claimed.json()["secret"] not in (None, secret)
    assert submit(server, "王芳", moves["first"], secret=secret).status_code == 409, (
        "the old code opens nothing"
    )
    assert board(server)[0]["submissions"] == 3
    unknown = server.post("/api/class/release", json={"name": "李雷"}, headers=TEACHER)
    assert unknown.status_code == 404 and "no student '李雷'" in unknown.json()["detail"]


def test_the_page_can_ask_whether_a_name_is_free_before_it_grades(
    server: TestClient, moves: dict[str, Any]
) -> None:
    asked = server.post("/api/class/check", json={"name": " Ann ", "class": "计科２班"})
    assert asked.json() == {"name": "Ann", "class_code": "计科2班", "state": "free", "submissions": 0}
    secret = submit(server, "Ann", moves["first"], **{"class": "计科2班"}).json()["secret"]
    taken = server.post("/api/class/check", json={"name": "ANN", "class": "计科2班"}).json()
    assert taken["state"] == "taken" and taken["submissions"] == 0
    yours = server.post("/api/class/check", json={"name": "ann", "class": "计科2班", "secret": secret}).json()
    assert yours["state"] == "yours" and yours["submissions"] == 1
    other_class = server.post("/api/class/check", json={"name": "Ann", "class": "7b"}).json()
    assert other_class["state"] == "free"
    bad = server.post("/api/class/check", json={"name": "Ann", "class": "计科\u200b2班"})
    assert bad.status_code == 400
    assert "U+200B" in bad.json()["detail"] and "class code" in bad.json()["detail"]


def test_a_chinese_class_code_is_accepted_and_finds_its_class_however_typed(
    server: TestClient, moves: dict[str, Any]
) -> None:
    answer = submit(server, "陈静", moves["first"], **{"class": "计科2班"})
    assert answer.status_code == 200 and answer.json()["class_code"] == "计科2班"
    assert [row["name"] for row in board(server, "计科２班 ")] == ["陈静"]
    assert board(server, "计科3班") == []
    assert server.get("/api/class", params={"class": "a\u202eb"}, headers=TEACHER).status_code == 400
    csv = server.get("/api/class.csv", params={"class": "计科2班"}, headers=TEACHER)
    assert csv.status_code == 200 and "陈静" in csv.text


# ---------------------------------------------------------------------------------- names
def test_names_are_trimmed_and_compared_by_case_and_width_and_invisible_ones_are_refused() -> None:
    assert shown_name("  王芳\u00a0") == "王芳"
    assert shown_name("Li  \u3000Lei") == "Li Lei"
    assert name_key("Ｗang Fang") == name_key("wang fang") == name_key("WANG FANG")
    assert name_key(shown_name("Straße")) == name_key("STRASSE")
    assert class_code("7B") == "7b" and class_code("") == "" and class_code("计科２班") == "计科2班"
    for bad, code in (
        ("\u202eann", "U+202E"),
        ("an\u200bn", "U+200B"),
        ("ann\ufeff", "U+FEFF"),
        ("a\x07", "U+0007"),
    ):
        with pytest.raises(InvalidNameError, match=re.escape(code)):
            shown_name(bad)
    with pytest.raises(InvalidNameError, match="it is empty once spaces are trimmed"):
        shown_name(" \u00a0\u3000 ")
    with pytest.raises(InvalidNameError, match=f"at most {MAX_NAME} characters"):
        shown_name("王" * (MAX_NAME + 1))


@settings(max_examples=300, deadline=None)
@given(st.text(min_size=1, max_size=20))
def test_a_name_kept_is_seen_the_same_twice_and_has_nothing_invisible(text: str) -> None:
    try:
        shown = shown_name(text)
    except InvalidNameError:
        return
    assert shown == shown.strip() and shown and "  " not in shown
    assert shown_name(shown) == shown, "normalising twice changes nothing"
    assert name_key(shown_name(" " + shown.upper() + "\u00a0")) == name_key(shown.upper())
    assert all(unicodedata.category(c) not in {"Cc", "Cf", "Cn", "Co", "Cs"} for c in shown)


@settings(max_examples=200, deadline=None)
@given(
    st.text(
        alphabet=st.sampled_from("abcxyzABCXYZ0129")
        | st.characters(min_codepoint=0x4E00, max_codepoint=0x9FFF),
        min_size=1,
        max_size=12,
    )
)
def test_a_name_and_its_full_width_or_other_case_spelling_are_one_student(text: str) -> None:
    wide = "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in text)
    assert name_key(shown_name(wide)) == name_key(shown_name(text.swapcase())) == name_key(shown_name(text))


# ---------------------------------------------------------------------------------- the teacher's
def test_a_roster_shows_who_has_not_submitted_and_a_stuck_student_shows_with_the_error(
    server: TestClient, moves: dict[str, Any]
) -> None:
    roster = "\ufeff学号,姓名\n2024001,王芳\n2024002,李雷\n\n2024003, 韩梅梅 \n"
    imported = server.post("/api/class/roster", json={"class": "计科2班", "csv": roster}, headers=TEACHER)
    assert imported.json() == {"added": 3, "updated": 0, "students": 3}
    assert server.post("/api/class/roster", json={"class": "计科2班", "csv": roster}).status_code == 403
    submit(server, "王芳", moves["first"], **{"class": "计科2班"})
    stuck = server.post(
        "/api/class/stuck",
        json={"name": "李雷", "class": "计科2班", "error": "e ran longer than 3 s on the empty board"},
    )
    assert stuck.status_code == 200
    listed = server.get("/api/class/students", params={"class": "计科2班"}, headers=TEACHER).json()
    assert [(s["number"], s["name"], s["submissions"]) for s in listed] == [
        ("2024001", "王芳", 1),
        ("2024002", "李雷", 0),
        ("2024003", "韩梅梅", 0),
    ]
    lei = listed[1]
    assert lei["error"] == "e ran longer than 3 s on the empty board" and lei["error_at"] > 0
    assert board(server, "计科2班")[0]["number"] == "2024001"
    # A stuck report under a name someone claimed needs its secret; a submission clears the error.
    assert (
        server.post("/api/class/stuck", json={"name": "王芳", "class": "计科2班", "error": "x"}).status_code
        == 409
    )
    submit(server, "李雷", moves["first"], **{"class": "计科2班"})
    listed = server.get("/api/class/students", params={"class": "计科2班"}, headers=TEACHER).json()
    assert listed[1]["error"] is None and listed[1]["submissions"] == 1
    # Clearing the board keeps the roster, unclaimed and without errors.
    assert server.delete("/api/class", params={"class": "计科2班"}, headers=TEACHER).json() == {"removed": 2}
    listed = server.get("/api/class/students", params={"class": "计科2班"}, headers=TEACHER).json()
    assert [(s["name"], s["claimed"], s["submissions"]) for s in listed] == [
        ("王芳", False, 0),
        ("李雷", False, 0),
        ("韩梅梅", False, 0),
    ]


@pytest.mark.parametrize(
    ("roster", "said"),
    [
        ("2024001,王芳\n2024002\n", "roster line 2: expected a student number and a name, not '2024002'"),
        ("1,王芳\n2,王芳 \n", "roster line 2: '王芳' is the name of line 1 too"),
        ("1,王\u202e芳\n", "roster line 1: invalid name"),
        ("学号,姓名\n", "the roster has no student"),
    ],
)
def test_a_roster_that_cannot_be_read_names_its_line_and_changes_nothing(
    server: TestClient, roster: str, said: str
) -> None:
    refused = server.post("/api/class/roster", json={"csv": roster}, headers=TEACHER)
    assert refused.status_code == 400 and said in refused.json()["detail"], refused.json()
    assert server.get("/api/class/students", headers=TEACHER).json() == []


def test_the_teachers_check_of_a_submission_is_kept_and_shown_on_its_row(
    server: TestClient, moves: dict[str, Any]
) -> None:
    row = submit(server, "Ann", moves["first"]).json()
    body = {"id": row["id"], "verified": "flagged", "checked": 40, "differing": 3}
    assert server.post("/api/class/verification", json=body).status_code == 403
    assert server.post("/api/class/verification", json=body, headers=TEACHER).json() == body
    [shown] = board(server)
    assert (shown["verified"], shown["checked"], shown["differing"]) == ("flagged", 40, 3)
    assert shown["values"] == [0] * len(moves["first"]["values"])
    for bad, status in (
        ({"differing": 41}, 400),
        ({"verified": "yes"}, 400),
        ({"verified": "maybe"}, 422),
        ({"id": 0}, 422),
    ):
        refused = server.post("/api/class/verification", json=body | bad, headers=TEACHER)
        assert refused.status_code == status, bad
    gone = server.post("/api/class/verification", json=body | {"id": 999}, headers=TEACHER)
    assert gone.status_code == 404 and gone.json()["detail"] == "no submission 999 on the board"
    # A new submission starts unchecked; the board's ETag changes with the check.
    etag = server.get("/api/class", headers=TEACHER).headers["etag"]
    assert server.get("/api/class", headers=TEACHER | {"If-None-Match": etag}).status_code == 304
    server.post("/api/class/verification", json=body | {"verified": "yes", "differing": 0}, headers=TEACHER)
    assert server.get("/api/class", headers=TEACHER | {"If-None-Match": etag}).status_code == 200


# ---------------------------------------------------------------------------------- what fits
def test_a_long_source_with_chinese_comments_and_every_move_and_value_fits_in_a_submission(
    server: TestClient, moves: dict[str, Any]
) -> None:
    line = "    # 估价函数：数一数双方各自还能连成三子的线，再按两子、一子的线加权求和。\n"
    head, tail = "def e(board):\n", "    return 0\n"
    while len((head + line + tail).encode()) + 8 <= 70_914:
        head += line
    source = head + "    # " + "x" * (70_914 - len((head + tail).encode()) - 7) + "\n" + tail
    assert len(source.encode()) == 70_914
    sent = {**moves["first"], "values": [1.5e-7] * len(moves["first"]["values"])}
    body = json.dumps({"name": "长注释", "depth": 1, "source": source, **sent}, ensure_ascii=False).encode()
    escaped = json.dumps({"name": "长注释", "depth": 1, "source": source, **sent}).encode()
    assert len(body) > 64 * 1024 and len(escaped) > len(body)
    for sent_body in (body, escaped):
        answer = server.post("/api/class", content=sent_body, headers={"Content-Type": "application/json"})
        assert answer.status_code in (200, 409), answer.text[:300]
    assert board(server)[0]["source"] == source
    too_long = server.post("/api/class", json={"name": "x", "depth": 1, "source": "x" * 100_001, **sent})
    assert too_long.status_code == 422 and "100000" in too_long.json()["detail"]


def test_an_old_board_moves_into_the_history_unclaimed(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as db:
        from inarow.values.store import MIGRATIONS

        for migration in MIGRATIONS[:4]:
            db.executescript(migration)
        db.execute("PRAGMA user_version = 4")
        db.execute(
            "INSERT INTO submissions VALUES ('7b', 'Ann', 'e', 'alphabeta', 2, 'tictactoe', 3, 4, 'src', '{}', 5.0)"
        )
    store = Store(path)
    assert store.schema_version == SCHEMA_VERSION
    from inarow.values.classboard import ClassBoard

    [row] = ClassBoard(store).latest("7b")
    assert (row.name, row.kept, row.positions, row.count, row.verified, row.moves) == (
        "Ann",
        3,
        4,
        1,
        "no",
        "",
    )
    [student] = ClassBoard(store).students("7b")
    assert not student.claimed
    store.close()


def test_a_secret_is_read_as_typed() -> None:
    assert plain_secret("abcd-efgh jkmn") == "ABCDEFGHJKMN"


def test_the_students_see_the_ranking_without_sources_only_when_the_teacher_shows_it(
    server: TestClient, moves: dict[str, Any]
) -> None:
    submit(server, "Ann", moves["first"], **{"class": "7b"})
    submit(server, "Bo", moves["last"], **{"class": "7b"})
    closed = server.get("/api/class/ranking", params={"class": "7B"}).json()
    assert closed == {"class_code": "7b", "open": False, "rows": []}
    assert server.post("/api/class/settings", json={"class": "7b", "ranking": True}).status_code == 403
    turned = server.post("/api/class/settings", json={"class": "7B", "ranking": True}, headers=TEACHER)
    assert turned.json() == {"class": "7b", "ranking": True}
    assert server.post("/api/class/settings", json={"ranking": 1}, headers=TEACHER).status_code == 422
    assert (
        server.get("/api/class/settings", params={"class": "7b"}, headers=TEACHER).json()["ranking"] is True
    )
    shown = server.get("/api/class/ranking", params={"class": "7b"}).json()
    assert shown["open"] is True and {row["name"] for row in shown["rows"]} == {"Ann", "Bo"}
    for row in shown["rows"]:
        assert not {"source", "moves", "values", "report", "id"} & set(row), sorted(row)
    best_first = sorted(
        shown["rows"],
        key=lambda r: (-(r["headline"] if r["headline"] is not None else -1), -r["accuracy"], r["name"]),
    )
    assert shown["rows"] == best_first
    assert server.get("/api/class/ranking", params={"class": "8a"}).json()["open"] is False


def test_a_submission_without_values_shows_on_the_board(server: TestClient, moves: dict[str, Any]) -> None:
    """Values are optional: the grade's report then holds no number for them, and the board still answers
    (as JSON: null, never NaN)."""
    assert submit(server, "Ann", {"moves": moves["first"]["moves"]}).status_code == 200
    answer = server.get("/api/class", headers=TEACHER)
    assert answer.status_code == 200 and "NaN" not in answer.text
    assert [row["name"] for row in answer.json()] == ["Ann"]
