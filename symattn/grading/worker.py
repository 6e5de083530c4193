"""Running work on untrusted input in a forked worker with limits, and taking back plain data.

:func:`isolated` runs a function in a forked worker with a wall-clock deadline, CPU and
memory limits, no core file and no file writes, its output and warnings discarded. What
comes back is plain data only (:func:`plain_result`): the parent never rebuilds an object,
such as a SymPy expression, whose construction could itself be the costly part.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import sys
import time
from collections.abc import Callable
from typing import Any

from ..errors import EXIT_RETRY, SymattnError

#: Whether work can run in a forked worker with limits here. A browser's Python (Pyodide,
#: ``sys.platform == "emscripten"``) cannot fork: there :func:`isolated` runs the work in its own
#: process, and the page, which runs that Python in a Web Worker, terminates the Web Worker at
#: the deadline (the site's checker does).
CAN_FORK = hasattr(os, "fork") and sys.platform != "emscripten"


class WorkerError(SymattnError):
    """Raised when isolated work runs out of time or memory, or its worker dies."""


class OutOfTime(WorkerError):
    """The time safety net fired (wall clock or CPU): no verdict on the input, which the same
    check may finish on a less busy machine (verdict ``unchecked``, exit code 75)."""

    exit_code = EXIT_RETRY

    def __init__(self, message: str = "") -> None:
        from .outcomes import OUT_OF_TIME

        super().__init__(message or OUT_OF_TIME)


#: Errors a worker raises that are raised again, by name, in the parent: see :func:`crosses_workers`.
_CROSSING: dict[str, type[SymattnError]] = {}


def crosses_workers(cls: type[SymattnError]) -> type[SymattnError]:
    """Register an error class that a worker's failure is raised as again here (a decorator);
    any other SymattnError becomes :class:`WorkerError` with its message."""
    _CROSSING[cls.__name__] = cls
    return cls


def isolated(
    func: Callable[..., Any],
    *args: Any,
    timeout: float = 5.0,
    memory_mb: int = 1024,
    max_bytes: int = 1 << 20,
    cpu_seconds: int | None = None,
    plain: bool = True,
) -> Any:
    """Run ``func(*args)`` in a forked worker; return its (picklable) result.

    With ``plain`` (the default) the result must be plain data: numbers, strings, bytes, None,
    tuples, lists, dicts and the dataclasses registered with :func:`plain_result`. The parent
    rebuilds nothing else, so no SymPy expression built from a learner's text is ever evaluated
    here, outside the limits (rebuilding ``10^{-10^{10}}`` from a pickle computes it). Only work
    on trusted input (tests) passes ``plain=False``.

    The worker gets ``timeout`` seconds of wall clock (then SIGKILL), ``cpu_seconds`` of CPU
    (default: the timeout), and ``memory_mb`` of address space beyond what it inherits. A busy
    machine slows the wall clock, not the CPU count: give the wall clock some slack.
    A :class:`SymattnError` raised in the worker is raised again here with its message;
    anything else becomes :class:`WorkerError`.
    """
    if not CAN_FORK:
        return _in_process(func, args, plain)
    import resource
    import signal

    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # the worker
        os.close(read_fd)
        code = 0
        try:
            # The address-space limit counts what the worker inherited (a parent that loaded
            # torch maps gigabytes), so allow memory_mb beyond the current size.
            limit = _address_space() + memory_mb * 1024 * 1024
            resource.setrlimit(resource.RLIMIT_AS, _within(resource.RLIMIT_AS, limit, limit))
            cpu = cpu_seconds or max(1, int(timeout + 0.999))
            resource.setrlimit(resource.RLIMIT_CPU, _within(resource.RLIMIT_CPU, cpu, cpu + 1))
            resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # a killed worker leaves no core file
            resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))  # and writes no file
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write fails instead of killing
            _silence()
            data = pickle.dumps(_outcome(func, args))
            if len(data) > max_bytes:
                data = pickle.dumps(("fail", "too costly to check: result too large"))
            with os.fdopen(write_fd, "wb") as pipe:
                pipe.write(data)
        except BaseException:
            code = 1
        finally:
            os._exit(code)
    os.close(write_fd)
    return _collect(pid, read_fd, timeout, max_bytes, plain)


#: The classes a plain result may hold, by (module, name): see :func:`plain_result`.
_PLAIN: set[tuple[str, str]] = set()


def plain_result(cls: type) -> type:
    """Register a dataclass of plain fields as something a worker may return (a decorator)."""
    _PLAIN.add((cls.__module__, cls.__qualname__))
    return cls


class _PlainUnpickler(pickle.Unpickler):
    """Rebuilds plain data only; any other class (a SymPy expression) is refused unbuilt."""

    def find_class(self, module: str, name: str) -> Any:
        if (module, name) in _PLAIN:
            return super().find_class(module, name)
        raise pickle.UnpicklingError(f"{module}.{name} is not plain data")


def _loads(data: bytes, plain: bool) -> Any:
    if not plain:
        return pickle.loads(data)
    import io

    try:
        return _PlainUnpickler(io.BytesIO(data)).load()
    except pickle.UnpicklingError as exc:  # symattn's own bug, never a learner's
        raise WorkerError(
            f"internal error: a worker returned something that is not plain data ({exc})"
        ) from None


def _within(kind: int, soft: int, hard: int) -> tuple[int, int]:
    """Limits no higher than the ones this process already has: a worker started inside a
    worker (the audit judges its keys) keeps the outer, tighter limits."""
    import resource

    _, current = resource.getrlimit(kind)
    if current == resource.RLIM_INFINITY:
        return soft, hard
    return min(soft, current), min(hard, current)


def _outcome(func: Callable[..., Any], args: tuple[Any, ...]) -> tuple[Any, ...]:
    """``func(*args)`` as a payload: ("ok", result), ("error", error class, message) for a
    SymattnError, or ("fail", a learner's sentence) for anything else, never Python's words."""
    try:
        return ("ok", func(*args))
    except SymattnError as exc:
        return ("error", type(exc).__name__, str(exc))
    except MemoryError:
        return ("fail", "too costly to check: out of memory")
    except RecursionError:
        return ("fail", "too costly to check: nested too deeply")
    except Exception:  # an internal failure: a sentence, never Python's message
        return ("fail", "this answer could not be read or compared: write it more simply")


def _result(payload: tuple[Any, ...]) -> Any:
    """The payload's result, or the error it stands for (a registered class, else WorkerError)."""
    if payload[0] == "ok":
        return payload[1]
    if payload[0] == "error":
        raise _CROSSING.get(payload[1], WorkerError)(payload[2])
    raise WorkerError(payload[1])


def _in_process(func: Callable[..., Any], args: tuple[Any, ...], plain: bool = True) -> Any:
    """``func(*args)`` here, the result and failures exactly as a forked worker's become: through
    pickle too, with the same refusal of anything but plain data."""
    return _result(_loads(pickle.dumps(_outcome(func, args)), plain))


def _silence() -> None:
    """Discard the worker's stdout, stderr and warnings (SymPy's deprecation notes, antlr's)."""
    import warnings

    warnings.simplefilter("ignore")
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 1)
    os.dup2(null, 2)
    os.close(null)
    sys.stdout = sys.stderr = open(os.devnull, "w")  # noqa: SIM115 - for the worker's lifetime


def _address_space() -> int:
    """This process's virtual memory size in bytes (0 where /proc is not available)."""
    import resource

    try:
        with open("/proc/self/statm") as fh:
            return int(fh.read().split()[0]) * resource.getpagesize()
    except (OSError, ValueError, IndexError):
        return 0


def _collect(pid: int, fd: int, timeout: float, max_bytes: int, plain: bool) -> Any:
    import select
    import signal

    deadline = time.monotonic() + timeout
    chunks: list[bytes] = []
    size = 0
    timed_out = False
    try:
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                timed_out = True
                break
            ready, _, _ = select.select([fd], [], [], left)
            if not ready:
                continue
            chunk = os.read(fd, 65536)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
            if size > max_bytes:
                break
    finally:
        os.close(fd)
        if timed_out or size > max_bytes:
            _kill(pid)
        _, status = os.waitpid(pid, 0)
    if timed_out:
        raise OutOfTime()
    if size > max_bytes:
        raise WorkerError("too costly to check: result too large")
    if not chunks:
        if os.WIFSIGNALED(status) and os.WTERMSIG(status) in (signal.SIGXCPU, signal.SIGKILL):
            raise OutOfTime()
        raise WorkerError("too costly to check: the worker stopped without a result")
    return _result(_loads(b"".join(chunks), plain))


def _kill(pid: int) -> None:
    import signal

    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)
