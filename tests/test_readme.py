"""The README and generated docs stay in step with the code."""

from __future__ import annotations

import re
from pathlib import Path

from symattn.cli import main

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()


def test_readme_example_is_real_output(capsys):
    """The README's example block is exactly what `symattn attention --example` prints."""
    block = re.search(r"<!-- example:start -->\n```text\n(.*?)```\n<!-- example:end -->", README, re.S)
    assert block, "README example markers missing"
    assert main(["attention", "--example", "--mask", "causal", "--digits", "6"]) == 0
    assert capsys.readouterr().out == block.group(1), (
        "README example is stale: paste the output of `symattn attention --example --mask causal --digits 6`"
    )


def test_quick_start_is_two_commands_and_ci_runs_the_second():
    """The quick start has exactly two commands, and .ci/run contains the test one verbatim."""
    quick = re.search(r"## Quick start.*?```sh\n(.*?)```", README, re.S)
    assert quick
    commands = [line for line in quick.group(1).splitlines() if line.strip()]
    assert len(commands) == 2
    assert commands[0].endswith("symattn build")
    assert commands[1] in (ROOT / ".ci" / "run").read_text()
    script = commands[1].split()[-1]
    assert "python -m pytest" in (ROOT / script).read_text()
