"""Remembered solutions: the exact scores the server solved are kept in its store, bounded, and answer the
next player who reaches the position (or its mirror image) without a search, the same as a fresh solve."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from inarow import analyze, parse_position
from inarow.engines.books import recall
from inarow.engines.books.keys import position_key
from inarow.engines.limits import Budget, Limits
from inarow.engines.policy import exact_solver
from inarow.rules.game import Game, Position
from inarow.sessions import Sessions
from inarow.sessions.models import ReviewedMove
from inarow.sessions.workers import analyze_position, remembering
from inarow.values.store import Store

# Pascal Pons' Test_L2_R1, first position: 25 stones, o to move, 17 empty cells (the compiled engine).
# ....x..   o..oo..   x.oxo..   xxoxx..   ooxxo..
#   xxooxox   (columns 1-7)
MIDDLE = "5554224333234511764415115"
MIRRORED = "".join(str(8 - int(c)) for c in MIDDLE)


def direct(position: Position) -> int:
    """The exact score of ``position`` by a fresh engine of its own."""
    cur, opp = position.sides()
    return exact_solver(position.game, Budget(), position.game.cells - position.ply).solve(cur, opp)


def test_the_store_keeps_solutions_per_game_and_never_changes_a_kept_score() -> None:
    store = Store(":memory:")
    store.remember("connect4", {11: 3, 12: -2})
    store.remember("connect4", {11: 5, 13: 0})  # 11 is kept already: its score stays
    store.remember("6x4:4:gravity", {11: 1})
    assert store.solutions("connect4", [11, 12, 13, 14]) == {11: 3, 12: -2, 13: 0}
    assert store.solutions("6x4:4:gravity", [11, 12]) == {11: 1}
    assert store.solution_count() == 4


def test_the_store_keeps_only_the_newest_solutions_beyond_its_bound() -> None:
    store = Store(":memory:")
    for value in range(10):
        store.remember("connect4", {value: value % 3}, limit=4)
    assert store.solutions("connect4", list(range(10))) == {6: 0, 7: 1, 8: 2, 9: 0}


def test_a_task_collects_what_it_solved_and_answers_from_what_it_is_given() -> None:
    position = parse_position(MIDDLE, "connect4")
    limits = Limits(time=120)
    fresh, learned = remembering(position.game, {}, 0, analyze_position, position, limits)
    children = {position_key(child) for _, child in position.children() if not child.is_over}
    assert children <= set(learned) and fresh.exact and fresh.nodes > 0
    again, more = remembering(position.game, learned, 0, analyze_position, position, limits)
    assert again.nodes == 0 and not more
    assert (again.score, again.best, again.moves) == (fresh.score, fresh.best, fresh.moves)


def test_a_second_player_reaching_the_mirrored_position_is_answered_from_the_store(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(recall.BOOK_VARIABLE, "off")
    store = Store(tmp_path / "games.sqlite3")
    first = parse_position(MIDDLE, "connect4")
    second = parse_position(MIRRORED, "connect4")
    sessions = Sessions(store, think_time=120, remember_min_nodes=0)
    solved = sessions.analyze(first)  # the first player's hint
    assert solved.exact and solved.nodes > 0 and store.solution_count() >= len(solved.moves)
    answered = sessions.analyze(second)  # the second player's, on the mirror image
    fresh = analyze(second)
    assert answered.exact and answered.nodes == 0
    assert (answered.score, answered.best, answered.moves) == (fresh.score, fresh.best, fresh.moves)
    assert fresh.nodes > 0


def test_the_computers_perfect_moves_leave_their_solutions_in_the_store(tmp_path: Path) -> None:
    store = Store(tmp_path / "games.sqlite3")
    sessions = Sessions(store, think_time=60, seed=3, remember_min_nodes=0)
    game = Game.parse("5x4:4:gravity")  # 20 cells: bigger than the boards solved in the server's thread
    state = sessions.new_game(game, you="x", first="you", level="perfect")
    state = sessions.play(state.id, "3")  # .....  the computer (o) answers this
    #                                       .....
    #                                       .....
    #                                       ..x..
    assert len(state.moves) == 2 and store.solution_count() > 0
    after = parse_position("3", game.name)
    for _, child in after.children():
        kept = store.solutions(game.name, [position_key(child)])
        assert kept == {position_key(child): direct(child)}, child.diagram()


def test_a_review_answers_from_the_remembered_solutions_and_keeps_what_it_solved(tmp_path: Path) -> None:
    """
    . . . . .
    . . o . .
    . x x o .
    o x x o .      5×4 with gravity, four in a row: two people played 3 2 3 4 2 4 4 3 1
    """
    store = Store(tmp_path / "games.sqlite3")
    sessions = Sessions(store, think_time=60, remember_min_nodes=0)
    game = Game.parse("5x4:4:gravity")
    state = sessions.new_game(game, you="x", first="you", level="perfect", mode="humans")
    moves = "323424431"
    for move in moves:
        state = sessions.play(state.id, move)
    assert store.solution_count() == 0, "moves between people search nothing"
    reviewed = sessions.review(state.id)
    assert reviewed.complete and all(ply.exact for ply in reviewed.plies)
    assert store.solution_count() > 0
    position = Position.start(game)
    for move in moves:
        for _, child in position.children():
            kept = store.solutions(game.name, [position_key(child)])
            assert kept in ({}, {position_key(child): direct(child)}), child.diagram()
        position = position.play(move)
    again = sessions.review(state.id)  # the same verdicts; a line of best play may stop where the store's end

    def first_moves(ply: ReviewedMove) -> ReviewedMove:
        return replace(ply, pv=ply.pv[:1], lines=[line[:1] for line in ply.lines])

    assert [first_moves(ply) for ply in again.plies] == [first_moves(ply) for ply in reviewed.plies]
