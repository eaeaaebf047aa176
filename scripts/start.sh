#!/usr/bin/env bash
# Install inarow and start the web app on http://127.0.0.1:8000 (games kept in the user data folder).
set -euo pipefail
cd "$(dirname "$0")/.."

python3 -m venv .venv
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e '.[docs]'
# The docs site, served by the app at /help/ (offline, as classrooms often are).
NO_MKDOCS_2_WARNING=1 .venv/bin/mkdocs build --quiet
# Pyodide (pinned in package-lock.json), served by inarow itself so that students' e(P) run in their own
# browsers, offline: npm ci fetches it once, copy_pyodide.py puts it into the package.
if [ ! -f src/inarow/web/static/pyodide/pyodide.asm.wasm ]; then
  if ! command -v npm >/dev/null && command -v apt-get >/dev/null; then
    SUDO=""
    [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq nodejs npm >/dev/null
  fi
  if command -v npm >/dev/null; then
    [ node_modules/.package-lock.json -nt package-lock.json ] || npm ci --no-audit --no-fund --loglevel=error
    .venv/bin/python scripts/copy_pyodide.py
  else
    echo "note: npm is missing, so the page's lab (a student's e(P) in the browser) is off" >&2
  fi
fi
# Compile the compiled engines now (once per install, with a progress line), not on the first big-board move.
.venv/bin/inarow warm-up
exec .venv/bin/inarow serve --open "$@"
