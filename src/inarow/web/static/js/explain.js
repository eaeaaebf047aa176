// The "Explain" panel: the tree of a textbook search of the position on the board, drawn as SVG from the
// nodes the server recorded (POST /api/explain) and replayed step by step: the view follows the node the
// search is at (or fits the whole tree), α and β are shown live on the path, each step is said in words
// (replay.js makes them from the answer's `events`), a node's board and e(P) breakdown show on hover, and
// "Try it" asks the student to predict each value and cut-off before it is shown. Beside it, the nodes
// each algorithm needs (POST /api/compare). The server searches; this module only draws, at the places
// the server's layout gives (see tree.js). Nothing runs at import: main.js calls initExplain.


import { api } from "./api.js";
import { compareError, drawCompare } from "./explain-compare.js";
import { go, nodeOf, setMode, showMode, toggleNode, drawTree } from "./explain-draw.js";
import { drawDeepening, resetLog, showDetail, updateStepper } from "./explain-panels.js";
import { answerQuestion, ask, drawScore, newQuiz, toggleTry } from "./explain-quiz.js";
import { $, COLLAPSE_OVER, RUN_EVERY, atEnd, setState, stop, summary, view } from "./explain-view.js";
import { questionBefore } from "./replay.js";
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
