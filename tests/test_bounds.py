"""Tests of kernels_ref.bounds: Novikoff's mistake bound, checked against the perceptron, and
the generalisation bounds of chapter 8 — values computed by hand with ``math.log``, their
monotonicity (and where it fails), scale invariance, the margins of fitted SVMs, and the
conditions of validity raising."""

import math

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from numpy.linalg import norm

from kernels_ref.bounds import (
    bias_augmented,
    functional_margins,
    geometric_margin,
    informative_sample_size,
    margin_bound,
    margin_slack_bound_l1,
    margin_slack_bound_l2,
    margin_slacks,
    novikoff_bound,
    sv_compression_bound,
    vc_bound,
    vc_dimension_margin_bound,
)
from kernels_ref.kernels import gaussian_kernel, linear_kernel
from kernels_ref.perceptron import perceptron_primal
from kernels_ref.svm import hard_margin, margin, soft_margin_l1, svm_predict

# --- exact values -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "R, rho, expected", [(1.0, 1.0, 1.0), (2.0, 1.0, 4.0), (1.0, 0.25, 16.0), (3.0, 0.5, 36.0)]
)
def test_novikoff_bound_values(R, rho, expected):
    assert novikoff_bound(R, rho) == expected


@given(st.floats(1e-3, 1e3), st.floats(1e-3, 1.0), st.floats(1e-3, 1e3))
def test_novikoff_bound_is_at_least_one_and_scale_invariant(R, ratio, t):
    rho = ratio * R
    bound = novikoff_bound(R, rho)
    assert bound >= 1.0 - 1e-12
    assert novikoff_bound(t * R, t * rho) == pytest.approx(bound, rel=1e-12)


# --- the theorem, on random separable data ------------------------------------------------


@st.composite
def separable_data(draw, bias):
    """Points separated by the hyperplane <u, x> + b = 0 with functional margin m > 0.

    Random points and labels, then each point is moved along the normal until it lies on the
    side of its label at distance at least delta from the hyperplane.
    """
    n = draw(st.integers(2, 12))
    d = draw(st.integers(1, 3))
    X = draw(arrays(float, (n, d), elements=st.floats(-3, 3)))
    y = draw(arrays(float, n, elements=st.sampled_from([-1.0, 1.0])))
    y[:2] = [1.0, -1.0]  # both classes
    u = draw(arrays(float, d, elements=st.floats(-1, 1)))
    assume(np.linalg.norm(u) > 0.1)
    u_hat = u / np.linalg.norm(u)
    b = draw(st.floats(-2, 2)) if bias else 0.0
    delta = draw(st.floats(0.05, 1.0))
    gap = np.maximum(0.0, delta - y * (X @ u_hat + b / np.linalg.norm(u)))
    X = X + (gap * y)[:, None] * u_hat
    m = float(np.min(y * (X @ u + b)))
    assume(m > 1e-3)
    return X, y, u, b, m


def run(X, y, bias_update, bound):
    assume(bound < 5000)  # keep the run short
    return perceptron_primal(X, y, max_epochs=int(bound) + 2, bias_update=bias_update)


@given(separable_data(bias=False))
def test_perceptron_mistakes_at_most_novikoff_bound(data):
    X, y, u, _, m = data
    R = float(np.sqrt(np.max(np.sum(X * X, axis=1))))
    bound = novikoff_bound(R, m / np.linalg.norm(u))
    res = run(X, y, None, bound)
    assert res.converged and res.mistakes <= bound * (1 + 1e-9)


@given(separable_data(bias=True))
def test_unit_bias_perceptron_mistakes_at_most_augmented_novikoff_bound(data):
    # b <- b + y_i is the homogeneous perceptron on (x, 1): radius sqrt(R^2 + 1), margin of
    # (u, b): m / ||(u, b)||.
    X, y, u, b, m = data
    R2 = float(np.max(np.sum(X * X, axis=1)))
    bound = novikoff_bound(np.sqrt(R2 + 1.0), m / np.sqrt(u @ u + b * b))
    res = run(X, y, "unit", bound)
    assert res.converged and res.mistakes <= bound * (1 + 1e-9)


@given(separable_data(bias=True))
def test_the_perceptron_with_a_bias_is_the_perceptron_through_the_origin_on_bias_augmented(data):
    # the hint of novikoff_bound, followed with the unit step (augmented coordinate 1, exact
    # arithmetic on both sides): the same mistakes in the same order, weights (w, b), and
    # Novikoff's bound on the augmented points with the margin of (u, b)
    X, y, u, b, _ = data
    Z = bias_augmented(X, 1.0)
    v = np.r_[u, b]
    bound = novikoff_bound(np.max(norm(Z, axis=1)), np.min(y * (Z @ v)) / norm(v))
    with_bias = run(X, y, "unit", bound)
    through_origin = run(Z, y, None, bound)
    np.testing.assert_array_equal(with_bias.history, through_origin.history)
    np.testing.assert_array_equal(through_origin.w, np.r_[with_bias.w, with_bias.b])
    assert with_bias.converged and with_bias.mistakes <= bound * (1 + 1e-9)


@given(separable_data(bias=True))
def test_r2_bias_perceptron_mistakes_at_most_novikoff_bound_on_bias_augmented(data):
    # b <- b + y_i R^2 is the homogeneous perceptron on (x, R): radius sqrt(2) R, margin of
    # (u, b / R); the bound is 2 (R^2 ||u||^2 + b^2) / m^2.
    X, y, u, b, _ = data
    R = float(np.sqrt(np.max(np.sum(X * X, axis=1))))
    assume(R > 1e-3)
    Z = bias_augmented(X)  # (x_i, R)
    v = np.r_[u, b / R]
    bound = novikoff_bound(np.max(norm(Z, axis=1)), np.min(y * (Z @ v)) / norm(v))
    res = run(X, y, "R2", bound)
    assert res.converged and res.mistakes <= bound * (1 + 1e-9)


@given(separable_data(bias=False))
def test_novikoff_proof_steps_hold_along_the_run(data):
    # Step 1: <w_k, u/m> >= k; step 2: ||w_k||^2 <= k R^2, after the k-th mistake.
    X, y, u, _, m = data
    R2 = float(np.max(np.sum(X * X, axis=1)))
    bound = novikoff_bound(np.sqrt(R2), m / np.linalg.norm(u))
    res = run(X, y, None, bound)
    w = np.cumsum(y[res.history, None] * X[res.history], axis=0)  # w after each mistake
    k = np.arange(1, res.mistakes + 1)
    assert np.all(w @ u / m >= k * (1 - 1e-9))
    assert np.all(np.sum(w * w, axis=1) <= k * R2 * (1 + 1e-9))


# --- bad input ----------------------------------------------------------------------------


@pytest.mark.parametrize("R", [0.0, -1.0, np.nan, np.inf, "1", None])
def test_novikoff_bound_rejects_bad_radius(R):
    with pytest.raises(ValueError, match=r"^R "):
        novikoff_bound(R, 0.5)


@pytest.mark.parametrize("rho", [0.0, -0.5, np.nan, np.inf, "0.5", 2.0])
def test_novikoff_bound_rejects_bad_margin(rho):
    with pytest.raises(ValueError, match=r"^rho "):
        novikoff_bound(1.0, rho)


def test_novikoff_bound_allows_only_round_off_above_the_radius():
    assert novikoff_bound(1.0, 1.0 + 0.5e-9) == pytest.approx(1.0)
    assert novikoff_bound(1.0, 1.0 * (1.0 + 1e-9)) == pytest.approx(1.0)  # the limit itself
    with pytest.raises(ValueError, match=r"^rho must be <= R"):
        novikoff_bound(1.0, 1.0 + 1.5e-9)


# --- the VC bound (Chevaleyre §2.6, Burges eq. 3) ---------------------------------------------


def test_vc_bound_by_hand():
    # D = 5, N = 10, delta = 0.4: sqrt((5 (ln 4 + 1) + ln 10) / 10)
    expected = math.sqrt((5 * (math.log(4) + 1) + math.log(10)) / 10)
    assert vc_bound(0.0, 5, 10, 0.4) == pytest.approx(expected, rel=1e-14)
    assert vc_bound(0.25, 5, 10, 0.4, C=2.0) == pytest.approx(0.25 + 2 * expected, rel=1e-14)
    # D = 1, N = 50, delta = 0.04: 2N/D = 100 and 4/delta = 100
    expected = math.sqrt((math.log(100) + 1 + math.log(100)) / 50)
    assert vc_bound(0.0, 1, 50, 0.04) == pytest.approx(expected, rel=1e-14)


@given(
    st.floats(0, 1),
    st.integers(1, 500),
    st.integers(2, 10**6),
    st.floats(1e-6, 0.99),
    st.floats(0.1, 10),
)
def test_vc_bound_monotone_in_D_N_delta_and_linear_in_C_and_R_emp(R_emp, D, N, delta, C):
    assume(D < N)
    base = vc_bound(R_emp, D, N, delta, C=C)
    confidence = base - R_emp
    assert confidence > 0
    if D + 1 < N:
        assert vc_bound(R_emp, D + 1, N, delta, C=C) > base  # more capacity, weaker bound
    assert vc_bound(R_emp, D, N + 1, delta, C=C) < base  # more data, tighter bound
    assert vc_bound(R_emp, D, N, delta / 2, C=C) > base  # more confidence, weaker bound
    assert vc_bound(0.0, D, N, delta, C=2 * C) == pytest.approx(2 * confidence, rel=1e-12)


def test_vc_bound_is_vacuous_as_D_reaches_N():
    # at D = N the confidence term is sqrt(ln 2 + 1 + ln(4/delta)/N) > 1: nothing is lost by
    # requiring D < N
    assert vc_bound(0.0, 999, 1000, 0.5) > 1


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"D": 10, "N": 10}, r"^D must lie in \[1\.0, 10\)"),
        ({"D": 0.5}, r"^D must"),
        ({"delta": 1.0}, r"^delta must lie in \(0\.0, 1\.0\)"),
        ({"delta": 0.0}, r"^delta must"),
        ({"R_emp": 1.5}, r"^R_emp must"),
        ({"N": 10.0}, r"^N must be an integer"),
    ],
)
def test_vc_bound_conditions_raise(kwargs, match):
    args = {"R_emp": 0.0, "D": 3, "N": 100, "delta": 0.05, **kwargs}
    with pytest.raises(ValueError, match=match):
        vc_bound(**args)


# --- the VC dimension of margin hyperplanes ---------------------------------------------------


@pytest.mark.parametrize(
    "R, rho, d, expected",
    [
        (2.0, 1.0, math.inf, 5),  # R^2/rho^2 = 4
        (3.0, 2.0, math.inf, 4),  # ceil(2.25) = 3
        (1.0, 1.0, math.inf, 2),  # the margin equals the radius
        (2.0, 0.1, 2, 3),  # 1 + min(400, 2)
        (8.0, 1.0, 64, 65),  # a tie: 64 = 64
        (4.0, 0.5, 100, 65),
    ],
)
def test_vc_dimension_margin_bound_values(R, rho, d, expected):
    result = vc_dimension_margin_bound(R, rho, d)
    assert result == expected and isinstance(result, int)


@given(st.floats(1e-3, 1e3), st.floats(1e-3, 1.0), st.integers(1, 10**6) | st.just(math.inf))
def test_vc_dimension_margin_bound_is_the_smallest_integer_above_the_bound(R, ratio, d):
    rho = ratio * R
    D = vc_dimension_margin_bound(R, rho, d)
    bound = 1 + min(d, (R / rho) ** 2)
    assert bound * (1 - 1e-12) <= D < bound + 1
    assert D == vc_dimension_margin_bound(4 * R, 4 * rho, d)  # powers of 2: exact rescaling


def test_vc_dimension_margin_bound_conditions_raise():
    with pytest.raises(ValueError, match=r"^rho must be <= R"):
        vc_dimension_margin_bound(1.0, 2.0, math.inf)
    with pytest.raises(ValueError, match=r"^d must"):
        vc_dimension_margin_bound(2.0, 1.0, 2.5)
    with pytest.raises(ValueError, match=r"^d must"):
        vc_dimension_margin_bound(2.0, 1.0, -math.inf)
    with pytest.raises(ValueError, match=r"^rho is too small"):
        vc_dimension_margin_bound(1e200, 1e-200, math.inf)
    assert vc_dimension_margin_bound(1e200, 1e-200, 7) == 8  # the dimension still bounds it


# --- margins ----------------------------------------------------------------------------------


def test_margins_by_hand():
    f = np.array([2.0, 1.0, -3.0, 0.5])
    y = np.array([1.0, 1.0, -1.0, -1.0])
    np.testing.assert_array_equal(functional_margins(f, y), [2.0, 1.0, 3.0, -0.5])
    assert geometric_margin(f, y, w_norm=2.0) == -0.25  # x_4 is misclassified
    np.testing.assert_array_equal(margin_slacks(f, y, gamma=1.0, w_norm=2.0), [0, 0.5, 0, 1.25])
    np.testing.assert_array_equal(margin_slacks(f, y, gamma=0.5, w_norm=1.0), [0, 0, 0, 1.0])


@given(
    arrays(float, 12, elements=st.floats(-5, 5)),
    st.floats(0.01, 5),
    st.floats(0.1, 10),
    st.floats(0.1, 10),
)
def test_margin_slacks_properties(f, gamma, w_norm, t):
    y = np.where(np.arange(12) % 2 == 0, 1.0, -1.0)
    xi = margin_slacks(f, y, gamma, w_norm)
    assert np.all(xi >= 0)
    # xi_i > gamma exactly when the example is misclassified (Valle Vidal's remark), away from
    # the round-off of gamma - y_i f_i / ||w|| when f_i is tiny
    clear = np.abs(f) / w_norm > 1e-9 * gamma
    assert np.array_equal((xi > gamma)[clear], (y * f < 0)[clear])
    # more target margin, more slack
    assert np.all(margin_slacks(f, y, gamma + 0.1, w_norm) >= xi)
    # the slacks depend only on f / ||w||: rescaling w (and f) changes nothing
    np.testing.assert_allclose(margin_slacks(t * f, y, gamma, t * w_norm), xi, atol=1e-12)
    # geometric margin: the largest gamma with zero slack
    g = geometric_margin(f, y, w_norm)
    if g > 0:
        assert np.all(margin_slacks(f, y, g, w_norm) <= 1e-12)


def _two_clouds(seed, n, shift):
    rng = np.random.default_rng(seed)
    X = np.vstack([rng.normal(size=(n, 2)) + shift, rng.normal(size=(n, 2)) - shift])
    return X, np.r_[np.ones(n), -np.ones(n)]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_geometric_margin_of_the_hard_margin_svm_is_its_margin(seed):
    X, y = _two_clouds(seed, 15, 3.0)
    K = linear_kernel(X)
    res = hard_margin(K, y, tol=1e-11)
    f = svm_predict(res, K)
    gamma = margin(res, K)
    assert geometric_margin(f, y, 1 / gamma) == pytest.approx(gamma, rel=1e-8)
    gm = functional_margins(f, y)
    np.testing.assert_allclose(gm[res.support], 1.0, atol=1e-8)  # support vectors on the margin
    assert np.all(gm >= 1 - 1e-8)
    assert np.all(margin_slacks(f, y, gamma, 1 / gamma) <= 1e-8)


@pytest.mark.parametrize("seed", [0, 1])
def test_margin_slacks_of_the_soft_margin_svm_are_its_hinge_losses_times_gamma(seed):
    X, y = _two_clouds(seed, 30, 0.7)
    K = gaussian_kernel(X, sigma=1.0)
    res = soft_margin_l1(K, y, 1.0, tol=1e-11)
    f = svm_predict(res, K)
    gamma = margin(res, K)
    xi = margin_slacks(f, y, gamma, 1 / gamma)
    hinge = np.maximum(0.0, 1 - y * f)
    np.testing.assert_allclose(xi / gamma, hinge, atol=1e-12)
    assert np.any(hinge > 0)  # the clouds overlap: the test is not empty
    # Theorem 2's (R^2 + ||xi||^2)/gamma^2 is R^2 ||w||^2 + ||hinge||^2: no units left
    R = np.sqrt(np.max(np.diag(K)))
    lhs = (R**2 + xi @ xi) / gamma**2
    assert lhs == pytest.approx(R**2 / gamma**2 + hinge @ hinge, rel=1e-10)


# --- Theorem 1: the margin bound --------------------------------------------------------------


def _printed_margin_bound(m, R, gamma, delta):
    """Valle Vidal's Theorem 1 as printed."""
    a = 64 * R**2 / gamma**2
    return (
        2
        / m
        * (
            a * math.log(math.e * m * gamma / (8 * R**2)) * math.log(32 * m / gamma**2)
            + math.log(4 / delta)
        )
    )


def test_margin_bound_by_hand():
    # m = 1024, R = 1, gamma = 1/2, delta = 1/2: 64 R^2/gamma^2 = 256, e m gamma/(4R) = 128 e,
    # 128 m R^2/gamma^2 = 2^19, 4/delta = 8
    ln2 = math.log(2)
    expected = 2 / 1024 * (256 * (1 + 7 * ln2) * (19 * ln2) + 3 * ln2)
    assert margin_bound(1024, 1.0, 0.5, 0.5) == pytest.approx(expected, rel=1e-14)


@given(
    st.floats(1e-3, 1e3),
    st.floats(0.05, 1.0),
    st.floats(1e-6, 0.99),
    st.floats(1e-3, 1e3),
    st.integers(1, 10**9),
)
def test_margin_bound_is_invariant_under_rescaling(R, ratio, delta, t, extra):
    gamma = ratio * R
    m = math.floor(64 / ratio**2) + extra
    assume(m > 64 * (R / gamma) ** 2 * (1 + 1e-9))
    eps = margin_bound(m, R, gamma, delta)
    assert margin_bound(m, t * R, t * gamma, delta) == pytest.approx(eps, rel=1e-9)


def test_printed_margin_bound_is_not_invariant_and_is_the_corrected_one_at_radius_one_half():
    m, delta = 10**5, 0.05
    for gamma in [0.05, 0.2, 0.5]:
        # at R = 1/2 the printed and the corrected forms agree ...
        assert _printed_margin_bound(m, 0.5, gamma, delta) == pytest.approx(
            margin_bound(m, 0.5, gamma, delta), rel=1e-12
        )
    # ... elsewhere the printed form changes with the units of the data, the corrected one not
    values = [_printed_margin_bound(m, t, t / 4, delta) for t in [0.5, 1.0, 100.0]]
    assert values[0] != pytest.approx(values[1], rel=0.01)
    assert values[2] != pytest.approx(values[1], rel=0.01)
    corrected = [margin_bound(m, t, t / 4, delta) for t in [0.5, 1.0, 100.0]]
    assert corrected == pytest.approx([corrected[0]] * 3, rel=1e-12)
    # R = 100, gamma = 50, m = 300 > 64 R^2/gamma^2 = 256: ln(e m gamma / (8 R^2)) < 0 and the
    # printed "bound" on an error rate is negative
    assert (
        _printed_margin_bound(300, 100.0, 50.0, delta) < 0 < margin_bound(300, 100.0, 50.0, delta)
    )


@given(st.floats(0.05, 1.0), st.floats(1e-6, 0.99), st.integers(1, 10**8))
def test_margin_bound_monotone_in_m_gamma_delta(ratio, delta, extra):
    R = 1.0
    gamma = ratio
    m = math.floor(64 / ratio**2) + extra
    assume(m > 64 / gamma**2 * (1 + 1e-9))
    eps = margin_bound(m, R, gamma, delta)
    assert margin_bound(m + 1, R, gamma, delta) < eps  # more data
    assert margin_bound(m, R, min(R, gamma * 1.01), delta) <= eps  # larger margin
    assert margin_bound(m, R, gamma, delta / 2) > eps  # more confidence
    # the theorem's condition m > 2/epsilon holds by itself
    assert eps > 2 / m


@pytest.mark.parametrize(
    "args, match",
    [
        ((256, 1.0, 0.5, 0.05), r"^m must exceed 64 R\^2/gamma\^2 = 256"),
        ((10**6, 1.0, 2.0, 0.05), r"^gamma must be <= R"),
        ((10**6, 1.0, 0.5, 1.0), r"^delta must"),
        ((10**6, 1.0, 0.5, 0.0), r"^delta must"),
        ((10.0**6, 1.0, 0.5, 0.05), r"^m must be an integer"),
    ],
)
def test_margin_bound_conditions_raise(args, match):
    with pytest.raises(ValueError, match=match):
        margin_bound(*args)
    assert margin_bound(257, 1.0, 0.5, 0.05) > 1  # just inside: defined, vacuous


# --- Theorems 2 and 3: the slack bounds -------------------------------------------------------


def test_slack_bounds_by_hand():
    xi = np.array([0.0, 0.5, 1.0, 0.0])  # m = 4, ||xi||_2^2 = 1.25, ||xi||_1 = 1.5
    ln4 = math.log(4)
    # R = 1, gamma = 1/2, delta = 1/e, c = 3
    l2 = 3 / 4 * ((1 + 1.25) / 0.25 * ln4**2 + 1)
    l1 = 3 / 4 * (1 / 0.25 * ln4**2 + 1.5 / 0.5 * ln4 + 1)
    assert margin_slack_bound_l2(xi, 1.0, 0.5, math.exp(-1), c=3.0) == pytest.approx(l2, rel=1e-14)
    assert margin_slack_bound_l1(xi, 1.0, 0.5, math.exp(-1), c=3.0) == pytest.approx(l1, rel=1e-14)


@given(
    arrays(float, st.integers(1, 50), elements=st.floats(0, 3)),
    st.floats(0.01, 10),
    st.floats(0.01, 10),
    st.floats(1e-6, 0.99),
    st.floats(1e-3, 1e3),
)
def test_slack_bounds_scale_invariance_linearity_and_monotonicity(xi, R, gamma, delta, t):
    for bound in (margin_slack_bound_l2, margin_slack_bound_l1):
        value = bound(xi, R, gamma, delta, c=1.0)
        assert bound(t * xi, t * R, t * gamma, delta, c=1.0) == pytest.approx(value, rel=1e-9)
        assert bound(xi, R, gamma, delta, c=2.5) == pytest.approx(2.5 * value, rel=1e-12)
        assert bound(xi, R, gamma, delta / 2, c=1.0) > value  # more confidence
        assert bound(xi, R, 2 * gamma, delta, c=1.0) <= value  # larger margin, same slacks
        more = xi.copy()
        more[0] += 1.0
        assert bound(more, R, gamma, delta, c=1.0) >= value  # more slack
    if not np.any(xi):
        assert margin_slack_bound_l2(xi, R, gamma, delta, c=1.0) == pytest.approx(
            margin_slack_bound_l1(xi, R, gamma, delta, c=1.0), rel=1e-12
        )


def test_slack_bounds_are_not_monotone_in_m():
    # with no slack the bound is c (R^2/gamma^2 ln^2 m + ln(1/delta)) / m: ln^2 m / m grows
    # up to m = e^2, then falls
    def at(m):
        return margin_slack_bound_l2(np.zeros(m), 1.0, 0.1, 0.5, c=1.0)

    assert at(3) > at(2)
    assert all(at(m + 1) < at(m) for m in range(8, 40))
    # with the same slack per example the bound grows like ln^2 m: never informative
    grows = [margin_slack_bound_l2(np.full(m, 0.1), 1.0, 0.1, 0.5, c=1.0) for m in (10**2, 10**4)]
    assert grows[1] > grows[0] > 1


def test_slack_bounds_conditions_raise():
    for bound in (margin_slack_bound_l2, margin_slack_bound_l1):
        with pytest.raises(ValueError, match=r"^xi must be >= 0"):
            bound(np.array([0.1, -0.1]), 1.0, 0.5, 0.05, c=1.0)
        with pytest.raises(ValueError, match=r"^delta must"):
            bound(np.zeros(3), 1.0, 0.5, 1.0, c=1.0)
        with pytest.raises(TypeError):  # c is required: the theorems do not give it
            bound(np.zeros(3), 1.0, 0.5, 0.05)


# --- the compression bound --------------------------------------------------------------------


def test_sv_compression_bound_by_hand():
    # m = 20, d = 4, delta = 0.05: (4 ln(5 e) + ln 400) / 16
    expected = (4 * (1 + math.log(5)) + math.log(400)) / 16
    assert sv_compression_bound(20, 4, 0.05) == pytest.approx(expected, rel=1e-14)
    # d = 1, m = 2: the worst case, 1 + ln 2 + ln(2/delta)
    assert sv_compression_bound(2, 1, 0.5) == pytest.approx(1 + 3 * math.log(2), rel=1e-14)


@given(st.integers(2, 10**7), st.floats(0, 1), st.floats(1e-6, 0.99))
def test_sv_compression_bound_monotone_in_m_d_delta(m, frac, delta):
    d = 1 + int(frac * (m - 2))  # 1 <= d <= m - 1
    value = sv_compression_bound(m, d, delta)
    assert sv_compression_bound(m + 1, d, delta) < value
    if d + 1 < m:
        assert sv_compression_bound(m, d + 1, delta) > value
    assert sv_compression_bound(m, d, delta / 2) > value


@pytest.mark.parametrize("n_sv", [0, 20, 21, 2.0])
def test_sv_compression_bound_conditions_raise(n_sv):
    with pytest.raises(ValueError, match=r"^n_sv must"):
        sv_compression_bound(20, n_sv, 0.05)


# --- the informative sample size --------------------------------------------------------------


def test_informative_sample_size_by_hand():
    assert informative_sample_size(lambda m: 100 / m) == 101
    assert informative_sample_size(lambda m: 100 / m, m_min=500) == 500
    assert informative_sample_size(lambda m: 0.5) == 1


@pytest.mark.parametrize("n_sv", [1, 3, 10, 50])
def test_informative_sample_size_is_where_the_bound_crosses_one(n_sv):
    def bound(m):
        return sv_compression_bound(m, n_sv, 0.05)

    m = informative_sample_size(bound)
    assert bound(m) < 1
    assert m - 1 <= n_sv or bound(m - 1) >= 1  # below m: undefined or vacuous


def test_informative_sample_size_skips_where_the_bound_is_undefined():
    def bound(m):
        return margin_bound(m, 1.0, 0.25, 0.05)  # defined from m = 1025

    m = informative_sample_size(bound)
    assert m > 1025 and bound(m) < 1 <= bound(m - 1)


def test_informative_sample_size_stops():
    with pytest.raises(ValueError, match=r"^bound is >= 1 .* for every m in \[1, 1000\]"):
        informative_sample_size(lambda m: 2.0, m_max=1000)
    with pytest.raises(ValueError, match=r"^bound must be callable"):
        informative_sample_size(1.0)
    with pytest.raises(ValueError, match=r"^m_max must lie in \[10, inf\]"):
        informative_sample_size(lambda m: 0.5, m_min=10, m_max=5)


def test_informative_sample_size_limits():
    # the default search stops at m_max = 10^12, included
    assert informative_sample_size(lambda m: (1e12 - 1) / m) == 10**12
    with pytest.raises(ValueError, match=r"^bound is >= 1"):
        informative_sample_size(lambda m: 1e12 / m)
    # a search interval of one point
    assert informative_sample_size(lambda m: 4.0 / m, m_min=5, m_max=5) == 5
    assert informative_sample_size(lambda m: 0.5, m_min=1, m_max=1) == 1
    with pytest.raises(ValueError, match=r"^bound is >= 1"):
        informative_sample_size(lambda m: 4.0 / m, m_min=4, m_max=4)
