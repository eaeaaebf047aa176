#!/usr/bin/env bash
# Install inarow and start the web app on http://127.0.0.1:8000 (games kept in the user data folder).
set -euo pipefail
cd "$(dirname "$0")/.."

python3 -m venv .venv
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e '.[docs]'
# The docs site, served by the app at /help/ (offline, as classrooms often are).
NO_MKDOCS_2_WARNING=1 .venv/bin/mkdocs build --quiet
# Compile the compiled engines now (once per install, with a progress line), not on the first big-board move.
.venv/bin/inarow warm-up
exec .venv/bin/inarow serve --open "$@"
