"""The conda environment and the pip metadata list the same dependencies."""

import re
from importlib.metadata import requires
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]


def _name(requirement):
    return re.split(r"[<>=!~ ;\[]", requirement.strip(), maxsplit=1)[0].lower().replace("_", "-")


def test_environment_yml_and_pyproject_list_the_same_dependencies():
    # The installed metadata is pyproject.toml's (the Makefile reinstalls when it changes).
    pip_names = {_name(r) for r in requires("kernels-ref")}

    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    conda_names = set()
    for dep in env["dependencies"]:
        if isinstance(dep, dict):
            conda_names |= {_name(r) for r in dep["pip"] if not r.startswith("-e")}
        elif _name(dep) not in {"python", "pip"}:
            conda_names.add(_name(dep))
    assert conda_names == pip_names
