// Trees of one's own for the Explain panel: abstract game trees typed as nested lists of leaf values
// (Max to move at the root, every value from Max's standpoint), the presets, seeded random trees, the
// children put in the best or the worst order for α-β, and how many leaves α-β evaluates in each order,
// and what a link to the page asks Explain to open. The server searches and draws the tree the page
// shows (POST /api/explain/tree); what is counted here only compares orders. Pure functions: no DOM, so
// node can test them.

import { N_ } from "./words.js";

/** Trees a teacher can start from, by name: `label` for the menu, `leaves` the nested lists. */
export const PRESETS = {
  "russell-norvig": { label: N_("Russell & Norvig (3 × 3)"), leaves: [[3, 12, 8], [2, 4, 6], [14, 5, 2]] },
  "binary-3": { label: N_("Binary, 3 plies"), leaves: [[[3, 17], [2, 12]], [[15, 25], [0, 2]]] },
  "binary-4": {
    label: N_("Binary, 4 plies"),
    leaves: [[[[10, 11], [9, 12]], [[14, 15], [13, 14]]], [[[5, 2], [4, 1]], [[3, 22], [20, 21]]]],
  },
  "unbalanced": { label: N_("Unbalanced, with ties"), leaves: [[5, [6, 7], 4], [[3, 3], 8], [-2, [9, 1, 5]]] },
};

/** The tree `text` (JSON nested lists of numbers, at least one list deep), or null when it is not one. */
export function readLeaves(text) {
  let data;
  try {
    data = JSON.parse(text);
  } catch {
    return null;
  }
  const ok = (item) => (Array.isArray(item) ? item.length > 0 && item.every(ok) : typeof item === "number" && Number.isFinite(item));
  return Array.isArray(data) && ok(data) ? data : null;
}

/** The tree as typed in a box and sent in a link: compact JSON, "[[3,12,8],[2,4,6]]". */
export const leavesText = (leaves) => JSON.stringify(leaves);

/** A generator of numbers in [0, 1) from `seed` (mulberry32): the same seed, the same tree. */
function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = state;
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}

/** A tree `depth` plies deep, every inner node with `branching` children, leaves whole numbers in [low, high]. */
export function randomLeaves(depth, branching, seed, low = -9, high = 20) {
  const next = random(seed);
  const grow = (left) =>
    left === 0 ? low + Math.floor(next() * (high - low + 1)) : Array.from({ length: branching }, () => grow(left - 1));
  return depth < 1 ? [grow(0)] : grow(depth);
}

/** Minimax's value of `tree` with Max to move at its root (`max` true). */
export function minimaxValue(tree, max = true) {
  if (!Array.isArray(tree)) return tree;
  const values = tree.map((child) => minimaxValue(child, !max));
  return max ? Math.max(...values) : Math.min(...values);
}

/**
 * The same tree with every node's children in the order that makes α-β prune the most ("best": the
 * best child for the side to move first) or the least ("worst": the worst first). Ties keep their order.
 */
export function orderedLeaves(tree, order, max = true) {
  if (!Array.isArray(tree)) return tree;
  const children = tree.map((child) => orderedLeaves(child, order, !max));
  const keyed = children.map((child, index) => ({ child, index, value: minimaxValue(child, !max) }));
  const better = order === "best" ? (max ? -1 : 1) : max ? 1 : -1;
  keyed.sort((a, b) => (a.value === b.value ? a.index - b.index : better * (a.value - b.value)));
  return keyed.map((item) => item.child);
}

/** Fail-hard α-β on `tree` as the textbooks write it: {value, evaluated (leaves), leaves (all of them)}. */
export function alphaBetaCount(tree) {
  let evaluated = 0;
  const leaves = (node) => (Array.isArray(node) ? node.reduce((sum, child) => sum + leaves(child), 0) : 1);
  const search = (node, alpha, beta, max) => {
    if (!Array.isArray(node)) {
      evaluated += 1;
      return node;
    }
    for (const child of node) {
      const value = search(child, alpha, beta, !max);
      if (max) alpha = Math.max(alpha, value);
      else beta = Math.min(beta, value);
      if (alpha >= beta) break;
    }
    return max ? alpha : beta;
  };
  const value = search(tree, -Infinity, Infinity, true);
  return { value, evaluated, leaves: leaves(tree) };
}

const ALGORITHMS = new Set(["minimax", "negamax", "alphabeta", "alphabeta-hard", "alphabeta-soft", "negamax-alphabeta", "negamax-alphabeta-hard", "pvs"]);
const SIDES = new Set(["x", "o"]);

/**
 * What a link asks Explain to open (the page's query string, "?leaves=…&algo=alphabeta"), or null:
 * {source: "tree", leaves, algorithm} for `leaves=`; {source: "position", game, position, algorithm,
 * depth, max} for `explain=ALGORITHM` with `position=` (and `game=`, `depth=`, `max=x|o`: MAX, the side
 * whose standpoint the values take; null, the side to move), the same with `student: true` on 3×3 from
 * the empty board for `student=1`. An algorithm not known is
 * left to the menu's choice (null); a tree that is not nested lists is kept as typed, so the page says
 * what is wrong with it.
 */
export function linkedExplain(search) {
  const query = new URLSearchParams(search);
  const algorithmOf = (name) => (name && ALGORITHMS.has(name) ? name : null);
  if (query.has("leaves")) return { source: "tree", leaves: query.get("leaves"), algorithm: algorithmOf(query.get("algo") ?? query.get("explain")) };
  // The lab for a student: 3×3 from the empty board, the e(P) box in sight (?student=1).
  if (query.get("student") === "1") return { source: "position", game: "tictactoe", position: "", algorithm: null, depth: null, student: true };
  if (query.has("explain") && query.has("position")) {
    const depth = query.get("depth");
    return {
      source: "position",
      game: query.get("game") || "tictactoe",
      position: query.get("position"),
      algorithm: algorithmOf(query.get("explain")) ?? algorithmOf(query.get("algo")),
      depth: depth === null ? null : depth === "end" ? "end" : /^\d+$/.test(depth) ? Number(depth) : null,
      max: SIDES.has(query.get("max")) ? query.get("max") : null,
    };
  }
  return null;
}
