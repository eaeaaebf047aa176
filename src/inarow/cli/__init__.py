"""The ``inarow`` command: thin verbs that parse, call the library and present.

An :class:`~inarow.base.errors.InarowError` prints ``error: …`` on stderr and exits with status 2, without a
traceback. Batch commands read one position per line and never stop at a bad line.

The verbs import what they use when they run: ``inarow --help`` and a 3×3 ``inarow best`` stay quick, and
numba is imported only by a board that needs the compiled engine (see
:func:`inarow.engines.policy.engine_for`).
"""

from inarow.cli import analysis, book, checking, play, teaching  # noqa: F401 - the verbs join the app as they are defined
from inarow.cli.app import app

__all__ = ["app"]
