// The choices the page offers, built from what the server accepts (GET /api/menus): the level, the
// players of a computer-against-computer game, and the Explain panel's algorithm, depth and evaluation.
// Pure functions: no DOM, so node can test them; main.js puts the options into the <select>s.

import { N_, pliesText, playerTitle, t } from "./words.js";

/** The algorithms' names on the page (the menu, the tree's summary), by the names the server takes. */
export const ALGORITHM_LABELS = {
  minimax: N_("Minimax"),
  negamax: N_("Negamax"),
  alphabeta: N_("α-β (fail-soft)"),
  "alphabeta-hard": N_("α-β (fail-hard)"),
  "alphabeta-soft": N_("α-β (fail-soft)"),
  "negamax-alphabeta": N_("α-β, negamax form"),
  "negamax-alphabeta-hard": N_("α-β, negamax form, fail-hard"),
  pvs: N_("PVS (NegaScout)"),
};
const EVALUATION_LABELS = { "open-lines": N_("Open lines"), weighted: N_("Weighted lines"), lines: N_("Completed lines") };
const PLAYER_LABELS = { rules: N_("Rules (win, block, corner…)"), threats: N_("Threats (Gomoku: five, fours, threes…)") };
const LEVEL_LABELS = { easy: N_("Easy"), medium: N_("Medium"), hard: N_("Hard"), perfect: N_("Perfect") };

/** A label of one of the tables above in the reader's language, or `fallback` when it has none. */
const label = (table, name, fallback) => (table[name] ? t(table[name]) : fallback);

/** A search in words, the algorithm by its label: "α-β (fail-soft), 2 plies" (`depth` null: to the end). */
export const searchText = (algorithm, depth) =>
  t("{algorithm}, {depth}", { algorithm: label(ALGORITHM_LABELS, algorithm, algorithm), depth: depth === null ? t("to the end") : pliesText(depth) });

/** The textbook searches offered as players, [algorithm, depth, evaluation]: a few that play quickly. */
const SEARCH_PLAYERS = [
  ["minimax", 1, "open-lines"],
  ["minimax", 2, "open-lines"],
  ["minimax", 3, "open-lines"],
  ["alphabeta", 4, "open-lines"],
  ["alphabeta", 4, "weighted"],
];

/** The last choice of the players' menus: a player name typed in, such as minimax:2:weights:1,1,1,inf. */
const ownPlayer = () => ({ value: "own", label: t("Your own…") });

/** The depths the Explain panel offers, in plies, up to the server's limit; then "to the end". */
const EXPLAIN_DEPTHS = [1, 2, 3, 4, 5, 6];

const DEFAULTS = { level: "medium", "x-player": "rules", "o-player": "minimax:2:open-lines", "explain-algorithm": "alphabeta", "explain-depth": "2" };

/** "Minimax, 2 plies" from "minimax, 2 plies"; "α-β" stays as it is written. */
const capitalised = (text) => text.replace(/^[a-z]/, (letter) => letter.toUpperCase());

/** Options [{value, label}] for every player the server knows by name, then the textbook searches. */
export function playerOptions(menus) {
  const named = menus.players.map((name) => ({ value: name, label: label(PLAYER_LABELS, name, capitalised(playerTitle(name))) }));
  const searches = SEARCH_PLAYERS.filter(
    ([algorithm, depth, evaluation]) =>
      menus.algorithms.includes(algorithm) && menus.evaluations.includes(evaluation) && depth <= menus.max_depth,
  ).map(([algorithm, depth, evaluation]) => {
    const value = `${algorithm}:${depth}:${evaluation}`;
    return { value, label: capitalised(playerTitle(value)) };
  });
  return [...named, ...searches];
}

/**
 * Every menu the page builds, by the id of its <select>: a list of {value, label, selected}, one option
 * selected (the page's default when the server offers it, else the first).
 */
export function menuOptions(menus) {
  const players = playerOptions(menus);
  const lists = {
    level: menus.levels.map((name) => ({ value: name, label: label(LEVEL_LABELS, name, capitalised(name)) })),
    "x-player": [...players, ownPlayer()],
    "o-player": [...players, ownPlayer()],
    "explain-algorithm": menus.algorithms.map((name) => ({ value: name, label: label(ALGORITHM_LABELS, name, name) })),
    "explain-depth": [
      ...EXPLAIN_DEPTHS.filter((depth) => depth <= menus.max_depth).map((depth) => ({ value: String(depth), label: pliesText(depth) })),
      { value: "end", label: t("To the end") },
    ],
    "explain-evaluation": [
      ...menus.evaluations.map((name) => ({ value: name, label: label(EVALUATION_LABELS, name, name) })),
      { value: "custom", label: t("Your own: weights…") },
    ],
  };
  const menusById = {};
  for (const [id, options] of Object.entries(lists)) {
    const chosen = options.some((option) => option.value === DEFAULTS[id]) ? DEFAULTS[id] : options[0]?.value;
    menusById[id] = options.map((option) => ({ ...option, selected: option.value === chosen }));
  }
  return menusById;
}
