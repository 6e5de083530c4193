"""Graded rows as `symattn grade` writes them: built by hand for the tests of the summary, or graded
again alone for the tests that compare grade with check."""

from __future__ import annotations

import csv
import re
import shutil
import tempfile
from pathlib import Path


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


#: The limits a loaded machine can trip (time and CPU), as check's and grade's feedback words them;
#: a proof's verdict says it after the line it stopped at ("line 4 cannot be checked: too costly
#: to check: no result within 3 s"). Fixed limits (a number of 400 digits) are not among them.
LOAD_LIMIT = re.compile(
    r"too costly to check: (no result within|the derivation took more than|stopped after|the worker stopped)"
)


def cut_by_a_limit(doc: dict | None, graded: dict[str, str]) -> tuple[bool, bool]:
    """Whether check's verdict and grade's were cut by a time or CPU limit."""
    return doc is not None and bool(LOAD_LIMIT.search(doc["feedback"])), bool(
        LOAD_LIMIT.search(graded["feedback"])
    )


def regrade_alone(cli, graded: dict[str, str], folder: Path | None = None, *extra: str) -> dict[str, str]:
    """A graded row graded again in a class of its own (`symattn grade --jobs 1`, in-process), with
    no other row competing for the cores: for a wall-clock limit a loaded machine may have hit.
    Its steps_file, if any, is read from ``folder``; ``extra`` goes to grade (``--plugin P``)."""
    with tempfile.TemporaryDirectory() as tmp:
        row = {k: graded.get(k, "") for k in ("learner", "exercise", "seed", "answer")}
        row["steps_file"] = ""
        if graded.get("steps_file"):
            shutil.copy(Path(folder or ".") / graded["steps_file"], Path(tmp) / "steps.tex")
            row["steps_file"] = "steps.tex"
        with open(Path(tmp) / "one.csv", "w", encoding="utf-8", newline="") as fh:
            w = csv.DictWriter(fh, list(row))
            w.writeheader()
            w.writerow(row)
        out = Path(tmp) / "o.csv"
        code, _, err = cli("grade", str(Path(tmp) / "one.csv"), "--out", str(out), "--jobs", "1", *extra)
        assert code == 0, err
        with open(out, encoding="utf-8", newline="") as fh:
            (again,) = csv.DictReader(fh)
    return again | {"line": graded["line"], "steps_file": graded.get("steps_file", "")}
