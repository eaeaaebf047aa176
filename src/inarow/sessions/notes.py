"""Why the computer played a move (:class:`inarow.play.players.MoveNote`: typed fields the page makes its
sentence from in the reader's language, ``words.js``: ``noteWords``), as the store keeps it, never as English
prose.

A note is kept in the ``note`` column of the moves table as its JSON form. Games stored before the notes
were typed keep their English words: they are read back as a note of kind ``text``.
"""

from __future__ import annotations

import json

from inarow.play.players import Choice
from inarow.values.answers import MoveNote, NoteKind, SearchValue, search_value

__all__ = ["MoveNote", "NoteKind", "SearchValue", "note_of", "read_note", "search_value"]


def note_of(choice: Choice) -> MoveNote:
    """The note of a player's ``choice`` (see :class:`inarow.play.players.MoveNote`)."""
    return choice.note


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
