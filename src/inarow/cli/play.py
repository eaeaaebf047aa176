"""The verbs that play: ``play``, ``match``, ``serve``, ``warm-up`` and ``gomocup``."""

import json
from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from inarow.base.errors import InarowError
from inarow.base.i18n import N_, _, game_said
from inarow.cli.app import Verb, app
from inarow.cli.book import import_on_first_use
from inarow.cli.output import (
    FirstOption,
    GameOption,
    announced,
    bound_memory,
    counting,
    game_named,
    out,
    prepare_engine,
    real,
)

if TYPE_CHECKING:
    from inarow.play.match import MatchResult


@app.command(
    cls=Verb,
    help=N_("Play against the computer in the terminal. On 3×3 the keys 1-9 follow the numeric keypad."),
)
def play(
    game: GameOption = "tictactoe",
    you: Annotated[
        str | None, typer.Option(metavar="SIDE", help=N_("Play x or o (asked if not given)."))
    ] = None,
    first: Annotated[
        str | None,
        typer.Option(
            metavar="WHO",
            help=N_(
                "Who starts: you, computer or random (asked if not given). The side that starts is X, or O "
                "in a game whose name ends in :o-first."
            ),
        ),
    ] = None,
    level: Annotated[
        str | None,
        typer.Option(metavar="LEVEL", help=N_("easy, medium, hard or perfect (asked if not given).")),
    ] = None,
    seed: Annotated[
        int | None, typer.Option(metavar="N", help=N_("Seed the computer's random choices."))
    ] = None,
    time: Annotated[
        float,
        typer.Option(
            "--time", "-t", metavar="SECONDS", help=N_("The computer's think time per move, seconds.")
        ),
    ] = 2.0,
    swap2: Annotated[
        bool,
        typer.Option(
            "--swap2",
            help=N_(
                "Open by the swap2 rule (Gomoku): who starts places three stones, the other takes Black, "
                "takes White or places two more and leaves the choice."
            ),
        ),
    ] = False,
) -> None:
    from inarow.cli.console import ConsoleGame
    from inarow.play.swap2 import plays
    from inarow.rules.notation import parse_game

    the_game = parse_game(game)
    if swap2 and not plays(the_game):
        raise InarowError(
            N_("--swap2 is an opening rule of Gomoku without Renju's rules: not of {game}"),
            game=the_game.name,
        )
    prepare_engine(the_game)
    import_on_first_use(the_game)
    ConsoleGame(the_game, real(out), seed=seed, think_time=time, swap2=swap2).run(you, first, level)


@app.command(
    "warm-up",
    cls=Verb,
    help=N_(
        "Load the compiled engines now (Connect Four's and the small boards', then Gomoku's): compile "
        "them (once per install, about 10 s and a minute) or load them from numba's cache, so that no "
        "later search pays for it; then import Connect Four's 12-ply opening book if it is not there yet "
        "(once per install, about 5 s). Says what it does as it starts. bash scripts/start.sh runs it in "
        "the background while the server starts."
    ),
)
def warm_up_command() -> None:
    from inarow.engines.exact import compiled
    from inarow.engines.exact.solver import CONNECT4
    from inarow.engines.gomoku import search as gomoku
    from inarow.engines.policy import load_engine
    from inarow.words import phrases

    def loading(
        phrase: Callable[[bool], str],
    ) -> tuple[Callable[[bool], AbstractContextManager[object]], list[bool]]:
        """The spinner alone, and whether it said the engine compiles: the line that stays is this verb's
        own, printed once for each engine below."""
        compiled_now: list[bool] = []

        def announce(compiles: bool) -> AbstractContextManager[object]:
            compiled_now.append(compiles)
            return announced(phrase(compiles))

        return announce, compiled_now

    announce, compiled_now = loading(phrases.loading_engine)
    seconds = load_engine(announce)  # numba's import included
    folder = str(compiled.cache_folder())
    out.print(phrases.engine_ready(seconds, any(compiled_now), folder), markup=False, soft_wrap=True)
    announce, compiled_now = loading(phrases.loading_gomoku)
    seconds = gomoku.load(announce)
    out.print(phrases.gomoku_engine_ready(seconds, any(compiled_now)), markup=False, soft_wrap=True)
    import_on_first_use(CONNECT4)


@app.command(
    cls=Verb,
    help=N_(
        "Start the web app: play in the browser; every game is kept.\n\n"
        "Listening beyond this machine (--host 0.0.0.0) needs keys: a class key for the students and a"
        " teacher's key for the class board, exam keys and settings, made and printed in two links unless"
        " --token and --teacher-token give them. Only loopback names, the --host address, "
        "--allow-host names and, on 0.0.0.0, the machine's own names and addresses are answered."
    ),
)
def serve(
    host: Annotated[str, typer.Option(metavar="ADDRESS", help=N_("The address to listen on."))] = "127.0.0.1",
    port: Annotated[int, typer.Option(metavar="PORT", help=N_("The port to listen on."))] = 8000,
    db: Annotated[
        Path | None,
        typer.Option(
            metavar="PATH", help=N_("The SQLite file of the games (default: the user data folder).")
        ),
    ] = None,
    open_browser: Annotated[bool, typer.Option("--open", help=N_("Open the page in a browser."))] = False,
    think_time: Annotated[
        float,
        typer.Option(
            "--think-time", metavar="SECONDS", help=N_("The server-wide cap on one search, seconds.")
        ),
    ] = 2.0,
    workers: Annotated[
        int | None,
        typer.Option(min=1, metavar="N", help=N_("Search processes (default: one per core, up to 4).")),
    ] = None,
    seed: Annotated[
        int | None, typer.Option(metavar="N", help=N_("Make the games' random choices reproducible."))
    ] = None,
    allow_host: Annotated[
        list[str] | None,
        typer.Option(
            "--allow-host", metavar="HOST", help=N_("Another host name the server answers to (repeatable).")
        ),
    ] = None,
    token: Annotated[
        str | None,
        typer.Option(
            metavar="TOKEN",
            help=N_("The class's key, which the students' link carries (made up when not given)."),
        ),
    ] = None,
    teacher_token: Annotated[
        str | None,
        typer.Option(
            "--teacher-token",
            metavar="TOKEN",
            help=N_(
                "The teacher's key, which opens the class board, exam keys and settings (made up when not"
                " given)."
            ),
        ),
    ] = None,
    memory: Annotated[
        float | None,
        typer.Option(
            "--memory", metavar="MB", help=N_("The most memory the engine's tables may take in each process.")
        ),
    ] = None,
) -> None:
    from inarow.web.server import serve as run

    if not 0 < think_time <= 60:
        raise InarowError(
            N_("invalid think time {seconds!r}: expected more than 0 and at most 60 seconds"),
            seconds=think_time,
        )
    if memory is not None:  # the same as inarow --memory MB serve: the workers inherit the variable
        bound_memory(memory)
    run(
        host,
        port,
        db,
        open_browser,
        think_time=think_time,
        workers=workers,
        seed=seed,
        allow_hosts=tuple(allow_host or ()),
        token=token,
        teacher_token=teacher_token,
    )


@app.command(
    "match",
    cls=Verb,
    help=N_(
        "Computer against computer: each player's wins, draws and losses, and the games as move "
        "lists.\n\n"
        "The results come with a 95% Wilson interval of each player's score.\n\n"
        "Players: random, rules, easy, medium, hard, perfect, or ALGORITHM:DEPTH[:EVALUATION] "
        "such as minimax:2:open-lines or alphabeta:4:weighted.\n\n"
        "With --openings each game starts from an opening and each opening is played twice, colours "
        "swapped; games repeated move for move count once."
    ),
)
def match_command(
    player_x: Annotated[
        str, typer.Argument(metavar="PLAYER_X", help=N_("The first player (x in the first game)."))
    ],
    player_o: Annotated[str, typer.Argument(metavar="PLAYER_O", help=N_("The second player."))],
    game_name: GameOption = "tictactoe",
    first: FirstOption = None,
    games: Annotated[
        int | None,
        typer.Option("--games", "-n", metavar="N", help=N_("How many games to play (10 without openings).")),
    ] = None,
    swap: Annotated[bool, typer.Option("--swap", help=N_("Swap colours every other game."))] = False,
    openings: Annotated[
        str | None,
        typer.Option(
            metavar="N|FILE",
            help=N_(
                "Start from N balanced openings of a few stones drawn from the seed, or from the openings "
                "of FILE (one move list a line); each is played twice, colours swapped."
            ),
        ),
    ] = None,
    swap2: Annotated[
        bool,
        typer.Option(
            "--swap2",
            help=N_(
                "Open each game by the swap2 rule (Gomoku): the players take turns as opener, and the "
                "opening decides the colours."
            ),
        ),
    ] = False,
    seed: Annotated[
        int | None, typer.Option(metavar="N", help=N_("Seed the players' random choices."))
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help=N_("The results and the games as JSON."))] = False,
    time: Annotated[
        float | None,
        typer.Option(
            "--time", "-t", metavar="SECONDS", help=N_("Think time per move of the levels, seconds.")
        ),
    ] = None,
) -> None:
    from inarow.evaluation.student import allow_files
    from inarow.play.match import check_games, new_seed, play_match
    from inarow.play.openings import Opening, balanced_openings, read_openings
    from inarow.protocols.pbrain import player

    allow_files()  # players named on the command line may use a student's e(P) file: minimax:2:mine.py:e
    game = game_named(game_name, first)
    if openings is not None and games is not None:
        raise InarowError(N_("--games and --openings do not go together: a match plays each opening twice"))
    if swap2 and (swap or openings is not None):
        raise InarowError(N_("--swap2 decides the colours: it goes with neither --swap nor --openings"))
    games = 10 if games is None else games
    check_games(games)
    options = {} if time is None else {"think_time": time}
    one, two = player(player_x, **options), player(player_o, **options)
    prepare_engine(game)
    import_on_first_use(game)
    seed = new_seed() if seed is None else seed
    suite: list[Opening] = []
    if openings is not None:
        count = openings.strip()
        if count.isascii() and count.isdigit():
            with counting(_("drawing openings"), None):
                suite = balanced_openings(game, int(count), seed)
        else:
            suite = read_openings(game, Path(openings))
        games, swap = 2 * len(suite), True
    with counting(_("playing"), games) as progress:
        result = play_match(
            game,
            one,
            two,
            games,
            swap=swap,
            seed=seed,
            openings=suite,
            opening_rule="swap2" if swap2 else None,
            progress=progress,
        )
    if as_json:
        print(json.dumps(result.to_json()))
        return
    if suite:
        heading = _(
            "{x} against {o} on {game}: {openings} openings, each played twice with colours swapped "
            "(seed {seed})"
        )
    elif swap2:
        heading = _(
            "{x} against {o} on {game}: {games} games opened by swap2, each player opener every other "
            "game (seed {seed})"
        )
    elif swap:
        heading = _(
            "{x} against {o} on {game}: {games} games, colours swapped every other game (seed {seed})"
        )
    else:
        heading = _("{x} against {o} on {game}: {games} games (seed {seed})")
    shown = heading.format(
        x=player_x, o=player_o, game=game_said(game.name), games=games, openings=len(suite), seed=result.seed
    )
    out.print(shown, markup=False, soft_wrap=True)
    _show_match(result)


def _show_match(result: "MatchResult") -> None:
    """A match's tallies as a table, then its games, a line each (after the heading)."""
    from rich.table import Table

    from inarow.rules.notation import format_moves
    from inarow.words import phrases

    game, games = result.game, len(result.games)
    distinct = len(result.distinct())
    if distinct < games:
        repeated = _("{games} games played, {distinct} distinct: the results count each distinct game once")
        out.print(repeated.format(games=games, distinct=distinct), markup=False, soft_wrap=True)
    table = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
    table.add_column(_("player"))
    for column in (_("wins"), _("draws"), _("losses"), _("score"), _("95% CI")):
        table.add_column(column, justify="right")
    for tally in result.tallies():
        low, high = tally.score_interval
        table.add_row(
            tally.player,
            str(tally.wins),
            str(tally.draws),
            str(tally.losses),
            f"{tally.score:.3f}",
            f"{low:.3f} – {high:.3f}",
        )
    out.print(table)
    width = len(str(games))
    for number, record in enumerate(result.games, start=1):
        moves = format_moves(game, record.moves)
        outcome = phrases.game_result(record.result, game)
        if game.black_and_white:
            line = _("{number}. black {x}, white {o}: {moves} — {outcome}")
        else:
            line = _("{number}. x {x}, o {o}: {moves} — {outcome}")
        shown = line.format(number=f"{number:>{width}}", x=record.x, o=record.o, moves=moves, outcome=outcome)
        out.print(shown, markup=False)


@app.command(
    "gomocup",
    cls=Verb,
    help=N_(
        "Play Gomoku over the Gomocup protocol on standard input and output (a pbrain engine for "
        "Piskvork and other managers): START, RESTART, BEGIN, TURN, BOARD … DONE, TAKEBACK, INFO,"
        " ABOUT, END."
    ),
)
def gomocup_command(
    level: Annotated[
        str,
        typer.Option(metavar="LEVEL", help=N_("The level that plays: easy, medium, hard or perfect.")),
    ] = "perfect",
) -> None:
    from inarow.protocols import gomocup

    gomocup.serve(level=gomocup.level_named(level))
