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
