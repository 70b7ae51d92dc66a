r"""Estimators for the scikit-learn world: a thin layer of classes over the package's functions.

Each class takes a kernel — a name (``'linear'``, ``'polynomial'``, ``'gaussian'``, the kernels
of :mod:`kernels_ref.kernels`) with its parameters, or a callable ``k(X, Y)`` that returns the
Gram matrix of shape ``(len(X), len(Y))`` — and follows scikit-learn's conventions: ``__init__``
only stores its arguments, ``fit(X, y)`` builds the Gram matrix, calls the package function and
stores the fitted attributes (ending in ``_``: the package's result as ``result_``, the training
points as ``X_fit_``, ``n_features_in_``, ``classes_`` for the classifiers), then ``predict``,
``decision_function``, ``transform``, ``score``, ``get_params`` and ``set_params``. The
classifiers are binary: any two labels are mapped to :math:`-1, +1` (the second of the sorted
``classes_`` is :math:`+1`) and back.

The package never imports scikit-learn: :meth:`_Estimator.__sklearn_tags__`, which only
scikit-learn calls, takes its tag classes from the already loaded ``sklearn.utils``. Using an
estimator before ``fit`` raises :class:`~kernels_ref.exceptions.NotFittedError`, a subclass of
``ValueError`` and ``AttributeError`` like scikit-learn's.

- :class:`CSVC`: :func:`kernels_ref.svm.soft_margin_l1`, then
  :func:`~kernels_ref.svm.decision_function`;
- :class:`NuSVC`: :func:`kernels_ref.svm.nu_svm`, then :func:`~kernels_ref.svm.decision_function`;
- :class:`EpsilonSVR`: :func:`kernels_ref.svr.svr`, then :func:`~kernels_ref.svr.svr_predict`;
- :class:`KernelRidge`: :func:`kernels_ref.ridge.kernel_ridge`, then
  :func:`~kernels_ref.ridge.kernel_ridge_predict`;
- :class:`KernelPCA`: :func:`kernels_ref.pca.kernel_pca`, then
  :func:`~kernels_ref.pca.transform`;
- :class:`KernelKMeans`: :func:`kernels_ref.clustering.kernel_kmeans` (``labels_``,
  ``fit_predict``).

Each call to a prediction function of the package is in one private method of the class
(``_decision_from_gram``, ``_predict_from_gram``, ``_transform_from_gram``).

Examples
--------
>>> X = np.array([[0.0], [1.0], [3.0], [4.0]])
>>> clf = CSVC(C=10.0, kernel="linear").fit(X, ["no", "no", "yes", "yes"])
>>> clf.predict([[0.5], [3.5]]).tolist(), clf.score(X, ["no", "no", "yes", "yes"])
(['no', 'yes'], 1.0)
"""

import inspect
import numbers
import sys
import warnings

import numpy as np

from . import clustering, kernels, pca, ridge, svm, svr
from ._validation import check_array
from .exceptions import DataConversionWarning, NotFittedError

__all__ = ["CSVC", "EpsilonSVR", "KernelKMeans", "KernelPCA", "KernelRidge", "NuSVC"]

_KERNELS = ("linear", "polynomial", "gaussian")


class _Estimator:
    """get_params / set_params / repr from the ``__init__`` signature, the kernel, checks."""

    _estimator_type = None  # "classifier", "regressor", "transformer" or "clusterer"
    _requires_y = False

    # --- parameters -------------------------------------------------------------------------

    @classmethod
    def _param_names(cls):
        signature = inspect.signature(cls.__init__)
        return sorted(p.name for p in signature.parameters.values() if p.name != "self")

    def get_params(self, deep=True):
        """Parameters of the estimator, ``{name: value}`` (``deep`` is accepted and ignored:
        these estimators hold no sub-estimators)."""
        return {name: getattr(self, name) for name in self._param_names()}

    def set_params(self, **params):
        """Set parameters by name; return ``self``."""
        valid = self._param_names()
        for name, value in params.items():
            if name not in valid:
                raise ValueError(
                    f"Invalid parameter {name!r} for estimator {type(self).__name__}. "
                    f"Valid parameters are: {valid}."
                )
            setattr(self, name, value)
        return self

    def __repr__(self):
        defaults = {
            p.name: p.default
            for p in inspect.signature(type(self).__init__).parameters.values()
            if p.name != "self"
        }
        changed = []
        for name, default in defaults.items():
            value = getattr(self, name)
            if value is not default and not (type(value) is type(default) and value == default):
                changed.append(f"{name}={value!r}")
        return f"{type(self).__name__}({', '.join(changed)})"

    def __sklearn_tags__(self):
        # Called only by scikit-learn, which is then loaded: the package does not import it.
        utils = sys.modules["sklearn.utils"]
        kind = self._estimator_type
        return utils.Tags(
            estimator_type=None if kind == "transformer" else kind,
            target_tags=utils.TargetTags(required=self._requires_y),
            transformer_tags=utils.TransformerTags() if kind == "transformer" else None,
            classifier_tags=(
                utils.ClassifierTags(multi_class=False) if kind == "classifier" else None
            ),
            regressor_tags=utils.RegressorTags() if kind == "regressor" else None,
            input_tags=utils.InputTags(),
        )

    # --- the kernel -------------------------------------------------------------------------

    def _gram(self, X, Y=None):
        """``k(X, Y)`` (``k(X, X)`` without ``Y``) for the kernel of the parameters."""
        if callable(self.kernel):
            return self.kernel(X, X if Y is None else Y)
        if self.kernel == "linear":
            return kernels.linear_kernel(X, Y)
        if self.kernel == "polynomial":
            return kernels.polynomial_kernel(X, Y, degree=self.degree, c=self.c)
        if self.kernel == "gaussian":
            return kernels.gaussian_kernel(X, Y, sigma=self.sigma)
        raise ValueError(f"kernel must be one of {_KERNELS} or a callable, got {self.kernel!r}")

    # --- checks -----------------------------------------------------------------------------

    def _check_X(self, X, min_samples=1):
        if hasattr(X, "tocsr"):  # a SciPy sparse matrix or array
            raise TypeError(f"{type(self).__name__} does not accept sparse input: pass X.toarray()")
        X = check_array(X, "X").copy()
        if len(X) < min_samples:
            raise ValueError(
                f"{type(self).__name__} needs at least {min_samples} samples, "
                f"got n_samples = {len(X)}"
            )
        return X

    def _check_y(self, y, n):
        if y is None:
            raise ValueError(
                f"{type(self).__name__} requires y to be passed, but the target y is None"
            )
        y = np.asarray(y)
        if y.ndim == 2 and y.shape[1] == 1:
            warnings.warn(
                "A column-vector y was passed when a 1d array was expected; it is flattened",
                DataConversionWarning,
                stacklevel=3,
            )
            y = y.ravel()
        if y.ndim != 1 or len(y) != n:
            raise ValueError(f"y must be 1-dimensional with {n} entries, got shape {y.shape}")
        return y

    def _check_fitted(self):
        if not hasattr(self, "X_fit_"):
            raise NotFittedError(
                f"This {type(self).__name__} instance is not fitted yet: call fit first"
            )

    def _test_gram(self, X):
        """Fitted check, ``X`` checked against the training features, ``k(X, X_fit_)``."""
        self._check_fitted()
        X = self._check_X(X)
        if X.shape[1] != self.n_features_in_:
            raise ValueError(
                f"X has {X.shape[1]} features, but {type(self).__name__} is expecting "
                f"{self.n_features_in_} features as input"
            )
        return self._gram(X, self.X_fit_)


class _KernelParams:
    """Documentation of the kernel parameters, shared by every estimator."""

    doc = """kernel : {'linear', 'polynomial', 'gaussian'} or callable
        A kernel of :mod:`kernels_ref.kernels`, or ``k(X, Y)`` returning the Gram matrix.
    sigma : float > 0
        Bandwidth of the Gaussian kernel :math:`\\exp(-\\|x - y\\|^2 / (2\\sigma^2))`
        (scikit-learn's ``gamma`` is :math:`1/(2\\sigma^2)`).
    degree : int >= 1
        Degree of the polynomial kernel :math:`(c + \\langle x, y\\rangle)^{\\text{degree}}`.
    c : float >= 0
        Constant of the polynomial kernel."""


class _BinaryClassifier(_Estimator):
    _estimator_type = "classifier"
    _requires_y = True

    def _fit_labels(self, y):
        """``classes_`` and the labels as -1.0, +1.0 (``classes_[1]`` is +1)."""
        if y.dtype.kind == "f" and np.any(y != np.round(y)):
            raise ValueError(
                f"Unknown label type: continuous. {type(self).__name__} is a binary classifier: "
                "y must hold two class labels"
            )
        if y.dtype.kind == "O":
            y = y.astype(str) if all(isinstance(v, str) for v in y) else y
        classes = np.unique(y)
        if len(classes) != 2:
            raise ValueError(
                "Only binary classification is supported. "
                f"{type(self).__name__} is a binary classifier: y must hold two classes, "
                f"got {len(classes)} class{'es' if len(classes) != 1 else ''}"
                + (" (one class only)" if len(classes) == 1 else "")
            )
        return classes, np.where(y == classes[1], 1.0, -1.0)

    def fit(self, X, y):
        """Fit on ``X`` of shape (n, d) and two-class labels ``y``; return ``self``."""
        X = self._check_X(X)
        y = self._check_y(y, len(X))
        classes, y_pm = self._fit_labels(y)
        result = self._fit_gram(self._gram(X), y_pm)
        self.classes_ = classes
        self.X_fit_ = X
        self.n_features_in_ = X.shape[1]
        self.result_ = result
        self.support_ = result.support
        self.n_iter_ = result.n_iter
        return self

    def decision_function(self, X):
        """:math:`f(x) = \\sum_i \\alpha_i y_i k(x_i, x) + b`, positive for ``classes_[1]``."""
        return self._decision_from_gram(self._test_gram(X))

    def _decision_from_gram(self, K_test):
        return svm.decision_function(self.result_, K_test)

    def predict(self, X):
        """``classes_[1]`` where :math:`f(x) > 0`, else ``classes_[0]``."""
        positive = self.decision_function(X) > 0
        return self.classes_[positive.astype(int)]

    def score(self, X, y):
        """Accuracy, the fraction of ``y`` predicted."""
        return float(np.mean(self.predict(X) == np.asarray(y).ravel()))


class CSVC(_BinaryClassifier):
    __doc__ = f"""C-SVM classifier (hinge loss): :func:`kernels_ref.svm.soft_margin_l1`.

    Parameters
    ----------
    C : float > 0
        Weight of the slacks in :math:`\\tfrac12\\|w\\|^2 + C\\sum_i\\xi_i` (libsvm's ``C``).
    {_KernelParams.doc}
    tol : float > 0
        SMO's stopping tolerance.
    max_iter : int >= 1, optional

    Attributes
    ----------
    result_ : SVMResult
    classes_ : ndarray, shape (2,)
    support_ : ndarray of int
    X_fit_ : ndarray, shape (n, d)
    n_features_in_ : int
    """

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
        With ``rho``.
    classes_, support_, X_fit_, n_features_in_
        As in :class:`CSVC`.
    """

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


class _Regressor(_Estimator):
    _estimator_type = "regressor"
    _requires_y = True

    def fit(self, X, y):
        """Fit on ``X`` of shape (n, d) and real targets ``y``; return ``self``."""
        X = self._check_X(X)
        y = check_array(self._check_y(y, len(X)), "y", ndim=1)
        result = self._fit_gram(self._gram(X), y)
        self.X_fit_ = X
        self.n_features_in_ = X.shape[1]
        self.result_ = result
        return self

    def predict(self, X):
        """:math:`f(x)` at the rows of ``X``."""
        return self._predict_from_gram(self._test_gram(X))

    def score(self, X, y):
        """Coefficient of determination :math:`R^2 = 1 - \\sum_i (y_i - f(x_i))^2 /
        \\sum_i (y_i - \\bar y)^2` (1.0 for a perfect fit; 0.0 for an imperfect fit of a
        constant ``y``)."""
        y = check_array(np.asarray(y).ravel(), "y", ndim=1)
        residual = float(np.sum((y - self.predict(X)) ** 2))
        total = float(np.sum((y - y.mean()) ** 2))
        if total == 0.0:
            return 1.0 if residual == 0.0 else 0.0
        return 1.0 - residual / total


class EpsilonSVR(_Regressor):
    __doc__ = f""":math:`\\varepsilon`-insensitive SVR: :func:`kernels_ref.svr.svr`.

    Parameters
    ----------
    C : float > 0
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
    """

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

    Parameters
    ----------
    lam : float > 0
        :math:`\\lambda` of :math:`\\sum_i (y_i - f(x_i))^2 + \\lambda\\|f\\|^2` (scikit-learn's
        ``alpha``), or of Vert's mean loss with ``n_scaled=True``.
    {_KernelParams.doc}
    n_scaled : bool

    Attributes
    ----------
    result_ : ndarray, shape (n,)
        The dual coefficients :math:`\\alpha = (K + \\lambda I)^{{-1}} y`.
    X_fit_ : ndarray, shape (n, d)
    n_features_in_ : int
    """

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


class KernelPCA(_Estimator):
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

    _estimator_type = "transformer"

    def __init__(self, n_components=None, kernel="gaussian", sigma=1.0, degree=2, c=1.0, tol=1e-10):
        self.n_components = n_components
        self.kernel = kernel
        self.sigma = sigma
        self.degree = degree
        self.c = c
        self.tol = tol

    def fit(self, X, y=None):
        """Fit on ``X`` of shape (n, d) (``y`` is ignored); return ``self``."""
        X = self._check_X(X, min_samples=2)
        result = pca.kernel_pca(self._gram(X), n_components=self.n_components, tol=self.tol)
        self.X_fit_ = X
        self.n_features_in_ = X.shape[1]
        self.result_ = result
        return self

    def fit_transform(self, X, y=None):
        """Fit, then the coordinates of the training points (``result_.projections``)."""
        return self.fit(X).result_.projections.copy()

    def transform(self, X):
        """Coordinates of the rows of ``X`` on the components, shape (m, k)."""
        return self._transform_from_gram(self._test_gram(X))

    def _transform_from_gram(self, K_test):
        return pca.transform(self.result_, K_test)


class KernelKMeans(_Estimator):
    __doc__ = f"""Kernel k-means: :func:`kernels_ref.clustering.kernel_kmeans`.

    Parameters
    ----------
    n_clusters : int >= 1
    {_KernelParams.doc}
    n_init : int >= 1
        Number of k-means++ starts; the best run is kept.
    max_iter : int >= 1
    random_state : int or numpy.random.Generator, optional
        Seed of the starts (``None`` is seed 0: the result is reproducible).

    Attributes
    ----------
    result_ : KernelKMeansResult
    labels_ : ndarray of int, shape (n,)
        Clusters numbered in the order of their first point.
    X_fit_ : ndarray, shape (n, d)
    n_features_in_ : int
    """

    _estimator_type = "clusterer"

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
        min_samples = self.n_clusters if isinstance(self.n_clusters, numbers.Integral) else 1
        X = self._check_X(X, min_samples=max(min_samples, 1))
        result = clustering.kernel_kmeans(
            self._gram(X),
            self.n_clusters,
            n_init=self.n_init,
            max_iter=self.max_iter,
            rng=self.random_state,
        )
        self.X_fit_ = X
        self.n_features_in_ = X.shape[1]
        self.result_ = result
        self.labels_ = result.labels
        return self

    def fit_predict(self, X, y=None):
        """Fit, then ``labels_``."""
        return self.fit(X).labels_
