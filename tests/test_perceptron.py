"""Tests of kernels_ref.perceptron: the primal and dual perceptron and the perceptron criterion."""

import dataclasses
import warnings

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from kernels_ref.exceptions import ConvergenceWarning
from kernels_ref.kernels import gaussian_kernel, linear_kernel, polynomial_kernel
from kernels_ref.perceptron import (
    PerceptronDualResult,
    PerceptronPrimalResult,
    hyperplane_distance,
    perceptron_criterion,
    perceptron_criterion_gradient,
    perceptron_dual,
    perceptron_dual_predict,
    perceptron_primal,
)

# The example worked by hand below: thresholds on a line, visited in the order 3, 1, 4, 2.
X1 = np.array([[3.0], [1.0], [4.0], [2.0]])
Y1 = np.array([1.0, -1.0, 1.0, -1.0])
XOR = np.array([[1.0, 1.0], [-1.0, -1.0], [1.0, -1.0], [-1.0, 1.0]])
Y_XOR = np.array([1.0, 1.0, -1.0, -1.0])
BIAS_UPDATES = ["R2", "unit", None]


def run_quietly(fun, *args, **kwargs):
    """Run ``fun`` with ConvergenceWarning silenced (for runs that may not converge)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return fun(*args, **kwargs)


@st.composite
def integer_data(draw, max_n=10, max_d=3):
    """Small integer points (all sums exact in floating point) and labels of both classes."""
    n = draw(st.integers(2, max_n))
    d = draw(st.integers(1, max_d))
    X = draw(arrays(float, (n, d), elements=st.integers(-5, 5).map(float)))
    y = draw(arrays(float, n, elements=st.sampled_from([-1.0, 1.0])))
    assume(abs(y.sum()) < n)  # both classes
    return X, y


# --- exact small cases, worked by hand ------------------------------------------------------


def test_primal_r2_hand_example():
    # R^2 = 16. Updates (w, b) after each mistake, f = w x + b:
    # epoch 1: x=3 f=0 -> (3, 16); x=1 f=19 -> (2, 0); x=4 f=8 ok; x=2 f=4 -> (0, -16)
    # epoch 2: x=3 f=-16 -> (3, 0); x=1 f=3 -> (2, -16); x=4 f=-8 -> (6, 0); x=2 f=12 -> (4, -16)
    # epoch 3: x=3 f=-4 -> (7, 0); x=1 f=7 -> (6, -16); x=4 f=8 ok; x=2 f=-4 ok
    # epoch 4: f = 2, -10, 8, -4: no mistake.
    res = perceptron_primal(X1, Y1, bias_update="R2")
    assert isinstance(res, PerceptronPrimalResult)
    assert res.history.tolist() == [0, 1, 3, 0, 1, 2, 3, 0, 1]
    assert res.w.tolist() == [6.0] and res.b == -16.0
    assert (res.mistakes, res.epochs, res.converged) == (9, 4, True)


def test_primal_unit_bias_hand_example():
    # x0=(2,1)+, x1=(0,2)-, x2=(1,0)+, x3=(-1,1)-; b <- b + y.
    # x0: f=0 -> w=(2,1), b=1; x1: f=3 -> w=(2,-1), b=0; x2: f=2 ok; x3: f=-3 ok; epoch 2 clean.
    X = np.array([[2.0, 1.0], [0.0, 2.0], [1.0, 0.0], [-1.0, 1.0]])
    y = np.array([1.0, -1.0, 1.0, -1.0])
    res = perceptron_primal(X, y, bias_update="unit")
    assert res.history.tolist() == [0, 1]
    assert res.w.tolist() == [2.0, -1.0] and res.b == 0.0
    assert (res.mistakes, res.epochs, res.converged) == (2, 2, True)


def test_primal_without_bias_hand_example():
    # x0=(1,2)+: w=(1,2); x1=(2,-1)+: f=0 -> w=(3,1); x2=(-1,1)-: f=-2 ok; epoch 2: 5, 5, -2.
    X = np.array([[1.0, 2.0], [2.0, -1.0], [-1.0, 1.0]])
    y = np.array([1.0, 1.0, -1.0])
    res = perceptron_primal(X, y, bias_update=None)
    assert res.history.tolist() == [0, 1]
    assert res.w.tolist() == [3.0, 1.0] and res.b == 0.0
    assert (res.mistakes, res.epochs) == (2, 2)


@pytest.mark.parametrize("bias_update", ["R2", "unit"])
def test_two_points_bias_costs_a_second_mistake(bias_update):
    # x = +1 and -1: without bias one mistake (w = 1); with a bias the first update gives
    # w = 1, b = 1 (R^2 = 1), so f(-1) = 0 is a second mistake, then w = 2, b = 0.
    X, y = np.array([[1.0], [-1.0]]), np.array([1.0, -1.0])
    assert perceptron_primal(X, y, bias_update=None).mistakes == 1
    res = perceptron_primal(X, y, bias_update=bias_update)
    assert res.history.tolist() == [0, 1] and res.w.tolist() == [2.0] and res.b == 0.0


def test_dual_hand_example():
    # Same run as test_primal_r2_hand_example: mistakes on points 0, 1, 2, 3 = 3, 3, 1, 2 times.
    res = perceptron_dual(linear_kernel(X1), Y1)
    assert isinstance(res, PerceptronDualResult)
    assert res.alpha.tolist() == [3.0, 3.0, 1.0, 2.0] and res.b == -16.0
    assert res.history.tolist() == [0, 1, 3, 0, 1, 2, 3, 0, 1]
    assert (res.mistakes, res.epochs, res.converged) == (9, 4, True)


def test_dual_decision_hand_example():
    # f(x) = sum_j alpha_j y_j x_j x - 16 = (9 - 3 + 4 - 4) x - 16 = 6 x - 16.
    x_test = np.array([[0.0], [2.0], [3.0]])
    res = perceptron_dual(linear_kernel(X1), Y1)
    assert res.alpha.tolist() == [3.0, 3.0, 1.0, 2.0] and res.b == -16.0
    f = perceptron_dual_predict(res, linear_kernel(x_test, X1))
    assert f.tolist() == [-16.0, -4.0, 2.0]


def test_xor_linear_perceptron_cycles_and_warns():
    # Every point of XOR is a mistake in every epoch and (w, b) is back to 0 after each epoch:
    # +(1,1) +(-1,-1) -(1,-1) -(-1,1) sum to 0 (bias: +1 +1 -1 -1 = 0).
    for bias_update in BIAS_UPDATES:
        with pytest.warns(ConvergenceWarning, match="max_epochs=7"):
            res = perceptron_primal(XOR, Y_XOR, max_epochs=7, bias_update=bias_update)
        assert not res.converged and res.epochs == 7 and res.mistakes == 28
        assert res.history.tolist() == [0, 1, 2, 3] * 7
        assert res.w.tolist() == [0.0, 0.0] and res.b == 0.0


@pytest.mark.parametrize(
    "K", [polynomial_kernel(XOR, degree=2, c=1.0), gaussian_kernel(XOR, sigma=1.0)]
)
def test_xor_kernel_perceptron_converges(K):
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        res = perceptron_dual(K, Y_XOR)
    f = perceptron_dual_predict(res, K)
    assert res.converged and np.all(Y_XOR * f > 0)


def test_results_are_frozen():
    res = perceptron_primal(X1, Y1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        res.b = 0.0
    dual = perceptron_dual(linear_kernel(X1), Y1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        dual.alpha = None


def test_criterion_hand_example():
    # w = 1, b = -1: margins y(x - 1) = (1)(1), (-1)(-1), (1)(-2) -> 1, 1, -2; D = 2.
    X = np.array([[2.0], [0.0], [-1.0]])
    y = np.array([1.0, -1.0, 1.0])
    assert perceptron_criterion([1.0], -1.0, X, y) == 2.0
    # gradient: only x = -1 is misclassified: -(y x, y) = -(-1, 1) = (1, -1)
    assert perceptron_criterion_gradient([1.0], -1.0, X, y).tolist() == [1.0, -1.0]


# --- properties -----------------------------------------------------------------------------


@given(integer_data(), st.sampled_from(BIAS_UPDATES), st.integers(1, 6))
def test_dual_with_linear_kernel_makes_the_primal_mistakes(data, bias_update, max_epochs):
    X, y = data
    primal = run_quietly(perceptron_primal, X, y, max_epochs=max_epochs, bias_update=bias_update)
    dual = run_quietly(
        perceptron_dual, linear_kernel(X), y, max_epochs=max_epochs, bias_update=bias_update
    )
    assert primal.history.tolist() == dual.history.tolist()
    assert (primal.epochs, primal.converged) == (dual.epochs, dual.converged)
    np.testing.assert_array_equal(primal.w, (dual.alpha * y) @ X)  # w = sum alpha_i y_i x_i
    assert primal.b == dual.b
    beta = {"R2": np.max(np.sum(X * X, axis=1)), "unit": 1.0, None: 0.0}[bias_update]
    assert dual.b == beta * np.sum(dual.alpha * y)
    assert dual.mistakes == dual.alpha.sum()
    assert np.array_equal(np.bincount(dual.history, minlength=len(y)), dual.alpha)


@given(integer_data(), st.sampled_from(BIAS_UPDATES), st.integers(-6, 6))
def test_learning_rate_scales_the_iterates_and_changes_no_mistake(data, bias_update, k):
    X, y = data
    eta = 2.0**k  # a power of 2: the scaling is exact in floating point
    ref = run_quietly(perceptron_primal, X, y, eta=1.0, max_epochs=4, bias_update=bias_update)
    res = run_quietly(perceptron_primal, X, y, eta=eta, max_epochs=4, bias_update=bias_update)
    assert res.history.tolist() == ref.history.tolist()
    np.testing.assert_array_equal(res.w, eta * ref.w)
    assert res.b == eta * ref.b


@given(integer_data(), st.integers(1, 5))
def test_biased_perceptron_is_homogeneous_perceptron_on_augmented_points(data, max_epochs):
    X, y = data
    # unit bias: augment with 1
    unit = run_quietly(perceptron_primal, X, y, max_epochs=max_epochs, bias_update="unit")
    aug = run_quietly(
        perceptron_primal, np.c_[X, np.ones(len(y))], y, max_epochs=max_epochs, bias_update=None
    )
    assert unit.history.tolist() == aug.history.tolist() and unit.b == aug.w[-1]
    # R^2 bias: augment with R; add a point (R, 0, ...) so that R is a whole number
    R = np.ceil(np.sqrt(np.max(np.sum(X * X, axis=1))))
    Xr = np.vstack([X, np.eye(X.shape[1])[0] * R])
    yr = np.append(y, 1.0)
    r2 = run_quietly(perceptron_primal, Xr, yr, max_epochs=max_epochs, bias_update="R2")
    aug = run_quietly(
        perceptron_primal, np.c_[Xr, np.full(len(yr), R)], yr, max_epochs=max_epochs,
        bias_update=None,
    )  # fmt: skip
    assert r2.history.tolist() == aug.history.tolist() and r2.b == R * aug.w[-1]


@given(integer_data(), st.sampled_from(BIAS_UPDATES))
def test_converged_run_separates_the_training_data(data, bias_update):
    X, y = data
    res = run_quietly(perceptron_primal, X, y, max_epochs=50, bias_update=bias_update)
    margins = y * (X @ res.w + res.b)
    assert res.converged == bool(np.all(margins > 0))
    assert res.mistakes == len(res.history) and res.epochs <= 50


@given(integer_data(max_n=8), st.floats(0.5, 3.0))
def test_dual_decision_at_training_points_matches_the_final_test(data, sigma):
    X, y = data
    K = gaussian_kernel(X, sigma=sigma)
    res = run_quietly(perceptron_dual, K, y, max_epochs=30)
    f = perceptron_dual_predict(res, K)
    np.testing.assert_allclose(f, K @ (res.alpha * y) + res.b, rtol=0, atol=1e-12)
    np.testing.assert_array_equal(res.y, y)
    np.testing.assert_array_equal(f, K @ (res.alpha * y) + res.b)  # the old formula, exactly
    if res.converged:
        assert np.all(y * f > 0)


@given(
    arrays(float, (6, 2), elements=st.floats(-3, 3)),
    arrays(float, 6, elements=st.sampled_from([-1.0, 1.0])),
    arrays(float, 2, elements=st.floats(-2, 2)),
    st.floats(-2, 2),
)
def test_criterion_gradient_matches_finite_differences(X, y, w, b):
    assume(abs(y.sum()) < len(y))
    margins = y * (X @ w + b)
    assume(np.all(np.abs(margins) > 1e-3))  # away from the corners of D
    h = 1e-6
    theta = np.append(w, b)
    fd = np.empty(3)
    for k in range(3):
        e = np.zeros(3)
        e[k] = h
        plus = perceptron_criterion((theta + e)[:2], (theta + e)[2], X, y)
        minus = perceptron_criterion((theta - e)[:2], (theta - e)[2], X, y)
        fd[k] = (plus - minus) / (2 * h)
    np.testing.assert_allclose(perceptron_criterion_gradient(w, b, X, y), fd, atol=1e-6)
    # D is the sum of the perceptron losses, -sum over the mistakes of the margins
    assert perceptron_criterion(w, b, X, y) == pytest.approx(-margins[margins < 0].sum())


# --- bad input ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "X, y, kwargs, match",
    [
        ([[np.nan], [1.0]], [1, -1], {}, "X"),
        ([[np.inf], [1.0]], [1, -1], {}, "X"),
        ([1.0, 2.0], [1, -1], {}, "X"),
        ([[1.0], [2.0]], [1, -1, 1], {}, "y"),
        ([[1.0], [2.0]], [0, 1], {}, "y"),
        ([[1.0], [2.0]], [1, 1], {}, "y"),
        ([[1.0], [2.0]], [1, np.nan], {}, "y"),
        ([[1.0], [2.0]], [1, -1], {"eta": 0.0}, "eta"),
        ([[1.0], [2.0]], [1, -1], {"eta": -1.0}, "eta"),
        ([[1.0], [2.0]], [1, -1], {"eta": np.nan}, "eta"),
        ([[1.0], [2.0]], [1, -1], {"max_epochs": 0}, "max_epochs"),
        ([[1.0], [2.0]], [1, -1], {"max_epochs": 2.5}, "max_epochs"),
        ([[1.0], [2.0]], [1, -1], {"max_epochs": True}, "max_epochs"),
        ([[1.0], [2.0]], [1, -1], {"bias_update": "r2"}, "bias_update"),
        ([[1.0], [2.0]], [1, -1], {"bias_update": "none"}, "bias_update"),
        ([[1.0], [2.0]], [1, -1], {"bias_update": 1}, "bias_update"),
    ],
)
def test_primal_rejects_bad_input(X, y, kwargs, match):
    with pytest.raises(ValueError, match=match):
        perceptron_primal(X, y, **kwargs)


@pytest.mark.parametrize(
    "K, y, kwargs, match",
    [
        ([[1.0, 0.0]], [1, -1], {}, "K"),
        ([[1.0, 0.5], [0.0, 1.0]], [1, -1], {}, "K"),
        ([[1.0, np.nan], [np.nan, 1.0]], [1, -1], {}, "K"),
        ([[1.0, 0.0], [0.0, 1.0]], [1, -1, 1], {}, "y"),
        ([[1.0, 0.0], [0.0, 1.0]], [2, -1], {}, "y"),
        ([[1.0, 0.0], [0.0, 1.0]], [1, -1], {"max_epochs": 0}, "max_epochs"),
        ([[1.0, 0.0], [0.0, 1.0]], [1, -1], {"bias_update": "R"}, "bias_update"),
    ],
)
def test_dual_rejects_bad_input(K, y, kwargs, match):
    with pytest.raises(ValueError, match=match):
        perceptron_dual(K, y, **kwargs)


@pytest.mark.parametrize(
    "K_test, match",
    [
        ([[1.0, 1.0, 1.0]], "^K_test"),
        ([[1.0, np.inf]], "^K_test"),
    ],
)
def test_dual_decision_rejects_bad_input(K_test, match):
    res = perceptron_dual([[1.0, 0.0], [0.0, 1.0]], [1, -1])
    with pytest.raises(ValueError, match=match):
        perceptron_dual_predict(res, K_test)
    with pytest.raises(TypeError, match=r"^result must be of type PerceptronDualResult"):
        perceptron_dual_predict(res.alpha, [[1.0, 1.0]])


def test_dual_result_keeps_its_own_copy_of_the_labels():
    y = Y1.copy()
    res = perceptron_dual(linear_kernel(X1), y)
    y[0] = -1.0
    assert res.y.tolist() == Y1.tolist()


@pytest.mark.parametrize("fun", [perceptron_criterion, perceptron_criterion_gradient])
@pytest.mark.parametrize(
    "args, match",
    [
        (([1.0, 2.0], 0.0, [[1.0], [2.0]], [1, -1]), "w"),
        (([1.0], np.inf, [[1.0], [2.0]], [1, -1]), "b"),
        (([1.0], 0.0, [[1.0], [np.nan]], [1, -1]), "X"),
        (([1.0], 0.0, [[1.0], [2.0]], [1, 0]), "y"),
    ],
)
def test_criterion_rejects_bad_input(fun, args, match):
    with pytest.raises(ValueError, match=match):
        fun(*args)


def test_inputs_are_not_modified():
    X, y = X1.copy(), Y1.copy()
    K = linear_kernel(X)
    K_copy = K.copy()
    perceptron_primal(X, y, eta=0.5)
    res = perceptron_dual(K, y)
    alpha = res.alpha.copy()
    perceptron_dual_predict(res, K)
    perceptron_criterion_gradient(np.array([1.0]), 0.0, X, y)
    assert np.array_equal(X, X1) and np.array_equal(y, Y1) and np.array_equal(K, K_copy)
    assert np.array_equal(res.alpha, alpha)


# --- the distance to a hyperplane ------------------------------------------------------------


@given(
    arrays(float, (5, 3), elements=st.floats(-10, 10)),
    arrays(float, 3, elements=st.floats(-10, 10)),
    st.floats(-10, 10),
)
def test_hyperplane_distance_is_the_distance_to_the_orthogonal_projection(X, w, b):
    assume(np.linalg.norm(w) > 1e-3)
    d = hyperplane_distance(X, w, b)
    # the projection p = x - (w.x + b) w / |w|^2 lies on H, and |x - p| is the distance
    P = X - np.outer((X @ w + b) / (w @ w), w)
    np.testing.assert_allclose(np.abs(P @ w + b), 0.0, atol=1e-9 * (1 + np.abs(X).max()) * 10)
    np.testing.assert_allclose(d, np.linalg.norm(X - P, axis=1), atol=1e-9)
    # no point of H is closer: move p along a direction orthogonal to w
    v = np.cross(w, [1.0, 2.0, 3.0])
    if np.linalg.norm(v) > 1e-6:
        Q = P + 0.5 * v / np.linalg.norm(v)
        assert np.all(np.linalg.norm(X - Q, axis=1) >= d - 1e-9)


@pytest.mark.parametrize("scale", [1e-200, 1e-150, 1e150, 1e200, 1e300])
def test_hyperplane_distance_does_not_depend_on_the_scale_of_w_and_b_even_at_extremes(scale):
    # (w, b) and s (w, b) are the same hyperplane; ||s w|| overflows or underflows when computed
    # directly at these s, the distance must not
    X = np.array([[3.0, 4.0], [0.0, 0.0], [-1.0, 2.0]])
    expected = hyperplane_distance(X, [3.0, 4.0], -5.0, signed=True)  # (20, -5, 0) / 5
    np.testing.assert_allclose(expected, [4.0, -1.0, 0.0], atol=1e-15)
    scaled = hyperplane_distance(X, [3.0 * scale, 4.0 * scale], -5.0 * scale, signed=True)
    np.testing.assert_allclose(scaled, expected, rtol=1e-14, atol=1e-15)


def test_hyperplane_distance_of_the_origin_is_abs_b_over_norm_w():
    # Rousseau: |b| / ||w||; the 3-4-5 triangle gives exact numbers
    assert hyperplane_distance([[0.0, 0.0]], [3.0, 4.0], -10.0)[0] == 2.0
    assert hyperplane_distance([[0.0, 0.0]], [3.0, 4.0], -10.0, signed=True)[0] == -2.0
    # scaling (w, b) leaves the hyperplane and the distances unchanged
    X = np.array([[1.0, 2.0], [-3.0, 0.5]])
    np.testing.assert_allclose(
        hyperplane_distance(X, [3.0, 4.0], -10.0), hyperplane_distance(X, [6.0, 8.0], -20.0)
    )


def test_hyperplane_distance_rejects_bad_input():
    with pytest.raises(ValueError, match=r"^w must not be zero"):
        hyperplane_distance([[1.0, 2.0]], [0.0, 0.0], 1.0)
    with pytest.raises(ValueError, match=r"^w "):
        hyperplane_distance([[1.0, 2.0]], [1.0, 2.0, 3.0], 1.0)
    with pytest.raises(ValueError, match=r"^b must"):
        hyperplane_distance([[1.0, 2.0]], [1.0, 2.0], np.nan)
    with pytest.raises(TypeError, match=r"^signed must be a bool"):
        hyperplane_distance([[1.0, 2.0]], [1.0, 2.0], 1.0, signed=1)
