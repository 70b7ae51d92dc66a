r"""Linear algebra shared by the modules: the sign convention of eigenvectors, triangular solves.

The one sign convention of every eigenvector and singular-vector result of the package.

An eigenvector (or a pair of singular vectors) is defined only up to its sign, and which sign a
LAPACK routine returns depends on the BLAS kernels, the thread count and the library version.
Every result built from one — kernel and linear PCA, linear and kernel CCA, the finite feature
map — is therefore signed here, by :func:`sign_convention`, so that it is the same on every
machine.
"""

import numpy as np

__all__ = [
    "block_inverses",
    "sign_convention",
    "solve_cholesky",
    "solve_lower",
    "solve_lower_transposed",
]

#: Entries whose magnitude is within this relative distance of a column's largest count as
#: tied with it: ties in exact arithmetic differ by round-off only (about 1e-16 relative), far
#: below this threshold, and two distinct magnitudes are almost never this close.
TIE_RTOL = 1e-8


def sign_convention(scores, *arrays):
    r"""Flip columns so that each column of ``scores`` has a positive leading entry.

    The leading entry of a column is its **first** entry (smallest row index) whose magnitude is
    within a relative :data:`TIE_RTOL` of the largest magnitude of the column,

    .. math::
        i_k = \min \{ i : |s_{ik}| \ge (1 - 10^{-8}) \max_j |s_{jk}| \}, \qquad
        \text{column } k \text{ is multiplied by } \operatorname{sign}(s_{i_k k}),

    and column :math:`k` of every array of ``arrays`` is multiplied by the same sign. Taking the
    first of the *nearly* largest entries, rather than the first of the largest, makes the rule
    deterministic when two entries tie in exact arithmetic (a symmetric data set): their computed
    magnitudes differ in the last bits, and which is larger depends on the machine. A zero column
    is left as it is.

    Parameters
    ----------
    scores : ndarray, shape (n, k)
        The columns whose signs are fixed (e.g. the projections of the training points).
    *arrays : ndarray, shape (m, k)
        Arrays that share the columns of ``scores`` (eigenvectors, dual coefficients, ...).

    Returns
    -------
    list of ndarray
        ``[scores, *arrays]``, each with its columns multiplied by the signs (new arrays).

    Examples
    --------
    >>> s = np.array([[1.0, -3.0], [-1.0 - 1e-15, 3.0 + 1e-15]])  # ties up to round-off
    >>> sign_convention(s)[0]
    array([[ 1.,  3.],
           [-1., -3.]])
    """
    magnitude = np.abs(scores)
    largest = magnitude.max(axis=0)
    leading = np.argmax(magnitude >= (1.0 - TIE_RTOL) * largest, axis=0)
    signs = np.where(scores[leading, np.arange(scores.shape[1])] < 0, -1.0, 1.0)
    return [a * signs for a in (scores, *arrays)]


#: Rows per block of the triangular solves.
_TRIANGULAR_BLOCK = 128


def block_inverses(L):
    r"""The inverses of the diagonal blocks of the lower-triangular :math:`L`, for repeated
    solves with it (:func:`solve_lower`, :func:`solve_cholesky`): each solve is then matrix
    products only, where a dense solve of each block costs :math:`\tfrac23 b^3` flops and most of
    a solve with a factor of up to a few hundred rows."""
    return [
        np.linalg.solve(L[start : start + _TRIANGULAR_BLOCK, start : start + _TRIANGULAR_BLOCK],
                        np.eye(min(_TRIANGULAR_BLOCK, len(L) - start)))
        for start in range(0, len(L), _TRIANGULAR_BLOCK)
    ]  # fmt: skip


def solve_lower(L, B, inverses=None):
    r"""Solve :math:`L Z = B` for a lower-triangular :math:`L`, by blocks of rows.

    NumPy has no triangular solver, and ``np.linalg.solve`` would factor :math:`L` again at
    :math:`\tfrac23 n^3` flops. By blocks, the work is matrix products of size :math:`O(n^2)` per
    right-hand side plus small dense solves of the diagonal blocks, or products by their
    ``inverses`` (:func:`block_inverses`).
    """
    Z = np.array(B, dtype=float)
    for k, start in enumerate(range(0, len(L), _TRIANGULAR_BLOCK)):
        stop = start + _TRIANGULAR_BLOCK
        Z[start:stop] -= L[start:stop, :start] @ Z[:start]
        if inverses is None:
            Z[start:stop] = np.linalg.solve(L[start:stop, start:stop], Z[start:stop])
        else:
            Z[start:stop] = inverses[k] @ Z[start:stop]
    return Z


def solve_lower_transposed(L, B, inverses=None):
    r"""Solve :math:`L^\top Z = B` for a lower-triangular :math:`L`, by blocks from the end."""
    Z = np.array(B, dtype=float)
    for k, start in reversed(list(enumerate(range(0, len(L), _TRIANGULAR_BLOCK)))):
        stop = start + _TRIANGULAR_BLOCK
        Z[start:stop] -= L[stop:, start:stop].T @ Z[stop:]
        if inverses is None:
            Z[start:stop] = np.linalg.solve(L[start:stop, start:stop].T, Z[start:stop])
        else:
            Z[start:stop] = inverses[k].T @ Z[start:stop]
    return Z


def solve_cholesky(L, B, inverses=None):
    r"""Solve :math:`A Z = B` given the Cholesky factor of :math:`A = LL^\top`.

    Two triangular solves, :math:`LW = B` then :math:`L^\top Z = W`: :math:`O(n^2)` per
    right-hand side, where ``np.linalg.solve(A, B)`` would factor :math:`A` again; with the
    ``inverses`` of the diagonal blocks of L (:func:`block_inverses`), products only.
    """
    return solve_lower_transposed(L, solve_lower(L, B, inverses), inverses)
