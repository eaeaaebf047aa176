// The Gomoku family's words on the page: black and white, and the analysis's candidates: node --test tests/js/
import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { candidates, candidateWords, CANDIDATES, markOf, rankKey, playersWords, stoneGame, stonesOf } from "../../src/inarow/web/static/js/words.js";

const plain = { x: "x", o: "o" };
const gomoku = { game: "gomoku", k: 5, gravity: false, symbols: plain, mode: "computer", you: "o", level: "hard", players: {} };

describe("the Gomoku family is five in a row without gravity", () => {
  test("from a game's state: k and gravity", () => {
    assert.equal(stoneGame(gomoku), true);
    assert.equal(stoneGame({ ...gomoku, game: "19x19:5", k: 5 }), true);
    assert.equal(stoneGame({ ...gomoku, game: "9x9:5:gravity", gravity: true }), false);
    assert.equal(stoneGame({ game: "tictactoe", k: 3, gravity: false, symbols: plain }), false);
  });
  test("from a line of the history: its name", () => {
    for (const name of ["gomoku", "gomoku-standard", "renju", "15x15:5", "13x13:5:exact", "gomoku:o-first"]) assert.equal(stoneGame({ game: name }), true, name);
    for (const name of ["tictactoe", "connect4", "9x9:4", "15x15:5:gravity"]) assert.equal(stoneGame({ game: name }), false, name);
  });
});

describe("black moves first, white second", () => {
  test("x is black, whatever symbols a person chose", () => {
    assert.equal(markOf(gomoku, "x"), "Black");
    assert.equal(markOf({ ...gomoku, symbols: { x: "o", o: "x" } }, "x"), "Black");
    assert.equal(markOf(gomoku, "o"), "White");
    assert.deepEqual(stonesOf({ ...gomoku, symbols: { x: "o", o: "x" } }), { x: "x", o: "o" });
  });
  test("in an O-first game o is black and drawn with the black stone", () => {
    const oFirst = { ...gomoku, game: "gomoku:o-first" };
    assert.equal(markOf(oFirst, "o"), "Black");
    assert.deepEqual(stonesOf(oFirst), { o: "x", x: "o" });
  });
  test("the players' line says who plays black without '(first)'", () => {
    assert.equal(playersWords(gomoku), "Gomoku · You: White · Computer: Black, hard");
  });
  test("other games keep X and O", () => {
    assert.equal(markOf({ game: "tictactoe", k: 3, gravity: false, symbols: plain }, "x"), "X");
  });
});

describe("the analysis's candidates", () => {
  const move = (name, score, line = [name, "a1"], extra = {}) => ({ move: name, exact: false, score, winrate: 0.5, line, ...extra });
  test("the moves with a line, the engine's choice first, then by value, at most ten", () => {
    const moves = [move("a2", -50), move("b2", 300), move("c2", 900, []), move("d2", 100), ...Array.from({ length: 12 }, (_, i) => move(`e${i + 1}`, -100 - i))];
    const shown = candidates({ best: ["d2"], moves });
    assert.equal(shown.length, CANDIDATES);
    assert.deepEqual(shown.slice(0, 4).map((m) => m.move), ["d2", "b2", "a2", "e1"]);
    assert.ok(!shown.some((m) => m.move === "c2"));
  });
  test("searched scores come before bounds whatever their values, as the command line lists them", () => {
    const moves = [move("a2", 50, ["a2"], { source: "bound" }), move("b2", -20), move("d2", 10), move("f2", 10, ["f2"], { source: "bound" })];
    assert.deepEqual(candidates({ best: ["d2"], moves }).map((m) => m.move), ["d2", "b2", "a2", "f2"]);
    assert.deepEqual(rankKey(moves[0], "d2"), [3, -50]);
  });
  test("a bound reads as at most its value", () => {
    assert.equal(candidateWords(move("h8", 240, ["h8"], { winrate: 0.621, source: "bound" }), 2), "2. h8 — 62%, ≤ eval +240 — h8");
  });
  test("a candidate reads its rank, win rate, value and first moves; a proven one its exact words", () => {
    assert.equal(candidateWords(move("h8", 240, ["h8", "i9", "j10"], { winrate: 0.621 }), 1), "1. h8 — 62%, eval +240 — h8 i9 j10");
    assert.equal(candidateWords({ move: "h8", exact: true, outcome: "win", plies: 5, score: 100, winrate: 1, line: ["h8", "h9"] }, 2), "2. h8 — 100%, win in 3 — h8 h9");
  });
});
