"""The symmetries of a board, as permutations of cell bits applied to whole bitboards at once.

A square board without gravity has eight (rotations and reflections), a rectangle four, a gravity board
two (identity and the left-right mirror: gravity fixes which way is down).
"""

from __future__ import annotations

from functools import cache

from inarow.rules.game import Game

CHUNK = 8
"""Bits per lookup: a symmetry maps a bitboard one byte at a time through a table of 256 images."""


class Symmetries:
    """The symmetry group of one game's board; :meth:`apply` maps a bitboard through one symmetry."""

    def __init__(self, game: Game) -> None:
        self.game = game
        cols, rows = game.columns, game.rows
        maps: list[tuple[str, object]] = [("identity", lambda c, r: (c, r))]
        maps.append(("mirror", lambda c, r: (cols - 1 - c, r)))
        if not game.gravity:
            maps.append(("flip", lambda c, r: (c, rows - 1 - r)))
            maps.append(("rotate180", lambda c, r: (cols - 1 - c, rows - 1 - r)))
            if cols == rows:
                maps.append(("transpose", lambda c, r: (r, c)))
                maps.append(("antitranspose", lambda c, r: (cols - 1 - r, rows - 1 - c)))
                maps.append(("rotate90", lambda c, r: (r, cols - 1 - c)))
                maps.append(("rotate270", lambda c, r: (rows - 1 - r, c)))
        self.names = tuple(name for name, _ in maps)
        nbits = cols * game.height
        self._chunks = (nbits + CHUNK - 1) // CHUNK
        self.chunk_tables: list[list[list[int]]] = []
        """``chunk_tables[s][c][byte]``: the image under symmetry ``s`` of ``byte`` placed at chunk ``c``."""
        self.permutations: list[dict[int, int]] = []
        for _, f in maps:
            perm = {}
            for c in range(cols):
                for r in range(rows):
                    nc, nr = f(c, r)  # type: ignore[operator]
                    perm[game.bit(c, r)] = game.bit(nc, nr)
            self.permutations.append(perm)
            tables = []
            for chunk in range(self._chunks):
                # Each byte's image is the image of the byte without its lowest bit, plus that bit's image.
                table = [0] * (1 << CHUNK)
                for byte in range(1, 1 << CHUNK):
                    low = byte & -byte
                    bit = chunk * CHUNK + low.bit_length() - 1
                    table[byte] = table[byte ^ low] | (1 << perm[bit] if bit in perm else 0)
                tables.append(table)
            self.chunk_tables.append(tables)
        empty = [0] * (1 << CHUNK)
        self._pairs = [(tables[0], tables[1] if len(tables) > 1 else empty) for tables in self.chunk_tables]

    def __len__(self) -> int:
        return len(self.chunk_tables)

    def apply(self, index: int, mask: int) -> int:
        """``mask`` mapped through symmetry number ``index`` (0 is the identity)."""
        out = 0
        for chunk, table in enumerate(self.chunk_tables[index]):
            out |= table[(mask >> (chunk * CHUNK)) & 0xFF]
        return out

    def images(self, x: int, o: int) -> list[tuple[int, int]]:
        """``(x, o)`` under every symmetry, the identity first."""
        if self._chunks <= 2:
            x0, x1, o0, o1 = x & 0xFF, x >> CHUNK, o & 0xFF, o >> CHUNK
            return [(t0[x0] | t1[x1], t0[o0] | t1[o1]) for t0, t1 in self._pairs]
        return [(self.apply(i, x), self.apply(i, o)) for i in range(len(self.chunk_tables))]

    def canonical_key(self, x: int, o: int) -> int:
        """One integer shared by exactly the positions symmetric to ``(x, o)``: the least image, packed."""
        shift = self.game.columns * self.game.height
        if self._chunks <= 2:
            # Boards of up to 16 layout bits (3×3, 4×3): two lookups per bitboard, unrolled, as the
            # census of a small board asks this about every position it reaches.
            x0, x1, o0, o1 = x & 0xFF, x >> CHUNK, o & 0xFF, o >> CHUNK
            return min([(t0[x0] | t1[x1]) << shift | t0[o0] | t1[o1] for t0, t1 in self._pairs])
        best = -1
        for tables in self.chunk_tables:
            a = b = 0
            for chunk, table in enumerate(tables):
                a |= table[(x >> (chunk * CHUNK)) & 0xFF]
                b |= table[(o >> (chunk * CHUNK)) & 0xFF]
            key = a << shift | b
            if best < 0 or key < best:
                best = key
        return best

    def canonical(self, x: int, o: int) -> tuple[int, int]:
        """The least image of ``(x, o)``: equal for exactly the positions that are symmetric to each other."""
        shift = self.game.columns * self.game.height
        key = self.canonical_key(x, o)
        return key >> shift, key & ((1 << shift) - 1)


@cache
def symmetries(game: Game) -> Symmetries:
    """The (cached) symmetries of ``game``."""
    return Symmetries(game)
