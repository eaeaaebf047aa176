"""The Gomoku evaluation fitted to a strong engine's verdicts: positions from games, each labelled with the
engine's evaluation, and the weights of :mod:`inarow.engines.gomoku.board`'s evaluation that predict them
best.

    .venv/bin/python bench/gomoku_fit.py [--labels tests/data/gomoku/rapfi-labels.txt]
    .venv/bin/python bench/gomoku_fit.py --label PATH --games FILE [--nodes 20000] > more-labels.txt
    .venv/bin/python bench/gomoku_fit.py --save-features tests/data/gomoku/rapfi-features.npz

The evaluation (:meth:`inarow.engines.gomoku.board.GomokuBoard.evaluate`) is linear: every empty cell adds
a weight for each pattern kind it makes along each of its four lines and one for its double threat, with
one set of weights for the side to move's cells and one for the waiting side's, and two terms say whether
the waiting side has a winning threat or a four to make. This script fits those 24 weights by logistic
regression (Newton's method, a tiny ridge): the side to move's win rate ``1 / (1 + exp(-e / UNIT))``
against the labelling engine's, ``1 / (1 + exp(-label / ENGINE_SCALE))`` (Rapfi's scaling factor). Only the
positions the evaluation is asked about are used: no five to make or to block, no winning threat for the
side to move. The last fifth of the file is held out. It prints the cross-entropy of the evaluation in use
and of the fit, then the fitted weights, rounded, as the constants to paste.

With ``--save-features FILE`` it writes the features and targets of the labels file instead (what the
tests refit in a moment, where reading the positions takes a minute), after checking that the fit of the
labels is the evaluation in use.

With ``--label PATH`` (a ``pbrain`` engine such as Rapfi's ``pbrain-rapfi``, run in its own folder) it
labels instead: ``FILE`` holds one game a line (move names), and every position of every game is written
out with the engine's evaluation at ``--nodes`` nodes, the format of the labels file.
"""

from __future__ import annotations

import argparse
import math
import re
import subprocess
import sys
from pathlib import Path

import numpy as np

from inarow.engines.gomoku import board
from inarow.engines.gomoku.board import GomokuBoard
from inarow.engines.gomoku.patterns import B4, F3, F4, pattern
from inarow.rules.game import Game, Position

LABELS = Path(__file__).resolve().parent.parent / "tests" / "data" / "gomoku" / "rapfi-labels.txt"
"""Rapfi's verdicts on positions of its games against inarow and against itself (see its README)."""

FEATURES = LABELS.with_name("rapfi-features.npz")
"""The features (``x``, counts) and target win rates (``y``) of :data:`LABELS`' quiet positions, as
:func:`read` gives them (written by ``--save-features``)."""

UNIT = 4000
"""Evaluation points a logit of win rate is worth."""

ENGINE_SCALE = 200
"""The labelling engine's points a logit (Rapfi's ``ScalingFactor``)."""

CLAMP = 3000
"""Labels are clamped to this many of the engine's points (a found win counts as a sure one)."""

RIDGE = 1e-6
"""The ridge on the weights, per position."""

KINDS = 9
"""Pattern kinds with a weight of their own: closed one … five (kind 0, nothing, adds nothing)."""


def features(position: Position) -> np.ndarray | None:
    """The evaluation's features of ``position`` for its side to move, or None when it is not quiet."""
    board = GomokuBoard.from_position(position)
    mover = 1 if position.turn == "x" else 2
    waiter = 3 - mover
    if board.fives[1] or board.fives[2] or board.wins[mover]:
        return None
    row = np.zeros(2 * (KINDS + 2) + 2)
    for offset, side in ((0, mover), (KINDS + 2, waiter)):
        for i in board.board_cells:
            if board.cells[i]:
                continue
            kinds = [pattern(board.codes[d][i], side, board.exact) for d in range(4)]
            for kind in kinds:
                if kind:
                    row[offset + kind - 1] += 1
            fours = sum(2 if kind == F4 else 1 if kind == B4 else 0 for kind in kinds)
            threes = sum(kind == F3 for kind in kinds)
            if fours >= 2 or (fours and threes):
                row[offset + KINDS] += 1
            elif threes >= 2:
                row[offset + KINDS + 1] += 1
    row[-2] = bool(board.wins[waiter])
    row[-1] = bool(board.fours[waiter])
    return row


def in_use() -> np.ndarray:
    """The weights of the evaluation in use, in the order of :func:`features`."""
    g = board
    mover = [*g.MOVER_WEIGHTS[1:], g.MOVER_FOUR_THREE, g.MOVER_DOUBLE_THREE]
    waiter = [*g.WAITER_WEIGHTS[1:], g.WAITER_FOUR_THREE, g.WAITER_DOUBLE_THREE]
    return np.array([*mover, *waiter, g.WAITER_WINS, g.WAITER_FOURS], dtype=float)


def cross_entropy(z: np.ndarray, y: np.ndarray) -> float:
    p = np.clip(1 / (1 + np.exp(-np.clip(z, -50, 50))), 1e-9, 1 - 1e-9)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def fit(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """The weights (in logits) minimising the cross-entropy with the ridge, by Newton's method."""
    w = np.zeros(x.shape[1])
    ridge = RIDGE * np.eye(x.shape[1])
    for _ in range(100):
        p = 1 / (1 + np.exp(-np.clip(x @ w, -50, 50)))
        gradient = x.T @ (p - y) / len(y) + RIDGE * w
        hessian = (x.T * (p * (1 - p))) @ x / len(y) + ridge
        step = np.linalg.solve(hessian, gradient)
        w -= step
        if np.max(np.abs(step)) < 1e-10:
            break
    return w


def read(path: Path, game: Game) -> tuple[np.ndarray, np.ndarray]:
    """The features and target win rates of the quiet positions of a labels file."""
    rows, targets = [], []
    for line in path.read_text().splitlines():
        moves, label = line.split("\t")
        position = Position.start(game)
        for name in moves.split():
            position = position.play(position.move_bit(name))
        row = None if position.is_over else features(position)
        if row is not None:
            rows.append(row)
            targets.append(1 / (1 + math.exp(-max(-CLAMP, min(CLAMP, int(label))) / ENGINE_SCALE)))
    return np.array(rows), np.array(targets)


class Oracle:
    """A ``pbrain`` engine (run in its own folder) asked for its evaluation of positions, at ``nodes`` nodes
    each, freestyle, no time limit."""

    def __init__(self, engine: str, nodes: int) -> None:
        path = Path(engine).resolve()
        self.process = subprocess.Popen(
            [str(path)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=path.parent, bufsize=1
        )
        self.game = Game.parse("gomoku")
        self.send("START 15")
        while "OK" not in self.read():
            pass
        self.send("INFO rule 0\nINFO timeout_turn 0\nINFO timeout_match 0")
        self.send(f"INFO MAX_NODE {nodes}")

    def send(self, text: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(text + "\n")
        self.process.stdin.flush()

    def read(self) -> str:
        assert self.process.stdout is not None
        return self.process.stdout.readline()

    def verdict(self, moves: list[str]) -> int | None:
        """The engine's evaluation of the position after ``moves`` (move names, from the empty board) for
        the side to move, in its points (a found win or loss ±20,000), or None if it gave none."""
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--labels", type=Path, default=LABELS)
    parser.add_argument("--label", metavar="PATH", help="a pbrain engine: label the games of --games")
    parser.add_argument("--games", type=Path, help="one game a line, move names")
    parser.add_argument("--nodes", type=int, default=20_000)
    parser.add_argument("--save-features", type=Path, metavar="FILE", help="write the features and targets")
    args = parser.parse_args()
    if args.save_features:
        x, y = read(args.labels, Game.parse("gomoku"))
        held = len(y) * 4 // 5
        if [round(w * UNIT) for w in fit(x[:held], y[:held])] != list(in_use()):
            sys.exit("the fit of the labels is not the evaluation in use: fit it first")
        np.savez_compressed(args.save_features, x=x.astype(np.int16), y=y)
        return
    if args.label:
        if args.games is None:
            sys.exit("--label needs --games FILE")
        label(args.label, args.games, args.nodes)
        return
    x, y = read(args.labels, Game.parse("gomoku"))
    held = len(y) * 4 // 5
    w = fit(x[:held], y[:held])
    print(f"{len(y)} quiet positions, {held} fitted, {len(y) - held} held out")
    print("| evaluation | cross-entropy, fitted part | held out |")
    print("|---|---|---|")
    for name, z in (("in use", x @ in_use() / UNIT), ("fitted", x @ w)):
        print(
            f"| {name} | {cross_entropy(z[:held], y[:held]):.4f} | {cross_entropy(z[held:], y[held:]):.4f} |"
        )
    print(
        f"| the labels themselves | {cross_entropy(np.log(y / (1 - y))[:held], y[:held]):.4f} | "
        f"{cross_entropy(np.log(y / (1 - y))[held:], y[held:]):.4f} |"
    )
    points = [round(v * UNIT) for v in w]
    side = KINDS + 2
    print("MOVER_WEIGHTS =", (0, *points[:KINDS]))
    print("WAITER_WEIGHTS =", (0, *points[side : side + KINDS]))
    print("MOVER_FOUR_THREE, MOVER_DOUBLE_THREE =", points[KINDS], points[KINDS + 1])
    print("WAITER_FOUR_THREE, WAITER_DOUBLE_THREE =", points[side + KINDS], points[side + KINDS + 1])
    print("WAITER_WINS, WAITER_FOURS =", points[-2], points[-1])


if __name__ == "__main__":
    main()
