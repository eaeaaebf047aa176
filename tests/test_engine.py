"""The exact search against independent oracles: a brute force on every 3×3 position, published facts,
Pascal Pons' Connect Four test sets, and property tests on random small positions."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import brute_force as bf
from inarow import Game, Limits, Position, analyze, parse_position
from inarow.engines.exact.reference import Engine
from inarow.engines.heuristic import HeuristicSearch
from inarow.engines.limits import Budget, SearchAborted
from inarow.engines.policy import exact_solver
from inarow.engines.scores import plies_to_end
from inarow.play.players import player
from inarow.rules.census import census, reachable
from inarow.rules.symmetry import symmetries
from inarow.words import phrases

DATA = Path(__file__).parent / "data" / "connect4"
TICTACTOE = Game.parse("tictactoe")


def board_of(position: Position) -> bf.Board:
    return tuple(reversed(position.diagram().split("/")))


@pytest.fixture(scope="module")
def every_3x3_position() -> list[Position]:
    boards = bf.reachable(3, 3, 3, False)
    return [parse_position(bf.diagram(board)) for board in sorted(boards)]


def test_the_brute_force_and_the_engine_agree_on_every_reachable_3x3_position(
    every_3x3_position: list[Position],
) -> None:
    assert len(every_3x3_position) == 5478
    for position in every_3x3_position:
        if position.is_over:
            continue
        board = board_of(position)
        result = analyze(position)
        expected = bf.move_scores(board, 3, False)
        assert result.exact
        assert result.score == bf.score(board, 3, False), position
        assert {m.move: m.score for m in result.moves} == expected, position
        assert list(result.best) == sorted(m for m, s in expected.items() if s == max(expected.values()))
        assert result.pv[0] in result.best
        assert result.plies == plies_to_end(TICTACTOE, position.ply, result.score)


def test_the_positions_reachable_are_those_the_brute_force_reaches(
    every_3x3_position: list[Position],
) -> None:
    assert reachable(TICTACTOE) == set(every_3x3_position)
    assert len(reachable(Game.parse("3x3:3:o-first"))) == 5478


def test_the_whole_table_agrees_with_the_brute_force(every_3x3_position: list[Position]) -> None:
    table = census(TICTACTOE, symmetry=False)
    assert set(table.scores) == {(p.x, p.o) for p in every_3x3_position}
    for position in every_3x3_position:
        if not position.is_over:
            assert table.scores[(position.x, position.o)] == bf.score(board_of(position), 3, False)


def test_the_principal_variation_plays_out_to_the_promised_result(every_3x3_position: list[Position]) -> None:
    for position in every_3x3_position[::7]:
        if position.is_over:
            continue
        result = analyze(position)
        end = position
        for move in result.pv:
            end = end.play(move)
        assert end.is_over and len(result.pv) == result.plies
        expected = "draw" if result.value == 0 else position.turn if result.value == 1 else None
        if expected:
            assert end.result == expected
        else:
            assert end.result not in (position.turn, "draw")
        assert result.winner == end.winner
        assert result.outcome == {position.turn: "win", None: "draw"}.get(end.winner, "loss")


def test_tictactoe_counts_are_the_published_ones() -> None:
    """FACTS.md: 5,478 positions, 958 terminal, 765 up to symmetry, 255,168 games (131,184 / 77,904 /
    46,080), 26,830 up to symmetry, and a draw."""
    table = census(TICTACTOE)
    assert table.value == 0
    assert table.positions == 5478
    assert len(table.terminal) == 958
    assert table.symmetric_positions == 765
    assert (table.games, table.x_wins, table.o_wins, table.draws) == (255168, 131184, 77904, 46080)
    assert table.symmetric_games == 26830


@pytest.mark.parametrize(
    ("game", "sign"),
    [
        ("4x4:3", 1),
        ("4x4", 0),
        ("5x5", 0),
        ("4x4:4:gravity", 0),
        ("5x4:4:gravity", 0),
        ("4x5:4:gravity", 0),
        ("5x5:4:gravity", 0),
        ("6x4:4:gravity", -1),
    ],
)
@pytest.mark.slow
def test_small_boards_have_their_published_values(game: str, sign: int) -> None:
    the_game = Game.parse(game)
    solver = exact_solver(the_game, Budget())
    assert solver.solve(0, 0, weak=True) == sign


def test_the_reference_engine_solves_4x4_exactly() -> None:
    """4×4, four in a row: a draw, by the pure-Python engine on its own."""
    assert Engine(Game.parse("4x4")).solve(0, 0) == 0


def pons_set(name: str) -> list[tuple[str, int]]:
    lines = (DATA / name).read_text().splitlines()
    return [(moves, int(score)) for moves, score in (line.split() for line in lines)]


@pytest.mark.slow
@pytest.mark.parametrize("name", ["Test_L3_R1", "Test_L2_R1"])
def test_the_reference_engine_scores_every_position_of_pons_easy_sets_exactly(name: str) -> None:
    game = Game.parse("connect4")
    cases = pons_set(name)
    assert len(cases) == 1000
    wrong = []
    for moves, score in cases:
        cur, opp = parse_position(moves, game).sides()
        if Engine(game).solve(cur, opp) != score:
            wrong.append(moves)
    assert wrong == []


def test_analysis_of_a_connect4_position_gives_every_move_and_a_line_to_the_end() -> None:
    moves, score = pons_set("Test_L3_R1")[0]
    result = analyze(parse_position(moves, "connect4"))
    assert result.exact and result.score == score
    assert max(m.score for m in result.moves) == score
    assert len(result.pv) == result.plies


# ------------------------------------------------------------------------------------ properties
SMALL_GAMES = ["tictactoe", "4x3:3", "3x4:3:gravity", "4x4:3:gravity", "3x3:2"]


@st.composite
def positions(draw: st.DrawFn, names: list[str] = SMALL_GAMES) -> Position:
    game = Game.parse(draw(st.sampled_from(names)))
    position = Position.start(game)
    stones = draw(st.integers(min_value=min(4, game.cells - 1), max_value=game.cells - 1))
    for _ in range(stones):
        if position.is_over:
            break
        position = position.play(draw(st.sampled_from(position.legal_bits())))
    return position


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(positions())
def test_alpha_beta_agrees_with_plain_minimax(position: Position) -> None:
    assume(not position.is_over)
    game = position.game
    board = board_of(position)
    cur, opp = position.sides()
    assert Engine(game).solve(cur, opp) == bf.score(board, game.k, game.gravity)
    assert Engine(game).solve(cur, opp, weak=True) == (lambda s: (s > 0) - (s < 0))(
        bf.score(board, game.k, game.gravity)
    )


@settings(max_examples=100, deadline=None)
@given(positions(), st.data())
def test_symmetric_positions_get_symmetric_answers(position: Position, data: st.DataObject) -> None:
    assume(not position.is_over)
    group = symmetries(position.game)
    index = data.draw(st.integers(min_value=0, max_value=len(group) - 1))
    image = Position(position.game, group.apply(index, position.x), group.apply(index, position.o))
    original, mirrored = analyze(position), analyze(image)
    assert (original.score, original.plies) == (mirrored.score, mirrored.plies)
    game = position.game
    mapped = {}
    for move in original.moves:
        bit = position.move_bit(move.move)
        mapped[game.cell_name(group.permutations[index][bit])] = move.score
    assert mapped == {m.move: m.score for m in mirrored.moves}


@settings(max_examples=60, deadline=None)
@given(positions())
def test_a_depth_limited_search_deep_enough_is_exact(position: Position) -> None:
    assume(not position.is_over)
    deep = analyze(position, Limits(depth=position.game.cells - position.ply))
    assert deep.exact and deep.score == analyze(position).score
    assert {m.move: m.score for m in deep.moves} == {m.move: m.score for m in analyze(position).moves}


def test_a_shallow_search_says_it_is_not_exact() -> None:
    result = analyze(Position.start(Game.parse("4x4")), Limits(depth=2))
    assert not result.exact and result.value is None and result.depth == 2
    assert result.best and all(not m.exact for m in result.moves)


def test_the_depth_limited_search_says_whether_it_saw_every_line_to_the_end() -> None:
    """
    x o x
    . o .      o threatens b1; x to move must block it
    . . .
    """
    position = parse_position("xox/.o./...")
    cur, opp = position.sides()
    deep = HeuristicSearch(TICTACTOE).search(cur, opp, depth=9)
    assert deep.complete and deep.score == 0
    shallow = HeuristicSearch(TICTACTOE).search(cur, opp, depth=1)
    assert not shallow.complete and shallow.score is None
    values = HeuristicSearch(TICTACTOE).move_values(cur, opp, depth=9)
    assert {TICTACTOE.cell_name(bit): found.score for bit, found in values.items()} == {
        m.move: m.score for m in analyze(position).moves
    }


def test_a_finished_game_is_exact_with_its_winner_and_no_outcome_to_play_for() -> None:
    won = analyze(parse_position("xxx/oo./..."))
    assert won.exact and won.winner == "x" and won.result == "x" and won.outcome is None
    assert phrases.describe(won) == "x has won" and won.moves == () and won.to_move is None
    drawn = analyze(parse_position("xox/xoo/oxx"))
    assert drawn.winner is None and drawn.result == "draw" and phrases.describe(drawn) == "draw"


def test_a_time_limit_on_a_big_board_falls_back_on_the_evaluation() -> None:
    position = parse_position("h8 h9", "gomoku")
    result = analyze(position, Limits(time=0.5))
    assert not result.exact
    assert result.best and result.pv[0] in result.best
    assert len(result.moves) == 225 - 2


def test_a_node_limit_stops_the_exact_search() -> None:
    engine = Engine(Game.parse("4x4"), Budget(Limits(nodes=100)))
    with pytest.raises(SearchAborted):
        engine.solve(0, 0)


def test_the_engine_plays_a_win_in_one_and_blocks_a_loss_in_one() -> None:
    """
    x x .      x to move: c3 wins at once.
    o o .
    . . .
    """
    assert analyze(parse_position("xx./oo./...")).best == ("c3",)
    assert analyze(parse_position("xx./o../...")).best == ("c3",)


@pytest.mark.slow
def test_perfect_never_spoils_a_position_it_can_hold(every_3x3_position: list[Position]) -> None:
    """Exhaustively: wherever perfect is to move, its move keeps the best value the position has."""
    perfect = player("perfect")
    rng = random.Random(7)
    for position in every_3x3_position:
        if position.is_over:
            continue
        board = board_of(position)
        choice = perfect.choose(position, rng)
        assert bf.move_scores(board, 3, False)[choice.move] == bf.score(board, 3, False), position


def test_perfect_on_an_unsolved_connect4_position_moves_and_says_it_is_not_exact(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The empty Connect Four board cannot be solved in half a second (without the opening book, which
    knows it): perfect still moves, and says so."""
    monkeypatch.setenv("INAROW_BOOK", "off")
    choice = player("perfect", think_time=0.5).choose(
        Position.start(Game.parse("connect4")), random.Random(2)
    )
    assert choice.analysis is not None and not choice.analysis.exact
    assert choice.move in Position.start(Game.parse("connect4")).legal_moves()
    assert phrases.note(choice.note).startswith("not solved: evaluation")


def test_a_compiled_search_slice_is_sized_by_the_speed_and_bounded_by_the_time_and_nodes_left() -> None:
    assert Budget().slice_nodes(1e6, 0.05, 1_000, 1 << 62) == 1 << 62, "no limit: one call"
    timed = Budget(Limits(time=100))
    assert timed.slice_nodes(1e6, 0.05, 1_000, 1 << 62) == 50_000  # 0.05 s at a million a second
    assert timed.slice_nodes(1e3, 0.05, 1_000, 1 << 62) == 1_000  # at least the smallest slice
    counted = Budget(Limits(nodes=10_000))
    counted.nodes = 9_990
    assert counted.slice_nodes(1e6, 0.05, 1_000, 1 << 62) == 10  # what the node limit leaves
    counted.nodes = 10_000
    assert counted.slice_nodes(1e6, 0.05, 1_000, 1 << 62) == 1  # never 0: the search looks again
