r"""The perceptron, primal and dual (chapter 3, "The perceptron").

The perceptron learns :math:`f(x) = \langle w, x\rangle + b` and predicts
:math:`\operatorname{sign} f(x)`. It visits the points in order and corrects :math:`(w, b)` at
each *mistake*, :math:`y_i f(x_i) \le 0`:

.. math:: w \leftarrow w + \eta\, y_i x_i, \qquad b \leftarrow b + \eta\, y_i \beta,

with :math:`\beta = R^2 = \max_j \|x_j\|^2` (Valle Vidal, *Vector de soporte y métodos de
kernel* (2009), Algorithm 1), :math:`\beta = 1` (Chevaleyre, *Fondamentaux de l'apprentissage
automatique* (2023), Algorithm 1, with :math:`\eta = 1`) or no bias at all (the homogeneous
perceptron of Novikoff's theorem). Both biased versions are the homogeneous perceptron on the
augmented points :math:`(x_i, \sqrt\beta)`, with :math:`b = \sqrt\beta \times` the last weight.

Starting from :math:`w = 0, b = 0`, every iterate is :math:`\eta` times the iterate of the run
with :math:`\eta = 1`, so the mistakes do not depend on :math:`\eta` (exactly so in floating
point when :math:`\eta` is a power of 2).

Counting the mistakes :math:`\alpha_i` made on each :math:`x_i` gives the dual form
:math:`w = \eta \sum_i \alpha_i y_i x_i`, :math:`b = \eta \beta \sum_i \alpha_i y_i`, whose
test :math:`y_i \left(\sum_j \alpha_j y_j K_{ji} + b\right) \le 0` needs only the Gram matrix:
:func:`perceptron_dual` runs on any kernel.
"""

import warnings
from dataclasses import dataclass

import numpy as np

from ._results import ShortRepr
from ._validation import (
    boolean,
    check_array,
    cross_gram,
    data,
    gram,
    iterations,
    labels,
    one_of,
    positive,
    real,
    result,
    rule,
    validated,
    vector,
)
from .exceptions import ConvergenceWarning
from .losses import perceptron_loss
from .representer import _dual_expansion

__all__ = [
    "PerceptronDualResult",
    "PerceptronPrimalResult",
    "hyperplane_distance",
    "perceptron_criterion",
    "perceptron_criterion_gradient",
    "perceptron_dual",
    "perceptron_dual_predict",
    "perceptron_primal",
]

#: Allowed values of ``bias_update``: Valle Vidal's, Chevaleyre's, no bias.
BIAS_UPDATES = ("R2", "unit", None)


@dataclass(frozen=True, repr=False)
class PerceptronPrimalResult(ShortRepr):
    """Run of the primal perceptron; decision function f(x) = <w, x> + b.

    Attributes
    ----------
    w : ndarray, shape (d,)
    b : float
    mistakes : int
        Total number of updates.
    epochs : int
        Passes over the data, the last one included (a clean pass when ``converged``).
    converged : bool
        True when the last pass made no mistake (the data are separated).
    history : ndarray of int, shape (mistakes,)
        Index of the point of each update, in order.
    """

    w: np.ndarray
    b: float
    mistakes: int
    epochs: int
    converged: bool
    history: np.ndarray


@dataclass(frozen=True, repr=False)
class PerceptronDualResult(ShortRepr):
    """Run of the dual perceptron; decision function f(x) = sum_i alpha_i y_i K(x_i, x) + b.

    Attributes
    ----------
    alpha : ndarray, shape (n,)
        Number of mistakes made on each point (whole numbers stored as floats).
    y : ndarray, shape (n,)
        Training labels, kept for :func:`perceptron_dual_predict`.
    b : float
    mistakes : int
        Total number of updates, equal to ``alpha.sum()``.
    epochs : int
        Passes over the data, the last one included (a clean pass when ``converged``).
    converged : bool
        True when the last pass made no mistake (the data are separated in feature space).
    history : ndarray of int, shape (mistakes,)
        Index of the point of each update, in order.
    """

    alpha: np.ndarray
    y: np.ndarray
    b: float
    mistakes: int
    epochs: int
    converged: bool
    history: np.ndarray


def _bias_step(bias_update, R2):
    """The factor beta of the bias update b <- b + eta y_i beta."""
    return {"R2": R2, "unit": 1.0, None: 0.0}[bias_update]


def _finish(clean, max_epochs):
    """Warn if the last epoch made mistakes; return ``converged``."""
    if not clean:
        warnings.warn(
            f"the perceptron made mistakes in each of its max_epochs={max_epochs} passes: "
            "the data may not be separable (it never stops on non-separable data)",
            ConvergenceWarning,
            stacklevel=3,
        )
    return clean


@validated(
    X=data(),
    y=labels(rows="X"),
    eta=positive(),
    max_epochs=iterations(),
    bias_update=one_of(*BIAS_UPDATES),
)
def perceptron_primal(X, y, *, eta=1.0, max_epochs=1000, bias_update="R2"):
    r"""The perceptron in primal form: update :math:`(w, b)` at each mistake.

    .. math::
        \text{for } i = 1, \dots, n: \quad \text{if } y_i(\langle w, x_i\rangle + b) \le 0:
        \quad w \leftarrow w + \eta\, y_i x_i, \quad b \leftarrow b + \eta\, y_i \beta,

    repeated until a pass makes no mistake (or ``max_epochs`` passes), from
    :math:`w = 0, b = 0`. The bias step :math:`\beta` is :math:`R^2 = \max_j \|x_j\|^2` for
    ``bias_update="R2"`` (Valle Vidal (2009), Algorithm 1, "forma primal"), 1 for ``"unit"``
    (Chevaleyre (2023), §2.5, Algorithm 1, whose :math:`\eta` is 1) and 0 with no bias for
    ``None`` (the homogeneous perceptron of Novikoff's theorem, Chevaleyre §2.5). :math:`R^2`
    is computed as the largest squared norm, not as the square of the largest norm.

    Parameters
    ----------
    X : array_like, shape (n, d)
    y : array_like, shape (n,)
        Labels in :math:`\{-1, +1\}`, both classes present.
    eta : float > 0
        Learning rate. From :math:`w = 0, b = 0` it scales every iterate and changes no mistake.
    max_epochs : int >= 1
        Largest number of passes over the data.
    bias_update : {"R2", "unit", None}

    Returns
    -------
    PerceptronPrimalResult
        ``w``, ``b``, ``mistakes``, ``epochs``, ``converged``, ``history``.

    Warns
    -----
    ConvergenceWarning
        If the last of ``max_epochs`` passes still made a mistake (then ``converged=False``).

    Raises
    ------
    ValueError
        For non-finite or ill-shaped ``X``, labels not in :math:`\{-1, +1\}` or of the wrong
        length, ``eta <= 0``, ``max_epochs < 1``, ``bias_update`` not allowed.

    Examples
    --------
    Thresholds on a line: points 1, 2 of class -1 and 3, 4 of class +1, visited as 3, 1, 4, 2.

    >>> res = perceptron_primal([[3.0], [1.0], [4.0], [2.0]], [1, -1, 1, -1])
    >>> res.w, res.b, res.mistakes, res.epochs, res.converged
    (array([6.]), -16.0, 9, 4, True)
    >>> res.history
    array([0, 1, 3, 0, 1, 2, 3, 0, 1])
    """
    beta = _bias_step(bias_update, float(np.max(np.sum(X * X, axis=1))))

    w = np.zeros(X.shape[1])
    b = 0.0
    history = []
    epochs, clean = 0, False
    while not clean and epochs < max_epochs:
        epochs += 1
        clean = True
        for i in range(len(y)):
            if y[i] * (X[i] @ w + b) <= 0:
                w += eta * y[i] * X[i]
                b += eta * y[i] * beta
                history.append(i)
                clean = False
    converged = _finish(clean, max_epochs)
    return PerceptronPrimalResult(
        w, float(b), len(history), epochs, converged, np.array(history, int)
    )


@validated(K=gram(), y=labels(rows="K"), max_epochs=iterations(), bias_update=one_of(*BIAS_UPDATES))
def perceptron_dual(K, y, *, max_epochs=1000, bias_update="R2"):
    r"""The perceptron in dual form: count the mistakes :math:`\alpha_i` made on each point.

    .. math::
        \text{for } i = 1, \dots, n: \quad
        \text{if } y_i\Big(\sum_{j=1}^n \alpha_j y_j K_{ji} + b\Big) \le 0:
        \quad \alpha_i \leftarrow \alpha_i + 1, \quad b \leftarrow b + y_i \beta,

    repeated until a pass makes no mistake (or ``max_epochs`` passes), from
    :math:`\alpha = 0, b = 0`. Source: Valle Vidal (2009), Algorithm 2, corrected: the test
    needs the label :math:`y_i` and the point :math:`x_i` (printed:
    :math:`\sum_j \alpha_j y_j \langle x_j, x\rangle + b \le 0`), and the algorithm is the
    *dual* form (printed: "forma primal").

    The bias update is the primal one with :math:`\eta = 1`: :math:`\beta = R^2 =
    \max_j K_{jj}` (the largest squared norm in feature space) for ``"R2"``, 1 for
    ``"unit"``, no bias for ``None``. Then :math:`b = \beta \sum_j \alpha_j y_j` and, with the
    linear kernel, the run makes the same mistakes in the same order as
    :func:`perceptron_primal` with the same ``bias_update`` (any :math:`\eta`), with
    :math:`w = \eta \sum_i \alpha_i y_i x_i`. Valle Vidal's :math:`b \leftarrow b + \eta y_i R^2`
    with :math:`\alpha_i \leftarrow \alpha_i + 1` agrees with his Algorithm 1 only for
    :math:`\eta = 1`.

    The scores :math:`\sum_j \alpha_j y_j K_{ji}` of all points are kept up to date, one column
    of ``K`` per mistake: a pass costs :math:`O(n)` plus :math:`O(n)` per mistake.

    Parameters
    ----------
    K : array_like, shape (n, n)
        Gram matrix :math:`K_{ij} = k(x_i, x_j)`.
    y : array_like, shape (n,)
        Labels in :math:`\{-1, +1\}`, both classes present.
    max_epochs : int >= 1
        Largest number of passes over the data.
    bias_update : {"R2", "unit", None}

    Returns
    -------
    PerceptronDualResult
        ``alpha``, ``y``, ``b``, ``mistakes``, ``epochs``, ``converged``, ``history``: all
        that :func:`perceptron_dual_predict` needs.

    Warns
    -----
    ConvergenceWarning
        If the last of ``max_epochs`` passes still made a mistake (then ``converged=False``).
    NotPSDWarning
        If ``K`` is clearly not positive semi-definite.

    Raises
    ------
    ValueError
        For a non-finite, non-square or non-symmetric ``K``, bad labels, ``max_epochs < 1``,
        ``bias_update`` not allowed.

    Examples
    --------
    The example of :func:`perceptron_primal` with the linear kernel :math:`K_{ij} = x_i x_j`:

    >>> x = np.array([3.0, 1.0, 4.0, 2.0])
    >>> res = perceptron_dual(np.outer(x, x), [1, -1, 1, -1])
    >>> res.alpha, res.b, res.mistakes, res.epochs
    (array([3., 3., 1., 2.]), -16.0, 9, 4)
    """
    beta = _bias_step(bias_update, float(np.max(np.diag(K))))

    n = len(y)
    alpha = np.zeros(n)
    score = np.zeros(n)  # score[i] = sum_j alpha_j y_j K_ji
    b = 0.0
    history = []
    epochs, clean = 0, False
    while not clean and epochs < max_epochs:
        epochs += 1
        clean = True
        for i in range(n):
            if y[i] * (score[i] + b) <= 0:
                alpha[i] += 1.0
                score += y[i] * K[i]  # K is symmetric: row i is column i
                b += y[i] * beta
                history.append(i)
                clean = False
    converged = _finish(clean, max_epochs)
    return PerceptronDualResult(
        alpha, y.copy(), float(b), len(history), epochs, converged, np.array(history, int)
    )


@validated(
    result=result(PerceptronDualResult, "perceptron_dual"), K_test=cross_gram("result.alpha")
)
def perceptron_dual_predict(result, K_test):
    r"""Decision values of the dual perceptron at new points.

    .. math:: f(x) = \sum_{j=1}^n \alpha_j y_j K(x_j, x) + b

    Source: Valle Vidal (2009), "Representación dual", eq. (3), and "Mapeo implícito con
    kernels". The predicted class is :math:`\operatorname{sign} f(x)`.

    Parameters
    ----------
    result : PerceptronDualResult
        From :func:`perceptron_dual`: the mistake counts ``alpha``, the labels ``y`` and ``b``.
    K_test : array_like, shape (n_test, n)
        :math:`K(x, x_j)` for the new points :math:`x` (rows) and the training points (columns).

    Returns
    -------
    f : ndarray, shape (n_test,)

    Examples
    --------
    >>> x = np.array([3.0, 1.0, 4.0, 2.0])
    >>> res = perceptron_dual(np.outer(x, x), [1, -1, 1, -1])
    >>> perceptron_dual_predict(res, np.outer([0.0, 5.0], x))
    array([-16.,  14.])
    """
    return _dual_expansion(result.alpha, result.y, result.b, K_test)


def _normal_vector(value, name, args):
    """The rule of a hyperplane's normal vector: as many entries as ``X`` has columns, not 0."""
    w = check_array(value, name, ndim=1, n_rows=args["X"].shape[1])
    if not np.any(w):
        raise ValueError(f"{name} must not be zero: {name} = 0 defines no hyperplane")
    return w


#: The rules of a hyperplane (w, b) and labelled points (X, y).
LINEAR = {"X": data(), "w": vector(rows=("X", 1)), "b": real(), "y": labels(rows="X")}


@validated(X=data(), w=rule(_normal_vector, "vector", refs=("X",)), b=real(), signed=boolean())
def hyperplane_distance(X, w, b, *, signed=False):
    r"""Distance of points to the hyperplane :math:`H(w, b) = \{z : \langle w, z\rangle + b = 0\}`.

    .. math::
        \begin{aligned}
        d(x, H) &= \frac{|\langle w, x\rangle + b|}{\|w\|},\\
        d(0, H) &= \frac{|b|}{\|w\|},
        \end{aligned}

    with :math:`d(0, H)` the hyperplane's distance from the origin. Source: Chevaleyre,
    *Fondamentaux de l'apprentissage automatique* (2023), §2.3; Rousseau, *Kernel methods*
    (2022), "Separating hyperplane" ("Distance from the origin is :math:`|b|/\|w\|_2`"). With
    ``signed=True`` it returns :math:`(\langle w, x\rangle + b)/\|w\|`, positive on the side
    :math:`w` points to: the right-hand side of Valle Vidal,
    *Vector de soporte y métodos de kernel* (2009), "Interpretación geométrica (2)".

    Parameters
    ----------
    X : array_like, shape (n, d)
    w : array_like, shape (d,)
        Normal vector, not zero.
    b : float
    signed : bool

    Returns
    -------
    distance : ndarray, shape (n,)

    Raises
    ------
    ValueError
        If ``w`` is zero (no hyperplane), or on the shared checks of ``X``, ``w`` and ``b``.

    Examples
    --------
    >>> hyperplane_distance([[3.0, 4.0], [0.0, 0.0]], [3.0, 4.0], -5.0)  # |25-5|/5, |b|/5
    array([4., 1.])
    >>> hyperplane_distance([[0.0, 0.0]], [3.0, 4.0], -5.0, signed=True)
    array([-1.])
    >>> hyperplane_distance([[3.0, 4.0]], [3e200, 4e200], -5e200)  # the same hyperplane
    array([4.])
    """
    # (w, b) and (w, b) / s define the same hyperplane: dividing by the largest |w_j| first
    # keeps ||w|| and <w, x> + b from overflowing (w ~ 1e200) or underflowing (w ~ 1e-200).
    scale = np.max(np.abs(w))
    w, b = w / scale, b / scale
    f = X @ w + b
    return (f if signed else np.abs(f)) / np.linalg.norm(w)


@validated(**LINEAR)
def perceptron_criterion(w, b, X, y):
    r"""The perceptron criterion: minus the sum of the margins of the misclassified points.

    .. math::
        D(w, b) = -\sum_{i \in \mathcal M} y_i(\langle w, x_i\rangle + b)
        = \sum_{i=1}^n \max\big(0, -y_i(\langle w, x_i\rangle + b)\big),
        \qquad \mathcal M = \{i : y_i(\langle w, x_i\rangle + b) < 0\},

    the sum of the perceptron losses (:func:`kernels_ref.losses.perceptron_loss`). Source:
    Valle Vidal (2009), "Notaciones" (after Hastie, Tibshirani & Friedman, eq. (4.41)), where
    the sum runs over all :math:`j`: summed over all points, :math:`-\sum_j y_j(\langle w,
    x_j\rangle + b)` is linear in :math:`(w, b)` and unbounded below.

    Parameters
    ----------
    w : array_like, shape (d,)
    b : float
    X : array_like, shape (n, d)
    y : array_like, shape (n,)

    Returns
    -------
    D : float, >= 0

    Examples
    --------
    >>> perceptron_criterion([1.0], 0.0, [[2.0], [-1.0]], [1, -1])  # both right
    0.0
    >>> perceptron_criterion([1.0], 0.0, [[2.0], [1.0]], [-1, 1])  # x = 2 wrong, margin -2
    2.0
    """
    return float(np.sum(perceptron_loss(y * (X @ w + b))))


@validated(**LINEAR)
def perceptron_criterion_gradient(w, b, X, y):
    r"""Gradient of the perceptron criterion :math:`D(w, b)` (where it is differentiable).

    .. math::
        \frac{\partial D}{\partial w} = -\sum_{i \in \mathcal M} y_i x_i, \qquad
        \frac{\partial D}{\partial b} = -\sum_{i \in \mathcal M} y_i, \qquad
        \mathcal M = \{i : y_i(\langle w, x_i\rangle + b) < 0\}.

    Source: Valle Vidal (2009), "Notaciones", which prints both with a + sign. The perceptron's
    update at a mistake, :math:`(w, b) \leftarrow (w, b) + \eta\, y_i (x_i, 1)`, is a step
    against the gradient of the term of :math:`x_i`: stochastic gradient descent on
    :math:`D`. At a point with :math:`y_i f(x_i) = 0` the criterion has a corner; this
    function returns the one-sided gradient that leaves that point out.

    Parameters
    ----------
    w : array_like, shape (d,)
    b : float
    X : array_like, shape (n, d)
    y : array_like, shape (n,)

    Returns
    -------
    gradient : ndarray, shape (d + 1,)
        :math:`\partial D / \partial w` followed by :math:`\partial D / \partial b`.

    Examples
    --------
    >>> perceptron_criterion_gradient([1.0], 0.0, [[2.0], [1.0]], [-1, 1])
    array([2., 1.])
    """
    mistaken = y * (X @ w + b) < 0
    ym = y[mistaken]
    return 0.0 - np.append(ym @ X[mistaken], ym.sum())  # 0.0 - : no negative zeros
