r"""Kernels and Gram matrices (chapter 1, "The kernel trick").

Every kernel takes data ``X`` of shape ``(n, d)`` and an optional ``Y`` of shape ``(m, d)`` and
returns the Gram matrix :math:`K_{ij} = k(x_i, y_j)` of shape ``(n, m)`` (``(n, n)`` with
``Y = X`` when ``Y`` is omitted). They are vectorised: one matrix product, then element-wise
operations done in place, so that no more than the result is allocated at full size.
When ``Y`` is omitted the result is exactly symmetric.

:func:`gram_loop` is the course's double loop, kept to compare against.
"""

import math

import numpy as np

from ._validation import (
    PSD_RTOL,
    data,
    function,
    gram,
    integer,
    positive,
    psd_threshold,
    real,
    strings,
    validated,
)

__all__ = [
    "gaussian_kernel",
    "gram_loop",
    "is_psd",
    "linear_kernel",
    "min_eigenvalue",
    "polynomial_kernel",
    "sigma_from_rousseau",
    "sigma_to_rousseau",
    "sigmoid_kernel",
    "spectrum_kernel",
]

# Rows per block of the Gaussian Gram matrix: a block (block x m floats) stays in cache while it
# goes through the matrix product, the clipping and the exponential.
_BLOCK = 128


#: The rules of the data of every kernel: ``X``, and ``Y`` (optional) in the same dimension.
XY = {"X": data(), "Y": data(cols=("X", 1), optional=True)}


@validated(**XY)
def linear_kernel(X, Y=None):
    r"""Linear kernel :math:`k(x, y) = \langle x, y \rangle`.

    Source: Rousseau, *Kernel methods* (2022), "Some examples"; Vert, *Méthodes à noyaux*
    (2004), "Exemples 1D".

    Parameters
    ----------
    X : array_like, shape (n, d)
    Y : array_like, shape (m, d), optional
        Defaults to ``X``.

    Returns
    -------
    K : ndarray, shape (n, m)

    Examples
    --------
    >>> linear_kernel([[1.0, 2.0]], [[3.0, 4.0]])
    array([[11.]])
    """
    return X @ (X if Y is None else Y).T  # X @ X.T is computed by a symmetric product


@validated(**XY, degree=integer(low=1), c=real(low=0.0))
def polynomial_kernel(X, Y=None, *, degree=2, c=1.0):
    r"""Polynomial kernel :math:`k(x, y) = (c + \langle x, y \rangle)^{\text{degree}}`.

    Source: Rousseau (2022), "Some examples" (:math:`c \ge 0`); Valle Vidal,
    *Vector de soporte y métodos de kernel* (2009), "Teorema de Mercer (2)" (:math:`c = 1`)
    and "Función de Kernel: Ejemplo" (:math:`c = 0`, degree 2).

    Valid for an integer degree :math:`\ge 1` only, not for Rousseau's ":math:`d > 0`": a
    non-integer power of a negative base is not real, and even where every base is positive
    the Gram matrix need not be positive semi-definite (:math:`c = 1`, :math:`d = 1/2` at the
    points 0, 2, 3 of :math:`\mathbb R`: :math:`\det K = 5\sqrt2 - 7 - \sqrt{10} + 2\sqrt7 -
    \sqrt5 < 0`). A ``degree`` that is not an integer, a float such as ``2.0`` included, is a
    ``ValueError`` naming ``degree``.

    The power is taken by repeated multiplication of a block of rows while it is in cache
    (``np.power`` calls ``pow`` for every entry, several times slower).

    Parameters
    ----------
    X : array_like, shape (n, d)
    Y : array_like, shape (m, d), optional
    degree : int >= 1
        An integer (Python or NumPy); floats are rejected, even integral ones.
    c : float >= 0
        ``c = 0`` gives the homogeneous kernel :math:`\langle x, y\rangle^{\text{degree}}`.

    Returns
    -------
    K : ndarray, shape (n, m)

    Examples
    --------
    >>> polynomial_kernel([[1.0, 2.0]], [[3.0, 4.0]], degree=2, c=1.0)
    array([[144.]])
    >>> polynomial_kernel([[1.0, 2.0]], degree=0.5)
    Traceback (most recent call last):
    ...
    ValueError: degree must be an integer, got 0.5
    """

    def finish(block):
        block += c
        base = block.copy() if degree > 1 else None
        for _ in range(degree - 1):
            block *= base

    return _gram_by_blocks(X, Y, finish)


@validated(**XY, sigma=positive())
def gaussian_kernel(X, Y=None, *, sigma=1.0):
    r"""Gaussian (RBF) kernel :math:`k(x, y) = \exp\left(-\|x - y\|^2 / (2\sigma^2)\right)`.

    Source: Vert (2004), "Calcul de distance"; Valle Vidal (2009), "Teorema de Mercer (2)";
    KRR notes (001). Rousseau (2022) writes :math:`\exp(-\|x-y\|^2/\sigma^2)`, that is
    ``sigma`` here equal to Rousseau's :math:`\sigma / \sqrt{2}`
    (:func:`sigma_from_rousseau`).

    The squared distances come from one matrix product of augmented rows of the points
    translated to the mean of ``X`` (which leaves the kernel unchanged and keeps round-off at
    the scale of the spread of the data rather than of their norms),
    :math:`-\|x-y\|^2/(2\sigma^2) = \langle (x/\sigma, -\|x/\sigma\|^2/2, 1),
    (y/\sigma, 1, -\|y/\sigma\|^2/2) \rangle`, computed by blocks of rows that are clipped at 0
    (round-off can make a tiny squared distance negative) and exponentiated while in cache.
    Without ``Y`` only the upper block triangle is computed and mirrored, so ``K`` is exactly
    symmetric, with a unit diagonal.

    Parameters
    ----------
    X : array_like, shape (n, d)
    Y : array_like, shape (m, d), optional
    sigma : float > 0
        Bandwidth.

    Returns
    -------
    K : ndarray, shape (n, m)
        Entries in [0, 1].

    Notes
    -----
    Other conventions: scikit-learn's ``rbf_kernel`` and ``SVC(kernel="rbf")`` and libsvm
    write :math:`\exp(-\gamma\|x - y\|^2)`, so :math:`\gamma = 1/(2\sigma^2)`, that is
    ``sigma = 1 / np.sqrt(2 * gamma)``; Rousseau's :math:`\sigma_R` is
    :math:`\sqrt2\,\sigma` (:func:`sigma_to_rousseau`).

    Examples
    --------
    >>> gaussian_kernel([[0.0, 0.0]], [[1.0, 1.0]], sigma=1.0)  # exp(-2/2)
    array([[0.36787944]])
    """
    # The kernel is translation invariant: centring the points first keeps the squared norms,
    # and so the cancellation in the expansion, at the scale of the spread of the data.
    origin = X.mean(axis=0)

    def scaled(Z):
        Zs = (Z - origin) / sigma
        return Zs, np.ones(len(Zs)), -0.5 * np.einsum("ij,ij->i", Zs, Zs)

    def finish(block):
        np.minimum(block, 0.0, out=block)
        np.exp(block, out=block)

    Xs, ones_x, half_sq_x = scaled(X)
    Ys, ones_y, half_sq_y = scaled(X) if Y is None else scaled(Y)
    A = np.column_stack([Xs, half_sq_x, ones_x])
    B = np.column_stack([Ys, ones_y, half_sq_y])
    K = _gram_by_blocks(A, B, finish, symmetric=Y is None)
    if Y is None:
        np.fill_diagonal(K, 1.0)
    return K


@validated(sigma=positive())
def sigma_from_rousseau(sigma):
    r"""The book's Gaussian bandwidth from Rousseau's: :math:`\sigma = \sigma_R/\sqrt2`.

    .. math::

        \exp\Big(-\frac{\|x - y\|^2}{\sigma_R^2}\Big)
        = \exp\Big(-\frac{\|x - y\|^2}{2\sigma^2}\Big)
        \iff \sigma_R^2 = 2\sigma^2 \iff \sigma = \frac{\sigma_R}{\sqrt2}.

    Left: Rousseau, *Kernel methods* (2022), "Some examples" (:math:`k_{\text{gauss}}`). Right:
    the book's :func:`gaussian_kernel`, as in Vert, *Méthodes à noyaux* (2004), "Calcul de
    distance", Valle Vidal, *Vector de soporte y métodos de kernel* (2009), "Teorema de Mercer
    (2)", and the KRR notes. Valid for :math:`\sigma_R > 0`. Inverse:
    :func:`sigma_to_rousseau`.

    Parameters
    ----------
    sigma : float > 0
        Rousseau's bandwidth :math:`\sigma_R`.

    Returns
    -------
    float
        The ``sigma`` of :func:`gaussian_kernel` that gives Rousseau's kernel.

    Examples
    --------
    >>> round(sigma_from_rousseau(2.0) ** 2, 12)  # sigma_R^2 = 4 = 2 sigma^2
    2.0
    >>> x, y = [[0.0, 0.0]], [[1.0, 1.0]]  # Rousseau's exp(-2/2^2) with sigma_R = 2
    >>> round(float(gaussian_kernel(x, y, sigma=sigma_from_rousseau(2.0))[0, 0]), 12)
    0.606530659713
    """
    return sigma / math.sqrt(2.0)


@validated(sigma=positive())
def sigma_to_rousseau(sigma):
    r"""Rousseau's Gaussian bandwidth from the book's: :math:`\sigma_R = \sqrt2\,\sigma`.

    .. math::

        \exp\Big(-\frac{\|x - y\|^2}{2\sigma^2}\Big)
        = \exp\Big(-\frac{\|x - y\|^2}{\sigma_R^2}\Big)
        \iff \sigma_R = \sqrt2\,\sigma.

    Left: the book's :func:`gaussian_kernel` (Vert (2004), "Calcul de distance"; Valle Vidal
    (2009), "Teorema de Mercer (2)"; KRR notes). Right: Rousseau, *Kernel methods* (2022),
    "Some examples". Valid for :math:`\sigma > 0`. Inverse: :func:`sigma_from_rousseau`.

    Parameters
    ----------
    sigma : float > 0
        The book's bandwidth, the ``sigma`` of :func:`gaussian_kernel`.

    Returns
    -------
    float
        Rousseau's :math:`\sigma_R`.

    Examples
    --------
    >>> round(sigma_to_rousseau(1.0) ** 2, 12)  # sigma_R^2 = 2 sigma^2
    2.0
    """
    return sigma * math.sqrt(2.0)


@validated(**XY, gamma=real(), c=real())
def sigmoid_kernel(X, Y=None, *, gamma=1.0, c=0.0):
    r"""Sigmoid "kernel" :math:`k(x, y) = \tanh(\gamma \langle x, y \rangle + c)`.

    Source: Rousseau (2022), "Some examples"; Valle Vidal (2009), "Teorema de Mercer (2)"
    ("red neuronal", :math:`\tanh(k_1\langle x, z\rangle + k_2)`). Both list it among
    kernels, but its Gram matrices are not positive semi-definite in general (see
    :func:`min_eigenvalue`): it is not a kernel in the sense of the course.

    Parameters
    ----------
    X : array_like, shape (n, d)
    Y : array_like, shape (m, d), optional
    gamma : float
    c : float

    Returns
    -------
    K : ndarray, shape (n, m)
    """

    def finish(block):
        block *= gamma
        block += c
        np.tanh(block, out=block)

    return _gram_by_blocks(X, Y, finish)


@validated(S=strings(), T=strings(optional=True), k=integer(low=1))
def spectrum_kernel(S, T=None, *, k=3):
    r"""The :math:`k`-spectrum kernel of strings: the number of pairs of equal substrings of
    length :math:`k`.

    .. math::
        K(s, t) = \sum_{u \in \mathcal A^k} \phi_u(s)\, \phi_u(t), \qquad
        \phi_u(s) = \#\{i : s_i s_{i+1} \cdots s_{i+k-1} = u\},

    an inner product of count vectors, hence positive semi-definite: a kernel on objects that
    are not vectors. Source: Leslie, Eskin & Noble, "The spectrum kernel: a string kernel for
    SVM protein classification" (2002). It stands in for the marginalized kernel of RNA
    sequences of Vert, *Méthodes à noyaux* (2004), "ACP à noyau", example (74 human tRNA
    sequences, after Tsuda et al.), whose data and kernel the course does not give. The
    feature space is indexed by the substrings present in ``S`` and ``T``; the entries are
    integers, exact in floating point.

    Parameters
    ----------
    S : list or tuple of str, length n
    T : list or tuple of str, length m, optional
        Defaults to ``S``.
    k : int >= 1
        Length of the substrings compared. A string shorter than :math:`k` has no substring
        of length :math:`k`: its row is zero.

    Returns
    -------
    K : ndarray, shape (n, m)

    Examples
    --------
    >>> spectrum_kernel(["abab", "bab"], k=2)  # ab, ba, ab / ba, ab
    array([[5., 3.],
           [3., 2.]])
    """
    T = S if T is None else T
    index = {}
    counts = []
    for sequence in (S, T):
        rows = []
        for s in sequence:
            row = {}
            for i in range(len(s) - k + 1):
                j = index.setdefault(s[i : i + k], len(index))
                row[j] = row.get(j, 0) + 1
            rows.append(row)
        counts.append(rows)
    Phi_S, Phi_T = (np.zeros((len(rows), len(index))) for rows in counts)
    for Phi, rows in zip((Phi_S, Phi_T), counts, strict=True):
        for a, row in enumerate(rows):
            Phi[a, list(row)] = list(row.values())
    return Phi_S @ Phi_T.T


def _gram_by_blocks(A, B, finish, symmetric=False):
    """``finish(A @ B.T)`` computed by blocks of rows, ``finish`` acting in place on a block.

    ``B = None`` means ``B = A``. Then (or when ``symmetric`` is true, for an ``A`` and ``B``
    whose products are symmetric) only the upper block triangle is computed and the lower one is
    its mirror image, so the result is exactly symmetric. Each block goes through the product
    and ``finish`` while it is in cache; nothing but the result is allocated at full size.
    """
    if B is None:
        B, symmetric = A, True
    n = len(A)
    K = np.empty((n, len(B)))
    for start in range(0, n, _BLOCK):
        stop = min(start + _BLOCK, n)
        first = start if symmetric else 0
        block = K[start:stop, first:]
        np.matmul(A[start:stop], B[first:].T, out=block)
        finish(block)
        if symmetric:
            square = K[start:stop, start:stop]
            lower = np.tril_indices(stop - start, -1)
            square[lower] = square.T[lower]
            for col in range(stop, n, _BLOCK):
                K[col : col + _BLOCK, start:stop] = K[start:stop, col : col + _BLOCK].T
    return K


@validated(k=function(), **XY)
def gram_loop(k, X, Y=None):
    r"""Gram matrix by the course's double loop, :math:`K_{ij} = k(x_i, y_j)` one entry at a time.

    Source: KRR notes (001), the function building the kernel matrix. Kept only as the
    reference the vectorised kernels are compared against (correctness and speed).

    Parameters
    ----------
    k : callable
        ``k(x, y)`` for two points of shape ``(d,)``, returning a float.
    X : array_like, shape (n, d)
    Y : array_like, shape (m, d), optional

    Returns
    -------
    K : ndarray, shape (n, m)
    """
    Y = X if Y is None else Y
    K = np.empty((len(X), len(Y)))
    for i in range(len(X)):
        for j in range(len(Y)):
            K[i, j] = k(X[i], Y[j])
    return K


@validated(K=gram(psd=False))
def min_eigenvalue(K):
    r"""Smallest eigenvalue :math:`\lambda_{\min}(K)` of a symmetric matrix (``eigvalsh``).

    A kernel is positive definite iff every Gram matrix has :math:`\lambda_{\min} \ge 0`
    (Rousseau 2022, "Kernel: formal definition"; Valle Vidal 2009, Mercer).

    Parameters
    ----------
    K : array_like, shape (n, n)
        Symmetric.

    Returns
    -------
    float
    """
    return float(np.linalg.eigvalsh(K)[0])


@validated(K=gram(psd=False), tol=real(low=0.0))
def is_psd(K, *, tol=PSD_RTOL):
    r"""Whether :math:`K` is positive semi-definite: :math:`\lambda_{\min}(K) \ge
    -\text{tol} \max_{ij}|K_{ij}|`.

    The tolerance is relative to the scale of :math:`K`, so that round-off in a large Gram
    matrix is not mistaken for a negative direction and the answer does not depend on units
    (:math:`10^{-12} K` is PSD exactly when :math:`K` is). It is the one rule of the package,
    :func:`kernels_ref._validation.psd_threshold`, with which every learner warns about a Gram
    matrix that is not PSD (default ``tol`` the same, ``PSD_RTOL`` :math:`= 10^{-9}`).

    Parameters
    ----------
    K : array_like, shape (n, n)
        Symmetric.
    tol : float >= 0

    Returns
    -------
    bool

    Examples
    --------
    >>> is_psd([[1.0, 2.0], [2.0, 1.0]]), is_psd(1e-12 * np.array([[1.0, 2.0], [2.0, 1.0]]))
    (False, False)
    >>> is_psd([[1.0, 1.0], [1.0, 1.0]])  # singular
    True
    """
    largest = float(np.max(np.abs(K)))
    return bool(np.linalg.eigvalsh(K)[0] >= -psd_threshold(largest, len(K), tol))
