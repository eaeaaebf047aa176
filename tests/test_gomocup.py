"""The Gomocup protocol: a scripted manager's transcript, every error answer, the time the manager gives,
and whole games played through the protocol (in process, and against ``inarow gomocup`` as a program)."""

from __future__ import annotations

import io
import os
import subprocess
import sys

import pytest

from inarow.engines.gomoku import driver
from inarow.play.players import Level
from inarow.protocols.gomocup import DEFAULT_TURN, FAST_TURN, LEAST_TIME, SAFETY, Brain, serve
from inarow.rules.game import Game, Position


def talk(brain: Brain, *lines: str) -> list[str]:
    answers: list[str] = []
    for line in lines:
        answers += brain.handle(line)
    return answers


def test_a_scripted_manager_session_gets_the_answers_of_the_protocol() -> None:
    """START, INFO, BEGIN (we open in the centre), TURN (we answer a move on an empty cell), BOARD … DONE,
    TAKEBACK, RESTART, ABOUT and END, as Piskvork sends them."""
    out = io.StringIO()
    script = [
        "START 15",
        "INFO timeout_turn 300",
        "INFO timeout_match 100000",
        "INFO time_left 100000",
        "INFO max_memory 83886080",
        "INFO rule 0",
        "BEGIN",
        "TURN 8,6",
        "TAKEBACK 8,6",
        "RESTART",
        "BOARD",
        "7,7,2",
        "8,7,2",
        "9,7,2",
        "10,7,2",
        "7,8,1",
        "8,8,1",
        "9,8,1",
        "DONE",
        "ABOUT",
        "END",
        "TURN 1,1",
    ]
    serve(iter(line + "\n" for line in script), out)
    answers = out.getvalue().splitlines()
    assert answers[0] == "OK"
    assert answers[1] == "7,7", "the first stone goes to the centre"
    x, y = (int(v) for v in answers[2].split(","))
    assert (x, y) not in ((7, 7), (8, 6)) and 0 <= x < 15 and 0 <= y < 15
    assert answers[3:5] == ["OK", "OK"]
    assert answers[5] in ("6,7", "11,7"), "theirs are four in a row on y = 7: we block an end"
    assert answers[6].startswith('name="inarow", version="')
    assert len(answers) == 7, "nothing after END"


def test_we_complete_our_own_five_before_blocking_theirs() -> None:
    brain = Brain()
    answers = talk(
        brain,
        "START 15",
        "BOARD",
        "0,0,1",
        "1,0,1",
        "2,0,1",
        "3,0,1",
        "5,5,2",
        "6,5,2",
        "7,5,2",
        "8,5,2",
        "DONE",
    )
    assert answers == ["OK", "4,0"]


def test_the_protocol_s_y_counts_from_the_top() -> None:
    """y = 0 is the top row, inarow's row 15 on 15×15: our stone (0,0) is a15."""
    brain = Brain()
    talk(brain, "START 15", "BOARD", "0,0,1", "14,14,2", "DONE")
    position = brain.position()
    assert position.stone_at(Game.parse("gomoku").parse_cell("a15")) is not None
    assert position.stone_at(Game.parse("gomoku").parse_cell("o1")) is not None


def test_info_rule_1_plays_exactly_five() -> None:
    brain = Brain()
    talk(brain, "START 15", "INFO rule 1")
    assert brain.game.exact and brain.game.name == "gomoku-standard"
    talk(brain, "INFO rule 0")
    assert brain.game.name == "gomoku"


def test_a_move_takes_the_turn_s_time_within_the_match_s_time_left() -> None:
    brain = Brain()
    talk(brain, "START 15", "INFO timeout_turn 2000")
    assert brain.think_time() == pytest.approx(2.0 - SAFETY)
    talk(brain, "INFO timeout_match 60000", "INFO time_left 10000")
    assert brain.think_time() == pytest.approx(10.0 / 25 - SAFETY)
    talk(brain, "INFO time_left 0")
    assert brain.think_time() == pytest.approx(0.05)
    assert Brain().think_time() == pytest.approx(DEFAULT_TURN - SAFETY), "no limit given: the default"


def test_a_move_without_time_info_takes_at_most_two_seconds_and_timeout_turn_0_is_fast() -> None:
    assert DEFAULT_TURN <= 2.0
    brain = Brain()
    talk(brain, "START 15", "INFO timeout_turn 0")
    assert brain.think_time() == pytest.approx(max(LEAST_TIME, FAST_TURN - SAFETY))
    assert FAST_TURN < DEFAULT_TURN / 4


@pytest.mark.parametrize("level", ["easy", "medium", "hard", "perfect"])
def test_the_level_chosen_plays_with_the_turn_s_think_time(level: str) -> None:
    brain = Brain(level=level)
    talk(brain, "START 15", "INFO timeout_turn 1000")
    chosen = brain.player()
    assert isinstance(chosen, Level) and chosen.name == level
    assert chosen.think_time == pytest.approx(1.0 - SAFETY)
    assert Brain().level == "perfect"


BAD_LINES = [
    ("START ²", "ERROR unsupported board '²'x'²': expected sizes in numbers"),
    ("START " + "9" * 5000, "ERROR unsupported board '" + "9" * 40 + "…'x'"),
    ("START ١٥", "ERROR unsupported board '١٥'x'١٥': expected sizes in numbers"),
    ("RECTSTART 15", "ERROR unsupported board '15'x'': expected sizes in numbers"),
    ("INFO timeout_turn ²", "ERROR invalid INFO timeout_turn '²': expected a whole number"),
    ("INFO time_left " + "9" * 5000, "ERROR invalid INFO time_left '" + "9" * 40 + "…'"),
    ("INFO rule -1", "ERROR invalid INFO rule '-1': expected a whole number"),
    ("TURN ²,1", "ERROR invalid move '²,1': expected x,y"),
    ("TURN " + "9" * 5000 + ",1", "ERROR invalid move '" + "9" * 40 + "…': expected x,y"),
    ("TAKEBACK ٣,٣", "ERROR invalid move '٣,٣': expected x,y"),
    ("FROB", "UNKNOWN command 'FROB'"),
]


@pytest.mark.parametrize(("line", "answer"), BAD_LINES)
def test_a_bad_line_answers_error_and_the_session_goes_on(line: str, answer: str) -> None:
    """Whatever the bad line, the next lines are answered as if it had not come: here a whole board set
    with BOARD, where our answer completes our four."""
    out = io.StringIO()
    script = ["START 15", line, "BOARD", "0,0,1", "1,0,1", "2,0,1", "3,0,1", "9,9,2", "9,10,2"]
    script += ["9,11,2", "9,13,2", "DONE"]
    serve(iter(text + "\n" for text in script), out)
    answers = out.getvalue().splitlines()
    assert answers[0] == "OK"
    assert answers[1].startswith(answer)
    assert answers[2] == "4,0"


def test_info_thread_num_caps_the_threads_of_each_move_s_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """``INFO thread_num 1`` (0 counts as 1, as Rapfi reads it): a move's search has no helper thread;
    with ``INFO thread_num 2``, a move limited by time has one (on a machine of two cores or more)."""
    helpers: list[int] = []
    start = driver._Helper.follow

    def spy(helper: driver._Helper, order: list[int], depth: int) -> None:
        helpers.append(depth)
        start(helper, order, depth)

    monkeypatch.setattr(driver._Helper, "follow", spy)
    driver.warm_up()  # the compiled search, not the Python one of a process still compiling it
    brain = Brain()
    talk(brain, "START 15", "INFO timeout_turn 600", "INFO thread_num 0")
    assert brain.thread_num == 1
    assert len(talk(brain, "BOARD", "7,7,2", "8,8,1", "6,8,2", "DONE")) == 1
    assert helpers == []
    talk(brain, "INFO thread_num 2")
    assert len(talk(brain, "TURN 9,5")) == 1
    assert bool(helpers) == ((os.cpu_count() or 1) >= 2)


def test_unknown_info_keys_are_ignored_as_the_protocol_says() -> None:
    assert talk(Brain(), "START 15", "INFO folder /tmp/x", "INFO game_type 1", "INFO evaluate 1,1") == ["OK"]


def test_a_bad_board_line_answers_error_and_leaves_the_board_as_it_was() -> None:
    brain = Brain()
    talk(brain, "START 15", "BOARD", "7,7,2", "DONE")
    assert brain.handle("BOARD") == [] and brain.handle("1,1,7") == []
    assert brain.handle("DONE") == ["ERROR invalid board line '1,1,7': expected x,y,who with who 1, 2 or 3"]
    assert len(brain.ours) == 1 and brain.theirs == [(7, 7)]


@pytest.mark.parametrize(
    ("lines", "answer"),
    [
        (["BEGIN"], "ERROR no board: send START first"),
        (["RESTART"], "ERROR no board: send START first"),
        (["START 30"], "ERROR unsupported size 30x30: inarow plays boards from 5 to 19 a side"),
        (["START 4"], "ERROR unsupported size 4x4: inarow plays boards from 5 to 19 a side"),
        (["START big"], "ERROR unsupported board 'big'x'big': expected sizes in numbers"),
        (["START 15", "BOARD", "1,1,2", "1,1,1", "DONE"], "ERROR invalid board line '1,1,1': cell is taken"),
        (["START 15", "BOARD", "15,1,2", "DONE"], "ERROR invalid board line '15,1,2': off the 15x15 board"),
        (["START 15", "TURN 7"], "ERROR invalid move '7': expected x,y"),
        (["START 15", "TURN 15,0"], "ERROR invalid move '15,0': off the 15x15 board"),
        (["START 15", "BEGIN", "TURN 7,7"], "ERROR illegal move '7,7': cell is taken"),
        (
            ["START 15", "BOARD", "1,1", "DONE"],
            "ERROR invalid board line '1,1': expected x,y,who with who 1, 2 or 3",
        ),
        (
            ["START 15", "BOARD", "1,1,2", "2,2,2", "DONE"],
            "ERROR impossible position: 0 stones of ours and 2 of theirs",
        ),
        (
            [
                "START 15",
                "BOARD",
                "0,0,2",
                "1,0,2",
                "2,0,2",
                "3,0,2",
                "4,0,2",
                "0,5,1",
                "1,5,1",
                "2,5,1",
                "3,5,1",
                "DONE",
            ],
            "ERROR the game is over",
        ),
        (["START 15", "PLAY 1,1"], "UNKNOWN command 'PLAY'"),
    ],
)
def test_every_error_answer_names_what_is_wrong(lines: list[str], answer: str) -> None:
    assert talk(Brain(), *lines)[-1] == answer


@pytest.mark.slow
def test_a_whole_game_between_two_brains_through_the_protocol_ends_with_five() -> None:
    """Manager code: the first brain gets BEGIN, then each brain's answer goes to the other as TURN."""
    game = Game.parse("10x10:5")
    first, second = Brain(), Brain()
    for brain in (first, second):
        assert talk(brain, "START 10", "INFO timeout_turn 300") == ["OK"]
    position = Position.start(game)
    (answer,) = first.handle("BEGIN")
    movers = [second, first]
    while True:
        x, y = (int(v) for v in answer.split(","))
        position = position.play(game.bit(x, game.rows - 1 - y))
        if position.is_over:
            break
        (answer,) = movers[0].handle(f"TURN {answer}")
        movers.reverse()
    assert position.winner is not None or position.result == "draw"


@pytest.mark.slow
def test_inarow_gomocup_plays_as_a_program_on_standard_input_and_output() -> None:
    """The program answers a manager line by line (flushing each answer), and stops at END."""
    process = subprocess.Popen(
        [sys.executable, "-m", "inarow", "gomocup"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert process.stdin is not None and process.stdout is not None

    def send(line: str) -> str:
        assert process.stdin is not None and process.stdout is not None
        process.stdin.write(line + "\n")
        process.stdin.flush()
        return process.stdout.readline().strip()

    try:
        assert send("START 15") == "OK"
        process.stdin.write("INFO timeout_turn 200\n")
        assert send("BEGIN") == "7,7"
        reply = send("TURN 8,8")
        assert reply.count(",") == 1 and reply not in ("7,7", "8,8")
        process.stdin.write("END\n")
        process.stdin.flush()
        assert process.wait(timeout=60) == 0
    finally:
        process.kill()


@pytest.mark.slow
def test_inarow_gomocup_plays_the_level_asked_and_refuses_an_unknown_one() -> None:
    completed = subprocess.run(
        [sys.executable, "-m", "inarow", "gomocup", "--level", "medium"],
        input="START 15\nBEGIN\nEND\n",
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert completed.stdout.splitlines() == ["OK", "7,7"]
    refused = subprocess.run(
        [sys.executable, "-m", "inarow", "gomocup", "--level", "genius"],
        input="",
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert refused.returncode != 0 and "unknown level 'genius'" in refused.stderr
    assert "Traceback" not in refused.stderr
