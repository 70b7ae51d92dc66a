"""Input checks shared by every public function of :mod:`kernels_ref`.

One place decides what is valid and words the error, so that every function rejects bad input
the same way: a :class:`ValueError` whose message starts with the name of the argument (a
:class:`TypeError` for a flag that is not a bool or a result object of the wrong type). Arrays
must hold integers or floating-point numbers (complex numbers, strings, booleans and other
objects are refused, never converted); a Gram matrix is positive semi-definite by the one rule
of :func:`psd_threshold`; an iteration limit is an integer >= 1 (:func:`check_max_iter`).
The checks return new float arrays or views that the callers never write to: inputs are never
modified in place.
"""

import math
import numbers
import sys
import warnings

import numpy as np

from .exceptions import NotPSDWarning

__all__ = [
    "check_array",
    "check_bool",
    "check_epsilon",
    "check_gram",
    "check_in_range",
    "check_instance",
    "check_integer",
    "check_labels",
    "check_max_iter",
    "check_nu",
    "check_positive",
    "check_real",
    "check_same_n",
    "check_strings",
    "check_test_gram",
    "psd_threshold",
]


def check_array(a, name, ndim=2, n_rows=None, n_cols=None):
    """Return ``a`` as a finite float array of ``ndim`` dimensions, or raise ``ValueError``.

    ``n_rows`` and ``n_cols`` (when given) fix the first and second dimensions.
    """
    arr = _shaped_array(a, name, ndim)
    # NaN propagates through min and max, and an infinity is one of them: two passes, no
    # temporary array.
    if not (np.isfinite(arr.min()) and np.isfinite(arr.max())):
        raise ValueError(f"{name} contains NaN or infinite values")
    if n_rows is not None and arr.shape[0] != n_rows:
        raise ValueError(f"{name} must have {n_rows} rows, got shape {arr.shape}")
    if n_cols is not None and ndim == 2 and arr.shape[1] != n_cols:
        raise ValueError(f"{name} must have {n_cols} columns, got shape {arr.shape}")
    return arr


def _shaped_array(a, name, ndim):
    """``a`` as a non-empty float64 array of ``ndim`` dimensions (see :func:`_real_array`)."""
    arr = _real_array(a, name)
    if arr.ndim != ndim:
        raise ValueError(f"{name} must be {ndim}-dimensional, got shape {arr.shape}")
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
        raise ValueError(f"{name} must be square, got shape {K.shape}")
    K = np.ascontiguousarray(K)
    diag = np.diag(K)
    non_finite = ValueError(f"{name} contains NaN or infinite values")
    if not np.all(np.isfinite(diag)):
        raise non_finite
    # The threshold of the minors, from the diagonal: for a PSD matrix max|K_ij| = max K_ii.
    t_diag = psd_threshold(float(np.max(np.abs(diag))), n)
    full_psd_test = psd is True and n <= FULL_PSD_TEST_MAX_N
    minors = bool(psd) and not full_psd_test
    largest, asymmetry, minors_ok = _scan_upper_tiles(K, minors, t_diag)
    if not largest < np.inf:  # NaN compares false; an infinity is the largest entry
        raise non_finite
    if not asymmetry < np.inf and not np.all(np.isfinite(K)):  # NaN or inf in a lower tile
        raise non_finite
    if not asymmetry <= rtol * largest + _UNDERFLOW:
        raise ValueError(f"{name} must be symmetric")
    threshold = psd_threshold(largest, n)
    if not minors_ok and threshold > t_diag:  # a larger entry off the diagonal: the rule's t
        minors_ok = _scan_upper_tiles(K, True, threshold)[2]
    if full_psd_test and largest > 0:
        minors_ok = _has_cholesky(K / largest, shift=threshold / largest)
    return K, largest, minors_ok


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
    tile of the lower triangle; the largest entry is read from the upper tiles (a lower entry
    differs from its mirror by the asymmetry, which the caller bounds). A NaN or an infinity
    anywhere makes the first or the second value NaN or infinite. ``minors_ok`` is whether
    every 2 x 2 principal minor is PSD to ``t`` (see :func:`check_gram`); ``True`` without
    ``minors``.
    """
    diag = np.diag(K)
    root = np.sqrt(np.maximum(diag + t, 0.0))
    minors_ok = not minors or bool(diag.min() >= -t)
    high, low, asymmetry, finite = -np.inf, np.inf, 0.0, True
    starts = range(0, len(K), _TILE)
    buffer = np.empty((_TILE, _TILE))  # the upper tile, contiguous: its reductions run faster
    for i in starts:
        rows = slice(i, i + _TILE)
        root_rows = root[rows]
        for j in starts[i // _TILE :]:
            cols = slice(j, j + _TILE)
            view = K[rows, cols]
            upper = buffer[: view.shape[0], : view.shape[1]]
            np.copyto(upper, view)
            lower_t = K[cols, rows].T
            h, lo = float(upper.max()), float(upper.min())
            finite = finite and -np.inf < lo and h < np.inf  # NaN compares false
            high, low = max(high, h), min(low, lo)
            if not np.array_equal(upper, lower_t):
                d = float(np.abs(upper - lower_t).max())
                if not d <= asymmetry:
                    asymmetry = d
            if minors and minors_ok and max(h, -lo) > root_rows.min() * root[cols].min():
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
    """Return a finite test Gram matrix of shape ``(n_test, n_train)``."""
    return check_array(K_test, name, ndim=2, n_cols=n_train)


def check_labels(y, n=None, name="y", both_classes=True):
    """Return labels as a float array of -1.0 and +1.0, with both classes present (unless
    ``both_classes=False``: the general form of the SMO solver allows one class)."""
    y = check_array(y, name, ndim=1, n_rows=n)
    if not np.all((y == 1.0) | (y == -1.0)):
        bad = np.unique(y[(y != 1.0) & (y != -1.0)])[:5]
        raise ValueError(f"{name} must contain only -1 and +1, found {bad.tolist()}")
    if both_classes and np.all(y == y[0]):
        raise ValueError(f"{name} must contain both classes -1 and +1, found only {y[0]:+.0f}")
    return y


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


def check_epsilon(epsilon, name="epsilon"):
    """The half-width of an epsilon-tube: a finite float >= 0 (0 is least absolute deviations).

    The one rule of the package for :math:`\\varepsilon` (``svr.svr``, ``cvx.svr_*``,
    ``losses.epsilon_insensitive_loss``): negative, NaN or infinite values raise.
    """
    return check_real(epsilon, name, low=0.0)


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
