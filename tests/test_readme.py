"""The README and generated docs stay in step with the code."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from symattn.cli import main

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()
#: The guide's pages, written by hand and copied into docs/guide/ by `symattn build`.
GUIDE = ROOT / "symattn" / "present" / "guide"


@pytest.mark.pinned  # SymPy's printing, pasted into the README
def test_readme_example_is_real_output(capsys):
    """The README's example block is exactly what `symattn attention --example` prints."""
    block = re.search(r"<!-- example:start -->\n```text\n(.*?)```\n<!-- example:end -->", README, re.S)
    assert block, "README example markers missing"
    assert main(["attention", "--example", "--mask", "causal", "--digits", "6"]) == 0
    assert capsys.readouterr().out == block.group(1), (
        "README example is stale: paste the output of `symattn attention --example --mask causal --digits 6`"
    )


def test_quick_start_is_two_commands_and_ci_runs_the_second():
    """The quick start has exactly two commands, and .ci/run contains the test one verbatim."""
    quick = re.search(r"## Quick start.*?```sh\n(.*?)```", README, re.S)
    assert quick
    commands = [line for line in quick.group(1).splitlines() if line.strip()]
    assert len(commands) == 2
    assert commands[0].endswith("symattn build")
    assert commands[1] in (ROOT / ".ci" / "run").read_text()
    script = commands[1].split()[-1]
    assert "python -m pytest" in (ROOT / script).read_text()


def _pins(name: str = "constraints.txt") -> dict[str, str]:
    """A constraints file as {normalised name: version}."""
    from packaging.utils import canonicalize_name

    pins = {}
    for line in (ROOT / name).read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            name, version = line.split("==")
            pins[canonicalize_name(name)] = version
    return pins


def test_constraints_pin_every_dependency_inside_its_range():
    """Every dependency of pyproject.toml (runtime and extras) has one exact version in
    constraints.txt, and that version lies in the range pyproject.toml allows; the ranges
    themselves are ranges except for latex2sympy2 and its antlr (see pyproject.toml)."""
    import tomllib

    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    pins = _pins()
    requirements = [Requirement(r) for r in project["dependencies"]]
    requirements += [Requirement(r) for extra in project["optional-dependencies"].values() for r in extra]
    for req in requirements:
        name = canonicalize_name(req.name)
        assert name in pins, f"{req.name} has no version in constraints.txt"
        assert req.specifier.contains(pins[name]), f"constraints.txt has {req.name}=={pins[name]}: not {req}"
    exact = {canonicalize_name(r.name) for r in requirements if any(s.operator == "==" for s in r.specifier)}
    assert exact == {"latex2sympy2", "antlr4-python3-runtime"}


def test_the_lowest_measured_versions_are_the_lower_bounds():
    """constraints-lowest.txt, the oldest versions the suite was run on, holds exactly the lower
    bound of every ranged runtime dependency and of matplotlib (the plot extra)."""
    import tomllib

    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name
    from packaging.version import Version

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    lowest = _pins("constraints-lowest.txt")
    bounds = {}
    for text in project["dependencies"] + project["optional-dependencies"]["plot"]:
        req = Requirement(text)
        floor = [s.version for s in req.specifier if s.operator == ">="]
        if floor:
            bounds[canonicalize_name(req.name)] = Version(floor[0])
    assert {name: Version(v) for name, v in lowest.items()} == bounds


def test_readme_and_ci_install_with_the_constraints_and_ci_runs_the_newest_versions():
    """The quick start's first command and scripts/test.sh install with constraints.txt; .ci/run
    also installs an environment without it and runs the suite there, less the pinned tests."""
    quick = re.search(r"## Quick start.*?```sh\n(.*?)```", README, re.S)
    assert quick and "pip install -c constraints.txt -e '.[docs]'" in quick.group(1)
    assert "pip install -q -c constraints.txt -e '.[test]'" in (ROOT / "scripts" / "test.sh").read_text()
    ci = (ROOT / ".ci" / "run").read_text()
    newest = re.search(r"\n\s*(\S*pip install[^\n]*)\n", ci)
    assert newest and "-c" not in newest.group(1).split() and "-e '.[test]'" in newest.group(1)
    deselected = r'-m "not pinned and not browser and not build and not exhaustive"'
    second = r"\n\s*\.venv-newest/bin/python -m pytest [^\n]*\\\n\s*" + re.escape(deselected)
    assert re.search(second, ci)


@pytest.mark.pinned  # the max error column is a 60-digit evaluation printed by SymPy and mpmath
def test_guide_verify_table_is_what_verify_prints(verify):
    """The guide's verify table (derivations page), which `symattn build` makes from the
    reports it verified, has a row per derivation in the registry's order, each what `symattn
    verify` prints for it but for the time column (seconds differ from run to run)."""
    import derivations
    from symattn.build.site import guide_pages
    from symattn.present.verify_table import _row

    assert "<!-- verify -->" in (GUIDE / "derivations.md").read_text(encoding="utf-8")
    page = guide_pages({name: verify(name) for name in derivations.NAMES})["guide/derivations.md"]
    assert "<!-- verify -->" not in page
    block = re.search(r"```text\n(derivation .*?)```", page, re.S)
    assert block, "the guide's verify table is missing"
    rows = block.group(1).splitlines()[2:]
    width = max(len("derivation"), *map(len, derivations.NAMES))

    def untimed(row: str) -> list[str]:
        cells = row.split()
        return cells[:-3] + cells[-1:]  # drop "0.3", "s"

    assert [r.split()[0] for r in rows] == list(derivations.NAMES)
    for row in rows:
        expected = _row(row.split()[0], width, verify(row.split()[0])[1])[0]
        assert row.split() == untimed(expected), f"the guide's verify row is not verify's: {expected}"


def test_the_readme_is_a_short_tour_that_links_every_page_of_the_guide():
    """A newcomer reads the README whole: it stays short and sends each command to its page of
    the guide, which `symattn build` copies into docs/guide/ and the site's menu lists."""
    from symattn.build.site import GUIDE_PAGES, guide_pages

    assert len(README.splitlines()) <= 160
    from symattn.build.site import site_nav

    menu = [page for entry in site_nav()["Guide"] for page in entry.values()]
    assert menu == [f"guide/{name}" for name in GUIDE_PAGES]
    for name in GUIDE_PAGES:
        assert f"(docs/guide/{name}" in README, name
    assert sorted(p.name for p in GUIDE.glob("*.md")) == sorted(GUIDE_PAGES)
    assert guide_pages()["guide/auditing.md"].startswith("# Auditing a module")


def _tour_commands() -> list[str]:
    """Every `symattn ...` line of the README's tour (its sh blocks)."""
    tour = README.split("## What you can do with it", 1)[1].split("## Documentation", 1)[0]
    blocks = re.findall(r"```sh\n(.*?)```", tour, re.S)
    return [line.strip() for b in blocks for line in b.splitlines() if line.startswith("symattn ")]


def test_the_tour_shows_one_command_for_each_thing_people_do():
    commands = {c.split()[1] for c in _tour_commands()}
    assert commands == {"attention", "derive", "verify", "check", "grade", "audit", "lab"}
    assert "mkdocs serve" in README.split("## What you can do with it", 1)[1]


def _shows_what_the_readme_says(command: str, out: str, folder: Path) -> None:
    """What each command of the tour must print, worked out here without symattn's code."""
    import mpmath

    word = command.split()[1]
    if word == "attention":  # causal: row 1 sees key 1 alone; row 2 weighs e^0 and e^(1/sqrt 2)
        with mpmath.workdps(40):  # not mp.dps =: the session's precision stays as it was
            w = mpmath.nstr(1 / (1 + mpmath.e ** (1 / mpmath.sqrt(2))), 30)
        assert "O[1,1] = 1\n" in out and "O[1,2] = 0\n" in out
        assert f"O[2,1] = 1/(1 + exp(sqrt(2)/2)) ≈ {w}" in out
    elif word == "derive":  # Markdown, not text: a typeset title and $$ blocks
        assert out.startswith("# Why divide by $\\sqrt{d_k}$\n") and "$$" in out
    elif word == "verify":
        from derivations.mutations import catalogue
        from symattn.grading.exercises import solution_mutations

        n = len(catalogue()) + len(solution_mutations())  # the derivations', the worked solutions'
        assert len(solution_mutations()) > 0 and f"caught where planted: {n} of {n}" in out
    elif word == "check":
        assert out.startswith(("Correct.", "ex6.3, checked step by step:"))
        assert "\nCorrect: the steps establish" in out or out.startswith("Correct.")
    elif word == "grade":  # examples/class.csv, judged by hand: ada 3 right, ben 2, cy 1
        gradebook = (folder / "gradebook.csv").read_text().splitlines()
        assert gradebook == [
            "learner,ex6.2,ex6.3,ex6.4,ex6.5,ex6.6,total",
            "ada,1,1,0,1,0,3",  # the exact output, the module's proof, N > 8192
            "ben,1,0,0,0,1,2",  # 1.96 at the second try; 4096 is the N > d_model slip; the mean
            "cy,0,0,1,0,0,1",  # the causal mask; N > 2 d_model names no number
        ]
        assert (folder / "graded.csv").is_file() and (folder / "report.md").is_file()
    elif word == "audit":  # tests/data/module/attention.md: see tests/grading/audit/test_audit.py
        found = re.search(r"(\d+) claims: (\d+) certified, 0 wrong, (\d+) unchecked", out)
        assert found and int(found.group(2)) + int(found.group(3)) == int(found.group(1))
        assert "unchecked, " + found.group(3) + ": a statement about practice or frequency" in out  # "often"
    elif word == "lab":  # unscaled at d_k = 128 about a third saturate (the module: 35 %); scaled none
        rows = [line.strip() for line in out.splitlines()]
        unscaled, scaled = (r for r in rows if r.startswith(("unscaled", "scaled")))
        assert 30 < float(re.search(r"([\d.]+)%", unscaled).group(1)) < 37
        assert "  0 of 100,000 saturated" in scaled
    else:
        raise AssertionError(f"no expectation for {command}")


def _tour_cases() -> list:
    """The tour's commands; `verify --mutations` is exhaustive: it verifies every planted error
    (two minutes of CPU), which tests/derivations/test_mutations.py samples."""
    def every(c: str) -> bool:
        return c.split()[1] == "verify" and "--mutations" in c.split()

    return [pytest.param(c, marks=pytest.mark.exhaustive) if every(c) else c for c in _tour_commands()]


def test_the_tours_only_exhaustive_command_verifies_every_planted_error():
    """CI's second run leaves out `exhaustive` tests: there only the README's `verify
    --mutations` (every planted error) is left out of the tour, and nothing else of it."""
    cases = _tour_cases()
    params = [c for c in cases if not isinstance(c, str)]
    marked = [c.values[0] for c in params if [m.name for m in c.marks] == ["exhaustive"]]
    assert marked == ["symattn verify --mutations"]
    assert len(cases) == len(_tour_commands()) == len(marked) + sum(isinstance(c, str) for c in cases)


@pytest.mark.xdist_group("generated")  # verify --mutations reuses the planted errors' results
@pytest.mark.parametrize("command", _tour_cases())
def test_every_command_of_the_readme_runs_as_shown(command, tmp_path, monkeypatch, cli):
    """Run from a folder holding the repository's examples/ and tests/ (as a clone does), each
    command of the tour succeeds (exit 0) and prints what the README says it does."""
    import shlex

    for folder in ("examples", "tests"):
        (tmp_path / folder).symlink_to(ROOT / folder)
    monkeypatch.chdir(tmp_path)
    code, out, err = cli(*shlex.split(command)[1:])
    assert code == 0, err
    _shows_what_the_readme_says(command, out, tmp_path)
