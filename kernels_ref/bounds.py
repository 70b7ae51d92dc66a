r"""Bounds of learning theory: mistake bounds (chapter 3) and generalisation bounds (chapter 8).

Each bound is a function of the quantities it is stated in, named after the theorem. The
generalisation bounds hold with probability at least :math:`1 - \delta` over a training sample
of i.i.d. examples; a value :math:`\ge 1` says nothing about an error rate (it is *vacuous*)
and is returned as computed, not clipped. Logarithms are natural, as the course texts print
them (``ln`` in Valle Vidal's slides).

The margins of a classifier :math:`f(x) = \langle w, \phi(x)\rangle + b` are functions of its
decision values on the training points and of :math:`\|w\|`; for a fitted
:class:`~kernels_ref.svm.SVMResult` and its training Gram matrix ``K`` these are
``svm_predict(result, K)`` and ``1 / margin(result, K)`` (:mod:`kernels_ref.svm`).
"""

import math

import numpy as np

from ._validation import (
    check_integer,
    data,
    function,
    integer,
    interval,
    labels,
    positive,
    rule,
    validated,
    vector,
)

__all__ = [
    "bias_augmented",
    "functional_margins",
    "geometric_margin",
    "informative_sample_size",
    "margin_bound",
    "margin_slack_bound_l1",
    "margin_slack_bound_l2",
    "margin_slacks",
    "novikoff_bound",
    "sv_compression_bound",
    "vc_bound",
    "vc_dimension_margin_bound",
]

#: Relative round-off allowed when a margin is compared with the radius it cannot exceed.
_RTOL_MARGIN = 1e-9


def _within_radius(value, name, args):
    """The rule of a margin: > 0, and not above the radius ``R`` (beyond round-off): both
    classes lie in the ball, so the distance of the closest point to a separating hyperplane
    is at most the radius."""
    margin, R = positive()(value, name, args), args["R"]
    if margin > R * (1.0 + _RTOL_MARGIN):  # equality is possible: allow for round-off
        raise ValueError(
            f"{name} must be <= R (a margin cannot exceed the radius), got {margin} > {R}"
        )
    return margin


#: The rule of a margin of data in a ball of radius R (declared after R).
MARGIN = rule(_within_radius, "pos", refs=("R",))
#: The confidence parameter: a probability in the open interval (0, 1).
DELTA = interval(0.0, 1.0, closed="neither")


def _dimension(value, name, args):
    """The rule of a dimension: an integer >= 1, or ``math.inf`` (an infinite dimension)."""
    if isinstance(value, float) and value == math.inf:
        return value
    return check_integer(value, name, low=1)


@validated(X=data(), R=positive(optional=True))
def bias_augmented(X, R=None):
    r"""The points :math:`(x_i, R)`: a hyperplane with a bias through the origin one dimension up.

    .. math::
        z_i = (x_i, R), \qquad \langle w, x_i\rangle + b = \langle (w, b/R), z_i\rangle .

    The perceptron with the bias step :math:`R^2` on the points :math:`x_i` makes the same
    mistakes as the perceptron through the origin on the :math:`z_i`, whose weights are
    :math:`(w, b/R)`; Novikoff's bound (:func:`novikoff_bound`) applies to the :math:`z_i`.
    Source: Valle Vidal (2009), Algorithm 1, "forma primal" (the step :math:`R^2`);
    Chevaleyre (2023), §2.5 (the augmented points :math:`(x_i, 1)`, ``R=1``).

    Parameters
    ----------
    X : array_like, shape (n, d)
    R : float > 0, optional
        The added coordinate; default :math:`\max_i \|x_i\|`, the radius of
        ``bias_update="R2"``.

    Returns
    -------
    Z : ndarray, shape (n, d + 1)

    Examples
    --------
    >>> bias_augmented([[3.0, 4.0], [0.0, 1.0]])  # R = 5, the largest norm
    array([[3., 4., 5.],
           [0., 1., 5.]])
    """
    if R is None:
        R = float(np.max(np.linalg.norm(X, axis=1)))
    return np.c_[X, np.full(len(X), R)]


@validated(R=positive(), rho=MARGIN)
def novikoff_bound(R, rho):
    r"""Novikoff's bound on the number of mistakes of the perceptron.

    .. math:: \text{mistakes} \le \left(\frac{R}{\rho}\right)^2

    for data in the ball :math:`\|x_i\| \le R` that a hyperplane through the origin separates
    with (geometric) margin :math:`\rho = \min_i y_i \langle w^*, x_i\rangle / \|w^*\|`, whatever
    the order and the number of passes. Source: Chevaleyre, *Fondamentaux de l'apprentissage
    automatique* (2023), §2.5, Théorème 1 (Novikoff 1962), with :math:`\rho = 1/\|w^*\|` for a
    canonical :math:`w^*`.

    With a bias, apply it to the augmented points :math:`(x_i, R)` of :func:`bias_augmented`
    (update :math:`b \leftarrow b + y_i R^2`, ``bias_update="R2"``) or :math:`(x_i, 1)`
    (``bias_augmented(X, 1.0)``, update :math:`b \leftarrow b + y_i`), on which the perceptron
    with a bias is the perceptron through the origin: :math:`R` becomes the largest norm of the
    augmented points (at most :math:`\sqrt 2 R`) and :math:`\rho` the margin of
    :math:`(w, b/R)` on them.

    Parameters
    ----------
    R : float > 0
        Radius of a ball centred at the origin that contains the data.
    rho : float, 0 < rho <= R
        Margin of a separating hyperplane through the origin. A margin larger than ``R`` is
        impossible (the distance of a point to such a hyperplane is at most its norm); it is
        refused beyond a relative round-off margin of 1e-9.

    Returns
    -------
    bound : float
        :math:`(R/\rho)^2`, at least 1 up to round-off.

    Raises
    ------
    ValueError
        If ``R`` or ``rho`` is not a positive finite number, or ``rho > R``.

    Examples
    --------
    >>> round(novikoff_bound(1.0, 0.1), 6)
    100.0
    >>> round(novikoff_bound(2.0, 0.5), 6)
    16.0
    """
    ratio = R / rho
    return ratio * ratio  # not ** 2, which raises OverflowError instead of returning inf


# --- VC dimension -----------------------------------------------------------------------------


@validated(
    R_emp=interval(0.0, 1.0),
    N=integer(low=1),
    D=interval(1.0, "N", closed="left"),
    delta=DELTA,
    C=positive(),
)
def vc_bound(R_emp, D, N, delta, *, C=1.0):
    r"""Vapnik's bound on the risk of a classifier from a class of VC dimension :math:`D`.

    .. math::

        R(\hat h) \le R_{\mathrm{emp}}(\hat h)
        + C\sqrt{\frac{D\,\big(\ln(2N/D) + 1\big) + \ln(4/\delta)}{N}}

    with probability at least :math:`1 - \delta` over :math:`N` i.i.d. examples, for every
    classifier :math:`\hat h` of the class at once (0-1 loss; :math:`R` the risk,
    :math:`R_{\mathrm{emp}}` the training error rate). Source: Chevaleyre, *Fondamentaux de
    l'apprentissage automatique* (2023), §2.6, who leaves the constant :math:`C` unspecified
    and prints :math:`\log(4\delta)` for :math:`\log(4/\delta)` (an erratum: with
    :math:`\log(4\delta)` the bound would tighten as the confidence :math:`1 - \delta` grows);
    Burges, "A tutorial on support vector machines for pattern recognition" (1998), eq. (3),
    after Vapnik, with :math:`C = 1` and natural logarithms (his :math:`-\log(\eta/4)`,
    :math:`h`, :math:`l` are :math:`\ln(4/\delta)`, :math:`D`, :math:`N`).

    Conditions: :math:`1 \le D < N` (at :math:`D = N` the square root already exceeds 1, so
    nothing is lost), :math:`0 < \delta < 1`. An upper bound on the VC dimension may be passed
    as ``D`` (for instance :func:`vc_dimension_margin_bound`): the confidence term increases
    with :math:`D` for :math:`D < 2N`, so the bound stays valid.

    Parameters
    ----------
    R_emp : float in [0, 1]
        Training error rate of :math:`\hat h`.
    D : float, 1 <= D < N
        VC dimension of the class (or an upper bound on it).
    N : int >= 2
        Number of training examples.
    delta : float in (0, 1)
        The bound fails with probability at most ``delta``.
    C : float > 0, optional
        Constant in front of the square root; 1 in Burges's statement.

    Returns
    -------
    float
        The bound; a value :math:`\ge 1` is vacuous.

    Raises
    ------
    ValueError
        For ``R_emp`` outside [0, 1], ``D`` outside [1, N), ``N`` not an integer >= 1,
        ``delta`` outside (0, 1), ``C <= 0``, or non-finite values.

    Examples
    --------
    >>> round(vc_bound(0.0, 10, 10_000, 0.05), 4)
    0.0951
    >>> round(vc_bound(0.1, 10, 10_000, 0.05), 4)  # the training error adds
    0.1951
    """
    return R_emp + C * math.sqrt((D * (math.log(2.0 * N / D) + 1.0) + math.log(4.0 / delta)) / N)


@validated(R=positive(), rho=MARGIN, d=rule(_dimension, "dimension"))
def vc_dimension_margin_bound(R, rho, d):
    r"""Vapnik's bound on the VC dimension of the hyperplanes of margin at least :math:`\rho`.

    .. math:: D \le 1 + \min\big(\lceil R^2/\rho^2 \rceil,\ d\big)

    for the hyperplanes of :math:`\mathbb R^d` (or of a feature space of dimension :math:`d`,
    possibly infinite) that separate the points of a ball of radius :math:`R` with margin at
    least :math:`\rho` — the distance from the hyperplane to the closest point. Source:
    Chevaleyre, *Fondamentaux de l'apprentissage automatique* (2023), §2.6, "VC dim de la
    classe des fonctions linéaires à marge ρ", who prints :math:`1 + \min(d, R^2/\rho^2)`
    without the ceiling; Burges (1998), after Vapnik, with the ceiling, which we keep (the
    larger of the two, hence the safe one; a VC dimension is an integer).

    Conditions: :math:`0 < \rho \le R` (a margin larger than the radius is impossible when both
    classes lie in the ball). The class is defined by a margin measured on the data, so
    plugging the margin of a fitted SVM into :func:`vc_bound` is a heuristic; the rigorous
    data-dependent versions are the margin bounds (:func:`margin_bound`). Because
    :math:`R^2/\rho^2` is computed in floating point, a ratio that is an integer up to round-off
    may be rounded up to the next integer: the bound is then one larger, still valid.

    Parameters
    ----------
    R : float > 0
        Radius of a ball that contains the data.
    rho : float, 0 < rho <= R
        Margin (refused beyond ``R`` by more than a relative round-off of 1e-9).
    d : int >= 1 or ``math.inf``
        Dimension of the space of the hyperplanes; ``math.inf`` (or ``np.inf``) for an
        infinite-dimensional feature space (Gaussian kernel).

    Returns
    -------
    int
        The bound on the VC dimension.

    Raises
    ------
    ValueError
        For non-positive or non-finite ``R``, ``rho``, ``rho > R``, or ``d`` neither an integer
        >= 1 nor ``+inf``.

    Examples
    --------
    >>> vc_dimension_margin_bound(2.0, 1.0, d=np.inf)  # R^2/rho^2 = 4
    5
    >>> vc_dimension_margin_bound(3.0, 2.0, d=np.inf)  # ceil(2.25) = 3
    4
    >>> vc_dimension_margin_bound(2.0, 0.1, d=2)  # the dimension is the smaller bound
    3
    """
    ratio = (R / rho) * (R / rho)
    if math.isinf(ratio) and d == math.inf:
        raise ValueError(f"rho is too small: (R/rho)^2 overflows (R = {R}, rho = {rho})")
    if ratio >= d:  # also when the ratio overflows to inf and d is finite
        return 1 + d
    return 1 + math.ceil(ratio)


# --- margins ---------------------------------------------------------------------------------


#: The rules of decision values f and their labels y.
VALUES_LABELS = {"f": vector(), "y": labels(rows="f")}


@validated(**VALUES_LABELS)
def functional_margins(f, y):
    r"""Functional margins :math:`\gamma_i = y_i f(x_i)` of the training examples.

    .. math:: \gamma_i = y_i\big(\langle w, x_i\rangle + b\big) = y_i f(x_i)

    :math:`\gamma_i > 0` exactly when :math:`x_i` is classified correctly. Source: Valle Vidal,
    *Vector de soporte y métodos de kernel* (2009), "Sobreajuste y cotas de generalización",
    Definición (margen funcional). For a fitted SVM, ``f = svm_predict(result, K)``; its
    support vectors on the margin have :math:`\gamma_i = 1`.

    Parameters
    ----------
    f : array_like, shape (n,)
        Decision values :math:`f(x_i)` on the training points.
    y : array_like, shape (n,)
        Labels :math:`\pm 1`, both classes present.

    Returns
    -------
    ndarray, shape (n,)

    Examples
    --------
    >>> functional_margins([2.0, -1.0, 0.5], [1.0, 1.0, -1.0])
    array([ 2. , -1. , -0.5])
    """
    return y * f


@validated(**VALUES_LABELS, w_norm=positive())
def geometric_margin(f, y, w_norm):
    r"""Geometric margin of a hyperplane on a sample: :math:`\min_i y_i f(x_i) / \|w\|`.

    .. math:: m_S(f) = \min_{i} \frac{y_i\big(\langle w, x_i\rangle + b\big)}{\|w\|}

    the functional margins of the normalised function :math:`(w/\|w\|, b/\|w\|)`, whose
    :math:`|f(x)|` is the Euclidean distance of :math:`x` to the hyperplane; their minimum is the
    margin :math:`m_S(f)` of Valle Vidal's Theorem 1 (negative if a point is misclassified). The
    *margin of the sample* is the largest :math:`m_S(f)` over all hyperplanes, that of the
    hard-margin SVM. Source: Valle Vidal, *Vector de soporte y métodos de kernel* (2009),
    "Sobreajuste y cotas de generalización", Definición (margen geométrico). For an
    :class:`~kernels_ref.svm.SVMResult`, ``f = svm_predict(result, K)`` and
    ``w_norm = 1 / margin(result, K)``; for the hard margin the result is ``margin(result, K)``.

    Parameters
    ----------
    f : array_like, shape (n,)
        Decision values :math:`f(x_i)`.
    y : array_like, shape (n,)
        Labels :math:`\pm 1`, both classes present.
    w_norm : float > 0
        :math:`\|w\|`, in the feature space.

    Returns
    -------
    float

    Examples
    --------
    >>> geometric_margin([2.0, 1.0, -3.0], [1.0, 1.0, -1.0], w_norm=2.0)
    0.5
    """
    return float(np.min(y * f)) / w_norm


@validated(**VALUES_LABELS, gamma=positive(), w_norm=positive())
def margin_slacks(f, y, gamma, w_norm):
    r"""Margin slack variables :math:`\xi_i = \max(0, \gamma - y_i f(x_i)/\|w\|)`.

    .. math:: \xi_i = \xi\big((x_i, y_i), f, \gamma\big) = \max\big(0,\ \gamma - y_i f(x_i)\big)

    for a function :math:`f` of unit weight vector, here :math:`f/\|w\|`: how far the example
    falls short of the target margin :math:`\gamma`. :math:`\xi_i > \gamma` exactly when
    :math:`x_i` is misclassified. Source: Valle Vidal, *Vector de soporte y métodos de kernel*
    (2009), "Sobreajuste y cotas de generalización", Definición (variable de holgura del margen),
    the vector :math:`\xi(S, f, \gamma)` of Theorems 2 and 3 (:func:`margin_slack_bound_l2`,
    :func:`margin_slack_bound_l1`). With :math:`\gamma = 1/\|w\|` they are the slacks of the
    soft-margin SVM divided by :math:`\|w\|`: :math:`\xi_i/\gamma = \max(0, 1 - y_if(x_i))`.

    Parameters
    ----------
    f : array_like, shape (n,)
        Decision values :math:`f(x_i)`.
    y : array_like, shape (n,)
        Labels :math:`\pm 1`, both classes present.
    gamma : float > 0
        Target margin.
    w_norm : float > 0
        :math:`\|w\|` (1 if ``f`` already has a unit weight vector).

    Returns
    -------
    ndarray, shape (n,)
        The slacks, :math:`\ge 0`.

    Examples
    --------
    >>> margin_slacks([2.0, 0.5, 0.5], [1.0, 1.0, -1.0], gamma=1.0, w_norm=1.0)
    array([0. , 0.5, 1.5])
    """
    return np.maximum(0.0, gamma - y * f / w_norm)


# --- margin bounds ---------------------------------------------------------------------------


@validated(m=integer(low=1), R=positive(), gamma=MARGIN, delta=DELTA)
def margin_bound(m, R, gamma, delta):
    r"""Generalisation bound of a hyperplane of margin :math:`\gamma` (Valle Vidal's Theorem 1,
    corrected to be invariant under a rescaling of the data).

    .. math::

        \begin{aligned}
        &\mathrm{err}_{\mathcal D}(f) \le \varepsilon
        = \frac{2}{m}\left(A + \ln\frac{4}{\delta}\right),\\
        &A = \frac{64R^2}{\gamma^2}\,\ln\frac{e\,m\,\gamma}{4R}\,\ln\frac{128\,m\,R^2}{\gamma^2}
        \end{aligned}

    with probability at least :math:`1 - \delta` over :math:`m` i.i.d. examples from a
    distribution supported in the ball of radius :math:`R` around the origin, for every
    thresholded linear function of unit weight vector whose margin on the sample
    (:func:`geometric_margin`) is at least :math:`\gamma`; valid for :math:`64R^2/\gamma^2 < m`.
    The dimension of the space does not enter: it holds in any feature space.

    Source: Valle Vidal, *Vector de soporte y métodos de kernel* (2009), "Sobreajuste y cotas de
    generalización", Teorema 1, after Cristianini and Shawe-Taylor, *An Introduction to Support
    Vector Machines* (2000), ch. 4, a result of Shawe-Taylor, Bartlett, Williamson and Anthony
    (1998). Valle Vidal prints

    .. math::

        \begin{aligned}
        &\frac{2}{m}\left(B + \ln\frac4\delta\right), \quad\text{where}\\
        &B = \frac{64R^2}{\gamma^2}\ln\frac{em\gamma}{8R^2}\ln\frac{32m}{\gamma^2},
        \end{aligned}

    which changes when the data and the margin are multiplied by the same :math:`t > 0` (the
    classifier and its errors do not), and can even be negative (for :math:`R = 100`,
    :math:`\gamma = 50`, :math:`m = 300`). The printed logarithms are those of a
    covering-number argument for functions with values in an interval of length 1; for unit
    weight vectors on the ball of radius :math:`R` the values fill :math:`[-R, R]`, of length
    :math:`2R`, and rescaling by :math:`1/(2R)` gives the formula above. It coincides with the
    printed one at :math:`R = 1/2` and is the printed one applied to the data rescaled to that
    radius, :math:`\varepsilon(m, R, \gamma) = \varepsilon_{\text{printed}}(m, \tfrac12,
    \gamma/(2R))` — larger than the same rescaling to radius 1, so valid if the printed form
    holds at either radius. (This correction is our derivation; we could not check the primary
    source's printed form, nor the base of its logarithms.)

    The theorem also asks for :math:`m > 2/\varepsilon`. Under :math:`64R^2/\gamma^2 < m` and
    :math:`\gamma \le R` both logarithms are positive (:math:`em\gamma/(4R) > 16e`), so
    :math:`\varepsilon > (2/m)\ln 4 > 2/m`: the condition always holds and is not tested.

    Parameters
    ----------
    m : int >= 1
        Number of training examples; must exceed :math:`64R^2/\gamma^2`.
    R : float > 0
        Radius of the ball around the origin that contains the data (``max_i sqrt(K_ii)``).
    gamma : float, 0 < gamma <= R
        Margin of the hyperplane on the sample (``margin(result, K)`` for the hard-margin SVM).
    delta : float in (0, 1)

    Returns
    -------
    float
        :math:`\varepsilon`; a value :math:`\ge 1` is vacuous.

    Raises
    ------
    ValueError
        For ``m <= 64 R^2 / gamma^2``, ``gamma > R``, ``delta`` outside (0, 1), non-positive or
        non-finite values.

    Examples
    --------
    >>> round(margin_bound(10**6, 1.0, 0.5, 0.05), 4)  # 64 R^2 / gamma^2 = 256 examples
    0.1308
    >>> round(margin_bound(10**6, 10.0, 5.0, 0.05), 4)  # the same data in other units
    0.1308
    >>> round(margin_bound(10**4, 1.0, 0.5, 0.05), 2)  # vacuous
    6.43
    """
    ratio = (R / gamma) * (R / gamma)
    if not 64.0 * ratio < m:
        raise ValueError(
            f"m must exceed 64 R^2/gamma^2 = {64.0 * ratio:.6g} for the margin bound, got {m}"
        )
    complexity = 64.0 * ratio * math.log(math.e * m * gamma / (4.0 * R))
    complexity *= math.log(128.0 * m * ratio)
    return 2.0 / m * (complexity + math.log(4.0 / delta))


#: The rules of the margin-slack bounds.
SLACK_BOUND = {
    "xi": vector(low=0.0),
    "R": positive(),
    "gamma": positive(),
    "delta": DELTA,
    "c": positive(),
}


@validated(**SLACK_BOUND)
def margin_slack_bound_l2(xi, R, gamma, delta, c):
    r"""Generalisation bound from the 2-norm of the margin slacks (Valle Vidal's Theorem 2).

    .. math::

        \mathrm{err}_{\mathcal D}(f) \le \frac{c}{m}\left(\frac{R^2 + \|\xi\|_2^2}{\gamma^2}
        \ln^2 m + \ln\frac{1}{\delta}\right)

    with probability at least :math:`1 - \delta` over :math:`m` i.i.d. examples from a
    distribution supported in the ball of radius :math:`R` around the origin, for every
    thresholded linear function :math:`f` of unit weight vector, where
    :math:`\xi = \xi(S, f, \gamma)` (:func:`margin_slacks`) and :math:`\gamma > 0` is fixed
    before the sample is seen. The data need not be separable. :math:`c` is a universal
    constant that the statement does not give: it is a required argument, and a value computed
    with a guessed :math:`c` is an illustration, not a bound.

    Source: Valle Vidal, *Vector de soporte y métodos de kernel* (2009), "Sobreajuste y cotas de
    generalización", Teorema 2, after Cristianini and Shawe-Taylor, *An Introduction to Support
    Vector Machines* (2000), ch. 4 (the slack bounds come from Shawe-Taylor and Cristianini,
    "Robust bounds on generalization from the margin distribution", 1998).

    Invariant when :math:`R`, :math:`\gamma` and :math:`\xi` are multiplied by the same
    :math:`t > 0`. Not monotone in :math:`m`: :math:`\ln^2 m / m` increases up to
    :math:`m = e^2`; and if the slacks stay of the same size per example, :math:`\|\xi\|_2^2`
    grows like :math:`m` and the bound like :math:`\ln^2 m`.

    Parameters
    ----------
    xi : array_like, shape (m,)
        Margin slacks :math:`\xi_i \ge 0` of the :math:`m` training examples.
    R : float > 0
    gamma : float > 0
        Target margin of the slacks.
    delta : float in (0, 1)
    c : float > 0
        The theorem's unspecified constant.

    Returns
    -------
    float

    Examples
    --------
    >>> xi = np.zeros(1000)
    >>> round(margin_slack_bound_l2(xi, 1.0, 0.5, 0.05, c=1.0), 4)  # (4 ln^2 1000 + ln 20)/1000
    0.1939
    >>> xi[:10] = 0.5  # ten examples half a margin short: ||xi||^2 = 2.5
    >>> round(margin_slack_bound_l2(xi, 1.0, 0.5, 0.05, c=1.0), 4)
    0.671
    """
    m = len(xi)
    s = xi / gamma
    complexity = ((R / gamma) * (R / gamma) + float(s @ s)) * (math.log(m) * math.log(m))
    return c / m * (complexity + math.log(1.0 / delta))


@validated(**SLACK_BOUND)
def margin_slack_bound_l1(xi, R, gamma, delta, c):
    r"""Generalisation bound from the 1-norm of the margin slacks (Valle Vidal's Theorem 3).

    .. math::

        \begin{aligned}
        &\mathrm{err}_{\mathcal D}(f) \le \frac{c}{m}\,S,\\
        &S = \frac{R^2}{\gamma^2}\ln^2 m + \frac{\|\xi\|_1}{\gamma}\ln m + \ln\frac{1}{\delta}
        \end{aligned}

    under the conditions of :func:`margin_slack_bound_l2` (probability :math:`1 - \delta` over
    :math:`m` i.i.d. examples in the ball of radius :math:`R` around the origin, unit weight
    vector, :math:`\gamma > 0` fixed, :math:`\xi = \xi(S, f, \gamma)`), with another
    unspecified universal constant :math:`c` — a required argument. The 1-norm of the slacks is
    what the L1 soft-margin SVM minimises.

    Source: Valle Vidal, *Vector de soporte y métodos de kernel* (2009), "Sobreajuste y cotas de
    generalización", Teorema 3, after Cristianini and Shawe-Taylor, *An Introduction to Support
    Vector Machines* (2000), ch. 4 (Shawe-Taylor and Cristianini, "Robust bounds on
    generalization from the margin distribution", 1998, bound the error by the 1-norm of the
    slacks).

    Invariant when :math:`R`, :math:`\gamma` and :math:`\xi` are multiplied by the same
    :math:`t > 0`; equal to :func:`margin_slack_bound_l2` when :math:`\xi = 0`.

    Parameters
    ----------
    xi : array_like, shape (m,)
        Margin slacks :math:`\xi_i \ge 0` of the :math:`m` training examples.
    R : float > 0
    gamma : float > 0
    delta : float in (0, 1)
    c : float > 0
        The theorem's unspecified constant.

    Returns
    -------
    float

    Examples
    --------
    >>> xi = np.zeros(1000)
    >>> xi[:10] = 0.5  # ||xi||_1 = 5
    >>> round(margin_slack_bound_l1(xi, 1.0, 0.5, 0.05, c=1.0), 4)
    0.2629
    """
    m = len(xi)
    log_m = math.log(m)
    complexity = (R / gamma) * (R / gamma) * log_m * log_m + float(np.sum(xi)) / gamma * log_m
    return c / m * (complexity + math.log(1.0 / delta))


@validated(m=integer(low=1), n_sv=integer(low=1, high=lambda args: args["m"] - 1), delta=DELTA)
def sv_compression_bound(m, n_sv, delta):
    r"""Generalisation bound of the maximal-margin hyperplane from its number of support vectors.

    .. math::

        \mathrm{err}_{\mathcal D}(f) \le \frac{1}{m - d}\left(d \ln\frac{e\,m}{d}
        + \ln\frac{m}{\delta}\right), \qquad d = \text{number of support vectors},

    with probability at least :math:`1 - \delta` over :math:`m` i.i.d. separable examples, for
    the maximal-margin hyperplane, which the :math:`d` support vectors alone determine (a
    compression scheme of size :math:`d`). Neither the margin nor the dimension enters. Source:
    Valle Vidal, *Vector de soporte y métodos de kernel* (2009), "Proposición 1 usando kernels",
    Teorema; Cristianini and Shawe-Taylor, *An Introduction to Support Vector Machines* (2000),
    Theorem 4.25, after Littlestone and Warmuth (1986).

    Conditions: :math:`1 \le d < m`, :math:`0 < \delta < 1`. Decreases with :math:`m` and
    :math:`\delta`, increases with :math:`d`.

    Parameters
    ----------
    m : int >= 2
        Number of training examples.
    n_sv : int, 1 <= n_sv < m
        Number of support vectors :math:`d`, e.g. ``len(result.support)`` of a hard-margin fit.
    delta : float in (0, 1)

    Returns
    -------
    float

    Raises
    ------
    ValueError
        For ``n_sv`` outside [1, m), ``m`` not an integer, ``delta`` outside (0, 1).

    Examples
    --------
    >>> round(sv_compression_bound(1000, 10, 0.05), 4)
    0.0666
    >>> round(sv_compression_bound(20, 3, 0.05), 4)
    0.8637
    """
    d = n_sv
    return (d * math.log(math.e * m / d) + math.log(m / delta)) / (m - d)


@validated(bound=function(), m_min=integer(low=1), m_max=integer(low="m_min"))
def informative_sample_size(bound, *, m_min=1, m_max=10**12):
    r"""Smallest number of examples :math:`m` from which a bound is informative, :math:`< 1`.

    .. math:: m^* = \min_{\substack{m \ge m_{\min}\\ \text{bound}(m) < 1}} m

    found by doubling from ``m_min`` and bisection, in at most :math:`2\log_2(m_{\max})` calls:
    it never loops for long. It assumes that the bound is non-increasing in :math:`m` once
    defined, as :func:`margin_bound`, :func:`vc_bound` and :func:`sv_compression_bound` are (in
    their sample size, the other arguments fixed). A :class:`ValueError` from ``bound`` counts
    as "not defined at this :math:`m`" (:func:`margin_bound` needs :math:`m > 64R^2/\gamma^2`):
    the values of :math:`m` where it is raised must come before the others.

    Parameters
    ----------
    bound : callable
        ``bound(m) -> float`` for an integer ``m``.
    m_min : int >= 1, optional
        Where the search starts.
    m_max : int >= m_min, optional
        Where it stops.

    Returns
    -------
    int

    Raises
    ------
    ValueError
        If ``bound`` is not callable, ``m_max < m_min``, or no :math:`m \le m_{\max}` gives a
        value below 1.

    Examples
    --------
    >>> informative_sample_size(lambda m: 100 / m)
    101
    >>> informative_sample_size(lambda m: margin_bound(m, 1.0, 0.5, 0.05))  # R/gamma = 2
    93934
    """

    def informative(m):
        try:
            return float(bound(m)) < 1.0
        except ValueError:
            return False

    below, m = m_min - 1, m_min  # below: the largest m known not to be informative
    while not informative(m):
        if m == m_max:
            raise ValueError(f"bound is >= 1 (or undefined) for every m in [{m_min}, {m_max}]")
        below, m = m, min(2 * m, m_max)
    while m - below > 1:  # informative at m, not at below: bisect
        mid = (below + m) // 2
        below, m = (below, mid) if informative(mid) else (mid, m)
    return m
