// A recorded search replayed step by step: the live α and β of every node at a step, the words of each
// step, a node's details (its e(P) breakdown, why it returned what it did), and the questions of "Try
// it". Everything is made from the typed fields of POST /api/explain (`events`: kind, node, move, value,
// alpha, beta, bound, pruned; `nodes`), never from the server's English. Pure functions: no DOM, so node
// can test them.
//
// `mark(side)` turns a side ("x" or "o") into the mark shown for it ("X", "O").

import { N_, ngettext, numberText, pliesText, t, valueText } from "./words.js";

const ORDER_WORDS = {
  columns: N_("column by column (a1 a2 a3 b1 …)"),
  rows: N_("row by row from the top (a3 b3 c3 a2 …)"),
  evaluation: N_("best first, by e(P) after the move"),
  "previous-best": N_("the previous depth's best move first, then the board order"),
  forcing: N_("only the forcing moves: a win at once, else a block"),
};

const ALPHA_BETA = new Set(["alphabeta", "alphabeta-soft", "negamax-alphabeta"]);

/** Whether `tree` was searched by a form of α-β (it has windows and cut-offs). */
export const isAlphaBeta = (tree) => ALPHA_BETA.has(tree.algorithm);

/** A node's name in the words: its move ("c1"), or "the root". */
export const nodeName = (node) => (node.parent === null ? t("the root") : node.move);

/** A node's name at the start of a sentence: "The root", or its move as written ("a3", never "A3"). */
const capital = (node) => (node.parent === null ? t("The root") : node.move);

/** Who moves at a node, for people: "Max (X)", "Min (O)", or in negamax "X to move". */
export function roleName(node, mark) {
  const side = mark(node.to_move);
  if (node.role === "negamax") return t("{side} to move", { side });
  return node.role === "max" ? t("Max ({side})", { side }) : t("Min ({side})", { side });
}

/** The moves from the root to `node`, for people: "a3 b3 c1", or "" at the root. */
export const pathWords = (node) => node.path.join(" ");

/** The node the search is at on `step`. */
export const currentNode = (tree, step) => tree.nodes[tree.events[Math.max(0, Math.min(step, tree.events.length - 1))].node];

/** The ids from the root down to `id`, root first. */
export function pathIds(tree, id) {
  const ids = [];
  for (let at = id; at !== null && at !== undefined; at = tree.nodes[at].parent) ids.unshift(at);
  return ids;
}

/**
 * Every node's state after the steps 0..`step`: id -> {alpha, beta, best, bestValue, value, done}, for
 * the nodes entered so far. α and β are live: they start as the window on entry and follow each update.
 */
export function liveState(tree, step) {
  const state = new Map();
  const last = Math.min(step, tree.events.length - 1);
  for (let index = 0; index <= last; index += 1) {
    const event = tree.events[index];
    if (event.kind === "enter") {
      state.set(event.node, { alpha: event.alpha, beta: event.beta, best: null, bestValue: null, value: null, done: false });
      continue;
    }
    const entry = state.get(event.node);
    if (event.kind === "update") {
      entry.best = event.move;
      entry.bestValue = event.value;
      if (event.bound === "alpha" || event.bound === "beta") {
        entry.alpha = event.alpha;
        entry.beta = event.beta;
      }
    } else if (event.kind === "cutoff") {
      entry.cut = true;
    } else if (event.kind === "return") {
      entry.value = event.value;
      entry.done = true;
    }
  }
  return state;
}

/** Whether the replay has reached the root's value (so the answer may be shown). */
export const revealed = (tree, step) => step >= tree.nodes[0].exit;

const numberOf = (value) => (value === "inf" ? Infinity : value === "-inf" ? -Infinity : value);

/** `value` negated, as the server writes values ("inf", "-inf", numbers; never −0). */
export const negated = (value) => (value === "inf" ? "-inf" : value === "-inf" ? "inf" : value === 0 ? 0 : -value);

/** Whether `node`'s parent is a negamax node (it takes its children's values negated). */
const underNegamax = (tree, node) => node.parent !== null && tree.nodes[node.parent].role === "negamax";

/** A list of values for people: "+3, −1, 0" ("+3、−1、0" in Chinese). */
const valuesText = (values) => values.map(valueText).reduce((list, item) => t("{list}, {item}", { list, item }));

/**
 * The words of a sentence about `parent` (another node's parent): made from `root` when it is the root,
 * else from `other` with `{parent}` its move; two messages, so that a language whose name of the root is
 * a word of its own ("根节点") writes it without the spaces that set a move apart.
 */
const aboutParent = (parent, root, other, fields) => (parent.parent === null ? t(root, fields) : t(other, { ...fields, parent: parent.move }));

/** In negamax, what the parent makes of a child's value: "c1's −2, negated, is +2 for a3". */
function negationWords(tree, node, value) {
  const parent = tree.nodes[node.parent];
  const fields = { node: node.move, value: valueText(value), negated: valueText(negated(value)) };
  return aboutParent(parent, N_("{node}'s {value}, negated, is {negated} for the root"), N_("{node}'s {value}, negated, is {negated} for {parent}"), fields);
}

/** The e(P) breakdown of a leaf for people: {sum: "e(P) = 6 − 4 = +2", mine: "X: …", theirs: "O: …"}, or null. */
export function breakdownWords(node, mark) {
  const b = node.breakdown;
  if (!b) return null;
  const side = mark(b.side);
  const other = mark(b.side === "x" ? "o" : "x");
  const terms = (counts, who) => {
    const parts = [];
    counts.forEach((count, stones) => {
      const weight = b.weights[stones];
      if (!count || weight === 0) return;
      const weightText = valueText(weight).replace("+", "");
      if (stones === 0) parts.push(ngettext("{count} line empty × {weight}", "{count} lines empty × {weight}", count, { count, weight: weightText }));
      else parts.push(ngettext("{count} line with {stones} {side} × {weight}", "{count} lines with {stones} {side} × {weight}", count, { count, stones, side: who, weight: weightText }));
    });
    return parts.length ? parts.join(" + ") : t("no open line");
  };
  const total = (value) => valueText(value).replace("+", "");
  return {
    sum: `e(P) = ${total(b.mine_total)} − ${total(b.theirs_total)} = ${valueText(b.value)}`,
    mine: `${side}: ${terms(b.mine, side)} = ${total(b.mine_total)}`,
    theirs: `${other}: ${terms(b.theirs, other)} = ${total(b.theirs_total)}`,
  };
}

/** Why a fail-hard node returned another value than its best child, or null when they agree. */
export function failHardWords(node) {
  if (node.seen === null || node.seen === undefined) return null;
  const seen = numberOf(node.seen);
  const value = numberOf(node.value);
  const which = seen > value ? "β" : "α";
  const fields = { seen: valueText(node.seen), bound: which, value: valueText(node.value) };
  if (node.role === "max") return t("fail-hard: its best child gave {seen}, but a fail-hard node (Max) returns a value inside its window, so it returns {bound} = {value}", fields);
  if (node.role === "min") return t("fail-hard: its best child gave {seen}, but a fail-hard node (Min) returns a value inside its window, so it returns {bound} = {value}", fields);
  return t("fail-hard: its best child gave {seen}, but a fail-hard node returns a value inside its window, so it returns {bound} = {value}", fields);
}

/** Why a node's children come in the order searched. */
export const orderWords = (node) => (ORDER_WORDS[node.order] ? t(ORDER_WORDS[node.order]) : node.order);

function leafWords(node, mark) {
  const name = capital(node);
  const value = valueText(node.value);
  if (node.leaf === "depth") {
    const breakdown = breakdownWords(node, mark);
    return t("{node} is at the depth limit: {sum}", { node: name, sum: breakdown ? breakdown.sum : `e(P) = ${value}` });
  }
  if (node.leaf === "won" || node.leaf === "lost") {
    const flip = (side) => (side === "x" ? "o" : "x");
    const maxSide = node.role === "max" ? node.to_move : flip(node.to_move); // MAX moves at a Max node
    const winner = mark(node.leaf === "won" ? maxSide : flip(maxSide));
    const who = node.role === "negamax" ? (node.leaf === "won" ? mark(node.to_move) : mark(node.to_move === "x" ? "o" : "x")) : winner;
    return t("{node}: {side} has won, {value}", { node: name, side: who, value });
  }
  if (node.leaf === "draw") return t("{node}: the board is full, a draw, 0", { node: name });
  if (node.leaf === "table") return t("{node} is in the table: {value}", { node: name, value });
  return t("{node} is a leaf: {value}", { node: name, value });
}

/** The words of step `index`: one sentence made from the event's fields. */
export function stepWords(tree, index, mark) {
  const event = tree.events[index];
  const node = tree.nodes[event.node];
  const name = nodeName(node);
  const window = `α = ${valueText(event.alpha)}, β = ${valueText(event.beta)}`;
  const value = valueText(event.value);
  switch (event.kind) {
    case "enter": {
      const role = roleName(node, mark);
      const who = node.role === "negamax" ? role : t("{role} to move", { role });
      let text;
      if (node.parent === null) text = t("Start at the root: {who}", { who });
      else text = t("Try {node}: {who}", { node: name, who });
      if (event.alpha !== null) {
        if (node.role === "negamax" && node.parent !== null) {
          // The child's window is its parent's flipped and negated: the parent's is (−β, −α) of the child's.
          const parent = tree.nodes[node.parent];
          const fields = { text, window, alpha: valueText(negated(event.beta)), beta: valueText(negated(event.alpha)) };
          text = aboutParent(
            parent,
            N_("{text}; the root's window α = {alpha}, β = {beta}, flipped and negated to (−β, −α): {window}"),
            N_("{text}; {parent}'s window α = {alpha}, β = {beta}, flipped and negated to (−β, −α): {window}"),
            fields,
          );
        } else text = t("{text}, {window}", { text, window });
      }
      const parent = node.parent === null ? null : tree.nodes[node.parent];
      if (parent && parent.children[0] === node.id && parent.order !== "columns") {
        const moves = [...parent.children.map((id) => tree.nodes[id].move), ...parent.pruned].join(" ");
        text = t("{text}; {parent} tries its children {order}: {moves}", { text, parent: nodeName(parent), order: orderWords(parent), moves });
      }
      return text;
    }
    case "return": {
      const negation = underNegamax(tree, node) ? negationWords(tree, node, event.value) : null;
      if (node.leaf) {
        const leaf = leafWords(node, mark);
        return negation ? t("{text}; {negation}", { text: leaf, negation }) : leaf;
      }
      const fail = failHardWords(node);
      let text =
        node.parent === null
          ? t("The root's value is {value}: best move {move}", { value, move: node.best ?? "—" })
          : aboutParent(tree.nodes[node.parent], N_("{node} returns {value} to the root"), N_("{node} returns {value} to {parent}"), { node: capital(node), value });
      if (fail) text = t("{text} ({why})", { text, why: fail });
      return negation ? t("{text}; {negation}", { text, negation }) : text;
    }
    case "update": {
      const fields = { node: capital(node), value, move: event.move };
      if (event.bound === "alpha") return t("{node}: α rises to {value}, best so far {move}", fields);
      if (event.bound === "beta") return t("{node}: β falls to {value}, best so far {move}", fields);
      return t("{node}: best so far {move} with {value}", fields);
    }
    case "cutoff": {
      const bound = event.bound === "beta" ? "β" : "α";
      const relation = event.bound === "beta" ? "≥" : "≤";
      const limit = event.bound === "beta" ? event.beta : event.alpha;
      const pruned = event.pruned.length
        ? ngettext("{moves} is pruned", "{moves} are pruned", event.pruned.length, { moves: event.pruned.join(" ") })
        : t("no move was left to prune");
      const fields = { move: event.move, value, relation, bound, limit: valueText(limit), node: name, pruned };
      if (node.role === "negamax") {
        // The value compared is the child's negated: say both, so the sign never changes silently.
        return t("{move}'s {returned}, negated, is {value} {relation} {bound} = {limit}: {bound} cut-off at {node}, {pruned}", { ...fields, returned: valueText(negated(event.value)) });
      }
      return t("{move} returns {value} {relation} {bound} = {limit}: {bound} cut-off at {node}, {pruned}", fields);
    }
    default:
      return event.kind;
  }
}

/** The sentence said once about whose values the tree shows. */
export function standpointWords(tree, mark) {
  const max = mark(tree.max ?? "x");
  const min = mark((tree.max ?? "x") === "x" ? "o" : "x");
  if (tree.frame === "to_move") {
    return t("Max is {max}, Min is {min}. In negamax each node's value is for the side to move there: a parent takes the largest of its children's values negated.", { max, min });
  }
  return t("Max is {max}, Min is {min}: every value is {max}'s, so higher is better for {max}.", { max, min });
}

// ------------------------------------------------------------------------------------- Try it
/**
 * The questions of "Try it", in replay order: before step `step` is shown, the student predicts
 * `kind` "value" (what an inner node returns; `answer` its value) or "cutoff" (whether the child that
 * just returned cuts off its parent; `answer` true or false; asked only where a cut-off could prune).
 */
export function questions(tree) {
  const list = [];
  const alphaBeta = isAlphaBeta(tree);
  tree.events.forEach((event, index) => {
    const node = tree.nodes[event.node];
    if (event.kind !== "return") return;
    if (node.children.length) list.push({ step: index, kind: "value", node: node.id, answer: event.value });
    if (!alphaBeta || node.parent === null) return;
    const parent = tree.nodes[node.parent];
    const next = tree.events[index + 1];
    const cut = next?.kind === "cutoff";
    const last = parent.children[parent.children.length - 1] === node.id && !parent.pruned.length;
    if ((cut && next.pruned.length) || !last) list.push({ step: index + 1, kind: "cutoff", node: parent.id, child: node.id, answer: cut });
  });
  return list;
}

/** A typed value ("+3", "-2", "−∞", "inf", "0") as a number, or null when it is not one. */
export function parseValue(text) {
  const cleaned = String(text).trim().replace(/−/g, "-").replace(/\s/g, "").toLowerCase();
  if (/^\+?(inf|∞|infinity)$/.test(cleaned)) return Infinity;
  if (/^-(inf|∞|infinity)$/.test(cleaned)) return -Infinity;
  if (!/^[+-]?\d+(\.\d+)?$/.test(cleaned)) return null;
  return Number(cleaned);
}

/** Whether `given` (text, or true/false for a cut-off) answers `question`. */
export function isRight(question, given) {
  if (question.kind === "cutoff") return given === question.answer;
  const value = parseValue(given);
  return value !== null && value === numberOf(question.answer);
}

/** The question a student meets before step `step` is shown, if any. */
export const questionBefore = (list, step) => list.find((question) => question.step === step) ?? null;

/** The prompt of a question in words. */
export function questionWords(tree, question) {
  const node = tree.nodes[question.node];
  if (question.kind === "value") return t("What value does {node} return?", { node: nodeName(node) });
  const child = tree.nodes[question.child];
  return t("{child} returned {value}. Does it cut off the search at {node}?", { child: child.move, value: valueText(child.value), node: nodeName(node) });
}

/**
 * Why the answer to `question` is what it is, in words: for a cut-off, the comparison that makes it
 * ("a cut-off: −2 ≥ β = −3") or why there is none ("no cut-off: β = +3 is still above α = +2"); for a
 * value, how the node takes it from its children ("the smallest of +3, +12, +8"), and why a fail-hard
 * node returns a bound instead.
 */
export function whyWords(tree, question) {
  const node = tree.nodes[question.node];
  if (question.kind === "cutoff") {
    const event = tree.events[question.step];
    if (question.answer) {
      const beta = event.bound === "beta";
      return t("a cut-off: {value} {relation} {bound} = {limit}", {
        value: valueText(event.value),
        relation: beta ? "≥" : "≤",
        bound: beta ? "β" : "α",
        limit: valueText(beta ? event.beta : event.alpha),
      });
    }
    const state = liveState(tree, event?.kind === "update" && event.node === node.id ? question.step : question.step - 1).get(node.id);
    if (state.alpha === null) return t("no cut-off");
    return t("no cut-off: β = {beta} is still above α = {alpha}", { beta: valueText(state.beta), alpha: valueText(state.alpha) });
  }
  const children = node.children.map((id) => tree.nodes[id]);
  let words;
  if (node.role === "negamax") words = t("the largest of its children's values negated: {values}", { values: valuesText(children.map((child) => negated(child.value))) });
  else if (node.role === "max") words = t("Max takes the largest of {values}", { values: valuesText(children.map((child) => child.value)) });
  else words = t("Min takes the smallest of {values}", { values: valuesText(children.map((child) => child.value)) });
  const fail = failHardWords(node);
  return fail ? t("{text} ({why})", { text: words, why: fail }) : words;
}

/** The score at the end: "7 of 9 right". */
export const scoreWords = (right, asked) => t("{right} of {asked} right", { right, asked });

// ------------------------------------------------------------------------- iterative deepening
/**
 * The rows of iterative deepening's table, one a depth, in words: the depth, the move searched first
 * (the previous depth's best; "—" at depth 1), the best move, the root's value, the nodes and the time;
 * the last row is the tree drawn. Empty when the search did not deepen.
 */
export function deepeningRows(tree) {
  return (tree.deepening ?? []).map((row) => ({
    depth: pliesText(row.depth),
    first: row.first ?? "—",
    move: row.move ?? "—",
    value: valueText(row.value),
    nodes: numberText(row.nodes),
    time: t("{ms} ms", { ms: row.seconds < 0.01 ? (row.seconds * 1000).toFixed(1) : Math.round(row.seconds * 1000) }),
  }));
}
