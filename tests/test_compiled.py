"""The compiled exact engine: Pons' test sets, agreement with the reference engine, budgets and support.

The first test that makes a :class:`CompiledEngine` compiles the numba code (or loads it from the cache).
"""

from __future__ import annotations

import tracemalloc
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from inarow.engines import policy
from inarow.engines.exact import compiled, kernel_template, solver
from inarow.engines.exact.compiled import (
    MEMORY_VARIABLE,
    MIN_SLICE,
    CompiledEngine,
    cached,
    supports,
    table_bits_for,
    table_bytes,
    warm_up,
)
from inarow.engines.exact.reference import Engine
from inarow.engines.limits import Budget, Limits, SearchAborted
from inarow.engines.policy import exact_solver
from inarow.rules.census import reachable
from inarow.rules.game import Game, Position
from inarow.rules.notation import parse_position
from inarow.words import phrases

DATA = Path(__file__).parent / "data" / "connect4"
CONNECT4 = Game.parse("connect4")


@cache
def pons_set(name: str) -> tuple[tuple[str, int], ...]:
    """The lines of one of Pons' sets as (moves, score)."""
    pairs = (line.split() for line in (DATA / name).read_text().splitlines())
    return tuple((moves, int(score)) for moves, score in pairs)


def connect4(moves: str) -> Position:
    """The Connect Four position after a string of 1-based column digits."""
    return parse_position(moves, CONNECT4)


def solve_fresh(game: Game, position: Position, weak: bool = False) -> tuple[int, int]:
    """The compiled engine's score of ``position`` with an empty table, and the positions it explored."""
    budget = Budget()
    score = CompiledEngine(game, budget, fresh=True).solve(*position.sides(), weak)
    return score, budget.nodes


def wrong_scores(name: str, step: int = 1) -> list[tuple[str, int, int]]:
    """The lines of a set (every ``step``-th) whose compiled score differs from the published one."""
    wrong = []
    for moves, expected in pons_set(name)[::step]:
        score, _ = solve_fresh(CONNECT4, connect4(moves))
        if score != expected:
            wrong.append((moves, expected, score))
    return wrong


# ------------------------------------------------------------------------------------ Pons' sets
@pytest.mark.slow
@pytest.mark.parametrize("name", ["Test_L3_R1", "Test_L2_R1", "Test_L1_R1"])
def test_every_position_of_the_easy_sets_gets_its_published_score(name: str) -> None:
    assert wrong_scores(name) == []


@pytest.mark.slow
@pytest.mark.parametrize("name", ["Test_L2_R2", "Test_L1_R2"])
def test_every_twentieth_position_of_the_medium_sets_gets_its_published_score(name: str) -> None:
    assert wrong_scores(name, step=20) == []


def test_the_copied_sets_are_the_thousand_line_files_of_the_readme() -> None:
    for name in ("Test_L3_R1", "Test_L2_R1", "Test_L2_R2", "Test_L1_R1", "Test_L1_R2", "Test_L1_R3"):
        assert len(pons_set(name)) == 1000


def test_weak_mode_gives_the_sign_of_the_published_score() -> None:
    for moves, expected in pons_set("Test_L2_R2")[::50]:
        score, _ = solve_fresh(CONNECT4, connect4(moves), weak=True)
        assert score == (expected > 0) - (expected < 0), moves


# ------------------------------------------------------------------------- agreement with Engine
def reference(game: Game, position: Position, weak: bool = False) -> int:
    return Engine(game, Budget()).solve(*position.sides(), weak)


@pytest.mark.parametrize("name", ["Test_L3_R1", "Test_L2_R1"])
def test_the_compiled_and_the_reference_engine_agree_on_connect_four_positions(name: str) -> None:
    for moves, _ in pons_set(name)[::25]:
        position = connect4(moves)
        for weak in (False, True):
            assert solve_fresh(CONNECT4, position, weak)[0] == reference(CONNECT4, position, weak), moves


def not_over(game: Game) -> list[Position]:
    """Every position reachable from the empty board that is not over, each once."""
    return [p for p in reachable(game) if not p.is_over]


@pytest.mark.slow
def test_the_engines_agree_on_every_tic_tac_toe_position() -> None:
    """All 4,520 unfinished positions of 3×3, from ``.../.../...`` to the last empty cell, both modes."""
    game = Game.parse("tictactoe")
    positions = not_over(game)
    assert len(positions) == 4520
    engine = CompiledEngine(game, Budget())  # one table for all: entries stay true bounds
    for position in positions:
        cur, opp = position.sides()
        for weak in (False, True):
            assert engine.solve(cur, opp, weak) == reference(game, position, weak), repr(position)


@pytest.mark.parametrize(
    ("name", "score"),
    [
        ("tictactoe", 0),  # a draw
        ("4x4", 0),  # 4 in a row on 4×4: a draw
        ("4x4:3", 6),  # 3 in a row on 4×4: x wins with its fourth stone, (17 - 6) // 2
        ("5x4:4:gravity", 0),
        ("4x4:3:gravity", 4),
    ],
)
@pytest.mark.slow
def test_empty_boards_get_the_value_the_reference_engine_gives(name: str, score: int) -> None:
    game = Game.parse(name)
    empty = Position.start(game)
    assert solve_fresh(game, empty)[0] == score
    assert reference(game, empty) == score


SMALL_GAMES = ["4x3:3", "4x4:3", "3x4:3:gravity", "4x4:3:gravity", "5x4:4:gravity", "4x4:4:gravity", "5x3:3"]


@st.composite
def positions(draw: st.DrawFn) -> Position:
    """An unfinished position of a small game after random legal moves."""
    game = Game.parse(draw(st.sampled_from(SMALL_GAMES)))
    position = Position.start(game)
    for _ in range(draw(st.integers(0, game.cells - 1))):
        children = list(position.children())
        _, child = children[draw(st.integers(0, len(children) - 1))]
        if child.is_over:
            break
        position = child
    return position


@pytest.mark.slow
@settings(max_examples=150, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(positions(), st.booleans())
def test_the_engines_agree_on_random_positions_of_small_boards(position: Position, weak: bool) -> None:
    assert solve_fresh(position.game, position, weak)[0] == reference(position.game, position, weak)


# ------------------------------------------------------------------------------- tables, budgets
def test_a_fresh_engine_starts_with_an_empty_table_and_an_engine_keeps_its_own() -> None:
    position = connect4(pons_set("Test_L2_R2")[0][0])
    first, second = solve_fresh(CONNECT4, position), solve_fresh(CONNECT4, position)
    assert first == second
    budget = Budget()
    engine = CompiledEngine(CONNECT4, budget, fresh=True)
    engine.solve(*position.sides())
    once = budget.nodes
    engine.solve(*position.sides())
    assert once == first[1] and budget.nodes - once < once


def test_engines_of_one_game_remember_what_the_earlier_ones_proved() -> None:
    """A second engine (not fresh) of the same game finds the first one's entries: solving the same
    position again explores a few positions instead of thousands; a fresh one explores them all again."""
    moves, expected = pons_set("Test_L2_R2")[1]
    position = connect4(moves)
    game = Game(7, 6, 4, gravity=True, first="o")  # a game of its own, so no other test's entries help
    budget = Budget()
    assert CompiledEngine(game, budget).solve(*position.sides()) == expected
    alone = budget.nodes
    again = Budget()
    assert CompiledEngine(game, again).solve(*position.sides()) == expected
    assert again.nodes * 100 < alone
    assert solve_fresh(game, position) == (expected, alone)


def test_a_fresh_engine_clears_what_the_earlier_ones_left_in_the_tables_filter() -> None:
    """A big fresh search (tens of thousands of stores) sets bits all over the table's filter; the next fresh
    engine clears every one of them before it searches, so its look at a position it has not stored never
    goes to the table."""
    for moves, _ in pons_set("Test_L2_R2")[:2]:
        solve_fresh(CONNECT4, connect4(moves))
    engine = CompiledEngine(CONNECT4, Budget(), fresh=True)
    assert engine._filter is not None
    assert not engine._filter[kernel_template.FILTER_HEADER :].any()
    assert engine._filter[kernel_template.OWNER] == engine._state[kernel_template.GENERATION]


def test_fresh_engines_that_take_turns_get_exact_scores_and_a_lone_engines_counts() -> None:
    """Fresh engines share the table's filter: a later one clears it when it is made. Whatever the order of
    making and searching, every score is exact; an engine made after the other's search explores what a
    lone engine explores; one whose bits a later engine cleared loses what its entries could save, never more."""
    (big, big_score), (small, small_score) = pons_set("Test_L2_R2")[2], pons_set("Test_L2_R1")[2]
    lone_big, lone_small = solve_fresh(CONNECT4, connect4(big)), solve_fresh(CONNECT4, connect4(small))
    assert lone_big[0] == big_score and lone_small[0] == small_score
    first_budget, second_budget = Budget(), Budget()
    first = CompiledEngine(CONNECT4, first_budget, fresh=True)
    second = CompiledEngine(CONNECT4, second_budget, fresh=True)  # made before the first searches
    assert first.solve(*connect4(big).sides()) == big_score
    assert second.solve(*connect4(small).sides()) == small_score
    assert (first_budget.nodes, second_budget.nodes) == (lone_big[1], lone_small[1])
    third_budget = Budget()
    third = CompiledEngine(CONNECT4, third_budget, fresh=True)  # clears what the first one set
    assert first.solve(*connect4(big).sides()) == big_score  # on its entries, without the filter's bits
    assert first_budget.nodes - lone_big[1] <= lone_big[1]
    assert third.solve(*connect4(big).sides()) == big_score and third_budget.nodes == lone_big[1]


@st.composite
def games_played(draw: st.DrawFn) -> list[Position]:
    """The positions of a random game of Connect Four (from its 20th stone) or of 5×4 with gravity (4 in a
    row, from the empty board), in order, to the last unfinished one."""
    game = Game.parse(draw(st.sampled_from(["connect4", "5x4:4:gravity"])))
    first = 20 if game.cells == 42 else 0  # Connect Four's earlier positions take seconds each
    position, played = Position.start(game), []
    while not position.is_over:
        if position.ply >= first:
            played.append(position)
        children = [child for _, child in position.children()]
        position = children[draw(st.integers(0, len(children) - 1))]
    assume(played)
    return played


@settings(max_examples=12, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(games_played(), st.booleans())
def test_a_games_positions_searched_on_a_remembering_table_get_the_scores_of_fresh_solves(
    played: list[Position], weak: bool
) -> None:
    """As a game is played (and hinted, analysed, reviewed), each search starts from what the ones before
    proved: every later position gets the score a solve on an empty table gives, in both modes, and the
    parent's solve is followed by the analysis of every child, as the analysis does."""
    game = played[0].game
    remembering = Game(game.columns, game.rows, game.k, gravity=True, first="o")  # a table of its own
    for position in played:
        cur, opp = position.sides()
        kept = CompiledEngine(remembering, Budget()).solve(cur, opp, weak)
        assert kept == solve_fresh(game, position, weak)[0], repr(position)
        for _, child in position.children():
            if not child.is_over:
                score = CompiledEngine(remembering, Budget()).solve(*child.sides(), weak)
                assert score == solve_fresh(game, child, weak)[0], repr(child)


def test_a_node_limit_raises_search_aborted_after_counting_the_limit() -> None:
    budget = Budget(Limits(nodes=1000))
    with pytest.raises(SearchAborted):
        CompiledEngine(CONNECT4, budget, fresh=True).solve(0, 0)
    assert budget.nodes == 1000


def test_a_time_limit_raises_search_aborted_once_the_deadline_has_passed() -> None:
    """The empty Connect Four board takes minutes; a 0.2 s limit stops it by the clock, not by a count.

    How soon after the deadline it stops is measured by ``bench/engine.py``, not here.
    """
    budget = Budget(Limits(time=0.2))
    with pytest.raises(SearchAborted):
        CompiledEngine(CONNECT4, budget, fresh=True).solve(0, 0)
    assert budget.remaining == 0.0 and budget.nodes > 0


def test_a_search_cut_into_many_slices_still_gets_the_exact_score() -> None:
    """Slices of a microsecond are all the minimum (1,000 positions), so a search of some 25,000 positions
    runs in more than ten: each resumes from what the table holds."""
    moves, expected = pons_set("Test_L2_R2")[4]
    budget = Budget(Limits(time=600))
    engine = CompiledEngine(CONNECT4, budget, fresh=True, slice_seconds=1e-6)
    assert engine.solve(*connect4(moves).sides()) == expected
    assert budget.nodes > 10 * MIN_SLICE


def test_a_move_that_leaves_two_threats_is_not_searched() -> None:
    """x (to move) has b1 and c1; d1 makes a1 and e1 threats that o cannot both block: the root finds it
    among the threats its move ordering computes, a win with the stone after next (score (42 - 1 - 4) // 2),
    in two looks at the root (the bisection's two windows) and no call for the child. The reference engine
    agrees."""
    position = connect4("2737")
    assert solve_fresh(CONNECT4, position) == ((42 - 1 - 4) // 2, 2)
    assert reference(CONNECT4, position, False) == (42 - 1 - 4) // 2


def test_a_position_near_the_end_is_solved_by_one_search_on_the_whole_window() -> None:
    """With at most ``FULL_WINDOW_EMPTY`` empty cells a solve is one search on the whole score interval,
    not the bisection's several null windows: on the first 200 lines of Test_L3_R1 (1 to 13 empty cells),
    19.8 positions explored a line where the bisection explored 31.7, every score exact."""
    lines = pons_set("Test_L3_R1")[:200]
    explored = 0
    for moves, expected in lines:
        score, nodes = solve_fresh(CONNECT4, connect4(moves))
        assert score == expected, moves
        explored += nodes
    assert kernel_template.FULL_WINDOW_EMPTY >= 13 and explored <= 20 * len(lines)


def test_stones_that_overlap_or_lie_off_the_board_are_refused() -> None:
    engine = CompiledEngine(CONNECT4, Budget(), fresh=True)
    with pytest.raises(AssertionError, match="stones overlap or lie off the board"):
        engine.solve(1, 1)
    with pytest.raises(AssertionError, match="stones overlap or lie off the board"):
        engine.solve(1 << 6, 0)  # the spare bit on top of column a


def test_an_immediate_win_counts_one_position_and_scores_at_once() -> None:
    """x (to move) has three in column 1: ``x...... / x.o.... / x.o....`` after 1313 13."""
    position = connect4("131313")
    assert solve_fresh(CONNECT4, position) == ((43 - 6) // 2, 1)
    assert solve_fresh(CONNECT4, position, weak=True) == (1, 1)


# -------------------------------------------------------------------------------------- support
@pytest.mark.parametrize("name", ["tictactoe", "4x4", "5x5", "connect4", "8x7:4:gravity", "7x7:5", "1x19:2"])
def test_boards_whose_layout_fits_64_bits_are_supported(name: str) -> None:
    assert supports(Game.parse(name))


@pytest.mark.parametrize("name", ["gomoku", "8x8:4:gravity", "9x7:4", "19x19:5"])
def test_boards_whose_layout_needs_more_than_64_bits_are_not(name: str) -> None:
    assert not supports(Game.parse(name))


def test_the_analysis_uses_the_compiled_engine_where_it_fits() -> None:
    assert isinstance(exact_solver(CONNECT4, Budget()), CompiledEngine)
    assert isinstance(exact_solver(Game.parse("gomoku"), Budget()), Engine)


def test_engines_after_the_first_share_the_process_table_instead_of_allocating_one() -> None:
    """A table is 128 MB; a later engine allocates only its own scratch arrays (kilobytes).

    What an engine costs in time is measured by ``bench/engine.py``, not here.
    """
    CompiledEngine(CONNECT4, Budget()).table  # noqa: B018  (the first search of the process allocates it)
    tracemalloc.start()
    try:
        before, _ = tracemalloc.get_traced_memory()
        engines = [CompiledEngine(CONNECT4, Budget()) for _ in range(10)]
        tables = {id(engine.table) for engine in engines}
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(tables) == 1 and peak - before < 1_000_000


@pytest.mark.slow
def test_no_table_is_allocated_before_a_search_needs_it() -> None:
    """Making an engine (and warming up, which searches on a 16-entry table of its own) allocates nothing
    big: a 5×5 table (192 MB) appears with the first search."""
    game = Game.parse("5x5")
    warm_up(game)
    tracemalloc.start()
    try:
        engine = CompiledEngine(game, Budget())
        made, _ = tracemalloc.get_traced_memory()
        engine.solve(*parse_position("c3 b2 c2 c4 d3", game).sides())
        solved, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert made < 1_000_000 <= table_bytes(game) <= solved


def test_warming_up_by_hand_can_be_done_any_number_of_times_before_or_between_searches() -> None:
    """``warm_up()`` is what a server calls before its first request; the searches that follow it, and
    follow a second call, score and count positions as any fresh engine does."""
    moves, expected = pons_set("Test_L3_R1")[0]
    position = connect4(moves)
    warm_up()
    first = solve_fresh(CONNECT4, position)
    warm_up()
    assert first[0] == expected and solve_fresh(CONNECT4, position) == first


@pytest.mark.parametrize(
    ("name", "bits"), [("tictactoe", 12), ("4x3:3", 12), ("4x4", 16), ("5x5", 23), ("connect4", 23)]
)
def test_the_table_is_sized_to_the_board(name: str, bits: int) -> None:
    """One entry per cell-bit (2 ** cells), from 2 ** 12 up to 2 ** 23: a 3×3 or 4×4 solve does not take
    128 MB (3×3: 4,096 entries, 96 KB; 4×4: 65,536 entries, 1.5 MB)."""
    game = Game.parse(name)
    assert table_bits_for(game) == bits
    assert CompiledEngine(game, Budget(), fresh=True).table.shape[0] == 1 << bits


def test_the_memory_option_bounds_the_table(monkeypatch: pytest.MonkeyPatch) -> None:
    """16 MB: Connect Four's entries are 16 bytes (2 ** 20 fit), 5×5's 24 bytes (2 ** 19 fit, not 2 ** 20)."""
    monkeypatch.setenv(MEMORY_VARIABLE, "16")
    assert table_bits_for(CONNECT4) == 20 and table_bytes(CONNECT4) == 16 << 20
    assert table_bits_for(Game.parse("5x5")) == 19
    assert table_bits_for(Game.parse("tictactoe")) == 12
    monkeypatch.setenv(MEMORY_VARIABLE, "-1")
    with pytest.raises(ValueError, match="expected a positive number of megabytes"):
        table_bits_for(CONNECT4)


def test_the_memory_option_bounds_all_the_tables_of_a_process_together(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With 1 MB, a 4×4 table (65,536 entries of 24 bytes: too big, so 2 ** 15 of them, 768 KB) and then a
    3×3 one (4,096 of 24 bytes, 96 KB) fit together; a gravity table of 1 MB does not fit beside them, so
    they are released for it."""
    monkeypatch.setenv(MEMORY_VARIABLE, "1")
    shared = compiled._Shared()
    first = shared.table(3, table_bits_for(Game.parse("4x4")))
    second = shared.table(3, table_bits_for(Game.parse("tictactoe")))
    assert first.nbytes + second.nbytes <= 1 << 20 and len(shared.tables) == 2
    third = shared.table(2, table_bits_for(Game.parse("4x4:4:gravity")))
    assert list(shared.tables.values()) == [third] or sum(t.nbytes for t in shared.tables.values()) <= 1 << 20


def test_a_solve_with_a_tiny_table_is_still_exact(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(MEMORY_VARIABLE, "0.001")  # 1 KB: 64 entries of Connect Four
    moves, expected = pons_set("Test_L3_R1")[1]
    engine = CompiledEngine(CONNECT4, Budget(), fresh=True)
    assert engine.table.shape[0] == 64
    assert engine.solve(*connect4(moves).sides()) == expected


def test_a_fresh_search_that_fills_its_table_leaves_the_filter_and_stays_exact() -> None:
    """On a table of 4,096 entries a search of tens of thousands of positions stores more entries than the
    table holds: past that it stops using the filter (the engine's FILTERED is cleared) and every score is
    still the published one."""
    for moves, expected in pons_set("Test_L2_R2")[:3]:
        engine = CompiledEngine(CONNECT4, Budget(), fresh=True, table_bits=12)
        assert engine.solve(*connect4(moves).sides()) == expected
        assert engine._state[kernel_template.FILTERED] == 0
        assert engine._state[kernel_template.LOGGED] > 1 << 12


def test_the_engine_is_picked_per_board_by_what_it_costs(monkeypatch: pytest.MonkeyPatch) -> None:
    """Before the compiled engine is loaded: the reference engine for positions with at most 12 empty
    cells (all of 3×3), the compiled engine for the rest of what fits 64 bits."""
    assert policy.engine_for(Game.parse("tictactoe"), loaded=False) == "reference"
    assert policy.engine_for(Game.parse("4x3:3"), loaded=False) == "reference"
    assert policy.engine_for(Game.parse("4x4"), loaded=False) == "compiled"
    assert policy.engine_for(Game.parse("4x4"), empty=12, loaded=False) == "reference"
    assert policy.engine_for(CONNECT4, loaded=False) == "compiled"
    assert policy.engine_for(CONNECT4, empty=12, loaded=False) == "reference"
    assert policy.engine_for(CONNECT4, empty=13, loaded=False) == "compiled"
    assert policy.engine_for(Game.parse("gomoku"), loaded=False) == "reference"
    monkeypatch.setenv("INAROW_ENGINE", "reference")
    assert policy.engine_for(CONNECT4, loaded=False) == "reference"
    monkeypatch.setenv("INAROW_ENGINE", "compiled")
    assert policy.engine_for(Game.parse("tictactoe"), loaded=False) == "compiled"


def test_once_a_boards_compiled_search_is_loaded_it_solves_every_position_of_that_board() -> None:
    tictactoe = Game.parse("tictactoe")
    policy.load_engine(game=tictactoe)
    assert policy.compiled_loaded(tictactoe) and policy.load_engine(game=tictactoe) == 0.0
    assert policy.engine_for(tictactoe) == "compiled"
    assert policy.engine_for(Game.parse("gomoku")) == "reference"
    first = policy.analyze(parse_position("b2 a1 c3"))
    assert first.load_seconds == 0.0 and phrases.describe(first) == "draw with best play"


def test_each_board_has_its_own_compiled_search_with_its_constants() -> None:
    """The kernel module of a board holds the board's constants: Connect Four's is not 5×4's."""
    five = compiled._kernel(Game.parse("5x4:4:gravity"))
    seven = compiled._kernel(CONNECT4)
    assert (five.COLUMNS, five.ROWS, five.CELLS) == (5, 4, 20)
    assert (seven.COLUMNS, seven.ROWS, seven.CELLS) == (7, 6, 42)
    assert compiled.is_warm(CONNECT4) and compiled.cached(CONNECT4)


def test_loading_is_shown_through_the_hook_the_caller_gives(monkeypatch: pytest.MonkeyPatch) -> None:
    """``load_engine`` calls the hook around the loading, told whether numba will compile; in a process
    where it is loaded already, it calls nothing and costs nothing."""
    calls: list[bool] = []

    @contextmanager
    def hook(compiling: bool) -> Iterator[None]:
        calls.append(compiling)
        yield

    policy.load_engine()
    assert policy.load_engine(hook) == 0.0 and calls == []
    monkeypatch.setattr(solver, "compiled_loaded", lambda game=None: False)
    assert policy.load_engine(hook) >= 0.0 and calls == [not cached()]


def test_serve_takes_the_memory_option_and_refuses_a_bound_that_is_not_positive() -> None:
    """``inarow serve --memory MB`` bounds the tables as ``inarow --memory MB serve`` does; 0 MB is refused
    before the server starts."""
    from typer.testing import CliRunner

    from inarow.cli import app

    result = CliRunner().invoke(app, ["serve", "--memory", "0", "--port", "1"])
    assert result.exit_code == 2
    assert "invalid memory 0.0: expected a positive number of megabytes" in result.output
