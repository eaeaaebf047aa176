// The lab's sandbox: the script of /lab/sandbox.html, the document lab.js loads into an
// <iframe sandbox="allow-scripts">. Its origin is opaque (no cookies, no storage, no way into the page that
// holds it) and its content-security policy (the server's, for this document only) allows no network but
// the lab's own files: Pyodide's, inarow's zip and the worker's script. It starts the lab's worker
// (lab-worker.js), whose policy is this document's, and passes messages: the page's requests in, whatever
// the worker posts out to the page (which takes only answers to its requests). A document of an opaque
// origin cannot start a worker from the server's URL, so the worker starts from a blob: that imports it
// (a classic worker: Chromium starts no module worker from an opaque origin's blob:). A classic script, so
// that the document loads it without CORS.

(() => {
  const home = new URL(location.href).origin; // the server's (the URL's): the page that holds this frame
  const script = new URL("/static/js/lab-worker.js", location.href).href;
  // The worker's first lines: importScripts goes (Pyodide asks it whether this is a classic worker, which
  // it refuses; the worker imports its modules with import(), as a module worker would), then the lab's
  // worker is imported, or the page is told why not.
  const load = [
    "delete WorkerGlobalScope.prototype.importScripts;",
    `import(${JSON.stringify(script)}).catch((error) => postMessage({ ready: false, error: String(error?.message ?? error) }));`,
  ].join("\n");
  const worker = new Worker(URL.createObjectURL(new Blob([load], { type: "text/javascript" })));
  worker.onmessage = ({ data }) => parent.postMessage(data, home);
  worker.onerror = (event) => {
    event.preventDefault();
    parent.postMessage({ stopped: String(event.message ?? "") }, home);
  };
  addEventListener("message", ({ data, source }) => {
    if (source === parent) worker.postMessage(data, data?.files ? Object.values(data.files) : []); // the page's files moved, not copied
  });
})();
