#!/usr/bin/env bash
# Install inarow and start the web app on http://127.0.0.1:8000 (games kept in the user data folder).
set -euo pipefail
cd "$(dirname "$0")/.."

python3 -m venv .venv
.venv/bin/python -m pip install --quiet -e .
# Serve at once. Beside the server, in the background (a line as each step starts and ends, through a pipe
# so that they do not tangle with the server's log; they end on their own, or with this shell's process
# group on Ctrl-C):
# - Pyodide (pinned in package-lock.json), served by inarow itself so that students' e(P) run in their own
#   browsers, offline: npm ci fetches it once, copy_pyodide.py puts it into the package;
# - the engines compiled (once per install) so that the first big-board move finds them ready: small boards
#   need no compiled engine, and the page says when a move waits for one;
# - the docs site, served by the app at /help/ (offline, as classrooms often are): its tools installed, then
#   built aside and moved in whole, so that /help/ never shows half a site.
(
  if [ ! -f src/inarow/web/static/pyodide/pyodide.asm.wasm.gz ]; then
    if ! command -v npm >/dev/null && command -v apt-get >/dev/null; then
      SUDO=""
      [ "$(id -u)" -ne 0 ] && SUDO="sudo -n"
      $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq nodejs npm >/dev/null
    fi
    if command -v npm >/dev/null; then
      [ node_modules/.package-lock.json -nt package-lock.json ] || npm ci --no-audit --no-fund --loglevel=error
      .venv/bin/python scripts/copy_pyodide.py
    else
      echo "note: npm is missing, so the page's lab (a student's e(P) in the browser) is off" >&2
    fi
  fi
  .venv/bin/inarow warm-up
  if [ ! -f src/inarow/web/help/index.html ] || [ -n "$(find docs mkdocs.yml -newer src/inarow/web/help/index.html -print -quit)" ]; then
    echo "building the help pages (/help/)…"
    rm -rf .venv/help-build
    # the docs' tools only now, so that the server does not wait for them (they add to the venv, and
    # change nothing the server has loaded)
    if .venv/bin/python -m pip install --quiet -e '.[docs]' \
      && NO_MKDOCS_2_WARNING=1 .venv/bin/mkdocs build --quiet -d .venv/help-build; then
      rm -rf src/inarow/web/help && mv .venv/help-build src/inarow/web/help && echo "the help pages are built"
    else
      echo "note: the help pages could not be built (see above); the app runs without them" >&2
    fi
  fi
) 2>&1 | cat &
exec .venv/bin/inarow serve --open "$@"
