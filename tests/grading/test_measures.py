"""The registry of measures and safety nets (symattn/grading/measures.py): the guide's tables are
made from the constants that enforce each limit, and the page's defaults agree with it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from symattn.build.site import guide_pages
from symattn.grading import measures
from symattn.grading.proofs import proof_judge, step_reader

CHECKER_JS = Path(__file__).resolve().parents[2] / "symattn" / "present" / "web" / "checker.js"


def test_the_guide_states_each_limit_from_where_it_is_enforced(monkeypatch):
    """Change a limit where the code enforces it, and the guide's table says the new number (a
    table copied by hand once said operators nest "more than 4 deep" when the code said 3)."""
    monkeypatch.setattr(step_reader, "MAX_COSTLY_STEPS", 7)
    monkeypatch.setattr(measures, "MAX_EXPANDED_TERMS", 12_345)
    monkeypatch.setattr(proof_judge, "TOTAL_SECONDS", 61.0)
    page = guide_pages()["guide/exercises.md"]
    assert "or softmax applied 3 or more times in one side | 7 |" in page
    assert "never expanded: `(1+\\sqrt{2})^{2000}` has 2,001) | 12,345 |" in page
    assert "61 s of CPU for all its steps" in page


def test_every_table_the_guide_asks_for_is_made():
    pages = guide_pages()
    assert all("<!-- measures:" not in text for text in pages.values())
    assert sum(text.count("| measure | at most |") for text in pages.values()) >= 2
    with pytest.raises(ValueError, match="no table of measures named 'answers'"):
        measures.table("answers")


def test_the_page_defaults_are_the_registrys_safety_nets():
    """checker.js keeps its own defaults (a page runs without Python's help): they must be the
    registry's, which the guide and the page for authors state."""
    js = CHECKER_JS.read_text(encoding="utf-8")
    found = re.search(r"\{ timeoutSeconds: (\d+), derivationTimeoutSeconds: (\d+),", js)
    assert found, "checker.js no longer sets its safety nets' defaults where this test looks"
    assert (int(found[1]), int(found[2])) == (measures.BROWSER_SECONDS, measures.BROWSER_DERIVATION_SECONDS)


def test_the_derivation_nets_stay_inside_one_another():
    """A step's net is inside the derivation's, and the derivation's clock inside grade's
    pool backstop, which must never be the one to stop a row."""
    from symattn.grading.batch import grade

    assert proof_judge.CPU_SECONDS < proof_judge.TOTAL_SECONDS < proof_judge.WALL_SECONDS < grade.ROW_TIMEOUT
