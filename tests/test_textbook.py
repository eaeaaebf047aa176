"""The textbook algorithms and evaluations: hand-computed values, the published node count of the full
tic-tac-toe tree, agreement between the algorithms, and trees whose records are consistent."""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from inarow import Game, Position, parse_position
from inarow.base.errors import InarowError, InvalidLimitError, UnknownAlgorithmError, UnknownEvaluationError
from inarow.engines.limits import Budget, Limits, SearchAborted
from inarow.engines.textbook import (
    ALGORITHMS,
    Node,
    SearchResult,
    algorithm_named,
    alphabeta,
    minimax,
    move_scores,
    negamax,
    search,
)
from inarow.evaluation.lines import (
    EVALUATIONS,
    completed_lines,
    evaluation_named,
    open_lines,
    static_value,
)

TICTACTOE = Game.parse("tictactoe")
SMALL_GAMES = ("tictactoe", "4x4:3", "4x3:3:gravity", "3x4:3")


def e(diagram: str, side: str = "x", name: str = "open-lines") -> float:
    position = parse_position(diagram)
    return static_value(position, "x" if side == "x" else "o", evaluation_named(name))


def random_position(game: str, seed: int, plies: int) -> Position:
    rng, position = random.Random(seed), Position.start(Game.parse(game))
    for _ in range(plies):
        if position.is_over:
            break
        position = position.play(rng.choice(position.legal_bits()))
    return position


def position_at(result: SearchResult, node: Node) -> Position:
    position = result.position
    assert isinstance(position, Position)
    for bit in node.path:
        position = position.play(bit)
    return position


# ------------------------------------------------------------------------------ evaluations
def test_open_lines_gives_the_textbook_values_of_the_first_moves() -> None:
    """e(P) for X: 8 - 4 = 4 in the centre, 8 - 5 = 3 in a corner, 8 - 6 = 2 on an edge.

    . . .    x . .    . . .
    . x .    . . .    x . .
    . . .    . . .    . . .
    """
    assert e(".../.x./...") == 4
    assert e("x../.../...") == 3
    assert e(".../x../...") == 2
    assert e(".../.x./...", "o") == -4


def test_open_lines_counts_lines_free_of_the_opponent_minus_lines_free_of_oneself() -> None:
    """x . .
    . o .      lines without o: row 3, row 1, column a, column c            = 4
    . . x      lines without x: row 2, column b, the diagonal a1-c3          = 3
    """
    assert e("x../.o./..x") == 4 - 3
    assert e("x../.o./..x", "o") == 3 - 4


def test_weighted_scores_an_open_line_one_for_one_stone_and_three_for_two() -> None:
    """x . x      open for x: row 3 with two stones (3), columns a and c with one (1 + 1)   = 5
    . o .      open for o: row 2 and column b with one stone each (1 + 1)                = 2
    . . .
    """
    assert e("x.x/.o./...", "x", "weighted") == 5 - 2
    assert e("x.x/.o./...", "o", "weighted") == 2 - 5


def test_every_evaluation_scores_wins_infinite_and_a_drawn_board_zero() -> None:
    """x x x
    o o .
    . . .      (x has won; then a full drawn board: x o x / x o o / o x x)
    """
    for name in EVALUATIONS:
        assert e("xxx/oo./...", "x", name) == math.inf
        assert e("xxx/oo./...", "o", name) == -math.inf
        assert e("xox/xoo/oxx", "x", name) == 0


def test_completed_lines_is_zero_on_unfinished_boards() -> None:
    position = parse_position("x../.o./..x")
    assert completed_lines(TICTACTOE, position.x, position.o) == 0
    assert open_lines(TICTACTOE, 0, 0) == 0


def test_an_unknown_evaluation_names_the_choices() -> None:
    with pytest.raises(
        UnknownEvaluationError, match=r"unknown evaluation 'mobility': expected one of open-lines"
    ):
        evaluation_named("mobility")


DEFINED_WEIGHTS: dict[str, Callable[[int], Sequence[float]]] = {
    "open-lines": lambda k: [1] * k + [math.inf],
    "weighted": lambda k: [0] + [3 ** (n - 1) for n in range(1, k)] + [math.inf],
    "lines": lambda k: [0] * k + [1],
}
"""The named evaluations as the docs define them, W0…Wk for k in a row: every open line 1; 1, 3, 9, … by
stones; completed lines only."""


def _e_by_hand(position: Position, side: str, name: str) -> float:
    """e(P) for ``side`` counted from the definition: every line of k cells walked cell by cell (not the
    game's line masks), a line with n stones of one side and none of the other worth Wn to that side, ±∞
    for a line already won; both totals infinite cancel to 0."""
    game = position.game
    mine, theirs = (position.x, position.o) if side == "x" else (position.o, position.x)
    weights = DEFINED_WEIGHTS[name](game.k)
    totals = [0.0, 0.0]
    for column in range(game.columns):
        for row in range(game.rows):
            for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                cells = [(column + i * dc, row + i * dr) for i in range(game.k)]
                if not all(0 <= c < game.columns and 0 <= r < game.rows for c, r in cells):
                    continue
                bits = [game.bit(c, r) for c, r in cells]
                ours = sum(mine >> bit & 1 for bit in bits)
                others = sum(theirs >> bit & 1 for bit in bits)
                if ours == game.k or others == game.k:
                    return math.inf if ours == game.k else -math.inf
                if not others:
                    totals[0] += weights[ours]
                if not ours:
                    totals[1] += weights[others]
    if math.isinf(totals[0]) and math.isinf(totals[1]):
        return 0.0
    return totals[0] - totals[1]


@pytest.mark.parametrize("game", ["gomoku", "connect4", "7x3:3", "2x2:2", "4x3:3:gravity"])
def test_every_named_evaluation_scores_random_positions_of_every_board_as_its_definition_does(
    game: str,
) -> None:
    for seed in range(4):
        for plies in (3, 8, 15):
            position = random_position(game, seed, plies)
            for side in ("x", "o"):
                for name in EVALUATIONS:
                    found = static_value(position, side, evaluation_named(name))
                    assert found == _e_by_hand(position, side, name), (game, seed, plies, side, name)


# ------------------------------------------------------------------------------- the algorithms
@pytest.mark.slow
def test_full_depth_minimax_on_the_empty_3x3_board_visits_549946_nodes() -> None:
    result = search(Position.start(TICTACTOE), "minimax", None, record=False)
    assert result.nodes == 549_946
    assert result.frame_value == 0
    assert result.max_depth == 9


def test_depth_2_minimax_backs_up_the_textbook_values_of_the_first_moves() -> None:
    """The classic depth-2 search (Nilsson): X's centre is worth 1, a corner -1, an edge -2."""
    scores, nodes = move_scores(Position.start(TICTACTOE), "minimax", 2)
    by_name = {TICTACTOE.cell_name(bit): value for bit, value in scores.items()}
    assert by_name == {
        "a1": -1,
        "a3": -1,
        "c1": -1,
        "c3": -1,
        "b2": 1,
        "a2": -2,
        "b1": -2,
        "b3": -2,
        "c2": -2,
    }
    assert nodes == 9 + 9 * 8
    root = minimax(Position.start(TICTACTOE), 2)
    assert (root.frame_value, root.move_name, root.nodes) == (1, "b2", 1 + 9 + 72)


def test_minimax_values_are_max_s_and_negamax_values_the_mover_s() -> None:
    """O to move; X has played the centre:

    . . .
    . x .
    . . .

    MAX is the side whose standpoint the student takes: the side to move at the root (O) unless told
    otherwise, so O's root is a Max node worth -1 to O; with X as MAX it is a Min node worth +1 to X.
    """
    position = parse_position("b2")
    as_o = minimax(position, 1)
    assert (as_o.max_side, as_o.tree and as_o.tree.root.role, as_o.frame_value) == ("o", "max", -1)
    as_x = search(position, "minimax", 1, max_side="x")
    assert (as_x.tree and as_x.tree.root.role, as_x.frame_value) == ("min", 1)  # O's corner leaves X 4 - 3
    assert negamax(position, 1).frame_value == -1
    assert as_o.mover_value == as_x.mover_value == negamax(position, 1).mover_value == -1


def test_a_win_in_one_is_worth_infinity() -> None:
    """x x .
    o o .
    . . .      x to move wins at c3
    """
    for algorithm in ALGORITHMS:
        result = search(parse_position("xx./oo./..."), algorithm, 1)
        assert (result.mover_value, result.move_name) == (math.inf, "c3")


def test_alpha_beta_visits_fewer_nodes_than_minimax_for_the_same_value() -> None:
    start = Position.start(TICTACTOE)
    full = search(start, "minimax", 4, record=False)
    hard = alphabeta(start, 4)
    soft = alphabeta(start, 4, soft=True)
    ordered = search(start, "alphabeta-soft", 4, ordering=True, record=False)
    assert full.frame_value == hard.frame_value == soft.frame_value == ordered.frame_value == 1
    assert ordered.nodes < soft.nodes <= hard.nodes < full.nodes


def test_depth_0_is_the_static_evaluation_and_a_finished_game_is_a_leaf() -> None:
    position = parse_position("b2 a1")
    assert search(position, "minimax", 0).frame_value == e(position.diagram())
    over = parse_position("xxx/oo./...")
    for algorithm in ALGORITHMS:
        result = search(over, algorithm, 3)
        assert result.nodes == 1 and result.move is None


def test_the_record_counts_every_node_it_keeps() -> None:
    for algorithm in ALGORITHMS:
        result = search(parse_position("b2 a1"), algorithm, 3)
        assert result.tree is not None
        assert len(result.tree.nodes) == result.nodes


def test_a_node_budget_stops_the_search() -> None:
    with pytest.raises(SearchAborted):
        search(Position.start(TICTACTOE), "minimax", None, record=False, budget=Budget(Limits(nodes=1000)))


def test_an_unknown_algorithm_names_the_choices() -> None:
    with pytest.raises(
        UnknownAlgorithmError, match=r"unknown algorithm 'mtdf': expected one of minimax, negamax"
    ):
        search(Position.start(TICTACTOE), "mtdf", 2)
    assert issubclass(UnknownAlgorithmError, InarowError)


def test_a_negative_depth_is_refused() -> None:
    with pytest.raises(InvalidLimitError, match=r"invalid depth -1: expected 0 plies or more"):
        search(Position.start(TICTACTOE), "negamax", -1)


@settings(max_examples=60, deadline=None)
@given(
    game=st.sampled_from(SMALL_GAMES),
    seed=st.integers(0, 10**6),
    plies=st.integers(0, 8),
    depth=st.integers(0, 3),
    evaluation=st.sampled_from(sorted(EVALUATIONS)),
)
def test_every_algorithm_gives_the_same_root_value_at_every_depth(
    game: str, seed: int, plies: int, depth: int, evaluation: str
) -> None:
    position = random_position(game, seed, plies)
    scores = {
        algorithm: search(position, algorithm, depth, evaluation, record=False).mover_value
        for algorithm in ALGORITHMS
    }
    scores["ordered"] = search(
        position, "alphabeta-soft", depth, evaluation, ordering=True, record=False
    ).mover_value
    scores["table"] = search(
        position, "alphabeta-soft", depth, evaluation, table=True, record=False
    ).mover_value
    scores["both"] = search(
        position, "alphabeta-soft", depth, evaluation, ordering=True, table=True, record=False
    ).mover_value
    assert len(set(scores.values())) == 1, scores


# ------------------------------------------------------------------------------- the records
def backed_up(result: SearchResult, node: Node, extra: tuple[int, float] | None = None) -> float:
    """The value the recorded children give ``node`` by the algorithm's rule, with one more child
    (node id, value) added where ``extra`` says."""
    tree = result.tree
    assert tree is not None
    if node.leaf is not None:
        return node.value
    values = [backed_up(result, tree.nodes[child], extra) for child in node.children]
    if extra is not None and extra[0] == node.id:
        values.append(extra[1])
    if node.role == "negamax":
        value = max(-value for value in values)
    else:
        value = max(values) if node.role == "max" else min(values)
    if algorithm_named(result.algorithm).clamps:
        assert node.alpha is not None and node.beta is not None
        value = min(node.beta, max(node.alpha, value))
    return value


def true_value(result: SearchResult, node: Node) -> float:
    """The full-width minimax value of a node at its remaining depth, from MAX's standpoint."""
    return search(
        position_at(result, node),
        "minimax",
        result.depth - node.depth,
        result.evaluation,
        max_side=result.max_side,
    ).frame_value


@pytest.mark.parametrize("algorithm", ALGORITHMS)
@pytest.mark.parametrize(
    ("game", "moves", "depth"), [("tictactoe", "", 4), ("tictactoe", "a1 b2", 5), ("4x4:3", "b2", 3)]
)
def test_every_parent_s_value_is_backed_up_from_its_children(
    algorithm: str, game: str, moves: str, depth: int
) -> None:
    result = search(parse_position(moves, game), algorithm, depth)
    assert result.tree is not None
    for node in result.tree.nodes:
        if node.leaf is not None:
            side = node.to_move if node.role == "negamax" else result.max_side
            assert node.value == static_value(
                position_at(result, node), side, evaluation_named(result.evaluation)
            )
            assert not node.children
        else:
            assert node.value == backed_up(result, node)
            searched = [result.tree.nodes[child].move for child in node.children]
            # A fail-hard node whose children all stay outside its window has no best move.
            assert node.best in searched or (
                algorithm_named(algorithm).clamps and node.value in (node.alpha, node.beta)
            )
        assert node.cutoff or not node.pruned


@pytest.mark.parametrize("algorithm", ["alphabeta", "alphabeta-soft"])
@pytest.mark.parametrize(
    ("game", "moves", "depth"), [("tictactoe", "", 4), ("tictactoe", "b2 a1", 4), ("4x4:3", "b2 c3", 3)]
)
def test_nothing_alpha_beta_pruned_could_have_changed_the_root_value(
    algorithm: str, game: str, moves: str, depth: int
) -> None:
    result = search(parse_position(moves, game), algorithm, depth)
    tree = result.tree
    assert tree is not None
    pruned = [node for node in tree.nodes if node.pruned]
    assert pruned, "the test needs cut-offs"
    for node in pruned:
        for bit in node.pruned:
            child = position_at(result, node).play(bit)
            full = search(
                child,
                "minimax",
                result.depth - node.depth - 1,
                result.evaluation,
                record=False,
                max_side=result.max_side,
            ).frame_value
            assert backed_up(result, tree.root, (node.id, full)) == result.frame_value


@pytest.mark.parametrize("algorithm", ["alphabeta", "alphabeta-soft"])
def test_every_alpha_beta_value_is_exact_inside_its_window_and_a_bound_outside(algorithm: str) -> None:
    """The α-β contract at every node, checked against full-width minimax of that node."""
    result = search(parse_position("b2", "tictactoe"), algorithm, 4)
    assert result.tree is not None
    for node in result.tree.nodes:
        assert node.alpha is not None and node.beta is not None
        truth = true_value(result, node)
        if node.value <= node.alpha:
            assert truth <= node.value
        elif node.value >= node.beta:
            assert truth >= node.value
        else:
            assert truth == node.value
        if node.cutoff:
            assert truth >= node.beta if node.role == "max" else truth <= node.alpha


def test_the_steps_enter_each_node_before_its_children_and_leave_it_after() -> None:
    result = search(Position.start(TICTACTOE), "alphabeta", 3)
    tree = result.tree
    assert tree is not None
    for node in tree.nodes:
        assert tree.events[node.enter].kind == "enter" and tree.events[node.enter].node == node.id
        assert tree.events[node.exit].kind == "return" and tree.events[node.exit].node == node.id
    kinds = [event.kind for event in tree.events]
    assert kinds.count("enter") == kinds.count("return") == len(tree.nodes)
    assert kinds.count("cutoff") == sum(node.cutoff for node in tree.nodes)
    for node in tree.nodes:
        for child in node.children:
            assert node.enter < tree.nodes[child].enter < tree.nodes[child].exit < node.exit


def test_the_paths_and_depths_match_the_moves_from_the_root() -> None:
    result = search(parse_position("b2"), "negamax", 2)
    tree = result.tree
    assert tree is not None
    assert tree.root.path == () and tree.root.depth == 0 and tree.root.parent is None
    for node in tree.nodes[1:]:
        assert node.parent is not None
        parent = tree.nodes[node.parent]
        assert node.path == (*parent.path, node.move) and node.depth == parent.depth + 1
