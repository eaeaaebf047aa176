import assert from "node:assert/strict";
import { test } from "node:test";

import { SAMPLE, checkRow, differing, sampleIndices } from "../../src/inarow/web/static/js/verify.js";

/** A generator of [0, 1) numbers from a fixed list, repeated. */
const fixed = (...values) => {
  let i = 0;
  return () => values[i++ % values.length];
};

test("a sample is distinct increasing indices, and every index when it asks for as many or more", () => {
  const sample = sampleIndices(100, 10, fixed(0.5, 0.1, 0.9, 0.3, 0.7));
  assert.equal(sample.length, 10);
  assert.equal(new Set(sample).size, 10);
  assert.deepEqual(sample, [...sample].sort((a, b) => a - b));
  assert.ok(sample.every((i) => Number.isInteger(i) && i >= 0 && i < 100));
  assert.deepEqual(sampleIndices(5, 5, fixed(0.99)), [0, 1, 2, 3, 4]);
  assert.deepEqual(sampleIndices(5, 50, fixed(0)), [0, 1, 2, 3, 4]);
  assert.deepEqual(sampleIndices(5, 0, fixed(0)), []);
});

test("a sample drawn with the lowest numbers takes the first indices; the highest reaches the last", () => {
  assert.deepEqual(sampleIndices(10, 3, fixed(0)), [0, 1, 2]);
  assert.deepEqual(sampleIndices(10, 1, fixed(0.999999)), [9]);
});

test("moves differ where the chosen one is not the posted one", () => {
  assert.equal(differing(["b2", "a1", "c3"], ["b2", "a1", "c3"]), 0);
  assert.equal(differing(["b2", "a1", "c3"], ["b2", "c1", "a3"]), 2);
});

const DIAGRAMS = ["d0", "d1", "d2", "d3"];
const ROW = { id: 7, game: "tictactoe", algorithm: "alphabeta", depth: 2, evaluation: "e", source: "def e(board): ...", moves: "a1 b1 c1 a2" };
const positions = async (game) => (game === "tictactoe" ? DIAGRAMS : []);
/** A run that chooses, for diagram dN, the move `moves[N]`, and keeps the requests it was asked. */
const runner = (moves) => {
  const asked = [];
  const run = async (request) => {
    asked.push(request);
    return { moves: request.args[1].map((diagram) => moves[Number(diagram.slice(1))]).join(" "), values: [] };
  };
  return { run, asked };
};

test("a row whose source chooses the posted moves is verified, and the run is the page's own choose", async () => {
  const { run, asked } = runner(["a1", "b1", "c1", "a2"]);
  assert.deepEqual(await checkRow(ROW, { run, positions, count: null }), { id: 7, verified: "yes", checked: 4, differing: 0 });
  assert.deepEqual(asked, [{ op: "choose", args: ["tictactoe", DIAGRAMS, "alphabeta", 2], source: ROW.source, function: "e" }]);
});

test("a row whose source chooses other moves is flagged with how many differ among those checked", async () => {
  const { run, asked } = runner(["a1", "b2", "c1", "b2"]);
  assert.deepEqual(await checkRow(ROW, { run, positions, count: null }), { id: 7, verified: "flagged", checked: 4, differing: 2 });
  const sample = await checkRow(ROW, { run, positions, count: 2, random: fixed(0, 0.5) });
  assert.deepEqual(sample, { id: 7, verified: "yes", checked: 2, differing: 0 }, "the sample's two positions agree");
  assert.deepEqual(asked[1].args[1], ["d0", "d2"]);
});

test("a sample is SAMPLE positions unless asked otherwise", async () => {
  const many = Array.from({ length: 2 * SAMPLE + 1 }, (_, i) => `d${i}`);
  const row = { ...ROW, moves: many.map(() => "a1").join(" ") };
  const { run, asked } = runner(many.map(() => "a1"));
  const verdict = await checkRow(row, { run, positions: async () => many });
  assert.deepEqual(verdict, { id: 7, verified: "yes", checked: SAMPLE, differing: 0 });
  assert.equal(asked[0].args[1].length, SAMPLE);
});

test("a source that fails is flagged with its error; one stopped at its time limit is no verdict", async () => {
  const failing = async () => {
    throw new Error("the evaluation '<pasted>:e' raised ZeroDivisionError");
  };
  assert.deepEqual(await checkRow(ROW, { run: failing, positions, count: null }), {
    id: 7, verified: "flagged", checked: 4, differing: 4, error: "the evaluation '<pasted>:e' raised ZeroDivisionError",
  });
  const stopped = async () => {
    throw Object.assign(new Error("e ran longer than 3 s"), { stopped: true });
  };
  await assert.rejects(checkRow(ROW, { run: stopped, positions, count: null }), /ran longer than 3 s/);
});

test("moves posted that are not one per position are flagged without running anything", async () => {
  const { run, asked } = runner([]);
  assert.deepEqual(await checkRow({ ...ROW, moves: "a1 b1" }, { run, positions }), { id: 7, verified: "flagged", checked: 4, differing: 4 });
  assert.equal(asked.length, 0);
});
