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


def test_a_group_runs_on_one_worker(tmp_path) -> None:
    (tmp_path / "test_one.py").write_text(GROUPED)
    (tmp_path / "test_two.py").write_text(GROUPED)
    (tmp_path / "test_loose.py").write_text(LOOSE)
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-v", "-n", "2", "--dist", "loadgroup",
         "-o", "addopts=", "--rootdir", str(tmp_path), str(tmp_path)],
        cwd=tmp_path, capture_output=True, text=True, timeout=120,
        env={k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")},
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    passed = re.findall(r"^\[(gw\d)\] .*PASSED (\S+)", done.stdout, re.M)
    assert len(passed) == 18, done.stdout
    grouped = {worker for worker, test in passed if "::test_grouped[" in test}
    assert len(grouped) == 1, f"the group ran on {sorted(grouped)}"
