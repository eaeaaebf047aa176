// The class board (/class), for the teacher: every student's latest grade (GET /api/class, polled), sortable,
// as CSV, cleared; each blunder opens as a tree in the page with that student's e(P) at the leaves; and a
// tournament between the submitted e(P)s, played in this browser (lab.js), never on the server.

import { api, speak } from "./api.js";
import { classRows, crossTable, sortRows } from "./classboard.js";
import { shareText } from "./grading.js";
import { ask } from "./lab.js";
import { searchText } from "./menus.js";
import { numberText, t, useCatalog } from "./words.js";

const $ = (id) => document.getElementById(id);
const POLL = 5000;
const LAB_CODE = "inarow.lab.code";
const state = { rows: [], sort: { key: "headline", descending: true }, code: new URLSearchParams(location.search).get("class") ?? "" };

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
      const tr = cell("tr", null, { "data-testid": "class-row", "data-name": row.name, "data-accuracy": String(row.accuracy), "data-headline": String(row.headline) });
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
      tr.append(
        cell("th", row.class_code ? `${row.name} (${row.class_code})` : row.name, { scope: "row" }),
        headlineCell(row),
        cell("td", `${shareText(row.accuracy)} (${numberText(row.kept)}/${numberText(row.positions)})`, { class: "accuracy" }),
        blunders,
        cell("td", searchText(row.algorithm, row.depth)),
        cell("td", new Date(row.submitted * 1000).toLocaleString(document.documentElement.lang)),
        source,
      );
      return tr;
    }),
  );
  if (!rows.length) say(t("No one has submitted yet: students press “Submit to the class board” in the lab (/?student=1)."));
  else if ($("class-status").classList.contains("error") === false && !state.busy) say(t("{count} students; the board follows their submissions.", { count: rows.length }));
}

async function refresh() {
  try {
    state.rows = await api.board(state.code);
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
  });
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
  await refresh();
  setInterval(refresh, POLL);
}

start();
