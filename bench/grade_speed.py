"""Benchmark: `symattn grade` on 1,000 mixed answers against a loop of `symattn check` processes.

Run: python bench/grade_speed.py [--rows 1000] [--sample 40] [--jobs N] [--seed 0] [--file CLASS.csv]

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1000)
    parser.add_argument("--sample", type=int, default=40)
    parser.add_argument("--jobs", type=int, default=None, help="grade's workers (default: one per core)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--file", help="grade this class file (CSV) instead of generated answers")
    args = parser.parse_args()
    exe = Path(sys.executable).with_name("symattn")
    if args.file:
        with open(args.file, newline="", encoding="utf-8") as fh:
            rows = [{"seed": "", **r} for r in csv.DictReader(fh)]
    else:
        rows = answers(args.rows, args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        klass, out = Path(tmp) / "class.csv", Path(tmp) / "graded.csv"
        with open(klass, "w", newline="", encoding="utf-8") as fh:
            w = csv.DictWriter(fh, list(rows[0]))
            w.writeheader()
            w.writerows(rows)
        argv = [str(exe), "grade", str(klass), "--out", str(out)]
        if args.jobs:
            argv += ["--jobs", str(args.jobs)]
        t = time.perf_counter()
        subprocess.run(argv, capture_output=True, check=True)
        grade_seconds = time.perf_counter() - t
        with open(out, newline="", encoding="utf-8") as fh:
            graded = list(csv.DictReader(fh))
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
