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
            "unknown game 'chess': expected one of tictactoe, 4x4, 5x5, connect4, gomoku, gomoku-standard, renju or "
            "COLSxROWS:K[:gravity][:exact][:renju]",
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
            "move 1 of 'z9': invalid cell 'z9': expected a cell name from a1 to c3, a key 1-9 as on the numeric "
            "keypad, or row,column from 1,1 at the top left to 3,3 on tictactoe",
        ),
        (
            "a4",
            "tictactoe",
            InvalidMoveError,
            "move 1 of 'a4': invalid cell 'a4': expected a cell name from a1 to c3, a key 1-9 as on the numeric "
            "keypad, or row,column from 1,1 at the top left to 3,3 on tictactoe",
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


# ------------------------------------------------------------------------ the course notations
@pytest.mark.parametrize(
    ("move", "cell"),
    [
        *[("7", "a3"), ("8", "b3"), ("9", "c3"), ("4", "a2"), ("5", "b2"), ("6", "c2"), ("1", "a1")],
        *[("2", "b1"), ("3", "c1"), ("1,1", "a3"), ("(1,1)", "a3"), ("( 2 , 3 )", "c2"), ("3,1", "a1")],
        ("B2", "b2"),
    ],
)
def test_a_3x3_cell_is_read_as_a_keypad_digit_or_row_column_from_the_top_left(move: str, cell: str) -> None:
    """
    keypad      row,column
    7 8 9       1,1 1,2 1,3        a3 b3 c3
    4 5 6       2,1 2,2 2,3   =    a2 b2 c2
    1 2 3       3,1 3,2 3,3        a1 b1 c1
    """
    game = Game.parse("tictactoe")
    assert game.cell_name(game.parse_cell(move)) == cell


def test_move_lists_mix_the_notations_and_every_output_keeps_the_cell_names() -> None:
    expected = parse_position("b2 a1 c3")
    for text in ("5 1 9", "(2,2) (3,1) (1,3)", "2,2 3,1 1,3", "b2, (3, 1), 9"):
        position = parse_position(text)
        assert position == expected, text
        assert position.diagram() == "..x/.x./o.."
    gomoku = parse_position("(8,8) (1,1)", "gomoku")
    assert gomoku.legal_moves()[0] == "a1" and gomoku == parse_position("h8 a15", "gomoku")


def test_keypad_digits_are_columns_in_gravity_games_and_not_cells_on_bigger_boards() -> None:
    assert parse_position("4,4,5,3", "connect4") == parse_position("4453", "connect4")
    with pytest.raises(InvalidMoveError) as caught:
        parse_position("5", "gomoku")
    assert str(caught.value) == (
        "move 1 of '5': invalid cell '5': expected a cell name from a1 to o15 or row,column from 1,1 at the "
        "top left to 15,15 on gomoku"
    )


@pytest.mark.parametrize("move", ["0", "10", "4,1", "(1,1", "1,4", "(1,1))"])
def test_a_cell_out_of_every_notation_is_refused_naming_them_all(move: str) -> None:
    with pytest.raises(InvalidMoveError) as caught:
        Game.parse("tictactoe").parse_cell(move)
    assert str(caught.value) == (
        f"invalid cell {move!r}: expected a cell name from a1 to c3, a key 1-9 as on the numeric keypad, or "
        "row,column from 1,1 at the top left to 3,3 on tictactoe"
    )


# ------------------------------------------------------------------------- games O begins
def test_a_game_where_o_moves_first_is_named_so_and_o_moves_first() -> None:
    game = Game.parse("tictactoe:o-first")
    assert (game.first, game.second, game.name) == ("o", "x", "tictactoe:o-first")
    assert Game.parse(game.name) == game != Game.parse("tictactoe")
    assert Game.parse("6x4:4:gravity:o-first").name == "6x4:4:gravity:o-first"
    start = Position.start(game)
    assert start.turn == "o"
    after = start.play("b2")
    assert after.o and not after.x and after.turn == "x"
    assert after.play("a1").turn == "o"


def test_a_diagram_with_one_more_o_is_read_when_o_began_and_refused_when_x_did() -> None:
    """
    o . .
    . . .      o began: x to move
    . . .
    """
    position = parse_position("o../.../...", "tictactoe:o-first")
    assert position.turn == "x" and position.to_move == "x"
    with pytest.raises(InvalidPositionError) as caught:
        parse_position("o../.../...")
    assert str(caught.value) == (
        "impossible position 'o../.../...': x has 0 stones and o has 1; x moves first, so x has as many "
        "stones as o or one more"
    )
    with pytest.raises(InvalidPositionError) as caught:
        parse_position("x../.../...", "tictactoe:o-first")
    assert str(caught.value) == (
        "impossible position 'x../.../...': o has 0 stones and x has 1; o moves first, so o has as many "
        "stones as x or one more"
    )
    with pytest.raises(InvalidPositionError, match=r"x has won, so o cannot have moved since"):
        parse_position("xxx/oo./oo.", "tictactoe:o-first")


def test_an_o_first_game_is_the_x_first_game_with_the_marks_swapped() -> None:
    """Every value of an O-first position equals that of the same board with X and O exchanged."""
    from inarow import analyze

    for moves in ("", "b2", "b2 a1", "a1 b2 c3", "b1 a1 c1 a2"):
        x_first = parse_position(moves)
        o_first = parse_position(moves, "tictactoe:o-first")
        assert (o_first.x, o_first.o) == (x_first.o, x_first.x)
        a, b = analyze(x_first), analyze(o_first)
        assert (a.score, a.best, a.pv, a.moves) == (b.score, b.best, b.pv, b.moves)
        assert {a.winner, b.winner} <= {None} or {a.winner, b.winner} == {"x", "o"}


def test_the_census_of_an_o_first_game_counts_o_as_the_first_player() -> None:
    from inarow.rules.census import census

    x_first = census(Game.parse("tictactoe"), symmetry=True)
    o_first = census(Game.parse("tictactoe:o-first"), symmetry=True)
    assert (o_first.x_wins, o_first.o_wins, o_first.draws) == (77_904, 131_184, 46_080)
    assert (x_first.x_wins, x_first.o_wins) == (131_184, 77_904)
    assert o_first.positions == x_first.positions == 5_478 and o_first.symmetric_games == 26_830
    assert o_first.positions_by_value == {
        "x": x_first.positions_by_value["o"],
        "o": x_first.positions_by_value["x"],
        "draw": x_first.positions_by_value["draw"],
    }
    assert o_first.scores[(0, 1 << 5)] == x_first.scores[(1 << 5, 0)]
