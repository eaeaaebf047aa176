// A student's own search in the Explain panel's code box (student-mode "search"): minimax or α-β written
// against inarow's node (node.children(), node.evaluate()…), checked node by node in this browser — the
// lab's sandboxed Python (lab.js) runs inarow.web.browser.check, never the server — against inarow's own
// algorithm: one line a case (search-case, data-ok yes|no), the first divergence said in words with the
// classic bug it shows, and the first failing case's tree drawn on the Explain stage with the node marked
// (explain-draw.js draws the mark, search-divergence). A check that runs past its time (an endless loop) is
// stopped by lab.js and the page goes on. The code of each mode is kept apart: switching back finds it.
// Nothing runs at import: explain-student.js calls initSearch.

import { $, html } from "./explain-view.js";
import { ask, warmUp } from "./lab.js";
import { TERMS } from "./sentences.js";
import { languageTag, listWords, say, t } from "./words.js";

const SAVED = "inarow.lab.search"; // the search's code, kept in this browser
const EVALUATION = "e(P)";
const SEARCH = "search";
const kept = { [EVALUATION]: null, [SEARCH]: null };
let last = null; // the last check's answer, for the class board

/** Whether the box holds a search (not an e(P)). */
export const searching = () => $("student-mode").value === SEARCH;

function status(text, kind = "") {
  $("search-status").textContent = text;
  $("search-status").className = `student-status ${kind}`.trim();
}

/** The words of a case that failed: its divergence, and the classic bugs its trail is the trail of. */
function failureWords(divergence, algorithm, windowed) {
  const lines = [say("search_divergence", { ...divergence, algorithm, windowed })];
  const bugs = divergence.bugs ?? [];
  if (bugs.length) {
    const titles = bugs.map((name) => t(TERMS.search_bugs[name]));
    const message = bugs.length === 1 ? "the trail is the one this classic bug leaves: {bugs}" : "the trail is the one each of these classic bugs leaves: {bugs}";
    lines.push(t(message, { bugs: listWords(titles) }));
    for (const [index, name] of bugs.entries()) lines.push(`${titles[index]}: ${t(TERMS.search_bug_meanings[name])}`);
  }
  return lines;
}

function drawCases(answer, windowed) {
  const items = answer.cases.map((verdict) => {
    const item = html("li", { "data-testid": "search-case", "data-ok": verdict.ok ? "yes" : "no", "data-name": verdict.name, class: verdict.ok ? "ok" : "failed" });
    item.append(html("span", { class: "search-mark", "aria-hidden": "true" }, verdict.ok ? "✓" : "✗"), " ", html("b", {}, verdict.name), " ", html("span", { class: "search-what" }, say("search_case", verdict)));
    if (!verdict.ok) {
      const words = failureWords(verdict.divergence, answer.algorithm, windowed);
      item.append(html("p", { class: "search-why" }, words[0]));
      for (const line of words.slice(1)) item.append(html("p", { class: "search-bug" }, line));
    }
    return item;
  });
  $("search-cases").replaceChildren(...items);
}

/** Check the box's search in this browser; `show(tree, marked)` draws the first failing case's tree. */
async function checkIt(show) {
  const source = $("student-source").value;
  const name = $("student-function").value.trim() || "alphabeta";
  const algorithm = $("search-algorithm").value;
  const seed = Math.max(0, Math.round(Number($("search-seed").value)) || 0);
  localStorage.setItem(SAVED, source);
  $("search-check").disabled = true;
  $("search-submit").disabled = true;
  last = null;
  $("search-cases").replaceChildren();
  status(t("Checking {function} in this browser…", { function: name }), "thinking");
  try {
    const onProgress = (index) => status(t("Checking {function} in this browser: case {number}…", { function: name, number: index + 1 }), "thinking");
    const answer = await ask({ op: "check", args: [algorithm, seed], source, function: name }, { onProgress });
    if (answer.error) {
      status(say("search_error", answer.error), "error");
      return;
    }
    drawCases(answer, answer.windowed);
    last = answer;
    $("search-submit").disabled = false;
    const title = t(TERMS.searches[answer.algorithm] ?? answer.algorithm);
    status(
      answer.ok
        ? t("Every case exact: {function} does what inarow's {algorithm} does, node by node.", { function: name, algorithm: title })
        : t("{passed} of {total} cases exact; the first that is not is drawn above, where it parts from inarow's {algorithm}.", { passed: answer.passed, total: answer.total, algorithm: title }),
      answer.ok ? "done" : "",
    );
    const failed = answer.cases.find((verdict) => !verdict.ok);
    if (failed && answer.tree) show(answer.tree, { case: failed.name, node: failed.divergence.node, leaf: failed.divergence.leaf });
  } catch (error) {
    status(error.message, "error");
  } finally {
    $("search-check").disabled = false;
  }
}

/** Put the last check on the class board (`report(check)` posts it under the name typed); say how it went. */
async function submitIt(report) {
  if (!last) return;
  const check = { algorithm: last.algorithm, passed: last.passed, total: last.total, failed: last.cases.find((verdict) => !verdict.ok) ?? null };
  $("search-submit").disabled = true;
  try {
    const row = await report(check);
    status(t("On the class board as {name}: {passed} of {total} cases exact.", { name: row.name, passed: check.passed, total: check.total }), "done");
  } catch (error) {
    status(error.message, "error");
  } finally {
    $("search-submit").disabled = false;
  }
}

/** The starting file in the page's language, from the lab's Python (the one `inarow example alphabeta-skeleton` prints). */
async function skeletonInto() {
  try {
    $("student-source").value = await ask({ op: "skeleton", args: [languageTag()] });
    $("student-function").value = "alphabeta";
    $("search-algorithm").value = "alphabeta";
  } catch (error) {
    status(error.message, "error");
  }
}

/** Put the box in `mode`, keeping the other mode's code and function name to come back to. */
async function switchTo(mode, leavingEvaluation) {
  const other = mode === SEARCH ? EVALUATION : SEARCH;
  kept[other] = { source: $("student-source").value, function: $("student-function").value };
  $("student-box").dataset.mode = mode === SEARCH ? "search" : "e";
  $("student-title").textContent = mode === SEARCH ? t("Your search as Python") : t("Your e(P) as Python");
  if (mode === SEARCH && $("student-use").checked) {
    $("student-use").checked = false;
    leavingEvaluation();
  }
  const back = kept[mode];
  if (back) {
    $("student-source").value = back.source;
    $("student-function").value = back.function;
    return;
  }
  if (mode !== SEARCH) return;
  const saved = localStorage.getItem(SAVED);
  $("student-function").value = "alphabeta";
  if (saved) $("student-source").value = saved;
  else {
    $("student-source").value = "";
    await skeletonInto();
  }
}

/**
 * Attach the search mode's listeners; `show(tree, marked)` draws a case's tree on the Explain stage,
 * `leavingEvaluation` is told when the box's e(P) stops being used at the leaves, `report(check)` puts a
 * check on the class board.
 */
export function initSearch(show, leavingEvaluation, report) {
  $("student-mode").addEventListener("change", () => {
    warmUp().catch(() => {});
    switchTo($("student-mode").value, leavingEvaluation);
  });
  $("search-check").addEventListener("click", () => checkIt(show));
  $("search-skeleton").addEventListener("click", skeletonInto);
  $("search-submit").addEventListener("click", () => submitIt(report));
  if ($("student-mode").value === SEARCH) switchTo(SEARCH, leavingEvaluation);
}
