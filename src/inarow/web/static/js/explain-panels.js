// The words around the tree of the Explain panel: the summary (the answer hidden until the search reaches
// the root), α and β on the path, the step-by-step log, iterative deepening's table, a node's details, and
// the stepper's buttons, and the tables that depend on the search's result (the comparison, iterative
// deepening's rows, the orders of a tree of one's own), shown only once the replay has reached the root's
// value: in Try it, once the run is scored. Drawn from `view` by explain-draw.js after each step.

import { $, atEnd, html, leafName, summary, view } from "./explain-view.js";
import { ALGORITHM_LABELS } from "./menus.js";
import {
  breakdownWords, deepeningRows, failHardWords, isAlphaBeta, nodeName, orderWords, pathIds, revealed, roleName, standpointWords, stepWords,
} from "./replay.js";
import { alphaBetaCount, orderedLeaves } from "./leaves.js";
import { evaluationTitle, ngettext, numberText, pliesText, t, valueText } from "./words.js";

/** Whether the answer may show: the replay has reached the root's value (and, in Try it, the run is scored). */
export const answerShown = () => Boolean(view.tree) && revealed(view.tree, view.step) && (!view.quiz || atEnd());

export function updateStepper() {
  const tree = view.tree;
  const quizzing = Boolean(view.quiz?.pending);
  for (const id of ["explain-reset", "explain-back", "explain-step", "explain-run", "explain-all", "explain-try"]) $(id).disabled = !tree || tree.steps <= 1;
  if (tree) {
    $("explain-step").disabled = atEnd() || quizzing;
    $("explain-back").disabled = view.step === 0 || Boolean(view.quiz);
    $("explain-all").disabled = Boolean(view.quiz);
    $("explain-run").disabled = Boolean(view.quiz);
  }
  if (!tree) {
    $("explain-progress").textContent = "";
    return;
  }
  // How many steps there are depends on how much the search prunes: said once the search is over.
  $("explain-progress").textContent = atEnd() ? t("step {step} of {steps}", { step: view.step + 1, steps: tree.steps }) : t("step {step}", { step: view.step + 1 });
  $("explain-panel").dataset.step = atEnd() ? "end" : String(view.step);
}

export function describe() {
  const tree = view.tree;
  const mark = view.mark;
  const shown = answerShown();
  $("explain-compare-box").dataset.revealed = String(shown);
  $("compare-hidden").hidden = shown;
  $("compare-table").hidden = !shown;
  $("deepening").hidden = !shown || !(tree.deepening ?? []).length;
  $("orders-table").hidden = !shown || !tree.abstract;
  $("explain-standpoint").textContent = standpointWords(tree, mark);
  const depth = tree.depth === null ? t("to the end") : pliesText(tree.depth);
  const algorithm = ALGORITHM_LABELS[tree.algorithm] ? t(ALGORITHM_LABELS[tree.algorithm]) : tree.algorithm;
  const what = tree.abstract
    ? t("{algorithm} on a tree of your own, to its leaves", { algorithm })
    : t("{algorithm}, {depth}, e(P) {evaluation}", { algorithm, depth, evaluation: evaluationTitle(tree.evaluation) });
  const note = $("explain-note");
  note.hidden = tree.asked_depth === tree.depth;
  if (!note.hidden) {
    note.textContent = t("{asked} would draw more than {nodes} nodes, too many to follow: the tree is drawn {depth} deep.", {
      asked: pliesText(tree.asked_depth),
      nodes: numberText(tree.max_nodes),
      depth: pliesText(tree.depth),
    });
  }
  if (tree.nodes.length === 1 && tree.nodes[0].leaf && tree.nodes[0].leaf !== "depth") {
    summary(t("The game is over: nothing to search ({leaf}).", { leaf: leafName(tree.nodes[0].leaf) }));
    return;
  }
  if (!shown) {
    summary(t("{what}. The value and the best move appear when the search gets back to the root.", { what }));
    return;
  }
  const parts = [
    t("{what}: value {value}, best move {move}", { what, value: valueText(tree.value), move: tree.move ?? "—" }),
    ngettext("{count} node", "{count} nodes", tree.nodes_visited, { count: numberText(tree.nodes_visited) }),
  ];
  if (isAlphaBeta(tree)) {
    const cutoffs = tree.nodes.filter((n) => n.cutoff).length;
    const pruned = tree.pruned_spots.length;
    parts.push(ngettext("{cutoffs} cut-offs pruned {count} move", "{cutoffs} cut-offs pruned {count} moves", pruned, { cutoffs, count: pruned }));
  }
  summary(t("{parts}.", { parts: parts.join(" · ") }), "answer");
}

/** α and β (or the best so far) of the current node and every ancestor, root first. */
export function drawPath(live, current) {
  const tree = view.tree;
  const items = pathIds(tree, current.id).map((id) => {
    const node = tree.nodes[id];
    const state = live.get(id);
    const li = html("li", { "data-id": String(id) });
    if (id === current.id) li.className = "current";
    const name = html("span", { class: "who" }, `${nodeName(node)} · ${roleName(node, view.mark)}`);
    const parts = [];
    if (state.alpha !== null) parts.push(`α ${valueText(state.alpha)}`, `β ${valueText(state.beta)}`);
    if (state.best !== null) parts.push(t("best so far {move} ({value})", { move: state.best, value: valueText(state.bestValue) }));
    if (state.done) parts.push(t("returned {value}", { value: valueText(state.value) }));
    li.append(name, html("span", { class: "bounds" }, parts.join(" · ") || t("no child back yet")));
    return li;
  });
  $("explain-path").replaceChildren(...items);
}

export function resetLog() {
  $("explain-log").replaceChildren();
  view.logged = 0;
}

/** The log: one line a step up to the current one, the current one marked and in sight. */
export function drawLog() {
  const tree = view.tree;
  const log = $("explain-log");
  const wanted = view.step + 1;
  while (view.logged > wanted) {
    log.lastElementChild.remove();
    view.logged -= 1;
  }
  const fresh = [];
  for (let index = view.logged; index < wanted; index += 1) {
    const event = tree.events[index];
    fresh.push(html("li", { class: `log-${event.kind}`, "data-step": String(index) }, stepWords(tree, index, view.mark)));
  }
  log.append(...fresh);
  view.logged = wanted;
  log.querySelector("li.current")?.classList.remove("current");
  log.querySelector("li[aria-current]")?.removeAttribute("aria-current");
  const last = log.lastElementChild;
  if (last) {
    last.classList.add("current");
    last.setAttribute("aria-current", "step");
    log.scrollTop = last.offsetTop - log.clientHeight / 2;
  }
}

/** The leaves α-β evaluates in a tree of one's own as typed, in the best order and in the worst (null: not a tree). */
export function drawOrders(leaves) {
  const body = $("orders-table").tBodies[0];
  if (!leaves) {
    body.replaceChildren();
    return;
  }
  const rows = [
    [t("As typed"), alphaBetaCount(leaves)],
    [t("Best order (best child first)"), alphaBetaCount(orderedLeaves(leaves, "best"))],
    [t("Worst order (worst child first)"), alphaBetaCount(orderedLeaves(leaves, "worst"))],
  ];
  body.replaceChildren(
    ...rows.map(([name, count]) => {
      const tr = document.createElement("tr");
      tr.append(html("th", { scope: "row" }, name), html("td", {}, t("{evaluated} of {leaves}", { evaluated: numberText(count.evaluated), leaves: numberText(count.leaves) })));
      return tr;
    }),
  );
}

/** Iterative deepening's table: one row a depth, the last one the tree drawn (shown with the answer). */
export function drawDeepening() {
  const rows = deepeningRows(view.tree);
  $("deepening-table").tBodies[0].replaceChildren(
    ...rows.map((row) => {
      const tr = document.createElement("tr");
      const head = html("th", { scope: "row" }, row.depth);
      tr.append(head, ...[row.first, row.move, row.value, row.nodes, row.time].map((text) => html("td", {}, text)));
      return tr;
    }),
  );
}

function miniBoard(diagram) {
  const rows = diagram.split("/");
  const board = html("div", { class: "mini-board", role: "img", "aria-label": t("board {diagram}", { diagram }) });
  board.style.gridTemplateColumns = `repeat(${rows[0].length}, 1fr)`;
  for (const row of rows) {
    for (const cell of row) board.append(html("span", { class: `mini-cell ${cell === "." ? "empty" : cell}` }, cell === "." ? "" : view.mark(cell)));
  }
  return board;
}

export function showDetail(id, toggle) {
  const box = $("node-detail");
  const tree = view.tree;
  if (id === null || !tree) {
    box.replaceChildren(html("p", { class: "muted" }, t("Point at a node, or press it, to see its board and how its value was found.")));
    return;
  }
  const node = tree.nodes[id];
  const done = node.exit <= view.step;
  const parts = [html("p", { class: "detail-title" }, `${node.parent === null ? t("The root") : node.path.join(" ")} · ${roleName(node, view.mark)}`)];
  if (node.board) parts.push(miniBoard(node.board));
  const lines = [];
  if (node.alpha !== null) lines.push(t("Window on entry: α {alpha}, β {beta}", { alpha: valueText(node.alpha), beta: valueText(node.beta) }));
  if (!done) lines.push(t("Value: not known yet"));
  else if (node.leaf === "depth") {
    const words = breakdownWords(node, view.mark);
    if (words) lines.push(words.mine, words.theirs, words.sum);
    else lines.push(`e(P) = ${valueText(node.value)}`);
  } else if (node.best) lines.push(t("Value: {value}, best move {move}", { value: valueText(node.value), move: node.best }));
  else lines.push(t("Value: {value}", { value: valueText(node.value) }));
  const fail = done ? failHardWords(node) : null;
  if (fail) lines.push(fail.charAt(0).toUpperCase() + fail.slice(1));
  if (node.children.length) lines.push(t("Children searched {order}: {moves}", { order: orderWords(node), moves: node.children.map((c) => tree.nodes[c].move).join(" ") }));
  if (node.extended) lines.push(t("Quiescence searched on here: a side could win at once or had to block."));
  if (node.pruned.length && done) lines.push(t("Pruned: {moves}", { moves: node.pruned.join(" ") }));
  parts.push(...lines.map((line) => html("p", {}, line)));
  if (node.children.length) {
    const closed = view.closed.has(node.id);
    const button = html("button", { type: "button", class: "toggle" }, closed ? t("Open its subtree") : t("Close its subtree"));
    button.addEventListener("click", () => toggle(node.id));
    parts.push(button);
  }
  box.replaceChildren(...parts);
}
