"""Threat-space search on a :class:`~inarow.engines.gomoku.board.GomokuBoard`: VCF and VCT.

- **VCF** (victory by continuous fours): the attacker plays fours, each forcing the one reply that stops
  the five, until it makes five or two fives at once. Every reply is forced, so a VCF found is a proof.
  When the defender's forced reply makes a four of its own, the attacker must block it with a four of its
  own or the line fails.
- **VCT** (victory by continuous threats): the attacker may also play threes that threaten to win next
  move, that is, after which it has a cell making an open four or two fours (``wins``). The line holds only
  if every answer of the defender still loses, and the answers tried are every one that can matter:

  * every cell that stops the threat. A reply stops it only if, after it, no ``wins`` cell of the attacker
    is left; it must then lie on a ``wins`` cell, or in a five-cell window holding that cell and three of
    the attacker's stones, so the attacker would make a four there: the ``wins`` and ``fours`` cells of
    the attacker hold every such reply;
  * every counter-four, the defender's ``fours`` cells: the attacker must answer a four before anything
    else (its answer may keep the threat standing, and then the defender answers again);
  * any other reply leaves a ``wins`` cell and no five to make, so the attacker plays it and makes five
    two moves later: it loses, and no faster than the replies tried.

  A VCT found is therefore a proof, like a VCF; its length is that of the longest defence against the
  attacker's line, an upper bound on the shortest win. A defender's VCF is looked for first only to cut
  the search short (its first four is among the replies anyway).

Both return the winning line as list indices from the attacker's first move to its five, or None (None
is no proof of anything: the searches are bounded in fours, threats and nodes).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from inarow.engines.gomoku.board import GomokuBoard
from inarow.engines.limits import Budget

if TYPE_CHECKING:
    from inarow.engines.gomoku.driver import CompiledBoard

CHECK_EVERY = 255
"""Threat-search nodes between looks at the budget's clock (a mask)."""

VCF_NODES = 3000
"""The most nodes one VCF search may take (fours are many in a crowded position)."""

NEVER = 1 << 30
"""The depth of a table entry for a position that fails whatever the depth."""

UNLIMITED = 1 << 62
"""A node limit never reached."""

NODE_SHARE = 0.1
"""The share of a node budget's nodes left that one compiled VCT may take (the α-β search needs the rest)."""

COMPILED_RATE = 200_000
"""Nodes a second the compiled VCT searches (measured: about 210,000 over 72 middle-game searches on the
project's machine), to turn the time left into its node limit (the kernel cannot read the clock)."""


class _Exhausted(Exception):
    """A VCF search used up its nodes."""


class ThreatSearch:
    """VCF and VCT searches on one board, counting their nodes in ``budget`` (which may abort them with
    :class:`~inarow.engines.limits.SearchAborted`)."""

    def __init__(self, board: GomokuBoard, budget: Budget, compiled: bool = False) -> None:
        """With ``compiled``, VCFs are looked for by the compiled kernel (:func:`inarow.engines.gomoku.kernel.
        vcf_line`) on a copy of the board that follows this one; the caller makes sure the kernels are
        loaded (:func:`inarow.engines.gomoku.search.compiled_ready`)."""
        self.board = board
        self.budget = budget
        self._compiled: CompiledBoard | None = None
        if compiled:
            from inarow.engines.gomoku.driver import CompiledBoard

            stones = [(i, board.cells[i]) for i in board.history]
            self._compiled = CompiledBoard(board.game, stones, board.tables)
        self._failed: dict[tuple[int, int, bool], int] = {}
        self._cut = False
        self._limit = 0
        self._vct_limit = 0

    @property
    def compiled(self) -> bool:
        """Whether the searches run compiled."""
        return self._compiled is not None

    def _tick(self) -> None:
        self.budget.nodes += 1
        if not self.budget.nodes & CHECK_EVERY:
            self.budget.check()

    def vcf(self, side: int, max_fours: int = 12, max_nodes: int = VCF_NODES) -> list[int] | None:
        """The shortest VCF of ``side`` (to move) with at most ``max_fours`` fours, or None (also when
        ``max_nodes`` nodes did not find one: a VCF returned is always a proof, None is not)."""
        if self._compiled is not None:
            self._compiled.follow(self.board.history, self.board.cells)
            found, nodes = self._compiled.vcf(side, max_fours, max_nodes)
            self.budget.nodes += nodes
            if found is None:
                self.budget.check()
            return found
        self._limit = self.budget.nodes + max_nodes
        length = len(self.board.history)
        try:
            for depth in range(1, max_fours + 1):
                self._cut = False
                line = self._vcf(side, depth)
                if line is not None or not self._cut:
                    return line
        except _Exhausted:
            pass
        except BaseException:
            self.board.rewind(length)
            raise
        self.board.rewind(length)
        return None

    def _vcf(self, a: int, depth: int) -> list[int] | None:
        board, d = self.board, 3 - a
        if board.fives[a]:
            return [min(board.fives[a])]
        if depth <= 0:
            self._cut = True
            return None
        key = (board.hash, a, False)
        failed = self._failed.get(key, -1)
        if failed >= depth:
            self._cut = self._cut or failed < NEVER
            return None
        if self.budget.nodes > self._limit:
            raise _Exhausted
        cut, self._cut = self._cut, False
        if board.fives[d]:
            if len(board.fives[d]) > 1:
                self._cut = cut
                return None
            block = next(iter(board.fives[d]))
            moves = [block] if block in board.fours[a] else []
        else:
            moves = sorted(board.fours[a], key=lambda i: -board.value[a][i])
        found = None
        for move in moves:
            self._tick()
            board.play(move, a)
            fives = board.fives[a]
            if len(fives) >= 2:
                double = [move, min(fives), max(fives)]
                board.undo()
                return double
            if len(fives) == 1:
                reply = next(iter(fives))
                board.play(reply, d)
                if not board.is_win(reply, d):
                    rest = self._vcf(a, depth - 1)
                    if rest is not None:
                        found = [move, reply, *rest]
                board.undo()
            board.undo()
            if found is not None:
                self._cut = cut
                return found
        # A search that never reached its depth limit fails at every depth.
        self._failed[key] = depth if self._cut else NEVER
        self._cut = cut or self._cut
        return None

    def vct(
        self, side: int, max_threats: int = 4, vcf_fours: int = 8, max_nodes: int | None = None
    ) -> list[int] | None:
        """A VCT of ``side`` (to move) with at most ``max_threats`` threats, shortest depth first, or None
        (also when ``max_nodes`` nodes, if given, did not find one)."""
        if self._compiled is not None:
            return self._compiled_vct(side, max_threats, vcf_fours, max_nodes)
        self._vct_limit = UNLIMITED if max_nodes is None else self.budget.nodes + max_nodes
        line = self.vcf(side, vcf_fours, self._vcf_nodes())
        if line is not None:
            return line
        length = len(self.board.history)
        try:
            for depth in range(2, max_threats + 1):
                line = self._vct(side, depth, vcf_fours)
                if line is not None:
                    return line
        except _Exhausted:
            return None
        finally:
            self.board.rewind(length)
        return None

    def _compiled_vct(
        self, side: int, max_threats: int, vcf_fours: int, max_nodes: int | None
    ) -> list[int] | None:
        """The VCT of :meth:`vct` searched by the compiled kernel (:func:`inarow.engines.gomoku.kernel.
        vct_line`), within ``max_nodes``, :data:`NODE_SHARE` of the budget's nodes left and the time left
        (at :data:`COMPILED_RATE`)."""
        assert self._compiled is not None
        budget = self.budget
        limit = UNLIMITED if max_nodes is None else max_nodes
        if budget.max_nodes is not None:
            limit = min(limit, int((budget.max_nodes - budget.nodes) * NODE_SHARE))
        remaining = budget.remaining
        if remaining is not None:
            limit = min(limit, int(remaining * COMPILED_RATE))
        self._compiled.follow(self.board.history, self.board.cells)
        found, nodes = self._compiled.vct(side, max_threats, vcf_fours, max(1, limit))
        budget.nodes += nodes
        if found is None:
            budget.check()
        return found

    def _vcf_nodes(self) -> int:
        """The nodes a VCF inside a VCT may take: what the VCT has left, at most :data:`VCF_NODES`."""
        return max(1, min(VCF_NODES, self._vct_limit - self.budget.nodes))

    def _vct(self, a: int, depth: int, vcf_fours: int) -> list[int] | None:
        board, d = self.board, 3 - a
        if board.fives[a]:
            return [min(board.fives[a])]
        if depth <= 0:
            return None
        key = (board.hash, a, True)
        if self._failed.get(key, -1) >= depth:
            return None
        if self.budget.nodes > self._vct_limit:
            raise _Exhausted
        if board.fives[d]:
            if len(board.fives[d]) > 1:
                return None
            moves = list(board.fives[d])
        else:
            line = self.vcf(a, min(vcf_fours, 2 * depth), self._vcf_nodes())
            if line is not None:
                return line
            wins, fours, threes = board.wins[a], board.fours[a], board.threes[a]
            moves = sorted(wins | fours | threes, key=lambda i: (i not in wins, -board.value[a][i]))
        for move in moves:
            self._tick()
            board.play(move, a)
            line = None
            if not board.fives[d]:
                line = self._after_threat(a, move, depth, vcf_fours)
            board.undo()
            if line is not None:
                return line
        self._failed[key] = depth
        return None

    def _after_threat(self, a: int, move: int, depth: int, vcf_fours: int) -> list[int] | None:
        """The attacker has just played ``move``: the winning line if every defence loses."""
        board, d = self.board, 3 - a
        fives = board.fives[a]
        if len(fives) >= 2:
            return [move, min(fives), max(fives)]
        if len(fives) == 1:
            replies = list(fives)
        elif board.wins[a]:
            if self.vcf(d, vcf_fours, self._vcf_nodes()) is not None:
                return None
            replies = sorted(board.wins[a] | board.fours[a] | board.fours[d])
        else:
            return None
        longest: list[int] | None = None
        for reply in replies:
            board.play(reply, d)
            line = None if board.is_win(reply, d) else self._vct(a, depth - 1, vcf_fours)
            board.undo()
            if line is None:
                return None
            if longest is None or len(line) + 1 > len(longest):
                longest = [reply, *line]
        assert longest is not None
        return [move, *longest]
