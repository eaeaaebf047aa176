"""A student's e(P) written as Python (``--eval PATH.py:FUNCTION``): the board it is handed, the example
that reproduces the textbook e(P) everywhere, the commands that take it, and the clear errors of a
function that fails."""

from __future__ import annotations

import json
import math
import shutil
import threading
from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from inarow import EvaluationCodeError, Position, UnknownPlayerError, parse_position
from inarow.cli import app
from inarow.evaluation import student as student_module
from inarow.evaluation.lines import evaluation_named, static_value
from inarow.evaluation.sandbox import Limits
from inarow.evaluation.student import (
    Board,
    CodeEvaluation,
    allow_files,
    board_view,
    code_evaluation_from_source,
    is_code_spec,
    load_code_evaluation,
)
from inarow.play.players import player
from inarow.rules.census import reachable
from inarow.rules.game import Game

runner = CliRunner()
EXAMPLE = (
    Path(__file__).resolve().parents[1] / "src" / "inarow" / "teaching" / "examples" / "textbook_eval.py"
)
TEXTBOOK = "weights:1,1,1,inf"
DEPTH_2_FROM_EMPTY = {
    "a1": -1, "a3": -1, "c1": -1, "c3": -1,
    "a2": -2, "b1": -2, "b3": -2, "c2": -2,
    "b2": 1,
}  # fmt: skip
"""The textbook e(P) at depth 2 from the empty board, by hand: b2 +1, corners −1, edges −2."""


@pytest.fixture(autouse=True)
def files_allowed() -> None:
    """As on the command line, where an --eval or a player may name a file."""
    allow_files()


@pytest.fixture
def student(tmp_path: Path) -> Path:
    """The example copied where a student keeps it, under a name with capitals."""
    path = tmp_path / "Mine.py"
    shutil.copy(EXAMPLE, path)
    return path


def every_position(game: Game) -> list[Position]:
    return sorted(reachable(game), key=lambda position: position.diagram())


def test_the_board_view_gives_rows_from_the_top_and_every_line_of_k_cells() -> None:
    """x . o
    . x .      rows from the top; lines: 3 rows, 3 columns (read from the top), 2 diagonals
    o . .
    """
    board = board_view(parse_position("x.o/.x./o.."), "o")
    assert board.rows == ("x.o", ".x.", "o..")
    assert (board.k, board.max, board.min, board.width, board.height) == (3, "o", "x", 3, 3)
    assert board.lines() == ("x.o", ".x.", "o..", "x.o", ".x.", "o..", "xx.", "oxo")
    assert str(board) == "x.o/.x./o.."


def test_the_board_view_of_a_wide_board_lists_each_line_once() -> None:
    """On 5×4 with 4 in a row: 2 per row × 4 rows, 1 per column × 5, 2 diagonals each way."""
    board = board_view(parse_position("", "5x4:4"), "x")
    lines = board.lines()
    assert len(lines) == 8 + 5 + 2 + 2 == len(Game.parse("5x4:4").lines)
    assert all(line == "...." for line in lines)


def test_the_board_view_is_read_only() -> None:
    board = board_view(parse_position("b2"), "x")
    with pytest.raises(AttributeError):
        board.rows = ("xxx", "...", "...")  # type: ignore[misc]
    assert isinstance(board.rows, tuple)


def test_the_example_reproduces_the_textbook_weights_on_every_position_without_a_completed_line() -> None:
    """Every reachable 3×3 position with no line completed, from both standpoints."""
    code = load_code_evaluation(f"{EXAMPLE}:e")
    weights = evaluation_named(TEXTBOOK)
    checked = 0
    for position in every_position(Game.parse("tictactoe")):
        if position.winner is not None:
            continue
        for side in ("x", "o"):
            assert static_value(position, side, code) == static_value(position, side, weights), (
                position.diagram(),
                side,
            )
            checked += 1
    assert checked == 2 * 5478 - 2 * 942  # 5,478 positions, 942 of them with a completed line


def test_analyze_with_the_students_file_gives_the_textbook_values_at_depth_2(student: Path) -> None:
    result = runner.invoke(
        app, ["analyze", "", "--algo", "minimax", "--depth", "2", "--eval", f"{student}:e", "--json"]
    )
    assert result.exit_code == 0, result.output
    answer = json.loads(result.output)
    assert {move["move"]: move["score"] for move in answer["moves"]} == DEPTH_2_FROM_EMPTY
    assert answer["best"] == ["b2"]
    assert answer["evaluation"] == f"{student}:e"


@pytest.mark.parametrize("algo", ["minimax", "alphabeta", "negamax", "negamax-alphabeta", "alphabeta-soft"])
def test_tree_with_the_students_file_draws_the_same_tree_as_the_weights(student: Path, algo: str) -> None:
    def tree(evaluation: str) -> dict[str, object]:
        result = runner.invoke(
            app, ["tree", "", "--depth", "2", "--algo", algo, "--eval", evaluation, "--format", "json"]
        )
        assert result.exit_code == 0, result.output
        answer: dict[str, object] = json.loads(result.output)
        return answer

    mine, textbook = tree(f"{student}:e"), tree(TEXTBOOK)
    assert mine["value"] == 1 and mine["move"] == "b2"
    assert [(n["path"], n["value"]) for n in mine["nodes"]] == [  # type: ignore[attr-defined]
        (n["path"], n["value"])
        for n in textbook["nodes"]  # type: ignore[attr-defined]
    ]


def test_compare_with_the_students_file_finds_b2_worth_one_in_every_row(student: Path) -> None:
    def rows(evaluation: str) -> list[tuple[str, int, object, object]]:
        result = runner.invoke(app, ["compare", "", "--depth", "2", "--eval", evaluation, "--json"])
        assert result.exit_code == 0, result.output
        return [
            (row["name"], row["nodes"], row["max_value"], row["move"])
            for row in json.loads(result.output)["rows"]
            if row["name"] != "engine"
        ]

    mine = rows(f"{student}:e")
    assert mine == rows(TEXTBOOK)
    assert {(value, move) for _, _, value, move in mine} == {(1, "b2")}


def test_a_match_player_with_the_students_file_plays_the_textbook_players_games(student: Path) -> None:
    def games(evaluation: str) -> list[object]:
        result = runner.invoke(
            app,
            ["match", f"minimax:2:{evaluation}", "rules", "--games", "6", "--swap", "--seed", "3", "--json"],
        )
        assert result.exit_code == 0, result.output
        answer = json.loads(result.output)
        return [game["moves"] for game in answer["games"]]

    mine = games(f"{student}:e")
    assert mine == games(TEXTBOOK)
    assert str(mine[0]).split()[0] == "b2"
    choice = player(f"minimax:2:{student}:e").choose(parse_position(""), __import__("random").Random(1))
    assert (choice.move, choice.value) == ("b2", 1)


def test_a_file_name_is_told_from_a_weight_list() -> None:
    assert is_code_spec("mine.py:e") and is_code_spec("/tmp/a b/Mine.py:score")
    assert not is_code_spec("weights:1,1,1,inf") and not is_code_spec("mine.py") and not is_code_spec("e")


def write(tmp_path: Path, body: str) -> str:
    path = tmp_path / "student.py"
    path.write_text(body)
    return str(path)


@pytest.mark.parametrize(
    ("body", "said"),
    [
        ("def e(board):\n    return 1 / 0\n", "raised ZeroDivisionError: division by zero on '.../.../x..' "
         "(Max is x) at line 2"),
        ("def e(board):\n    return 'x'\n", "returned 'x' on '.../.../x..' (Max is x): expected a number"),
        ("def e(board):\n    return float('nan')\n", "returned nan on '.../.../x..' (Max is x)"),
        ("def e(board):\n    return None\n", "returned None on '.../.../x..'"),
        ("def e(board):\n    return True\n", "returned True on '.../.../x..'"),
        ("def e(board):\n    board.rows = ()\n    return 0\n", "raised FrozenInstanceError"),
    ],
)  # fmt: skip
def test_a_function_that_fails_is_a_clear_error_naming_it_and_the_position(
    tmp_path: Path, body: str, said: str
) -> None:
    spec = write(tmp_path, body)
    result = runner.invoke(app, ["analyze", "", "--algo", "minimax", "--depth", "1", "--eval", f"{spec}:e"])
    assert result.exit_code == 2  # the function is broken, not the line: the batch stops
    assert result.stderr.startswith(f"error: the evaluation '{spec}:e' ")
    assert said in result.stderr and result.stderr.count("\n") == 1
    assert "Traceback" not in result.output


def test_a_function_that_runs_too_long_is_stopped_on_the_main_thread(tmp_path: Path) -> None:
    spec = write(tmp_path, "def e(board):\n    while True:\n        try:\n            pass\n        except:\n"
                 "            pass\n")  # fmt: skip
    slow = load_code_evaluation(f"{spec}:e", seconds=0.05)
    with pytest.raises(
        EvaluationCodeError, match=r"took more than 0.05 s on '\.\.\./\.x\./\.\.\.' \(Max is o\)"
    ):
        static_value(parse_position("b2"), "o", slow)


def test_a_function_that_runs_too_long_is_stopped_on_another_thread_too(tmp_path: Path) -> None:
    slow = code_evaluation_from_source("def e(board):\n    while True:\n        pass\n", seconds=0.05)
    caught: list[BaseException] = []

    def run() -> None:
        try:
            static_value(parse_position(""), "x", slow)
        except EvaluationCodeError as error:
            caught.append(error)

    worker = threading.Thread(target=run)
    worker.start()
    worker.join()
    assert [str(error) for error in caught] == [
        "the evaluation '<pasted>:e' took more than 0.05 s on '.../.../...' (Max is x)"
    ]


@pytest.mark.parametrize(
    ("body", "function", "said"),
    [
        ("def e(board):\n    return 0\n", "f", "names no function 'f': the code defines e"),
        ("def e():\n    return 0\n", "e", "must take one argument, the board"),
        ("def e(board):\n    return (\n", "e", "failed to run: SyntaxError"),
        ("import no_such_module_here\n", "e", "failed to run: ModuleNotFoundError"),
    ],
)
def test_a_file_that_cannot_be_used_is_refused_before_searching(
    tmp_path: Path, body: str, function: str, said: str
) -> None:
    spec = write(tmp_path, body)
    result = runner.invoke(app, ["tree", "", "--eval", f"{spec}:{function}"])
    assert result.exit_code == 2
    assert said in result.output and "Traceback" not in result.output


def test_a_missing_file_is_named() -> None:
    result = runner.invoke(app, ["tree", "", "--eval", "no/such/file.py:e"])
    assert result.exit_code == 2
    assert (
        result.output
        == "error: cannot read the evaluation file 'no/such/file.py': No such file or directory\n"
    )


def test_a_match_player_with_a_broken_file_is_an_unknown_player(tmp_path: Path) -> None:
    spec = write(tmp_path, "def e(board, depth):\n    return 0\n")
    with pytest.raises(UnknownPlayerError, match="must take one argument"):
        player(f"minimax:2:{spec}:e")


def test_pasted_source_works_like_a_file_and_its_errors_name_the_line() -> None:
    pasted = code_evaluation_from_source(EXAMPLE.read_text())
    assert pasted.text == "<pasted>:e"
    position = parse_position("b2 a1")
    assert static_value(position, "x", pasted) == static_value(position, "x", evaluation_named(TEXTBOOK))
    with pytest.raises(EvaluationCodeError, match=r"does not compile: .* at line 1"):
        code_evaluation_from_source("def e(board) return 0")
    broken = code_evaluation_from_source("def e(board):\n    x = 1\n    return board.nothing\n")
    with pytest.raises(EvaluationCodeError, match=r"raised AttributeError: .* at line 3"):
        static_value(position, "x", broken)


def test_a_won_position_is_scored_by_the_search_not_by_the_function() -> None:
    never = CodeEvaluation(lambda board: 1 / 0, "never", "<none>")
    assert static_value(parse_position("xxx/oo./..."), "x", never) == math.inf
    assert static_value(parse_position("xxx/oo./..."), "o", never) == -math.inf


def test_called_with_stones_only_the_side_is_found_by_counting() -> None:
    """x . .
    . o .      x holds two stones and o one: the side with more stones moved first
    x . .
    """
    seen: list[tuple[str, str]] = []

    def record(board: Board) -> float:
        seen.append((str(board), board.max))
        return 0

    code = CodeEvaluation(record, "record", "<none>")
    position = parse_position("x../.o./x..")
    code(position.game, position.x, position.o)
    code(position.game, position.o, position.x)
    assert seen == [("x../.o./x..", "x"), ("x../.o./x..", "o")]


def test_the_python_api_hands_a_one_argument_function_the_board() -> None:
    """The documented form: a plain function of the board, passed to search as it is."""
    from inarow.engines.textbook import move_scores, search

    def e(board: Board) -> int:
        return sum((board.min not in line) - (board.max not in line) for line in board.lines())

    empty = parse_position("")
    scores, _ = move_scores(empty, "minimax", 2, e)
    assert {empty.game.cell_name(bit): value for bit, value in scores.items()} == DEPTH_2_FROM_EMPTY
    result = search(empty, "alphabeta", 2, e)
    assert (result.move_name, result.frame_value, result.evaluation) == ("b2", 1, "e")


def test_the_python_api_still_takes_a_function_of_the_bitboards() -> None:
    """(game, mine, theirs): cell (c, r) is the mask 1 << game.bit(c, r), not game.bit(c, r)."""
    from inarow.engines.textbook import search

    def centre(game: Game, mine: int, theirs: int) -> int:
        mask = 1 << game.bit(1, 1)
        return (mine & mask != 0) - (theirs & mask != 0)

    result = search(parse_position(""), "minimax", 1, centre)
    assert (result.move_name, result.frame_value) == ("b2", 1)


def test_a_process_that_never_allowed_files_refuses_to_run_one() -> None:
    """A server never allows files: a player or evaluation naming one is refused, the file is not run."""
    import subprocess
    import sys

    script = (
        "from inarow.play.players import player\n"
        "from inarow.evaluation.lines import evaluation_named\n"
        "for attempt in (lambda: player('minimax:2:" + str(EXAMPLE) + ":e'),\n"
        "                lambda: evaluation_named('" + str(EXAMPLE) + ":e')):\n"
        "    try:\n"
        "        attempt()\n"
        "    except ValueError as error:\n"
        "        print(error)\n"
    )
    ran = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    said = f"the evaluation '{EXAMPLE}:e' is a file, and files are read only on the command line"
    assert ran.stdout.splitlines() == [f"unknown player 'minimax:2:{EXAMPLE}:e': {said}", said]


SMALL = Limits(seconds=1.0, load_seconds=2.0, memory_bytes=256 << 20)
"""Limits small enough for tests: a call may take 1 s, the file's top level 2 s, memory 256 MB."""


@pytest.fixture
def small_limits(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(student_module, "DEFAULT_LIMITS", SMALL)


def analyze_json(spec: str) -> Result:
    return runner.invoke(
        app, ["analyze", "", "b2", "--algo", "minimax", "--depth", "2", "--eval", f"{spec}:e", "--json"]
    )


def assert_json_lines(text: str) -> None:
    for line in text.splitlines():
        json.loads(line)


@pytest.mark.parametrize(
    ("body", "said"),
    [
        ("def e(board):\n    while True:\n        try:\n            while True:\n                pass\n"
         "        except BaseException:\n            pass\n",
         "took more than 1 s on '.../o../x..' (Max is x)"),
        ("import os\ndef e(board):\n    os._exit(7)\n",
         "ended its process with status 7 on '.../o../x..' (Max is x)"),
        ("import sys\ndef e(board):\n    sys.exit(3)\n", "raised SystemExit: 3 on '.../o../x..' (Max is x) at line 3"),
        ("def e(board):\n    return 10**5000\n",
         "returned an integer of 5001 digits on '.../o../x..' (Max is x): expected a finite number of size at "
         "most 1e9"),
        ("def e(board):\n    return -float('inf')\n", "returned -inf on '.../o../x..' (Max is x): expected a finite"),
        ("def e(board):\n    return 2e9\n", "returned 2000000000.0 on '.../o../x..' (Max is x): expected a finite"),
        ("def e(board):\n    return float('nan')\n", "returned nan on '.../o../x..' (Max is x): expected a number"),
        ("def e(board):\n    raise KeyError(board.k)\n", "raised KeyError: 3 on '.../o../x..' (Max is x) at line 2"),
        ("def e(board):\n    return len(bytearray(512 << 20))\n", "raised MemoryError on '.../o../x..' (Max is x)"),
    ],
)  # fmt: skip
def test_a_function_that_misbehaves_in_its_process_is_one_line_of_error_and_exit_2(
    tmp_path: Path, small_limits: None, body: str, said: str
) -> None:
    """Caught BaseException in a loop, os._exit, sys.exit, a huge, infinite, too large or NaN value, an
    exception, a memory blow-up: each ends the command with one line naming the function, and what --json
    wrote before stays JSON lines."""
    spec = write(tmp_path, body)
    result = analyze_json(spec)
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith(f"error: the evaluation '{spec}:e' ") and said in result.stderr
    assert result.stderr.count("\n") == 1, result.stderr
    assert_json_lines(result.stdout)


@pytest.mark.parametrize(
    ("body", "said"),
    [
        ("while True:\n    try:\n        pass\n    except BaseException:\n        pass\n",
         "was still running its top level after 2 s"),
        ("import os\nos._exit(4)\n", "ended its process with status 4 while running its top level"),
        ("import sys\nsys.exit(5)\n", "failed to run: SystemExit: 5 at line 2"),
        ("raise MemoryError\n", "failed to run: MemoryError at line 1"),
    ],
)  # fmt: skip
@pytest.mark.slow
def test_a_file_whose_top_level_misbehaves_is_one_line_of_error_and_exit_2(
    tmp_path: Path, small_limits: None, body: str, said: str
) -> None:
    spec = write(tmp_path, body)
    result = analyze_json(spec)
    assert result.exit_code == 2, result.output
    assert result.stderr == f"error: the evaluation file '{spec}' {said}\n"
    assert result.stdout == ""


def test_what_the_function_prints_goes_to_stderr_marked_never_into_json(tmp_path: Path) -> None:
    spec = write(
        tmp_path,
        "import os, sys\nprint('loading')\n"
        "def e(board):\n    print('asked', board)\n    os.write(1, b'raw\\n')\n    return 0\n",
    )
    result = analyze_json(spec)
    assert result.exit_code == 0, result.output
    answers = [json.loads(line) for line in result.stdout.splitlines()]
    assert [answer["position"] for answer in answers] == ["", "b2"]
    assert "e(P) printed: asked .../o../x.." in result.stderr.splitlines()
    assert "loading" not in result.stdout and "raw" not in result.stdout


def test_each_position_is_asked_once_and_the_file_is_loaded_once(tmp_path: Path) -> None:
    spec = write(tmp_path, "def e(board):\n    print(board, board.max)\n    return 0\n")
    evaluation = load_code_evaluation(f"{spec}:e")
    assert load_code_evaluation(f"{spec}:e") is evaluation
    shown: list[str] = []
    counted = replace(evaluation, show=shown.append, known={})
    position = parse_position("b2")
    for _ in range(3):
        assert static_value(position, "o", counted) == 0
    assert shown == ["e(P) printed: .../.x./... o\n"]


def test_a_function_stopped_at_its_limit_is_loaded_again_for_the_next_call(tmp_path: Path) -> None:
    spec = write(tmp_path, "def e(board):\n    while board.max == 'x':\n        pass\n    return 5\n")
    evaluation = load_code_evaluation(f"{spec}:e", seconds=0.2)
    with pytest.raises(EvaluationCodeError, match=r"took more than 0\.2 s"):
        static_value(parse_position(""), "x", evaluation)
    assert static_value(parse_position(""), "o", evaluation) == 5
