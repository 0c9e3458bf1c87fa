"""The one build step pyproject.toml cannot declare: the example campaign in the wheel.

`campaigns/example/` is the one copy in the repository (README's quickstart runs `drunagor show` on
it from a clone); the wheel carries it as package data, `drunagor_log/example/`, copied at build time,
so that `drunagor new --example NAME` works where drunagor was installed from the wheel (SPEC 2). An
editable install builds nothing: drunagor finds campaigns/example beside the package.
"""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

EXAMPLE = Path(__file__).resolve().parent / "campaigns" / "example"


class BuildWithExample(build_py):
    def run(self):
        super().run()
        if getattr(self, "editable_mode", False):
            return
        target = Path(self.build_lib) / "drunagor_log" / "example"
        shutil.rmtree(target, ignore_errors=True)
        # the campaign's own files only (never an editor's or the tool's hidden ones)
        shutil.copytree(EXAMPLE, target, ignore=shutil.ignore_patterns(".*", "__pycache__"))


setup(cmdclass={"build_py": BuildWithExample})
