// The play page: a new game, moves, the computer's replies, undo, hint and analysis. The server owns the
// rules; this module keeps only what is on screen.
//
// Data flows one way: an event handler (a click, a key, a timer) asks the server, takes the answer into
// `state`, and calls render(), which draws from `state` and never asks the server anything. Requests that
// change the game all go through change(). This is the page's entry module: importing it starts the page.

import { api, speak } from "./api.js";
import { drawBoard, heatLevels } from "./board.js";
import { keyMove, landing, readDiagram } from "./diagram.js";
import { explainPosition, forget, initExplain, openLinked } from "./explain.js";
import { initHistory, openReview, showHistory } from "./history.js";
import { boardShape, formChoices, linkSearch, linkTarget, moveList, readSgf, sgf } from "./links.js";
import { menuOptions } from "./menus.js";
import { analysisSummary, candidates, candidateWords, sourceWords, gameTitle, hintWords, introWords, keysWords, markOf, noteWords, playersWords, statusWords, stoneGame, stonesOf, t, useCatalog, warmingUp } from "./words.js";

const $ = (id) => document.getElementById(id);
const STORAGE = { game: "inarow.game", choices: "inarow.choices", language: "inarow.language", numbers: "inarow.numbers" };

const state = {
  game: null, // the GameState the server sent last
  busy: false, // a request that changes the game is under way
  analysisOn: false,
  explainOn: false,
  analysis: null, // the analysis of the current position, when shown
  analysisError: null, // {position, message} when the analysis of that position failed
  hint: null, // the cell of the hinted move
  intro: "", // a sentence said once at the start of a game ("Random draw: …")
  watch: null, // the timer of a computer-against-computer game
  generation: 0, // bumped at each new game, so late answers for an old game are dropped
  numbers: localStorage.getItem(STORAGE.numbers) === "on", // move numbers on the stones (Gomoku family)
};

const mark = (side) => markOf(state.game, side);

/** Whether the page is used by touch (a phone, a tablet): no keyboard hints, no focus ring on a cell. */
const touch = () => window.matchMedia("(hover: none), (pointer: coarse)").matches;

/** Bring the status line and the board under it into view (a phone shows the form below the board). */
const bringIntoView = () => $("status").scrollIntoView({ block: "start" });

function setStatus(text, kind = "") {
  const status = $("status");
  status.textContent = text;
  status.className = `status ${kind}`.trim();
}

// ------------------------------------------------------------------------------------ drawing
/** Draw the play view from `state`. Never sends a request. */
function render() {
  const game = state.game;
  if (!game) return;
  // Hooks for tests and for styling: whether a request is under way, how many moves, whose turn.
  Object.assign(document.body.dataset, { busy: String(state.busy), ply: String(game.moves.length), waiting: game.waiting_for ?? "none" });
  const stones = readDiagram(game.diagram);
  const labels = new Map();
  const marks = new Map();
  const ranks = new Map();
  const heat = new Map();
  if (state.analysisOn && state.analysis && state.analysis.position === game.position && stoneGame(game)) {
    // A Gomoku board is too big for a value on every point: the best few candidates, numbered, and a
    // quiet heat map of the others.
    const shown = candidates(state.analysis);
    shown.forEach((move, index) => {
      const cell = landing(game, stones, move.move);
      if (cell) ranks.set(cell, { rank: index + 1, move });
    });
    for (const [move, level] of heatLevels(state.analysis.moves, new Set(shown.map((candidate) => candidate.move)))) {
      const cell = landing(game, stones, move);
      if (cell) heat.set(cell, level);
    }
  } else if (state.analysisOn && state.analysis && state.analysis.position === game.position) {
    for (const move of state.analysis.moves) {
      const cell = landing(game, stones, move.move);
      if (cell) labels.set(cell, move);
      if (cell && state.analysis.best.includes(move.move)) marks.set(cell, "best");
    }
  }
  if (state.hint) marks.set(state.hint, `${marks.get(state.hint) ?? ""} hint`.trim());
  const last = game.moves.at(-1);
  const stoneView = stoneGame(game)
    ? {
        names: mark,
        ranks,
        heat,
        forbidden: new Map(Object.entries(game.forbidden ?? {})),
        numbers: state.numbers ? new Map(game.moves.map((move) => [move.cell, move.ply])) : undefined,
      }
    : {};
  drawBoard(
    $("board"),
    {
      columns: game.columns,
      rows: game.rows,
      gravity: game.gravity,
      stones,
      symbols: stonesOf(game),
      winning: new Set(game.winning_line),
      last: last ? last.cell : null,
      labels,
      marks,
      interactive: true,
      ...stoneView,
    },
    onCell,
  );
  $("board").setAttribute("aria-label", t("{game} board, {columns} by {rows}", { game: gameTitle(game.game), columns: game.columns, rows: game.rows }));
  setStatus(...statusWords(game, { busy: state.busy, intro: state.intro }));
  $("players").textContent = playersWords(game);
  $("keys-help").textContent = touch() ? "" : keysWords(game);
  renderMoves();
  renderAnalysisPanel();
  const yourTurn = game.waiting_for === "you" || game.waiting_for === "human";
  $("undo").disabled = state.busy || game.mode === "computers" || !canUndo(game);
  $("hint").disabled = state.busy || !yourTurn;
  $("analysis").disabled = false;
  $("numbers").hidden = !stoneGame(game);
  $("numbers").setAttribute("aria-pressed", String(state.numbers));
  $("explain-panel").hidden = !state.explainOn;
  $("explain").setAttribute("aria-pressed", String(state.explainOn));
}

function canUndo(game) {
  return game.mode === "computer" ? game.moves.some((m) => m.by === "human") : game.moves.length > 0;
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
      item.title = noteWords(move, mark);
      return item;
    }),
  );
  if (!state.game.moves.length) {
    const empty = document.createElement("li");
    empty.textContent = t("No moves yet");
    list.append(empty);
  }
}

function renderAnalysisPanel() {
  $("analysis-panel").hidden = !state.analysisOn;
  $("analysis").setAttribute("aria-pressed", String(state.analysisOn));
  if (!state.analysisOn) return;
  const { analysis, analysisError, game } = state;
  $("analysis-source").hidden = true; // shown below, for an analysis of this position
  if (game.result) {
    $("analysis-summary").textContent = t("The game is over.");
    $("pv").textContent = "—";
  } else if (analysisError && analysisError.position === game.position) {
    $("analysis-summary").textContent = t("No analysis: {message}", { message: analysisError.message });
    $("pv").textContent = "";
  } else if (!analysis || analysis.position !== game.position) {
    $("analysis-summary").textContent = t("Analysing…");
    $("pv").textContent = "";
  } else {
    $("analysis-summary").textContent = analysisSummary(analysis, mark);
    $("pv").textContent = analysis.pv.join(" ");
    const source = sourceWords(analysis);
    $("analysis-source").textContent = source ?? "";
    $("analysis-source").hidden = !source;
    if (stoneGame(game)) {
      $("candidates").replaceChildren(
        ...candidates(analysis).map((move, index) => {
          const item = document.createElement("li");
          item.textContent = candidateWords(move, index + 1);
          return item;
        }),
      );
    }
  }
  $("candidates").hidden = !stoneGame(game) || !analysis || analysis.position !== game.position || Boolean(game.result);
}

// ------------------------------------------------------------------------------------ requests
/**
 * The one way to change the game: send `request` (a function that asks the server and resolves to the
 * game's new state), mark the page busy meanwhile (drawn at once with `showBusy`), and take the answer
 * unless a newer game has started since; a failure is told in the status line in the words of
 * `failure(error)`. With `fresh` the answer is a new game. Resolves to whether the answer was taken.
 */
async function change(request, failure, { showBusy = false, fresh = false } = {}) {
  const generation = state.generation;
  state.busy = true;
  if (showBusy) render();
  // A slow answer may be the engine still loading on the server: say so rather than "thinking".
  const slow = setTimeout(async () => {
    const health = await api.health().catch(() => null);
    if (health?.status === "warming" && state.busy && generation === state.generation) setStatus(warmingUp(), "thinking");
  }, 800);
  try {
    const next = await request();
    if (generation !== state.generation) return false;
    state.busy = false;
    if (fresh) {
      state.intro = introWords(next);
      state.game = null;
    }
    accept(next);
    return true;
  } catch (error) {
    if (generation !== state.generation) return false;
    state.busy = false;
    // The game moved on (a second click, another tab): show it as it stands.
    const current = error.status === 409 && state.game ? await api.game(state.game.id).catch(() => null) : null;
    if (current) {
      accept(current);
      return false;
    }
    render();
    setStatus(failure(error), "error");
    $("status").scrollIntoView({ block: "nearest" });
    return false;
  } finally {
    clearTimeout(slow);
  }
}

/** Take the game's new state, draw it, and ask for what follows from it (analysis, tree, score). */
function accept(game) {
  const changed = !state.game || state.game.id !== game.id || state.game.position !== game.position;
  state.game = game;
  if (changed) {
    state.hint = null;
    state.intro = game.moves.length <= 1 ? state.intro : "";
  }
  localStorage.setItem(STORAGE.game, game.id);
  showLinks(game);
  render();
  if (changed && state.analysisOn) refreshAnalysis();
  refreshExplain();
  if (game.result) refreshScore();
}

async function refreshAnalysis() {
  const game = state.game;
  if (!game || game.result) return;
  const position = game.position;
  const current = () => state.game && state.game.position === position && state.game.id === game.id;
  try {
    const analysis = await api.analyze(game.game, position);
    if (!current()) return;
    state.analysis = analysis;
    state.analysisError = null;
  } catch (error) {
    if (!current()) return;
    state.analysisError = { position, message: error.message };
  }
  render();
}

/** Search the tree of the position on the board, when the panel is open and the board is still. */
function refreshExplain() {
  // A watched game moves on by itself: its tree is searched again once it is over or paused.
  if (state.explainOn && state.game && !(state.busy && state.game.mode === "computers")) explainPosition(state.game, mark);
}

async function refreshScore() {
  const game = state.game;
  const kind = game ? game.game : $("game").value;
  $("score-title").textContent = t("Score · {game}", { game: gameTitle(kind) });
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

// ------------------------------------------------------------------------------------ actions
async function onCell(cell, column) {
  const game = state.game;
  if (!game) return;
  if (state.busy) {
    setStatus(t("Please wait: the computer is thinking…"), "thinking");
    return;
  }
  if (game.result) {
    setStatus(t("The game is over: press “New game” to play again."), "error");
    return;
  }
  if (game.waiting_for === "computer") {
    setStatus(t("It is the computer's move."), "error");
    return;
  }
  const move = game.gravity ? String(column) : cell;
  if (await change(() => api.play(game.id, move, false, game.moves.length + 1), (error) => t("Can't play {move}: {reason}.", { move, reason: error.reason }))) await followUp();
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
  await change(() => api.play(game.id, null, true, game.moves.length + 1), (error) => t("The computer could not move: {reason}.", { reason: error.reason }), { showBusy: true });
}

async function newGame(event) {
  event?.preventDefault();
  const choices = readChoices();
  localStorage.setItem(STORAGE.choices, JSON.stringify(choices));
  state.generation += 1;
  clearTimeout(state.watch);
  state.analysis = null;
  state.hint = null;
  const { game, first, you = choices.you } = opening(choices);
  // The new board at once, empty, with the status over it: the computer's first move lands on it.
  state.game = null;
  drawEmpty(game);
  setStatus(first === "computer" && choices.mode === "computer" ? t("The computer is thinking…") : t("Starting…"), "thinking");
  bringIntoView();
  const players = choices.mode === "computers" ? { x_player: choices.xPlayer, o_player: choices.oPlayer } : {};
  const body = { game, you, first, level: choices.level, mode: choices.mode, ...players };
  // The whole message: the board on screen is not the game that could not start.
  const started = await change(() => api.newGame(body), (error) => t("Can't start this game: {message}.", { message: error.message }), { fresh: true });
  if (!started) return;
  refreshScore();
  if (!touch()) $("board").querySelector(".cell")?.focus({ preventScroll: true });
  bringIntoView();
  await followUp();
}

/** The empty board of the game named `name` while the server starts it; not playable. */
function drawEmpty(name) {
  const shape = boardShape(name);
  document.body.dataset.busy = "true";
  if (!shape) return;
  const none = new Map();
  drawBoard($("board"), { ...shape, stones: none, symbols: { x: "x", o: "o" }, winning: new Set(), last: null, labels: none, marks: none, interactive: false }, null);
}

// ------------------------------------------------------------------------------------ positions and links
/** Put the game's link in the address bar and its moves in the export box. */
function showLinks(game) {
  const search = linkSearch({ kind: "game", id: game.id, game: game.game, position: moveList(game) }, location.search);
  history.replaceState(null, "", `${location.pathname}${search}${location.hash}`);
  $("share-link").href = `${location.pathname}${linkSearch({ kind: "position", game: game.game, position: moveList(game) })}`;
  $("export-moves").value = moveList(game);
  $("export-sgf").value = sgf(game) ?? "";
  $("export-sgf-field").hidden = !sgf(game);
}

/**
 * Open a position to play on: `text` a move list, a diagram or SGF-like text of the game `name`. The
 * server reads it and answers moves that reach it; they are replayed into a new game between two people
 * on this device, who play on from there.
 */
async function openPosition(name, text) {
  state.generation += 1;
  clearTimeout(state.watch);
  state.analysis = null;
  state.hint = null;
  state.game = null;
  drawEmpty(name);
  setStatus(t("Setting up the position…"), "thinking");
  bringIntoView();
  const shape = boardShape(name);
  const fromSgf = shape ? readSgf(text, shape.columns) : null;
  const typed = fromSgf ? fromSgf.join(" ") : text;
  const failure = (error) => t("Can't set up this position: {message}.", { message: error.message });
  const opened = await change(
    async () => {
      const read = await api.position(name, typed);
      let game = await api.newGame({ game: read.game, mode: "humans", first: "you" });
      for (const move of read.moves) game = await api.play(game.id, move, false, game.moves.length + 1);
      return game;
    },
    failure,
    { fresh: true },
  );
  if (opened) state.intro = t("A position set up: two people play on from here.");
  render();
}

function onSetup(event) {
  event.preventDefault();
  openPosition(state.game?.game ?? readChoices().game, $("setup-text").value);
}

function toggleNumbers() {
  state.numbers = !state.numbers;
  localStorage.setItem(STORAGE.numbers, state.numbers ? "on" : "off");
  render();
}

async function undo() {
  const game = state.game;
  if (!game || state.busy) return;
  clearTimeout(state.watch);
  state.intro = "";
  if (await change(() => api.undo(game.id, game.moves.length + 1), (error) => t("Nothing to undo: {reason}.", { reason: error.reason }))) await followUp();
}

async function hint() {
  const game = state.game;
  if (!game || state.busy || game.result) return;
  const position = game.position;
  setStatus(t("Looking for the best move…"), "thinking");
  try {
    const analysis = await api.analyze(game.game, position);
    if (state.game.position !== position) return;
    state.hint = landing(game, readDiagram(game.diagram), analysis.best[0]);
    render();
    setStatus(hintWords(analysis, mark));
  } catch (error) {
    render();
    setStatus(t("No hint: {reason}.", { reason: error.reason }), "error");
  }
}

function toggleAnalysis() {
  state.analysisOn = !state.analysisOn;
  render();
  if (state.analysisOn) refreshAnalysis();
}

function toggleExplain() {
  state.explainOn = !state.explainOn;
  if (!state.explainOn) forget();
  render();
  refreshExplain(); // once its tree is drawn, the panel brings its stage into sight (explain-draw.js: stageInSight)
}

// ------------------------------------------------------------------------------------ choices
/** Put the server's choices into the menus (GET /api/menus; see menus.js). */
function fillMenus(menus) {
  for (const [id, options] of Object.entries(menuOptions(menus))) {
    $(id).replaceChildren(...options.map((o) => new Option(o.label, o.value, o.selected, o.selected)));
  }
}

/** Choose `value` in the menu `id` when it offers it (a saved choice may no longer be on offer). */
function choose(id, value) {
  if (value && [...$(id).options].some((option) => option.value === value)) $(id).value = value;
}

function readChoices() {
  let game = $("game").value;
  if (game === "custom") {
    game = `${$("columns").value}x${$("rows").value}:${$("k").value}${$("gravity").checked ? ":gravity" : ""}`;
  }
  return {
    game,
    preset: $("game").value,
    opener: $("opener").value,
    mode: $("mode").value,
    you: $("you").value,
    first: $("first").value,
    level: $("level").value,
    speed: $("speed").value,
    xPlayer: playerChosen("x-player"),
    oPlayer: playerChosen("o-player"),
  };
}

/**
 * The game and who starts, as the new-game request names them. Against the computer the form asks only
 * which side you play and who moves first (a random first mover is drawn here): when the one who opens
 * plays O, the game is the O-first one (":o-first"). Between people or computers "Who opens" says it.
 */
function opening(choices) {
  if (stoneGame({ game: choices.game })) {
    // In the Gomoku family black (x) always moves first: who moves first is who plays black.
    const first = choices.first === "random" ? (Math.random() < 0.5 ? "you" : "computer") : choices.first;
    return { game: choices.game, first, you: first === "you" ? "x" : "o" };
  }
  if (choices.mode !== "computer") return { game: choices.opener === "o" ? `${choices.game}:o-first` : choices.game, first: choices.first };
  const first = choices.first === "random" ? (Math.random() < 0.5 ? "you" : "computer") : choices.first;
  const opener = first === "you" ? choices.you : choices.you === "x" ? "o" : "x";
  return { game: opener === "o" ? `${choices.game}:o-first` : choices.game, first };
}

/** The player a menu names, or with "Your own…" the name typed, such as minimax:2:weights:1,1,1,inf. */
const playerChosen = (id) => ($(id).value === "own" ? $("own-player").value.trim() : $(id).value);

function restoreChoices() {
  try {
    const saved = JSON.parse(localStorage.getItem(STORAGE.choices) ?? "{}");
    for (const id of ["mode", "opener", "you", "first", "level", "speed"]) choose(id, saved[id]);
    choose("x-player", saved.xPlayer);
    choose("o-player", saved.oPlayer);
    choose("game", saved.preset);
    if (saved.preset === "custom") {
      const match = /^(\d+)x(\d+):(\d+)(:gravity)?(:o-first)?$/.exec(saved.game ?? "");
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
  // The Gomoku family has no X and O to choose: black moves first, and "First move" says who plays it.
  const stones = stoneGame({ game: readChoices().game });
  if (stones) for (const id of ["you", "opener"]) $(id).closest(".field").hidden = true;
  $("black-first").hidden = !stones || mode !== "computer";
  if (![$("x-player").value, $("o-player").value].includes("own")) $("own-player-field").hidden = true;
}

function onKey(event) {
  if (event.target.closest("input, select, textarea") || event.altKey || event.ctrlKey || event.metaKey) return;
  const game = state.game;
  if (!game || $("play-view").hidden) return;
  const move = keyMove(game, event.key);
  if (!move) return;
  event.preventDefault();
  onCell(move.cell, move.column);
}

function showView(name) {
  for (const tab of document.querySelectorAll(".tab[data-view]")) {
    if (tab.dataset.view === name) tab.setAttribute("aria-current", "page");
    else tab.removeAttribute("aria-current");
  }
  $("play-view").hidden = name !== "play";
  $("history-view").hidden = name !== "history";
  if (name === "history") showHistory();
}

async function resume(id) {
  showView("play");
  await load(id);
}

async function load(id) {
  state.generation += 1;
  clearTimeout(state.watch);
  state.intro = "";
  state.analysis = null;
  state.game = null;
  const game = await api.game(id);
  accept(game);
  refreshScore();
  await followUp();
}

// ------------------------------------------------------------------------------------ language
/**
 * Speak the reader's language: the one chosen with the switch (kept in localStorage), else the browser's
 * (navigator.languages). The server negotiates it against its catalogs; the page then says it in
 * <html lang>, in every request's Accept-Language and in every word, and offers the others.
 */
async function speakTheReadersLanguage() {
  const chosen = new URLSearchParams(location.search).get("lang") ?? localStorage.getItem(STORAGE.language);
  const wanted = chosen ?? (navigator.languages?.length ? navigator.languages : [navigator.language ?? "en"]).join(",");
  let answer = null;
  try {
    answer = await api.catalog(wanted);
  } catch {
    /* no catalog: the page stays in English */
  }
  useCatalog(answer);
  const tag = answer?.tag ?? "en";
  document.documentElement.lang = tag;
  $("glossary-link").href = `/glossary?lang=${encodeURIComponent(tag)}`;
  $("help-link").href = tag.startsWith("zh") ? "/help/zh/index.html" : "/help/index.html";
  speak(tag);
  translatePage();
  document.documentElement.classList.remove("translating");
  const languages = answer?.languages ?? [];
  $("languages").replaceChildren(
    ...languages.map((language) => {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "language";
      button.lang = language.tag;
      button.textContent = language.name;
      button.setAttribute("aria-pressed", String(language.tag === tag));
      button.addEventListener("click", () => {
        if (language.tag === tag) return;
        localStorage.setItem(STORAGE.language, language.tag);
        location.reload();
      });
      return button;
    }),
  );
}

/** Put the words written in index.html into the reader's language: each element marked data-t="text"
 * (its text) or data-t="aria-label title …" (those attributes); the English there is the message. */
function translatePage() {
  for (const element of document.querySelectorAll("[data-t]")) {
    for (const name of element.dataset.t.split(" ")) {
      if (name === "text") element.textContent = t(element.textContent.replace(/\s+/g, " ").trim());
      else if (element.hasAttribute(name)) element.setAttribute(name, t(element.getAttribute(name)));
    }
  }
}

/** Open what the page's URL names (see links.js); whether there was something to open. */
async function openLink(target) {
  if (!target) return false;
  if (target.kind === "review") {
    showView("history");
    await openReview(target.id);
    return true;
  }
  if (target.kind === "game") {
    try {
      await load(target.id);
      followForm(state.game?.game);
      return true;
    } catch {
      if (!target.game) return false;
    }
  }
  if (target.game) {
    await openPosition(target.game, target.position);
    followForm(target.game);
    return true;
  }
  return false;
}

/** Set the New game form to the game a link opened, so that "New game" starts another of it. */
function followForm(name) {
  const chosen = name ? formChoices(name) : null;
  if (!chosen) return;
  choose("game", chosen.preset);
  if (chosen.preset === "custom") [$("columns").value, $("rows").value, $("k").value, $("gravity").checked] = [chosen.columns, chosen.rows, chosen.k, chosen.gravity];
  syncForm();
}

async function start() {
  await speakTheReadersLanguage();
  $("new-game").addEventListener("submit", newGame);
  $("game").addEventListener("change", syncForm);
  $("mode").addEventListener("change", syncForm);
  $("opener").addEventListener("change", syncForm);
  $("x-player").addEventListener("change", syncForm);
  $("o-player").addEventListener("change", syncForm);
  $("undo").addEventListener("click", undo);
  $("restart").addEventListener("click", () => newGame());
  $("setup").addEventListener("submit", onSetup);
  $("hint").addEventListener("click", hint);
  $("analysis").addEventListener("click", toggleAnalysis);
  $("numbers").addEventListener("click", toggleNumbers);
  $("explain").addEventListener("click", toggleExplain);
  initExplain(() => {
    forget();
    refreshExplain();
  });
  initHistory(resume, (id) => history.replaceState(null, "", `${location.pathname}${linkSearch({ kind: "review", id })}`));
  document.addEventListener("keydown", onKey);
  for (const tab of document.querySelectorAll(".tab[data-view]")) tab.addEventListener("click", () => showView(tab.dataset.view));
  try {
    fillMenus(await api.menus());
  } catch (error) {
    setStatus(t("The page cannot read its menus: {message}.", { message: error.message }), "error");
    return;
  }
  restoreChoices();
  // A link may ask Explain for a tree or a position of its own (?leaves=…, ?position=…&explain=…).
  if (openLinked(location.search)) state.explainOn = true;
  if (await openLink(linkTarget(location.search))) return;
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
