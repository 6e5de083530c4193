"""Answer checking beside its peers: latex2sympy's and Math-Verify's own test cases, and the answer bank.

Run: python bench/peers_answers.py [--out docs/answer-peers.md] [--math-verify PYTHON]

Writes docs/answer-peers.md (not by `symattn build`: it needs Math-Verify, which cannot share
symattn's environment). Math-Verify pins antlr 4.13 and latex2sympy2 pins 4.7.2, so it lives in
its own virtual environment, found at --math-verify, $SYMATTN_MATH_VERIFY_PYTHON or
.venv-mathverify/bin/python; make it with

    python3 -m venv .venv-mathverify && .venv-mathverify/bin/pip install math-verify==0.9.0

Without it the page says why and reports symattn's side alone.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import re
import select
import subprocess
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

import peer_suites

ROOT = Path(__file__).resolve().parent.parent
MV_CASES = peer_suites.DATA / "math_verify_cases.jsonl"
BANKS = (ROOT / "tests" / "data" / "answer_bank.csv", peer_suites.DATA / "provisional_answer_bank.csv")
DEFAULT_MV_PYTHON = ROOT / ".venv-mathverify" / "bin" / "python"
#: Seconds for one Math-Verify verdict (it has its own 5 s alarms; some answers run past them).
MV_TIMEOUT = 30.0


# -- Math-Verify in its own interpreter --------------------------------------------------------
def find_math_verify(python: str | None = None) -> tuple[str | None, str]:
    """(interpreter with Math-Verify, its version) or (None, the reason it is not available)."""
    path = python or os.environ.get("SYMATTN_MATH_VERIFY_PYTHON") or str(DEFAULT_MV_PYTHON)
    if not Path(path).exists():
        return (
            None,
            f"no Python interpreter at {path} (make Math-Verify's environment: see bench/peers_answers.py)",
        )
    probe = subprocess.run(
        [path, "-c", "import importlib.metadata as m; import math_verify; print(m.version('math-verify'))"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    if probe.returncode != 0:
        last = (probe.stderr.strip().splitlines() or ["unknown error"])[-1]
        return None, f"Math-Verify does not import with {path}: {last}"
    return path, probe.stdout.strip()


class MathVerify:
    """Math-Verify's verdicts from a worker in its own environment, restarted after a hang."""

    def __init__(self, python: str) -> None:
        self.python = python
        self.proc: subprocess.Popen[str] | None = None

    def _start(self) -> None:
        self.proc = subprocess.Popen(
            [self.python, str(Path(__file__).parent / "_math_verify_worker.py")],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        self._read(120.0)  # the "ready" line, after its imports

    def _read(self, timeout: float) -> dict[str, Any] | None:
        assert self.proc is not None and self.proc.stdout is not None
        ready, _, _ = select.select([self.proc.stdout], [], [], timeout)
        line = self.proc.stdout.readline() if ready else ""
        return json.loads(line) if line else None

    def verdict(self, gold: str, pred: str, precision: int | None = None) -> dict[str, Any]:
        if self.proc is None or self.proc.poll() is not None:
            self._start()
        assert self.proc is not None and self.proc.stdin is not None
        self.proc.stdin.write(json.dumps({"gold": gold, "pred": pred, "precision": precision}) + "\n")
        self.proc.stdin.flush()
        out = self._read(MV_TIMEOUT)
        if out is None:  # a hang, or the memory limit killed it
            self.close()
            return {"verdict": 0, "error": f"no verdict within {MV_TIMEOUT:g} s or out of memory"}
        return out

    def close(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
            self.proc = None


# -- symattn's verdicts --------------------------------------------------------------------------
def symattn_verdict(
    answer: str, kind: str, value: Any, tolerance: Any = 0, variable: str = "N", mistakes: tuple = ()
) -> Any:
    from symattn.grading.answers.judge import Expected, judge

    return judge(answer, Expected(kind, value, tolerance, variable), mistakes)


def mv_case_tolerance(case: dict[str, Any]) -> Any:
    """Math-Verify rounds to ``precision`` decimals (6 by default): symattn gets 10^-precision."""
    import sympy as sp

    return sp.Rational(1, 10 ** (case.get("precision") or 6))


#: Math-Verify's cases whose label is the wrong standard for a course: (gold, pred) -> why.
COURSE_STANDARD: dict[tuple[str, str], tuple[int, str]] = {
    ("$z = 1 + 1 = 2$", "$z = 3+3 = 2$"): (0, "a false step: 3+3 = 2"),
    ("$x = 11$", "$x = 5+5+1 = 7 =11$"): (0, "a false step: 5+5+1 = 7 = 11"),
    ("$x = 1/3$", "$x = 5+5+1 = 1/3 \\approx 11$"): (0, "false steps: 5+5+1 = 1/3, and 1/3 ≈ 11"),
    ("$1/3$", "$x=1/3\\approx1.3$"): (0, "a false step: 1/3 ≈ 1.3"),
    ("$10/9$", "Answer $ \\frac{1}{2} \\$ = \\frac{10}{9} $"): (0, "a false equation: 1/2 = 10/9"),
    ("$1 - \\frac{1}{\\mathrm{e}}$", "$1 + \\frac{1}{\\mathrm{e}}$"): (0, "1 + 1/e is not 1 - 1/e"),
    ("$9$", "Answer $ \n 9 \n $"): (1, "the right answer, written over three lines"),
    ("$9$", "Answer \\( \n 9 \n \\)"): (1, "the right answer, written over three lines"),
}

#: Probes written here (not Math-Verify's tests) to show its standard on two points the issue names.
PROBES: tuple[tuple[str, str, int, str], ...] = (
    ("$28\\%$", "$28$", 0, "28 is not 28%: a course reads 28% as 0.28"),
    ("$28\\%$", "$0.28$", 1, "0.28 is 28%"),
    ("$2$", "$z = 3+3 = 2$", 0, "a false step: 3+3 = 2"),
)


@dataclass
class Row:
    """One answer judged by symattn and Math-Verify, beside the verdict it should get."""

    gold: str
    answer: str
    want: int  # 1 correct, 0 not
    symattn: str
    symattn_feedback: str
    mv: int | None
    mv_note: str
    reason: str = ""
    source: str = ""
    course: int = 0  # the verdict a course gives (Math-Verify's label, or COURSE_STANDARD's)
    prose: bool = False  # the prediction is a worked solution or a sentence, not an answer
    bank_verdict: str = ""  # correct, incorrect or invalid, for an answer-bank row


def run_mv_cases(cases: list[dict[str, Any]], mv: MathVerify | None) -> list[Row]:
    rows = []
    for case in cases:
        value = peer_suites.trusted_value(case["gold_value"])
        v = symattn_verdict(
            case["pred"], case["gold_kind"], value, mv_case_tolerance(case), case.get("variable") or "N"
        )
        course, reason = COURSE_STANDARD.get((case["gold"], case["pred"]), (case["label"], ""))
        mv_out = mv.verdict(case["gold"], case["pred"], case.get("precision")) if mv else None
        rows.append(
            Row(
                case["gold"],
                case["pred"],
                case["label"],
                v.verdict,
                v.feedback,
                None if mv_out is None else mv_out.get("verdict"),
                "" if mv_out is None else mv_out.get("error", ""),
                reason,
                case["source"],
                course=course,
                prose=case["prose"] or in_a_sentence(case["pred"]),
            )
        )
    return rows


def load_bank() -> tuple[Path, list[dict[str, str]]]:
    """The judge's answer bank where it exists, else the provisional one made for this report."""
    for path in BANKS:
        if path.exists():
            with open(path, newline="", encoding="utf-8") as fh:
                return path, list(csv.DictReader(fh))
    raise FileNotFoundError("no answer bank")


def run_bank(bank: list[dict[str, str]], mv: MathVerify | None) -> list[Row]:
    from symattn.grading import exercises
    from symattn.grading.answers.judge import judge

    rows = []
    for entry in bank:
        seed = int(entry["seed"]) if entry.get("seed") else None
        ex = exercises.get(entry["exercise"], seed)
        v = judge(entry["answer"], ex.expected, ex.mistakes)
        gold = f"${ex.expected.latex()}$"
        mv_out = mv.verdict(gold, _delimited(entry["answer"])) if mv else None
        label = f"{entry['exercise']}" + (f" seed {seed}" if seed is not None else "")
        rows.append(
            Row(
                gold,
                entry["answer"],
                int(entry["verdict"] == "correct"),
                v.verdict,
                v.feedback,
                None if mv_out is None else mv_out.get("verdict"),
                "" if mv_out is None else mv_out.get("error", ""),
                entry.get("reason", ""),
                label,
                bank_verdict=entry["verdict"],
            )
        )
    return rows


_MATH = re.compile(r"\$\$.*?\$\$|\$.*?\$|\\\(.*?\\\)|\\\[.*?\\\]", re.S)


def in_a_sentence(pred: str) -> bool:
    """True for a prediction with words outside its mathematics ("Answer $9$", "28 percent")."""
    outside = _MATH.sub(" ", pred)
    outside = re.sub(r"\\[A-Za-z]+", " ", outside)
    return bool(re.search(r"[A-Za-z]{2,}", outside))


def _delimited(answer: str) -> str:
    """An answer as Math-Verify's LaTeX extraction expects it: inside math delimiters."""
    s = answer.strip()
    if s.startswith(("$", "\\(", "\\[")) or "\\boxed" in s:
        return s
    return f"${s}$"


# -- the page ----------------------------------------------------------------------------------
def _pct(n: int, d: int) -> str:
    return f"{n}/{d} ({100 * n / d:.1f}%)" if d else "0/0"


def _cell(text: Any, width: int = 70) -> str:
    s = str(text).replace("\n", "\\n").replace("|", "\\|")
    s = s if len(s) <= width else s[: width - 1] + "…"
    return f"`{s}`" if s and not s.startswith("`") else s


def _yes(v: int | None) -> str:
    return "—" if v is None else ("correct" if v else "not correct")


def latex2sympy_section(results: list[peer_suites.PairResult]) -> list[str]:
    s = peer_suites.summary(results)
    lines = [
        "## latex2sympy's own test cases",
        "",
        f"{s['pairs']} LaTeX-to-SymPy pairs and {s['bad']} strings that must be refused, from "
        f"{peer_suites.L2S_SOURCE}, vendored in `tests/data/peers/`. Each is read by raw "
        "latex2sympy2 1.9.1 and by symattn's answer reader (`symattn.grading.answers.notation.precheck`, "
        "`symattn.grading.answers.notation.split_chain`, then "
        "`symattn.grading.answers.parsing.read_latex` for each side). "
        "Parse-equal means the expected value, exactly (a float in "
        "upstream's expectation is the decimal its author typed; symbolic differences must "
        "simplify to 0).",
        "",
        "| reader | parse-equal | refused | another value |",
        "| --- | --- | --- | --- |",
        f"| raw latex2sympy2 | {_pct(s['raw_equal'], s['pairs'])} | "
        f"{sum(r.raw == 'error' for r in results if r.kind == 'good')} | "
        f"{sum(r.raw == 'different' for r in results if r.kind == 'good')} |",
        f"| symattn | {_pct(s['adapter_equal'], s['pairs'])} | {s['adapter_refused']} | "
        f"{sum(r.adapter == 'different' for r in results if r.kind == 'good')} |",
        "",
        _changed_sentence(s),
        "",
        "### Refused on purpose",
        "",
        "Every pair symattn refuses falls in one of these categories "
        "(`tests/grading/answers/test_peer_suites.py` checks it):",
        "",
        "| category | pairs | why |",
        "| --- | --- | --- |",
    ]
    for refusal in peer_suites.REFUSALS:
        lines.append(f"| {refusal.name} | {s['by_category'].get(refusal.name, 0)} | {refusal.why} |")
    return [*lines, ""]


def _changed_sentence(s: dict[str, Any]) -> str:
    """Whether symattn changed any value, naming each pair where it did."""
    changed = s["changed"]
    text = (
        "Where raw latex2sympy2 reads the expected value and symattn gives a value, it is the same "
        if not changed
        else f"symattn changes the value of {len(changed)} pairs that raw latex2sympy2 reads right "
        f"(a known bug of its reader, a failing case in `tests/grading/answers/test_peer_suites.py`): "
        + ", ".join(_cell(r.latex, 40) for r in changed)
        + "; elsewhere, where raw latex2sympy2 reads the expected value and symattn gives a value, "
        "it is the same"
    )
    bad = [r for r in s["bad_results"] if r.adapter != "error"]
    return (
        f"{text}. Of the {s['bad']} strings upstream expects refused, raw latex2sympy2 reads "
        f"{s['bad_accepted_raw']} and symattn {len(bad)}"
        + (": " + ", ".join(_cell(r.latex, 40) for r in bad) if bad else "")
        + "."
    )


def mv_section(rows: list[Row], mv_status: str, probes: list[Row]) -> list[str]:
    short = [r for r in rows if not r.prose]
    prose = len(rows) - len(short)
    agree_label = sum((r.symattn == "correct") == bool(r.want) for r in short)
    agree_course = sum((r.symattn == "correct") == bool(r.course) for r in short)
    lines = [
        "## Math-Verify's own test cases",
        "",
        f"{len(rows)} cases of huggingface/Math-Verify's tests whose gold is a number, a matrix or a "
        f"threshold, vendored in `tests/data/peers/`; {prose} of them have a worked solution or a "
        "sentence as the prediction (words outside the mathematics: `Answer $9$`, `28 percent`), "
        "which symattn does not read (it judges an answer, not the text around it): they are left "
        f"out of symattn's rates. Math-Verify here: {mv_status}. symattn judges each "
        "prediction as a learner's answer, with a tolerance of 10^-p for Math-Verify's rounding to "
        "p decimals (6 unless the case sets it).",
        "",
        f"- symattn agrees with Math-Verify's labels on {_pct(agree_label, len(short))} answers,",
        f"- and with a course's standard (the labels, corrected where named below) on "
        f"{_pct(agree_course, len(short))}.",
    ]
    if any(r.mv is not None for r in rows):
        own = sum(r.mv == r.want for r in short)
        every = sum(r.mv == r.want for r in rows)
        lines.append(
            f"- Math-Verify itself gives its labels on {_pct(own, len(short))} of "
            f"the same answers, and on {_pct(every, len(rows))} of all {len(rows)} cases."
        )
    lines += [
        "",
        "### Where Math-Verify's label is the wrong standard for a course",
        "",
        "| gold | prediction | label | course | symattn | why |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for r in rows:
        if r.reason:
            lines.append(
                f"| {_cell(r.gold, 30)} | {_cell(r.answer, 40)} | {_yes(r.want)} | "
                f"{_yes(r.course)} | {r.symattn} | {r.reason} |"
            )
    if probes:
        lines += [
            "",
            "Probes written here (not Math-Verify's tests), run through Math-Verify:",
            "",
            "| gold | answer | course | Math-Verify | why |",
            "| --- | --- | --- | --- | --- |",
        ]
        for p in probes:
            lines.append(
                f"| {_cell(p.gold)} | {_cell(p.answer)} | {_yes(p.want)} | {_yes(p.mv)} | {p.reason} |"
            )
    lines += [
        "",
        "### Every disagreement of symattn with the course standard",
        "",
        "| gold | prediction | course | symattn | symattn's feedback |",
        "| --- | --- | --- | --- | --- |",
    ]
    for r in short:
        if (r.symattn == "correct") != bool(r.course):
            lines.append(
                f"| {_cell(r.gold, 30)} | {_cell(r.answer, 40)} | {_yes(r.course)} | "
                f"{r.symattn} | {_cell(r.symattn_feedback, 60)} |"
            )
    return [*lines, ""]


def bank_section(rows: list[Row], bank_path: Path, mv_status: str) -> list[str]:
    n = len(rows)
    sym = sum((r.symattn == "correct") == bool(r.want) for r in rows)
    sym_exact = sum(r.symattn == r.bank_verdict for r in rows)
    lines = [
        "## The answer bank through both",
        "",
        f"{n} answers from `{bank_path.relative_to(ROOT)}`, each with the verdict a careful grader "
        f"gives. Math-Verify: {mv_status}; it gets the exercise's exact answer as gold, and the "
        "answer inside `$...$`. Math-Verify has no invalid verdict, so agreement counts correct "
        "against not correct.",
        "",
        "| checker | agrees with the bank |",
        "| --- | --- |",
        f"| symattn (correct / not correct) | {_pct(sym, n)} |",
        f"| symattn (correct / incorrect / invalid) | {_pct(sym_exact, n)} |",
    ]
    if any(r.mv is not None for r in rows):
        mv = sum(r.mv == r.want for r in rows)
        lines.append(f"| Math-Verify (correct / not correct) | {_pct(mv, n)} |")
    lines += [
        "",
        "### Disagreements, side by side",
        "",
        "| exercise | answer | bank | symattn | Math-Verify | bank's reason |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for r in rows:
        sym_ok = r.symattn == r.bank_verdict
        mv_ok = r.mv is None or r.mv == r.want
        if not (sym_ok and mv_ok):
            mv = _yes(r.mv) + (f" ({r.mv_note})" if r.mv_note else "")
            lines.append(
                f"| {r.source} | {_cell(r.answer, 45)} | {r.bank_verdict} | {r.symattn} | {mv} | {r.reason} |"
            )
    return [*lines, ""]


def build(
    pairs: list[dict[str, Any]] | None = None,
    mv_cases: list[dict[str, Any]] | None = None,
    bank: tuple[Path, list[dict[str, str]]] | None = None,
    math_verify: str | None = None,
    progress: bool = False,
) -> str:
    """The whole page, as Markdown."""
    python, status = find_math_verify(math_verify)
    mv_status = f"Math-Verify {status}, in its own environment" if python else f"not run: {status}"
    mv = MathVerify(python) if python else None
    try:
        results = peer_suites.run_all(pairs, progress=progress)
        cases = mv_cases if mv_cases is not None else _load_jsonl(MV_CASES)
        mv_rows = run_mv_cases(cases, mv)
        probes = (
            [Row(g, a, w, "", "", mv.verdict(g, a)["verdict"], "", why) for g, a, w, why in PROBES]
            if mv
            else []
        )
        bank_path, bank_rows = bank or load_bank()
        rows = run_bank(bank_rows, mv)
    finally:
        if mv:
            mv.close()
    page = [
        "# Answer checking beside its peers",
        "",
        "Written by `python bench/peers_answers.py` (not by `symattn build`: Math-Verify needs its "
        "own Python environment, since its antlr 4.13 cannot share one with latex2sympy2's 4.7.2).",
        "",
        *latex2sympy_section(results),
        *mv_section(mv_rows, mv_status, probes),
        *bank_section(rows, bank_path, mv_status),
    ]
    return "\n".join(page)


def _load_jsonl(path: Path) -> list[dict[str, Any]]:
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def main(argv: Iterable[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(ROOT / "docs" / "answer-peers.md"))
    parser.add_argument("--math-verify", default=None, help="Python interpreter with Math-Verify")
    args = parser.parse_args(list(argv) if argv is not None else None)
    page = build(math_verify=args.math_verify, progress=sys.stderr.isatty())
    Path(args.out).write_text(page)
    print(page)


if __name__ == "__main__":
    main()
