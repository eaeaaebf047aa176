"""Grading an evaluation e(P) against perfect play: what a depth-limited textbook search with it plays.

From every non-terminal position of the game (3×3: all 4,520 reachable in play; bigger boards: a seeded
sample of positions reached by random play), the search with the evaluation plays its move (the first
best in the order searched, as ``inarow tree`` and ``best --algo`` report it), and the move is judged by
the exact value: it **keeps** the position's value when the position is won and the move still wins, drawn
and the move still draws, or lost (every move keeps a loss). A move that turns a win into a draw or a loss,
or a draw into a loss, is a **blunder**; blunders come worst first (a win thrown to a loss, then a win to a
draw, then a draw to a loss), earlier positions first. A small match against the named evaluations, at the
same depth and algorithm, says how the evaluation plays whole games.

Where e(P) decides: the headline
================================
Most positions are decided by the search alone: a win or a block within the horizon is found whatever
e(P) says. The headline counts only the positions **e(P) decides**: those where, at the depth graded, the
search with a constant e(P) (``e ≡ 0``: every position at the horizon looks alike) has among its best moves
both moves that keep the value and moves that lose it. Anywhere else every move the search can choose keeps
the value (a win found within the horizon, a loss it cannot escape, or no move that loses), so an
evaluation that returns numbers (never ``±inf`` for an unfinished position) blunders only on decisive
positions, and there its choice among the constant search's best is all that decides. The headline is the
share of decisive positions where the move played keeps the value; beside it stand the shares of ``e ≡ 0``
(the search's own tie-break: the first best move in the order searched) and of a seeded random e(P) on the
same positions, searched as the graded evaluation is. The share over every position stays as the second
figure. A search to the end of the game leaves nothing to e(P): no position is decisive there.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache

from typing_extensions import TypedDict

from inarow.base.errors import InarowError, InvalidLimitError
from inarow.base.i18n import N_
from inarow.engines.limits import MAX_DEPTH
from inarow.engines.policy import analyze, solvable
from inarow.engines.textbook import check_algorithm, evaluation_name, move_scores, search
from inarow.evaluation.lines import EVALUATIONS, Evaluation, evaluation_of
from inarow.play.match import Tally, TallyJSON, play_match
from inarow.play.players import SearchPlayer
from inarow.rules.census import reachable
from inarow.rules.game import Game, Position, Side

EVERY_POSITION_CELLS = 9
"""Boards of at most this many cells are graded on every position reachable in play; bigger ones on a
sample."""

DEFAULT_SAMPLE = 200
"""How many positions are sampled on a board too big to grade whole."""

DEFAULT_MATCH_GAMES = 10
"""Games against each named evaluation (colours swapped every other game)."""

Value = int
"""1 a win, 0 a draw, -1 a loss, for the side to move."""


@dataclass(frozen=True, kw_only=True)
class Blunder:
    """A position where the search's move throws a value away: ``before`` is the position's exact value
    for the side to move, ``after`` the value the move keeps for that side; ``keeping`` the moves that
    would have kept it; ``searched`` the value the search backed up for its move (the evaluation's
    scale, for the side to move)."""

    position: Position
    move: int
    before: Value
    after: Value
    keeping: tuple[int, ...]
    searched: float

    @property
    def loss(self) -> int:
        """How much was thrown away: 2 a win to a loss, 1 a win to a draw or a draw to a loss."""
        return self.before - self.after


class BlunderJSON(TypedDict):
    """One blunder of :class:`GradeJSON`: the position (diagram), the side to move, the move played, the
    values before and after (``win``/``draw``/``loss`` for the side to move) and the moves that keep it."""

    position: str
    to_move: Side
    ply: int
    move: str
    before: str
    after: str
    loss: int
    keeping: list[str]
    searched: float | str


class DecisiveJSON(TypedDict):
    """The headline of :class:`GradeJSON`: of the ``positions`` e(P) decides, the ``kept`` ones; ``share``
    = kept / positions (0–1), null when e(P) decides none (a search to the end)."""

    kept: int
    positions: int
    share: float | None


class BaselinesJSON(TypedDict):
    """On the same decisive positions, the shares kept by ``e ≡ 0`` and by a seeded random e(P) (0–1, null
    when there are none)."""

    zero: float | None
    random: float | None


class MatchRowJSON(TypedDict):
    """The graded evaluation's results against one named evaluation."""

    opponent: str
    results: TallyJSON


class GradeJSON(TypedDict):
    """``inarow grade --json`` and ``POST /api/lab/grade``: the headline ``decisive`` (the positions e(P)
    decides, see the module docstring) beside ``baselines``; over every position, ``accuracy`` = ``kept``
    / ``positions`` (0–1); ``by_value`` the same for the positions won, drawn and lost for the side to
    move."""

    game: str
    evaluation: str
    algorithm: str
    depth: int | None
    positions: int
    every_position: bool
    seed: int | None
    decisive: DecisiveJSON
    baselines: BaselinesJSON
    kept: int
    accuracy: float
    by_value: dict[str, list[int]]
    blunders: list[BlunderJSON]
    matches: list[MatchRowJSON]


OUTCOMES: dict[Value, str] = {1: "win", 0: "draw", -1: "loss"}


@dataclass(frozen=True, kw_only=True)
class Grade:
    """What :func:`grade` found (see the module docstring): ``decisive`` the headline; over every position,
    ``kept`` and ``by_value``. ``by_value[v]`` is ``(kept, positions)`` over
    the positions of exact value ``v`` for the side to move; ``matches`` one tally per named evaluation,
    from the graded evaluation's side."""

    game: Game
    evaluation: str
    algorithm: str
    depth: int | None
    positions: int
    every_position: bool
    seed: int | None
    decisive: Headline
    kept: int
    by_value: dict[Value, tuple[int, int]]
    blunders: tuple[Blunder, ...]
    matches: tuple[tuple[str, Tally], ...]

    @property
    def accuracy(self) -> float:
        """The share of positions where the move played keeps the value, 0–1."""
        return self.kept / self.positions if self.positions else 1.0

    def to_json(self) -> GradeJSON:
        game = self.game
        return {
            "game": game.name,
            "evaluation": self.evaluation,
            "algorithm": self.algorithm,
            "depth": self.depth,
            "positions": self.positions,
            "every_position": self.every_position,
            "seed": self.seed,
            "decisive": {
                "kept": self.decisive.kept,
                "positions": self.decisive.positions,
                "share": self.decisive.share(self.decisive.kept),
            },
            "baselines": {
                "zero": self.decisive.share(self.decisive.zero),
                "random": self.decisive.share(self.decisive.random),
            },
            "kept": self.kept,
            "accuracy": round(self.accuracy, 6),
            "by_value": {OUTCOMES[value]: list(pair) for value, pair in sorted(self.by_value.items())},
            "blunders": [
                {
                    "position": blunder.position.diagram(),
                    "to_move": blunder.position.turn,
                    "ply": blunder.position.ply,
                    "move": game.cell_name(blunder.move),
                    "before": OUTCOMES[blunder.before],
                    "after": OUTCOMES[blunder.after],
                    "loss": blunder.loss,
                    "keeping": [game.cell_name(bit) for bit in blunder.keeping],
                    "searched": _number(blunder.searched),
                }
                for blunder in self.blunders
            ],
            "matches": [{"opponent": name, "results": tally.to_json()} for name, tally in self.matches],
        }


def _number(value: float) -> float | str:
    """A value as JSON has it: infinities and "no value" (NaN: a client that sent moves without values) as
    text, so that the report is JSON every parser reads."""
    if value == float("inf"):
        return "inf"
    if value == float("-inf"):
        return "-inf"
    if value != value:
        return "nan"
    return value


def positions_to_grade(
    game: Game, sample: int = DEFAULT_SAMPLE, seed: int = 1
) -> tuple[tuple[Position, ...], bool]:
    """The non-terminal positions :func:`grade` judges, in a fixed order (by ply, then diagram), and
    whether they are all of them: every position reachable in play on a board of at most
    :data:`EVERY_POSITION_CELLS` cells, else ``sample`` distinct ones reached by seeded random play. Made
    once for each game (and sample) and kept: the web's grading asks for them at every request."""
    if game.cells <= EVERY_POSITION_CELLS:
        return _every_position(game), True
    return _sampled_positions(game, sample, seed), False


def _in_order(found: Iterable[Position]) -> tuple[Position, ...]:
    return tuple(sorted(found, key=lambda position: (position.ply, position.diagram())))


@cache
def _every_position(game: Game) -> tuple[Position, ...]:
    return _in_order(position for position in reachable(game) if not position.is_over)


@lru_cache(maxsize=32)
def _sampled_positions(game: Game, sample: int, seed: int) -> tuple[Position, ...]:
    start = Position.start(game)
    rng = random.Random(seed)
    chosen: set[Position] = set()
    tries = 0
    while len(chosen) < sample and tries < sample * 20:
        tries += 1
        position = start
        stop = rng.randrange(game.cells)
        while position.ply < stop and not position.is_over:
            position = position.play(rng.choice(position.legal_bits()))
        if not position.is_over:
            chosen.add(position)
    return _in_order(chosen)


# ------------------------------------------------------------------ the positions e(P) decides
def zero(game: Game, mine: int, theirs: int) -> float:
    """``e ≡ 0``: every unfinished position alike, the search alone decides (the headline's first
    baseline)."""
    return 0.0


BASELINE_SEED = 1
"""The seed of the random e(P) the headline is compared with."""


@dataclass(frozen=True)
class RandomEvaluation:
    """A random e(P) that is still a function of the position: a number in (−1, 1) drawn from a hash of
    ``seed`` and the stones, so the same position always scores the same, and with the sign turned for
    the other side (``e(mine, theirs) = −e(theirs, mine)``), so every algorithm's frame sees the same
    tree."""

    seed: int = BASELINE_SEED

    @property
    def __name__(self) -> str:
        return f"random:{self.seed}"

    def __call__(self, game: Game, mine: int, theirs: int) -> float:
        return self._draw(mine, theirs) - self._draw(theirs, mine)

    def _draw(self, first: int, second: int) -> float:
        digest = hashlib.blake2b(f"{self.seed}:{first}:{second}".encode(), digest_size=8).digest()
        return int.from_bytes(digest, "big") / 2**64


def keeps(position: Position, move: int) -> bool:
    """Whether ``move`` keeps ``position``'s exact value for the side to move."""
    values = perfect_values(position)
    return values[move] == max(values.values())


@lru_cache(maxsize=1 << 16)
def is_decisive(position: Position, depth: int | None) -> bool:
    """Whether e(P) decides ``position`` at ``depth`` plies (None: to the end): the moves a ``depth``-ply
    search with ``e ≡ 0`` values best (every move's value searched with a full window) include one that
    keeps the exact value and one that loses it. Never so when the search sees every line to its end."""
    if depth is None or depth >= position.game.cells - position.ply:
        return False
    scores, _ = move_scores(position, "alphabeta", depth, zero)
    best = max(scores.values())
    return len({keeps(position, bit) for bit, score in scores.items() if score == best}) == 2


def _sample_key(game: Game, sample: int, seed: int) -> tuple[int, int]:
    """``sample`` and ``seed`` as far as they change :func:`positions_to_grade`'s positions."""
    return (DEFAULT_SAMPLE, 1) if game.cells <= EVERY_POSITION_CELLS else (sample, seed)


def decisive_indexes(
    game: Game, depth: int | None, sample: int = DEFAULT_SAMPLE, seed: int = 1
) -> tuple[int, ...]:
    """The indexes, into :func:`positions_to_grade`'s positions, of those e(P) decides at ``depth``
    (:func:`is_decisive`); found once for each game, depth and sample, and kept."""
    return _decisive_indexes(game, depth, *_sample_key(game, sample, seed))


@lru_cache(maxsize=64)
def _decisive_indexes(game: Game, depth: int | None, sample: int, seed: int) -> tuple[int, ...]:
    positions, _ = positions_to_grade(game, sample, seed)
    return tuple(index for index, position in enumerate(positions) if is_decisive(position, depth))


def baseline_kept(
    game: Game, algorithm: str, depth: int | None, sample: int = DEFAULT_SAMPLE, seed: int = 1
) -> tuple[int, int]:
    """How many of the decisive positions (:func:`decisive_indexes`) ``e ≡ 0`` and the random e(P)
    (:class:`RandomEvaluation`) keep, searched as ``algorithm`` ``depth`` plies deep; kept once found."""
    return _baseline_kept(game, check_algorithm(algorithm), depth, *_sample_key(game, sample, seed))


@lru_cache(maxsize=64)
def _baseline_kept(game: Game, algorithm: str, depth: int | None, sample: int, seed: int) -> tuple[int, int]:
    positions, _ = positions_to_grade(game, sample, seed)
    chosen = [positions[index] for index in _decisive_indexes(game, depth, sample, seed)]

    def kept(evaluation: Evaluation) -> int:
        found = 0
        for position in chosen:
            move = search(position, algorithm, depth, evaluation, record=False).move
            assert move is not None, "a search of a position that is not over plays a move"
            found += keeps(position, move)
        return found

    return kept(zero), kept(RandomEvaluation())


@dataclass(frozen=True, kw_only=True)
class Headline:
    """The grade's headline: of the ``positions`` e(P) decides, ``kept`` by the graded evaluation, and by
    the baselines ``zero`` (``e ≡ 0``) and ``random`` (:class:`RandomEvaluation`)."""

    kept: int
    positions: int
    zero: int
    random: int

    def share(self, kept: int) -> float | None:
        """``kept`` of the decisive positions as a share (0–1), None when there are none."""
        return round(kept / self.positions, 6) if self.positions else None


def headline(
    game: Game,
    positions: Sequence[Position],
    moves: Sequence[int],
    algorithm: str,
    depth: int | None,
    *,
    sample: int = DEFAULT_SAMPLE,
    seed: int = 1,
) -> Headline:
    """The :class:`Headline` of ``moves`` (``moves[i]`` played in ``positions[i]``, the positions of
    :func:`positions_to_grade` for ``game``, ``sample`` and ``seed``) searched as ``algorithm`` ``depth``
    plies deep."""
    indexes = decisive_indexes(game, depth, sample, seed)
    zero_kept, random_kept = baseline_kept(game, algorithm, depth, sample, seed)
    return Headline(
        kept=sum(keeps(positions[index], moves[index]) for index in indexes),
        positions=len(indexes),
        zero=zero_kept,
        random=random_kept,
    )


Choice = tuple[int, float]
"""A move chosen in a position (a cell's bit) and the value the search backed up for it, for the side to move
(the evaluation's scale)."""


@dataclass(frozen=True, kw_only=True)
class Scored:
    """What :func:`score_choices` found: ``kept`` positions of all, ``by_value`` (kept, positions) by exact
    value for the side to move, the blunders worst first."""

    kept: int
    by_value: dict[Value, tuple[int, int]]
    blunders: tuple[Blunder, ...]


@cache
def perfect_values(position: Position) -> dict[int, Value]:
    """The exact value of every move of ``position`` for the side to move, by the move's bit: the table
    grading scores against (data; the small boards' exact values)."""
    exact = analyze(position, weak=True)
    values = {position.move_bit(move.move): move.value for move in exact.moves}
    assert all(value is not None for value in values.values()), "small boards are solved exactly"
    return {bit: value for bit, value in values.items() if value is not None}


def score_choices(game: Game, positions: Sequence[Position], choices: Sequence[Choice]) -> Scored:
    """The one scorer of grading: the moves chosen in ``positions`` (``choices[i]`` in ``positions[i]``)
    judged against perfect play. :func:`grade` gives it the moves its own search chose; the web gives it
    the moves a student's browser sent. Raises :class:`~inarow.base.errors.InarowError` for a list of the
    wrong length or an illegal move."""
    if len(choices) != len(positions):
        raise InarowError(
            N_("expected {expected} moves, one for each position graded, got {got}"),
            expected=len(positions),
            got=len(choices),
        )
    kept = 0
    by_value: dict[Value, list[int]] = {1: [0, 0], 0: [0, 0], -1: [0, 0]}
    blunders: list[Blunder] = []
    for position, (move, searched) in zip(positions, choices, strict=True):
        values = perfect_values(position)
        if move not in values:
            raise InarowError(
                N_("the move {move!r} is not legal in {position!r}"),
                move=game.cell_name(move) if 0 <= move < game.cells else str(move),
                position=position.diagram(),
            )
        before = max(values.values())
        after = values[move]
        by_value[before][1] += 1
        if after == before:
            kept += 1
            by_value[before][0] += 1
        else:
            blunders.append(
                Blunder(
                    position=position,
                    move=move,
                    before=before,
                    after=after,
                    keeping=tuple(bit for bit, value in values.items() if value == before),
                    searched=searched,
                )
            )
    blunders.sort(key=lambda blunder: (-blunder.loss, -blunder.before, blunder.position.ply))
    return Scored(
        kept=kept,
        by_value={value: (pair[0], pair[1]) for value, pair in by_value.items()},
        blunders=tuple(blunders),
    )


def grade(
    game: Game,
    evaluation: Evaluation | str,
    depth: int | None,
    algorithm: str = "alphabeta",
    *,
    sample: int = DEFAULT_SAMPLE,
    seed: int = 1,
    games: int = DEFAULT_MATCH_GAMES,
    progress: Callable[[int, int], None] | None = None,
) -> Grade:
    """Grade ``evaluation`` as ``algorithm`` ``depth`` plies deep (None: to the end) plays on ``game``
    (see the module docstring); ``games`` games against each named evaluation (0: no match).
    ``progress(done, total)`` is called as positions are graded.

    Raises :class:`~inarow.base.errors.InarowError` for a game without exact values, a bad depth, algorithm
    or evaluation (and :class:`~inarow.base.errors.EvaluationCodeError` from a student's function)."""
    algorithm = check_algorithm(algorithm)
    function = evaluation_of(evaluation)
    name = evaluation if isinstance(evaluation, str) else evaluation_name(function)
    if depth is not None and not 1 <= depth <= MAX_DEPTH:
        raise InvalidLimitError(
            N_("invalid depth {depth!r}: expected 1 to {limit} plies"), depth=depth, limit=MAX_DEPTH
        )
    if not solvable(game) or game.cells > 16:
        raise InarowError(
            N_("cannot grade on {game}: grading needs exact values, and {game} is too big to solve"),
            game=game.name,
        )
    positions, every = positions_to_grade(game, sample, seed)
    choices: list[Choice] = []
    for index, position in enumerate(positions):
        result = search(position, algorithm, depth, function, record=False)
        assert result.move is not None, "a search of a position that is not over plays a move"
        choices.append((result.move, result.mover_value + 0.0))  # no -0.0 in the report
        if progress is not None:
            progress(index + 1, len(positions))
    scored = score_choices(game, positions, choices)
    kept, by_value, blunders = scored.kept, scored.by_value, list(scored.blunders)
    decisive = headline(
        game, positions, [move for move, _ in choices], algorithm, depth, sample=sample, seed=seed
    )
    matches: list[tuple[str, Tally]] = []
    if games:
        plies = game.cells if depth is None else depth
        graded = SearchPlayer(algorithm, plies, function)
        for opponent in EVALUATIONS:
            played = play_match(
                game, graded, SearchPlayer(algorithm, plies, opponent), games, swap=True, seed=seed
            )
            matches.append((opponent, played.tally(0)))
    return Grade(
        game=game,
        evaluation=name,
        algorithm=algorithm,
        depth=depth,
        positions=len(positions),
        every_position=every,
        seed=None if every else seed,
        decisive=decisive,
        kept=kept,
        by_value=by_value,
        blunders=tuple(blunders),
        matches=tuple(matches),
    )


def grade_choices(
    game: Game,
    evaluation: str,
    depth: int | None,
    algorithm: str,
    moves: Sequence[str],
    values: Sequence[float],
) -> Grade:
    """The :class:`Grade` of moves chosen elsewhere (a student's browser) by ``evaluation`` searched as
    ``algorithm`` ``depth`` plies deep: ``moves[i]`` (a cell's name) played in the ``i``-th of
    :func:`positions_to_grade`'s positions, backing up ``values[i]``; scored by :func:`score_choices`
    exactly as :func:`grade` scores its own search's moves, without a match. ``evaluation`` is only a name
    to show. Raises :class:`~inarow.base.errors.InarowError` (a move that is not one, or not legal there)."""
    algorithm = check_algorithm(algorithm)
    if depth is not None and not 1 <= depth <= MAX_DEPTH:
        raise InvalidLimitError(
            N_("invalid depth {depth!r}: expected 1 to {limit} plies"), depth=depth, limit=MAX_DEPTH
        )
    if not solvable(game) or game.cells > EVERY_POSITION_CELLS:
        raise InarowError(
            N_("cannot grade moves sent on {game}: only boards of at most {cells} cells are"),
            game=game.name,
            cells=EVERY_POSITION_CELLS,
        )
    positions, every = positions_to_grade(game)
    if not len(moves) == len(values) == len(positions):
        raise InarowError(
            N_(
                "expected {expected} moves and values, one for each position graded, got {moves} and {values}"
            ),
            expected=len(positions),
            moves=len(moves),
            values=len(values),
        )
    choices = [
        (position.move_bit(move), value)
        for position, move, value in zip(positions, moves, values, strict=True)
    ]
    scored = score_choices(game, positions, choices)
    return Grade(
        game=game,
        evaluation=evaluation,
        algorithm=algorithm,
        depth=depth,
        positions=len(positions),
        every_position=every,
        seed=None,
        decisive=headline(game, positions, [move for move, _ in choices], algorithm, depth),
        kept=scored.kept,
        by_value=scored.by_value,
        blunders=scored.blunders,
        matches=(),
    )
