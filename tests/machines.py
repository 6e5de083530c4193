"""Running every bank's answers, the learner-proof fixtures and the course file on a machine as it
is, beside a CPU-bound load, and slowed to a quarter of one CPU: the verdicts must not change
(issue 49).

The cases are run by :func:`run` in one interpreter of their own per condition (``main(argv)``
for each case, as the command line would), so that the load and the throttle apply to that
interpreter and to the workers it forks, and nothing else. The quarter CPU is a cgroup's CPU
quota (the kernel's own scheduler, cgroup v1 or v2, as root), which the forked workers inherit;
the load is ``4 x cpu_count`` processes spinning. :mod:`bench.machines` (``bench/machines.py``)
runs every case and reports the times; the tests (tests/grading/test_machines.py) run an even
sample of each bank.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import multiprocessing
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

DATA = Path(__file__).parent / "data"
ROOT = Path(__file__).resolve().parents[1]

#: The banks of answers: file, and its column of answers.
ANSWER_BANKS = ("answer_bank.csv", "input_bank.csv", "form_bank.csv", "grade_bank.csv")
#: The folders of learner proofs (every ``*.tex`` below them, whose folder names the exercise).
PROOF_FOLDERS = ("learner_proofs", "learner_proofs_review", "learner_proofs_layouts", "hostile")
#: What a run's answer may differ in between machines: nothing but the time it took.
TIMED = ("seconds",)


def cases(every: int = 1) -> list[dict[str, str]]:
    """Every bank answer, proof fixture and the course file's rows; with ``every`` > 1, one case
    in ``every`` of each bank (evenly spread, the first included), so that each bank is sampled."""
    out: list[dict[str, str]] = []
    for bank in ANSWER_BANKS:
        with open(DATA / bank, encoding="utf-8", newline="") as f:
            rows = list(csv.DictReader(f))
        out += [
            {
                "kind": "answer",
                "bank": bank,
                "exercise": r["exercise"],
                "seed": r.get("seed") or "",
                "text": r["answer"],
            }
            for r in rows[::every]
        ]
    for folder in PROOF_FOLDERS:
        paths = sorted((DATA / folder).rglob("*.tex"))
        out += [
            {
                "kind": "steps",
                "bank": folder,
                "exercise": _proof_exercise(p),
                "path": str(p.relative_to(DATA)),
            }
            for p in paths[::every]
        ]
    with open(DATA / "course.csv", encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    out.append({"kind": "grade", "bank": "course.csv", "rows": json.dumps(rows[::every])})
    return out


def hostile_cases(folder: Path) -> list[dict[str, str]]:
    """The hostile answers (tests/grading/answers/test_judge.py) and the bounds fuzz's answers and
    derivations (tests/grading/test_bounds_fuzz.py), the derivations written to ``folder``."""
    sys.path[:0] = [
        str(Path(__file__).parent / "grading"),
        str(Path(__file__).parent / "grading" / "answers"),
    ]
    from test_bounds_fuzz import _answers, _proofs
    from test_judge import HOSTILE

    out = [
        {"kind": "answer", "bank": "hostile answers", "exercise": ex.id, "seed": "", "text": text}
        for ex, text in HOSTILE
    ]
    out += [
        {"kind": "answer", "bank": "hostile answers", "exercise": ex, "seed": "", "text": text}
        for ex, text in _answers()
    ]
    for k, (ex, text) in enumerate(_proofs()):
        path = folder / f"hostile{k}.tex"
        path.write_text(text, encoding="utf-8")
        out.append({"kind": "steps", "bank": "hostile proofs", "exercise": ex, "path": str(path)})
    return out


def _proof_exercise(path: Path) -> str:
    if path.parent.name == "hostile":
        return "ex6.3"
    return next(part for part in reversed(path.parts) if part.startswith("ex"))


def run(items: list[dict[str, str]]) -> list[dict[str, object]]:
    """Each case's exit code, what it printed (its JSON, and its error), and the CPU and wall-clock
    seconds it took (compared by no test), in this process: ``main(argv)`` per case."""
    from symattn.cli import main

    results = []
    for case in items:
        results.append(_one(main, case))
    return results


def _one(main, case: dict[str, str]) -> dict[str, object]:
    out, err = io.StringIO(), io.StringIO()
    with tempfile.TemporaryDirectory() as tmp:
        if case["kind"] == "answer":
            seed = ["--seed", case["seed"]] if case["seed"] else []
            argv = ["check", case["exercise"], *seed, "--json", "--", case["text"]]
        elif case["kind"] == "steps":
            argv = ["check", case["exercise"], "--steps", str(DATA / case["path"]), "--json"]
        else:
            course = Path(tmp) / "course.csv"
            rows = json.loads(case["rows"])
            with open(course, "w", encoding="utf-8", newline="") as f:
                writer = csv.DictWriter(f, fieldnames=list(rows[0]))
                writer.writeheader()
                for r in rows:
                    writer.writerow(
                        {**r, "steps_file": str(DATA / r["steps_file"]) if r["steps_file"] else ""}
                    )
            graded = Path(tmp) / "graded.jsonl"
            argv = ["grade", str(course), "--out", str(graded), "--format", "jsonl", "--jobs", "2"]
        start, start_cpu = time.monotonic(), _cpu()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(argv)
        wall, cpu = time.monotonic() - start, _cpu() - start_cpu
        printed = out.getvalue()
        if case["kind"] == "grade":
            lines = [json.loads(line) for line in graded.read_text(encoding="utf-8").splitlines()]
            lines = [{k: v for k, v in r.items() if k not in TIMED and k != "steps_file"} for r in lines]
            printed = json.dumps(sorted(lines, key=lambda r: r["line"]))
    said = "" if case["kind"] == "grade" else err.getvalue()  # grade's summary says how long it took
    shown = {k: v for k, v in case.items() if k != "rows"}
    return {"case": shown, "code": code, "printed": printed + said, "cpu": cpu, "wall": wall}


def _cpu() -> float:
    """CPU seconds of this process and of its finished workers."""
    own, workers = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + workers.ru_utime + workers.ru_stime


# -- the conditions ------------------------------------------------------------------------------
def run_elsewhere(items: list[dict[str, str]], cgroup: Path | None = None) -> tuple[list[dict], float]:
    """:func:`run` in a new interpreter (in ``cgroup`` from its first instruction, when given):
    its results and its wall-clock seconds."""
    code = (
        "import json, sys; sys.path.insert(0, 'tests'); import machines; "
        "print(json.dumps(machines.run(json.load(sys.stdin))))"
    )
    argv = [sys.executable, "-c", code]
    if cgroup is not None:  # the shell joins the group, then becomes Python: no instruction escapes it
        argv = ["sh", "-c", f'echo $$ > "{cgroup}/cgroup.procs" && exec "$@"', "sh", *argv]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    start = time.monotonic()
    done = subprocess.run(
        argv, input=json.dumps(items), capture_output=True, text=True, cwd=ROOT, env=env, check=False
    )
    seconds = time.monotonic() - start
    if done.returncode != 0:
        raise RuntimeError(f"the run failed ({done.returncode}): {done.stderr.strip()[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1]), seconds


def _spin(stop) -> None:  # a CPU-bound load: one core's worth while ``stop`` is unset
    x = 0
    while not stop.is_set():
        for _ in range(100_000):
            x = (x * 1103515245 + 12345) & 0xFFFFFFFF


class Load:
    """The spinning processes of :func:`loaded`."""

    def __init__(self, processes: list) -> None:
        self.processes = processes
        self.count = len(processes)

    def alive(self) -> bool:
        """Whether every spinner is still running."""
        return all(p.is_alive() for p in self.processes)


@contextlib.contextmanager
def loaded(per_core: int = 4) -> Iterator[Load]:
    """``per_core`` spinning processes per core beside whatever runs inside."""
    ctx = multiprocessing.get_context("spawn")
    stop = ctx.Event()
    n = per_core * (os.cpu_count() or 1)
    spinners = [ctx.Process(target=_spin, args=(stop,), daemon=True) for _ in range(n)]
    for p in spinners:
        p.start()
    try:
        yield Load(spinners)
    finally:
        stop.set()
        for p in spinners:
            p.join(5)
            if p.is_alive():
                p.kill()


class NoThrottle(RuntimeError):
    """No cgroup CPU controller this process may write (not root, or none mounted)."""


@contextlib.contextmanager
def quarter_cpu(share: float = 0.25) -> Iterator[Path]:
    """A cgroup whose processes get ``share`` of one CPU in all (its CPU quota): its folder."""
    period = 100_000
    quota = int(period * share)
    v1, v2 = Path("/sys/fs/cgroup/cpu"), Path("/sys/fs/cgroup")
    name = f"symattn-quarter-{os.getpid()}"
    try:
        if (v1 / "cpu.cfs_quota_us").exists() or (v1 / "tasks").exists():
            group = v1 / name
            group.mkdir()
            (group / "cpu.cfs_period_us").write_text(str(period))
            (group / "cpu.cfs_quota_us").write_text(str(quota))
        elif (v2 / "cgroup.controllers").exists():
            group = v2 / name
            group.mkdir()
            (group / "cpu.max").write_text(f"{quota} {period}")
        else:
            raise NoThrottle("no cgroup CPU controller is mounted")
    except OSError as exc:
        raise NoThrottle(f"cannot make a cgroup ({exc.strerror}): run as root") from None
    try:
        yield group
    finally:
        for _ in range(50):  # the group empties as its last workers are reaped
            try:
                group.rmdir()
                break
            except OSError:
                time.sleep(0.1)


def throttled_periods(group: Path) -> int:
    """How many of the cgroup's periods the kernel held its processes back (cpu.stat)."""
    stat = dict(line.split() for line in (group / "cpu.stat").read_text().splitlines())
    return int(stat.get("nr_throttled", 0))
