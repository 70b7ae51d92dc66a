"""Tests of kernels_ref.model_selection: the splits (partition, sizes, stratification, seeds),
validation errors computed by hand and by an identity of leave-one-out, the grid searches
against curves prescribed in advance (with their tie rules), warm starts, and input checks.

The learners of most tests are made up so that their errors are known before the call: the
Gram matrix :math:`K = yy^\\top` (positive semi-definite, rank one) lets a "learner" read the
label of a validation point, :math:`y_a = K_{ai}y_i`, and then get a prescribed number of them
wrong.
"""

import dataclasses
import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from kernels_ref.exceptions import NotPSDWarning
from kernels_ref.kernels import gaussian_kernel, linear_kernel
from kernels_ref.model_selection import (
    GridSearchResult,
    grid_search,
    grid_search_C,
    grid_search_C_sigma,
    k_fold,
    median_heuristic_sigma,
    train_validation_split,
    validation_error,
)
from kernels_ref.ridge import kernel_ridge, kernel_ridge_predict
from kernels_ref.svm import soft_margin_l1, svm_predict


def labels(n_pos, n_neg):
    return np.r_[np.ones(n_pos), -np.ones(n_neg)]


def overlapping(seed, n, d=2, shift=0.8):
    rng = np.random.default_rng(seed)
    y = np.where(np.arange(n) % 2 == 0, 1.0, -1.0)
    return rng.standard_normal((n, d)) + shift * y[:, None], y


# --- splits -----------------------------------------------------------------------------------


def _check_partition(folds, n, k):
    validations = [v for _, v in folds]
    assert len(folds) == k
    assert sorted(np.concatenate(validations).tolist()) == list(range(n))  # disjoint, union
    for train, validation in folds:
        assert np.array_equal(np.sort(np.r_[train, validation]), np.arange(n))
        assert np.all(np.diff(train) > 0) and np.all(np.diff(validation) > 0)  # sorted
        assert train.dtype.kind == "i" and validation.dtype.kind == "i"
    sizes = [len(v) for v in validations]
    assert max(sizes) - min(sizes) <= 1
    assert set(sizes) <= {n // k, -(-n // k)}


@given(
    n=st.integers(2, 60),
    data=st.data(),
    seed=st.integers(0, 2**32 - 1),
)
def test_k_fold_partitions_the_indices_into_folds_of_sizes_differing_by_at_most_one(n, data, seed):
    k = data.draw(st.integers(2, n))
    _check_partition(k_fold(n, k, seed=seed), n, k)


@given(
    counts=st.lists(st.integers(1, 25), min_size=1, max_size=4),
    data=st.data(),
    seed=st.integers(0, 2**32 - 1),
)
def test_stratified_k_fold_keeps_the_class_proportions_within_one_point(counts, data, seed):
    k = data.draw(st.integers(2, max(2, min(counts))))
    counts = [max(c, k) for c in counts]  # every class has at least k members
    values = np.array([-1.0, 1.0, 2.5, 7.0])[: len(counts)]
    y = np.repeat(values, counts)
    y = y[np.random.default_rng(seed).permutation(len(y))]
    n = len(y)
    folds = k_fold(n, k, y=y, seed=seed)
    _check_partition(folds, n, k)
    for value, n_c in zip(values, counts, strict=True):
        per_fold = [int(np.sum(y[v] == value)) for _, v in folds]
        assert sum(per_fold) == n_c
        assert set(per_fold) <= {n_c // k, -(-n_c // k)}  # |count - n_c / k| < 1


def test_k_fold_by_hand():
    # n = 7, k = 3 unstratified: sizes 3, 2, 2 (positions 0, 3, 6 of the shuffle go to fold 0)
    folds = k_fold(7, 3, seed=5)
    assert [len(v) for _, v in folds] == [3, 2, 2]
    # two classes of 4 and 2 and k = 2: each fold gets 2 of the first and 1 of the second
    y = np.array([1, 1, 1, 1, -1, -1])
    for _, v in k_fold(6, 2, y=y, seed=3):
        assert sorted(y[v].tolist()) == [-1, 1, 1]
    # leave-one-out: n folds of one point each
    loo = k_fold(4, 4, seed=0)
    assert all(len(v) == 1 and len(t) == 3 for t, v in loo)
    assert sorted(int(v[0]) for _, v in loo) == [0, 1, 2, 3]


@given(n=st.integers(2, 40), seed=st.integers(0, 2**32 - 1), stratified=st.booleans())
def test_the_same_seed_gives_the_same_folds(n, seed, stratified):
    y = np.where(np.arange(n) < n // 2, 1.0, -1.0) if stratified and n >= 4 else None
    a, b = k_fold(n, 2, y=y, seed=seed), k_fold(n, 2, y=y, seed=seed)
    for (ta, va), (tb, vb) in zip(a, b, strict=True):
        assert np.array_equal(ta, tb) and np.array_equal(va, vb)


def test_a_generator_seed_is_drawn_from_like_the_int_that_made_it():
    # seed=3 shuffles with default_rng(3); a Generator passed as seed is used as it is, so one
    # generator gives a sequence of different splits
    rng = np.random.default_rng(3)
    first, second = k_fold(20, 4, seed=rng), k_fold(20, 4, seed=rng)
    same = k_fold(20, 4, seed=3)
    for (ta, va), (tb, vb) in zip(first, same, strict=True):
        assert np.array_equal(ta, tb) and np.array_equal(va, vb)
    assert not all(np.array_equal(a[1], b[1]) for a, b in zip(first, second, strict=True))
    _, validation = train_validation_split(20, 5, seed=np.random.default_rng(3))
    assert np.array_equal(validation, train_validation_split(20, 5, seed=3)[1])


def test_different_seeds_give_different_folds():
    folds = {tuple(k_fold(30, 3, seed=s)[0][1].tolist()) for s in range(10)}
    assert len(folds) > 1


@given(n=st.integers(2, 60), data=st.data(), seed=st.integers(0, 2**32 - 1))
def test_train_validation_split_is_a_split_of_the_requested_size(n, data, seed):
    m = data.draw(st.integers(1, n - 1))
    train, validation = train_validation_split(n, m, seed=seed)
    assert len(validation) == m and len(train) == n - m
    assert np.array_equal(np.sort(np.r_[train, validation]), np.arange(n))


@given(
    n_pos=st.integers(2, 30),
    n_neg=st.integers(2, 30),
    data=st.data(),
    seed=st.integers(0, 2**32 - 1),
)
def test_stratified_split_keeps_the_class_proportions_within_one_point(n_pos, n_neg, data, seed):
    y = labels(n_pos, n_neg)
    n = len(y)
    m = data.draw(st.integers(1, n - 1))
    _, validation = train_validation_split(n, m, y=y, seed=seed)
    assert len(validation) == m
    for n_c, value in ((n_pos, 1.0), (n_neg, -1.0)):
        share = n_c * m / n
        assert int(np.sum(y[validation] == value)) in {int(np.floor(share)), int(np.ceil(share))}


def test_train_validation_split_by_hand():
    # 6 + 4 points, 5 for validation: 3 of the first class and 2 of the second
    y = labels(6, 4)
    _, validation = train_validation_split(10, 5, y=y, seed=11)
    assert int(np.sum(y[validation] > 0)) == 3 and int(np.sum(y[validation] < 0)) == 2


# --- validation error -------------------------------------------------------------------------


def majority_fit(K, y):
    return np.sign(y.sum())


def constant_predict(result, K_val):
    return np.full(len(K_val), result)


def test_leave_one_out_error_of_the_majority_vote_by_hand():
    # y = (+1, +1, +1, -1). Leaving a +1 out, the others vote +1 (right); leaving the -1 out,
    # they vote +1 (wrong): 1 error in 4.
    y = np.array([1.0, 1.0, 1.0, -1.0])
    err = validation_error(np.eye(4), y, majority_fit, constant_predict, k_fold(4, 4))
    assert err == 0.25


def test_a_decision_value_of_zero_counts_as_a_mistake():
    # trained on one point of each class the vote is 0: both validation points are errors
    y = np.array([1.0, -1.0, 1.0, -1.0])
    err = validation_error(np.eye(4), y, majority_fit, constant_predict, [([0, 1], [2, 3])])
    assert err == 1.0


@given(
    t=st.lists(st.floats(-10, 10, allow_nan=False), min_size=3, max_size=15),
)
def test_leave_one_out_squared_error_of_the_mean_is_n2_over_n_minus_1_squared_times_variance(t):
    # predicting y_i by the mean of the others: y_i - (S - y_i)/(n - 1) = n (y_i - ybar)/(n - 1)
    y = np.array(t)
    n = len(y)

    def fit(K, y_train):
        return y_train.mean()

    err = validation_error(np.eye(n), y, fit, constant_predict, k_fold(n, n), loss="squared")
    expected = (n / (n - 1)) ** 2 * np.mean((y - y.mean()) ** 2)
    assert err == pytest.approx(expected, rel=1e-9, abs=1e-9)


def test_validation_error_of_a_separable_problem_is_zero_and_of_a_swapped_one_is_one():
    x = np.array([[0.0], [1.0], [2.0], [5.0], [6.0], [7.0]])
    y = labels(3, 3)[::-1]  # -1 for the three points on the left
    folds = k_fold(6, 3, y=y, seed=0)

    def fit(K, y):
        return soft_margin_l1(K, y, 10.0)

    K = linear_kernel(x)
    assert validation_error(K, y, fit, svm_predict, folds) == 0.0

    def swapped(result, K_val):
        return -svm_predict(result, K_val)

    assert validation_error(K, y, fit, swapped, folds) == 1.0


def test_validation_error_calls_the_learner_on_the_blocks_of_each_fold():
    X, y = overlapping(0, 9)
    K = gaussian_kernel(X, sigma=1.5)
    folds = k_fold(9, 3, y=y, seed=1)
    seen = []

    def fit(K_train, y_train):
        seen.append((K_train.copy(), y_train.copy()))
        return None

    def predict(result, K_val):
        seen.append(K_val.copy())
        return np.ones(len(K_val))

    validation_error(K, y, fit, predict, folds)
    for j, (train, validation) in enumerate(folds):
        K_train, y_train = seen[2 * j]
        assert np.array_equal(K_train, K[np.ix_(train, train)])
        assert np.array_equal(y_train, y[train])
        assert np.array_equal(seen[2 * j + 1], K[np.ix_(validation, train)])


# --- grid searches against prescribed curves ----------------------------------------------------


def flipping_learner(mistakes, by_sigma=False):
    """fit(K, y, C) / predict for K = c y y^T: predict the true labels of the validation points
    except the first ``mistakes[C]`` of them (``mistakes`` maps C to a count; with
    ``by_sigma``, it maps (sigma, C) to a count, for the Gram matrices gram(sigma) = sigma y y^T).
    """

    def fit(K, y, C):
        return C, y[0], K[0, 0]  # K_00 = c y_0^2 = c

    def predict(result, K_val):
        C, y0, c = result
        f = K_val[:, 0] * y0 / c  # = y_a
        f[: mistakes[(c, C) if by_sigma else C]] *= -1.0
        return f

    return fit, predict


@given(
    mistakes=st.lists(st.integers(0, 3), min_size=1, max_size=6),
    seed=st.integers(0, 2**32 - 1),
)
def test_grid_search_c_returns_the_prescribed_curve_and_its_first_minimum(mistakes, seed):
    y = labels(6, 6)
    y = y[np.random.default_rng(seed).permutation(12)]
    folds = k_fold(12, 3, y=y, seed=seed)  # 3 folds of 4 points
    C_grid = np.logspace(-2, 2, len(mistakes))
    fit, predict = flipping_learner(dict(zip(C_grid.tolist(), mistakes, strict=True)))
    res = grid_search_C(np.outer(y, y), y, fit, predict, C_grid, folds)
    expected = np.array([3 * m / 12 for m in mistakes])  # m mistakes in each of 3 folds
    np.testing.assert_allclose(res.errors, expected, rtol=0, atol=1e-15)
    first = int(np.flatnonzero(np.array(mistakes) == min(mistakes))[0])  # smallest C on ties
    assert res.index == first and res.C == C_grid[first]
    assert res.errors[res.index] == res.errors.min()
    assert res.n_validation == 12 and res.loss == "misclassification"
    assert res.sigma is None and res.sigma_grid is None


def test_grid_search_c_tie_rule_takes_the_smallest_c():
    y = labels(3, 3)
    fit, predict = flipping_learner({0.1: 1, 1.0: 0, 10.0: 0, 100.0: 1})
    res = grid_search_C(np.outer(y, y), y, fit, predict, [0.1, 1.0, 10.0, 100.0], k_fold(6, 3))
    assert res.index == 1 and res.C == 1.0


@given(
    mistakes=st.lists(st.lists(st.integers(0, 2), min_size=3, max_size=3), min_size=1, max_size=4),
)
def test_grid_search_c_sigma_returns_the_prescribed_surface_and_its_tie_rule(mistakes):
    # errors[i, j] = mistakes[i][j] per fold; choice: smallest C, then largest sigma
    y = labels(4, 4)
    sigma_grid = np.arange(1.0, len(mistakes) + 1.0)
    C_grid = np.array([0.5, 5.0, 50.0])
    table = {(s, C): mistakes[i][j] for i, s in enumerate(sigma_grid) for j, C in enumerate(C_grid)}
    fit, predict = flipping_learner(table, by_sigma=True)
    folds = k_fold(8, 2, y=y, seed=0)  # 2 folds of 4 points
    res = grid_search_C_sigma(
        lambda s: s * np.outer(y, y), y, fit, predict, C_grid, sigma_grid, folds
    )
    expected = 2 * np.array(mistakes, dtype=float) / 8
    np.testing.assert_allclose(res.errors, expected, rtol=0, atol=1e-15)
    best = np.array(mistakes) == np.min(mistakes)
    j = int(np.flatnonzero(best.any(axis=0))[0])
    i = int(np.flatnonzero(best[:, j])[-1])
    assert res.index == (i, j) and res.C == C_grid[j] and res.sigma == sigma_grid[i]


def test_grid_search_c_sigma_tie_rule_by_hand():
    y = labels(2, 2)
    table = {(1.0, 1.0): 1, (1.0, 10.0): 0, (2.0, 1.0): 0, (2.0, 10.0): 0, (3.0, 1.0): 0}
    table[3.0, 10.0] = 1
    fit, predict = flipping_learner(table, by_sigma=True)
    res = grid_search_C_sigma(
        lambda s: s * np.outer(y, y), y, fit, predict, [1.0, 10.0], [1.0, 2.0, 3.0], k_fold(4, 2)
    )
    # minimal error 0 at (2, 1), (3, 1), (1, 10), (2, 10): smallest C = 1, then largest sigma = 3
    assert res.index == (2, 0) and res.C == 1.0 and res.sigma == 3.0


def test_grid_search_c_equals_validation_error_at_each_c():
    X, y = overlapping(4, 24)
    K = gaussian_kernel(X, sigma=1.0)
    folds = k_fold(24, 4, y=y, seed=2)
    C_grid = [0.1, 1.0, 10.0]
    res = grid_search_C(K, y, soft_margin_l1, svm_predict, C_grid, folds)
    for j, C in enumerate(C_grid):
        err = validation_error(K, y, lambda K, y, C=C: soft_margin_l1(K, y, C), svm_predict, folds)
        assert res.errors[j] == err


# --- warm starts --------------------------------------------------------------------------------


def test_warm_start_passes_the_previous_result_of_the_same_fold():
    y = labels(3, 3)
    calls = []

    def fit(K, y_train, C, previous):
        calls.append((len(calls), C, previous))
        return len(calls) - 1  # the result is the number of the call

    def predict(result, K_val):
        return np.ones(len(K_val))

    folds = k_fold(6, 3, y=y)
    grid_search_C(np.outer(y, y), y, fit, predict, [1.0, 2.0, 4.0], folds, warm_start=True)
    # fold by fold, C in increasing order; previous = the call before on the same fold
    assert [(C, prev) for _, C, prev in calls] == [
        (1.0, None), (2.0, 0), (4.0, 1),
        (1.0, None), (2.0, 3), (4.0, 4),
        (1.0, None), (2.0, 6), (4.0, 7),
    ]  # fmt: skip


def _warm_fit(K, y, C, previous):
    return soft_margin_l1(K, y, C, alpha0=None if previous is None else previous.alpha)


@given(seed=st.integers(0, 2**32 - 1), sigma=st.sampled_from([0.5, 1.0, 2.0]))
def test_a_warm_started_svm_is_the_svm(seed, sigma):
    X, y = overlapping(seed, 30)
    K = gaussian_kernel(X, sigma=sigma)
    previous = None
    for C in (0.1, 1.0, 10.0):
        warm = _warm_fit(K, y, C, previous)
        cold = soft_margin_l1(K, y, C)
        # same dual objective (the dual has a unique optimal value) to the solver's tolerance
        assert warm.dual_objective == pytest.approx(cold.dual_objective, rel=1e-6, abs=1e-9)
        assert warm.kkt_violation <= 1e-7
        f_warm, f_cold = svm_predict(warm, K), svm_predict(cold, K)
        np.testing.assert_allclose(f_warm, f_cold, atol=1e-4 * (1 + np.abs(f_cold).max()))
        previous = warm


def test_warm_and_cold_grid_searches_give_the_same_curve():
    X, y = overlapping(7, 40)
    K = gaussian_kernel(X, sigma=1.0)
    folds = k_fold(40, 4, y=y, seed=0)
    C_grid = np.logspace(-2, 2, 5)
    cold = grid_search_C(K, y, soft_margin_l1, svm_predict, C_grid, folds)
    warm = grid_search_C(K, y, _warm_fit, svm_predict, C_grid, folds, warm_start=True)
    assert np.array_equal(cold.errors, warm.errors) and cold.index == warm.index


# --- a real search --------------------------------------------------------------------------------


def test_grid_search_c_sigma_on_a_ring_prefers_a_gaussian_that_separates_it():
    rng = np.random.default_rng(0)
    r = np.r_[rng.uniform(0, 1, 40), rng.uniform(2, 3, 40)]
    t = rng.uniform(0, 2 * np.pi, 80)
    X = np.c_[r * np.cos(t), r * np.sin(t)]
    y = labels(40, 40)
    folds = k_fold(80, 4, y=y, seed=0)
    res = grid_search_C_sigma(
        lambda s: gaussian_kernel(X, sigma=s),
        y,
        soft_margin_l1,
        svm_predict,
        [0.1, 10.0],
        [0.01, 1.0],
        folds,
    )
    # sigma = 0.01: every kernel value between distinct points underflows to about 0, the SVM
    # cannot generalise; sigma = 1 separates the disk from the ring with either C, and the tie
    # rule takes the smaller
    assert res.errors[0].min() >= 0.25 and np.all(res.errors[1] == 0.0)
    assert res.sigma == 1.0 and res.C == 0.1 and res.errors.shape == (2, 2)


# --- the result, validation once, bad input -------------------------------------------------------


def test_result_is_frozen_with_a_one_line_repr():
    y = labels(3, 3)
    fit, predict = flipping_learner({1.0: 0, 2.0: 1})
    res = grid_search_C(np.outer(y, y), y, fit, predict, [1.0, 2.0], k_fold(6, 2))
    assert isinstance(res, GridSearchResult)
    with pytest.raises(dataclasses.FrozenInstanceError):
        res.C = 3.0
    assert repr(res).startswith(
        "GridSearchResult(chosen={'C': 1.0}, param='C', grid=<array (2,) float64>, best=1, "
        "more_regularised='smaller', errors=<array (2,) float64>, "
        "fold_errors=<array (2, 2) float64>"
    )
    assert "\n" not in repr(res)


def test_the_full_gram_matrix_is_tested_once_and_warns_once(psd_tests):
    X, y = overlapping(1, 12)
    K = gaussian_kernel(X, sigma=2.0) - 0.05 * np.eye(12)  # not PSD
    folds = k_fold(12, 3, y=y, seed=0)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        grid_search_C(K, y, soft_margin_l1, svm_predict, [0.1, 1.0], folds)
    not_psd = [w for w in caught if w.category is NotPSDWarning]
    assert len(not_psd) == 1 and str(not_psd[0].message).startswith("K is not")
    assert psd_tests.count(12) == 1 and all(size == 8 for size in psd_tests[1:])


Y6 = labels(3, 3)
K6 = np.outer(Y6, Y6) + np.eye(6)
FOLDS6 = k_fold(6, 3, y=Y6, seed=0)


@pytest.mark.parametrize(
    ("call", "exception", "pattern"),
    [
        (lambda: k_fold(5, 1), ValueError, r"^n_folds must lie in \[2, 5\]"),
        (lambda: k_fold(5, 6), ValueError, r"^n_folds must lie in \[2, 5\]"),
        (lambda: k_fold(1, 2), ValueError, r"^n must lie in \[2, inf\]"),
        (lambda: k_fold(6, 3, y=labels(4, 2)), ValueError, r"^y: class -1 has 2 member\(s\)"),
        (lambda: k_fold(6, 2, y=labels(4, 2)[:5]), ValueError, r"^y must have 6 rows"),
        (lambda: k_fold(6, 2, seed=-1), ValueError, r"^seed must lie in"),
        (lambda: k_fold(6, 2, seed=1.5), ValueError, r"^seed must be None, an integer >= 0 or"),
        (lambda: train_validation_split(5, 5), ValueError, r"^n_validation must lie in \[1, 4\]"),
        (lambda: train_validation_split(5, 0), ValueError, r"^n_validation must lie in"),
        (
            lambda: train_validation_split(5, 2, y=[1, 1, 1, 1, -1]),
            ValueError,
            r"^y: class -1 has 1 member",
        ),
        (
            lambda: validation_error(K6, Y6, "fit", constant_predict, FOLDS6),
            ValueError,
            r"^fit must be callable",
        ),
        (
            lambda: validation_error(K6, Y6, majority_fit, None, FOLDS6),
            ValueError,
            r"^predict must be callable",
        ),
        (
            lambda: validation_error(K6, Y6, majority_fit, constant_predict, FOLDS6, loss="0/1"),
            ValueError,
            r"^loss must be one of",
        ),
        (
            lambda: validation_error(K6, Y6, majority_fit, lambda r, K: np.ones(3), FOLDS6),
            ValueError,
            r"^predict\(result, K_val\) must have 2 rows",
        ),
        (
            lambda: validation_error(K6, Y6, majority_fit, lambda r, K: np.full(2, np.nan), FOLDS6),
            ValueError,
            r"^predict\(result, K_val\) contains NaN",
        ),
        (
            lambda: validation_error(K6, 2 * Y6, majority_fit, constant_predict, FOLDS6),
            ValueError,
            r"^y must contain only -1 and \+1",
        ),
    ],
)
def test_bad_arguments_name_the_argument(call, exception, pattern):
    with pytest.raises(exception, match=pattern):
        call()


@pytest.mark.parametrize(
    ("folds", "pattern"),
    [
        ([], r"^folds must be a non-empty iterable .* got none"),
        (iter([]), r"^folds must be a non-empty iterable .* exhausted generator"),
        (np.zeros((2, 3), dtype=int), r"^folds must be a non-empty iterable .* got ndarray"),
        (3, r"^folds must be a non-empty iterable .* cv.split\(X, y\)\), got int"),
        ((np.arange(3), np.arange(3, 6)), r"^folds must contain .* pass \[\(train, validation\)\]"),
        ([(np.arange(3),)], r"^folds must contain \(train, validation\) pairs"),
        ([([0, 1, 2], [3, 4, 6])], r"^folds: the validation indices must lie in \[0, 6\)"),
        ([([0, 1, -1], [3, 4])], r"^folds: the train indices must lie in \[0, 6\)"),
        ([([0, 1, 2], [2, 3])], r"^folds: a validation set shares indices"),
        ([([0, 1, 2], [])], r"^folds: a validation set is empty"),
        ([([0, 0, 1], [3, 4])], r"^folds: a train set repeats an index"),
        ([([0.0, 1.0], [3.0, 4.0])], r"^folds: the train indices must be a 1-D array of integers"),
        ([(np.ones(6, bool), [3])], r"^folds: the train indices must be a 1-D array of integers"),
    ],
)
def test_bad_folds_are_rejected(folds, pattern):
    with pytest.raises(ValueError, match=pattern):
        validation_error(K6, Y6, majority_fit, constant_predict, folds)


@pytest.mark.parametrize(
    ("grid", "pattern"),
    [
        ([1.0, 0.0], r"^C_grid must contain positive numbers"),
        ([-1.0, 1.0], r"^C_grid must contain positive numbers"),
        ([1.0, np.inf], r"^C_grid contains NaN or infinite values"),
        ([1.0, np.nan], r"^C_grid contains NaN or infinite values"),
        ([1.0, 1.0], r"^C_grid must be strictly increasing"),
        ([10.0, 1.0], r"^C_grid must be strictly increasing"),
        ([], r"^C_grid must not be empty"),
        (1.0, r"^C_grid must be 1-dimensional"),
    ],
)
def test_bad_c_grids_are_rejected(grid, pattern):
    with pytest.raises(ValueError, match=pattern):
        grid_search_C(K6, Y6, soft_margin_l1, svm_predict, grid, FOLDS6)


def test_bad_arguments_of_the_sigma_search():
    def gram(s):
        return s * K6

    fit, predict = soft_margin_l1, svm_predict
    with pytest.raises(ValueError, match=r"^gram must be callable"):
        grid_search_C_sigma(K6, Y6, fit, predict, [1.0], [1.0], FOLDS6)
    with pytest.raises(ValueError, match=r"^sigma_grid must contain positive numbers"):
        grid_search_C_sigma(gram, Y6, fit, predict, [1.0], [0.0, 1.0], FOLDS6)
    with pytest.raises(ValueError, match=r"^gram\(2\) must be 6 x 6"):
        grid_search_C_sigma(
            lambda s: K6 if s == 1.0 else K6[:5, :5], Y6, fit, predict, [1.0], [1.0, 2.0], FOLDS6
        )
    with pytest.raises(ValueError, match=r"^gram\(1\) must be symmetric"):
        grid_search_C_sigma(lambda s: np.triu(K6), Y6, fit, predict, [1.0], [1.0], FOLDS6)
    with pytest.raises(TypeError, match=r"^warm_start must be a bool"):
        grid_search_C_sigma(gram, Y6, fit, predict, [1.0], [1.0], FOLDS6, warm_start=1)


def test_warm_start_must_be_a_bool():
    with pytest.raises(TypeError, match=r"^warm_start must be a bool"):
        grid_search_C(K6, Y6, soft_margin_l1, svm_predict, [1.0], FOLDS6, warm_start="yes")


# --- any iterable of folds ------------------------------------------------------------------------


def test_a_scikit_learn_splitter_generator_gives_the_search_of_its_list():
    from sklearn.model_selection import StratifiedKFold

    X, y = overlapping(3, 30)
    K = gaussian_kernel(X, sigma=1.0)
    cv = StratifiedKFold(n_splits=3, shuffle=True, random_state=0)
    as_list = list(cv.split(X, y))
    from_generator = grid_search_C(
        K, y, soft_margin_l1, svm_predict, [0.1, 1.0, 10.0], cv.split(X, y)
    )
    from_list = grid_search_C(K, y, soft_margin_l1, svm_predict, [0.1, 1.0, 10.0], as_list)
    assert np.array_equal(from_generator.errors, from_list.errors)
    assert np.array_equal(from_generator.fold_errors, from_list.fold_errors)
    assert from_generator.n_validation == 30 and from_generator.fold_errors.shape == (3, 3)
    # a generator of the package's own folds, and validation_error on one
    folds = k_fold(30, 3, y=y, seed=0)
    fit = lambda K, y: soft_margin_l1(K, y, 1.0)  # noqa: E731
    assert validation_error(K, y, fit, svm_predict, (pair for pair in folds)) == (
        validation_error(K, y, fit, svm_predict, folds)
    )


def test_a_bad_pair_in_a_generator_is_named():
    y = labels(3, 3)
    folds = (pair for pair in [([0, 1, 2], [3, 4]), ([0, 1], [1, 5])])
    with pytest.raises(ValueError, match=r"^folds: a validation set shares indices"):
        validation_error(np.outer(y, y), y, majority_fit, constant_predict, folds)


# --- any parameter, its direction, the spread across folds, refit --------------------------------


def indexed_learner(wrong, param="C"):
    """fit(K, y, **{param: v}) / predict for K = u u^T with u_i = i + 1: predict the true label
    of validation point i, except for the points of ``wrong[v]``."""

    def fit(K, y_train, **kw):
        (value,) = kw.values()
        assert list(kw) == [param]
        return value, np.sqrt(K[0, 0])  # u of the first training point

    def make_predict(y):
        def predict(result, K_val):
            value, u0 = result
            index = np.rint(K_val[:, 0] / u0).astype(int) - 1
            return np.where(np.isin(index, list(wrong[value])), -y[index], y[index])

        return predict

    return fit, make_predict


@given(
    wrong=st.lists(st.sets(st.integers(0, 11), max_size=5), min_size=1, max_size=5),
    seed=st.integers(0, 2**32 - 1),
    direction=st.sampled_from(["smaller", "larger"]),
)
def test_grid_search_gives_each_folds_error_their_spread_and_the_choice_of_its_direction(
    wrong, seed, direction
):
    y = labels(6, 6)
    y = y[np.random.default_rng(seed).permutation(12)]
    u = np.arange(1.0, 13.0)
    grid = np.logspace(-2, 2, len(wrong))
    table = dict(zip(grid.tolist(), wrong, strict=True))
    fit, make_predict = indexed_learner(table, param="lam")
    folds = k_fold(12, 3, y=y, seed=seed)  # 3 folds of 4 points
    res = grid_search(
        np.outer(u, u),
        y,
        fit,
        make_predict(y),
        grid,
        folds,
        param="lam",
        more_regularised=direction,
    )
    # each fold's error: the share of its validation points in the wrong set
    expected = np.array([[len(w & set(v.tolist())) / 4 for _, v in folds] for w in wrong])
    np.testing.assert_allclose(res.fold_errors, expected, rtol=0, atol=1e-15)
    np.testing.assert_allclose(res.errors, [len(w) / 12 for w in wrong], rtol=0, atol=1e-15)
    np.testing.assert_allclose(res.fold_mean, res.errors, rtol=0, atol=1e-15)  # equal folds
    np.testing.assert_allclose(
        res.fold_std, [np.sqrt(np.mean((e - e.mean()) ** 2)) for e in expected], atol=1e-15
    )
    counts = [len(w) for w in wrong]
    minima = np.flatnonzero(np.array(counts) == min(counts))
    chosen = minima[0] if direction == "smaller" else minima[-1]
    assert res.index == chosen and res.best == grid[chosen]
    assert res.param == "lam" and res.more_regularised == direction
    assert res.C is None and res.C_grid is None


def test_the_tie_goes_to_the_largest_lambda_and_to_the_smallest_c():
    y = labels(3, 3)
    u = np.arange(1.0, 7.0)
    table = {0.1: {0}, 1.0: set(), 10.0: set(), 100.0: {5}}
    fit, make_predict = indexed_learner(table, param="lam")
    grid, folds = [0.1, 1.0, 10.0, 100.0], k_fold(6, 3, y=y)
    by_lam = grid_search(
        np.outer(u, u), y, fit, make_predict(y), grid, folds, param="lam", more_regularised="larger"
    )
    assert by_lam.best == 10.0 and by_lam.index == 2
    fit, make_predict = indexed_learner(table, param="C")
    by_C = grid_search_C(np.outer(u, u), y, fit, make_predict(y), grid, folds)
    assert by_C.best == by_C.C == 1.0 and by_C.index == 1 and by_C.more_regularised == "smaller"


def test_grid_search_of_c_is_grid_search_c():
    X, y = overlapping(5, 24)
    K = gaussian_kernel(X, sigma=1.0)
    folds = k_fold(24, 4, y=y, seed=1)
    a = grid_search_C(K, y, soft_margin_l1, svm_predict, [0.1, 1.0, 10.0], folds)
    b = grid_search(
        K, y, soft_margin_l1, svm_predict, [0.1, 1.0, 10.0], folds, param="C",
        more_regularised="smaller",
    )  # fmt: skip
    assert np.array_equal(a.errors, b.errors) and np.array_equal(a.fold_errors, b.fold_errors)
    assert a.index == b.index and a.best == b.best


def test_a_search_of_lambda_for_kernel_ridge_regression():
    rng = np.random.default_rng(0)
    X = rng.uniform(-3, 3, size=(40, 1))
    y = np.sin(X[:, 0]) + 0.3 * rng.standard_normal(40)
    K = gaussian_kernel(X, sigma=1.0)
    folds = k_fold(40, 5, seed=0)
    grid = np.logspace(-6, 4, 11)
    res = grid_search(
        K, y, kernel_ridge, kernel_ridge_predict, grid, folds, param="lam",
        more_regularised="larger", loss="squared",
    )  # fmt: skip
    for j, lam in enumerate(grid):  # each error is validation_error's at that lambda
        fit = lambda K, y, lam=lam: kernel_ridge(K, y, lam)  # noqa: E731
        assert res.errors[j] == pytest.approx(
            validation_error(K, y, fit, kernel_ridge_predict, folds, loss="squared"), rel=1e-12
        )
    # lambda = 1e4 predicts about 0: its error is about the mean square of y; neither end wins
    assert 0 < res.index < 10 and res.errors[-1] > 2 * res.errors[res.index]
    assert np.all(res.fold_std > 0)


def test_refit_is_the_learner_at_the_choice_on_all_the_data():
    X, y = overlapping(6, 30)
    K = gaussian_kernel(X, sigma=1.0)
    folds = k_fold(30, 3, y=y, seed=0)
    res = grid_search_C(K, y, soft_margin_l1, svm_predict, [0.01, 1.0, 100.0], folds)
    fitted = res.refit(K, y)
    direct = soft_margin_l1(K, y, res.C)
    assert np.array_equal(fitted.alpha, direct.alpha) and fitted.b == direct.b
    with pytest.raises(TypeError, match=r"^K must be the Gram matrix of all the points"):
        res.refit(lambda s: K, y)


def test_refit_after_the_sigma_search_takes_gram_or_the_matrix():
    X, y = overlapping(8, 24)
    gram = lambda s: gaussian_kernel(X, sigma=s)  # noqa: E731
    folds = k_fold(24, 3, y=y, seed=0)
    res = grid_search_C_sigma(gram, y, soft_margin_l1, svm_predict, [0.1, 10.0], [0.3, 3.0], folds)
    by_gram, by_matrix = res.refit(gram, y), res.refit(gram(res.sigma), y)
    direct = soft_margin_l1(gaussian_kernel(X, sigma=res.sigma), y, res.C)
    assert np.array_equal(by_gram.alpha, direct.alpha) and np.array_equal(
        by_matrix.alpha, direct.alpha
    )
    assert res.fold_errors.shape == (2, 2, 3) and res.fold_std.shape == (2, 2)


@pytest.mark.parametrize(
    ("kwargs", "pattern"),
    [
        ({"param": 3}, r"^param must be the name of fit's parameter"),
        ({"param": "C value"}, r"^param must be the name"),
        ({"more_regularised": "up"}, r"^more_regularised must be one of \('smaller', 'larger'\)"),
        ({"grid": [1.0, 1.0]}, r"^grid must be strictly increasing"),
    ],
)
def test_bad_arguments_of_grid_search(kwargs, pattern):
    args = {"param": "C", "more_regularised": "smaller", "grid": [0.1, 1.0]}
    args.update(kwargs)
    grid = args.pop("grid")
    with pytest.raises(ValueError, match=pattern):
        grid_search(K6, Y6, soft_margin_l1, svm_predict, grid, FOLDS6, **args)


def test_grid_search_accepts_zero_and_negative_values():
    # epsilon = 0 of an SVR is a value like any other: the grid need not be positive
    res = grid_search(
        K6, Y6, lambda K, y, shift: shift, lambda r, K: np.full(len(K), 1.0 + r),
        [-2.0, 0.0], FOLDS6, param="shift", more_regularised="smaller",
    )  # fmt: skip
    assert res.errors[0] == 0.5 and res.errors[1] == 0.5 and res.best == -2.0


# --- the median heuristic -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("X", "sigma"),
    [
        ([[0.0], [1.0], [3.0]], 2.0),  # distances 1, 2, 3
        ([[0.0], [1.0], [3.0], [7.0]], 3.5),  # 1, 2, 3, 4, 6, 7: the mean of 3 and 4
        ([[0.0, 0.0], [2.0, 0.0], [0.0, 2.0], [2.0, 2.0]], 2.0),  # square: 4 sides, 2 diagonals
        ([[0.0, 0.0], [1.0, 0.0], [0.5, np.sqrt(3) / 2]], 1.0),  # equilateral triangle
        ([[1.0, 2.0], [4.0, 6.0]], 5.0),  # one pair: a 3-4-5 triangle
        ([[0.0], [0.0], [1.0]], 1.0),  # 0, 1, 1: a repeated point is a pair at distance 0
    ],
)
def test_median_heuristic_by_hand(X, sigma):
    assert median_heuristic_sigma(X) == pytest.approx(sigma, rel=1e-14)


@given(
    n=st.integers(2, 12),
    d=st.integers(1, 4),
    seed=st.integers(0, 2**32 - 1),
    c=st.floats(-100, 100).filter(lambda c: abs(c) > 1e-3),
)
def test_median_heuristic_is_the_median_distance_and_moves_with_the_points(n, d, seed, c):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    distances = [np.linalg.norm(X[i] - X[j]) for i in range(n) for j in range(i + 1, n)]
    sigma = median_heuristic_sigma(X)
    assert sigma == pytest.approx(np.median(distances), rel=1e-12)
    assert median_heuristic_sigma(X[rng.permutation(n)]) == pytest.approx(sigma, rel=1e-12)
    shift = 100 * rng.standard_normal(d)
    assert median_heuristic_sigma(X + shift) == pytest.approx(sigma, rel=1e-10)
    assert median_heuristic_sigma(c * X) == pytest.approx(abs(c) * sigma, rel=1e-12)


def test_median_heuristic_refuses_one_point_and_a_zero_median():
    with pytest.raises(ValueError, match=r"^X must have at least 2 rows"):
        median_heuristic_sigma([[1.0, 2.0]])
    with pytest.raises(ValueError, match=r"^X: the median distance between its rows is 0"):
        median_heuristic_sigma([[0.0], [0.0], [0.0], [0.0], [1.0]])  # 6 pairs at 0, 4 at 1


# --- the README's quick start ---------------------------------------------------------------------


def test_the_readme_model_selection_round_trip_runs_as_printed():
    from pathlib import Path

    text = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    blocks = text.split("```python\n")[1:]
    code = [block.split("```")[0] for block in blocks]
    round_trip = [c for c in code if "refit" in c]
    assert len(round_trip) == 1
    lines = [
        line for line in round_trip[0].splitlines() if line and not line.startswith(("from", "#"))
    ]
    assert len(lines) <= 6 and any("grid_search" in line for line in lines)
    namespace = {}
    for block in code[: code.index(round_trip[0]) + 1]:  # the blocks before it define X, y, T
        exec(block, namespace)
    search, fit, f = namespace["search"], namespace["fit"], namespace["f"]
    K, y = namespace["K"], namespace["y"]
    assert search.C in search.C_grid and f.shape == (5,)
    assert np.array_equal(fit.alpha, soft_margin_l1(K, y, search.C).alpha)
