"""The Gomoku evaluation trained on a strong engine's verdicts: positions from games, each labelled with the
engine's evaluation, and the tables of :mod:`inarow.engines.gomoku.weights` that predict them best.

    .venv/bin/python bench/gomoku_fit.py [--labels FILE ...] [--write FILE]
    .venv/bin/python bench/gomoku_fit.py --label PATH --games FILE [--nodes 20000] > more-labels.txt
    .venv/bin/python bench/gomoku_fit.py --save-features tests/data/gomoku/rapfi-features.npz
    .venv/bin/python bench/gomoku_fit.py --lines FILE

The evaluation reads each empty cell's pattern code (the four pattern kinds the cell makes, one a line) in
two tables, its worth to the side to move and to the side that waits, and adds two terms when the side that
waits has a winning threat or a four to make: 2 × 715 + 2 weights. This script fits them by logistic
regression (Newton's method): the side to move's win rate ``1 / (1 + exp(-e / UNIT))`` against the
labelling engine's, ``1 / (1 + exp(-label / ENGINE_SCALE))`` (Rapfi's scaling factor). A code's weight is
that of a *lines* evaluation (a weight a pattern kind a line and one a double threat, the form of
:data:`LINES`, inarow's evaluation until 2026-11-29), fitted with it, plus a correction of its own held
small by a ridge, so that a code seldom seen is worth about what its lines say. Only the positions the
evaluation is asked about are used: no five to make or to block, no winning threat for the side to move.
The last fifth of the positions (whole games) is held out. It prints the cross-entropy of the lines, of
the tables in use and of the fit; with ``--write FILE`` it writes the fit to ``FILE`` as tables, with
where it came from (``bench/gomoku.py``'s ``perfect@N+FILE`` plays with them; the tables in use are
``src/inarow/engines/gomoku/evaluation.json``). The fit is deterministic: the same labels give the same
tables.

With ``--save-features FILE`` it writes the features and targets of the labels files instead (what the
tests refit, where reading the positions takes a while). With ``--lines FILE`` it writes the lines
evaluation as tables (the *before* of a side-by-side match: ``bench/gomoku.py``'s ``perfect@N+FILE``).

With ``--label PATH`` (a ``pbrain`` engine such as Rapfi's ``pbrain-rapfi``, run in its own folder) it
labels instead: ``FILE`` holds one game a line (move names), and every position of every game is written
out with the engine's evaluation at ``--nodes`` nodes, the format of the labels file.
"""

from __future__ import annotations

import argparse
import math
import queue
import re
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np

from inarow.engines.gomoku import weights
from inarow.engines.gomoku.board import GomokuBoard, doubles
from inarow.engines.gomoku.weights import Tables
from inarow.rules.game import Game, Position

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "gomoku"
LABELS = (DATA / "rapfi-labels.txt", DATA / "rapfi-game-labels.txt")
"""Rapfi's verdicts on positions of its games against inarow and against itself (see their README)."""

FEATURES = DATA / "rapfi-features.npz"
"""The features (``x``, counts, as a sparse matrix's rows) and target win rates (``y``) of :data:`LABELS`'
quiet positions, as :func:`read` gives them (written by ``--save-features``)."""

UNIT = 4000
"""Evaluation points a logit of win rate is worth."""

ENGINE_SCALE = 200
"""The labelling engine's points a logit (Rapfi's ``ScalingFactor``)."""

CLAMP = 3000
"""Labels are clamped to this many of the engine's points (a found win counts as a sure one)."""

RIDGE = 0.03
"""The ridge on each code's correction to the lines, per position and squared logit (the best of 0.001,
0.003, 0.01, 0.03 and 0.1 on the held-out fifth)."""

TINY = 1e-6
"""The ridge on the lines' own weights (enough to keep Newton's steps defined)."""

STALL = 10.0
"""Seconds without a line after which the labelling engine is taken to have stalled."""

LINES: tuple[int, ...] = (
    *(6, -13, 78, 233, 536, 1070, 1940, 0, 0, 5230, -2221),
    *(-2, 23, -61, -268, -422, -1166, -2490, 504, 0, -5347, -757),
    *(-952, 2633),
)
"""The lines evaluation, inarow's until 2026-11-29 (fitted to ``rapfi-labels.txt`` on 2026-11-24), in the
order of :func:`structure`'s columns: a weight a pattern kind a line (closed one … five) for a cell of the
side to move, one for a cell that makes two fours or a four and an open three and one for two open threes;
the same for a cell of the side that waits; and the waiting side's two threat terms."""

CODES = sorted(weights.every_code())
"""Every pattern code, in the order of the features."""

COLUMN = {code: n for n, code in enumerate(CODES)}
"""A code's column among the features (the side to move's; the waiting side's come after)."""


def structure() -> np.ndarray:
    """The lines evaluation's weights (:data:`LINES`' order) as code weights (the features' order): row
    ``k`` of the result says how much each of them adds to feature ``k``'s weight."""
    n, codes = len(CODES), weights.every_code()
    matrix = np.zeros((2 * n + 2, len(LINES)))
    for k, code in enumerate(CODES):
        kinds = codes[code]
        threat, double_three = doubles(kinds)
        for row, offset in ((k, 0), (n + k, 11)):
            for kind in kinds:
                if kind:
                    matrix[row, offset + kind - 1] += 1
            matrix[row, offset + 9] = threat
            matrix[row, offset + 10] = double_three
    matrix[2 * n, 22] = matrix[2 * n + 1, 23] = 1
    return matrix


def lines() -> Tables:
    """The lines evaluation (:data:`LINES`) as tables, with the order keys in use (so that a side-by-side
    match of two evaluations orders moves alike)."""
    return tables(structure() @ np.array(LINES) / UNIT)


def vector(tables: Tables) -> np.ndarray:
    """The weights of ``tables`` in the order of the features, in logits."""
    mover = [tables.mover[code] for code in CODES]
    waiter = [tables.waiter[code] for code in CODES]
    return np.array([*mover, *waiter, tables.waiter_wins, tables.waiter_fours], dtype=float) / UNIT


def tables(w: np.ndarray) -> Tables:
    """The tables of fitted weights ``w`` (logits), rounded to points, with the order keys in use."""
    points = [round(v * UNIT) for v in w]
    n, use = len(CODES), weights.IN_USE
    worths = {
        code: (points[k], points[n + k], use.order_mine[code], use.order_theirs[code])
        for k, code in enumerate(CODES)
    }
    return Tables.from_codes(worths, points[-2], points[-1])


def features(board: GomokuBoard, mover: int) -> np.ndarray | None:
    """The evaluation's features of ``board`` for ``mover`` (1 or 2), to move, or None when it is not
    quiet: each code's count among the empty cells for the side to move, then for the side that waits, then
    whether the side that waits has a winning threat and a four to make."""
    waiter = 3 - mover
    if board.fives[1] or board.fives[2] or board.wins[mover]:
        return None
    row = np.zeros(2 * len(CODES) + 2)
    for offset, side in ((0, mover), (len(CODES), waiter)):
        for i in board.board_cells:
            if not board.cells[i]:
                row[offset + COLUMN[board.code(i, side)]] += 1
    row[-2] = bool(board.wins[waiter])
    row[-1] = bool(board.fours[waiter])
    return row


def cross_entropy(z: np.ndarray, y: np.ndarray) -> float:
    p = np.clip(1 / (1 + np.exp(-np.clip(z, -50, 50))), 1e-9, 1 - 1e-9)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def fit(x: np.ndarray, y: np.ndarray, ridge: float = RIDGE) -> np.ndarray:
    """The code weights (in logits) of the best lines evaluation plus a correction a code, minimising the
    cross-entropy plus ``ridge`` times the corrections' squares (and :data:`TINY` times the lines'), by
    Newton's method."""
    lines_of = structure()
    design = np.hstack([x @ lines_of, x])
    penalty = np.concatenate([np.full(lines_of.shape[1], TINY), np.full(x.shape[1], ridge)])
    w = np.zeros(design.shape[1])
    for _ in range(100):
        p = 1 / (1 + np.exp(-np.clip(design @ w, -50, 50)))
        gradient = design.T @ (p - y) / len(y) + penalty * w
        hessian = (design.T * (p * (1 - p))) @ design / len(y) + np.diag(penalty)
        step = np.linalg.solve(hessian, gradient)
        w -= step
        if np.max(np.abs(step)) < 1e-10:
            break
    return np.asarray(lines_of @ w[: lines_of.shape[1]] + w[lines_of.shape[1] :])


def read(paths: tuple[Path, ...], game: Game) -> tuple[np.ndarray, np.ndarray]:
    """The features and target win rates of the quiet positions of labels files (a line's moves extend
    the line before's within a game, so the board follows them)."""
    rows, targets = [], []
    for path in paths:
        board, played = GomokuBoard(game), list[str]()
        position = Position.start(game)
        for line in path.read_text().splitlines():
            names, label = line.split("\t")
            moves = names.split()
            if moves[: len(played)] != played or not played:
                board, played, position = GomokuBoard(game), [], Position.start(game)
            for name in moves[len(played) :]:
                bit = position.move_bit(name)
                board.play(board.from_bit(bit), 1 if position.turn == "x" else 2)
                position = position.play(bit)
            played = moves
            row = None if position.is_over else features(board, 1 if position.turn == "x" else 2)
            if row is not None:
                rows.append(row)
                targets.append(1 / (1 + math.exp(-max(-CLAMP, min(CLAMP, int(label))) / ENGINE_SCALE)))
    return np.array(rows), np.array(targets)


def held_out(y: np.ndarray) -> int:
    """Where the held-out last fifth of the positions begins."""
    return len(y) * 4 // 5


def save(path: Path, x: np.ndarray, y: np.ndarray) -> None:
    """Write features and targets compactly: each row's nonzero columns and counts."""
    rows, columns = np.nonzero(x)
    np.savez_compressed(
        path,
        rows=rows.astype(np.int32),
        columns=columns.astype(np.int16),
        counts=x[rows, columns].astype(np.int16),
        shape=np.array(x.shape),
        y=y,
    )


def load(path: Path) -> tuple[np.ndarray, np.ndarray]:
    """The features and targets written by :func:`save`."""
    with np.load(path) as saved:
        x = np.zeros(tuple(saved["shape"]))
        x[saved["rows"], saved["columns"]] = saved["counts"]
        return x, saved["y"]


class Oracle:
    """A ``pbrain`` engine (run in its own folder) asked for its evaluation of positions, at ``nodes`` nodes
    each, freestyle, no time limit. An engine silent for :data:`STALL` seconds is started afresh and the
    position asked again (Rapfi, its table filled by earlier positions, sometimes ends a search at a found
    win without answering)."""

    def __init__(self, engine: str, nodes: int) -> None:
        self.path, self.nodes = Path(engine).resolve(), nodes
        self.game = Game.parse("gomoku")
        self._start()

    def _start(self) -> None:
        self.process = subprocess.Popen(
            [str(self.path)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd=self.path.parent,
            bufsize=1,
        )
        self.lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._pump, args=(self.process, self.lines), daemon=True).start()
        self.send("START 15")
        while "OK" not in self.read():
            pass
        self.send("INFO rule 0\nINFO timeout_turn 0\nINFO timeout_match 0")
        self.send(f"INFO MAX_NODE {self.nodes}")

    @staticmethod
    def _pump(process: subprocess.Popen[str], lines: queue.Queue[str]) -> None:
        assert process.stdout is not None
        for line in process.stdout:
            lines.put(line)
        lines.put("")

    def send(self, text: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(text + "\n")
        self.process.stdin.flush()

    def read(self) -> str:
        """The engine's next line ("" once it has ended); :class:`queue.Empty` after :data:`STALL` s."""
        return self.lines.get(timeout=STALL)

    def verdict(self, moves: list[str]) -> int | None:
        """The engine's evaluation of the position after ``moves`` (move names, from the empty board) for
        the side to move, in its points (a found win or loss ±20,000), or None if it gave none."""
        for _ in range(2):
            try:
                return self._ask(moves)
            except queue.Empty:
                self.process.kill()
                self.process.wait()
                self._start()
        return None

    def _ask(self, moves: list[str]) -> int | None:
        game, length = self.game, len(moves)
        position = Position.start(game)
        lines = ["BOARD"]
        for number, name in enumerate(moves):
            column, row = game.coordinates(position.move_bit(name))
            position = position.play(position.move_bit(name))
            lines.append(f"{column},{game.rows - 1 - row},{1 if number % 2 == length % 2 else 2}")
        self.send("\n".join([*lines, "DONE"]))
        verdict = None
        while True:
            answer = self.read().strip()
            found = re.search(r"Eval (-?)(M?)(\d+)", answer)
            if found:
                verdict = (-20000 if found[1] else 20000) if found[2] else int(found[1] + found[3])
            if re.fullmatch(r"\d+,\d+", answer) or (not answer and self.process.poll() is not None):
                return verdict

    def close(self) -> None:
        self.send("END")
        self.process.wait(10)


def label(engine: str, games: Path, nodes: int) -> None:
    """Print every position of the games in ``games`` with the engine's evaluation (see the module)."""
    oracle, seen = Oracle(engine, nodes), set()
    for line in games.read_text().splitlines():
        names = line.split()
        for length in range(3, len(names)):
            moves = names[:length]
            key = (frozenset(moves[length % 2 :: 2]), frozenset(moves[1 - length % 2 :: 2]))
            if key in seen:
                continue
            seen.add(key)
            verdict = oracle.verdict(moves)
            if verdict is not None:
                print(" ".join(moves) + "\t" + str(verdict), flush=True)
    oracle.close()


def report(x: np.ndarray, y: np.ndarray, w: np.ndarray) -> None:
    """Print the cross-entropies of the lines, the tables in use and the fit ``w``."""
    held = held_out(y)
    print(f"{len(y)} quiet positions, {held} fitted, {len(y) - held} held out")
    print("| evaluation | cross-entropy, fitted part | held out |")
    print("|---|---|---|")
    logits = np.log(y / (1 - y))
    for name, z in (
        ("lines", x @ vector(lines())),
        ("tables in use", x @ vector(weights.IN_USE)),
        ("fitted", x @ w),
        ("the labels themselves", logits),
    ):
        fitted, held_back = cross_entropy(z[:held], y[:held]), cross_entropy(z[held:], y[held:])
        print(f"| {name} | {fitted:.4f} | {held_back:.4f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--labels", type=Path, nargs="+", default=list(LABELS))
    parser.add_argument("--write", type=Path, metavar="FILE", help="write the fit as tables to FILE")
    parser.add_argument("--ridge", type=float, default=RIDGE)
    parser.add_argument("--label", metavar="PATH", help="a pbrain engine: label the games of --games")
    parser.add_argument("--games", type=Path, help="one game a line, move names")
    parser.add_argument("--nodes", type=int, default=20_000)
    parser.add_argument("--save-features", type=Path, metavar="FILE", help="write the features and targets")
    parser.add_argument("--lines", type=Path, metavar="FILE", help="write the lines evaluation as tables")
    args = parser.parse_args()
    if args.lines:
        lines().write(args.lines, {"evaluation": "lines", "from": "bench/gomoku_fit.py LINES"})
        return
    if args.label:
        if args.games is None:
            sys.exit("--label needs --games FILE")
        label(args.label, args.games, args.nodes)
        return
    x, y = read(tuple(args.labels), Game.parse("gomoku"))
    if args.save_features:
        save(args.save_features, x, y)
        return
    w = fit(x[: held_out(y)], y[: held_out(y)], args.ridge)
    report(x, y, w)
    if args.write:
        about = {
            "evaluation": "pattern codes",
            "trained by": "bench/gomoku_fit.py --write",
            "labels": [str(path.relative_to(DATA.parent.parent.parent)) for path in args.labels],
            "positions": len(y),
            "fitted on": int(held_out(y)),
            "ridge on the codes' corrections": args.ridge,
        }
        tables(w).write(args.write, about)
        print(f"wrote {args.write}")


if __name__ == "__main__":
    main()
