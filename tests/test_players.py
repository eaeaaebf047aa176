"""Level perfect plays a move proven to keep the value of the position: from the books, a strategy book or
weak searches, the strong analysis where it is cheap; a move that waited in the queue thinks less."""

from __future__ import annotations

import random
import time

import pytest

from inarow import analyze, parse_position
from inarow.engines.books import recall, strategy
from inarow.engines.limits import Limits
from inarow.engines.policy import STRONG_MAX_EMPTY, play
from inarow.play.players import Player, most_natural, player
from inarow.rules.game import Game, Position
from inarow.sessions import workers
from inarow.sessions.workers import choose_move
from inarow.words import phrases

CONNECT4 = Game.parse("connect4")


def random_position(plies: int, seed: int) -> Position:
    """A Connect Four position after ``plies`` random moves whose game goes on."""
    rng = random.Random(seed)
    while True:
        position = Position.start(CONNECT4)
        for _ in range(plies):
            position = position.play(rng.choice(position.legal_bits()))
            if position.is_over:
                break
        if not position.is_over:
            return position


@pytest.mark.parametrize("seed", [1, 2])
def test_perfect_beyond_the_books_plays_a_move_that_keeps_the_value_proven_by_weak_searches(
    seed: int,
) -> None:
    position = random_position(12, seed)  # 30 empty cells: more than the strong analysis is given
    assert CONNECT4.cells - position.ply > STRONG_MAX_EMPTY and strategy.recall_move(position) is None
    chosen = play(position, Limits())
    assert chosen.exact and chosen.plies is None and len(chosen.best) == 1
    strong = analyze(position)
    assert chosen.value == strong.value, position.diagram()
    kept = next(move for move in strong.moves if move.move == chosen.best[0])
    assert kept.value == strong.value, position.diagram()
    for move in chosen.moves:  # every move it searched, with its proven value
        assert move.value == next(m.value for m in strong.moves if m.move == move.move), position.diagram()


def test_perfect_near_the_end_gives_the_strong_analysis() -> None:
    position = random_position(CONNECT4.cells - STRONG_MAX_EMPTY, 3)
    chosen = play(position, Limits())
    strong = analyze(position)
    assert chosen.exact and chosen.plies is not None
    assert (chosen.score, chosen.best, chosen.moves) == (strong.score, strong.best, strong.moves)


def test_perfect_says_a_weak_proof_in_words() -> None:
    position = random_position(12, 4)
    choice = player("perfect", think_time=60).choose(position, random.Random(1))
    assert choice.analysis is not None and choice.analysis.exact
    assert phrases.note(choice.note) in (
        "x wins with best play",
        "o wins with best play",
        "draw with best play",
    )


def test_perfect_answers_from_the_shipped_strategy_book_without_searching(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(recall.BOOK_VARIABLE, raising=False)
    shipped = recall.strategies(CONNECT4)
    if not shipped:
        pytest.skip("no strategy book is shipped")
    # .......
    # .......
    # .......   x (the computer) to move after d1 a1: in the shipped strategy book
    # .......
    # .......
    # o..x...
    position = parse_position("4 1", CONNECT4.name)
    chosen = play(position, Limits(time=0.01))
    assert chosen.exact and chosen.nodes == 0 and chosen.value == 1
    assert strategy.recall_move(position) == (1, position.move_bit(chosen.best[0]))


def test_a_move_that_waited_thinks_only_for_what_is_left_of_the_think_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Asked 10 s ago with a think time of 30 s, the move gets the 20 s left (less the margin for answering);
    asked 31 s ago, the least think time, and it still moves (not exact: the empty board without a book)."""
    given: list[float] = []

    def spy(name: str, think_time: float) -> Player:
        given.append(think_time)
        return player(name, think_time)

    monkeypatch.setenv(recall.BOOK_VARIABLE, "off")
    monkeypatch.setattr(workers, "player", spy)
    start = Position.start(CONNECT4)
    choose_move(parse_position("1 2 1 2 1 2", CONNECT4.name), "perfect", 30.0, "1", asked=time.time() - 10)
    move, note = choose_move(start, "perfect", 30.0, "1", asked=time.time() - 31)
    assert 19 < given[0] <= 20 - workers.ANSWER_MARGIN and given[1] == workers.MIN_THINK
    assert move in start.legal_moves() and note.kind == "analysis" and note.exact is False


def test_level_perfect_opens_3x3_in_the_centre_and_answers_the_centre_with_a_corner() -> None:
    """Every move draws on the empty board, and every corner after b2: perfect plays the natural ones, with
    any seed."""
    perfect = player("perfect")
    empty = Position.start(Game.parse("tictactoe"))
    for seed in range(8):
        assert perfect.choose(empty, random.Random(seed)).move == "b2"
        assert perfect.choose(empty.play("b2"), random.Random(seed)).move in {"a1", "a3", "c1", "c3"}


def test_of_equal_moves_the_most_natural_are_on_the_most_lines() -> None:
    """
    . . .
    . . .     3×3: the centre is on 4 lines, corners on 3, edges on 2.
    . . .
    """
    empty = Position.start(Game.parse("tictactoe"))
    assert most_natural(empty, ["a2", "b1", "c3", "a1"]) == ["c3", "a1"]
    assert most_natural(empty, ["b1", "a2"]) == ["b1", "a2"]
    assert most_natural(empty, empty.legal_moves()) == ["b2"]
