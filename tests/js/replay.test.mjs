// The replay of a recorded search in words, made from the explain JSON's fields: node --test tests/js/
// The fixtures are `inarow tree … --format json` answers (tests/test_explain_fixtures.py keeps them current).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import {
  breakdownWords, currentNode, deepeningRows, failHardWords, isRight, liveState, parseValue, pathIds, questionBefore, questions, revealed,
  scoreWords, standpointWords, stepWords, whyWords,
} from "../../src/inarow/web/static/js/replay.js";

const load = (name) => JSON.parse(readFileSync(new URL(`../data/explain/${name}`, import.meta.url), "utf8"));
const mark = (side) => side.toUpperCase();
const rn = load("russell-norvig.json"); // [[3,12,8],[2,4,6],[14,5,2]], α-β
const board = load("b2-a1-alphabeta-2.json"); // .../.x./o.., x to move, α-β 2 plies
const negamax = load("russell-norvig-negamax.json"); // the same tree, α-β in negamax form
const words = (tree) => tree.events.map((_, index) => stepWords(tree, index, mark));

test("the Russell and Norvig tree is told step by step, its one pruning named with the leaves it leaves out", () => {
  const log = words(rn);
  assert.equal(log[0], "Start at the root: Max (X) to move, α = −∞, β = +∞");
  assert.ok(log.includes("The root: α rises to +3, best so far a"));
  assert.ok(log.includes("b1 returns +2 ≤ α = +3: α cut-off at b, b2 b3 are pruned"));
  assert.equal(log.at(-1), "The root's value is +3: best move a");
  const cutoffs = log.filter((line) => line.includes("cut-off"));
  assert.equal(cutoffs.length, rn.nodes.filter((node) => node.cutoff).length);
});

test("the course's α-β is fail-soft: b returns its best child's value, a bound ≤ +2, and says nothing of fail-hard", () => {
  const b = rn.nodes.find((node) => node.move === "b");
  assert.equal(b.value, 2);
  assert.equal(b.bound, "≤");
  assert.equal(failHardWords(b), null);
  assert.equal(failHardWords(rn.nodes[0]), null, "the root returns its best child's value");
  assert.match(stepWords(rn, b.exit, mark), /^b returns \+2 to the root/);
});

test("α and β are live at every node on the path, and the answer is hidden until the root returns", () => {
  const root = rn.nodes[0];
  const c = rn.nodes.find((node) => node.move === "c");
  const atC = liveState(rn, c.enter);
  assert.deepEqual([atC.get(0).alpha, atC.get(0).beta, atC.get(0).best], [3, "inf", "a"], "the root's α rose to +3");
  assert.deepEqual([atC.get(c.id).alpha, atC.get(c.id).beta], [3, "inf"]);
  const c2 = rn.nodes.find((node) => node.move === "c2");
  assert.equal(liveState(rn, c2.exit + 1).get(c.id).beta, 5, "c's β fell to +5 after c2");
  assert.deepEqual(pathIds(rn, c2.id), [0, c.id, c2.id]);
  assert.equal(currentNode(rn, c2.enter).id, c2.id);
  assert.equal(revealed(rn, root.exit - 1), false);
  assert.equal(revealed(rn, root.exit), true);
});

test("a board leaf shows how its e(P) was computed, line by line", () => {
  const leaf = board.nodes.find((node) => node.leaf === "depth" && node.breakdown);
  const said = breakdownWords(leaf, mark);
  const b = leaf.breakdown;
  assert.equal(said.sum, `e(P) = ${b.mine_total} − ${b.theirs_total} = ${b.value > 0 ? "+" : b.value < 0 ? "−" : ""}${Math.abs(b.value)}`);
  assert.equal(b.mine_total - b.theirs_total, b.value);
  assert.match(said.mine, /^X: .* = \d+$/);
  assert.match(said.theirs, /^O: .* = \d+$/);
  assert.match(stepWords(board, leaf.exit, mark), /is at the depth limit: e\(P\) = \d+ − \d+ = /);
});

test("the standpoint is said once, naming Max", () => {
  assert.equal(standpointWords(board, mark), "Max is X, Min is O: every value is X's, so higher is better for X.");
  assert.match(standpointWords({ ...board, frame: "to_move" }, mark), /^Max is X, Min is O\. In negamax/);
});

test("Try it asks each inner node's value and each cut-off that could prune, and scores the answers", () => {
  const list = questions(rn);
  const values = list.filter((q) => q.kind === "value");
  assert.deepEqual(values.map((q) => rn.nodes[q.node].move ?? "root"), ["a", "b", "c", "root"]);
  const cut = list.filter((q) => q.kind === "cutoff");
  assert.deepEqual(cut.map((q) => [rn.nodes[q.child].move, q.answer]), [["a1", false], ["a2", false], ["a", false], ["b1", true], ["b", false], ["c1", false], ["c2", false]]);
  const b1 = cut.find((q) => rn.nodes[q.child].move === "b1");
  assert.equal(questionBefore(list, b1.step), b1);
  assert.equal(rn.events[b1.step].kind, "cutoff", "the question comes just before the cut-off is shown");
  assert.ok(isRight(b1, true) && !isRight(b1, false));
  const root = values.at(-1);
  assert.ok(isRight(root, "+3") && isRight(root, " 3") && !isRight(root, "2") && !isRight(root, "three"));
  assert.equal(scoreWords(7, 11), "7 of 11 right");
});

test("typed values are read with their signs and infinities", () => {
  assert.deepEqual(["+3", "−2", "-inf", "∞", "+∞", "0", "x"].map(parseValue), [3, -2, -Infinity, Infinity, Infinity, 0, null]);
});

test("iterative deepening's table says, for each depth, the move searched first and the best found", () => {
  assert.deepEqual(deepeningRows(board), [], "no table when the search did not deepen");
  const deepened = {
    ...board,
    deepening: [
      { depth: 1, first: null, move: "a3", value: 3, nodes: 8, seconds: 0.0002 },
      { depth: 2, first: "a3", move: "a3", value: 1, nodes: 1234, seconds: 0.025 },
    ],
  };
  assert.deepEqual(deepeningRows(deepened), [
    { depth: "1 ply", first: "—", move: "a3", value: "+3", nodes: "8", time: "0.2 ms" },
    { depth: "2 plies", first: "a3", move: "a3", value: "+1", nodes: "1,234", time: "25 ms" },
  ]);
});

test("the first child of a node searched in another order than the board's says the order and why", () => {
  const root = { ...board.nodes[0], order: "evaluation" };
  const ordered = { ...board, nodes: [root, ...board.nodes.slice(1)] };
  const first = board.nodes[root.children[0]];
  const moves = [...root.children.map((id) => board.nodes[id].move), ...root.pruned].join(" ");
  assert.equal(
    stepWords(ordered, first.enter, mark),
    `Try ${first.move}: Min (O) to move, α = −∞, β = +∞; the root tries its children best first, by e(P) after the move: ${moves}`,
  );
  assert.doesNotMatch(stepWords(board, first.enter, mark), /tries its children/, "the board's own order goes without saying");
});

test("negamax says each negation aloud: a child's value, negated, for its parent, and the window flipped at every node", () => {
  const log = words(negamax);
  assert.ok(log.includes("a1 is a leaf: +3; a1's +3, negated, is −3 for a"));
  assert.ok(log.includes("a returns −3 to the root; a's −3, negated, is +3 for the root"));
  assert.ok(log.includes("Try b: O to move; the root's window α = +3, β = +∞, flipped and negated to (−β, −α): α = −∞, β = −3"));
  assert.ok(log.includes("b1's +2, negated, is −2 ≥ β = −3: β cut-off at b, b2 b3 are pruned"));
  negamax.events.forEach((event, index) => {
    const node = negamax.nodes[event.node];
    if (event.kind === "enter" && node.parent !== null) assert.match(log[index], /flipped and negated to \(−β, −α\)/, `step ${index + 1}`);
    if (event.kind === "return" && node.parent !== null) assert.match(log[index], /, negated, is /, `step ${index + 1}`);
    if (event.kind === "cutoff") assert.match(log[index], /[αβ] cut-off at/, `step ${index + 1}: α or β named`);
  });
});

test("Try it explains each answer: the comparison that makes a cut-off or not, and how a value is taken", () => {
  const list = questions(rn);
  const cut = list.find((question) => question.kind === "cutoff" && question.answer);
  assert.equal(whyWords(rn, cut), "a cut-off: +2 ≤ α = +3");
  const c = rn.nodes.find((node) => node.move === "c");
  const none = list.find((question) => question.kind === "cutoff" && !question.answer && question.node === c.id);
  assert.equal(whyWords(rn, none), "no cut-off: β = +14 is still above α = +3");
  const a = list.find((question) => question.kind === "value" && rn.nodes[question.node].move === "a");
  assert.equal(whyWords(rn, a), "Min takes the smallest of +3, +12, +8");
  const b = list.find((question) => question.kind === "value" && rn.nodes[question.node].move === "b");
  assert.equal(whyWords(rn, b), "Min takes the smallest of +2", "fail-soft: the best value seen");
  const root = list.find((question) => question.kind === "value" && question.node === 0);
  assert.equal(whyWords(negamax, questions(negamax).find((q) => q.kind === "value" && q.node === 0)), "the largest of its children's values negated: +3, +2, +2"); // fail-soft
  assert.equal(whyWords(rn, root), "Max takes the largest of +3, +2, +2"); // fail-soft: b ≤ 2, c = 2
});
