"""The estimators of kernels_ref.estimators pass scikit-learn's conformance suite and work inside
its model selection tools; the package itself does not import scikit-learn."""

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from sklearn.model_selection import GridSearchCV
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.utils.estimator_checks import parametrize_with_checks

from kernels_ref.estimators import (
    CSVC,
    EpsilonSVR,
    KernelKMeans,
    KernelPCA,
    KernelRidge,
    NuSVC,
)
from kernels_ref.exceptions import NotFittedError

ROOT = Path(__file__).resolve().parents[1]

ESTIMATORS = [CSVC(), NuSVC(), EpsilonSVR(), KernelRidge(), KernelPCA(), KernelKMeans()]

# The package words its errors once, in kernels_ref/_validation.py (SPEC §2): the checks below
# get the right exception type (ValueError) but look for scikit-learn's own sentences.
WORDING = "ValueError raised, worded by kernels_ref._validation, not in scikit-learn's words"
ALL = {
    "check_complex_data": WORDING + " ('Complex data not supported')",
    "check_estimators_empty_data_messages": WORDING + " (0 features)",
    "check_fit2d_predict1d": WORDING + " ('Reshape your data')",
    "check_dtype_object": (
        "non-numeric entries raise ValueError naming the argument (SPEC §2), where scikit-learn "
        "expects numpy's TypeError"
    ),
}
PREDICTORS = {
    "check_estimators_unfitted": (
        "raises kernels_ref.exceptions.NotFittedError (a ValueError and AttributeError); the "
        "check wants sklearn.exceptions.NotFittedError itself, which the package cannot import"
    ),
}


def expected_failed_checks(estimator):
    if isinstance(estimator, CSVC | NuSVC | EpsilonSVR | KernelRidge):
        return {**ALL, **PREDICTORS}
    if isinstance(estimator, KernelKMeans):  # fit only: no 1-d input to predict
        return {k: v for k, v in ALL.items() if k != "check_fit2d_predict1d"}
    return dict(ALL)


@parametrize_with_checks(
    ESTIMATORS, expected_failed_checks=expected_failed_checks, xfail_strict=True
)
def test_scikit_learn_conformance(estimator, check):
    check(estimator)


def _two_moons(n=60, seed=0):
    rng = np.random.default_rng(seed)
    t = rng.uniform(0, np.pi, n)
    upper = rng.random(n) < 0.5
    X = np.column_stack([np.cos(t), np.sin(t)])
    X[~upper] = np.column_stack([1 - np.cos(t[~upper]), 0.5 - np.sin(t[~upper])])
    X += 0.1 * rng.normal(size=X.shape)
    return X, np.where(upper, "upper", "lower")


def test_arbitrary_two_labels_are_mapped_to_plus_minus_one_and_back():
    X, y = _two_moons()
    clf = CSVC(C=10.0, sigma=0.5).fit(X, y)
    assert clf.classes_.tolist() == ["lower", "upper"]
    assert set(clf.predict(X)) <= {"lower", "upper"}
    f = clf.decision_function(X)
    assert np.array_equal(clf.predict(X) == "upper", f > 0)
    assert clf.score(X, y) >= 0.95


def test_unfitted_estimator_raises_not_fitted_error_both_value_and_attribute_error():
    with pytest.raises(NotFittedError):
        CSVC().predict(np.zeros((2, 2)))
    assert issubclass(NotFittedError, ValueError)
    assert issubclass(NotFittedError, AttributeError)


def test_callable_kernel_equals_the_named_kernel():
    from kernels_ref.kernels import gaussian_kernel

    X, y = _two_moons()
    named = KernelRidge(lam=0.1, sigma=0.7).fit(X, (y == "upper").astype(float))
    given = KernelRidge(lam=0.1, kernel=lambda A, B: gaussian_kernel(A, B, sigma=0.7))
    given.fit(X, (y == "upper").astype(float))
    assert np.allclose(named.predict(X), given.predict(X), rtol=0, atol=1e-10)


def test_each_estimator_returns_what_its_package_function_returns_on_the_gram_matrix():
    from kernels_ref import clustering, pca, ridge, svm, svr
    from kernels_ref.kernels import gaussian_kernel

    X, labels = _two_moons(40)
    y = np.where(labels == "upper", 1.0, -1.0)
    Z = X[:7] + 0.05
    K, K_test = gaussian_kernel(X, sigma=0.8), gaussian_kernel(Z, X, sigma=0.8)

    def same(a, b):
        return np.allclose(a, b, rtol=0, atol=1e-12)

    res = svm.soft_margin_l1(K, y, 2.0)
    assert same(
        CSVC(C=2.0, sigma=0.8).fit(X, y).decision_function(Z), K_test @ (res.alpha * y) + res.b
    )
    res = svm.nu_svm(K, y, 0.3)
    assert same(
        NuSVC(nu=0.3, sigma=0.8).fit(X, y).decision_function(Z), svm.decision_function(res, K_test)
    )
    res = svr.svr(K, X[:, 1], 1.0, 0.1)
    assert same(EpsilonSVR(sigma=0.8).fit(X, X[:, 1]).predict(Z), svr.svr_predict(res, K_test))
    alpha = ridge.kernel_ridge(K, X[:, 1], 0.5).alpha
    assert same(KernelRidge(lam=0.5, sigma=0.8).fit(X, X[:, 1]).predict(Z), K_test @ alpha)
    res = pca.kernel_pca(K, n_components=3)
    assert same(KernelPCA(3, sigma=0.8).fit(X).transform(Z), pca.transform(res, K_test))
    res = clustering.kernel_kmeans(K, 3, rng=5)
    assert np.array_equal(KernelKMeans(3, sigma=0.8, random_state=5).fit_predict(X), res.labels)


def test_get_params_and_set_params_follow_the_init_signature():
    svc = CSVC(C=3.0)
    assert svc.get_params()["C"] == 3.0
    assert set(svc.get_params()) == {"C", "kernel", "sigma", "degree", "c", "tol", "max_iter"}
    assert svc.set_params(sigma=2.0) is svc and svc.sigma == 2.0
    with pytest.raises(ValueError, match="Invalid parameter 'gamma'"):
        svc.set_params(gamma=1.0)
    assert repr(svc) == "CSVC(C=3.0, sigma=2.0)"


def test_grid_search_over_c_and_sigma_picks_a_good_c_svm():
    X, y = _two_moons(80)
    search = GridSearchCV(CSVC(), {"C": [0.1, 1.0, 10.0], "sigma": [0.3, 1.0]}, cv=3)
    search.fit(X, y)
    assert search.best_params_["C"] in (0.1, 1.0, 10.0)
    assert search.best_score_ >= 0.9
    assert search.best_estimator_.score(X, y) >= 0.9


def test_grid_search_over_lam_for_kernel_ridge():
    rng = np.random.default_rng(1)
    X = rng.uniform(-3, 3, size=(60, 1))
    y = np.sin(X[:, 0]) + 0.1 * rng.normal(size=60)
    search = GridSearchCV(KernelRidge(), {"lam": [1e-3, 1e-1, 10.0]}, cv=3).fit(X, y)
    assert search.best_params_["lam"] != 10.0
    assert search.best_score_ > 0.9


def test_pipeline_of_scaler_kernel_pca_and_c_svm():
    X, y = _two_moons(80)
    pipe = Pipeline(
        [("scale", StandardScaler()), ("kpca", KernelPCA(n_components=5)), ("svm", CSVC())]
    )
    pipe.fit(X, y)
    assert pipe.score(X, y) >= 0.9
    assert pipe.named_steps["kpca"].transform(X[:3]).shape == (3, 5)
    pipe.set_params(svm__C=10.0)
    assert pipe.named_steps["svm"].C == 10.0


def test_pipeline_of_scaler_and_svr():
    rng = np.random.default_rng(2)
    X = rng.uniform(0, 10, size=(50, 1))
    y = np.cos(X[:, 0])
    pipe = Pipeline([("scale", StandardScaler()), ("svr", EpsilonSVR(C=10.0, epsilon=0.05))])
    assert pipe.fit(X, y).score(X, y) > 0.9


def test_kernel_kmeans_recovers_two_separated_groups():
    X = np.vstack([np.zeros((5, 2)), np.full((5, 2), 10.0)]) + 0.01 * np.arange(10)[:, None]
    labels = KernelKMeans(n_clusters=2, kernel="linear").fit_predict(X)
    assert labels.tolist() == [0] * 5 + [1] * 5


def test_importing_and_using_the_estimators_does_not_import_scikit_learn():
    code = (
        "import sys; sys.modules['sklearn'] = None\n"
        "import numpy as np\n"
        "from kernels_ref.estimators import CSVC\n"
        "X = np.array([[0.0], [1.0], [3.0], [4.0]])\n"
        "print(CSVC(kernel='linear').fit(X, [0, 0, 1, 1]).predict(X).tolist())\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=False
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[0, 0, 1, 1]"
