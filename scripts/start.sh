#!/usr/bin/env bash
# Install inarow and start the web app on http://127.0.0.1:8000 (games kept in the user data folder).
set -euo pipefail
cd "$(dirname "$0")/.."

python3 -m venv .venv
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e .
# Serve at once; compile the engines beside it (once per install, a line as each starts and ends) so that
# the first big-board move finds them ready. Small boards need no compiled engine; the page says when a move
# waits for one. The warm-up ends on its own (or with this shell's process group on Ctrl-C); through a pipe it
# writes lines, not a spinner that would tangle with the server's log.
.venv/bin/inarow warm-up 2>&1 | cat &
exec .venv/bin/inarow serve --open "$@"
