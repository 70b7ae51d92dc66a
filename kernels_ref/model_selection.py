r"""Model selection (chapter 8): validation sets, k-fold cross-validation, grid searches.

A learner is given as two functions in the package's fit/predict convention (see the
README, "Fit and predict"): ``fit(K_train, y_train)`` returns a result and
``predict(result, K_val)`` returns the decision values of the validation points, with
``K_val[a, i] = k(x_a, x_i)`` of shape ``(n_validation, n_train)``. The functions below take
the Gram matrix ``K`` of all the data once, validate it once, and cut the blocks of each split
out of it, so that no kernel is evaluated twice; the learner given by the user then checks its
own blocks as it always does.

The splits are pairs ``(train, validation)`` of index arrays: one pair for a hold-out set
(:func:`train_validation_split`), ``k`` pairs for k-fold cross-validation (:func:`k_fold`), or
any iterable of pairs, such as a scikit-learn splitter's ``cv.split(X, y)``. The validation
error of a learner (:func:`validation_error`) pools the validation points of all the pairs: for
a k-fold partition it is the cross-validation estimate of Hastie, Tibshirani & Friedman
(2009), §7.10.1, eq. (7.48),

.. math::

    \mathrm{CV} = \frac1n \sum_{i=1}^n L\big(y_i, \hat f^{-\kappa(i)}(x_i)\big),

where :math:`\kappa(i)` is the fold of point :math:`i` and :math:`\hat f^{-k}` the learner
fitted without fold :math:`k`. :func:`grid_search` computes it on a grid of any parameter of
the learner, :func:`grid_search_C` and :func:`grid_search_C_sigma` on a grid of the soft-margin
constant :math:`C` (and of the width :math:`\sigma` of a Gaussian kernel); they return the whole
curve or surface, each fold's error and their spread, and the choice, the way Chevaleyre
(2023), §3.3, chooses :math:`C^*`: one SVM per value of a logarithmic grid, and the minimum of
its validation-error curve, ties going to the most regularised model. The result's
:meth:`~GridSearchResult.refit` fits the learner on all the data at the choice.
:func:`median_heuristic_sigma` gives the usual starting width of a Gaussian kernel.
"""

import warnings
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import numpy as np

from ._results import ShortRepr
from ._validation import (
    boolean,
    check_array,
    check_gram,
    check_labels,
    data,
    function,
    gram,
    integer,
    one_of,
    rule,
    seed,
    validated,
    vector,
)
from .exceptions import NotPSDWarning
from .feature_space import kernel_distance
from .kernels import linear_kernel

__all__ = [
    "GridSearchResult",
    "grid_search",
    "grid_search_C",
    "grid_search_C_sigma",
    "k_fold",
    "median_heuristic_sigma",
    "train_validation_split",
    "validation_error",
]

#: The losses of :func:`validation_error`: misclassification (labels +-1) and squared error.
LOSSES = ("misclassification", "squared")

#: Which end of a grid is the most regularised model: ``"smaller"`` values (C) or ``"larger"``
#: ones (lambda, sigma).
DIRECTIONS = ("smaller", "larger")


@dataclass(frozen=True, repr=False)
class GridSearchResult(ShortRepr):
    r"""The validation errors of a grid search, their spread across folds, and the choice.

    Attributes
    ----------
    param : str
        The parameter of ``fit`` searched, e.g. ``"C"`` or ``"lam"``.
    grid : ndarray, shape (n_grid,)
        Its values, increasing.
    best : float
        The chosen value of ``param``.
    more_regularised : {"smaller", "larger"}
        Which values of ``param`` give the more regularised model (the tie rule's direction).
    errors : ndarray, shape (n_grid,) or (n_sigma, n_grid)
        Validation error pooled over all the validation points (:func:`validation_error`) at
        each grid point: ``errors[j]`` for ``grid[j]``, or ``errors[i, j]`` for
        ``(sigma_grid[i], grid[j])``. The choice minimises it.
    fold_errors : ndarray, shape ``errors.shape + (n_folds,)``
        The error of each fold alone (the mean loss over its validation set).
    fold_mean, fold_std : ndarray, shape of ``errors``
        Mean and standard deviation (``ddof=0``, as scikit-learn's ``std_test_score``) of
        ``fold_errors`` across the folds: the spread of the estimate. ``fold_mean`` equals
        ``errors`` when the validation sets have equal sizes.
    index : int or tuple of int
        Position of the choice in ``errors``: ``j``, or ``(i, j)``.
    loss : str
        ``"misclassification"`` or ``"squared"``.
    n_validation : int
        Number of validation predictions behind each error (the sum of the sizes of the
        validation sets): a misclassification error times ``n_validation`` is a count.
    fit : callable
        The learner searched, for :meth:`refit`.
    sigma_grid : ndarray, shape (n_sigma,), or None
        The values of :math:`\sigma`, increasing (:func:`grid_search_C_sigma` only).
    sigma : float or None
        The chosen :math:`\sigma` (:func:`grid_search_C_sigma` only).
    """

    param: str
    grid: np.ndarray
    best: float
    more_regularised: str
    errors: np.ndarray
    fold_errors: np.ndarray
    fold_mean: np.ndarray
    fold_std: np.ndarray
    index: int | tuple
    loss: str
    n_validation: int
    fit: Callable
    sigma_grid: np.ndarray | None = None
    sigma: float | None = None

    _repr_first = ("chosen",)  # the choice first, by name: chosen={'C': 10.0}

    @property
    def chosen(self):
        """The choice by the name of its parameter, ``{param: best}``: the keyword arguments
        of ``fit`` that :meth:`refit` passes (e.g. ``{"C": 10.0}`` or ``{"lam": 0.01}``)."""
        return {self.param: self.best}

    @property
    def C(self):
        """The chosen :math:`C` (``best``) of a search of ``C``, else None."""
        return self.best if self.param == "C" else None

    @property
    def C_grid(self):
        """The grid (``grid``) of a search of ``C``, else None."""
        return self.grid if self.param == "C" else None

    def refit(self, K, y):
        r"""The learner fitted on all the data at the chosen parameters.

        Returns ``fit(K, y, **{param: best})``, the result that prediction then takes.

        Parameters
        ----------
        K : array_like, shape (n, n), or callable
            The Gram matrix of all the points (at the chosen :math:`\sigma` after
            :func:`grid_search_C_sigma`; or the function ``gram`` of that search itself,
            called here with ``sigma``).
        y : array_like, shape (n,)

        Returns
        -------
        The result of ``fit``.

        Raises
        ------
        TypeError
            If ``K`` is callable and the search was not over :math:`\sigma`.
        """
        if callable(K):
            if self.sigma is None:
                raise TypeError(
                    "K must be the Gram matrix of all the points; a function of sigma is "
                    "accepted only after grid_search_C_sigma"
                )
            K = K(self.sigma)
        return self.fit(K, y, **self.chosen)


# --- splits ---------------------------------------------------------------------------------


def _n(args):
    """The number of points of a split, the argument ``n``."""
    return args["n"]


def _stratified_order(n, y, rng, min_class_size, what):
    """A random order of ``range(n)`` in which each class of ``y`` is one contiguous block.

    Without ``y`` it is a random permutation. With ``y``, each class (the distinct values of
    ``y``, in increasing order) is shuffled and the classes are concatenated: any set of
    evenly spaced positions of this order then takes from each class a share proportional
    to its size (within one point). ``min_class_size`` is what ``what`` needs of each class.
    ``rng`` is a numpy ``Generator``.
    """
    if y is None:
        return rng.permutation(n)
    classes, inverse = np.unique(y, return_inverse=True)
    blocks = []
    for c, value in enumerate(classes):
        members = np.flatnonzero(inverse == c)
        if len(members) < min_class_size:
            raise ValueError(
                f"y: class {value:g} has {len(members)} member(s), fewer than {what} "
                f"= {min_class_size}; pass y=None for a split that is not stratified"
            )
        blocks.append(rng.permutation(members))
    return np.concatenate(blocks)


@validated(
    n=integer(low=2),
    n_folds=integer(low=2, high=_n),
    y=vector(rows=_n, optional=True),
    seed=seed(),
)
def k_fold(n, n_folds=5, *, y=None, seed=0):
    r"""A random partition of the indices into ``n_folds`` folds, for k-fold cross-validation.

    .. math::

        \{0, \dots, n-1\} = V_1 \cup \dots \cup V_k \ \text{(disjoint)}, \qquad
        |V_j| \in \{\lfloor n/k \rfloor, \lceil n/k \rceil\},

    and the :math:`j`-th pair is :math:`(T_j, V_j)` with :math:`T_j` the other indices. Each
    point is validated exactly once: the pooled error over the folds is the cross-validation
    estimate :math:`\frac1n\sum_i L(y_i, \hat f^{-\kappa(i)}(x_i))` of Hastie, Tibshirani &
    Friedman (2009), §7.10.1, eq. (7.48).

    With ``y`` the partition is *stratified*: a class of :math:`n_c` points puts
    :math:`\lfloor n_c/k \rfloor` or :math:`\lceil n_c/k \rceil` of them in each fold, so that
    every fold keeps the class proportions of the data (within one point) and every training
    set contains every class. The indices are shuffled within each class, the classes are laid
    end to end, and position :math:`p` of this order goes to fold :math:`p \bmod k`; without
    ``y`` one shuffle of all the indices is dealt the same way.

    Parameters
    ----------
    n : int >= 2
        Number of points.
    n_folds : int, 2 <= n_folds <= n
        :math:`k`; ``n_folds = n`` is leave-one-out.
    y : array_like, shape (n,), optional
        Class labels (any real values; each distinct value is a class). Every class must have
        at least ``n_folds`` members.
    seed : int >= 0, numpy Generator or None
        Seed of the shuffle: the same int gives the same folds; a ``Generator`` is drawn from
        (a sequence of splits from one generator); ``None`` takes fresh entropy.

    Returns
    -------
    tuple of (train, validation) pairs
        ``n_folds`` pairs of sorted integer arrays; the validation sets partition
        ``range(n)``.

    Raises
    ------
    ValueError
        If ``n < 2``, ``n_folds`` is outside ``[2, n]``, a class of ``y`` has fewer than
        ``n_folds`` members, or ``seed`` is not an integer >= 0, a ``Generator`` or None.

    Examples
    --------
    >>> folds = k_fold(10, 3, y=[1, 1, 1, 1, 1, 1, -1, -1, -1, -1], seed=0)
    >>> [len(v) for t, v in folds], [len(t) for t, v in folds]
    ([4, 3, 3], [6, 7, 7])
    >>> sorted(np.concatenate([v for t, v in folds]).tolist()) == list(range(10))
    True
    """
    order = _stratified_order(n, y, seed, n_folds, "n_folds")
    fold = np.empty(n, dtype=np.intp)
    fold[order] = np.arange(n) % n_folds  # position p of the order goes to fold p mod k
    return tuple((np.flatnonzero(fold != j), np.flatnonzero(fold == j)) for j in range(n_folds))


@validated(
    n=integer(low=2),
    n_validation=integer(low=1, high=lambda args: args["n"] - 1),
    y=vector(rows=_n, optional=True),
    seed=seed(),
)
def train_validation_split(n, n_validation, *, y=None, seed=0):
    r"""A random split of the indices into a training set and a validation set.

    .. math::

        \{0, \dots, n-1\} = T \cup V \ \text{(disjoint)}, \qquad |V| = m,

    the hold-out set of Chevaleyre (2023), §3.3 ("for each C, train an SVM and compute its
    validation error"): the learner is fitted on :math:`T` and its error measured on
    :math:`V`. With ``y`` the split is stratified: a class of :math:`n_c` points puts
    :math:`\lfloor n_c m/n \rfloor` or :math:`\lceil n_c m/n \rceil` of them in :math:`V`
    (the order of :func:`k_fold`, of which the :math:`m` evenly spaced positions
    :math:`\lfloor jn/m \rfloor`, :math:`j = 0, \dots, m - 1`, form :math:`V`).

    Parameters
    ----------
    n : int >= 2
        Number of points.
    n_validation : int, 1 <= n_validation <= n - 1
        :math:`m`, the size of the validation set.
    y : array_like, shape (n,), optional
        Class labels; every class must have at least 2 members (one can go each way).
    seed : int >= 0, numpy Generator or None
        As for :func:`k_fold`.

    Returns
    -------
    (train, validation) : pair of sorted integer arrays

    Raises
    ------
    ValueError
        If ``n < 2``, ``n_validation`` is outside ``[1, n - 1]``, a class of ``y`` has one
        member, or ``seed`` is not an integer >= 0, a ``Generator`` or None.

    Examples
    --------
    >>> y = np.array([1, 1, 1, 1, 1, 1, -1, -1, -1, -1])
    >>> train, validation = train_validation_split(10, 5, y=y, seed=0)
    >>> len(train), len(validation), int(np.sum(y[validation] == 1))
    (5, 5, 3)
    """
    order = _stratified_order(n, y, seed, 2, "2 (one for each set)")
    chosen = np.zeros(n, dtype=bool)
    m = n_validation
    chosen[order[(np.arange(m) * n) // m]] = True
    return np.flatnonzero(~chosen), np.flatnonzero(chosen)


# --- validation error -----------------------------------------------------------------------


def _targets(of=None):
    """The rule of ``y``: labels +-1 with both classes for the misclassification loss, real
    targets for the squared error (``loss`` is checked before it); as many as ``of`` has rows
    (``None``: any number)."""

    def check(value, name, args):
        n = None if of is None else len(args[of])
        if args["loss"] == "misclassification":
            return check_labels(value, n, name)
        return check_array(value, name, ndim=1, n_rows=n)

    return rule(check, "labels", samples=(0,), refs=(of, "loss"))


def _check_index(a, n, what):
    """A 1-D array of distinct integers in [0, n), not empty, or ValueError naming ``what``."""
    arr = np.asarray(a)
    if arr.ndim == 1 and arr.size == 0:
        raise ValueError(f"folds: a {what} set is empty")
    if arr.dtype.kind not in "iu" or arr.ndim != 1:
        raise ValueError(
            f"folds: the {what} indices must be a 1-D array of integers, got dtype "
            f"{arr.dtype} and shape {arr.shape}"
        )
    if arr.min() < 0 or arr.max() >= n:
        raise ValueError(f"folds: the {what} indices must lie in [0, {n}), got {arr.min()} to "
                         f"{arr.max()}")  # fmt: skip
    if len(np.unique(arr)) != arr.size:
        raise ValueError(f"folds: a {what} set repeats an index")
    return arr.astype(np.intp)


def _check_folds(folds, n):
    """``folds`` as a tuple of (train, validation) pairs of index arrays for ``n`` points.

    Any iterable of pairs is read once (a generator such as a scikit-learn splitter's
    ``cv.split(X, y)`` included), then each pair is checked."""
    if isinstance(folds, np.ndarray | str | bytes) or not isinstance(folds, Iterable):
        raise ValueError(
            "folds must be a non-empty iterable of (train, validation) pairs of index arrays "
            "(k_fold(n, k), [train_validation_split(n, m)], or a scikit-learn splitter's "
            f"cv.split(X, y)), got {type(folds).__name__}"
        )
    folds = list(folds)
    if not folds:
        raise ValueError(
            "folds must be a non-empty iterable of (train, validation) pairs, got none (an "
            "exhausted generator? cv.split(X, y) is read once: call it again)"
        )
    out = []
    for pair in folds:
        if isinstance(pair, np.ndarray | str | bytes) or not isinstance(pair, Iterable):
            pair = ()
        pair = tuple(pair)
        if len(pair) != 2:
            raise ValueError(
                "folds must contain (train, validation) pairs of index arrays; for one split "
                "pass [(train, validation)], a list of one pair"
            )
        train = _check_index(pair[0], n, "train")
        validation = _check_index(pair[1], n, "validation")
        if np.intersect1d(train, validation).size:
            raise ValueError("folds: a validation set shares indices with its training set")
        out.append((train, validation))
    return tuple(out)


def _folds(of):
    """The rule of ``folds``: (train, validation) pairs of indices of the rows of ``of``."""
    return rule(lambda value, name, args: _check_folds(value, len(args[of])), "folds", refs=(of,))


#: The rules of a validation problem, in the order they are checked: the Gram matrix of all the
#: points, the loss, the targets it needs, the learner and the splits.
PROBLEM = {
    "K": gram(),
    "loss": one_of(*LOSSES),
    "y": _targets("K"),
    "fit": function(),
    "predict": function(),
    "folds": _folds("K"),
}


def _losses(y, f, loss):
    """Loss of each validation point: y f <= 0 (a score of 0 is a mistake), or (y - f)^2."""
    if loss == "misclassification":
        return (y * f <= 0.0).astype(float)
    return (y - f) ** 2


def _error_curve(K, y, fits, predict, folds, loss, warm_start=False):
    """Summed losses of the learners ``fits`` (one per grid point) on each fold, shape
    ``(len(fits), len(folds))``, on validated input; with ``warm_start`` each is called with
    the result of the previous one on the same fold (None for the first). The blocks of each
    fold are cut once. NotPSDWarnings of the fits are silenced: a principal block of a PSD
    matrix is PSD, so they repeat the warning (or not) that the caller's ``K`` has already
    given."""
    totals = np.zeros((len(fits), len(folds)))
    for k, (train, validation) in enumerate(folds):
        K_train, K_val = K[np.ix_(train, train)], K[np.ix_(validation, train)]
        y_train, y_val = y[train], y[validation]
        result = None
        for j, fit in enumerate(fits):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", NotPSDWarning)
                result = fit(K_train, y_train, result) if warm_start else fit(K_train, y_train)
            f = predict(result, K_val)
            f = check_array(f, "predict(result, K_val)", ndim=1, n_rows=len(validation))
            totals[j, k] = float(np.sum(_losses(y_val, f, loss)))
    return totals


def _pooled(totals, folds):
    """The pooled error of each grid point: the sum of its losses on all the folds divided by
    the number of validation points."""
    return totals.sum(axis=-1) / sum(len(v) for _, v in folds)


@validated(**PROBLEM)
def validation_error(K, y, fit, predict, folds, *, loss="misclassification"):
    r"""Validation error of a learner, pooled over the validation sets of ``folds``.

    .. math::

        \widehat{\mathrm{Err}} = \frac{1}{\sum_j |V_j|} \sum_j \sum_{i \in V_j}
        L\big(y_i, \hat f_{T_j}(x_i)\big), \qquad
        L(y, f) = \mathbb 1[y f \le 0] \ \text{or}\ (y - f)^2,

    where :math:`\hat f_{T_j}` is the learner fitted on the training set :math:`T_j` of the
    :math:`j`-th pair. For one pair it is the hold-out error of Chevaleyre (2023), §3.3; for
    the folds of :func:`k_fold` it is the cross-validation estimate of Hastie, Tibshirani &
    Friedman (2009), §7.10.1, eq. (7.48). Misclassification counts a decision value of exactly
    0 as a mistake (the classifier does not decide), as :func:`kernels_ref.losses.zero_one_loss`
    does; it needs labels :math:`\pm 1`.

    Parameters
    ----------
    K : array_like, shape (n, n)
        Gram matrix of all the points; validated once here.
    y : array_like, shape (n,)
        Labels :math:`\pm 1` (misclassification) or real targets (squared error).
    fit : callable
        ``fit(K_train, y_train)`` returns a result, e.g.
        ``lambda K, y: svm.soft_margin_l1(K, y, C)``.
    predict : callable
        ``predict(result, K_val)`` returns the decision values of the validation points,
        ``K_val`` of shape ``(n_validation, n_train)``, e.g. ``svm.svm_predict``.
    folds : iterable of (train, validation) pairs
        Index arrays, as returned by :func:`k_fold`, ``[train_validation_split(...)]``, or a
        scikit-learn splitter's ``cv.split(X, y)`` (read once).
    loss : {"misclassification", "squared"}

    Returns
    -------
    float
        A misclassification rate in [0, 1], or a mean squared error.

    Raises
    ------
    ValueError
        For a bad ``K``, ``y`` (not :math:`\pm 1` with both classes, for misclassification),
        a ``fit`` or ``predict`` that is not callable, ``folds`` that are not pairs of
        distinct indices in ``[0, n)`` with disjoint training and validation sets, or a
        ``predict`` that does not return one finite value per validation point.

    Examples
    --------
    A learner that ignores the data and predicts the sign of the mean training label. Fitted
    on points 0 and 1 (labels +1, +1) it predicts +1 and misses point 3; fitted on points 2
    and 3 (labels +1, -1) it predicts 0, a mistake for both points 0 and 1: 3 errors out of 4.

    >>> K = np.eye(4)
    >>> y = np.array([1.0, 1.0, 1.0, -1.0])
    >>> fit = lambda K, y: np.sign(y.mean())
    >>> predict = lambda result, K_val: np.full(len(K_val), result)
    >>> validation_error(K, y, fit, predict, [([0, 1], [2, 3]), ([2, 3], [0, 1])])
    0.75
    """
    return float(_pooled(_error_curve(K, y, [fit], predict, folds, loss), folds)[0])


# --- grid searches --------------------------------------------------------------------------


def _grid(*, positive=True):
    """The rule of a grid: a non-empty, strictly increasing 1-D array of finite numbers
    (positive: a logarithmic grid of C or sigma)."""

    def check(value, name, args):
        grid = check_array(value, name, ndim=1)
        if positive and np.any(grid <= 0):
            raise ValueError(f"{name} must contain positive numbers, got {grid.min():g}")
        if np.any(np.diff(grid) <= 0):
            raise ValueError(f"{name} must be strictly increasing")
        return grid.copy()

    return rule(check, "vector", samples=None)


def _param_name(value, name, args):
    """The rule of ``param``: the name of a parameter of ``fit``."""
    if not isinstance(value, str) or not value.isidentifier():
        raise ValueError(
            f"{name} must be the name of fit's parameter searched, e.g. 'C' or 'lam', got {value!r}"
        )
    return value


def _direction(value, name, args):
    """The rule of ``more_regularised``: one of :data:`DIRECTIONS`, with what each means."""
    if not isinstance(value, str) or value not in DIRECTIONS:
        raise ValueError(
            f"{name} must be one of {DIRECTIONS}: 'smaller' when smaller values regularise "
            f"more (C), 'larger' when larger ones do (lambda, sigma), got {value!r}"
        )
    return value


def _gram_of_sigma():
    """The rule of ``gram``: a function of sigma whose values are Gram matrices of the points
    of ``y`` (checked before). The function receives ``gram`` wrapped so that each matrix is
    validated when it is computed, under the name ``gram(sigma)``."""
    is_callable = function()

    def check(value, name, args):
        gram_of = is_callable(value, name, args)
        n = len(args["y"])

        def checked(sigma):
            label = f"{name}({sigma:g})"
            K = check_gram(gram_of(sigma), name=label)
            if len(K) != n:
                raise ValueError(f"{label} must be {n} x {n}, as y has {n} entries, got {K.shape}")
            return K

        return checked

    return rule(check, "callable", refs=("y",))


def _fits(fit, param, grid, warm_start):
    """``fit`` with each value of ``grid`` bound to ``param``: ``fit(K, y, param=value)``, or
    with warm starts ``fit(K, y, param=value, previous=previous)``."""
    if warm_start:
        return [
            lambda K, y, previous, v=v: fit(K, y, **{param: v}, previous=previous)
            for v in grid.tolist()
        ]
    return [lambda K, y, v=v: fit(K, y, **{param: v}) for v in grid.tolist()]


def _choose(errors, more_regularised="smaller"):
    """Index of the minimal error: the most regularised value of the last axis (the first for
    ``"smaller"``, the last for ``"larger"``), then the largest sigma (first axis)."""
    best = errors == errors.min()
    on_grid = np.flatnonzero(best.any(axis=0) if errors.ndim == 2 else best)
    j = int(on_grid[0] if more_regularised == "smaller" else on_grid[-1])
    if errors.ndim == 1:
        return j
    return int(np.flatnonzero(best[:, j])[-1]), j


def _search_result(totals, folds, param, grid, more_regularised, loss, fit, sigma_grid=None):
    """The result of a search from the summed losses ``totals[..., fold]``."""
    sizes = np.array([len(v) for _, v in folds], dtype=float)
    errors = _pooled(totals, folds)
    fold_errors = totals / sizes
    index = _choose(errors, more_regularised)
    j = index if sigma_grid is None else index[1]
    return GridSearchResult(
        param=param,
        grid=grid,
        best=float(grid[j]),
        more_regularised=more_regularised,
        errors=errors,
        fold_errors=fold_errors,
        fold_mean=fold_errors.mean(axis=-1),
        fold_std=fold_errors.std(axis=-1),
        index=index,
        loss=loss,
        n_validation=int(sizes.sum()),
        fit=fit,
        sigma_grid=sigma_grid,
        sigma=None if sigma_grid is None else float(sigma_grid[index[0]]),
    )


@validated(
    **PROBLEM,
    grid=_grid(positive=False),
    param=rule(_param_name, "name"),
    more_regularised=rule(_direction, "option"),
    warm_start=boolean(),
)
def grid_search(
    K,
    y,
    fit,
    predict,
    grid,
    folds,
    *,
    param,
    more_regularised,
    loss="misclassification",
    warm_start=False,
):
    r"""Validation error of a learner on a grid of one of its parameters, and the choice.

    .. math::

        \theta^* = \text{the most regularised } \theta \in \Big\{ \theta \in \mathcal G :
        \widehat{\mathrm{Err}}(\theta) = \min_{\theta' \in \mathcal G}
        \widehat{\mathrm{Err}}(\theta') \Big\},

    with :math:`\widehat{\mathrm{Err}}(\theta)` the pooled validation error
    (:func:`validation_error`) of ``fit(·, ·, param=θ)``. Chevaleyre's (2023, §3.3) recipe
    for any parameter: one fit per value of a (logarithmic) grid, and the minimum of the
    validation-error curve. Tie rule: among the values with the same minimal error, the most
    regularised model, whose direction ``more_regularised`` states: the *smallest* :math:`C`
    of an SVM or SVR (``"smaller"``), the *largest* :math:`\lambda` of kernel ridge
    (``"larger"``). Misclassification errors of the same folds have one denominator, so equal
    counts are exactly equal errors. The result also gives each fold's error and their spread,
    and :meth:`GridSearchResult.refit` fits the learner on all the data at the choice.

    Parameters
    ----------
    K : array_like, shape (n, n)
        Gram matrix of all the points, validated once here.
    y : array_like, shape (n,)
        Labels :math:`\pm 1` (misclassification) or real targets (squared error).
    fit : callable
        Called as ``fit(K_train, y_train, param=value)``, e.g. ``ridge.kernel_ridge`` with
        ``param="lam"``.
    predict : callable
        ``predict(result, K_val)``, e.g. ``ridge.kernel_ridge_predict``.
    grid : array_like, shape (n_grid,)
        Strictly increasing finite values (usually ``np.logspace(...)``).
    folds : iterable of (train, validation) pairs
        From :func:`k_fold`, ``[train_validation_split(...)]`` for one hold-out set, or a
        scikit-learn splitter's ``cv.split(X, y)`` (read once).
    param : str
        The name of ``fit``'s parameter that the grid sets.
    more_regularised : {"smaller", "larger"}
        Which values of ``param`` regularise more: ``"smaller"`` for :math:`C`, ``"larger"``
        for :math:`\lambda` or a Gaussian width :math:`\sigma`. Required: the tie rule depends
        on it.
    loss : {"misclassification", "squared"}
    warm_start : bool
        If true, ``fit`` is called as ``fit(K_train, y_train, param=value, previous=result)``,
        where ``result`` is its result at the previous value of the grid on the same fold, or
        ``None`` for the first: the learner may start its solver there.

    Returns
    -------
    GridSearchResult
        ``errors``, ``fold_errors``, ``fold_mean``, ``fold_std`` of shape ``(n_grid,)`` (and
        ``(n_grid, n_folds)``), ``best``, ``index``; ``refit(K, y)``.

    Raises
    ------
    ValueError
        As :func:`validation_error`, for a ``grid`` that is not a non-empty, strictly
        increasing array of finite numbers, a ``param`` that is not a name, and a
        ``more_regularised`` other than ``"smaller"`` or ``"larger"``.
    TypeError
        If ``warm_start`` is not a bool.

    Examples
    --------
    Kernel ridge regression as a classifier (the sign of :math:`f`) of points on a line,
    labelled by their sign, with a linear kernel: :math:`f(x) = wx` with :math:`w > 0` for
    every :math:`\lambda`, no mistake anywhere on the grid, and the tie goes to the largest
    :math:`\lambda`, the most regularised model:

    >>> from kernels_ref.ridge import kernel_ridge, kernel_ridge_predict
    >>> x = np.array([[-4.0], [-3.0], [-2.0], [-1.0], [1.0], [2.0], [3.0], [4.0]])
    >>> y = np.sign(x[:, 0])
    >>> res = grid_search(x @ x.T, y, kernel_ridge, kernel_ridge_predict, [0.01, 1.0, 100.0],
    ...                   k_fold(8, 4, y=y, seed=0), param="lam", more_regularised="larger")
    >>> res.errors, res.best, res.fold_errors.shape
    (array([0., 0., 0.]), 100.0, (3, 4))
    >>> fitted = res.refit(x @ x.T, y)  # kernel_ridge(K, y, lam=100.0) on all the points
    >>> bool(kernel_ridge_predict(fitted, 2.5 * x.T)[0] > 0)  # at t = 2.5, k(t, x_i) = 2.5 x_i
    True
    """
    totals = _error_curve(
        K, y, _fits(fit, param, grid, warm_start), predict, folds, loss, warm_start
    )
    return _search_result(totals, folds, param, grid, more_regularised, loss, fit)


@validated(**PROBLEM, C_grid=_grid(), warm_start=boolean())
def grid_search_C(K, y, fit, predict, C_grid, folds, *, loss="misclassification", warm_start=False):
    r"""Validation error of a learner on a grid of :math:`C`, and the :math:`C` it chooses.

    .. math::

        C^* = \min\{C \in \mathcal G : \widehat{\mathrm{Err}}(C) = E^*\}, \qquad
        {E^* = \min_{C' \in \mathcal G} \widehat{\mathrm{Err}}(C')},

    with :math:`\widehat{\mathrm{Err}}(C)` the pooled validation error of
    :func:`validation_error` of ``fit(·, ·, C=C)``: :func:`grid_search` with ``param="C"``
    and ``more_regularised="smaller"``. Source: Chevaleyre (2023), §3.3 and its Figure 8:
    values of :math:`C` on a logarithmic scale, one SVM trained per value, its validation
    error measured, and :math:`C^*` at the minimum of the error curve. Tie rule: among the
    values of :math:`C` with the same (minimal) error the *smallest* is chosen, the most
    regularised model.

    Parameters
    ----------
    K : array_like, shape (n, n)
        Gram matrix of all the points, validated once here.
    y : array_like, shape (n,)
    fit : callable
        ``fit(K_train, y_train, C=C)``, e.g. ``svm.soft_margin_l1`` itself.
    predict : callable
        ``predict(result, K_val)``, e.g. ``svm.svm_predict``.
    C_grid : array_like, shape (n_C,)
        Positive, strictly increasing (usually ``np.logspace(...)``).
    folds : iterable of (train, validation) pairs
        From :func:`k_fold`, ``[train_validation_split(...)]`` for one hold-out set, or a
        scikit-learn splitter's ``cv.split(X, y)``.
    loss : {"misclassification", "squared"}
    warm_start : bool
        If true, ``fit`` is called as ``fit(K_train, y_train, C=C, previous=result)``, where
        ``result`` is its result at the previous (smaller) :math:`C` on the same fold, or
        ``None`` for the first: the learner may start its solver there, e.g.
        ``lambda K, y, C, previous: svm.soft_margin_l1(K, y, C, alpha0=None if previous is
        None else previous.alpha)`` (the solution at a smaller :math:`C` is feasible at a
        larger one).

    Returns
    -------
    GridSearchResult
        ``errors`` of shape ``(n_C,)``, the whole curve, with its spread across folds, and
        ``C`` (= ``best``), ``index``; ``refit(K, y)`` fits at ``C`` on all the points.

    Raises
    ------
    ValueError
        As :func:`validation_error`, and for a ``C_grid`` that is not a non-empty, strictly
        increasing array of positive finite numbers.
    TypeError
        If ``warm_start`` is not a bool.

    Examples
    --------
    Points on a line, labels by a threshold, and a tiny :math:`C`: every
    :math:`\alpha_i = C` and the SVM is a nearest-mean classifier; large :math:`C` gives the
    hard margin. Both classify the validation points correctly, so the smallest :math:`C`
    is chosen:

    >>> from kernels_ref.svm import svm_predict, soft_margin_l1
    >>> x = np.array([[0.0], [1.0], [2.0], [3.0], [5.0], [6.0], [7.0], [8.0]])
    >>> y = np.array([-1.0, -1.0, -1.0, -1.0, 1.0, 1.0, 1.0, 1.0])
    >>> folds = k_fold(8, 2, y=y, seed=0)
    >>> res = grid_search_C(x @ x.T, y, soft_margin_l1, svm_predict, [0.01, 1.0], folds)
    >>> res.errors, res.C
    (array([0., 0.]), 0.01)

    The same search with warm starts gives the same curve:

    >>> warm = lambda K, y, C, previous: soft_margin_l1(
    ...     K, y, C, alpha0=None if previous is None else previous.alpha)
    >>> grid_search_C(x @ x.T, y, warm, svm_predict, [0.01, 1.0], folds,
    ...               warm_start=True).errors
    array([0., 0.])
    """
    fits = _fits(fit, "C", C_grid, warm_start)
    totals = _error_curve(K, y, fits, predict, folds, loss, warm_start)
    return _search_result(totals, folds, "C", C_grid, "smaller", loss, fit)


@validated(
    loss=one_of(*LOSSES),
    y=_targets(),
    gram=_gram_of_sigma(),
    fit=function(),
    predict=function(),
    C_grid=_grid(),
    sigma_grid=_grid(),
    folds=_folds("y"),
    warm_start=boolean(),
)
def grid_search_C_sigma(
    gram,
    y,
    fit,
    predict,
    C_grid,
    sigma_grid,
    folds,
    *,
    loss="misclassification",
    warm_start=False,
):
    r"""Validation error on a grid of :math:`(\sigma, C)`, and the pair it chooses.

    .. math::

        (\sigma^*, C^*) \in \arg\min_{\sigma \in \mathcal S,\ C \in \mathcal G}
        \widehat{\mathrm{Err}}(\sigma, C),

    where :math:`\widehat{\mathrm{Err}}(\sigma, C)` is the pooled validation error
    (:func:`validation_error`) of ``fit(·, ·, C=C)`` on the Gram matrix ``gram(sigma)`` —
    typically a Gaussian kernel of width :math:`\sigma`, whose two parameters interact (a
    narrow kernel needs a small :math:`C`: Hastie, Tibshirani & Friedman (2009), §12.3.5 and
    Figure 12.6). Chevaleyre's (2023, §3.3) search of :math:`C` on a log grid, done for every
    :math:`\sigma`. Tie rule: among the pairs with the same (minimal) error, the smallest
    :math:`C`, then the largest :math:`\sigma` (the most regularised, smoothest model).
    :func:`median_heuristic_sigma` gives the usual centre of the grid of :math:`\sigma`.

    Parameters
    ----------
    gram : callable
        ``gram(sigma)`` returns the ``(n, n)`` Gram matrix of all the points for ``sigma``,
        e.g. ``lambda s: kernels.gaussian_kernel(X, sigma=s)``; each is validated once.
    y : array_like, shape (n,)
    fit, predict : callable
        As for :func:`grid_search_C`.
    C_grid, sigma_grid : array_like, shape (n_C,) and (n_sigma,)
        Positive, strictly increasing.
    folds : iterable of (train, validation) pairs
    loss : {"misclassification", "squared"}
    warm_start : bool
        As for :func:`grid_search_C`, along ``C_grid`` for each ``sigma``.

    Returns
    -------
    GridSearchResult
        ``errors[i, j]`` for ``(sigma_grid[i], C_grid[j])``, with ``fold_errors``,
        ``fold_mean``, ``fold_std``; ``C``, ``sigma``, ``index``; ``refit(gram, y)`` fits at
        ``C`` on ``gram(sigma)``.

    Raises
    ------
    ValueError
        As :func:`grid_search_C`, for a ``gram`` that is not callable or returns a bad or
        differently sized Gram matrix (named ``gram(sigma)``), and for a bad ``sigma_grid``.
    TypeError
        If ``warm_start`` is not a bool.

    Examples
    --------
    >>> from kernels_ref.kernels import gaussian_kernel
    >>> from kernels_ref.svm import svm_predict, soft_margin_l1
    >>> x = np.array([[0.0], [1.0], [2.0], [3.0], [5.0], [6.0], [7.0], [8.0]])
    >>> y = np.array([-1.0, -1.0, -1.0, -1.0, 1.0, 1.0, 1.0, 1.0])
    >>> res = grid_search_C_sigma(lambda s: gaussian_kernel(x, sigma=s), y, soft_margin_l1,
    ...                           svm_predict, [0.1, 10.0], [0.1, 3.0], k_fold(8, 2, y=y))
    >>> res.errors.shape, res.C, res.sigma
    ((2, 2), 0.1, 3.0)
    """
    totals = np.empty((len(sigma_grid), len(C_grid), len(folds)))
    for i, sigma in enumerate(sigma_grid.tolist()):
        fits = _fits(fit, "C", C_grid, warm_start)
        totals[i] = _error_curve(gram(sigma), y, fits, predict, folds, loss, warm_start)
    return _search_result(totals, folds, "C", C_grid, "smaller", loss, fit, sigma_grid)


# --- the median heuristic -------------------------------------------------------------------


@validated(X=data(min_rows=2))
def median_heuristic_sigma(X):
    r"""The median heuristic for the width of a Gaussian kernel: the median distance.

    .. math::

        \sigma = \operatorname{median} D, \qquad {D = \{\|x_i - x_j\| : 1 \le i < j \le n\}},

    the median of the :math:`n(n-1)/2` Euclidean distances between the points of distinct
    indices (the zeros :math:`\|x_i - x_i\|` excluded; with an even number of pairs, the mean
    of the two middle ones). A width of the order of the typical distance keeps the kernel
    between points away from both 1 (a kernel too wide: every point alike) and 0 (too narrow:
    every point alone). It is a default and the centre of a grid to search, not an optimum.

    Source: Gretton, Borgwardt, Rasch, Schölkopf & Smola, "A kernel two-sample test", *JMLR*
    13 (2012), §8 (the kernel width set to the median distance between the points); Garreau,
    Jitkrittum & Kanagawa, "Large sample analysis of the median heuristic" (2017,
    arXiv:1707.07269), which surveys its uses.

    Variants in use — the same median :math:`m`, put in different places:

    - :math:`\sigma = m` in :math:`\exp(-\|x-y\|^2/(2\sigma^2))`, the book's Gaussian kernel
      (:func:`kernels_ref.kernels.gaussian_kernel`): what this function returns;
    - :math:`m` in :math:`\exp(-\|x-y\|^2/m^2)`, i.e. :math:`\sigma^2 = m^2/2` here
      (Rousseau's convention with his :math:`\sigma = m`:
      :func:`kernels_ref.kernels.sigma_from_rousseau`);
    - scikit-learn's ``gamma`` in :math:`\exp(-\gamma\|x-y\|^2)`: :math:`\gamma =
      1/(2\sigma^2) = 1/(2m^2)` for the first, :math:`1/m^2` for the second;
    - some take the median of the squared distances, :math:`m^2` itself, which is the same
      :math:`m` (the square is increasing) up to the averaging of two middle values.

    Parameters
    ----------
    X : array_like, shape (n, d)
        The points, ``n >= 2``.

    Returns
    -------
    float
        :math:`\sigma > 0`.

    Raises
    ------
    ValueError
        If ``X`` has fewer than 2 rows, or if the median distance is 0 (at least half the
        pairs of rows are equal).

    Examples
    --------
    Three points on a line, at distances 1, 2 and 3 from one another:

    >>> median_heuristic_sigma([[0.0], [1.0], [3.0]])
    2.0
    """
    n = len(X)
    Z = X - X.mean(axis=0)  # distances do not change; round-off stays at the spread's scale
    norms = np.einsum("ij,ij->i", Z, Z)
    distances = kernel_distance(linear_kernel(Z), norms, norms)[np.triu_indices(n, 1)]
    sigma = float(np.median(distances))
    if not sigma > 0:
        raise ValueError(
            "X: the median distance between its rows is 0 (at least half the pairs of rows are "
            "equal): remove the duplicate rows, or choose sigma otherwise"
        )
    return sigma
