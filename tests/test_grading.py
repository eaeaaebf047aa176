"""``inarow grade``: an evaluation judged by the moves a depth-limited search with it plays, against the
exact values of every 3×3 position, checked here against the brute-force oracle of tests/brute_force.py."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

import brute_force
from inarow import InarowError
from inarow.cli import app
from inarow.engines.textbook import search
from inarow.evaluation.lines import evaluation_named
from inarow.rules.game import Game
from inarow.teaching.grading import grade, positions_to_grade

runner = CliRunner()
TICTACTOE = Game.parse("tictactoe")


def oracle_outcome(diagram: str) -> dict[str, int]:
    """Each move's exact outcome (1, 0, -1) for the side that plays it, by brute force."""
    board = tuple(reversed(diagram.split("/")))
    return {
        move: (score > 0) - (score < 0) for move, score in brute_force.move_scores(board, 3, False).items()
    }


def non_terminal_count() -> int:
    boards = brute_force.reachable(3, 3, 3, False)
    return sum(1 for board in boards if brute_force.moves(board, 3, False))


def test_every_non_terminal_tictactoe_position_is_graded_and_there_are_4520() -> None:
    positions, every = positions_to_grade(TICTACTOE)
    assert every
    assert len(positions) == non_terminal_count() == 4520
    assert len({position.diagram() for position in positions}) == 4520


@pytest.mark.slow
def test_a_full_depth_search_keeps_the_value_everywhere() -> None:
    report = grade(TICTACTOE, "open-lines", None, games=0)
    assert (report.positions, report.kept, report.accuracy, report.blunders) == (4520, 4520, 1.0, ())
    assert report.by_value == {1: (2836, 2836), 0: (1052, 1052), -1: (632, 632)}


@pytest.mark.parametrize(
    ("evaluation", "kept", "by_value", "worst"),
    [
        (
            "src/inarow/teaching/examples/textbook_eval.py:e",
            4297,
            [[632, 632], [1008, 1052], [2657, 2836]],
            ("..o/x../.x.", "b2"),
        ),
        ("weights:0,0,0,1", 4238, [[632, 632], [939, 1052], [2667, 2836]], (".../..o/.x.", "a1")),
    ],
)
@pytest.mark.slow
def test_grade_at_depth_2_agrees_with_the_oracle_on_every_position(
    evaluation: str, kept: int, by_value: list[list[int]], worst: tuple[str, str]
) -> None:
    """The figures the README explains (kept; by value: lost, drawn, won), each position's verdict checked
    against the brute-force values: the textbook e(P) keeps every loss and throws away wins and draws that
    a 2-ply horizon cannot see through; completed lines only sees nothing that is not a win within 2 plies."""
    result = runner.invoke(app, ["grade", "--eval", evaluation, "--depth", "2", "--games", "0", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    found, blunders, function = 0, {}, evaluation_named(evaluation)
    for position in positions_to_grade(TICTACTOE)[0]:
        outcomes = oracle_outcome(position.diagram())
        move = search(position, "alphabeta", 2, function, record=False).move_name
        assert move is not None
        if outcomes[move] == max(outcomes.values()):
            found += 1
        else:
            blunders[position.diagram()] = (move, max(outcomes.values()), outcomes[move])
    assert (report["positions"], report["kept"], found) == (4520, kept, kept)
    assert report["accuracy"] == round(kept / 4520, 6)
    assert [report["by_value"][name] for name in ("loss", "draw", "win")] == by_value
    assert len(report["blunders"]) == len(blunders)
    words = {1: "win", 0: "draw", -1: "loss"}
    for blunder in report["blunders"]:
        move, before, after = blunders[blunder["position"]]
        assert (blunder["move"], blunder["before"], blunder["after"]) == (move, words[before], words[after])
    losses = [blunder["loss"] for blunder in report["blunders"]]
    assert losses == sorted(losses, reverse=True)
    assert (report["blunders"][0]["position"], report["blunders"][0]["move"]) == worst


def test_grade_text_lists_blunders_worst_first_and_plays_the_named_evaluations() -> None:
    result = runner.invoke(
        app, ["grade", "--eval", "open-lines", "--depth", "1", "--games", "2", "--blunders", "2"]
    )
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "open-lines with alphabeta, depth 1, on tictactoe: every non-terminal position (4,520)"
    assert lines[1] == (
        "where e(P) decides, the move played keeps the value in 753 of 1,287 positions: 58.5% "
        "(e ≡ 0: 33.9%, a random e(P): 33.4%)"
    )
    assert lines[2] == "over every position, the move played keeps the value in 3,986 of 4,520: 88.2%"
    assert "win → loss" in lines[7] and "win → loss" in lines[8]
    assert lines[9].startswith("draw one as a tree: inarow tree '")
    assert lines[10] == "against the named evaluations (2 games each, colours swapped):"
    assert [line.split(":")[0].strip() for line in lines[11:14]] == ["open-lines", "weighted", "lines"]


def test_grade_refuses_what_it_cannot_do() -> None:
    with pytest.raises(InarowError, match="too big to solve"):
        grade(Game.parse("gomoku"), "open-lines", 2)
    with pytest.raises(InarowError, match="invalid depth 0"):
        grade(TICTACTOE, "open-lines", 0)
    result = runner.invoke(app, ["grade", "--eval", "nothing", "--depth", "2"])
    assert result.exit_code == 2 and result.output.startswith("error: unknown evaluation 'nothing'")


def test_a_bigger_board_is_graded_on_a_seeded_sample_of_unfinished_positions() -> None:
    game = Game.parse("4x4")
    positions, every = positions_to_grade(game, sample=12, seed=5)
    assert not every and len(positions) == len(set(positions)) == 12
    assert all(not position.is_over for position in positions)
    assert positions == positions_to_grade(game, sample=12, seed=5)[0]
    assert positions != positions_to_grade(game, sample=12, seed=6)[0]
