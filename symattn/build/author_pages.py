"""The two pages for course authors, "Write a derivation" and "Add an exercise" (``symattn build``).

Their code is not written here: each page shows a module of ``tests/example_plugin/`` whole, as
``tests/grading/test_extend.py`` imports, registers and runs it, and every output on the page is
computed by registering that module and calling what the command would call. A change to the
proof engine or the exercise API that breaks the example breaks the tests; one that changes its
output changes the page, which ``symattn build --check`` then reports.
"""

from __future__ import annotations

from pathlib import Path

#: The example's folder, relative to the checkout (as the pages' commands write it).
EXAMPLE_DIR = "tests/example_plugin"
DERIVATION_FILE = "layer_norm.py"
EXERCISE_FILE = "layer_norm_exercise.py"

#: The entry points a package holding the example would declare (tests/grading/test_extend.py installs
#: exactly these, from a dist-info folder, to test registration by entry point).
ENTRY_POINTS = {
    "symattn.derivations": {"layer_norm": "layer_norm"},
    "symattn.exercises": {"ln": "layer_norm_exercise"},
}


def example_folder() -> Path:
    """``tests/example_plugin`` of the source checkout this module runs from, or of the one the
    command runs in (symattn installed with ``pip install .``, not in editable mode)."""
    from ..errors import SymattnError

    here = Path.cwd().resolve()
    for parent in (*Path(__file__).resolve().parents, here, *here.parents):
        folder = parent / EXAMPLE_DIR
        if (folder / DERIVATION_FILE).is_file():
            return folder
    raise SymattnError(f"the authors' pages are built from {EXAMPLE_DIR}/ of a source checkout")


def _code(name: str) -> list[str]:
    text = (example_folder() / name).read_text(encoding="utf-8")
    return ["```python", text.rstrip("\n"), "```"]


def _registration(kind: str) -> list[str]:
    toml = ["```toml"]
    for group, entries in ENTRY_POINTS.items():
        toml.append(f'[project.entry-points."{group}"]')
        toml += [f'{name} = "{module}"' for name, module in entries.items()]
    toml.append("```")
    return [
        "## Registering it",
        "",
        f"symattn finds an author's {kind} in three places; none needs an edit to symattn.",
        "",
        "- `--plugin PATH` or `--plugin package.module` on `verify`, `derive`, `exercises`, `check`, "
        "`grade` and `audit` (repeat it for several modules);",
        "- the environment variable `SYMATTN_PLUGINS`: paths or module names, separated by `:` "
        "(`;` on Windows);",
        "- the entry-point groups `symattn.derivations` and `symattn.exercises` of an installed "
        "package, in its `pyproject.toml`:",
        "",
        *toml,
        "",
        "A plugin that cannot be used stops the command with one line on stderr and exit code 2: a "
        "missing file, an import error, a name or id already taken (by a built-in or another "
        "plugin), or a function returning the wrong type. `symattn build` documents the built-in "
        "derivations and exercises only.",
        "",
    ]


def derivation_page() -> str:
    """Markdown of "Write a derivation": the example module, its checked output, its errors."""
    import derivations
    from derivations.mutations import catalogue, outcome

    from ..grading.plugins import loaded
    from ..present.proof_render import to_latex, to_markdown

    path = f"{EXAMPLE_DIR}/{DERIVATION_FILE}"
    with loaded([str(example_folder() / DERIVATION_FILE)], entry_points=False, environment=False):
        d = derivations.load("layer_norm")
        report = d.verify()
        shown = to_markdown(d, report, stable=True)
        latex = to_latex(d, report)
        planted = [outcome(m)[1] for m in catalogue(["layer_norm"])]
        first = catalogue(["layer_norm"])[0]
        from derivations.mutations import run

        failure = run(first)[1]
    shown = "\n".join(("##" + line) if line.startswith("#") else line for line in shown.splitlines())
    return "\n".join(
        [
            "# Write a derivation",
            "",
            "A derivation in symattn is a theorem and a chain of steps. Each step states two sides, "
            "the rule that links them and the method that proves it; `verify` runs that method and "
            "nothing weaker. This page builds one for a fact outside the attention module, that layer "
            "normalisation centres and scales its input, in a module of its own that symattn never "
            "imports until you name it.",
            "",
            "## The module",
            "",
            "A derivation module defines three things: `NAME`, the name the commands use; `TITLE`; "
            "and `derivation()`, which returns a `Derivation` built with the proof engine's public "
            "API (`from symattn.proof import Derivation`). It may also define `MUTATIONS`, errors to "
            "plant in copies of the proof. The example, "
            f"`{path}`, in full:",
            "",
            *_code(DERIVATION_FILE),
            "",
            "What to notice:",
            "",
            "- **One rewrite per step.** `D.step(lhs, rhs, rule)` starts a chain and `D.then(rhs, "
            "rule)` continues it. Build sides unevaluated where SymPy would otherwise do the step for "
            "you (`sp.Mul(n, mean, evaluate=False)`, `with sp.evaluate(False)`): a step whose two "
            "sides are the same expression is refused.",
            "- **Methods.** A step is `symbolic` unless it says otherwise: SymPy must prove the sides "
            "equal for a symbolic `n`, and the claim is then confirmed at random points to 60 digits. "
            "`D.approx(expr, stated, context, digits)` checks that a figure is the correctly rounded "
            "value (`certified`).",
            "- **Claims.** `D.claim(lhs, rhs)` is what the theorem states; `verify` fails when no "
            "chain of steps establishes it, so the statement cannot say more than the proof.",
            "- **Hypotheses at random points.** `sample` fixes symbols where the theorem's "
            "hypotheses hold: here at least two entries, since a single entry has $\\sigma = 0$.",
            "- **Display.** `shown_lhs` and `shown_rhs` print $\\mu$ and $\\sigma$ in place of the "
            "long sums, which are what is checked. `D.abbreviations` says what each short name stands "
            "for, and `verify` fails a step whose shown side, written out, is not the side checked. A "
            "shown side that is a single symbol is a label, a name for the checked value.",
            "- **The words are checked too.** Every formula in `$...$` of the theorem, the "
            "assumptions, the headings and the rules is read back, and each relation it states must "
            "be a claim, a step or a value put into its step, or be proved on the spot; every sign "
            "the proof declares of a symbol (`positive=True`) must be on the page (here $n \\ge 1$). "
            "A formula that states no claim (a condition) goes in `D.unchecked` with why; an "
            "operator the prose writes goes in `D.operators` with its meaning. A property the "
            'theorem states in words ("sum to zero", "symmetric", "positive semidefinite", '
            '"of rank $n - 1$") names the claim it stands for, `D.claim(..., words="sum to")`, '
            "and that claim must have the property's form. Every printed side is read back too, so "
            "the page shows what was checked.",
            "",
            "## Checking it",
            "",
            "```sh",
            f"symattn verify layer_norm --plugin {path}",
            f"symattn derive layer_norm --plugin {path} --format latex",
            "```",
            "",
            "`verify` prints its table row (exit 0 when every step, claim and check passes, 1 "
            "otherwise); `symattn verify --plugin PATH` without names verifies the built-in "
            "derivations and the registered one. `derive` prints the checked proof as text, Markdown "
            "or LaTeX. As Markdown, as these pages show derivations:",
            "",
            shown,
            "",
            "And the LaTeX that `--format latex` prints:",
            "",
            "```latex",
            latex.rstrip("\n"),
            "```",
            "",
            "## When a step is wrong",
            "",
            "A false step fails with its number, its rule and, where the sides differ, the point "
            "where they do. With the shift left out of the mean, `verify` reports:",
            "",
            "```text",
            failure,
            "```",
            "",
            "## Planted errors",
            "",
            "A checker that cannot fail proves nothing, so each `MUTATIONS` entry is a pair "
            "`(description, plant)`: `plant` receives a fresh copy of the derivation, changes it "
            "(here with `dataclasses.replace` on one `Step`) and returns the step number (from 1), "
            '`"claim"` or `"lemma"` that must then fail. `symattn verify --mutations` plants each '
            "error of the derivations it verifies and exits 1 if one is not caught where it was "
            "planted; in Python, `derivations.mutations.catalogue()` lists the built-in planted errors "
            "with the registered ones. For the example:",
            "",
            "```text",
            f"$ symattn verify layer_norm --plugin {path} --mutations",
            "...",
            f"planted errors: {len(planted)}",
            *[f"  {line}" for line in planted],
            f"caught where planted: {len(planted)} of {len(planted)}",
            "```",
            "",
            *_registration("derivation"),
        ]
    )


def exercise_page() -> str:
    """Markdown of "Add an exercise": the example module and what the commands print for it."""
    from ..grading.answers.judge import judge
    from ..grading.exercises import get
    from ..grading.plugins import loaded
    from ..present.exercise_render import exercise_text, verdict_text

    path = f"{EXAMPLE_DIR}/{EXERCISE_FILE}"
    answers = ["-1.342", r"-\frac{3}{\sqrt{5}}", "-1.16", "-1.2"]
    with loaded([str(example_folder() / EXERCISE_FILE)], entry_points=False, environment=False):
        ex = get("ln.1")
        shown = exercise_text(ex, solution=True)
        checks = []
        for answer in answers:
            verdict = judge(answer, ex.expected, ex.mistakes)
            checks += [f"$ symattn check ln.1 '{answer}' --plugin {path}", verdict_text(ex.id, verdict)]
        seeded = exercise_text(get("ln.1", 7))
    return "\n".join(
        [
            "# Add an exercise",
            "",
            "An exercise in symattn carries its expected answer as a value the code computed, not as "
            "text someone typed, together with the wrong answers a learner is likely to reach, each "
            "with its own feedback. This page adds one for another module: an entry of a "
            "layer-normalised vector.",
            "",
            "## The module",
            "",
            "An exercise module defines `exercise()`, which returns an `Exercise` with a new id "
            "(lower case, no spaces), and may define `variant(rng)`, the same exercise with numbers "
            f"drawn from a `random.Random`. The example, `{path}`, in full:",
            "",
            *_code(EXERCISE_FILE),
            "",
            "## The parts of an exercise",
            "",
            "- **The expected answer** is `Expected(kind, value, tolerance)`, with kind `number`, "
            "`matrix` or `threshold`. Compute `value` exactly from the exercise's numbers (here with "
            "SymPy's `Rational` and `sqrt`), so that a variant's answer is computed the same way.",
            "- **The tolerance** is a `Rational`: an answer is correct when |answer − expected| ≤ "
            "tolerance, certified by interval arithmetic, so a rounding that lands outside it is "
            "never accepted. A tolerance of 0 asks for an exact answer, which SymPy must prove equal.",
            "- **Named slips** are `Mistake(code, feedback, value)`: the result of a plausible wrong "
            "method, computed from the same numbers (here the sample standard deviation, the "
            "variance, a missing step). An answer within the tolerance of a slip is told its code "
            "and feedback. A slip that equals the answer, or an earlier slip, is dropped.",
            "- **Variants.** `symattn exercises variant ln.1 --seed S` calls `variant` with "
            "`random.Random(S)`. A draw in which some slip lies within twice the tolerance of the "
            "answer is skipped for the next seed, and the variant says so: a learner who makes that "
            "slip must not be told they are right.",
            "- **The solution** is a `Derivation`, or the name of one, and is verified whenever it is "
            "shown (`symattn exercises show ID --solution`).",
            "",
            "## What the commands print",
            "",
            "```text",
            f"$ symattn exercises show ln.1 --solution --plugin {path}",
            shown.rstrip("\n"),
            "```",
            "",
            "Answers are read as LaTeX or plain numbers, with the notations listed in "
            "[the exercises guide](guide/exercises.md):",
            "",
            "```text",
            *[line.rstrip("\n") for line in checks],
            "```",
            "",
            "A variant, and the command that checks an answer to it:",
            "",
            "```text",
            f"$ symattn exercises variant ln.1 --seed 7 --plugin {path}",
            seeded.rstrip("\n"),
            "```",
            "",
            "A registered exercise is listed by `symattn exercises`, graded by `symattn grade` (rows "
            "naming its id), and matched by `symattn audit` to a module's exercise block whose text "
            "contains all of its `keywords`, so that a stated answer key is judged against the "
            "computed answer.",
            "",
            *_registration("exercise"),
        ]
    )
