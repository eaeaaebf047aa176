// Trees of one's own and links to Explain: node --test tests/js/
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  PRESETS, alphaBetaCount, leavesText, linkedExplain, minimaxValue, orderedLeaves, randomLeaves, readLeaves,
} from "../../src/inarow/web/static/js/leaves.js";

const RN = [[3, 12, 8], [2, 4, 6], [14, 5, 2]];

/** Every leaf of `tree`, left to right. */
const flat = (tree) => (Array.isArray(tree) ? tree.flatMap(flat) : [tree]);

/** α-β written apart from leaves.js, the other way round (Min's values negated, negamax form), counting leaves. */
function negamaxCount(tree) {
  let evaluated = 0;
  const search = (node, alpha, beta, sign) => {
    if (!Array.isArray(node)) {
      evaluated += 1;
      return sign * node;
    }
    let best = -Infinity;
    for (const child of node) {
      best = Math.max(best, -search(child, -beta, -Math.max(alpha, best), -sign));
      if (Math.max(alpha, best) >= beta) break;
    }
    return best;
  };
  return { value: search(tree, -Infinity, Infinity, 1), evaluated };
}

test("Russell and Norvig's tree: value 3, and α-β evaluates 7 of its 9 leaves (b2 and b3 are pruned)", () => {
  assert.equal(minimaxValue(RN), 3);
  assert.deepEqual(alphaBetaCount(RN), { value: 3, evaluated: 7, leaves: 9 });
  assert.deepEqual(PRESETS["russell-norvig"].leaves, RN);
});

test("the best order never evaluates more leaves than the tree as typed, the worst never fewer, and the value stays", () => {
  for (let seed = 1; seed <= 200; seed += 1) {
    const tree = randomLeaves(1 + (seed % 4), 2 + (seed % 3), seed);
    const typed = alphaBetaCount(tree);
    const best = alphaBetaCount(orderedLeaves(tree, "best"));
    const worst = alphaBetaCount(orderedLeaves(tree, "worst"));
    const oracle = negamaxCount(tree);
    assert.equal(typed.value, oracle.value, `seed ${seed}: α-β's value is negamax's`);
    assert.equal(typed.evaluated, oracle.evaluated, `seed ${seed}: the same leaves evaluated`);
    assert.equal(typed.value, minimaxValue(tree));
    assert.ok(best.evaluated <= typed.evaluated && typed.evaluated <= worst.evaluated, `seed ${seed}`);
    assert.equal(best.value, typed.value);
    assert.equal(worst.value, typed.value);
    assert.deepEqual(flat(orderedLeaves(tree, "best")).sort((a, b) => a - b), flat(tree).sort((a, b) => a - b), "the same leaves, reordered");
  }
});

test("in the worst order α-β prunes nothing on a tree of distinct leaves", () => {
  const tree = [[[1, 2], [3, 4]], [[5, 6], [7, 8]]];
  assert.equal(alphaBetaCount(orderedLeaves(tree, "worst")).evaluated, 8);
  assert.ok(alphaBetaCount(orderedLeaves(tree, "best")).evaluated < 8);
});

test("a random tree is the seed's: the same seed, the same tree; its shape is the depth and branching asked", () => {
  assert.deepEqual(randomLeaves(3, 2, 42), randomLeaves(3, 2, 42));
  assert.notDeepEqual(randomLeaves(3, 2, 42), randomLeaves(3, 2, 43));
  const tree = randomLeaves(3, 3, 7);
  assert.equal(flat(tree).length, 27);
  assert.ok(flat(tree).every((leaf) => Number.isInteger(leaf) && leaf >= -9 && leaf <= 20));
});

test("a tree is read from its text, and what is not nested lists of numbers is refused", () => {
  assert.deepEqual(readLeaves(" [[3,12,8],[2,4,6],[14,5,2]] "), RN);
  assert.equal(leavesText(RN), "[[3,12,8],[2,4,6],[14,5,2]]");
  for (const bad of ["", "[", "3", "[]", "[[1,2],[]]", '[[1,"a"]]', "[[1,true]]", "{}"]) assert.equal(readLeaves(bad), null, bad);
});

test("a link opens Explain on a tree or on a position, and nothing else is taken for one", () => {
  assert.deepEqual(linkedExplain("?leaves=[[3,12,8],[2,4,6],[14,5,2]]&algo=alphabeta"), { source: "tree", leaves: "[[3,12,8],[2,4,6],[14,5,2]]", algorithm: "alphabeta" });
  assert.deepEqual(linkedExplain("?game=tictactoe&position=b2%20a1%20c3&explain=alphabeta&depth=2"), {
    source: "position", game: "tictactoe", position: "b2 a1 c3", algorithm: "alphabeta", depth: 2, max: null,
  });
  assert.equal(linkedExplain("?position=b2&explain=pvs&max=x").max, "x", "MAX, the side whose standpoint the values take");
  assert.equal(linkedExplain("?position=b2&explain=pvs&max=x").algorithm, "pvs");
  assert.equal(linkedExplain("?position=b2&explain=minimax&max=z").max, null, "a side not known is the side to move");
  assert.equal(linkedExplain("?leaves=[[1,2]]&algo=nonsense").algorithm, null, "an unknown algorithm is left to the menu");
  assert.equal(linkedExplain("?position=b2&explain=minimax&depth=end").depth, "end");
  assert.equal(linkedExplain("?position=b2&explain=minimax").game, "tictactoe");
  assert.equal(linkedExplain("?game=tictactoe&position=b2%20a1"), null, "a position without explain= is for playing, not explaining");
  assert.equal(linkedExplain(""), null);
  assert.equal(linkedExplain("?lang=zh"), null);
});
