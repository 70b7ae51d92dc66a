"""The estimators of kernels_ref.estimators pass scikit-learn's conformance suite with no expected
failure, report libsvm's attributes as scikit-learn's SVC does, and work inside its model
selection tools, in worker processes included."""

import pickle

import numpy as np
import pytest
from sklearn.datasets import make_blobs, make_classification, make_moons
from sklearn.exceptions import NotFittedError
from sklearn.model_selection import GridSearchCV
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC
from sklearn.svm import NuSVC as SklearnNuSVC
from sklearn.utils.estimator_checks import parametrize_with_checks

from kernels_ref.estimators import (
    CSVC,
    EpsilonSVR,
    KernelKMeans,
    KernelPCA,
    KernelRidge,
    NuSVC,
)

ESTIMATORS = [CSVC(), NuSVC(), EpsilonSVR(), KernelRidge(), KernelPCA(), KernelKMeans()]


@parametrize_with_checks(ESTIMATORS)
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


def test_an_unfitted_estimator_raises_scikit_learns_not_fitted_error():
    for estimator, method in [
        (CSVC(), "predict"),
        (NuSVC(), "decision_function"),
        (EpsilonSVR(), "predict"),
        (KernelRidge(), "predict"),
        (KernelPCA(), "transform"),
    ]:
        with pytest.raises(NotFittedError, match="not fitted yet"):
            getattr(estimator, method)(np.zeros((2, 2)))


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
    res = svm.nu_svm(K, y, 0.3)  # reported as libsvm does, as the C-SVM it equals: f / rho
    assert same(
        NuSVC(nu=0.3, sigma=0.8).fit(X, y).decision_function(Z),
        svm.svm_predict(res, K_test) / res.rho,
    )
    res = svr.svr(K, X[:, 1], 1.0, 0.1)
    assert same(EpsilonSVR(sigma=0.8).fit(X, X[:, 1]).predict(Z), svr.svr_predict(res, K_test))
    alpha = ridge.kernel_ridge(K, X[:, 1], 0.5).alpha
    assert same(KernelRidge(lam=0.5, sigma=0.8).fit(X, X[:, 1]).predict(Z), K_test @ alpha)
    res = pca.kernel_pca(K, n_components=3)
    assert same(KernelPCA(3, sigma=0.8).fit(X).transform(Z), pca.kernel_pca_transform(res, K_test))
    res = clustering.kernel_kmeans(K, 3, seed=5)
    assert np.array_equal(KernelKMeans(3, sigma=0.8, random_state=5).fit_predict(X), res.labels)


def test_get_params_and_set_params_follow_the_init_signature():
    svc = CSVC(C=3.0)
    assert svc.get_params()["C"] == 3.0
    assert set(svc.get_params()) == {"C", "kernel", "sigma", "degree", "c", "tol", "max_iter"}
    assert svc.set_params(sigma=2.0) is svc and svc.sigma == 2.0
    with pytest.raises(ValueError, match="Invalid parameter 'C'"):
        KernelRidge().set_params(C=1.0)
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


# Three data sets, each with its kernel in the two spellings (gamma = 1/(2 sigma^2), coef0 = c),
# and a C at which there are free support vectors (b is then unique) and at which libsvm's
# single-precision kernel cache leaves its coefficients within 1e-7 of the exact solution, 10x
# below the test's 1e-6 (at C = 10 they can move by 1e-5).
LIBSVM_CASES = [
    (
        *make_moons(80, noise=0.25, random_state=0),
        {"sigma": 0.5},
        {"kernel": "rbf", "gamma": 2.0},
        0.5,
    ),
    (
        *make_blobs(60, 2, centers=2, cluster_std=2.0, random_state=1),
        {"kernel": "linear"},
        {"kernel": "linear"},
        0.2,
    ),
    (
        *make_classification(60, 3, n_informative=2, n_redundant=0, flip_y=0.1, random_state=2),
        {"kernel": "polynomial", "degree": 3, "c": 1.0},
        {"kernel": "poly", "degree": 3, "coef0": 1.0, "gamma": 1.0},
        0.1,
    ),
]


def _same_libsvm_attributes(ours, theirs, X):
    assert np.array_equal(ours.classes_, theirs.classes_)
    assert np.array_equal(ours.support_, theirs.support_)
    assert np.array_equal(ours.n_support_, theirs.n_support_)
    assert np.array_equal(ours.support_vectors_, theirs.support_vectors_)
    assert ours.dual_coef_.shape == theirs.dual_coef_.shape
    assert np.allclose(ours.dual_coef_, theirs.dual_coef_, rtol=0, atol=1e-6)
    assert np.allclose(ours.intercept_, theirs.intercept_, rtol=0, atol=1e-6)
    assert np.allclose(ours.decision_function(X), theirs.decision_function(X), rtol=0, atol=1e-5)


@pytest.mark.parametrize("X, y, ours, theirs, C", LIBSVM_CASES)
def test_csvc_reports_the_support_dual_coef_and_intercept_of_scikit_learns_svc(
    X, y, ours, theirs, C
):
    labels = np.array(["b", "a"])[y]  # classes_ ['a', 'b']: 'b' is +1 for both
    clf = CSVC(C=C, tol=1e-10, **ours).fit(X, labels)
    _same_libsvm_attributes(clf, SVC(C=C, tol=1e-12, **theirs).fit(X, labels), X)
    K = clf._gram(X)
    # The attributes are the package's fit: dual_coef_ = y_i alpha_i, intercept_ = b.
    f = K[:, clf.support_] @ clf.dual_coef_[0] + clf.intercept_[0]
    assert np.allclose(f, clf.decision_function(X), rtol=0, atol=1e-12)
    assert np.all(np.abs(clf.dual_coef_) <= C)
    assert np.all(np.diff(clf.support_[: clf.n_support_[0]]) > 0)
    assert np.all(np.diff(clf.support_[clf.n_support_[0] :]) > 0)


@pytest.mark.parametrize("X, y, ours, theirs, C", LIBSVM_CASES)
def test_nusvc_reports_the_attributes_of_scikit_learns_nusvc(X, y, ours, theirs, C):
    clf = NuSVC(nu=0.5, tol=1e-10, **ours).fit(X, y)
    _same_libsvm_attributes(clf, SklearnNuSVC(nu=0.5, tol=1e-12, **theirs).fit(X, y), X)
    # libsvm's coefficients are those of the equivalent C-SVM, alpha / rho and b / rho.
    rho = clf.result_.rho
    assert np.allclose(clf.dual_coef_[0] * rho, (clf.result_.alpha * clf.result_.y)[clf.support_])
    assert np.isclose(clf.intercept_[0] * rho, clf.result_.b)


def test_labels_zero_one_work_in_csvc():
    X, y = make_moons(40, noise=0.1, random_state=3)
    clf = CSVC(C=10.0, sigma=0.5).fit(X, y)  # y in {0, 1}: no 2*y - 1 needed here
    assert clf.classes_.tolist() == [0, 1]
    assert clf.score(X, y) >= 0.95


def test_habits_from_scikit_learn_get_the_conversion_in_the_error():
    X, y = make_moons(30, noise=0.1, random_state=0)
    with pytest.raises(ValueError, match=r"'rbf' is kernel='gaussian' with sigma = 1/sqrt"):
        CSVC(kernel="rbf").fit(X, y)
    with pytest.raises(ValueError, match=r"'poly' is kernel='polynomial' with c = coef0"):
        KernelRidge(kernel="poly").fit(X, y)
    with pytest.raises(ValueError, match=r"'gamma'.*sigma = 1/sqrt\(2\*gamma\)"):
        CSVC().set_params(gamma=2.0)
    with pytest.raises(ValueError, match=r"'alpha'.*lam = alpha"):
        KernelRidge().set_params(alpha=0.1)
    with pytest.raises(ValueError, match=r"'gamma'.*sigma = 1/sqrt"):
        GridSearchCV(CSVC(), {"gamma": [0.5, 2.0]}, cv=3).fit(X, y)
    # The hint, followed: gamma = 2 is sigma = 0.5, the same classifier as scikit-learn's.
    ours = CSVC(kernel="gaussian", sigma=1 / np.sqrt(2 * 2.0)).fit(X, y)
    theirs = SVC(kernel="rbf", gamma=2.0).fit(X, y)
    assert np.array_equal(ours.support_, theirs.support_)


def test_more_than_two_classes_point_to_one_vs_rest():
    X, y = make_classification(30, 4, n_informative=3, n_redundant=0, n_classes=3, random_state=0)
    with pytest.raises(ValueError, match=r"OneVsRestClassifier\(CSVC\(...\)\)"):
        CSVC().fit(X, y)
    from sklearn.multiclass import OneVsRestClassifier

    assert OneVsRestClassifier(CSVC(C=10.0, kernel="linear")).fit(X, y).score(X, y) > 0.7


def test_real_targets_in_a_classifier_are_refused_as_continuous():
    X = np.arange(10.0)[:, None]
    with pytest.raises(ValueError, match="Unknown label type: continuous"):
        CSVC().fit(X, np.sin(X[:, 0]))


def test_kernel_kmeans_names_n_clusters_and_random_state():
    X = np.arange(24.0).reshape(12, 2)
    with pytest.raises(ValueError, match=r"n_clusters=13 is larger than the number of samples, 12"):
        KernelKMeans(n_clusters=13).fit(X)
    with pytest.raises(ValueError, match=r"The 'random_state' parameter of KernelKMeans.*Got -1"):
        KernelKMeans(n_clusters=2, random_state=-1).fit(X)
    labels = KernelKMeans(n_clusters=12, kernel="linear").fit_predict(X)
    assert sorted(labels.tolist()) == list(range(12))


def test_kernel_kmeans_random_state_as_int_generator_or_random_state():
    X, _ = make_moons(30, noise=0.05, random_state=0)
    by_int = KernelKMeans(2, sigma=0.5, random_state=4).fit_predict(X)
    by_gen = KernelKMeans(2, sigma=0.5, random_state=np.random.default_rng(4)).fit_predict(X)
    assert np.array_equal(by_int, by_gen)
    seeded = KernelKMeans(2, sigma=0.5, random_state=np.random.RandomState(0))
    assert set(seeded.fit_predict(X).tolist()) == {0, 1}


def test_fitted_estimators_pickle_and_predict_the_same():
    X, y = make_moons(40, noise=0.1, random_state=0)
    for estimator in [CSVC(sigma=0.5), NuSVC(nu=0.3), EpsilonSVR(), KernelRidge(lam=0.1)]:
        fitted = estimator.fit(X, y)
        again = pickle.loads(pickle.dumps(fitted))
        assert np.array_equal(again.predict(X), fitted.predict(X))


def test_grid_search_runs_in_two_worker_processes():
    X, y = make_moons(60, noise=0.2, random_state=0)
    grid = {"C": [0.1, 10.0], "sigma": [0.3, 1.0]}
    serial = GridSearchCV(CSVC(), grid, cv=3).fit(X, y)
    parallel = GridSearchCV(CSVC(), grid, cv=3, n_jobs=2).fit(X, y)
    assert parallel.best_params_ == serial.best_params_
    assert np.array_equal(
        parallel.cv_results_["mean_test_score"], serial.cv_results_["mean_test_score"]
    )
    assert np.array_equal(parallel.predict(X), serial.predict(X))
