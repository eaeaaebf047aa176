// The Web Worker in which a student's e(P) runs: Pyodide (served by inarow from /lab/pyodide/, no CDN)
// with inarow's own Python modules (/lab/inarow.zip: rules, the board view, the textbook search, the
// tree — the modules the command line runs), answering the page's requests through
// inarow.web.browser.call. It runs inside the lab's sandbox (sandbox.js: an opaque origin, started from a
// blob:), so every URL is made from this script's own. The page (lab.js) removes the sandbox when a run
// passes its limit; nothing here limits anything.

import { loadPyodide, version } from "/lab/pyodide/pyodide.mjs";

const lab = (path) => new URL(path, import.meta.url).href;

const ready = (async () => {
  // Pyodide's big files under its version: the browser keeps them for good and asks nothing next time.
  const pyodide = await loadPyodide({ indexURL: lab(`/lab/pyodide/${version}/`), stdout: () => {}, stderr: () => {} });
  const response = await fetch(lab("/lab/inarow.zip"), { credentials: "omit" });
  if (!response.ok) throw new Error(await response.text());
  pyodide.unpackArchive(new Uint8Array(await response.arrayBuffer()), "zip", { extractDir: "/inarow-lab" });
  pyodide.runPython("import sys; sys.path.insert(0, '/inarow-lab')");
  return pyodide.pyimport("inarow.web.browser");
})();

ready.then(
  () => postMessage({ ready: true }),
  (error) => postMessage({ ready: false, error: String(error?.message ?? error) }),
);

onmessage = async ({ data }) => {
  const { id, request } = data;
  try {
    const browser = await ready;
    const progress = (index, position) => postMessage({ id, progress: { index, position } });
    postMessage({ id, answer: JSON.parse(browser.call(JSON.stringify(request), progress)) });
  } catch (error) {
    // Python itself failed (out of memory in WebAssembly, say): the page starts another worker.
    postMessage({ id, broken: true, answer: { ok: false, error: String(error?.message ?? error) } });
  }
};
