"""The routes of a student's pasted e(P): evaluate, explain and grade with it on a loopback server, and
the refusals everywhere else."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from inarow import parse_position
from inarow.evaluation.lines import evaluation_named, static_value
from inarow.rules.game import Game
from inarow.teaching.grading import grade
from inarow.web.app import Settings, create_app

EXAMPLE = (Path(__file__).resolve().parents[2] / "src" / "inarow" / "teaching" / "examples" / "textbook_eval.py").read_text()
LOCAL = ("127.0.0.1", 50123)


def app_for(tmp_path: Path, token: str | None = None, hosts: tuple[str, ...] = ()) -> TestClient:
    settings = Settings(
        db=tmp_path / "games.sqlite3", pool="inline", seed=7, think_time=1.0, token=token, hosts=hosts
    )
    return TestClient(create_app(settings), base_url="http://127.0.0.1", client=LOCAL)


@pytest.fixture
def local(tmp_path: Path) -> Iterator[TestClient]:
    with app_for(tmp_path) as client:
        yield client


def test_pasted_code_scores_a_position_as_the_textbook_weights_do(local: TestClient) -> None:
    answer = local.post("/api/student/evaluate", json={"source": EXAMPLE, "position": "b2 a1", "max": "o"})
    assert answer.status_code == 200, answer.text
    textbook = static_value(parse_position("b2 a1"), "o", evaluation_named("weights:1,1,1,inf"))
    assert answer.json() == {
        "evaluation": "<pasted>:e",
        "position": ".../.x./o..",
        "max": "o",
        "value": textbook,
    }


def test_a_tree_with_pasted_code_is_the_tree_of_the_textbook_weights(local: TestClient) -> None:
    mine = local.post("/api/student/explain", json={"source": EXAMPLE, "position": "", "depth": 2})
    theirs = local.post("/api/explain", json={"position": "", "depth": 2, "evaluation": "weights:1,1,1,inf"})
    assert mine.status_code == 200, mine.text
    assert (mine.json()["value"], mine.json()["move"], mine.json()["evaluation"]) == (1, "b2", "<pasted>:e")
    assert [(n["path"], n["value"]) for n in mine.json()["nodes"]] == [
        (n["path"], n["value"]) for n in theirs.json()["nodes"]
    ]


def test_pasted_code_is_graded_as_the_command_grades_it(local: TestClient) -> None:
    answer = local.post("/api/student/grade", json={"source": EXAMPLE, "depth": 1, "match": False})
    assert answer.status_code == 200, answer.text
    report = answer.json()
    expected = grade(Game.parse("tictactoe"), "open-lines", 1, games=0)
    assert (report["positions"], report["kept"], report["evaluation"]) == (4520, expected.kept, "<pasted>:e")
    assert report["accuracy"] == round(expected.kept / 4520, 6)
    assert len(report["blunders"]) == len(expected.blunders)
    assert report["matches"] == []


@pytest.mark.parametrize(
    ("source", "said"),
    [
        ("def e(board):\n    return 1 / 0\n", "the evaluation '<pasted>:e' raised ZeroDivisionError: division by zero "
         "on '.../.../...' (Max is x) at line 2"),
        ("def e(board):\n    return 'x'\n", "the evaluation '<pasted>:e' returned 'x' on '.../.../...' (Max is x)"),
        ("def e(board) return 0\n", "the pasted evaluation does not compile: expected ':' at line 1"),
        ("def f(board):\n    return 0\n", "the evaluation '<pasted>:e' names no function 'e': the code defines f"),
    ],
)  # fmt: skip
def test_a_broken_paste_is_a_400_that_says_what_is_wrong(local: TestClient, source: str, said: str) -> None:
    answer = local.post("/api/student/evaluate", json={"source": source})
    assert answer.status_code == 400
    assert answer.json()["detail"].startswith(said)


def test_a_paste_that_runs_forever_is_stopped_and_named(local: TestClient) -> None:
    answer = local.post(
        "/api/student/evaluate", json={"source": "def e(board):\n    while True:\n        pass\n"}
    )
    assert answer.status_code == 400
    assert (
        answer.json()["detail"]
        == "the evaluation '<pasted>:e' took more than 1 s on '.../.../...' (Max is x)"
    )


def test_pasted_code_is_refused_to_a_client_on_another_machine(tmp_path: Path) -> None:
    app = create_app(Settings(db=tmp_path / "g.sqlite3", pool="inline"))
    with TestClient(app, base_url="http://127.0.0.1", client=("203.0.113.9", 4000)) as remote:
        answer = remote.post("/api/student/evaluate", json={"source": EXAMPLE})
    assert answer.status_code == 403
    assert answer.json()["detail"].startswith("pasted code runs only on a server bound to loopback")


@pytest.mark.parametrize(("token", "hosts"), [("secret", ()), (None, ("school.example.org",))])
def test_pasted_code_is_refused_by_a_server_reachable_beyond_loopback(
    tmp_path: Path, token: str | None, hosts: tuple[str, ...]
) -> None:
    headers = {"X-Inarow-Token": token} if token else {}
    with app_for(tmp_path, token, hosts) as client:
        for route in ("/api/student/evaluate", "/api/student/explain", "/api/student/grade"):
            answer = client.post(route, json={"source": EXAMPLE}, headers=headers)
            assert answer.status_code == 403, route
        chinese = client.post(
            "/api/student/evaluate", json={"source": EXAMPLE}, headers={**headers, "Accept-Language": "zh-CN"}
        )
    assert "回环" in chinese.json()["detail"]
