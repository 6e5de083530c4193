"""One page per exercise for the course site, each with a checker that runs in the learner's browser.

``docs/exercises/ID.md`` (served at ``exercises/ID/``) holds the prompt, an answer field (a
multi-line field for a derivation checked step by step) with a typeset preview, a Check button,
a "new numbers" button where the exercise has seeded variants, and the answer, the model
solution and the checked derivation in collapsible boxes. The checker itself is
``symattn/present/web/`` (copied to ``docs/javascripts/`` and ``docs/stylesheets/``): Pyodide
runs symattn's own judge (:mod:`symattn.cli.browser`) in a Web Worker. :func:`embed_page` is the
authors' page on its API and links.
"""

from __future__ import annotations

import html
from importlib import resources
from typing import Any

from ..grading.measures import BROWSER_DERIVATION_SECONDS, BROWSER_SECONDS

#: The checker's files, as ``symattn build`` writes them into docs/.
WEB_FILES = {
    "javascripts/checker.js": "checker.js",
    "javascripts/checker-worker.mjs": "checker-worker.mjs",
    "javascripts/restore-memory.mjs": "restore-memory.mjs",
    "sw.js": "sw.js",
    "stylesheets/checker.css": "checker.css",
}


def web_files() -> dict[str, str]:
    """docs/ path -> text, for the checker's script, worker and style."""
    web = resources.files("symattn.present") / "web"
    return {target: (web / name).read_text(encoding="utf-8") for target, name in WEB_FILES.items()}


def _has_variants(exercise_id: str) -> bool:
    from ..errors import SymattnError
    from ..grading.exercises import get

    try:
        get(exercise_id, 1)
    except SymattnError:
        return False
    return True


def checker_html(e: Any) -> str:
    """The checker's markup for exercise ``e`` ("" for an exercise with nothing to check)."""
    if e.checker == "steps":
        mode, cli = "steps", f"symattn check {e.id} --steps proof.tex"
        label = "Your derivation, one step per line (LaTeX; 'A = B' starts a chain, '= C' continues it)"
        field = f'<textarea id="answer-{e.id}" class="symattn-answer" spellcheck="false" rows="8"></textarea>'
    elif e.checkable or e.checker == "formula":
        mode, cli = "answer", f"symattn check {e.id} ANSWER"
        label = (
            "Your formula for the output (LaTeX, in the number of tokens and the values; Enter checks it)"
            if e.checker == "formula"
            else "Your answer (LaTeX or a plain number; Enter checks it)"
        )
        field = (
            f'<input id="answer-{e.id}" class="symattn-answer" type="text" autocomplete="off" '
            'spellcheck="false" autocapitalize="off">'
        )
    else:
        return ""
    expected = e.expected.latex() if e.expected is not None else ""
    variant = (
        '<button type="button" class="symattn-variant">New numbers</button>' if _has_variants(e.id) else ""
    )
    attrs = (
        f'data-exercise="{e.id}" data-mode="{mode}" data-cli="{html.escape(cli)}" '
        f'data-expected="{html.escape(expected)}"'
    )
    return "\n".join(
        [
            f'<div class="symattn-checker" {attrs}>',
            '<p class="symattn-status" role="status">The checker loads when this page opens '
            f"(it needs JavaScript); on the command line: <code>{html.escape(cli)}</code></p>",
            '<div class="symattn-variant-prompt" aria-live="polite"></div>',
            f'<label for="answer-{e.id}">{html.escape(label)}</label>',
            help_html(mode),
            field,
            '<div class="symattn-preview" aria-hidden="true" tabindex="-1"></div>',
            f'<button type="button" class="symattn-check">Check</button>{variant}'
            '<button type="button" class="symattn-clear">Clear my work</button>',
            '<div class="symattn-result" aria-live="polite" aria-atomic="true"></div>',
            "</div>",
        ]
    )


#: The short help beside an answer field: forms the checker reads, each example an answer it
#: reads (tests/present/test_site_pages.py checks every one with ``symattn check``).
ANSWER_HELP = (
    ("A number as you would write it", ("1.96", "1,96", "49/25")),
    ("LaTeX", (r"\frac{e^2+11}{e^2+2}", r"\sqrt{3.836}", "e^{2}", "N > 8192")),
    ("A matrix", (r"\begin{bmatrix}0 & -\infty\\ 0 & 0\end{bmatrix}",)),
    ("Symbols typed as they look", ("√3.836", "2·0.98", "2×0.98", "1.4²", "N ≥ 8193", "−∞")),
)
#: The same for a derivation, one step per line.
STEPS_HELP = (
    ("A chain: 'A = B' starts it, '= C' on the next line continues it", ("x = y", "= z")),
    ("LaTeX as in the module", (r"\operatorname{Var}(z)", r"\sum_{i=1}^{d_k}", r"\frac{1}{d_k}", "W^\\top")),
    ("A line starting with % is a comment", ("% rule 4",)),
)


def help_html(mode: str) -> str:
    """The help beside the field: how to type an answer (or a derivation) the checker reads."""
    rows = ANSWER_HELP if mode == "answer" else STEPS_HELP
    items = "".join(
        f"<li>{html.escape(what)}: " + ", ".join(f"<code>{html.escape(x)}</code>" for x in examples) + "</li>"
        for what, examples in rows
    )
    summary = "How to type an answer" if mode == "answer" else "How to type a derivation"
    return (
        f'<details class="symattn-help"><summary>{summary}</summary><ul>{items}</ul>'
        '<p>Every form the checker reads: <a href="../../input-forms/">The forms answers come in</a>.</p>'
        "</details>"
    )


def _box(summary: str, body: str) -> list[str]:
    """A collapsible box whose content is Markdown (md_in_html): math and tables render."""
    return [f'<details markdown="1"><summary>{summary}</summary>', "", body.strip("\n"), "", "</details>", ""]


def earned(exercise_id: str, body: list[str]) -> list[str]:
    """``body`` (the answer, the model solution) kept from view until the learner has tried the
    exercise, or asks for it and confirms (the page's script; the site's configuration can show
    it always), with the button that asks. Without JavaScript it is shown."""
    return [
        "<noscript><style>.symattn-earned { display: block !important; }</style></noscript>",
        f'<p class="symattn-gate" data-exercise="{exercise_id}" hidden>'
        '<button type="button" class="symattn-reveal">Show the answer and the model solution</button></p>',
        "",
        f'<div class="symattn-earned" data-exercise="{exercise_id}" markdown="1">',
        "",
        *body,
        "",
        "</div>",
        "",
    ]


def hint_box(e: Any) -> list[str]:
    """The exercise's hint, which the page's script shows after two attempts not correct."""
    if not e.hint:
        return []
    opening = f'<div class="symattn-hint" data-exercise="{e.id}" hidden markdown="1">'
    return [opening, "", f"**Hint.** {e.hint}", "", "</div>", ""]


def exercise_page(e: Any, derivation_markdown: str | None, worked: str | None = None) -> str:
    """``docs/exercises/ID.md``: the prompt, the checker, and the boxes (``worked``: a proof
    exercise's two derivations as judged, :func:`~symattn.present.learner_render.worked_markdown`)."""
    out = [f"# {e.id}: {e.title}", "", f"*An exercise of the attention module ({e.kind}).*", "", e.prompt, ""]
    widget = checker_html(e)
    if e.checker == "formula":  # the names the formula is written in, typeset (a label cannot be)
        out += [r"Write the output with $N$ tokens whose values are $v_1, \dots, v_N$ ($v_j$ in a sum).", ""]
    if widget:
        out += [widget, "", *hint_box(e)]
    else:
        out += ["*No machine-checkable answer: compare yours with the model solution below.*", ""]
    start = len(out)
    if e.checkable:
        shown = e.expected.tolerance_text()
        within = "exactly" if shown == "0" else f"within {shown}"
        answer = [f"Checked {within}: ${e.expected.latex()}$"]
        if e.mistakes:
            answer += ["", "Recognised mistakes:", ""]
            answer += [f"- `{m.code}`: {m.feedback}" for m in e.mistakes]
        out += _box("The answer", "\n".join(answer))
    if worked is not None:
        out += _box("Two derivations, checked step by step", worked)
    out += _box("Model solution", e.solution_text)
    if derivation_markdown is not None:
        body = "\n".join(("##" + ln) if ln.startswith("#") else ln for ln in derivation_markdown.splitlines())
        out += _box("The checked derivation", body)
    if widget:  # an exercise the page checks: its answer is earned
        out[start:] = earned(e.id, out[start:])
    return "\n".join(out)


def embed_page() -> str:
    """The authors' page: the checker's API and links, for pages of their own."""
    return "\n".join(
        [
            "# Embed the checker",
            "",
            "Every exercise page (`exercises/ID/`) checks answers in the reader's own browser: "
            "Pyodide (CPython compiled to WebAssembly, from npm, pinned in `package-lock.json`) "
            "runs symattn's own judge in a Web Worker. The worker does not start Python: it "
            "restores the memory the site build saved (`checker/python.snapshot`), with SymPy, "
            "mpmath, the LaTeX reader and symattn imported. The site is static files: it works "
            "served by `python -m http.server` or any static host, and offline once loaded; a host "
            "that sends the compressed forms the build writes beside the large files (`.br`, "
            "`.gz`) moves a quarter of the bytes (see *The checker in the browser*). Nothing the "
            "reader types leaves the browser.",
            "",
            "## Links that check",
            "",
            "- `exercises/ID/#answer=LATEX` fills the answer field with the percent-encoded LaTeX "
            "and checks it when the page has loaded: "
            "[`exercises/ex6.5/#answer=N%20%3E%208192`](exercises/ex6.5.md#answer=N%20%3E%208192).",
            "- `&seed=S` after it checks against the variant of seed S, the variant "
            "`symattn exercises variant ID --seed S` prints.",
            "- `exercises/ID/#steps=TEXT` does the same for a derivation checked step by step "
            "(ex6.3, ex6.7): the lines percent-encoded, `%0A` between them.",
            "",
            'Once judged, the result element (`.symattn-result`) carries `data-verdict="correct"`, '
            '`"incorrect"`, `"invalid"` or `"unchecked"` (out of time: try again), and it is an '
            "`aria-live` region, so a screen reader "
            "announces the verdict.",
            "",
            "## The API",
            "",
            "On every exercise page, `window.symattn` offers:",
            "",
            "| call | resolves to |",
            "| --- | --- |",
            "| `await symattn.check(id, answer, {seed})` | the object `symattn check ID ANSWER "
            "[--seed S] --json` prints |",
            "| `await symattn.checkSteps(id, text)` | the object `symattn check ID --steps FILE "
            "--json` prints |",
            "| `await symattn.variant(id, seed)` | the variant's text (as `symattn exercises variant` "
            "prints it), prompt and expected answer |",
            "| `await symattn.ready()` | resolves once the checker has loaded (rejects if it cannot) |",
            "",
            "An input the command line refuses before judging it (an unknown exercise, a seed for an "
            "exercise without variants) resolves to `{error, exit_code}`: the command's one-line "
            "message and its exit code. An answer still being checked after "
            f"`symattn.timeoutSeconds` ({BROWSER_SECONDS} s; a derivation gets that for each line, at "
            f"most `symattn.derivationTimeoutSeconds`, {BROWSER_DERIVATION_SECONDS} s) "
            "is stopped: the worker is terminated, a spare kept warm takes over, and the call resolves to "
            'verdict `"unchecked"` with the feedback "the checker ran out of time on this machine: '
            'try again" (a safety net: what an answer may ask for is bounded by its text). Calls '
            "run one at a time, in order. `symattn.loadTimeoutSeconds` (120 s) bounds the loading; "
            "all three may be set on `window.symattn` before the page's scripts run.",
            "",
            "```js",
            'const r = await symattn.check("ex6.2", String.raw`\\frac{e^2+11}{e^2+2}`);',
            'r.verdict   // "correct"',
            "r.given_latex   // what was read, as LaTeX",
            "```",
            "",
        ]
    )
