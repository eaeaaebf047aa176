"""The α-β lab without code on the server: no route takes source to run, the browser's modules ship as a
zip that imports without anything but the standard library, and moves a browser chose are scored exactly
as ``inarow grade`` scores them — forty students submitting to the class board among them."""

from __future__ import annotations

import csv
import io
import json
import re
import subprocess
import sys
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from inarow.base.i18n import gettext, language
from inarow.evaluation.student import code_evaluation_from_source
from inarow.rules.notation import parse_game
from inarow.teaching.grading import grade
from inarow.web import browser
from inarow.web.app import Settings, create_app
from inarow.web.lab import browser_modules, browser_zip

EXAMPLES = Path(__file__).resolve().parents[2] / "src" / "inarow" / "teaching" / "examples"
TEXTBOOK = (EXAMPLES / "textbook_eval.py").read_text()
CENTRE = "def e(board):\n    return 1 if board.rows[1][1] == board.max else 0\n"
ZERO = "def e(board):\n    return 0\n"
SOURCES = {"textbook": TEXTBOOK, "centre": CENTRE, "zero": ZERO}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    settings = Settings(db=tmp_path / "games.sqlite3", pool="inline", seed=7, think_time=1.0)
    with TestClient(create_app(settings), base_url="http://127.0.0.1", client=("127.0.0.1", 50123)) as test:
        yield test


def moves_of(name: str, depth: int, diagrams: list[str]) -> dict[str, Any]:
    """The moves a student's browser sends: :mod:`inarow.web.browser`, the code the worker runs."""
    browser.load(name, SOURCES[name])
    return browser.choose(name, "tictactoe", diagrams, "alphabeta", depth)


def test_no_route_takes_source_code(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    for path in ("/api/student/evaluate", "/api/student/explain", "/api/student/grade"):
        assert path not in schema["paths"]
    models = schema["components"]["schemas"]
    bodies = {
        reference
        for item in schema["paths"].values()
        for operation in item.values()
        if "requestBody" in operation
        for reference in re.findall(r'"#/components/schemas/([^"]+)"', json.dumps(operation["requestBody"]))
    }
    assert "Submitted" in bodies
    for name in bodies:
        fields = set(models[name].get("properties", {}))
        assert not {"code", "function"} & fields, f"{name} takes code: {sorted(fields)}"
        if "source" in fields:  # the class board keeps the e(P) as text to show
            assert name == "Submitted" and "never run" in models[name]["description"]
    assert client.post("/api/student/evaluate", json={"source": "def e(b): return 0"}).status_code in (
        404,
        405,
    )


def test_the_browser_modules_import_with_the_standard_library_alone(tmp_path: Path) -> None:
    modules = browser_modules()
    assert "inarow.engines.textbook" in modules and "inarow.rules.game" in modules
    assert not {
        "inarow.engines.policy",
        "inarow.engines.exact.compiled",
        "inarow.engines.exact.solver",
    } & set(modules)
    archive = tmp_path / "inarow.zip"
    archive.write_bytes(browser_zip())
    script = (
        "import sys; sys.path.insert(0, sys.argv[1]); from inarow.web import browser\n"
        "browser.load('e', 'def e(board):\\n    return len(board.lines())\\n')\n"
        "print(browser.evaluate('e', 'tictactoe', 'b2', 'o')['value'])\n"
        "assert 'numba' not in sys.modules and 'fastapi' not in sys.modules\n"
        "assert not {'resource', 'termios', 'pwd', 'grp', 'curses', 'readline'} & set(sys.modules), "
        "'modules the browser\\'s Python (Pyodide) does not have'\n"
    )
    done = subprocess.run(
        [sys.executable, "-S", "-I", "-c", script, str(archive)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "8"


def test_the_server_serves_the_zip_and_says_when_pyodide_is_missing(client: TestClient) -> None:
    assert client.get("/lab/inarow.zip").content[:2] == b"PK"
    assert client.get("/lab/pyodide/secret.txt").status_code == 404


def test_pyodide_goes_compressed_to_a_browser_that_accepts_gzip(
    client: TestClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The copy scripts/copy_pyodide.py compressed, with its media type; the file itself otherwise."""
    import gzip

    from inarow.web import lab

    wasm = bytes(range(256)) * 64
    (tmp_path / "pyodide.asm.wasm").write_bytes(wasm)
    (tmp_path / "pyodide.asm.wasm.gz").write_bytes(gzip.compress(wasm, mtime=0))
    monkeypatch.setattr(lab, "PYODIDE", tmp_path)
    packed = client.get("/lab/pyodide/pyodide.asm.wasm", headers={"Accept-Encoding": "gzip"})
    assert (packed.status_code, packed.headers["content-encoding"]) == (200, "gzip")
    assert packed.headers["content-type"] == "application/wasm" and packed.content == wasm  # decoded
    assert int(packed.headers["content-length"]) < len(wasm) / 10
    plain = client.get("/lab/pyodide/pyodide.asm.wasm", headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers and plain.content == wasm


def test_pyodide_is_kept_by_the_browser_and_a_reload_costs_a_304_or_nothing(
    client: TestClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Under its version a file is immutable (kept for a year, never asked again); under its bare name,
    and inarow's modules, revalidated by ETag: 304 with no body while unchanged, the gzip copy its own."""
    import gzip

    from inarow.web import lab

    wasm = bytes(range(256)) * 64
    (tmp_path / "pyodide.asm.wasm").write_bytes(wasm)
    (tmp_path / "pyodide.asm.wasm.gz").write_bytes(gzip.compress(wasm, mtime=0))
    (tmp_path / "package.json").write_text('{"name": "pyodide", "version": "314.0.7"}')
    monkeypatch.setattr(lab, "PYODIDE", tmp_path)
    kept = client.get("/lab/pyodide/314.0.7/pyodide.asm.wasm")
    assert kept.status_code == 200 and kept.content == wasm
    assert kept.headers["cache-control"] == "public, max-age=31536000, immutable"
    other = client.get("/lab/pyodide/0.1.0/pyodide.asm.wasm")
    assert other.status_code == 404 and other.text == "no Pyodide '0.1.0' here: this server has 314.0.7"
    for encoding in ("gzip", "identity"):
        first = client.get("/lab/pyodide/pyodide.asm.wasm", headers={"Accept-Encoding": encoding})
        assert first.headers["cache-control"] == "no-cache" and first.headers["etag"]
        again = client.get(
            "/lab/pyodide/pyodide.asm.wasm",
            headers={"Accept-Encoding": encoding, "If-None-Match": first.headers["etag"]},
        )
        assert (again.status_code, again.content, again.headers["etag"]) == (304, b"", first.headers["etag"])
    plain, packed = (
        client.get("/lab/pyodide/pyodide.asm.wasm", headers={"Accept-Encoding": encoding}).headers["etag"]
        for encoding in ("identity", "gzip")
    )
    assert plain != packed
    modules = client.get("/lab/inarow.zip")
    again = client.get("/lab/inarow.zip", headers={"If-None-Match": modules.headers["etag"]})
    assert (again.status_code, again.content) == (304, b"")
    (tmp_path / "package.json").unlink()
    assert client.get("/lab/pyodide/314.0.7/pyodide.asm.wasm").status_code == 503


@pytest.mark.slow
def test_forty_students_on_the_board_get_inarow_grades_figures(client: TestClient) -> None:
    diagrams = client.get("/api/lab/positions").json()["positions"]
    assert len(diagrams) == 4520
    expected = {}
    sent = {}
    for name in SOURCES:
        expected[name] = grade(
            parse_game("tictactoe"), code_evaluation_from_source(SOURCES[name]), 2, games=0
        )
        sent[name] = moves_of(name, 2, diagrams)
    names = list(SOURCES)
    for student in range(40):
        which = names[student % 3]
        body = {
            "name": f"student {student:02d}",
            "class": "7b",
            "evaluation": which,
            "algorithm": "alphabeta",
            "depth": 2,
            "source": SOURCES[which],
            **sent[which],
        }
        if student == 0:
            body["accuracy"] = 1.0  # forged: ignored
            body["kept"] = 4520
        answer = client.post("/api/class", json=body)
        assert answer.status_code == 200, answer.text
    rows = client.get("/api/class", params={"class": "7b"}).json()
    assert len(rows) == 40
    for row in rows:
        report = expected[row["evaluation"]]
        assert row["accuracy"] == round(report.accuracy, 6)
        assert row["kept"] == report.kept
        assert row["report"]["decisive"] == report.to_json()["decisive"]
        assert row["report"]["baselines"] == report.to_json()["baselines"]
        assert [b["move"] for b in row["report"]["blunders"]] == [
            b["move"] for b in report.to_json()["blunders"]
        ]
    assert len({row["accuracy"] for row in rows}) == 3
    assert (
        expected["zero"].to_json()["decisive"]["share"] == expected["textbook"].to_json()["baselines"]["zero"]
    )
    forged = next(row for row in rows if row["name"] == "student 00")
    assert forged["accuracy"] == round(expected["textbook"].accuracy, 6) < 1.0
    lines = client.get("/api/class.csv", params={"class": "7b"}).content.decode("utf-8-sig").splitlines()
    assert lines[0].startswith("Name,Student number,Class code,") and len(lines) == 41
    assert client.delete("/api/class", params={"class": "7b"}).json() == {"removed": 40}
    assert client.get("/api/class").json() == []


@pytest.mark.parametrize(
    ("change", "status"),
    [
        ({"moves": "a1"}, 400),  # too few moves
        ({"moves": "z9 " * 4520}, 400),  # not a cell
        ({"moves": "<b2>"}, 422),
        ({"name": ""}, 422),
        ({"name": "<script>"}, 400),
        ({"name": " \u00a0 "}, 400),  # empty once trimmed
        ({"name": "ann\u200b"}, 400),  # an invisible character
        ({"name": "\u202eann"}, 400),  # a direction control
        ({"source": "x" * 100_001}, 422),
        ({"class": "7b\u200d"}, 400),
        ({"depth": 0}, 422),
    ],
)
def test_bad_submissions_are_refused_with_a_clear_4xx(
    client: TestClient, change: dict[str, Any], status: int
) -> None:
    body = {"name": "ann", "moves": "b2 " * 4520, "depth": 2} | change
    answer = client.post("/api/class", json=body)
    assert answer.status_code == status, answer.text
    assert client.get("/api/class").json() == []


def test_an_illegal_move_is_a_400_naming_it(client: TestClient) -> None:
    moves = " ".join(["b2"] * 4520)  # b2 is taken in most positions
    answer = client.post("/api/lab/grade", json={"moves": moves, "depth": 2})
    assert answer.status_code == 400
    assert "illegal move 'b2'" in answer.json()["detail"]


def test_the_workers_python_answers_errors_as_sentences_and_hears_each_graded_position() -> None:
    def asked(request: dict[str, Any], progress: Any = None) -> dict[str, Any]:
        answer: dict[str, Any] = json.loads(browser.call(json.dumps(request), progress))
        return answer

    broken = asked(
        {"op": "evaluate", "args": ["tictactoe", "b2", None], "source": "def e(board):\n    return [1]\n"}
    )
    assert broken == {
        "ok": False,
        "error": "the evaluation '<pasted>:e' returned [1] on '.../.x./...' (Max is o): expected a number "
        "from Max's standpoint",
        "said": {
            "message": "the evaluation {name!r} returned {value} on {position!r} (Max is {side}): expected a "
            "number from Max's standpoint",
            "params": {"name": "<pasted>:e", "position": ".../.x./...", "side": "o", "value": "[1]"},
        },
    }
    assert asked({"op": "open", "args": [], "named": "open-lines"})["ok"] is False
    heard: list[tuple[int, str]] = []
    chosen = asked(
        {
            "op": "choose",
            "args": ["tictactoe", [".../.../...", "x../.../..."], "minimax", 1],
            "named": "open-lines",
        },
        lambda index, diagram: heard.append((index, diagram)),
    )
    assert chosen["ok"] and chosen["value"]["moves"] == "b2 b2"
    assert heard == [(0, ".../.../..."), (1, "x../.../...")]
    compared = asked({"op": "compare", "args": ["tictactoe", "", 2], "source": TEXTBOOK})["value"]
    assert {row["name"] for row in compared["rows"]} >= {"minimax", "alphabeta"}
    assert next(row for row in compared["rows"] if row["name"] == "minimax")["value"] == 1


@pytest.mark.parametrize(
    ("source", "message"),
    [
        (
            "def e(board):\n    return 1 / 0\n",
            "the evaluation {name!r} raised {error} on {position!r} (Max is {side}) at line {line}",
        ),
        ("def e(board)\n    return 0\n", "the pasted evaluation does not compile: {error} at line {line}"),
        (
            "def f(board):\n    return 0\n",
            "the evaluation {text!r} names no function {name!r}: the code defines {known}",
        ),
        ("1 / 0\n", "the pasted evaluation failed to run: {error} at line {line}"),
        (
            "def e(board):\n    return 'x'\n",
            "the evaluation {name!r} returned {value} on {position!r} (Max is {side}): expected a number from Max's standpoint",
        ),
    ],
)
def test_a_students_error_travels_as_fields_that_say_it_in_each_language(source: str, message: str) -> None:
    """The page says the error from the catalog (words.js's sentence()): the message is a catalog entry with a
    Chinese translation, and its parameters fill it as the English sentence was filled."""
    answer = json.loads(
        browser.call(json.dumps({"op": "evaluate", "args": ["tictactoe", "", None], "source": source}))
    )
    said = answer["said"]
    assert said["message"] == message
    assert said["message"].format(**said["params"]) == answer["error"]
    with language("zh_CN"):
        chinese = gettext(message)
    assert chinese != message and re.search("[\u4e00-\u9fff]", chinese)
    assert set(re.findall(r"\{(\w+)", chinese)) == set(re.findall(r"\{(\w+)", message))


def test_nothing_on_the_server_compiles_or_imports_text() -> None:
    """The web app and the sessions never exec, compile or import code (inarow.web.browser is the
    browser's, zipped by inarow.web.lab and never imported by the app)."""
    source = Path(__file__).resolve().parents[2] / "src" / "inarow"
    for path in [*(source / "web").rglob("*.py"), *(source / "sessions").rglob("*.py")]:
        if path.name == "browser.py":
            continue
        text = path.read_text(encoding="utf-8")
        for word in ("exec(", "compile(", "code_evaluation_from_source", "import_module", "importlib"):
            assert word not in text, f"{path.relative_to(source)} has {word}"
    script = (
        "import sys; from fastapi.testclient import TestClient; from inarow.web.app import Settings, create_app\n"
        "with TestClient(create_app(Settings(db=':memory:', pool='inline'))) as c: c.get('/lab/inarow.zip')\n"
        "assert 'inarow.web.browser' not in sys.modules\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr


def first_free_cells(diagrams: list[str]) -> str:
    """A move for each position a student could send: the first empty cell in a1, a2, a3, b1… order."""
    moves = []
    for diagram in diagrams:
        rows = diagram.split("/")[::-1]  # from the bottom
        column, row = next((c, r) for c in range(3) for r in range(3) if rows[r][c] == ".")
        moves.append("abc"[column] + str(row + 1))
    return " ".join(moves)


def test_the_board_as_csv_opens_in_a_chinese_spreadsheet_with_the_boards_figures(client: TestClient) -> None:
    """UTF-8 with a byte order mark (Excel reads it as UTF-8), the headers in the reader's language, the
    times at the reader's offset from UTC, and the figures the board shows; names round-trip through csv."""
    diagrams = client.get("/api/lab/positions").json()["positions"]
    moves = first_free_cells(diagrams)
    for name in ("陈静", "=Ann"):
        body = {"name": name, "class": "7b", "depth": 1, "moves": moves}  # no values: they are optional
        answer = client.post("/api/class", json=body)
        assert answer.status_code == 200, answer.text
    board = {row["name"]: row for row in client.get("/api/class", params={"class": "7b"}).json()}
    answer = client.get(
        "/api/class.csv", params={"class": "7b", "offset": 480}, headers={"Accept-Language": "zh-CN"}
    )
    assert answer.headers["content-type"] == "text/csv; charset=utf-8"
    assert answer.content[:3] == b"\xef\xbb\xbf"
    table = list(csv.reader(io.StringIO(answer.content.decode("utf-8-sig"), newline="")))
    header, rows = table[0], {row[0]: dict(zip(table[0], row, strict=True)) for row in table[1:]}
    assert header[:4] == ["姓名", "学号", "班级代码", "由 e(P) 决定的局面"]
    assert "失着" in header and "提交时间" in header and "在全部局面上" in header
    assert set(rows) == {"陈静", "'=Ann"}, "names intact; a formula is never one"
    chen, report = rows["陈静"], board["陈静"]["report"]
    assert chen["由 e(P) 决定的局面"] == f"{report['decisive']['share']:.1%}"
    assert chen["在全部局面上"] == f"{report['accuracy']:.1%}"
    assert chen["失着"] == str(len(report["blunders"])) != "0"
    china = datetime.fromtimestamp(board["陈静"]["submitted"], timezone(timedelta(hours=8)))
    assert chen["提交时间"] == china.strftime("%Y-%m-%d %H:%M:%S")
    english = client.get("/api/class.csv", params={"class": "7b", "lang": "en"}).content.decode("utf-8-sig")
    assert english.startswith("Name,Student number,Class code,Where e(P) decides,")
