"""Tests of kernels_ref.smo: the general SMO solver, its variants and its input checks.

Exact small problems first, then properties of the solution on random problems (KKT,
feasibility, an exact gradient, optimality against random feasible points), then the
instances that go through a matrix-like object (TiledGram for SVR, AugmentedGram), checked
against the same problem written with an explicit matrix and against cvxpy. Then the
textbook solver of chapter 7, ``smo_textbook``: the same answers as ``smo`` and, where
no round-off can decide, the same working sets.
"""

import itertools
import warnings

import cvxpy as cp
import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from kernels_ref import _finish, _qmatrix, _solver, _validation
from kernels_ref.exceptions import ConvergenceWarning, NotPSDWarning, NotSeparableError
from kernels_ref.kernels import gaussian_kernel, linear_kernel
from kernels_ref.smo import (
    TAU,
    AugmentedGram,
    CostModel,
    Settings,
    SMOResult,
    TiledGram,
    optimality_gap,
    smo,
    smo_textbook,
    working_sets,
)


def random_problem(seed, n, kernel="gaussian", overlap=0.5):
    rng = np.random.default_rng(seed)
    y = np.where(rng.random(n) < 0.5, 1.0, -1.0)
    y[:2] = [1.0, -1.0]
    X = rng.standard_normal((n, 3)) + y[:, None] * overlap
    K = gaussian_kernel(X, sigma=1.5) if kernel == "gaussian" else linear_kernel(X)
    return K, y


def objective(K, y, p, alpha):
    u = alpha * y
    return 0.5 * u @ K @ u + p @ alpha


def independent_violation(K, y, p, C, alpha, two=False):
    """m - M recomputed from scratch with the definition (Fan, Chen & Lin 2005, eq. (11))."""
    G = y * (K @ (alpha * y)) + p
    v = -y * G
    up = ((y > 0) & (alpha < C)) | ((y < 0) & (alpha > 0))
    low = ((y < 0) & (alpha < C)) | ((y > 0) & (alpha > 0))
    if not two:
        return v[up].max() - v[low].min()
    return max(
        v[up & (y > 0)].max(initial=-np.inf) - v[low & (y > 0)].min(initial=np.inf),
        v[up & (y < 0)].max(initial=-np.inf) - v[low & (y < 0)].min(initial=np.inf),
    )


# --- exact small cases ----------------------------------------------------------------------


def test_two_points_hard_margin_closed_form():
    # x1 = (0, 0), y = +1; x2 = (3, 4), y = -1; ||x1 - x2||^2 = 25.
    # alpha_1 = alpha_2 = a by the equality constraint; the dual objective is
    # 2a - (1/2) a^2 ||x1 - x2||^2, maximal at a = 2 / 25.
    X = np.array([[0.0, 0.0], [3.0, 4.0]])
    res = smo(X @ X.T, np.array([1.0, -1.0]), -np.ones(2), np.inf, tol=1e-14)
    np.testing.assert_allclose(res.alpha, [0.08, 0.08], rtol=1e-14)
    assert res.converged and res.n_iter == 1
    assert res.objective == pytest.approx(-(2 * 0.08 - 0.5 * 0.08**2 * 25), rel=1e-14)


def test_two_points_box_clips_the_step():
    # Same problem with C = 0.05 < 2/25: both variables end at the bound, exactly.
    X = np.array([[0.0, 0.0], [3.0, 4.0]])
    res = smo(X @ X.T, np.array([1.0, -1.0]), -np.ones(2), 0.05, tol=1e-14)
    assert res.alpha.tolist() == [0.05, 0.05]
    assert res.violation <= 0


def test_three_points_on_a_line():
    # x = 0 (y = -1), x = 1 (+1), x = 3 (+1), linear kernel. The closest pair is (0, 1):
    # hard margin w = 2, b = -1, alpha = (2, 2, 0) (alpha = 2 / d^2 for the pair, d = 1);
    # x = 3 has y f = 5 > 1 so alpha_3 = 0. The gradient is G = Q alpha - 1 with
    # Q alpha = y * f0(x) = (0, 2, 6): G = (-1, 1, 5).
    X = np.array([[0.0], [1.0], [3.0]])
    y = np.array([-1.0, 1.0, 1.0])
    res = smo(X @ X.T, y, -np.ones(3), np.inf, tol=1e-14)
    np.testing.assert_allclose(res.alpha, [2.0, 2.0, 0.0], atol=1e-13)
    np.testing.assert_allclose(res.grad, [-1.0, 1.0, 5.0], atol=1e-12)


def test_working_sets_small_case():
    alpha = np.array([0.0, 0.5, 1.0, 0.0, 0.5, 1.0])
    y = np.array([1.0, 1.0, 1.0, -1.0, -1.0, -1.0])
    up, low = working_sets(alpha, y, 1.0)
    assert up.tolist() == [True, True, False, False, True, True]
    assert low.tolist() == [False, True, True, True, True, False]


def test_optimality_gap_small_case():
    v = np.array([3.0, 1.0, 2.0])
    assert optimality_gap(v, np.array([True, False, True]), np.array([False, True, True])) == 2.0
    assert optimality_gap(v, np.zeros(3, bool), np.ones(3, bool)) == -np.inf


def test_result_is_frozen():
    X = np.array([[0.0], [1.0]])
    res = smo(X @ X.T, np.array([1.0, -1.0]), -np.ones(2), 1.0)
    assert isinstance(res, SMOResult)
    with pytest.raises(AttributeError):
        res.n_iter = 3


# --- properties of the solution -------------------------------------------------------------


@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(4, 40),
    C=st.sampled_from([0.1, 1.0, 10.0, np.inf]),
    kernel=st.sampled_from(["gaussian", "linear"]),
)
def test_solution_meets_kkt_and_is_feasible(seed, n, C, kernel):
    K, y = random_problem(seed, n, kernel, overlap=0.5 if np.isfinite(C) else 3.0)
    p = -np.ones(n)
    res = smo(K, y, p, C, tol=1e-9)
    assert res.converged
    assert np.all(res.alpha >= 0) and np.all(res.alpha <= C)
    assert abs(y @ res.alpha) <= 1e-12 * max(1.0, res.alpha.sum())
    np.testing.assert_allclose(res.grad, y * (K @ (res.alpha * y)) + p, atol=1e-9)
    assert independent_violation(K, y, p, C, res.alpha) == pytest.approx(res.violation, abs=1e-9)
    assert res.violation <= 1e-9
    assert res.objective == pytest.approx(objective(K, y, p, res.alpha), rel=1e-9, abs=1e-12)


@given(seed=st.integers(0, 2**32 - 1), n=st.integers(4, 30), C=st.sampled_from([0.5, 5.0]))
def test_objective_not_above_random_feasible_points(seed, n, C):
    K, y = random_problem(seed, n)
    p = -np.ones(n)
    best = smo(K, y, p, C, tol=1e-10).objective
    rng = np.random.default_rng(seed)
    for _ in range(20):
        a = rng.uniform(0, C, n)
        sp, sn = a[y > 0].sum(), a[y < 0].sum()  # scale the heavier class to meet y^T a = 0
        a[y > 0 if sp > sn else y < 0] *= min(sp, sn) / max(sp, sn)
        assert best <= objective(K, y, p, a) + 1e-9


@given(seed=st.integers(0, 2**32 - 1), n=st.integers(4, 60), C=st.sampled_from([1.0, 30.0]))
def test_shrinking_gives_the_same_solution(seed, n, C):
    K, y = random_problem(seed, n)
    p = -np.ones(n)
    a = smo(K, y, p, C, tol=1e-10, shrinking=True)
    b = smo(K, y, p, C, tol=1e-10, shrinking=False)
    assert a.objective == pytest.approx(b.objective, rel=1e-9)
    np.testing.assert_allclose(K @ (a.alpha * y), K @ (b.alpha * y), atol=1e-6)


def test_shrinking_on_a_larger_problem():
    # Large enough for the active set to be shrunk and compacted several times.
    K, y = random_problem(7, 1500, overlap=0.7)
    p = -np.ones(1500)
    a = smo(K, y, p, 20.0, tol=1e-8, shrinking=True)
    b = smo(K, y, p, 20.0, tol=1e-8, shrinking=False)
    assert a.converged and b.converged
    assert a.objective == pytest.approx(b.objective, rel=1e-10)


def test_shrinking_shrinks_the_active_set_and_restores_it(monkeypatch):
    # Most variables of an easy problem end at 0: shrinking must remove many of them, and the
    # solve must end on all of them (restored, with a fresh gradient).

    sizes = []
    shrink = _solver._ActiveSet.shrink

    def recording_shrink(self, *args):
        shrink(self, *args)
        sizes.append(self.size)

    monkeypatch.setattr(_solver._ActiveSet, "shrink", recording_shrink)
    K, y = random_problem(3, 1500, overlap=0.2)
    res = smo(K, y, -np.ones(1500), 1.0, tol=1e-8, shrinking=True)
    assert res.converged
    assert min(sizes) < 0.5 * 1500
    sizes.clear()
    smo(K, y, -np.ones(1500), 1.0, tol=1e-8, shrinking=False)
    assert sizes == []


@given(seed=st.integers(0, 2**32 - 1), n=st.integers(4, 40), nu=st.floats(0.2, 0.8))
def test_two_constraint_variant_keeps_class_sums(seed, n, nu):
    K, y = random_problem(seed, n)
    pos = y > 0
    target = nu * min(pos.sum(), (~pos).sum())  # LIBSVM's scaling: 0 <= alpha <= 1
    alpha0 = np.zeros(n)
    for cls in (pos, ~pos):
        left = target
        for t in np.flatnonzero(cls):
            alpha0[t] = min(1.0, left)
            left -= alpha0[t]
    res = smo(K, y, np.zeros(n), 1.0, alpha0, tol=1e-9, two_constraints=True)
    assert res.converged
    assert res.alpha[pos].sum() == pytest.approx(target, rel=1e-12)
    assert res.alpha[~pos].sum() == pytest.approx(target, rel=1e-12)
    assert independent_violation(K, y, np.zeros(n), 1.0, res.alpha, two=True) <= 1e-9


def test_starting_point_fixes_delta():
    # y^T alpha = Delta is kept from the starting point.
    K, y = random_problem(3, 20)
    alpha0 = np.where(y > 0, 0.3, 0.0)
    res = smo(K, y, -np.ones(20), 1.0, alpha0, tol=1e-10)
    assert y @ res.alpha == pytest.approx(y @ alpha0, rel=1e-12)
    assert res.converged


def test_nonpositive_curvature_is_replaced_by_tau():
    # Duplicate points with the same label: a_ij = 0 for the pair, which never moves;
    # with opposite labels and C finite the step is b / tau, clipped at the bound C.
    X = np.array([[0.0], [0.0], [2.0]])
    res = smo(X @ X.T, np.array([1.0, -1.0, 1.0]), -np.ones(3), 1.0, tol=1e-12)
    assert res.converged
    assert TAU == 1e-12


def test_iteration_limit_warns():
    K, y = random_problem(0, 50)
    with pytest.warns(ConvergenceWarning, match="max_iter=3"):
        res = smo(K, y, -np.ones(50), 10.0, max_iter=3)
    assert res.n_iter == 3 and not res.converged


def test_inputs_not_modified():
    K, y = random_problem(1, 15)
    p, C, alpha0 = -np.ones(15), np.full(15, 2.0), np.zeros(15)
    copies = [a.copy() for a in (K, y, p, C, alpha0)]
    smo(K, y, p, C, alpha0)
    for a, b in zip((K, y, p, C, alpha0), copies, strict=True):
        assert np.array_equal(a, b)


# --- matrix-like Gram matrices: SVR and the problem without intercept ------------------------


def svr_dual_cvxpy(K, t, C, eps):
    """epsilon-SVR dual in (alpha, alpha*) written directly (Chang & Lin 2011, eq. (2.6))."""
    n = len(t)
    w, V = np.linalg.eigh(K)
    L = V * np.sqrt(np.clip(w, 0, None))
    a, s = cp.Variable(n), cp.Variable(n)
    obj = 0.5 * cp.sum_squares(L.T @ (a - s)) + eps * cp.sum(a + s) - t @ (a - s)
    prob = cp.Problem(cp.Minimize(obj), [a >= 0, a <= C, s >= 0, s <= C, cp.sum(a - s) == 0])
    prob.solve(solver=cp.CLARABEL, tol_gap_abs=1e-10, tol_gap_rel=1e-10, tol_feas=1e-10)
    return prob.value, a.value - s.value


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_tiled_gram_solves_epsilon_svr(seed):
    # SVR as an instance: variables (alpha, alpha*), labels (1, -1), p = (eps - t, eps + t),
    # Q = [[K, -K], [-K, K]] = y_i y_j [[K, K], [K, K]]_ij.
    rng = np.random.default_rng(seed)
    x = np.sort(rng.uniform(-3, 3, 25))[:, None]
    t = np.sinc(x[:, 0]) + 0.1 * rng.standard_normal(25)
    K = gaussian_kernel(x, sigma=0.7)
    C, eps = 2.0, 0.1
    y2 = np.concatenate([np.ones(25), -np.ones(25)])
    p2 = np.concatenate([eps - t, eps + t])
    res = smo(TiledGram(K), y2, p2, C, tol=1e-10)
    explicit = smo(np.block([[K, K], [K, K]]), y2, p2, C, tol=1e-10)
    value, beta = svr_dual_cvxpy(K, t, C, eps)
    assert res.converged
    assert res.objective == pytest.approx(explicit.objective, rel=1e-10)
    assert res.objective == pytest.approx(value, rel=1e-7)
    beta_smo = res.alpha[:25] - res.alpha[25:]
    np.testing.assert_allclose(K @ beta_smo, K @ beta, atol=1e-5)


def test_tiled_gram_operations():
    K = np.array([[2.0, 1.0], [1.0, 3.0]])
    G = TiledGram(K)
    full = np.block([[K, K], [K, K]])
    w = np.array([1.0, -2.0, 0.5, 3.0])
    np.testing.assert_array_equal(G.diagonal(), full.diagonal())
    np.testing.assert_array_equal(G @ w, full @ w)
    for t in range(4):
        np.testing.assert_array_equal(G[t], full[t])
    idx = np.array([0, 3])
    np.testing.assert_array_equal(G.submatrix(idx), full[np.ix_(idx, idx)])


def test_augmented_gram_operations():
    K = np.array([[2.0, 1.0], [1.0, 3.0]])
    G = AugmentedGram(K)
    full = np.zeros((4, 4))
    full[:2, :2] = K
    w = np.array([1.0, -2.0, 0.5, 3.0])
    np.testing.assert_array_equal(G.diagonal(), full.diagonal())
    np.testing.assert_array_equal(G @ w, full @ w)
    for t in range(4):
        np.testing.assert_array_equal(G[t], full[t])
    idx = np.array([1, 2, 3])
    np.testing.assert_array_equal(G.submatrix(idx), full[np.ix_(idx, idx)])


def test_augmented_gram_removes_the_equality_constraint():
    # min 1/2 a^T Q a - sum a, 0 <= a <= C with no equality: compare with cvxpy.
    K, y = random_problem(4, 20)
    C = 0.7
    y3 = np.concatenate([y, [1.0, -1.0]])
    p3 = np.concatenate([-np.ones(20), [0.0, 0.0]])
    C3 = np.concatenate([np.full(20, C), [np.inf, np.inf]])
    res = smo(AugmentedGram(K), y3, p3, C3, tol=1e-10)
    a = cp.Variable(20)
    w, V = np.linalg.eigh(K)
    L = V * np.sqrt(np.clip(w, 0, None))
    prob = cp.Problem(
        cp.Minimize(0.5 * cp.sum_squares(L.T @ cp.multiply(y, a)) - cp.sum(a)), [a >= 0, a <= C]
    )
    prob.solve(solver=cp.CLARABEL, tol_gap_abs=1e-10, tol_gap_rel=1e-10, tol_feas=1e-10)
    assert res.converged
    assert res.objective == pytest.approx(prob.value, rel=1e-7)


# --- bad input ------------------------------------------------------------------------------


GOOD_K = np.eye(3)
GOOD_Y = np.array([1.0, -1.0, 1.0])
GOOD_P = -np.ones(3)


@pytest.mark.parametrize(
    ("kwargs", "name"),
    [
        ({"K": np.ones((3, 2))}, "K"),
        ({"K": np.full((3, 3), np.nan)}, "K"),
        ({"y": np.array([1.0, 0.0, 1.0])}, "y"),
        ({"y": np.ones(4)}, "y"),
        ({"p": np.ones(2)}, "p"),
        ({"p": np.array([np.inf, 0.0, 0.0])}, "p"),
        ({"C": 0.0}, "C"),
        ({"C": np.array([1.0, -1.0, 1.0])}, "C"),
        ({"C": np.nan}, "C"),
        ({"C": np.ones(2)}, "C"),
        ({"alpha0": np.array([-1.0, 0.0, 0.0])}, "alpha0"),
        ({"alpha0": np.array([2.0, 0.0, 0.0]), "C": 1.0}, "alpha0"),
        ({"tol": 0.0}, "tol"),
        ({"tol": np.inf}, "tol"),
        ({"max_iter": -1}, "max_iter"),
        ({"max_iter": 2.5}, "max_iter"),
        ({"max_iter": 0}, "max_iter"),
        ({"two_constraints": 1}, "two_constraints"),
        ({"shrinking": "yes"}, "shrinking"),
        ({"C": "1.0"}, "C"),
        ({"y": np.array(["1", "-1", "1"])}, "y"),
        ({"K": GOOD_K + 1j}, "K"),
    ],
)
def test_bad_input_names_the_argument(kwargs, name):
    args = {"K": GOOD_K, "y": GOOD_Y, "p": GOOD_P, "C": 1.0}
    args.update(kwargs)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        with pytest.raises((ValueError, TypeError), match=f"^{name}"):
            smo(**args)


# --- the textbook solver: the same algorithm as smo -----------------------------------


def test_textbook_two_points_closed_form():
    # smo's docstring example: alpha_1 = alpha_2 = 2 / ||x_1 - x_2||^2 = 1/2, one step
    X = np.array([[0.0, 0.0], [2.0, 0.0]])
    res, pairs = smo_textbook(
        X @ X.T, np.array([1.0, -1.0]), -np.ones(2), np.inf, tol=1e-12, record=True
    )
    assert isinstance(res, SMOResult)
    assert res.alpha.tolist() == [0.5, 0.5] and res.n_iter == 1 and res.converged
    assert pairs == [(0, 1)]
    # x2 = (3, 4): alpha_t = 2 / 25, objective -(2a - a^2 25 / 2); C = 0.05: clipped
    X = np.array([[0.0, 0.0], [3.0, 4.0]])
    res = smo_textbook(X @ X.T, np.array([1.0, -1.0]), -np.ones(2), np.inf, tol=1e-14)
    np.testing.assert_allclose(res.alpha, [0.08, 0.08], rtol=1e-14)
    assert res.objective == pytest.approx(-(2 * 0.08 - 0.5 * 0.08**2 * 25), rel=1e-14)
    res = smo_textbook(X @ X.T, np.array([1.0, -1.0]), -np.ones(2), 0.05, tol=1e-14)
    assert res.alpha.tolist() == [0.05, 0.05] and res.violation <= 0


def test_textbook_three_points_on_a_line():
    # the case of test_three_points_on_a_line: alpha = (2, 2, 0), G = (-1, 1, 5)
    X = np.array([[0.0], [1.0], [3.0]])
    y = np.array([-1.0, 1.0, 1.0])
    res = smo_textbook(X @ X.T, y, -np.ones(3), np.inf, tol=1e-14)
    np.testing.assert_allclose(res.alpha, [2.0, 2.0, 0.0], atol=1e-13)
    np.testing.assert_allclose(res.grad, [-1.0, 1.0, 5.0], atol=1e-12)


def test_textbook_records_one_pair_per_iteration_and_warns_at_its_limit():
    K, y = random_problem(0, 50)
    with pytest.warns(ConvergenceWarning, match="max_iter=3"):
        res, pairs = smo_textbook(K, y, -np.ones(50), 10.0, max_iter=3, record=True)
    assert res.n_iter == 3 and not res.converged and len(pairs) == 3
    assert all(type(i) is int and type(j) is int and i != j for i, j in pairs)
    assert isinstance(smo_textbook(K, y, -np.ones(50), 10.0), SMOResult)  # record=False


def test_textbook_keeps_the_starting_point_delta():
    K, y = random_problem(3, 20)
    alpha0 = np.where(y > 0, 0.3, 0.0)
    res = smo_textbook(K, y, -np.ones(20), 1.0, alpha0, tol=1e-10)
    assert res.converged
    assert y @ res.alpha == pytest.approx(y @ alpha0, rel=1e-12)
    assert res.objective == pytest.approx(
        smo(K, y, -np.ones(20), 1.0, alpha0, tol=1e-10).objective, rel=1e-9
    )


@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(4, 60),
    C=st.sampled_from([0.1, 1.0, 10.0, np.inf]),
    kernel=st.sampled_from(["gaussian", "linear"]),
)
def test_textbook_and_fast_solver_give_the_same_objective_and_decision_values(
    seed,
    n,
    C,
    kernel,
):
    # C = inf only where the hard margin is bounded: well separated classes
    K, y = random_problem(seed, n, kernel, overlap=0.5 if np.isfinite(C) else 3.0)
    p = -np.ones(n)
    book = smo_textbook(K, y, p, C, tol=1e-10)
    assert book.converged and book.violation <= 1e-10
    violation = independent_violation(K, y, p, C, book.alpha)
    assert violation == pytest.approx(book.violation, abs=1e-9)
    for shrinking in (False, True):
        fast = smo(K, y, p, C, tol=1e-10, shrinking=shrinking)
        assert book.objective == pytest.approx(fast.objective, rel=1e-9)
        f_book, f_fast = K @ (book.alpha * y), K @ (fast.alpha * y)
        np.testing.assert_allclose(f_book, f_fast, atol=1e-7)


def replayed_pairs(K, y, p, C, tol, n_steps):
    """The first ``n_steps`` pairs of ``smo(shrinking=False)``, and the iterates before.

    As chapter 7 replays the solver: the run stopped after ``k`` iterations differs from
    the run stopped after ``k - 1`` exactly in the pair of step ``k``; ``i`` is the
    index moved by ``+y_i delta``. (A step moves both: it is positive, and in these
    tests far larger than the round-off of either variable.)
    """
    iterates, pairs = [np.zeros(len(y))], []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        for k in range(1, n_steps + 1):
            res = smo(K, y, p, C, tol=tol, max_iter=k, shrinking=False)
            if res.n_iter < k:  # converged in fewer steps
                break
            alpha = res.alpha
            step = y * (alpha - iterates[-1])
            (i,), (j,) = np.flatnonzero(step > 0), np.flatnonzero(step < 0)
            pairs.append((int(i), int(j)))
            iterates.append(alpha)
    return pairs, iterates[: len(pairs)]


def wss2_scores(K, y, p, C, alpha):
    """At ``alpha``, computed here from the definitions: the two largest scores
    b_it^2 / a-bar_it over the candidates t of WSS 2."""
    v = -(K @ (alpha * y)) - y * p  # -y * G with G = y * (K (alpha * y)) + p
    up = ((y > 0) & (alpha < C)) | ((y < 0) & (alpha > 0))
    low = ((y < 0) & (alpha < C)) | ((y > 0) & (alpha > 0))
    i = np.flatnonzero(up)[np.argmax(v[up])]
    b = v[i] - v
    a = K[i, i] + np.diag(K) - 2 * K[i]
    score = np.where(low & (b > 0), b**2 / np.where(a > 0, a, TAU), -np.inf)
    first, second = np.sort(score)[::-1][:2]
    return first, second


@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(4, 60),
    C=st.sampled_from([1.0, 10.0, np.inf]),
)
def test_textbook_and_fast_solver_choose_the_same_working_sets(seed, n, C):
    # Gaussian kernel of continuous random data: exact ties have probability 0. Both
    # solvers take i by argmax over the same floating-point v (bit for bit while the
    # pairs agree), but arrange the score of j differently (b^2 / a-bar against
    # 2 b^2 / (a + tau)): a near-tie of two scores, detected on the iterates, may go
    # either way and skips the example. Every pair is compared, up to the last ones
    # where b_ij <= tol < m - M (both take WSS 2's pair there too, as LIBSVM does).
    K, y = random_problem(seed, n, "gaussian")  # K positive definite: bounded for any C
    p, tol = -np.ones(n), 1e-10
    book, pairs = smo_textbook(K, y, p, C, tol=tol, record=True)
    n_steps = min(book.n_iter, 200)
    fast_pairs, iterates = replayed_pairs(K, y, p, C, tol, n_steps)
    for alpha in iterates:
        first, second = wss2_scores(K, y, p, C, alpha)
        assume(first - second > 1e-9 * first)
    assert fast_pairs == pairs[:n_steps]


def xor_problem(seed, n):
    """Four Gaussian clusters at (+-1, +-1) with XOR labels, sigma = 1: a nearly singular K."""
    rng = np.random.default_rng(seed)
    centres = rng.choice([-1.0, 1.0], size=(n, 2))
    X = centres + 0.5 * rng.standard_normal((n, 2))
    return gaussian_kernel(X, sigma=1.0), centres[:, 0] * centres[:, 1]


def test_a_wss2_pair_with_b_below_tol_is_taken_as_the_algorithm_takes_it():
    # On this path (tol = 1e-3, LIBSVM's default) the pair of WSS 2 has b_ij <= tol < m - M at
    # some iterations, as the replay below checks. The fast solver takes that pair, as the
    # algorithm box and LIBSVM do, so it makes the textbook's iterations and ends at the same
    # alpha, bit for bit; a solver that switched to the maximal violating pair there would not.
    K, y = xor_problem(1, 80)
    C, p, tol = 10.0, -np.ones(80), 1e-3
    book = smo_textbook(K, y, p, C, tol=tol)
    fast = smo(K, y, p, C, tol=tol, shrinking=False)
    assert fast.n_iter == book.n_iter
    assert np.array_equal(fast.alpha, book.alpha)
    _, iterates = replayed_pairs(K, y, p, C, tol, book.n_iter)
    small_b = 0
    for alpha in iterates:
        v = -y * (y * (K @ (alpha * y)) + p)
        up = ((y > 0) & (alpha < C)) | ((y < 0) & (alpha > 0))
        low = ((y < 0) & (alpha < C)) | ((y > 0) & (alpha > 0))
        i = np.flatnonzero(up)[np.argmax(v[up])]
        b = v[i] - v
        a = K[i, i] + np.diag(K) - 2 * K[i]
        j = np.argmax(np.where(low & (b > 0), b**2 / np.where(a > 0, a, TAU), -np.inf))
        small_b += bool(b[j] <= tol < independent_violation(K, y, p, C, alpha))
    assert small_b > 0


# --- no hang, no silent answer: unbounded duals, non-finite states, iteration limits ---------

NOT_PSD = np.array([[1.0, 2.0], [2.0, 1.0]])  # eigenvalues -1 and 3


@pytest.fixture
def time_limit():
    """Fail (instead of hanging) a call that runs longer than 20 s."""
    import signal

    def expire(signum, frame):
        raise TimeoutError("the call did not return within 20 s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(20)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, previous)


def sigmoid_problem(n=40):
    """A symmetric, not PSD 'Gram matrix' (the sigmoid of chapter 1) and labels."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(n, 2))
    y = np.where(X[:, 0] + 0.3 * rng.normal(size=n) > 0, 1.0, -1.0)
    return np.tanh(X @ X.T - 1.0), y


@pytest.mark.parametrize("solver", [smo, smo_textbook])
def test_negative_curvature_with_infinite_bounds_raises_at_once(time_limit, solver):
    # a_12 = K_11 + K_22 - 2 K_12 = -2 and b_12 = 2: -2t - t^2 has no minimum
    unbounded = pytest.raises(ValueError, match=r"^K: the dual .* unbounded")
    with pytest.warns(NotPSDWarning), unbounded:
        solver(NOT_PSD, np.array([1.0, -1.0]), -np.ones(2), np.inf)


@pytest.mark.parametrize("solver", [smo, smo_textbook])
@pytest.mark.parametrize("max_iter", [None, 100, 2000])
def test_diverging_iterates_on_a_sigmoid_gram_matrix_raise_instead_of_hanging(
    time_limit, max_iter, solver
):
    K, y = sigmoid_problem()
    unbounded = pytest.raises(ValueError, match=r"^K: the dual .* unbounded")
    with pytest.warns(NotPSDWarning), unbounded:
        solver(K, y, -np.ones(len(y)), np.inf, max_iter=max_iter)


@pytest.mark.parametrize("fit", ["hard_margin", "soft_margin_l2"])
def test_svm_on_a_sigmoid_gram_matrix_raises_instead_of_hanging(time_limit, fit):
    from kernels_ref import svm

    K, y = sigmoid_problem()
    args = (K, y) if fit == "hard_margin" else (K, y, 1e6)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NotPSDWarning)
        with pytest.raises((ValueError, NotSeparableError), match=r"^K"):
            getattr(svm, fit)(*args, max_iter=2000)


@pytest.mark.parametrize("solver", [smo, smo_textbook])
def test_same_sigmoid_problem_with_finite_bounds_is_bounded_and_stops(
    time_limit,
    solver,
):
    K, y = sigmoid_problem()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NotPSDWarning)
        warnings.simplefilter("ignore", ConvergenceWarning)
        res = solver(K, y, -np.ones(len(y)), 1.0, max_iter=5000)
    assert np.all(np.isfinite(res.alpha)) and np.all((res.alpha >= 0) & (res.alpha <= 1))
    assert res.n_iter <= 5000


def test_max_iter_zero_is_refused():
    with pytest.raises(ValueError, match=r"^max_iter must lie in \[1, inf\], got 0"):
        smo(np.eye(2), np.array([1.0, -1.0]), -np.ones(2), 1.0, max_iter=0)


@pytest.mark.parametrize("max_iter", [1, 2, 7])
def test_max_iter_is_honoured_and_reported(max_iter):
    K = gaussian_kernel(np.random.default_rng(1).normal(size=(30, 2)))
    y = np.where(np.arange(30) % 2 == 0, 1.0, -1.0)
    with pytest.warns(ConvergenceWarning, match=f"max_iter={max_iter}"):
        res = smo(K, y, -np.ones(30), 1.0, max_iter=max_iter, tol=1e-12)
    assert res.n_iter == max_iter and not res.converged


def test_smo_rejects_a_non_symmetric_gram_matrix():
    K = np.array([[1.0, 0.5], [0.4, 1.0]])
    with pytest.raises(ValueError, match=r"^K must be symmetric"):
        smo(K, np.array([1.0, -1.0]), -np.ones(2), 1.0)


def test_smo_warns_on_a_non_psd_gram_matrix_with_finite_bounds():
    with pytest.warns(NotPSDWarning, match=r"^K is not positive semi-definite"):
        smo(NOT_PSD, np.array([1.0, -1.0]), -np.ones(2), 1.0)


@pytest.mark.parametrize("C", ["1.0", 1j, None, [1.0, "a"]])
def test_smo_rejects_a_bound_that_is_not_a_real_number(C):
    with pytest.raises(ValueError, match=r"^C must be"):
        smo(np.eye(2), np.array([1.0, -1.0]), -np.ones(2), C)


def test_working_sets_and_optimality_gap_validate_their_input():
    y = np.array([1.0, -1.0, 1.0])
    with pytest.raises(ValueError, match=r"^alpha contains NaN"):
        working_sets(np.array([0.0, np.nan, 0.0]), y, 1.0)
    with pytest.raises(ValueError, match=r"^y must contain only -1 and \+1"):
        working_sets(np.zeros(3), np.array([1.0, 0.0, 1.0]), 1.0)
    with pytest.raises(ValueError, match=r"^alpha must satisfy 0 <= alpha <= C"):
        working_sets(np.array([0.0, 2.0, 0.0]), y, 1.0)
    with pytest.raises(ValueError, match=r"^v contains NaN"):
        optimality_gap(np.array([np.nan, 0.0]), np.ones(2, bool), np.ones(2, bool))
    with pytest.raises(ValueError, match=r"^up must be a boolean array of shape"):
        optimality_gap(np.zeros(2), np.ones(3, bool), np.ones(2, bool))
    # lists and integer arrays are read as float arrays
    up, low = working_sets([0, 1, 0], [1, -1, 1], 1)
    assert up.tolist() == [True, True, True] and low.tolist() == [False, False, False]
    assert optimality_gap(np.array([3, 1]), [True, False], [False, True]) == 2.0


# --- the default iteration limit: LIBSVM's max(10^7, 100 N) for N variables --------------


class _Stop(Exception):
    pass


@pytest.mark.parametrize(
    ("module", "call", "n", "expected"),
    [
        ("svm", lambda m, K, y: m.soft_margin_l1(K, y, 1.0), 40, 10**7),
        ("svm", lambda m, K, y: m.soft_margin_l2(K, y, 1.0), 40, 10**7),
        ("svm", lambda m, K, y: m.nu_svm(K, y, 0.5), 40, 10**7),
        ("svm", lambda m, K, y: m.soft_margin_l1(K, y, 1.0), 120_000, 12_000_000),
        ("svr", lambda m, K, y: m.svr(K, y, 1.0, 0.1), 40, 10**7),
        ("svr", lambda m, K, y: m.svr(K, y, 1.0, 0.1), 60_000, 12_000_000),  # 2n variables
    ],
)
def test_default_iteration_limit_is_libsvms(monkeypatch, module, call, n, expected):
    import importlib

    mod = importlib.import_module(f"kernels_ref.{module}")
    seen = []

    def fake_smo(*args, max_iter, **kwargs):
        seen.append(max_iter)
        raise _Stop

    monkeypatch.setattr(mod, "_smo", fake_smo)
    # The limit depends on n only: validation of a large K is not what is tested here.
    monkeypatch.setattr(_validation, "check_gram", lambda K, *a, **k: K)
    K = np.broadcast_to(1.0, (n, n))  # a read-only view: no n x n array is allocated
    y = np.where(np.arange(n) % 2 == 0, 1.0, -1.0)
    with pytest.raises(_Stop):
        call(mod, K, y)
    assert seen == [expected]


@given(st.lists(st.integers(0, 7), min_size=1, max_size=30))
def test_tiled_gram_rows_stay_right_for_two_reads(ts):
    # The rows live in two buffers: each read is the row, and the row read just before it is
    # still right (an SMO step holds two rows at a time).
    K = np.arange(16.0).reshape(4, 4)
    K = K + K.T
    G, before = TiledGram(K), None
    for t in ts:
        row = G[t]
        np.testing.assert_array_equal(row, np.concatenate((K[t % 4], K[t % 4])))
        if before is not None:
            t0, row0 = before
            np.testing.assert_array_equal(row0, np.concatenate((K[t0 % 4], K[t0 % 4])))
        before = (t, row)


# --- the second-order finish ----------------------------------------------------------------


def forced(every, **changes):
    """Settings under which the finish makes an attempt after every ``every`` SMO iterations,
    from points far from the solution: an SMO iteration is modelled so dear that the chunk
    between attempts is ``chunk_min``, and the attempts' allowance is as large."""
    return Settings(cost=CostModel(iteration=1e12), chunk_min=every, **changes)


#: The finish forced every 7 iterations, with each of its mechanisms turned off in turn: every
#: combination must end where SMO alone ends (the crossover tried on faces of 4 variables or
#: more, so that the small problems here see it).
VARIANTS = {
    "every 1": forced(1),
    "every 7": forced(7),
    "no guesses": forced(7, guess_rounds=0),
    "crossover": forced(7, small_face=4),
    "no crossover": forced(7, small_face=4, cross_share=0.0, cross_grown_share=0.0),
    "no extensions": forced(7, extensions=0),
    "no refinement": forced(7, refine_steps=1),
}


def finish_problem(kind, seed, n):
    """(K-like, y, p, C, two_constraints, explicit K) of each problem class SMO solves."""
    rng = np.random.default_rng(seed)
    K, y = random_problem(seed, n, "gaussian" if kind in ("gaussian", "nu") else "linear")
    if kind == "low_rank":  # rank 3 < n: a singular free block, alpha not unique
        return K, y, -np.ones(n), 10.0, False, K
    if kind == "l2":  # C = inf on K + I / C
        return K + np.eye(n) / 5.0, y, -np.ones(n), np.inf, False, K + np.eye(n) / 5.0
    if kind == "nu":
        alpha0 = np.zeros(n)
        for cls in (y > 0, y < 0):
            alpha0[np.flatnonzero(cls)[:2]] = 0.5
        return K, y, np.zeros(n), 1.0, True, K, alpha0
    if kind == "svr":
        t = rng.standard_normal(n)
        y2 = np.concatenate([np.ones(n), -np.ones(n)])
        p2 = np.concatenate([0.1 - t, 0.1 + t])
        return TiledGram(K), y2, p2, 1.0, False, np.block([[K, K], [K, K]])
    if kind == "augmented":
        y3 = np.concatenate([y, [1.0, -1.0]])
        p3 = np.concatenate([-np.ones(n), [0.0, 0.0]])
        C3 = np.concatenate([np.full(n, 2.0), [np.inf, np.inf]])
        full = np.zeros((n + 2, n + 2))
        full[:n, :n] = K
        return AugmentedGram(K), y3, p3, C3, False, full
    return K, y, -np.ones(n), 10.0, False, K


@pytest.mark.parametrize("kind", ["gaussian", "low_rank", "l2", "nu", "svr", "augmented"])
@pytest.mark.parametrize("variant", list(VARIANTS))
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_finish_from_far_off_points_ends_at_the_solution_of_smo_alone(kind, variant, seed):
    # Attempts from the first iterations on, with every kind of problem and each mechanism of
    # the finish on or off: each step keeps the point feasible, and the run ends at a point
    # whose violation, recomputed here from the definition, meets tol, with SMO alone's
    # objective and decision values. The result says that attempts were made.
    Kx, y, p, C, two, K, *start = finish_problem(kind, seed, 40)
    alpha0 = start[0] if start else None
    tol = 1e-9
    alone = smo(Kx, y, p, C, alpha0, tol=tol, finish=False, two_constraints=two)
    assert alone.finish_attempts == 0 and alone.ended_by == "smo"
    res = smo(Kx, y, p, C, alpha0, tol=tol, two_constraints=two, settings=VARIANTS[variant])
    assert res.converged and res.ended_by in ("smo", "finish")
    assert res.finish_attempts >= 1 or res.n_iter <= 7
    start_alpha = np.zeros(len(y)) if alpha0 is None else alpha0
    assert y @ res.alpha == pytest.approx(y @ start_alpha, abs=1e-9)
    if two:
        for cls in (y > 0, y < 0):
            assert res.alpha[cls].sum() == pytest.approx(start_alpha[cls].sum(), abs=1e-9)
    assert_ends_at_smo_alone(res, alone, K, y, p, C, two, tol)


def assert_ends_at_smo_alone(res, alone, K, y, p, C, two, tol):
    """The run ends in the box, with its violation recomputed here from the definition within
    tol (twice, for the round-off of the recomputation), at SMO alone's objective and decision
    values."""
    Cv = np.broadcast_to(C, y.shape)
    assert np.all(res.alpha >= 0.0) and np.all(res.alpha <= Cv)
    assert independent_violation(K, y, p, Cv, res.alpha, two) <= 2 * tol
    assert res.objective == pytest.approx(alone.objective, rel=1e-8, abs=1e-10)
    np.testing.assert_allclose(K @ (res.alpha * y), K @ (alone.alpha * y), atol=1e-6)


def test_attempts_of_the_finish_only_lower_the_objective():
    # Every step of SMO and of the finish goes to the minimiser along its direction or stops
    # at a bound: stopped after k iterations, for growing k, the run (the same path up to
    # there, attempts every 5 iterations) never ends at a higher objective.
    K, y, p, C, *_ = finish_problem("low_rank", 3, 60)
    objectives = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)  # stopped at max_iter = k
        for k in range(1, 200):
            res = smo(K, y, p, C, tol=1e-9, max_iter=k, settings=forced(5))
            objectives.append(res.objective)
            if res.converged:
                break
    assert res.converged and res.finish_attempts >= 1 and len(objectives) > 5
    assert all(b <= a + 1e-12 * abs(a) for a, b in itertools.pairwise(objectives))


def unscaled_cubic_problem():
    """200 standardised points in 4-D times 3, cubic kernel (1 + <x, x'>)^3: K_ii up to 3.5e6."""
    rng = np.random.default_rng(1)
    X = rng.standard_normal((200, 4))
    y = np.sign(X[:, 0] * X[:, 1])
    y[rng.random(200) < 0.05] *= -1
    X = 3 * (X - X.mean(0)) / X.std(0)
    return (1.0 + X @ X.T) ** 3, y


def test_the_finish_ends_an_ill_conditioned_run():
    # SMO alone had not reached m - M <= 1e-8 after 300,000 iterations on this problem (m - M
    # was still 7.7); the finish ends it after a few thousand, with the certificate recomputed
    # here.
    K, y = unscaled_cubic_problem()
    res = smo(K, y, -np.ones(200), 10.0, tol=1e-8)
    assert res.converged and res.n_iter <= 20_000
    assert res.ended_by == "finish" and res.finish_attempts >= 1 and res.finish_solves >= 1
    assert independent_violation(K, y, -np.ones(200), 10.0, res.alpha) <= 1e-8 * (1 + 1e-6)


def test_the_result_says_what_ended_the_run():
    # SMO's own stopping rule, met exactly at the iteration limit, is still "smo"; one
    # iteration short of it, the limit ends the run, with the warning.
    K, y = xor_problem(0, 30)
    p, C = -np.ones(30), 10.0
    alone = smo(K, y, p, C, tol=1e-6, finish=False)
    assert alone.ended_by == "smo" and alone.finish_attempts == alone.finish_solves == 0
    at_limit = smo(K, y, p, C, tol=1e-6, finish=False, max_iter=alone.n_iter)
    assert at_limit.converged and at_limit.ended_by == "smo"
    with pytest.warns(ConvergenceWarning, match="iteration limit"):
        short = smo(K, y, p, C, tol=1e-6, finish=False, max_iter=alone.n_iter - 1)
    assert not short.converged and short.ended_by == "max_iter"


def test_smo_alone_follows_the_textbook_where_the_finish_would_end_the_run():
    # finish=False is SMO alone: on a run long enough for the finish to act, it makes the
    # textbook's iterations bit for bit; with the finish the run ends no later, no worse.
    K, y = xor_problem(1, 80)
    C, p, tol = 1000.0, -np.ones(80), 1e-10
    book = smo_textbook(K, y, p, C, tol=tol)
    assert book.n_iter > 1000  # long enough for an attempt
    alone = smo(K, y, p, C, tol=tol, shrinking=False, finish=False)
    assert alone.n_iter == book.n_iter and np.array_equal(alone.alpha, book.alpha)
    finished = smo(K, y, p, C, tol=tol, shrinking=False)
    assert finished.converged and finished.n_iter <= book.n_iter
    assert finished.objective <= book.objective + 1e-9 * abs(book.objective)


def test_a_tol_below_the_round_off_of_v_stops_with_a_warning_that_says_so():
    # Overlapping classes, data times 3, cubic kernel, C = 100: the terms of (K (y alpha))_t
    # reach 1e9, so v is known to about 1e-7 and m - M <= 1e-10 cannot be certified (at 1e-8,
    # within ten times of the level, the computed m - M may still fall below tol). The finish
    # reaches the solution's face; the run stops there with a warning that names the level,
    # instead of running SMO to its iteration limit.
    rng = np.random.default_rng(0)
    X = rng.standard_normal((300, 4))
    y = np.where(rng.random(300) < 0.5, 1.0, -1.0)
    X[:, 0] += 0.5 * y
    X = 3 * (X - X.mean(0)) / X.std(0)
    K = (1.0 + X @ X.T) ** 3
    with pytest.warns(ConvergenceWarning, match="double precision"):
        res = smo(K, y, -np.ones(300), 100.0, tol=1e-10)
    assert not res.converged and res.ended_by == "round-off" and res.n_iter < 1_000_000
    level = np.finfo(float).eps / 2 * np.max(np.abs(K) @ res.alpha)
    assert res.violation <= Settings().stall_levels * level
    # The same point meets a tol above the round-off level: SMO's certificate at 1e-6.
    assert independent_violation(K, y, -np.ones(300), 100.0, res.alpha) <= 1e-6


# --- the crossover of rank-deficient faces ----------------------------------------------------


def low_rank_active_set(seed, n, rank, C=10.0):
    """An active set on a rank-``rank`` linear kernel at an interior feasible point: every
    variable free, y^T alpha = 0."""
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, rank))
    K = X @ X.T
    y = np.where(np.arange(n) < n // 2, 1.0, -1.0)
    alpha = C * (0.2 + 0.6 * rng.random(n))
    alpha[y < 0] *= alpha[y > 0].sum() / alpha[y < 0].sum()  # y^T alpha = 0, inside the box
    act = _solver._ActiveSet(
        K, y, -np.ones(n), np.full(n, C), alpha, two=False
    )  # one equality constraint, y^T alpha = 0 (set by _smo)
    return act, K


@pytest.mark.parametrize("rank", [1, 3, 8])
def test_the_low_rank_factor_reproduces_the_free_block(rank):
    act, K = low_rank_active_set(0, 50, rank)
    free = np.arange(3, 47)
    G = _finish._low_rank(act, free, 20)
    assert G.shape == (44, rank)
    KFF = K[np.ix_(free, free)]
    assert np.max(np.abs(G @ G.T - KFF)) <= 1e-10 * np.max(np.abs(KFF))


def test_the_low_rank_factor_gives_up_on_a_full_rank_block():
    K, y = random_problem(0, 30, "gaussian")
    act = _solver._ActiveSet(K, y, -np.ones(30), np.full(30, 1.0), np.zeros(30))
    assert _finish._low_rank(act, np.arange(30), 10) is None


def test_a_singular_basis_of_the_crossover_is_no_move(monkeypatch):
    # A basis of the crossover's simplex that turns singular (LinAlgError from its solves):
    # the face is kept as it is and the point does not move.
    act, _ = low_rank_active_set(0, 100, 3)
    alpha, v = act.alpha.copy(), act.v.copy()

    def singular(*args):
        raise np.linalg.LinAlgError("Singular matrix")

    monkeypatch.setattr(_finish, "_crossover", singular)
    free = np.arange(100)
    np.testing.assert_array_equal(_finish._Finisher(act, 1e-9)._cross(free), free)
    np.testing.assert_array_equal(act.alpha, alpha)
    np.testing.assert_array_equal(act.v, v)


@pytest.mark.parametrize("tiled", [False, True])
@pytest.mark.parametrize("seed", range(3))
def test_the_crossover_on_a_polynomial_kernel_goes_to_a_vertex(seed, tiled):
    # A cubic kernel with c = 1 on 3-D data (rank 20; with the SVR's variables, K tiled) has
    # the constant function in its range, so the row of ones of y^T alpha = 0 is in the range
    # of the factor's rows: a vertex of the flat part has at most 20 free variables, not 21.
    # The crossover of a face of all the variables gets there, without moving K (y * alpha) or
    # y^T alpha, and lowers the objective.
    rng = np.random.default_rng(seed)
    n, C = 80, 10.0
    X = 3.0 * rng.standard_normal((n, 3))
    K = (X @ X.T + 1.0) ** 3
    Kx, full = gram_of_kind("tiled" if tiled else "array", K)
    N = len(full)
    y = np.where(np.arange(N) < N // 2, 1.0, -1.0)
    alpha = C * (0.2 + 0.6 * rng.random(N))
    alpha[y < 0] *= alpha[y > 0].sum() / alpha[y < 0].sum()
    act = _solver._ActiveSet(Kx, y, -np.ones(N), np.full(N, C), alpha, two=False)
    alpha0 = alpha.copy()
    left = _finish._Finisher(act, 1e-9)._cross(np.arange(N))
    assert len(left) <= 20
    assert np.all((act.alpha >= 0) & (act.alpha <= C))
    assert y @ act.alpha == pytest.approx(0.0, abs=1e-9 * C * N)
    scale = np.abs(full).max() * C * N
    np.testing.assert_allclose(full @ (y * act.alpha), full @ (y * alpha0), atol=1e-12 * scale)
    assert objective(full, y, act.p, act.alpha) < objective(full, y, act.p, alpha0)


def test_the_independent_rows_and_their_columns_form_a_regular_block():
    rng = np.random.default_rng(0)
    M = rng.standard_normal((4, 12))
    M = np.vstack([M, M[0] - 2.0 * M[2]])  # a dependent fifth row
    rows, cols = _finish._independent(M)
    assert len(rows) == len(cols) == 4
    assert np.linalg.cond(M[np.ix_(rows, cols)]) < 1e8


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("rank", [2, 5])
def test_the_crossover_moves_along_the_flat_directions_to_a_vertex(seed, rank):
    # From an interior point of a rank-deficient problem, the crossover sends all but a few
    # variables to a bound (a vertex of the flat part has at most rank + 1 free variables; a
    # variable whose reduced cost is zero, as on points of one class, may stay free), without
    # moving K (y * alpha) or y^T alpha, and lowers the objective; v stays the scores of the
    # new point, and a second crossover from it finds nothing to move.
    n, C = 60, 10.0
    act, K = low_rank_active_set(seed, n, rank, C)
    y, p = act.y_all, act.p
    alpha0 = act.alpha.copy()
    free = np.arange(n)
    G = _finish._low_rank(act, free, 30)
    moved = _finish._crossover(act, free, G, 1e-12)
    alpha = act.alpha
    assert moved is not None
    left = np.flatnonzero((alpha > 0) & (alpha < C))
    assert len(left) <= 2 * (rank + 1)
    assert np.all(alpha[moved] * (C - alpha[moved]) == 0.0)  # exactly at a bound
    assert np.all((alpha >= 0) & (alpha <= C))
    assert y @ alpha == pytest.approx(0.0, abs=1e-9 * C * n)
    np.testing.assert_allclose(K @ (y * alpha), K @ (y * alpha0), atol=1e-9 * C * n)
    assert objective(K, y, p, alpha) < objective(K, y, p, alpha0)
    np.testing.assert_allclose(act.v, -y * (y * (K @ (y * alpha)) + p), atol=1e-9 * C * n)
    assert _finish._crossover(act, left, _finish._low_rank(act, left, 30), 1e-9) is None


@pytest.mark.parametrize("kind", ["low_rank", "svr"])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_crossover_acts_on_low_rank_problems(kind, seed):
    # Rank-3 linear kernels, the finish forced every 7 iterations, the crossover tried on faces
    # of 4 variables or more: with it, the run takes another path (it sends variables to a
    # bound that the primal method would fix one by one) than without it, and both end where
    # SMO alone ends (the variants of the test above).
    Kx, y, p, C, *_ = finish_problem(kind, seed, 60)
    runs = [smo(Kx, y, p, C, tol=1e-9, settings=VARIANTS[v]) for v in ("crossover", "no crossover")]
    assert all(res.converged for res in runs)
    assert (runs[0].n_iter, runs[0].finish_solves) != (runs[1].n_iter, runs[1].finish_solves)


def gram_of_kind(kind, K):
    """(the Gram object SMO reads, the explicit matrix it stands for) for K."""
    return {
        "array": (K, K),
        "tiled": (TiledGram(K), np.block([[K, K], [K, K]])),
        "augmented": (AugmentedGram(K), np.pad(K, (0, 2))),
    }[kind]


@pytest.mark.parametrize("kind", ["array", "tiled", "augmented"])
def test_the_product_by_some_columns_is_the_product_by_the_full_matrix(kind):
    # K[:, index] @ w, which the finish uses to update v after moving a few variables, equals
    # the product of the explicit matrix by w placed at index (repeated indices add up)
    rng = np.random.default_rng(0)
    X = rng.standard_normal((7, 3))
    K = X @ X.T
    Kx, full = gram_of_kind(kind, K)
    index = np.array([0, 3, len(full) - 1, 5])
    w = rng.standard_normal(4)
    dense = np.zeros(len(full))
    np.add.at(dense, index, w)
    np.testing.assert_allclose(_qmatrix._columns_product(Kx, index, w), full @ dense, atol=1e-12)


@pytest.mark.parametrize("kind", ["array", "tiled", "augmented"])
@pytest.mark.parametrize("nonzero", [0, 1, 5, 300, 700, 1500])
def test_the_scores_from_the_nonzero_multipliers_are_the_scores_from_the_whole_matrix(
    kind, nonzero
):
    # v = -K (y alpha) - y p reads only the rows of the nonzero alpha when they are at most
    # half (by blocks of rows when they are many), all of K otherwise: the same v, and the same
    # |K| alpha for the round-off level, as the explicit matrix gives.
    rng = np.random.default_rng(nonzero)
    X = rng.standard_normal((1500, 3))
    K = X @ X.T
    Kx, full = gram_of_kind(kind, K)
    N = len(full)
    y = np.where(rng.random(N) < 0.5, 1.0, -1.0)
    p = rng.standard_normal(N)
    alpha = np.zeros(N)
    alpha[rng.choice(N, nonzero, replace=False)] = rng.random(nonzero) + 0.5
    expected = -(full @ (y * alpha)) - y * p
    scale = np.abs(full) @ alpha + np.abs(p)
    np.testing.assert_allclose(
        _qmatrix._scores(Kx, y, p, alpha), expected, rtol=0, atol=1e-12 * scale.max()
    )
    abs_product = _qmatrix._abs_product(Kx, alpha)
    np.testing.assert_allclose(abs_product, np.abs(full) @ alpha, rtol=1e-12, atol=0)


def test_a_run_that_stalls_at_the_round_off_level_stops_there():
    # The L2 margin (C = 1e4) of the data of the test above, unscaled, cubic kernel: at tol =
    # 1e-8, below the round-off level of v (about 2e-8), an attempt ends at a face minimiser
    # within stall_levels of the level, and the run stops there with the warning, where SMO
    # alone would go on one iteration at a time.
    rng = np.random.default_rng(0)
    X = rng.standard_normal((300, 4))
    y = np.where(rng.random(300) < 0.5, 1.0, -1.0)
    X[:, 0] += 0.5 * y
    X = (X - X.mean(0)) / X.std(0)
    K = (1.0 + X @ X.T) ** 3 + np.eye(300) / 1e4
    with pytest.warns(ConvergenceWarning, match="double precision"):
        res = smo(K, y, -np.ones(300), np.inf, tol=1e-8)
    assert not res.converged and res.ended_by == "round-off" and res.finish_attempts >= 1
    level = np.finfo(float).eps / 2 * np.max(np.abs(K) @ res.alpha)
    assert 1e-8 < res.violation <= Settings().stall_levels * level


@pytest.mark.parametrize("scale", [0.0, 1.0])
def test_a_face_of_coincident_points_ends_the_finish_without_a_floating_point_warning(scale):
    # Two points at the same place have a singular 2 x 2 block (every entry scale^2 * 2); at the
    # origin, a zero one. The finish, tried after every iteration, must neither overflow in
    # 1 / (w + mu) nor divide by zero: SMO alone then decides (here, no separating hyperplane).
    X = np.full((3, 2), scale)
    y = np.array([1.0, -1.0, 1.0])
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        with pytest.warns(ConvergenceWarning, match="iteration limit"):
            res = smo(X @ X.T, y, -np.ones(3), np.inf, tol=1e-8, max_iter=100, settings=forced(1))
    assert not res.converged


class _RowsOnly:
    """A Gram matrix seen through the operations :func:`smo` documents, and nothing else."""

    def __init__(self, K):
        self.K, self.shape = K, K.shape

    def diagonal(self):
        return self.K.diagonal()

    def __getitem__(self, t):
        return self.K[t]

    def __matmul__(self, w):
        return self.K @ w

    def submatrix(self, index):
        return self.K[np.ix_(index, index)]


def test_an_operator_with_only_the_documented_operations_gets_the_finish():
    # The finish's products by some columns and by |K| fall back on rows and products when the
    # operator has no columns_product or abs_matmul: the same solution as the array's.
    K, y = xor_problem(2, 40)
    ref = smo(K, y, -np.ones(40), 10.0, tol=1e-9, settings=forced(5))
    res = smo(_RowsOnly(K), y, -np.ones(40), 10.0, tol=1e-9, settings=forced(5))
    assert res.converged and res.finish_attempts >= 1
    assert res.objective == pytest.approx(ref.objective, rel=1e-10)
    w = np.zeros(40)
    w[[3, 7]] = [0.5, 2.0]
    np.testing.assert_allclose(_qmatrix._abs_product(_RowsOnly(K), w), np.abs(K) @ w)
    np.testing.assert_allclose(
        _qmatrix._columns_product(_RowsOnly(K), np.array([3, 7, 3]), np.array([1.0, 2.0, 1.0])),
        2.0 * K[3] + 2.0 * K[7],
    )


def test_smo_stops_where_its_own_v_and_v_afresh_disagree_at_the_round_off_level():
    # A rank-2 linear kernel at C = 1e6 (60 points, data times 3): SMO meets tol = 1e-8 on its
    # v updated step by step, v afresh says 1.1e-8, and one more step swings it back; v is known
    # only to about 1e-7 here. The run stops with the round-off warning instead of alternating,
    # one iteration and one product by K at a time, to its 10^7 iterations.
    rng = np.random.default_rng(0)
    X = rng.standard_normal((60, 4))
    y = np.sign(X[:, 0] * X[:, 1])
    y[y == 0] = 1.0
    y[:2] = [1.0, -1.0]
    X = 3.0 * (X - X.mean(0)) / X.std(0)
    K = X[:, :2] @ X[:, :2].T
    with pytest.warns(ConvergenceWarning, match="double precision"):
        res = smo(K, y, -np.ones(60), 1e6, tol=1e-8)
    assert not res.converged and res.ended_by == "round-off" and res.n_iter < 10_000
    level = np.finfo(float).eps / 2 * np.max(np.abs(K) @ res.alpha)
    assert 1e-8 < level  # the tolerance is below what v can certify
    assert res.violation <= Settings().stall_levels * level


#: Settings under which the finish's own work costs nothing: its budget never runs out.
FREE = Settings(
    cost=CostModel(
        product=0.0, rows=0.0, gather=0.0, flop=0.0, round=0.0, round_fixed=0.0, cross=0.0
    )
)


def finisher_at_smo_point(K, y, p, C, alpha0, two, smo_tol):
    """A finisher with an unbounded budget at SMO's point at ``smo_tol`` (no finish), and the
    solution of SMO alone at 1e-10: for the primal-dual phase of the finish."""
    start = smo(K, y, p, C, alpha0, tol=smo_tol, finish=False, two_constraints=two)
    alone = smo(K, y, p, C, alpha0, tol=1e-10, finish=False, two_constraints=two)
    act = _solver._ActiveSet(K, y, p, np.full(len(y), C), start.alpha.copy(), two=two)
    return act, _finish._Finisher(act, 1e-9, FREE), alone


def primal_dual_from_smo(kind, seed, smo_tol, n=200):
    """:func:`finisher_at_smo_point` on a Gaussian C-SVM (``kind`` "c") or nu-SVM ("nu")."""
    K, y = random_problem(seed, n, "gaussian", overlap=0.5)
    two = kind == "nu"
    p, C = (np.zeros(n), 1.0) if two else (-np.ones(n), 10.0)
    alpha0 = None
    if two:
        alpha0 = np.zeros(n)
        for cls in (y > 0, y < 0):
            alpha0[np.flatnonzero(cls)[:30]] = 1.0
    act, finisher, alone = finisher_at_smo_point(K, y, p, C, alpha0, two, smo_tol)
    return K, y, p, C, two, act, finisher, alone


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_the_primal_dual_phase_lands_on_the_solution_in_a_few_solves(seed):
    # From SMO's point at m - M <= 0.1 on a Gaussian C-SVM: guess the active set, solve the
    # face, guess again; a few solves reach the solution (violation recomputed here from the
    # definition, SMO alone's objective), in the box and on the constraint.
    K, y, p, C, _, act, finisher, alone = primal_dual_from_smo("c", seed, 0.1)
    violation = finisher._primal_dual(_finish._free_set(act))
    assert violation is not None and violation <= 1e-9
    assert 1 <= finisher.solves <= 6
    alpha = act.alpha
    assert np.all(alpha >= 0.0) and np.all(alpha <= C)
    assert y @ alpha == pytest.approx(0.0, abs=1e-9)
    assert independent_violation(K, y, p, C, alpha) <= 1e-9 * (1 + 1e-6)
    assert objective(K, y, p, alpha) == pytest.approx(alone.objective, rel=1e-10)


def test_a_primal_dual_phase_that_gives_up_puts_the_starting_point_back():
    # On this nu-SVM the guesses cycle (about fifty variables leave the box and fifty are
    # freed in every round): the phase gives up and leaves alpha and v exactly as it found them.
    *_, act, finisher, _ = primal_dual_from_smo("nu", 0, 1e-2)
    alpha, v = act.alpha.copy(), act.v.copy()
    assert finisher._primal_dual(_finish._free_set(act)) is None
    np.testing.assert_array_equal(act.alpha, alpha)
    np.testing.assert_array_equal(act.v, v)
    assert finisher.cost == 0.0  # and leaves the attempt's budget to the primal method


def test_a_primal_dual_step_along_a_null_direction_is_hopeless_and_skipped(monkeypatch):
    # A face whose solve grows without bound (as along a null direction of a singular block)
    # ends the phase at once, and the next 2, then 4, attempts skip it.
    *_, act, finisher, _ = primal_dual_from_smo("c", 0, 0.1)
    monkeypatch.setattr(
        _finish._Face, "newton", lambda self, vF, *_: (1e20 * np.ones(len(vF)), None)
    )
    alpha = act.alpha.copy()
    for hopeless in (1, 2):
        assert finisher._primal_dual(_finish._free_set(act)) is None
        assert finisher.hopeless == hopeless and finisher.skip == 2**hopeless
        np.testing.assert_array_equal(act.alpha, alpha)


def test_a_face_solve_meets_inhomogeneous_constraints():
    # The face's minimiser with a^T e = c on each class (the two constraints of the nu-SVM):
    # the class sums of e are c exactly, and v_F - K_FF e is constant on each class (the
    # multiplier of its constraint), which is the KKT system of the face. The second value is
    # K_FF e.
    K, y = random_problem(4, 60)
    act = _solver._ActiveSet(K, y, np.zeros(60), np.ones(60), np.full(60, 0.5), two=True)
    free = np.arange(0, 60, 2)
    c = np.array([0.3, -0.7])
    vF = np.random.default_rng(0).standard_normal(len(free))
    KFF = K[np.ix_(free, free)]
    pos = y[free] > 0
    e, Ke = _finish._Face(act, free).newton(vF, 1e-12, c)
    assert e[pos].sum() == pytest.approx(c[0], abs=1e-13)
    assert e[~pos].sum() == pytest.approx(c[1], abs=1e-13)
    r = vF - KFF @ e
    assert np.ptp(r[pos]) <= 1e-9 and np.ptp(r[~pos]) <= 1e-9
    np.testing.assert_allclose(Ke, KFF @ e, atol=1e-12)


def test_the_violators_and_by_how_much():
    # A variable at a bound violates when v_t is on the wrong side of the threshold of its
    # group (the mean of v on the face's free variables) by more than the tolerance; the
    # amounts are those distances.
    y = np.array([1.0, 1.0, -1.0, -1.0, 1.0, -1.0])
    alpha = np.array([1.0, 0.0, 2.0, 0.0, 2.0, 1.0])  # 0 and 5 free
    act = _solver._ActiveSet(np.eye(6), y, -np.ones(6), np.full(6, 2.0), alpha)
    act.refresh(np.array([0.5, 0.9, 0.45, 0.2, 0.1, 0.3]))  # these scores; threshold 0.4
    bad, amounts = _finish._violators(act, np.array([0, 5]), 0.05, amounts=True)
    # 1: y = +1 at 0, in I_up: 0.9 - 0.4; 2: y = -1 at C, in I_up: 0.45 - 0.4 (within tol);
    # 3: y = -1 at 0, in I_low: 0.4 - 0.2; 4: y = +1 at C, in I_low: 0.4 - 0.1
    assert bad.tolist() == [1, 3, 4]
    np.testing.assert_allclose(amounts, [0.5, 0.2, 0.3])
    np.testing.assert_array_equal(_finish._violators(act, np.array([0, 5]), 0.05), bad)
