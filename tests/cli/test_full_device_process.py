"""Output to a full device, in a real process (`python -m symattn ... > /dev/full`): one line on
stderr and exit code 2, whether the command writes through the lab's writer or the final flush.
Run from the current folder, as `python -m` does, so that the symattn imported is the one tested."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full (Linux)")
@pytest.mark.parametrize(
    "argv",
    [["attention", "--example"], ["lab", "saturation", "--trials", "5"]],
    ids=["final flush", "lab writer"],
)
def test_a_full_device_is_one_line_and_exit_2(argv):
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-m", "symattn", *argv],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
        )
    assert done.returncode == 2
    assert done.stderr.startswith("symattn: error: cannot write") and done.stderr.count("\n") == 1
    assert done.stderr.endswith(": No space left on device\n")
