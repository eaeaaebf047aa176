"""An independent VCF check for the Gomoku tests, written on the rules alone (Position, winning_cells),
sharing nothing with the engine's patterns or threat search."""

from __future__ import annotations

from inarow.rules import Position, Side


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
