"""Independent checks for the Gomoku tests, written on the rules alone (Position, winning_cells), sharing
nothing with the engine's patterns or threat search: a VCF line, a VCF's existence, and a win against every
reply of the defender."""

from __future__ import annotations

import random
from collections.abc import Callable

from inarow.engines.gomoku.weights import Tables, every_code
from inarow.rules.game import Position, Side


def fives(position: Position, side: Side) -> list[int]:
    """The empty cells where ``side`` would complete a winning line."""
    game = position.game
    empty = game.board_mask & ~position.filled
    found = game.winning_cells(position.stones(side), empty)
    return [b for b in range(found.bit_length()) if found >> b & 1]


def _with(position: Position, bit: int, side: Side) -> Position:
    if side == "x":
        return Position(position.game, position.x | 1 << bit, position.o)
    return Position(position.game, position.x, position.o | 1 << bit)


def is_vcf(position: Position, line: list[str]) -> bool:
    """Whether ``line`` is a forced win by fours for the side to move: after each move of the attacker but
    the last, the defender has no five to make and the attacker has a five threat, the defender's move
    being the only block when there is one threat; the attacker's last move makes five."""
    attacker = position.turn
    defender: Side = "o" if attacker == "x" else "x"
    for index in range(0, len(line), 2):
        position = position.play(line[index])
        if position.winner == attacker:
            return index == len(line) - 1
        threats = fives(position, attacker)
        if index + 1 >= len(line) or not threats or fives(position, defender):
            return False
        if len(threats) == 1 and position.game.parse_cell(line[index + 1]) != threats[0]:
            return False
        position = position.play(line[index + 1])
        if position.winner is not None:
            return False
    return False


def vcf_exists(position: Position, attacker: Side, depth: int) -> bool:
    """Whether ``attacker`` (whether or not it is its turn) wins by at most ``depth`` fours in a row,
    each answered by its only block; a defender's five threat must be blocked by a four."""
    defender: Side = "o" if attacker == "x" else "x"
    if fives(position, attacker):
        return True
    if depth == 0:
        return False
    blocks = fives(position, defender)
    if len(blocks) > 1:
        return False
    empty = position.game.board_mask & ~position.filled
    candidates = blocks or [b for b in range(empty.bit_length()) if empty >> b & 1]
    for bit in candidates:
        after = _with(position, bit, attacker)
        if after.winner == attacker:
            return True
        threats = fives(after, attacker)
        if len(threats) >= 2:
            return True
        if len(threats) == 1:
            reply = _with(after, threats[0], defender)
            if reply.winner is None and vcf_exists(reply, attacker, depth - 1):
                return True
    return False


def empty_cells(position: Position) -> list[int]:
    """The empty cells of the board."""
    empty = position.game.board_mask & ~position.filled
    return [b for b in range(empty.bit_length()) if empty >> b & 1]


def wins_within_three_plies(position: Position, attacker: Side, defender: Side) -> bool:
    """Whether ``attacker``, to move, wins by force within three plies: a five to make, or (the defender
    having no five to make) a cell that leaves it two fives to make, of which the defender blocks one."""
    if fives(position, attacker):
        return True
    if fives(position, defender):
        return False
    return any(len(fives(_with(position, bit, attacker), attacker)) >= 2 for bit in empty_cells(position))


def escapes(position: Position, attacker: Side, defender: Side) -> set[str]:
    """The cells where ``defender``, to move in ``position``, may answer without ``attacker`` then winning
    within three plies (see :func:`wins_within_three_plies`): every empty cell of the board is tried."""
    return {
        position.game.cell_name(bit)
        for bit in empty_cells(position)
        if not wins_within_three_plies(position.play(bit), attacker, defender)
    }


def wins_against_every_reply(
    position: Position, choose: Callable[[Position], str | None], depth: int
) -> bool:
    """Whether the side to move wins, playing the move ``choose`` names in each position (None: it has
    none), against **every** answer of the defender — every empty cell of the board is tried — within
    ``depth`` moves of its own. Checked on the rules alone: an answer that makes five refutes the line;
    the attacker has won when it makes five, or when it is to move and wins within three plies (see
    :func:`wins_within_three_plies`). So a True here is a proof that does not trust the search that chose."""
    attacker = position.turn
    defender: Side = "o" if attacker == "x" else "x"
    if wins_within_three_plies(position, attacker, defender):
        return True
    move = choose(position) if depth > 0 else None
    if move is None:
        return False
    after = position.play(move)
    if after.winner == attacker:
        return True
    if fives(after, defender):
        return False
    for bit in empty_cells(after):
        reply = after.play(bit)
        if reply.winner == defender or not wins_against_every_reply(reply, choose, depth - 1):
            return False
    return True


def random_tables(seed: int) -> Tables:
    """Evaluation tables of random worths (no two codes alike, as trained tables may be)."""
    rng = random.Random(seed)

    def some() -> int:
        return rng.randint(-3000, 3000)

    worths = {code: (some(), some(), some(), some()) for code in every_code()}
    return Tables.from_codes(worths, rng.randint(-3000, 3000), rng.randint(-3000, 3000))
