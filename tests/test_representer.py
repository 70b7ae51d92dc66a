"""Tests of kernels_ref.representer: the representer theorem, the orthogonal split, RKHS norms."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from kernels_ref.kernels import gaussian_kernel
from kernels_ref.representer import (
    SpanDecomposition,
    kernel_ridge_span,
    rkhs_norm,
    span_decomposition,
)
from kernels_ref.ridge import kernel_ridge, kernel_ridge_objective

K2 = np.array([[2.0, 1.0], [1.0, 2.0]])
y2 = np.array([1.0, 0.0])


# --- exact small cases ------------------------------------------------------------------------


def test_rkhs_norm_by_hand():
    assert rkhs_norm([1.0, -1.0], K2, squared=True) == pytest.approx(2.0)  # 2 + 2 - 2
    assert rkhs_norm([1.0, -1.0], K2) == pytest.approx(np.sqrt(2.0))


def test_span_decomposition_by_hand():
    # K(u2, .) = 0.5 K(u1, .) + g with g orthogonal to K(u1, .) and ||g||^2 = 1 - 0.25
    d = span_decomposition([0.0, 1.0], [[1.0, 0.5], [0.5, 1.0]], n_span=1)
    assert isinstance(d, SpanDecomposition)
    np.testing.assert_allclose(d.span, [0.5, 0.0])
    np.testing.assert_allclose(d.perp, [-0.5, 1.0])
    assert d.norm_span_sq == pytest.approx(0.25)
    assert d.norm_perp_sq == pytest.approx(0.75)


def test_span_decomposition_of_a_function_in_the_span_has_no_perp_part():
    K = gaussian_kernel(np.array([[0.0], [1.0], [2.5]]), sigma=1.0)
    d = span_decomposition([1.0, -2.0, 0.0], K, n_span=2)
    np.testing.assert_allclose(d.span, [1.0, -2.0, 0.0], atol=1e-12)
    assert abs(d.norm_perp_sq) < 1e-12


def test_kernel_ridge_span_with_the_training_points_as_centres_is_kernel_ridge():
    np.testing.assert_allclose(kernel_ridge_span(K2, K2, y2, 1.0), [3 / 8, -1 / 8], atol=1e-12)


# --- the representer theorem -------------------------------------------------------------------


@st.composite
def train_and_centres(draw):
    n = draw(st.integers(2, 8))
    m = draw(st.integers(1, 8))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    # well separated points so that the Gram matrices are well conditioned
    points = rng.permutation(np.linspace(-4, 4, n + m))[:, None]
    y = rng.normal(size=n)
    return points[:n], points[n:], y


@given(train_and_centres(), st.floats(1e-2, 10.0))
def test_minimiser_over_a_larger_span_has_no_component_outside_the_training_span(data, lam):
    X, Z, y = data
    U = np.vstack([X, Z])  # training points first
    K_uu = gaussian_kernel(U, sigma=0.6)
    theta = kernel_ridge_span(K_uu[: len(X)], K_uu, y, lam)
    d = span_decomposition(theta, K_uu, n_span=len(X))
    norm_sq = rkhs_norm(theta, K_uu, squared=True)
    assert d.norm_perp_sq <= 1e-10 * max(norm_sq, 1e-12) + 1e-14
    # f_S is the kernel ridge solution
    alpha = kernel_ridge(K_uu[: len(X), : len(X)], y, lam).alpha
    np.testing.assert_allclose(d.span[: len(X)], alpha, atol=1e-6 * max(1.0, np.abs(alpha).max()))


@given(train_and_centres(), st.integers(0, 2**32 - 1))
def test_pythagoras_and_perp_part_vanishes_on_the_training_points(data, seed):
    X, Z, _ = data
    U = np.vstack([X, Z])
    K_uu = gaussian_kernel(U, sigma=0.6)
    coef = np.random.default_rng(seed).normal(size=len(U))
    d = span_decomposition(coef, K_uu, n_span=len(X))
    np.testing.assert_allclose(d.span + d.perp, coef, atol=1e-12)
    total = rkhs_norm(coef, K_uu, squared=True)
    assert d.norm_span_sq + d.norm_perp_sq == pytest.approx(total, rel=1e-8, abs=1e-10)
    # f_perp(x_i) = 0: f and f_S agree on the training points
    np.testing.assert_allclose((K_uu @ d.perp)[: len(X)], 0.0, atol=1e-8 * np.abs(coef).max())


def test_adding_an_orthogonal_part_keeps_training_values_and_raises_the_objective():
    X = np.array([[-1.0], [0.0], [1.5]])
    Z = np.array([[3.0]])
    y = np.array([1.0, -0.5, 0.25])
    lam = 0.3
    K_uu = gaussian_kernel(np.vstack([X, Z]), sigma=1.0)
    n = len(X)
    alpha = kernel_ridge(K_uu[:n, :n], y, lam).alpha
    f_S = np.concatenate([alpha, [0.0]])
    g_perp = span_decomposition(np.array([0.0, 0.0, 0.0, 1.0]), K_uu, n_span=n).perp
    best = kernel_ridge_objective(alpha, K_uu[:n, :n], y, lam)
    for t in (0.5, 1.0, 2.0):
        f = f_S + t * g_perp
        np.testing.assert_allclose((K_uu @ f)[:n], (K_uu @ f_S)[:n], atol=1e-12)
        growth = rkhs_norm(f, K_uu, squared=True) - rkhs_norm(f_S, K_uu, squared=True)
        assert growth == pytest.approx(t**2 * rkhs_norm(g_perp, K_uu, squared=True), rel=1e-9)
        residual = y - (K_uu @ f)[:n]
        value = residual @ residual + lam * rkhs_norm(f, K_uu, squared=True)
        assert value == pytest.approx(best + lam * growth, rel=1e-9)
        assert value > best


def test_kernel_ridge_span_handles_repeated_centres():
    # the same centre twice: K_uu singular, the normal equations singular; f is still right
    X = np.array([[-1.0], [0.5], [2.0]])
    U = np.vstack([X, X[:1]])
    K_uu = gaussian_kernel(U, sigma=1.0)
    y = np.array([0.3, -1.0, 0.8])
    theta = kernel_ridge_span(K_uu[:3], K_uu, y, 0.2)
    alpha = kernel_ridge(K_uu[:3, :3], y, 0.2).alpha
    np.testing.assert_allclose(K_uu[:3] @ theta, K_uu[:3, :3] @ alpha, atol=1e-10)
    d = span_decomposition(theta, K_uu, n_span=3)
    assert abs(d.norm_perp_sq) < 1e-12


# --- results ----------------------------------------------------------------------------------


def test_result_is_frozen():
    d = span_decomposition([0.0, 1.0], [[1.0, 0.5], [0.5, 1.0]], n_span=1)
    with pytest.raises(AttributeError):
        d.norm_perp_sq = 0.0
