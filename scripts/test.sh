#!/usr/bin/env bash
# Set up everything the tests need on a fresh machine, then run the whole test suite.
#   - Debian packages: pdflatex (texlive) and chromium for the renderer tests, node/npm for KaTeX
#   - npm: KaTeX, pinned in package-lock.json
#   - Python: a virtual environment in .venv with symattn and its test extra at the exact versions
#     of constraints.txt (those that made docs/), and one in .venv-mathverify with Math-Verify
#     (the answer-checking peer, whose antlr clashes with ours)
# The suite runs on every core (pytest-xdist, -n auto). Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
command -v pdflatex >/dev/null || need+=(texlive-latex-base texlive-latex-recommended texlive-fonts-recommended)
command -v chromium >/dev/null || need+=(chromium)
command -v node >/dev/null || need+=(nodejs)
command -v npm >/dev/null || need+=(npm)
if [ ${#need[@]} -gt 0 ] && [ "$(id -u)" -ne 0 ]; then
  echo "scripts/test.sh: missing ${need[*]}; install them (Debian) or run as root" >&2
  exit 2
fi

# The Python environments install in the background from the start, while Debian's packages and
# npm's install (apt and pip wait mostly on downloads and disks, so together they take little more
# than the longer of the two):
#   - .venv, with PyTorch for the peer tests only (not a dependency of symattn): 2.13.0 CPU is
#     the wheel these machines carry; any other version downloads a multi-GB CUDA build.
#   - .venv-mathverify, Math-Verify for the answer-checking peer tests only, in its own
#     environment: it needs antlr 4.13 and latex2sympy2 pins 4.7.2 (bench/peers_answers.py finds
#     it there).
# Either install failing stops this script (exit 1), and both peers are required in the run
# (SYMATTN_REQUIRED_PEERS, tests/peers.py): a peer that installed but cannot be used fails its
# tests instead of skipping them (SYMATTN_REQUIRED_PEERS= , empty, lets those skip).
venv_log=$(mktemp)
( python3 -m venv .venv && .venv/bin/pip install -q -c constraints.txt -e '.[test]' torch==2.13.0 ) \
  >"$venv_log" 2>&1 &
venv=$!
mathverify_log=$(mktemp)
( python3 -m venv .venv-mathverify && .venv-mathverify/bin/pip install -q math-verify==0.9.0 ) \
  >"$mathverify_log" 2>&1 &
mathverify=$!
# If this script ends early (set -e), the installs end with it.
# (pkill -P: the pip each subshell runs, which would otherwise go on writing into .venv*.)
trap 'pkill -P "$venv,$mathverify" 2>/dev/null || true; kill "$venv" "$mathverify" 2>/dev/null || true
      rm -f "$venv_log" "$mathverify_log"' EXIT

if [ ${#need[@]} -gt 0 ]; then
  echo "installing Debian packages: ${need[*]}" >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

npm ci --no-audit --no-fund --loglevel=error

if ! wait "$venv"; then
  cat "$venv_log" >&2
  echo "scripts/test.sh: .venv did not install" >&2
  exit 1
fi
if ! wait "$mathverify"; then
  cat "$mathverify_log" >&2
  echo "scripts/test.sh: Math-Verify did not install (the answer checker's peer)" >&2
  exit 1
fi
rm -f "$venv_log" "$mathverify_log"
trap - EXIT

SYMATTN_REQUIRED_PEERS="${SYMATTN_REQUIRED_PEERS-torch,math-verify}" \
  .venv/bin/python -m pytest -n auto --dist loadgroup "$@"
