"""The LaTeX readers measured side by side: which one symattn reads learners' answers with, and why.

Run: python bench/readers.py [--out docs/readers.md] [--python PYTHON]

Each candidate of :data:`symattn.grading.answers.readers.READERS` is measured in an environment of its
own (their antlr runtimes cannot share one), made on first use under ``.venv-readers/NAME``
with ``PYTHON -m venv`` (default: the running interpreter) and the versions of
constraints.txt, the candidate's own distribution replacing latex2sympy2 and antlr 4.7.2. In
each, ``SYMATTN_READER=NAME`` makes symattn's answer path read with that candidate, and this
file runs itself as a worker (``--worker``) that measures, on the same inputs:

- latex2sympy's 1,637 vendored pairs (tests/data/peers): the reader alone (strict, as symattn
  drives it) and symattn's path (precheck, sides, reader): parse-equal, another value, refused,
  and the refusals by category (bench/peer_suites.py's);
- Math-Verify's 132 vendored cases, judged as learners' answers: agreement with the labels;
- tests/data/answer_bank.csv: every verdict, against the bank's, and the reading ("read as");
- the time to import the reader (fresh interpreters, median of 5) and the median time to judge
  one bank answer (the real path: precheck, forked worker, comparison);
- whether the reader and its runtime install as pure-Python wheels (``pip download
  --only-binary=:all:``), the only kind Pyodide can load.

Writes docs/readers.md (not by `symattn build`: it needs the three environments).
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

ROOT = Path(__file__).resolve().parent.parent
ENVS = ROOT / ".venv-readers"
BANK = ROOT / "tests" / "data" / "answer_bank.csv"

#: What each candidate installs in place of latex2sympy2 1.9.1 and antlr 4.7.2.
INSTALLS: dict[str, list[str]] = {
    "latex2sympy2": ["latex2sympy2==1.9.1", "antlr4-python3-runtime==4.7.2"],
    "latex2sympy2_extended": ["latex2sympy2_extended==1.11.0", "antlr4-python3-runtime==4.13.2"],
    "sympy-lark": ["lark==1.3.1"],
}


# -- in the candidate's environment -----------------------------------------------------------
def _import_seconds(repeat: int = 5) -> float:
    code = (
        "import time; t = time.perf_counter(); "
        "from symattn.grading.answers import readers; readers.current().load(); "
        "print(time.perf_counter() - t)"
    )
    times = [
        float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout)
        for _ in range(repeat)
    ]
    return statistics.median(times)


def _pairs() -> dict[str, Any]:
    import peer_suites

    from symattn.grading.answers.parsing import read_latex

    out = []
    for pair in peer_suites.load_pairs():
        expected = peer_suites.trusted_value(pair["expected"]) if pair["kind"] == "good" else None
        row: dict[str, Any] = {"latex": pair["latex"], "kind": pair["kind"]}
        for label, read in (("alone", read_latex), ("symattn", peer_suites.adapter_read)):
            try:
                value = read(pair["latex"])
            except Exception as exc:  # a refusal (LatexError, InvalidAnswer, the library's own)
                row[label] = "refused"
                if label == "symattn":
                    row["category"] = peer_suites.classify(pair["latex"], str(exc)) or "other"
                continue
            ok = pair["kind"] == "good" and peer_suites.same_value(value, expected)
            row[label] = "equal" if ok else "another"
        out.append(row)
    return {"pairs": out}


def _math_verify() -> list[str]:
    import peers_answers

    with open(peers_answers.MV_CASES, encoding="utf-8") as fh:
        cases = [json.loads(line) for line in fh if line.strip()]
    rows = peers_answers.run_mv_cases(cases, None)
    return [f"{r.symattn}|{r.course}|{int(r.prose)}" for r in rows]


def _bank() -> dict[str, Any]:
    from symattn.grading.answers.judge import judge, warm_up
    from symattn.grading.exercises import get

    warm_up()
    rows = _bank_rows()
    verdicts, readings, times = [], [], []
    for row in rows:
        ex = get(row["exercise"], int(row["seed"]) if row["seed"] else None)
        start = time.perf_counter()
        v = judge(row["answer"], ex.expected, ex.mistakes)
        times.append(time.perf_counter() - start)
        verdicts.append(v.verdict)
        readings.append(v.feedback if v.verdict == "invalid" else v.given)
    return {"verdicts": verdicts, "readings": readings, "median_check": statistics.median(times)}


def worker() -> dict[str, Any]:
    from symattn.grading.answers import readers

    reader = readers.current()
    return {
        "reader": reader.name,
        "python": sys.version.split()[0],
        "import_seconds": _import_seconds(),
        **_pairs(),
        "math_verify": _math_verify(),
        **_bank(),
    }


# -- in the parent ------------------------------------------------------------------------------
def environment(name: str, python: str) -> Path:
    """The candidate's interpreter, its environment made on first use."""
    env = ENVS / name
    exe = env / "bin" / "python"
    if exe.exists():
        return exe
    subprocess.run([python, "-m", "venv", str(env)], check=True)
    lines = (ROOT / "constraints.txt").read_text().splitlines()
    keep = [ln for ln in lines if not ln.startswith(("latex2sympy2", "antlr4-python3-runtime"))]
    constraints = env / "constraints.txt"
    constraints.write_text("\n".join(keep) + "\n")
    common = ["sympy", "mpmath", "numpy", "tqdm", "pebble"]
    pip = [str(exe), "-m", "pip", "install", "-q"]
    subprocess.run([*pip, "-c", str(constraints), *common, *INSTALLS[name]], check=True)
    subprocess.run([*pip, "--no-deps", "-e", str(ROOT)], check=True)
    return exe


def pure_wheels(name: str) -> dict[str, bool]:
    """For each distribution the candidate adds: does PyPI serve it as a py3-none-any wheel?"""
    found = {}
    with tempfile.TemporaryDirectory() as tmp:
        for spec in INSTALLS[name]:
            got = subprocess.run(
                [sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--only-binary=:all:",
                 "-d", tmp, spec],
                capture_output=True, text=True, check=False,
            )
            wheels = list(Path(tmp).glob(spec.split("==")[0].replace("-", "_") + "-*.whl"))
            found[spec] = got.returncode == 0 and any(w.name.endswith("py3-none-any.whl") for w in wheels)
    return found


def measure(name: str, python: str) -> dict[str, Any]:
    exe = environment(name, python)
    env = {**os.environ, "SYMATTN_READER": name}
    out = subprocess.run(
        [str(exe), __file__, "--worker"], env=env, capture_output=True, text=True, check=False, cwd=ROOT
    )
    if out.returncode != 0:
        raise SystemExit(f"bench/readers.py: the {name} worker failed:\n{out.stderr[-2000:]}")
    result = json.loads(out.stdout)
    result["wheels"] = pure_wheels(name)
    return result


def _count(rows: list[dict[str, Any]], key: str, value: str, kind: str = "good") -> int:
    return sum(r["kind"] == kind and r[key] == value for r in rows)


def _same(result: dict[str, Any], bank: list[dict[str, str]]) -> int:
    return sum(a == b["verdict"] for a, b in zip(result["verdicts"], bank, strict=True))


#: The rows of the readers' table, one measure each (the readers are its columns).
MEASURES = (
    "Python",
    "latex2sympy pairs, reader alone",
    "pairs through symattn",
    "another value through symattn",
    "refused through symattn",
    "Math-Verify cases (agree with a course)",
    "answer bank: same verdict",
    "import",
    "check, median",
    "pure wheels on PyPI",
)


def transposed(measures: tuple[str, ...], columns: dict[str, list[str]]) -> list[str]:
    """A Markdown table with one row per measure and one column per reader."""
    out = ["| measure | " + " | ".join(columns) + " |", "| --- |" + " --- |" * len(columns)]
    for k, measure in enumerate(measures):
        out.append(f"| {measure} | " + " | ".join(cells[k] for cells in columns.values()) + " |")
    return out


def _cell(text: str) -> str:
    text = " ".join(str(text).split())
    text = text if len(text) <= 90 else text[:87] + "..."
    return text.replace("|", "\\|")


def _bank_rows() -> list[dict[str, str]]:
    with open(BANK, encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


def page(results: dict[str, dict[str, Any]], chosen: str) -> str:
    bank = _bank_rows()
    good = sum(r["kind"] == "good" for r in next(iter(results.values()))["pairs"])
    lines = [
        "# Choosing the LaTeX reader",
        "",
        "Written by `python bench/readers.py` (not by `symattn build`: each candidate needs an "
        "environment of its own, since their antlr runtimes clash). Every candidate reads on the same "
        "path a learner's answer takes (`SYMATTN_READER=name`, `symattn/grading/answers/readers.py`): strict "
        "to the end of the text, decimals exact, symbols as written, no assignments.",
        "",
        f"symattn reads with **{chosen}**: it is the only candidate that gives every answer-bank "
        "verdict, and the only one whose readings of latex2sympy's pairs through symattn are not "
        "fewer. On Python 3.13 and later it imports through a shim that gives antlr 4.7.2 the "
        "`typing.io` module it names in its type hints (`symattn.grading.answers.readers.typing_io_shim`). "
        "antlr 4.7.2 has no wheel on PyPI, but it is pure Python: `pip wheel` builds a "
        "`py3-none-any` wheel of it from its source, which is what a site for Pyodide serves.",
        "",
    ]
    columns: dict[str, list[str]] = {}  # one column per reader, so the table fits a page's width
    for name, r in results.items():
        same = _same(r, bank)
        mv = [x.split("|") for x in r["math_verify"]]
        answers = [(v, int(c)) for v, c, prose in mv if prose == "0"]
        agree = sum((v == "correct") == bool(c) for v, c in answers)
        wheels = ", ".join(f"{spec}: {'yes' if ok else 'no'}" for spec, ok in r["wheels"].items())
        columns[name] = [
            r["python"],
            f"{_count(r['pairs'], 'alone', 'equal')}/{good}",
            f"{_count(r['pairs'], 'symattn', 'equal')}/{good}",
            str(_count(r["pairs"], "symattn", "another")),
            str(_count(r["pairs"], "symattn", "refused")),
            f"{agree}/{len(answers)}",
            f"{same}/{len(bank)}",
            f"{r['import_seconds']:.2f} s",
            f"{r['median_check'] * 1000:.0f} ms",
            wheels,
        ]
    lines += transposed(MEASURES, columns)
    base = results[chosen]
    lines += [
        "",
        "Pairs: latex2sympy's own tests (vendored in `tests/data/peers/`), parse-equal to upstream's "
        "expected value; another value: read, but not to the expected one. Math-Verify cases: "
        "those whose prediction is an answer, not a sentence, judged "
        "by symattn with each reader against a course's standard (`bench/peers_answers.py`). Import: "
        "the reader's library in a fresh interpreter, median of 5. Check: one bank answer judged in "
        "a forked worker, the parser warm, median over the bank.",
        "",
        "## Refusals through symattn, by category",
        "",
        "The pairs of the column \"refused through symattn\" above, by the category of "
        "`bench/peer_suites.py` their refusal falls in (\"other\": none of them).",
        "",
        "| category | " + " | ".join(results) + " |",
        "| --- |" + " --- |" * len(results),
    ]
    cats = sorted({r.get("category", "") for x in results.values() for r in x["pairs"]} - {""})
    for cat in cats:  # the pairs of the refused column: upstream's must-fail strings are not counted
        counts = [
            sum(r.get("category") == cat and r["kind"] == "good" for r in x["pairs"])
            for x in results.values()
        ]
        lines.append(f"| {cat} | " + " | ".join(map(str, counts)) + " |")
    lines += ["", "## Readings that change", ""]
    for name, r in results.items():
        if name == chosen:
            continue
        changed_pairs = [
            p["latex"]
            for p, q in zip(base["pairs"], r["pairs"], strict=True)
            if p["kind"] == "good" and p["symattn"] == "equal" and q["symattn"] != "equal"
        ]
        worse = [
            (row, base["readings"][i], r["verdicts"][i], r["readings"][i])
            for i, row in enumerate(bank)
            if r["verdicts"][i] != row["verdict"]
        ]
        lines += [
            f"### {name}",
            "",
            f"Through symattn it loses {len(changed_pairs)} of the pairs {chosen} reads to the expected "
            f"value, and gives {len(worse)} answer-bank verdicts other than the bank's"
            + (": every one listed, with the bank's reason and both readings." if worse else "."),
            "",
        ]
        if worse:
            lines += [
                f"| answer | the bank's verdict and why | {chosen} reads | {name} gives |",
                "| --- | --- | --- | --- |",
            ]
            for row, was, verdict, reading in worse:
                lines.append(
                    f"| `{_cell(row['answer'])}` | {row['verdict']}: {_cell(row['reason'])} "
                    f"| `{_cell(was)}` | {verdict}: `{_cell(reading)}` |"
                )
            lines.append("")
    lines += [
        f"### {chosen}",
        "",
        f"The reader in use: its verdicts are the bank's ({_same(base, bank)}/{len(bank)}; "
        "`tests/grading/answers/test_answer_bank.py` asserts each on every supported Python), "
        "so no reading changes.",
        "",
        "Kinds of difference seen: latex2sympy2_extended adds a number to the power of e after it "
        "(`6 e^{0}` is read as 6 + 1 = 7, where the answer means 6 times e^0), and refuses a number "
        "followed by `\\%`, `\\left( \\right)` around a whole answer and a bracketed list; SymPy's Lark "
        "grammar reads `8.192e3` as 8.192 times 3e, `1.9586E0` as 0, and refuses a sum whose "
        "terms begin with `+ -`.",
    ]
    return "\n".join(lines) + "\n"


def main(argv: Iterable[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(ROOT / "docs" / "readers.md"))
    parser.add_argument("--python", default=sys.executable, help="the Python the environments are made with")
    parser.add_argument("--reuse", action="store_true", help="take the results the last run saved")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(list(argv) if argv is not None else None)
    if args.worker:
        print(json.dumps(worker()))
        return
    from symattn.grading.answers import readers

    results = {}
    for name in readers.READERS:
        saved = ENVS / f"{name}.json"
        if args.reuse and saved.exists():
            results[name] = json.loads(saved.read_text())
            continue
        print(f"measuring {name} ...", file=sys.stderr)
        results[name] = measure(name, args.python)
        saved.write_text(json.dumps(results[name]))
    Path(args.out).write_text(page(results, readers.DEFAULT))
    print(Path(args.out).read_text())


if __name__ == "__main__":
    main()
