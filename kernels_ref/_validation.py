"""Input checks shared by every public function of :mod:`kernels_ref`, declared once per function.

A public function states the rule of each of its arguments once, next to its definition, with
the decorator :func:`validated`::

    @validated(K=gram(), y=labels(rows="K"), C=positive())
    def soft_margin_l1(K, y, C, *, tol=TOL): ...

The decorator binds the call to the signature, applies the rules in the order they are declared
(a rule may refer to an argument declared before it, such as ``rows="K"``: as many entries as
``K`` has rows), and calls the function with the checked values; the function's own body trusts
its input, and so do the private cores it calls. Every parameter of a decorated function has a
rule (a parameter without one is a mistake the decorator reports at import). The signature,
docstring and name stay those of the function (``inspect.signature``, ``help`` and Sphinx see
them); ``func.rules`` is the table, which ``tests/test_bad_input.py`` reads to generate the
bad-input tests.

One place decides what is valid and words the error, so that every function rejects bad input
the same way: a :class:`ValueError` whose message starts with the name of the argument (a
:class:`TypeError` for a flag that is not a bool or a result object of the wrong type), says
what was expected and, where the mistake is a habit from elsewhere, how to get it (labels in
{0, 1}, a data matrix passed as a Gram matrix, a transposed test Gram matrix, scikit-learn's
``gamma``, ``alpha`` or ``random_state``; :data:`FOREIGN_NAMES`). Arrays must hold integers or
floating-point numbers (complex numbers, strings, booleans and other objects are refused, never
converted); a Gram matrix is positive semi-definite by the one rule of :func:`psd_threshold`;
an iteration limit is an integer >= 1 (:func:`check_max_iter`). The checks return new float
arrays or views that the callers never write to: inputs are never modified in place.
"""

import functools
import inspect
import math
import numbers
import sys
import warnings

import numpy as np

from .exceptions import NotPSDWarning

__all__ = [
    "FOREIGN_NAMES",
    "FOREIGN_VALUES",
    "Rule",
    "array",
    "boolean",
    "box",
    "box_start",
    "check_array",
    "check_bool",
    "check_bounds",
    "check_gram",
    "check_in_range",
    "check_instance",
    "check_integer",
    "check_labels",
    "check_max_iter",
    "check_min_rows",
    "check_nu",
    "check_positive",
    "check_real",
    "check_same_n",
    "check_strings",
    "check_test_gram",
    "cross_gram",
    "data",
    "function",
    "gram",
    "integer",
    "interval",
    "iterations",
    "labels",
    "one_of",
    "positive",
    "psd_minors_ok",
    "psd_threshold",
    "real",
    "result",
    "rule",
    "seed",
    "strings",
    "validated",
    "values",
    "vector",
]


def check_array(a, name, ndim=2, n_rows=None, n_cols=None):
    """Return ``a`` as a finite float array of ``ndim`` dimensions, or raise ``ValueError``.

    ``n_rows`` and ``n_cols`` (when given) fix the first and second dimensions.
    """
    arr = _shaped_array(a, name, ndim)
    # NaN propagates through min and max, and an infinity is one of them: two passes, no
    # temporary array.
    if not (np.isfinite(arr.min()) and np.isfinite(arr.max())):
        raise non_finite(arr, name)
    if n_rows is not None and arr.shape[0] != n_rows:
        raise ValueError(f"{name} must have {n_rows} rows, got shape {arr.shape}")
    if n_cols is not None and ndim == 2 and arr.shape[1] != n_cols:
        raise ValueError(f"{name} must have {n_cols} columns, got shape {arr.shape}")
    return arr


def non_finite(arr, name):
    """The ``ValueError`` of an array with a NaN or an infinity: where the first one is."""
    where = tuple(int(i) for i in np.argwhere(~np.isfinite(arr))[0])
    index = ", ".join(map(str, where))
    return ValueError(
        f"{name} contains NaN or infinite values, the first at {name}[{index}] = {arr[where]}"
    )


class _NumberForArray(ValueError):
    """A single number where an array goes (the error of shape ()): :func:`validated` adds the
    order of the arguments, in case they were swapped."""


def _shaped_array(a, name, ndim):
    """``a`` as a non-empty float64 array of ``ndim`` dimensions (see :func:`_real_array`)."""
    arr = _real_array(a, name)
    if arr.ndim != ndim:
        error = _NumberForArray if arr.ndim == 0 else ValueError
        raise error(f"{name} must be {ndim}-dimensional, got shape {arr.shape}")
    if arr.size == 0:
        raise ValueError(f"{name} must not be empty, got shape {arr.shape}")
    return arr


def _real_array(a, name):
    """``a`` as a float64 array (no copy when it is one), or ``ValueError`` naming ``name``.

    Only integers and floating-point numbers are accepted: complex numbers are not cut to their
    real part, strings (``'1'``) are not parsed, booleans (a mask passed by mistake) are not
    read as 0 and 1, and ``None`` or other objects are rejected.
    """
    try:
        arr = np.asarray(a)
    except (TypeError, ValueError) as exc:  # a ragged nested list
        raise ValueError(f"{name} must be an array of real numbers ({exc})") from None
    kind = arr.dtype.kind
    if kind == "O":
        for value in arr.flat:
            if not _is_real_number(value):
                raise ValueError(
                    f"{name} must be an array of real numbers, found {value!r} "
                    f"of type {type(value).__name__}"
                )
    elif kind == "c":
        raise ValueError(
            f"{name} must be real, got complex values (dtype {arr.dtype}); pass the real part "
            "explicitly if the imaginary part is round-off"
        )
    elif kind == "b":
        raise ValueError(f"{name} must be an array of real numbers, got a boolean array")
    elif kind not in "iuf":
        raise ValueError(f"{name} must be an array of real numbers, got dtype {arr.dtype}")
    return np.asarray(arr, dtype=float)


def _is_real_number(value):
    return isinstance(value, numbers.Real) and not isinstance(value, bool | np.bool_)


#: Largest n for which :func:`check_gram` runs the full positive semi-definiteness test. Its
#: Cholesky factorisation costs n^3 / 3 flops: about 2 ms at n = 500 but 70 ms at n = 2000,
#: several times an SMO solve of that size; above, validation is one O(n^2) pass.
FULL_PSD_TEST_MAX_N = 500

#: Relative tolerance of the one positive semi-definiteness rule of the package
#: (:func:`psd_threshold`), used by :func:`check_gram` and :func:`kernels_ref.kernels.is_psd`.
PSD_RTOL = 1e-9

#: Rows and columns per tile in the O(n^2) checks, which then allocate no n x n temporary.
_TILE = 128

#: The smallest subnormal number: a stored entry is known to half of it at best, the round-off
#: of a matrix whose entries underflow (it is negligible for every other matrix).
_UNDERFLOW = float(np.finfo(float).smallest_subnormal)


def psd_threshold(largest, n, rtol=PSD_RTOL):
    r"""How negative :math:`\lambda_{\min}(K)` may be for ``K`` to count as PSD.

    The one rule of the package: ``K`` (of size ``n``, largest entry ``largest`` in absolute
    value) is positive semi-definite when

    .. math:: \lambda_{\min}(K) \ge -\big(\text{rtol} \max_{ij}|K_{ij}| + n u\big),

    relative to the scale of ``K`` so that it does not depend on units. :math:`u` is the
    smallest subnormal number: each entry of a stored matrix is known to :math:`u/2` at best,
    so a perturbation of spectral norm up to :math:`n u / 2` is round-off (the term matters only
    for a matrix whose entries underflow). Used by :func:`check_gram` (a Cholesky factorisation
    of :math:`K + \text{threshold}\, I`) and :func:`kernels_ref.kernels.is_psd` (eigenvalues).
    """
    return rtol * largest + n * _UNDERFLOW


def check_gram(K, name="K", psd=True, rtol=1e-10):
    r"""Return a square, symmetric, finite Gram matrix (C-contiguous); warn if it is not PSD.

    Symmetry is checked to ``rtol`` times ``max |K_ij|`` (relative, so that a matrix of small
    entries is held to the same standard as one of large entries). With ``psd=True`` a
    :class:`~kernels_ref.exceptions.NotPSDWarning` is issued when ``K`` is clearly not positive
    semi-definite, by the rule of :func:`psd_threshold`. For ``n <= FULL_PSD_TEST_MAX_N`` the
    test is complete: :math:`K / \max|K_{ij}| + (\text{threshold}/\max|K_{ij}|) I` has no
    Cholesky factor, that is :math:`\lambda_{\min}(K) < -\text{threshold}` up to round-off
    (a Cholesky factorisation costs a tenth of an eigendecomposition). Above, it checks the
    necessary conditions that every 2 x 2 principal minor obeys the rule,
    :math:`K_{ii} \ge -t` and :math:`K_{ij}^2 \le (K_{ii} + t)(K_{jj} + t)` with :math:`t` the
    threshold (exactly :math:`\lambda_{\min} \ge -t` for the minor), which cost
    :math:`O(n^2)`; use :func:`kernels_ref.kernels.is_psd` for the complete test of
    a large matrix. With ``psd="minors"`` only the minors are tested, whatever ``n``: for a
    learner that factors a shifted ``K`` anyway and reads the rest of the test from its
    pivots (kernel ridge regression, :func:`kernels_ref.ridge.kernel_ridge`).

    Everything but the Cholesky factorisation is one pass over ``K``, tile by tile on the upper
    triangle, with no n x n temporary: the finiteness of the entries, their largest absolute
    value, the symmetry (exact equality of a tile and its mirror, the common case, settles it
    without arithmetic) and the minors (settled for a whole tile when its largest entry is below
    the smallest bound, as for every tile of a Gaussian Gram matrix).
    """
    K, _, psd_ok = checked_gram(K, name, psd, rtol)
    if not psd_ok:
        warn_not_psd(name)
    return K


def checked_gram(K, name="K", psd=True, rtol=1e-10):
    """:func:`check_gram` without the warning: ``(K, max |K_ij|, whether no PSD test failed)``."""
    K = _shaped_array(K, name, ndim=2)
    n = len(K)
    if n != K.shape[1]:
        raise ValueError(f"{name} must be square, got shape {K.shape}{_data_hint(K.shape, n)}")
    K = np.ascontiguousarray(K)
    diag = np.diag(K)
    if not np.all(np.isfinite(diag)):
        raise non_finite(K, name)
    # The threshold of the minors, from the diagonal: for a PSD matrix max|K_ij| = max K_ii.
    t_diag = psd_threshold(float(np.max(np.abs(diag))), n)
    full_psd_test = psd is True and n <= FULL_PSD_TEST_MAX_N
    minors = bool(psd) and not full_psd_test
    largest, asymmetry, minors_ok = _scan_upper_tiles(K, minors, t_diag)
    if not largest < np.inf:  # NaN compares false; an infinity is the largest entry
        raise non_finite(K, name)
    if not asymmetry < np.inf and not np.all(np.isfinite(K)):  # NaN or inf in a lower tile
        raise non_finite(K, name)
    if not asymmetry <= rtol * largest + _UNDERFLOW:
        raise _asymmetric(K, name, asymmetry / largest)
    threshold = psd_threshold(largest, n)
    if not minors_ok and threshold > t_diag:  # a larger entry off the diagonal: the rule's t
        minors_ok = _scan_upper_tiles(K, True, threshold)[2]
    if full_psd_test and largest > 0:
        minors_ok = _has_cholesky(K / largest, shift=threshold / largest)
    return K, largest, minors_ok


#: How to build a Gram matrix from data, the hint of every error a data matrix provokes.
GRAM_HOW = (
    "the learners take the Gram matrix of the data, not the data: pass "
    "K = kernels_ref.kernels.gaussian_kernel(X, sigma=1.0) (or another kernel of "
    "kernels_ref.kernels)"
)


def _asymmetric(K, name, relative):
    """The ``ValueError`` of a square ``K`` that is not symmetric, with what to do about it."""
    if relative <= ROUND_OFF_ASYMMETRY:
        how = (
            f"this is round-off (largest |{name} - {name}.T| is {relative:.1e} of the largest "
            f"entry): symmetrise it, {name} = ({name} + {name}.T) / 2"
        )
    else:
        how = (
            f"largest |{name} - {name}.T| is {relative:.1e} of the largest entry, more than "
            "round-off: a function with k(x, z) != k(z, x) is not a kernel, and a test-by-train "
            f"matrix kernel(X_test, X_train) goes to the prediction function{_data_hint()}"
        )
    return ValueError(f"{name} must be symmetric (a Gram matrix K[i, j] = k(x_i, x_j) is): {how}")


#: Above this relative asymmetry a matrix is not a Gram matrix computed with round-off: an
#: entry computed in double precision twice, in two orders, differs by a few units of 1e-16 of
#: the largest entry per term summed; 1e-8 leaves room for sums of 10^7 terms.
ROUND_OFF_ASYMMETRY = 1e-8


def _data_hint(shape=None, n=None):
    """The hint of a matrix that is not a Gram matrix: maybe data ``X`` passed in its place."""
    if shape is None:
        return f"; if this is a data matrix X, {GRAM_HOW}"
    if shape[1] < n:  # fewer columns than rows: n points of d features
        return (
            f": this looks like a data matrix X of {n} points in {shape[1]} dimensions; {GRAM_HOW}"
        )
    return (  # more columns than rows: a test-by-train matrix
        f": this looks like a test Gram matrix kernel(X_test, X_train) of {n} test points and "
        f"{shape[1]} training points; a fit takes the square Gram matrix of its training points, "
        "K = kernel(X_train) (e.g. gaussian_kernel(X_train, sigma=1.0)), and the test matrix "
        "goes to the prediction function"
    )


def psd_minors_ok(K, largest):
    """Whether every 2 x 2 principal minor of the checked ``K`` is PSD by the rule of
    :func:`psd_threshold` (``largest`` = max |K_ij|): the O(n^2) part of :func:`check_gram`."""
    return _scan_upper_tiles(K, True, psd_threshold(largest, len(K)))[2]


def warn_not_psd(name):
    """The :class:`~kernels_ref.exceptions.NotPSDWarning` of a matrix proved not PSD."""
    warnings.warn(
        f"{name} is not positive semi-definite (an eigenvalue is below "
        f"-{PSD_RTOL:g} x max|{name}|): it is not the Gram matrix of a kernel",
        NotPSDWarning,
        stacklevel=_caller_level(),
    )


def _caller_level():
    """``stacklevel`` of a warning that points at the first frame outside the package."""
    frame, level = sys._getframe(1), 1
    while frame is not None and frame.f_globals.get("__name__", "").startswith("kernels_ref."):
        frame, level = frame.f_back, level + 1
    return level


def _scan_upper_tiles(K, minors, t):
    """One pass over the square ``K``: ``(max |K_ij|, max |K_ij - K_ji|, minors_ok)``.

    Every tile of the upper triangle (diagonal tiles included) is compared with the transposed
    tile of the lower triangle (into a preallocated mask); the largest entry is read from the
    upper part of each strip of rows, a contiguous block whose reductions run at the speed of
    memory (a lower entry differs from its mirror by the asymmetry, which the caller bounds).
    A NaN or an infinity anywhere makes the first or the second value NaN or infinite.
    ``minors_ok`` is whether every 2 x 2 principal minor is PSD to ``t`` (see
    :func:`check_gram`); ``True`` without ``minors``.
    """
    diag = np.diag(K)
    root = np.sqrt(np.maximum(diag + t, 0.0))
    minors_ok = not minors or bool(diag.min() >= -t)
    high, low, asymmetry, finite = -np.inf, np.inf, 0.0, True
    starts = range(0, len(K), _TILE)
    equal = np.empty((_TILE, _TILE), dtype=bool)  # a tile's comparison, without allocating
    for i in starts:
        rows = slice(i, i + _TILE)
        strip = K[rows, i:]  # the upper part of these rows: contiguous rows, fast reductions
        h, lo = float(strip.max()), float(strip.min())
        finite = finite and -np.inf < lo and h < np.inf  # NaN compares false
        high, low = max(high, h), min(low, lo)
        root_rows = root[rows]
        # the minors of the whole strip are settled when its largest entry is below every bound
        strip_minors = minors and max(h, -lo) > root_rows.min() * root[i:].min()
        for j in starts[i // _TILE :]:
            cols = slice(j, j + _TILE)
            upper, lower_t = K[rows, cols], K[cols, rows].T
            same = equal[: upper.shape[0], : upper.shape[1]]
            np.equal(upper, lower_t, out=same)
            if not same.all():
                d = float(np.abs(upper - lower_t).max())
                if not d <= asymmetry:
                    asymmetry = d
            if strip_minors and minors_ok:
                bound = np.multiply.outer(root_rows, root[cols])
                minors_ok = bool(np.all(np.abs(upper) <= bound))
    return (max(high, -low) if finite else np.nan), asymmetry, minors_ok


def _has_cholesky(K, shift):
    """Whether ``K + shift * I`` is numerically positive definite.

    ``K`` is a new array (the caller's matrix divided by its largest entry, so that the shift
    neither underflows nor depends on units) and is modified in place.
    """
    K.flat[:: len(K) + 1] += shift
    try:
        np.linalg.cholesky(K)
    except np.linalg.LinAlgError:
        return False
    return True


def check_test_gram(K_test, n_train, name="K_test"):
    """Return a finite test Gram matrix of shape ``(n_test, n_train)``.

    ``K_test[a, i] = k(t_a, x_i)``: one row per test point, one column per training point. The
    error of a wrong number of columns says how to build it, and that it is transposed when its
    rows match the training set.
    """
    K_test = check_array(K_test, name, ndim=2)
    if K_test.shape[1] != n_train:
        how = "build it as kernel(X_test, X_train), e.g. gaussian_kernel(X_test, X_train, sigma)"
        if K_test.shape[0] == n_train:
            how = f"it looks transposed: pass {name}.T, or {how}"
        raise ValueError(
            f"{name} must have {n_train} columns, one per training point (shape (n_test, "
            f"{n_train})), got shape {K_test.shape}: {how}"
        )
    return K_test


def check_labels(y, n=None, name="y", both_classes=True):
    """Return labels as a float array of -1.0 and +1.0, with both classes present (unless
    ``both_classes=False``: the general form of the SMO solver allows one class)."""
    y = check_array(y, name, ndim=1, n_rows=n)
    if not np.all((y == 1.0) | (y == -1.0)):
        bad = np.unique(y[(y != 1.0) & (y != -1.0)])[:5]
        raise ValueError(
            f"{name} must contain only -1 and +1, found {bad.tolist()}{_labels_hint(y, name)}"
        )
    if both_classes and np.all(y == y[0]):
        raise ValueError(f"{name} must contain both classes -1 and +1, found only {y[0]:+.0f}")
    return y


def _labels_hint(y, name):
    """How to turn ``y`` into labels +-1, by what it looks like."""
    values = np.unique(y)
    if np.all((values == 0.0) | (values == 1.0)):
        return (
            f": map labels in {{0, 1}} with 2 * {name} - 1 (the estimators.CSVC classifier maps "
            "any two labels itself)"
        )
    if len(values) == 2:
        return (
            f": map two labels a < b with np.where({name} == b, 1.0, -1.0) (the estimators.CSVC "
            "classifier maps any two labels itself)"
        )
    return (
        f": {len(values)} distinct values look like real-valued targets, not two classes; "
        "regress them with ridge.kernel_ridge or svr.svr (in model_selection, with "
        'loss="squared")'
    )


def check_nu(nu, y):
    """Return ``nu`` if it lies in (0, 1] and the nu-SVM is feasible for labels ``y``.

    The dual constraints :math:`\\sum_i \\alpha_i y_i = 0`, :math:`\\sum_i \\alpha_i \\ge \\nu`
    and :math:`0 \\le \\alpha_i \\le 1/n` can hold together only if
    :math:`\\nu \\le 2\\min(n_+, n_-)/n`; the message gives that bound.
    """
    nu = check_in_range(nu, "nu", 0.0, 1.0, low_open=True)
    n_pos = int(np.count_nonzero(y > 0))
    n_neg = len(y) - n_pos
    nu_max = 2.0 * min(n_pos, n_neg) / len(y)
    if nu > nu_max * (1 + 1e-12):
        raise ValueError(
            f"nu = {nu} is infeasible for these labels: the nu-SVM needs "
            f"nu <= 2 min(n+, n-)/n = {nu_max:.6g} (n+ = {n_pos}, n- = {n_neg})"
        )
    return nu


def check_positive(value, name, allow_inf=False):
    """Return ``value`` as a float if it is > 0 (and finite unless ``allow_inf``)."""
    value = _check_real(value, name)
    if math.isnan(value) or value <= 0 or (math.isinf(value) and not allow_inf):
        raise ValueError(
            f"{name} must be a positive {'' if allow_inf else 'finite '}number, got {value}"
        )
    return value


def check_in_range(value, name, low, high, low_open=False, high_open=False):
    """Return ``value`` as a float if it lies in the interval from ``low`` to ``high``.

    ``low_open`` / ``high_open`` exclude the end points.
    """
    value = _check_real(value, name)
    too_low = value <= low if low_open else value < low
    too_high = value >= high if high_open else value > high
    if math.isnan(value) or too_low or too_high:
        interval = f"{'(' if low_open else '['}{low}, {high}{')' if high_open else ']'}"
        raise ValueError(f"{name} must lie in {interval}, got {value}")
    return value


def check_integer(value, name, low=None, high=None):
    """Return ``value`` as an ``int`` with ``low <= value <= high`` (bounds optional)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise ValueError(f"{name} must be an integer, got {value!r}")
    value = int(value)
    if (low is not None and value < low) or (high is not None and value > high):
        lo = "-inf" if low is None else low
        hi = "inf" if high is None else high
        raise ValueError(f"{name} must lie in [{lo}, {hi}], got {value}")
    return value


def check_same_n(a, b, name_a, name_b):
    """Raise unless arrays ``a`` and ``b`` have the same number of rows."""
    if a.shape[0] != b.shape[0]:
        raise ValueError(
            f"{name_a} and {name_b} must have the same number of rows, "
            f"got {a.shape[0]} and {b.shape[0]}"
        )


def check_strings(S, name):
    """Return ``S`` as a list of ``str``: a non-empty sequence of strings, else ``ValueError``.

    A single string is refused (it would be read as a sequence of one-letter strings), and so
    is a sequence holding anything but strings (bytes, numbers, ``None``).
    """
    if isinstance(S, str | bytes) or not isinstance(S, list | tuple | np.ndarray):
        raise ValueError(f"{name} must be a list or tuple of strings, got {type(S).__name__}")
    S = list(S.tolist() if isinstance(S, np.ndarray) else S)
    if not S:
        raise ValueError(f"{name} must contain at least one string, got an empty sequence")
    for s in S:
        if not isinstance(s, str):
            raise ValueError(f"{name} must contain only strings, got {s!r}")
    return S


def check_real(value, name, low=None):
    """Return ``value`` as a finite float, ``>= low`` when ``low`` is given."""
    value = _check_real(value, name)
    if not math.isfinite(value):
        raise ValueError(f"{name} must be finite, got {value}")
    if low is not None and value < low:
        raise ValueError(f"{name} must be >= {low}, got {value}")
    return value


def _check_real(value, name):
    """``value`` as a float if it is a real number (NaN and infinities included), else raise.

    Strings, complex numbers and booleans are rejected (``True`` is not 1); a 0-d array of a
    real dtype is accepted.
    """
    if isinstance(value, np.ndarray) and value.ndim == 0 and value.dtype.kind in "iuf":
        value = value.item()
    if not _is_real_number(value):
        raise ValueError(f"{name} must be a real number, got {value!r}")
    return float(value)


def check_bool(value, name):
    """Return ``value`` as a ``bool`` if it is one (``numpy.bool_`` too), else ``TypeError``."""
    if not isinstance(value, bool | np.bool_):
        raise TypeError(f"{name} must be a bool (True or False), got {value!r}")
    return bool(value)


def check_instance(value, cls, name, origin):
    """Return ``value`` if it is an instance of ``cls``, else ``TypeError`` naming ``name``.

    ``origin`` says where such an object comes from (e.g. ``"a fit of kernels_ref.svm"``).
    """
    if not isinstance(value, cls):
        raise TypeError(
            f"{name} must be of type {cls.__name__} (from {origin}), got {type(value).__name__}"
        )
    return value


def check_max_iter(value, name="max_iter", default=None):
    """An iteration limit: an ``int >= 1``, or ``default`` when ``value`` is ``None``.

    The one rule of the package for every iteration limit (``max_iter``, ``max_epochs``): a
    limit of 0 asks for no work and is rejected; a limit that is reached before the tolerance
    is met gives the current iterate with a :class:`~kernels_ref.exceptions.ConvergenceWarning`.
    """
    if value is None and default is not None:
        return default
    return check_integer(value, name, low=1)


def check_bounds(C, n, name="C"):
    """Upper bounds :math:`C_i \\in (0, +\\infty]` of a box constraint, as ``n`` floats.

    ``C`` is one number (every bound equal) or an array of ``n`` of them; ``+inf`` means no
    bound (the hard margin). The one rule of the box of every SVM and SMO dual.
    """
    if np.ndim(C) == 0 and not isinstance(C, str | bytes):
        return np.full(n, check_positive(C, name, allow_inf=True))
    C = _real_array(C, name)
    if C.shape != (n,):
        raise ValueError(
            f"{name} must be a positive number or an array of {n} of them, got shape {C.shape}"
        )
    if np.any(np.isnan(C)) or np.any(C <= 0):
        raise ValueError(f"{name} must be positive (+inf allowed), got NaN or a value <= 0")
    return C


# --- the rules of the arguments, declared once per function --------------------------------


class Rule:
    """The rule of one argument: ``rule(value, name, args)`` returns the checked value.

    ``check(value, name, args)`` does the work; ``args`` holds the arguments checked before this
    one (a rule may read the size or the value of one of them). ``kind`` names the kind of
    argument (the bad-input tests generate their cases from it); ``optional``: ``None`` is
    accepted and passed on unchanged; ``samples``: the axes that run over the samples of the
    call (``None``: not tied to the other arguments); ``refs``: the arguments it refers to.
    """

    def __init__(self, check, kind, *, optional=False, samples=None, refs=()):
        self.check, self.kind, self.optional = check, kind, optional
        self.samples, self.refs = samples, tuple(r for r in refs if isinstance(r, str))

    def __call__(self, value, name, args):
        if value is None and self.optional:
            return None
        return self.check(value, name, args)

    def __repr__(self):
        return f"{self.kind}{' or None' if self.optional else ''}"


def _size(ref, args):
    """The size ``ref`` stands for: an int, a callable of ``args``, the number of rows of an
    argument (``"K"``), of one of its fields (``"result.alpha"``), or ``("X", axis)``."""
    if ref is None or isinstance(ref, int):
        return ref
    if callable(ref):
        return ref(args)
    if isinstance(ref, tuple):
        return args[ref[0]].shape[ref[1]]
    name, _, field = ref.partition(".")
    value = getattr(args[name], field) if field else args[name]
    return len(value)


def _value(ref, args):
    """A bound: a number, or the name of an argument checked before (its value)."""
    return args[ref] if isinstance(ref, str) else ref


def _ref_name(ref):
    return (
        ref.partition(".")[0]
        if isinstance(ref, str)
        else ref[0]
        if isinstance(ref, tuple)
        else None
    )


def array(ndim=2, *, rows=None, cols=None, low=None, min_rows=None, optional=False, kind=None):
    """A finite real array of ``ndim`` dimensions; ``rows`` / ``cols`` fix its shape (a size:
    see :func:`_size`, e.g. ``rows="K"``, as many rows as ``K``); ``low``: its least entry;
    ``min_rows``: the fewest rows it may have (:func:`check_min_rows`)."""
    kind = kind or {1: "vector", 2: "matrix"}.get(ndim, "array")
    # The axis that runs over the samples of the call: the rows, unless their number is another
    # argument's number of features (a tuple ("X", 1)).
    samples = None if isinstance(rows, tuple) else (0,)

    def check(value, name, args):
        arr = check_array(value, name, ndim, n_cols=_size(cols, args))
        n = _size(rows, args)
        if n is not None and len(arr) != n:
            paired = f", one per row of {rows}" if isinstance(rows, str) and "." not in rows else ""
            raise ValueError(f"{name} must have {n} rows{paired}, got shape {arr.shape}")
        if low is not None and arr.min() < low:
            raise ValueError(f"{name} must be >= {low:g}, found {float(arr.min())}")
        return check_min_rows(arr, name, min_rows)

    refs = (_ref_name(rows), _ref_name(cols))
    return Rule(check, kind, optional=optional, samples=samples, refs=refs)


def data(*, rows=None, cols=None, min_rows=None, optional=False):
    """A data matrix of shape ``(n, d)``, one row per point (``rows``: the ``n`` of another,
    paired with it; ``cols``: the ``d`` of another; ``min_rows``: the fewest points)."""
    rule = array(2, rows=rows, cols=cols, min_rows=min_rows, optional=optional, kind="data")
    rule.samples = (0,) if cols is None else None
    return rule


def check_min_rows(arr, name, min_rows):
    """Return ``arr`` if it has at least ``min_rows`` rows (``None``: any number), else
    ``ValueError``: an estimate that needs pairs of points (a distance, a correlation)."""
    if min_rows is not None and len(arr) < min_rows:
        raise ValueError(
            f"{name} must have at least {min_rows} rows (one per point; what it measures "
            f"needs {min_rows} points), got shape {arr.shape}"
        )
    return arr


def vector(*, rows=None, low=None, optional=False):
    """A finite real 1-D array (``rows``: its length, e.g. ``rows="K"``; ``low``: its least
    entry)."""
    return array(1, rows=rows, low=low, optional=optional)


def values(*, low=None, high=None):
    """Finite real numbers: a number or an array of any shape (the losses act entry-wise),
    in ``[low, high]`` when given."""

    def check(value, name, args):
        try:
            ndim = np.ndim(value)
        except ValueError:  # a ragged nested list: let check_array word the error
            ndim = 1
        arr = check_array(value, name, ndim=ndim)
        lo = -math.inf if low is None else low
        hi = math.inf if high is None else high
        outside = (arr < lo) | (arr > hi)
        if np.any(outside):  # raises, naming the first value outside
            check_in_range(arr[outside].flat[0], name, lo, hi)
        return arr

    return Rule(check, "values")


def gram(*, psd=True, rows=None, optional=False):
    """A square, symmetric, finite Gram matrix (:func:`check_gram`): ``psd=True`` warns if it is
    not positive semi-definite; ``False`` does not test; ``"raise"`` and ``"deferred"`` leave
    the test to the function, which raises (``"raise"``) or warns with :func:`warn_not_psd`
    when the factorisation it needs anyway fails (``"deferred"``).
    ``rows``: the size it must have (e.g. that of a result's training set)."""
    kind = {True: "gram", False: "gram_nopsd", "raise": "gram_raise", "deferred": "gram"}[psd]
    # rows="K1": the Gram matrix of the same points as K1 (paired); rows="result.alpha": of the
    # training points of a result
    paired = isinstance(rows, str) and "." not in rows

    def check(value, name, args):
        K = check_gram(value, name, psd=psd is True)
        n = _size(rows, args)
        if n is not None and len(K) != n:
            what = (
                f"{n} x {n}, as {rows} is"
                if paired
                else (f"the {n} x {n} training Gram matrix of {_ref_name(rows)}")
            )
            raise ValueError(f"{name} must be {what}, got shape {K.shape}")
        return K

    samples = (0, 1) if rows is None or paired else None
    return Rule(check, kind, optional=optional, samples=samples, refs=(_ref_name(rows),))


def cross_gram(n_train, *, rows=None, min_rows=None):
    """A test Gram matrix ``K_test[a, i] = k(t_a, x_i)`` of ``n_train`` columns (a size: the
    rows of a training Gram matrix ``"K_train"``, or of a result's field ``"result.alpha"``);
    ``rows``: as many test points as another argument (``"K1_test"``); ``min_rows``: at
    least that many."""

    def check(value, name, args):
        K_test = check_test_gram(value, _size(n_train, args), name)
        m = _size(rows, args)
        if m is not None and len(K_test) != m:
            raise ValueError(
                f"{name} must have {m} rows, one per test point of {_ref_name(rows)}, got "
                f"shape {K_test.shape}"
            )
        return check_min_rows(K_test, name, min_rows)

    ref = _ref_name(n_train)
    tied = isinstance(n_train, str) and "." not in n_train
    return Rule(check, "matrix", samples=(1,) if tied else None, refs=(ref,))


def labels(*, rows=None, both_classes=True):
    """Class labels -1 and +1 (:func:`check_labels`), as many as ``rows`` says."""

    def check(value, name, args):
        return check_labels(value, _size(rows, args), name, both_classes)

    return Rule(check, "labels" if both_classes else "signs", samples=(0,), refs=(_ref_name(rows),))


def positive(*, allow_inf=False, optional=False):
    """A real number > 0 (finite unless ``allow_inf``)."""

    def check(value, name, args):
        return check_positive(value, name, allow_inf)

    return Rule(check, "pos_inf" if allow_inf else "pos", optional=optional)


def real(*, low=None, optional=False):
    """A finite real number, ``>= low`` when given."""

    def check(value, name, args):
        return check_real(value, name, low)

    return Rule(check, "real" if low is None else "nonneg", optional=optional)


def interval(low, high, *, closed="both"):
    """A real number between ``low`` and ``high`` (numbers, or names of arguments checked
    before); ``closed`` is ``"both"``, ``"left"``, ``"right"`` or ``"neither"``."""
    low_open = closed in ("right", "neither")
    high_open = closed in ("left", "neither")

    def check(value, name, args):
        return check_in_range(
            value, name, _value(low, args), _value(high, args), low_open, high_open
        )

    kind = {(0.0, 1.0, "both"): "unit", (0.0, 1.0, "neither"): "prob_open"}
    return Rule(check, kind.get((low, high, closed), "interval"), refs=(low, high))


def integer(*, low=1, high=None, optional=False):
    """An integer (not a bool, not a float) in ``[low, high]``; ``high`` may be a size
    (:func:`_size`: ``"K"`` for the number of rows of ``K``), ``low`` the name of an argument
    checked before (its value)."""

    def check(value, name, args):
        return check_integer(value, name, _value(low, args), _size(high, args))

    # int1: >= 1, or >= another argument that is (m_max >= m_min >= 1)
    kind = "int1" if low == 1 or isinstance(low, str) else "int"
    return Rule(check, kind, optional=optional, refs=(_ref_name(high), low))


def boolean():
    """A ``bool`` (``numpy.bool_`` too); anything else is a ``TypeError``."""
    return Rule(lambda value, name, args: check_bool(value, name), "bool")


def one_of(*options):
    """One of the strings ``options``; a known name from elsewhere gets its translation
    (:data:`FOREIGN_VALUES`)."""

    def check(value, name, args):
        if (isinstance(value, str) or value is None) and value in options:
            return value
        hint = FOREIGN_VALUES.get(value) if isinstance(value, str) else None
        hint = f": {hint}" if hint else ""
        raise ValueError(f"{name} must be one of {options}, got {value!r}{hint}")

    return Rule(check, "option")


def function():
    """A callable."""

    def check(value, name, args):
        if not callable(value):
            raise ValueError(f"{name} must be callable, got {value!r}")
        return value

    return Rule(check, "callable")


def strings(*, optional=False):
    """A non-empty list or tuple of ``str`` (:func:`check_strings`)."""
    return Rule(lambda value, name, args: check_strings(value, name), "strings", optional=optional)


def iterations(default=None):
    """An iteration limit (:func:`check_max_iter`): an int >= 1; ``None`` gives ``default``,
    a number or a callable of the arguments (a limit that grows with the problem)."""

    def check(value, name, args):
        if value is None and default is not None:
            return default(args) if callable(default) else default
        return check_max_iter(value, name)

    return Rule(check, "iterations", optional=False)


def seed():
    """A seed: ``None`` (fresh entropy), an int >= 0, or a :class:`numpy.random.Generator`
    (used as it is); the function receives a ``Generator``."""

    def check(value, name, args):
        if isinstance(value, np.random.Generator):
            return value
        if value is not None:
            if isinstance(value, bool) or not isinstance(value, numbers.Integral):
                raise ValueError(
                    f"{name} must be None, an integer >= 0 or a numpy Generator, got {value!r}"
                )
            value = check_integer(value, name, low=0)  # numpy's seeds are >= 0
        return np.random.default_rng(value)

    return Rule(check, "seed")


def box(*, rows, optional=False):
    """Upper bounds of a box constraint: one number in (0, +inf] or ``rows`` of them
    (:func:`check_bounds`)."""

    def check(value, name, args):
        return check_bounds(value, _size(rows, args), name)

    return Rule(check, "pos_inf", optional=optional, refs=(_ref_name(rows),))


def box_start(*, rows):
    """A starting point of a box-constrained dual: ``rows`` values with ``0 <= alpha0 <= C``
    (``C`` the box of the call, checked before: one number or one per variable)."""

    def check(value, name, args):
        alpha0 = check_array(value, name, ndim=1, n_rows=_size(rows, args))
        C = np.broadcast_to(np.asarray(args["C"], dtype=float), alpha0.shape)
        if np.any(alpha0 < 0) or np.any(alpha0 > C):
            bound = f" = {C[0]:g}" if np.all(C == C[0]) else ""
            raise ValueError(f"{name} must satisfy 0 <= {name} <= C{bound}")
        return alpha0

    return Rule(check, "start", optional=True, samples=(0,), refs=(_ref_name(rows), "C"))


#: Result type -> the prediction function that takes it (filled by :func:`validated`): the
#: hint of a result of the wrong kind.
PREDICTORS = {}

#: The suffixes of the prediction functions: ``<learner>_predict`` evaluates the learned
#: function at test points, ``<learner>_transform`` projects them.
PREDICTION_SUFFIXES = ("_predict", "_transform")


def result(cls, origin):
    """A fit result of type ``cls`` (from ``origin``); another result is a ``TypeError`` that
    names the prediction function which takes it."""

    def check(value, name, args):
        if isinstance(value, cls):
            return value
        where = PREDICTORS.get(type(value))
        hint = f": pass it to {where} instead" if where else ""
        raise TypeError(
            f"{name} must be of type {cls.__name__} (from {origin}), got "
            f"{type(value).__name__}{hint}"
        )

    rule = Rule(check, "result")
    rule.cls = cls
    return rule


def rule(check, kind="other", **kw):
    """A rule of its own, ``check(value, name, args) -> value``, for an argument whose rule no
    other function shares (a feasibility condition, a starting point)."""
    return Rule(check, kind, **kw)


#: Argument names of other libraries and texts, and what this package calls them: the hint of
#: an unexpected keyword argument (when the function has the package's argument).
FOREIGN_NAMES = {
    "gamma": (
        "sigma",
        "the Gaussian width here is sigma, and scikit-learn's gamma = 1 / (2 sigma^2): "
        "pass sigma=1 / np.sqrt(2 * gamma)",
    ),
    "alpha": ("lam", "scikit-learn's alpha (KernelRidge, Ridge) is lam here: pass lam=alpha"),
    "lambda": ("lam", "the regularisation parameter is lam here: pass lam"),
    "lambda_": ("lam", "the regularisation parameter is lam here: pass lam"),
    "lmbda": ("lam", "the regularisation parameter is lam here: pass lam"),
    "random_state": ("seed", "the seed is seed here (an int or a numpy Generator): pass seed"),
    "rng": ("seed", "the seed is seed here (an int or a numpy Generator): pass seed"),
}

#: Arguments of a kernel, which a learner of scikit-learn takes and one of this package does not:
#: it takes the Gram matrix ``K``, built by a kernel of :mod:`kernels_ref.kernels`.
KERNEL_ARGUMENTS = ("kernel", "gamma", "sigma", "degree", "coef0")

#: Option values of other libraries and what this package calls them (:func:`one_of`).
FOREIGN_VALUES = {
    "rbf": (
        "scikit-learn's 'rbf' kernel is 'gaussian' here, with sigma in place of gamma: "
        "gamma = 1 / (2 sigma^2), so sigma = 1 / np.sqrt(2 * gamma)"
    ),
    "poly": "scikit-learn's 'poly' kernel is 'polynomial' here (degree, and c for coef0)",
}


def _unexpected(func, signature, args, kwargs):
    """The ``TypeError`` of a call that does not fit the signature: a keyword that ``func``
    does not take (with the package's name for it), or options passed by position."""
    params = signature.parameters.values()
    positional = [p.name for p in params if p.kind == p.POSITIONAL_OR_KEYWORD]
    if len(args) > len(positional):
        options = [p.name for p in params if p.kind == p.KEYWORD_ONLY]
        return TypeError(
            f"{func.__name__} takes at most {len(positional)} positional arguments "
            f"({', '.join(positional)}), got {len(args)}: pass its options by name, "
            f"e.g. {options[0]}=..., among {', '.join(options)}"
        )
    for key in kwargs:
        if key in signature.parameters:
            continue
        known, hint = FOREIGN_NAMES.get(key, (None, ""))
        if known in signature.parameters and hint:
            return TypeError(f"{key} is not an argument of {func.__name__}: {hint}")
        if key in KERNEL_ARGUMENTS and "K" in signature.parameters:
            return TypeError(
                f"{key} is not an argument of {func.__name__}: the kernel and its parameters "
                "make the Gram matrix K that it takes, e.g. K = "
                "kernels_ref.kernels.gaussian_kernel(X, sigma=1.0) (scikit-learn's gamma = "
                "1 / (2 sigma^2))"
            )
        names = ", ".join(signature.parameters)
        return TypeError(
            f"{key} is not an argument of {func.__name__}, whose arguments are {names}"
        )
    return None


def _order_hint(func, signature, name, args):
    """The hint of an array argument given a single number: if it came by position, maybe the
    arguments are in another order (``soft_margin_l1(K, C, y)``); else empty."""
    params = signature.parameters.values()
    positional = [p.name for p in params if p.kind == p.POSITIONAL_OR_KEYWORD]
    if name not in positional[: len(args)]:
        return ""
    order = ", ".join(positional)
    return (
        f": a single number was passed in the place of {name}; {func.__name__} takes its "
        f"arguments in the order ({order})"
    )


def validated(**rules):
    """Decorator: check the arguments of a public function by the rules declared here, once.

    ``rules`` maps each parameter of the function to its :class:`Rule`, in the order in which
    they are checked (a rule that refers to another argument comes after it). The function is
    called with the checked values, by the same signature; its body trusts them. An unexpected
    keyword argument that another library uses (``gamma``, ``alpha``, ``random_state``...) is a
    ``TypeError`` that gives this package's name for it (:data:`FOREIGN_NAMES`).
    """

    def decorate(func):
        signature = inspect.signature(func)
        missing = set(signature.parameters) ^ set(rules)
        if missing:
            raise TypeError(f"{func.__name__}: parameters and rules differ on {sorted(missing)}")
        for arg_rule in rules.values():
            if getattr(arg_rule, "kind", None) == "result" and func.__name__.endswith(
                PREDICTION_SUFFIXES
            ):
                PREDICTORS.setdefault(arg_rule.cls, f"{func.__module__}.{func.__name__}")

        @functools.wraps(func)
        def checked(*args, **kwargs):
            try:
                bound = signature.bind(*args, **kwargs)
            except TypeError as exc:
                raise (_unexpected(func, signature, args, kwargs) or exc) from None
            bound.apply_defaults()
            values = bound.arguments
            for name, arg_rule in rules.items():
                try:
                    values[name] = arg_rule(values[name], name, values)
                except _NumberForArray as exc:
                    raise ValueError(f"{exc}{_order_hint(func, signature, name, args)}") from None
            return func(*bound.args, **bound.kwargs)

        checked.rules = rules
        return checked

    return decorate
