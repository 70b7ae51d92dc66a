"""Hypothesis profiles of the test suite.

``default`` is fast, for a contributor's edit-test loop; ``ci`` tries more examples and is
derandomised — the same examples on every run and machine, so a red CI run can be reproduced
and a green one does not depend on luck. ``.ci/run`` (through ``make test``) selects ``ci`` with
the environment variable ``HYPOTHESIS_PROFILE``; ``pytest --hypothesis-profile=ci`` does the same.
No test sets ``max_examples`` itself; expensive tests take a fraction of the profile's count
(see ``tests/test_cvx.py``).
"""

import os

import pytest
from hypothesis import HealthCheck, settings

# deadline=None: the solvers' running time varies with the problem drawn, and a timing is not
# what these tests check (the benchmarks measure speed).
settings.register_profile("default", max_examples=25, deadline=None)
settings.register_profile(
    "ci",
    max_examples=60,
    deadline=None,
    derandomize=True,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


@pytest.fixture
def psd_tests(monkeypatch):
    """The sizes of the full PSD tests (Cholesky factorisations) that ``check_gram`` runs
    during the test, in order: for checking that a public function validates once."""
    from kernels_ref import _validation

    sizes = []
    factorise = _validation._has_cholesky

    def counting(K, shift):
        sizes.append(len(K))
        return factorise(K, shift)

    monkeypatch.setattr(_validation, "_has_cholesky", counting)
    return sizes


# The downloadable notebooks run in a fresh virtual environment (test_standalone_notebooks.py):
# a minute or two of pip installs, run by `make test-downloads` (and .ci/run), not `make test`.
def pytest_addoption(parser):
    parser.addoption(
        "--fresh-venv",
        action="store_true",
        help="run the tests marked fresh_venv (each creates a virtual environment)",
    )


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "fresh_venv: creates a virtual environment; runs with --fresh-venv only"
    )


def pytest_collection_modifyitems(config, items):
    if config.getoption("--fresh-venv"):
        return
    skip = pytest.mark.skip(reason="creates a virtual environment: make test-downloads")
    for item in items:
        if "fresh_venv" in item.keywords:
            item.add_marker(skip)
