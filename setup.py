"""The one piece of the build that pyproject.toml cannot say: a wheel holds the help pages, Pyodide and
Connect Four's 12-ply book, made by ``scripts/wheel_assets.py`` in the build's copy of the package (an
editable install leaves them to ``scripts/start.sh``)."""

import subprocess
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py


class BuildWithAssets(build_py):
    def run(self) -> None:
        super().run()
        if not getattr(self, "editable_mode", False):
            script = Path(__file__).resolve().parent / "scripts" / "wheel_assets.py"
            subprocess.run([sys.executable, str(script), str(Path(self.build_lib) / "inarow")], check=True)


setup(cmdclass={"build_py": BuildWithAssets})
