"""The checking path runs without NumPy, matplotlib, pebble or tqdm (a browser's Python has none).

Each test runs a fresh interpreter: one that imports the modules `check`, `check --steps`,
variants and `audit` need and lists what came with them, and one in which those four
packages cannot be imported at all (``sys.modules[name] = None`` makes ``import name`` fail),
which then runs the commands themselves through ``main(argv)`` and prints their results.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("numpy", "matplotlib", "pebble", "tqdm")
PROOF = ROOT / "tests" / "data" / "learner_proofs" / "ex6.3" / "c01_module_solution.tex"
MODULE = ROOT / "tests" / "fixtures" / "module_ok.md"
#: The course module's facts and figures, kept for the tests: its lab figures need NumPy.
COURSE = ROOT / "tests" / "data" / "module" / "attention.md"


def _python(code: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=300, check=False, cwd=ROOT
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def test_importing_the_checking_path_imports_none_of_the_heavy_packages():
    """The modules behind check, check --steps, variants and audit leave the four out."""
    out = _python(
        "import sys\n"
        "import symattn, symattn.cli, symattn.cli.app, symattn.cli.commands\n"
        "import symattn.grading.answers.judge, symattn.grading.exercises\n"
        "import symattn.grading.proofs.proof_judge\n"
        "import symattn.grading.audit.keys, symattn.grading.answers.parsing\n"
        "import symattn.grading.answers.readers\n"
        f"print(sorted(m for m in {HEAVY!r} if m in sys.modules))\n"
    )
    assert out.strip() == "[]"


def test_the_checking_commands_run_where_the_heavy_packages_cannot_be_imported():
    """check, check --steps, a variant and audit give their usual results without the four."""
    code = (
        "import contextlib, io, json, sys\n"
        f"for name in {HEAVY!r}:\n"
        "    sys.modules[name] = None\n"
        "from symattn.cli import main\n"
        "runs = {}\n"
        "def run(key, argv):\n"
        "    out = io.StringIO()\n"
        "    with contextlib.redirect_stdout(out):\n"
        "        rc = main(argv)\n"
        "    runs[key] = [rc, out.getvalue()]\n"
        r"run('check', ['check', 'ex6.2', r'\frac{e^2+11}{e^2+2}', '--json'])"
        "\n"
        "run('wrong', ['check', 'ex6.5', 'N > 4096', '--json'])\n"
        f"run('steps', ['check', 'ex6.3', '--steps', {str(PROOF)!r}, '--json'])\n"
        "run('variant', ['exercises', 'variant', 'ex6.2', '--seed', '7'])\n"
        "run('seeded', ['check', 'ex6.5', 'N > 8192', '--seed', '7', '--json'])\n"
        f"run('audit', ['audit', {str(MODULE)!r}])\n"
        f"run('course', ['audit', {str(COURSE)!r}, '--json'])\n"
        "print(json.dumps(runs))\n"
    )
    runs = json.loads(_python(code))
    assert runs["check"][0] == 0 and json.loads(runs["check"][1])["verdict"] == "correct"
    wrong = json.loads(runs["wrong"][1])
    assert runs["wrong"][0] == 1 and wrong["mistake"] == "crossover-at-d-model"
    assert runs["steps"][0] == 0 and json.loads(runs["steps"][1])["verdict"] == "correct"
    assert runs["variant"][0] == 0 and "--seed 7" in runs["variant"][1]
    seeded = json.loads(runs["seeded"][1])["verdict"]
    assert runs["seeded"][0] == {"correct": 0, "incorrect": 1}[seeded]
    assert runs["audit"][0] == 0 and "claims:" in runs["audit"][1]
    # The labs' figures are unchecked, and say why: four variance ratios and the scaled 1.0 of
    # the first "Measured" block, the two shares and p_max (1 - p_max) of the second.
    assert runs["course"][0] == 0
    claims = json.loads(runs["course"][1])["claims"]
    labs = [c for c in claims if "NumPy" in c["rule"]]
    assert len(labs) == 8 and {c["verdict"] for c in labs} == {"unchecked"}
