"""Analysis a Gomoku player can read: a win rate on every move of a board too big to solve, a line for each
of the best few, the command line's table of the best five (``--all`` for every move), and proven results
kept as exact values."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from typer.testing import CliRunner

from inarow import parse_position
from inarow.cli import app
from inarow.engines.gomoku.analyst import CANDIDATES, _agreeing
from inarow.engines.gomoku.analyst import analyze as gomoku_analyze
from inarow.engines.limits import Limits
from inarow.engines.policy import analyze
from inarow.values.answers import WINRATE_SCALE, MoveValue, rank_key, winrate

runner = CliRunner()

MIDDLE_GAME = "h8 h9 i9 g7 j10 k11 i8 i7 g8 f8 j8 k8"
"""Twelve stones, nobody with a four or a win to prove: black (x) to move."""


def test_the_win_rate_is_a_logistic_of_the_evaluation() -> None:
    assert winrate(0) == 0.5
    assert winrate(WINRATE_SCALE) == 0.731 and winrate(-WINRATE_SCALE) == 0.269
    assert winrate(10**9) == 1.0 and winrate(-(10**9)) == 0.0
    rates = [winrate(score) for score in range(-3000, 3001, 100)]
    assert rates == sorted(rates) and all(0 <= rate <= 1 for rate in rates)
    for score in range(0, 3000, 37):
        assert abs(winrate(score) + winrate(-score) - 1) <= 0.0011


def test_every_move_of_a_gomoku_middle_game_has_a_win_rate_and_the_best_ten_a_line() -> None:
    position = parse_position(MIDDLE_GAME, "gomoku")
    result = analyze(position, Limits(nodes=100_000))
    assert not result.exact
    assert len(result.moves) == len(position.legal_moves())
    for move in result.moves:
        assert move.winrate is not None and 0 <= move.winrate <= 1
        if not move.exact:
            assert move.winrate == winrate(move.score)
    lined = [move for move in result.moves if move.line]
    assert len(lined) == CANDIDATES
    for move in lined:
        assert move.line[0] == move.move
        after = position
        for step in move.line:  # each line replays: its moves are legal, one after the other
            after = after.play(step)
    best = next(move for move in result.moves if move.move == result.best[0])
    assert best.line == result.pv
    assert {move.source for move in lined} == {"search"}
    assert {move.source for move in result.moves if not move.line} == {"bound", "evaluation"}


def test_the_same_analysis_asked_twice_gets_the_same_answer() -> None:
    """An analysis with lines starts from an empty table: the second search of the position does not find
    the first's win "at depth 1" in the table, nor search its candidates' replies a ply deep."""
    position = parse_position(MIDDLE_GAME, "gomoku")
    first, second = (analyze(position, Limits(nodes=40_000)) for _ in range(2))
    assert first.depth is not None and first.depth >= 4
    assert (second.best, second.depth, second.pv, second.nodes) == (
        first.best,
        first.depth,
        first.pv,
        first.nodes,
    )
    assert second.moves == first.moves


def test_a_proven_win_stays_exact_with_a_certain_win_rate() -> None:
    """x h8 i8 j8 with g8 and k8 open: an open three, x to move makes an open four and wins in 2 moves (the four, then the five)."""
    position = parse_position("h8 a1 i8 a15 j8 o1", "gomoku")
    result = analyze(position, Limits(nodes=100_000))
    assert (result.exact, result.outcome) == (True, "win")
    best = next(move for move in result.moves if move.move == result.best[0])
    assert (best.exact, best.outcome, best.winrate) == (True, "win", 1.0)
    data = json.loads(
        runner.invoke(app, ["analyze", "h8 a1 i8 a15 j8 o1", "-g", "gomoku", "-t", "1", "--json"]).stdout
    )
    assert data["outcome"] == "win" and data["proof"] == "vcf"
    assert data["description"] == "black wins in 2 moves: VCF"  # the four, then the five


def test_the_players_ask_for_no_lines() -> None:
    """Without lines, only the best move's score is the search's value: the moves the root searched on the
    way to it carry the bound they got (``bound``), the others the evaluation (``evaluation``)."""
    result = gomoku_analyze(parse_position(MIDDLE_GAME, "gomoku"), Limits(nodes=20_000))
    assert not any(move.line for move in result.moves)
    assert all(move.winrate is not None for move in result.moves)
    sources = {move.move: move.source for move in result.moves}
    assert sources.pop(result.best[0]) == "search"
    assert set(sources.values()) == {"bound", "evaluation"}


def test_the_command_line_shows_the_best_five_with_their_lines_and_every_move_with_all() -> None:
    position = parse_position(MIDDLE_GAME, "gomoku")
    shown = runner.invoke(app, ["analyze", MIDDLE_GAME, "--game", "gomoku", "--time", "0.5"])
    assert shown.exit_code == 0, shown.output
    lines = shown.output.splitlines()
    header = next(number for number, line in enumerate(lines) if line.startswith("move"))
    assert lines[header].split() == ["move", "for", "the", "mover", "score", "win", "rate", "line"]
    rows = lines[header + 1 : header + 6]
    assert all(row.split()[-1].rstrip("%") for row in rows)
    for row in rows:
        words = row.split()
        rate = next(word for word in words if word.endswith("%"))
        assert 0 <= int(rate.rstrip("%")) <= 100
        assert words[-1] != rate  # a line follows the win rate
    assert lines[header + 6] == f"the best 5 of {len(position.legal_moves())} moves; --all shows every one"
    every = runner.invoke(app, ["analyze", MIDDLE_GAME, "--game", "gomoku", "--time", "0.5", "--all"])
    lines = every.output.splitlines()
    header = next(number for number, line in enumerate(lines) if line.startswith("move"))
    table = lines[header + 1 : header + 1 + len(position.legal_moves())]
    assert {row.split()[0] for row in table} == set(position.legal_moves())


def test_small_boards_keep_every_move_in_the_table_without_win_rates() -> None:
    shown = runner.invoke(app, ["analyze", "b2"])
    assert "win rate" not in shown.output and "--all" not in shown.output
    assert (
        sum(
            1
            for line in shown.output.splitlines()
            if line.split()[:1] and line.split()[0] in {"a1", "a2", "a3", "b1", "b3", "c1", "c2", "c3"}
        )
        == 8
    )


@pytest.mark.slow
def test_the_command_line_names_gomoku_s_sides_black_and_white() -> None:
    """The words say black (x, who moves first) and white; the board draws ● and ○; the JSON keeps x."""
    said = runner.invoke(app, ["analyze", "h8 a1 i8 a15 j8 o1", "--game", "gomoku", "--time", "0.5"]).output
    assert said.splitlines()[0] == "h8 a1 i8 a15 j8 o1  (gomoku, black to move)"
    assert "black wins in 2 moves: VCF" in said
    board = "\n".join(said.splitlines()[1:17])
    assert board.count("●") == 3 and board.count("○") == 3 and "X" not in board and "O" not in board
    chinese = runner.invoke(
        app, ["--lang", "zh", "analyze", "h8 a1 i8 a15 j8", "--game", "gomoku", "-t", "0.5"]
    )
    assert "白方" in chinese.output.splitlines()[0]
    data = json.loads(
        runner.invoke(app, ["analyze", "h8 a1 i8 a15 j8 o1", "-g", "gomoku", "-t", "0.5", "--json"]).stdout
    )
    assert data["to_move"] == "x" and data["winner"] == "x"
    match = runner.invoke(
        app, ["match", "threats", "rules", "--game", "gomoku", "--openings", "1", "--seed", "2"]
    )
    games = [line for line in match.output.splitlines() if line.startswith("1. ")]
    assert games[0].startswith("1. black threats, white rules: ") and games[0].endswith(" — black wins")


AGREEING_GAMES = ("h8 h9 i8", "h8 i9 h10 j8", "g7 h8 i9 h9 h10 i8 g8")
"""Three middle games whose analyses once listed a move above the best one (issue 35): ``h8 h9 i8`` named
j8 best at −5391 and listed g8 under it at −4609."""


def test_an_analysis_agrees_with_itself_the_best_move_first_with_the_highest_score_and_win_rate() -> None:
    """Every listed move is worth at most the best one; the moves come in :func:`rank_key`'s order (searched
    scores, then bounds, then unsearched moves, each by score), and win rates fall as scores fall."""
    for text in AGREEING_GAMES:
        result = gomoku_analyze(parse_position(text, "gomoku"), Limits(depth=4), lines=5)
        best, *others = result.moves
        assert best.move == result.best[0] and best.source == "search" and not best.exact, text
        assert all(move.score <= best.score and move.winrate <= best.winrate for move in others), text  # type: ignore[operator]
        assert [rank_key(move, best.move) for move in result.moves] == sorted(
            rank_key(move, best.move) for move in result.moves
        ), text
        for one in result.moves:
            for other in result.moves:
                if one.score > other.score:
                    assert one.winrate >= other.winrate, (text, one, other)  # type: ignore[operator]
        lined = [move for move in result.moves if move.line]
        assert len(lined) == 5 and all(move.source in ("search", "bound") for move in lined), text


def test_a_move_whose_own_search_says_more_than_the_root_allowed_is_shown_as_the_root_s_bound() -> None:
    """A candidate's own shallower search may value it above what the root's α-β proved (it failed low at
    ``bound``), or above the best move: it is listed at the lower of the two, as a bound."""
    best = MoveValue(move="j8", exact=False, score=-5391, value=None, plies=None, winrate=winrate(-5391))
    searched = MoveValue(move="g8", exact=False, score=-4609, value=None, plies=None, winrate=winrate(-4609))
    listed = _agreeing(searched, -5500, best)
    assert (listed.score, listed.source, listed.winrate) == (-5500, "bound", winrate(-5500))
    assert _agreeing(searched, None, best).score == -5391
    lower = replace(searched, score=-6000)
    assert _agreeing(lower, -5500, best) is lower  # within both: kept as searched


def test_the_command_line_and_the_json_list_the_moves_in_one_order() -> None:
    said = runner.invoke(app, ["analyze", AGREEING_GAMES[0], "--game", "gomoku", "--depth", "4", "--all"])
    assert said.exit_code == 0, said.output
    jsoned = runner.invoke(app, ["analyze", AGREEING_GAMES[0], "--game", "gomoku", "--depth", "4", "--json"])
    moves = json.loads(jsoned.stdout)["moves"]
    table = [
        line.split()[0]
        for line in said.stdout.splitlines()
        if line.split() and line.split()[0] in {m["move"] for m in moves}
    ]
    assert table[: len(moves)] == [move["move"] for move in moves]
