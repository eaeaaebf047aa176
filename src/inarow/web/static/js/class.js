// The class board (/class), for the teacher: every student's latest grade (GET /api/class, polled), sortable,
// as CSV, cleared; each blunder opens as a tree in the page with that student's e(P) at the leaves; a
// tournament between the submitted e(P)s, and the check of the grades (verify.js), both run in this
// browser's sandbox for students' code (lab.js), never on the server. Beside the
// rows: how many submissions each student made and the check of the latest (verified, flagged: the count of
// flagged rows above the table), releasing a name, a roster (who has not submitted yet), who is stuck (the
// last error of their e(P) and when), the class's link and new keys.

import { api, speak } from "./api.js";
import { classRows, crossTable, failedCaseLink, searchOf, sortRows } from "./classboard.js";
import { shareText } from "./grading.js";
import { ask, startAfresh } from "./lab.js";
import { searchText } from "./menus.js";
import { SAMPLE, checkRow } from "./verify.js";
import { numberText, t, useCatalog } from "./words.js";

const $ = (id) => document.getElementById(id);
const POLL = 5000;
const LAB_CODE = "inarow.lab.code";
const state = { rows: [], students: [], sort: { key: "headline", descending: true }, code: new URLSearchParams(location.search).get("class") ?? "" };

function cell(tag, text, attributes = {}) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  if (text !== null) element.textContent = text;
  return element;
}

function say(text, kind = "") {
  $("class-status").textContent = text;
  $("class-status").className = `student-status ${kind}`.trim();
}

/** A link that opens `blunder`'s position as a tree, with `row`'s e(P) at the leaves. */
function blunderLink(row, blunder) {
  const query = new URLSearchParams({ explain: row.algorithm, position: blunder.position, game: row.game, code: "1" });
  if (row.depth !== null) query.set("depth", String(row.depth));
  const link = cell("a", t("{position}: {move} (better {keeping})", { position: blunder.position, move: blunder.move, keeping: blunder.keeping.join(" ") }), { href: `/?${query}`, target: "_blank" });
  link.addEventListener("click", () => localStorage.setItem(LAB_CODE, JSON.stringify({ source: row.source, function: row.evaluation })));
  return link;
}

/** The headline's cell: the share kept where e(P) decides, the positions, and e ≡ 0's and a random e(P)'s shares beneath. */
function headlineCell(row) {
  const decisive = row.report?.decisive;
  if (!decisive?.positions) return cell("td", "—", { class: "accuracy", "data-testid": "class-headline" });
  const td = cell("td", null, { class: "accuracy headline", "data-testid": "class-headline" });
  td.append(
    cell("strong", `${shareText(decisive.share)} (${numberText(decisive.kept)}/${numberText(decisive.positions)})`),
    cell("small", t("e ≡ 0: {zero}, random: {random}", { zero: shareText(row.report.baselines.zero), random: shareText(row.report.baselines.random) })),
  );
  return td;
}

function draw() {
  const rows = sortRows(classRows(state.rows), state.sort);
  $("class-table").tBodies[0].replaceChildren(
    ...rows.map((row) => {
      const tr = cell("tr", null, {
        "data-testid": "class-row",
        "data-name": row.name,
        "data-accuracy": String(row.accuracy),
        "data-headline": String(row.headline),
        "data-verified": row.verified ?? "no",
        "data-submissions": String(row.submissions ?? 1),
        "data-id": String(row.id ?? ""),
      });
      const blunders = cell("td", null);
      const details = cell("details", null);
      details.append(cell("summary", numberText(row.blunders)));
      const list = cell("ol", null);
      list.append(...row.report.blunders.slice(0, 20).map((blunder) => {
        const item = cell("li", null);
        item.append(blunderLink(row, blunder));
        return item;
      }));
      details.append(list);
      blunders.append(row.blunders ? details : cell("span", "0"));
      const source = cell("td", null);
      const code = cell("details", null);
      code.append(cell("summary", row.evaluation), cell("pre", row.source));
      source.append(code);
      const who = cell("th", row.class_code ? `${row.name} (${row.class_code})` : row.name, { scope: "row" });
      if (row.number) who.prepend(cell("span", `${row.number} `, { class: "muted" }));
      who.append(releaseButton(row));
      tr.append(
        who,
        headlineCell(row),
        cell("td", `${shareText(row.accuracy)} (${numberText(row.kept)}/${numberText(row.positions)})`, { class: "accuracy" }),
        blunders,
        cell("td", searchText(row.algorithm, row.depth)),
        submittedCell(row),
        checkCell(row),
        searchCell(row),
        source,
      );
      return tr;
    }),
  );
  const flagged = rows.filter((row) => row.verified === "flagged").length;
  $("class-flagged").dataset.count = String(flagged);
  $("class-flagged").textContent = t("Flagged by the check: {count}", { count: numberText(flagged) });
  $("class-flagged").classList.toggle("error", flagged > 0);
  drawPeople();
  if (!rows.length) say(t("No one has submitted yet: students press “Submit to the class board” in the lab (/?student=1)."));
  else if ($("class-status").classList.contains("error") === false && !state.busy) say(t("{count} students; the board follows their submissions.", { count: rows.length }));
}

/** When the row was submitted, and how many submissions its student has made. */
function submittedCell(row) {
  const td = cell("td", new Date(row.submitted * 1000).toLocaleString(document.documentElement.lang));
  const count = row.submissions ?? 1;
  if (count > 1) td.append(cell("span", " · " + t("{count} submissions", { count: numberText(count) }), { class: "muted" }));
  return td;
}

/** The teacher's check of the row's latest submission: not checked, verified, or flagged with how many differ. */
function checkCell(row) {
  const words = {
    yes: () => t("verified on {checked} positions", { checked: numberText(row.checked) }),
    flagged: () => t("flagged: {differing} of {checked} positions differ", { differing: numberText(row.differing), checked: numberText(row.checked) }),
    no: () => t("not checked"),
  };
  const verdict = words[row.verified] ? row.verified : "no";
  return cell("td", words[verdict](), { class: `check check-${verdict}`, "data-testid": "class-check" });
}

/** The row's student's own search, checked in their browser: the cases exact of how many, the first failing case opening as its tree. */
function searchCell(row) {
  const search = searchOf(state.students, row);
  if (!search) return cell("td", "—", { "data-testid": "class-search-check", "data-passed": "", "data-total": "" });
  const td = cell("td", t("{passed} of {total} cases exact", { passed: numberText(search.passed), total: numberText(search.total) }), {
    "data-testid": "class-search-check",
    "data-passed": String(search.passed),
    "data-total": String(search.total),
  });
  td.append(cell("span", ` (${search.algorithm})`, { class: "muted" }));
  const link = failedCaseLink(search);
  if (link) {
    td.append(cell("br", null), cell("a", t("the first failing case, {name}, as its tree", { name: search.failed.name }), { href: link, target: "_blank", "data-testid": "class-search-case" }));
  }
  return td;
}

/** A button that releases the row's name: the next submission under it claims it (its history stays). */
function releaseButton(row) {
  const button = cell("button", t("Release the name"), { type: "button", class: "small", "data-testid": "class-release" });
  button.addEventListener("click", async () => {
    if (!confirm(t("Release {name}? The next browser to submit under the name owns it; the submissions stay.", { name: row.name }))) return;
    try {
      await api.release(row.name, row.class_code);
      say(t("{name} is released: the next submission under the name claims it.", { name: row.name }), "done");
    } catch (error) {
      say(error.message, "error");
    }
  });
  return button;
}

/** Who is stuck (the last error of their e(P), and when) and who has not submitted yet (the roster's). */
function drawPeople() {
  const when = (seconds) => new Date(seconds * 1000).toLocaleTimeString(document.documentElement.lang);
  const stuck = state.students.filter((student) => student.error);
  $("class-stuck-list").replaceChildren(
    ...stuck.map((student) => {
      const item = cell("li", null, { "data-testid": "class-stuck", "data-name": student.name });
      item.append(cell("strong", student.name), cell("span", ` · ${when(student.error_at)} · `, { class: "muted" }), cell("code", student.error));
      return item;
    }),
  );
  $("class-stuck-box").hidden = stuck.length === 0;
  const missing = state.students.filter((student) => student.submissions === 0 && student.number);
  $("class-missing-list").replaceChildren(...missing.map((student) => cell("li", `${student.number} ${student.name}`, { "data-testid": "class-missing", "data-name": student.name })));
  $("class-missing-box").hidden = missing.length === 0;
}

async function refresh() {
  try {
    [state.rows, state.students] = await Promise.all([api.board(state.code), api.students(state.code)]);
    draw();
  } catch (error) {
    say(error.message, "error");
  }
}

async function tournament() {
  const players = classRows(state.rows);
  if (players.length < 2) {
    say(t("The tournament needs two e(P)s on the board."), "error");
    return;
  }
  state.busy = true;
  $("class-tournament").disabled = true;
  startAfresh(); // nothing of earlier runs in it; the games share this one (both sides of a game must)
  const games = [];
  try {
    for (const first of players) {
      for (const second of players) {
        if (first === second) continue;
        say(t("Playing {x} (X) against {o} (O)…", { x: first.name, o: second.name }), "thinking");
        const code = (row) => ({ source: row.source, function: row.evaluation });
        try {
          const game = await ask({ op: "play", args: [first.game, first.algorithm, first.depth], ...code(first), second: code(second) }, { position: t("a game of {x} against {o}", { x: first.name, o: second.name }) });
          games.push({ x: first.name, o: second.name, winner: game.winner });
        } catch (error) {
          games.push({ x: first.name, o: second.name, winner: null, error: error.message });
        }
      }
    }
    drawCross(players.map((row) => row.name), games);
    say(t("The tournament is over: {count} games.", { count: games.length }));
  } finally {
    state.busy = false;
    $("class-tournament").disabled = false;
  }
}

/** The graded positions of `game`, asked once. */
const positionsOf = new Map();
async function positions(game) {
  if (!positionsOf.has(game)) positionsOf.set(game, (await api.labPositions(game)).positions);
  return positionsOf.get(game);
}

/**
 * The check of the grades: each row's source run again in this browser's sandbox, a new one for each (a
 * source cannot patch the search another is checked with), on a sample of the graded positions (every
 * one when asked), its moves compared with the posted ones, the verdict kept by the server. A run stopped
 * at its time limit leaves its row unchecked, and says so.
 */
async function verify() {
  const rows = classRows(state.rows);
  if (!rows.length) return;
  state.busy = true;
  $("class-verify").disabled = true;
  const count = $("class-verify-all").checked ? null : SAMPLE;
  const notes = [];
  let verified = 0;
  let flagged = 0;
  try {
    for (const [index, row] of rows.entries()) {
      say(t("Checking {name}'s grade in this browser ({done} of {total})…", { name: row.name, done: index + 1, total: rows.length }), "thinking");
      startAfresh(); // each source in a Python of its own: none can change how the next is searched
      const run = (request, options) => ask(request, { ...options, position: row.name });
      let verdict;
      try {
        verdict = await checkRow(row, { run, positions, count });
      } catch (error) {
        notes.push(t("{name}: not checked: {error}", { name: row.name, error: error.message }));
        continue;
      }
      if (verdict.error) notes.push(t("{name}: {error}", { name: row.name, error: verdict.error }));
      const { id, verified: mark, checked, differing } = verdict;
      await api.verification({ id, verified: mark, checked, differing });
      Object.assign(state.rows.find((other) => other.id === id) ?? {}, { verified: mark, checked, differing });
      if (mark === "yes") verified += 1;
      else flagged += 1;
      draw();
    }
    const summary = t("Checked {count} grades: {verified} verified, {flagged} flagged.", { count: verified + flagged, verified, flagged });
    say([summary, ...notes].join(" "), notes.length ? "error" : "done");
  } catch (error) {
    say(error.message, "error");
  } finally {
    state.busy = false;
    $("class-verify").disabled = false;
  }
}

/** The roster chosen (CSV: student number, name) onto the board of the class code shown. */
async function importRoster() {
  const file = $("class-roster-file").files[0];
  if (!file) return;
  try {
    const answer = await api.roster(await file.text(), state.code);
    say(t("The roster is in: {added} students added, {updated} already on the board.", { added: numberText(answer.added), updated: numberText(answer.updated) }), "done");
    await refresh();
  } catch (error) {
    say(error.message, "error");
  } finally {
    $("class-roster-file").value = "";
  }
}

/** The class's settings into their controls: whether its students see the ranking. */
async function readSettings() {
  try {
    $("class-ranking").checked = (await api.settings(state.code)).ranking;
  } catch (error) {
    say(error.message, "error");
  }
}

/** The class's link to give out (with this server's address), when the server has keys. */
function showLinks(keys) {
  const link = keys?.student_link;
  $("class-links").hidden = !link;
  $("class-keys").hidden = !link;
  if (!link) return;
  const url = new URL(link, location.origin);
  if (state.code) url.searchParams.set("class", state.code);
  $("class-links").replaceChildren(cell("span", t("The class's link:") + " "), cell("code", url.href, { "data-testid": "class-link" }));
}

/** New keys for the teacher and the class (a key has leaked): the old links open nothing after. */
async function newKeys() {
  if (!confirm(t("Make new keys? Every student opens the new class link again; the old links open nothing."))) return;
  try {
    showLinks(await api.turnKeys());
    say(t("New keys: give the class the new link."), "done");
  } catch (error) {
    say(error.message, "error");
  }
}

function drawCross(names, games) {
  const table = crossTable(names, games);
  const head = cell("tr", null);
  head.append(cell("th", ""), ...names.map((name) => cell("th", name, { scope: "col" })), cell("th", t("Points"), { scope: "col" }));
  $("cross-table").tHead.replaceChildren(head);
  $("cross-table").tBodies[0].replaceChildren(
    ...names.map((name, i) => {
      const tr = cell("tr", null);
      tr.append(cell("th", name, { scope: "row" }), ...table.points[i].map((points, j) => cell("td", i === j ? "—" : String(points))), cell("td", String(table.totals[i])));
      return tr;
    }),
  );
  $("class-cross").hidden = false;
}

function translate() {
  for (const element of document.querySelectorAll("[data-t]")) {
    for (const name of element.dataset.t.split(" ")) {
      if (name === "text") element.textContent = t(element.textContent.replace(/\s+/g, " ").trim());
      else if (element.hasAttribute(name)) element.setAttribute(name, t(element.getAttribute(name)));
    }
  }
}

async function start() {
  const wanted = new URLSearchParams(location.search).get("lang") ?? localStorage.getItem("inarow.language") ?? (navigator.languages ?? [navigator.language ?? "en"]).join(",");
  let answer = null;
  try {
    answer = await api.catalog(wanted);
  } catch {
    /* English */
  }
  useCatalog(answer);
  document.documentElement.lang = answer?.tag ?? "en";
  speak(answer?.tag ?? "en");
  translate();
  document.documentElement.classList.remove("translating");
  $("class-code").value = state.code;
  // The CSV in this page's language, its times in this computer's time zone (the offset from UTC now).
  const csv = () => {
    const query = new URLSearchParams({ lang: document.documentElement.lang, offset: String(-new Date().getTimezoneOffset()) });
    if (state.code) query.set("class", state.code);
    $("class-csv").href = `/api/class.csv?${query}`;
  };
  csv();
  $("class-code").addEventListener("change", () => {
    state.code = $("class-code").value.trim();
    csv();
    refresh();
    readSettings();
  });
  $("class-ranking").addEventListener("change", async () => {
    try {
      await api.changeSettings({ class: state.code, ranking: $("class-ranking").checked });
    } catch (error) {
      say(error.message, "error");
    }
    readSettings();
  });
  readSettings();
  for (const button of document.querySelectorAll("[data-sort]")) {
    button.addEventListener("click", () => {
      const key = button.dataset.sort;
      state.sort = { key, descending: state.sort.key === key ? !state.sort.descending : key !== "name" };
      draw();
    });
  }
  $("class-clear").addEventListener("click", async () => {
    if (!confirm(t("Clear the class board? Every submission shown goes."))) return;
    await api.clearBoard(state.code);
    refresh();
  });
  $("class-tournament").addEventListener("click", tournament);
  $("class-verify").addEventListener("click", verify);
  $("class-roster-file").addEventListener("change", importRoster);
  $("class-keys").addEventListener("click", newKeys);
  showLinks(await api.keys().catch(() => null));
  await refresh();
  setInterval(refresh, POLL);
}

start();
