"""Errors that teach: each mistake that a habit from elsewhere provokes gets an error that names
the argument, says what was expected and how to get it; each test follows the hint literally
and checks that it then works. And the conventions of scikit-learn and libsvm, stated in the
docstrings, checked against scikit-learn at the converted parameters.
"""

import re

import numpy as np
import pytest

from kernels_ref import _validation, model_selection
from kernels_ref.clustering import kernel_kmeans
from kernels_ref.kernels import gaussian_kernel, polynomial_kernel
from kernels_ref.ridge import kernel_ridge, kernel_ridge_predict
from kernels_ref.svm import soft_margin_l1, svm_predict
from kernels_ref.svr import svr, svr_predict

RNG = np.random.default_rng(0)
X = RNG.normal(size=(30, 2))
X_TEST = RNG.normal(size=(7, 2))
Y = np.where(X[:, 0] + 0.3 * X[:, 1] > 0, 1.0, -1.0)
T = np.sin(X[:, 0]) + 0.1 * X[:, 1] + 3.0  # real targets, far from 0
K = gaussian_kernel(X, sigma=1.0)
K_TEST = gaussian_kernel(X_TEST, X, sigma=1.0)


def _message(excinfo):
    return str(excinfo.value)


# --- labels -------------------------------------------------------------------------------


def test_labels_0_1_hint_2y_minus_1_works():
    y01 = (Y > 0).astype(float)
    with pytest.raises(ValueError, match=r"^y must contain only -1 and \+1") as exc:
        soft_margin_l1(K, y01, 1.0)
    assert "2 * y - 1" in _message(exc) and "CSVC" in _message(exc)
    y = 2 * y01 - 1  # the hint, literally
    np.testing.assert_array_equal(soft_margin_l1(K, y, 1.0).y, Y)


def test_labels_0_1_hint_csvc_maps_any_labels():
    from kernels_ref.estimators import CSVC

    y01 = (Y > 0).astype(int)
    clf = CSVC(C=1.0, kernel="gaussian", sigma=1.0).fit(X, y01)  # 1 is the class +1
    np.testing.assert_array_equal(clf.classes_, [0, 1])
    # support_ lists the class -1 first, as libsvm does
    np.testing.assert_array_equal(np.sort(clf.support_), soft_margin_l1(K, Y, 1.0).support)


def test_two_other_labels_hint_np_where_works():
    y12 = np.where(Y > 0, 2.0, 1.0)
    with pytest.raises(ValueError, match=r"^y must contain only") as exc:
        soft_margin_l1(K, y12, 1.0)
    assert "np.where(y == b, 1.0, -1.0)" in _message(exc)
    b = 2.0
    y = np.where(y12 == b, 1.0, -1.0)  # the hint, literally
    np.testing.assert_array_equal(soft_margin_l1(K, y, 1.0).y, Y)


def test_real_targets_as_labels_hint_regression_and_squared_loss_work():
    with pytest.raises(ValueError, match=r"^y must contain only -1 and \+1") as exc:
        soft_margin_l1(K, T, 1.0)
    message = _message(exc)
    assert "real-valued targets" in message
    assert "ridge.kernel_ridge" in message and "svr.svr" in message
    assert 'loss="squared"' in message
    kernel_ridge(K, T, 0.1)
    svr(K, T, 1.0, 0.1)
    folds = model_selection.k_fold(len(T), 3, seed=0)
    with pytest.raises(ValueError, match=r"^y must contain only -1 and \+1"):
        model_selection.validation_error(K, T, _ridge_fit, kernel_ridge_predict, folds)
    error = model_selection.validation_error(
        K, T, _ridge_fit, kernel_ridge_predict, folds, loss="squared"
    )
    assert 0.0 <= error < np.var(T)  # better than the mean of the training targets


def _ridge_fit(K, y):
    return kernel_ridge(K, y - 0.0, 0.1)


# --- X in place of K ----------------------------------------------------------------------


def test_data_in_place_of_a_gram_matrix_hint_gaussian_kernel_works():
    with pytest.raises(ValueError, match=r"^K must be square, got shape \(30, 2\)") as exc:
        soft_margin_l1(X, Y, 1.0)
    message = _message(exc)
    assert "looks like a data matrix X of 30 points in 2 dimensions" in message
    hint = "K = kernels_ref.kernels.gaussian_kernel(X, sigma=1.0)"
    assert hint in message
    K = gaussian_kernel(X, sigma=1.0)  # the hint, literally
    assert soft_margin_l1(K, Y, 1.0).converged


def test_square_data_in_place_of_a_gram_matrix_hint_gaussian_kernel_works():
    X2 = X[:2]  # two points in two dimensions: a square matrix that is not symmetric
    y2 = np.array([1.0, -1.0])
    with pytest.raises(ValueError, match=r"^K must be symmetric") as exc:
        soft_margin_l1(X2, y2, 1.0)
    assert "if this is a data matrix X" in _message(exc)
    assert "gaussian_kernel(X, sigma=1.0)" in _message(exc)
    K = gaussian_kernel(X2, sigma=1.0)  # the hint, literally
    assert soft_margin_l1(K, y2, 1.0).converged


# --- K_test's orientation ------------------------------------------------------------------


def test_transposed_test_gram_matrix_hint_transpose_works():
    fit = soft_margin_l1(K, Y, 1.0)
    K_test = gaussian_kernel(X, X_TEST, sigma=1.0)  # (n_train, n_test): the wrong way round
    with pytest.raises(ValueError, match=r"^K_test must have 30 columns") as exc:
        svm_predict(fit, K_test)
    assert "got shape (30, 7): it looks transposed: pass K_test.T" in _message(exc)
    np.testing.assert_allclose(svm_predict(fit, K_test.T), svm_predict(fit, K_TEST), rtol=1e-12)


def test_test_gram_matrix_of_other_points_hint_kernel_of_test_and_train_works():
    fit = soft_margin_l1(K, Y, 1.0)
    K_test = gaussian_kernel(X_TEST, sigma=1.0)  # test points against themselves
    with pytest.raises(ValueError, match=r"^K_test must have 30 columns") as exc:
        svm_predict(fit, K_test)
    assert "gaussian_kernel(X_test, X_train, sigma)" in _message(exc)
    X_test, X_train, sigma = X_TEST, X, 1.0
    svm_predict(fit, gaussian_kernel(X_test, X_train, sigma=sigma))  # the hint


# --- scikit-learn's names ------------------------------------------------------------------


def test_gamma_hint_sigma_works_and_is_scikit_learns_rbf():
    from sklearn.metrics.pairwise import rbf_kernel

    gamma = 0.3
    with pytest.raises(TypeError, match=r"^gamma is not an argument of gaussian_kernel") as exc:
        gaussian_kernel(X, gamma=gamma)
    assert "pass sigma=1 / np.sqrt(2 * gamma)" in _message(exc)
    K = gaussian_kernel(X, sigma=1 / np.sqrt(2 * gamma))  # the hint, literally
    np.testing.assert_allclose(K, rbf_kernel(X, gamma=gamma), rtol=1e-12, atol=1e-15)


def test_kernel_rbf_hint_gaussian_with_sigma_works():
    from sklearn.metrics.pairwise import rbf_kernel

    kernel = _validation.one_of("linear", "polynomial", "gaussian")
    with pytest.raises(ValueError, match=r"^kernel must be one of .* got 'rbf'") as exc:
        kernel("rbf", "kernel", {})
    assert "'gaussian'" in _message(exc)
    assert "sigma = 1 / np.sqrt(2 * gamma)" in _message(exc)
    gamma = 2.0
    sigma = 1 / np.sqrt(2 * gamma)  # the hint, literally
    np.testing.assert_allclose(
        gaussian_kernel(X, sigma=sigma), rbf_kernel(X, gamma=gamma), rtol=1e-12, atol=1e-15
    )


def test_alpha_hint_lam_works_and_is_scikit_learns_kernel_ridge():
    from sklearn.kernel_ridge import KernelRidge

    alpha = 0.5
    with pytest.raises(TypeError, match=r"^alpha is not an argument of kernel_ridge") as exc:
        kernel_ridge(K, T, alpha=alpha)
    assert "pass lam=alpha" in _message(exc)
    fit = kernel_ridge(K, T, lam=alpha)  # the hint, literally
    reference = KernelRidge(alpha=alpha, kernel="precomputed").fit(K, T)
    np.testing.assert_allclose(
        kernel_ridge_predict(fit, K_TEST), reference.predict(K_TEST), rtol=1e-10
    )


def test_kernel_ridge_n_scaled_is_scikit_learns_alpha_of_n_lam():
    from sklearn.kernel_ridge import KernelRidge

    lam = 0.01
    fit = kernel_ridge(K, T, lam, n_scaled=True)
    reference = KernelRidge(alpha=len(T) * lam, kernel="precomputed").fit(K, T)
    np.testing.assert_allclose(
        kernel_ridge_predict(fit, K_TEST), reference.predict(K_TEST), rtol=1e-10
    )


def test_kernel_ridge_has_no_intercept_centring_y_gives_it():
    # Targets around 3 and a narrow Gaussian: far from the data the fit returns to 0, the
    # centred fit to the mean of y, as its docstring says.
    far = gaussian_kernel(X_TEST + 100.0, X, sigma=1.0)
    plain = kernel_ridge_predict(kernel_ridge(K, T, 0.1), far)
    centred = kernel_ridge_predict(kernel_ridge(K, T - T.mean(), 0.1), far) + T.mean()
    np.testing.assert_allclose(plain, 0.0, atol=1e-12)
    np.testing.assert_allclose(centred, T.mean(), rtol=1e-12)


@pytest.mark.parametrize("name", ["lambda", "lambda_", "lmbda"])
def test_lambda_hint_lam_works(name):
    with pytest.raises(TypeError, match=rf"^{name} is not an argument of kernel_ridge") as exc:
        kernel_ridge(K, T, **{name: 0.5})
    assert "pass lam" in _message(exc)
    kernel_ridge(K, T, lam=0.5)


@pytest.mark.parametrize("name", ["random_state", "rng"])
def test_random_state_hint_seed_works_with_an_int_or_a_generator(name):
    with pytest.raises(TypeError, match=rf"^{name} is not an argument of kernel_kmeans") as exc:
        kernel_kmeans(K, 2, **{name: 0})
    assert "pass seed" in _message(exc)
    by_int = kernel_kmeans(K, 2, seed=0)
    by_generator = kernel_kmeans(K, 2, seed=np.random.default_rng(0))
    np.testing.assert_array_equal(by_int.labels, by_generator.labels)


@pytest.mark.parametrize("name", ["kernel", "gamma", "sigma", "degree", "coef0"])
def test_kernel_arguments_to_a_learner_hint_the_gram_matrix_works(name):
    with pytest.raises(TypeError, match=rf"^{name} is not an argument of soft_margin_l1") as exc:
        soft_margin_l1(X, Y, 1.0, **{name: 1.0})
    assert "K = kernels_ref.kernels.gaussian_kernel(X, sigma=1.0)" in _message(exc)
    K = gaussian_kernel(X, sigma=1.0)  # the hint, literally
    assert soft_margin_l1(K, Y, 1.0).converged


def test_an_unknown_keyword_lists_the_arguments():
    with pytest.raises(TypeError, match=r"^degre is not an argument of polynomial_kernel") as e:
        polynomial_kernel(X, degre=3)
    assert "whose arguments are X, Y, degree, c" in _message(e)


def test_options_by_position_hint_by_name_works():
    with pytest.raises(TypeError, match=r"^gaussian_kernel takes at most 2 positional") as exc:
        gaussian_kernel(X, X_TEST, 0.5)
    assert "pass its options by name, e.g. sigma=..." in _message(exc)
    gaussian_kernel(X, X_TEST, sigma=0.5)


def test_svr_c_and_epsilon_are_libsvms():
    from sklearn.svm import SVR

    C, epsilon = 2.0, 0.1
    fit = svr(K, T, C, epsilon, tol=1e-10)
    reference = SVR(kernel="precomputed", C=C, epsilon=epsilon, tol=1e-10).fit(K, T)
    np.testing.assert_allclose(svr_predict(fit, K_TEST), reference.predict(K_TEST), atol=1e-6)


# --- a fit result of the wrong kind --------------------------------------------------------


def test_a_result_of_another_learner_hint_its_prediction_function_works():
    ridge_fit = kernel_ridge(K, T, 0.1)
    with pytest.raises(TypeError, match=r"^result must be of type SVMResult") as exc:
        svm_predict(ridge_fit, K_TEST)
    message = _message(exc)
    assert "got KernelRidgeResult: pass it to kernels_ref.ridge.kernel_ridge_predict instead" in (
        message
    )
    where = re.search(r"pass it to (\S+) instead", message).group(1)
    module, name = where.rsplit(".", 1)
    predict = getattr(__import__(module, fromlist=[name]), name)
    np.testing.assert_array_equal(predict(ridge_fit, K_TEST), K_TEST @ ridge_fit.alpha)


# --- what a student tripped on ------------------------------------------------------------


def test_arguments_in_another_order_hint_names_the_order_and_it_works():
    with pytest.raises(ValueError, match=r"^y must be 1-dimensional") as exc:
        soft_margin_l1(K, 1.0, Y)  # C and y swapped
    assert "in the order (K, y, C)" in _message(exc)
    assert soft_margin_l1(K, Y, 1.0).converged  # the order of the hint


def test_a_number_that_is_refused_for_its_value_gets_no_hint_about_the_order():
    from kernels_ref.svm import nu_svm

    y = np.r_[np.ones(20), -np.ones(10)]  # nu <= 2 min(n+, n-) / n = 2/3
    with pytest.raises(ValueError, match=r"^nu = 0\.9 is infeasible") as exc:
        nu_svm(K, y, 0.9)  # a number where a number goes, by position
    assert "in the order" not in _message(exc)


def test_a_test_gram_matrix_passed_to_a_fit_hint_the_training_gram_matrix_works():
    with pytest.raises(ValueError, match=r"^K must be square") as exc:
        soft_margin_l1(K_TEST, Y[: len(K_TEST)], 1.0)
    assert "7 test points and 30 training points" in _message(exc)
    assert "K = kernel(X_train)" in _message(exc)
    fit = soft_margin_l1(gaussian_kernel(X, sigma=1.0), Y, 1.0)  # the hint: kernel(X_train)
    assert svm_predict(fit, K_TEST).shape == (7,)  # and the test matrix to the prediction


def test_a_round_off_asymmetry_hint_symmetrise_works():
    K_off = K + 1e-9 * np.triu(np.ones_like(K), 1)  # as from two orders of summation
    with pytest.raises(ValueError, match=r"^K must be symmetric") as exc:
        soft_margin_l1(K_off, Y, 1.0)
    assert "round-off" in _message(exc) and "K = (K + K.T) / 2" in _message(exc)
    K_sym = (K_off + K_off.T) / 2  # the hint, literally
    assert soft_margin_l1(K_sym, Y, 1.0).converged


def test_an_asymmetric_function_is_not_called_round_off():
    K_bad = K + 0.5 * np.triu(np.ones_like(K), 1)
    with pytest.raises(ValueError, match=r"^K must be symmetric") as exc:
        soft_margin_l1(K_bad, Y, 1.0)
    assert "not a kernel" in _message(exc) and "symmetrise" not in _message(exc)


@pytest.mark.parametrize("where", [(3, 7), (7, 3), (4, 4)])
def test_a_nan_is_reported_at_its_position(where):
    K_nan = K.copy()
    K_nan[where] = np.nan
    with pytest.raises(ValueError, match=r"^K contains NaN") as exc:
        soft_margin_l1(K_nan, Y, 1.0)
    assert f"K[{where[0]}, {where[1]}] = nan" in _message(exc)


def test_a_nan_in_data_is_reported_at_its_position():
    X_nan = X.copy()
    X_nan[5, 1] = np.inf
    with pytest.raises(
        ValueError, match=r"X contains NaN or infinite values, the first at X\[5, 1\] = inf"
    ):
        gaussian_kernel(X_nan, sigma=1.0)


def test_the_repr_of_a_grid_search_names_the_choice_and_refits_with_it():
    folds = model_selection.k_fold(len(Y), 3, y=Y, seed=0)
    res = model_selection.grid_search_C(K, Y, soft_margin_l1, svm_predict, [0.1, 1.0, 10.0], folds)
    assert repr(res).startswith(f"GridSearchResult(chosen={{'C': {res.best!r}}}, ")
    fit = soft_margin_l1(K, Y, **res.chosen)  # the keyword the repr shows
    np.testing.assert_array_equal(fit.alpha, res.refit(K, Y).alpha)


def test_the_kkt_violation_of_an_l2_solution_needs_no_matrix_built_by_hand():
    from kernels_ref.svm import kkt_violation, kkt_violation_l2, soft_margin_l2

    fit = soft_margin_l2(K, Y, 2.0)
    assert kkt_violation_l2(fit.alpha, K, Y, 2.0) <= 1e-8  # as the L2 docstring says
    assert kkt_violation_l2(fit.alpha, K, Y, 2.0) == kkt_violation(
        fit.alpha, K + np.eye(len(K)) / 2.0, Y, np.inf
    )
    assert kkt_violation(fit.alpha, K, Y, 2.0) > 1e-3  # the L1 conditions do not hold there


def test_the_kkt_violation_of_a_nu_solution_takes_its_box_from_nu():
    from kernels_ref.svm import kkt_violation, nu_svm

    fit = nu_svm(K, Y, 0.4)
    assert kkt_violation(fit.alpha, K, Y, nu=0.4) <= 1e-8  # C = 1/n by default
    assert kkt_violation(fit.alpha, K, Y, nu=0.4) == kkt_violation(fit.alpha, K, Y, 1 / 30, nu=0.4)
