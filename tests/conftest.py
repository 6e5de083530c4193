"""Shared fixtures: each derivation is verified once per test session; every test starts at the
command line's precision, and the lemma cache lives in a temporary folder, never the user's."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path

import mpmath
import pytest
from groups import pytest_collection_modifyitems, pytest_runtest_setup  # noqa: F401 (hooks)
from hypothesis import settings as hypothesis_settings
from peers import KNOWN, unknown
from writes import changes, snapshot

import derivations
import derivations.mutations as mutations
from symattn.cli import main
from symattn.proof import Derivation, DerivationReport

ROOT = Path(__file__).resolve().parents[1]

#: mpmath's working precision as the command line runs (15 digits, 53 bits).
PRECISION = 53

#: Hypothesis profiles. "ci", the default: the same examples on every run and every machine
#: (derandomized, no example database, so nothing is written and nothing is replayed from an
#: earlier run), no deadline (times are bench/'s), and a failure prints the blob that reproduces
#: it. HYPOTHESIS_PROFILE=explore draws new examples each run, to look for bugs locally. Loaded
#: here, before any test module is imported, so that each test's own @settings inherit it.
HYPOTHESIS_EXAMPLES = 100
for _name, _fixed in (("ci", True), ("explore", False)):
    hypothesis_settings.register_profile(
        _name,
        derandomize=_fixed,
        database=None,
        deadline=None,
        print_blob=True,
        max_examples=HYPOTHESIS_EXAMPLES,
    )
hypothesis_settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


#: The checkout and the user's caches as they were when the run started (the controlling
#: process only: pytest-xdist's workers are told by PYTEST_XDIST_WORKER).
_BEFORE: dict = {}


def pytest_configure(config) -> None:
    """Before any worker starts (pytest-xdist's inherit the environment): the lemma cache,
    Hypothesis's storage and every other cache (XDG_CACHE_HOME) in folders of their own under the
    temporary folder, shared by the run's workers, so the run never reads or writes the user's
    (a `symattn verify` beside it leaves it alone); and, in the controlling process, the list of
    the checkout's files the run must leave as they are.
    A name in SYMATTN_REQUIRED_PEERS that is no peer's (tests/peers.py) stops the run at once."""
    if unknown():
        names, known = ", ".join(unknown()), ", ".join(KNOWN)
        raise pytest.UsageError(f"SYMATTN_REQUIRED_PEERS names {names}, which is no peer's (known: {known})")
    for variable, prefix in (
        ("SYMATTN_CACHE_DIR", "symattn-test-cache-"),
        ("HYPOTHESIS_STORAGE_DIRECTORY", "symattn-test-hypothesis-"),
        ("XDG_CACHE_HOME", "symattn-test-xdg-cache-"),  # the lemma cache's default home, and others'
    ):
        if not os.environ.get(variable, "").startswith(tempfile.gettempdir()):
            os.environ[variable] = tempfile.mkdtemp(prefix=prefix)
    if guarded():
        _BEFORE.update(snapshot(ROOT))  # the checkout (the user's caches are not the run's)


def guarded() -> bool:
    """Whether this process lists the files a run must leave as they are: the controlling process
    of a run, but not a pytest-xdist worker, nor a mutant's run under mutmut (bench/mutation.py),
    whose copy of the repository mutmut itself writes to (a mutant's results, while others run),
    which would fail the mutant's tests and count it killed."""
    return "PYTEST_XDIST_WORKER" not in os.environ and "MUTANT_UNDER_TEST" not in os.environ


def pytest_sessionfinish(session, exitstatus) -> None:
    """The run fails if it wrote, removed or rewrote a file of the checkout (tests write to
    temporary folders only). Only a guarded process has the list to compare."""
    if not _BEFORE:
        return
    found = changes(_BEFORE, snapshot(ROOT))
    if found:
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        lines = [f"the tests wrote outside a temporary folder ({len(found)}):", *found[:20]]
        if reporter is not None:
            reporter.write_line("\n".join(lines), red=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


@pytest.fixture(autouse=True)
def _command_line_precision():
    """Each test starts at the command line's precision whatever ran before it (a test or a
    module's collection), and leaves it so: one file alone and the whole suite run alike."""
    mpmath.mp.prec = PRECISION
    yield
    mpmath.mp.prec = PRECISION


_CACHE: dict[str, tuple[Derivation, DerivationReport]] = {}

_PLANTED: dict[mutations.Mutation, tuple[str, str]] = {}
_run_all = mutations.run_all
#: The catalogue's planted errors this session's tests ask about (every one in CI's first run;
#: in its second, which leaves the build out, the sample tests/sampled.py keeps).
_SELECTED: set[mutations.Mutation] = set()


def pytest_collection_finish(session) -> None:
    """Records which planted errors the selected tests check (after ``-m`` has deselected)."""
    _SELECTED.clear()
    for item in session.items:
        param = getattr(getattr(item, "callspec", None), "params", {}).get("mutation")
        if isinstance(param, mutations.Mutation):
            _SELECTED.add(param)


def _run_all_once(wanted: Sequence[mutations.Mutation], jobs: int = 1) -> Iterator[tuple[str, str]]:
    """Each planted error is verified once per test process: tests/derivations/test_mutations.py and the
    `generated` build (which counts the caught ones for the docs' index page) share the result
    (the two sit in one pytest-xdist group, so on one worker): the first that asks about a
    derivation verifies, in one batch, every planted error of that derivation that this
    session's tests check (:func:`derivations.mutations.run_all`, one forked worker, so SymPy's
    caches serve one planted error after another)."""
    if any(m not in _PLANTED for m in wanted):
        names = {m.derivation for m in wanted}
        every = dict.fromkeys([*(m for m in mutations.catalogue() if m in _SELECTED), *wanted])
        missing = [m for m in every if m not in _PLANTED and m.derivation in names]
        _PLANTED.update(zip(missing, _run_all(missing, 1), strict=True))
    return iter([_PLANTED[m] for m in wanted])


mutations.run_all = _run_all_once


def verified(name: str) -> tuple[Derivation, DerivationReport]:
    """The derivation called ``name`` and its verification report (computed once)."""
    if name not in _CACHE:
        d = derivations.load(name)
        _CACHE[name] = (d, d.verify())
    return _CACHE[name]


@pytest.fixture(scope="session")
def verify():
    return verified


@pytest.fixture(scope="session")
def generated():
    """Everything `symattn build` writes, generated once per test session."""
    from symattn.build.site import generate

    return generate()


@pytest.fixture
def cli(capsys):
    """Run the command line in-process: cli(*argv) -> (exit code, stdout, stderr)."""

    def run(*argv: str) -> tuple[int, str, str]:
        try:
            code = main(list(argv))
        except SystemExit as exc:  # argparse's own errors
            code = exc.code
        out, err = capsys.readouterr()
        return code, out, err

    return run
