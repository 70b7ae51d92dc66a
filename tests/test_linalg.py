"""Shared linear algebra (kernels_ref/_linalg.py): the sign convention, the triangular solves."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from kernels_ref._linalg import (
    block_inverses,
    sign_convention,
    solve_cholesky,
    solve_lower,
    solve_lower_transposed,
)
from kernels_ref.feature_space import finite_feature_map
from kernels_ref.kernels import gaussian_kernel


def test_leading_entry_is_the_largest_in_magnitude_and_becomes_positive():
    s = np.array([[1.0, 0.5], [-4.0, 2.0], [2.0, -1.0]])
    out, other = sign_convention(s, np.array([[10.0, 20.0]]))
    np.testing.assert_array_equal(out, [[-1.0, 0.5], [4.0, 2.0], [-2.0, -1.0]])
    np.testing.assert_array_equal(other, [[-10.0, 20.0]])  # the same sign per column


@pytest.mark.parametrize("eps", [0.0, 1e-15, -1e-15, 1e-10, -1e-10])
def test_near_ties_go_to_the_first_entry_whatever_the_round_off(eps):
    s = np.array([[-2.0], [2.0 + eps], [1.0]])
    np.testing.assert_array_equal(np.sign(sign_convention(s)[0][:, 0]), [1.0, -1.0, -1.0])


def test_an_entry_larger_by_more_than_the_tie_tolerance_leads():
    s = np.array([[-2.0], [2.0 * (1 + 1e-6)]])
    assert sign_convention(s)[0][1, 0] > 0


def test_zero_column_is_left_alone_and_inputs_are_not_modified():
    s = np.array([[0.0, -1.0], [0.0, 0.5]])
    copy = s.copy()
    out = sign_convention(s)[0]
    np.testing.assert_array_equal(out, [[0.0, 1.0], [0.0, -0.5]])
    np.testing.assert_array_equal(s, copy)


@given(st.integers(0, 2**32 - 1))
def test_convention_is_idempotent_and_sign_invariant(seed):
    rng = np.random.default_rng(seed)
    s = rng.normal(size=(6, 3))
    flips = rng.choice([-1.0, 1.0], size=3)
    first = sign_convention(s)[0]
    np.testing.assert_array_equal(sign_convention(first)[0], first)
    np.testing.assert_array_equal(sign_convention(s * flips)[0], first)


def test_finite_feature_map_follows_the_convention_on_a_symmetric_set():
    # Points symmetric about 0: the eigenvectors of K have entries that tie in magnitude.
    X = np.array([[-2.0], [-1.0], [0.0], [1.0], [2.0]])
    K = gaussian_kernel(X, sigma=1.0)
    Phi = finite_feature_map(K)
    np.testing.assert_allclose(Phi @ Phi.T, K, atol=1e-12)
    big = np.abs(Phi).max(axis=0)
    nonzero = big > 1e-8
    leading = np.argmax(np.abs(Phi) >= (1 - 1e-8) * big, axis=0)
    assert np.all(Phi[leading, np.arange(5)][nonzero] > 0)
    # the same map for the mirrored data set (the Gram matrix reversed): ties resolved alike
    Phi_mirror = finite_feature_map(K[::-1, ::-1])
    np.testing.assert_allclose(np.abs(Phi_mirror[::-1]), np.abs(Phi), atol=1e-10)


def test_the_tie_tolerance_is_a_relative_1e_8():
    # 1.5e-8 apart (relative): not a tie, the larger leads; 0.5e-8 apart: a tie, the first leads
    assert sign_convention(np.array([[-2.0], [2.0 * (1 + 1.5e-8)]]))[0][1, 0] > 0
    assert sign_convention(np.array([[-2.0], [2.0 * (1 + 0.5e-8)]]))[0][0, 0] > 0


@given(st.integers(1, 400), st.integers(1, 3), st.integers(0, 2**32 - 1))
def test_blocked_triangular_solves_invert_the_cholesky_factor(n, n_rhs, seed):
    rng = np.random.default_rng(seed)
    A = rng.normal(size=(n, n))
    S = A @ A.T + n * np.eye(n)
    L = np.linalg.cholesky(S)
    B = rng.normal(size=(n, n_rhs))
    np.testing.assert_allclose(L @ solve_lower(L, B), B, atol=1e-10)
    np.testing.assert_allclose(L.T @ solve_lower_transposed(L, B), B, atol=1e-10)
    np.testing.assert_allclose(L @ solve_lower(L, B[:, 0]), B[:, 0], atol=1e-10)
    np.testing.assert_allclose(S @ solve_cholesky(L, B), B, atol=1e-8 * n)
    # with the inverses of the diagonal blocks, computed once for repeated solves: products only
    inverses = block_inverses(L)
    assert len(inverses) == -(-n // 128)
    np.testing.assert_allclose(L @ solve_lower(L, B, inverses), B, atol=1e-10)
    np.testing.assert_allclose(L.T @ solve_lower_transposed(L, B, inverses), B, atol=1e-10)
    np.testing.assert_allclose(S @ solve_cholesky(L, B, inverses), B, atol=1e-8 * n)
