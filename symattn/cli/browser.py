"""The checker as the course site's Web Worker calls it, inside the learner's browser (Pyodide).

Each function runs the command line's own code (:func:`symattn.cli.app.main`) and returns, as
JSON text, what the command prints: ``check`` and ``check_steps`` give the object that
``symattn check ... --json`` prints, so a page and the terminal can never disagree. A command
that refuses its input (exit 2 with a one-line message on stderr, no JSON) gives
``{"error": message, "exit_code": 2}``. Nothing here evaluates the learner's text: it goes to
the same reader and judge as on the command line (there, in-process: a browser's Python cannot
fork, and the page terminates its Web Worker at the deadline instead).
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import sys

from .app import main


def _run(argv: list[str], stdin: str = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(argv)
    finally:
        sys.stdin = saved
    return code, out.getvalue(), err.getvalue()


def _refusal(code: int, err: str, default: str) -> str:
    """The command's one-line refusal as ``{"error", "exit_code"}``, without its program name."""
    lines = [ln for ln in err.strip().splitlines() if ln.strip()]
    message = re.sub(r"^symattn( \w+)?: error: ", "", lines[-1]) if lines else default
    return json.dumps({"error": message, "exit_code": code})


def _json(argv: list[str], stdin: str = "") -> str:
    code, out, err = _run(argv, stdin)
    return out if out.lstrip().startswith("{") else _refusal(code, err, "no result")


def check(exercise: str, answer: str, seed: str | int | None = None) -> str:
    """``symattn check EXERCISE [--seed S] --json -- ANSWER``: after ``--``, an answer is never
    read as an option (``--plugin=...`` would import a module), whatever it starts with."""
    argv = ["check", exercise, "--json", *(["--seed", str(seed)] if seed is not None else [])]
    return _json([*argv, "--", answer])


def check_steps(exercise: str, text: str) -> str:
    """``symattn check EXERCISE --steps - --json``, the derivation given as standard input."""
    return _json(["check", exercise, "--steps", "-", "--json"], text)


def variant(exercise: str, seed: str | int) -> str:
    """The variant ``symattn exercises variant EXERCISE --seed S`` prints: its text, and its
    prompt and expected answer for the page (the seed it uses may be a later one: see its note)."""
    from ..grading.exercises import get

    code, out, err = _run(["exercises", "variant", exercise, "--seed", str(seed)])
    if code != 0:
        return _refusal(code, err, "no variant")
    e = get(exercise, int(seed))
    return json.dumps(
        {
            "id": e.id,
            "seed": seed,
            "text": out,
            "prompt": e.prompt,
            "note": e.params.get("seed_note", ""),
            "expected": e.expected.latex() if e.expected is not None else "",
        }
    )


#: What :func:`prepare` judges: for each exercise, answers and proofs that take a check through
#: the reader, the judge and the feedback (a right answer, a named slip, a refusal).
PREPARED: dict[str, tuple[tuple[str, str], ...]] = {
    "ex6.2": (("answer", r"\frac{e^2+11}{e^2+2}"), ("answer", "1"), ("answer", r"\frac{e^{2}+11")),
    "ex6.4": (
        ("answer", r"\begin{bmatrix}0 & -\infty & -\infty\\0 & 0 & -\infty\\0 & 0 & 0\end{bmatrix}"),
        ("answer", r"\begin{pmatrix}0 & 0 \\ 0 & 0\end{pmatrix}"),
    ),
    "ex6.5": (("answer", "N > 8192"), ("answer", r"N \geq 4096"), ("answer", "8192.5")),
    "ex6.6": (("answer", r"o_i = \frac{1}{N}\sum_{j=1}^{N} v_j"), ("answer", "v_1")),
    "ex6.3": (
        (
            "steps",
            "\\operatorname{Var}(z) = \\sum_{i=1}^{d_k} \\operatorname{Var}(q_i k_i)\n= d_k \\cdot 1\n= d_k\n"
            "\\operatorname{Var}\\left(\\frac{z}{\\sqrt{d_k}}\\right) "
            "= \\frac{1}{d_k}\\operatorname{Var}(z)\n= 1\n",
        ),
        ("steps", "\\operatorname{Var}(z) = d_k^2\n"),
    ),
    "ex6.7": (
        (
            "steps",
            "\\operatorname{Attention}(PX) = \\operatorname{softmax}\\left(\\frac{(PXW^Q)(PXW^K)^\\top}"
            "{\\sqrt{d_k}}\\right) PXW^V\n= P \\operatorname{Attention}(X)\n",
        ),
    ),
}


def prepared_verdicts() -> str:
    """The verdicts of every answer and proof of :data:`PREPARED`, and the id of every
    exercise's variant 1, as JSON text."""
    from ..grading.exercises import EXERCISES

    verdicts = []
    for exercise, inputs in PREPARED.items():
        for how, text in inputs:
            found = json.loads(check(exercise, text) if how == "answer" else check_steps(exercise, text))
            verdicts.append([exercise, found.get("verdict"), found.get("exit_code")])
    for exercise in EXERCISES:
        verdicts.append([exercise, json.loads(variant(exercise, 1)).get("id")])
    return json.dumps(verdicts)


def prepare() -> str:
    """:func:`prepared_verdicts`, so that the site build's memory snapshot
    (``scripts/checker_snapshot.mjs``) holds every module a check imports; then
    :class:`DeferredFiles` armed. The build compares the verdicts with the restored snapshot's."""
    import gc

    verdicts = prepared_verdicts()
    gc.collect()  # the checks' garbage out of the memory the snapshot saves
    DeferredFiles.arm()
    return verdicts


def probe(module: str) -> str:
    """Import ``module``, one the snapshot's archives hold (the tests' way to see a module the
    snapshot lacks arrive through :class:`DeferredFiles`), as ``{"module", "file"}``."""
    import importlib

    if module not in DeferredFiles.modules:
        return json.dumps({"error": f"{module} is not a module of the checker's archives", "exit_code": 2})
    found = importlib.import_module(module)
    return json.dumps({"module": found.__name__, "file": getattr(found, "__file__", None)})


class DeferredFiles:
    """The files behind the snapshot's modules, fetched only when a check first imports a module
    the snapshot does not hold.

    A page restores Python from the site build's memory snapshot without the zip archives on
    ``sys.path`` (the standard library's and the checker's packages, 3 and 9 MB): the snapshot
    already holds every module :func:`prepare` imported. Put first on ``sys.meta_path`` (which
    import consults only for a module not yet imported), this finder, once armed, asks the page's
    worker for the archives (``symattnInstallFiles``, a synchronous fetch into Pyodide's file
    system) the first time a module they hold is imported, then steps aside so that the usual
    finders import it. A module they do not hold (an optional dependency SymPy tries, such as
    numpy) fetches nothing."""

    armed = False
    modules: frozenset[str] = frozenset()

    @classmethod
    def arm(cls) -> None:
        if sys.platform != "emscripten":  # only a browser's Python has a worker to ask
            return
        import zipfile

        names = set()
        for archive in (p for p in sys.path if p.endswith(".zip")):
            for member in zipfile.ZipFile(archive).namelist():
                stem, dot, suffix = member.rpartition(".")
                if dot and suffix in ("py", "pyc"):
                    names.add(stem.removesuffix("/__init__").replace("/", "."))
        cls.modules = frozenset(names)
        cls.armed = True
        if cls not in sys.meta_path:
            sys.meta_path.insert(0, cls)

    @classmethod
    def find_spec(cls, name: str, path: object = None, target: object = None) -> None:
        if cls.armed and name in cls.modules:
            cls.armed = False
            import js  # Pyodide's view of the worker's global scope

            js.symattnInstallFiles(name)
        return None
