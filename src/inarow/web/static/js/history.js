// The history: past games, and any game replayed move by move with the analysis and its mistakes marked.
// Nothing runs at import: main.js calls initHistory once, then showHistory each time the view opens.

import { api } from "./api.js";
import { drawBoard } from "./board.js";
import { landing, readDiagram } from "./diagram.js";
import { gameTitle, historyBadge, historyPlayers, languageTag, listWords, markOf, ngettext, reviewStatus, reviewWords, stonesOf, t } from "./words.js";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
const review = { data: null, step: 0, resume: null, opened: null, games: [] };

/** Attach the replay's listeners; `resume(id)` is called to carry on an unfinished game on the Play view,
 * `opened(id)` when a review opens (the page's link then names it). */
export function initHistory(resume, opened = () => {}) {
  review.resume = resume;
  review.opened = opened;
  $("history-filter").addEventListener("change", listGames);
  $("review-first").addEventListener("click", () => go(0));
  $("review-prev").addEventListener("click", () => go(review.step - 1));
  $("review-next").addEventListener("click", () => go(review.step + 1));
  $("review-last").addEventListener("click", () => go(Infinity));
  $("review-slider").addEventListener("input", (event) => go(Number(event.target.value)));
  $("resume").addEventListener("click", () => review.data && review.resume(review.data.game.id));
}

/** Read the past games from the server and list them. */
export async function showHistory() {
  const list = $("games");
  list.replaceChildren();
  let history;
  try {
    history = await api.history();
  } catch (error) {
    $("history-empty").hidden = false;
    $("history-empty").textContent = t("The history cannot be read: {message}", { message: error.message });
    return;
  }
  // A game with no move yet is only an opened page: the server leaves it out, and so does the page.
  review.games = history.games.filter((game) => game.plies > 0);
  listGames();
}

/** The games kept, as the filter chooses: all, the finished or the unfinished ones. */
function listGames() {
  const filter = $("history-filter").value;
  const games = review.games.filter((game) => filter === "all" || (filter === "finished") === Boolean(game.result));
  $("history-empty").hidden = games.length > 0;
  $("games").replaceChildren(...games.map(historyItem));
}

async function forget(id) {
  try {
    await api.forget(id);
  } catch (error) {
    $("history-empty").hidden = false;
    $("history-empty").textContent = t("The game cannot be deleted: {message}", { message: error.message });
    return;
  }
  review.games = review.games.filter((game) => game.id !== id);
  if (review.data?.game.id === id) $("review").hidden = true;
  listGames();
}

function historyItem(game) {
  const item = document.createElement("li");
  const button = document.createElement("button");
  button.type = "button";
  button.dataset.game = game.id;
  const [kind, words] = historyBadge(game);
  const when = new Date(game.updated * 1000).toLocaleString(languageTag(), { dateStyle: "medium", timeStyle: "short" });
  const title = document.createElement("span");
  title.className = "title";
  title.textContent = `${gameTitle(game.game)} `;
  const badge = document.createElement("span");
  badge.className = `badge ${kind}`;
  badge.textContent = words;
  title.append(badge);
  const meta = document.createElement("span");
  meta.className = "meta";
  const moves = ngettext("{count} move", "{count} moves", game.plies, { count: game.plies });
  meta.textContent = t("{players} · {moves} · {when}", { players: historyPlayers(game), moves, when });
  button.append(title, meta);
  button.addEventListener("click", () => open(game.id));
  const remove = document.createElement("button");
  remove.type = "button";
  remove.className = "forget";
  remove.textContent = "×";
  remove.dataset.testid = "forget";
  remove.setAttribute("aria-label", t("Delete this game"));
  remove.title = t("Delete this game");
  remove.addEventListener("click", () => forget(game.id));
  item.append(button, remove);
  return item;
}

/** Open the review of the game `id` (its link: /?review=ID). */
export const openReview = (id) => open(id);

async function open(id) {
  review.opened?.(id);
  for (const button of document.querySelectorAll("#games button")) button.setAttribute("aria-current", String(button.dataset.game === id));
  $("review").hidden = false;
  $("review-status").textContent = t("Analysing every move…");
  $("review-title").textContent = t("Review");
  try {
    review.data = await api.review(id);
  } catch (error) {
    review.data = null;
    $("review-status").textContent = t("This game cannot be reviewed: {message}", { message: error.message });
    return;
  }
  const game = review.data.game;
  const mistakes = review.data.mistakes;
  const counted = ngettext("{count} mistake", "{count} mistakes", mistakes, { count: mistakes });
  $("review-title").textContent = t("Review · {game} · {mistakes}", { game: gameTitle(game.game), mistakes: counted });
  $("review-slider").max = String(review.data.plies.length);
  $("resume").hidden = Boolean(game.result) || game.mode === "computers";
  $("review-moves").replaceChildren(
    ...review.data.plies.map((ply, index) => {
      const item = document.createElement("li");
      if (ply.mistake) item.className = "mistake";
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = `${ply.ply}. ${markOf(game, ply.side)} ${ply.move}${ply.mistake ? " ✗" : ""}`;
      const words = reviewWords(ply);
      button.title = ply.mistake ? t("mistake: {verdict}", { verdict: words.verdict }) : words.played;
      button.addEventListener("click", () => go(index));
      item.append(button);
      return item;
    }),
  );
  drawGraph(review.data.plies);
  go(0);
}

/**
 * The evaluation graph: a point per move, its value for the side that played it (+1 a win, 0 a draw, −1 a
 * loss when exact; else the engine's score squashed into that range), above the middle line good for the
 * mover. A point is a button to that move.
 */
function drawGraph(plies) {
  const graph = $("review-graph");
  const width = Math.max(plies.length * 24, 240);
  const height = 80;
  graph.setAttribute("viewBox", `0 0 ${width} ${height}`);
  const x = (index) => (plies.length === 1 ? width / 2 : 12 + (index * (width - 24)) / (plies.length - 1));
  const y = (value) => height / 2 - value * (height / 2 - 8);
  const shape = (name, attributes) => {
    const element = document.createElementNS(SVG, name);
    for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, value);
    return element;
  };
  const values = plies.map(moverValue);
  const points = values.map((value, index) => (value === null ? null : `${x(index)},${y(value)}`)).filter(Boolean);
  const parts = [shape("line", { x1: 0, y1: height / 2, x2: width, y2: height / 2, class: "axis" })];
  if (points.length > 1) parts.push(shape("polyline", { points: points.join(" "), class: "trace" }));
  plies.forEach((ply, index) => {
    const value = values[index];
    const point = shape("circle", { cx: x(index), cy: y(value ?? 0), r: 5, tabindex: "0", role: "button", "data-ply": ply.ply, class: `point${ply.mistake ? " mistake" : ""}${value === null ? " unknown" : ""}` });
    const words = reviewWords(ply);
    point.append(Object.assign(document.createElementNS(SVG, "title"), { textContent: `${ply.ply}. ${markOf(review.data.game, ply.side)} ${ply.move}: ${words.played}` }));
    point.addEventListener("click", () => go(index));
    point.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") go(index);
    });
    parts.push(point);
  });
  graph.replaceChildren(...parts);
}

/** A move's value for the side that played it, from −1 to +1, or null when it was not reviewed. */
function moverValue(ply) {
  if (ply.reviewed === false) return null;
  const played = ply.moves.find((move) => move.move === ply.move);
  if (!played) return null;
  if (played.exact) return Math.sign(played.value ?? 0);
  return Math.tanh((played.score ?? 0) / 400);
}

/** The best line from the position before `ply` and, where several moves are equally good, the line
 * after each of them (the review's `lines`), then the other equal moves without a line of their own. */
function bestLines(ply) {
  const lines = ply.lines?.length ? ply.lines : [ply.pv];
  const said = lines.length > 1 ? t("Best lines: {lines}", { lines: lines.map((line) => line.join(" ")).join(t("; ")) }) : t("Best line: {moves}", { moves: lines[0].join(" ") });
  const others = ply.best.filter((move) => !lines.some((line) => line[0] === move));
  return others.length ? t("{line}. Equally good: {moves}.", { line: said, moves: listWords(others) }) : `${said}.`;
}

/** Show the position before move `step` (the final position past the last move). Draws only. */
function go(step) {
  const data = review.data;
  if (!data) return;
  review.step = Math.max(0, Math.min(step, data.plies.length));
  $("review-slider").value = String(review.step);
  const game = data.game;
  const ply = data.plies[review.step];
  const stones = readDiagram(ply ? ply.before : game.diagram);
  const labels = new Map();
  const marks = new Map();
  if (ply) {
    for (const move of ply.moves) {
      const cell = landing(game, stones, move.move);
      if (cell) labels.set(cell, move);
    }
    marks.set(ply.cell, "played");
  }
  drawBoard(
    $("review-board"),
    {
      columns: game.columns,
      rows: game.rows,
      gravity: game.gravity,
      stones,
      symbols: stonesOf(game),
      winning: new Set(ply ? [] : game.winning_line),
      last: null,
      labels,
      marks,
      interactive: false,
    },
    null,
  );
  $("review-status").textContent = reviewStatus(game, data.plies, review.step);
  $("review-lines").textContent = ply?.pv?.length ? bestLines(ply) : "";
  for (const point of $("review-graph").querySelectorAll(".point")) point.classList.toggle("current", Number(point.dataset.ply) === review.step + 1);
  $("review-status").className = `status review-status${ply?.mistake ? " error" : ""}`;
  for (const [index, item] of [...$("review-moves").children].entries()) {
    const button = item.querySelector("button");
    if (index === review.step) button.setAttribute("aria-current", "step");
    else button.removeAttribute("aria-current");
  }
}
