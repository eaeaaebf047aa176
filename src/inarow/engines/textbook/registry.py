"""The textbook algorithms by name: :data:`REGISTRY` maps a name to its :class:`Algorithm`.

Adding one is a module beside this one and a line here (and its words in the catalogs); the CLI, the web
page, the drawings and the explanations read what it declares.
"""

from __future__ import annotations

from types import MappingProxyType

from inarow.base.errors import Items, UnknownAlgorithmError
from inarow.base.i18n import N_
from inarow.engines.textbook.algorithm import Algorithm, Window
from inarow.engines.textbook.alphabeta import ALPHABETA, ALPHABETA_HARD
from inarow.engines.textbook.minimax import MINIMAX
from inarow.engines.textbook.negamax import NEGAMAX
from inarow.engines.textbook.negamax_alphabeta import NEGAMAX_ALPHABETA, NEGAMAX_ALPHABETA_HARD
from inarow.engines.textbook.pvs import PVS
from inarow.engines.textbook.records import one_of

REGISTRY = MappingProxyType(
    {
        algorithm.name: algorithm
        for algorithm in (
            MINIMAX,
            NEGAMAX,
            ALPHABETA,
            ALPHABETA_HARD,
            NEGAMAX_ALPHABETA,
            NEGAMAX_ALPHABETA_HARD,
            PVS,
        )
    }
)
"""Every textbook algorithm by name, in the order menus list them."""

ALIASES = MappingProxyType({"alphabeta-soft": "alphabeta"})
"""Older names still read: ``alphabeta-soft`` is α-β's fail-soft form, now plain ``alphabeta``."""

ALGORITHMS = (*REGISTRY, *ALIASES)
"""The names a search takes: every registered algorithm, then the older names."""

WINDOWS = ("fail-soft", "fail-hard")
"""The forms of α-β a user chooses between (``--window``)."""


def check_algorithm(name: str) -> str:
    """``name`` normalised (an older name to the registered one), if it names an algorithm. Raises
    :class:`UnknownAlgorithmError`."""
    key = name.strip().lower()
    if key not in ALGORITHMS:
        refusal = N_("unknown algorithm {name!r}: expected one of {known}")
        raise UnknownAlgorithmError(refusal, name=name, known=Items(REGISTRY))  # the older names unsaid
    return ALIASES.get(key, key)


def algorithm_named(name: str) -> Algorithm:
    """The algorithm called ``name`` (see :func:`check_algorithm`)."""
    return REGISTRY[check_algorithm(name)]


def check_window(name: str) -> Window:
    """``name`` normalised, if it is one of :data:`WINDOWS`. Raises :class:`UnknownAlgorithmError`."""
    key = one_of(name, WINDOWS, N_("unknown window rule {name!r}: expected one of {known}"))
    return "fail-hard" if key == "fail-hard" else "fail-soft"


def with_window(name: str, window: str | None) -> str:
    """The name of the algorithm of ``name``'s family with the window rule ``window`` (None: ``name``
    itself): ``with_window("alphabeta", "fail-hard") == "alphabeta-hard"``. An algorithm without a window
    keeps its name; one of the α-β family without that form is refused."""
    algorithm = algorithm_named(name)
    if window is None or not algorithm.windowed:
        return algorithm.name
    rule = check_window(window)
    if algorithm.window == rule or (rule == "fail-soft" and algorithm.window == "null-window"):
        return algorithm.name
    for other in REGISTRY.values():
        if other.family == algorithm.family and other.window == rule:
            return other.name
    raise UnknownAlgorithmError(
        N_("the algorithm {name!r} has no {window} form: expected one of {known}"),
        name=name,
        window=rule,
        known=Items([other.name for other in REGISTRY.values() if other.window == rule]),
    )
