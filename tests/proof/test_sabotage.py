"""The engine's own sabotage list (derivations/sabotage.py): each one-line edit that weakens a
guarantee of the engine makes the tests of tests/proof it names fail.

Each edit is applied in this process (the edited function compiled again and put in place,
then put back), the lemma cache off, and the named tests are called directly, with every
parameter set a parametrized one has.
"""

from __future__ import annotations

import importlib.util
import inspect
from pathlib import Path

import pytest

import symattn.proof.engine as engine
from derivations.sabotage import SABOTAGE, applied

HERE = Path(__file__).parent


def _module(name: str):
    spec = importlib.util.spec_from_file_location(f"_sabotaged_{name}", HERE / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _calls(test):
    """The test once, or once per parameter set of its (single) parametrize mark."""
    marks = [m for m in getattr(test, "pytestmark", []) if m.name == "parametrize"]
    if not marks:
        assert not inspect.signature(test).parameters, f"{test.__name__} takes fixtures"
        return [test]
    names, values = marks[0].args[:2]
    names = [a.strip() for a in names.split(",")] if isinstance(names, str) else list(names)
    rows = [v if len(names) > 1 else (v,) for v in values]
    return [lambda row=row: test(**dict(zip(names, row, strict=True))) for row in rows]


def _fails(test) -> bool:
    for call in _calls(test):
        engine._CHECKED.clear()
        try:
            call()
        except (Exception, pytest.fail.Exception):  # an error, or pytest.raises finding none
            return True
    return False


def test_the_list_is_long_and_each_edit_is_one_line_of_the_source():
    assert len(SABOTAGE) >= 32  # issue 26's 32, then one or more for each new guarantee
    modules = {s.module for s in SABOTAGE}
    engine = {"engine", "checks", "naming", "sides", "lemma", "lemma_cache", "records", "parallel"}
    shown = {"shown", "shown_base", "shown_rendering", "shown_statements", "shown_assumptions"}
    reader = {"reader", "reader_lexicon", "reader_forms"}
    for part in (engine, shown, reader):  # the engine, what a page shows, the reader: each sabotaged
        assert {f"symattn.proof.{m}" for m in part} & modules, part
    assert len({s.description for s in SABOTAGE}) == len(SABOTAGE)
    for s in SABOTAGE:
        assert s.old.count("\n") == s.new.count("\n") and s.old != s.new, s.description
        with applied(s):  # the text is found once, and the edit compiles
            pass


@pytest.mark.parametrize("sabotage", SABOTAGE, ids=[s.description for s in SABOTAGE])
def test_each_sabotage_is_caught_by_the_tests_it_names(sabotage, monkeypatch):
    monkeypatch.setenv("SYMATTN_NO_CACHE", "1")
    modules: dict = {}
    tests = []
    for name in sabotage.caught_by:
        file, test = name.split("::")
        module = modules.setdefault(file, _module(file))
        tests.append(getattr(module, test))
    for test in tests:  # each passes as the engine is...
        assert not _fails(test), f"{test.__name__} fails without the sabotage"
    with applied(sabotage):  # ...and fails with the guarantee removed
        missed = [test.__name__ for test in tests if not _fails(test)]
    assert missed == [], f"{sabotage.description}: not caught by {missed}"
    engine._CHECKED.clear()
