"""Benchmark: `symattn grade` on 1,000 mixed answers against a loop of `symattn check` processes.

Run: python bench/grade_speed.py [--rows 1000] [--sample 40] [--jobs N] [--seed 0] [--file CLASS.csv]
     python bench/grade_speed.py --section   (the benchmarks page's section; see bench/report.py)

Writes a class file of ``--rows`` answers to ex6.2, ex6.4 and ex6.5 (one in ten to a seeded
variant, seeds 1-8), every row a different (exercise, seed, answer), so that grade's judging
each distinct answer once gives it no help here. Times one `symattn grade` command on it (a new
process: imports, pool, judging, summary) and one `symattn check` process per row on a random
sample of ``--sample`` rows, in the same run, and prints both throughputs and their ratio
(the loop's time projected to all rows from the sample's mean). The sample's verdicts must
equal grade's, or the benchmark stops. ``--file`` grades a class file instead (the tests'
tests/data/class_1000.csv repeats answers as a class does, and grade judges each once).
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

MASK_ROWS = (r"0 & -\infty & -\infty", r"0 & 0 & -\infty", r"0 & 0 & 0")


def answers(rows: int, seed: int) -> list[dict[str, str]]:
    """``rows`` distinct rows: right answers in several forms, named slips, wrong and unreadable ones."""
    rng = random.Random(seed)
    made: set[tuple[str, str, str]] = set()
    out: list[dict[str, str]] = []

    def one() -> tuple[str, str, str]:
        kind = rng.random()
        if kind < 0.1:  # a seeded variant of ex6.2 or ex6.5
            s = str(rng.randint(1, 8))
            if rng.random() < 0.5:
                return "ex6.2", s, f"{rng.uniform(-4, 9):.{rng.randint(1, 3)}f}"
            return "ex6.5", s, f"N > {rng.choice([128, 256, 512, 1024, 2048, 4096, 8192, 16384])}"
        if kind < 0.5:
            form = rng.random()
            if form < 0.4:
                return "ex6.2", "", f"{rng.uniform(1.9, 2.0):.{rng.randint(2, 4)}f}"
            if form < 0.6:
                a, b = rng.randint(1, 30), rng.randint(1, 9)
                return "ex6.2", "", rf"\frac{{e^{{2}}+{a}}}{{e^{{2}}+{b}}}"
            if form < 0.8:
                return "ex6.2", "", rng.choice(["4", "1", "18.39", "0.787", "2"]) + " " * rng.randint(0, 40)
            return (
                "ex6.2",
                "",
                rng.choice(["8192 )", "1,96", "banana", r"\def\x{1}\x"]) + "~" * rng.randint(0, 9),
            )
        if kind < 0.8:
            n = rng.choice([8192, 4096, 8193, 2, 16384, rng.randint(1, 10**6)])
            rel = rng.choice([">", "<", r"\geq", r"\gt"])
            return (
                "ex6.5",
                "",
                rng.choice([f"N {rel} {n}", f"{n}", f"{n} < N", f"n {rel} {n}"]) + " " * rng.randint(0, 3),
            )
        entries = [list(r.split(" & ")) for r in MASK_ROWS]
        for _ in range(rng.randint(0, 3)):
            i, j = rng.randrange(3), rng.randrange(3)
            entries[i][j] = rng.choice(["0", r"-\infty", "1", "-1", str(rng.randint(2, 99))])
        body = r" \\ ".join(" & ".join(r) for r in entries)
        return "ex6.4", "", rf"\begin{{bmatrix}} {body} \end{{bmatrix}}"

    while len(out) < rows:
        row = one()
        if row not in made:
            made.add(row)
            out.append(
                {"learner": f"learner{len(out):04d}", "exercise": row[0], "seed": row[1], "answer": row[2]}
            )
    return out


def check_once(exe: Path, row: dict[str, str]) -> tuple[float, str]:
    argv = [str(exe), "check", row["exercise"], "--json"]
    if row["seed"]:
        argv += ["--seed", row["seed"]]
    t = time.perf_counter()
    done = subprocess.run([*argv, "--", row["answer"]], capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - t
    verdict = json.loads(done.stdout)["verdict"] if done.stdout.strip() else "invalid"
    return seconds, verdict


# -- the benchmarks page's section ------------------------------------------------------------
COURSE = Path(__file__).parents[1] / "tests" / "data" / "course.csv"


def _grade_seconds(exe: Path, klass: Path, jobs: int | None) -> tuple[float, list[dict[str, str]]]:
    """One `symattn grade` process on ``klass``: its wall-clock seconds and its graded rows."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "graded.csv"
        argv = [str(exe), "grade", str(klass), "--out", str(out)] + (["--jobs", str(jobs)] if jobs else [])
        t = time.perf_counter()
        subprocess.run(argv, capture_output=True, check=True)
        seconds = time.perf_counter() - t
        with open(out, newline="", encoding="utf-8") as fh:
            return seconds, list(csv.DictReader(fh))


def _write_class(path: Path, rows: list[dict[str, str]]) -> Path:
    with open(path, "w", newline="", encoding="utf-8") as fh:
        w = csv.DictWriter(fh, list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    return path


class _Load:
    """One CPU-bound process beside the benchmark: a machine another job keeps busy."""

    def __enter__(self) -> _Load:
        self.proc = subprocess.Popen([sys.executable, "-c", "while True: pass"])
        return self

    def __exit__(self, *exc: object) -> None:
        self.proc.kill()
        self.proc.wait()


def _math_verify_seconds(rows: list[dict[str, str]]) -> tuple[float | None, str]:
    """Math-Verify's mean seconds per answer on ``rows`` (a warm worker in its own
    environment, as bench/peers_answers.py runs it), or None and why it is not available."""
    import peers_answers

    python, version = peers_answers.find_math_verify()
    if python is None:
        return None, version
    sys.path.insert(0, str(Path(__file__).parents[1]))
    from symattn.grading.exercises import get

    mv = peers_answers.MathVerify(python)
    try:
        mv.verdict("1", "1")  # start it: imports are not counted
        t = time.perf_counter()
        for r in rows:
            mv.verdict(
                get(r["exercise"], int(r["seed"]) if r["seed"] else None).expected.latex(), r["answer"]
            )
        return (time.perf_counter() - t) / len(rows), f"Math-Verify {version}"
    finally:
        mv.close()


def section(rows: int = 300, sample: int = 20, seed: int = 0) -> list[str]:
    """The benchmarks page's section on grading: throughput, workers, hostile rows, peers."""
    exe = Path(sys.executable).with_name("symattn")
    cores = len(os.sched_getaffinity(0))
    out: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        distinct = _write_class(Path(tmp) / "distinct.csv", answers(rows, seed))
        with open(COURSE, newline="", encoding="utf-8") as fh:
            course_rows = list(csv.DictReader(fh))
        calm = [r for r in course_rows if not r["steps_file"].startswith(("hostile/", "../", "/"))]
        calm_file = _write_class(COURSE.parent / ".bench-course-calm.csv", calm)
        try:
            times = {}
            for label, klass in (("distinct", distinct), ("course", COURSE), ("calm", calm_file)):
                for jobs in sorted({1, 2, cores}):
                    times[label, jobs, "idle"] = _grade_seconds(exe, klass, jobs)[0]
            for jobs in sorted({1, 2, cores}):
                with _Load():
                    times["course", jobs, "loaded"] = _grade_seconds(exe, COURSE, jobs)[0]
        finally:
            calm_file.unlink()
    generated = answers(rows, seed)
    picked = random.Random(seed + 1).sample(generated, min(sample, len(generated)))
    loop = statistics.mean(check_once(exe, r)[0] for r in picked)
    mv_seconds, mv_name = _math_verify_seconds(picked)
    n_course = len(course_rows)
    hostile = len(course_rows) - len(calm)
    best_jobs = min(
        sorted({1, 2, cores}), key=lambda j: times["course", j, "idle"] + times["course", j, "loaded"]
    )
    per_hour = 3600 * n_course / times["course", best_jobs, "idle"]
    out += [
        f"Each `symattn grade` is one new process on {cores} cores (imports, pool, judging, summary), "
        f"timed in this run. *Distinct*: {rows} generated answers to ex6.2, ex6.4 and ex6.5 (variants "
        f"included), no two alike, so judging each distinct answer once gives no help. *Course*: "
        f"tests/data/course.csv, {n_course} rows from 64 learners on six exercises (derivations as steps "
        f"files, resubmissions, variants) with {hostile} hostile rows (two derivations built to hit the "
        "limits, two steps files leading out of the folder); *course without them*: the same less those "
        "rows. *Loaded*: with one CPU-bound process running beside it.",
        "",
        "| class | workers | seconds | answers/s |",
        "|---|---|---|---|",
    ]
    for (label, jobs, load), secs in times.items():
        n = rows if label == "distinct" else n_course if label == "course" else len(calm)
        name = {"distinct": "distinct", "course": "course", "calm": "course without the hostile rows"}[label]
        out.append(
            f"| {name}{', loaded' if load == 'loaded' else ''} | {jobs} | {secs:.1f} | {n / secs:.1f} |"
        )
    ratio = times["course", best_jobs, "idle"] / times["calm", best_jobs, "idle"]
    out += [
        "",
        f"- Fastest on this machine, idle and loaded together: **{best_jobs} worker"
        f"{'s' if best_jobs > 1 else ''}** (the default is one per core, {cores} here).",
        f"- The hostile rows cost {ratio:.2f} times the course without them ({best_jobs} workers): each is "
        "stopped by its own limit (3.5 s of CPU for a derivation) in one worker while the others go on.",
        f"- A loop of `symattn check` processes: {loop:.2f} s per answer (mean of {len(picked)}), "
        f"{1 / loop:.1f} answers/s; grade on the distinct answers is "
        f"{loop * rows / times['distinct', best_jobs, 'idle']:.1f} times faster.",
    ]
    if mv_seconds is not None:
        out.append(
            f"- {mv_name} on the same {len(picked)} answers, in one warm process (imports not counted): "
            f"{mv_seconds * 1000:.0f} ms per answer, {1 / mv_seconds:.1f} answers/s (it checks answers only, "
            "not slips, variants or derivations)."
        )
    else:
        out.append(f"- Math-Verify not measured: {mv_name}.")
    out.append(
        f"- At the course's rate, one machine grades about **{per_hour:,.0f} rows an hour**: a course of "
        f"{int(per_hour // 6 // 100 * 100):,} learners handing in six exercises each."
    )
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1000)
    parser.add_argument("--sample", type=int, default=40)
    parser.add_argument("--jobs", type=int, default=None, help="grade's workers (default: one per core)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--file", help="grade this class file (CSV) instead of generated answers")
    parser.add_argument("--section", action="store_true", help="print the benchmarks page's section")
    args = parser.parse_args()
    if args.section:
        print("\n".join(section()))
        return
    exe = Path(sys.executable).with_name("symattn")
    if args.file:
        with open(args.file, newline="", encoding="utf-8") as fh:
            rows = [{"seed": "", **r} for r in csv.DictReader(fh)]
    else:
        rows = answers(args.rows, args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        grade_seconds, graded = _grade_seconds(exe, _write_class(Path(tmp) / "class.csv", rows), args.jobs)
    sample = random.Random(args.seed + 1).sample(range(len(rows)), min(args.sample, len(rows)))
    loop = []
    for i in sample:
        seconds, verdict = check_once(exe, rows[i])
        if verdict != graded[i]["verdict"]:
            raise SystemExit(f"row {i}: check says {verdict}, grade says {graded[i]['verdict']}")
        loop.append(seconds)
    per_check = statistics.mean(loop)
    counts = {v: sum(g["verdict"] == v for g in graded) for v in ("correct", "incorrect", "invalid")}
    jobs = args.jobs or len(os.sched_getaffinity(0))
    distinct = len({(r["exercise"], r["seed"], r["answer"]) for r in rows})
    print(
        f"{len(rows)} answers, {distinct} distinct ({counts}); {jobs} workers; "
        f"load average {os.getloadavg()[0]:.1f}"
    )
    print(f"symattn grade:          {grade_seconds:7.1f} s   {len(rows) / grade_seconds:6.1f} answers/s")
    print(
        f"loop of symattn check:  {per_check * len(rows):7.1f} s   {1 / per_check:6.1f} answers/s"
        f"   (projected from {len(loop)} processes, median {statistics.median(loop):.2f} s each)"
    )
    print(f"ratio: grade is {per_check * len(rows) / grade_seconds:.1f}x faster (goal: 10x)")


if __name__ == "__main__":
    main()
