"""Students' names and class codes as the class board keeps them.

A name is what a student types, so it arrives with whatever a keyboard, a phone or a paste adds: a
trailing space, a no-break space, a full-width digit, an invisible joiner, a right-to-left override. The
board keeps the name as it is shown (:func:`shown_name`: NFC, trimmed, inner runs of spaces made one) and
compares names by a key (:func:`name_key`: NFKC with case folded, Unicode's ``NFKC_Casefold``), so that
``王芳``, ``王芳 `` and ``王芳\\u00a0`` are one student, ``Ann`` and ``ANN`` too, and ``计科２班`` is
``计科2班``. A name holding a character no one can see or that turns the text around (Unicode's format,
control, private-use and unassigned characters: ``\\u200b``, ``\\u202e``, ``\\ufeff``…) is refused with
the character named: two names that look the same must not be two students.

A class code follows the same rules (any printable name of a class: ``7b``, ``计科2班``) and is kept as
its key, so the board finds a class however its code was typed.
"""

from __future__ import annotations

import unicodedata

from inarow.base.errors import InvalidNameError, Term
from inarow.base.i18n import N_

MAX_NAME = 64
"""The longest name, in characters once normalised."""

MAX_CLASS = 32
"""The longest class code, in characters once normalised."""

REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cn", "Co", "Cs", "Zl", "Zp"})
"""Unicode's general categories a name may not hold: controls, format characters (the zero-width and
direction-control ones among them), unassigned code points, private use, surrogates, line and paragraph
separators."""

REFUSED_CHARACTERS = frozenset("<>")
"""Characters refused for what they look like in a page's source, not for what they are."""


def _normal(text: str, *, what: str, longest: int, empty: bool) -> str:
    shown = " ".join(unicodedata.normalize("NFC", text).split())
    for character in shown:
        if unicodedata.category(character) in REFUSED_CATEGORIES or character in REFUSED_CHARACTERS:
            raise InvalidNameError(
                N_(
                    "invalid {what} {text!r}: it holds {code} ({character}), a character that cannot be seen "
                    "or is not allowed in a name; type the {what} again"
                ),
                what=what,
                text=text,
                code=f"U+{ord(character):04X}",
                character=unicodedata.name(character, "?").lower(),
                reason=N_("a character that cannot be seen"),
            )
    if not shown and not empty:
        raise InvalidNameError(
            N_("invalid {what} {text!r}: it is empty once spaces are trimmed"),
            what=what,
            text=text,
            reason=N_("it is empty"),
        )
    if len(shown) > longest:
        raise InvalidNameError(
            N_("invalid {what} {text!r}: at most {longest} characters"),
            what=what,
            text=text,
            longest=longest,
            reason=N_("too long"),
        )
    return shown


def shown_name(text: str) -> str:
    """``text`` as the board shows a name: NFC, trimmed (a no-break or ideographic space too), every run
    of spaces inside made one space. Raises :class:`InvalidNameError` for an empty name, one over
    :data:`MAX_NAME` characters, or one holding a character of :data:`REFUSED_CATEGORIES` (or ``<``,
    ``>``)."""
    return _normal(text, what=Term(N_("name")), longest=MAX_NAME, empty=False)


def name_key(name: str) -> str:
    """What two names are compared by: Unicode's ``NFKC_Casefold`` of the shown name (width and case
    folded: ``Ｗang`` and ``wang`` are one key). ``name`` is a :func:`shown_name`."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


def class_code(text: str) -> str:
    """A class code as the board keeps it: the key (:func:`name_key`) of its shown form, ``''`` for none.
    Raises :class:`InvalidNameError` as :func:`shown_name` does (at most :data:`MAX_CLASS` characters)."""
    shown = _normal(text, what=Term(N_("class code")), longest=MAX_CLASS, empty=True)
    return name_key(shown)
