"""The audit's report as its worker makes it (symattn/cli/commands.py, _audit_report), called here
in-process: the command line runs it in an isolated process, where a mutation pass cannot see it
(bench/mutation.py). What it returns is what `symattn audit` prints, line for line."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from symattn.cli.commands import _audit_report
from symattn.present.audit_render import percent

DATA = Path(__file__).parents[1]
MODULE = DATA / "data" / "module" / "attention.md"
WRONG_KEYS = DATA / "fixtures" / "module_wrong.md"


def with_a_wrong_figure(tmp_path) -> Path:
    """The test module with one figure wrong (e^12.7 is about 327,747, not 33,000)."""
    text = MODULE.read_text(encoding="utf-8")
    bad = tmp_path / "bad.md"
    text = text.replace(r"e^{12.7} \approx 330{,}000", r"e^{12.7} \approx 33{,}000")
    bad.write_text(text, encoding="utf-8")
    return bad


@pytest.mark.parametrize("as_json", [False, True], ids=["text", "json"])
@pytest.mark.parametrize("which", ["module", "wrong keys", "wrong figure"])
def test_the_worker_report_is_what_audit_prints(cli, tmp_path, which: str, as_json: bool):
    fixed = {"module": MODULE, "wrong keys": WRONG_KEYS}
    path = fixed[which] if which in fixed else with_a_wrong_figure(tmp_path)
    report, problems, wrong = _audit_report(path.read_text(encoding="utf-8"), as_json)
    code, out, err = cli("audit", str(path), *(["--json"] if as_json else []))
    assert (out, err.splitlines(), code) == (report, problems, 1 if wrong else 0)
    assert wrong == (which != "module")


def test_a_wrong_figure_is_one_line_naming_its_line_and_true_value(tmp_path):
    text = with_a_wrong_figure(tmp_path).read_text(encoding="utf-8")
    line = next(n for n, t in enumerate(text.splitlines(), start=1) if "33{,}000" in t)
    _, problems, wrong = _audit_report(text, False)
    # e^12.7 = 327,747.90... (to one decimal, as the audit shows true values)
    said = f"symattn: wrong: line {line}: e^(12.7) ≈ 33,000: true value e^(127/10) ≈ 327747.9"
    assert wrong and problems == [said]


def test_a_text_with_nothing_to_audit_has_no_report():
    assert _audit_report("Attention is all you need.\n", False) == (None, [], False)


def test_the_audit_runs_in_a_worker_under_its_own_limits(cli, monkeypatch):
    """audit hands the text to an isolated worker with its limits, a safety net far above what the
    bounds of the text cost (the guide: 40 CPU seconds, 120 s of wall clock, 500 MB and a 64 MiB
    report; the worker's enforcement of its limits is tested with the parser's, in
    tests/grading/answers/test_parsing.py and tests/grading/test_bounds_fuzz.py)."""
    from symattn.grading import worker

    seen = []
    real = worker.isolated

    def recorded(fn, *args, **limits):
        seen.append((fn.__name__, limits))
        return real(fn, *args, **limits)

    monkeypatch.setattr(worker, "isolated", recorded)
    assert cli("audit", str(MODULE))[0] == 0
    assert seen == [
        (
            "_audit_report",
            {
                "timeout": 120.0,
                "memory_mb": 500,
                "cpu_seconds": 40,
                "max_bytes": 64 * 2**20,
            },
        )
    ]


def test_a_long_wrong_claim_is_shown_in_80_characters_with_the_value_it_claims():
    """A wrong claim longer than a line is cut to 80 characters, its start and its end, so that
    its one line shows the value claimed and still ends with the true value: here
    H_15 = 1/1 + ... + 1/15 = 3.3182..., claimed 2.5."""
    from fractions import Fraction

    terms = " + ".join(rf"\frac{{1}}{{{k}}}" for k in range(1, 16))
    _, problems, wrong = _audit_report(f"The fifteenth harmonic number: ${terms} \\approx 2.5$.\n", False)
    claim = " + ".join(f"1/{k}" for k in range(1, 16)) + " ≈ 2.5"  # as words() writes it, 99 characters
    harmonic = sum(Fraction(1, k) for k in range(1, 16))
    shown = "1/1 + 1/2 + 1/3 + 1/4 + 1/5 + 1/6 + 1/7…+ 1/11 + 1/12 + 1/13 + 1/14 + 1/15 ≈ 2.5"  # 39, …, 40
    assert len(claim) > 80 and len(shown) <= 80
    assert wrong and problems == [f"symattn: wrong: line 1: {shown}: true value {float(harmonic):.6f}"]


def test_the_terminal_table_shows_a_long_claim_by_its_start_and_the_value_it_claims():
    from symattn.grading.audit.keys import audit_module
    from symattn.present.audit_render import claims_table

    terms = " + ".join(rf"\frac{{1}}{{{k}}}" for k in range(1, 16))
    table = claims_table(audit_module(f"The fifteenth harmonic number: ${terms} \\approx 2.5$.\n"))
    shown = "1/1 + 1/2 + 1/3 + 1/4 +…1/13 + 1/14 + 1/15 ≈ 2.5"  # its first 23, …, its last 24 (of 48)
    assert f" {shown} " in table and "1/8" not in table


def test_wrong_keys_are_named_by_their_exercise_or_else_their_position():
    """A key the registry's exercise disagrees with is named by that exercise's id; a key no
    exercise of the registry fits (a spider's legs, here the eighth exercise) by its position.
    Each at the line of its *Answer:*."""
    text = WRONG_KEYS.read_text(encoding="utf-8") + (
        "\n**Exercise (apply).** How many legs has a spider?\n\n*Answer:* 8 (within 0)\n"
    )
    lines = text.splitlines()
    keys = ("1.9 (within 0.01)", "4096 (within 0)", "8 (within 0)")
    at = {key: lines.index(f"*Answer:* {key}") + 1 for key in keys}
    _, problems, wrong = _audit_report(text, False)
    assert wrong and [p.split(": ")[1:3] for p in problems] == [
        ["wrong key", f"ex6.2 (line {at['1.9 (within 0.01)']})"],
        ["wrong key", f"ex6.5 (line {at['4096 (within 0)']})"],
        ["unmatched", f"exercise 8 (line {at['8 (within 0)']})"],
    ]


@pytest.mark.parametrize("as_json", [False, True], ids=["text", "json"])
def test_the_report_is_json_only_when_asked(as_json: bool):
    import json

    report, _, _ = _audit_report(MODULE.read_text(encoding="utf-8"), as_json)
    if as_json:
        assert set(json.loads(report)) >= {"claims", "keys"}
    else:
        assert not report.lstrip().startswith("{") and "ex6.2" in report


def test_a_wrong_claim_of_81_characters_is_cut_and_one_of_80_is_not():
    """The cut is at 80 characters: H_12 claimed as 2.5555 is 81 characters, and as 2.555, 80."""
    from fractions import Fraction

    terms = " + ".join(rf"\frac{{1}}{{{k}}}" for k in range(1, 13))
    true = str(sum(Fraction(1, k) for k in range(1, 13)))  # 86021/27720, shown exactly
    claim = " + ".join(f"1/{k}" for k in range(1, 13)) + " ≈ 2.555"
    assert len(claim) == 80
    _, problems, _ = _audit_report(f"H: ${terms} \\approx 2.555$.\n", False)
    assert problems == [f"symattn: wrong: line 1: {claim}: true value {true}"]
    _, problems, _ = _audit_report(f"H: ${terms} \\approx 2.5555$.\n", False)
    cut = claim[:39].rstrip() + "…" + (claim + "5")[-40:].lstrip()
    assert problems == [f"symattn: wrong: line 1: {cut}: true value {true}"]


@pytest.mark.parametrize(
    ("share", "shown"),
    [
        (Fraction(25, 28), "89.3 %"),  # 89.2857...: correctly rounded, not cut to 89.2
        (Fraction(54, 65), "83.1 %"),
        (Fraction(1, 8), "12.5 %"),  # a half, to even: 12.5 exactly
        (Fraction(1, 2000), "< 0.1 %"),  # 0.05 rounds to 0.0, but is more than none
        (Fraction(9996, 10000), "> 99.9 %"),  # short of all, never 100.0
        (Fraction(1), "100.0 %"),
        (Fraction(0), "0.0 %"),
    ],
)
def test_a_share_is_correctly_rounded_and_never_all_or_none_when_it_is_not(share, shown):
    assert percent(share) == shown
