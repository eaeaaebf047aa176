// The page's words in the reader's language: t(), ngettext() and the Chinese catalog: node --test tests/js/
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { afterEach, describe, test } from "node:test";

import { menuOptions } from "../../src/inarow/web/static/js/menus.js";
import { stepWords, standpointWords } from "../../src/inarow/web/static/js/replay.js";
import {
  analysisSummary, fill, gameTitle, languageTag, moveWords, ngettext, noteWords, pliesText, playersWords, positionWords, reviewStatus,
  statusWords, t, useCatalog,
} from "../../src/inarow/web/static/js/words.js";

/**
 * The messages of a .po file as GET /i18n/{tags}.json serves them: message -> translation, or the list of
 * its plural forms. Just enough of the format for the catalog Babel writes.
 */
function readPo(path) {
  const messages = {};
  let entry = {};
  let field = null;
  const unquote = (text) => JSON.parse(text);
  const finish = () => {
    if (entry.msgid) {
      if (entry.msgid_plural !== undefined) messages[entry.msgid] = entry.forms;
      else if (entry.msgstr) messages[entry.msgid] = entry.msgstr;
    }
    entry = {};
  };
  for (const line of readFileSync(path, "utf8").split("\n")) {
    if (line.startsWith("msgid ")) {
      finish();
      field = "msgid";
      entry.msgid = unquote(line.slice(6));
    } else if (line.startsWith("msgid_plural ")) {
      field = "msgid_plural";
      entry.msgid_plural = unquote(line.slice(13));
    } else if (line.startsWith("msgstr[")) {
      field = "forms";
      entry.forms = [...(entry.forms ?? []), unquote(line.slice(line.indexOf("]") + 2))];
    } else if (line.startsWith("msgstr ")) {
      field = "msgstr";
      entry.msgstr = unquote(line.slice(7));
    } else if (line.startsWith('"') && field) {
      if (field === "forms") entry.forms[entry.forms.length - 1] += unquote(line);
      else entry[field] += unquote(line);
    }
  }
  finish();
  return messages;
}

const CHINESE = { tag: "zh-CN", messages: readPo(new URL("../../src/inarow/locale/zh_CN/LC_MESSAGES/inarow.po", import.meta.url)) };
const upper = (side) => side.toUpperCase();

afterEach(() => useCatalog(null));

describe("t() and ngettext()", () => {
  test("English needs no catalog: the message is its own translation, placeholders filled", () => {
    assert.equal(languageTag(), "en");
    assert.equal(t("Your move ({side}).", { side: "X" }), "Your move (X).");
    assert.equal(ngettext("{count} ply", "{count} plies", 1, { count: 1 }), "1 ply");
    assert.equal(ngettext("{count} ply", "{count} plies", 3, { count: 3 }), "3 plies");
  });

  test("a catalog's translation is used, and its placeholders may come in another order", () => {
    useCatalog({ tag: "xx", messages: { "{a} before {b}": "{b} after {a}" } });
    assert.equal(t("{a} before {b}", { a: 1, b: 2 }), "2 after 1");
    assert.equal(languageTag(), "xx");
  });

  test("a message the catalog lacks, or has empty, falls back to English", () => {
    useCatalog({ tag: "zh-CN", messages: { Undo: "" } });
    assert.equal(t("Undo"), "Undo");
    assert.equal(t("Hint"), "Hint");
  });

  test("a placeholder without a value stays as written; a value may be 0 or empty", () => {
    assert.equal(fill("{a} and {b}", { a: 0 }), "0 and {b}");
    assert.equal(fill("[{a}]", { a: "" }), "[]");
  });

  test("plural forms are chosen by the language's plural rules: one form in Chinese", () => {
    useCatalog({ tag: "zh-CN", messages: { "{count} ply": ["{count} 层"] } });
    assert.equal(ngettext("{count} ply", "{count} plies", 1, { count: 1 }), "1 层");
    assert.equal(ngettext("{count} ply", "{count} plies", 5, { count: 5 }), "5 层");
  });

  test("plural forms in a language with two: French counts 0 and 1 as singular", () => {
    useCatalog({ tag: "fr", messages: { "{count} ply": ["{count} demi-coup", "{count} demi-coups"] } });
    assert.equal(ngettext("{count} ply", "{count} plies", 0, { count: 0 }), "0 demi-coup");
    assert.equal(ngettext("{count} ply", "{count} plies", 2, { count: 2 }), "2 demi-coups");
  });
});

describe("the page's words in Chinese, from the catalog the server serves", () => {
  /*
   *   . . .
   *   o x .
   *   x . .      o to move: x wins in 2 moves with best play (几步后获胜)
   */
  const lost = { to_move: "o", exact: true, outcome: "loss", winner: "x", plies: 4, score: -2, depth: null };

  test("win, draw and loss: 胜, 和, 负, and how many moves to the win", () => {
    useCatalog(CHINESE);
    assert.deepEqual(moveWords({ exact: true, outcome: "win", plies: 5 }), { kind: "win", long: "3 步后获胜", short: "胜3" });
    assert.deepEqual(moveWords({ exact: true, outcome: "draw", plies: 9 }), { kind: "draw", long: "和棋", short: "和" });
    assert.equal(moveWords({ exact: true, outcome: "loss", plies: 2 }).short, "负1");
    assert.equal(positionWords(lost, upper), "X 2 步后获胜");
    assert.equal(analysisSummary(lost, upper), "轮到 O 走：X 2 步后获胜。");
  });

  test("the status line and who plays", () => {
    useCatalog(CHINESE);
    const game = { game: "tictactoe", mode: "computer", you: "x", level: "perfect", symbols: { x: "x", o: "o" }, to_move: "x", waiting_for: "you", result: null, winning_line: [], k: 3 };
    assert.deepEqual(statusWords(game), ["轮到你走（X）。", ""]);
    assert.equal(playersWords(game), "井字棋 · 你：X（先走） · 电脑：O，完美");
    const over = { ...game, result: "o", outcome: "loss", winning_line: ["a1", "b2", "c3"] };
    assert.deepEqual(statusWords(over), ["电脑获胜——3 子连线。", "loss"]);
  });

  test("a game where O moves first says so", () => {
    assert.equal(gameTitle("tictactoe:o-first"), "Tic-tac-toe, O moves first");
    useCatalog(CHINESE);
    assert.equal(gameTitle("tictactoe:o-first"), "井字棋，O 先走");
    const game = { game: "tictactoe:o-first", mode: "computer", you: "o", level: "medium", symbols: { x: "x", o: "o" } };
    assert.equal(playersWords(game), "井字棋，O 先走 · 你：O（先走） · 电脑：X，中等");
  });

  test("the computer's note is a sentence made from its fields", () => {
    const move = (note) => ({ by: "computer", note });
    assert.equal(noteWords(move({ kind: "rule", rule: "corner" }), upper), "The computer: rule: a corner");
    useCatalog(CHINESE);
    assert.equal(noteWords(move({ kind: "analysis", exact: true, winner: null, plies: 7 }), upper), "电脑：双方最佳走法下和棋");
    assert.equal(noteWords(move({ kind: "analysis", exact: true, winner: "o", plies: 1 }), upper), "电脑：O 1 步后获胜");
    // Level perfect's weak proof: the winner with best play, no count of moves.
    assert.equal(noteWords(move({ kind: "analysis", exact: true, winner: "x", plies: null }), upper), "电脑：双方最佳走法下 X 获胜");
    assert.equal(noteWords(move({ kind: "search", algorithm: "minimax", depth: 2, value: "inf" }), upper), "电脑：极大极小搜索 2 层：值 +∞");
    assert.equal(noteWords(move({ kind: "random" }), upper), "电脑：随机走法");
    // A game stored before notes were fields keeps its English words.
    assert.equal(noteWords(move({ kind: "text", text: "draw with best play" }), upper), "电脑：draw with best play");
    assert.equal(noteWords({ by: "human", note: null }, upper), "由人走出");
  });

  test("the Explain panel speaks of 极大节点 and 极小节点, α 剪枝 and β 剪枝", () => {
    useCatalog(CHINESE);
    const tree = {
      algorithm: "alphabeta",
      frame: "x",
      max: "x",
      nodes: [
        { id: 0, parent: null, role: "max", to_move: "x", move: null, children: [1], pruned: [], order: "columns" },
        { id: 1, parent: 0, role: "min", to_move: "o", move: "b2", children: [], pruned: ["c3"], order: "columns" },
      ],
      events: [
        { kind: "enter", node: 0, alpha: "-inf", beta: "inf" },
        { kind: "enter", node: 1, alpha: 1, beta: "inf" },
        { kind: "cutoff", node: 1, move: "a1", value: 0, alpha: 1, beta: "inf", bound: "alpha", pruned: ["c3"] },
      ],
    };
    assert.equal(stepWords(tree, 0, upper), "从根节点开始：极大节点（X）走棋，α = −∞, β = +∞");
    assert.equal(stepWords(tree, 1, upper), "试走 b2：极小节点（O）走棋，α = +1, β = +∞");
    assert.equal(stepWords(tree, 2, upper), "a1 返回 0 ≤ α = +1：在 b2 处 α 剪枝，c3 被剪掉");
    assert.equal(standpointWords(tree, upper), "极大方是 X，极小方是 O：所有的值都站在 X 的立场，值越大对 X 越有利。");
    assert.equal(pliesText(2), "2 层");
  });

  test("the Chinese narration says 倒推值, and names the root without stray spaces around 根节点", () => {
    useCatalog(CHINESE);
    const rn = JSON.parse(readFileSync(new URL("../data/explain/russell-norvig.json", import.meta.url), "utf8"));
    const negamax = JSON.parse(readFileSync(new URL("../data/explain/russell-norvig-negamax.json", import.meta.url), "utf8"));
    const a = rn.nodes.find((node) => node.move === "a");
    assert.equal(stepWords(rn, a.exit, upper), "a 向根节点返回倒推值 +3");
    assert.equal(stepWords(rn, rn.nodes[0].exit, upper), "根节点的倒推值为 +3：最佳走法 a");
    const a1 = negamax.nodes.find((node) => node.move === "a1");
    assert.match(stepWords(negamax, a1.exit, upper), /；a1 的 \+3 取负，对 a 为 −3$/);
    const na = negamax.nodes.find((node) => node.move === "a");
    assert.match(stepWords(negamax, na.exit, upper), /；a 的 −3 取负，对根节点为 \+3$/);
    const cut = negamax.events.findIndex((event) => event.kind === "cutoff");
    assert.equal(stepWords(negamax, cut, upper), "b1 的 +2 取负为 −2 ≥ β = −3：在 b 处 β 剪枝，b2 b3 被剪掉");
    for (let index = 0; index < rn.events.length; index += 1) {
      assert.doesNotMatch(stepWords(rn, index, upper), / 根节点 |\w 根节点|根节点 \w/, `step ${index + 1}`);
    }
  });

  test("a review's sentence", () => {
    useCatalog(CHINESE);
    const game = { symbols: { x: "x", o: "o" }, result: "draw" };
    const ply = { ply: 1, side: "x", move: "a1", best: ["b2"], mistake: false, moves: [{ move: "a1", exact: true, outcome: "draw", plies: 8 }, { move: "b2", exact: true, outcome: "draw", plies: 8 }] };
    assert.equal(reviewStatus(game, [ply], 0), "第 1 步（共 1 步）：X 走了 a1（和棋）；最佳走法是 b2（和棋）。");
    assert.equal(reviewStatus(game, [ply], 1), "终局：和棋。");
    const blunder = { ...ply, mistake: true, value_before: 0, moves: [{ move: "a1", exact: true, outcome: "loss", plies: 4 }, { move: "b2", exact: true, outcome: "draw", plies: 8 }] };
    assert.match(reviewStatus(game, [blunder], 0), /失误：这步把和局走成了负局。$/);
    // On big boards the server's judgement, as fields: no exact values to compare.
    const big = { ...ply, mistake: true, value_before: null, mistake_kind: "dropped", drop: 640, margin: 400, verdict: "dropped the evaluation by 640 points (more than 400)", moves: [] };
    assert.match(reviewStatus(game, [big], 0), /失误：这步使估值下降了 640 分（超过 400/);
    assert.match(reviewStatus(game, [{ ...big, mistake_kind: "missed-win" }], 0), /已证明的胜局。$/);
  });

  test("the menus the server's choices fill", () => {
    useCatalog(CHINESE);
    const menus = menuOptions({ algorithms: ["minimax", "alphabeta"], evaluations: ["open-lines"], levels: ["easy", "perfect"], players: ["rules"], max_depth: 3 });
    assert.deepEqual(menus.level.map((option) => option.label), ["简单", "完美"]);
    assert.deepEqual(menus["explain-algorithm"].map((option) => option.label), ["极大极小搜索", "α-β（软失败）"]); // the course's α-β is fail-soft
    assert.deepEqual(menus["explain-depth"].map((option) => option.label), ["1 层", "2 层", "3 层", "到终局"]);
  });
});
