"""Graded rows as `symattn grade` writes them, built by hand for the tests of the summary."""

from __future__ import annotations


def record(learner, exercise, verdict, mistake="", read_as="", answer="x", line="2", feedback=""):
    """One graded row (the fields the summary reads, and ``seconds``)."""
    return {
        "line": line,
        "learner": learner,
        "exercise": exercise,
        "answer": answer,
        "seed": "",
        "verdict": verdict,
        "feedback": feedback,
        "mistake": mistake,
        "read_as": read_as,
        "seconds": "0.1",
    }
