"""Planted errors: the catalogue, and running it. Each must make verify fail where it was planted.

A checker that cannot fail is worse than none. Each :class:`Mutation` takes a fresh copy of a
derivation and plants one error: a wrong right-hand side, a false lemma body, a misrounded
figure, a theorem claiming more than its proof, a constant off by 10^-20, a model that cannot
tell sides apart, a sentence the proof does not support, a printer that loses a transpose.
Each derivation module carries its own (its ``MUTATIONS``, built with :mod:`derivations.planted`);
:func:`catalogue` gathers them from the registry. ``tests/derivations/test_mutations.py`` runs
every one and asserts that verification fails at the step (or claim, lemma, statement or
rendering) planted; ``symattn build`` runs them too and prints the count on the docs' index page.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from importlib import import_module

from symattn._text import exception_line as _why
from symattn.errors import SymattnError
from symattn.proof import Derivation, LemmaFailed, RenderingFailed, StatementFailed, StepFailed
from symattn.proof.engine import NO_CLAIMS, DerivationReport, verify_many

from . import NAMES
from .planted import Mutation


def catalogue(names: Iterable[str] | None = None) -> list[Mutation]:
    """The planted errors of ``names`` (default: every derivation): those each built-in derivation
    module carries (its ``MUTATIONS``), in the registry's order, then those registered derivations
    bring (see :mod:`symattn.grading.plugins`)."""
    from . import REGISTERED

    modules = [m for name in NAMES for m in getattr(import_module(f"derivations.{name}"), "MUTATIONS", [])]
    every = modules + [m for plugin in REGISTERED.values() for m in plugin.mutations]
    wanted = None if names is None else set(names)
    return [m for m in every if wanted is None or m.derivation in wanted]


def outcome(mutation: Mutation) -> tuple[bool, str]:
    """Plant ``mutation`` and verify: (caught where planted, one line saying so)."""
    return next(outcomes([mutation]))


def outcomes(mutations: Sequence[Mutation], jobs: int = 1) -> Iterator[tuple[bool, str]]:
    """:func:`outcome` of each mutation, in order, each as soon as it is known; the verifying
    is shared as in :func:`run_all`."""
    wants: list[tuple[bool, str]] = []  # (planted, what must fail or why it was not planted)
    for mutation in mutations:
        try:
            wants.append((True, str(expected(mutation))))
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # an author's plant that fails (or calls sys.exit) plants nothing
            wants.append((False, _why(exc)))
    ran = run_all([m for m, (planted, _) in zip(mutations, wants, strict=True) if planted], jobs)
    for mutation, (planted, want) in zip(mutations, wants, strict=True):
        if not planted:
            yield False, f"{mutation.derivation}: {mutation.description}: NOT planted ({want})"
            continue
        got, message = next(ran)
        where = f"step {want}" if want.isdigit() else f"the {want}"
        caught = got == want and mutation.why in message
        said = f"caught at {where}" if caught else f"NOT caught at {where} ({got}: {message})"
        if got == want and not caught:
            said = f"NOT caught for its reason ({mutation.why!r}) at {where}: {message}"
        yield caught, f"{mutation.derivation}: {mutation.description}: {said}"


def run(mutation: Mutation) -> tuple[str, str]:
    """Plant the error in a fresh copy and verify up to it; return (what failed, the message).

    Steps after the planted one, and the numeric checks, are not run (they cannot hide the
    error, and the catalogue stays fast); a planted claim keeps every step.
    """
    return next(run_all([mutation]))


def run_all(mutations: Sequence[Mutation], jobs: int = 1) -> Iterator[tuple[str, str]]:
    """:func:`run` of each mutation, in order, each as soon as it is known. The verifying is
    shared among ``jobs`` forked workers that serve the whole list (a planted check may end
    its process: that task alone is run again in a process of its own, and fails), so what
    SymPy caches for one planted error serves the next."""
    planted: list[tuple[Derivation, int | str] | str] = []
    for mutation in mutations:
        try:
            d = mutation.fresh()
            target = mutation.plant(d)
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # an author's plant that fails (or calls sys.exit) plants nothing
            planted.append(f"the error could not be planted ({_why(exc)})")
            continue
        d.checks = []
        if isinstance(target, int):
            d.steps = d.steps[:target]
            d.claims, d.words = [], []
        planted.append((d, target))
    reports = verify_many([p[0] for p in planted if not isinstance(p, str)], jobs)
    for p in planted:
        yield ("error", p) if isinstance(p, str) else _reported(*p, next(reports))


def _reported(d: Derivation, target: int | str, result: DerivationReport | SymattnError) -> tuple[str, str]:
    """(what failed, the message) of a planted derivation's verification."""
    if isinstance(result, (StepFailed, LemmaFailed)):
        if isinstance(target, int) and str(result).startswith(f"{d.name}: {NO_CLAIMS}"):
            return "nothing", ""  # every step up to the planted one passed; the claims were dropped
        return _what_failed(str(result), result), str(result)
    if isinstance(result, SymattnError):
        return "error", str(result)
    return "nothing", ""


def expected(mutation: Mutation) -> int | str:
    """What the mutation must make fail (planting it again on a fresh copy)."""
    return mutation.plant(mutation.fresh())


def _what_failed(message: str, exc: Exception) -> str:
    if isinstance(exc, LemmaFailed):
        return "lemma"
    if isinstance(exc, StatementFailed):
        return "statement"
    if isinstance(exc, RenderingFailed):
        return "rendering"
    if "the theorem claims" in message or NO_CLAIMS in message:
        return "claim"
    head = message.split(": ", 1)[0]
    return head.split("step ", 1)[1].split(" ", 1)[0] if "step " in head else "error"
