"""Hypothesis runs under a fixed profile (tests/conftest.py): every property test draws the same
examples on every run, and writes no example database. HYPOTHESIS_PROFILE=explore opts out."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

TESTS = Path(__file__).parent
EXPLORING = pytest.mark.skipif(
    os.environ.get("HYPOTHESIS_PROFILE", "ci") != "ci", reason="HYPOTHESIS_PROFILE asks for another profile"
)


@EXPLORING
def test_the_loaded_profile_is_derandomised():
    """The default profile, "ci": derandomized, no database, no deadline, failures reproducible."""
    current = settings.default
    assert current.derandomize is True and current.database is None and current.deadline is None
    assert current.print_blob is True and current.max_examples == 100  # as before it was fixed


@EXPLORING
def test_every_collected_property_test_inherits_the_profile(request):
    """Each @given test collected in this run, under its own @settings too, is derandomized and
    has no database (the one below is collected whatever else is)."""
    chosen = {
        item.nodeid: item.obj._hypothesis_internal_use_settings
        for item in request.session.items
        if hasattr(getattr(item, "obj", None), "_hypothesis_internal_use_settings")
    }
    assert any(n.endswith("::test_a_property_test_runs_under_the_profile") for n in chosen)
    assert [n for n, s in chosen.items() if not (s.derandomize is True and s.database is None)] == []


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
