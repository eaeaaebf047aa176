// The Web Worker in which a student's e(P) runs: Pyodide (served by inarow from /lab/pyodide/, no CDN)
// with inarow's own Python modules (/lab/inarow.zip: rules, the board view, the textbook search, the
// tree — the modules the command line runs), answering the page's requests through
// inarow.web.browser.call. It runs inside the lab's sandbox (sandbox.js: an opaque origin, started from a
// blob:), so every URL is made from this script's own. The page (lab.js) removes the sandbox when a run
// passes its limit; nothing here limits anything. An opaque origin keeps no HTTP cache from one page to
// the next, so the big files come from the page, out of its own cache (lab.js's HANDED): this worker asks
// for them and answers Pyodide's fetches of them from what it was handed.

import { loadPyodide, version } from "/lab/pyodide/pyodide.mjs";

const lab = (path) => new URL(path, import.meta.url).href;

let hand = null;
const handed = new Promise((resolve) => (hand = resolve));
postMessage({ wants: "files" });

const TYPES = { json: "application/json", zip: "application/zip", wasm: "application/wasm" };
const network = globalThis.fetch.bind(globalThis);

/** fetch, answered from the files the page handed over when it is one of them (each once), else the network's. */
globalThis.fetch = async (input, init) => {
  const files = await handed;
  const path = new URL(String(input?.url ?? input), import.meta.url).pathname;
  const name = path.slice(path.lastIndexOf("/") + 1);
  if ((path.startsWith("/lab/pyodide/") || path === "/lab/inarow.zip") && files[name]) {
    const body = files[name];
    delete files[name];
    return new Response(body, { headers: { "Content-Type": TYPES[name.slice(name.lastIndexOf(".") + 1)] ?? "application/octet-stream" } });
  }
  return network(input, init);
};

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
  if (data && "files" in data) {
    hand(data.files ?? {});
    return;
  }
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
