"""Derivations and exercises registered from outside symattn (symattn/grading/plugins.py), with the
example of tests/example_plugin/ registered by --plugin, SYMATTN_PLUGINS and entry points."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import mpmath
import pytest

import derivations
from derivations.mutations import catalogue, expected, run
from symattn.build.author_pages import ENTRY_POINTS, derivation_page, exercise_page
from symattn.grading import exercises, plugins

EXAMPLE = Path(__file__).parents[1] / "example_plugin"
DERIVATION = str(EXAMPLE / "layer_norm.py")
EXERCISE = str(EXAMPLE / "layer_norm_exercise.py")


def _y(values: list[float], entry: int, divisor: int | None = None) -> float:
    """Layer normalisation of one entry in plain floats (independent of the example's SymPy)."""
    n = len(values)
    mu = math.fsum(values) / n
    sigma = math.sqrt(math.fsum((v - mu) ** 2 for v in values) / (divisor or n))
    return (values[entry - 1] - mu) / sigma


@pytest.fixture(autouse=True)
def _no_environment(monkeypatch):
    monkeypatch.delenv(plugins.ENVIRONMENT, raising=False)


@pytest.fixture
def installed(tmp_path, monkeypatch):
    """The example as an installed distribution declaring the entry points of the docs page."""
    dist = tmp_path / "example_course-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: example-course\nVersion: 1.0\n")
    lines = []
    for group, entries in ENTRY_POINTS.items():
        lines += [f"[{group}]", *(f"{name} = {module}" for name, module in entries.items()), ""]
    (dist / "entry_points.txt").write_text("\n".join(lines))
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.syspath_prepend(str(EXAMPLE))
    return tmp_path


# -- registration by path ---------------------------------------------------------------------
def test_verify_and_derive_a_derivation_given_by_path(cli):
    """verify NAME --plugin PATH checks the example (exit 0); derive prints it as LaTeX."""
    code, out, err = cli("verify", "layer_norm", "--plugin", DERIVATION)
    assert code == 0, err
    row = out.splitlines()[-1].split()
    assert row[0] == "layer_norm" and row[1] == "10" and row[-1] == "ok"
    code, out, _ = cli("derive", "layer_norm", "--plugin", DERIVATION, "--format", "latex")
    assert code == 0
    assert r"\subsection*{Layer normalisation centres and scales}" in out
    assert r"&\approx -1.342" in out
    code, out, _ = cli("derive", "--list", "--plugin", DERIVATION)
    assert out.splitlines()[-1] == "layer_norm\tLayer normalisation centres and scales"
    assert [line.split("\t")[0] for line in out.splitlines()[:-1]] == list(derivations.NAMES)


def test_registries_are_restored_after_a_command(cli):
    """A plugin given to one command is not registered for the next."""
    assert cli("exercises", "--plugin", EXERCISE)[0] == 0
    assert "ln.1" not in exercises.EXERCISES and "ln.1" not in exercises.VARIANTS
    assert derivations.REGISTERED == {}
    code, _, err = cli("check", "ln.1", "-1.342")
    assert code == 2 and "no exercise 'ln.1'" in err


def test_a_plugin_that_writes_to_the_registries_directly_is_undone(cli, tmp_path):
    """A plugin may write to VARIANTS itself (its comment invites other modules to); after the
    command, that entry is gone too, and grade's cache no longer holds the plugin's exercise."""
    plugin = tmp_path / "writes_directly.py"
    plugin.write_text(
        "import sys\n"
        f"sys.path.insert(0, {str(EXAMPLE)!r})\n"
        "from layer_norm_exercise import exercise\n"
        "from symattn.grading import exercises\n"
        "exercises.VARIANTS['ex6.1'] = lambda rng: exercises.get('ex6.1')\n"
    )
    assert cli("exercises", "--plugin", str(plugin))[0] == 0
    assert "ex6.1" not in exercises.VARIANTS and "ln.1" not in exercises.EXERCISES
    code, _, err = cli("check", "ex6.1", "1", "--seed", "1")
    assert code == 2 and "no numeric variants" in err, err


def test_derive_does_not_build_the_exercises():
    """Registering plugins around a command does not import the exercises (building them takes
    most of a second, which verify and derive do not need), yet an exercise a plugin registers is
    still removed afterwards (the test above)."""
    import subprocess
    import sys

    probe = (
        "import sys; from symattn.cli import main; code = main(['derive', 'attention_by_hand']); "
        "sys.exit(10 + code if 'symattn.grading.exercises' in sys.modules else code)"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-500:]


def test_verify_without_names_includes_registered_derivations():
    """verify's default list is the built-in derivations, then the registered ones."""
    with plugins.loaded([DERIVATION], entry_points=False) as names:
        assert names == ["layer_norm"]
        assert derivations.names() == (*derivations.NAMES, "layer_norm")
    assert derivations.names() == derivations.NAMES


def test_a_planted_error_in_the_file_fails_verify_at_its_step(cli, tmp_path):
    """A wrong step written into a copy of the example: exit 1, the row names step 5 and its rule."""
    source = Path(DERIVATION).read_text()
    good = 'D.then(x[i] - mean, "$c$ cancels")'
    assert source.count(good) == 1
    broken = tmp_path / "layer_norm_broken.py"
    broken.write_text(source.replace(good, 'D.then(x[i] + c - mean, "$c$ cancels")'))
    code, out, err = cli("verify", "layer_norm", "--plugin", str(broken))
    assert code == 1
    assert "FAILED: layer_norm, step 5 (c cancels): the two sides differ" in out
    assert "Traceback" not in err


def test_mutations_of_a_registered_derivation_are_caught_where_planted(cli):
    """The example's MUTATIONS join the catalogue, and verify --mutations catches each at its step."""
    with plugins.loaded([DERIVATION], entry_points=False):
        planted = catalogue(["layer_norm"])
        assert [m.description for m in planted] == [
            "the shift left out of the mean",
            "the variance divided by n - 1",
            "-3/sqrt(5) truncated to -1.341",
        ]
        assert [expected(m) for m in planted] == [4, 6, 10]
        assert [run(m)[0] for m in planted] == ["4", "6", "10"]
        assert len(catalogue()) == len(catalogue(derivations.NAMES)) + 3
    code, out, _ = cli("verify", "layer_norm", "--plugin", DERIVATION, "--mutations")
    assert code == 0
    assert "caught where planted: 3 of 3" in out


def test_a_mutation_that_changes_nothing_fails_verify(cli, tmp_path):
    """A planted 'error' that verify cannot catch makes verify --mutations exit 1, saying so."""
    noop = tmp_path / "layer_norm_noop.py"
    noop.write_text(Path(DERIVATION).read_text() + '\nMUTATIONS.append(("nothing planted", lambda d: 2))\n')
    code, out, _ = cli("verify", "layer_norm", "--plugin", str(noop), "--mutations")
    assert code == 1
    assert "layer_norm: nothing planted: NOT caught at step 2 (nothing: )" in out
    assert "caught where planted: 3 of 4" in out


def test_exercise_by_path_is_listed_checked_and_varied(cli):
    """ln.1 is listed; -1.342 is correct, the sample deviation's -1.16 is named, 2 is incorrect."""
    code, out, _ = cli("exercises", "--plugin", EXERCISE)
    assert out.splitlines()[-1].split("\t")[:2] == ["ln.1", "apply"]
    assert _y([1, 2, 3, 4], 1) == pytest.approx(-1.3416407864998738, abs=1e-15)
    assert cli("check", "ln.1", "-1.342", "--plugin", EXERCISE)[0] == 0
    code, out, _ = cli("check", "ln.1", r"-\frac{3}{\sqrt{5}}", "--plugin", EXERCISE, "--json")
    assert code == 0 and json.loads(out)["verdict"] == "correct"
    slip = round(_y([1, 2, 3, 4], 1, divisor=3), 3)
    code, out, _ = cli("check", "ln.1", str(slip), "--plugin", EXERCISE)
    assert code == 1 and "[sample-deviation]" in out
    assert cli("check", "ln.1", "2", "--plugin", EXERCISE)[0] == 1
    code, out, _ = cli("exercises", "show", "ln.1", "--solution", "--plugin", EXERCISE)
    assert code == 0 and "≈ -1.342" in out


@pytest.mark.parametrize("seed", [0, 7, 33, 1234])
def test_variant_answers_match_an_independent_computation(cli, seed):
    """A variant's printed numbers, normalised in plain floats, give an answer check accepts."""
    code, out, _ = cli("exercises", "variant", "ln.1", "--seed", str(seed), "--plugin", EXERCISE)
    assert code == 0
    m = re.search(r"x = \[([-\d, ]+)\] .* What is y_(\d+)\?", out)
    values, entry = [int(v) for v in m.group(1).split(",")], int(m.group(2))
    answer = f"{_y(values, entry):.6f}"
    assert cli("check", "ln.1", answer, "--seed", str(seed), "--plugin", EXERCISE)[0] == 0
    wrong = f"{_y(values, entry) + 0.05:.6f}"
    assert cli("check", "ln.1", wrong, "--seed", str(seed), "--plugin", EXERCISE)[0] == 1


def test_variants_skip_draws_whose_slip_is_too_close():
    """Over 200 seeds no variant has a slip within twice the tolerance (mpmath, 30 digits), and
    some seeds were moved on because their draw had one."""
    moved = 0
    mpmath.mp.dps = 30
    with plugins.loaded([EXERCISE], entry_points=False):
        for seed in range(200):
            ex = exercises.get("ln.1", seed)
            moved += "seed_note" in ex.params
            answer = mpmath.mpf(str(ex.expected.value.evalf(30)))
            for slip in ex.mistakes:
                assert abs(mpmath.mpf(str(slip.value.evalf(30))) - answer) > mpmath.mpf("0.02")
    assert moved == 7


# -- registration by environment and by entry point --------------------------------------------
def test_environment_variable_registers_both(cli, monkeypatch):
    """SYMATTN_PLUGINS holds both files: verify and check find them without --plugin."""
    monkeypatch.setenv(plugins.ENVIRONMENT, f"{DERIVATION}:{EXERCISE}")
    assert cli("check", "ln.1", "-1.34")[0] == 0
    code, out, _ = cli("derive", "--list")
    assert code == 0 and "layer_norm\t" in out


def test_entry_points_register_both(cli, installed):
    """The example installed with the docs' entry points: verify, derive and check find it."""
    code, out, err = cli("verify", "layer_norm")
    assert code == 0, err
    assert out.splitlines()[-1].split()[-1] == "ok"
    assert cli("check", "ln.1", "-1.342")[0] == 0
    code, out, _ = cli("check", "ln.1", "-1.2")
    assert code == 1 and "[divided-by-variance]" in out


def test_an_entry_point_and_a_path_to_the_same_module_register_once(installed):
    """The module met twice (by entry point and by name) is one registration, not a clash."""
    with plugins.loaded(["layer_norm"]) as names:
        assert names == ["layer_norm", "ln.1"]


def test_entry_point_that_fails_to_import_is_exit_2(cli, installed):
    """A broken entry point names itself in one line, exit 2."""
    (installed / "example_course-1.0.dist-info" / "entry_points.txt").write_text(
        "[symattn.exercises]\nbroken = no_such_module_for_symattn\n"
    )
    code, _, err = cli("exercises")
    assert code == 2
    assert err.count("\n") == 1 and "entry point broken = no_such_module_for_symattn" in err


# -- audit and grade ---------------------------------------------------------------------------
MODULE = """# Layer normalisation

**Exercise (apply).** Layer-normalise $x = [1, 2, 3, 4]$ without gain or bias. What is $y_1$?

*Answer:* {key} (within 0.01)

*Solution:* subtract the mean, divide by the standard deviation.
"""


def test_audit_judges_a_registered_exercises_key(cli, tmp_path):
    """A module's key for ln.1 is certified with the plugin, a slip is flagged, and without the
    plugin the block matches nothing."""
    good, bad = tmp_path / "good.md", tmp_path / "bad.md"
    good.write_text(MODULE.format(key="-1.342"))
    bad.write_text(MODULE.format(key="-1.16"))
    code, out, _ = cli("audit", str(good), "--plugin", EXERCISE, "--json")
    assert code == 0
    assert [(k["exercise"], k["status"]) for k in json.loads(out)["keys"]] == [("ln.1", "ok")]
    code, _, err = cli("audit", str(bad), "--plugin", EXERCISE)
    assert code == 1 and "ln.1" in err
    code, out, _ = cli("audit", str(good), "--json")
    assert code == 1 and json.loads(out)["keys"][0]["status"] == "unmatched"


def test_grade_judges_rows_of_a_registered_exercise(cli, tmp_path):
    """grade --plugin: rows for ln.1 get check's verdicts (one worker)."""
    rows = tmp_path / "class.csv"
    rows.write_text("learner,exercise,answer\na,ln.1,-1.342\nb,ln.1,-1.16\nc,ln.1,2\n")
    out = tmp_path / "graded.csv"
    code, _, _ = cli("grade", str(rows), "--out", str(out), "--jobs", "1", "--plugin", EXERCISE)
    assert code == 0
    import csv

    graded = list(csv.DictReader(out.open()))
    assert [(r["learner"], r["verdict"], r["mistake"]) for r in graded] == [
        ("a", "correct", ""),
        ("b", "incorrect", "sample-deviation"),
        ("c", "incorrect", ""),
    ]


# -- bad plugins -------------------------------------------------------------------------------
GOOD_EXERCISE = Path(EXERCISE).read_text()
BAD = {
    "syntax error": ("def derivation(:\n", "cannot import it: SyntaxError"),
    "import error": ("import no_such_module_for_symattn\n", "cannot import it: ModuleNotFoundError"),
    "raises at import": ("raise RuntimeError('boom')\n", "cannot import it: RuntimeError: boom"),
    "exits at import": ("import sys\nsys.exit(3)\n", "cannot import it: SystemExit: 3"),
    "neither": ("X = 1\n", "defines neither derivation() (with NAME and TITLE) nor exercise()"),
    "built-in name": (
        "NAME = 'variance_scaling'\nTITLE = 't'\ndef derivation():\n    return None\n",
        "derivation 'variance_scaling' clashes with a built-in derivation",
    ),
    "NAME not a string": ("NAME = 3\nTITLE = 't'\ndef derivation():\n    return None\n", "NAME must be"),
    "derivation not callable": (
        "NAME = 'mine'\nTITLE = 't'\nderivation = 3\n",
        "derivation must be a function",
    ),
    "derivation of the wrong type": (
        "NAME = 'mine'\nTITLE = 't'\ndef derivation():\n    return 3\n",
        "derivation() returned int, not a symattn.proof.Derivation",
    ),
    "derivation raises": (
        "NAME = 'mine'\nTITLE = 't'\ndef derivation():\n    return 1 / 0\n",
        "derivation() failed: ZeroDivisionError",
    ),
    "bad MUTATIONS": (
        "NAME = 'mine'\nTITLE = 't'\ndef derivation():\n    return None\nMUTATIONS = [3]\n",
        "MUTATIONS must be a list of (description, plant) pairs",
    ),
    "exercise of the wrong type": ("def exercise():\n    return 'ex'\n", "exercise() returned str, not"),
    "built-in exercise id": (
        GOOD_EXERCISE.replace('ID = "ln.1"', 'ID = "ex6.2"'),
        "exercise 'ex6.2' clashes with a built-in exercise",
    ),
    "upper-case id": (GOOD_EXERCISE.replace('ID = "ln.1"', 'ID = "LN.1"'), "must be lower case"),
}


@pytest.mark.parametrize("case", list(BAD), ids=list(BAD))
def test_bad_plugin_is_one_line_and_exit_2(cli, tmp_path, case):
    """Each broken plugin: exit 2, one line on stderr naming the file and the fault."""
    text, said = BAD[case]
    path = tmp_path / "bad_plugin.py"
    path.write_text(text)
    command = ("verify", "mine") if "derivation" in case or "NAME" in case else ("exercises",)
    code, _, err = cli(*command, "--plugin", str(path))
    assert code == 2, err
    assert err.count("\n") == 1 and err.startswith(f"symattn: error: plugin {path}")
    assert said in err


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["verify", "--plugin", "no/such/file.py"], "plugin no/such/file.py: no such file"),
        (["exercises", "--plugin", "README.md"], "plugin README.md: a plugin file must be a .py file"),
        (["derive", "--list", "--plugin", "no_such_module_for_symattn"], "cannot import it"),
        (["check", "ln.1", "1", "--plugin", "not a module!"], "neither a .py file nor a dotted module"),
        (["exercises", "--plugin", EXERCISE, "--plugin", EXERCISE[:-3] + "_copy.py"], "no such file"),
    ],
)
def test_bad_plugin_arguments_are_exit_2(cli, argv, said):
    """Missing files, non-Python files and unknown modules: exit 2 and one line."""
    code, _, err = cli(*argv)
    assert code == 2 and err.count("\n") == 1 and said in err


def test_two_plugins_with_one_exercise_id_clash(cli, tmp_path):
    """The same exercise in two files: the second is refused, naming the first."""
    copy = tmp_path / "copy.py"
    copy.write_text(GOOD_EXERCISE)
    code, _, err = cli("exercises", "--plugin", EXERCISE, "--plugin", str(copy))
    assert code == 2 and f"exercise 'ln.1' is already registered by plugin {EXERCISE}" in err


# -- the pages ---------------------------------------------------------------------------------
def test_pages_show_the_example_modules_whole_and_their_real_output():
    """Each page holds its example file verbatim and output computed from it."""
    page = derivation_page()
    assert Path(DERIVATION).read_text().rstrip("\n") in page
    assert "caught where planted: 3 of 3" in page
    assert "layer_norm, step 4 (the shift is added n times): the two sides differ" in page
    page = exercise_page()
    assert Path(EXERCISE).read_text().rstrip("\n") in page
    assert "[sample-deviation]" in page and "Correct. (ln.1: read as -1.342)" in page  # as typed


def test_entry_point_example_on_the_page_names_real_modules():
    """The pyproject snippet's modules are the example's files."""
    for entries in ENTRY_POINTS.values():
        for module in entries.values():
            assert (EXAMPLE / f"{module}.py").is_file()


def test_a_module_that_is_no_plugin_is_refused(cli):
    """A dotted name of a real module that defines no derivation or exercise is refused, not ignored."""
    code, _, err = cli("exercises", "--plugin", "json")
    assert code == 2 and "plugin json: defines neither" in err


def test_a_variant_of_another_exercise_is_refused(cli, tmp_path):
    """variant(rng) must give the same exercise with new numbers: one that returns another id
    is refused, one line, exit 2, naming both ids (review finding: it was accepted)."""
    text = GOOD_EXERCISE + (
        "\n\ndef variant(rng):\n    import dataclasses\n\n"
        "    return dataclasses.replace(exercise(), id='ln.2')\n"
    )
    path = tmp_path / "other_variant.py"
    path.write_text(text)
    code, out, err = cli("exercises", "variant", "ln.1", "--seed", "1", "--plugin", str(path))
    assert code == 2 and out == "" and err.count("\n") == 1, err
    assert "variant(rng) returned exercise 'ln.2', not 'ln.1'" in err
