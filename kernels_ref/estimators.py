r"""Estimators for the scikit-learn world: scikit-learn classes over the package's functions.

The one module of the package that imports scikit-learn (``pip install 'kernels-ref[sklearn]'``).
Each class subclasses :class:`sklearn.base.BaseEstimator` and the mixin of its kind
(:class:`~sklearn.base.ClassifierMixin`, :class:`~sklearn.base.RegressorMixin`,
:class:`~sklearn.base.TransformerMixin`, :class:`~sklearn.base.ClusterMixin`), declares the
rules of its parameters in ``_parameter_constraints`` and checks its data with scikit-learn's
``validate_data`` and ``check_is_fitted``: the estimators pass scikit-learn's conformance
checks, pickle, and run in :class:`~sklearn.model_selection.GridSearchCV` and
:class:`~sklearn.pipeline.Pipeline`, in parallel worker processes included. Using one before
``fit`` raises :class:`sklearn.exceptions.NotFittedError`.

Each takes a kernel — a name (``'linear'``, ``'polynomial'``, ``'gaussian'``, the kernels of
:mod:`kernels_ref.kernels`) with its parameters, or a callable ``k(X, Y)`` that returns the
Gram matrix of shape ``(len(X), len(Y))``. ``fit(X, y)`` builds the Gram matrix, calls the
package function and stores its result as ``result_`` beside the training points ``X_fit_``;
prediction evaluates the kernel between the new points and ``X_fit_`` and calls the package's
prediction function.

- :class:`CSVC`: :func:`kernels_ref.svm.soft_margin_l1`, then
  :func:`~kernels_ref.svm.svm_predict`;
- :class:`NuSVC`: :func:`kernels_ref.svm.nu_svm`, then the equivalent C-SVM
  (:func:`~kernels_ref.svm.nu_to_c_svm`);
- :class:`EpsilonSVR`: :func:`kernels_ref.svr.svr`, then :func:`~kernels_ref.svr.svr_predict`;
- :class:`KernelRidge`: :func:`kernels_ref.ridge.kernel_ridge`, then
  :func:`~kernels_ref.ridge.kernel_ridge_predict`;
- :class:`KernelPCA`: :func:`kernels_ref.pca.kernel_pca`, then
  :func:`~kernels_ref.pca.kernel_pca_transform`;
- :class:`KernelKMeans`: :func:`kernels_ref.clustering.kernel_kmeans` (``labels_``,
  ``fit_predict``).

The classifiers are binary: any two labels are mapped to :math:`-1, +1` (the second of the
sorted ``classes_`` is :math:`+1`) and back, so labels ``{0, 1}`` or strings work; for more
classes wrap one in :class:`sklearn.multiclass.OneVsRestClassifier`. They expose libsvm's
fitted attributes with the meanings and signs of :class:`sklearn.svm.SVC`.

Other conventions: scikit-learn's ``kernel='rbf'`` with ``gamma`` is ``kernel='gaussian'``
with :math:`\sigma = 1/\sqrt{2\gamma}`; ``kernel='poly'`` with ``gamma=1`` and ``coef0`` is
``kernel='polynomial'`` with ``c = coef0``; :class:`KernelRidge`'s ``lam`` is scikit-learn's
``alpha``. Setting one of scikit-learn's names (``set_params``, a ``GridSearchCV`` grid) raises
an error that gives the conversion.

Examples
--------
>>> X = np.array([[0.0], [1.0], [3.0], [4.0]])
>>> clf = CSVC(C=10.0, kernel="linear").fit(X, ["no", "no", "yes", "yes"])
>>> clf.predict([[0.5], [3.5]]).tolist(), clf.score(X, ["no", "no", "yes", "yes"])
(['no', 'yes'], 1.0)
>>> clf.support_.tolist(), clf.dual_coef_.round(4).tolist(), clf.intercept_.round(4).tolist()
([1, 2], [[-0.5, 0.5]], [-2.0])
"""

from numbers import Integral, Real
from typing import ClassVar

try:
    from sklearn.base import (
        BaseEstimator,
        ClassifierMixin,
        ClusterMixin,
        RegressorMixin,
        TransformerMixin,
    )
    from sklearn.utils._param_validation import Interval, InvalidParameterError, StrOptions
    from sklearn.utils.multiclass import check_classification_targets, type_of_target
    from sklearn.utils.validation import check_is_fitted, validate_data
except ImportError as err:  # pragma: no cover - exercised by tests/test_packaging.py
    raise ImportError(
        "kernels_ref.estimators needs scikit-learn: pip install 'kernels-ref[sklearn]' (the rest "
        "of kernels_ref needs only NumPy)"
    ) from err

import numpy as np

from . import clustering, kernels, pca, ridge, svm, svr

__all__ = ["CSVC", "EpsilonSVR", "KernelKMeans", "KernelPCA", "KernelRidge", "NuSVC"]

_KERNELS = ("linear", "polynomial", "gaussian")

#: scikit-learn's names that have another name here, and how to convert.
_SKLEARN_NAMES = {
    "gamma": "use kernel='gaussian' with sigma = 1/sqrt(2*gamma) (scikit-learn's rbf gamma)",
    "coef0": "use c = coef0 (the constant of kernel='polynomial', with gamma = 1)",
    "alpha": "use lam = alpha (the ridge penalty of KernelRidge)",
    "lambda": "use lam (the ridge penalty of KernelRidge)",
}
_SKLEARN_KERNELS = {
    "rbf": "kernel='gaussian' with sigma = 1/sqrt(2*gamma)",
    "poly": "kernel='polynomial' with c = coef0 (and gamma = 1)",
}

_POSITIVE = Interval(Real, 0, None, closed="neither")
_KERNEL_CONSTRAINTS = {
    "kernel": [StrOptions(set(_KERNELS)), callable],
    "sigma": [_POSITIVE],
    "degree": [Interval(Integral, 1, None, closed="left")],
    "c": [Interval(Real, 0, None, closed="left")],
}
_SOLVER_CONSTRAINTS = {
    "tol": [_POSITIVE],
    "max_iter": [Interval(Integral, 1, None, closed="left"), None],
}


class _KernelEstimator(BaseEstimator):
    """The kernel, the parameter checks with their hints, and the data checks."""

    _parameter_constraints: ClassVar[dict] = dict(_KERNEL_CONSTRAINTS)

    def set_params(self, **params):
        """Set parameters by name; return ``self``. scikit-learn's names that have another
        name here (``gamma``, ``coef0``, ``alpha``) raise an error that gives the conversion."""
        valid = self.get_params(deep=False)
        for name in params:
            if name not in valid and name in _SKLEARN_NAMES:
                raise ValueError(
                    f"Invalid parameter {name!r} for estimator {type(self).__name__}: "
                    f"{_SKLEARN_NAMES[name]}. Valid parameters are: {sorted(valid)}."
                )
        return super().set_params(**params)

    def _check_params(self):
        """``_parameter_constraints``, after a hint for scikit-learn's kernel names."""
        if isinstance(self.kernel, str) and self.kernel in _SKLEARN_KERNELS:
            raise InvalidParameterError(
                f"The 'kernel' parameter of {type(self).__name__} must be one of {_KERNELS} or a "
                f"callable. Got {self.kernel!r} instead: scikit-learn's {self.kernel!r} is "
                f"{_SKLEARN_KERNELS[self.kernel]}."
            )
        self._validate_params()

    def _gram(self, X, Y=None):
        """``k(X, Y)`` (``k(X, X)`` without ``Y``) for the kernel of the parameters."""
        if callable(self.kernel):
            return self.kernel(X, X if Y is None else Y)
        if self.kernel == "linear":
            return kernels.linear_kernel(X, Y)
        if self.kernel == "polynomial":
            return kernels.polynomial_kernel(X, Y, degree=self.degree, c=self.c)
        return kernels.gaussian_kernel(X, Y, sigma=self.sigma)

    def _fit_data(self, X, y="no_validation", **check_params):
        """Parameters checked, then ``X`` (and ``y``, if given) by scikit-learn's
        ``validate_data``, which also sets ``n_features_in_``."""
        self._check_params()
        return validate_data(self, X, y, dtype=np.float64, **check_params)

    def _test_gram(self, X):
        """Fitted check, ``X`` checked against the training features, ``k(X, X_fit_)``."""
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False)
        return self._gram(X, self.X_fit_)


class _KernelParams:
    """Documentation of the kernel parameters, shared by every estimator."""

    doc = """kernel : {'linear', 'polynomial', 'gaussian'} or callable
        A kernel of :mod:`kernels_ref.kernels`, or ``k(X, Y)`` returning the Gram matrix.
        scikit-learn's ``'rbf'`` is ``'gaussian'``; its ``'poly'`` (with ``gamma=1``) is
        ``'polynomial'``.
    sigma : float > 0
        Bandwidth of the Gaussian kernel :math:`\\exp(-\\|x - y\\|^2 / (2\\sigma^2))`
        (scikit-learn's ``gamma`` is :math:`1/(2\\sigma^2)`).
    degree : int >= 1
        Degree of the polynomial kernel :math:`(c + \\langle x, y\\rangle)^{\\text{degree}}`.
    c : float >= 0
        Constant of the polynomial kernel (scikit-learn's ``coef0``)."""


class _BinaryClassifier(ClassifierMixin, _KernelEstimator):
    _parameter_constraints: ClassVar[dict] = {**_KERNEL_CONSTRAINTS, **_SOLVER_CONSTRAINTS}

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        return tags

    def fit(self, X, y):
        """Fit on ``X`` of shape (n, d) and two-class labels ``y``; return ``self``."""
        X, y = self._fit_data(X, y)
        check_classification_targets(y)
        target = type_of_target(y, input_name="y")
        if target != "binary":
            raise ValueError(
                f"Only binary classification is supported. The type of the target is {target}: "
                f"{type(self).__name__} is a binary classifier; for more classes use "
                f"sklearn.multiclass.OneVsRestClassifier({type(self).__name__}(...))"
            )
        classes = np.unique(y)
        if len(classes) != 2:
            raise ValueError(
                f"{type(self).__name__} needs two classes in y to fit, got 1 class "
                f"({classes.tolist()}): a training set needs points of both classes"
            )
        K = self._gram(X)
        result = self._fit_gram(K, np.where(y == classes[1], 1.0, -1.0))
        self.classes_ = classes
        self.X_fit_ = X
        self.result_ = result
        self._set_libsvm_attributes(self._c_svm(result, K))
        self.n_iter_ = result.n_iter
        return self

    def _c_svm(self, result, K):
        """The fit as a C-SVM (``SVMResult``), whose coefficients libsvm reports."""
        return result

    def _set_libsvm_attributes(self, c_svm):
        """libsvm's attributes of the C-SVM solution ``c_svm``, as :class:`sklearn.svm.SVC`
        orders and signs them."""
        positive = c_svm.y[c_svm.support] > 0
        # libsvm groups the support vectors by class, classes_[0] first, each in index order.
        support = np.concatenate([c_svm.support[~positive], c_svm.support[positive]])
        self.support_ = support.astype(np.int32)
        self.support_vectors_ = self.X_fit_[support]
        self.n_support_ = np.array([np.sum(~positive), np.sum(positive)], dtype=np.int32)
        self.dual_coef_ = (c_svm.alpha * c_svm.y)[support][None, :]
        self.intercept_ = np.array([c_svm.b])

    def decision_function(self, X):
        """:math:`f(x) = \\sum_i \\alpha_i y_i k(x_i, x) + b`, positive for ``classes_[1]``:
        ``dual_coef_ @ k(support_vectors_, x) + intercept_``, as in scikit-learn's ``SVC``."""
        K_test = self._test_gram(X)
        return K_test[:, self.support_] @ self.dual_coef_[0] + self.intercept_[0]

    def predict(self, X):
        """``classes_[1]`` where :math:`f(x) > 0`, else ``classes_[0]``."""
        positive = self.decision_function(X) > 0
        return self.classes_[positive.astype(int)]


_LIBSVM_ATTRIBUTES = """classes_ : ndarray, shape (2,)
        The sorted labels; ``classes_[1]`` is the class :math:`+1`.
    support_ : ndarray of int32, shape (n_SV,)
        Indices of the support vectors (:math:`\\alpha_i > 0`), those of ``classes_[0]``
        first, each class in increasing order: libsvm's order, as in ``sklearn.svm.SVC``.
    support_vectors_ : ndarray, shape (n_SV, d)
        ``X_fit_[support_]``.
    n_support_ : ndarray of int32, shape (2,)
        Number of support vectors of each class.
    dual_coef_ : ndarray, shape (1, n_SV)
        :math:`y_i \\alpha_i` of the support vectors, in the order of ``support_``
        (:math:`y_i = +1` for ``classes_[1]``)."""


class CSVC(_BinaryClassifier):
    __doc__ = f"""C-SVM classifier (hinge loss): :func:`kernels_ref.svm.soft_margin_l1`.

    Parameters
    ----------
    C : float > 0
        Weight of the slacks in :math:`\\tfrac12\\|w\\|^2 + C\\sum_i\\xi_i` (libsvm's and
        scikit-learn's ``C``).
    {_KernelParams.doc}
    tol : float > 0
        SMO's stopping tolerance on the KKT violation.
    max_iter : int >= 1, optional

    Attributes
    ----------
    result_ : SVMResult
        The package's fit, on the labels :math:`\\pm 1`.
    {_LIBSVM_ATTRIBUTES}
    intercept_ : ndarray, shape (1,)
        :math:`b`: ``decision_function`` is ``dual_coef_ @ k(support_vectors_, x) +
        intercept_``, scikit-learn's sign convention (libsvm's :math:`-\\rho`).
    X_fit_ : ndarray, shape (n, d)
    n_features_in_ : int
    n_iter_ : int
        SMO's iterations; ``result_.finish_attempts`` and ``result_.ended_by`` say whether
        SMO's second-order finish ended the run.
    """

    _parameter_constraints: ClassVar[dict] = {
        **_BinaryClassifier._parameter_constraints,
        "C": [_POSITIVE],
    }

    def __init__(
        self, C=1.0, kernel="gaussian", sigma=1.0, degree=2, c=1.0, tol=svm.TOL, max_iter=None
    ):
        self.C = C
        self.kernel = kernel
        self.sigma = sigma
        self.degree = degree
        self.c = c
        self.tol = tol
        self.max_iter = max_iter

    def _fit_gram(self, K, y):
        return svm.soft_margin_l1(K, y, self.C, tol=self.tol, max_iter=self.max_iter)


class NuSVC(_BinaryClassifier):
    __doc__ = f"""ν-SVM classifier: :func:`kernels_ref.svm.nu_svm`.

    libsvm, hence scikit-learn's ``NuSVC``, reports a ν-SVM as the C-SVM it equals,
    :math:`\\alpha/\\rho` and :math:`b/\\rho` with :math:`C = 1/(n\\rho)`
    (:func:`kernels_ref.svm.nu_to_c_svm`): so do ``dual_coef_``, ``intercept_`` and
    ``decision_function`` here (the margin at :math:`\\pm 1`, not at :math:`\\pm\\rho`);
    ``result_`` is the ν-SVM's own solution.

    Parameters
    ----------
    nu : float in (0, 1]
        Upper bound on the fraction of margin errors, lower bound on the fraction of support
        vectors; at most :math:`2\\min(n_+, n_-)/n`.
    {_KernelParams.doc}
    tol : float > 0
    max_iter : int >= 1, optional

    Attributes
    ----------
    result_ : SVMResult
        The ν-SVM's solution, with ``rho``.
    {_LIBSVM_ATTRIBUTES} Those of the equivalent C-SVM: :math:`y_i \\alpha_i / \\rho`.
    intercept_ : ndarray, shape (1,)
        :math:`b / \\rho`.
    X_fit_, n_features_in_, n_iter_
        As in :class:`CSVC`.
    """

    _parameter_constraints: ClassVar[dict] = {
        **_BinaryClassifier._parameter_constraints,
        "nu": [Interval(Real, 0, 1, closed="right")],
    }

    def __init__(
        self, nu=0.5, kernel="gaussian", sigma=1.0, degree=2, c=1.0, tol=svm.TOL, max_iter=None
    ):
        self.nu = nu
        self.kernel = kernel
        self.sigma = sigma
        self.degree = degree
        self.c = c
        self.tol = tol
        self.max_iter = max_iter

    def _fit_gram(self, K, y):
        return svm.nu_svm(K, y, self.nu, tol=self.tol, max_iter=self.max_iter)

    def _c_svm(self, result, K):
        return svm.nu_to_c_svm(result, K)


class _Regressor(RegressorMixin, _KernelEstimator):
    def fit(self, X, y):
        """Fit on ``X`` of shape (n, d) and real targets ``y``; return ``self``."""
        X, y = self._fit_data(X, y, y_numeric=True)
        self.result_ = self._fit_gram(self._gram(X), y.astype(np.float64))
        self.X_fit_ = X
        return self

    def predict(self, X):
        """:math:`f(x)` at the rows of ``X``."""
        return self._predict_from_gram(self._test_gram(X))


class EpsilonSVR(_Regressor):
    __doc__ = f""":math:`\\varepsilon`-insensitive SVR: :func:`kernels_ref.svr.svr`.

    Parameters
    ----------
    C : float > 0
        libsvm's and scikit-learn's ``C`` (``sklearn.svm.SVR``).
    epsilon : float >= 0
        Half-width of the tube.
    {_KernelParams.doc}
    tol : float > 0
    max_iter : int >= 1, optional

    Attributes
    ----------
    result_ : SVRResult
    X_fit_ : ndarray, shape (n, d)
    n_features_in_ : int
    n_iter_ : int
        SMO's iterations; ``result_.finish_attempts`` and ``result_.ended_by`` say whether
        SMO's second-order finish ended the run.
    """

    _parameter_constraints: ClassVar[dict] = {
        **_KERNEL_CONSTRAINTS,
        **_SOLVER_CONSTRAINTS,
        "C": [_POSITIVE],
        "epsilon": [Interval(Real, 0, None, closed="left")],
    }

    def __init__(
        self,
        C=1.0,
        epsilon=0.1,
        kernel="gaussian",
        sigma=1.0,
        degree=2,
        c=1.0,
        tol=svr.TOL,
        max_iter=None,
    ):
        self.C = C
        self.epsilon = epsilon
        self.kernel = kernel
        self.sigma = sigma
        self.degree = degree
        self.c = c
        self.tol = tol
        self.max_iter = max_iter

    def fit(self, X, y):
        """Fit on ``X`` of shape (n, d) and real targets ``y``; return ``self``."""
        super().fit(X, y)
        self.n_iter_ = self.result_.n_iter
        return self

    def _fit_gram(self, K, y):
        return svr.svr(K, y, self.C, self.epsilon, tol=self.tol, max_iter=self.max_iter)

    def _predict_from_gram(self, K_test):
        return svr.svr_predict(self.result_, K_test)


class KernelRidge(_Regressor):
    __doc__ = f"""Kernel ridge regression: :func:`kernels_ref.ridge.kernel_ridge`.

    No intercept, as in scikit-learn's ``KernelRidge``: centre ``y`` (and add its mean back to
    the predictions) unless the kernel has a constant part.

    Parameters
    ----------
    lam : float > 0
        :math:`\\lambda` of :math:`\\sum_i (y_i - f(x_i))^2 + \\lambda\\|f\\|^2` (scikit-learn's
        ``alpha``), or of Vert's mean loss with ``n_scaled=True``.
    {_KernelParams.doc}
    n_scaled : bool

    Attributes
    ----------
    result_ : KernelRidgeResult
        The package's fit: ``result_.alpha``, the dual coefficients
        :math:`\\alpha = (K + \\lambda I)^{{-1}} y` (scikit-learn's ``dual_coef_``), with
        ``lam`` and ``n_scaled``.
    X_fit_ : ndarray, shape (n, d)
    n_features_in_ : int
    """

    _parameter_constraints: ClassVar[dict] = {
        **_KERNEL_CONSTRAINTS,
        "lam": [_POSITIVE],
        "n_scaled": ["boolean"],
    }

    def __init__(self, lam=1.0, kernel="gaussian", sigma=1.0, degree=2, c=1.0, n_scaled=False):
        self.lam = lam
        self.kernel = kernel
        self.sigma = sigma
        self.degree = degree
        self.c = c
        self.n_scaled = n_scaled

    def _fit_gram(self, K, y):
        return ridge.kernel_ridge(K, y, self.lam, n_scaled=self.n_scaled)

    def _predict_from_gram(self, K_test):
        return ridge.kernel_ridge_predict(self.result_, K_test)


class KernelPCA(TransformerMixin, _KernelEstimator):
    __doc__ = f"""Kernel principal component analysis: :func:`kernels_ref.pca.kernel_pca`.

    Parameters
    ----------
    n_components : int, optional
        By default all the components (the numerical rank of the centred Gram matrix).
    {_KernelParams.doc}
    tol : float >= 0
        Relative threshold under which an eigenvalue counts as zero.

    Attributes
    ----------
    result_ : KernelPCAResult
    X_fit_ : ndarray, shape (n, d)
    n_features_in_ : int
    """

    _parameter_constraints: ClassVar[dict] = {
        **_KERNEL_CONSTRAINTS,
        "n_components": [Interval(Integral, 1, None, closed="left"), None],
        "tol": [Interval(Real, 0, None, closed="left")],
    }

    def __init__(self, n_components=None, kernel="gaussian", sigma=1.0, degree=2, c=1.0, tol=1e-10):
        self.n_components = n_components
        self.kernel = kernel
        self.sigma = sigma
        self.degree = degree
        self.c = c
        self.tol = tol

    def fit(self, X, y=None):
        """Fit on ``X`` of shape (n, d) (``y`` is ignored); return ``self``."""
        X = self._fit_data(X, ensure_min_samples=2)
        self.result_ = pca.kernel_pca(self._gram(X), n_components=self.n_components, tol=self.tol)
        self.X_fit_ = X
        return self

    def fit_transform(self, X, y=None):
        """Fit, then the coordinates of the training points (``result_.projections``)."""
        return self.fit(X).result_.projections.copy()

    def transform(self, X):
        """Coordinates of the rows of ``X`` on the components, shape (m, k)."""
        K_test = self._test_gram(X)  # first: the fitted check
        return pca.kernel_pca_transform(self.result_, K_test)


class KernelKMeans(ClusterMixin, _KernelEstimator):
    __doc__ = f"""Kernel k-means: :func:`kernels_ref.clustering.kernel_kmeans`.

    Parameters
    ----------
    n_clusters : int >= 1
        At most the number of samples.
    {_KernelParams.doc}
    n_init : int >= 1
        Number of k-means++ starts; the best run is kept.
    max_iter : int >= 1
    random_state : int, numpy.random.Generator or RandomState, optional
        Seed of the starts (``None`` is seed 0: the result is reproducible; a ``RandomState``
        draws the seed).

    Attributes
    ----------
    result_ : KernelKMeansResult
    labels_ : ndarray of int, shape (n,)
        Clusters numbered in the order of their first point.
    X_fit_ : ndarray, shape (n, d)
    n_features_in_ : int
    n_iter_ : int
        Lloyd iterations of the run kept.
    """

    _parameter_constraints: ClassVar[dict] = {
        **_KERNEL_CONSTRAINTS,
        "n_clusters": [Interval(Integral, 1, None, closed="left")],
        "n_init": [Interval(Integral, 1, None, closed="left")],
        "max_iter": [Interval(Integral, 1, None, closed="left")],
        "random_state": ["random_state", np.random.Generator],
    }

    def __init__(
        self,
        n_clusters=8,
        kernel="gaussian",
        sigma=1.0,
        degree=2,
        c=1.0,
        n_init=10,
        max_iter=100,
        random_state=None,
    ):
        self.n_clusters = n_clusters
        self.kernel = kernel
        self.sigma = sigma
        self.degree = degree
        self.c = c
        self.n_init = n_init
        self.max_iter = max_iter
        self.random_state = random_state

    def fit(self, X, y=None):
        """Cluster the rows of ``X`` (``y`` is ignored); return ``self``."""
        X = self._fit_data(X)
        if self.n_clusters > len(X):
            raise ValueError(
                f"n_clusters={self.n_clusters} is larger than the number of samples, {len(X)}: "
                f"pass n_clusters <= {len(X)}"
            )
        seed = self.random_state
        if seed is None:
            seed = 0
        elif isinstance(seed, np.random.RandomState):
            seed = int(seed.randint(np.iinfo(np.int32).max))
        result = clustering.kernel_kmeans(
            self._gram(X), self.n_clusters, n_init=self.n_init, max_iter=self.max_iter, seed=seed
        )
        self.X_fit_ = X
        self.result_ = result
        self.labels_ = result.labels
        self.n_iter_ = result.n_iter
        return self
