#!/usr/bin/env bash
# Set up everything the tests need on a fresh machine, then run the whole test suite.
#   - Debian packages: pdflatex (texlive) and chromium for the renderer tests, node/npm for KaTeX
#   - npm: KaTeX, pinned in package-lock.json
#   - Python: a virtual environment in .venv with symattn and its test extra
# Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
command -v pdflatex >/dev/null || need+=(texlive-latex-base texlive-latex-recommended texlive-fonts-recommended)
command -v chromium >/dev/null || need+=(chromium)
command -v node >/dev/null || need+=(nodejs)
command -v npm >/dev/null || need+=(npm)
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "scripts/test.sh: missing ${need[*]}; install them (Debian) or run as root" >&2
    exit 2
  fi
  echo "installing Debian packages: ${need[*]}" >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

npm ci --no-audit --no-fund --loglevel=error

python3 -m venv .venv
.venv/bin/pip install -q -e '.[test]'
# PyTorch, for the peer tests only (not a dependency of symattn). 2.13.0 CPU is the wheel these
# machines carry; any other version downloads a multi-GB CUDA build.
.venv/bin/pip install -q torch==2.13.0

.venv/bin/python -m pytest "$@"
