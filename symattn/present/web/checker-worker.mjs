// The course site's checker: Pyodide
// (CPython compiled to WebAssembly) runs symattn's own judge in this Web Worker, in the
// learner's browser. Nothing the learner types leaves the browser. Python is not started here:
// the worker restores the memory the site build saved (scripts/checker_snapshot.mjs), with
// SymPy and symattn imported and every exercise judged once.
import { loadPyodide } from "../pyodide/pyodide.mjs";
import { withMemoryFor } from "./restore-memory.mjs";

const site = new URL("../", import.meta.url);
const checker = new URL("checker/", site);
// An empty zip archive: Pyodide fetches its standard library's zip before Python starts, which a
// restored snapshot does not need (DeferredFiles fetches it with the checker's packages, if ever).
const EMPTY_ZIP = "data:application/zip;base64,UEsFBgAAAAAAAAAAAAAAAAAAAAAAAA==";
let python = null;
let manifest = null;

function say(message) {
  postMessage({ kind: "progress", message });
}

// Called by Python (symattn.cli.browser.DeferredFiles) when a check first imports a module that
// the snapshot does not hold: the archives it comes from, fetched synchronously (a worker may)
// into Pyodide's file system where the snapshot's Python looks for them.
globalThis.symattnInstallFiles = (module) => {
  for (const [where, file] of Object.entries(manifest.files)) {
    const request = new XMLHttpRequest();
    request.open("GET", new URL(file, checker).href, false);
    request.responseType = "arraybuffer";
    request.send();
    if (request.status !== 200) {
      throw new Error(`${file} did not arrive from the site (HTTP ${request.status}), needed for ${module}`);
    }
    python.FS.writeFile(where, new Uint8Array(request.response));
  }
};

async function boot() {
  const phases = {};
  let mark = performance.now();
  const done = (name) => {
    const now = performance.now();
    phases[name] = (now - mark) / 1000;
    mark = now;
  };
  say("Loading Python and SymPy (1 of 2)");
  const got = async (name) => {
    const response = await fetch(new URL(name, checker));
    if (!response.ok) throw new Error(`${name} did not arrive from the site (HTTP ${response.status})`);
    return response;
  };
  manifest = await (await got("manifest.json")).json();
  const snapshot = new Uint8Array(await (await got(manifest.snapshot)).arrayBuffer());
  if (snapshot.length !== manifest.bytes) {
    throw new Error(`${manifest.snapshot} arrived cut short (${snapshot.length} of ${manifest.bytes} bytes)`);
  }
  done("download");
  say("Starting the checker (2 of 2)");
  python = await withMemoryFor(snapshot.length, () =>
    loadPyodide({ indexURL: new URL("pyodide/", site).href, _loadSnapshot: snapshot, stdLibURL: EMPTY_ZIP }),
  );
  done("python");
  return phases;
}

// Why loading failed, in one line for the page's sentence: never a traceback. A Python error's
// message is its traceback (and Pyodide's advice): its last unindented "Type: message" line after
// the traceback is kept, else its type alone (Pyodide's error.type), never a line of the traceback.
function reason(error) {
  const text = String(error && error.message ? error.message : error);
  const lines = text.split(/\r\n|[\r\n\u2028\u2029]/);
  const start = lines.map((line) => line.startsWith("Traceback")).lastIndexOf(true);
  let line = "";
  if (start >= 0) {
    const raised = lines.slice(start + 1).filter((l) => /^[A-Za-z_][\w.]*(:|$)/.test(l) && !/^\s/.test(l));
    line = raised.length > 0 ? raised[raised.length - 1].trim() : "";
    if (line === "" || line.includes("Traceback")) line = error && error.type ? String(error.type) : "a Python error";
  } else {
    line = lines.map((l) => l.trim()).find((l) => l !== "") || "no reason given";
  }
  return line;  // the page cuts it to 160 characters
}

const ready = boot().then(
  (phases) => postMessage({ kind: "ready", phases }),
  (error) => postMessage({ kind: "failed", message: reason(error) }),
);

onmessage = async (event) => {
  await ready;
  const { id, op, args } = event.data;
  let api = null;
  let fn = null;
  try {
    api = python.globals.get("symattn_browser");
    fn = api[op === "checkSteps" ? "check_steps" : op];
    // JavaScript's null would reach Python as pyodide's jsnull: an absent seed is None
    const text = fn(...args.map((a) => (a === null ? undefined : a)));
    postMessage({ kind: "result", id, value: JSON.parse(text) });
  } catch (error) {
    postMessage({ kind: "result", id, error: String(error && error.message ? error.message : error) });
  } finally {
    if (fn) fn.destroy();
    if (api) api.destroy();
  }
};
