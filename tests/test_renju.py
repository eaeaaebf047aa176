"""Renju: Black (the side that moves first) may not play a forbidden point — an overline, a double four or a
double three, as the Renju International Federation's rules define them (see :mod:`inarow.rules.renju`) — unless
the stone makes exactly five; Black wins with exactly five, White with five or more. Each case is drawn
with the reasoning that decides it, and the engine is checked never to play a forbidden point."""

from __future__ import annotations

import json
import pickle
import random

import pytest
from typer.testing import CliRunner

from inarow import Game, Position
from inarow.base.errors import IllegalMoveError, InvalidGameError
from inarow.base.i18n import language
from inarow.cli import app
from inarow.play.players import player
from inarow.protocols.gomocup import Brain
from inarow.rules.notation import parse_moves
from inarow.rules.renju import forbidden

RENJU = Game.parse("renju")
CORNERS = ["a1", "a15", "o1", "o15", "a3", "a13", "o3", "o13", "c1", "c15", "m1", "m15"]
"""Cells far from the middle for White's stones, which play no part in the cases."""

runner = CliRunner()


def black_to_move(black: list[str], white: list[str] | None = None, game: Game = RENJU) -> Position:
    """Black's stones and White's (by default as many in the corners), Black to move."""
    white = CORNERS[: len(black)] if white is None else white
    assert len(white) == len(black)
    moves = [move for pair in zip(black, white, strict=True) for move in pair]
    return parse_moves(moves, game)


def reasons(position: Position) -> dict[str, str]:
    return {position.game.cell_name(bit): why for bit, why in position.forbidden.items()}


def test_two_open_threes_at_once_are_refused_as_forbidden() -> None:
    """The issue's case. Black f8 g8 h9 h10, White in the corners: h8 makes f8 g8 h8 (open: e8 or i8
    makes a straight four) and h8 h9 h10 (open: h7 or h11), a double three.

    10 . . . . . . . x . .
     9 . . . . . . . x . .
     8 . . . . . x x ? . .
       . . . . . f g h i j
    """
    position = black_to_move(["f8", "g8", "h9", "h10"], ["a1", "a15", "o1", "o15"])
    assert reasons(position) == {"h8": "double-three"}
    assert "h8" not in position.legal_moves() and len(position.legal_moves()) == 225 - 8 - 1
    with pytest.raises(IllegalMoveError) as caught:
        position.play("h8")
    assert str(caught.value).endswith("': a forbidden point for black: a double three")
    assert caught.value.reason == "a forbidden point for black: a double three"
    with language("zh_CN"):
        assert caught.value.reason_said() == "黑棋的禁手：三三"


def test_white_has_no_forbidden_points() -> None:
    """The same shape in White's stones, White to move: h8 is White's to play."""
    position = parse_moves(["a1", "f8", "a15", "g8", "o1", "h9", "o15", "h10", "c1"], RENJU)
    assert position.turn == "o" and position.forbidden == {}
    assert position.play("h8").stone_at(RENJU.parse_cell("h8")) == "o"


def test_the_same_point_is_no_forbidden_move_in_gomoku() -> None:
    position = black_to_move(["f8", "g8", "h9", "h10"], game=Game.parse("gomoku-standard"))
    assert position.forbidden == {} and "h8" in position.legal_moves()


def test_two_fours_at_once_are_forbidden_in_two_lines_and_in_one() -> None:
    """e8 f8 g8 and h5 h6 h7: h8 makes two fours (a double four). c8 e8 g8 i8: f8 makes c8 . e8 f8 g8 . i8,
    whose d8 and h8 each complete a five with different stones: two fours in one line.

     8 . . x . x ? x . x .       8 . . . . x x x ? . .
       a b c d e f g h i j       7 . . . . . . . x . .
                                 6 . . . . . . . x . .
                                 5 . . . . . . . x . .
    """
    assert reasons(black_to_move(["e8", "f8", "g8", "h5", "h6", "h7"]))["h8"] == "double-four"
    assert reasons(black_to_move(["c8", "e8", "g8", "i8"]))["f8"] == "double-four"


def test_an_open_four_is_one_four_and_a_four_three_is_allowed() -> None:
    """d8 e8 f8: g8 makes a straight four (c8 and h8 each make five with the same four stones): one four,
    allowed. With g6 g7 too, g8 makes that four and the open three g6 g7 g8 (g5 or g9 makes a straight
    four): a four-three, allowed — and no point at all is forbidden.

     8 . . . x x x ? . .
     7 . . . . . . x . .
     6 . . . . . . x . .
       a b c d e f g h i
    """
    assert reasons(black_to_move(["d8", "e8", "f8"])) == {}
    position = black_to_move(["d8", "e8", "f8", "g6", "g7"])
    assert "g8" in position.legal_moves() and reasons(position) == {}


def test_an_overline_is_forbidden_to_black_and_wins_for_white() -> None:
    """b8 c8 d8 e8 and g8: f8 makes six in a row, an overline: forbidden to Black; five in a row
    elsewhere (d8 e8 f8 g8 with h8) is still Black's."""
    position = black_to_move(["b8", "c8", "d8", "e8", "g8"])
    assert reasons(position)["f8"] == "overline"
    with pytest.raises(IllegalMoveError, match=r"a forbidden point for black: an overline$"):
        position.play("f8")
    row = [RENJU.parse_cell(f"{c}8") for c in "bcdefg"]
    six = sum(1 << bit for bit in row)
    assert (
        Position(RENJU, x=six, o=0b1 | 1 << RENJU.parse_cell("a15") | 1 << RENJU.parse_cell("o1")).winner
        is None
    )
    assert Position(RENJU, x=1 | 1 << RENJU.parse_cell("a15"), o=six).winner == "o"


def test_an_overline_for_black_does_not_win() -> None:
    """A board where Black has six in a row (as a diagram can hold) is no win for Black, while exactly five is."""
    six = sum(1 << RENJU.parse_cell(f"{c}8") for c in "bcdefg")
    white = sum(1 << RENJU.parse_cell(cell) for cell in CORNERS[:6])
    assert Position(RENJU, x=six, o=white).winner is None
    assert Position(Game.parse("gomoku"), x=six, o=white).winner == "x"
    five = sum(1 << RENJU.parse_cell(f"{c}8") for c in "bcdef")
    assert Position(RENJU, x=five, o=white & ~1).winner == "x"


def test_exactly_five_wins_even_when_it_makes_a_double_four_too() -> None:
    """b8 c8 d8 e8 and f5 f6 f7: f8 makes five in the row (exactly: g8 is empty) and a four in the
    column: the five wins."""
    position = black_to_move(["b8", "c8", "d8", "e8", "f5", "f6", "f7"])
    assert "f8" not in reasons(position)
    assert position.play("f8").winner == "x"


def test_a_three_whose_straight_four_point_is_forbidden_is_no_three() -> None:
    """h8 with f8 g8 (White on d8 blocks the left, so only i8 makes a straight four: f8 g8 h8 i8 with e8 and
    j8 open) and with h9 h10 (a true three). But i8 is itself forbidden once h8 is played: it would make
    i8 . i10 i11 (a three: i9 makes a straight four) and i8 j9 k10 (a three) — a double three beside the
    straight four of the row. So the row's three is not a real three, and h8 (one real three) is allowed.
    Without White's d8, e8 also makes a straight four (e8 f8 g8 h8 with d8 and i8 open), the row's three is
    real, and h8 is a double three again.

    11 . . . . . . . . x . .
    10 . . . . . . . x x . x
     9 . . . . . . . x . x .
     8 . . . o . x x ? . . .
       a b c d e f g h i j k
    """
    black = ["f8", "g8", "h9", "h10", "i10", "i11", "j9", "k10"]
    with_block = black_to_move(black, ["d8", *CORNERS[: len(black) - 1]])
    assert "h8" not in reasons(with_block)
    after = with_block.play("h8").play("a5")
    assert reasons(after).get("i8") == "double-three"
    without = black_to_move(black)
    assert reasons(without).get("h8") == "double-three"


def test_a_three_that_cannot_become_a_straight_four_is_no_three() -> None:
    """f8 g8 with Black on c8 and k8: h8 makes f8 g8 h8, but e8 would make c8 . e8 f8 g8 h8 whose d8 end
    makes six (so no straight four), and i8 likewise (j8 makes f8-k8, six). With h9 h10 that is one three.

     8 . . x . . x x ? . . x
       a b c d e f g h i j k
    """
    position = black_to_move(["f8", "g8", "h9", "h10", "c8", "k8"])
    assert "h8" not in reasons(position)
    assert reasons(black_to_move(["f8", "g8", "h9", "h10"]))["h8"] == "double-three"


def test_forbidden_takes_bitboards_as_the_rules_lay_them_out() -> None:
    position = black_to_move(["f8", "g8", "h9", "h10"])
    h8 = RENJU.parse_cell("h8")
    assert forbidden(position.x, position.o, h8, 15, 15) == "double-three"
    assert forbidden(position.x, position.o, RENJU.parse_cell("e8"), 15, 15) is None


def test_renju_is_a_game_by_name() -> None:
    assert (RENJU.columns, RENJU.rows, RENJU.k, RENJU.renju, RENJU.exact) == (15, 15, 5, True, True)
    assert RENJU.name == "renju" and Game.parse(RENJU.name) == RENJU
    assert pickle.loads(pickle.dumps(RENJU)) == RENJU
    assert Game.parse("19x19:5:renju").name == "19x19:5:renju"
    with pytest.raises(InvalidGameError, match=r"game '7x7:4:renju': renju is five in a row without gravity"):
        Game.parse("7x7:4:renju")


@pytest.mark.parametrize("name", ["easy", "medium", "hard", "perfect", "threats", "rules", "random"])
def test_no_player_plays_a_forbidden_point(name: str) -> None:
    """The issue's position: h8 wins for Black in Gomoku (two open threes; level perfect proves it with the
    standard rule), but is forbidden in Renju."""
    position = black_to_move(["f8", "g8", "h9", "h10"], ["a1", "a15", "o1", "o15"])
    for seed in range(3):
        assert player(name, 0.3).choose(position, random.Random(seed)).move != "h8"
    standard = black_to_move(
        ["f8", "g8", "h9", "h10"], ["a1", "a15", "o1", "o15"], Game.parse("gomoku-standard")
    )
    assert player("perfect", 0.3).choose(standard, random.Random(0)).move == "h8"


def test_the_analysis_lists_no_forbidden_point_and_proves_no_false_win() -> None:
    position = black_to_move(["f8", "g8", "h9", "h10"], ["a1", "a15", "o1", "o15"])
    result = runner.invoke(
        app, ["analyze", "f8 a1 g8 a15 h9 o1 h10 o15", "--game", "renju", "--time", "0.5", "--json"]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert "h8" not in [move["move"] for move in data["moves"]] and data["best"][0] != "h8"
    assert len(data["moves"]) == len(position.legal_moves())


def test_match_games_never_play_a_forbidden_point() -> None:
    """Every Black stone of every game of a Renju match is checked against the forbidden points of the
    position it was played in."""
    result = runner.invoke(
        app,
        [
            "match",
            "hard",
            "medium",
            "--game",
            "renju",
            "--openings",
            "2",
            "--seed",
            "4",
            "--time",
            "0.1",
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    checked = 0
    for record in json.loads(result.stdout)["games"]:
        position = Position.start(RENJU)
        for move in record["moves"].split():
            bit = RENJU.parse_cell(move)
            assert bit not in position.forbidden, (record["moves"], move)
            checked += bool(position.forbidden)
            position = position.play(bit)
        assert position.result == record["result"]
    assert checked > 0, "no game met a forbidden point: the check checked nothing"


def test_gomocup_info_rule_4_plays_renju_and_keeps_black_off_forbidden_points() -> None:
    """Over the protocol (y from the top: h8 is 7,7), our Black stones f8 g8 h9 h10 and theirs in the corners:
    with ``INFO rule 4`` we do not answer h8, which wins with the standard rule (``INFO rule 1``)."""
    board = ["BOARD", "5,7,1", "0,0,2", "6,7,1", "14,0,2", "7,6,1", "0,14,2", "7,5,1", "14,14,2", "DONE"]
    answers = {}
    for rule in (4, 1):
        brain = Brain()
        for line in ["START 15", f"INFO rule {rule}", "INFO timeout_turn 500", *board]:
            answer = brain.handle(line)
        assert brain.game.name == ("renju" if rule == 4 else "gomoku-standard")
        answers[rule] = answer
    assert answers[1] == ["7,7"] and answers[4] != ["7,7"] and len(answers[4]) == 1
    assert not answers[4][0].startswith("ERROR")
