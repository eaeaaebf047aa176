"""easyAI solving tic-tac-toe, the way its documentation solves a game: ``solve_with_iterative_deepening``
on easyAI's own ``TicTacToe`` example, Negamax with α-β and a transposition table, depths 2 to 9 (the game
is a draw, so no depth reaches the win score and every depth is searched). easyAI's example game has no
``ttentry``, which its documentation asks a game to define for the table: the subclass below adds it.

    .venv/bin/python bench/easyai_tictactoe.py

Prints ``draw`` (or who wins) and the first move easyAI would play. ``bench/startup.py`` runs it as a whole
process beside ``inarow solve``. easyAI comes with the ``bench`` extra: ``pip install -e '.[bench]'``.
"""

from __future__ import annotations

from easyAI import AI_Player, TranspositionTable, solve_with_iterative_deepening
from easyAI.games import TicTacToe

WIN_SCORE = 100
"""easyAI's TicTacToe scores a lost position -100."""


class TableTicTacToe(TicTacToe):  # type: ignore[misc]  # easyAI is untyped
    """easyAI's TicTacToe with the ``ttentry`` its transposition table reads: the board and who moves."""

    def ttentry(self) -> tuple[int, ...]:
        return (*self.board, self.current_player)


def main() -> None:
    game = TableTicTacToe([AI_Player(None), AI_Player(None)])
    result, depth, move = solve_with_iterative_deepening(
        game, ai_depths=range(2, 10), win_score=WIN_SCORE, tt=TranspositionTable(), verbose=False
    )
    verdict = {1: "first player wins", 0: "draw", -1: "second player wins"}[result]
    print(f"{verdict} (searched to depth {depth}); easyAI's first move: {move}")


if __name__ == "__main__":
    main()
