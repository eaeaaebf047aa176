"""Swap2: the decisions at each step, bounded by nodes; the Gomocup protocol's ``SWAP2BOARD`` (every answer
legal and in the protocol's form, the session going on after it and after a bad line); matches opened by
swap2, between levels and against an outside engine."""

from __future__ import annotations

import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from inarow import parse_position
from inarow.base.errors import InvalidMatchError
from inarow.cli import app
from inarow.cli.console import ConsoleGame
from inarow.engines.limits import Limits
from inarow.engines.policy import analyze
from inarow.play import swap2
from inarow.play.match import game_seed, play_match
from inarow.play.openings import draw
from inarow.play.players import player
from inarow.protocols.gomocup import Brain
from inarow.rules.game import Game, Position

GOMOKU = Game.parse("gomoku")
SRC = Path(__file__).resolve().parents[1] / "src"
NODES = Limits(nodes=20_000)
CELL = re.compile(r"(\d+),(\d+)")


def talk(brain: Brain, *lines: str) -> list[str]:
    answers: list[str] = []
    for line in lines:
        answers += brain.handle(line)
    return answers


def chances(moves: str) -> float:
    return swap2.white_chances(analyze(parse_position(moves, GOMOKU), NODES))


@pytest.mark.slow
@pytest.mark.parametrize("moves", ["h8 a1 i8", "h8 h9 i8"])
def test_the_responder_takes_black_when_white_is_behind(moves: str) -> None:
    assert chances(moves) < 0.5 - swap2.MARGIN
    assert swap2.respond(parse_position(moves, GOMOKU), NODES) == swap2.Decision(swap=True)


@pytest.mark.slow
def test_the_responder_takes_white_and_plays_its_best_move_when_white_is_ahead() -> None:
    position = parse_position("a1 h8 o15", GOMOKU)  # Black's stones in two corners, White's in the centre
    assert chances("a1 h8 o15") > 0.5 + swap2.MARGIN
    decision = swap2.respond(position, NODES)
    assert not decision.swap and decision.stones == analyze(position, NODES).best[:1]


@pytest.mark.slow
@pytest.mark.parametrize("moves", ["k10 e5 k5", "l9 f6 d10"])
def test_near_even_the_responder_places_a_white_and_a_black_that_leave_the_opener_a_close_choice(
    moves: str,
) -> None:
    assert abs(chances(moves) - 0.5) <= swap2.MARGIN
    decision = swap2.respond(parse_position(moves, GOMOKU), NODES)
    assert not decision.swap and len(decision.stones) == 2
    after = f"{moves} {' '.join(decision.stones)}"
    assert abs(chances(after) - 0.5) <= 2 * swap2.MARGIN
    choice = swap2.choose(parse_position(after, GOMOKU), NODES)
    assert choice.swap == (chances(after) < 0.5)


@pytest.mark.slow
def test_the_opener_takes_black_or_white_by_the_sign_of_white_s_chances() -> None:
    assert swap2.choose(parse_position("h8 a1 i8 a2 j8", GOMOKU), NODES) == swap2.Decision(swap=True)
    white_ahead = parse_position("a15 h8 o1 i9 o15", GOMOKU)
    assert swap2.choose(white_ahead, NODES) == swap2.Decision(stones=analyze(white_ahead, NODES).best[:1])


@pytest.mark.slow
def test_the_opening_proposed_is_the_candidate_nearest_even() -> None:
    moves = swap2.propose(GOMOKU, 1, NODES)
    assert len(moves) == 3 and len(set(moves)) == 3
    rng = random.Random(1)
    candidates: dict[tuple[int, ...], float] = {}  # the first CANDIDATES distinct draws, as propose makes
    while len(candidates) < swap2.CANDIDATES:
        drawn = draw(GOMOKU, 3, rng)
        assert drawn is not None
        if drawn[1] not in candidates:
            candidates[drawn[1]] = abs(swap2.white_chances(analyze(drawn[0], NODES)) - 0.5)
    opening = min(candidates, key=lambda c: candidates[c])
    assert moves == tuple(GOMOKU.cell_name(bit) for bit in opening)
    centre = {f"{c}{r}" for c in "fghij" for r in range(6, 11)}  # the middle 5x5 of 15x15
    assert set(moves) <= centre


def cells(answer: str) -> list[tuple[int, int]]:
    found = answer.split()
    assert all(CELL.fullmatch(part) for part in found), answer
    return [(int(x), int(y)) for x, y in (part.split(",") for part in found)]


@pytest.mark.slow
def test_swap2board_answers_in_the_protocol_s_form_at_each_step_and_play_goes_on() -> None:
    """Three stones on an empty board; at three stones SWAP, a move or two stones; at five SWAP or a move;
    every stone on an empty cell of the board; after SWAP the brain plays Black's next move on TURN. The
    positions are lopsided enough that the shortest search sees which side is ahead (the brain's analyses
    are bounded by the manager's clock, as its moves are)."""
    brain = Brain()
    assert talk(brain, "START 15", "INFO timeout_turn 300") == ["OK"]
    (opening,) = talk(brain, "SWAP2BOARD", "DONE")
    placed = cells(opening)
    assert len(placed) == 3 and len(set(placed)) == 3 and all(x < 15 and y < 15 for x, y in placed)

    brain = Brain()
    talk(brain, "START 15", "INFO timeout_turn 300")
    (answer,) = talk(brain, "SWAP2BOARD", "7,7", "0,0", "8,7", "DONE")  # Black ahead: h8 a15 i8
    assert answer == "SWAP"
    (reply,) = talk(brain, "TURN 9,7")  # White blocks one end; Black (the brain) plays on
    (move,) = cells(reply)
    assert move not in [(7, 7), (0, 0), (8, 7), (9, 7)]

    brain = Brain()
    talk(brain, "START 15", "INFO timeout_turn 300")
    (answer,) = talk(brain, "SWAP2BOARD", "0,14", "7,7", "14,0", "DONE")  # White ahead: a1 h8 o15
    (move,) = cells(answer)
    assert move not in [(0, 14), (7, 7), (14, 0)]

    brain = Brain()
    talk(brain, "START 15", "INFO timeout_turn 300")
    (answer,) = talk(
        brain, "SWAP2BOARD", "7,7,1", "0,0,2", "8,7,1", "0,1,2", "9,7,1", "DONE"
    )  # as Rapfi reads
    assert answer == "SWAP"


@pytest.mark.parametrize(
    ("lines", "answer"),
    [
        (["SWAP2BOARD", "7,7", "8,8", "DONE"], "ERROR swap2 has 0, 3 or 5 stones at a choice: 2 were sent"),
        (["SWAP2BOARD", "7,7", "7,7", "8,8", "DONE"], "ERROR invalid swap2 line '7,7': cell is taken"),
        (
            ["SWAP2BOARD", "7,7", "15,1", "8,8", "DONE"],
            "ERROR invalid swap2 line '15,1': off the 15x15 board",
        ),
        (["SWAP2BOARD", "7;7", "DONE"], "ERROR invalid swap2 line '7;7': expected x,y"),
        (
            ["INFO rule 4", "SWAP2BOARD", "DONE"],
            "ERROR swap2 is not played under Renju: send INFO rule 0 or 1",
        ),
    ],
)
def test_a_bad_swap2board_answers_error_and_the_session_goes_on(lines: list[str], answer: str) -> None:
    brain = Brain()
    assert talk(brain, "START 15", "INFO timeout_turn 300", *lines) == ["OK", answer]
    (reply,) = talk(brain, "INFO rule 0", "BOARD", "7,7,2", "DONE")  # still playing
    assert len(cells(reply)) == 1


def replayed(game: Game, moves: tuple[int, ...]) -> Position:
    position = Position.start(game)
    for bit in moves:
        assert bit in position.legal_bits()
        position = position.play(bit)
    return position


@pytest.mark.slow
def test_a_swap2_match_alternates_the_opener_and_tallies_each_player_by_the_colour_its_opening_gave() -> None:
    """Node-limited levels, so the games replay on any machine: each game starts with the negotiated stones
    (3 to 6), the players alternate as opener, and each tally counts the games of its player's colour."""
    first, second = player("perfect", nodes=3_000), player("medium", nodes=3_000)
    result = play_match(GOMOKU, first, second, 2, seed=2, opening_rule="swap2")
    assert result.to_json()["opening_rule"] == "swap2"
    wins = {"perfect": 0, "medium": 0}
    for number, record in enumerate(result.games):
        assert 3 <= record.opening <= 6
        stones, opener_black = swap2.opening(
            GOMOKU,
            swap2.negotiator(first if number % 2 == 0 else second),
            swap2.negotiator(second if number % 2 == 0 else first),
            random.Random(game_seed(2, number)),
        )
        assert record.moves[: record.opening] == stones
        opener = "perfect" if number % 2 == 0 else "medium"
        assert (record.x == opener) == opener_black and {record.x, record.o} == {"perfect", "medium"}
        assert replayed(GOMOKU, record.moves).result == record.result
        if record.result != "draw":
            wins[record.x if record.result == "x" else record.o] += 1
    assert [(t.player, t.wins) for t in result.tallies()] == [
        ("perfect", wins["perfect"]),
        ("medium", wins["medium"]),
    ]


def test_swap2_is_refused_with_openings_an_unknown_rule_a_player_that_cannot_open_or_off_gomoku() -> None:
    level = player("medium", nodes=100)
    with pytest.raises(InvalidMatchError, match="openings and the swap2 opening rule"):
        play_match(GOMOKU, level, level, 2, opening_rule="swap2", openings=[(112, 113, 114)])
    with pytest.raises(InvalidMatchError, match="unknown opening rule 'swap3'"):
        play_match(GOMOKU, level, level, 2, opening_rule="swap3")
    with pytest.raises(InvalidMatchError, match="rules cannot play the swap2 opening"):
        play_match(GOMOKU, level, player("rules"), 2, opening_rule="swap2")
    with pytest.raises(InvalidMatchError, match="not of tictactoe"):
        play_match(Game.parse("tictactoe"), level, level, 2, opening_rule="swap2")
    with pytest.raises(InvalidMatchError, match="not of renju"):
        play_match(Game.parse("renju"), level, level, 2, opening_rule="swap2")


def test_swap2_with_swap_or_openings_on_the_command_line_is_one_line_of_error() -> None:
    completed = subprocess.run(
        [sys.executable, "-m", "inarow", "match", "medium", "hard", "--game", "gomoku", "--swap2", "--swap"],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(SRC)},
        timeout=120,
        check=False,
    )
    assert completed.returncode == 2
    assert completed.stderr.strip().splitlines() == [
        "error: --swap2 decides the colours: it goes with neither --swap nor --openings"
    ]


def swap2_in_terminal(answers: list[str], first: str) -> str:
    """What ``inarow play --swap2`` prints (the prompts left out) when the player types ``answers``, the
    computer's searches bounded by nodes."""
    typed = iter(answers)
    printed = Console(record=True, width=200)
    game = ConsoleGame(GOMOKU, printed, seed=3, read=lambda _: next(typed), swap2=True, nodes=20_000)
    game.run(None, first, "perfect")
    return printed.export_text()


@pytest.mark.slow
def test_in_the_terminal_the_player_opens_and_the_computer_takes_the_colour_the_stones_favour() -> None:
    text = swap2_in_terminal(["h8", "a15", "i8", "q"], "you")  # Black ahead: the computer takes Black
    assert "swap2: you open: place a black, a white and a black stone; then the computer chooses" in text
    assert "the computer takes Black: you play White" in text
    assert "bye — you 0 won" in text


@pytest.mark.slow
def test_in_the_terminal_the_computer_opens_and_the_player_places_two_more_then_the_computer_chooses() -> (
    None
):
    text = swap2_in_terminal(["two", "a1", "o15", "q"], "computer")
    opening = re.search(r"swap2: the computer opens with (\S+) (\S+) (\S+) \(black, white, black\)", text)
    assert opening is not None
    assert swap2.propose(GOMOKU, random.Random(3).randrange(2**31), NODES) == opening.groups()
    after = parse_position(" ".join([*opening.groups(), "a1", "o15"]), GOMOKU)
    choice = swap2.choose(after, NODES)
    if choice.swap:
        assert "the computer takes Black: you play White" in text
    else:
        assert f"the computer takes White and plays {choice.stones[0]}: you play Black" in text


def test_swap2_in_the_terminal_is_refused_off_gomoku_and_with_a_side_chosen() -> None:
    runner = CliRunner()
    off = runner.invoke(app, ["play", "--game", "tictactoe", "--swap2"])
    assert off.exit_code == 2
    assert (
        off.output == "error: --swap2 is an opening rule of Gomoku without Renju's rules: not of tictactoe\n"
    )
    renju = runner.invoke(app, ["play", "--game", "renju", "--swap2"])
    assert renju.exit_code == 2 and "not of renju" in renju.output
    side = runner.invoke(app, ["play", "--game", "gomoku", "--swap2", "--you", "x"])
    assert side.exit_code == 2
    assert side.output == "error: --swap2 decides the colours: it does not go with --you\n"
