"""Results said in words, made from their fields: the one place where the sentences of the command line and of
the analysis JSON's ``description`` are written. The sentences the web page says too (a move's value, a
position's, a computer's note, a mistake…) are composed by :mod:`inarow.words.sentences`, from the table the
page reads as well; the others here. The sentences are looked up in the catalog of the current language
(:mod:`inarow.base.i18n`); the JSON's ``description`` is always English, so that programs read the same in
every language.

"Win in N" counts the moves of the side that wins: ``(plies + 1) // 2``.
"""

from __future__ import annotations

import math
import unicodedata
from dataclasses import asdict
from typing import TYPE_CHECKING

from inarow.base.errors import InarowError
from inarow.base.i18n import _, game_said, in_english, ngettext
from inarow.rules.game import Game, Result, Side
from inarow.values.answers import Analysis, AnalysisJSON, MoveNote, MoveValue, Outcome
from inarow.words.sentences import moves_of_winner, say

if TYPE_CHECKING:
    from inarow.engines.gomoku.analyst import Judgement, MistakeKind
    from inarow.values.store import Score


def move_value(outcome: Outcome | None, plies: int | None, score: int) -> str:
    """A move's value for the side that plays it: ``win in 3``, ``draw``, ``loss in 2``, ``win`` (a weak
    solve, without the distance), or ``eval +12`` when it is not exact (``sentences``: ``move_value``)."""
    return say("move_value", {"outcome": outcome, "plies": plies, "score": score})


def format_value(value: float | None) -> str:
    """A textbook search's value: ``+∞``, ``-∞``, ``+3``, ``-1``, ``0``, or ``·`` for none."""
    if value is None:
        return "·"
    if math.isinf(value):
        return "+∞" if value > 0 else "-∞"
    return f"{value:+g}" if value else "0"


def side_name(side: Side, game: Game | None = None) -> str:
    """A side as players name it: ``black`` (the side that moves first) or ``white`` in the Gomoku family
    (:attr:`~inarow.rules.game.Game.black_and_white`), else ``x`` or ``o``."""
    if game is not None and game.black_and_white:
        return _("black") if side == game.first else _("white")
    return side


def finished(result: Result, game: Game | None = None) -> str:
    """How a finished game ended: ``x has won`` (``black has won`` in the Gomoku family) or ``draw``."""
    return _("draw") if result == "draw" else _("{side} has won").format(side=side_name(result, game))


def game_result(result: Result | None, game: Game | None = None) -> str:
    """A game of a match: ``x wins`` (``white wins`` in the Gomoku family), ``draw``, or ``unfinished``."""
    if result is None:
        return _("unfinished")
    return _("draw") if result == "draw" else _("{side} wins").format(side=side_name(result, game))


def textbook_value(
    algorithm: str, depth: int | None, evaluation: str, value: float | None, side: Side
) -> str:
    """The backed-up value of a textbook search: ``minimax to depth 2 with open-lines: +1 for x``, or
    ``minimax to the end with open-lines: 0 for x``."""
    if depth is None:
        said = _("{algorithm} to the end with {evaluation}: {value} for {side}")
    else:
        said = _("{algorithm} to depth {depth} with {evaluation}: {value} for {side}")
    return said.format(
        algorithm=algorithm, depth=depth, evaluation=evaluation, value=format_value(value), side=side
    )


def textbook_exactness(exact: bool) -> str:
    """Whether a textbook search's values are exact: ``exact: searched to the end`` or ``not exact:
    depth-limited``."""
    return _("exact: searched to the end") if exact else _("not exact: depth-limited")


def textbook_nodes(nodes: int, algorithm: str, move_nodes: int) -> str:
    """What ``inarow analyze --algo`` counted: ``36 (one alphabeta search of the whole tree, root
    included, as tree and compare count; each move's value took 82 nodes, every move with a full
    window)``."""
    said = _(
        "{nodes} (one {algorithm} search of the whole tree, root included, as tree and compare count; each "
        "move's own value took {move_nodes} nodes, every move searched with a full window)"
    )
    return said.format(nodes=f"{nodes:,}", algorithm=algorithm, move_nodes=f"{move_nodes:,}")


def comparison_value(value: float | None, proven: bool, engine_evaluation: int | None) -> str:
    """A value of the comparison table: ``+1``, ``-∞``, ``0 (a draw)``, ``+∞ (proven)``, or the engine's
    ``eval +12 (its scale)``."""
    if engine_evaluation is not None:
        return _("eval {score} (its scale)").format(score=f"{engine_evaluation:+d}")
    if value is None:
        return ""
    if not proven:
        return format_value(value)
    said = _("{value} (a draw)") if value == 0 else _("{value} (proven)")
    return said.format(value=format_value(value))


def analysis(
    *,
    result: Result | None,
    winner: Side | None,
    exact: bool,
    plies: int | None,
    score: int | None,
    depth: int | None,
    game: Game | None = None,
    proof: str | None = None,
) -> str:
    """A position's value: ``x has won``, ``draw``, ``draw with best play``, ``x wins in 3 moves``,
    ``x wins with best play`` (a weak solve), or ``not solved: evaluation +3 at depth 7``; the sides are
    black and white in the Gomoku family (``game``), and a win proven by a threat sequence says so:
    ``black wins in 7 moves: VCF`` (``sentences``: ``unsolved``, ``position_value``)."""
    if result is not None:
        return finished(result, game)
    if not exact:
        return say("unsolved", {"score": score, "depth": depth})
    side = None if winner is None else side_name(winner, game)
    return say("position_value", {"winner": side, "plies": plies, "proof": proof})


def percent(rate: float) -> str:
    """A win rate as a percentage: ``62%`` (``sentences``: ``percent``)."""
    return say("percent", {"rate": rate})


def best_move(*, outcome: Outcome | None, plies: int | None, score: int | None, depth: int | None) -> str:
    """Why ``inarow best`` plays its move: ``wins in 3 moves with best play``, ``draw with best play``,
    ``loses in 2 moves with best play``, or the depth it was found at when not solved."""
    if outcome is None:
        return _("best found at depth {depth} (evaluation {score}); not solved within the limits").format(
            depth=depth, score=f"{score or 0:+d}"
        )
    if outcome == "draw":
        return _("draw with best play")
    if plies is None:
        return _("wins with best play") if outcome == "win" else _("loses with best play")
    moves = moves_of_winner(plies)
    if outcome == "win":
        said = ngettext("wins in {moves} move with best play", "wins in {moves} moves with best play", moves)
    else:
        said = ngettext(
            "loses in {moves} move with best play", "loses in {moves} moves with best play", moves
        )
    return said.format(moves=moves)


def game_value(score: int) -> str:
    """The value of a whole game from its empty board: ``draw``, ``first player (x) wins``, …"""
    if score == 0:
        return _("draw")
    return _("first player (x) wins") if score > 0 else _("second player (o) wins")


def score(tally: Score) -> str:
    """A person's score: ``you 2 won · 1 drawn · 0 lost``."""
    return _("you {wins} won · {draws} drawn · {losses} lost").format(
        wins=tally.wins, draws=tally.draws, losses=tally.losses
    )


# ------------------------------------------------------------------------ the command line's own sentences
def position_heading(text: str, game: str | Game, to_move: Side | None) -> str:
    """The first line of an analysis: ``b2 a1 c3  (tictactoe, o to move)``; given the game itself, its side
    is named as its players name it (``white to move`` in the Gomoku family)."""
    shown = text or _("(empty board)")
    name = game if isinstance(game, str) else game_said(game.name)
    if to_move is None:
        return _("{position}  ({game}, game over)").format(position=shown, game=name)
    side = to_move if isinstance(game, str) else side_name(to_move, game)
    return _("{position}  ({game}, {side} to move)").format(position=shown, game=name, side=side)


def exactness(exact: bool, weak: bool) -> str:
    """Whether a value is proven: ``exact``, ``exact, win/draw/loss only`` (a weak solve) or ``not exact``
    (the value itself says how deep the search went)."""
    if not exact:
        return _("not exact")
    return _("exact, win/draw/loss only") if weak else _("exact")


def work(nodes: int, seconds: float, load_seconds: float) -> str:
    """What a search cost: ``32 positions in 0.001 s``, with the engine's loading apart when it was paid."""
    text = _("{nodes} positions in {seconds} s").format(nodes=f"{nodes:,}", seconds=f"{seconds:.3f}")
    if load_seconds:
        loading = _(" (and {seconds} s to load the compiled engine first)")
        text += loading.format(seconds=f"{load_seconds:.2f}")
    return text


def label(text: str, width: int = 8) -> str:
    """``text`` padded to ``width`` terminal columns (a Chinese character takes two), for the labels of the
    command line's answers: ``value   ``."""
    return text + " " * max(1, width - width_of(text))


def width_of(text: str) -> int:
    """How many terminal columns ``text`` takes: a wide character (Chinese) takes two, as Unicode's East Asian
    Width says."""
    return sum(2 if unicodedata.east_asian_width(char) in "WF" else 1 for char in text)


def loading_engine(compiling: bool) -> str:
    """The progress line while the compiled engine loads."""
    if compiling:
        return _("compiling the search engine: once per install, about 10 s…")
    return _("loading the search engine…")


def loading_gomoku(compiling: bool) -> str:
    """The progress line while the Gomoku engine's compiled search loads."""
    if compiling:
        return _("compiling the Gomoku search: once per install, about a minute…")
    return _("loading the compiled Gomoku search…")


def engine_compiled(seconds: float) -> str:
    """Said once, after numba compiled the engine on a first request."""
    said = _("compiled the search engine in {seconds} s; later starts load it in a fraction of a second")
    return said.format(seconds=f"{seconds:.1f}")


def engine_ready(seconds: float, compiled: bool, folder: str) -> str:
    """What ``inarow warm-up`` did."""
    if not seconds:
        return _("the compiled engine was already loaded")
    if compiled:
        said = _("compiled the search engine in {seconds} s; its machine code is kept in {folder}")
        return said.format(seconds=f"{seconds:.1f}", folder=folder)
    said = _("loaded the compiled search engine from {folder} in {seconds} s")
    return said.format(seconds=f"{seconds:.2f}", folder=folder)


def gomoku_engine_ready(seconds: float, compiled: bool) -> str:
    """What ``inarow warm-up`` did with the Gomoku engine's compiled search."""
    if not seconds:
        return _("the compiled Gomoku search was already loaded")
    if compiled:
        return _("compiled the Gomoku search in {seconds} s").format(seconds=f"{seconds:.1f}")
    return _("loaded the compiled Gomoku search in {seconds} s").format(seconds=f"{seconds:.2f}")


def searching(text: str, game: str) -> str:
    """The progress line of a long analysis."""
    if not text:
        return _("analyzing the empty board ({game})").format(game=game)
    return _("analyzing {position} ({game})").format(position=text, game=game)


def slow_solve(game: str) -> str:
    """The progress line of ``inarow solve`` on a big board."""
    return _("solving the empty board of {game}").format(game=game)


# ------------------------------------------------------------------------ the terminal game
def mark(side: Side, game: Game | None = None) -> str:
    """A side as the board draws it: ``X`` or ``O``; in the Gomoku family as its players name it, ``black``
    or ``white``."""
    if game is not None and game.black_and_white:
        return side_name(side, game)
    return side.upper()


def move_prompt(*, gravity: bool, columns: int, last_cell: str, keypad: bool) -> str:
    """How to give a move, said once at the start of a game."""
    if gravity:
        how = _("a column number from 1 to {columns}").format(columns=columns)
    elif keypad:
        how = _("a cell from a1 to {last}, or 1-9 as on the numeric keypad").format(last=last_cell)
    else:
        how = _("a cell from a1 to {last}").format(last=last_cell)
    return _("Your move: {how}; h for a hint, u to undo, q to quit.").format(how=how)


def not_a_move(text: str, *, gravity: bool, columns: int, last_cell: str) -> str:
    """A move the player typed that is not a cell (or not a column with gravity)."""
    if gravity:
        return _("{text} is not a column: type a number from 1 to {columns}").format(
            text=repr(text), columns=columns
        )
    return _("{text} is not a cell: type a cell from a1 to {last}").format(text=repr(text), last=last_cell)


def cannot_play(move: str, error: InarowError) -> str:
    """A move that cannot be played, named with why: ``b2 is taken``, ``column 4 is full``."""
    if error.reason_message == "cell is taken":
        return _("{move} is taken: choose an empty cell").format(move=move)
    if error.reason_message == "column {column} is full":
        return _("column {column} is full: choose another column").format(column=error.params["column"])
    return _("{move} cannot be played: {reason}").format(move=move, reason=error.reason_said())


def computer_note(
    *,
    outcome: Outcome | None,
    plies: int | None,
    depth: int | None,
    score: int | None,
    exact: bool,
) -> str:
    """Why the computer played its move, for a player: ``it wins in 2 moves``, ``a draw with best play``,
    or, when it could not see to the end, how far it looked and who it thinks stands better."""
    if exact and outcome is not None:
        if outcome == "draw":
            return _("a draw with best play")
        if plies is None:
            return _("it wins with best play") if outcome == "win" else _("you can win with best play")
        moves = moves_of_winner(plies)
        if outcome == "win":
            said = ngettext(
                "it wins in {moves} move with best play", "it wins in {moves} moves with best play", moves
            )
        else:
            said = ngettext(
                "you can win in {moves} move with best play",
                "you can win in {moves} moves with best play",
                moves,
            )
        return said.format(moves=moves)
    if not score:
        stand = _("{ahead}, the game looks even")
    elif score > 0:
        stand = _("{ahead}, it thinks it stands better")
    else:
        stand = _("{ahead}, it thinks you stand better")
    if depth:
        ahead = ngettext("looking {depth} move ahead", "looking {depth} moves ahead", depth).format(
            depth=depth
        )
    else:
        ahead = _("at a glance")
    return stand.format(ahead=ahead)


def hint(move: str, *, outcome: Outcome | None, plies: int | None, exact: bool) -> str:
    """A hint: ``hint: b2 (a draw with best play)``, ``hint: c3 (you win in 1 move)``."""
    if not exact or outcome is None:
        return _("hint: {move} (the best the computer found in its time; not certain)").format(move=move)
    if outcome == "draw":
        return _("hint: {move} (a draw with best play)").format(move=move)
    if plies is None:
        if outcome == "win":
            return _("hint: {move} (you win with best play)").format(move=move)
        return _("hint: {move} (you lose with best play)").format(move=move)
    moves = moves_of_winner(plies)
    if outcome == "win":
        said = ngettext(
            "hint: {move} (you win in {moves} move with best play)",
            "hint: {move} (you win in {moves} moves with best play)",
            moves,
        )
    else:
        said = ngettext(
            "hint: {move} (you lose in {moves} move with best play)",
            "hint: {move} (you lose in {moves} moves with best play)",
            moves,
        )
    return said.format(move=move, moves=moves)


def mistake_verdict(kind: MistakeKind, drop: int, margin: int) -> str:
    """Why a move on a big board is a mistake (see :class:`inarow.engines.gomoku.analyst.Judgement`): ``let a
    proven win go``, ``let the opponent's forced win through`` or ``dropped the evaluation by 640 points (more
    than 400)`` (``sentences``: ``mistake``)."""
    return say("mistake", {"kind": kind, "drop": drop, "margin": margin})


def mistake(judgement: Judgement, margin: int) -> str:
    """A :class:`~inarow.engines.gomoku.analyst.Judgement` in words (see :func:`mistake_verdict`; ``margin``
    is
    :data:`inarow.engines.gomoku.analyst.MISTAKE_MARGIN`), or an empty string when the move was no mistake."""
    if judgement.kind is None:
        return ""
    return mistake_verdict(judgement.kind, judgement.best - judgement.played, margin)


def describe(answer: Analysis | MoveValue) -> str:
    """An analysis's value in words (:func:`analysis`: ``draw with best play``, ``x wins in 3 moves``), or
    a move's (:func:`move_value`: ``win in 3``, ``eval +12``), in the current language."""
    if isinstance(answer, MoveValue):
        return move_value(answer.outcome, answer.plies, answer.score)
    return analysis(
        result=answer.result,
        winner=answer.winner,
        exact=answer.exact,
        plies=answer.plies,
        score=answer.score,
        depth=answer.depth,
        game=answer.position.game,
        proof=answer.proof,
    )


def analysis_json(answer: Analysis, text: str | None = None) -> AnalysisJSON:
    """The keys of ``inarow analyze --json`` and ``POST /api/analyze``: the analysis's fields
    (:meth:`~inarow.values.answers.Analysis.to_json`; ``text`` is the position as the user wrote it) and its
    ``description``, in English whatever the language, so that programs read the same in every one."""
    fields = answer.to_json(text)
    return {**fields, "description": in_english(lambda: describe(answer))}


def note(note: MoveNote) -> str:
    """Why a computer player chose its move (see :class:`~inarow.values.answers.MoveNote`): ``a random move``,
    ``rule: a corner``, ``minimax 2 plies deep: value +3``, ``x wins with best play``; the page's
    ``noteWords`` says it from the same table (``sentences``: ``note``)."""
    return say("note", asdict(note))


def turned(before: Outcome, after: Outcome) -> str:
    """A proven mistake: ``turned a win into a draw``; ``after`` is worse than ``before`` (``sentences``:
    ``turned``)."""
    return say("turned", {"before": before, "after": after})
