// The "Explain" panel: the tree of a textbook search of the position on the board, drawn as SVG from the
// nodes the server recorded (POST /api/explain), replayed step by step, with nodes that open and close;
// and the nodes each algorithm needs, side by side (POST /api/compare). The server searches; this module
// only draws, at the places the server's layout gives (`x`, `y` of every node, `pruned_spots`; see
// tree.js). Nothing runs at import: main.js calls initExplain.

import { api } from "./api.js";
import { ancestorsAt, bestPath, compareCells, descendants, initiallyClosed, placement } from "./tree.js";
import { pliesText, valueText } from "./words.js";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
const SIZE = 19; // half the size of a node's shape
const COLLAPSE_OVER = 60; // trees with more nodes start with the nodes of depth 2 closed
const RUN_EVERY = 180; // milliseconds between two steps of "Run"

const view = {
  key: null, // what the tree on screen was asked for: game, position, algorithm, depth, evaluation
  tree: null, // the answer of /api/explain
  step: Infinity, // the replay shows the steps up to this one
  closed: new Set(), // ids of the nodes whose subtrees are hidden
  timer: null,
  mark: (side) => side.toUpperCase(),
  request: 0, // bumped at each request, so a late answer for an old one is dropped
};

const el = (name, attributes = {}, text) => {
  const node = document.createElementNS(SVG, name);
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
  return { algorithm: $("explain-algorithm").value, depth: depth === "end" ? null : Number(depth), evaluation: $("explain-evaluation").value };
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
  summary("Searching…", "thinking");
  $("compare-note").textContent = "Counting…";
  const compare = api.compare(wanted.game, wanted.position, wanted.depth, wanted.evaluation).then(
    (answer) => request === view.request && drawCompare(answer),
    (error) => request === view.request && compareError(error),
  );
  try {
    const tree = await api.explain(wanted);
    if (request !== view.request) return;
    view.tree = tree;
    view.step = Infinity;
    view.closed = initiallyClosed(tree, COLLAPSE_OVER);
    drawTree();
    centreRoot();
    setState("ready");
  } catch (error) {
    if (request !== view.request) return;
    view.tree = null;
    $("tree").replaceChildren();
    $("tree").setAttribute("width", "0");
    $("tree").setAttribute("height", "0");
    summary(`Can't draw this tree: ${error.message}.`, "error");
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

/** Scroll the tree so its root is in the middle of the frame. */
function centreRoot() {
  const frame = $("tree-frame");
  const root = $("tree").querySelector('g.node[data-id="0"]');
  if (!root) return;
  const box = root.getBoundingClientRect();
  const outer = frame.getBoundingClientRect();
  frame.scrollLeft += box.left + box.width / 2 - (outer.left + outer.width / 2);
}

// ----------------------------------------------------------------------------------- replay
const lastStep = () => (view.tree ? view.tree.steps - 1 : 0);
const replaying = () => view.step < lastStep();

function go(step) {
  if (!view.tree) return;
  view.step = Math.max(0, Math.min(step, lastStep()));
  // Open the way to the node the search is at, so a step never happens out of sight.
  for (const id of ancestorsAt(view.tree, view.step)) view.closed.delete(id);
  drawTree();
}

function stop() {
  clearInterval(view.timer);
  view.timer = null;
  $("explain-run").setAttribute("aria-pressed", "false");
}

function run() {
  if (view.timer) return stop();
  if (!view.tree) return;
  if (!replaying()) go(0);
  $("explain-run").setAttribute("aria-pressed", "true");
  view.timer = setInterval(() => {
    if (!replaying()) return stop();
    go(view.step + 1);
    if (!replaying()) stop();
  }, RUN_EVERY);
}

function updateStepper() {
  const tree = view.tree;
  for (const id of ["explain-reset", "explain-step", "explain-run", "explain-all"]) $(id).disabled = !tree || tree.steps <= 1;
  if (!tree) {
    $("explain-progress").textContent = "";
    return;
  }
  const step = Math.min(view.step, lastStep());
  $("explain-progress").textContent = replaying() ? `step ${step + 1} of ${tree.steps}` : `${tree.steps} steps`;
  $("explain-panel").dataset.step = replaying() ? String(step) : "end";
}

// ---------------------------------------------------------------------------------- drawing
function shape(node) {
  if (node.role === "negamax") return el("circle", { r: SIZE, class: "shape" });
  const s = SIZE + 3;
  const points = node.role === "max" ? [[0, -s], [-s, s * 0.72], [s, s * 0.72]] : [[0, s], [-s, -s * 0.72], [s, -s * 0.72]];
  return el("polygon", { points: points.map((p) => p.join(",")).join(" "), class: "shape" });
}

function roleWords(node) {
  if (node.role === "negamax") return `Negamax node, ${view.mark(node.to_move)} to move`;
  return `${node.role === "max" ? "Max" : "Min"} node (${view.mark(node.to_move)} to move)`;
}

function drawTree() {
  const tree = view.tree;
  const svg = $("tree");
  svg.replaceChildren();
  if (!tree) return;
  const { at, pruned, width, height } = placement(tree, view.closed);
  const pad = 8;
  svg.setAttribute("viewBox", `${-pad} 0 ${width + 2 * pad} ${height}`);
  svg.setAttribute("width", String(width + 2 * pad));
  svg.setAttribute("height", String(height));
  const best = bestPath(tree);
  const step = view.step;
  const edges = el("g", { class: "edges" });
  const shapes = el("g", { class: "nodes" });
  const labels = el("g", { class: "reasons" });
  let current = null;
  for (const node of tree.nodes) {
    if (!at.has(node.id) || node.enter > step) continue;
    const { x, y } = at.get(node.id);
    const done = node.exit <= step;
    if (node.enter === step || node.exit === step) current = node.id;
    if (node.parent !== null) {
      const parent = at.get(node.parent);
      const onBest = best.has(node.id) && tree.nodes[node.parent].exit <= step;
      edges.append(el("line", { x1: parent.x, y1: parent.y + SIZE, x2: x, y2: y - SIZE - 3, class: `edge${onBest ? " best" : ""}` }));
      edges.append(el("text", { x: (parent.x + x) / 2 + (x >= parent.x ? 5 : -5), y: (parent.y + y) / 2 + 2, class: "move", "text-anchor": x >= parent.x ? "start" : "end" }, node.move));
    }
    const closed = view.closed.has(node.id) && node.children.length > 0;
    const classes = ["node", node.role];
    if (best.has(node.id) && done && (node.parent === null || tree.nodes[node.parent].exit <= step)) classes.push("best");
    if (node.cutoff && done) classes.push("cutoff");
    if (!done) classes.push("open");
    if (node.leaf) classes.push("leaf");
    const g = el("g", { class: classes.join(" "), transform: `translate(${x} ${y})`, "data-id": node.id, "data-depth": node.depth, tabindex: node.children.length || node.pruned.length ? "0" : "-1" });
    const window = `α ${valueText(node.alpha)}, β ${valueText(node.beta)}`;
    const value = done ? valueText(node.value) : "?";
    const words = [roleWords(node), node.path.length ? `after ${node.path.join(" ")}` : "the position on the board", `value ${value}`, window];
    if (node.leaf) words.push(node.leaf === "depth" ? "evaluated at the depth limit" : `a leaf: ${node.leaf}`);
    if (node.cutoff && done) words.push(`cut off: ${node.reason}`);
    if (node.children.length) words.push(closed ? `${descendants(tree, node)} nodes hidden, press to open` : "press to close");
    g.setAttribute("aria-label", words.join("; "));
    if (node.children.length) {
      g.setAttribute("role", "button");
      g.setAttribute("aria-expanded", String(!closed));
    }
    g.append(el("title", {}, words.join("\n")), shape(node));
    g.append(el("text", { class: "value", y: node.role === "max" ? 6 : node.role === "min" ? 1 : 4, "text-anchor": "middle" }, value));
    g.append(el("text", { class: "window", y: SIZE + 15, "text-anchor": "middle" }, `α${valueText(node.alpha)} β${valueText(node.beta)}`));
    if (closed) {
      const count = descendants(tree, node);
      const badge = el("g", { class: "badge", transform: `translate(0 ${SIZE + 30})` });
      badge.append(el("rect", { x: -17, y: -9, width: 34, height: 16, rx: 8 }), el("text", { y: 3, "text-anchor": "middle" }, `+${count}`));
      g.append(badge);
    }
    shapes.append(g);
    // The children a cut-off pruned, once the search has left the node.
    if (!view.closed.has(node.id) && node.pruned.length && done) {
      for (const move of node.pruned) {
        const { x: gx, y: gy } = pruned.get(`${node.id}:${move}`);
        edges.append(el("line", { x1: x, y1: y + SIZE, x2: gx, y2: gy - 12, class: "edge pruned" }));
        const reason = `${move} pruned: ${node.reason}`;
        const p = el("g", { class: "pruned", transform: `translate(${gx} ${gy})`, tabindex: "0", "data-pruned": move, "data-parent": node.id, role: "note", "aria-label": reason });
        const wide = Math.max(26, 7 * move.length + 8);
        p.append(el("title", {}, reason), el("rect", { x: -wide / 2, y: -11, width: wide, height: 22, rx: 5 }), el("text", { y: 4, "text-anchor": "middle" }, move), el("text", { class: "scissors", y: 24, "text-anchor": "middle" }, "✂"));
        shapes.append(p);
        const label = el("g", { class: "reason", transform: `translate(${gx} ${gy + 44})`, "data-for": `${node.id}:${move}` });
        const text = el("text", { "text-anchor": "middle" }, node.reason ?? "pruned");
        label.append(el("rect", { x: -48, y: -13, width: 96, height: 19, rx: 5 }), text);
        labels.append(label);
        const show = (on) => label.classList.toggle("shown", on);
        p.addEventListener("mouseenter", () => show(true));
        p.addEventListener("mouseleave", () => show(false));
        p.addEventListener("focus", () => show(true));
        p.addEventListener("blur", () => show(false));
      }
    }
  }
  if (current !== null && replaying()) shapes.querySelector(`[data-id="${current}"]`)?.classList.add("current");
  svg.append(edges, shapes, labels);
  describe();
  updateStepper();
}

function describe() {
  const tree = view.tree;
  const names = { minimax: "Minimax", negamax: "Negamax", alphabeta: "α-β", "alphabeta-soft": "α-β (fail-soft)" };
  const cutoffs = tree.nodes.filter((n) => n.cutoff).length;
  const pruned = tree.pruned_spots.length;
  const frame = tree.frame === "x" ? `values are ${view.mark("x")}'s: ${view.mark("x")} is Max` : "each value is for the side to move there";
  const depth = tree.depth === null ? "to the end" : pliesText(tree.depth);
  if (tree.nodes.length === 1 && tree.nodes[0].leaf && tree.nodes[0].leaf !== "depth") {
    summary(`The game is over: nothing to search (${tree.nodes[0].leaf}).`);
    return;
  }
  const parts = [`${names[tree.algorithm] ?? tree.algorithm}, ${depth}, ${tree.evaluation}: value ${valueText(tree.value)}, best move ${tree.move ?? "—"}`, `${tree.nodes_visited.toLocaleString("en")} nodes`];
  if (tree.algorithm.startsWith("alphabeta")) parts.push(`${cutoffs} cut-offs pruned ${pruned} ${pruned === 1 ? "move" : "moves"}`);
  summary(`${parts.join(" · ")}. ${frame[0].toUpperCase()}${frame.slice(1)}.`);
}

function toggle(event) {
  const g = event.target.closest("g.node");
  if (!g || !view.tree) return;
  const node = view.tree.nodes[Number(g.dataset.id)];
  if (!node.children.length) return;
  if (view.closed.has(node.id)) view.closed.delete(node.id);
  else view.closed.add(node.id);
  drawTree();
  $("tree").querySelector(`g.node[data-id="${node.id}"]`)?.focus();
}

// ------------------------------------------------------------------------------- comparison
function drawCompare(answer) {
  const body = $("compare-table").tBodies[0];
  const most = Math.max(...answer.rows.map((row) => row.nodes));
  const depth = pliesText(answer.depth);
  $("compare-note").textContent = `The same position searched ${depth} deep with ${answer.evaluation}; each search may visit ${answer.max_nodes.toLocaleString("en")} nodes (bars on a log scale).`;
  $("compare-value").textContent = `Value for ${view.mark(answer.to_move)}`;
  body.replaceChildren(
    ...answer.rows.map((row) => {
      const tr = document.createElement("tr");
      const cells = compareCells(row, most);
      tr.dataset.algorithm = row.name;
      if (!row.complete) tr.className = "stopped";
      const name = document.createElement("th");
      name.scope = "row";
      name.textContent = row.label;
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
  $("compare-note").textContent = `No comparison: ${error.message}.`;
}

// ------------------------------------------------------------------------------------ wiring
/** Attach the panel's listeners; `refresh` is called when a choice of algorithm, depth or evaluation changes. */
export function initExplain(refresh) {
  for (const id of ["explain-algorithm", "explain-depth", "explain-evaluation"]) $(id).addEventListener("change", refresh);
  $("explain-step").addEventListener("click", () => {
    stop();
    go(replaying() ? view.step + 1 : 0);
  });
  $("explain-reset").addEventListener("click", () => {
    stop();
    go(0);
  });
  $("explain-all").addEventListener("click", () => {
    stop();
    go(Infinity);
  });
  $("explain-run").addEventListener("click", run);
  $("tree").addEventListener("click", toggle);
  $("tree").addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      toggle(event);
    }
  });
  updateStepper();
}
