// A student's e(P) as Python in the Explain panel: pasted or read from a .py file, used at the leaves of
// the tree drawn (POST /api/student/explain) and graded against perfect play (POST /api/student/grade),
// each grade joining the class's ranking (kept in this browser). The server runs the code only when it
// is bound to loopback and asked from the same machine; elsewhere it answers 403 saying so, and that is
// what the box says. Nothing runs at import: explain.js calls initStudent.

import { api } from "./api.js";
import { $, html, view } from "./explain-view.js";
import { blunderWords, keptWords, matchWords, rankEntry, ranked, shareText } from "./grading.js";
import { pliesText, t } from "./words.js";

const STORAGE = "inarow.ranking";
const SHOWN_BLUNDERS = 5;

/** The code pasted, when the box says to use it at the leaves: {source, function}, else null. */
export function studentCode() {
  if (!$("student-use").checked) return null;
  return { source: $("student-source").value, function: $("student-function").value.trim() || "e" };
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
      const depth = entry.depth === null ? t("to the end") : pliesText(entry.depth);
      tr.append(
        html("td", {}, String(index + 1)),
        html("th", { scope: "row" }, entry.who),
        html("td", {}, entry.evaluation),
        html("td", {}, `${entry.algorithm}, ${depth}`),
        html("td", { class: "accuracy" }, shareText(entry.accuracy)),
      );
      return tr;
    }),
  );
}

function say(text, kind = "") {
  $("student-status").textContent = text;
  $("student-status").className = `student-status ${kind}`.trim();
}

function drawGrade(answer) {
  const parts = [html("p", { class: "student-kept" }, keptWords(answer))];
  if (answer.blunders.length) {
    parts.push(html("p", {}, t("Its worst moves, the first of {count}:", { count: answer.blunders.length })));
    const list = html("ol", { class: "student-blunders" });
    list.append(...answer.blunders.slice(0, SHOWN_BLUNDERS).map((blunder) => html("li", {}, blunderWords(blunder, view.mark))));
    parts.push(list);
  }
  if (answer.matches.length) parts.push(html("p", {}, answer.matches.map(matchWords).join(t("; "))));
  $("student-result").replaceChildren(...parts);
}

/** Grade the pasted code, or (`named`) the evaluation chosen in the menu, as the menus' algorithm and depth search. */
async function gradeIt(named) {
  const depth = $("explain-depth").value;
  const body = {
    game: view.board?.game && view.source === "board" ? view.board.game : "tictactoe",
    algorithm: $("explain-algorithm").value,
    depth: depth === "end" ? null : Number(depth),
    function: $("student-function").value.trim() || "e",
  };
  if (named) body.evaluation = $("explain-evaluation").value === "custom" ? $("explain-weights").value.trim() : $("explain-evaluation").value;
  else body.source = $("student-source").value;
  for (const id of ["student-grade", "student-grade-named"]) $(id).disabled = true;
  say(t("Grading: every position, searched as the menus say…"), "thinking");
  try {
    const answer = await api.grade(body);
    drawGrade(answer);
    say("");
    const list = ranked(readRanking(), rankEntry(answer, named ? "" : $("student-name").value));
    localStorage.setItem(STORAGE, JSON.stringify(list));
    drawRanking(list);
  } catch (error) {
    $("student-result").replaceChildren();
    say(error.message, "error");
  } finally {
    for (const id of ["student-grade", "student-grade-named"]) $(id).disabled = false;
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
  $("student-grade").addEventListener("click", () => gradeIt(false));
  $("student-grade-named").addEventListener("click", () => gradeIt(true));
  $("student-clear").addEventListener("click", () => {
    localStorage.removeItem(STORAGE);
    drawRanking([]);
  });
  drawRanking();
}
