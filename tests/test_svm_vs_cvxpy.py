"""Parity of the NumPy SVMs (kernels_ref.svm, solved by SMO) with the cvxpy references.

SPEC §4: on 50 random problems per formulation (linear and Gaussian kernels, separable and
not, n from 10 to 300), the NumPy answer and the cvxpy answer (Clarabel at 1e-10) have

- dual objectives equal to 1e-6 relative (cvxpy's dual),
- decision values equal to 1e-5 (relative to the largest |f|); when no multiplier is free the
  intercept is not unique (any b of an interval satisfies the KKT conditions), and then only
  f - b is compared,
- strong duality: cvxpy's *primal* optimum equals the NumPy *dual* objective to 1e-6,
- a KKT violation of the NumPy answer below its tolerance.

Hard margin on data that are not separable: both raise NotSeparableError (cvxpy's primal is
infeasible).
"""

import cvxpy as cp
import numpy as np
import pytest

from kernels_ref import cvx
from kernels_ref.exceptions import NotSeparableError
from kernels_ref.kernels import gaussian_kernel, linear_kernel
from kernels_ref.svm import (
    hard_margin,
    lambda_svm,
    nu_svm,
    soft_margin_l1,
    soft_margin_l2,
    svm_predict,
)

N_PROBLEMS = 50
TOL = 1e-8  # the fits' default stopping tolerance


def problem(kind, index):
    """A random problem: (y, K, K_test, Phi, separable, params); indices 0, 1 have n = 300."""
    rng = np.random.default_rng(1000 * ["hard", "l1", "l2", "lambda", "nu"].index(kind) + index)
    n = 300 if index < 2 else int(rng.integers(10, 61))
    linear = index % 2 == 0
    separable = index % 4 in (0, 1)
    y = np.where(rng.random(n) < 0.5, 1.0, -1.0)
    y[:2] = [1.0, -1.0]
    X = rng.standard_normal((n, 2)) + (2.5 if separable else 0.5) * y[:, None]
    if kind == "hard" and not separable:
        X[1] = X[0]  # the same point with both labels: not separable, whatever the kernel
    X_test = rng.standard_normal((5, 2))
    if linear:
        K, K_test, Phi = linear_kernel(X), linear_kernel(X_test, X), X
    else:
        sigma = float(rng.uniform(0.7, 2.0))
        K, K_test, Phi = (
            gaussian_kernel(X, sigma=sigma),
            gaussian_kernel(X_test, X, sigma=sigma),
            None,
        )
    params = {
        "hard": {},
        "l1": {"C": float(10 ** rng.uniform(-1.3, 1.7))},
        "l2": {"C": float(10 ** rng.uniform(-1.3, 1.7))},
        "lambda": {"lam": float(10 ** rng.uniform(-3, 0))},
        "nu": {"nu": float(rng.uniform(0.4, 0.95)) * 2 * min((y > 0).sum(), (y < 0).sum()) / n},
    }[kind]
    return y, K, K_test, Phi, separable, params


def has_free(res, C):
    a = res.alpha
    atol = 1e-6 * max(1.0, a.max())
    return bool(np.any((a > atol) & (a < C - atol)))


def assert_same_decisions(ours, ref, K, K_test, b_unique):
    """Decision values on training and test points within 1e-5 of the largest |f|."""
    for G in (K, K_test):
        f_ours, f_ref = svm_predict(ours, G), svm_predict(ref, G)
        scale = max(1.0, float(np.abs(f_ref).max()))
        if b_unique:
            np.testing.assert_allclose(f_ours, f_ref, atol=1e-5 * scale, rtol=0)
        else:
            np.testing.assert_allclose(f_ours - ours.b, f_ref - ref.b, atol=1e-5 * scale, rtol=0)


def assert_objectives(ours, dual_value, primal_value):
    assert ours.dual_objective == pytest.approx(dual_value, rel=1e-6, abs=1e-9)
    assert ours.dual_objective == pytest.approx(primal_value, rel=1e-6, abs=1e-9)


@pytest.mark.filterwarnings("ignore:Solution may be inaccurate")
@pytest.mark.parametrize("index", range(N_PROBLEMS))
def test_hard_margin_matches_cvxpy(index):
    y, K, K_test, Phi, separable, _ = problem("hard", index)
    if not separable:
        with pytest.raises(NotSeparableError):
            hard_margin(K, y)
        # Not separable by construction (x_2 = x_1 with opposite labels). Clarabel reports the
        # infeasible primal as such, or on some Gaussian Gram matrices stops at
        # 'optimal_inaccurate', which cvx.py rejects with SolverError.
        with pytest.raises((NotSeparableError, cp.error.SolverError)):
            cvx.hard_margin_primal(K, y, Phi=Phi)
        return
    ours = hard_margin(K, y)
    ref = cvx.hard_margin_dual(K, y, Phi=Phi)
    primal = cvx.hard_margin_primal(K, y, Phi=Phi)
    assert ours.converged and ours.kkt_violation <= 10 * TOL
    assert_objectives(ours, ref.dual_objective, primal.objective)
    assert_same_decisions(ours, ref, K, K_test, b_unique=True)


@pytest.mark.parametrize("index", range(N_PROBLEMS))
def test_soft_margin_l1_matches_cvxpy(index):
    y, K, K_test, Phi, _, params = problem("l1", index)
    C = params["C"]
    ours = soft_margin_l1(K, y, C)
    ref = cvx.soft_margin_l1_dual(K, y, C, Phi=Phi)
    primal = cvx.soft_margin_l1_primal(K, y, C, Phi=Phi)
    assert ours.converged and ours.kkt_violation <= 10 * TOL
    assert_objectives(ours, ref.dual_objective, primal.objective)
    assert_same_decisions(ours, ref, K, K_test, b_unique=has_free(ours, C))


@pytest.mark.parametrize("index", range(N_PROBLEMS))
def test_soft_margin_l2_matches_cvxpy(index):
    y, K, K_test, Phi, _, params = problem("l2", index)
    C = params["C"]
    ours = soft_margin_l2(K, y, C)
    ref = cvx.soft_margin_l2_dual(K, y, C, Phi=Phi)
    primal = cvx.soft_margin_l2_primal(K, y, C, Phi=Phi)
    assert ours.converged and ours.kkt_violation <= 10 * TOL
    assert_objectives(ours, ref.dual_objective, primal.objective)
    assert_same_decisions(ours, ref, K, K_test, b_unique=True)


@pytest.mark.parametrize("index", range(N_PROBLEMS))
def test_lambda_svm_matches_cvxpy(index):
    y, K, K_test, Phi, _, params = problem("lambda", index)
    lam = params["lam"]
    ours = lambda_svm(K, y, lam)
    ref = cvx.lambda_svm_dual(K, y, lam, Phi=Phi)
    primal = cvx.lambda_svm_primal(K, y, lam, Phi=Phi)
    assert ours.converged and ours.kkt_violation <= 10 * TOL
    # Vert's scaling: the primal (1/n) sum hinge + lam ||f||^2 is lam times his dual
    assert_objectives(ours, ref.dual_objective, primal.objective / lam)
    assert_same_decisions(ours, ref, K, K_test, b_unique=True)


@pytest.mark.parametrize("index", range(N_PROBLEMS))
def test_nu_svm_matches_cvxpy(index):
    y, K, K_test, Phi, _, params = problem("nu", index)
    nu = params["nu"]
    n = len(y)
    ours = nu_svm(K, y, nu)
    ref = cvx.nu_svm_dual(K, y, nu, Phi=Phi)
    primal = cvx.nu_svm_primal(K, y, nu, Phi=Phi)
    assert ours.converged and ours.kkt_violation <= 10 * TOL
    assert_objectives(ours, ref.dual_objective, primal.objective)
    pos = y > 0
    unique = all(has_free(_restrict(ours, cls), 1.0 / n) for cls in (pos, ~pos))
    assert_same_decisions(ours, ref, K, K_test, b_unique=unique)
    if unique:
        assert ours.rho == pytest.approx(ref.rho, abs=1e-5 * max(1.0, abs(ref.rho)))


def _restrict(res, mask):
    """A stand-in with the alphas of one class (for has_free)."""

    class R:
        alpha = res.alpha[mask]

    return R
