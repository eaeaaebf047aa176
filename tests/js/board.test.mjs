// The board's pure parts: which boards are grids, their star points, the coordinates: node --test tests/js/
import assert from "node:assert/strict";
import { test } from "node:test";

import { coordinates, heatLevels, isGrid, starPoints } from "../../src/inarow/web/static/js/board.js";

test("boards of 9 lines or more without gravity are drawn as grids of lines", () => {
  assert.equal(isGrid({ columns: 15, rows: 15, gravity: false }), true);
  assert.equal(isGrid({ columns: 9, rows: 4, gravity: false }), true);
  assert.equal(isGrid({ columns: 3, rows: 3, gravity: false }), false);
  assert.equal(isGrid({ columns: 7, rows: 6, gravity: true }), false);
});

test("Gomoku's star points are the 4th-line corners and the centre; 19 lines add the side points", () => {
  assert.deepEqual(starPoints(15, 15).sort(), ["d12", "d4", "h8", "l12", "l4"]);
  assert.deepEqual(starPoints(19, 19).sort(), ["d10", "d16", "d4", "j10", "j16", "j4", "p10", "p16", "p4"].sort());
  assert.deepEqual(starPoints(9, 9).sort(), ["c3", "c7", "e5", "g3", "g7"]);
  assert.deepEqual(starPoints(3, 3), []);
});

test("coordinates are letters under the board and row numbers from the top down beside it", () => {
  assert.deepEqual(coordinates(3, 3, false), { columns: ["a", "b", "c"], rows: ["3", "2", "1"] });
  assert.deepEqual(coordinates(7, 6, true).columns, ["1", "2", "3", "4", "5", "6", "7"]);
});

test("the heat map rates the analysed moves that are not candidates from the worst (bare) to the best (1)", () => {
  const moves = [
    { move: "h8", winrate: 0.9 },
    { move: "a1", winrate: 0.1 },
    { move: "i9", winrate: 0.5 },
    { move: "j9", winrate: 0.14 },
    { move: "g7", winrate: 0.7 },
    { move: "k2", winrate: null },
  ];
  const levels = heatLevels(moves, new Set(["h8"]));
  assert.deepEqual([...levels.entries()].sort(), [["g7", 1], ["i9", 0.6]]);
  assert.equal(levels.has("a1"), false, "the worst move is bare");
  assert.equal(levels.has("j9"), false, "a move below the first step is bare");
  assert.equal(levels.has("h8"), false, "a candidate gets its number, not heat");
  assert.deepEqual(heatLevels([{ move: "a1", winrate: 0.5 }, { move: "b1", winrate: 0.5 }], new Set()), new Map());
  assert.deepEqual(heatLevels([], new Set()), new Map());
});
