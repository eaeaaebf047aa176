"""Players and matches: the rules player never misses a win or a block, perfect never loses, the textbook
searches play the moves their values say, and matches replay from their seed."""

from __future__ import annotations

import json
import random
from collections import deque
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import brute_force
from inarow import Game, Position, parse_position
from inarow.base.errors import IllegalMoveError, InarowError, InvalidMatchError, UnknownPlayerError
from inarow.cli import app
from inarow.engines.limits import Limits
from inarow.play.match import (
    MatchResult,
    game_seed,
    next_move,
    play_game,
    play_match,
    wilson,
)
from inarow.play.openings import balanced_openings, opening_stones, read_openings
from inarow.play.players import Choice, Level, RulesPlayer, SearchPlayer, player
from inarow.rules.notation import format_moves, parse_moves
from inarow.rules.symmetry import symmetries
from inarow.values.answers import MoveNote

runner = CliRunner()

TICTACTOE = Game.parse("tictactoe")


def every_position(game: Game) -> list[Position]:
    """Every position reachable in play, by breadth-first search (small boards only)."""
    start = Position.start(game)
    seen, queue = {start}, deque([start])
    while queue:
        for _, child in queue.popleft().children():
            if child not in seen:
                seen.add(child)
                queue.append(child)
    return [position for position in seen if not position.is_over]


def winning_moves(position: Position, side: str) -> set[str]:
    """The moves that would complete a line for ``side`` (a brute force: try each and look)."""
    game, found = position.game, set()
    for bit in position.legal_bits():
        stones = (position.x if side == "x" else position.o) | 1 << bit
        if game.has_line(stones):
            found.add(game.cell_name(bit))
    return found


# ------------------------------------------------------------------------------------- players
def random_games(game: Game, count: int, seed: int) -> list[Position]:
    """Every unfinished position of ``count`` random games."""
    rng, found = random.Random(seed), []
    for _ in range(count):
        position = Position.start(game)
        while not position.is_over:
            found.append(position)
            position = position.play(rng.choice(position.legal_bits()))
    return found


@pytest.mark.slow
@pytest.mark.parametrize("game", ["tictactoe", "3x4:3:gravity", "5x4:3", "connect4", "7x7:4"])
def test_rules_never_misses_a_win_in_one_or_a_block(game: str) -> None:
    """Every position of the two smallest boards, positions of random games on the others."""
    rules, rng, the_game = RulesPlayer(), random.Random(0), Game.parse(game)
    positions = every_position(the_game) if the_game.cells <= 12 else random_games(the_game, 200, 1)
    assert len(positions) > 1000
    for position in positions:
        move = rules.choose(position, rng).move
        mine = winning_moves(position, position.turn)
        theirs = winning_moves(position, "o" if position.turn == "x" else "x")
        if mine:
            assert move in mine, position
        elif theirs:
            assert move in theirs, position


def test_rules_takes_a_corner_then_the_centre_then_an_edge() -> None:
    """On the empty 3×3 board, a corner. Then with the corners gone and no line to win or block: on 5×5
    with four in a row, the centre; on 4×2 with three in a row, where every cell is on the edge, an edge.

    x . . . o
    . . . . .
    . . . . .      o . . x
    . . . . .      x . . o
    o . . . x
    """
    rules, rng = RulesPlayer(), random.Random(1)
    first = rules.choose(Position.start(TICTACTOE), rng)
    assert first.move in {"a1", "a3", "c1", "c3"} and first.note == MoveNote(kind="rule", rule="corner")
    centre = rules.choose(parse_position("x...o/...../...../...../o...x", "5x5:4"), rng)
    assert (centre.move, centre.note.rule) == ("c3", "centre")
    edge = rules.choose(parse_position("o..x/x..o", "4x2:3"), rng)
    assert edge.move in {"b1", "b2", "c1", "c2"} and edge.note.rule == "edge"


def test_rules_on_a_big_board_plays_a_corner_first() -> None:
    choice = RulesPlayer().choose(Position.start(Game.parse("gomoku")), random.Random(2))
    assert choice.move in {"a1", "a15", "o1", "o15"} and choice.note.rule == "corner"


def test_a_textbook_search_player_takes_a_win_at_once() -> None:
    """x x .
    o o .      x wins at c3 (and must: o threatens c2)
    o . x
    """
    position = parse_position("xx./oo./o.x", "tictactoe")
    for seed in range(5):
        assert player("minimax:3:lines").choose(position, random.Random(seed)).move == "c3"


def test_a_depth_2_search_player_blocks_a_threat() -> None:
    """x x .
    . o .      o to move must block at c3
    . . .
    """
    position = parse_position("xx./.o./...", "tictactoe")
    for name in ("minimax:2:open-lines", "alphabeta:2:weighted", "negamax:2", "alphabeta-soft:2:lines"):
        assert player(name).choose(position, random.Random(0)).move == "c3", name


def test_player_names_read_back() -> None:
    for name in ("random", "rules", "easy", "medium", "hard", "perfect", "alphabeta:4:weighted"):
        assert player(name).name == name
    assert player(" Minimax:2 ").name == "minimax:2:open-lines"
    assert player("negamax:3:lines") == SearchPlayer("negamax", 3, "lines")


@pytest.mark.parametrize(
    ("name", "message"),
    [
        (
            "foo",
            "unknown player 'foo': expected one of easy, medium, hard, perfect, random, rules, threats, or ",
        ),
        ("minimax", "unknown player 'minimax': expected one of"),
        (
            "minimax:two",
            "unknown player 'minimax:two': the depth 'two' must be a number of plies from 1 to 400",
        ),
        ("alphabeta:0", "unknown player 'alphabeta:0': the depth '0' must be a number of plies"),
        (
            "minimax:2:mobility",
            "unknown player 'minimax:2:mobility': the evaluation 'mobility' must be one of open-lines, weighted",
        ),
        ("mtdf:2", "unknown player 'mtdf:2': expected one of"),
    ],
)
def test_a_bad_player_name_says_what_was_expected(name: str, message: str) -> None:
    with pytest.raises(UnknownPlayerError) as caught:
        player(name)
    assert str(caught.value).startswith(message)
    assert isinstance(caught.value, InarowError)


# ------------------------------------------------------------------------------------- matches
@pytest.mark.parametrize("opponent", ["random", "rules", "minimax:2:open-lines", "alphabeta:3:weighted"])
def test_perfect_never_loses_on_3x3_with_either_colour(opponent: str) -> None:
    for seed in (1, 2, 3):
        result = play_match(TICTACTOE, player("perfect", 60), player(opponent), 6, swap=True, seed=seed)
        perfect, _ = result.tallies()
        assert perfect.losses == 0, [record for record in result.games]
        assert len(result.games) == 6 and perfect.games == len(result.distinct())


def test_perfect_never_loses_on_a_small_gravity_board() -> None:
    """4×4 with gravity and four in a row is a draw: perfect holds it with either colour."""
    game = Game.parse("4x4:4:gravity")
    result = play_match(game, player("perfect", 60), player("rules"), 4, swap=True, seed=5)
    assert result.tallies()[0].losses == 0


def test_a_seeded_match_replays_game_for_game() -> None:
    first = play_match(TICTACTOE, player("random"), player("minimax:2"), 5, seed=42)
    again = play_match(TICTACTOE, player("random"), player("minimax:2"), 5, seed=42)
    assert first.games == again.games
    record = first.games[3]
    assert record.seed == game_seed(42, 3)
    final, moves = play_game(TICTACTOE, player("random"), player("minimax:2"), random.Random(record.seed))
    assert moves == record.moves and final.result == record.result


def test_swap_alternates_colours_and_the_tallies_add_up() -> None:
    result = play_match(TICTACTOE, player("rules"), player("random"), 8, swap=True, seed=7)
    assert [record.x for record in result.games] == ["rules", "random"] * 4
    a, b = result.tallies()
    assert a.wins == b.losses and a.losses == b.wins and a.draws == b.draws
    assert a.games == b.games == 8
    assert abs(a.score + b.score - 1) < 1e-12


def test_a_player_may_meet_itself() -> None:
    perfect = player("perfect", 60)
    result = play_match(TICTACTOE, perfect, perfect, 2, swap=True, seed=0)
    a, b = result.tallies()
    assert (a.draws, b.draws) == (2, 2)
    assert result.to_json()["results"][0]["player"] == "perfect"


def test_the_match_json_holds_results_and_games_as_move_lists() -> None:
    data = play_match(TICTACTOE, player("rules"), player("random"), 3, seed=9).to_json()
    assert data["players"] == ["rules", "random"] and data["seed"] == 9 and data["swap"] is False
    assert set(data["results"][0]) == {
        "player",
        "games",
        "wins",
        "draws",
        "losses",
        "score",
        "score_interval",
        "win_rate_interval",
    }
    for game in data["games"]:
        position = parse_position(game["moves"])
        assert position.result == game["result"]


def test_the_match_names_each_player_as_its_games_do() -> None:
    result = play_match(TICTACTOE, player(" Minimax:2 "), player("random"), 2, swap=True, seed=4)
    data = result.to_json()
    assert data["players"] == ["minimax:2:open-lines", "random"]
    assert data["results"][0]["player"] == data["games"][0]["x"] == data["games"][1]["o"]


def test_a_gravity_match_writes_its_moves_as_digits() -> None:
    result = play_match(Game.parse("connect4"), player("rules"), player("random"), 1, seed=3)
    moves = result.to_json()["games"][0]["moves"]
    assert moves.isdigit() and parse_position(moves, "connect4").is_over


def test_the_wilson_interval_stays_inside_0_and_1() -> None:
    low, high = wilson(0, 10)
    assert low == 0 and abs(high - 0.2775) < 1e-4
    low, high = wilson(10, 10)
    assert abs(low - 0.7225) < 1e-4 and high == 1
    low, high = wilson(5, 10)
    assert abs(low - 0.2366) < 1e-4 and abs(high - 0.7634) < 1e-4
    assert wilson(0, 0) == (0.0, 1.0)


def test_a_match_needs_at_least_one_game() -> None:
    with pytest.raises(InvalidMatchError, match=r"invalid number of games 0: expected 1 to 100,000"):
        play_match(TICTACTOE, player("random"), player("random"), 0)


def test_next_move_gives_a_page_one_move_at_a_time() -> None:
    step = next_move(parse_position("xx./oo./..."), player("rules"), seed=1)
    assert step.to_json() == {
        "player": "rules",
        "side": "x",
        "move": "c3",
        "note": {"kind": "rule", "rule": "win"},
        "position": "xxx/oo./...",
        "result": "x",
    }
    with pytest.raises(IllegalMoveError, match=r"no move in 'xxx/oo./...': the game is over \(x\)"):
        next_move(parse_position("xxx/oo./..."), player("rules"))


def test_match_results_are_values() -> None:
    result = play_match(TICTACTOE, player("random"), player("random"), 2, seed=1)
    assert isinstance(result, MatchResult)
    with pytest.raises(AttributeError):
        result.seed = 2  # type: ignore[misc]


# ------------------------------------------------------------------------------------ openings
def test_a_deterministic_pair_counts_its_repeated_games_once() -> None:
    """Two players that always take the first legal cell play one game however often they meet: ten
    games played are one distinct game, and the interval is over that one."""

    class FirstCell:
        def __init__(self, name: str) -> None:
            self.name = name

        def choose(self, position: Position, rng: random.Random) -> Choice:
            return Choice(move=position.legal_moves()[0], note=MoveNote(kind="rule", rule="first cell"))

    result = play_match(TICTACTOE, FirstCell("a"), FirstCell("b"), 10, seed=1)
    data = result.to_json()
    assert (data["played"], data["distinct"]) == (10, 1)
    a, _ = result.tallies()
    assert a.games == 1
    assert data["results"][0]["score_interval"] == [round(v, 4) for v in wilson(a.wins + a.draws / 2, 1)]
    swapped = play_match(TICTACTOE, FirstCell("a"), FirstCell("b"), 10, swap=True, seed=1)
    assert len(swapped.distinct()) == 2 and swapped.tallies()[0].games == 2


@pytest.mark.slow
def test_drawn_openings_replay_from_their_seed_and_differ_up_to_symmetry() -> None:
    game = Game.parse("gomoku")
    first = balanced_openings(game, 4, seed=11)
    assert first == balanced_openings(game, 4, seed=11)
    assert first != balanced_openings(game, 4, seed=12)
    keys = set()
    for opening in first:
        position = parse_moves(opening, game)
        assert len(opening) == opening_stones(game) == 3 and not position.is_over
        centre = range(5, 10)  # the middle 5×5: columns f to j, rows 6 to 10
        assert all(
            game.coordinates(bit)[0] in centre and game.coordinates(bit)[1] in centre for bit in opening
        )
        keys.add(symmetries(game).canonical_key(position.x, position.o))
    assert len(keys) == 4


def test_drawn_openings_of_tictactoe_are_draws_by_a_brute_force() -> None:
    """Balanced on a board small enough to solve means a draw with best play, checked by the oracle."""
    openings = balanced_openings(TICTACTOE, 5, seed=3)
    assert len(openings) == 5
    for opening in openings:
        board = tuple(reversed(parse_moves(opening, TICTACTOE).diagram().split("/")))
        assert brute_force.score(board, 3, False) == 0, opening


def test_a_board_with_too_few_balanced_openings_says_so() -> None:
    """2×2 with two in a row: every opening of two stones has a line to make."""
    with pytest.raises(
        InvalidMatchError, match=r"^only 0 distinct balanced openings of 2 stones on 2x2:2: 1 were"
    ):
        balanced_openings(Game.parse("2x2:2"), 1, seed=0)
    with pytest.raises(InvalidMatchError, match=r"^invalid number of openings 0: expected 1 to 1,000$"):
        balanced_openings(TICTACTOE, 0, seed=0)


def test_each_opening_is_played_twice_with_colours_swapped() -> None:
    openings = [(TICTACTOE.parse_cell("b2"), TICTACTOE.parse_cell("a1")), (TICTACTOE.parse_cell("a1"),)]
    result = play_match(TICTACTOE, player("rules"), player("random"), seed=2, openings=openings)
    data = result.to_json()
    assert data["openings"] == ["b2 a1", "a1"] and data["played"] == 4 and data["swap"] is True
    assert [(g["x"], g["opening"]) for g in data["games"]] == [
        ("rules", 2),
        ("random", 2),
        ("rules", 1),
        ("random", 1),
    ]
    assert [g["moves"].split()[: g["opening"]] for g in data["games"]] == [["b2", "a1"]] * 2 + [["a1"]] * 2
    for record in data["games"]:
        assert parse_position(record["moves"]).result == record["result"]


def test_an_openings_file_is_read_line_by_line(tmp_path: Path) -> None:
    path = tmp_path / "openings.txt"
    path.write_text("# three openings\nh8 h9 i8\n\nh8 i9 j10\n8,8 7,9\n", encoding="utf-8")
    game = Game.parse("gomoku")
    openings = read_openings(game, path)
    assert [format_moves(game, opening) for opening in openings] == ["h8 h9 i8", "h8 i9 j10", "h8 i9"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("h8 h9\nh8 h7\n", r"line 2 of '.*': the opening 'h8 h7' repeats line 1$"),
        ("h8 h9\nh8 z9\n", r"line 2 of '.*': move 2: invalid cell 'z9'"),
        ("h8 h8\n", r"line 1 of '.*': move 2: illegal move 'h8' in '.*': cell is taken$"),
        (
            "x..../...../...../...../.....\n",
            r"line 1 of '.*': 'x.*' is a diagram; an opening is a move list$",
        ),
        ("# nothing\n\n", r"the openings file '.*' has no openings$"),
    ],
)
def test_a_bad_openings_file_names_the_line(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "openings.txt"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InvalidMatchError, match=message):
        read_openings(Game.parse("gomoku"), path)
    with pytest.raises(InvalidMatchError, match=r"cannot read the openings file '.*missing.txt'"):
        read_openings(Game.parse("gomoku"), tmp_path / "missing.txt")


def test_an_opening_that_ends_the_game_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "openings.txt"
    path.write_text("a1 b1 a2 b2 a3\n", encoding="utf-8")
    with pytest.raises(
        InvalidMatchError, match=r"line 1 of '.*': the opening 'a1 b1 a2 b2 a3' ends the game$"
    ):
        read_openings(TICTACTOE, path)


def _cli_match(*args: str) -> dict[str, Any]:
    result = runner.invoke(app, ["match", *args, "--json"])
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def _check_match(data: dict[str, Any], openings: int) -> None:
    """Every opening twice with colours swapped, every game distinct and replaying to its result, and
    each player's interval the Wilson interval of its score over the distinct games."""
    games = data["games"]
    assert data["played"] == data["distinct"] == len(games) == 2 * openings
    assert len({(g["x"], g["moves"]) for g in games}) == len(games)
    for number, record in enumerate(games):
        assert record["moves"].split()[: record["opening"]] == data["openings"][number // 2].split()
        assert record["x"] == data["players"][number % 2]
        assert parse_position(record["moves"], data["game"]).result == record["result"]
    for tally in data["results"]:
        assert tally["games"] == len(games)
        points = tally["wins"] + tally["draws"] / 2
        assert tally["score_interval"] == [round(v, 4) for v in wilson(points, len(games))]


@pytest.mark.slow
def test_a_node_limited_match_between_levels_keeps_its_books_and_replays_game_for_game() -> None:
    """The bookkeeping of a match between levels, bounded by nodes so that it is the same match on any
    machine (the strength matches are ``bench/levels.py``'s): two Connect Four openings, four games."""
    game = Game.parse("connect4")
    openings = balanced_openings(game, 2, seed=3)

    def match() -> MatchResult:
        hard, medium = player("hard", nodes=NODES), player("medium", nodes=NODES)
        return play_match(game, hard, medium, seed=3, openings=openings)

    result = match()
    data = result.to_json()
    assert data["players"] == ["hard", "medium"]
    _check_match(_spaced(dict(data)), 2)
    assert match().to_json() == data


def test_a_level_given_nodes_searches_by_nodes_and_not_by_the_clock() -> None:
    assert player("hard", 5.0, nodes=NODES) == Level("hard", 5.0, NODES)
    assert Level("hard", 5.0, NODES).limits() == Limits(depth=6, nodes=NODES)
    assert Level("perfect", 5.0, NODES).limits() == Limits(nodes=NODES)
    assert Level("medium", 5.0, NODES).limits() == Limits(depth=2)
    assert Level("hard", 5.0).limits() == Limits(depth=6, time=2.5)


NODES = 500
"""Nodes a move of the levels in the node-limited match."""


def _spaced(data: dict[str, Any]) -> dict[str, Any]:
    """A gravity match's JSON with its openings and games as space-separated moves, as other boards' are."""
    return {
        **data,
        "openings": [" ".join(o) for o in data["openings"]],
        "games": [{**g, "moves": " ".join(g["moves"])} for g in data["games"]],
    }


def test_games_and_openings_do_not_go_together() -> None:
    result = runner.invoke(app, ["match", "rules", "random", "--games", "4", "--openings", "2"])
    assert result.exit_code == 2
    assert "--games and --openings do not go together" in result.stderr


def test_a_connect_four_match_starts_from_openings_too() -> None:
    data = _cli_match("rules", "random", "--game", "connect4", "--openings", "3", "--seed", "1")
    assert all(len(opening) == 2 and opening.isdigit() for opening in data["openings"])
    _check_match(_spaced(data), 3)
