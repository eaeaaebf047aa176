"""The strategy book: a move that keeps the value of every position a perfect player can meet early on.

Level ``perfect`` needs a move, not every move's score. A strategy book holds, for the positions it can
meet up to N plies when it plays perfectly and the opponent plays **any** move — as the first player and as
the second — the position's value with best play (win, draw or loss: a weak solve) and one move that keeps
it. At the computer's positions one move is chosen (:func:`inarow.engines.exact.solver.decide`: the first,
centre first, that keeps the value); at the opponent's, every move is followed. So the book is a tree that
grows about ``columns`` times every two plies, where an opening book (every position) grows that much every
ply.

It is a :class:`~inarow.engines.books.file.Book` of kind ``strategy`` (magic ``INAROWSB``): one entry per
mirror pair, keyed like the opening book, each holding :func:`encode` of the value and the move (a cell bit of
the keyed, least image of the position; :func:`~inarow.engines.books.recall.recall_move` maps it back onto the
position asked about).
:func:`build` makes one on the same runners as the opening book (a process pool, inline, Ray), ply by ply
(the moves chosen at one ply say which positions follow), resumable from its checkpoint.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from inarow.engines.books.build import (
    Built,
    Checkpoint,
    Progress,
    Runner,
    check_buildable,
    chunks_of,
    worker_solver,
)
from inarow.engines.books.file import Book
from inarow.engines.books.keys import position_key, position_of
from inarow.engines.books.recall import Recalling, decode, encode, recall_move
from inarow.engines.exact.solver import decide
from inarow.engines.limits import Budget
from inarow.rules.game import Game, Position

__all__ = [
    "CHECKPOINT_MAGIC",
    "build",
    "decide_chunk",
    "decode",
    "encode",
    "following",
    "recall_move",
    "tree_roots",
]

CHECKPOINT_MAGIC = b"INAROWCS"
"""The magic of a strategy build's checkpoint (an opening book's is ``INAROWCK``)."""


# ------------------------------------------------------------------------------------ building
def decide_chunk(game_name: str, keys: Sequence[int]) -> list[int]:
    """For each key of ``game_name``, :func:`encode` of its position's value and the move that keeps it (one
    task of a build): weak searches on the worker's kept table, the opening books answering first."""
    game = Game.parse(game_name)
    solver = Recalling(game, Budget(), lambda: worker_solver(game, game.cells))
    codes = []
    for value in keys:
        result, bit, _ = decide(position_of(game, value), solver)
        codes.append(encode(result, bit))
    return codes


def tree_roots(game: Game) -> list[int]:
    """The keys of the computer's first positions: the empty board (it plays first) and every position
    after the opponent's first move (it plays second)."""
    start = Position.start(game)
    roots = [position_key(start)]
    for _, child in start.children():
        if not child.is_over and position_key(child) not in roots:
            roots.append(position_key(child))
    return roots


def following(game: Game, value: int, code: int) -> list[int]:
    """The keys of the computer's next positions after the one keyed ``value`` whose decision is ``code``:
    its move, then each move of the opponent (those whose game goes on)."""
    _, bit = decode(code)
    after = position_of(game, value).play(bit)
    if after.is_over:
        return []
    return [position_key(child) for _, child in after.children() if not child.is_over]


def build(
    game: Game,
    plies: int,
    runner: Runner,
    *,
    checkpoint: Path | None = None,
    workers: int = 1,
    progress: Progress | None = None,
) -> Built:
    """The strategy book of ``game`` to ``plies`` plies: the computer's positions up to ``plies`` stones,
    decided on ``runner`` ply by ply, each finished chunk kept in ``checkpoint`` (read first: a stopped
    build resumes; removed once the book is written). Raises :class:`BookError` for a game without keys,
    negative plies or a foreign checkpoint."""
    check_buildable(game, plies)
    report = progress or (lambda phase, done, total: None)
    # The positions of a ply do not depend on how deep the book goes: any depth's checkpoint serves.
    saved = Checkpoint(checkpoint, game, 0, CHECKPOINT_MAGIC) if checkpoint is not None else None
    found = saved.load() if saved is not None else {}
    levels: list[list[int]] = [[] for _ in range(plies + 1)]
    for value in tree_roots(game):
        ply = position_of(game, value).ply
        if ply <= plies:
            levels[ply].append(value)
    codes: dict[int, int] = {}
    solved = resumed = 0
    for ply in range(plies + 1):
        level = levels[ply]
        resumed += sum(value in found for value in level)
        codes.update({value: found[value] for value in level if value in found})
        todo = [value for value in level if value not in codes]
        total = sum(map(len, levels))
        report("deciding", len(codes), total)
        for chunk, answers in runner.solve(game, chunks_of(todo, workers), decide_chunk):
            if saved is not None:
                saved.append(chunk, answers)
            codes.update(zip(chunk, answers, strict=True))
            report("deciding", len(codes), total)
        solved += len(todo)
        if ply + 2 <= plies:
            seen: set[int] = set()
            for value in level:
                for child in following(game, value, codes[value]):
                    if child not in seen:
                        seen.add(child)
                        levels[ply + 2].append(child)
    book = Book.of(game, plies, codes, kind="strategy")
    if saved is not None:
        saved.remove()
    return Built(book=book, per_ply=tuple(map(len, levels)), solved=solved, resumed=resumed)
