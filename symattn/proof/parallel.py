"""Verifying derivations in parallel: their lemma sizes, steps and checks shared among forked
worker processes, the costliest first, each derivation's report as soon as its tasks are done."""

from __future__ import annotations

import gc
import multiprocessing
import os
import time
from collections.abc import Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TYPE_CHECKING, Any

from .._text import exception_line as _why
from ..errors import SymattnError

if TYPE_CHECKING:
    from .engine import Derivation
    from .records import DerivationReport

def default_jobs() -> int:
    """Worker processes for verifying: the CPUs this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


#: The derivations being verified by forked workers; a worker finds its task's derivation here
#: (it inherits the dict when it is forked), so no derivation is ever pickled.
_WORK: list[Derivation] = []


def _run(index: int, kind: str, key: int) -> tuple[float, tuple]:
    start = time.perf_counter()
    result = _WORK[index].run_task(kind, key)
    return time.perf_counter() - start, result


def _run_group(index: int, group: list[tuple[str, int]]) -> list[tuple[float, tuple]]:
    return [_run(index, *task) for task in group]


def verify_many(
    derivations: list[Derivation], jobs: int, isolate: bool = True
) -> Iterator[DerivationReport | SymattnError]:
    """Verify the derivations, in order, sharing ``jobs`` forked processes among all their tasks.

    Yields each derivation's report, or the error that failed it, as soon as its tasks are
    done. With ``jobs`` 1 the work runs in one forked process, so that a check that ends its
    process fails like any other (``isolate=False`` does it here, in turn); where processes
    cannot be forked, it is done here.
    """
    if (jobs <= 1 and not isolate) or "fork" not in multiprocessing.get_all_start_methods():
        for d in derivations:
            try:
                yield d.verify()
            except SymattnError as exc:
                yield exc
        return
    _WORK[:] = derivations
    # What is built so far is never collected while the workers run: frozen, the collector
    # leaves it alone, and the workers do not copy the pages it would touch. (Only if nothing
    # is frozen yet: a program that froze its own objects keeps them frozen.)
    freezing = gc.get_freeze_count() == 0
    if freezing:
        gc.freeze()
    try:
        pool = ProcessPoolExecutor(max(1, jobs), mp_context=multiprocessing.get_context("fork"))
    except BaseException:
        if freezing:
            gc.unfreeze()
        raise
    try:
        # Derivation by derivation, the costliest groups of tasks (Derivation.groups) are
        # submitted first; the results are read back in the order of tasks().
        submitted: dict[tuple[int, tuple[str, int]], tuple[Future | None, int]] = {}
        for i, d in enumerate(derivations):
            for group in d.groups():
                try:
                    future: Future | None = pool.submit(_run_group, i, group)
                except BrokenProcessPool:  # a worker died already: the tasks run on their own
                    future = None
                submitted.update({(i, task): (future, at) for at, task in enumerate(group)})
        for i, d in enumerate(derivations):
            done = [_outcome(i, task, *submitted[i, task]) for task in d.tasks()]
            seconds = sum(t for t, _ in done)  # time spent on this derivation, over all workers
            try:
                yield d.assemble([r for _, r in done], seconds)
            except SymattnError as exc:
                yield exc
    finally:
        # On an interrupt (or an error), the work still queued is dropped, not waited for.
        try:
            pool.shutdown(wait=True, cancel_futures=True)
        except BaseException:  # a second Ctrl-C while waiting for the workers: stop them instead
            for worker in list((getattr(pool, "_processes", None) or {}).values()):
                worker.kill()
            raise
        finally:
            _WORK.clear()
            if freezing:
                gc.unfreeze()


def _outcome(index: int, task: tuple[str, int], future: Future | None, at: int) -> tuple[float, tuple]:
    """The (seconds, result) of the task at place ``at`` of its group. If its worker died (a
    check that ends its process, say, which breaks the pool and every task still waiting in it),
    the task runs again in a process of its own, so the one that ends its process is named."""
    if future is not None:
        try:
            return future.result()[at]
        except Exception:
            pass
    return _isolated(index, *task)


def _isolated(index: int, kind: str, key: int) -> tuple[float, tuple]:
    """Run one task in a forked process of its own; a process that ends without a result is
    that task's failure, named like any other failure of the task."""
    context = multiprocessing.get_context("fork")
    receive, send = context.Pipe(duplex=False)
    child = context.Process(target=_send_result, args=(send, index, kind, key))
    child.start()
    send.close()
    try:
        return receive.recv()
    except EOFError:  # the process ended before it sent anything
        child.join()
        why = f"the process checking it ended without a result (exit code {child.exitcode})"
        return 0.0, ("failed", "StepFailed", _WORK[index].failure_of(kind, key, why))
    finally:
        receive.close()
        child.join()


def _send_result(send: Any, index: int, kind: str, key: int) -> None:
    try:
        send.send(_run(index, kind, key))
    except KeyboardInterrupt:  # the parent is interrupted too, and says so
        pass
    except Exception as exc:  # a result that cannot be sent back (it cannot be pickled, say)
        why = f"its result cannot be sent back ({_why(exc)})"
        send.send((0.0, ("failed", "StepFailed", _WORK[index].failure_of(kind, key, why))))
    finally:
        send.close()
