"""A game against the computer in the terminal (``inarow play``)."""

from __future__ import annotations

import random
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field

from rich.console import Console
from rich.text import Text

from inarow.base.errors import IllegalMoveError, InarowError, InvalidMoveError, Items, Term
from inarow.base.i18n import N_, _, game_title, listed
from inarow.play.players import LEVELS, Choice, player
from inarow.play.swap2 import Negotiator, negotiator
from inarow.rules.game import COLUMN_LETTERS, Game, Position, Side, other
from inarow.values.store import Score
from inarow.words import phrases

KEYPAD = {
    "7": (0, 2),
    "8": (1, 2),
    "9": (2, 2),
    "4": (0, 1),
    "5": (1, 1),
    "6": (2, 1),
    "1": (0, 0),
    "2": (1, 0),
    "3": (2, 0),
}
"""On 3×3, the digit keys laid out as the numeric keypad: 7 8 9 on top, 1 2 3 at the bottom."""

ANSWER_WORDS = {
    "you": N_("you"),
    "computer": N_("computer"),
    "random": N_("random"),
    "y": N_("yes"),
    "n": N_("no"),
    "easy": N_("easy"),
    "medium": N_("medium"),
    "hard": N_("hard"),
    "perfect": N_("perfect"),
    "black": N_("black"),
    "white": N_("white"),
    "two": N_("two more"),
}
"""The words the questions show for their choices, in the current language; the English keys are always
accepted too."""
ANSWER_ALIASES = {"y": ("yes",), "n": ("no", "quit")}
"""More English answers to a yes/no question."""


STONES = {True: "●", False: "○"}
"""The stones of the Gomoku family on a drawn board: black (the side that moves first) and white."""


def render_board(position: Position) -> str:
    """The board with row numbers on the left and column names (or numbers, with gravity) below; X and O,
    or in the Gomoku family black and white stones."""
    game, rows = position.game, []
    width = 2 if game.columns <= 9 or not game.gravity else 3
    for r in reversed(range(game.rows)):
        cells = []
        for c in range(game.columns):
            stone = position.stone_at(game.bit(c, r))
            if stone and game.black_and_white:
                cells.append(STONES[stone == game.first].rjust(width - 1))
            else:
                cells.append((stone.upper() if stone else "·").rjust(width - 1))
        rows.append(f"{r + 1:>3} " + " ".join(cells))
    names = [game.column_label(c) for c in range(game.columns)]
    rows.append("    " + " ".join(n.rjust(width - 1) for n in names))
    return "\n".join(rows)


class Quit(Exception):
    """The player asked to stop, or the input ended."""


@dataclass
class ConsoleGame:
    """An interactive session of games against one computer level, with the score kept across games."""

    game: Game
    console: Console
    seed: int | None = None
    think_time: float = 2.0
    read: Callable[[str], str] = input
    swap2: bool = False
    """Open every game by the swap2 rule (Gomoku): who starts opens, and the opening decides the colours."""
    nodes: int | None = None
    """A node limit for the computer's searches instead of the think time (the same games on any machine)."""
    score: Score = field(init=False)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)
        self.score = Score(game=self.game.name)

    def ask(self, question: str, choices: tuple[str, ...], default: str) -> str:
        """Ask until the answer is one of ``choices`` (an empty answer takes ``default``). The choices are
        shown in the current language (``[你/电脑/随机]``) and accepted in it or in English; ``q`` at a
        yes/no question is no."""
        shown = [_(ANSWER_WORDS.get(choice, choice)) for choice in choices]
        accepted = {choice: choice for choice in choices}
        for choice, word in zip(choices, shown, strict=True):
            accepted[word.lower()] = choice
            accepted.update({alias: choice for alias in ANSWER_ALIASES.get(choice, ())})
        if "n" in choices:
            accepted.setdefault("q", "n")
        default_word = shown[choices.index(default)]
        while True:
            typed = self._input(f"{question} [{'/'.join(shown)}] ({default_word}) ")
            answer = unicodedata.normalize("NFKC", typed).strip().lower() or default
            if answer in accepted:
                return accepted[answer]
            self.console.print(
                _("please answer one of {choices}").format(choices=listed(shown)), markup=False
            )

    def _input(self, prompt: str) -> str:
        try:
            return self.read(prompt)
        except (EOFError, KeyboardInterrupt):
            raise Quit from None

    def run(self, you: str | None, first: str | None, level: str | None) -> None:
        """Play games until the player declines another; options not given are asked for."""
        for value, allowed, what in (
            (you, ("x", "o"), Term(N_("side"))),
            (first, ("you", "computer", "random"), Term(N_("first player"))),
            (level, LEVELS, Term(N_("level"))),
        ):
            if value is not None and value.lower() not in allowed:
                raise InarowError(
                    N_("invalid {what} {value!r}: expected one of {known}"),
                    what=what,
                    value=value,
                    known=Items(allowed),
                )
        if self.swap2 and you is not None:
            raise InarowError(N_("--swap2 decides the colours: it does not go with --you"))
        try:
            asked = "x" if self.swap2 else you or self.ask(_("You play"), ("x", "o"), "x")
            side: Side = "o" if asked.lower() == "o" else "x"
            starter = (first or self.ask(_("Who moves first"), ("you", "computer", "random"), "you")).lower()
            chosen = (level or self.ask(_("Level"), LEVELS, "perfect")).lower()
            while True:
                self.play_one(side, starter, chosen)
                self.console.print(phrases.score(self.score), markup=False)
                if self.ask(_("Another game?"), ("y", "n"), "y") == "n":
                    break
        except Quit:
            self.console.print(
                "\n" + _("bye — {score}").format(score=phrases.score(self.score)), markup=False
            )

    def play_one(self, side: Side, starter: str, level: str) -> None:
        """One game. The game's first side (X, or O in an ``:o-first`` game) moves first: who starts decides
        who plays it, as the player chose or by lot."""
        if starter == "random":
            starter = self.rng.choice(("you", "computer"))
            drawn = (
                _("drawn by lot: you start") if starter == "you" else _("drawn by lot: the computer starts")
            )
            self.console.print(drawn, markup=False)
        first = self.game.first
        human: Side = first if starter == "you" else other(first)
        if human != side and not self.swap2:
            said = _("(you play {mark}: {first} moves first)").format(
                mark=phrases.mark(human, self.game), first=phrases.mark(first, self.game)
            )
            self.console.print(said, markup=False)
        computer = player(level, self.think_time, nodes=self.nodes)
        history = [Position.start(self.game)]
        self.console.print(
            _("{game}, level {level}.").format(
                game=game_title(self.game.name), level=_(ANSWER_WORDS.get(level, level))
            ),
            markup=False,
        )
        self.console.print(
            phrases.move_prompt(
                gravity=self.game.gravity,
                columns=self.game.columns,
                last_cell=self._last_cell,
                keypad=self._keypad,
            ),
            markup=False,
            soft_wrap=True,
        )
        floor = 1
        if self.swap2:
            human = self._swap2_opening(starter == "you", negotiator(computer), history)
            floor = len(history)
        while not history[-1].is_over:
            position = history[-1]
            if position.turn == human:
                self.console.print(render_board(position), markup=False)
                move = self._human_move(position, history, floor)
                if move is None:
                    continue
                history.append(position.play(move))
            else:
                self.console.print(_("the computer thinks…"), markup=False)
                choice = computer.choose(position, self.rng)
                plays = _("the computer plays {move} ({why})").format(move=choice.move, why=_note(choice))
                self.console.print(plays, markup=False)
                history.append(position.play(choice.move))
        final = history[-1]
        self.console.print(render_board(final), markup=False)
        if final.result == "draw":
            self.score = self.score.counted("draw")
            self.console.print(Text(_("draw"), style="bold"))
        elif final.result == human:
            self.score = self.score.counted("win")
            self.console.print(
                Text(_("you ({mark}) win!").format(mark=phrases.mark(human, self.game)), style="bold green")
            )
        else:
            self.score = self.score.counted("loss")
            lost = _("the computer ({mark}) wins").format(mark=phrases.mark(other(human), self.game))
            self.console.print(Text(lost, style="bold red"))

    def _swap2_opening(self, you_open: bool, computer: Negotiator, history: list[Position]) -> Side:
        """Play the swap2 opening with the player (:mod:`inarow.play.swap2`), its stones appended to
        ``history``; the side the player then has."""

        def place(count: int) -> None:
            for _stone in range(count):
                self.console.print(render_board(history[-1]), markup=False)
                move = self._human_move(history[-1], history, floor=len(history))
                if move is not None:
                    history.append(history[-1].play(move))

        def placed(moves: tuple[str, ...]) -> None:
            for move in moves:
                history.append(history[-1].play(move))

        def computer_decides() -> tuple[Side | None, tuple[str, ...]]:
            # Black (swap), or White with its move; two stones leave the choice open (None)
            self.console.print(_("the computer thinks…"), markup=False)
            decision = computer.swap2(history[-1], self.rng)
            if decision.swap:
                self.console.print(_("the computer takes Black: you play White"), markup=False)
                return "o", ()
            placed(decision.stones)
            if len(decision.stones) == 1:
                said = _("the computer takes White and plays {move}: you play Black")
                self.console.print(said.format(move=decision.stones[0]), markup=False)
                return "x", decision.stones
            return None, decision.stones

        if you_open:
            opens = _("swap2: you open: place a black, a white and a black stone; then the computer chooses")
            self.console.print(opens, markup=False)
            place(3)
            side, stones = computer_decides()
            if side is not None:
                return side
            said = _("the computer places {white} (white) and {black} (black): you choose your colour")
            self.console.print(said.format(white=stones[0], black=stones[1]), markup=False)
            self.console.print(render_board(history[-1]), markup=False)
            return "x" if self.ask(_("You play"), ("black", "white"), "black") == "black" else "o"
        self.console.print(_("the computer thinks…"), markup=False)
        opening = computer.swap2(history[-1], self.rng).stones
        placed(opening)
        said = _("swap2: the computer opens with {stones} (black, white, black)")
        self.console.print(said.format(stones=" ".join(opening)), markup=False)
        self.console.print(render_board(history[-1]), markup=False)
        question = _(
            "Take Black, take White and play the fourth stone, or place two more (a white, a black)?"
        )
        answer = self.ask(question, ("black", "white", "two"), "white")
        if answer != "two":
            return "x" if answer == "black" else "o"
        place(2)
        side = computer_decides()[0]
        assert side is not None, "at five stones the opener takes a colour"
        return side

    @property
    def _last_cell(self) -> str:
        """The name of the top-right cell (``c3`` on 3×3), the last of the cells a player may name."""
        return f"{COLUMN_LETTERS[self.game.columns - 1]}{self.game.rows}"

    @property
    def _keypad(self) -> bool:
        return (self.game.columns, self.game.rows, self.game.gravity) == (3, 3, False)

    def _human_move(self, position: Position, history: list[Position], floor: int = 1) -> int | None:
        """Read a move until it is legal; None after an undo (the board is shown again), which never takes
        back the first ``floor`` positions of ``history`` (a swap2 opening). An empty line asks again; a
        move that cannot be played is named with why."""
        while True:
            text = unicodedata.normalize("NFKC", self._input(_("your move: "))).strip().lower()
            if not text:
                continue
            if text in ("q", "quit"):
                raise Quit
            if text in ("h", "hint"):
                from inarow.engines.limits import Limits
                from inarow.engines.policy import play

                # level perfect's decision: from the books or weak searches, so the hint is proven
                # wherever perfect play is (Connect Four's openings), not a depth-limited guess
                hint = play(position, Limits(time=self.think_time))
                move = hint.pv[0] if hint.pv else hint.best[0]
                self.console.print(
                    phrases.hint(move, outcome=hint.outcome, plies=hint.plies, exact=hint.exact), markup=False
                )
                continue
            if text in ("u", "undo"):
                if len(history) < floor + 2:
                    self.console.print(_("nothing to undo yet"), markup=False)
                    continue
                del history[-2:]
                return None
            if self._keypad and text in KEYPAD:
                column, row = KEYPAD[text]
                text = self.game.cell_name(self.game.bit(column, row))
            try:
                return position.move_bit(text)
            except InvalidMoveError:
                self.console.print(
                    phrases.not_a_move(
                        text, gravity=self.game.gravity, columns=self.game.columns, last_cell=self._last_cell
                    ),
                    markup=False,
                )
            except IllegalMoveError as error:
                self.console.print(phrases.cannot_play(text, error), markup=False)


def _note(choice: Choice) -> str:
    """Why the computer played its move, in a player's words (no engine figures)."""
    analysis = choice.analysis
    if analysis is None:
        return phrases.note(choice.note)
    return phrases.computer_note(
        outcome=analysis.outcome,
        plies=analysis.plies,
        depth=analysis.depth,
        score=analysis.score,
        exact=analysis.exact,
    )
