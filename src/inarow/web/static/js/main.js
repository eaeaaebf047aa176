// The play page: a new game, moves, the computer's replies, undo, hint and analysis. The server owns the
// rules; this module keeps only what is on screen.

import { api } from "./api.js";
import { drawBoard, keypadCell, landing, readDiagram } from "./board.js";
import { explainPosition, forget, setUpExplain } from "./explain.js";
import { showHistory } from "./history.js";
import { playerTitle } from "./players.js";

const $ = (id) => document.getElementById(id);
const GAME_NAMES = { tictactoe: "Tic-tac-toe", "4x4": "4×4", "5x5": "5×5", connect4: "Connect Four", gomoku: "Gomoku" };
const STORAGE = { game: "inarow.game", choices: "inarow.choices" };

export const gameTitle = (name) => GAME_NAMES[name] ?? name.replace(":gravity", " with gravity").replace(":", ", k = ");

const state = {
  game: null, // the GameState the server sent last
  busy: false, // a request that changes the game is under way
  analysisOn: false,
  explainOn: false,
  analysis: null, // the analysis of the current position, when shown
  hint: null, // the cell of the hinted move
  intro: "", // a sentence said once at the start of a game ("Random draw: …")
  watch: null, // the timer of a computer-against-computer game
  generation: 0, // bumped at each new game, so late answers for an old game are dropped
};

const mark = (side) => (state.game ? state.game.symbols[side] : side).toUpperCase();

function setStatus(text, kind = "") {
  const status = $("status");
  status.textContent = text;
  status.className = `status ${kind}`.trim();
}

function reasonOf(error) {
  const text = error.message;
  const reason = text.slice(text.lastIndexOf(": ") + 2);
  return reason.length ? reason : text;
}

// ------------------------------------------------------------------------------------ drawing
function render() {
  const game = state.game;
  if (!game) return;
  // Hooks for tests and for styling: whether a request is under way, how many moves, whose turn.
  Object.assign(document.body.dataset, { busy: String(state.busy), ply: String(game.moves.length), waiting: game.waiting_for ?? "none" });
  const stones = readDiagram(game.diagram);
  const labels = new Map();
  const marks = new Map();
  if (state.analysisOn && state.analysis && state.analysis.position === game.position) {
    for (const move of state.analysis.moves) {
      const cell = landing(game, stones, move.move);
      if (cell) labels.set(cell, move);
      if (cell && state.analysis.best.includes(move.move)) marks.set(cell, "best");
    }
  }
  if (state.hint) marks.set(state.hint, `${marks.get(state.hint) ?? ""} hint`.trim());
  const last = game.moves.at(-1);
  drawBoard(
    $("board"),
    {
      columns: game.columns,
      rows: game.rows,
      gravity: game.gravity,
      stones,
      symbols: game.symbols,
      winning: new Set(game.winning_line),
      last: last ? last.cell : null,
      labels,
      marks,
      interactive: true,
    },
    onCell,
  );
  $("board").setAttribute("aria-label", `${gameTitle(game.game)} board, ${game.columns} by ${game.rows}`);
  renderStatus();
  renderPlayers();
  renderMoves();
  renderAnalysisPanel();
  const yourTurn = game.waiting_for === "you" || game.waiting_for === "human";
  $("undo").disabled = state.busy || game.mode === "computers" || !canUndo(game);
  $("hint").disabled = state.busy || !yourTurn;
  $("analysis").disabled = false;
  renderExplain();
}

function renderExplain() {
  const panel = $("explain-panel");
  panel.hidden = !state.explainOn;
  $("explain").setAttribute("aria-pressed", String(state.explainOn));
  // A watched game moves on by itself: its tree is searched again once it is over or paused.
  if (state.explainOn && state.game && !(state.busy && state.game.mode === "computers")) explainPosition(state.game, mark);
}

function toggleExplain() {
  state.explainOn = !state.explainOn;
  if (!state.explainOn) forget();
  render();
  if (state.explainOn) $("explain-panel").scrollIntoView({ block: "nearest", behavior: "smooth" });
}

function canUndo(game) {
  return game.mode === "computer" ? game.moves.some((m) => m.by === "human") : game.moves.length > 0;
}

function renderStatus() {
  const game = state.game;
  if (game.result) {
    const line = game.winning_line.length ? ` — ${game.k} in a row` : "";
    if (game.mode === "computer") {
      const words = { win: ["You win!", "win"], loss: [`The computer wins${line}.`, "loss"], draw: ["Draw.", "draw"] };
      const [text, kind] = words[game.outcome];
      setStatus(text === "You win!" ? `You win${line}!` : text, kind);
    } else {
      setStatus(game.result === "draw" ? "Draw." : `${mark(game.result)} wins${line}.`, game.result === "draw" ? "draw" : "win");
    }
    return;
  }
  if (state.busy && game.waiting_for === "computer") {
    setStatus(game.mode === "computers" ? `${mark(game.to_move)} (${playerTitle(game.players[game.to_move])}) is thinking…` : "The computer is thinking…", "thinking");
    return;
  }
  const intro = state.intro ? `${state.intro} ` : "";
  if (game.waiting_for === "you") setStatus(`${intro}Your move (${mark(game.to_move)}).`);
  else if (game.waiting_for === "human") setStatus(`${intro}${mark(game.to_move)} to move.`);
  else setStatus(`${intro}The computer is to move.`);
}

function renderPlayers() {
  const game = state.game;
  const level = game.level[0].toUpperCase() + game.level.slice(1);
  let text;
  if (game.mode === "computer") {
    const you = game.symbols[game.you].toUpperCase();
    const it = game.symbols[game.you === "x" ? "o" : "x"].toUpperCase();
    text = `${gameTitle(game.game)} · You: ${you}${game.you === "x" ? " (first)" : ""} · Computer: ${it}${game.you === "o" ? " (first)" : ""}, ${level.toLowerCase()}`;
  } else if (game.mode === "humans") {
    text = `${gameTitle(game.game)} · Two players: X moves first`;
  } else {
    text = `${gameTitle(game.game)} · X: ${playerTitle(game.players.x)} · O: ${playerTitle(game.players.o)}`;
  }
  $("players").textContent = text;
}

function renderMoves() {
  const list = $("move-list");
  list.replaceChildren(
    ...state.game.moves.map((move) => {
      const item = document.createElement("li");
      const side = document.createElement("span");
      side.className = `side-${state.game.symbols[move.side]}`;
      side.textContent = mark(move.side);
      item.append(`${move.ply}. `, side, ` ${move.move}`);
      item.title = move.note || (move.by === "human" ? "played by a person" : "");
      return item;
    }),
  );
  if (!state.game.moves.length) {
    const empty = document.createElement("li");
    empty.textContent = "No moves yet";
    list.append(empty);
  }
}

function renderAnalysisPanel() {
  const panel = $("analysis-panel");
  panel.hidden = !state.analysisOn;
  if (!state.analysisOn) return;
  const analysis = state.analysis;
  if (state.game.result) {
    $("analysis-summary").textContent = "The game is over.";
    $("pv").textContent = "—";
  } else if (!analysis || analysis.position !== state.game.position) {
    $("analysis-summary").textContent = "Analysing…";
    $("pv").textContent = "";
  } else {
    const side = mark(analysis.to_move);
    const summary = analysis.exact
      ? analysis.description.replace(/^([xo]) wins/, (_, s) => `${mark(s)} wins`)
      : `not solved in time: evaluation ${analysis.score > 0 ? "+" : ""}${analysis.score} at depth ${analysis.depth}`;
    $("analysis-summary").textContent = `${side} to move: ${summary}.`;
    $("pv").textContent = analysis.pv.join(" ");
  }
}

// ------------------------------------------------------------------------------------ actions
async function onCell(cell, column) {
  const game = state.game;
  if (!game) return;
  if (state.busy) {
    setStatus("Please wait: the computer is thinking…", "thinking");
    return;
  }
  if (game.result) {
    setStatus("The game is over: press “New game” to play again.", "error");
    return;
  }
  if (game.waiting_for === "computer") {
    setStatus("It is the computer's move.", "error");
    return;
  }
  const move = game.gravity ? String(column) : cell;
  if (await send(() => api.play(game.id, move, false), `Can't play ${move}`, false)) await followUp();
}

/**
 * Send a request that answers with the game, and take the answer unless a newer game has started
 * meanwhile; a failure is told in the status line. Resolves to whether the answer was taken.
 */
async function send(request, failure, showBusy) {
  const generation = state.generation;
  state.busy = true;
  if (showBusy) render();
  try {
    const next = await request();
    if (generation !== state.generation) return false;
    state.busy = false;
    accept(next);
    return true;
  } catch (error) {
    if (generation !== state.generation) return false;
    state.busy = false;
    render();
    setStatus(`${failure}: ${reasonOf(error)}.`, "error");
    return false;
  }
}

function accept(game) {
  const changed = !state.game || state.game.id !== game.id || state.game.position !== game.position;
  state.game = game;
  if (changed) {
    state.hint = null;
    state.intro = game.moves.length <= 1 ? state.intro : "";
  }
  localStorage.setItem(STORAGE.game, game.id);
  render();
  if (changed && state.analysisOn) refreshAnalysis();
  if (game.result) refreshScore();
}

/** Let the computer play when it is its turn: a reply, or the next move of a watched game. */
async function followUp() {
  const game = state.game;
  if (!game || game.waiting_for !== "computer") return;
  if (game.mode === "computers") {
    const generation = state.generation;
    clearTimeout(state.watch);
    state.watch = setTimeout(() => {
      if (generation === state.generation) computerMove().then(followUp);
    }, Number($("speed").value));
    return;
  }
  await computerMove();
}

async function computerMove() {
  const game = state.game;
  await send(() => api.play(game.id, null), "The computer could not move", true);
}

async function newGame(event) {
  event?.preventDefault();
  const choices = readChoices();
  localStorage.setItem(STORAGE.choices, JSON.stringify(choices));
  state.generation += 1;
  clearTimeout(state.watch);
  state.busy = true;
  state.analysis = null;
  state.hint = null;
  setStatus(choices.first === "computer" && choices.mode === "computer" ? "The computer is thinking…" : "Starting…", "thinking");
  try {
    const players = choices.mode === "computers" ? { x_player: choices.xPlayer, o_player: choices.oPlayer } : {};
    const game = await api.newGame({ game: choices.game, you: choices.you, first: choices.first, level: choices.level, mode: choices.mode, ...players });
    state.busy = false;
    state.intro = "";
    if (game.mode === "computer" && game.first === "random") {
      state.intro = game.first_mover === "you" ? "Random draw: you move first." : `Random draw: the computer moves first and played ${game.reply.move}.`;
    } else if (game.reply) {
      state.intro = `The computer played ${game.reply.move}.`;
    }
    state.game = null;
    accept(game);
    refreshScore();
    $("board").querySelector(".cell")?.focus({ preventScroll: true });
    await followUp();
  } catch (error) {
    state.busy = false;
    if (state.game) render();
    setStatus(`Can't start this game: ${error.message}.`, "error");
  }
}

async function undo() {
  const game = state.game;
  if (!game || state.busy) return;
  state.busy = true;
  clearTimeout(state.watch);
  try {
    state.intro = "";
    const next = await api.undo(game.id);
    state.busy = false;
    accept(next);
    await followUp();
  } catch (error) {
    state.busy = false;
    render();
    setStatus(`Nothing to undo: ${reasonOf(error)}.`, "error");
  }
}

async function hint() {
  const game = state.game;
  if (!game || state.busy || game.result) return;
  const position = game.position;
  try {
    setStatus("Looking for the best move…", "thinking");
    const analysis = await api.analyze(game.game, position);
    if (state.game.position !== position) return;
    const move = analysis.best[0];
    state.hint = landing(game, readDiagram(game.diagram), move);
    const value = analysis.moves.find((m) => m.move === move);
    render();
    const words = value.exact ? analysis.description.replace(/^([xo]) wins/, (_, s) => `${mark(s)} wins`) : "the engine's best guess";
    setStatus(`Hint: play ${move} (${words}).`);
  } catch (error) {
    render();
    setStatus(`No hint: ${reasonOf(error)}.`, "error");
  }
}

async function toggleAnalysis() {
  state.analysisOn = !state.analysisOn;
  $("analysis").setAttribute("aria-pressed", String(state.analysisOn));
  render();
  if (state.analysisOn) await refreshAnalysis();
}

async function refreshAnalysis() {
  const game = state.game;
  if (!game || game.result) return;
  const position = game.position;
  try {
    const analysis = await api.analyze(game.game, position);
    if (!state.game || state.game.position !== position || state.game.id !== game.id) return;
    state.analysis = analysis;
    render();
  } catch (error) {
    $("analysis-summary").textContent = `No analysis: ${error.message}`;
  }
}

async function refreshScore() {
  const game = state.game;
  const kind = game ? game.game : $("game").value;
  $("score-title").textContent = `Score · ${gameTitle(kind)}`;
  try {
    const scores = await api.scores();
    const score = scores.find((s) => s.game === kind) ?? { wins: 0, draws: 0, losses: 0 };
    $("wins").textContent = score.wins;
    $("draws").textContent = score.draws;
    $("losses").textContent = score.losses;
  } catch {
    /* the score is a nicety: the game goes on without it */
  }
}

// ------------------------------------------------------------------------------------ choices
function readChoices() {
  let game = $("game").value;
  if (game === "custom") {
    game = `${$("columns").value}x${$("rows").value}:${$("k").value}${$("gravity").checked ? ":gravity" : ""}`;
  }
  return {
    game,
    preset: $("game").value,
    mode: $("mode").value,
    you: $("you").value,
    first: $("first").value,
    level: $("level").value,
    speed: $("speed").value,
    xPlayer: $("x-player").value,
    oPlayer: $("o-player").value,
  };
}

function restoreChoices() {
  try {
    const saved = JSON.parse(localStorage.getItem(STORAGE.choices) ?? "{}");
    for (const id of ["mode", "you", "first", "level", "speed"]) if (saved[id]) $(id).value = saved[id];
    if (saved.xPlayer) $("x-player").value = saved.xPlayer;
    if (saved.oPlayer) $("o-player").value = saved.oPlayer;
    if (saved.preset) $("game").value = saved.preset;
    if (saved.preset === "custom") {
      const match = /^(\d+)x(\d+):(\d+)(:gravity)?$/.exec(saved.game ?? "");
      if (match) [$("columns").value, $("rows").value, $("k").value, $("gravity").checked] = [match[1], match[2], match[3], Boolean(match[4])];
    }
  } catch {
    localStorage.removeItem(STORAGE.choices);
  }
  syncForm();
}

function syncForm() {
  $("custom").hidden = $("game").value !== "custom";
  const mode = $("mode").value;
  for (const field of document.querySelectorAll("[data-for]")) field.hidden = !field.dataset.for.split(" ").includes(mode);
}

function onKey(event) {
  if (event.target.closest("input, select, textarea") || event.altKey || event.ctrlKey || event.metaKey) return;
  const game = state.game;
  if (!game || $("play-view").hidden) return;
  let cell = null;
  let column = null;
  if (game.columns === 3 && game.rows === 3 && !game.gravity) cell = keypadCell(event.key);
  else if (game.gravity && /^[1-9]$/.test(event.key) && Number(event.key) <= game.columns) {
    column = Number(event.key);
    cell = `${"abcdefghi"[column - 1]}1`;
  }
  if (!cell) return;
  event.preventDefault();
  onCell(cell, column ?? 1);
}

function showView(name) {
  for (const tab of document.querySelectorAll(".tab")) {
    if (tab.dataset.view === name) tab.setAttribute("aria-current", "page");
    else tab.removeAttribute("aria-current");
  }
  $("play-view").hidden = name !== "play";
  $("history-view").hidden = name !== "history";
  if (name === "history") showHistory(resume);
}

async function resume(id) {
  showView("play");
  await load(id);
}

async function load(id) {
  state.generation += 1;
  state.intro = "";
  state.analysis = null;
  state.game = null;
  const game = await api.game(id);
  accept(game);
  refreshScore();
  await followUp();
}

async function start() {
  restoreChoices();
  $("new-game").addEventListener("submit", newGame);
  $("game").addEventListener("change", syncForm);
  $("mode").addEventListener("change", syncForm);
  $("undo").addEventListener("click", undo);
  $("hint").addEventListener("click", hint);
  $("analysis").addEventListener("click", toggleAnalysis);
  $("explain").addEventListener("click", toggleExplain);
  setUpExplain(() => {
    forget();
    renderExplain();
  });
  document.addEventListener("keydown", onKey);
  for (const tab of document.querySelectorAll(".tab")) tab.addEventListener("click", () => showView(tab.dataset.view));
  const saved = localStorage.getItem(STORAGE.game);
  if (saved) {
    try {
      await load(saved);
      return;
    } catch {
      localStorage.removeItem(STORAGE.game);
    }
  }
  await newGame();
  refreshScore();
}

start();
