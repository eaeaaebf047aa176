"""Some of the engine tests' positions searched by the compiled kernels, one JSON line each: run by
tests/test_invariants.py twice, with the kernels' asserts on (:data:`inarow.engines.compiling.CHECKS_VARIABLE`
set) and off, whose answers must agree. Connect Four: the first lines of two of Pons' test sets, solved
exactly; Gomoku: three middle games within a node budget and a VCF, with the root's compiled threat
searches."""

from __future__ import annotations

import json
from pathlib import Path

from inarow.engines import compiling
from inarow.engines.exact.compiled import CompiledEngine
from inarow.engines.gomoku import driver, kernel
from inarow.engines.gomoku.search import GomokuSearch, Style
from inarow.engines.limits import Budget, Limits
from inarow.rules.game import Game, Position
from inarow.rules.notation import parse_position

DATA = Path(__file__).parent / "data" / "connect4"
CONNECT4_LINES = {"Test_L3_R1": 6, "Test_L2_R2": 2}
GOMOKU_GAMES = ("h8 h9 i8", "h8 i9 h10 j8", "g7 h8 i9 h9 h10 i8 g8")
GOMOKU_NODES = 3000
VCF = "..o....../........./........./.o.x..o../.ox..x.../..o.x..x./.....x.ox/...o...../o...x.ox."
"""tests/test_gomoku.py's VCF of 4 fours, x to move."""


def main() -> None:
    print(json.dumps({"checked": compiling.checking(), "gomoku": bool(kernel.DEBUG)}))
    connect4 = Game.parse("connect4")
    for name, count in CONNECT4_LINES.items():
        for line in (DATA / name).read_text().splitlines()[:count]:
            moves, expected = line.split()
            position = Position.start(connect4)
            for digit in moves:
                position = position.play(digit)
            budget = Budget()
            score = CompiledEngine(connect4, budget, fresh=True).solve(*position.sides())
            print(
                json.dumps(
                    {"connect4": moves, "score": score, "expected": int(expected), "nodes": budget.nodes}
                )
            )
    driver.warm_up()
    for moves in GOMOKU_GAMES:
        position = parse_position(moves, "gomoku")
        driver.forget()
        found = GomokuSearch(position.game, Budget(Limits(nodes=GOMOKU_NODES)), Style()).run(position)
        print(json.dumps({"gomoku": moves, "value": found.value, "pv": found.pv, "nodes": found.nodes}))
    position = parse_position(VCF, "9x9:5")
    found = GomokuSearch(position.game, Budget(Limits(nodes=GOMOKU_NODES)), Style()).run(position)
    print(json.dumps({"vcf": found.reason, "value": found.value, "pv": found.pv}))
    board = driver.CompiledBoard(Game.parse("gomoku"), [])
    cell = int(board.board[112])
    kernel.place(cell, 1, 1, board.arrays)
    try:
        kernel.place(cell, 2, 1, board.arrays)  # a stone on a taken cell
        refused = False
    except AssertionError:
        refused = True
    print(json.dumps({"a stone on a taken cell refused": refused}))


if __name__ == "__main__":
    main()
