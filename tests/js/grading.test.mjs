// A class ranking its evaluation functions from POST /api/student/grade answers: node --test tests/js/
import assert from "node:assert/strict";
import { test } from "node:test";

import { blunderWords, headlineWords, keptWords, matchWords, rankEntry, ranked, shareText } from "../../src/inarow/web/static/js/grading.js";

const answer = (evaluation, accuracy, depth = 2) => ({
  game: "tictactoe", evaluation, algorithm: "alphabeta", depth, positions: 4520, kept: Math.round(accuracy * 4520), accuracy, blunders: [], matches: [],
});

test("a grade is said as the positions whose value the move kept, to a tenth of a per cent", () => {
  assert.equal(keptWords({ kept: 4297, positions: 4520, accuracy: 0.950664 }), "kept the value in 4,297 of 4,520 positions (95.1%)");
  assert.equal(shareText(1), "100.0%");
  assert.equal(shareText(0.88188), "88.2%");
});

test("a blunder names the position, the move, what it threw away and the moves that keep the value", () => {
  const blunder = { position: "..o/x../.x.", to_move: "o", ply: 3, move: "b2", before: "win", after: "loss", loss: 2, keeping: ["a3", "c1"], searched: 0 };
  assert.equal(blunderWords(blunder), "..o/x../.x., O to move: b2 turns a win into a loss (a3 c1 would have kept it)");
  const row = { opponent: "open-lines", results: { wins: 3, draws: 0, losses: 1 } };
  assert.equal(matchWords(row), "against open-lines: 3 won, 0 drawn, 1 lost");
});

test("the ranking puts the best first, keeps one entry per name and search, and names an unnamed e(P) by itself", () => {
  let list = [];
  list = ranked(list, rankEntry(answer("<pasted>:e", 0.88), "Ada"));
  list = ranked(list, rankEntry(answer("open-lines", 0.95), ""));
  list = ranked(list, rankEntry(answer("<pasted>:e", 0.91), "Bo"));
  assert.deepEqual(list.map((entry) => entry.who), ["open-lines", "Bo", "Ada"]);
  list = ranked(list, rankEntry(answer("<pasted>:e", 0.97), "Ada"));
  assert.deepEqual(list.map((entry) => [entry.who, entry.accuracy]), [["Ada", 0.97], ["open-lines", 0.95], ["Bo", 0.91]], "Ada's new grade replaces her old one");
  list = ranked(list, rankEntry(answer("<pasted>:e", 0.5, 1), "Ada"));
  assert.equal(list.length, 4, "another depth is another entry");
  list = ranked(list, rankEntry(answer("x", 0.91), "Al"));
  assert.deepEqual(list.slice(2, 4).map((entry) => entry.who), ["Al", "Bo"], "ties by name");
});

test("the headline is the share kept where e(P) decides, beside e ≡ 0 and a random e(P), and it ranks first", () => {
  const graded = (share, accuracy) => ({
    ...answer("<pasted>:e", accuracy),
    decisive: { kept: Math.round(share * 467), positions: 467, share },
    baselines: { zero: 0.396146, random: 0.417559 },
  });
  assert.equal(headlineWords(graded(0.522484, 0.950664)), "where e(P) decides, kept the value in 244 of 467 positions (52.2%); e ≡ 0 keeps 39.6%, a random e(P) 41.8%");
  const none = { ...answer("open-lines", 1, null), decisive: { kept: 0, positions: 0, share: null }, baselines: { zero: null, random: null } };
  assert.equal(headlineWords(none), "e(P) decides no position at this depth: the search alone decides every one");
  let list = ranked([], rankEntry(graded(0.5, 0.97), "Ada"));
  list = ranked(list, rankEntry(graded(0.75, 0.96), "Bo"));
  assert.deepEqual(list.map((entry) => [entry.who, entry.headline]), [["Bo", 0.75], ["Ada", 0.5]], "the headline before the overall share");
});
