"""Placeholder until the compiled engine lands: it plays no game."""

from __future__ import annotations

from inarow.rules import Game
from inarow.search.engine import Engine


def supports(game: Game) -> bool:
    """Whether the compiled engine plays ``game``."""
    return False


CompiledEngine = Engine
