// node scripts/compile_wheels.mjs PYODIDE_DIR OUT_DIR WHEEL...
//
// The site build's step that makes the in-browser checker start faster: each pure-Python wheel
// gets, beside every module's source, its bytecode for the Python that Pyodide runs (CPython
// 3.14: compiled here by that very Python, in Node), as "unchecked-hash" .pyc files (PEP 552),
// which import uses without comparing timestamps. Without them, Pyodide compiles SymPy's
// source at every page load (about 5 s of the first verdict). docs_hooks.py runs this.
import { loadPyodide } from "../node_modules/pyodide/pyodide.mjs";
import fs from "node:fs";
import path from "node:path";

const [pyodideDir, outDir, ...wheels] = process.argv.slice(2);
const py = await loadPyodide({ indexURL: path.resolve(pyodideDir) + "/" });
py.FS.mkdir("/in");
py.FS.mkdir("/out");
for (const wheel of wheels) py.FS.writeFile("/in/" + path.basename(wheel), fs.readFileSync(wheel));
py.runPython(`
import importlib._bootstrap_external as external
import importlib.util
import os
import sys
import warnings
import zipfile

warnings.simplefilter("ignore")  # SymPy's own sources warn about escapes and 'return' in 'finally'
tag = sys.implementation.cache_tag
for name in sorted(os.listdir("/in")):
    with zipfile.ZipFile("/in/" + name) as src, zipfile.ZipFile("/out/" + name, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            data = src.read(info)
            dst.writestr(info, data)
            if not info.filename.endswith(".py"):
                continue
            try:
                code = compile(data, info.filename, "exec", dont_inherit=True)
            except SyntaxError:
                continue  # left to fail, as it would, where it is imported
            head, tail = os.path.split(info.filename)
            target = zipfile.ZipInfo(f"{head}/__pycache__/{tail[:-3]}.{tag}.pyc", info.date_time)
            target.compress_type = zipfile.ZIP_DEFLATED
            pyc = external._code_to_hash_pyc(code, importlib.util.source_hash(data), False)
            dst.writestr(target, bytes(pyc))
`);
for (const name of py.FS.readdir("/out")) {
  if (name.endsWith(".whl")) fs.writeFileSync(path.join(outDir, name), py.FS.readFile("/out/" + name));
}
