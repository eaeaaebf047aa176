// A student's e(P) as Python in the Explain panel: pasted or read from a .py file, run in this browser
// (Pyodide in a Web Worker, lab.js) — never on the server. It scores the board's position (Run), sits at
// the leaves of the tree drawn, and is graded: the worker plays it in every position grading judges
// (GET /api/lab/positions) and the server scores the moves against perfect play (POST /api/lab/grade,
// the figures of `inarow grade`). Each grade joins the ranking kept in this browser; Submit puts it on
// the class board (POST /api/class, read by the teacher at /class). The first submission under a name
// claims it: the server gives a secret, kept in this browser and shown once as a code the student notes to
// go on from another device; a name another browser has claimed is refused before grading
// (POST /api/class/check). When the e(P) fails (raises, loops, does not compile) and a name is given, the
// error goes to the teacher's board (POST /api/class/stuck). Nothing runs at import: explain.js calls
// initStudent.

import { api, ApiError } from "./api.js";
import { $, html, view } from "./explain-view.js";
import { blunderWords, headlineWords, keptWords, rankEntry, ranked, shareText } from "./grading.js";
import { searching } from "./explain-search.js";
import { ask, warmUp } from "./lab.js";
import { searchText } from "./menus.js";
import { numberText, t } from "./words.js";

const STORAGE = "inarow.ranking";
const SECRETS = "inarow.class.secrets"; // {"class\u0000name": secret}: the names this browser claimed
const LAB_CODE = "inarow.lab.code"; // class.js puts a student's e(P) here before opening one of its blunders
const SHOWN_BLUNDERS = 5;
const positionsOf = new Map();

/** The code pasted, when the box says to use it at the leaves: {source, function}, else null. */
export function studentCode() {
  if (!$("student-use").checked || searching()) return null;
  return pasted();
}

const pasted = () => ({ source: $("student-source").value, function: $("student-function").value.trim() || "e" });

/** The tree of `wanted` (the fields of /api/explain) with the pasted `code` at the leaves, searched in this browser. */
export function explainWithCode(wanted, code) {
  return ask({ op: "explain", args: [wanted.game, wanted.position, wanted], ...code }, { position: wanted.position || t("the empty board") });
}

/** The algorithms side by side (the fields of /api/compare) with the pasted `code` at the leaves, searched in this browser. */
export function compareWithCode(wanted, code) {
  return ask({ op: "compare", args: [wanted.game, wanted.position, wanted.depth], ...code }, { position: wanted.position || t("the empty board") });
}

const readRanking = () => {
  try {
    return JSON.parse(localStorage.getItem(STORAGE) ?? "[]");
  } catch {
    return [];
  }
};

function drawRanking(list = readRanking()) {
  $("student-ranking").hidden = list.length === 0;
  $("student-clear").hidden = list.length === 0;
  $("student-ranking").tBodies[0].replaceChildren(
    ...list.map((entry, index) => {
      const tr = document.createElement("tr");
      tr.append(
        html("td", {}, String(index + 1)),
        html("th", { scope: "row" }, entry.who),
        html("td", {}, entry.evaluation),
        html("td", {}, searchText(entry.algorithm, entry.depth)),
        html("td", { class: "accuracy", "data-testid": "ranking-headline" }, entry.headline === null || entry.headline === undefined ? "—" : shareText(entry.headline)),
        html("td", { class: "accuracy" }, shareText(entry.accuracy)),
      );
      return tr;
    }),
  );
}

const ownerKey = (klass, name) => `${klass}\u0000${name.normalize("NFKC").toLowerCase()}`;
const plainSecret = (text) => text.toUpperCase().replace(/[-\s]/g, "");

function readSecrets() {
  try {
    return JSON.parse(localStorage.getItem(SECRETS) ?? "{}") ?? {};
  } catch {
    return {};
  }
}

/** The secret of `name` in `klass`: the code typed in (another device's), else the one this browser keeps. */
function secretOf(klass, name) {
  return plainSecret($("student-secret-entry").value) || readSecrets()[ownerKey(klass, name)] || null;
}

function keepSecret(klass, name, secret) {
  localStorage.setItem(SECRETS, JSON.stringify({ ...readSecrets(), [ownerKey(klass, name)]: secret }));
}

/** The name and class as the board keeps them, checked before grading: a name another browser owns is refused. */
async function owner() {
  const typed = { name: $("student-name").value.trim(), class: $("student-class").value.trim() };
  const asked = await api.checkName({ ...typed, secret: secretOf(typed.class, typed.name) });
  const secret = secretOf(asked.class_code, asked.name);
  if (asked.state === "taken") {
    const said = t("this name is taken: {name} was claimed by another browser; type your code for it (shown when you first submitted), choose another name, or ask the teacher to release it", { name: asked.name });
    throw new ApiError(409, said, t("this name is taken"));
  }
  return { name: asked.name, class: asked.class_code, secret };
}

/**
 * Put the check of the student's own search on the class board (`check`: {algorithm, passed, total,
 * failed}) under the name and class typed, with the name's secret; the board's row of the student.
 */
export async function reportSearch(check) {
  const who = await owner();
  if (!who.name) throw new ApiError(400, t("Give your name first: the class board lists you by it."), "");
  return api.searchChecked({ ...who, ...check });
}

/** The code shown once, after this browser claimed a name: three groups of four. */
function showSecret(name, secret) {
  const code = secret.match(/.{1,4}/g).join("-");
  $("student-secret").textContent = t("Your code for {name}: {code}. Note it down: with it you go on under this name from another device.", { name, code });
  $("student-secret").dataset.code = code;
  $("student-secret").hidden = false;
}

/** The student's own submissions under the name, the latest first: when, the search, the shares. */
async function showHistory(who) {
  try {
    const rows = await api.mine(who);
    $("student-history-title").textContent = t("Your submissions as {name}: {count}", { name: who.name, count: numberText(rows.length) });
    $("student-history").querySelector("ol").replaceChildren(
      ...rows.map((row) => {
        const decisive = row.report?.decisive;
        const share = decisive?.positions ? shareText(decisive.share) : "—";
        const when = new Date(row.submitted * 1000).toLocaleString(document.documentElement.lang);
        return html("li", { "data-id": String(row.id) }, `${when} · ${searchText(row.algorithm, row.depth)} · ${share} · ${shareText(row.accuracy)}`);
      }),
    );
    $("student-history").hidden = false;
  } catch {
    $("student-history").hidden = true; // the board keeps it all the same; the teacher sees it
  }
}

/** Tell the teacher's board that the e(P) failed (the worker's error, not the server's), when a name is given. */
function reportStuck(error) {
  const name = $("student-name").value.trim();
  if (error instanceof ApiError || !name) return;
  const klass = $("student-class").value.trim();
  api.stuck({ name, class: klass, secret: secretOf(klass, name), error: String(error.message).slice(0, 2000) }).catch(() => {});
}

function say(text, kind = "") {
  $("student-status").textContent = text;
  $("student-status").className = `student-status ${kind}`.trim();
}

function drawGrade(answer) {
  const parts = [
    html("p", { class: "student-headline", "data-testid": "student-headline", "data-share": String(answer.decisive?.share ?? "") }, headlineWords(answer)),
    html("p", { class: "student-kept" }, t("Over every position: {sentence}", { sentence: keptWords(answer) })),
  ];
  if (answer.blunders.length) {
    parts.push(html("p", {}, t("Its worst moves, the first of {count}:", { count: answer.blunders.length })));
    const list = html("ol", { class: "student-blunders" });
    list.append(...answer.blunders.slice(0, SHOWN_BLUNDERS).map((blunder) => html("li", {}, blunderWords(blunder, view.mark))));
    parts.push(list);
  }
  $("student-result").replaceChildren(...parts);
}

/** The game and position the box runs on: the board's, or the one Explain shows; 3×3 from the empty board else. */
function runsOn() {
  if (view.source === "board" && view.board) return { game: view.board.game, position: view.board.position };
  if (view.source === "position") return { game: $("explain-game").value || "tictactoe", position: $("explain-position").value };
  return { game: "tictactoe", position: "" };
}

/** Run the pasted e(P) on the position: its value, or its error, in student-output. */
async function runIt() {
  const { game, position } = runsOn();
  const code = pasted();
  $("student-run").disabled = true;
  $("student-output").className = "student-output thinking";
  $("student-output").textContent = t("Running {function} in this browser…", { function: code.function });
  try {
    const answer = await ask({ op: "evaluate", args: [game, position, null], ...code }, { position: position || t("the empty board") });
    $("student-output").className = "student-output";
    $("student-output").textContent = t("{function}({position}) = {value}, from {side}'s standpoint (Max)", {
      function: code.function,
      position: answer.position,
      value: String(answer.value),
      side: view.mark(answer.max),
    });
  } catch (error) {
    $("student-output").className = "student-output error";
    $("student-output").textContent = error.message;
    forget(); // the grade shown and "on the class board as …" were another code's
    reportStuck(error);
  } finally {
    $("student-run").disabled = false;
  }
}

/** The game grading runs on (the board's, else 3×3) and the menus' algorithm and depth (null: to the end). */
const searchWanted = () => ({
  game: view.board?.game && view.source === "board" ? view.board.game : "tictactoe",
  algorithm: $("explain-algorithm").value,
  depth: $("explain-depth").value === "end" ? null : Number($("explain-depth").value),
});

/** The grading's fields for the menus' algorithm and depth, the moves played by the pasted code (or, `named`, the menu's e(P)) in this browser. */
async function movesGraded(named) {
  const { game, algorithm, depth } = searchWanted();
  if (!positionsOf.has(game)) positionsOf.set(game, (await api.labPositions(game)).positions);
  const diagrams = positionsOf.get(game);
  const evaluation = $("explain-evaluation").value === "custom" ? $("explain-weights").value.trim() : $("explain-evaluation").value;
  const code = named ? { named: evaluation } : pasted();
  const onProgress = (index) => index % 200 === 0 && say(t("Grading in this browser: position {done} of {total}…", { done: index + 1, total: diagrams.length }), "thinking");
  const chosen = await ask({ op: "choose", args: [game, diagrams, algorithm, depth], ...code }, { onProgress });
  return { game, algorithm, depth, evaluation: named ? evaluation : code.function, ...chosen };
}

const BUTTONS = ["student-grade", "student-grade-named", "student-submit"];

/** The pasted code's last grade: the moves sent and what they were chosen with, so Submit sends them without grading again. */
let lastGraded = null;

/** What the moves of a grade depend on: the code, the function, the game, the algorithm and the depth. */
const gradedWith = (body, code) => JSON.stringify([code.source, code.function, body.game, body.algorithm, body.depth]);

/** Clear the grade shown and the status (a run that failed, a grade under way): they belonged to other code. */
function forget() {
  $("student-result").replaceChildren();
  say("");
}

/** Grade the pasted code, or (`named`) the evaluation chosen in the menu; `submit` puts it on the class board too. */
async function gradeIt(named, submit = false) {
  for (const id of BUTTONS) $(id).disabled = true;
  forget();
  try {
    const who = submit ? await owner() : null;
    const code = pasted();
    let body;
    if (submit && lastGraded?.with === gradedWith(searchWanted(), code)) {
      body = lastGraded.body; // just graded: sent as it is, not searched again
    } else {
      say(t("Grading: every position, searched as the menus say…"), "thinking");
      await warmUp();
      body = await movesGraded(named);
      if (!named) lastGraded = { body, with: gradedWith(body, code) };
    }
    let answer;
    if (submit) {
      const row = await api.submit({ ...body, ...who, source: code.source });
      answer = row.report;
      if (row.secret) showSecret(row.name, row.secret);
      keepSecret(row.class_code, row.name, row.secret ?? who.secret);
      $("student-secret-entry").value = "";
      showHistory({ name: row.name, class: row.class_code, secret: row.secret ?? who.secret });
      say(t("On the class board as {name}.", { name: row.name }), "done");
    } else {
      answer = await api.gradeMoves(body);
      say("");
    }
    answer = { ...answer, evaluation: named ? answer.evaluation : `<pasted>:${answer.evaluation}` };
    drawGrade(answer);
    const list = ranked(readRanking(), rankEntry(answer, named ? "" : $("student-name").value));
    localStorage.setItem(STORAGE, JSON.stringify(list));
    drawRanking(list);
  } catch (error) {
    $("student-result").replaceChildren();
    say(error.message, "error");
    reportStuck(error);
  } finally {
    for (const id of BUTTONS) $(id).disabled = false;
  }
}

/** The class board's ranking as the teacher shows it to the students (names and figures, no code). */
async function showBoardRanking() {
  const status = $("student-board-status");
  status.hidden = false;
  status.className = "student-status thinking";
  status.textContent = t("Asking the class board…");
  try {
    const answer = await api.ranking($("student-class").value.trim());
    $("student-board-table").hidden = !answer.open;
    status.className = "student-status";
    status.textContent = answer.open ? "" : t("The teacher does not show the class board's ranking.");
    status.hidden = answer.open;
    $("student-board-table").tBodies[0].replaceChildren(
      ...answer.rows.map((row, index) => {
        const tr = html("tr", { "data-name": row.name });
        tr.append(
          html("td", {}, String(index + 1)),
          html("th", { scope: "row" }, row.name),
          html("td", { class: "accuracy" }, row.headline === null ? "—" : shareText(row.headline)),
          html("td", { class: "accuracy" }, shareText(row.accuracy)),
          html("td", {}, searchText(row.algorithm, row.depth)),
        );
        return tr;
      }),
    );
  } catch (error) {
    status.className = "student-status error";
    status.textContent = error.message;
  }
}

/** Attach the box's listeners; `changed` is called when the code to use at the leaves changes. */
export function initStudent(changed) {
  $("student-file").addEventListener("change", async () => {
    const file = $("student-file").files[0];
    if (!file) return;
    $("student-source").value = await file.text();
    if ($("student-use").checked) changed();
  });
  $("student-use").addEventListener("change", changed);
  $("student-source").addEventListener("change", () => $("student-use").checked && changed());
  $("student-function").addEventListener("change", () => $("student-use").checked && changed());
  $("student-source").addEventListener("focus", () => warmUp().catch(() => {}), { once: true });
  $("student-run").addEventListener("click", runIt);
  $("student-grade").addEventListener("click", () => gradeIt(false));
  $("student-grade-named").addEventListener("click", () => gradeIt(true));
  $("student-submit").addEventListener("click", () => {
    if (!$("student-name").value.trim()) {
      say(t("Give your name first: the class board lists you by it."), "error");
      $("student-name").focus();
      return;
    }
    gradeIt(false, true);
  });
  $("student-board").addEventListener("click", showBoardRanking);
  $("student-clear").addEventListener("click", () => {
    localStorage.removeItem(STORAGE);
    drawRanking([]);
  });
  const klass = new URLSearchParams(location.search).get("class");
  if (klass) $("student-class").value = klass;
  drawRanking();
  useLinkedCode();
}

/** A blunder opened from the class board (?code=1): that student's e(P) in the box and at the leaves. */
function useLinkedCode() {
  if (new URLSearchParams(location.search).get("code") !== "1") return;
  try {
    const code = JSON.parse(localStorage.getItem(LAB_CODE) ?? "null");
    if (typeof code?.source !== "string") return;
    $("student-source").value = code.source;
    $("student-function").value = code.function || "e";
    $("student-use").checked = true;
  } catch {
    /* nothing usable: the box keeps its code */
  }
}
