// The words of the page, made from the server's fields: node --test tests/js/
import assert from "node:assert/strict";
import { describe, test } from "node:test";

import {
  analysisSummary, gameTitle, hintWords, historyBadge, historyPlayers, introWords, keysWords, markOf, moveWords, outcomeOf,
  playersWords, playerTitle, positionWords, reviewStatus, reviewWords, sentence, sourceOf, sourceWords, statusWords, useCatalog, valueText, winnerOf,
} from "../../src/inarow/web/static/js/words.js";

const plain = { x: "x", o: "o" };
const swapped = { x: "o", o: "x" }; // a person who plays O sees their stones as X's when they move first
const upper = (side) => side.toUpperCase();

describe("a move's value", () => {
  test("a win in 3 moves, from the outcome and the plies to the end", () => {
    assert.deepEqual(moveWords({ exact: true, outcome: "win", plies: 5, score: 3 }), { kind: "win", long: "win in 3", short: "W3" });
  });
  test("a loss in 1 when the opponent wins at once (2 plies)", () => {
    assert.deepEqual(moveWords({ exact: true, outcome: "loss", plies: 2, score: -3 }), { kind: "loss", long: "loss in 1", short: "L1" });
  });
  test("a draw", () => {
    assert.deepEqual(moveWords({ exact: true, outcome: "draw", plies: 9, score: 0 }), { kind: "draw", long: "draw", short: "D" });
  });
  test("an inexact value is the engine's evaluation with its sign", () => {
    assert.deepEqual(moveWords({ exact: false, outcome: null, plies: null, score: 12 }), { kind: "unknown", long: "eval +12", short: "+12" });
    assert.equal(moveWords({ exact: false, plies: null, score: -4 }).long, "eval -4");
    assert.equal(moveWords({ exact: false, plies: null, score: 0 }).long, "eval 0");
  });
  test("an answer without outcome (before the server sent it) reads the value 1, 0, -1", () => {
    assert.equal(moveWords({ exact: true, value: -1, plies: 4, score: -2 }).long, "loss in 2");
    assert.equal(outcomeOf({ exact: true, value: 0 }), "draw");
    assert.equal(outcomeOf({ exact: false, value: null }), null);
  });
  test("the outcome field wins over the value when both are there", () => {
    assert.equal(outcomeOf({ exact: true, value: 1, outcome: "draw" }), "draw");
  });
});

describe("where an analysis's values came from", () => {
  const move = (source) => ({ move: "4", exact: true, outcome: "draw", plies: 30, score: 0, source });
  const analysis = (...sources) => ({ exact: true, moves: sources.map(move) });
  test("all from the book, all searched, or some of each", () => {
    assert.equal(sourceWords(analysis("book", "book")), "Every value from the opening book, without a search.");
    assert.equal(sourceWords(analysis("search")), "Every value searched now.");
    assert.equal(sourceWords(analysis("book", "search", "search")), "1 from the opening book, 2 searched now.");
  });
  test("nothing said for an analysis that is not exact, or has no moves", () => {
    assert.equal(sourceWords({ exact: false, moves: [move("search")] }), null);
    assert.equal(sourceWords({ exact: true, moves: [] }), null);
  });
  test("each move's cell says its own", () => {
    assert.equal(sourceOf(move("book")), "from the opening book");
    assert.equal(sourceOf(move("search")), "searched");
  });
});

describe("a position's value", () => {
  /*
   *   . . .
   *   o x .
   *   x . .      o to move: x wins in 2 moves with best play
   */
  const lost = { to_move: "o", exact: true, outcome: "loss", winner: "x", plies: 4, score: -2, depth: null };

  test("names the winner by the mark shown for it", () => {
    assert.equal(positionWords(lost, upper), "X wins in 2 moves");
    assert.equal(positionWords(lost, (side) => markOf({ symbols: swapped }, side)), "O wins in 2 moves");
  });
  test("says move, not moves, for a win in 1", () => {
    assert.equal(positionWords({ ...lost, outcome: "win", winner: "o", plies: 1 }, upper), "O wins in 1 move");
    assert.equal(positionWords({ ...lost, plies: 2 }, upper), "X wins in 1 move");
  });
  test("a draw is a draw with best play, whoever moves", () => {
    assert.equal(positionWords({ to_move: "x", exact: true, outcome: "draw", winner: null, plies: 9 }, upper), "draw with best play");
  });
  test("the winner comes from the winner field, or from the outcome and the side to move", () => {
    assert.equal(winnerOf(lost), "x");
    assert.equal(winnerOf({ to_move: "o", exact: true, value: -1 }), "x");
    assert.equal(winnerOf({ to_move: "o", exact: true, value: 1 }), "o");
    assert.equal(winnerOf({ to_move: "o", exact: true, value: 0 }), null);
  });
  test("the analysis panel says who is to move, then the value", () => {
    assert.equal(analysisSummary(lost, upper), "O to move: X wins in 2 moves.");
  });
  test("an unsolved position shows the evaluation and the depth reached", () => {
    const unsolved = { to_move: "o", exact: false, outcome: null, winner: null, plies: null, score: -28, depth: 4 };
    assert.equal(positionWords(unsolved, upper), null);
    assert.equal(analysisSummary(unsolved, upper), "O to move: not solved in time: evaluation -28 at depth 4.");
  });
  test("a hint names the best move and the value it keeps", () => {
    const drawn = { to_move: "o", exact: true, outcome: "draw", winner: null, plies: 8, best: ["b2"], moves: [{ move: "b2", exact: true }] };
    assert.equal(hintWords(drawn, upper), "Hint: play b2 (draw with best play).");
    const guessed = { ...drawn, exact: false, outcome: null, moves: [{ move: "b2", exact: false }] };
    assert.equal(hintWords(guessed, upper), "Hint: play b2 (the engine's best guess).");
  });
});

describe("names", () => {
  test("games", () => {
    assert.equal(gameTitle("connect4"), "Connect Four");
    assert.equal(gameTitle("6x5:4:gravity"), "6x5, k = 4 with gravity");
    assert.equal(gameTitle("7x7:5"), "7x7, k = 5");
  });
  test("players", () => {
    assert.equal(playerTitle("perfect"), "perfect");
    assert.equal(playerTitle("minimax:1:open-lines"), "minimax, 1 ply");
    assert.equal(playerTitle("alphabeta:4:weighted"), "α-β, 4 plies, weighted");
    assert.equal(playerTitle("alphabeta-soft:3"), "α-β, 3 plies");
  });
  test("search values, with ±∞ for the JSON's inf", () => {
    assert.deepEqual(["inf", "-inf", 3, -3, 0, null].map(valueText), ["+∞", "−∞", "+3", "−3", "0", "?"]);
  });
});

describe("the status line", () => {
  const game = {
    game: "tictactoe", mode: "computer", k: 3, symbols: plain, you: "x", level: "medium", result: null, outcome: null,
    winning_line: [], waiting_for: "you", to_move: "x", players: { x: "you", o: "medium" },
  };
  test("your move, with the sentence said at the start", () => {
    assert.deepEqual(statusWords(game), ["Your move (X).", ""]);
    assert.deepEqual(statusWords(game, { intro: "The computer played b2." }), ["The computer played b2. Your move (X).", ""]);
  });
  test("the computer thinking while a request is under way", () => {
    assert.deepEqual(statusWords({ ...game, waiting_for: "computer" }, { busy: true }), ["The computer is thinking…", "thinking"]);
    const watched = { ...game, mode: "computers", waiting_for: "computer", to_move: "o", players: { x: "rules", o: "minimax:2:open-lines" } };
    assert.deepEqual(statusWords(watched, { busy: true }), ["O (minimax, 2 plies) is thinking…", "thinking"]);
  });
  test("the result against the computer, with the line's length", () => {
    const over = { ...game, result: "o", outcome: "loss", winning_line: ["a1", "b2", "c3"], waiting_for: null };
    assert.deepEqual(statusWords(over), ["The computer wins — 3 in a row.", "loss"]);
    assert.deepEqual(statusWords({ ...over, result: "x", outcome: "win" }), ["You win — 3 in a row!", "win"]);
    assert.deepEqual(statusWords({ ...over, result: "draw", outcome: "draw", winning_line: [] }), ["Draw.", "draw"]);
  });
  test("the result between two people names the winner's mark", () => {
    const over = { ...game, mode: "humans", result: "o", winning_line: ["a1", "b2", "c3"], waiting_for: null };
    assert.deepEqual(statusWords(over), ["O wins — 3 in a row.", "win"]);
  });
  test("who plays", () => {
    assert.equal(playersWords(game), "Tic-tac-toe · You: X (first) · Computer: O, medium");
    assert.equal(playersWords({ ...game, you: "o" }), "Tic-tac-toe · You: O · Computer: X (first), medium");
    assert.equal(playersWords({ ...game, mode: "computers", players: { x: "rules", o: "minimax:2:open-lines" } }), "Tic-tac-toe · X: rules · O: minimax, 2 plies");
  });
  test("the sentence said when the computer moved first", () => {
    assert.equal(introWords({ ...game, first: "random", first_mover: "you", reply: null }), "Random draw: you move first.");
    assert.equal(introWords({ ...game, first: "random", first_mover: "computer", reply: { move: "b2" } }), "Random draw: the computer moves first and played b2.");
    assert.equal(introWords({ ...game, first: "computer", reply: { move: "a1" } }), "The computer played a1.");
    assert.equal(introWords({ ...game, first: "you", reply: null }), "");
  });
});

describe("the history", () => {
  test("badges", () => {
    assert.deepEqual(historyBadge({ result: null }), ["open", "unfinished"]);
    assert.deepEqual(historyBadge({ result: "x", outcome: "win", symbols: plain }), ["win", "won"]);
    assert.deepEqual(historyBadge({ result: "o", outcome: null, symbols: plain }), ["draw", "O won"]);
  });
  test("players", () => {
    assert.equal(historyPlayers({ mode: "computer", level: "hard" }), "vs computer (hard)");
    assert.equal(historyPlayers({ mode: "computers", players: { x: "rules", o: "minimax:2:open-lines" } }), "rules vs minimax, 2 plies");
  });

  /*
   *   . . .
   *   . x .
   *   . . .      o plays b1, an edge: a draw turned into a loss in 3; a corner holds the draw
   */
  const mistake = {
    ply: 2, move: "b1", cell: "b1", side: "o", exact: true, value_before: 0, value: -1, mistake: true,
    best: ["a1", "a3", "c1", "c3"],
    moves: [
      { move: "a1", exact: true, value: 0, score: 0, plies: 8 },
      { move: "b1", exact: true, value: -1, score: -2, plies: 6 },
    ],
  };
  test("a reviewed move's words come from its values", () => {
    assert.deepEqual(reviewWords(mistake), { played: "loss in 3", best: "draw", verdict: "turned a draw into a loss" });
    assert.equal(reviewWords({ ...mistake, mistake: false }).verdict, "");
  });
  test("the review's sentence", () => {
    const game = { symbols: plain, result: null };
    const first = { ...mistake, ply: 1, side: "x", move: "b2", mistake: false, best: ["a1"], moves: [{ move: "b2", exact: true, value: 0, plies: 9 }, { move: "a1", exact: true, value: 0, plies: 9 }] };
    const plies = [first, mistake];
    assert.equal(reviewStatus(game, plies, 0), "Move 1 of 2: X played b2 (draw); best was a1 (draw).");
    assert.equal(reviewStatus(game, plies, 1), "Move 2 of 2: O played b1 (loss in 3); best was a1, a3, c1, … (draw). Mistake: it turned a draw into a loss.");
    assert.equal(reviewStatus(game, [first, { ...mistake, best: ["a1", "a3", "c1"] }], 1), "Move 2 of 2: O played b1 (loss in 3); best was a1, a3, c1 (draw). Mistake: it turned a draw into a loss.");
    assert.equal(reviewStatus(game, plies, 2), "Final position: the game is unfinished.");
    assert.equal(reviewStatus({ ...game, result: "x" }, plies, 2), "Final position: X won.");
    assert.equal(reviewStatus({ ...game, result: "draw" }, plies, 2), "Final position: draw.");
  });
  test("an inexact review shows the evaluation", () => {
    const guessed = { ...mistake, exact: false, mistake: false, moves: [{ move: "b1", exact: false, value: null, score: 5, plies: null }, { move: "a1", exact: false, value: null, score: 9, plies: null }] };
    assert.deepEqual(reviewWords(guessed), { played: "eval +5", best: "eval +9", verdict: "" });
  });
});

describe("the keys that play", () => {
  test("on 3×3 the digits as on a numeric keypad", () => {
    assert.equal(keysWords({ columns: 3, rows: 3, gravity: false }), "Keys: arrows and Enter to play, or 1–9 laid out as on a numeric keypad.");
  });
  test("with gravity the column numbers", () => {
    assert.equal(keysWords({ columns: 7, rows: 6, gravity: true }), "Keys: arrows and Enter to play, or 1–7 to drop a stone in that column.");
  });
  test("elsewhere (Gomoku, 4×4, a wide board with gravity) arrows and Enter only", () => {
    assert.equal(keysWords({ columns: 15, rows: 15, gravity: false }), "Keys: arrows and Enter to play.");
    assert.equal(keysWords({ columns: 4, rows: 4, gravity: false }), "Keys: arrows and Enter to play.");
    assert.equal(keysWords({ columns: 12, rows: 6, gravity: true }), "Keys: arrows and Enter to play.");
  });
});

test("an error sent as fields is said in the reader's language, its !r parameters quoted as Python quotes them", () => {
  const said = {
    message: "the evaluation {name!r} raised {error} on {position!r} (Max is {side}) at line {line}",
    params: { name: "<pasted>:e", error: "ZeroDivisionError: division by zero", position: ".../.../...", side: "x", line: 2 },
  };
  useCatalog({ tag: "en", messages: {} });
  assert.equal(sentence(said), "the evaluation '<pasted>:e' raised ZeroDivisionError: division by zero on '.../.../...' (Max is x) at line 2");
  useCatalog({ tag: "zh-CN", messages: { [said.message]: "估价函数 {name!r} 在局面 {position!r}（极大方为 {side}）第 {line} 行抛出 {error}", "{list}, {item}": "{list}、{item}", "cell is taken": "格子已被占" } });
  assert.equal(sentence(said), "估价函数 '<pasted>:e' 在局面 '.../.../...'（极大方为 x）第 2 行抛出 ZeroDivisionError: division by zero");
  assert.equal(sentence({ message: "{known} / {reason}", params: { known: { items: ["f", "g", "h"] }, reason: { message: "cell is taken", params: {} } } }), "f、g、h / 格子已被占");
  assert.equal(sentence({ message: "{text!r}", params: { text: "it's" } }), "\"it's\"");
  useCatalog(null);
});
