"""Rules and notation: games, cell names, the three position notations, and every error message."""

from __future__ import annotations

import pytest

from inarow import (
    Game,
    IllegalMoveError,
    InvalidGameError,
    InvalidLimitError,
    InvalidMoveError,
    InvalidPositionError,
    Limits,
    Position,
    format_moves,
    parse_position,
)


@pytest.mark.parametrize(
    ("name", "spec"),
    [
        ("tictactoe", (3, 3, 3, False)),
        ("4x4", (4, 4, 4, False)),
        ("5x5", (5, 5, 4, False)),
        ("connect4", (7, 6, 4, True)),
        ("gomoku", (15, 15, 5, False)),
        ("6x4:4:gravity", (6, 4, 4, True)),
        ("7X6:4", (7, 6, 4, False)),
        ("19x19:5", (19, 19, 5, False)),
        ("8x3", (8, 3, 3, False)),
    ],
)
def test_games_are_read_from_presets_and_custom_specs(name: str, spec: tuple[int, int, int, bool]) -> None:
    game = Game.parse(name)
    assert (game.columns, game.rows, game.k, game.gravity) == spec
    assert Game.parse(game.name) == game


@pytest.mark.parametrize(
    ("name", "message"),
    [
        (
            "chess",
            "unknown game 'chess': expected one of tictactoe, 4x4, 5x5, connect4, gomoku, gomoku-standard or "
            "COLSxROWS:K[:gravity][:exact]",
        ),
        ("20x20:5", "game '20x20:5' has 20 columns: boards go from 1 to 19"),
        ("3x0:3", "game '3x0:3' has 0 rows: boards go from 1 to 19"),
        ("3x3:4", "game '3x3:4' asks for 4 in a row: k must be from 2 to 3 on a 3x3 board"),
        ("3x3:1", "game '3x3:1' asks for 1 in a row: k must be from 2 to 3 on a 3x3 board"),
    ],
)
def test_a_bad_game_is_refused_with_what_is_wrong(name: str, message: str) -> None:
    with pytest.raises(InvalidGameError) as error:
        Game.parse(name)
    assert str(error.value).startswith(message)


def test_cells_are_named_from_the_bottom_left() -> None:
    """
    3 a3 b3 c3
    2 a2 b2 c2
    1 a1 b1 c1
    """
    game = Game.parse("tictactoe")
    position = parse_position("a1 b2 c3 a3", game)
    assert position.diagram() == "o.x/.o./x.."
    assert game.cell_name(game.bit(0, 0)) == "a1"
    assert game.cell_name(game.bit(1, 1)) == "b2"


def test_the_three_notations_give_the_same_position() -> None:
    game = Game.parse("connect4")
    from_digits = parse_position("4453", game)
    from_moves = parse_position("4 4 5 3", game)
    from_diagram = parse_position("......./......./......./......./...o.../..oxx..", game)
    assert from_digits == from_moves == from_diagram
    assert from_digits.turn == "x"


def test_a_diagram_round_trips_through_repr_and_the_move_list_formats() -> None:
    position = parse_position("x.o/.x./..o")
    assert repr(position) == "parse_position('x.o/.x./..o', 'tictactoe')"
    assert eval(repr(position), {"parse_position": parse_position}) == position
    assert format_moves(position.game, [5, 0, 10]) == "b2 a1 c3"
    assert format_moves(Game.parse("connect4"), [21, 22, 28]) == "445"


def test_play_returns_a_new_position_and_leaves_the_old_one_alone() -> None:
    start = Position.start(Game.parse("tictactoe"))
    after = start.play("b2")
    assert start.diagram() == ".../.../..."
    assert after.diagram() == ".../.x./..."
    assert after.turn == "o"
    assert hash(after) == hash(parse_position("b2"))


def test_gravity_drops_a_stone_to_the_lowest_empty_cell() -> None:
    position = parse_position("44", "connect4")
    assert position.play("4").diagram().split("/")[-3:] == ["...x...", "...o...", "...x..."]


def test_the_side_to_move_and_the_result_follow_from_the_stones() -> None:
    """
    x x x
    o o .
    . . .
    """
    won = parse_position("xxx/oo./...")
    assert (won.result, won.winner, won.to_move, won.is_over) == ("x", "x", None, True)
    assert won.winning_line_bits() == [2, 6, 10]
    drawn = parse_position("xox/xox/oxo")
    assert (drawn.result, drawn.to_move) == ("draw", None)
    assert parse_position("").to_move == "x"


@pytest.mark.parametrize(
    ("text", "game", "error", "message"),
    [
        (
            "b2 b2",
            "tictactoe",
            IllegalMoveError,
            "move 2 of 'b2 b2': illegal move 'b2' in '.../.x./...': cell is taken",
        ),
        (
            "z9",
            "tictactoe",
            InvalidMoveError,
            "move 1 of 'z9': invalid cell 'z9': expected a cell name from a1 to c3",
        ),
        (
            "a4",
            "tictactoe",
            InvalidMoveError,
            "move 1 of 'a4': invalid cell 'a4': expected a cell name from a1 to c3",
        ),
        (
            "a1 a2 b1 b2 c1 c2",
            "tictactoe",
            IllegalMoveError,
            "move 6 of 'a1 a2 b1 b2 c1 c2': illegal move 'c2' in '.../oo./xxx': the game is over",
        ),
        (
            "8",
            "connect4",
            InvalidMoveError,
            "move 1 of '8': invalid move '8': expected a column number from 1 to 7",
        ),
        ("4444444", "connect4", IllegalMoveError, "move 7 of '4444444': illegal move '4' in"),
        (
            "x.o/.x.",
            "tictactoe",
            InvalidPositionError,
            "invalid diagram 'x.o/.x.': tictactoe has 3 rows separated",
        ),
        (
            "x.o/.x/...",
            "tictactoe",
            InvalidPositionError,
            "invalid diagram 'x.o/.x/...': row 2 from the top '.x'",
        ),
        (
            "x.q/.../...",
            "tictactoe",
            InvalidPositionError,
            "invalid diagram 'x.q/.../...': row 1 from the top 'x.q'",
        ),
        (
            "xx./.../...",
            "tictactoe",
            InvalidPositionError,
            "impossible position 'xx./.../...': x has 2 stones and o",
        ),
        (
            "o../.../...",
            "tictactoe",
            InvalidPositionError,
            "impossible position 'o../.../...': x has 0 stones and o",
        ),
        (
            "xxx/ooo/x.o",
            "tictactoe",
            InvalidPositionError,
            "impossible position 'xxx/ooo/x.o': both x and o have 3",
        ),
        ("xxx/oo./o..", "tictactoe", InvalidPositionError, "x has won, so o cannot have moved since"),
        ("ooo/xx./xx.", "tictactoe", InvalidPositionError, "o has won, so x cannot have moved since"),
        (
            "xxx../oo.oo/xxx.o",
            "5x3:3",
            InvalidPositionError,
            "x has lines that no single last move completed",
        ),
        (
            "......./......./......./......./x....../.......",
            "connect4",
            InvalidPositionError,
            "a stone floats above an empty cell",
        ),
        ("o./o./x./x.", "2x4:4:gravity", InvalidPositionError, "no order of play stacks these columns"),
        (
            "x" * 5000,
            "tictactoe",
            InvalidPositionError,
            "position of 5000 characters is too long: at most 4096",
        ),
    ],
)
def test_a_bad_position_is_refused_with_what_is_wrong(
    text: str, game: str, error: type[Exception], message: str
) -> None:
    with pytest.raises(error) as raised:
        parse_position(text, game)
    assert message in str(raised.value)


def test_columns_stacked_in_an_order_no_game_can_produce_are_refused() -> None:
    """
    . .
    o .
    o .
    x x      x plays 1, o answers on top of it, x plays 2, o plays 1 again: fine.
    But x x under o o in one column with the other empty cannot be: o had nowhere to answer.
    """
    assert parse_position("../o./o./xx", "2x4:4:gravity").turn == "x"
    with pytest.raises(InvalidPositionError, match="no order of play stacks these columns"):
        parse_position("o./o./x./x.", "2x4:4:gravity")


def test_a_win_whose_last_stone_is_buried_in_a_gravity_game_is_refused() -> None:
    """Four x on the bottom row under an o: the winning stone cannot have been played last."""
    with pytest.raises(InvalidPositionError, match="no single last move"):
        parse_position("......./......./......./..o..../ooxo.../xxxx...", "connect4")
    with pytest.raises(InvalidPositionError, match="no single last move"):
        parse_position("......./......./......./...o.../ooxo.../xxxx...", "connect4")


@pytest.mark.parametrize(
    ("limits", "message"),
    [
        ({"depth": -1}, "invalid depth -1: expected 0 to 400 plies"),
        ({"time": 0}, "invalid time 0: expected more than 0 and at most 86400 seconds"),
        ({"nodes": 0}, "invalid node limit 0: expected at least 1"),
    ],
)
def test_bad_limits_are_refused(limits: dict[str, float], message: str) -> None:
    with pytest.raises(InvalidLimitError, match=message):
        Limits(**limits)  # type: ignore[arg-type]


def test_playing_a_cell_by_its_bit_index_checks_it_is_on_the_board() -> None:
    position = Position.start(Game.parse("tictactoe"))
    with pytest.raises(InvalidMoveError, match="invalid move 3: no such cell on tictactoe"):
        position.play(3)  # bit 3 is the spare bit above a3


def test_a_board_of_one_row_is_written_without_a_slash() -> None:
    position = parse_position("x.o..", "5x1:3")
    assert position.diagram() == "x.o.." and position.turn == "x"
    assert parse_position("a1 c1", "5x1:3") == position
