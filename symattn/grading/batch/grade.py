"""Grading a class: every answer of a class file judged as ``symattn check`` judges it, in a pool.

The stages, in order:

1. read the class file into rows (:func:`symattn.grading.batch.files.read_class`);
2. take the rows an earlier run with the same ``--out`` already graded, and judge only the rest;
3. judge them in a pool of long-lived worker processes (pebble's ``ProcessPool``) forked from a
   parent that has imported SymPy, latex2sympy2 and the exercises once, so no answer pays for
   a fresh interpreter. Identical answers to the same exercise and seed are judged once;
4. write each row to ``--out`` the moment it finishes, and the whole file in input order at the end.

:func:`check_row` is the one place that calls the judge: it does what ``symattn check ID ANSWER
--seed S`` does, so each answer runs under check's own limits (the judge forks a worker with
check's CPU, wall-clock and memory limits for every answer). The pool adds a backstop: a task
that outlives :data:`ROW_TIMEOUT` is killed, a worker that dies is replaced, and the row gets the
``invalid`` "too costly to check" verdict; the other workers carry on, so a hostile answer
delays only its own row. An answer that ran out of wall-clock time (not CPU or memory) is judged
once more after the rest, when the pool no longer competes with it for the cores.
"""

from __future__ import annotations

import functools
import os
import sys
import time
from collections.abc import Callable, Iterable
from concurrent.futures import FIRST_COMPLETED, Future, wait
from dataclasses import dataclass
from typing import Any, NamedTuple

from ...errors import InputError, SymattnError
from ...proof.engine import default_jobs
from .files import ClassFile, ResultFile, Row, output_format, read_class

#: Wall-clock seconds after which the pool kills a task. Only reached if the judge's own
#: limits (a few seconds, see symattn.grading.answers.judge) fail to stop an answer.
ROW_TIMEOUT = 60.0
#: How the judge (and this pool) says an answer ran out of wall-clock time.
STARVED = "no result within"
#: Seeds ``symattn check --seed`` accepts.
SEED_MAX = 2**63 - 1


class Outcome(NamedTuple):
    """A judged row. ``row_problem``: the row itself is wrong (as check's exit 2 before judging)."""

    verdict: str
    feedback: str
    mistake: str
    read_as: str
    seconds: float
    notes: str = ""  # how the text was read (check prints them after "read as")
    row_problem: bool = False


# -- the coupling to the judge: what `symattn check` does for one answer -------------------------
def check_row(exercise_id: str, seed: str, answer: str, steps_file: str = "") -> Outcome:
    """Judge one row as ``symattn check exercise_id answer [--seed seed]`` would, or with a
    ``steps_file`` as ``symattn check exercise_id --steps steps_file``.

    Runs in a pool worker. Never raises: a row check would refuse with exit code 2 (an unknown
    exercise, a bad seed, an exercise with no checkable answer) is ``invalid`` with check's words.
    """
    start = time.perf_counter()
    try:
        if steps_file:
            v = _check_steps(exercise_id, seed, answer, steps_file)
            # The first step that is not ok stands for the proof in the summary: its slip, if the
            # step judge named one, and its line as what the proof was "read as".
            first = next((r for r in getattr(v, "steps", ()) if r.status != "ok"), None)
            mistake = first.rule if first is not None and first.status == "wrong" else ""
            read_as = f"line {first.line}: {first.latex}" if first is not None else ""
            return Outcome(v.verdict, v.feedback, mistake or "", read_as, time.perf_counter() - start)
        exercise = _exercise(exercise_id, _seed(seed))
        if not exercise.checkable:
            raise InputError(
                f"{exercise.id} has no machine-checkable answer: see "
                f"symattn exercises show {exercise.id} --solution"
            )
        from ..answers.judge import judge

        v = judge(answer, exercise.expected, exercise.mistakes)
    except SymattnError as exc:
        return Outcome("invalid", str(exc), "", "", time.perf_counter() - start, row_problem=True)
    except Exception as exc:  # a bug in the judge: keep the batch going and say so
        message = f"could not be checked (internal error {type(exc).__name__}; please report it)"
        return Outcome("invalid", message, "", "", time.perf_counter() - start)
    notes = "; ".join(getattr(v, "notes", ()))
    return Outcome(v.verdict, v.feedback, v.mistake or "", v.given, time.perf_counter() - start, notes)


def _check_steps(exercise_id: str, seed: str, answer: str, path: str) -> Any:
    """A learner's derivation, as ``symattn check ID --steps FILE`` judges it."""
    try:
        from ..proofs.derivation import STEP_EXERCISES, check_derivation, read_steps
    except ImportError:  # learner proofs came after this command
        raise InputError("steps_file: this version of symattn does not check learner proofs") from None
    if answer.strip():
        raise InputError("give an answer or a steps_file, not both")
    if seed.strip():
        raise InputError("a seed does not apply to a steps_file")
    exercise = _exercise(exercise_id, None)
    if exercise.id not in STEP_EXERCISES:
        raise InputError(
            f"{exercise.id} is not checked step by step; steps_file works for {', '.join(STEP_EXERCISES)}"
        )
    return check_derivation(exercise.id, read_steps(path))


def _seed(text: str) -> int | None:
    if not text.strip():
        return None
    try:
        seed = int(text)
    except ValueError:
        raise InputError(f"seed: not a whole number: {text!r}") from None
    if not 0 <= seed <= SEED_MAX:
        raise InputError(f"seed: must be between 0 and 2^63 - 1, got {seed}")
    return seed


@functools.lru_cache(maxsize=256)
def _exercise(exercise_id: str, seed: int | None) -> Any:
    from ..exercises import get

    return get(exercise_id, seed)


def warm_up() -> None:
    """Import the parser and build the exercises here, once, before the pool forks its workers."""
    from ..answers.judge import warm_up as judge_warm_up
    from ..exercises import EXERCISES

    judge_warm_up()
    for exercise_id in EXERCISES:
        _exercise(exercise_id, None)


# -- the pool --------------------------------------------------------------------------------------
def judge_rows(
    rows: Iterable[Row],
    jobs: int,
    finished: Callable[[Row, Outcome], None],
    timeout: float | None = None,
    base: str = ".",
) -> None:
    """Judge ``rows`` in a pool of ``jobs`` workers; call ``finished(row, outcome)`` as each ends.

    A row with a ``problem`` is finished at once. ``finished`` runs in this process, in the
    order rows finish. A relative ``steps_file`` is read from the folder ``base``.
    """
    from pebble import ProcessPool

    timeout = timeout or ROW_TIMEOUT
    warm_up()
    groups: dict[tuple[str, str, str, str], list[Row]] = {}
    pool = ProcessPool(max_workers=jobs)
    futures: dict[Future, tuple[str, str, str, str]] = {}
    try:
        for row in rows:
            if row.problem:
                finished(row, Outcome("invalid", row.problem, "", "", 0.0))
                continue
            steps = row.get("steps_file")
            if steps:  # a path in a class file is relative to the class file
                steps = os.path.join(base, steps)
            key = (row.get("exercise"), row.get("seed"), row.get("answer"), steps)
            if key in groups:  # the same answer to the same exercise: judged once
                groups[key].append(row)
                continue
            groups[key] = [row]
            futures[pool.schedule(check_row, args=key, timeout=timeout)] = key
        waiting, later, retried = set(futures), [], set()
        while waiting:
            done, waiting = wait(waiting, return_when=FIRST_COMPLETED)
            for future in done:
                key, outcome = futures[future], _outcome(future, timeout)
                if STARVED in outcome.feedback and key not in retried:
                    later.append(key)
                    continue
                for row in groups[key]:
                    if outcome.row_problem:  # name the line, as for a row that cannot be read
                        finished(row, outcome._replace(feedback=f"line {row.line}: {outcome.feedback}"))
                    else:
                        finished(row, outcome)
            if not waiting and later:
                # A wall-clock limit can be hit because this pool keeps every core busy, where a
                # lone `symattn check` would not; judge such an answer once more, at the end.
                for key in later:
                    retried.add(key)
                    future = pool.schedule(check_row, args=key, timeout=timeout)
                    futures[future] = key
                    waiting.add(future)
                later = []
        pool.close()
    finally:
        pool.stop()  # on an interruption: kill the workers now, not after the queue drains
        pool.join()


def _outcome(future: Future, timeout: float) -> Outcome:
    from concurrent.futures import TimeoutError as FutureTimeout

    from pebble import ProcessExpired

    try:
        return future.result()
    except FutureTimeout:
        return Outcome("invalid", f"too costly to check: no result within {timeout:g} s", "", "", timeout)
    except ProcessExpired:
        return Outcome("invalid", "too costly to check: the worker stopped without a result", "", "", 0.0)
    except Exception as exc:  # a result that could not be sent back, say
        message = f"could not be checked (internal error {type(exc).__name__}; please report it)"
        return Outcome("invalid", message, "", "", 0.0)


# -- a whole class file ---------------------------------------------------------------------------
@dataclass
class Graded:
    """A graded class: the records in input order, and how many this run judged."""

    classfile: ClassFile
    records: list[dict[str, str]]
    resumed: int
    judged: int
    seconds: float


def grade_file(
    path: str,
    out: str | None = None,
    fmt: str | None = None,
    jobs: int | None = None,
    progress: bool = False,
    on_row: Callable[[Row, dict[str, str]], None] | None = None,
) -> Graded:
    """Grade the class file ``path``, resuming from ``out`` if an earlier run left rows there."""
    start = time.perf_counter()
    classfile = read_class(path)
    if out and os.path.exists(out) and os.path.samefile(out, path):
        raise InputError(f"--out {out} is the class file itself")
    results = ResultFile(out, output_format(out, fmt), classfile.output_columns)
    already = results.load()
    records: dict[int, dict[str, str]] = {}
    for row in classfile.rows:
        if row.key in already:
            records[row.number] = already[row.key]
    resumed = len(records)
    todo = [r for r in classfile.rows if r.number not in records]
    results.start([records[n] for n in sorted(records)])

    from tqdm import tqdm

    bar = tqdm(total=len(todo), unit="row", file=sys.stderr, disable=not progress, desc="grading")

    def finished(row: Row, outcome: Outcome) -> None:
        record = _record(classfile, row, outcome)
        records[row.number] = record
        results.append(record)
        bar.update()
        if on_row is not None:
            on_row(row, record)

    try:
        if todo:
            judge_rows(todo, jobs or default_jobs(), finished, base=os.path.dirname(os.path.abspath(path)))
    finally:
        bar.close()
        results.close()
    ordered = [records[r.number] for r in classfile.rows]
    results.finish(ordered)
    return Graded(classfile, ordered, resumed, len(todo), time.perf_counter() - start)


def _record(classfile: ClassFile, row: Row, outcome: Outcome) -> dict[str, str]:
    record = {"line": str(row.line)}
    record.update({c: row.get(c) for c in classfile.columns})
    record.update(
        verdict=outcome.verdict,
        feedback=outcome.feedback,
        mistake=outcome.mistake,
        read_as=outcome.read_as,
        notes=outcome.notes,
        seconds=f"{outcome.seconds:.3f}",
    )
    return record
