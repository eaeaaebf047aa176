"""``python -m inarow``: the ``inarow`` command."""

from inarow.cli import app

app(prog_name="inarow")
