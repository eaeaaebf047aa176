"""Other engines as players over the Gomocup protocol (``pbrain:PATH``): the names, what a manager sends,
whole matches against ``inarow gomocup`` run as a program, and every way an engine can fail answered by a
clear error (never a hang). The engines here are small scripts written by the tests, and inarow itself."""

from __future__ import annotations

import json
import os
import random
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import bench_scripts
from inarow.base.errors import EngineError
from inarow.play.match import play_game, play_match
from inarow.protocols.pbrain import EnginePlayer, EngineSpec, PbrainEngine, player
from inarow.rules.game import Game, Position
from inarow.rules.notation import split_moves

SRC = Path(__file__).resolve().parents[1] / "src"

FAKE = """
import sys
log = open(sys.argv[1], "a") if len(sys.argv) > 1 else None
size = 15
stones = set()
board = None
def first_empty():
    for y in range(size):
        for x in range(size):
            if (x, y) not in stones:
                stones.add((x, y))
                return f"{x},{y}"
for line in sys.stdin:
    line = line.strip()
    if log:
        log.write(line + "\\n")
        log.flush()
    if board is not None:
        if line == "DONE":
            stones = set(board)
            board = None
            print(first_empty(), flush=True)
        else:
            x, y, _ = line.split(",")
            board.append((int(x), int(y)))
        continue
    word, _, rest = line.partition(" ")
    if word == "START":
        size = int(rest)
        stones = set()
        print("MESSAGE hello", flush=True)
        print("OK", flush=True)
    elif word == "RESTART":
        stones = set()
        print("OK", flush=True)
    elif word == "BEGIN":
        print("DEBUG thinking", flush=True)
        print(first_empty(), flush=True)
    elif word == "TURN":
        x, y = rest.split(",")
        stones.add((int(x), int(y)))
        print(f"MESSAGE seen {x},{y}", flush=True)
        print(first_empty(), flush=True)
    elif word == "BOARD":
        board = []
    elif word == "END":
        break
"""
"""A pbrain engine that plays the first empty cell (reading rows from the top), logs every line it gets
to the file named by its argument and skips nothing of the protocol a match needs."""


def script(folder: Path, name: str, body: str, *args: str) -> Path:
    """An executable in ``folder`` that runs the Python ``body`` with ``args``."""
    source = folder / f"{name}.py"
    source.write_text(body)
    path = folder / name
    quoted = " ".join(f'"{arg}"' for arg in (str(source), *args))
    path.write_text(f'#!/bin/sh\nexec "{sys.executable}" {quoted}\n')
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


def inarow_engine(folder: Path, level: str) -> Path:
    """``inarow gomocup --level LEVEL`` as an executable file."""
    path = folder / f"inarow-{level}"
    path.write_text(
        f'#!/bin/sh\nPYTHONPATH="{SRC}" exec "{sys.executable}" -m inarow gomocup --level {level}\n'
    )
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


def test_an_engine_name_reads_its_path_node_limit_and_think_time(tmp_path: Path) -> None:
    engine = script(tmp_path, "engine", FAKE)
    assert EngineSpec.parse(f"pbrain:{engine}") == EngineSpec(path=engine.resolve())
    assert EngineSpec.parse(f"pbrain:{engine}:nodes=20000") == EngineSpec(path=engine.resolve(), nodes=20000)
    assert EngineSpec.parse(f"pbrain:{engine}:nodes=5:time=0.5") == EngineSpec(
        path=engine.resolve(), nodes=5, time=0.5
    )
    made = player(f"pbrain:{engine}:time=0", think_time=3.0)
    assert isinstance(made, EnginePlayer) and made.engine.think_time == 0.0
    assert made.name == f"pbrain:{engine}:time=0"


@pytest.mark.parametrize(
    ("suffix", "message"),
    [
        ("", "is not an executable file"),
        (":nodes=0", "nodes must be a whole number from 1 to 1,000,000,000,000"),
        (":nodes=1.5", "nodes must be a whole number from 1 to 1,000,000,000,000"),
        (":nodes=" + "9" * 5000, "nodes must be a whole number"),
        (":time=4000", "time must be seconds from 0 to 3600"),
    ],
)
def test_a_bad_engine_name_is_refused_with_what_is_wrong(tmp_path: Path, suffix: str, message: str) -> None:
    path = tmp_path / "engine"
    if suffix:
        path = script(tmp_path, "engine", FAKE)
    else:
        path.write_text("not executable")
    with pytest.raises(EngineError, match=message):
        player(f"pbrain:{path}{suffix}")


def test_the_engine_runs_in_its_own_folder_and_gets_the_time_the_node_limit_and_the_moves(
    tmp_path: Path,
) -> None:
    """START, the INFO lines (think time in ms, no match limit, the rule, MAX_NODE), BEGIN, then TURN with
    the opponent's move, and after a new game RESTART and BEGIN; the script's log is found in its folder."""
    folder = tmp_path / "engine folder"
    folder.mkdir()
    engine = script(folder, "engine", FAKE.replace('open(sys.argv[1], "a")', 'open("log.txt", "a")'), "x")
    made = player(f"pbrain:{engine}:nodes=20000", think_time=1.5)
    game = Game.parse("gomoku")
    position = Position.start(game)
    first = made.choose(position, random.Random(0)).move
    assert first == "a15", "the fake plays the first empty cell from the top left"
    position = position.play(first).play("h8")
    assert made.choose(position, random.Random(0)).move == "b15"
    made.choose(Position.start(game), random.Random(0))
    log = (folder / "log.txt").read_text().splitlines()
    assert log == [
        "START 15",
        "INFO timeout_turn 1500",
        "INFO timeout_match 0",
        "INFO time_left 2147483647",
        "INFO rule 0",
        "INFO MAX_NODE 20000",
        "BEGIN",
        "TURN 7,7",
        "RESTART",
        "BEGIN",
    ]
    assert isinstance(made, EnginePlayer)
    made.engine.close()


def test_the_engine_s_messages_with_its_last_answer_are_kept(tmp_path: Path) -> None:
    engine = PbrainEngine(EngineSpec.parse(str(script(tmp_path, "engine", FAKE))), 1.0)
    position = Position.start(Game.parse("gomoku"))
    position = position.play(engine.move(position))
    assert engine.messages == []  # a DEBUG line is no message
    position = position.play("h8")
    engine.move(position)
    assert engine.messages == ["seen 7,7"]
    engine.close()


def test_the_speed_bench_reads_an_engine_s_own_node_count_and_time(tmp_path: Path) -> None:
    bench = bench_scripts.load("gomoku_speed")
    body = FAKE.replace(
        "board = None\n            print(first_empty(), flush=True)",
        'board = None\n            print("MESSAGE Speed 650K | Node 1.5K | Time 3ms", flush=True)\n'
        "            print(first_empty(), flush=True)",
    )
    engine = PbrainEngine(EngineSpec.parse(str(script(tmp_path, "engine", body))), 1.0)
    game = Game.parse("gomoku")
    position = bench.positions(1, game)[0]
    assert bench.engine_speed(engine, position) == (1500, 0.003)
    engine.close()
    nodes, seconds = bench.inarow_speed(position, 2000)
    assert 2000 <= nodes < 2000 + 5000 and seconds > 0


def test_a_position_the_engine_has_not_seen_is_sent_whole_alternating_from_the_first_mover(
    tmp_path: Path,
) -> None:
    log = tmp_path / "log.txt"
    engine = PbrainEngine(EngineSpec.parse(str(script(tmp_path, "engine", FAKE, str(log)))), 1.0)
    game = Game.parse("gomoku")
    position = Position.start(game)
    for move in ("h8", "h9", "i8"):
        position = position.play(move)
    bit = engine.move(position)
    assert game.cell_name(bit) == "a15"
    engine.close()
    lines = log.read_text().splitlines()
    board = lines[lines.index("BOARD") + 1 : lines.index("DONE")]
    # O to move: X (the opponent, 2) moved first; y counts from the top (row 8 is y = 7).
    assert board == ["7,7,2", "7,6,1", "8,7,2"]


@pytest.mark.slow
def test_a_match_against_inarow_gomocup_run_as_an_engine_plays_whole_games(tmp_path: Path) -> None:
    """``pbrain:`` on inarow's own ``gomocup --level medium``: every game ends (five or a full board) and
    every move of the engine is legal, through TURN, RESTART and BEGIN."""
    engine = inarow_engine(tmp_path, "medium")
    game = Game.parse("gomoku")
    result = play_match(game, player("medium", 0.2), player(f"pbrain:{engine}", 0.3), 2, swap=True, seed=5)
    for record in result.games:
        position = Position.start(game)
        for bit in record.moves:
            assert bit in position.legal_bits()
            position = position.play(bit)
        assert position.result == record.result


def gomoku_match(engine: str, *options: str) -> dict[str, Any]:
    """``inarow match medium ENGINE --game gomoku --games 2 --time 0.3 --json OPTIONS`` run as a program:
    its JSON."""
    completed = subprocess.run(
        [
            *(sys.executable, "-m", "inarow", "match", "medium", engine),
            *("--game", "gomoku", "--games", "2", "--time", "0.3", "--json", *options),
        ],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(SRC)},
        timeout=300,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    data: dict[str, Any] = json.loads(completed.stdout)
    return data


@pytest.mark.slow
def test_inarow_match_plays_an_engine_from_the_command_line(tmp_path: Path) -> None:
    engine = script(tmp_path, "engine", FAKE)
    results = gomoku_match(f"pbrain:{engine}:nodes=100", "--swap", "--seed", "1")["results"]
    assert results[0]["wins"] == 2, "medium beats a player of the first empty cell, as X and as O"


CRASH = "import sys\nfor line in sys.stdin:\n    if line.startswith('BEGIN'):\n        sys.exit(3)\n    if line.startswith('START'):\n        print('OK', flush=True)\n"
SILENT = (
    "import sys\nfor line in sys.stdin:\n    if line.startswith('START'):\n        print('OK', flush=True)\n"
)
REFUSES = "import sys\nfor line in sys.stdin:\n    print('OK' if line.startswith('START') else 'ERROR no way', flush=True)\n"
ILLEGAL = (
    "import sys\nfor line in sys.stdin:\n    print('OK' if line.startswith('START') else '7,7', flush=True)\n"
)
GARBLED = (
    "import sys\nfor line in sys.stdin:\n    print('OK' if line.startswith('START') else '٧,٧', flush=True)\n"
)


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (CRASH, r"exited \(exit code 3\)"),
        (SILENT, "did not answer within 1.5 seconds"),
        (REFUSES, "refused BEGIN: 'ERROR no way'"),
        (ILLEGAL, "played '7,7': not an empty cell of the 15x15 board"),
        (GARBLED, "played '٧,٧': not an empty cell"),
        ("import sys\nsys.exit(0)\n", r"exited \(exit code 0\)"),
    ],
)
@pytest.mark.slow
def test_an_engine_that_fails_is_a_clear_error_never_a_hang(tmp_path: Path, body: str, message: str) -> None:
    engine = PbrainEngine(EngineSpec.parse(str(script(tmp_path, "engine", body))), 0.5, grace=1.0)
    game = Game.parse("gomoku")
    start = Position.start(game)
    position = start if body != ILLEGAL else start.play("h8")
    with pytest.raises(EngineError, match=message):
        engine.move(position)
    engine.close()


def test_an_engine_error_stops_play_game_with_the_error(tmp_path: Path) -> None:
    made = player(f"pbrain:{script(tmp_path, 'engine', CRASH)}", 0.5)
    with pytest.raises(EngineError, match="exited"):
        play_game(Game.parse("gomoku"), made, player("medium"), random.Random(0))


RAPFI = os.environ.get("INAROW_RAPFI")


@pytest.mark.skipif(not RAPFI, reason="INAROW_RAPFI names no Rapfi pbrain engine")
def test_rapfi_at_a_node_limit_plays_legal_moves_to_the_end() -> None:
    """With Rapfi built (see the README), a game of ``medium`` against it ends with every move legal."""
    game = Game.parse("gomoku")
    final, moves = play_game(
        game, player("medium", 0.2), player(f"pbrain:{RAPFI}:nodes=2000"), random.Random(1)
    )
    position = Position.start(game)
    for bit in moves:
        assert bit in position.legal_bits()
        position = position.play(bit)
    assert final.result == "o", "Rapfi beats medium"


@pytest.mark.slow
def test_a_swap2_match_against_inarow_gomocup_run_as_an_engine_negotiates_over_swap2board(
    tmp_path: Path,
) -> None:
    """``inarow match --swap2`` with ``pbrain:`` on inarow's own ``gomocup``: the engine's SWAP2BOARD
    answers are read, every game replays legally from its opening, and both colours' names are set."""
    engine = inarow_engine(tmp_path, "medium")
    game = Game.parse("gomoku")
    data = gomoku_match(f"pbrain:{engine}", "--swap2", "--seed", "3")
    assert data["opening_rule"] == "swap2" and data["played"] == 2
    for record in data["games"]:
        assert 3 <= record["opening"] <= 6 and {record["x"], record["o"]} == {"medium", f"pbrain:{engine}"}
        position = Position.start(game)
        for move in split_moves(record["moves"], game):
            assert game.parse_cell(move) in position.legal_bits()
            position = position.play(move)
        assert position.result == record["result"]
