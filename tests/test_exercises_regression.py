"""The exercises of chapters 9 and 10: kernel ridge regression's coefficients (judged against
the reference) and the dual of SVR (judged by certificate). For each: the reference passes, the
classic mistakes fail on a small problem with a message that names them, and a correct
implementation written another way passes."""

import cvxpy as cp
import numpy as np
import pytest

from kernels_ref import exercises

# --- kernel_ridge -------------------------------------------------------------------------------


def _eye(y):
    return np.eye(len(y))


def ridge_without_lam(K, y, lam):
    return np.linalg.solve(K, y)


def ridge_mean_loss(K, y, lam):
    return np.linalg.solve(K + len(y) * lam * _eye(y), y)


def ridge_lam_everywhere(K, y, lam):
    return np.linalg.solve(K + lam, y)  # broadcast: lam added to every entry


def ridge_primal_formula(K, y, lam):
    return np.linalg.solve(K.T @ K + lam * _eye(y), K.T @ y)


def ridge_fitted_values(K, y, lam):
    return K @ np.linalg.solve(K + lam * _eye(y), y)


def ridge_squared_lam(K, y, lam):
    return np.linalg.solve(K + lam**2 * _eye(y), y)


RIDGE_MISTAKES = [
    (ridge_without_lam, "lam is missing"),
    (ridge_mean_loss, "the mean-loss convention"),
    (ridge_lam_everywhere, "lam is added to every entry of K"),
    (ridge_primal_formula, "the primal formula"),
    (ridge_fitted_values, "the fitted values"),
    (ridge_squared_lam, "the shift of the diagonal is wrong"),
]


def ridge_by_feature_map(K, y, lam):
    """Primal ridge in the feature space of (1 + <x, z>)^2, recovered from K itself: K = Phi
    Phi^T with Phi from an eigendecomposition, w = (Phi^T Phi + lam I)^{-1} Phi^T y, and the
    residual y - Phi w = lam alpha."""
    e, V = np.linalg.eigh(K)
    Phi = V * np.sqrt(np.clip(e, 0.0, None))
    w = np.linalg.solve(Phi.T @ Phi + lam * np.eye(Phi.shape[1]), Phi.T @ y)
    return (y - Phi @ w) / lam


def ridge_by_conjugate_gradient(K, y, lam):
    """(K + lam I) alpha = y by conjugate gradients (exact in n steps, then polished)."""
    A = K + lam * np.eye(len(y))
    alpha = np.zeros(len(y))
    r = y - A @ alpha
    d = r.copy()
    for _ in range(3 * len(y)):
        if r @ r <= 1e-30:
            break
        step = (r @ r) / (d @ A @ d)
        alpha = alpha + step * d
        r_new = r - step * (A @ d)
        d = r_new + (r_new @ r_new) / (r @ r) * d
        r = r_new
    return alpha


def test_kernel_ridge_reference_passes():
    report = exercises.check("kernel_ridge", exercises.reference("kernel_ridge"))
    assert report.passed, str(report)


@pytest.mark.parametrize(
    ("wrong", "named"), RIDGE_MISTAKES, ids=lambda v: getattr(v, "__name__", "")
)
def test_kernel_ridge_mistake_is_named(wrong, named):
    report = exercises.check("kernel_ridge", wrong)
    assert not report.passed
    assert named in report.message, str(report)
    assert report.problem.size <= 5, str(report)


@pytest.mark.parametrize("correct", [ridge_by_feature_map, ridge_by_conjugate_gradient])
def test_kernel_ridge_written_otherwise_passes(correct):
    report = exercises.check("kernel_ridge", correct)
    assert report.passed, str(report)


def test_the_ridge_loss_is_a_sum():
    """The statement's convention, checked on the worked example of kernels_ref.ridge: K = [[2,
    1], [1, 2]], y = (1, 0), lam = 1 gives (K + I)^{-1} y = (3, -1) / 8."""
    alpha = exercises.reference("kernel_ridge")(
        np.array([[2.0, 1.0], [1.0, 2.0]]), np.array([1.0, 0.0]), 1.0
    )
    np.testing.assert_allclose(alpha, [0.375, -0.125], rtol=1e-12)


# --- svr_dual ----------------------------------------------------------------------------------


#: Clarabel's stopping tolerances, tight: at its defaults (1e-8 on the duality gap) an answer
#: on a problem whose objective is flat to second order along a feasible direction (a point on
#: the tube's edge with a zero multiplier) is off by ~1e-4, and swapping such an answer fails
#: at that level, on a problem that shows the mistake less clearly than the one found here.
TIGHT = dict(tol_gap_abs=1e-12, tol_gap_rel=1e-12, tol_feas=1e-12, tol_ktratio=1e-10)


def _svr_cvxpy(
    K, y, C, epsilon, *, swap=False, eps=True, equality=True, box=True, plus=False, tight=True
):
    """The epsilon-SVR dual with cvxpy (Clarabel), each switch a classic mistake."""
    n = len(y)
    a, a_star = cp.Variable(n), cp.Variable(n)
    coef = a + a_star if plus else a - a_star
    objective = -0.5 * cp.quad_form(coef, cp.psd_wrap(K)) + y @ (a - a_star)
    if eps:
        objective = objective - epsilon * cp.sum(a + a_star)
    constraints = [a >= 0, a_star >= 0]
    if box:
        constraints += [a <= C, a_star <= C]
    if equality:
        constraints += [cp.sum(a - a_star) == 0]
    cp.Problem(cp.Maximize(objective), constraints).solve(
        solver=cp.CLARABEL, **(TIGHT if tight else {})
    )
    if a.value is None:
        return None
    return (a_star.value, a.value) if swap else (a.value, a_star.value)


def svr_cvxpy(K, y, C, epsilon):
    return _svr_cvxpy(K, y, C, epsilon)


def svr_cvxpy_default(K, y, C, epsilon):
    """As a student writes it: Clarabel at its default tolerances."""
    return _svr_cvxpy(K, y, C, epsilon, tight=False)


def svr_swapped(K, y, C, epsilon):
    return _svr_cvxpy(K, y, C, epsilon, swap=True)


def svr_without_epsilon(K, y, C, epsilon):
    return _svr_cvxpy(K, y, C, epsilon, eps=False)


def svr_without_equality(K, y, C, epsilon):
    return _svr_cvxpy(K, y, C, epsilon, equality=False)


def svr_without_box(K, y, C, epsilon):
    return _svr_cvxpy(K, y, C, epsilon, box=False)


def svr_plus_in_quadratic(K, y, C, epsilon):
    return _svr_cvxpy(K, y, C, epsilon, plus=True)


def svr_both_positive(K, y, C, epsilon):
    alpha, alpha_star = _svr_cvxpy(K, y, C, epsilon)
    lift = 0.5 * (C - np.maximum(alpha, alpha_star))  # stays in the box, keeps alpha - alpha*
    return alpha + lift, alpha_star + lift


SVR_MISTAKES = [
    (svr_swapped, "alpha and alpha* are swapped"),
    (svr_without_epsilon, "with epsilon = 0"),
    (svr_without_equality, "the equality constraint"),
    (svr_without_box, "the upper bound C is missing"),
    (svr_plus_in_quadratic, "written with alpha + alpha*"),
    (svr_both_positive, "both positive"),
]


def test_svr_dual_reference_passes():
    report = exercises.check("svr_dual", exercises.reference("svr_dual"))
    assert report.passed, str(report)


@pytest.mark.parametrize(("wrong", "named"), SVR_MISTAKES, ids=lambda v: getattr(v, "__name__", ""))
def test_svr_dual_mistake_is_named(wrong, named):
    report = exercises.check("svr_dual", wrong)
    assert not report.passed
    assert named in report.message, str(report)
    assert report.problem.size <= 5, str(report)


@pytest.mark.parametrize("correct", [svr_cvxpy, svr_cvxpy_default])
def test_svr_dual_by_cvxpy_passes(correct):
    report = exercises.check("svr_dual", correct)
    assert report.passed, str(report)


def test_svr_dual_certificate_is_kkt_violation_on_2n_variables():
    """The certificate's map to the 2n-variable dual (labels (1, -1), Gram [[K, K], [K, K]],
    p = (epsilon - y, epsilon + y)): the reference's answer has no violation, a step off it
    (kept feasible) has one, and the swapped answer is feasible but far from optimal."""
    from kernels_ref.svm import kkt_violation

    X = np.array([[-1.0, 0.0], [1.0, 0.0], [0.0, 1.0], [2.0, -1.0]])
    K, y, C, epsilon = X @ X.T, np.array([-2.0, 2.0, 1.0, 0.0]), 1.0, 0.5
    alpha, alpha_star = exercises.reference("svr_dual")(K, y, C, epsilon)
    z, p = np.r_[np.ones(4), -np.ones(4)], np.r_[epsilon - y, epsilon + y]
    K2 = np.block([[K, K], [K, K]])
    a = np.r_[alpha, alpha_star]
    assert kkt_violation(a, K2, z, C, p=p) < 1e-8
    moved = a.copy()
    moved[[0, 4]] += 0.05  # alpha_1 and alpha*_1 up together: feasible, not optimal
    assert kkt_violation(moved, K2, z, C, p=p) > 0.1
    assert kkt_violation(np.r_[alpha_star, alpha], K2, z, C, p=p) > 1.0
