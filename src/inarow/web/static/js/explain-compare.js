// The comparison beside the tree: the nodes each algorithm needs on the same position (POST /api/compare),
// one row an algorithm with a bar on a log scale. Its rows depend on the search's result, so the panel
// shows them only once the replay has reached the root's value (explain-panels.js: revealAnswers).

import { $, view } from "./explain-view.js";
import { comparedName, compareCells } from "./tree.js";
import { evaluationTitle, numberText, pliesText, t } from "./words.js";

export function drawCompare(answer) {
  const body = $("compare-table").tBodies[0];
  const most = Math.max(...answer.rows.map((row) => row.nodes));
  const depth = pliesText(answer.depth);
  $("compare-note").textContent = t("The same position searched {depth} deep with {evaluation}; each search may visit {nodes} nodes (bars on a log scale).", {
    depth,
    evaluation: evaluationTitle(answer.evaluation),
    nodes: numberText(answer.max_nodes),
  });
  $("compare-value").textContent = t("Value for Max ({side})", { side: view.mark(answer.to_move) });
  body.replaceChildren(
    ...answer.rows.map((row) => {
      const tr = document.createElement("tr");
      const cells = compareCells(row, most, answer.to_move);
      tr.dataset.algorithm = row.name;
      if (!row.complete) tr.className = "stopped";
      const name = document.createElement("th");
      name.scope = "row";
      name.textContent = comparedName(row);
      const nodes = document.createElement("td");
      nodes.className = "nodes";
      const meter = document.createElement("div");
      meter.className = "meter";
      const track = document.createElement("span");
      track.className = "track";
      track.setAttribute("aria-hidden", "true");
      const bar = document.createElement("span");
      bar.className = "bar";
      bar.style.width = `${cells.bar}%`;
      track.append(bar);
      const count = document.createElement("span");
      count.className = "count";
      count.textContent = cells.nodes;
      meter.append(track, count);
      nodes.append(meter);
      const branching = document.createElement("td");
      branching.textContent = cells.branching;
      const time = document.createElement("td");
      time.textContent = cells.time;
      const value = document.createElement("td");
      value.textContent = cells.value;
      tr.append(name, nodes, branching, time, value);
      return tr;
    }),
  );
}

export function compareError(error) {
  $("compare-table").tBodies[0].replaceChildren();
  $("compare-note").textContent = t("No comparison: {message}.", { message: error.message });
}
