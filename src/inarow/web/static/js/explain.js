// The "Explain" panel: the tree of a textbook search, drawn as SVG from the nodes the server recorded
// and replayed step by step: the view follows the node the search is at (or shows the whole tree, zoomed
// and panned), α and β are shown on the path, each step is said in words (replay.js makes them from the
// answer's `events`), a node's board and e(P) breakdown show on hover, and "Try it" asks the student to
// predict each value and cut-off before it is shown. It explains the game on the board, a position
// pasted (a diagram or moves) or a tree of one's own typed as nested lists (POST /api/explain/tree), and
// opens from a link (leaves.js: linkedExplain). Beside it, the nodes each algorithm needs (POST
// /api/compare), shown once the search has reached the root. Keys: → and ← step, Space runs or pauses,
// Home goes back to the root. The server searches; these modules only draw. Nothing runs at import:
// main.js calls initExplain.

import { api } from "./api.js";
import { compareError, drawCompare } from "./explain-compare.js";
import { drawTree, go, nodeOf, pan, pathOf, setMode, showMode, stageInSight, toggleNode, zoom } from "./explain-draw.js";
import { drawDeepening, drawOrders, resetLog, showDetail, updateStepper } from "./explain-panels.js";
import { answerQuestion, ask, drawScore, newQuiz, toggleTry } from "./explain-quiz.js";
import { $, COLLAPSE_OVER, RUN_EVERY, atEnd, lastStep, setState, stop, summary, view } from "./explain-view.js";
import { initSearch } from "./explain-search.js";
import { compareWithCode, explainWithCode, initStudent, reportSearch, studentCode } from "./explain-student.js";
import { warmUp } from "./lab.js";
import { PRESETS, leavesText, linkedExplain, orderedLeaves, randomLeaves, readLeaves } from "./leaves.js";
import { questionBefore } from "./replay.js";
import { initiallyClosed } from "./tree.js";
import { t } from "./words.js";

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
    max: $("explain-max").value || null, // MAX, the side whose standpoint the values take (null: the side to move)
  };
}

/** Show the fields of the source chosen (the board, a tree of one's own, a position pasted). */
function showSource() {
  const source = $("explain-source").value;
  view.source = source;
  $("explain-tree-field").hidden = source !== "tree";
  $("explain-position-field").hidden = source !== "position";
  // An abstract tree is searched to its leaves, which are its e(P): depth, evaluation and order do not apply.
  for (const id of ["explain-max", "explain-depth", "explain-evaluation", "explain-order", "explain-quiescence", "explain-deepen"]) $(id).disabled = source === "tree";
}

/** Ask for the tree (and the comparison) of `wanted` unless it is on screen; `search` and `count` send the requests. */
async function load(wanted, search, count) {
  const key = JSON.stringify(wanted);
  if (key === view.key) return;
  view.key = key;
  const request = (view.request += 1);
  stop();
  setState("loading");
  summary(t("Searching…"), "thinking");
  $("explain-compare-box").hidden = !count;
  $("compare-note").textContent = t("Counting…");
  const compare = count
    ? count().then(
        (answer) => request === view.request && drawCompare(answer),
        (error) => request === view.request && compareError(error),
      )
    : null;
  try {
    const tree = await search();
    if (request !== view.request) return;
    view.tree = tree;
    view.marked = wanted.marked ?? null;
    view.step = 0;
    view.selected = null;
    view.zoom = null;
    view.closed = initiallyClosed(tree, COLLAPSE_OVER);
    view.quiz = view.quiz ? newQuiz(tree) : null;
    resetLog();
    drawDeepening();
    drawTree();
    showDetail(null);
    setState("ready");
    drawScore();
    if (view.arriving) arrive();
    else stageInSight();
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

/**
 * Draw the tree of a case a student's search was checked on (`tree`, the fields of /api/explain), the whole
 * search at once, with the node where the student's search parted from inarow's marked (`marked`: the
 * `node` and the `leaf` named as data-path names them; explain-draw.js draws the mark).
 */
export async function showChecked(tree, marked) {
  view.arriving = false;
  await load({ marked, at: (view.request += 1) }, async () => tree, null);
  if (view.tree !== tree) return;
  const named = tree.nodes.find((node) => pathOf(tree, node) === marked.node);
  for (let id = named?.parent; id !== null && id !== undefined; id = tree.nodes[id].parent) view.closed.delete(id);
  if (named) view.closed.delete(named.id);
  view.step = lastStep();
  setMode("fit");
  stageInSight();
}

/** Explain `game` (the GameState on the board) unless its tree is already on screen or another source is chosen. */
export async function explainPosition(game, mark) {
  view.mark = mark;
  view.board = game;
  if (view.source !== "board") {
    if (view.arriving && view.tree) arrive();
    return;
  }
  await explainAt({ game: game.game, position: game.position, ...choices() });
}

/** Explain a position (`wanted`: the fields of /api/explain), with the student's e(P) at the leaves if the box says so. */
function explainAt(wanted) {
  const code = studentCode();
  // A pasted e(P) runs in this browser (lab.js), never on the server: its tree and its comparison.
  if (code) return load({ ...wanted, ...code }, () => explainWithCode(wanted, code), () => compareWithCode(wanted, code));
  return load(wanted, () => api.explain(wanted), () => api.compare(wanted.game, wanted.position, wanted.depth, wanted.evaluation));
}

/** Once the panel of a link is on screen: the stage in sight and the keys on the stepper (not on the board). */
function arrive() {
  if ($("explain-panel").hidden) return;
  view.arriving = false;
  if (view.student) {
    // ?student=1: the e(P) box in sight, ready to type in.
    view.student = false;
    $("student-source").scrollIntoView({ block: "center" });
    $("student-source").focus({ preventScroll: true });
    return;
  }
  stageInSight();
  $("explain-step").focus({ preventScroll: true });
}

/** Explain the source chosen: the board's game, the tree typed, or the position pasted. */
function explainChosen() {
  if (view.source === "board") {
    if (view.board) explainPosition(view.board, view.mark);
    return;
  }
  if (view.source === "tree") {
    const text = $("explain-leaves").value.trim();
    const leaves = readLeaves(text);
    drawOrders(leaves);
    const wanted = { leaves: leaves ? leavesText(leaves) : text, algorithm: $("explain-algorithm").value };
    load({ tree: wanted }, () => api.explainTree(wanted), null);
    return;
  }
  explainAt({ game: $("explain-game").value, position: $("explain-position").value.trim(), ...choices() });
}

/** Forget the tree on screen: the next explainPosition searches again. */
export function forget() {
  view.key = null;
  view.request += 1;
  stop();
}

/**
 * Open what the page's link asks Explain for (`search`: location.search), if it asks: a tree
 * (`?leaves=[[3,12,8],[2,4,6],[14,5,2]]&algo=alphabeta`) or a position
 * (`?game=tictactoe&position=b2%20a1%20c3&explain=alphabeta&depth=2`). Returns whether it did; the
 * caller then shows the panel.
 */
export function openLinked(search) {
  const link = linkedExplain(search);
  if (!link) return false;
  const pick = (id, value) => {
    if (value !== null && value !== undefined && [...$(id).options].some((option) => option.value === String(value))) $(id).value = String(value);
  };
  pick("explain-algorithm", link.algorithm);
  $("explain-source").value = link.source;
  if (link.source === "tree") $("explain-leaves").value = link.leaves;
  else {
    $("explain-max").value = link.max ?? "";
    pick("explain-game", link.game);
    $("explain-position").value = link.position;
    pick("explain-depth", link.depth);
  }
  showSource();
  view.arriving = true;
  view.student = Boolean(link.student);
  explainChosen();
  if (link.student) warmUp().catch(() => {});
  return true;
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

function run() {
  if (view.timer) return stop();
  if (!view.tree) return;
  if (atEnd()) go(0);
  $("explain-run").setAttribute("aria-pressed", "true");
  view.timer = setInterval(() => {
    if (!forward() || atEnd()) stop();
  }, RUN_EVERY);
}

/**
 * Step forward, back, run or reset from the keyboard while the panel is open: → ←, Space, Home. Not
 * while typing or choosing, nor on the tree's nodes (Enter and Space open them); Space on another
 * button presses that button. The arrows step even from the board, whose cells they would move between
 * otherwise: with the panel open, stepping is what they are for (listened to first, in the capture phase).
 */
function onKey(event) {
  if (!view.tree || $("explain-panel").hidden || $("play-view")?.hidden) return;
  if (event.altKey || event.ctrlKey || event.metaKey || event.defaultPrevented) return;
  if (event.target.closest?.("input, select, textarea, #tree, [contenteditable]")) return;
  if (event.key === " " && event.target.closest?.("button, a, summary") && !event.target.closest(".stepper")) return;
  const actions = {
    ArrowRight: () => $("explain-step").click(),
    ArrowLeft: () => $("explain-back").click(),
    " ": () => $("explain-run").click(),
    Home: () => $("explain-reset").click(),
    Escape: () => document.body.classList.contains("presenting") && present(false),
  };
  const action = actions[event.key];
  if (!action) return;
  event.preventDefault();
  event.stopPropagation();
  action();
}

/** Presenter mode: the panel over the whole window, the stage (stepper, tree, log) first. */
function present(on) {
  document.body.classList.toggle("presenting", on);
  $("explain-present").setAttribute("aria-pressed", String(on));
  if (view.tree) drawTree();
}

/** Put `leaves` in the tree box and explain it. */
function useLeaves(leaves) {
  $("explain-leaves").value = leavesText(leaves);
  explainChosen();
}

/** Drag to pan and wheel to zoom the whole tree (the wheel zooms "Follow" only with Ctrl, and switches to it). */
function zoomAndPan(frame) {
  const point = (event) => {
    const box = $("tree").getBoundingClientRect();
    const scale = Math.min(box.width / view.box.width, box.height / view.box.height);
    return {
      x: view.box.x + (event.clientX - box.left - (box.width - view.box.width * scale) / 2) / scale,
      y: view.box.y + (event.clientY - box.top - (box.height - view.box.height * scale) / 2) / scale,
      scale,
    };
  };
  frame.addEventListener(
    "wheel",
    (event) => {
      if (!view.tree || !view.box || !(event.ctrlKey || view.mode === "fit")) return;
      event.preventDefault();
      zoom(event.deltaY < 0 ? 1.2 : 1 / 1.2, point(event));
    },
    { passive: false },
  );
  let drag = null;
  frame.addEventListener("pointerdown", (event) => {
    if (view.mode !== "fit" || event.target.closest("g.node, g.pruned") || !view.box) return;
    drag = { x: event.clientX, y: event.clientY, scale: point(event).scale };
    frame.setPointerCapture(event.pointerId);
  });
  frame.addEventListener("pointermove", (event) => {
    if (!drag) return;
    const dx = (event.clientX - drag.x) / drag.scale;
    const dy = (event.clientY - drag.y) / drag.scale;
    drag.x = event.clientX;
    drag.y = event.clientY;
    pan(dx, dy);
  });
  const end = () => {
    drag = null;
  };
  frame.addEventListener("pointerup", end);
  frame.addEventListener("pointercancel", end);
}

/** Attach the panel's listeners; `refresh` is called when a choice of algorithm, depth or evaluation changes. */
export function initExplain(refresh) {
  $("explain-preset").replaceChildren(new Option(t("A preset…"), ""), ...Object.entries(PRESETS).map(([name, preset]) => new Option(t(preset.label), name)));
  const changed = () => {
    choices();
    if (view.source === "board") refresh();
    else {
      forget();
      explainChosen();
    }
  };
  for (const id of ["explain-algorithm", "explain-max", "explain-depth", "explain-evaluation", "explain-order", "explain-quiescence", "explain-deepen", "explain-weights", "explain-game"]) {
    $(id).addEventListener("change", changed);
  }
  initStudent(() => {
    forget();
    explainChosen();
  });
  initSearch(
    showChecked,
    () => {
      forget();
      explainChosen();
    },
    reportSearch,
  );
  $("explain-source").addEventListener("change", () => {
    showSource();
    forget();
    explainChosen();
  });
  $("explain-leaves").addEventListener("change", explainChosen);
  $("explain-position").addEventListener("change", explainChosen);
  $("explain-preset").addEventListener("change", () => {
    const preset = PRESETS[$("explain-preset").value];
    if (preset) useLeaves(preset.leaves);
  });
  $("explain-random").addEventListener("click", () => {
    const number = (id, low, high, fallback) => Math.max(low, Math.min(high, Math.round(Number($(id).value)) || fallback));
    useLeaves(randomLeaves(number("random-depth", 1, 6, 3), number("random-branching", 2, 5, 2), number("random-seed", 0, 2 ** 31, 1)));
  });
  for (const order of ["best", "worst"]) {
    $(`explain-${order}-order`).addEventListener("click", () => {
      const leaves = readLeaves($("explain-leaves").value);
      if (leaves) useLeaves(orderedLeaves(leaves, order));
    });
  }
  $("explain-step").addEventListener("click", () => {
    stop();
    forward();
    stageInSight();
  });
  $("explain-back").addEventListener("click", () => {
    stop();
    go(view.step - 1);
    stageInSight();
  });
  $("explain-reset").addEventListener("click", () => {
    stop();
    if (view.quiz) view.quiz = newQuiz(view.tree);
    $("quiz-feedback").textContent = "";
    go(0);
    drawScore();
    stageInSight();
  });
  $("explain-all").addEventListener("click", () => {
    stop();
    if (view.mode !== "fit") {
      view.mode = "fit";
      view.autoFit = true;
      view.zoom = null;
      showMode();
    }
    go(Infinity);
  });
  $("explain-run").addEventListener("click", () => {
    run();
    stageInSight();
  });
  $("explain-try").addEventListener("click", toggleTry);
  $("explain-present").addEventListener("click", () => present(!document.body.classList.contains("presenting")));
  $("quiz-value").addEventListener("submit", (event) => {
    event.preventDefault();
    answerQuestion($("quiz-input").value);
  });
  $("quiz-yes").addEventListener("click", () => answerQuestion(true));
  $("quiz-no").addEventListener("click", () => answerQuestion(false));
  $("tree-follow").addEventListener("click", () => setMode("follow"));
  $("tree-fit").addEventListener("click", () => setMode("fit"));
  $("tree-zoom-in").addEventListener("click", () => zoom(1.4));
  $("tree-zoom-out").addEventListener("click", () => zoom(1 / 1.4));
  zoomAndPan($("tree-frame"));
  const tree = $("tree");
  const select = (event) => {
    const id = nodeOf(event);
    if (id === null) return;
    view.selected = id;
    showDetail(id, toggleNode);
  };
  tree.addEventListener("mouseover", select);
  tree.addEventListener("focusin", select);
  tree.addEventListener("click", (event) => {
    const id = nodeOf(event);
    if (id === null) return;
    view.selected = id;
    for (const g of tree.querySelectorAll("g.node.selected")) g.classList.remove("selected");
    event.target.closest("g.node").classList.add("selected");
    showDetail(id, toggleNode);
  });
  tree.addEventListener("keydown", (event) => {
    const id = nodeOf(event);
    if (id === null || !(event.key === "Enter" || event.key === " ")) return;
    event.preventDefault();
    if (view.tree.nodes[id].children.length) toggleNode(id);
  });
  document.addEventListener("keydown", onKey, { capture: true });
  // The stage is one screen high under the top bar, whose height depends on the width (it wraps on a phone).
  const measure = () => document.documentElement.style.setProperty("--stage-top", `${Math.ceil(document.querySelector(".topbar")?.getBoundingClientRect().height ?? 0)}px`);
  measure();
  window.addEventListener("resize", () => {
    measure();
    if (view.tree) drawTree();
  });
  showSource();
  updateStepper();
}
