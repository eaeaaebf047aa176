"""Swap2, Gomoku's tournament opening rule (Gomocup, RenjuNet): the opener places three stones (a black, a
white, a black); the other player then takes Black (*swap*), or takes White and plays the fourth stone, or
places two more (a white, a black) and leaves the choice of colour to the opener, who then takes Black or
plays White's sixth stone. Whoever has the colour that moves next (White, at each choice) plays on.

inarow decides each step by what its analysis of the position says of White's chances (White is to move at
both choices), with the limits it is given:

- :func:`propose`: of a few three-stone openings drawn from a seed on the central cells, the one whose
  analysis is nearest even;
- :func:`respond` (three stones): Black when White's win rate is below ``0.5 - MARGIN``, White and its
  best move when above ``0.5 + MARGIN``; in between, White's best move and Black's best reply, as long as
  the opener is then left with a choice within ``2 * MARGIN`` of even (else Black or White by the sign);
- :func:`choose` (five stones): Black when White's win rate is below one half, else White's best move.

Win rates are those of the analysis (:func:`inarow.values.answers.winrate`; a proven win is 1).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Protocol, cast

from inarow.base.errors import InvalidMatchError
from inarow.base.i18n import N_
from inarow.engines.gomoku.search import supports
from inarow.engines.limits import Limits
from inarow.engines.policy import analyze
from inarow.play.openings import Opening, draw
from inarow.rules.game import Game, Position
from inarow.values.answers import Analysis, winrate

MARGIN = 0.1
"""How far from even White's win rate may be for the responder to place two stones rather than choose."""

CANDIDATES = 4
"""The seeded openings the opener weighs."""

ANALYSES = 4
"""The most analyses one step makes (the opener's, one a candidate), among which a move's time is shared."""


@dataclass(frozen=True)
class Decision:
    """A player's answer at a step of swap2: take Black (``swap``), or the stones placed, in order."""

    swap: bool = False
    stones: tuple[str, ...] = ()


def plays(game: Game) -> bool:
    """Whether swap2 is played on ``game``: the Gomoku engine's boards, without Renju's rules."""
    return supports(game) and not game.renju


def propose(game: Game, seed: int, limits: Limits) -> tuple[str, ...]:
    """The opener's three stones (black, white, black), as moves of ``game``: of :data:`CANDIDATES`
    openings drawn from ``seed`` on the central cells (:func:`inarow.play.openings.draw`), the one whose
    analysis within ``limits`` leaves White's win rate nearest one half. Only those analyses search, so the
    proposal takes at most :data:`CANDIDATES` times ``limits``."""
    rng = random.Random(seed)
    tried: set[Opening] = set()
    best: tuple[float, tuple[str, ...]] | None = None
    for _ in range(100 * CANDIDATES):  # a board with room for three stones draws them at once
        if len(tried) == CANDIDATES:
            break
        drawn = draw(game, 3, rng)
        if drawn is None or drawn[1] in tried:
            continue
        position, opening = drawn
        tried.add(opening)
        distance = abs(white_chances(analyze(position, limits)) - 0.5)
        if best is None or distance < best[0]:
            best = (distance, tuple(game.cell_name(bit) for bit in opening))
    assert best is not None, "no three-stone opening on this board"
    return best[1]


def white_chances(analysis: Analysis) -> float:
    """The win rate of the side to move (White at both choices of swap2) in ``analysis``."""
    if analysis.exact and analysis.value is not None:
        return (analysis.value + 1) / 2
    return winrate(analysis.score or 0)


def respond(position: Position, limits: Limits) -> Decision:
    """The responder's answer to the opener's three stones of ``position`` (White to move)."""
    _check(position, 3)
    first = analyze(position, limits)
    white = white_chances(first)
    if white < 0.5 - MARGIN:
        return Decision(swap=True)
    if white > 0.5 + MARGIN:
        return Decision(stones=first.best[:1])
    reply = analyze(position.play(first.best[0]), limits)
    placed = (first.best[0], reply.best[0])
    after = analyze(position.play(placed[0]).play(placed[1]), limits)
    if abs(white_chances(after) - 0.5) <= 2 * MARGIN:
        return Decision(stones=placed)
    return Decision(swap=True) if white < 0.5 else Decision(stones=first.best[:1])


def choose(position: Position, limits: Limits) -> Decision:
    """The opener's choice of colour after the responder's two more stones (five on the board, White to
    move): Black, or White's move."""
    _check(position, 5)
    analysis = analyze(position, limits)
    if white_chances(analysis) < 0.5:
        return Decision(swap=True)
    return Decision(stones=analysis.best[:1])


def _check(position: Position, stones: int) -> None:
    assert position.ply == stones and not position.is_over, f"swap2 decides at {stones} stones"


class Negotiator(Protocol):
    """A player that can take the steps of swap2 (:meth:`inarow.play.players.Level.swap2`, an outside
    engine's ``SWAP2BOARD``): given the stones so far (0, 3 or 5, Black's and White's alternately), its
    decision."""

    @property
    def name(self) -> str: ...

    def swap2(self, position: Position, rng: random.Random) -> Decision: ...


def negotiator(player: object) -> Negotiator:
    """``player`` as a :class:`Negotiator`. Raises :class:`InvalidMatchError` for a player that cannot play
    swap2's opening (the levels and outside engines can)."""
    if not callable(getattr(player, "swap2", None)):
        name = getattr(player, "name", "?")
        raise InvalidMatchError(
            N_("{player} cannot play the swap2 opening: only inarow's levels and outside engines can"),
            player=name,
        )
    return cast(Negotiator, player)


def opening(
    game: Game, opener: Negotiator, responder: Negotiator, rng: random.Random
) -> tuple[tuple[int, ...], bool]:
    """The swap2 opening between ``opener`` and ``responder`` on ``game``: its stones in the order they were
    placed (three to six; Black's first) and whether the opener plays Black. Raises
    :class:`InvalidMatchError` naming a player whose decision does not fit the step (an outside
    engine's)."""
    stones: list[int] = []
    position = _placed(Position.start(game), opener, opener.swap2(Position.start(game), rng), (3,), stones)
    decision = responder.swap2(position, rng)
    if decision.swap:
        return tuple(stones), False
    position = _placed(position, responder, decision, (1, 2), stones)
    if len(decision.stones) == 1:
        return tuple(stones), True
    choice = opener.swap2(position, rng)
    if choice.swap:
        return tuple(stones), True
    _placed(position, opener, choice, (1,), stones)
    return tuple(stones), False


def _placed(
    position: Position, player: Negotiator, decision: Decision, counts: tuple[int, ...], stones: list[int]
) -> Position:
    if decision.swap or len(decision.stones) not in counts:
        raise InvalidMatchError(
            N_("{player} answered swap2 at {stones} stones with {answer}: not a move of that step"),
            player=player.name,
            stones=position.ply,
            answer="SWAP" if decision.swap else " ".join(decision.stones) or "nothing",
        )
    for move in decision.stones:
        stones.append(position.move_bit(move))
        position = position.play(stones[-1])
    return position
