// The "Explain" panel: the tree of a textbook search of the position on the board, drawn as SVG from the
// nodes the server recorded (POST /api/explain) and replayed step by step: the view follows the node the
// search is at (or fits the whole tree), α and β are shown live on the path, each step is said in words
// (replay.js makes them from the answer's `events`), a node's board and e(P) breakdown show on hover, and
// "Try it" asks the student to predict each value and cut-off before it is shown. Beside it, the nodes
// each algorithm needs (POST /api/compare). The server searches; this module only draws, at the places
// the server's layout gives (see tree.js). Nothing runs at import: main.js calls initExplain.

import { api } from "./api.js";
import { ancestorsAt, bestPath, comparedName, compareCells, descendants, inside, labelGrowth, placement, roomyDepths, scaleOf, viewBoxFor } from "./tree.js";
import {
  breakdownWords, currentNode, deepeningRows, failHardWords, isAlphaBeta, isRight, liveState, nodeName, orderWords, pathIds, questionBefore, questions,
  questionWords, revealed, roleName, scoreWords, standpointWords, stepWords,
} from "./replay.js";
import { N_, evaluationTitle, ngettext, numberText, pliesText, t, valueText } from "./words.js";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
const SIZE = 19; // half the size of a node's shape
const COLLAPSE_OVER = 400; // trees with more nodes start with the nodes of depth 2 closed
const RUN_EVERY = 450; // milliseconds between two steps of "Run"
const COMPACT_BELOW = 0.7; // below this scale the window labels are left out, so the values stay readable
const VALUE_PX = 15; // a value's size in the drawing once compact (style.css: .tree.compact .value)
const LEAST_PX = 11; // no value is drawn smaller than this on screen, whatever the scale
const NAMES = {
  minimax: N_("Minimax"),
  negamax: N_("Negamax"),
  alphabeta: N_("α-β (fail-hard)"),
  "alphabeta-soft": N_("α-β (fail-soft)"),
  "negamax-alphabeta": N_("α-β in negamax form"),
};

const LEAVES = { won: N_("won"), lost: N_("lost"), draw: N_("draw"), table: N_("in the table"), depth: N_("depth limit") };
const leafName = (leaf) => (LEAVES[leaf] ? t(LEAVES[leaf]) : leaf);

const view = {
  key: null, // what the tree on screen was asked for
  tree: null, // the answer of /api/explain
  step: 0, // the replay shows the steps up to this one
  closed: new Set(), // ids of the nodes whose subtrees are hidden
  timer: null,
  mode: "follow", // or "fit"
  autoFit: false, // "Whole tree" fitted the view; stepping again follows the search
  selected: null, // the node whose details are shown
  mark: (side) => side.toUpperCase(),
  request: 0, // bumped at each request, so a late answer for an old one is dropped
  quiz: null, // Try it: {questions, answered: Map step -> right, pending}
  logged: 0, // how many steps the log shows
};

const el = (name, attributes = {}, text) => {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  if (text !== undefined) node.textContent = text;
  return node;
};

const html = (name, attributes = {}, text) => {
  const node = document.createElement(name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  if (text !== undefined) node.textContent = text;
  return node;
};

const setState = (state) => {
  $("explain-panel").dataset.state = state;
};

function summary(text, kind = "") {
  $("explain-summary").textContent = text;
  $("explain-summary").className = `explain-summary ${kind}`.trim();
}

// ---------------------------------------------------------------------------------- requests
function choices() {
  const depth = $("explain-depth").value;
  const custom = $("explain-evaluation").value === "custom";
  $("explain-weights-field").hidden = !custom;
  const order = $("explain-order").value;
  return {
    algorithm: $("explain-algorithm").value,
    depth: depth === "end" ? null : Number(depth),
    evaluation: custom ? $("explain-weights").value.trim() : $("explain-evaluation").value,
    order: order === "evaluation" ? "columns" : order,
    ordering: order === "evaluation",
    quiescence: $("explain-quiescence").checked,
    deepen: $("explain-deepen").checked,
  };
}

/** Explain `game` (the GameState on the board) unless its tree is already on screen. */
export async function explainPosition(game, mark) {
  view.mark = mark;
  const wanted = { game: game.game, position: game.position, ...choices() };
  const key = JSON.stringify(wanted);
  if (key === view.key) return;
  view.key = key;
  const request = (view.request += 1);
  stop();
  setState("loading");
  summary(t("Searching…"), "thinking");
  $("compare-note").textContent = t("Counting…");
  const compare = api.compare(wanted.game, wanted.position, wanted.depth, wanted.evaluation).then(
    (answer) => request === view.request && drawCompare(answer),
    (error) => request === view.request && compareError(error),
  );
  try {
    const tree = await api.explain(wanted);
    if (request !== view.request) return;
    view.tree = tree;
    view.step = 0;
    view.selected = null;
    view.closed = tree.nodes.length > COLLAPSE_OVER ? new Set(tree.nodes.filter((n) => n.depth >= 2 && n.children.length).map((n) => n.id)) : new Set();
    view.quiz = view.quiz ? newQuiz(tree) : null;
    resetLog();
    drawDeepening();
    drawTree();
    showDetail(null);
    setState("ready");
  } catch (error) {
    if (request !== view.request) return;
    view.tree = null;
    $("tree").replaceChildren();
    $("explain-log").replaceChildren();
    $("explain-path").replaceChildren();
    $("explain-standpoint").textContent = "";
    $("explain-note").hidden = true;
    $("deepening").hidden = true;
    summary(t("Can't draw this tree: {message}.", { message: error.message }), "error");
    setState("error");
    updateStepper();
  }
  await compare;
}

/** Forget the tree on screen: the next explainPosition searches again. */
export function forget() {
  view.key = null;
  view.request += 1;
  stop();
}

// ----------------------------------------------------------------------------------- replay
const lastStep = () => (view.tree ? view.tree.steps - 1 : 0);
const atEnd = () => view.step >= lastStep();

function go(step) {
  if (!view.tree) return;
  if (view.autoFit && step < lastStep()) {
    view.autoFit = false;
    view.mode = "follow";
    showMode();
  }
  view.step = Math.max(0, Math.min(step, lastStep()));
  // Open the way to the node the search is at, so a step never happens out of sight.
  for (const id of ancestorsAt(view.tree, view.step)) view.closed.delete(id);
  drawTree();
}

/** One step forward; in Try it, a question first when the next step has one. */
function forward() {
  if (!view.tree || atEnd()) return false;
  const next = view.step + 1;
  if (view.quiz) {
    const question = questionBefore(view.quiz.questions, next);
    if (question && !view.quiz.answered.has(next)) {
      ask(question);
      return false;
    }
  }
  go(next);
  return true;
}

function stop() {
  clearInterval(view.timer);
  view.timer = null;
  $("explain-run").setAttribute("aria-pressed", "false");
}

function run() {
  if (view.timer) return stop();
  if (!view.tree) return;
  if (atEnd()) go(0);
  $("explain-run").setAttribute("aria-pressed", "true");
  view.timer = setInterval(() => {
    if (!forward() || atEnd()) stop();
  }, RUN_EVERY);
}

function updateStepper() {
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
  $("explain-progress").textContent = t("step {step} of {steps}", { step: view.step + 1, steps: tree.steps });
  $("explain-panel").dataset.step = atEnd() ? "end" : String(view.step);
}

// ---------------------------------------------------------------------------------- drawing
function shape(node) {
  if (node.role === "negamax") return el("circle", { r: SIZE, class: "shape" });
  const s = SIZE + 3;
  const points = node.role === "max" ? [[0, -s], [-s, s * 0.72], [s, s * 0.72]] : [[0, s], [-s, -s * 0.72], [s, -s * 0.72]];
  return el("polygon", { points: points.map((p) => p.join(",")).join(" "), class: "shape" });
}

function roleWords(node) {
  const side = view.mark(node.to_move);
  if (node.role === "negamax") return t("Negamax node, {side} to move", { side });
  return node.role === "max" ? t("Max node ({side} to move)", { side }) : t("Min node ({side} to move)", { side });
}

function frameSize() {
  const box = $("tree-frame").getBoundingClientRect();
  return { width: Math.max(120, box.width - 2), height: Math.max(120, box.height - 2) };
}

function drawTree() {
  const tree = view.tree;
  const svg = $("tree");
  svg.replaceChildren();
  if (!tree) return;
  const { at, pruned, width, height } = placement(tree, view.closed);
  const step = view.step;
  const live = liveState(tree, step);
  const current = currentNode(tree, step);
  const onPath = new Set(pathIds(tree, current.id));
  const shown = revealed(tree, step);
  const best = shown ? bestPath(tree) : new Set();
  const edges = el("g", { class: "edges" });
  const shapes = el("g", { class: "nodes" });
  const labels = el("g", { class: "reasons" });
  for (const node of tree.nodes) {
    if (!at.has(node.id) || node.enter > step) continue;
    const { x, y } = at.get(node.id);
    const state = live.get(node.id);
    const done = node.exit <= step;
    if (node.parent !== null) {
      const parent = at.get(node.parent);
      const onBest = best.has(node.id);
      edges.append(el("line", { x1: parent.x, y1: parent.y + SIZE, x2: x, y2: y - SIZE - 3, class: `edge${onBest ? " best" : ""}${onPath.has(node.id) ? " path" : ""}` }));
      edges.append(el("text", { x: (parent.x + x) / 2 + (x >= parent.x ? 5 : -5), y: (parent.y + y) / 2 + 2, class: "move", "text-anchor": x >= parent.x ? "start" : "end" }, node.move));
    }
    const closed = view.closed.has(node.id) && node.children.length > 0;
    const classes = ["node", node.role];
    if (best.has(node.id)) classes.push("best");
    if (node.cutoff && done) classes.push("cutoff");
    if (!done) classes.push("open");
    if (node.leaf) classes.push("leaf");
    if (onPath.has(node.id) && node.id !== current.id) classes.push("path");
    if (node.id === current.id) classes.push("current");
    if (node.id === view.selected) classes.push("selected");
    const g = el("g", { class: classes.join(" "), transform: `translate(${x} ${y})`, "data-id": node.id, "data-depth": node.depth, tabindex: "0", role: "button" });
    if (node.id === current.id) g.setAttribute("data-testid", "tree-current");
    const value = done ? valueText(node.value) : "?";
    const window = state.alpha === null ? "" : `α ${valueText(state.alpha)} β ${valueText(state.beta)}`;
    const words = [roleWords(node), node.path.length ? t("after {moves}", { moves: node.path.join(" ") }) : t("the position on the board"), t("value {value}", { value })];
    if (window) words.push(t("window {window}", { window }));
    if (node.leaf && done) words.push(node.leaf === "depth" ? t("evaluated at the depth limit") : t("a leaf: {leaf}", { leaf: leafName(node.leaf) }));
    if (node.cutoff && done) words.push(t("cut off"));
    if (node.children.length) {
      const hidden = descendants(tree, node);
      const count = node.children.length;
      words.push(closed ? ngettext("{count} node hidden", "{count} nodes hidden", hidden, { count: hidden }) : ngettext("{count} child searched", "{count} children searched", count, { count }));
    }
    g.setAttribute("aria-label", words.join(t("; ")));
    if (node.children.length) g.setAttribute("aria-expanded", String(!closed));
    g.append(el("title", {}, words.join("\n")), shape(node));
    g.append(el("text", { class: "value", y: node.role === "max" ? 6 : node.role === "min" ? 1 : 4, "text-anchor": "middle" }, value));
    if (window) g.append(el("text", { class: `window${done ? "" : " live"}`, y: SIZE + 15, "text-anchor": "middle" }, window));
    if (closed) {
      const count = descendants(tree, node);
      const badge = el("g", { class: "badge", transform: `translate(0 ${SIZE + 30})` });
      badge.append(el("rect", { x: -17, y: -9, width: 34, height: 16, rx: 8 }), el("text", { y: 3, "text-anchor": "middle" }, `+${count}`));
      g.append(badge);
    }
    shapes.append(g);
    // The children a cut-off pruned, once the cut-off has happened.
    const cutEvent = node.cutoff ? tree.events.findIndex((e) => e.kind === "cutoff" && e.node === node.id) : -1;
    if (!view.closed.has(node.id) && node.pruned.length && cutEvent >= 0 && cutEvent <= step) {
      const cut = tree.events[cutEvent];
      const reason = t("{bound} cut-off: {move} returned {value} {relation} = {limit}", {
        bound: cut.bound === "beta" ? "β" : "α",
        move: cut.move,
        value: valueText(cut.value),
        relation: cut.bound === "beta" ? "≥ β" : "≤ α",
        limit: valueText(cut.bound === "beta" ? cut.beta : cut.alpha),
      });
      for (const move of node.pruned) {
        const { x: gx, y: gy } = pruned.get(`${node.id}:${move}`);
        edges.append(el("line", { x1: x, y1: y + SIZE, x2: gx, y2: gy - 12, class: "edge pruned" }));
        const text = t("{move} pruned, never searched: {reason}", { move, reason });
        const p = el("g", { class: "pruned", transform: `translate(${gx} ${gy})`, tabindex: "0", "data-pruned": move, "data-parent": node.id, role: "note", "aria-label": text });
        const wide = Math.max(26, 7 * move.length + 8);
        p.append(el("title", {}, text), el("rect", { x: -wide / 2, y: -11, width: wide, height: 22, rx: 5 }), el("text", { y: 4, "text-anchor": "middle" }, move), el("text", { class: "scissors", y: 24, "text-anchor": "middle" }, "✂"));
        shapes.append(p);
        const label = el("g", { class: "reason", transform: `translate(${gx} ${gy + 44})`, "data-for": `${node.id}:${move}` });
        const short = `${cut.move} ${cut.bound === "beta" ? "≥ β" : "≤ α"}`;
        label.append(el("rect", { x: -48, y: -13, width: 96, height: 19, rx: 5 }), el("text", { "text-anchor": "middle" }, short));
        labels.append(label);
        const show = (on) => label.classList.toggle("shown", on);
        p.addEventListener("mouseenter", () => show(true));
        p.addEventListener("mouseleave", () => show(false));
        p.addEventListener("focus", () => show(true));
        p.addEventListener("blur", () => show(false));
      }
    }
  }
  svg.append(edges, shapes, labels);
  frameTo(at.get(current.id), { width, height }, current.parent === null ? null : at.get(current.parent), at);
  describe();
  drawPath(live, current);
  drawLog();
  updateStepper();
  if (view.selected !== null) showDetail(view.selected);
}

/** Point the frame at the drawing: the whole of it, or the current node (with its parent when it fits). */
function frameTo(focus, size, parent, at) {
  const svg = $("tree");
  // A fitted tree wider than it is tall leaves the frame no taller than the drawing needs.
  $("tree-frame").style.height = "";
  let frame = frameSize();
  if (view.mode === "fit") {
    const fitted = Math.max(160, Math.ceil(((size.height * frame.width) / (size.width + 16)) + 4));
    if (fitted < frame.height) {
      $("tree-frame").style.height = `${fitted}px`;
      frame = frameSize();
    }
  }
  const box = viewBoxFor(view.mode, size, frame, focus ?? { x: size.width / 2, y: 0 }, parent ?? null);
  svg.setAttribute("viewBox", `${box.x} ${box.y} ${box.width} ${box.height}`);
  svg.setAttribute("width", "100%");
  svg.setAttribute("height", "100%");
  const scale = scaleOf(box, frame);
  svg.classList.toggle("compact", scale < COMPACT_BELOW);
  // Readable at any size: values grow so that none is smaller than LEAST_PX on screen, and on the levels
  // where they would then overlap they are left out, but for the current node and its path; every value
  // stays in the node's title and its details.
  const grow = scale < COMPACT_BELOW ? labelGrowth(scale, VALUE_PX, LEAST_PX) : 1;
  svg.style.setProperty("--value-grow", String(grow));
  const roomy = roomyDepths(view.tree, at, scale, 2.4 * Math.max(LEAST_PX, VALUE_PX * scale));
  for (const g of svg.querySelectorAll(".node")) g.classList.toggle("quiet", !roomy.has(Number(g.dataset.depth)));
  svg.dataset.mode = view.mode;
  svg.dataset.focusInside = String(focus ? inside(box, focus) : true);
}

function describe() {
  const tree = view.tree;
  const mark = view.mark;
  $("explain-standpoint").textContent = standpointWords(tree, mark);
  const depth = tree.depth === null ? t("to the end") : pliesText(tree.depth);
  const algorithm = NAMES[tree.algorithm] ? t(NAMES[tree.algorithm]) : tree.algorithm;
  const what = t("{algorithm}, {depth}, e(P) {evaluation}", { algorithm, depth, evaluation: evaluationTitle(tree.evaluation) });
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
  if (!revealed(tree, view.step)) {
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
function drawPath(live, current) {
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

function resetLog() {
  $("explain-log").replaceChildren();
  view.logged = 0;
}

/** The log: one line a step up to the current one, the current one marked and in sight. */
function drawLog() {
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

/** Iterative deepening's table: one row a depth, the last one the tree drawn. */
function drawDeepening() {
  const rows = deepeningRows(view.tree);
  $("deepening").hidden = rows.length === 0;
  $("deepening-table").tBodies[0].replaceChildren(
    ...rows.map((row) => {
      const tr = document.createElement("tr");
      const head = html("th", { scope: "row" }, row.depth);
      tr.append(head, ...[row.first, row.move, row.value, row.nodes, row.time].map((text) => html("td", {}, text)));
      return tr;
    }),
  );
}

// ------------------------------------------------------------------------------ node details
function miniBoard(diagram) {
  const rows = diagram.split("/");
  const board = html("div", { class: "mini-board", role: "img", "aria-label": t("board {diagram}", { diagram }) });
  board.style.gridTemplateColumns = `repeat(${rows[0].length}, 1fr)`;
  for (const row of rows) {
    for (const cell of row) board.append(html("span", { class: `mini-cell ${cell === "." ? "empty" : cell}` }, cell === "." ? "" : view.mark(cell)));
  }
  return board;
}

function showDetail(id) {
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
    button.addEventListener("click", () => toggleNode(node.id));
    parts.push(button);
  }
  box.replaceChildren(...parts);
}

function toggleNode(id) {
  if (view.closed.has(id)) view.closed.delete(id);
  else view.closed.add(id);
  drawTree();
  $("tree").querySelector(`g.node[data-id="${id}"]`)?.focus();
}

function nodeOf(event) {
  const g = event.target.closest?.("g.node");
  return g && view.tree ? Number(g.dataset.id) : null;
}

// ------------------------------------------------------------------------------------- Try it
function newQuiz(tree) {
  return { questions: questions(tree), answered: new Map(), pending: null };
}

function toggleTry() {
  stop();
  view.quiz = view.quiz ? null : newQuiz(view.tree);
  $("explain-try").setAttribute("aria-pressed", String(Boolean(view.quiz)));
  $("explain-quiz").hidden = !view.quiz;
  $("quiz-feedback").textContent = "";
  $("quiz-question").textContent = view.quiz ? t("Press Step: before each value and each cut-off is shown, say what it will be.") : "";
  $("quiz-value").hidden = true;
  $("quiz-cutoff").hidden = true;
  resetLog();
  go(0);
  drawScore();
}

function ask(question) {
  view.quiz.pending = question;
  $("quiz-question").textContent = questionWords(view.tree, question);
  $("quiz-value").hidden = question.kind !== "value";
  $("quiz-cutoff").hidden = question.kind !== "cutoff";
  $("quiz-feedback").textContent = "";
  if (question.kind === "value") {
    $("quiz-input").value = "";
    $("quiz-input").focus();
  } else $("quiz-yes").focus();
  updateStepper();
}

function answerQuestion(given) {
  const quiz = view.quiz;
  const question = quiz?.pending;
  if (!question) return;
  const right = isRight(question, given);
  quiz.answered.set(question.step, right);
  quiz.pending = null;
  const truth = question.kind === "value" ? t("it returns {value}", { value: valueText(question.answer) }) : question.answer ? t("it is a cut-off") : t("no cut-off");
  $("quiz-feedback").textContent = right ? t("Right: {truth}.", { truth }) : t("Not quite: {truth}.", { truth });
  $("quiz-feedback").className = `quiz-feedback ${right ? "right" : "wrong"}`;
  $("quiz-value").hidden = true;
  $("quiz-cutoff").hidden = true;
  $("quiz-question").textContent = "";
  go(question.step);
  drawScore();
  $("explain-step").focus();
}

function drawScore() {
  const quiz = view.quiz;
  if (!quiz) return;
  const right = [...quiz.answered.values()].filter(Boolean).length;
  const score = scoreWords(right, quiz.answered.size);
  const so = ngettext("{score} so far, {count} question in all", "{score} so far, {count} questions in all", quiz.questions.length, { score, count: quiz.questions.length });
  $("quiz-score").textContent = atEnd() ? t("Score: {score}.", { score }) : so;
}

// ------------------------------------------------------------------------------- comparison
function drawCompare(answer) {
  const body = $("compare-table").tBodies[0];
  const most = Math.max(...answer.rows.map((row) => row.nodes));
  const depth = pliesText(answer.depth);
  $("compare-note").textContent = t("The same position searched {depth} deep with {evaluation}; each search may visit {nodes} nodes (bars on a log scale).", {
    depth,
    evaluation: evaluationTitle(answer.evaluation),
    nodes: numberText(answer.max_nodes),
  });
  $("compare-value").textContent = t("Value for Max ({side})", { side: view.mark("x") });
  body.replaceChildren(
    ...answer.rows.map((row) => {
      const tr = document.createElement("tr");
      const cells = compareCells(row, most, answer.to_move);
      tr.dataset.algorithm = row.name;
      if (!row.complete) tr.className = "stopped";
      const name = document.createElement("th");
      name.scope = "row";
      name.textContent = comparedName(row);
      const nodes = document.createElement("td");
      nodes.className = "nodes";
      const meter = document.createElement("div");
      meter.className = "meter";
      const track = document.createElement("span");
      track.className = "track";
      track.setAttribute("aria-hidden", "true");
      const bar = document.createElement("span");
      bar.className = "bar";
      bar.style.width = `${cells.bar}%`;
      track.append(bar);
      const count = document.createElement("span");
      count.className = "count";
      count.textContent = cells.nodes;
      meter.append(track, count);
      nodes.append(meter);
      const branching = document.createElement("td");
      branching.textContent = cells.branching;
      const time = document.createElement("td");
      time.textContent = cells.time;
      const value = document.createElement("td");
      value.textContent = cells.value;
      tr.append(name, nodes, branching, time, value);
      return tr;
    }),
  );
}

function compareError(error) {
  $("compare-table").tBodies[0].replaceChildren();
  $("compare-note").textContent = t("No comparison: {message}.", { message: error.message });
}

// ------------------------------------------------------------------------------------ wiring
function showMode() {
  $("tree-follow").setAttribute("aria-pressed", String(view.mode === "follow"));
  $("tree-fit").setAttribute("aria-pressed", String(view.mode === "fit"));
}

function setMode(mode) {
  view.mode = mode;
  view.autoFit = false;
  showMode();
  drawTree();
}

/** Attach the panel's listeners; `refresh` is called when a choice of algorithm, depth or evaluation changes. */
export function initExplain(refresh) {
  for (const id of ["explain-algorithm", "explain-depth", "explain-evaluation", "explain-order", "explain-quiescence", "explain-deepen"]) {
    $(id).addEventListener("change", () => {
      choices();
      refresh();
    });
  }
  $("explain-weights").addEventListener("change", refresh);
  $("explain-step").addEventListener("click", () => {
    stop();
    forward();
  });
  $("explain-back").addEventListener("click", () => {
    stop();
    go(view.step - 1);
  });
  $("explain-reset").addEventListener("click", () => {
    stop();
    if (view.quiz) view.quiz = newQuiz(view.tree);
    $("quiz-feedback").textContent = "";
    go(0);
    drawScore();
  });
  $("explain-all").addEventListener("click", () => {
    stop();
    if (view.mode !== "fit") {
      view.mode = "fit";
      view.autoFit = true;
      showMode();
    }
    go(Infinity);
  });
  $("explain-run").addEventListener("click", run);
  $("explain-try").addEventListener("click", toggleTry);
  $("quiz-value").addEventListener("submit", (event) => {
    event.preventDefault();
    answerQuestion($("quiz-input").value);
  });
  $("quiz-yes").addEventListener("click", () => answerQuestion(true));
  $("quiz-no").addEventListener("click", () => answerQuestion(false));
  $("tree-follow").addEventListener("click", () => setMode("follow"));
  $("tree-fit").addEventListener("click", () => setMode("fit"));
  const tree = $("tree");
  const select = (event) => {
    const id = nodeOf(event);
    if (id === null) return;
    view.selected = id;
    showDetail(id);
  };
  tree.addEventListener("mouseover", select);
  tree.addEventListener("focusin", select);
  tree.addEventListener("click", (event) => {
    const id = nodeOf(event);
    if (id === null) return;
    view.selected = id;
    for (const g of tree.querySelectorAll("g.node.selected")) g.classList.remove("selected");
    event.target.closest("g.node").classList.add("selected");
    showDetail(id);
  });
  tree.addEventListener("keydown", (event) => {
    const id = nodeOf(event);
    if (id === null || !(event.key === "Enter" || event.key === " ")) return;
    event.preventDefault();
    if (view.tree.nodes[id].children.length) toggleNode(id);
  });
  window.addEventListener("resize", () => view.tree && drawTree());
  updateStepper();
}
