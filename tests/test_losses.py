"""Tests of kernels_ref.losses: each loss at hand-picked points, then identities between them."""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import array_shapes, arrays

from kernels_ref.losses import (
    epsilon_insensitive_loss,
    hinge_loss,
    huber_loss,
    logistic_loss,
    perceptron_loss,
    population_minimiser,
    scaled_epsilon_insensitive_loss,
    square_loss,
    squared_hinge_loss,
    zero_one_loss,
)

MARGIN_LOSSES = [zero_one_loss, hinge_loss, squared_hinge_loss, perceptron_loss, logistic_loss]
ALL_LOSSES = [
    *MARGIN_LOSSES,
    square_loss,
    lambda r: epsilon_insensitive_loss(r, 0.5),
    lambda r: huber_loss(r, 1.0),
]
reals = st.floats(-50, 50, allow_nan=False, allow_infinity=False)
margins = arrays(float, array_shapes(max_dims=2, max_side=5), elements=reals)

# --- hand-picked points -----------------------------------------------------------------------

Z = np.array([-2.0, -0.5, 0.0, 0.5, 1.0, 3.0])


def test_zero_one_at_hand_points():
    # a mistake when y f(x) <= 0 (a score of exactly 0 is a mistake)
    assert zero_one_loss(Z).tolist() == [1.0, 1.0, 1.0, 0.0, 0.0, 0.0]


def test_hinge_at_hand_points():
    assert hinge_loss(Z).tolist() == [3.0, 1.5, 1.0, 0.5, 0.0, 0.0]


def test_squared_hinge_at_hand_points():
    assert squared_hinge_loss(Z).tolist() == [9.0, 2.25, 1.0, 0.25, 0.0, 0.0]


def test_perceptron_at_hand_points():
    assert perceptron_loss(Z).tolist() == [2.0, 0.5, 0.0, 0.0, 0.0, 0.0]


def test_square_at_hand_points():
    assert square_loss([-3.0, 0.0, 0.5]).tolist() == [9.0, 0.0, 0.25]


def test_logistic_at_hand_points():
    expected = [math.log(1 + math.exp(-z)) for z in Z]
    np.testing.assert_allclose(logistic_loss(Z), expected, rtol=1e-14)
    assert logistic_loss(0.0) == pytest.approx(math.log(2), rel=1e-15)


def test_logistic_is_stable_at_extreme_margins():
    # log(1 + e^{800}) overflows when computed as written; it is 800 to double precision
    assert logistic_loss(-800.0) == 800.0
    # log(1 + e^{-40}) = e^{-40} (1 - e^{-40}/2 + ...): the naive log(1 + tiny) rounds to 0
    assert logistic_loss(40.0) == pytest.approx(math.exp(-40.0), rel=1e-15)


def test_epsilon_insensitive_at_hand_points():
    r = [-2.0, -0.5, 0.0, 0.3, 0.5, 1.25]
    assert epsilon_insensitive_loss(r, 0.5).tolist() == [1.5, 0.0, 0.0, 0.0, 0.0, 0.75]


def test_huber_at_hand_points():
    # c = 2: r^2/2 for |r| <= 2, 2|r| - 2 beyond
    r = [-5.0, -2.0, -1.0, 0.0, 1.0, 2.0, 5.0]
    assert huber_loss(r, 2.0).tolist() == [8.0, 2.0, 0.5, 0.0, 0.5, 2.0, 8.0]


@pytest.mark.parametrize("loss", ALL_LOSSES)
def test_scalar_in_float_out_and_shape_kept(loss):
    assert isinstance(loss(0.25), float)
    assert loss(np.zeros((2, 3))).shape == (2, 3)
    assert loss([[0.0, 1.0]]).shape == (1, 2)


# --- identities -------------------------------------------------------------------------------


@given(margins)
def test_convex_surrogates_bound_the_zero_one_loss(z):
    zo = zero_one_loss(z)
    assert np.all(hinge_loss(z) >= zo)
    assert np.all(squared_hinge_loss(z) >= zo)
    assert np.all(logistic_loss(z) / math.log(2) >= zo * (1 - 1e-15))


@given(margins)
def test_squared_hinge_is_hinge_squared(z):
    np.testing.assert_array_equal(squared_hinge_loss(z), hinge_loss(z) ** 2)


@given(margins)
def test_hinge_is_perceptron_loss_shifted_by_one(z):
    np.testing.assert_array_equal(hinge_loss(z), perceptron_loss(z - 1.0))
    assert np.all(perceptron_loss(z) <= hinge_loss(z))


@given(margins)
def test_logistic_lies_between_perceptron_loss_and_it_plus_log2(z):
    lo = logistic_loss(z)
    p = perceptron_loss(z)
    assert np.all(lo >= p) and np.all(lo <= p + math.log(2) + 1e-12)
    # log(1 + e^{-z}) - log(1 + e^{z}) = -z
    np.testing.assert_allclose(lo - logistic_loss(-z), -z, atol=1e-12)


@given(margins, st.sampled_from([-1.0, 1.0]))
def test_square_loss_of_margin_is_squared_residual(z, y):
    f = y * z  # the score with margin y f = z
    np.testing.assert_allclose(square_loss(1.0 - z), square_loss(y - f), rtol=1e-12, atol=1e-12)


@given(margins, st.floats(0.01, 10.0))
def test_huber_is_symmetric_continuous_and_below_half_square(r, c):
    h = huber_loss(r, c)
    np.testing.assert_array_equal(h, huber_loss(-r, c))
    # (the slack covers the rounding of subnormal squares, below the smallest normal float)
    assert np.all(h <= 0.5 * square_loss(r) * (1 + 1e-12) + np.finfo(float).tiny)
    assert huber_loss(c, c) == pytest.approx(0.5 * c * c)
    assert huber_loss(c * (1 + 1e-9), c) == pytest.approx(0.5 * c * c, rel=1e-8)
    # linear beyond c with slope c
    assert np.all(h >= c * np.abs(r) - 0.5 * c * c - 1e-9 * (1 + np.abs(r)))


@given(margins, st.floats(0.01, 10.0))
def test_epsilon_insensitive_is_zero_inside_the_tube_and_linear_outside(r, eps):
    v = epsilon_insensitive_loss(r, eps)
    inside = np.abs(r) <= eps
    assert np.all(v[inside] == 0.0)
    np.testing.assert_allclose(v[~inside], np.abs(r[~inside]) - eps, rtol=1e-12, atol=1e-12)


# --- bad input ----------------------------------------------------------------------------------


@pytest.mark.parametrize("loss", MARGIN_LOSSES)
@pytest.mark.parametrize("bad", [np.nan, np.inf, [1.0, np.nan], "a", [[1.0], [1.0, 2.0]], []])
def test_margin_losses_reject_bad_margins(loss, bad):
    with pytest.raises(ValueError, match=r"^z "):
        loss(bad)


@pytest.mark.parametrize(
    "loss",
    [square_loss, lambda r: epsilon_insensitive_loss(r, 0.5), lambda r: huber_loss(r, 1.0)],
)
@pytest.mark.parametrize("bad", [np.nan, -np.inf, [0.0, np.nan], "a", []])
def test_residual_losses_reject_bad_residuals(loss, bad):
    with pytest.raises(ValueError, match=r"^r "):
        loss(bad)


@pytest.mark.parametrize("eps", [-1.0, np.nan, np.inf, "x"])
def test_epsilon_insensitive_rejects_bad_epsilon(eps):
    with pytest.raises(ValueError, match=r"^epsilon "):
        epsilon_insensitive_loss([0.0, 1.0], eps)


@pytest.mark.parametrize("c", [0.0, -1.0, np.nan, np.inf, None])
def test_huber_rejects_bad_threshold(c):
    with pytest.raises(ValueError, match=r"^c "):
        huber_loss([0.0, 1.0], c)


@pytest.mark.parametrize("loss", ALL_LOSSES)
def test_inputs_are_not_modified(loss):
    z = np.array([-1.0, -0.0, 0.5, 2.0])
    copy = z.copy()
    loss(z)
    np.testing.assert_array_equal(z, copy)


def test_epsilon_insensitive_loss_with_zero_tube_is_the_absolute_loss():
    r = np.array([-2.0, -0.5, 0.0, 1.5])
    assert epsilon_insensitive_loss(r, 0.0).tolist() == [2.0, 0.5, 0.0, 1.5]


# --- Valle Vidal's scaled residual and the third column of his table of losses ------------------


@given(
    st.floats(-50, 50),
    st.floats(0, 5),
    st.floats(0.01, 100),
)
def test_scaled_epsilon_insensitive_is_the_wider_tube_divided_by_sigma(r, eps, sigma):
    # V_eps(r / sigma) = max(0, |r| - sigma eps) / sigma, written out by hand
    expected = max(0.0, abs(r) - sigma * eps) / sigma
    assert scaled_epsilon_insensitive_loss(r, eps, sigma) == pytest.approx(expected, abs=1e-12)


def test_scaled_epsilon_insensitive_rejects_bad_sigma():
    for bad in (0.0, -1.0, math.nan, math.inf):
        with pytest.raises(ValueError, match=r"^sigma must"):
            scaled_epsilon_insensitive_loss([1.0], 0.5, bad)
    with pytest.raises(ValueError, match=r"^epsilon must"):
        scaled_epsilon_insensitive_loss([1.0], -0.5, 1.0)


def _expected_loss(loss, f, p):
    """p l(f) + (1 - p) l(-f), the expected loss at a point with Pr(y = +1) = p."""
    return p * loss(f) + (1 - p) * loss(-f)


@pytest.mark.parametrize(
    ("name", "loss"),
    [
        ("logistic", lambda z: np.log1p(np.exp(-z))),
        ("square", lambda z: (1.0 - z) ** 2),
        ("hinge", lambda z: np.maximum(0.0, 1.0 - z)),
    ],
)
@pytest.mark.parametrize("p", [0.05, 0.2, 0.4, 0.6, 0.9])
def test_population_minimiser_beats_every_score_of_a_fine_grid(name, loss, p):
    # the expected loss at the closed form is no larger than at any f of a grid of step 1e-3
    f_star = population_minimiser(name, p)
    grid = np.linspace(-6.0, 6.0, 12001)
    assert _expected_loss(loss, f_star, p) <= np.min(_expected_loss(loss, grid, p)) + 1e-12
    # and the grid's best score is within one grid step of it
    assert abs(grid[np.argmin(_expected_loss(loss, grid, p))] - f_star) <= 1e-3 + 1e-12


def test_population_minimisers_at_hand_points():
    assert population_minimiser("logistic", 0.5) == 0.0
    assert population_minimiser("logistic", 0.8) == pytest.approx(math.log(4.0))
    assert population_minimiser("square", 0.8) == pytest.approx(0.6)
    assert population_minimiser("hinge", 0.4) == -1.0
    assert population_minimiser("logistic", 1.0) == math.inf


def test_population_minimiser_rejects_bad_input():
    with pytest.raises(ValueError, match=r"^loss must be one of"):
        population_minimiser("huber", 0.5)
    for bad in (-0.1, 1.5, math.nan):
        with pytest.raises(ValueError, match=r"^p (must|contains)"):
            population_minimiser("square", [0.5, bad])  # a clear message naming p
