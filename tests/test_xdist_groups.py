"""The suite's xdist_group marks take effect: under ``--dist loadgroup`` (scripts/test.sh, .ci/run)
a group's tests all run on one worker, so each costly fixture they share (`symattn build`, the
browser's site, the peers' suites) is built once per run, not once per worker.

pytest 9.2 broke this silently (pytest-xdist issue 1386: its structured node ids ignore the group
suffix pytest-xdist 3.8 writes), which cost CI minutes before anyone noticed; pyproject.toml keeps
pytest below 9.2 until a fixed pytest-xdist is out, and this test says when the pair breaks again.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent

GROUPED = """
import pytest

pytestmark = pytest.mark.xdist_group("shared")


@pytest.mark.parametrize("i", range(6))
def test_grouped(i):
    pass
"""

LOOSE = """
import pytest


@pytest.mark.parametrize("i", range(6))
def test_loose(i):
    pass
"""


# tests/conftest.py's hook, in a suite of its own, with a stand-in for `symattn build`'s output
CONFTEST = """
import pytest
from groups import pytest_collection_modifyitems, pytest_runtest_setup  # tests/conftest.py's hooks


@pytest.fixture(scope="session")
def generated(tmp_path_factory):
    (tmp_path_factory.getbasetemp() / "built").touch()
    return "built"
"""

USERS = """
import pytest


@pytest.mark.parametrize("i", range(6))
def test_user(i, generated):
    assert generated == "built"
"""

TWO_GROUPS = """
import pytest


@pytest.mark.xdist_group("browser")
def test_user(generated):
    pass
"""


def _run(folder: Path, *extra: str) -> subprocess.CompletedProcess:
    """pytest -n 2 --dist loadgroup over ``folder``, as scripts/test.sh runs the suite, verbose."""
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-v", "-n", "2", "--dist", "loadgroup",
         "-o", "addopts=", "--rootdir", str(folder), "--basetemp", str(folder / "base"), *extra, str(folder)],
        cwd=folder, capture_output=True, text=True, timeout=120,
        env={k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")} | {"PYTHONPATH": str(TESTS)},
    )


def _workers(done: subprocess.CompletedProcess, test: str) -> set[str]:
    """The workers that ran the tests whose node id holds ``test``."""
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    passed = re.findall(r"^\[(gw\d)\] .*PASSED (\S+)", done.stdout, re.M)
    assert len(passed) == 18, done.stdout
    return {worker for worker, name in passed if test in name}


def test_a_group_runs_on_one_worker(tmp_path) -> None:
    (tmp_path / "test_one.py").write_text(GROUPED)
    (tmp_path / "test_two.py").write_text(GROUPED)
    (tmp_path / "test_loose.py").write_text(LOOSE)
    grouped = _workers(_run(tmp_path), "::test_grouped[")
    assert len(grouped) == 1, f"the group ran on {sorted(grouped)}"


def test_the_users_of_a_costly_fixture_run_on_one_worker_unmarked(tmp_path) -> None:
    """No test here is marked: tests/conftest.py's hook puts each user of `generated` (session-wide)
    into its group, so the fixture is built once."""
    (tmp_path / "conftest.py").write_text(CONFTEST)
    (tmp_path / "test_one.py").write_text(USERS)
    (tmp_path / "test_two.py").write_text(USERS)
    (tmp_path / "test_loose.py").write_text(LOOSE)
    users = _workers(_run(tmp_path), "::test_user[")
    assert len(users) == 1, f"the users of generated ran on {sorted(users)}"


def test_not_build_deselects_every_user_of_the_build_unmarked(tmp_path) -> None:
    """CI's second run passes ``-m "not build"``: the hook marks each user of `generated`, so none
    runs and the fixture is never built; the other tests run."""
    (tmp_path / "conftest.py").write_text(CONFTEST)
    (tmp_path / "test_one.py").write_text(USERS)
    (tmp_path / "test_loose.py").write_text(LOOSE)
    done = _run(tmp_path, "-m", "not build")
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    passed = re.findall(r"PASSED (\S+)", done.stdout)
    assert len(passed) == 6 and all("::test_loose[" in name for name in passed), done.stdout
    assert not list((tmp_path / "base").rglob("built")), "the fixture was built"


def test_a_user_in_another_group_fails_saying_why(tmp_path) -> None:
    (tmp_path / "conftest.py").write_text(CONFTEST)
    (tmp_path / "test_one.py").write_text(TWO_GROUPS)
    done = _run(tmp_path)
    assert done.returncode == pytest.ExitCode.TESTS_FAILED, done.stdout[-2000:] + done.stderr[-2000:]
    assert "ERROR test_one.py::test_user" in done.stdout  # at its setup: no fixture built
    assert not list((tmp_path / "base").rglob("built")), "the fixture was built"
    assert "\nin xdist groups ['browser'] but its fixtures need ['generated']\n" in done.stdout


TORCH_USERS = """
import pytest


@pytest.fixture(scope="module")
def torch():
    return "a stand-in"


@pytest.mark.parametrize("i", range(6))
def test_torch_user(i, torch):
    pass
"""


def test_the_users_of_torch_run_after_every_other_test_of_their_worker(tmp_path) -> None:
    """Collected first, the users of the ``torch`` fixture still run last on each worker: a worker
    that has imported torch forks every answer's checker more slowly for the rest of the run."""
    (tmp_path / "conftest.py").write_text(CONFTEST)
    (tmp_path / "test_a_torch.py").write_text(TORCH_USERS)
    (tmp_path / "test_loose.py").write_text(LOOSE)
    (tmp_path / "test_users.py").write_text(USERS)
    done = _run(tmp_path)
    _workers(done, "")  # all 18 passed
    for worker in ("gw0", "gw1"):
        ran = re.findall(rf"^\[{worker}\] .*PASSED (\S+)", done.stdout, re.M)
        users = [i for i, name in enumerate(ran) if "::test_torch_user[" in name]
        assert users == list(range(len(ran) - len(users), len(ran))), ran


TORCH_GROUPED = """
import pytest


@pytest.fixture(scope="module")
def torch():
    return "a stand-in"


@pytest.mark.xdist_group("peers")
def test_torch_user(torch):
    pass
"""


def test_a_user_of_torch_in_an_xdist_group_fails_saying_why(tmp_path) -> None:
    """pytest-xdist hands out its groups first: a grouped user of ``torch`` would import it early."""
    (tmp_path / "conftest.py").write_text(CONFTEST)
    (tmp_path / "test_a_torch.py").write_text(TORCH_GROUPED)
    done = _run(tmp_path)
    assert done.returncode == pytest.ExitCode.TESTS_FAILED, done.stdout[-2000:] + done.stderr[-2000:]
    assert "ERROR test_a_torch.py::test_torch_user" in done.stdout
    assert "\nin xdist groups ['peers'] but it uses ['torch'], which runs last\n" in done.stdout


def test_the_suite_runs_these_hooks(pytestconfig):
    """The hooks this suite runs include groups.py's own, the ones the small suites above run.

    Asked of the plugin manager, not of ``import conftest``: which of the suite's conftest files
    that name holds depends on the order they were loaded (a CI run found another one there)."""
    import groups

    hook = pytestconfig.pluginmanager.hook
    for name in ("pytest_collection_modifyitems", "pytest_runtest_setup"):
        registered = [impl.function for impl in getattr(hook, name).get_hookimpls()]
        assert getattr(groups, name) in registered, name
