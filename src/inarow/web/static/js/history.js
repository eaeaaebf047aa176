// The history: past games, and any game replayed move by move with the analysis and its mistakes marked.

import { api } from "./api.js";
import { drawBoard, landing, readDiagram, valueWords } from "./board.js";
import { playerTitle } from "./players.js";

const $ = (id) => document.getElementById(id);
const NAMES = { tictactoe: "Tic-tac-toe", "4x4": "4×4", "5x5": "5×5", connect4: "Connect Four", gomoku: "Gomoku" };
const title = (name) => NAMES[name] ?? name;
const review = { data: null, step: 0, resume: null };

export async function showHistory(resume) {
  review.resume = resume;
  const list = $("games");
  list.replaceChildren();
  let history;
  try {
    history = await api.history();
  } catch (error) {
    $("history-empty").hidden = false;
    $("history-empty").textContent = `The history cannot be read: ${error.message}`;
    return;
  }
  // A game with no move yet is only an opened page: it is kept, but not listed.
  const games = history.games.filter((game) => game.plies > 0);
  $("history-empty").hidden = games.length > 0;
  for (const game of games) {
    const item = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.game = game.id;
    const who = game.mode === "computer" ? `vs computer (${game.level})` : game.mode === "humans" ? "two players" : `${playerTitle(game.players.x)} vs ${playerTitle(game.players.o)}`;
    const outcome = game.result === null ? ["open", "unfinished"] : game.outcome ? [game.outcome, { win: "won", draw: "draw", loss: "lost" }[game.outcome]] : ["draw", game.result === "draw" ? "draw" : `${game.symbols[game.result].toUpperCase()} won`];
    const when = new Date(game.updated * 1000).toLocaleString([], { dateStyle: "medium", timeStyle: "short" });
    button.innerHTML = `<span class="title"></span><span class="meta"></span>`;
    button.querySelector(".title").textContent = `${title(game.game)} `;
    const badge = document.createElement("span");
    badge.className = `badge ${outcome[0]}`;
    badge.textContent = outcome[1];
    button.querySelector(".title").append(badge);
    button.querySelector(".meta").textContent = `${who} · ${game.plies} moves · ${when}`;
    button.addEventListener("click", () => open(game.id));
    item.append(button);
    list.append(item);
  }
}

async function open(id) {
  for (const button of document.querySelectorAll("#games button")) button.setAttribute("aria-current", String(button.dataset.game === id));
  $("review").hidden = false;
  $("review-status").textContent = "Analysing every move…";
  $("review-title").textContent = "Review";
  try {
    review.data = await api.review(id);
  } catch (error) {
    $("review-status").textContent = `This game cannot be reviewed: ${error.message}`;
    return;
  }
  const game = review.data.game;
  const mistakes = review.data.mistakes;
  $("review-title").textContent = `Review · ${title(game.game)} · ${mistakes} ${mistakes === 1 ? "mistake" : "mistakes"}`;
  $("review-slider").max = String(review.data.plies.length);
  $("resume").hidden = Boolean(game.result) || game.mode === "computers";
  $("resume").onclick = () => review.resume(game.id);
  const moves = $("review-moves");
  moves.replaceChildren(
    ...review.data.plies.map((ply, index) => {
      const item = document.createElement("li");
      if (ply.mistake) item.className = "mistake";
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = `${ply.ply}. ${game.symbols[ply.side].toUpperCase()} ${ply.move}${ply.mistake ? " ✗" : ""}`;
      button.title = ply.mistake ? `mistake: ${ply.verdict}` : ply.description;
      button.addEventListener("click", () => go(index));
      item.append(button);
      return item;
    }),
  );
  go(0);
}

function go(step) {
  const data = review.data;
  if (!data) return;
  review.step = Math.max(0, Math.min(step, data.plies.length));
  $("review-slider").value = String(review.step);
  const game = data.game;
  const symbol = (side) => game.symbols[side].toUpperCase();
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
      symbols: game.symbols,
      winning: new Set(ply ? [] : game.winning_line),
      last: null,
      labels,
      marks,
      interactive: false,
    },
    null,
  );
  let text;
  if (ply) {
    const value = valueWords({ exact: ply.exact && ply.value !== null, value: ply.value, plies: ply.moves.find((m) => m.move === ply.move)?.plies, score: 0 }).long;
    text = `Move ${ply.ply} of ${data.plies.length}: ${symbol(ply.side)} played ${ply.move} (${ply.exact ? value : ply.description}); best was ${ply.best.slice(0, 3).join(", ")} (${ply.best_description}).`;
    if (ply.mistake) text += ` Mistake: it ${ply.verdict}.`;
  } else {
    text = game.result ? `Final position: ${game.result === "draw" ? "draw" : `${symbol(game.result)} won`}.` : "Final position: the game is unfinished.";
  }
  $("review-status").textContent = text;
  $("review-status").className = `status review-status${ply?.mistake ? " error" : ""}`;
  for (const [index, item] of [...$("review-moves").children].entries()) {
    const button = item.querySelector("button");
    if (index === review.step) button.setAttribute("aria-current", "step");
    else button.removeAttribute("aria-current");
  }
}

$("review-first").addEventListener("click", () => go(0));
$("review-prev").addEventListener("click", () => go(review.step - 1));
$("review-next").addEventListener("click", () => go(review.step + 1));
$("review-last").addEventListener("click", () => go(Infinity));
$("review-slider").addEventListener("input", (event) => go(Number(event.target.value)));
