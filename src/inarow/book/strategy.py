"""The strategy book: a move that keeps the value of every position a perfect player can meet early on.

Level ``perfect`` needs a move, not every move's score. A strategy book holds, for the positions it can
meet up to N plies when it plays perfectly and the opponent plays **any** move — as the first player and as
the second — the position's value with best play (win, draw or loss: a weak solve) and one move that keeps
it. At the computer's positions one move is chosen (:func:`inarow.analysis.decide`: the first, centre
first, that keeps the value); at the opponent's, every move is followed. So the book is a tree that grows
about ``columns`` times every two plies, where an opening book (every position) grows that much every ply.

It is a :class:`~inarow.book.file.Book` of kind ``strategy`` (magic ``INAROWSB``): one entry per mirror
pair, keyed like the opening book, each holding :func:`encode` of the value and the move (a cell bit of
the keyed, least image of the position; :func:`recall_move` maps it back onto the position asked about).
:func:`build` makes one on the same runners as the opening book (a process pool, inline, Ray), ply by ply
(the moves chosen at one ply say which positions follow), resumable from its checkpoint.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from inarow.book.build import Built, Checkpoint, Progress, Runner, check_buildable, chunks_of, worker_solver
from inarow.book.file import Book
from inarow.book.keys import keyable, position_key, position_of
from inarow.book.recall import Recalling, strategies
from inarow.rules import Game, Position, other
from inarow.search.limits import Budget
from inarow.symmetry import symmetries

CHECKPOINT_MAGIC = b"INAROWCS"
"""The magic of a strategy build's checkpoint (an opening book's is ``INAROWCK``)."""


def encode(value: int, bit: int) -> int:
    """One signed byte for a value (1 win, 0 draw, -1 loss) and a move's cell bit (0 to 63):
    ``64 * value + bit``, from -64 to 127."""
    assert value in (-1, 0, 1) and 0 <= bit < 64, (value, bit)
    return 64 * value + bit


def decode(code: int) -> tuple[int, int]:
    """The value and cell bit of :func:`encode`'s ``code``."""
    return (code + 64) // 64 - 1, (code + 64) % 64


def recall_move(position: Position) -> tuple[int, int] | None:
    """The value of ``position`` for the side to move and a move (cell bit) that keeps it, if a strategy
    book of its game (or of the same board with the other side moving first) holds the position; None
    otherwise."""
    game = position.game
    if not keyable(game) or position.is_over:
        return None
    cur, opp = position.sides()
    # Keys are from the side to move's standpoint: a game where O moves first has the same positions.
    books = strategies(game) or strategies(replace(game, first=other(game.first)))
    for book in books:
        code = book.score(cur, opp)
        if code is None:
            continue
        value, bit = decode(code)
        return value, _mapped(position, bit)
    return None


def _mapped(position: Position, bit: int) -> int:
    """The move of ``position`` that is the move ``bit`` of its keyed image: the one whose position after it
    is, up to symmetry, the image's after ``bit``."""
    game = position.game
    canonical = symmetries(game).canonical_key
    image = position_of(game, position_key(position)).play(bit)
    wanted = canonical(image.x, image.o)
    for move in position.legal_bits():
        after = position.play(move)
        if canonical(after.x, after.o) == wanted:
            return move
    raise AssertionError("the strategy book's move is not a move of the position")  # pragma: no cover


# ------------------------------------------------------------------------------------ building
def decide_chunk(game_name: str, keys: Sequence[int]) -> list[int]:
    """For each key of ``game_name``, :func:`encode` of its position's value and the move that keeps it (one
    task of a build): weak searches on the worker's kept table, the opening books answering first."""
    from inarow.analysis import decide

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
