"""The opening book: built on a process pool, inline or on Ray, resumable, one entry per mirror pair, every
score equal to a direct solve, refused when its file is not a whole book, and consulted by the analysis."""

from __future__ import annotations

import json
import os
import random
import struct
import subprocess
import sys
import time
import zlib
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from inarow import BookError, InarowError, analyze, parse_position
from inarow.cli import app
from inarow.engines.books import bitbully, recall, strategy, verify
from inarow.engines.books.build import (
    Built,
    Checkpoint,
    InlineRunner,
    ProcessRunner,
    RayRunner,
    build,
    levels,
)
from inarow.engines.books.file import MAGIC, MAX_BYTES, Book
from inarow.engines.books.keys import key, position_key, position_of, unkey
from inarow.engines.exact.compiled import CompiledEngine
from inarow.engines.limits import Budget
from inarow.engines.policy import decide, exact_solver
from inarow.engines.scores import exact_score
from inarow.rules.game import Game, Position

SMALL = Game.parse("5x4:4:gravity")
"""Five columns of four rows, four in a row: a draw (FACTS.md), solved in milliseconds a position."""
PLIES = 3


def direct(position: Position) -> int:
    """The exact score of ``position`` by a fresh engine of its own, no book consulted."""
    cur, opp = position.sides()
    return exact_solver(position.game, Budget(), position.game.cells - position.ply).solve(cur, opp)


def mirror(game: Game, bits: int) -> int:
    """``bits`` reflected left to right, column by column (independently of inarow.rules.symmetry)."""
    column = (1 << game.height) - 1
    out = 0
    for c in range(game.columns):
        out |= (bits >> (c * game.height) & column) << ((game.columns - 1 - c) * game.height)
    return out


def every_position(game: Game, plies: int) -> set[tuple[int, int]]:
    """Every position (x, o) of up to ``plies`` stones whose game goes on, by playing every move."""
    found = {(0, 0)}
    level = [Position.start(game)]
    for _ in range(plies):
        level = [child for p in level for _, child in p.children() if not child.is_over]
        found |= {(p.x, p.o) for p in level}
    return found


@pytest.fixture(scope="module")
def small() -> Built:
    return build(SMALL, PLIES, InlineRunner())


@pytest.fixture
def small_file(small: Built, tmp_path: Path) -> Path:
    path = tmp_path / "small.book"
    small.book.save(path)
    return path


@pytest.fixture
def book_variable(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """INAROW_BOOK restored after the test."""
    monkeypatch.delenv(recall.BOOK_VARIABLE, raising=False)
    yield


# ----------------------------------------------------------------------------------- what it holds
def test_every_position_of_a_small_book_scores_as_a_direct_solve(small: Built) -> None:
    book = small.book
    assert (book.game, book.plies, len(book)) == (SMALL, PLIES, sum(small.per_ply))
    for value, score in zip(book.keys, book.scores, strict=True):
        position = position_of(SMALL, int(value))
        assert direct(position) == score, position.diagram()


def test_the_book_holds_every_position_up_to_its_plies_once_per_mirror_pair(small: Built) -> None:
    positions = every_position(SMALL, PLIES)
    pairs = {min((x, o), (mirror(SMALL, x), mirror(SMALL, o))) for x, o in positions}
    assert len(small.book) == len(pairs) < len(positions)
    for x, o in positions:
        position = Position(SMALL, x, o)
        assert small.book.score(*position.sides()) is not None, position.diagram()


def test_mirrored_positions_share_one_entry(small: Built) -> None:
    left = parse_position("1 2", SMALL.name)  # ...../...../...../xo...
    right = parse_position("5 4", SMALL.name)  # ...../...../...../...ox
    assert right.x == mirror(SMALL, left.x) and right.o == mirror(SMALL, left.o)
    assert position_key(left) == position_key(right)
    assert small.book.score(*left.sides()) == small.book.score(*right.sides()) == direct(left)


def test_keys_give_back_the_canonical_position() -> None:
    position = parse_position("3 3 2 4 4", SMALL.name)
    cur, opp = unkey(SMALL, position_key(position))
    assert key(SMALL, cur, opp) == position_key(position)
    assert {(cur, opp)} <= {
        position.sides(),
        (mirror(SMALL, position.sides()[0]), mirror(SMALL, position.sides()[1])),
    }


def test_every_score_backs_up_from_the_moves_by_negamax(small: Built) -> None:
    book = small.book
    for level in levels(SMALL, PLIES)[:-1]:
        for value in level:
            position = position_of(SMALL, value)
            scores = []
            for _, child in position.children():
                if child.winner is not None:
                    scores.append(exact_score(SMALL, position.ply))
                else:
                    known = book.score(*child.sides())
                    assert known is not None
                    scores.append(-known)
            assert book.score_of(value) == max(scores)


# ----------------------------------------------------------------------------------- runners
@pytest.mark.slow
def test_a_build_on_a_process_pool_equals_the_build_in_this_process(small: Built) -> None:
    runner = ProcessRunner(2)
    try:
        pooled = build(SMALL, PLIES, runner, workers=2)
    finally:
        runner.close()
    assert pooled.book.same(small.book)


BUILT_BOARDS = {SMALL: 4, Game.parse("6x5:4:gravity"): 2}
"""The boards built on both runners, and to how many plies."""


@pytest.mark.slow
def test_on_5x4_and_6x5_a_pool_build_and_a_local_ray_build_are_identical_and_equal_fresh_solves() -> None:
    ray = pytest.importorskip("ray")
    runner = ProcessRunner(2)
    try:
        pooled = {game: build(game, plies, runner, workers=2) for game, plies in BUILT_BOARDS.items()}
    finally:
        runner.close()
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        on_ray = {game: build(game, plies, RayRunner(), workers=2) for game, plies in BUILT_BOARDS.items()}
    finally:
        ray.shutdown()
    for game in BUILT_BOARDS:
        book = pooled[game].book
        assert on_ray[game].book.same(book) and len(book) == sum(pooled[game].per_ply)
        for value, score in zip(book.keys, book.scores, strict=True):
            position = position_of(game, int(value))
            assert direct(position) == score, position.diagram()


# ----------------------------------------------------------------------------------- resuming
def interrupted_at(phase: str, reports: int) -> Callable[[str, int, int], None]:
    """A build's progress callback that stops the build, as Ctrl-C does, at its ``reports``-th report of
    ``phase``."""
    seen = [0]

    def interrupt(reported: str, done: int, total: int) -> None:
        seen[0] += reported == phase
        if seen[0] == reports:
            raise KeyboardInterrupt

    return interrupt


def test_a_build_stopped_midway_resumes_from_its_checkpoint_and_equals_an_uninterrupted_one(
    small: Built, tmp_path: Path
) -> None:
    checkpoint = tmp_path / "small.book.partial"
    interrupt = interrupted_at("solving", 3)  # the first report, then two chunks solved
    with pytest.raises(KeyboardInterrupt):
        build(SMALL, PLIES, InlineRunner(), checkpoint=checkpoint, workers=4, progress=interrupt)
    kept = Checkpoint(checkpoint, SMALL, PLIES).load()
    assert 0 < len(kept) < small.per_ply[-1]
    with checkpoint.open("ab") as file:
        file.write(b"\x01\x02\x03")  # a record cut short by the interruption
    resumed = build(SMALL, PLIES, InlineRunner(), checkpoint=checkpoint, workers=4)
    assert resumed.book.same(small.book)
    assert (resumed.resumed, resumed.solved) == (len(kept), small.per_ply[-1] - len(kept))
    assert not checkpoint.exists(), "the checkpoint goes once the book is complete"


def test_a_checkpoint_of_another_build_is_refused(tmp_path: Path) -> None:
    checkpoint = tmp_path / "other.partial"
    Checkpoint(checkpoint, SMALL, 3).append([1], [0])
    with pytest.raises(BookError) as caught:
        build(SMALL, 2, InlineRunner(), checkpoint=checkpoint)
    assert str(caught.value) == (
        f"cannot resume from the checkpoint {str(checkpoint)!r}: it belongs to another build (not 2 plies "
        "of 5x4:4:gravity); delete it or choose another --out"
    )
    assert caught.value.reason == "it belongs to another build"


# ----------------------------------------------------------------------------------- the file
def test_a_book_file_reads_back_the_same(small: Built, small_file: Path) -> None:
    assert Book.load(small_file).same(small.book)


def test_a_truncated_book_file_is_refused_with_its_sizes(small: Built, tmp_path: Path) -> None:
    data = small.book.to_bytes()
    path = tmp_path / "cut.book"
    path.write_bytes(data[:-10])
    with pytest.raises(BookError) as caught:
        Book.load(path)
    assert str(caught.value) == (
        f"cannot use the book {str(path)!r}: it is truncated: {len(data) - 10} bytes where its "
        f"header announces {len(small.book)} positions in {len(data)} bytes"
    )
    assert isinstance(caught.value, InarowError) and caught.value.reason.startswith("it is truncated: ")


def test_a_file_that_is_not_a_book_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "picture.book"
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(40))
    with pytest.raises(BookError) as caught:
        Book.load(path)
    assert str(caught.value) == (
        f"cannot use the book {str(path)!r}: it is not an inarow book "
        "(it does not start with INAROWBK or INAROWSB)"
    )


def test_a_damaged_book_file_and_one_of_another_version_are_refused(small: Built, tmp_path: Path) -> None:
    data = bytearray(small.book.to_bytes())
    data[-5] ^= 0x01  # the last score
    with pytest.raises(BookError, match=r"it is damaged: its checksum does not match its contents$"):
        Book.from_bytes(bytes(data))
    for version in (1, 3):
        other = MAGIC + struct.pack("<HH", version, 0) + bytes(20)
        with pytest.raises(BookError) as caught:
            Book.from_bytes(other, "other.book")
        assert str(caught.value) == (
            f"cannot use the book 'other.book': it has format version {version} and this inarow reads "
            "version 2: build it again"
        )


def test_a_book_of_another_game_does_not_answer_for_this_one(
    small_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with pytest.raises(BookError, match=r"it is a book of 5x4:4:gravity, not of connect4$"):
        Book.load(small_file).for_game(Game.parse("connect4"), small_file)
    monkeypatch.setenv(recall.BOOK_VARIABLE, str(small_file))
    assert all(book.game == Game.parse("6x4:4:gravity") for book in recall.books(Game.parse("6x4:4:gravity")))
    assert [book.game for book in recall.books(SMALL)] == [SMALL]


# ----------------------------------------------------------------------------------- the analysis
def test_the_analysis_answers_from_the_book_without_a_search(
    small: Built, small_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # .....
    # .....
    # .....
    # ..x..   o to move: every move's score is in the book (3 plies)
    position = parse_position("3", SMALL.name)
    monkeypatch.setenv(recall.BOOK_VARIABLE, "off")
    searched = analyze(position)
    monkeypatch.setenv(recall.BOOK_VARIABLE, str(small_file))
    booked = analyze(position)
    assert booked.exact and booked.nodes == 0 and booked.load_seconds == 0
    assert (booked.score, booked.best) == (searched.score, searched.best)
    assert [replace(m, source="book") for m in searched.moves] == list(booked.moves)
    assert {m.source for m in searched.moves} == {"search"}, "every score said to come from where it did"
    assert searched.nodes > 0
    assert booked.pv[0] in booked.best and len(booked.pv) <= PLIES - position.ply + 1


def test_the_analysis_past_the_book_searches_the_moves_it_does_not_know(
    small_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    position = parse_position("3 3 2", SMALL.name)  # 3 plies: the moves lead out of the book
    monkeypatch.setenv(recall.BOOK_VARIABLE, "off")
    searched = analyze(position)
    monkeypatch.setenv(recall.BOOK_VARIABLE, str(small_file))
    assert analyze(position).moves == searched.moves


# ----------------------------------------------------------------------------------- the command
def test_book_build_writes_the_book_and_book_info_describes_it(small: Built, tmp_path: Path) -> None:
    out = tmp_path / "cli.book"
    runner = CliRunner()
    made = runner.invoke(
        app, ["book", "build", "--game", SMALL.name, "--plies", "3", "--out", str(out), "--workers", "1"]
    )
    assert made.exit_code == 0, made.output
    assert Book.load(out).same(small.book)
    per_ply = " + ".join(map(str, small.per_ply))
    said, done = made.stdout.splitlines()
    assert (
        said
        == f"{out}: {len(small.book)} positions of 5x4:4:gravity up to 3 plies ({per_ply} per ply), {len(small.book.to_bytes())} bytes"
    )
    assert done.startswith(f"{small.per_ply[-1]} solved in ") and done.endswith(
        " s on 1 worker, 0 from the checkpoint"
    )
    assert made.stderr == (  # piped: no bar, a line as the build starts (the last line of stdout ends it)
        f"building {out}: every position of 5x4:4:gravity up to 3 plies, on 1 worker…\n"
    )
    shown = runner.invoke(app, ["book", "info", str(out)])
    assert shown.exit_code == 0, shown.output
    assert shown.stdout.splitlines()[0] == said
    assert (
        shown.stdout.splitlines()[1]
        == "source: built by inarow; verified: not checked against inarow's search"
    )
    assert (
        shown.stdout.splitlines()[2]
        == f"score of the empty board for the side to move: {small.book.score(0, 0):+d}"
    )


def test_book_info_on_a_file_that_is_not_a_book_says_so(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("hello")
    result = CliRunner().invoke(app, ["book", "info", str(path)])
    assert result.exit_code == 2
    assert result.stderr.strip() == (
        f"error: cannot use the book {str(path)!r}: it is not an inarow book "
        "(it does not start with INAROWBK or INAROWSB)"
    )


def test_a_book_of_a_board_without_keys_is_refused() -> None:
    with pytest.raises(BookError) as caught:
        build(Game.parse("6x6:4"), 1, InlineRunner())
    assert str(caught.value) == (
        "cannot build a book of 6x6:4: its positions do not fit the book's 63-bit keys"
    )


# ----------------------------------------------------------------------------------- the shipped book
@pytest.fixture(scope="module")
def shipped() -> Book:
    path = recall.shipped_path(Game.parse("connect4"))
    assert path is not None, "the package ships a Connect Four book"
    return Book.load(path)


def test_the_shipped_book_knows_the_published_values_of_connect_four(shipped: Book) -> None:
    game = shipped.game
    assert game == Game.parse("connect4") and shipped.plies >= 1
    assert shipped.score(0, 0) == 1, "the first player wins with the last stone (FACTS.md)"
    start = Position.start(game)
    outcomes = []
    for column in "1234567":
        after = start.play(column)
        score = shipped.score(*after.sides())
        assert score is not None
        outcomes.append(-score)
    signs = ["win" if s > 0 else "draw" if s == 0 else "loss" for s in outcomes]
    assert signs == ["loss", "loss", "draw", "win", "draw", "loss", "loss"], "Allen 1988, Allis 1988"


def test_every_score_of_the_shipped_book_backs_up_from_its_moves(shipped: Book) -> None:
    game = shipped.game
    for level in levels(game, shipped.plies)[:-1]:
        for value in level:
            position = position_of(game, value)
            best = max(
                exact_score(game, position.ply)
                if child.winner is not None
                else -(shipped.score(*child.sides()) or 0)
                for _, child in position.children()
            )
            assert shipped.score_of(value) == best, position.diagram()
    assert len(shipped) == sum(map(len, levels(game, shipped.plies)))


def test_the_empty_connect_four_board_is_analysed_from_the_shipped_book(
    shipped: Book, book_variable: None
) -> None:
    result = analyze(Position.start(shipped.game))
    assert result.exact and result.nodes == 0 and result.score == 1 and result.best == ("4",)
    assert [m.value for m in result.moves] == [-1, -1, 0, 1, 0, -1, -1]


# ----------------------------------------------------------------------------------- the strategy book
STRATEGY_PLIES = 6


def weak(position: Position) -> int:
    """The value (1, 0, -1) of ``position`` for the side to move by a fresh engine, no book consulted."""
    if position.winner is not None:
        return -1
    if position.is_over:
        return 0
    cur, opp = position.sides()
    return exact_solver(position.game, Budget(), position.game.cells - position.ply).solve(cur, opp, True)


@pytest.fixture(scope="module")
def small_strategy() -> Built:
    return strategy.build(SMALL, STRATEGY_PLIES, InlineRunner())


def test_every_move_of_a_small_strategy_book_keeps_the_value_of_its_position(small_strategy: Built) -> None:
    book = small_strategy.book
    assert book.kind == "strategy" and len(book) == sum(small_strategy.per_ply)
    for value, code in zip(book.keys, book.scores, strict=True):
        position = position_of(SMALL, int(value))
        kept, bit = strategy.decode(int(code))
        assert kept == weak(position), position.diagram()
        assert -weak(position.play(bit)) == kept, position.diagram()


def test_a_strategy_book_holds_every_position_a_perfect_player_meets_whatever_the_opponent_plays(
    small_strategy: Built, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Playing the book's move at the computer's turns and every move at the opponent's, as first player and
    as second, every position up to its plies is in the book, and the computer never falls below the
    value it started from (5×4 with four in a row is a draw: it never loses)."""
    path = tmp_path / "small.strategy"
    small_strategy.book.save(path)
    monkeypatch.setenv(recall.BOOK_VARIABLE, str(path))
    met = 0
    for computer_first in (True, False):
        level = (
            [Position.start(SMALL)] if computer_first else [c for _, c in Position.start(SMALL).children()]
        )
        while level and level[0].ply <= STRATEGY_PLIES:
            following = []
            for position in level:
                known = strategy.recall_move(position)
                assert known is not None, position.diagram()
                value, bit = known
                assert value >= 0, position.diagram()
                met += 1
                after = position.play(bit)
                following += [c for _, c in after.children() if not c.is_over] if not after.is_over else []
            level = following
    assert met > len(small_strategy.book), "mirrored positions share entries"


def test_mirrored_positions_get_the_mirrored_move_from_the_strategy_book(
    small_strategy: Built, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "small.strategy"
    small_strategy.book.save(path)
    monkeypatch.setenv(recall.BOOK_VARIABLE, str(path))
    left = parse_position("2", SMALL.name)  # ...../...../...../.x...  o to move (the computer, second)
    right = parse_position("4", SMALL.name)  # ...../...../...../...x.
    assert position_key(left) == position_key(right)
    (value, bit), (mirrored_value, mirrored_bit) = strategy.recall_move(left), strategy.recall_move(right)  # type: ignore[misc]
    assert value == mirrored_value
    column, row = SMALL.coordinates(bit)
    assert SMALL.coordinates(mirrored_bit) == (SMALL.columns - 1 - column, row)


def test_a_strategy_book_answers_only_positions_of_its_game_and_never_for_scores(
    small_strategy: Built, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "small.strategy"
    small_strategy.book.save(path)
    monkeypatch.setenv(recall.BOOK_VARIABLE, str(path))
    other = Game.parse("6x4:4:gravity")
    assert strategy.recall_move(Position.start(other)) is None
    assert strategy.recall_move(Position.start(SMALL)) is not None
    assert recall.books(SMALL) == () and [b.kind for b in recall.strategies(SMALL)] == ["strategy"]
    assert recall.recall(SMALL, 0, 0) is None, "its codes are not scores"


def test_a_truncated_strategy_book_is_refused_and_a_whole_one_reads_back_the_same(
    small_strategy: Built, tmp_path: Path
) -> None:
    data = small_strategy.book.to_bytes()
    assert data.startswith(b"INAROWSB")
    path = tmp_path / "cut.strategy"
    path.write_bytes(data[:-3])
    with pytest.raises(BookError) as caught:
        Book.load(path)
    assert str(caught.value) == (
        f"cannot use the book {str(path)!r}: it is truncated: {len(data) - 3} bytes where its "
        f"header announces {len(small_strategy.book)} positions in {len(data)} bytes"
    )
    path.write_bytes(data)
    assert Book.load(path).same(small_strategy.book)


def test_a_strategy_build_on_a_process_pool_stopped_midway_resumes_and_equals_the_inline_one(
    small_strategy: Built, tmp_path: Path
) -> None:
    checkpoint = tmp_path / "small.strategy.partial"
    interrupt = interrupted_at("deciding", 6)
    with pytest.raises(KeyboardInterrupt):
        strategy.build(SMALL, STRATEGY_PLIES, InlineRunner(), checkpoint=checkpoint, progress=interrupt)
    kept = Checkpoint(checkpoint, SMALL, 0, strategy.CHECKPOINT_MAGIC).load()
    assert 0 < len(kept) < len(small_strategy.book)
    runner = ProcessRunner(2)
    try:
        resumed = strategy.build(SMALL, STRATEGY_PLIES, runner, checkpoint=checkpoint, workers=2)
    finally:
        runner.close()
    assert resumed.book.same(small_strategy.book)
    assert (resumed.resumed, resumed.solved) == (len(kept), len(small_strategy.book) - len(kept))
    assert not checkpoint.exists()


def test_decide_keeps_the_value_of_every_early_position_of_a_small_board() -> None:
    """:func:`inarow.engines.policy.decide` against fresh weak solves, on every position of up to 4 stones."""
    for x, o in every_position(SMALL, 4):
        position = Position(SMALL, x, o)
        value, bit, tried = decide(position, exact_solver(SMALL, Budget()))
        assert value == weak(position) and tried[bit] == value, position.diagram()
        if value >= 0:
            assert -weak(position.play(bit)) == value, position.diagram()
        assert all(-weak(position.play(b)) == v for b, v in tried.items()), position.diagram()


def test_book_build_strategy_writes_a_strategy_book_and_book_info_describes_it(
    small_strategy: Built, tmp_path: Path
) -> None:
    out = tmp_path / "cli.strategy"
    runner = CliRunner()
    made = runner.invoke(
        app,
        ["book", "build", "--strategy", "--game", SMALL.name, "--plies", str(STRATEGY_PLIES), "--out", str(out),
         "--workers", "1"],
    )  # fmt: skip
    assert made.exit_code == 0, made.output
    assert Book.load(out).same(small_strategy.book)
    per_ply = " + ".join(map(str, small_strategy.per_ply))
    said = made.stdout.splitlines()[0]
    assert said.startswith(
        f"{out}: strategy book of 5x4:4:gravity: {len(small_strategy.book)} positions to 6 plies "
        f"({per_ply} per ply), "
    )
    shown = runner.invoke(app, ["book", "info", str(out)])
    assert shown.exit_code == 0, shown.output
    assert shown.stdout.splitlines() == [
        said,
        "source: built by inarow; verified: not checked against inarow's search",
        "the empty board with best play: draw for the side to move, by 3",
    ]


def test_a_strategy_book_answers_for_the_same_board_with_o_moving_first(
    small_strategy: Built, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "small.strategy"
    small_strategy.book.save(path)
    monkeypatch.setenv(recall.BOOK_VARIABLE, str(path))
    o_first = Game.parse(SMALL.name + ":o-first")
    played = parse_position("3 2", SMALL.name)
    mirrored = Position(o_first, played.o, played.x)  # the same stones, O having opened
    assert mirrored.sides() == played.sides()
    assert strategy.recall_move(mirrored) == strategy.recall_move(played) is not None


@pytest.fixture(scope="module")
def shipped_strategy() -> Book:
    path = recall.shipped_path(Game.parse("connect4"), ".strategy")
    assert path is not None, "the package ships a Connect Four strategy book"
    return Book.load(path)


def test_the_shipped_strategy_book_plays_the_centre_on_the_empty_board_and_wins(
    shipped_strategy: Book,
) -> None:
    assert shipped_strategy.kind == "strategy" and shipped_strategy.plies >= 8
    code = shipped_strategy.score(0, 0)
    assert code is not None
    value, bit = strategy.decode(code)
    assert value == 1 and shipped_strategy.game.cell_name(bit) == "4", "the first player wins, in the centre"


def test_a_sample_of_the_shipped_strategy_books_moves_keep_their_values_by_direct_weak_solves(
    shipped_strategy: Book,
) -> None:
    """The deepest entries (the cheapest to solve afresh): the value is the position's, and the move's
    child has the opposite value for the opponent."""
    game = shipped_strategy.game
    deepest = [
        int(k) for k in shipped_strategy.keys if position_of(game, int(k)).ply >= shipped_strategy.plies - 1
    ]
    for value in random.Random(14).sample(deepest, 6):
        position = position_of(game, value)
        kept, bit = strategy.decode(int(shipped_strategy.score_of(value) or 0))
        assert kept == weak(position), position.diagram()
        assert -weak(position.play(bit)) == kept, position.diagram()


def test_the_shipped_strategy_book_holds_every_position_after_its_own_moves(shipped_strategy: Book) -> None:
    game = shipped_strategy.game
    for value, code in zip(shipped_strategy.keys, shipped_strategy.scores, strict=True):
        if position_of(game, int(value)).ply + 2 <= shipped_strategy.plies:
            for child in strategy.following(game, int(value), int(code)):
                assert shipped_strategy.score_of(child) is not None


# ----------------------------------------------------------------------------------- files that lie
def handmade(book: Book, **changes: object) -> bytes:
    """``book``'s file with header fields or bytes changed and a checksum that matches again: what a
    careless tool, not a damaged disk, would write."""
    data = bytearray(book.to_bytes()[:-4])
    name = book.game.name.encode()
    sizes = 12 + len(name)
    first, plies, count, about = struct.unpack_from("<HHQI", data, sizes)
    first = int(changes.get("first", first))  # type: ignore[call-overload]
    plies = int(changes.get("plies", plies))  # type: ignore[call-overload]
    struct.pack_into("<HHQI", data, sizes, first, plies, count, about)
    start = len(data) - 9 * count
    for index, value in dict(changes.get("keys", {})).items():  # type: ignore[call-overload]
        struct.pack_into("<Q", data, start + 8 * (index % count), value)
    for index, value in dict(changes.get("scores", {})).items():  # type: ignore[call-overload]
        struct.pack_into("<b", data, start + 8 * count + index % count, value)
    if "about" in changes:
        text = bytes(changes["about"])  # type: ignore[call-overload]
        head = sizes + struct.calcsize("<HHQI")
        body = bytes(data[start:])
        prefix = bytes(data[:head])
        struct.pack_into("<I", bytearray(prefix), sizes + 12, len(text))
        prefix = prefix[: sizes + 12] + struct.pack("<I", len(text))
        data = bytearray(prefix + text + bytes(-(len(prefix) + len(text)) % 8) + body)
    return bytes(data) + struct.pack("<I", zlib.crc32(data))


@pytest.mark.parametrize(
    ("changes", "reason"),
    [
        ({"plies": 40}, "it is damaged: it holds positions of 0 to 40 stones on a board of 20 cells"),
        (
            {"first": 3, "plies": 2},
            "it is damaged: it holds positions of 3 to 2 stones on a board of 20 cells",
        ),
        ({"scores": {0: 11}}, "it is damaged: a score lies outside -10 to 10, the scale of 5x4:4:gravity"),
        ({"scores": {5: -128}}, "it is damaged: a score lies outside -10 to 10, the scale of 5x4:4:gravity"),
        ({"keys": {1: 0}}, "it is damaged: its keys are not sorted"),
        ({"keys": {-1: 1 << 40}}, "it is damaged: a key is larger than the keys of 5x4:4:gravity"),
        ({"about": b"[1, 2]"}, "it is damaged: what it says of its source is not readable"),
        ({"about": b'{"checked": "all"}'}, "it is damaged: what it says of its source is not readable"),
        ({"about": b"\xff\xfe"}, "it is damaged: what it says of its source is not readable"),
    ],
)
def test_a_handmade_book_with_a_valid_checksum_is_refused_when_its_contents_break_the_format(
    small: Built, tmp_path: Path, changes: dict[str, object], reason: str
) -> None:
    path = tmp_path / "handmade.book"
    path.write_bytes(handmade(small.book, **changes))
    with pytest.raises(BookError) as caught:
        Book.load(path)
    assert str(caught.value) == f"cannot use the book {str(path)!r}: {reason}"
    shown = CliRunner().invoke(app, ["book", "info", str(path)])
    assert (shown.exit_code, shown.stderr.strip()) == (2, f"error: {caught.value}")


def test_book_info_refuses_a_key_that_is_the_key_of_no_position_and_does_not_crash(
    small: Built, tmp_path: Path
) -> None:
    """A key with an empty column (no marker bit) passes the load's cheap checks, as it can never be asked
    for; ``book info`` counts the positions per ply and says it is damaged."""
    keys = [int(k) for k in small.book.keys]
    column_bits = (1 << SMALL.height) - 1
    hollow = next(i for i, k in enumerate(keys) if k & column_bits == 1)  # an empty first column
    wrong = keys[hollow] & ~column_bits  # the marker bit gone: a column that is not a column
    assert (hollow == 0 or keys[hollow - 1] < wrong) and wrong < keys[hollow]
    path = tmp_path / "hollow.book"
    path.write_bytes(handmade(small.book, keys={hollow: wrong}))
    Book.load(path)  # loads: the key can never match a position
    shown = CliRunner().invoke(app, ["book", "info", str(path)])
    assert shown.exit_code == 2 and "Traceback" not in shown.output
    assert shown.stderr.strip() == (
        f"error: cannot use the book {str(path)!r}: it is damaged: a key is not that of a position of 0 "
        "to 3 stones"
    )


def test_a_book_file_larger_than_the_limit_is_refused_from_its_size_alone(tmp_path: Path) -> None:
    """1.5 GB, sparse: nothing of it is read, as its header would be read first (and it has none)."""
    path = tmp_path / "huge.book"
    with path.open("wb") as file:
        file.write(MAGIC)
        file.truncate(1_500_000_000)
    with pytest.raises(BookError) as caught:
        Book.load(path)
    assert str(caught.value) == (
        f"cannot use the book {str(path)!r}: it is too large: 1500000000 bytes, more than {MAX_BYTES}"
    )


def test_a_book_whose_header_announces_more_than_the_file_holds_is_refused_before_it_is_read(
    small: Built, tmp_path: Path
) -> None:
    data = bytearray(small.book.to_bytes())
    name = small.book.game.name.encode()
    struct.pack_into("<Q", data, 12 + len(name) + 4, 10**9)  # a billion positions announced
    path = tmp_path / "liar.book"
    path.write_bytes(data)
    with pytest.raises(BookError, match=r"it is truncated: \d+ bytes where its header announces 1000000000"):
        Book.load(path)


# ----------------------------------------------------------------------------------- the leaf book
LEAF = 5
"""The ply of the small board's leaf book."""


@pytest.fixture(scope="module")
def leaf() -> Book:
    """The positions of exactly :data:`LEAF` stones of the small board, with their exact scores."""
    built = build(SMALL, LEAF, InlineRunner())
    kept = {
        int(k): int(s)
        for k, s in zip(built.book.keys, built.book.scores, strict=True)
        if position_of(SMALL, int(k)).ply == LEAF
    }
    return Book.of(SMALL, LEAF, kept, first=LEAF)


def test_a_leaf_book_answers_only_for_positions_of_its_ply(leaf: Book) -> None:
    assert len(leaf) > 100
    assert leaf.per_ply("leaf") == [0] * LEAF + [len(leaf)]
    assert leaf.score(0, 0) is None


def test_the_compiled_search_probes_the_leaf_book_for_every_position_of_its_ply_and_its_mirror_image(
    leaf: Book,
) -> None:
    """A book whose scores are all negated is believed: every position of its ply that the search does not
    settle first by the threats (a win or a block at once, every move under a threat) is answered with the
    negated score, and so is its mirror image: the compiled probe keys positions as the book does."""
    lying = Book(game=SMALL, plies=LEAF, first=LEAF, keys=leaf.keys, scores=-leaf.scores)
    engine = CompiledEngine(SMALL, Budget(), fresh=True)
    engine.use_book(lying.keys, lying.scores, LEAF)
    probed = 0
    for value, score in zip(leaf.keys, leaf.scores, strict=True):
        position = position_of(SMALL, int(value))
        cur, opp = position.sides()
        playable = sum(1 << b for b in position.legal_bits())
        threats = SMALL.winning_cells(opp, SMALL.board_mask & ~(cur | opp))
        if SMALL.winning_cells(cur, playable) or threats & playable or not playable & ~(threats >> 1):
            continue  # decided before the book is looked at: a win or a block at once, or every move loses
        for image in ((cur, opp), (mirror(SMALL, cur), mirror(SMALL, opp))):
            assert engine.solve(*image) == -int(score), position.diagram()
        probed += 1
    assert probed > 100


def test_with_the_leaf_book_every_earlier_position_scores_as_a_direct_solve_in_fewer_positions(
    leaf: Book,
) -> None:
    with_book, without = Budget(), Budget()
    probing = CompiledEngine(SMALL, with_book, fresh=True)
    probing.use_book(leaf.keys, leaf.scores, LEAF)
    searching = CompiledEngine(SMALL, without, fresh=True)
    for x, o in sorted(every_position(SMALL, LEAF - 1)):
        position = Position(SMALL, x, o)
        cur, opp = position.sides()
        assert probing.solve(cur, opp) == searching.solve(cur, opp) == direct(position), position.diagram()
    assert with_book.nodes < without.nodes / 2


def test_the_analysis_gives_the_leaf_book_to_its_engine_and_says_where_each_score_came_from(
    leaf: Book, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "leaf.book"
    leaf.save(path)
    monkeypatch.setenv(recall.BOOK_VARIABLE, str(path))
    assert recall.leaf_book(SMALL) is not None and recall.leaf_book(SMALL).same(leaf)  # type: ignore[union-attr]
    solver = recall.Recalling(SMALL, Budget(), lambda: CompiledEngine(SMALL, Budget(), fresh=True))
    position = position_of(SMALL, int(leaf.keys[len(leaf) // 2]))
    assert solver.solve(*position.sides()) == leaf.score(*position.sides())
    assert str(solver.source) == "book"
    earlier = next(p for x, o in sorted(every_position(SMALL, 2)) if (p := Position(SMALL, x, o)).ply == 2)
    assert solver.solve(*earlier.sides()) == direct(earlier)
    assert str(solver.source) == "search"
    engine = solver._solver
    assert isinstance(engine, CompiledEngine) and engine._book is not None, "the leaf book is the engine's"


# ----------------------------------------------------------------------------------- verifying
def test_verifying_a_book_with_a_wrong_score_refuses_it_naming_the_position(leaf: Book) -> None:
    index = 7
    scores = leaf.scores.copy()
    scores[index] = scores[index] + (1 if scores[index] < 10 else -1)
    wrong = Book(game=SMALL, plies=LEAF, first=LEAF, keys=leaf.keys, scores=scores)
    position = position_of(SMALL, int(leaf.keys[index]))
    with pytest.raises(BookError) as caught:
        verify.check(wrong, "wrong.book", sample=len(leaf), seed=3)
    assert str(caught.value) == (
        f"the book 'wrong.book' is refused: it scores the position {position.diagram()} "
        f"{int(scores[index]):+d} for the side to move, and inarow's search {int(leaf.scores[index]):+d}"
    )
    checked = verify.check(leaf, "leaf.book", sample=50, seed=3)
    assert (checked.about.checked, checked.about.seed) == (50, 3) and checked.same(leaf)


def test_book_verify_checks_a_book_file_and_says_how_many_positions_agree(leaf: Book, tmp_path: Path) -> None:
    path = tmp_path / "leaf.book"
    leaf.save(path)
    shown = CliRunner().invoke(app, ["book", "verify", str(path), "--sample", "25", "--seed", "1"])
    assert shown.exit_code == 0, shown.output
    assert shown.stdout.strip() == (
        f"{path}: 25 positions drawn at random (seed 1) solved again by inarow: all agree"
    )


# ----------------------------------------------------------------------------------- the 12-ply book
CONNECT4 = Game.parse("connect4")
ROOT = Path(__file__).resolve().parents[1]


def inarow_run(
    args: list[str], data_home: Path, text: str = "", imports: bool = False
) -> subprocess.CompletedProcess[str]:
    """``inarow ARGS`` in a process of its own whose user data folder is ``data_home`` (as on a machine
    where the README's set-up ran), standard input ``text``; with ``imports``, the book is imported on
    first use, as on a user's machine (the suite turns that off: tests/conftest.py)."""
    env = {**os.environ, "XDG_DATA_HOME": str(data_home), "PYTHONPATH": str(ROOT / "src")}
    env.pop(recall.BOOK_VARIABLE, None)
    if imports:
        env.pop(recall.IMPORT_VARIABLE, None)
    return subprocess.run(
        [sys.executable, "-m", "inarow", *args], input=text, capture_output=True, text=True, env=env,
        timeout=900, check=False,
    )  # fmt: skip


@pytest.fixture(scope="session")
def data_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A user data folder where ``inarow book import bitbully`` has run, as the README's set-up says."""
    home = tmp_path_factory.mktemp("data")
    done = inarow_run(["book", "import", "bitbully", "--sample", "20"], home)
    assert done.returncode == 0, done.stderr
    return home


def huffman(columns: list[str]) -> int:
    """The database's 32-bit code of a board given as its columns from the left, each from the bottom (x and
    o), written from the format's description: ``10`` an x, ``11`` an o, ``0`` a column's end, a ``0``
    last."""
    bits = "".join("".join("10" if stone == "x" else "11" for stone in column) + "0" for column in columns)
    return int((bits + "0").ljust(32, "0")[:32], 2)


def test_the_databases_codes_decode_to_the_boards_written_and_broken_codes_are_caught() -> None:
    """Random boards of 6 x and 6 o written as codes by :func:`huffman` read back as the same stones; a code
    with 7 stones of one side, a column of 7, a last bit of 1 or a 13th stone is not a board of the book."""
    rng = random.Random(5)
    boards, codes = [], []
    for _ in range(300):
        heights = [0] * 7
        stones = ["x", "o"] * 6
        rng.shuffle(stones)
        columns: list[list[str]] = [[] for _ in range(7)]
        for stone in stones:
            column = rng.choice([c for c in range(7) if heights[c] < 6])
            heights[column] += 1
            columns[column].append(stone)
        boards.append(columns)
        codes.append(huffman(["".join(column) for column in columns]))
    broken = [
        huffman(["xxxxxxx", "oooooo"]),  # 7 x, 6 o, and a column of 7
        huffman(["xxxxxxx", "ooooo"]),  # a column of 7
        huffman(["xxxxxx", "oooooo"]) | 1,  # the last bit set
        huffman(["xxxxxo", "oooooo", "x"]),  # 6 x, 7 o: 13 stones, past the code's 32 bits
    ]
    x, o, ok = bitbully._decode(np.array(codes + broken, dtype=np.uint32))
    assert ok.tolist() == [True] * len(codes) + [False] * len(broken)
    height = CONNECT4.height
    for i, columns in enumerate(boards):
        want = {
            side: sum(
                1 << (c * height + r)
                for c, column in enumerate(columns)
                for r, s in enumerate(column)
                if s == side
            )
            for side in "xo"
        }
        assert (int(x[i]), int(o[i])) == (want["x"], want["o"])


@pytest.mark.slow
def test_the_bitbully_database_reads_as_a_leaf_book_with_the_scores_of_its_own_examples() -> None:
    """The two examples of ``bitbully_databases``' docstring: player 1 wins in 29 moves (71: the 41st
    stone, score +1) and loses in 12 (-88: the 24th, score -10); each board as its mirror image too."""
    book = bitbully.read()
    assert (len(book), book.first, book.plies) == (4_200_899, 12, 12)
    assert (book.about.source, book.about.licence) == ("bitbully-databases 0.0.2", "MIT")
    examples = {
        # rows from the top, as the package draws them: 1 is player 1 (x), 2 player 2 (o)
        ("......./...x.../.x.o.../.o.x.o./.x.o.x./.o.x.o."): 1,
        ("......./......./..xx.../..oo.../.xox.../.xxo.oo"): -10,
    }
    for diagram, score in examples.items():
        position = parse_position(diagram, CONNECT4)
        cur, opp = position.sides()
        assert position.ply == 12 and position.to_move == "x"
        assert book.score(cur, opp) == score
        assert book.score(mirror(CONNECT4, cur), mirror(CONNECT4, opp)) == score
        assert direct(position) == score


@pytest.mark.slow
def test_every_moves_exact_score_of_40_random_early_positions_in_one_batch_equals_bitbullys(
    data_home: Path,
) -> None:
    """40 positions of 2 to 11 stones (random moves, seed 21), every move's exact score through one
    ``inarow analyze --game connect4 --json`` batch, against BitBully's own search (with its own reader
    of the database), an independent solver. The batch's wall time, start-up included, is printed (the
    target is under 10 s on a quiet machine: no timed assertion)."""
    bitbully_solver = pytest.importorskip("bitbully")
    rng = random.Random(21)
    lines: list[str] = []
    while len(lines) < 40:
        position, moves = Position.start(CONNECT4), []
        for _ in range(rng.randint(2, 11)):
            bit = rng.choice(list(position.legal_bits()))
            position = position.play(bit)
            moves.append(CONNECT4.cell_name(bit))
            if position.is_over:
                break
        if not position.is_over:
            lines.append("".join(moves))
    start = time.perf_counter()
    done = inarow_run(["analyze", "--game", "connect4", "--json"], data_home, "\n".join(lines) + "\n")
    wall = time.perf_counter() - start
    assert done.returncode == 0, done.stderr
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert [a["position"] for a in answers] == lines
    oracle = bitbully_solver.BitBully()
    for line, answer in zip(lines, answers, strict=True):
        board = bitbully_solver.Board("".join(str(int(c) - 1) for c in line))
        expected = {str(column + 1): score for column, score in oracle.score_all_moves(board).items()}
        assert answer["exact"], line
        assert {m["move"]: m["score"] for m in answer["moves"]} == expected, line
        assert all(m["source"] in ("book", "search") for m in answer["moves"]), line
        if len(line) == 11:  # the positions after its moves have 12 stones: the book's
            assert "book" in {m["source"] for m in answer["moves"]}, line
    print(f"\n40 positions of 2-11 plies, every move's exact score: {wall:.2f} s wall, start-up included")


def test_an_early_connect_four_position_without_the_12_ply_book_is_told_the_import_would_answer_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(recall.BOOK_VARIABLE, "off")
    assert recall.importable_book(parse_position("4453", CONNECT4)) == 12
    assert recall.importable_book(parse_position("44444433333", CONNECT4)) == 12
    assert recall.importable_book(parse_position("444444333333", CONNECT4)) is None, "12 stones: no search"
    assert recall.importable_book(parse_position("b2")) is None, "no book to import for tic-tac-toe"
    position = parse_position("......./...x.../.x.o.../.o.x.o./.x.o.x./.o.x.o.", CONNECT4)
    tiny = Book.of(CONNECT4, 12, {key(CONNECT4, *position.sides()): 1}, first=12)
    path = tmp_path / "connect4-12.book"
    tiny.save(path)
    monkeypatch.setenv(recall.BOOK_VARIABLE, str(path))
    assert recall.importable_book(parse_position("4453", CONNECT4)) is None, "installed already"


def test_a_fresh_install_imports_the_book_on_first_use_then_answers_every_move_exactly(
    tmp_path: Path,
) -> None:
    """A plain install's first analysis of an early Connect Four position imports the 12-ply book into the
    user's data folder, saying so on standard error; every move is then exact and agrees with BitBully's
    solver, and the next command finds the book there and says nothing of it. What a process stopped while
    saving left behind is removed. The verb ``warm-up`` and the server import it the same way
    (bitbully.import_missing)."""
    books = tmp_path / "inarow" / "books"
    books.mkdir(parents=True)
    gone = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True
    )
    leftover = books / f"connect4-12.book.{int(gone.stdout)}.tmp"  # a process stopped while it saved the book
    leftover.write_bytes(b"half a book")
    first = inarow_run(["analyze", "44", "--game", "connect4", "--json"], tmp_path, imports=True)
    assert first.returncode == 0, first.stderr
    assert not leftover.exists()
    said = first.stderr.splitlines()
    assert said[0].startswith("importing the 12-ply opening book of connect4 from bitbully-databases"), said
    assert said[-1].startswith("imported 4,200,899 positions in "), said
    assert (tmp_path / "inarow" / "books" / "connect4-12.book").is_file()
    answer = json.loads(first.stdout)
    oracle = pytest.importorskip("bitbully")  # BitBully's own search, an independent solver
    expected = oracle.BitBully().score_all_moves(oracle.Board("33"))
    assert answer["exact"] and len(answer["moves"]) == 7
    assert {m["move"]: m["score"] for m in answer["moves"]} == {str(c + 1): v for c, v in expected.items()}
    again = inarow_run(["analyze", "43", "--game", "connect4", "--json"], tmp_path, imports=True)
    assert again.returncode == 0 and "import" not in again.stderr, again.stderr


def test_the_first_use_import_is_left_out_when_books_or_their_import_are_turned_off(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.delenv(recall.BOOK_VARIABLE, raising=False)
    monkeypatch.delenv(recall.IMPORT_VARIABLE, raising=False)
    assert recall.to_import(CONNECT4) == 12
    assert recall.to_import(parse_position("", "5x5").game) is None, "no book to import for 5x5"
    monkeypatch.setenv(recall.IMPORT_VARIABLE, "off")
    assert recall.to_import(CONNECT4) is None
    monkeypatch.delenv(recall.IMPORT_VARIABLE)
    monkeypatch.setenv(recall.BOOK_VARIABLE, "off")
    assert recall.to_import(CONNECT4) is None


def test_a_data_folder_that_cannot_be_written_is_a_note_and_the_analysis_goes_on(tmp_path: Path) -> None:
    """The first use cannot keep the book (the data folder is a file): one line says so, and the
    analysis answers without it."""
    (tmp_path / "inarow").write_text("not a folder")
    done = inarow_run(
        ["analyze", "4444", "--game", "connect4", "--time", "0.5", "--json"], tmp_path, imports=True
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr.startswith("note: going on without the book: "), done.stderr
    assert "Traceback" not in done.stderr and json.loads(done.stdout)["position"] == "4444"
