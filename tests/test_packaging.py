"""The conda environment and the pip metadata list the same dependencies."""

import re
import subprocess
import sys
from importlib.metadata import requires, version
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]


def _name(requirement):
    return re.split(r"[<>=!~ ;\[]", requirement.strip(), maxsplit=1)[0].lower().replace("_", "-")


def test_environment_yml_and_pyproject_list_the_same_dependencies():
    # The installed metadata is pyproject.toml's (the Makefile reinstalls when it changes).
    pip_names = {_name(r) for r in requires("kernels-ref")} - {"kernels-ref"}  # [cvx] extra

    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    conda_names = set()
    for dep in env["dependencies"]:
        if isinstance(dep, dict):
            conda_names |= {_name(r) for r in dep["pip"] if not r.startswith("-e")}
        elif _name(dep) not in {"python", "pip"}:
            conda_names.add(_name(dep))
    assert conda_names == pip_names


def _run(code):
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=False
    )


def test_numpy_is_the_only_required_dependency():
    required = [r for r in requires("kernels-ref") if "extra ==" not in r]
    assert [_name(r) for r in required] == ["numpy"]


def test_the_package_imports_without_cvxpy_and_scipy():
    # None in sys.modules makes an import fail, as if the package were not installed.
    result = _run(
        "import sys; sys.modules['cvxpy'] = sys.modules['scipy'] = None\n"
        "import kernels_ref\n"
        "from kernels_ref import kernels, feature_space, representer, svm, smo, ridge, svr\n"
        "from kernels_ref import pca, cca, clustering, estimators\n"
        "print('ok')"
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"


def test_kernels_ref_cvx_without_cvxpy_says_how_to_install_it():
    result = _run("import sys; sys.modules['cvxpy'] = None\nimport kernels_ref.cvx")
    assert result.returncode != 0
    assert "ImportError: kernels_ref.cvx needs cvxpy" in result.stderr
    assert "pip install 'kernels-ref[cvx]'" in result.stderr


def test_the_version_is_written_once():
    import kernels_ref

    assert version("kernels-ref") == kernels_ref.__version__
    assert 'dynamic = ["version"]' in (ROOT / "pyproject.toml").read_text()
