"""The LaTeX readers (symattn/grading/answers/readers.py) and the page that says which one is used and why."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from symattn.grading.answers import readers

ROOT = Path(__file__).resolve().parents[3]
PAGE = ROOT / "docs" / "readers.md"


def _python(code: str) -> subprocess.CompletedProcess[str]:
    argv = [sys.executable, "-c", code]
    return subprocess.run(argv, capture_output=True, text=True, timeout=120, check=False)


def test_without_typing_io_antlr_fails_to_import_and_the_shim_mends_it():
    """Python 3.13 has no typing.io; antlr 4.7.2 then fails to import unless the shim runs first.

    ``sys.modules["typing.io"] = None`` makes ``import typing.io`` fail as it does on 3.13.
    """
    hide = "import sys; sys.modules['typing.io'] = None\n"
    bare = _python(hide + "import antlr4\n")
    assert bare.returncode != 0 and "typing.io" in bare.stderr
    shimmed = _python(
        hide + "from symattn.grading.answers.parsing import read_latex\n"
        "print(read_latex(r'\\frac{e^2+11}{e^2+2}'), read_latex('1.959'))\n"
    )
    assert shimmed.returncode == 0, shimmed.stderr[-2000:]
    assert shimmed.stdout.split() == ["(exp(2)", "+", "11)/(2", "+", "exp(2))", "1959/1000"]


def test_the_shim_gives_typing_io_names_from_typing_and_leaves_a_real_module_alone():
    code = (
        "import sys, typing\n"
        "sys.modules['typing.io'] = None\n"
        "from symattn.grading.answers.readers import typing_io_shim\n"
        "typing_io_shim()\n"
        "io = sys.modules['typing.io']\n"
        "assert (io.TextIO, io.IO, io.BinaryIO) == (typing.TextIO, typing.IO, typing.BinaryIO)\n"
        "typing_io_shim()\n"
        "assert sys.modules['typing.io'] is io\n"
        "print('ok')\n"
    )
    done = _python(code)
    assert done.stdout.strip() == "ok", done.stderr[-2000:]


def test_the_reader_in_use_is_the_default_unless_the_environment_names_another(monkeypatch):
    monkeypatch.delenv(readers.READER_ENV, raising=False)
    assert readers.current().name == readers.DEFAULT == "latex2sympy2"
    monkeypatch.setenv(readers.READER_ENV, "sympy-lark")
    assert readers.current() is readers.READERS["sympy-lark"]
    monkeypatch.setenv(readers.READER_ENV, "banana")
    with pytest.raises(ValueError, match="names no reader"):
        readers.current()


def test_the_installed_reader_is_the_one_pyproject_names():
    """pyproject.toml depends on the default reader's distribution, and on no other candidate's."""
    text = (ROOT / "pyproject.toml").read_text()
    deps = re.search(r"dependencies = \[(.*?)\n\]", text, re.S).group(1)
    names = set(re.findall(r'^\s*"([A-Za-z0-9_.-]+)', deps, re.M))
    chosen = readers.READERS[readers.DEFAULT].distribution
    assert chosen in names
    assert not (names & {r.distribution for r in readers.READERS.values()} - {chosen})


def _table(page: str) -> dict[str, list[str]]:
    """The readers' table (one column per reader, one row per measure) as reader -> [name, the
    ten measures], the order of bench/readers.py's MEASURES."""
    lines = page.splitlines()
    head = next(k for k, line in enumerate(lines) if line.startswith("| measure |"))
    names = [c.strip() for c in lines[head].strip().strip("|").split("|")][1:]
    body = []
    for line in lines[head + 2 :]:
        if not line.startswith("| "):
            break
        body.append([c.strip() for c in line.strip().strip("|").split("|")])
    assert len(body) == 10 and all(len(r) == len(names) + 1 for r in body)
    return {name: [name, *(r[k + 1] for r in body)] for k, name in enumerate(names)}


def test_the_page_measures_every_candidate_and_names_the_default_as_chosen():
    page = PAGE.read_text()
    rows = _table(page)
    assert set(rows) == set(readers.READERS)
    assert f"symattn reads with **{readers.DEFAULT}**" in page
    bank_size = len((ROOT / "tests" / "data" / "answer_bank.csv").read_text().strip().splitlines()) - 1
    same, total = rows[readers.DEFAULT][7].split("/")
    assert int(same) == int(total) == bank_size  # the chosen reader makes no verdict worse
    for name, cells in rows.items():
        if name == readers.DEFAULT:
            continue
        # every other candidate's changed verdicts are listed, one row each, in its own section
        changed = bank_size - int(cells[7].split("/")[0])
        section = page.split(f"### {name}\n", 1)[1].split("\n### ", 1)[0]
        listed = [ln for ln in section.splitlines() if ln.startswith("| `")]
        assert len(listed) == changed > 0


def test_the_guide_gives_the_choice_and_its_reason():
    page = (ROOT / "symattn" / "present" / "guide" / "development.md").read_text()
    deps = page.split("## Dependencies", 1)[1].split("\n## ", 1)[0]
    assert "docs/readers.md" in deps and "bench/readers.py" in deps
    assert "typing.io" in deps and readers.DEFAULT in deps


# -- latex2sympy2's two-stage parse (SLL, then full LL where SLL fails) ----------------------
def _reading(text: str) -> str:
    """What the reader makes of ``text``: the expression's srepr, or the refusal."""
    import sympy as sp

    from symattn.grading.answers.parsing import read_latex

    try:
        return sp.srepr(read_latex(text))
    except Exception as exc:  # a refusal is a reading too, compared by its words
        return f"{type(exc).__name__}: {exc}"


def _texts() -> list[str]:
    """Every 6th of latex2sympy's own pairs (sums, integrals, functions, matrices, errors),
    every distinct answer of the answer bank and the course, and texts that only the second
    stage reads (SLL's first try fails on them)."""
    import csv

    sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "bench"))
    import peer_suites

    texts = [p["latex"] for p in peer_suites.load_pairs()[::6]]
    for name in ("answer_bank.csv", "course.csv"):
        with (Path(__file__).parents[2] / "data" / name).open(encoding="utf-8", newline="") as fh:
            texts += [r["answer"] for r in csv.DictReader(fh) if r["answer"]]
    return list(dict.fromkeys([*texts, *NEEDS_LL]))


#: Texts whose SLL parse fails and whose full LL parse succeeds (found over the banks).
NEEDS_LL = ("N^2", r"2 d_{model}", r"\frac{1}{N}\mathbf{1}_N \mathbf{1}_N^T V")


# the first run's only: antlr's runtime is latex2sympy2's pin (4.7.2) in both of CI's runs, and
# the second run still reads the texts that need the second stage (below)
@pytest.mark.exhaustive
def test_the_two_stage_parse_reads_every_text_as_the_full_parse_does(monkeypatch):
    """antlr's guarantee (an SLL parse that succeeds builds LL's tree), checked: the same
    expression, or the same refusal in the same words, for each of some 600 texts."""
    texts = _texts()
    assert len(texts) > 500
    monkeypatch.setattr(readers, "TWO_STAGE", False)
    full = [_reading(t) for t in texts]
    monkeypatch.setattr(readers, "TWO_STAGE", True)
    two = [_reading(t) for t in texts]
    assert [(t, a, b) for t, a, b in zip(texts, full, two, strict=True) if a != b] == []
    assert sum(r.startswith("Latex") for r in full) > 20  # refusals are compared too


def test_a_text_sll_cannot_parse_is_read_by_the_second_stage(monkeypatch):
    """Where the first stage bails out, the text is parsed again with full LL prediction."""
    import sympy as sp

    failures = []
    real = readers._sll_failure
    monkeypatch.setattr(readers, "_sll_failure", lambda exc: failures.append(exc) or real(exc))
    for text in NEEDS_LL:
        failures.clear()
        assert not _reading(text).startswith("Latex"), text
        assert len(failures) == 1, text
    assert _reading("N^2") == sp.srepr(sp.Symbol("N") ** 2)


def test_the_first_stage_predicts_without_full_context(monkeypatch):
    """The first stage is SLL: it never falls back to full-context prediction, which the
    library's own LL mode does on the same text (the cost the two stages save)."""
    from antlr4.atn.ParserATNSimulator import ParserATNSimulator

    calls = []
    real = ParserATNSimulator.execATNWithFullContext
    monkeypatch.setattr(ParserATNSimulator, "execATNWithFullContext", lambda *a: calls.append(1) or real(*a))
    text = r"\frac{e^{2} + 11}{e^{2} + 2} + \sin(x)"
    monkeypatch.setattr(readers, "TWO_STAGE", False)
    _reading(text)
    assert calls
    calls.clear()
    monkeypatch.setattr(readers, "TWO_STAGE", True)
    assert _reading(text) == _reading(text) and not calls


def test_only_a_parse_failure_sends_a_text_to_the_second_stage():
    """What ends the first stage and leads to the full parse: antlr's bail-out and recognition
    errors, the library listener's bare Exception, trailing input, too deep a nesting. Anything
    else (out of memory, an alarm, a conversion's own error) is raised as it is, never retried."""
    from antlr4.error.Errors import ParseCancellationException, RecognitionException

    retried = [
        ParseCancellationException("bail"),
        RecognitionException(),
        Exception("I don't understand this"),
        readers.TrailingInput(")", 5),
        RecursionError(),
    ]
    assert all(readers._sll_failure(exc) for exc in retried)

    class Alarm(Exception):
        pass

    assert not any(
        readers._sll_failure(exc) for exc in (MemoryError(), ValueError("x"), Alarm(), TypeError())
    )
