"""Hypothesis runs under a fixed profile (tests/conftest.py): every property test draws the same
examples on every run, and writes no example database. HYPOTHESIS_PROFILE=explore opts out."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

TESTS = Path(__file__).parent
ROOT = TESTS.parent

#: the profile this run asked for (tests/conftest.py loads it; "ci" unless told otherwise)
ASKED = os.environ.get("HYPOTHESIS_PROFILE", "ci")


def _fields(s: settings) -> tuple:
    return s.derandomize, s.database, s.deadline, s.print_blob, s.max_examples


def test_the_ci_profile_is_derandomised():
    """"ci", the default: derandomized, no database, no deadline, failures reproducible."""
    assert _fields(settings.get_profile("ci")) == (True, None, None, True, 100)  # 100: as before


def test_the_explore_profile_differs_only_in_drawing_new_examples():
    """HYPOTHESIS_PROFILE=explore draws new examples each run; every other setting is ci's (no
    database either)."""
    explore, ci = settings.get_profile("explore"), settings.get_profile("ci")
    assert explore.derandomize is False
    assert repr(explore) == repr(settings(ci, derandomize=False))


def test_the_loaded_profile_is_the_one_asked_for():
    """Whatever HYPOTHESIS_PROFILE says (nothing: "ci"), that profile is the run's default."""
    assert _fields(settings.default) == _fields(settings.get_profile(ASKED))


def _code_lines(path: Path, word: str) -> list[str]:
    """The lines of a shell script that name ``word`` outside a comment."""
    lines = path.read_text().splitlines()
    return [line.strip() for line in lines if word in line.split("#")[0]]


def test_ci_runs_the_fixed_profile():
    """.ci/run asks for "ci" before its first run and nowhere for another, and scripts/test.sh
    leaves the profile alone, so a caller's HYPOTHESIS_PROFILE cannot make CI draw new examples."""
    assert _code_lines(ROOT / ".ci" / "run", "HYPOTHESIS_PROFILE") == ["export HYPOTHESIS_PROFILE=ci"]
    assert _code_lines(ROOT / "scripts" / "test.sh", "HYPOTHESIS_PROFILE") == []
    ci = (ROOT / ".ci" / "run").read_text()
    first, second = ci.index("bash scripts/test.sh"), ci.index(".venv-newest/bin/python -m pytest")
    assert ci.index("export HYPOTHESIS_PROFILE=ci") < first < second


def test_another_profile_can_be_asked_for():
    """Run with HYPOTHESIS_PROFILE=explore, this file's tests pass: tests/conftest.py loaded the
    profile the environment named, and every property test draws new examples."""
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist", __file__,
         "-k", "not another_profile"],
        capture_output=True, text=True, timeout=300, cwd=ROOT,
        env=os.environ | {"HYPOTHESIS_PROFILE": "explore"},
    )
    assert done.returncode == 0, done.stdout[-3000:]
    assert re.search(r"^7 passed", done.stdout, re.M), done.stdout[-3000:]



def test_every_collected_property_test_inherits_the_profile(request):
    """Each @given test collected in this run, under its own @settings too, draws as the loaded
    profile does and has no database (the one below is collected whatever else is)."""
    chosen = {
        item.nodeid: item.obj._hypothesis_internal_use_settings
        for item in request.session.items
        if hasattr(getattr(item, "obj", None), "_hypothesis_internal_use_settings")
    }
    assert any(n.endswith("::test_a_property_test_runs_under_the_profile") for n in chosen)
    loaded = settings.default.derandomize
    assert [n for n, s in chosen.items() if not (s.derandomize is loaded and s.database is None)] == []


def test_no_test_overrides_the_profile():
    """No test file's settings(...) set derandomize or a database, and none sets a seed or
    loads a profile of its own."""
    inside_settings = r"settings\((?:[^()]|\([^()]*\))*\b(?:derandomize|database)\s*="
    pattern = re.compile(inside_settings + r"|@seed\(|load_profile\(")
    found = [
        str(path.relative_to(TESTS))
        for path in TESTS.rglob("*.py")
        if path.name not in ("conftest.py", Path(__file__).name) and pattern.search(path.read_text())
    ]
    assert found == []


@given(st.integers())
def test_a_property_test_runs_under_the_profile(n):
    assert isinstance(n, int)
