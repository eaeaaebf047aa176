"""Game sessions: the service that hosts games (:mod:`.service`), the values it answers with
(:mod:`.models`), the review of a game (:mod:`.review`) and where its searches run (:mod:`.workers`)."""

from inarow.sessions.models import (
    GameState,
    GameSummary,
    History,
    MoveEvaluation,
    PlayedMove,
    Review,
    ReviewedMove,
    Waiting,
)
from inarow.sessions.service import FIRSTS, MAX_PLAYER_WORK, MODES, SYMBOLS, Sessions
from inarow.sessions.workers import (
    InlineExecutor,
    Pool,
    PoolHealth,
    SearchPool,
    exit_with_parent,
    warm_up,
)

__all__ = [
    "FIRSTS",
    "MAX_PLAYER_WORK",
    "MODES",
    "SYMBOLS",
    "GameState",
    "GameSummary",
    "History",
    "InlineExecutor",
    "MoveEvaluation",
    "PlayedMove",
    "Pool",
    "PoolHealth",
    "Review",
    "ReviewedMove",
    "SearchPool",
    "Sessions",
    "Waiting",
    "exit_with_parent",
    "warm_up",
]
