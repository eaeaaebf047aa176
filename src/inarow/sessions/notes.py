"""Why the computer played a move, as typed fields the page makes its sentence from in the reader's
language (``words.js``: ``noteWords``), never as stored English prose.

A note is kept in the ``note`` column of the moves table as its JSON form. Games stored before the notes
were typed keep their English words: they are read back as a note of kind ``text``.
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass
from typing import Literal

from inarow.players import Choice

NoteKind = Literal["random", "rule", "analysis", "search", "text"]
SearchValue = int | Literal["inf", "-inf"]


@dataclass(frozen=True, kw_only=True)
class MoveNote:
    """Why the computer chose its move.

    - ``random``: a random move (``easy`` now and then, or the ``random`` player);
    - ``rule``: the rule of thumb the ``rules`` or ``threats`` player followed, in ``rule`` (``win``,
      ``block``, ``corner``, ``centre``, ``edge``, ``any cell``; ``five``, ``block four``, ``open four or
      four-three``, ``block open three``, ``four or open three``, ``best cell``);
    - ``analysis``: the value of the position the move was chosen in, for the side that moved: ``exact``,
      and then ``winner`` (``x``, ``o``, or None for a draw) in ``plies`` plies, else the engine's
      ``score`` at ``depth``;
    - ``search``: a textbook search ``algorithm`` ``depth`` plies deep, whose backed-up ``value`` the
      move has (``"inf"``/``"-inf"`` for ±∞);
    - ``text``: a note stored before notes were typed, its English words in ``text``.
    """

    kind: NoteKind
    rule: str | None = None
    exact: bool | None = None
    winner: str | None = None
    plies: int | None = None
    score: int | None = None
    depth: int | None = None
    algorithm: str | None = None
    value: SearchValue | None = None
    text: str | None = None

    def stored(self) -> str:
        """The form kept in the database: the fields that are set, as JSON."""
        return json.dumps({k: v for k, v in asdict(self).items() if v is not None}, sort_keys=True)


def search_value(value: float) -> SearchValue:
    """A textbook search's value in the JSON's form: an integer, or ``"inf"``/``"-inf"``."""
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return int(value)


def note_of(choice: Choice, algorithm: str | None = None, depth: int | None = None) -> MoveNote:
    """The note of a player's ``choice``; ``algorithm`` and ``depth`` when the player is a textbook search."""
    analysis = choice.analysis
    if analysis is not None:
        return MoveNote(
            kind="analysis",
            exact=analysis.exact,
            winner=analysis.winner,
            plies=analysis.plies if analysis.exact else None,
            score=None if analysis.exact else analysis.score,
            depth=None if analysis.exact else analysis.depth,
        )
    if choice.note == "random":
        return MoveNote(kind="random")
    if algorithm is not None and choice.value is not None:
        return MoveNote(kind="search", algorithm=algorithm, depth=depth, value=search_value(choice.value))
    return MoveNote(kind="rule", rule=choice.note)


def read_note(stored: str) -> MoveNote | None:
    """The note kept as ``stored``: None for a person's move (nothing stored), a ``text`` note for the
    English words of a game stored before notes were typed."""
    if not stored:
        return None
    if stored.startswith("{"):
        try:
            fields = json.loads(stored)
            return MoveNote(**fields)
        except (ValueError, TypeError):
            pass
    return MoveNote(kind="text", text=stored)
