r"""The Gram operators of SMO: the counterpart of LIBSVM's ``QMatrix`` (chapter 7).

SMO reads the matrix :math:`\tilde K` of its problem through a few operations: its shape, its
diagonal, a row, a product by a vector, a product by some of its rows and a square block. An
array does them all; the two operators here do them for problems whose :math:`\tilde K` is
larger than the Gram matrix, without forming it: :class:`TiledGram` for the
:math:`\varepsilon`-SVR's :math:`2n` variables (LIBSVM's ``SVR_Q``) and :class:`AugmentedGram`
for the SVM without intercept. The products read only the rows of K they need, by blocks of
about 16 MB.
"""

import numpy as np

__all__ = ["AugmentedGram", "TiledGram"]


class TiledGram:
    r"""The :math:`2n \times 2n` matrix :math:`\tilde K = \begin{pmatrix} K & K \\ K & K
    \end{pmatrix}` without forming it.

    With labels :math:`y = (1, \dots, 1, -1, \dots, -1)`,
    :math:`Q_{ij} = y_i y_j \tilde K_{ij}` is
    :math:`\begin{pmatrix} K & -K \\ -K & K \end{pmatrix}`, the quadratic term of the
    :math:`\varepsilon`-SVR dual in the variables :math:`(\alpha, \alpha^*)`
    (Chang & Lin 2011, §2.3). :func:`smo` reads it through the same four operations as an
    array: ``shape``, ``diagonal()``, a row ``G[t]`` and a product ``G @ w``. A row is written
    into one of two buffers kept for the two most recent rows (an SMO step reads two), so that
    a step allocates nothing: it stays valid until two other rows have been read.

    Parameters
    ----------
    K : ndarray, shape (n, n)

    Examples
    --------
    >>> G = TiledGram(np.array([[2.0, 1.0], [1.0, 3.0]]))
    >>> G.shape, G[3], G @ np.ones(4)
    ((4, 4), array([1., 3., 1., 3.]), array([6., 8., 6., 8.]))
    """

    def __init__(self, K):
        self.K = K
        self.n = K.shape[0]
        self.shape = (2 * self.n, 2 * self.n)
        self._rows = [np.empty(2 * self.n), np.empty(2 * self.n)]  # most recent first
        self._bases = [-1, -1]

    def diagonal(self):
        return np.tile(self.K.diagonal(), 2)

    def __getitem__(self, t):
        base, rows, bases = t % self.n, self._rows, self._bases
        if bases[0] != base:
            rows.reverse()
            bases.reverse()
            if bases[0] != base:  # not one of the two recent rows: refill the older buffer
                bases[0] = base
                rows[0][: self.n] = rows[0][self.n :] = self.K[base]
        return rows[0]

    def __matmul__(self, w):
        return np.tile(self.K @ (w[: self.n] + w[self.n :]), 2)

    def abs_matmul(self, w):
        return np.tile(_abs_product(self.K, w[: self.n] + w[self.n :]), 2)

    def columns_product(self, index, w):
        base, where = np.unique(index % self.n, return_inverse=True)
        return np.tile(_columns_product(self.K, base, np.bincount(where, weights=w)), 2)

    def submatrix(self, index):
        base = index % self.n
        return self.K[np.ix_(base, base)]


class AugmentedGram:
    r"""The :math:`(n + 2) \times (n + 2)` matrix :math:`\tilde K = \begin{pmatrix} K & 0 \\
    0 & 0 \end{pmatrix}` without forming it.

    Two extra variables with labels :math:`+1` and :math:`-1`, no bound and zero rows absorb
    the constraint :math:`y^\top \alpha = 0`: the general dual then has the feasible set
    :math:`0 \le \alpha \le C` of a problem *without* intercept (Vert's SVM), and the pair
    steps of :func:`smo` that involve an extra variable are single-variable steps.

    Examples
    --------
    >>> G = AugmentedGram(np.array([[2.0, 1.0], [1.0, 3.0]]))
    >>> G.shape, G[0], G[3]
    ((4, 4), array([2., 1., 0., 0.]), array([0., 0., 0., 0.]))
    """

    def __init__(self, K):
        self.K = K
        self.n = K.shape[0]
        self.shape = (self.n + 2, self.n + 2)

    def diagonal(self):
        return np.concatenate([self.K.diagonal(), [0.0, 0.0]])

    def __getitem__(self, t):
        row = np.zeros(self.n + 2)
        if t < self.n:
            row[: self.n] = self.K[t]
        return row

    def __matmul__(self, w):
        return np.concatenate([self.K @ w[: self.n], [0.0, 0.0]])

    def abs_matmul(self, w):
        return np.concatenate([_abs_product(self.K, w[: self.n]), [0.0, 0.0]])

    def columns_product(self, index, w):
        real = index < self.n
        return np.concatenate([_columns_product(self.K, index[real], w[real]), [0.0, 0.0]])

    def submatrix(self, index):
        out = np.zeros((len(index), len(index)))
        real = index < self.n
        out[np.ix_(real, real)] = self.K[np.ix_(index[real], index[real])]
        return out


def _scores(K, y, p, alpha):
    """``v = -y * (Q alpha + p) = -K (y alpha) - y p``, from scratch: one product with the
    columns of K of the nonzero ``alpha`` (all of K when more than half are nonzero)."""
    v = -(y * p)
    nonzero = np.flatnonzero(alpha)
    if 2 * len(nonzero) <= len(y):
        if len(nonzero):
            v -= _columns_product(K, nonzero, y[nonzero] * alpha[nonzero])
    else:
        v -= K @ (y * alpha)
    return v


def _row_blocks(K, index):
    """Blocks of ``index`` whose rows of K hold about 2^21 entries (16 MB) each."""
    step = max(1, 2**21 // max(K.shape[1], 1))
    return (index[start : start + step] for start in range(0, len(index), step))


def _abs_product(K, w):
    """``|K| @ w`` (K symmetric), reading only the rows of the nonzero ``w``, by blocks, without
    forming ``|K|``."""
    if not isinstance(K, np.ndarray):
        if hasattr(K, "abs_matmul"):
            return K.abs_matmul(w)
        out = np.zeros(K.shape[0])  # an operator with rows only: row by row
        for t in np.flatnonzero(w):
            out += w[t] * np.abs(np.asarray(K[t], dtype=float))
        return out
    out = np.zeros(len(K))
    for rows in _row_blocks(K, np.flatnonzero(w)):
        out += w[rows] @ np.abs(K[rows])
    return out


def _columns_product(K, index, w):
    """``K[:, index] @ w``, reading only the rows ``index`` (K is symmetric), by blocks."""
    if not isinstance(K, np.ndarray):
        if hasattr(K, "columns_product"):
            return K.columns_product(index, w)
        dense = np.zeros(K.shape[0])  # an operator with products only
        np.add.at(dense, index, w)
        return K @ dense
    if len(index) * K.shape[1] <= 2**21:
        return w @ K[index]
    out = np.zeros(K.shape[1])
    start = 0
    for rows in _row_blocks(K, index):
        out += w[start : start + len(rows)] @ K[rows]
        start += len(rows)
    return out


def _submatrix(K, index):
    """The block ``K[index][:, index]`` as a new C-contiguous array."""
    if isinstance(K, np.ndarray):
        return K[np.ix_(index, index)]
    return K.submatrix(index)
