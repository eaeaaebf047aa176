"""The Gomoku search's move ordering fitted to a strong engine's choices: positions from the engine's games
against itself, each with the move it played, and the cell worths that rank that move highest.

    .venv/bin/python bench/gomoku_order.py [--games tests/data/gomoku/rapfi-games.txt] [--write FILE]
    .venv/bin/python bench/gomoku_order.py --play PATH --seeds 1000 1400 [--nodes 20000] >> games.txt

At a quiet node (no five to make or to block, and no cell where either side makes an open four or two
fours, as after an open three) the search tries the empty cells near the stones in the order of
``ORDER_MINE`` times the cell's worth to the side to move plus ``ORDER_THEIRS`` times its worth to the
opponent, and only the first ``Style.width`` of them (see :func:`inarow.engines.gomoku.kernel._moves`). A
cell's worth sums a weight for the pattern kind it makes along each of its four lines, plus one for a
double threat and one for a double open three (:data:`inarow.engines.gomoku.board.WEIGHTS`). This script
fits those weights and the two factors by a conditional logit (Newton's method, a small ridge): the chance
that the engine plays a cell is proportional to the exponential of its ordering key, in logits. The last
fifth of the positions is held out. It prints, for the hand-set weights of before, for the weights in use
and for the fit, how often the engine's move is among the first 1, 3, 8, 12 and 16 cells of the order,
then the fitted weights and factors as the constants to paste.

The search reads its order from the evaluation's tables, by pattern code (see
:mod:`inarow.engines.gomoku.weights`); those in use hold the order above. With ``--write FILE`` it also fits
an order key for every code (:func:`fit_codes`: the order above times a fitted factor, plus a correction
a code for the side to move and one for the opponent, held small by a ridge), prints its recall as a last
row, and writes the tables in use with those keys to ``FILE`` (``bench/gomoku.py``'s ``perfect@N+FILE``
plays with them).

With ``--play PATH`` (a ``pbrain`` engine such as Rapfi's ``pbrain-rapfi``, run in its own folder) it
plays the engine against itself at ``--nodes`` nodes a move from the openings of seeds ``A`` to ``B - 1``
(``bench/gomoku.py``'s: 3 random stones in the central 5×5 square) and prints one game a line (move names).
"""

from __future__ import annotations

import argparse
import random
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from inarow.engines.gomoku import board, weights
from inarow.engines.gomoku.board import GomokuBoard
from inarow.engines.gomoku.driver import patterns
from inarow.engines.gomoku.patterns import B4, F3, F4
from inarow.engines.gomoku.weights import IN_USE, Tables
from inarow.play.match import play_game
from inarow.protocols.pbrain import player
from inarow.rules.game import Game, Position

GAMES = Path(__file__).resolve().parent.parent / "tests" / "data" / "gomoku" / "rapfi-games.txt"
"""Rapfi's games against itself (see the folder's README)."""

HAND_SET = ((0, 1, 3, 6, 20, 15, 90, 70, 600, 8000), 600, 250, 10, 9)
"""The weights, double-threat and double-three worths and the two sides' factors before the fit."""

FITTED = range(1, 8)
"""The pattern kinds whose weights are fitted: closed one … four (an open four and a five never occur on a
quiet node's cells, and keep their weights)."""

POINTS = 100
"""Worth points a logit of the fit."""

RIDGE = 1e-3
"""The ridge on the weights, per position."""

RANKS = (1, 3, 8, 12, 16)
"""The table counts how often the engine's move is among the order's first n cells for these n (12 is
the search's width, ``Style.width``)."""


def cells_of(board: GomokuBoard, side: int, cells: np.ndarray, table: np.ndarray) -> np.ndarray:
    """For each cell: how many of its lines make each pattern kind of :data:`FITTED` for ``side``, whether
    it is a double threat (two fours, or a four and an open three) and whether a double open three."""
    codes = np.array([[board.codes[d][i] for i in cells] for d in range(4)])
    kinds = table[side][codes]
    counts = np.stack([(kinds == k).sum(axis=0) for k in FITTED], axis=1)
    fours = (2 * (kinds == F4) + (kinds == B4)).sum(axis=0)
    threes = (kinds == F3).sum(axis=0)
    double = (fours >= 2) | ((fours > 0) & (threes > 0))
    return np.column_stack([counts, double, ~double & (threes >= 2)]).astype(float)


@dataclass
class Samples:
    """Quiet positions, every candidate cell a row: its features for the side to move (``mine``) and for
    the opponent (``theirs``), its pattern codes for each (``mine_codes``, ``theirs_codes``), the rows of
    each position from ``starts[k]`` on, and the row of the engine's move in each position (``chosen``)."""

    mine: np.ndarray
    theirs: np.ndarray
    mine_codes: np.ndarray
    theirs_codes: np.ndarray
    starts: np.ndarray
    chosen: np.ndarray

    def __len__(self) -> int:
        return len(self.starts)

    def split(self, k: int) -> tuple[Samples, Samples]:
        """The first ``k`` positions and the others."""
        cut = self.starts[k]
        head = Samples(
            self.mine[:cut],
            self.theirs[:cut],
            self.mine_codes[:cut],
            self.theirs_codes[:cut],
            self.starts[:k],
            self.chosen[:k],
        )
        rest = Samples(
            self.mine[cut:],
            self.theirs[cut:],
            self.mine_codes[cut:],
            self.theirs_codes[cut:],
            self.starts[k:] - cut,
            self.chosen[k:] - cut,
        )
        return head, rest


def read(path: Path, game: Game, games: slice = slice(None)) -> Samples:
    """The quiet positions of the games of ``path`` (those of the slice ``games``; after the three opening
    stones) whose engine's move is a candidate cell (see the module)."""
    table = patterns(game.exact)
    mine, theirs, mine_codes, theirs_codes, starts, chosen = [], [], [], [], [], []
    rows = 0
    for line in path.read_text().splitlines()[games]:
        board = GomokuBoard(game)
        for number, name in enumerate(line.split()):
            me = 1 + number % 2
            opp = 3 - me
            target = board.from_bit(game.parse_cell(name))
            quiet = not (board.fives[me] or board.fives[opp] or board.wins[me] or board.wins[opp])
            cells = sorted(board.candidates)
            if number >= 3 and quiet and target in cells:
                array = np.array(cells)
                mine.append(cells_of(board, me, array, table))
                theirs.append(cells_of(board, opp, array, table))
                mine_codes.append(np.array([board.code(i, me) for i in cells]))
                theirs_codes.append(np.array([board.code(i, opp) for i in cells]))
                starts.append(rows)
                chosen.append(rows + cells.index(target))
                rows += len(cells)
            board.play(target, me)
    return Samples(
        np.concatenate(mine),
        np.concatenate(theirs),
        np.concatenate(mine_codes),
        np.concatenate(theirs_codes),
        np.array(starts),
        np.array(chosen),
    )


def recall(samples: Samples, weights: np.ndarray, mine: int, theirs: int) -> list[float]:
    """How often the engine's move is among the first ``n`` cells of the order, for each ``n`` of
    :data:`RANKS` (ties in board order, as the search breaks them)."""
    return ranked((mine * samples.mine + theirs * samples.theirs) @ weights, samples)


def table_recall(samples: Samples, tables: Tables) -> list[float]:
    """:func:`recall` of the order keys of ``tables`` (see :mod:`inarow.engines.gomoku.weights`)."""
    mine = np.array(tables.order_mine)[samples.mine_codes]
    return ranked(mine + np.array(tables.order_theirs)[samples.theirs_codes], samples)


def ranked(key: np.ndarray, samples: Samples) -> list[float]:
    """How often the engine's move is among the first ``n`` cells by ``key`` (a row a candidate)."""
    position = np.repeat(np.arange(len(samples)), np.diff(np.append(samples.starts, len(key))))
    target = key[samples.chosen][position]
    row = np.arange(len(key))
    ahead = (key > target) | ((key == target) & (row < samples.chosen[position]))
    ranks = np.bincount(position, weights=ahead, minlength=len(samples))
    return [float(np.mean(ranks < n)) for n in RANKS]


def loglikelihood(x: np.ndarray, samples: Samples, w: np.ndarray) -> tuple[float, np.ndarray]:
    """The conditional logit's mean log-likelihood of the engine's moves with the features ``x`` (a row a
    candidate) less the ridge, and each candidate's chance."""
    z = x @ w
    top = np.maximum.reduceat(z, samples.starts)
    lengths = np.diff(np.append(samples.starts, len(z)))
    e = np.exp(z - np.repeat(top, lengths))
    total = np.add.reduceat(e, samples.starts)
    p = e / np.repeat(total, lengths)
    value = float(np.mean(z[samples.chosen] - top - np.log(total)))
    return value - RIDGE * float(w @ w) / 2, p


def fit(x: np.ndarray, samples: Samples) -> np.ndarray:
    """The weights (in logits) of the features ``x`` that maximise :func:`loglikelihood`, by Newton's
    method with a backtracking step."""
    n, dim = len(samples), x.shape[1]
    w = np.zeros(dim)
    current, p = loglikelihood(x, samples, w)
    for _ in range(100):
        means = np.add.reduceat(x * p[:, None], samples.starts)
        gradient = (x[samples.chosen].sum(axis=0) - means.sum(axis=0)) / n - RIDGE * w
        hessian = -((x * p[:, None]).T @ x - means.T @ means) / n - RIDGE * np.eye(dim)
        step = -np.linalg.solve(hessian, gradient)
        size = 1.0
        trial, q = loglikelihood(x, samples, w + step)
        while trial < current and size > 1e-6:
            size /= 2
            trial, q = loglikelihood(x, samples, w + size * step)
        w, p = w + size * step, q
        if trial - current < 1e-12:
            break
        current = trial
    return w


CODE_RIDGE = 1e-4
"""The ridge on each code's correction to the lines order's keys, per position and squared logit."""

CODE_POINTS = 1000
"""Order-key points a logit of the codes' fit."""


def fit_codes(samples: Samples, evaluation: Tables, ridge: float = CODE_RIDGE) -> Tables:
    """``evaluation`` with order keys fitted by code: the lines order's keys
    (:func:`inarow.engines.gomoku.board.lines_order`) times a fitted factor plus a correction for each code
    seen (for the side to move and for the opponent), the corrections held small
    by ``ridge``, maximising the conditional logit's likelihood by Newton's method with a backtracking step
    (the Hessian built from the features' few nonzeros: a candidate has one code a side)."""
    used = np.unique(np.concatenate([samples.mine_codes, samples.theirs_codes]))
    index = np.zeros(weights.CODES, dtype=np.int64)
    index[used] = np.arange(len(used))
    u, n = len(used), len(samples)
    mine, theirs = 1 + index[samples.mine_codes], 1 + u + index[samples.theirs_codes]
    base_mine, base_theirs = np.zeros(weights.CODES), np.zeros(weights.CODES)
    for code, (key_mine, key_theirs) in board.lines_order().items():
        base_mine[code], base_theirs[code] = key_mine / (CODE_POINTS * 10), key_theirs / (CODE_POINTS * 10)
    scale = base_mine[samples.mine_codes] + base_theirs[samples.theirs_codes]
    lengths = np.diff(np.append(samples.starts, len(scale)))
    position = np.repeat(np.arange(n), lengths)
    dim = 1 + 2 * u
    penalty = np.full(dim, ridge)
    penalty[0] = 1e-9

    def logits(w: np.ndarray) -> np.ndarray:
        return np.asarray(w[0] * scale + w[mine] + w[theirs])

    def likelihood(w: np.ndarray) -> tuple[float, np.ndarray]:
        z = logits(w)
        top = np.maximum.reduceat(z, samples.starts)
        e = np.exp(z - np.repeat(top, lengths))
        total = np.add.reduceat(e, samples.starts)
        p = e / np.repeat(total, lengths)
        value = float(np.mean(z[samples.chosen] - top - np.log(total)))
        return value - float(penalty @ (w * w)) / 2, p

    w = np.zeros(dim)
    w[0] = 1.0
    current, p = likelihood(w)
    # Each candidate's features: ``scale`` in column 0, 1 in its two code columns.
    features = list(
        zip(
            (np.zeros_like(mine), mine, theirs),
            (scale, np.ones_like(scale), np.ones_like(scale)),
            strict=True,
        )
    )
    picked = [(c[samples.chosen], v[samples.chosen]) for c, v in features]
    chosen = np.sum([np.bincount(c, v, dim) for c, v in picked], axis=0)
    for _ in range(50):
        expected = np.sum([np.bincount(c, p * v, dim) for c, v in features], axis=0)
        gradient = (chosen - expected) / n - penalty * w
        pairs = [(a * dim + b, p * va * vb) for a, va in features for b, vb in features]
        outer = np.sum([np.bincount(c, v, dim * dim) for c, v in pairs], axis=0).reshape(dim, dim)
        cells = [(position * dim + c, p * v) for c, v in features]
        means = np.sum([np.bincount(c, v, n * dim) for c, v in cells], axis=0).reshape(n, dim)
        hessian = -(outer - means.T @ means) / n - np.diag(penalty)
        step = -np.linalg.solve(hessian, gradient)
        size = 1.0
        trial, q = likelihood(w + step)
        while trial < current and size > 1e-6:
            size /= 2
            trial, q = likelihood(w + size * step)
        w, p = w + size * step, q
        if trial - current < 1e-9:
            break
        current = trial
    order_mine, order_theirs = base_mine * w[0], base_theirs * w[0]
    order_mine[used] += w[1 : 1 + u]
    order_theirs[used] += w[1 + u :]
    codes = {
        code: (*values[:2], round(order_mine[code] * CODE_POINTS), round(order_theirs[code] * CODE_POINTS))
        for code, values in evaluation.codes().items()
    }
    return Tables.from_codes(codes, evaluation.waiter_wins, evaluation.waiter_fours)


RATIOS = ((1, 1), (10, 9), (5, 4), (4, 3), (3, 2), (2, 1))
"""The pairs of factors (``ORDER_MINE``, ``ORDER_THEIRS``) tried: the fit keeps the likeliest."""


def best_fit(samples: Samples) -> tuple[np.ndarray, int, int]:
    """The likeliest weights (in worth points, :data:`POINTS` a logit) and factors, every kind's weight
    at least 0 (a line's worth is packed unsigned, see :func:`inarow.engines.gomoku.board._contribution`):
    a kind fitted below 0 is held at 0 and the others fitted again."""
    best: tuple[float, np.ndarray, int, int] | None = None
    for mine, theirs in RATIOS:
        x = samples.mine + theirs / mine * samples.theirs
        free = list(range(x.shape[1]))
        while True:
            w = np.zeros(x.shape[1])
            w[free] = fit(x[:, free], samples)
            negative = [k for k in free if k < len(FITTED) and w[k] < 0]
            if not negative:
                break
            free = [k for k in free if k not in negative]
        likelihood, _ = loglikelihood(x, samples, w)
        if best is None or likelihood > best[0]:
            best = (likelihood, w * POINTS, mine, theirs)
    assert best is not None
    return best[1], best[2], best[3]


def weights_of(kinds: tuple[int, ...], double: int, double_three: int) -> np.ndarray:
    """The weights of :data:`FITTED` and the two doubles, in the order of the features."""
    return np.array([*(kinds[k] for k in FITTED), double, double_three], dtype=float)


def in_use() -> tuple[np.ndarray, int, int]:
    """The weights and factors the search orders its moves by."""
    g = board
    return weights_of(g.WEIGHTS, g.DOUBLE_THREAT, g.DOUBLE_THREE), g.ORDER_MINE, g.ORDER_THEIRS


def play(engine: str, seeds: range, nodes: int) -> None:
    """Print the engine's games against itself from the openings of ``seeds`` (see the module)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from gomoku import opening  # bench/gomoku.py, beside this script

    game = Game.parse("gomoku")
    name = f"pbrain:{Path(engine).resolve()}:nodes={nodes}:time=0"
    black, white = player(name), player(name)
    for seed in seeds:
        start = opening(game, 3, random.Random(seed * 1_000_003))
        _, moves = play_game(game, black, white, random.Random(0), start=start)
        print(" ".join(game.cell_name(bit) for bit in (*opening_moves(start), *moves)), flush=True)


def opening_moves(start: Position) -> list[int]:
    """The three stones of ``start`` (an opening of ``bench/gomoku.py``) as moves: X, O, X."""
    stones = [[b for b in range(start.game.cells) if side >> b & 1] for side in (start.x, start.o)]
    return [stones[0][0], stones[1][0], stones[0][1]]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=Path, default=GAMES)
    parser.add_argument("--play", metavar="PATH", help="a pbrain engine: print its games against itself")
    parser.add_argument("--seeds", type=int, nargs=2, metavar=("A", "B"), default=(1000, 1400))
    parser.add_argument("--nodes", type=int, default=20_000)
    parser.add_argument("--write", type=Path, metavar="FILE", help="fit order keys by code, write the tables")
    args = parser.parse_args()
    if args.play:
        play(args.play, range(*args.seeds), args.nodes)
        return
    samples = read(args.games, Game.parse("gomoku"))
    held = len(samples) * 4 // 5
    fitted, rest = samples.split(held)
    weights, mine, theirs = best_fit(fitted)
    hand = HAND_SET
    print(f"{len(samples)} quiet positions, {held} fitted, {len(samples) - held} held out")
    print("| order | " + " | ".join(f"first {n}" for n in RANKS) + " |")
    print("|---|" + "---|" * len(RANKS))
    for name, (w, m, t) in (
        ("hand-set", (weights_of(hand[0], hand[1], hand[2]), hand[3], hand[4])),
        ("in use", in_use()),
        ("fitted", (weights, mine, theirs)),
    ):
        shares = recall(rest, w, m, t)
        print(f"| {name} ({m}:{t}) | " + " | ".join(f"{share:.3f}" for share in shares) + " |")
    if args.write:
        coded = fit_codes(fitted, IN_USE)
        shares = table_recall(rest, coded)
        print("| fitted by code | " + " | ".join(f"{share:.3f}" for share in shares) + " |")
        about = {
            "evaluation": "the lines evaluation (bench/gomoku_fit.py LINES)",
            "order": "fitted by code to Rapfi's moves (bench/gomoku_order.py --write)",
            "games": args.games.name,
            "positions": len(samples),
            "fitted on": held,
            "ridge on the codes' corrections": CODE_RIDGE,
        }
        coded.write(args.write, about)
    points = [round(v) for v in weights]
    kinds = list(board.WEIGHTS)
    for k, v in zip(FITTED, points, strict=False):
        kinds[k] = v
    print("WEIGHTS =", tuple(kinds))
    print("DOUBLE_THREAT, DOUBLE_THREE =", points[-2], points[-1])
    print("ORDER_MINE, ORDER_THEIRS =", mine, theirs)


if __name__ == "__main__":
    main()
