// The history: past games, and any game replayed move by move with the analysis and its mistakes marked.
// Nothing runs at import: main.js calls initHistory once, then showHistory each time the view opens.

import { api } from "./api.js";
import { drawBoard } from "./board.js";
import { landing, readDiagram } from "./diagram.js";
import { gameTitle, historyBadge, historyPlayers, languageTag, markOf, ngettext, reviewStatus, reviewWords, stonesOf, t } from "./words.js";

const $ = (id) => document.getElementById(id);
const review = { data: null, step: 0, resume: null };

/** Attach the replay's listeners; `resume(id)` is called to carry on an unfinished game on the Play view. */
export function initHistory(resume) {
  review.resume = resume;
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
  // A game with no move yet is only an opened page: it is kept, but not listed.
  const games = history.games.filter((game) => game.plies > 0);
  $("history-empty").hidden = games.length > 0;
  list.replaceChildren(...games.map(historyItem));
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
  item.append(button);
  return item;
}

async function open(id) {
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
  go(0);
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
  $("review-status").className = `status review-status${ply?.mistake ? " error" : ""}`;
  for (const [index, item] of [...$("review-moves").children].entries()) {
    const button = item.querySelector("button");
    if (index === review.step) button.setAttribute("aria-current", "step");
    else button.removeAttribute("aria-current");
  }
}
