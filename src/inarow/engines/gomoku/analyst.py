"""Gomoku analysis: the Gomoku engine's answer (:mod:`inarow.engines.gomoku.search`) as an :class:`Analysis`,
the way the levels play it, and the judging of a move for reviews.

:func:`inarow.engines.policy.analyze` hands every game the engine
:func:`~inarow.engines.gomoku.search.supports` to
:func:`analyze` here, which answers with the values of :mod:`inarow.values.answers` (the words of a
:class:`Judgement` are :func:`inarow.words.phrases.mistake`'s). A proven result (a five, a VCF, a VCT, or a
loss no move stops) is exact, with the winning line and its length; otherwise the answer is the α-β evaluation
in the Gomoku engine's points (see :data:`inarow.values.answers.WINRATE_SCALE`).

Renju (:attr:`inarow.rules.game.Game.renju`): the engine plays it as the standard rule (exactly five wins, for
both sides: White's overlines are not seen as wins, so it only misses some of White's wins), and this
module keeps Black off its forbidden points at the root: the search's root moves and its defences are
filtered (:class:`RenjuSearch`), a position's analysis never lists a forbidden point among its moves
(:meth:`inarow.rules.game.Position.legal_bits`), and a proven win for Black is only kept if its line replays
under Renju's rules (each Black stone of it allowed, ending in Black's five); otherwise the position is
searched again without the threat search, whose lines may pass through forbidden points. The lines of a
proven win for White need no check: a forbidden point only takes Black's defences away.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from inarow.base.errors import IllegalMoveError
from inarow.engines.gomoku.search import DEFAULT_STYLE, GomokuResult, GomokuSearch, Style, prepare, supports
from inarow.engines.limits import Budget, Limits
from inarow.engines.scores import EXACT, exact_score, plies_to_end, proven_score, sign
from inarow.rules.game import Position
from inarow.values.answers import Analysis, MoveValue, Proof, Source, ranked, winrate

__all__ = ["MISTAKE_MARGIN", "Judgement", "MistakeKind", "analyze", "judge", "supports"]

MistakeKind = Literal["missed-win", "allowed-win", "dropped"]
"""How a move on the Gomoku engine's boards is a mistake (see :class:`Judgement`)."""

DEFAULT_TIME = 10.0
"""Seconds an analysis without a time, node or depth limit may take (the position cannot be solved)."""

MISTAKE_MARGIN = 1600
"""A move whose evaluation is this many points below the best move's is a mistake (0.4 of a logit of win
rate, see :data:`inarow.values.answers.WINRATE_SCALE`: ten points of win rate from an even position)."""

CANDIDATES = 10
"""How many of the best moves an analysis gives a line of play (and a searched value) by default."""

LINES_SHARE = 0.3
"""The share of an analysis's time (or nodes) given to the lines of its candidate moves (each of their
searches finishes its first iteration, some 30 ms on the project's loaded 2-core machine, whatever its
share: with 9 of them a smaller share would overrun the time)."""

MIN_LINE_TIME = 0.01
"""The least time the search of one candidate's line gets, in seconds."""

DROP_DEPTH = 2
"""The depth both moves are searched to when their evaluations are compared."""

STYLES: dict[str, Style] = {
    "medium": Style(vcf=False, vct=False, width=8, max_depth=1),
    "hard": Style(vct=False, width=10, max_depth=2),
    "perfect": Style(),
}
"""How each level searches on the boards of the Gomoku engine (``easy`` plays ``medium`` now and then)."""


def analyze(
    position: Position, limits: Limits | None = None, style: Style = DEFAULT_STYLE, *, lines: int = 0
) -> Analysis:
    """The analysis of a position of a game the Gomoku engine plays, within ``limits`` (without any, 10
    seconds); ``limits.depth`` caps the α-β depth. Every move carries a
    :func:`~inarow.values.answers.winrate`, and
    its ``source`` says what its score is: the search's value for the best move and the lines' moves, a
    bound (``bound``) or the evaluation (``evaluation``) for the others (see
    :data:`~inarow.values.answers.Source`).

    With ``lines``, that many of the best moves also carry a line of play: the best move the principal
    variation, each other one its reply's search (its value then that search's, which is worth more than
    the bound the root's α-β search gives the moves it did not choose), all within :data:`LINES_SHARE` of
    the limits, and every search starts from an empty table (:attr:`Style.fresh`): asked again, the same
    question gets the same answer. The players ask for none: it would only take time from their move, and
    their searches keep the table from one move to the next.
    """
    limits = limits or Limits()
    if position.is_over:
        return Analysis(position=position, exact=True)
    if lines:
        style = replace(style, fresh=True)
    if limits.depth is not None:
        style = replace(style, max_depth=max(1, limits.depth))
    time = limits.time
    if time is None and limits.nodes is None and limits.depth is None:
        time = DEFAULT_TIME
    prepare()  # loading the compiled search is no part of the think time
    share = 1 - LINES_SHARE if lines > 1 else 1.0
    budget = Budget(
        Limits(
            time=None if time is None else time * share,
            nodes=None if limits.nodes is None else max(1, int(limits.nodes * share)),
        )
    )
    search = (
        RenjuSearch(position, budget, style)
        if position.forbidden
        else GomokuSearch(position.game, budget, style)
    )
    found = search.run(position)
    if not lawful(position, found):
        # A line of the threat search broke Renju's rules: search again without it, in the time left.
        retry = Budget(
            Limits(time=None if budget.remaining is None else max(budget.remaining, 0.05), nodes=limits.nodes)
        )
        search = RenjuSearch(position, retry, replace(style, vcf=False, vct=False))
        found = search.run(position)
        budget.nodes += retry.nodes
    game = position.game
    score = proven_score(found.value) if found.proven else None
    exact = score is not None
    values = search.static_values(position)
    values.update(found.move_values)
    values.setdefault(found.best, found.value)
    pv = tuple(game.cell_name(bit) for bit in found.pv)
    moves = {}
    for bit in position.legal_bits():
        name = game.cell_name(bit)
        if exact and bit == found.best:
            assert score is not None
            moves[bit] = _proven(position, name, score, pv)
        else:
            shown = max(-EXACT + 1, min(EXACT - 1, values[bit]))
            source: Source = (
                "search" if bit == found.best else "bound" if bit in found.move_values else "evaluation"
            )
            moves[bit] = MoveValue(
                move=name,
                exact=False,
                score=shown,
                value=None,
                plies=None,
                source=source,
                winrate=winrate(shown),
            )
    if lines:
        moves[found.best] = replace(moves[found.best], line=pv)
        others = sorted((bit for bit in moves if bit != found.best), key=lambda bit: -values[bit])[
            : lines - 1
        ]
        nodes = (
            None if limits.nodes is None else max(1, int(limits.nodes * LINES_SHARE / max(1, len(others))))
        )
        for number, bit in enumerate(others):
            # What is left of the time, shared over the candidates still to search.
            left = None if time is None else max(0.0, time - budget.elapsed) / (len(others) - number)
            left = None if left is None else max(MIN_LINE_TIME, left)
            moves[bit] = _searched(position, bit, Limits(time=left, nodes=nodes), style, found.depth)
    best = moves[found.best]
    listed = tuple(_agreeing(moves[bit], found.move_values.get(bit), best) for bit in moves)
    return Analysis(
        position=position,
        exact=exact,
        value=None if score is None else sign(score),
        score=score if score is not None else max(-EXACT + 1, min(EXACT - 1, found.value)),
        plies=None if score is None else plies_to_end(game, position.ply, score),
        best=(game.cell_name(found.best),),
        pv=pv,
        moves=ranked(listed, best.move),
        nodes=found.nodes,
        seconds=budget.elapsed,
        depth=None if exact else found.depth,
        proof=_proof(found) if exact else None,
    )


def _agreeing(move: MoveValue, bound: int | None, best: MoveValue) -> MoveValue:
    """``move`` as the analysis lists it beside ``best``, so that the list agrees with itself: a move the
    root's α-β search bounded (it failed low: worth at most ``bound``) is worth at most that, whatever a
    shallower search of its own said, and no unproven move is worth more than the best one, which the
    root's completed depth chose over it. A score lowered that way is an upper bound (``source="bound"``);
    an unsearched move keeps ``evaluation``. Proven moves, the best move itself, and every move beside a
    proven best one are as found."""
    if move.exact or move is best or best.exact:
        return move  # an exact score and a guess are not on one scale: the ranking alone orders them
    ceiling = best.score if bound is None else min(best.score, bound)
    if move.score <= ceiling:
        return move
    source: Source = "evaluation" if move.source == "evaluation" else "bound"
    return replace(move, score=ceiling, source=source, winrate=winrate(ceiling))


def _proof(found: GomokuResult) -> Proof | None:
    """How a proven result was proven: by the side to move's VCF or VCT, or by the opponent's VCF after
    every move (a line longer than two fives to stop); None for a five to make or two to stop."""
    if found.reason in ("vcf", "vct"):
        return "vcf" if found.reason == "vcf" else "vct"
    return "vcf" if found.reason == "lost" and len(found.pv) > 2 else None


def _proven(position: Position, name: str, score: int, line: tuple[str, ...] = ()) -> MoveValue:
    """Move ``name`` of ``position`` whose value is proven: ``score`` for the side that plays it."""
    plies = plies_to_end(position.game, position.ply, score)
    rate = {1: 1.0, 0: 0.5, -1: 0.0}[sign(score)]
    return MoveValue(
        move=name, exact=True, score=score, value=sign(score), plies=plies, winrate=rate, line=line
    )


def _searched(position: Position, bit: int, limits: Limits, style: Style, depth: int) -> MoveValue:
    """A candidate move's value and line from a search of the position after it (at most ``depth - 1``
    plies of α-β, at least 1), from the side that plays it."""
    game = position.game
    name = game.cell_name(bit)
    after = position.play(bit)
    if after.is_over:
        return _proven(position, name, exact_score(game, position.ply) if after.winner else 0, (name,))
    time = None if limits.time is None else max(limits.time, MIN_LINE_TIME)
    budget = Budget(Limits(time=time, nodes=limits.nodes))
    child_style = replace(style, vct=False, max_depth=max(1, min(style.max_depth, depth - 1)))
    search = (
        RenjuSearch(after, budget, child_style)
        if after.forbidden
        else GomokuSearch(game, budget, child_style)
    )
    reply = search.run(after)
    line = (name, *(game.cell_name(b) for b in reply.pv))
    proven = proven_score(reply.value) if reply.proven and lawful(after, reply) else None
    if proven is not None:
        return _proven(position, name, -proven, line)
    shown = max(-EXACT + 1, min(EXACT - 1, -reply.value))
    return MoveValue(
        move=name, exact=False, score=shown, value=None, plies=None, winrate=winrate(shown), line=line
    )


class RenjuSearch(GomokuSearch):
    """The Gomoku engine's search of a Renju position with Black to move: its root moves and the moves it
    finds that stop the opponent's VCF leave Black's forbidden points out (see the module docstring)."""

    def __init__(self, position: Position, budget: Budget, style: Style = DEFAULT_STYLE) -> None:
        super().__init__(position.game, budget, style)
        self.forbidden_bits = frozenset(position.forbidden)
        self.allowed = position.legal_bits()

    def _allowed(self, moves: list[int]) -> list[int]:
        return [move for move in moves if self.board.to_bit(move) not in self.forbidden_bits]

    def _root_moves(self, me: int) -> list[int]:
        moves = self._allowed(super()._root_moves(me))
        return moves or [self.board.from_bit(self.allowed[0])]

    def _defend(self, me: int, roots: list[int]) -> list[int] | None:
        safe = super()._defend(me, roots)
        return None if safe is None else self._allowed(safe)


def lawful(position: Position, found: GomokuResult) -> bool:
    """Whether the engine's answer keeps to the rules of ``position``'s game: always, but in Renju, where
    its move must not be a forbidden point and a proven win for Black must replay to Black's five."""
    game = position.game
    if not game.renju:
        return True
    if found.best in position.forbidden:
        return False
    black_wins = found.proven and (found.value > 0) == (position.turn == game.first)
    if not black_wins:
        return True
    after = position
    try:
        for bit in found.pv:
            after = after.play(bit)
    except IllegalMoveError:
        return False
    return after.winner == game.first


@dataclass(frozen=True, kw_only=True)
class Judgement:
    """Whether a move was a mistake and which kind: ``missed-win`` (a proven win before, none after),
    ``allowed-win`` (the opponent has a proven win after it, and had none to stop before), ``dropped``
    (the evaluation fell by more than :data:`MISTAKE_MARGIN` below the best move's)."""

    kind: MistakeKind | None
    best: int
    """The best move's value on the :data:`EXACT` scale (a proven score times EXACT, or an evaluation)."""
    played: int
    """The played move's value on the same scale, from the mover's standpoint."""


def _rank(analysis: Analysis) -> int:
    if analysis.exact and analysis.score is not None:
        return analysis.score * EXACT
    return analysis.score or 0


def judge(before: Position, move: str, first: Analysis, seconds: float) -> Judgement:
    """Judge ``move`` in ``before``, given ``first``, the analysis of ``before``, by analyses of the
    positions after it and after the best move, each within ``seconds`` (both seen from the opponent, so
    their evaluations compare). A best move of ``first`` is never a mistake; another move that keeps a
    proven win only counts as one if the engine proves the win again after it."""
    name = before.game.cell_name(before.move_bit(move))
    after = before.play(name)
    best = _rank(first)
    if name in first.best or after.is_over:
        return Judgement(kind=None, best=best, played=best)
    second = analyze(after, Limits(time=seconds))
    played = -_rank(second)
    kind: MistakeKind | None = None
    if first.exact and first.value == 1 and not (second.exact and second.value == -1):
        kind = "missed-win"
    elif second.exact and second.value == 1 and not (first.exact and first.value == -1):
        kind = "allowed-win"
    elif not first.exact and not second.exact:
        # Both sides of the comparison searched to the same depth, so that neither gains a tempo.
        best = -_rank(analyze(before.play(first.best[0]), Limits(depth=DROP_DEPTH)))
        played = -_rank(analyze(after, Limits(depth=DROP_DEPTH)))
        if played < best - MISTAKE_MARGIN:
            kind = "dropped"
    return Judgement(kind=kind, best=best, played=played)
