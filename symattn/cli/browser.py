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


def warm_up() -> None:
    """Import what a check needs and judge one answer, so the learner's first check is quick."""
    check("ex6.2", "1")
