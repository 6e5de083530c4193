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
that outlives :data:`ROW_TIMEOUT` is killed and its row is ``unchecked``; a worker that dies is
replaced and its row is ``invalid`` "too costly to check"; the other workers carry on, so a
hostile answer delays only its own row. What is too costly is decided by the answer's measures
(issue 49); a row that ran out of time (``unchecked``, the judge's net or the pool's) is judged
once more after the rest, when the pool no longer competes with it for the cores.
"""

from __future__ import annotations

import dataclasses
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
from ..outcomes import OUT_OF_TIME
from .files import ClassFile, ResultFile, Row, StepsFileRefused, output_format, read_class, read_steps_file

#: Wall-clock seconds after which the pool kills a task. Only reached if the judge's own safety
#: nets (symattn.grading.answers.judge, symattn.grading.proofs.proof_judge) fail to stop a row.
ROW_TIMEOUT = 660.0
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
    read_as_latex: str = ""
    read_as_typed: str = ""  # the reading with numbers as typed (check --json's "typed")


# -- the coupling to the judge: what `symattn check` does for one answer -------------------------
def check_row(exercise_id: str, seed: str, answer: str, steps: str | None = None) -> Outcome:
    """Judge one row as ``symattn check exercise_id answer [--seed seed]`` would, or, with the
    text of a derivation in ``steps``, as ``symattn check exercise_id --steps FILE``: both go
    through :func:`symattn.grading.submission.judge_submission`, as check does.

    Runs in a pool worker. Never raises: a row check would refuse with exit code 2 (an unknown
    exercise, a bad seed, an exercise with no checkable answer) is ``invalid`` with check's words.
    """
    from ..submission import fields, judge_submission

    start = time.perf_counter()
    try:
        if steps is not None:
            if answer.strip():
                raise InputError("give an answer or a steps_file, not both")
            if seed.strip():
                raise InputError("a seed does not apply to a steps_file")
            v = judge_submission(_exercise(exercise_id, None), steps=steps)
        else:
            v = judge_submission(_exercise(exercise_id, _seed(seed)), answer)
    except SymattnError as exc:
        return Outcome("invalid", str(exc), "", "", time.perf_counter() - start, row_problem=True)
    except Exception as exc:  # a bug in the judge: keep the batch going and say so
        message = f"could not be checked (internal error {type(exc).__name__}; please report it)"
        return Outcome("invalid", message, "", "", time.perf_counter() - start)
    f = fields(v)
    seconds = time.perf_counter() - start
    return Outcome(
        f.verdict,
        f.feedback,
        f.mistake,
        f.read_as,
        seconds,
        "; ".join(f.notes),
        False,
        f.read_as_latex,
        f.read_as_typed,
    )


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
Key = tuple[str, str, str, "str | None"]


def judge_rows(
    rows: Iterable[Row],
    jobs: int,
    finished: Callable[[Row, Outcome], None],
    timeout: float | None = None,
    steps: dict[int, str] | None = None,
) -> None:
    """Judge ``rows`` in a pool of ``jobs`` workers; call ``finished(row, outcome)`` as each ends.

    A row with a ``problem`` is finished at once. ``finished`` runs in this process, in the
    order rows finish. ``steps`` holds the text of each row's steps file, by row number (read
    by the caller, see :func:`~.files.read_steps_file`): rows with the same exercise, seed,
    answer and steps text are judged once.
    """
    from pebble import ProcessPool

    timeout = timeout or ROW_TIMEOUT
    steps = steps or {}
    warm_up()
    groups: dict[Key, list[Row]] = {}
    pool = ProcessPool(max_workers=jobs)
    futures: dict[Future, Key] = {}
    try:
        for row in rows:
            if row.problem:
                finished(row, Outcome("invalid", row.problem, "", "", 0.0))
                continue
            key = (row.get("exercise"), row.get("seed"), row.get("answer"), steps.get(row.number))
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
                if outcome.verdict == "unchecked" and key not in retried:
                    later.append(key)
                    continue
                for row in groups[key]:
                    if outcome.row_problem:  # name the line, as for a row that cannot be read
                        finished(row, outcome._replace(feedback=f"line {row.line}: {outcome.feedback}"))
                    else:
                        finished(row, outcome)
            if not waiting and later:
                # The time safety net can fire because this pool keeps every core busy, where a
                # lone `symattn check` would not: judge such a row once more, at the end; if it
                # fires again, the row stays "unchecked" and the summary counts it apart.
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
        # The pool's own time net, far above the judge's: no verdict on the answer, which is
        # judged again once, after the rest, like any row the judge's net stopped.
        return Outcome("unchecked", OUT_OF_TIME, "", "", timeout)
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
    rows, steps, digests = _with_steps(classfile.rows, os.path.dirname(os.path.abspath(path)))
    records: dict[int, dict[str, str]] = {}
    for row in rows:
        key = row.key(classfile.columns, digests.get(row.number, ""))
        if key in already and not row.problem:
            records[row.number] = already[key]
    resumed = len(records)
    todo = [r for r in rows if r.number not in records]
    results.start([records[n] for n in sorted(records)])

    from tqdm import tqdm

    bar = tqdm(total=len(todo), unit="row", file=sys.stderr, disable=not progress, desc="grading")

    def finished(row: Row, outcome: Outcome) -> None:
        record = _record(classfile, row, outcome, digests.get(row.number, ""))
        records[row.number] = record
        results.append(record)
        bar.update()
        if on_row is not None:
            on_row(row, record)

    try:
        if todo:
            judge_rows(todo, jobs or default_jobs(), finished, steps=steps)
    finally:
        bar.close()
        results.close()
    ordered = [records[r.number] for r in classfile.rows]
    results.finish(ordered)
    return Graded(classfile, ordered, resumed, len(todo), time.perf_counter() - start)


def _with_steps(rows: list[Row], folder: str) -> tuple[list[Row], dict[int, str], dict[int, str]]:
    """The rows, each steps file read (or its row made invalid with the reason), the texts and
    their SHA-256 digests by row number."""
    out, texts, digests = [], {}, {}
    shared: dict[str, str] = {}  # one copy of each content, however many rows name it
    for row in rows:
        name = row.get("steps_file")
        if name and not row.problem:
            try:
                text, digest = read_steps_file(folder, name)
                texts[row.number], digests[row.number] = shared.setdefault(digest, text), digest
            except StepsFileRefused as exc:
                row = dataclasses.replace(row, problem=f"line {row.line}: {exc}")
        out.append(row)
    return out, texts, digests


def _record(classfile: ClassFile, row: Row, outcome: Outcome, digest: str = "") -> dict[str, str]:
    record = {"line": str(row.line)}
    record.update({c: row.get(c) for c in classfile.columns})
    record.update(
        steps_sha256=digest,
        verdict=outcome.verdict,
        feedback=outcome.feedback,
        mistake=outcome.mistake,
        read_as=outcome.read_as,
        read_as_latex=outcome.read_as_latex,
        read_as_typed=outcome.read_as_typed,
        notes=outcome.notes,
        seconds=f"{outcome.seconds:.3f}",
    )
    return record
