#!/usr/bin/env bash
# Install everything the tests need on a fresh machine, then run the linters and the tests (every test with
# --all or in CI; the quick set otherwise).
set -euo pipefail
cd "$(dirname "$0")/.."

python3 -m venv .venv
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e '.[test,docs]'

SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
apt_install() {
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "$@" >/dev/null
}

# The browser tests drive Debian's chromium through Playwright (Playwright cannot download browsers here).
if [ ! -x /usr/bin/chromium ]; then
  apt_install chromium
fi
# A Chinese font, so that the zh-CN pages lay out (and their screenshots read) as a reader sees them.
if [ -z "$(fc-list :lang=zh 2>/dev/null)" ]; then
  apt_install fonts-wqy-microhei
fi

# The page's JavaScript: ESLint (pinned in package-lock.json) and Node's own test runner; Node and npm come
# from Debian when missing; npm ci runs when node_modules is missing or older than the lock file.
missing=()
command -v node >/dev/null || missing+=(nodejs)
command -v npm >/dev/null || missing+=(npm)
if [ ${#missing[@]} -gt 0 ]; then
  apt_install "${missing[@]}"
fi
if [ ! node_modules/.package-lock.json -nt package-lock.json ]; then
  npm ci --no-audit --no-fund --loglevel=error
fi
.venv/bin/python scripts/copy_pyodide.py

.venv/bin/ruff check src tests bench
.venv/bin/ruff format --check src tests bench
.venv/bin/mypy
node_modules/.bin/eslint .
node --test --test-reporter=dot tests/js/*.test.mjs
# The docs site, both languages, every figure run by inarow; no warning allowed (not --quiet: it hides the
# warnings from --strict). The app serves it at /help/.
NO_MKDOCS_2_WARNING=1 .venv/bin/mkdocs build --strict
# The quick set (about 2 min of pytest on a quiet 2-core machine) by default; the tests marked slow too (the
# browser tests, the exhaustive proofs, the compiled kernels' checks, the server's processes: about 8 min more)
# with --all, and always in CI.
marks=()
if [ "${1:-}" = "--all" ]; then
  shift
  marks=(-m "")
elif [ -n "${CI:-}" ]; then
  marks=(-m "")
fi
.venv/bin/pytest -n 2 "${marks[@]}" "$@"
