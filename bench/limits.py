"""Benchmark: how long the refusals and the fuzzed calls take, the times the tests no longer assert.

Run: python bench/limits.py [--fuzz] [--banks [--every N]]

A test may assert that a limit was enforced (a worker past its deadline is "too costly", a tower
of exponentials is "beyond reach"); how soon that happens depends on the machine and on what else
it runs, so it is measured here, in one run, beside each limit the code sets. ``--fuzz`` adds the
slowest of the command-line fuzz's 2,080 argument lists, of the lab fuzz's 300 and of the bounds
fuzz's hostile checks and audits (minutes). ``--banks`` (issue 49, as root: it makes a cgroup)
checks every answer bank, the hostile answers and proofs, every folder of learner proofs and the
course file three times, as tests/grading/test_machines.py checks a sample: on the machine as it
is (1x), beside four spinning processes per core, and held to a quarter of one CPU (4x slower);
for each bank it reports the verdicts that differ (there must be none), the largest measures an
accepted input reaches (those the judge bounds: tests/machines.py), and the slowest check's time
in each condition. ``--every N`` checks one case in N of each bank.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import random
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(1, str(ROOT))  # the project's derivations package, ahead of tests/derivations/
for folder in (
    "tests",
    "tests/cli",
    "tests/grading",
    "tests/grading/answers",
):  # the tests' inputs, looked up last
    sys.path.append(str(ROOT / folder))

import _common  # noqa: E402, F401  (single-threaded BLAS)

Row = tuple[str, str, float, str]


def _row(what: str, limit: str, f: Callable[[], object]) -> Row:
    """(what, limit, wall-clock seconds of one call of ``f``, how it ended: its error, its last
    line on stderr, or what it returned); its output is swallowed (a refusal is the point)."""
    start = time.perf_counter()
    err = io.StringIO()
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
            ended = repr(f())[:80]
    except (Exception, SystemExit) as exc:
        ended = f"{type(exc).__name__}: {exc}"[:80]
    seconds = time.perf_counter() - start
    if err.getvalue().strip():
        ended = err.getvalue().strip().splitlines()[-1][-80:]
    return what, limit, seconds, ended


def _slowest(what: str, limit: str, calls: list[tuple[str, Callable[[], object]]]) -> Row:
    """The slowest of ``calls`` (label, call), named by its label."""
    return max((_row(f"{what}: {label[:60]}", limit, f) for label, f in calls), key=lambda row: row[2])


def refusals() -> list[Row]:
    """(what, the limit the code sets, seconds, how it ended) for each refusal a test checks by
    its message, and the slowest of the hostile answers and of the answer bank."""
    import sympy as sp
    from test_answer_bank import ROWS
    from test_judge import EX2, HOSTILE
    from test_parsing import _spin, _tower

    from symattn.cli import commands, main
    from symattn.core.digits import decimal_string
    from symattn.grading.answers.judge import CPU_SECONDS, TIMEOUT, judge
    from symattn.grading.audit import rules
    from symattn.grading.exercises import get
    from symattn.grading.worker import isolated

    rows = [
        _row("build --out /dev/null/docs", "none", lambda: main(["build", "--out", "/dev/null/docs"])),
        _row("digits of exp(exp(exp(100)))", "none", lambda: decimal_string(sp.exp(sp.exp(sp.exp(100))), 5)),
        _row("a worker returning a SymPy expression", "none", lambda: isolated(_tower)),
        _row("a worker that never returns", "timeout 1 s", lambda: isolated(_spin, timeout=1.0)),
    ]
    spin_line, budget = rules.Auditor._line, commands.AUDIT_CPU_SECONDS
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "m.md"
        path.write_text("# M\n\nWe have $2 + 2 = 4$.\n", encoding="utf-8")
        rules.Auditor._line, commands.AUDIT_CPU_SECONDS = lambda self, line: _spin(), 1  # as its test does
        try:
            rows.append(
                _row("audit with a rule that never ends", "CPU 1 s", lambda: main(["audit", str(path)]))
            )
        finally:
            rules.Auditor._line, commands.AUDIT_CPU_SECONDS = spin_line, budget
    limit = f"{TIMEOUT:g} s, CPU {CPU_SECONDS} s"
    hostile = [(r, lambda e=e, r=r: judge(r, e.expected, e.mistakes)) for e, r in HOSTILE]
    rows.append(_slowest(f"slowest of the {len(HOSTILE)} hostile answers", limit, hostile))
    rows.append(_row("a normal answer after them", limit, lambda: judge("1.959", EX2.expected, EX2.mistakes)))
    bank = []
    for row in ROWS:
        ex = get(row["exercise"], int(row["seed"]) if row["seed"] else None)
        bank.append((row["answer"], lambda ex=ex, row=row: judge(row["answer"], ex.expected, ex.mistakes)))
    rows.append(_slowest(f"slowest of the answer bank's {len(ROWS)} answers", limit, bank))
    return rows


def fuzz() -> list[Row]:
    """The slowest call of each command-line fuzz (tests/cli) and of the hostile inputs of
    tests/grading/test_bounds_fuzz.py, with its arguments."""
    from test_bounds_fuzz import _answers, _modules, _proofs
    from test_cli_fuzz import argument_lists
    from test_cli_lab import _argv

    from symattn.cli import main

    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        (folder / "module.md").write_text("**Exercise (compute).** 1 + 1 = ?\n\n**Answer.** 2\n")
        (folder / "empty.md").write_text("")
        files = [str(folder / "module.md"), str(folder / "empty.md"), "/dev/null", "-", ""]
        rng = random.Random(12)
        labs = [_argv(rng, folder) for _ in range(300)]
        hostile = [["check", ex, "--", text] for ex, text in _answers()]
        for k, (ex, text) in enumerate(_proofs()):
            (folder / f"p{k}.tex").write_text(text, encoding="utf-8")
            hostile.append(["check", ex, "--steps", str(folder / f"p{k}.tex")])
        for k, text in enumerate(_modules()):
            (folder / f"m{k}.md").write_text(text, encoding="utf-8")
            hostile.append(["audit", str(folder / f"m{k}.md")])
        return [
            _slowest(
                f"slowest of {len(lists)} {what}",
                "each command's",
                [(" ".join(a), lambda a=a: main(a)) for a in lists],
            )
            for what, lists in (
                ("fuzzed commands", argument_lists(files)),
                ("fuzzed labs", labs),
                ("hostile checks and audits", hostile),
            )
        ]


def banks(every: int) -> str:
    """The cross-machine table of ``--banks``: one row per bank."""
    from machines import cases, hostile_cases, loaded, quarter_cpu, run_elsewhere

    with tempfile.TemporaryDirectory() as folder:
        sample = cases(every) + hostile_cases(Path(folder))
        idle, idle_s = run_elsewhere(sample)
        with loaded(4):
            busy, busy_s = run_elsewhere(sample)
        with quarter_cpu(0.25) as group:
            slow, slow_s = run_elsewhere(sample, cgroup=group)
        return _banks_table(sample, (idle, busy, slow), (idle_s, busy_s, slow_s))


def _banks_table(sample: list[dict], runs: tuple[list[dict], ...], seconds: tuple[float, ...]) -> str:
    (idle, busy, slow), (idle_s, busy_s, slow_s) = runs, seconds
    lines = [
        f"{len(sample)} cases; the whole run took {idle_s:.0f} s idle, {busy_s:.0f} s beside "
        f"{4 * (os.cpu_count() or 1)} spinning processes, {slow_s:.0f} s at a quarter of a CPU",
        "",
        "| bank | cases | accepted | differ: load / 1/4 CPU | unchecked | largest measures accepted "
        "| slowest: CPU s idle / wall s load / wall s 1/4 CPU |",
        "|---|---:|---:|---|---:|---|---|",
    ]
    for bank in dict.fromkeys(r["case"]["bank"] for r in idle):
        rows = [k for k, r in enumerate(idle) if r["case"]["bank"] == bank]
        differ = [sum(idle[k]["printed"] != other[k]["printed"] for k in rows) for other in (busy, slow)]
        unchecked = sum(r[k]["code"] == 75 for r in (idle, busy, slow) for k in rows)
        accepted = [k for k in rows if idle[k]["code"] != 2]
        slowest = max(rows, key=lambda k: idle[k]["cpu"])
        lines.append(
            f"| {bank} | {len(rows)} | {len(accepted)} | {differ[0]} / {differ[1]} | {unchecked} "
            f"| {_largest([idle[k]['case'] for k in accepted])} | {idle[slowest]['cpu']:.2f} / "
            f"{max(busy[k]['wall'] for k in rows):.2f} / {max(slow[k]['wall'] for k in rows):.2f} |"
        )
    return "\n".join(lines)


def _largest(accepted: list[dict]) -> str:
    """The largest of each measure over accepted cases: an answer's (characters, nesting, digits,
    terms of a sum) or a derivation's (steps, terms of a step, nesting of operators, terms in all)."""
    from machines import DATA

    from symattn.grading.answers.notation import measures as answer_measures
    from symattn.grading.proofs.proof_judge import measures as step_measures
    from symattn.grading.proofs.step_reader import COSTLY_SOFTMAX, MAX_NESTED_OPERATORS

    found: dict[str, int] = {}
    for case in accepted:
        if case["kind"] == "answer":
            got = {**answer_measures(case["text"]), "terms multiplied out": _multiplied_out(case["text"])}
        elif case["kind"] == "steps":
            text = (DATA / case["path"]).read_text(encoding="utf-8-sig")
            steps = step_measures(case["exercise"], text, admitted=True)  # the steps let through
            got = {
                "steps": len(steps),
                "terms of a step": max((t for _, t, *_ in steps), default=0),
                "operator nesting": max((d for _, _, d, _ in steps), default=0),
                "softmax a side": max((n for *_, n in steps), default=0),
                "costly steps": sum(d == MAX_NESTED_OPERATORS or n >= COSTLY_SOFTMAX for _, _, d, n in steps),
                "terms in all": sum(t for _, t, *_ in steps),
            }
        else:
            continue
        for name, value in got.items():
            found[name] = max(found.get(name, 0), value)
    return ", ".join(f"{name} {value:,}" for name, value in found.items()) or "-"


def _multiplied_out(text: str) -> int:
    """The terms an accepted answer's sides multiply out to (symattn.proof.magnitude), read as
    the judge reads them; 0 where this process cannot read it (the judge's worker did)."""
    from symattn.grading.answers.notation import precheck, split_chain
    from symattn.grading.answers.sides import read_side
    from symattn.proof.magnitude import expanded_terms

    try:
        sides = [read_side(s, []) for s in split_chain(precheck(text, [], {})).sides]
    except Exception:  # a form only the worker's reader takes (a Python list, say)
        return 0
    return max(
        (expanded_terms(s) for s in sides if s is not None and not isinstance(s, (list, tuple))), default=0
    )


def _cell(text: str) -> str:
    """Text for a table cell: no bar, no control character."""
    return "".join(c if c.isprintable() else " " for c in text).replace("|", "/")


def table(rows: list[Row]) -> str:
    lines = ["| what | limit the code sets | seconds | ended with |", "|---|---|---:|---|"]
    lines += [
        f"| {_cell(what)} | {limit} | {seconds:.2f} | {_cell(ended)} |"
        for what, limit, seconds, ended in rows
    ]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fuzz", action="store_true", help="also time the fuzzed command lines")
    parser.add_argument("--banks", action="store_true", help="every bank idle, loaded and at 1/4 CPU")
    parser.add_argument("--every", type=int, default=1, metavar="N", help="one case in N of each bank")
    args = parser.parse_args()
    if args.banks:
        print(banks(args.every))
        return
    print(table(refusals() + (fuzz() if args.fuzz else [])))


if __name__ == "__main__":
    main()
