"""Checking a book against inarow's own search: positions drawn at random, solved again, compared.

What ``inarow book import`` runs before it keeps a book, and ``inarow book verify`` on any book. The
search is inarow's exact engine on a table of its own, without any book (the compiled engine where it
plays the board, else the reference engine): a score that differs refuses the book, naming the position.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from inarow.base.errors import BookError
from inarow.base.i18n import N_
from inarow.engines.books.file import Book
from inarow.engines.books.keys import position_of
from inarow.engines.exact import compiled
from inarow.engines.exact.reference import Engine
from inarow.engines.limits import Budget

Checking = Callable[[int, int], None]
"""Called as the check goes on: how many positions are checked and how many will be."""

DEFAULT_SAMPLE = 200
"""Positions checked by default: about 10 s for the 12-ply Connect Four book on the 2-core machine."""


def check(
    book: Book,
    path: Path | str,
    *,
    sample: int = DEFAULT_SAMPLE,
    seed: int = 0,
    progress: Checking | None = None,
) -> Book:
    """``book`` with :attr:`~inarow.engines.books.file.About.checked` and ``seed`` set, once ``sample`` of its
    positions drawn with ``random.Random(seed)`` (all of them if it holds fewer) have each been solved again
    by a fresh engine and found to score as the book says.

    Raises :class:`BookError` naming ``path`` and the first position whose score differs (or whose game
    is over: a book holds none), and for a strategy book (whose entries are moves, not scores)."""
    game = book.game
    if book.kind != "scores":
        raise BookError(
            N_("cannot verify the book {path!r}: {reason}"),
            reason=N_("it is a strategy book: it holds moves, not scores"),
            path=str(path),
        )
    chosen = sorted(random.Random(seed).sample(range(len(book)), min(sample, len(book))))
    budget = Budget()
    engine = (
        compiled.CompiledEngine(game, budget, fresh=True) if compiled.supports(game) else Engine(game, budget)
    )
    for done, index in enumerate(chosen):
        if progress is not None:
            progress(done, len(chosen))
        position = position_of(game, int(book.keys[index]))
        stored = int(book.scores[index])
        if position.is_over:
            raise BookError(
                N_("the book {path!r} is refused: it holds the position {position}, whose game is over"),
                reason=N_("it holds a finished game"),
                path=str(path),
                position=position.diagram(),
            )
        found = engine.solve(*position.sides())
        if found != stored:
            raise BookError(
                N_(
                    "the book {path!r} is refused: it scores the position {position} {stored:+d} for the "
                    "side to move, and inarow's search {found:+d}"
                ),
                reason=N_("a score differs from inarow's search"),
                path=str(path),
                position=position.diagram(),
                stored=stored,
                found=found,
            )
    if progress is not None:
        progress(len(chosen), len(chosen))
    return replace(book, about=replace(book.about, checked=len(chosen), seed=seed))
