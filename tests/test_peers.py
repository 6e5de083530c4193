"""tests/peers.py: a missing peer skips a test, except where the run requires it; CI requires
every peer its environments have."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from peers import missing

ROOT = Path(__file__).resolve().parent.parent


def test_a_missing_peer_skips_where_it_is_not_required(monkeypatch):
    monkeypatch.setenv("SYMATTN_REQUIRED_PEERS", "math-verify")
    with pytest.raises(pytest.skip.Exception, match="torch: it is not installed"):
        missing("torch", "it is not installed")


def test_a_missing_peer_fails_where_it_is_required(monkeypatch):
    monkeypatch.setenv("SYMATTN_REQUIRED_PEERS", "torch, math-verify")
    with pytest.raises(pytest.fail.Exception, match="torch is required here"):
        missing("torch", "it is not installed")


def test_ci_requires_every_peer_each_run_installs():
    """The first run (scripts/test.sh installs torch and Math-Verify) requires both; the second,
    on a Python torch has no wheel for here, requires Math-Verify."""
    ci = (ROOT / ".ci" / "run").read_text()
    first = re.search(r"^SYMATTN_REQUIRED_PEERS=(\S+) bash scripts/test\.sh", ci, re.M)
    second = re.search(r"^SYMATTN_REQUIRED_PEERS=(\S+) \\\n\s+\.venv-newest/bin/python -m pytest", ci, re.M)
    assert first and set(first.group(1).split(",")) == {"torch", "math-verify", "course-module"}
    assert second and second.group(1) == "math-verify"


def test_collecting_the_torch_peer_imports_no_torch():
    """Every pytest worker collects tests/core/test_peers_torch.py; a worker that imported torch
    there would fork the checker's workers more than twice as slowly all run long."""
    code = "import sys, test_peers_torch; print(sorted(m for m in sys.modules if m.split('.')[0] == 'torch'))"
    paths = os.pathsep.join(str(ROOT / "tests" / part) for part in ("", "core"))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          env=os.environ | {"PYTHONPATH": paths}, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "[]"


def test_every_test_of_the_torch_peer_takes_the_torch_fixture():
    """tests/groups.py runs last the users of the ``torch`` fixture: a test of that file that
    imported torch itself would run anywhere in a worker's order, and import it early."""
    import ast

    tree = ast.parse((ROOT / "tests" / "core" / "test_peers_torch.py").read_text(encoding="utf-8"))
    tests = [f for f in tree.body if isinstance(f, ast.FunctionDef) and f.name.startswith("test_")]
    assert len(tests) >= 10
    assert [f.name for f in tests if "torch" not in [a.arg for a in f.args.args]] == []


_PYTHON3 = """#!/bin/bash
# a stand-in python3: `python3 -m venv DIR` makes DIR/bin/pip and DIR/bin/python stand-ins
[ "$1 $2" = "-m venv" ] || exit 3
mkdir -p "$3/bin"
cat >"$3/bin/pip" <<'PIP'
#!/bin/bash
echo "$(basename "$(dirname "$(dirname "$0")")") pip $*" >>"$STUB_LOG"
case "$*" in *math-verify*) [ -n "$MATH_VERIFY_FAILS" ] && { echo "no route to the index"; exit 1; } ;; esac
case "$*" in *torch*) [ -n "$TORCH_FAILS" ] && { echo "no such wheel"; exit 1; } ;; esac
exit 0
PIP
cat >"$3/bin/python" <<'PY'
#!/bin/bash
echo "pytest ran: SYMATTN_REQUIRED_PEERS=${SYMATTN_REQUIRED_PEERS-unset} $*"
PY
chmod +x "$3/bin/pip" "$3/bin/python"
"""

#: stand-ins for what scripts/test.sh must not reach here: a real apt-get (the tests run as root
#: in CI) fails the test loudly instead of installing anything
_REFUSED = """#!/bin/bash
echo "$(basename "$0") must not run in this test" >&2
exit 97
"""


def _test_sh(tmp_path: Path, **env: str) -> tuple[subprocess.CompletedProcess, list[str]]:
    """scripts/test.sh, copied into an empty checkout, run with stand-ins for python3, apt's
    packages and npm: nothing is installed, the pip commands are logged and what it runs is echoed."""
    (tmp_path / "scripts").mkdir()
    (tmp_path / "scripts" / "test.sh").write_text((ROOT / "scripts" / "test.sh").read_text())
    bin_ = tmp_path / "stubs"
    bin_.mkdir()
    stubs = {"python3": _PYTHON3, "apt-get": _REFUSED, "id": _REFUSED}
    stubs |= dict.fromkeys(("pdflatex", "chromium", "node", "npm"), "#!/bin/bash\n")
    for name, text in stubs.items():
        (bin_ / name).write_text(text)
        (bin_ / name).chmod(0o755)
    clean = {k: v for k, v in os.environ.items() if k != "SYMATTN_REQUIRED_PEERS"}
    log = tmp_path / "pip.log"
    path = os.pathsep.join((str(bin_), "/usr/bin", "/bin"))
    done = subprocess.run(["bash", str(tmp_path / "scripts" / "test.sh"), "-x"], capture_output=True,
                          text=True, timeout=60, env=clean | {"PATH": path, "STUB_LOG": str(log)} | env)
    return done, sorted(log.read_text().splitlines()) if log.exists() else []


def test_the_readme_test_command_installs_both_peers_and_requires_them(tmp_path):
    """`bash scripts/test.sh` installs torch 2.13.0 with symattn's test extra and Math-Verify in its
    own environment, then runs the suite with both required: a peer that cannot be imported
    fails its tests instead of skipping them."""
    done, pips = _test_sh(tmp_path)
    assert done.returncode == 0, done.stderr
    ran = "pytest ran: SYMATTN_REQUIRED_PEERS=torch,math-verify -m pytest -n auto --dist loadgroup -x\n"
    assert done.stdout == ran
    assert pips == [
        ".venv pip install -q -c constraints.txt -e .[test] torch==2.13.0",
        ".venv-mathverify pip install -q math-verify==0.9.0",
    ]


def test_the_readme_test_command_lets_the_peers_skip_only_when_told(tmp_path):
    """`SYMATTN_REQUIRED_PEERS= bash scripts/test.sh` (empty) is passed on: the peers may skip."""
    done, _ = _test_sh(tmp_path, SYMATTN_REQUIRED_PEERS="")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("pytest ran: SYMATTN_REQUIRED_PEERS= -m pytest")


@pytest.mark.parametrize(
    "fails, says",
    [
        ("MATH_VERIFY_FAILS",
         "no route to the index\nscripts/test.sh: Math-Verify did not install (the answer checker's peer)\n"),
        ("TORCH_FAILS", "no such wheel\nscripts/test.sh: .venv did not install\n"),
    ],
    ids=["math-verify", "torch"],
)
def test_the_readme_test_command_stops_when_a_peer_does_not_install(tmp_path, fails, says):
    """No run with a peer quietly missing, even with SYMATTN_REQUIRED_PEERS empty: the install's
    log, one line saying so, exit 1."""
    done, _ = _test_sh(tmp_path, **{fails: "1", "SYMATTN_REQUIRED_PEERS": ""})
    assert done.returncode == 1 and "pytest ran" not in done.stdout
    assert done.stderr.endswith(says), done.stderr


def test_a_name_no_peer_has_stops_the_run(tmp_path):
    """A misspelt SYMATTN_REQUIRED_PEERS would require nothing: pytest refuses it (usage error, 4)
    in one line before any test runs."""
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist", "--co",
         str(ROOT / "tests" / "test_peers.py")],
        capture_output=True, text=True, timeout=300, cwd=ROOT,
        env=os.environ | {"SYMATTN_REQUIRED_PEERS": "torch,mathverify"},
    )
    assert done.returncode == pytest.ExitCode.USAGE_ERROR, done.stdout[-2000:] + done.stderr[-2000:]
    assert done.stderr.strip() == (
        "ERROR: SYMATTN_REQUIRED_PEERS names mathverify, which is no peer's (known: torch, math-verify, "
        "course-module)"
    )
