// node scripts/checker_snapshot.mjs PYODIDE_DIR OUT_DIR WHEEL...
//
// The site build's step that lets the in-browser checker answer at once (issue 50): it runs
// Pyodide here, in Node, installs the wheels, imports symattn and judges a few answers of every
// exercise, then saves Pyodide's memory as it then is. A page's Web Worker restores that memory
// (`loadPyodide({_loadSnapshot})`) instead of starting Python, unpacking SymPy and importing it.
//
// Written to OUT_DIR:
//   packages.zip     every module of the wheels as bytecode for Pyodide's Python (CPython 3.14),
//                    docstrings left out, SymPy's tests left out: on sys.path as a zip archive
//   python.snapshot  the memory, taken with packages.zip at /lib/checker-packages.zip
//   manifest.json    the snapshot's name and size, and where each archive on sys.path comes from
//
// The snapshot holds every module the checks imported. A page fetches neither packages.zip nor
// the standard library's zip unless a check imports a module that is not in it: the first such
// import fetches both (symattn.cli.browser.DeferredFiles). Before writing, the snapshot is
// restored here, with no file behind it, and must give the verdicts it gave when it was taken.
import { loadPyodide } from "../node_modules/pyodide/pyodide.mjs";
import { withMemoryFor } from "../symattn/present/web/restore-memory.mjs";
import fs from "node:fs";
import path from "node:path";

const [pyodideDir, outDir, ...wheels] = process.argv.slice(2);
const indexURL = path.resolve(pyodideDir) + "/";
const PACKAGES = "/lib/checker-packages.zip";

// 1. The archive, made in a Python of its own (its garbage stays out of the snapshot).
const builder = await loadPyodide({ indexURL });
builder.FS.mkdir("/in");
for (const wheel of wheels) builder.FS.writeFile("/in/" + path.basename(wheel), fs.readFileSync(wheel));
builder.runPython(`
import ast
import importlib._bootstrap_external as external
import importlib.util
import os
import warnings
import zipfile


def without_docstrings(tree):
    """The module with every docstring left out (the checker never reads them: 4 MB less)."""
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                if isinstance(body[0].value.value, str):
                    node.body = body[1:] or [ast.copy_location(ast.Pass(), body[0])]
    return tree


warnings.simplefilter("ignore")  # SymPy's sources warn about escapes and 'return' in 'finally'
with zipfile.ZipFile("/packages.zip", "w", zipfile.ZIP_DEFLATED, compresslevel=9) as out:
    for name in sorted(os.listdir("/in")):
        with zipfile.ZipFile("/in/" + name) as wheel:
            for info in wheel.infolist():
                parts = info.filename.split("/")
                if "tests" in parts or "__pycache__" in parts or info.is_dir():
                    continue
                data = wheel.read(info)
                if not info.filename.endswith(".py"):
                    out.writestr(info.filename, data)
                    continue
                try:
                    tree = without_docstrings(ast.parse(data, info.filename))
                    code = compile(tree, info.filename, "exec", dont_inherit=True)
                except SyntaxError:
                    continue  # left out: it would fail where it is imported
                pyc = external._code_to_hash_pyc(code, importlib.util.source_hash(data), False)
                out.writestr(info.filename[:-3] + ".pyc", bytes(pyc))
`);
const packages = builder.FS.readFile("/packages.zip");

// 2. The runtime to keep: the archive on sys.path, symattn imported, every exercise judged.
const python = await loadPyodide({ indexURL, _makeSnapshot: true });
python.FS.writeFile(PACKAGES, packages);
const prepared = python.runPython(`
import sys
sys.path.append(${JSON.stringify(PACKAGES)})
from symattn.cli import browser as symattn_browser
symattn_browser.prepare()
`);
const snapshot = python.makeMemorySnapshot();

// 3. Restored with no archive and no standard library behind it, it judges as it did.
const fetched = [];
globalThis.symattnInstallFiles = (name) => fetched.push(name);
const restored = await withMemoryFor(snapshot.length, () => loadPyodide({ indexURL, _loadSnapshot: snapshot }));
const again = restored.runPython("symattn_browser.prepared_verdicts()");
if (again !== prepared || fetched.length > 0) {
  console.error("checker_snapshot: the restored snapshot judged otherwise, or needed its files:");
  console.error(`  taken: ${prepared}\n  restored: ${again}\n  imported: ${fetched.join(", ")}`);
  process.exit(1);
}

// What the page's worker reads: the snapshot, and for each archive on sys.path the site's file
// (relative to this folder) to put there when a check imports a module the snapshot lacks.
const archives = JSON.parse(restored.runPython("import json, sys\njson.dumps([p for p in sys.path if p.endswith('.zip')])"));
const files = Object.fromEntries(
  archives.map((p) => [p, p === PACKAGES ? "packages.zip" : "../pyodide/python_stdlib.zip"]),
);
const manifest = { snapshot: "python.snapshot", bytes: snapshot.length, files };
fs.writeFileSync(path.join(outDir, "packages.zip"), packages);
fs.writeFileSync(path.join(outDir, "python.snapshot"), snapshot);
fs.writeFileSync(path.join(outDir, "manifest.json"), JSON.stringify(manifest, null, 2) + "\n");
