"""``symattn build``: the documentation, generated from the code.

:func:`generate` runs every derivation and its checks, the labs at their default seeded
sizes, and the exercises with their solutions, and returns every file of ``docs/`` as bytes.
:func:`write` puts them on disk; :func:`compare` lists the files that differ from a folder.
The audit page reads the course module that ``[tool.symattn] module`` in pyproject.toml names;
where that file is absent the page is a placeholder, which neither replaces nor is compared with
the docs/audit.md already there.
Nothing here reads the clock: the same code gives the same bytes.
"""

from __future__ import annotations

import re
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from ..proof.engine import METHODS

#: Runs of the labs in the docs (seeded).
VARIANCE_RUN = {"widths": [32, 64, 128, 256], "draws": 200_000, "seed": 0, "method": "direct"}
SATURATION_RUN = {
    "trials": 500,
    "width": 128,
    "keys": 64,
    "threshold": 0.99,
    "seed": 0,
    "method": "direct",
}
LARGE_RUN = {
    "trials": 1_000_000,
    "width": 128,
    "keys": 64,
    "threshold": 0.99,
    "seed": 1,
    "method": "reduced",
}
MODULE_SHARE = (175, 500)  # the module's 35 % of 500 trials

KATEX_INIT = """\
// Renders the math that pymdownx.arithmatex marks up.
document$.subscribe(() => {
  renderMathInElement(document.body, {
    delimiters: [
      { left: "\\\\(", right: "\\\\)", display: false },
      { left: "\\\\[", right: "\\\\]", display: true },
    ],
    throwOnError: false,
  });
});
"""


@dataclass
class BuildResult:
    files: dict[str, bytes]
    summary: str
    ok: bool
    #: Pages whose source is absent (the course module): written only where docs/ has none, never
    #: compared, with ``missing`` saying in one line what is absent and how to produce it.
    placeholders: dict[str, bytes] = field(default_factory=dict)
    missing: str | None = None


def generate(progress: Callable[[str], None] = lambda _: None) -> BuildResult:
    """Every file of docs/, keyed by its path relative to docs/."""
    import derivations

    from ..present import proof_render
    from ..proof.engine import default_jobs
    from .verify import verify_all

    files: dict[str, str | bytes] = {}
    progress("auditing the module")  # first: a malformed setting fails before the long work
    audit_files, placeholders, missing = _audit_files()
    files.update(audit_files)
    progress("auditing the public texts")
    texts = _texts_page()
    if texts is not None:
        files["audit-texts.md"] = texts
    progress("verifying the derivations")
    reports: dict = {}
    summary, ok = verify_all(list(derivations.NAMES), progress=progress, reports=reports, jobs=default_jobs())
    for name, (d, report) in reports.items():
        files[f"derivations/{name}.md"] = proof_render.to_markdown(d, report, stable=True)
    files["latex/derivations.tex"] = _latex_document(reports)
    progress("working the example")
    files["worked-example.md"] = _worked_example()
    progress("exercises")
    solved, worked = _solutions(reports), _worked_checks()
    files["exercises.md"] = _exercises_page(solved, worked)
    files.update(_exercise_pages(solved, worked))
    progress("labs")
    lab_page, figures = _labs_page()
    files["labs.md"] = lab_page
    files.update(figures)
    progress("the pages for authors")
    from .author_pages import derivation_page, exercise_page

    files["write-a-derivation.md"] = derivation_page()
    files["add-an-exercise.md"] = exercise_page()
    progress("planting errors in the derivations")
    files["index.md"] = _index(reports, _mutation_counts())
    files["javascripts/katex-init.js"] = KATEX_INIT
    from ..present.exercise_pages import embed_page, web_files

    files["embed-the-checker.md"] = embed_page()
    from ..present.input_forms import input_forms_page

    files["input-forms.md"] = input_forms_page()
    files.update(web_files())
    files.update(guide_pages({n: reports[n] for n in derivations.NAMES if n in reports}))
    from ..present.provenance import stamped

    encoded = {k: stamped(k, v.encode() if isinstance(v, str) else v) for k, v in sorted(files.items())}
    placeholders = {k: stamped(k, v) for k, v in placeholders.items()}
    return BuildResult(encoded, summary, ok, placeholders, missing)


def site_nav() -> dict[str, list[dict[str, str]]]:
    """The site menu's sections made from registries (``docs_hooks.py`` puts them in place of
    mkdocs.yml's empty ones): each derivation under its title (its math as Unicode: a menu
    entry is not typeset), in the registry's order; the exercises' overview, then each
    exercise's page; the guide's pages (:data:`GUIDE_PAGES`)."""
    import derivations

    from ..grading.exercises import EXERCISES
    from ..unicode_text import words

    return {
        "Derivations": [{words(derivations.title(n)): f"derivations/{n}.md"} for n in derivations.NAMES],
        "Exercises": [{"All exercises": "exercises.md"}, *({e: f"exercises/{e}.md"} for e in EXERCISES)],
        "Guide": [{title: f"guide/{name}"} for name, title in GUIDE_PAGES.items()],
    }


#: The guide: one page per command, written by hand in symattn/present/guide/ and copied into
#: docs/guide/ (the README is the short tour that links to it), in the menu's order, with the
#: title the menu gives it.
GUIDE = Path(__file__).parents[1] / "present" / "guide"
GUIDE_PAGES = {
    "attention-command.md": "The attention command",
    "derivations.md": "Checked derivations",
    "exercises.md": "Exercises and the checker",
    "grading.md": "Grading a class",
    "auditing.md": "Auditing a module",
    "labs.md": "The labs",
    "agreement.md": "Agreement and benchmarks",
    "extending.md": "Extending symattn",
    "python-api.md": "From Python",
    "layout.md": "Layout",
    "development.md": "Development",
}


def guide_pages(reports: dict | None = None) -> dict[str, str]:
    """The guide's pages under ``guide/``, as written in ``symattn/present/guide/``, with each
    marker replaced by what is stated where it is set (never copied into prose):
    ``<!-- measures:KIND -->`` by the table :mod:`symattn.grading.measures` makes,
    ``<!-- masks -->`` by the table of mask kinds :mod:`symattn.core.masks` defines,
    ``<!-- derivations -->`` by the list of the registry's derivations, and ``<!-- verify -->``
    by the verify table of ``reports`` (name -> (derivation, report), as the build verified
    them; without reports the marker stays)."""
    import derivations

    from ..core.masks import kinds_table
    from ..grading.measures import table
    from ..present.verify_table import untimed_table

    listed = "\n".join(
        f"- [`{name}`](../derivations/{name}.md): {derivations.summary(name)}" for name in derivations.NAMES
    )
    verified = f"```text\n{untimed_table(reports)}```" if reports else "<!-- verify -->"

    def fill(text: str) -> str:
        text = text.replace("<!-- masks -->", kinds_table(markdown=True))
        text = text.replace("<!-- derivations -->", listed).replace("<!-- verify -->", verified)
        return re.sub(r"<!-- measures:(\w+) -->", lambda m: table(m.group(1)), text)

    return {f"guide/{name}": fill((GUIDE / name).read_text(encoding="utf-8")) for name in GUIDE_PAGES}


def write(files: dict[str, bytes], out: Path, placeholders: dict[str, bytes] | None = None) -> list[str]:
    """Write ``files`` under ``out``, and each placeholder only where ``out`` has no such file;
    return the placeholders written."""
    for rel, data in files.items():
        path = out / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    written = []
    for rel, data in (placeholders or {}).items():
        path = out / rel
        if not path.is_file():
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
            written.append(rel)
    return written


#: Files in docs/ that another command writes (timings differ from run to run, so they are
#: not part of the build and not compared): bench/report.py, bench/peers_answers.py, bench/readers.py,
#: bench/browser_checker.py.
WRITTEN_ELSEWHERE = {"benchmarks.md", "answer-peers.md", "readers.md", "browser-checker.md"}


def compare(files: dict[str, bytes], out: Path, placeholders: dict[str, bytes] | None = None) -> list[str]:
    """Paths (relative to ``out``) that are missing, different or not generated. A placeholder
    (a page whose source is absent) is only looked for: whatever ``out`` holds there stands."""
    placeholders = placeholders or {}
    differ = [
        rel for rel, data in files.items() if not (out / rel).is_file() or (out / rel).read_bytes() != data
    ] + [rel for rel in placeholders if not (out / rel).is_file()]
    present = (
        {p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()} if out.is_dir() else set()
    )
    extra = sorted(present - set(files) - set(placeholders) - WRITTEN_ELSEWHERE)
    return sorted(differ) + [f"{rel} (not generated)" for rel in extra]


# -- pages ----------------------------------------------------------------------------------
def _mutation_counts() -> tuple[int, int]:
    """(planted, caught): every planted error of the built-in derivations (derivations.mutations'
    catalogue), planted and verified (the verifying shared among as many forked workers as there
    are CPUs)."""
    import derivations
    from derivations.mutations import catalogue, expected, run_all

    from ..proof.engine import default_jobs

    planted = catalogue(derivations.NAMES)
    ran = run_all(planted, default_jobs())
    caught = sum(got == str(expected(m)) for m, (got, _) in zip(planted, ran, strict=True))
    return len(planted), caught


def _index(reports: dict, mutations: tuple[int, int]) -> str:
    import derivations

    # Four columns, so the table fits the text column at 1280 pixels: the methods that proved
    # no step of a derivation are left out of its row.
    rows = ["| derivation | steps | proved by | result |", "|---|---|---|---|"]
    for name, (_, r) in reports.items():
        methods = ", ".join(f"{r.count(m)} *{m}*" for m in METHODS if r.count(m))
        checks = f"{sum(c.ok for c in r.checks)} of {len(r.checks)} checks"
        rows.append(
            f"| [{derivations.title(name)}](derivations/{name}.md) | {len(r.steps)} | {methods} | "
            f"{'verified' if r.ok else '**FAILED**'}, {checks} |"
        )
    return "\n".join(
        [
            "# symattn",
            "",
            "The mathematics of attention, made executable: every number exact or certified, every "
            "proof step machine-checked. These pages are generated by `symattn build` from the code, "
            "but for the guide's prose, which the build copies as written.",
            "",
            "$$",
            r"\operatorname{Attention}(Q, K, V) = \operatorname{softmax}\left(\frac{QK^\top}{\sqrt{d_k}}"
            r" + M\right) V",
            "$$",
            "",
            "- [The two-token example, worked exactly](worked-example.md)",
            "- [Exercises with checked answers and solutions](exercises.md)",
            "- [Labs: the measured results, with confidence intervals](labs.md)",
            "- [The module audit: every numeric claim certified or flagged](audit.md), and "
            "[the audit measured on public texts](audit-texts.md)",
            "- [The guide](guide/attention-command.md): every command, its options and what it checks",
            "- [Benchmarks](benchmarks.md), written by `python bench/report.py`",
            "- For course authors: [write a derivation](write-a-derivation.md) and "
            "[add an exercise](add-an-exercise.md) for another module, without editing symattn",
            "- The derivations, below; all of them as one LaTeX document in `latex/derivations.tex`.",
            "",
            "## Derivations",
            "",
            *rows,
            "",
            "Each step declares how it is proved, and fails if that method fails. *symbolic*: SymPy "
            "proved its two sides equal for general symbols and sizes (E and Var reduced by checked "
            "rules). *at sizes*: a named lemma SymPy cannot prove in general; the step's own sides "
            "were proved equal at each listed size (the sizes are printed with the step). "
            "*definition*: a name introduced, its definition substituted and the result proved. "
            "*certified*: a stated figure is the correctly rounded value, or a counterexample is "
            "certified to differ. *numeric*: checked at random points alone (no derivation has one).",
            "",
            "## Planted errors",
            "",
            "Every formula of a page is what was checked: the math in each theorem, assumption, "
            "heading and rule is read by symattn's own reader and each relation it states is a "
            "claim, a step or a premise of the proof, or is proved on the spot; every printed "
            "side is read back and compared with the object printed.",
            "",
            f"To show the checks can fail, {mutations[0]} mathematical errors are planted one at a time "
            f"in copies of the derivations (each derivation's own, gathered by "
            f"`derivations/mutations.py`): wrong right-hand sides, false "
            f"lemma bodies, misrounded figures, theorems claiming more than their proofs, a side "
            f"shown that is not the side checked, constants off by $10^{{-20}}$, a theorem or a rule "
            f"stating what the proof does not, a printer that drops a transpose. Caught where they "
            f"were planted: "
            f"**{mutations[1]} of {mutations[0]}**.",
            "",
        ]
    )


def _worked_example() -> str:
    from ..core.exact import attention
    from ..core.inputs import EXAMPLE, parse_matrix
    from ..present.render import to_markdown

    q, k, v = (parse_matrix(EXAMPLE[n]) for n in ("q", "k", "v"))
    causal = to_markdown(attention(q, k, v, "causal"), 6).replace(
        "## Attention, step by step", "## With the causal mask"
    )
    plain = to_markdown(attention(q, k, v), 6).replace("## Attention, step by step", "## Without the mask")
    return "\n".join(
        [
            "# The two-token example, worked exactly",
            "",
            "Two tokens with queries $[3, -3]$, $[1, 1]$, keys $[-3, 3]$, $[1, 1]$ and values "
            "$[0, -1]$, $[1, 2]$ ($d_k = 2$). Every entry is an exact closed form; the decimals are "
            "correctly rounded to 6 significant digits. Reproduce with "
            "`symattn attention --example --mask causal`.",
            "",
            causal,
            plain,
        ]
    )


def _solutions(reports: dict) -> dict[str, str | None]:
    """Each exercise's checked derivation as Markdown (None for an exercise without one),
    verified once for the overview and the exercise's page; a solution that is one of the
    derivations reuses its report."""
    from ..grading.exercises import EXERCISES
    from ..present.proof_render import to_markdown

    solved: dict[str, str | None] = {}
    for e in EXERCISES.values():
        if isinstance(e.solution, str) and e.solution in reports:
            d, report = reports[e.solution]  # verified above; not again
        else:
            d = e.derivation()
            report = d.verify() if d is not None else None
        solved[e.id] = to_markdown(d, report, stable=True) if d is not None else None
    return solved


def _worked_checks() -> dict[str, str]:
    """:func:`worked_checks` of every proof exercise, judged once for the overview and its page."""
    from ..grading.exercises import EXERCISES

    return {e.id: worked_checks(e.id) for e in EXERCISES.values() if e.checker == "steps"}


def _exercises_page(solved: dict[str, str | None], worked: dict[str, str]) -> str:
    """The exercises, each with its worked checks (``worked``) and checked derivation (``solved``)."""
    from ..grading.exercises import EXERCISES

    out = [
        "# Exercises",
        "",
        "Each exercise has a page of its own that checks your answer in your browser; on the "
        "command line, `symattn check ID ANSWER` (LaTeX or a plain number).",
        "",
    ]
    from ..present.exercise_pages import earned

    for e in EXERCISES.values():
        out += [f"## {e.id} ({e.kind}): {e.title}", "", e.prompt, ""]
        if e.checkable or e.checker:
            out += [f"[Try it on its page, checked in your browser](exercises/{e.id}.md)", ""]
            out += [f'<p class="symattn-progress" data-exercise="{e.id}"></p>', ""]
        else:
            out += [f"[Its page](exercises/{e.id}.md)", ""]
        start = len(out)
        if e.checkable:
            shown = e.expected.tolerance_text()
            within = "exactly" if shown == "0" else f"within {shown}"
            out += [f"**Answer** (checked {within}): ${e.expected.latex()}$", ""]
            if e.mistakes:
                out += ["Recognised mistakes:", ""]
                out += [f"- `{m.code}`: {m.feedback}" for m in e.mistakes]
                out.append("")
        elif not e.checker:  # a derivation or a formula is checked: said just below
            out += ["*No machine-checkable answer: compare yours with the model solution.*", ""]
        if e.checker == "steps":
            out += [worked[e.id], ""]
        elif e.checker == "formula":
            out += [_formula_note(e.id), ""]
        out += [f"**Model solution.** {e.solution_text}", ""]
        if (body := solved[e.id]) is not None:
            body = "\n".join(("##" + line) if line.startswith("#") else line for line in body.splitlines())
            out += [
                '<details markdown="1"><summary>The checked derivation</summary>',
                "",
                body,
                "",
                "</details>",
                "",
            ]
        if e.checkable or e.checker:  # checked on its page: the answer is earned here too
            out[start:] = earned(e.id, out[start:])
    return "\n".join(out)


def _exercise_pages(solved: dict[str, str | None], worked: dict[str, str]) -> dict[str, str]:
    """docs/exercises/ID.md for every exercise, each with its checked derivation."""
    from ..grading.exercises import EXERCISES
    from ..present.exercise_pages import exercise_page

    return {
        f"exercises/{e.id}.md": exercise_page(e, solved[e.id], worked.get(e.id)) for e in EXERCISES.values()
    }


def worked_checks(exercise_id: str) -> str:
    """A proof exercise's two worked derivations (a correct one and one with a slip), judged."""
    from ..grading.proofs.examples import EXAMPLES
    from ..grading.proofs.proof_judge import check_derivation
    from ..present.learner_render import worked_markdown

    checked = []
    for kind, title in (("correct", "A correct derivation"), ("wrong", "A derivation with a slip")):
        text = EXAMPLES[exercise_id][kind]
        checked.append((title, text, check_derivation(exercise_id, text, isolate=False)))  # our own text
    return worked_markdown(exercise_id, checked)


def _formula_note(exercise_id: str) -> str:
    """How ex6.6's formula part is checked (the 'why' part stays a model solution)."""
    from ..grading.answers.formula import EXPECTED_LATEX

    return (
        f"**Formula checked.** `symattn check {exercise_id} ANSWER` proves an answer equal to "
        f"${EXPECTED_LATEX}$ for every $N$, in any equivalent form; the sum without $1/N$, one "
        "weight, or one value is named as a slip."
    )


def _labs_page() -> tuple[str, dict[str, bytes]]:
    from ..labs.intervals import wilson
    from ..labs.simulation import Share, saturation_lab, variance_lab
    from ..present.lab_render import outward, percent_texts, saturation_markdown, variance_markdown

    v = variance_lab(progress=True, **VARIANCE_RUN)
    s = saturation_lab(progress=True, **SATURATION_RUN)
    big = saturation_lab(progress=True, **LARGE_RUN)
    module = Share(MODULE_SHARE[0] / MODULE_SHARE[1], wilson(*MODULE_SHARE), MODULE_SHARE[0], None, None)
    figures = _figures()
    mod_share, mod_lo, mod_hi = percent_texts(module)
    est, est_lo, est_hi = percent_texts(big.unscaled)
    lo, hi = big.unscaled.ci
    if module.ci[0] <= lo and hi <= module.ci[1]:
        verdict = "contains the whole interval of the large run: the module's figure is consistent with it."
    elif module.ci[0] <= hi and lo <= module.ci[1]:
        verdict = "overlaps the interval of the large run: the module's figure is consistent with it."
    else:
        verdict = (
            "does not meet the interval of the large run: the module's figure is not consistent with it."
        )
    scaled_hi = percent_texts(big.scaled)[2]
    ratio_lo, ratio_hi = outward(min(r.ratio_ci[0] for r in v), max(r.ratio_ci[1] for r in v), 4)

    page = "\n".join(
        [
            "# Labs",
            "",
            "The module's section 6.3 measurements, reproduced by simulation with 95 % intervals. "
            "All runs are seeded; regenerate with `symattn build`. Intervals are printed rounded "
            "outward, so a printed interval always contains the computed one.",
            "",
            "## Variance of the scores",
            "",
            f"`symattn lab variance --draws {VARIANCE_RUN['draws']} --seed {VARIANCE_RUN['seed']}`: "
            r"entries of $q$ and $k$ independent $\mathcal{N}(0, 1)$. The ratio "
            r"$\operatorname{Var}(q \cdot k)/d_k$, which is also the variance of the scaled scores "
            r"$q \cdot k/\sqrt{d_k}$, should be 1 at every width (the module "
            "measured 0.9987, 1.0040, 1.0029 and 1.0038 for the scaled scores).",
            "",
            variance_markdown(v),
            "The interval is a chi-square interval whose degrees of freedom are matched to the "
            "sample kurtosis: a sample variance is skewed, and scores are heavy-tailed (kurtosis "
            "$3 + 6/d_k$), so it is longer above the estimate than below and never below 0. Over "
            "10,000 seeds at the fewest draws the lab allows (1,000) it covers 1 in 93-97 % of "
            "runs at each width tested, $d_k = 1$ (the heaviest tail), 4, 32 and 1,024, with misses "
            "on both sides (`tests/labs/test_intervals.py`). All four intervals here lie within "
            f"[{ratio_lo}, {ratio_hi}].",
            "",
            "![Histograms of raw and scaled scores](figures/score-histograms.svg)",
            "",
            "## Softmax saturation",
            "",
            f"`symattn lab saturation --trials {SATURATION_RUN['trials']} --seed "
            f"{SATURATION_RUN['seed']}`: $d_k = 128$, 64 keys, the share of trials whose largest "
            r"weight exceeds 0.99 (Wilson intervals), and the mean of $p_{\max}(1 - p_{\max})$ in those "
            "trials (normal-approximation intervals).",
            "",
            saturation_markdown(s),
            f"`symattn lab saturation --trials {LARGE_RUN['trials']} --method "
            f"{LARGE_RUN['method']} --seed {LARGE_RUN['seed']}`:",
            "",
            saturation_markdown(big),
            f"This is an estimate too: {est} % of {big.trials:,} trials, with the 95 % interval "
            f"{est_lo} % to {est_hi} %. No scaled trial saturated; the interval bounds their share "
            f"by {scaled_hi} %. The module's {mod_share} % from {MODULE_SHARE[1]} trials has the "
            f"Wilson interval {mod_lo} % to {mod_hi} %, which " + verdict,
            "",
            "![Saturated share against the width d_k](figures/saturation.svg)",
            "",
        ]
    )
    return page, figures


#: The checkout whose pyproject.toml names the course module the audit page reads.
PROJECT = Path(__file__).resolve().parents[2]
#: Where the author names that module: a path relative to the folder holding pyproject.toml.
MODULE_SETTING = "[tool.symattn] module"
_TOML_KINDS = {bool: "a boolean", int: "an integer", float: "a number", list: "an array", dict: "a table"}


def module_setting(project: Path | None = None) -> str | None:
    """``[tool.symattn] module`` in ``project``'s pyproject.toml as written; None where unset.

    Raises :class:`~symattn.errors.ConfigError` (one line) when pyproject.toml is not TOML or
    the setting is not a path."""
    import tomllib

    from ..errors import ConfigError

    pyproject = (project or PROJECT) / "pyproject.toml"
    try:
        raw = pyproject.read_bytes()
    except FileNotFoundError:
        return None  # an installed copy, with no project around it
    except OSError as exc:
        raise ConfigError(f"cannot read {pyproject}: {exc.strerror or exc}") from None
    try:
        tool = tomllib.loads(raw.decode("utf-8")).get("tool", {})
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"{pyproject} is not valid TOML: {str(exc).splitlines()[0]}") from None
    table = tool.get("symattn") if isinstance(tool, dict) else None
    if table is None:
        return None
    if not isinstance(table, dict):
        raise ConfigError(f"{pyproject}: [tool.symattn] must be a table, not {_toml_kind(table)}")
    value = table.get("module")
    if value is None:
        return None
    if not isinstance(value, str) or not value.strip() or "\0" in value:
        raise ConfigError(
            f"{pyproject}: {MODULE_SETTING} must be the path of the module's text, relative to "
            f"pyproject.toml's folder (a non-empty string), not {_toml_kind(value)}"
        )
    return value


def _toml_kind(value: object) -> str:
    if isinstance(value, str):
        return "an empty string" if not value.strip() else "a string with a NUL character"
    return next((name for kind, name in _TOML_KINDS.items() if isinstance(value, kind)), "a date or time")


def find_module(project: Path | None = None) -> Path | None:
    """The course module ``[tool.symattn] module`` names, if that file is there (else None)."""
    return _module_path(project, module_setting(project))


def _module_path(project: Path | None, setting: str | None) -> Path | None:
    """The file ``setting`` names, relative to the project, if it is there (else None)."""
    if setting is None:
        return None
    from ..errors import ConfigError

    path = (project or PROJECT) / setting
    if path.exists() and not path.is_file():  # a folder or a device is a wrong setting, not absent
        raise ConfigError(f"{MODULE_SETTING} in pyproject.toml names {setting!r}, which is not a file")
    return path if path.is_file() else None


#: The public texts the audit is measured on, each with its reader's list (tests/data/texts/).
TEXTS = PROJECT / "tests" / "data" / "texts"


def _texts_page(folder: Path = TEXTS) -> str | None:
    """The audit measured on the public texts; None in a copy without them (an installed one)."""
    if not folder.is_dir():
        return None
    from ..grading.audit.corpus import load, measure
    from ..present.audit_render import corpus_markdown

    return corpus_markdown([measure(t) for t in load(folder)])


def _audit_files(project: Path | None = None) -> tuple[dict[str, str], dict[str, bytes], str | None]:
    """(generated files, placeholders, what is missing): audit.md is generated from the course
    module when it is there, and is a placeholder (kept where docs/ has one) when it is not."""
    page, missing = _audit_page(project)
    if missing is None:
        return {"audit.md": page}, {}, None
    return {}, {"audit.md": page.encode()}, missing


def _audit_page(project: Path | None = None) -> tuple[str, str | None]:
    """(the audit page, None); or, when the course module is absent, (a short page saying how
    to produce it, the same in one line)."""
    from ..errors import ConfigError
    from ..grading.audit.keys import audit_module
    from ..present.audit_render import audit_markdown

    setting = module_setting(project)  # pyproject.toml read once
    path = _module_path(project, setting)
    if setting is None:
        missing = (
            'no course module is set: add `module = "PATH"` under `[tool.symattn]` in pyproject.toml, '
            "PATH being the module's text relative to that file's folder, and run `symattn build`"
        )
    elif path is None:
        missing = (
            f"the course module `{setting}` is absent: put the module's text there, or set "
            f"`{MODULE_SETTING}` in pyproject.toml to its path (relative to that file's folder), and "
            "run `symattn build`"
        )
    else:
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            raise ConfigError(f"cannot read {path} ({MODULE_SETTING}): not UTF-8 text") from None
        origin = (
            f"This page audits `{setting}`, the file `{MODULE_SETTING}` names in pyproject.toml (a path "
            "relative to that file's folder); `symattn build` regenerates it from that file, and a "
            "checkout without the file keeps this page as it is."
        )
        return audit_markdown(audit_module(text), setting, origin), None
    return f"# The module audit\n\nNo audit table: {missing[0].lower()}{missing[1:]}.\n", missing


def _figures() -> dict[str, bytes]:
    from ..labs.figures import saturation_curve, score_histograms

    with tempfile.TemporaryDirectory() as tmp:
        a = score_histograms(Path(tmp) / "h.svg", seed=0)
        b = saturation_curve(Path(tmp) / "s.svg", seed=0)
        return {
            "figures/score-histograms.svg": a.read_bytes(),
            "figures/saturation.svg": b.read_bytes(),
        }


def _latex_document(reports: dict) -> str:
    from ..present.proof_render import to_latex

    parts = [
        r"\documentclass[10pt]{article}",
        r"\usepackage{amsmath,amssymb}",
        r"\usepackage[margin=1.5cm,landscape]{geometry}",
        r"\title{The mathematics of attention, checked by symattn}",
        r"\date{}",
        r"\begin{document}",
        r"\maketitle",
        r"Every step below was checked when this document was generated, as the bracket beside it",
        r"says: \emph{symbolic} means SymPy proved it; \emph{at sizes} that its two sides were proved",
        r"equal at each size listed, with a named lemma; \emph{definition} that a name was substituted;",
        r"\emph{certified digits} that a stated figure is the correctly rounded value. Each step is",
        r"numbered as in the pages of the site.",
        "",
    ]
    for d, report in reports.values():
        parts.append(to_latex(d, report))
    parts.append(r"\end{document}")
    return "\n".join(parts) + "\n"
