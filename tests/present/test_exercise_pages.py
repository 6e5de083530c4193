"""The help beside an exercise page's answer field (issue 50): every example it gives is an
answer the checker reads (`symattn check ... --json` reads it, and does not call it invalid)."""

from __future__ import annotations

import contextlib
import io
import json

import pytest

from symattn.cli import main
from symattn.grading.exercises import EXERCISES
from symattn.present.exercise_pages import ANSWER_HELP, checker_html, help_html

EXAMPLES = [x for _, examples in ANSWER_HELP for x in examples]


@pytest.mark.parametrize("example", EXAMPLES)
def test_every_example_of_the_help_is_read(example):
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        main(["check", "ex6.2", "--json", "--", example])
    verdict = json.loads(out.getvalue())
    assert verdict["given"] and verdict["verdict"] != "invalid", verdict


def test_every_checker_has_its_help_beside_the_field():
    for e in EXERCISES.values():
        widget = checker_html(e)
        if widget:
            mode = "steps" if e.checker == "steps" else "answer"
            assert help_html(mode) in widget
            # between the field's label and the field: Tab goes on from the field to Check
            help_at = widget.index(help_html(mode))
            assert widget.index("</label>") < help_at < widget.index('class="symattn-answer"')
