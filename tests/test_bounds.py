"""Tests of kernels_ref.bounds: Novikoff's mistake bound, checked against the perceptron."""

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from kernels_ref.bounds import novikoff_bound
from kernels_ref.perceptron import perceptron_primal

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
def test_r2_bias_perceptron_mistakes_at_most_augmented_novikoff_bound(data):
    # b <- b + y_i R^2 is the homogeneous perceptron on (x, R): radius sqrt(2) R, margin of
    # (u, b / R): m / ||(u, b / R)||; the bound is 2 (R^2 ||u||^2 + b^2) / m^2.
    X, y, u, b, m = data
    R = float(np.sqrt(np.max(np.sum(X * X, axis=1))))
    assume(R > 1e-3)
    bound = novikoff_bound(np.sqrt(2.0) * R, m / np.sqrt(u @ u + (b / R) ** 2))
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
    with pytest.raises(ValueError, match=r"^rho must be <= R"):
        novikoff_bound(1.0, 1.0 + 1.5e-9)
