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


def test_the_book_extra_runs_a_chapter_from_the_command_line():
    # the README's commands: jupyter execute (nbclient) and jupyter nbconvert, with a kernel
    book = {_name(r) for r in requires("kernels-ref") if 'extra == "book"' in r}
    assert {"jupyter-book", "ipykernel", "nbconvert", "matplotlib"} <= book
    jupyter = Path(sys.executable).with_name("jupyter")
    for command in ("execute", "nbconvert"):
        run = subprocess.run([jupyter, command, "--help"], capture_output=True, check=False)
        assert run.returncode == 0, f"jupyter {command}: {run.stderr.decode()[-300:]}"


def test_numpy_is_the_only_required_dependency():
    required = [r for r in requires("kernels-ref") if "extra ==" not in r]
    assert [_name(r) for r in required] == ["numpy"]


def test_every_module_but_cvx_and_estimators_imports_neither_sklearn_nor_cvxpy():
    # None in sys.modules makes an import fail, as if the package were not installed; the
    # check after the imports catches a module that loads one of them without failing.
    modules = sorted(
        p.stem
        for p in (ROOT / "kernels_ref").glob("*.py")
        if p.stem not in {"__init__", "cvx", "estimators"}
    )
    assert {"svm", "model_selection", "cca", "_validation"} <= set(modules)
    result = _run(
        "import sys; sys.modules['cvxpy'] = sys.modules['scipy'] = sys.modules['sklearn'] = None\n"
        "import importlib, kernels_ref\n"
        f"for name in {modules!r}: importlib.import_module('kernels_ref.' + name)\n"
        "loaded = [m for m in ('sklearn', 'cvxpy', 'scipy') if sys.modules[m] is not None]\n"
        "print(loaded)"
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


def test_kernels_ref_estimators_without_sklearn_says_how_to_install_it():
    result = _run("import sys; sys.modules['sklearn'] = None\nimport kernels_ref.estimators")
    assert result.returncode != 0
    assert "ImportError: kernels_ref.estimators needs scikit-learn" in result.stderr
    assert "pip install 'kernels-ref[sklearn]'" in result.stderr


def test_kernels_ref_cvx_without_cvxpy_says_how_to_install_it():
    result = _run("import sys; sys.modules['cvxpy'] = None\nimport kernels_ref.cvx")
    assert result.returncode != 0
    assert "ImportError: kernels_ref.cvx needs cvxpy" in result.stderr
    assert "pip install 'kernels-ref[cvx]'" in result.stderr


def test_the_version_is_written_once():
    import kernels_ref

    assert version("kernels-ref") == kernels_ref.__version__
    assert 'dynamic = ["version"]' in (ROOT / "pyproject.toml").read_text()
