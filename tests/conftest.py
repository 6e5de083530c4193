"""Shared fixtures: each derivation is verified once per test session; every test starts at the
command line's precision, and the lemma cache lives in a temporary folder, never the user's."""

from __future__ import annotations

import os
import tempfile

import mpmath
import pytest

import derivations
import derivations.mutations as mutations
from symattn.cli import main
from symattn.proof import Derivation, DerivationReport

#: mpmath's working precision as the command line runs (15 digits, 53 bits).
PRECISION = 53


def pytest_configure(config) -> None:
    """Before any worker starts (pytest-xdist's inherit the environment): the lemma cache in a
    folder of its own under the temporary folder, shared by the run's workers."""
    if not os.environ.get("SYMATTN_CACHE_DIR", "").startswith(tempfile.gettempdir()):
        os.environ["SYMATTN_CACHE_DIR"] = tempfile.mkdtemp(prefix="symattn-test-cache-")


@pytest.fixture(autouse=True)
def _command_line_precision():
    """Each test starts at the command line's precision whatever ran before it (a test or a
    module's collection), and leaves it so: one file alone and the whole suite run alike."""
    mpmath.mp.prec = PRECISION
    yield
    mpmath.mp.prec = PRECISION


_CACHE: dict[str, tuple[Derivation, DerivationReport]] = {}

_PLANTED: dict[mutations.Mutation, tuple[str, str]] = {}
_run_mutation = mutations.run


def _run_once(mutation: mutations.Mutation) -> tuple[str, str]:
    """Each planted error is verified once per test process: tests/test_mutations.py and the
    `generated` build (which counts the caught ones for the docs' index page) share the result
    (the two sit in one pytest-xdist group, so on one worker)."""
    if mutation not in _PLANTED:
        _PLANTED[mutation] = _run_mutation(mutation)
    return _PLANTED[mutation]


mutations.run = _run_once


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
    from symattn.present.site import generate

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
