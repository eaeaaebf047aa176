"""The class board's column of students' own searches: a student's page posts the check it ran (the
cases exact of how many, the first failing case), kept per student; the teacher reads it with the students,
the first failing case with what opens it as a tree; a claimed name needs its secret; a clear forgets it."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from inarow.teaching.checking.verdict import algorithm_for, check_search, load_search
from inarow.web.app import Settings, create_app

CLASS_KEY = "the-class-key-0123456"
TEACHER_KEY = "the-teachers-key-0123"
STUDENT = {"X-Inarow-Token": CLASS_KEY}
TEACHER = {"X-Inarow-Token": TEACHER_KEY}
STRICT = Path(__file__).resolve().parents[1] / "data" / "searches" / "bugs" / "strict_alphabeta.py"


@pytest.fixture
def server(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(
        Settings(db=tmp_path / "g.sqlite3", pool="inline", token=CLASS_KEY, teacher_token=TEACHER_KEY)
    )
    with TestClient(app, base_url="http://127.0.0.1", headers=STUDENT) as client:
        yield client


def checked() -> dict[str, Any]:
    """What a student's page posts after checking a search that cuts with > (the check's own JSON)."""
    report = check_search(
        load_search(STRICT.read_text(encoding="utf-8"), "alphabeta"), algorithm_for("alphabeta", None)
    )
    answer = report.to_json()
    failed = next(case for case in answer["cases"] if not case["ok"])
    return {
        "algorithm": answer["algorithm"],
        "passed": answer["passed"],
        "total": answer["total"],
        "failed": failed,
    }


def students(server: TestClient, klass: str = "") -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = server.get(
        "/api/class/students", params={"class": klass}, headers=TEACHER
    ).json()
    return found


def test_a_students_search_check_reaches_the_teacher_with_its_first_failing_case(server: TestClient) -> None:
    sent = checked()
    answer = server.post("/api/class/search", json={"name": "王芳", "class": "计科2班", **sent})
    assert answer.status_code == 200
    [student] = students(server, "计科2班")
    search = student["search"]
    assert (search["algorithm"], search["passed"], search["total"]) == ("alphabeta", 11, 20)
    failed = search["failed"]
    assert failed["name"] == "random-2" and failed["kind"] == "random" and failed["leaves"].startswith("[[")
    assert failed["divergence"]["node"] == "c" and failed["divergence"]["bugs"] == ["strict-cutoff"]
    # Checked again, every case exact: the latest is kept.
    again = server.post(
        "/api/class/search",
        json={"name": "王芳", "class": "计科2班", "algorithm": "alphabeta", "passed": 20, "total": 20},
    )
    assert again.status_code == 200
    assert students(server, "计科2班")[0]["search"] | {"at": 0} == {
        "algorithm": "alphabeta",
        "passed": 20,
        "total": 20,
        "failed": None,
        "at": 0,
    }


def first_empty(diagram: str) -> str:
    """The first empty cell of a 3×3 diagram in reading order (rows from the top): a legal move."""
    rows = diagram.split("/")
    return next(
        "abc"[column] + str(len(rows) - number)
        for number, row in enumerate(rows)
        for column, stone in enumerate(row)
        if stone == "."
    )


def test_a_claimed_name_needs_its_secret_and_the_teacher_alone_reads_the_students(server: TestClient) -> None:
    diagrams = server.get("/api/lab/positions").json()["positions"]
    moves = {"moves": " ".join(map(first_empty, diagrams)), "values": [0] * len(diagrams)}
    claimed = server.post(
        "/api/class", json={"name": "Ada", "depth": 1, "source": "def e(b): return 0", **moves}
    )
    assert claimed.status_code == 200
    secret = claimed.json()["secret"]
    refused = server.post("/api/class/search", json={"name": "Ada", **checked()})
    assert refused.status_code == 409 and refused.json()["reason"] == "this name is taken"
    assert students(server)[0]["search"] is None, "a refused check changed nothing"
    kept = server.post("/api/class/search", json={"name": "Ada", "secret": secret, **checked()})
    assert kept.status_code == 200 and kept.json()["search"]["passed"] == 11
    assert server.get("/api/class/students").status_code == 403


@pytest.mark.parametrize(
    ("change", "said"),
    [
        ({"passed": 21}, "invalid check: 21 cases exact of 20"),
        ({"algorithm": "bogo"}, "unknown algorithm 'bogo'"),
    ],
)
def test_a_check_that_cannot_be_is_refused_naming_what(
    server: TestClient, change: dict[str, Any], said: str
) -> None:
    answer = server.post("/api/class/search", json={"name": "Bo", **checked(), **change})
    assert answer.status_code == 400 and answer.json()["detail"].startswith(said)
    assert students(server) == []


def test_clearing_the_board_forgets_the_checks(server: TestClient) -> None:
    server.post("/api/class/search", json={"name": "Bo", **checked()})
    assert students(server)[0]["search"] is not None
    assert server.delete("/api/class", headers=TEACHER).status_code == 200
    assert all(student["search"] is None for student in students(server))
    assert json.dumps(students(server))
