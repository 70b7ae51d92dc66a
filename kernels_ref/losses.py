r"""Loss functions of classification and regression (chapter 3, "The perceptron").

A classification loss is a function of the *margin* :math:`z = y f(x)` (the score :math:`f(x)`
multiplied by the label :math:`y \in \{-1, +1\}`): it is small when :math:`z` is large and
positive (right side, far from the boundary) and large when :math:`z < 0` (wrong side). A
regression loss is a function of the *residual* :math:`r = y - f(x)`. Every function takes an
array of any shape (or a scalar) and returns an array of the same shape (a float for a scalar).

Sources: Chevaleyre, *Fondamentaux de l'apprentissage automatique* (2023), §3.4 and Figure 9;
Rousseau, *Kernel methods* (2022), "Hinge loss" and "Other losses"; Valle Vidal, *Vector de
soporte y métodos de kernel* (2009), "Tabla: Comparación de funciones de pérdida" and "Support
vector regression (2)", which quote Hastie, Tibshirani & Friedman, *The Elements of Statistical
Learning*, Table 12.1 and Figures 12.4 and 12.6.
"""

import numpy as np

from ._validation import one_of, positive, real, validated, values

__all__ = [
    "epsilon_insensitive_loss",
    "hinge_loss",
    "huber_loss",
    "logistic_loss",
    "perceptron_loss",
    "population_minimiser",
    "scaled_epsilon_insensitive_loss",
    "square_loss",
    "squared_hinge_loss",
    "zero_one_loss",
]


def _out(v):
    """Return a 0-d result as a float, any other as an array."""
    return float(v) if v.ndim == 0 else v


@validated(z=values())
def zero_one_loss(z):
    r"""0/1 loss of the margin: 1 for a mistake, 0 otherwise.

    .. math:: \ell_{0/1}(z) = \mathbb 1[z \le 0], \qquad z = y f(x).

    A score of exactly 0 counts as a mistake, as in the perceptron's test
    :math:`y_i f(x_i) \le 0` (Valle Vidal (2009), Algorithm 1) and in Chevaleyre's
    :math:`\operatorname{sign}(f(x_i)) \ne y_i` with :math:`\operatorname{sign}(0) = 0`. With this
    convention the hinge, squared hinge and logistic (base 2) losses are upper bounds.
    Source: Rousseau (2022), "Other losses"; Chevaleyre (2023), Figure 9.

    Parameters
    ----------
    z : float or array_like
        Margins :math:`y f(x)`.

    Returns
    -------
    loss : float or ndarray, same shape as ``z``

    Examples
    --------
    >>> zero_one_loss([-1.0, 0.0, 0.5])
    array([1., 1., 0.])
    """
    return _out((z <= 0).astype(float))


@validated(z=values())
def hinge_loss(z):
    r"""Hinge loss of the margin (the soft-margin SVM's loss).

    .. math:: \ell_{\text{hinge}}(z) = \max(0, 1 - z), \qquad z = y f(x).

    Source: Chevaleyre (2023), §3.4, :math:`\ell_{\text{hinge}}(s_i, y_i) = \max(0, 1 - y_i s_i)`;
    Rousseau (2022), "Hinge loss"; Vert (2004), "La hinge loss"; Valle Vidal (2009), table of
    losses, :math:`[1 - y f(x)]_+`.

    Parameters
    ----------
    z : float or array_like
        Margins :math:`y f(x)`.

    Returns
    -------
    loss : float or ndarray, same shape as ``z``

    Examples
    --------
    >>> hinge_loss([-1.0, 0.0, 0.5, 2.0])
    array([2. , 1. , 0.5, 0. ])
    """
    return _out(np.maximum(0.0, 1.0 - z))


@validated(z=values())
def squared_hinge_loss(z):
    r"""Squared hinge loss of the margin (the L2 soft margin's loss).

    .. math:: \ell(z) = \max(0, 1 - z)^2, \qquad z = y f(x).

    Source: Vert (2004), exercise 2 (the hinge loss squared); Valle Vidal (2009), the L2 soft
    margin :math:`\sum_i \xi_i^2`.

    Parameters
    ----------
    z : float or array_like
        Margins :math:`y f(x)`.

    Returns
    -------
    loss : float or ndarray, same shape as ``z``

    Examples
    --------
    >>> squared_hinge_loss([-1.0, 0.5, 2.0])
    array([4.  , 0.25, 0.  ])
    """
    return _out(np.maximum(0.0, 1.0 - z) ** 2)


@validated(z=values())
def perceptron_loss(z):
    r"""Perceptron loss of the margin: the hinge loss with its corner moved to 0.

    .. math:: \ell_{\text{perceptron}}(z) = \max(0, -z), \qquad z = y f(x).

    The perceptron criterion :math:`D(w, b)` of Valle Vidal (2009) ("Notaciones") is the sum of
    this loss over the training points. Source: Chevaleyre (2023), §3.4,
    :math:`\ell_{\text{perceptron}}(s_i, y_i) = \max(0, -y_i s_i)`.

    Parameters
    ----------
    z : float or array_like
        Margins :math:`y f(x)`.

    Returns
    -------
    loss : float or ndarray, same shape as ``z``

    Examples
    --------
    >>> perceptron_loss([-2.0, 0.0, 3.0])
    array([2., 0., 0.])
    """
    return _out(np.maximum(0.0, -z) + 0.0)  # + 0.0 turns -0.0 into 0.0


@validated(r=values())
def square_loss(r):
    r"""Square loss of the residual.

    .. math:: \ell(r) = r^2, \qquad r = y - f(x).

    For a label :math:`y \in \{-1, +1\}`, :math:`r = y(1 - y f(x))`, so as a function of the
    margin :math:`z = yf(x)` the square loss is :math:`(1 - z)^2` (``square_loss(1 - z)``): the
    curve of Hastie, Tibshirani & Friedman's Figure 12.4. Source: Valle Vidal (2009), table of
    losses, "MSE :math:`(y - f(x))^2`"; Rousseau (2022), "Other losses".

    Parameters
    ----------
    r : float or array_like
        Residuals :math:`y - f(x)`.

    Returns
    -------
    loss : float or ndarray, same shape as ``r``

    Examples
    --------
    >>> square_loss([-2.0, 0.5])
    array([4.  , 0.25])
    """
    return _out(r * r)


@validated(z=values())
def logistic_loss(z):
    r"""Logistic loss (binomial deviance) of the margin, in nats.

    .. math:: \ell(z) = \log\left(1 + e^{-z}\right), \qquad z = y f(x),

    computed as ``np.logaddexp(0, -z)``, which neither overflows for large :math:`-z` nor loses
    the small values for large :math:`z`. Divided by :math:`\log 2` it passes through
    :math:`(0, 1)` and bounds the 0/1 loss from above. Source: Valle Vidal (2009), table of
    losses, "Log verosimilitud :math:`\log(1 + e^{-yf(x)})`" (Hastie, Tibshirani & Friedman,
    Table 12.1).

    Parameters
    ----------
    z : float or array_like
        Margins :math:`y f(x)`.

    Returns
    -------
    loss : float or ndarray, same shape as ``z``

    Examples
    --------
    >>> round(logistic_loss(0.0), 6)  # log 2
    0.693147
    >>> logistic_loss([-1000.0, 1000.0])  # no overflow
    array([1000.,    0.])
    """
    return _out(np.logaddexp(0.0, -z))


@validated(r=values(), epsilon=real(low=0.0))
def epsilon_insensitive_loss(r, epsilon):
    r"""Vapnik's :math:`\varepsilon`-insensitive loss of the residual (support vector regression).

    .. math:: V_\varepsilon(r) = \max(0, |r| - \varepsilon), \qquad r = y - f(x).

    Source: Valle Vidal (2009), "Support vector regression",
    :math:`V_\varepsilon(t) = 0` if :math:`|t| < \varepsilon`, :math:`|t| - \varepsilon`
    otherwise.

    Parameters
    ----------
    r : float or array_like
        Residuals :math:`y - f(x)`.
    epsilon : float >= 0
        Half-width of the tube in which residuals cost nothing; :math:`\varepsilon = 0` gives
        the absolute loss :math:`|r|` (least absolute deviations).

    Returns
    -------
    loss : float or ndarray, same shape as ``r``

    Raises
    ------
    ValueError
        If ``epsilon`` is negative, NaN or infinite (``epsilon = 0`` is valid).

    Examples
    --------
    >>> epsilon_insensitive_loss([-2.0, 0.3, 1.5], epsilon=0.5)
    array([1.5, 0. , 1. ])
    """
    return _out(np.maximum(0.0, np.abs(r) - epsilon))


@validated(r=values(), epsilon=real(low=0.0), sigma=positive())
def scaled_epsilon_insensitive_loss(r, epsilon, sigma):
    r"""The :math:`\varepsilon`-insensitive loss of the residual measured in units of
    :math:`\sigma`.

    .. math::
        V_\varepsilon(r / \sigma) = \max\left(0, \frac{|r|}{\sigma} - \varepsilon\right)
        = \frac{1}{\sigma} V_{\sigma\varepsilon}(r).

    Source: Valle Vidal (2009), "Support vector regression (3)", "Usar
    :math:`V_\epsilon(r/\sigma)`" (Hastie, Tibshirani & Friedman, §12.3.6: :math:`\sigma` a
    measure of the scale of the residuals). The tube then scales with the noise: its half-width
    is :math:`\sigma\varepsilon` in the units of :math:`y`, and the loss is the SVR loss of
    half-width :math:`\sigma\varepsilon` divided by :math:`\sigma`.

    Parameters
    ----------
    r : float or array_like
        Residuals :math:`y - f(x)`.
    epsilon : float >= 0
        Half-width of the tube in units of :math:`\sigma`.
    sigma : float > 0
        Scale of the residuals.

    Returns
    -------
    loss : float or ndarray, same shape as ``r``

    Raises
    ------
    ValueError
        If ``epsilon`` is negative, NaN or infinite, or ``sigma`` is not positive and finite.

    Examples
    --------
    >>> scaled_epsilon_insensitive_loss([-4.0, 1.0, 3.0], epsilon=0.5, sigma=2.0)
    array([1.5, 0. , 1. ])
    """
    return _out(np.maximum(0.0, np.abs(r) / sigma - epsilon))


#: The losses of Valle Vidal's table, by name, for :func:`population_minimiser`.
POPULATION_LOSSES = ("logistic", "square", "hinge")


@validated(loss=one_of(*POPULATION_LOSSES), p=values(low=0.0, high=1.0))
def population_minimiser(loss, p):
    r"""The score :math:`f` that minimises the expected loss at a point where
    :math:`\Pr(y = +1 \mid x) = p`.

    .. math::
        f^*(p) = \arg\min_{f \in \mathbb R}\ p\,\ell(f) + (1 - p)\,\ell(-f):

    .. math::
        \begin{aligned}
        &\text{logistic } \log(1 + e^{-z}):\\
        &\qquad f^* = \log \tfrac{p}{1 - p},\\
        &\text{square } (1 - z)^2:\\
        &\qquad f^* = 2p - 1,\\
        &\text{hinge } (1 - z)_+:\\
        &\qquad f^* = \operatorname{sign}(p - \tfrac12)\\
        &\qquad (+1 \text{ at } p = \tfrac12).
        \end{aligned}

    Source: Valle Vidal (2009), "Tabla: Comparación de funciones de pérdida", third column
    (Hastie, Tibshirani & Friedman, Table 12.1): log-odds, :math:`\Pr(+1) - \Pr(-1)`, and the
    sign rule. All three have the sign of :math:`p - \tfrac12`, the Bayes classifier. For the
    hinge at :math:`p = \tfrac12` every :math:`f \in [-1, 1]` minimises; the table's
    :math:`+1` is one of them. The logistic minimiser is infinite at :math:`p \in \{0, 1\}`.

    Parameters
    ----------
    loss : {"logistic", "square", "hinge"}
    p : float or array_like
        Conditional probabilities :math:`\Pr(y = +1 \mid x)`, in :math:`[0, 1]`.

    Returns
    -------
    f : float or ndarray, same shape as ``p``

    Raises
    ------
    ValueError
        If ``loss`` is not one of the three names or a ``p`` lies outside :math:`[0, 1]`.

    Examples
    --------
    >>> population_minimiser("square", [0.1, 0.5, 0.75])
    array([-0.8,  0. ,  0.5])
    >>> population_minimiser("hinge", [0.1, 0.5, 0.75])
    array([-1.,  1.,  1.])
    >>> round(population_minimiser("logistic", 0.75), 6)  # log 3
    1.098612
    """
    if loss == "square":
        f = 2.0 * p - 1.0
    elif loss == "hinge":
        f = np.where(p >= 0.5, 1.0, -1.0)
    else:
        with np.errstate(divide="ignore"):
            f = np.log(p) - np.log1p(-p)
    return _out(f)


@validated(r=values(), c=positive())
def huber_loss(r, c):
    r"""Huber's loss of the residual: quadratic near 0, linear beyond :math:`c`.

    .. math::
        V_H(r) = \begin{cases} r^2 / 2 & |r| \le c, \\ c|r| - c^2/2 & |r| > c, \end{cases}
        \qquad r = y - f(x).

    Source: Valle Vidal (2009), "Support vector regression (2)", after Hastie, Tibshirani &
    Friedman, eq. (12.38). Valle Vidal prints the cases as :math:`r \le c` and :math:`r > c`,
    without the absolute values, which makes the loss quadratic for every negative residual.

    Parameters
    ----------
    r : float or array_like
        Residuals :math:`y - f(x)`.
    c : float > 0
        Threshold where the loss turns from quadratic to linear.

    Returns
    -------
    loss : float or ndarray, same shape as ``r``

    Raises
    ------
    ValueError
        If ``c`` is not a positive finite number.

    Examples
    --------
    >>> huber_loss([-3.0, 0.5, 3.0], c=1.0)
    array([2.5  , 0.125, 2.5  ])
    """
    a = np.abs(r)
    return _out(np.where(a <= c, 0.5 * r * r, c * a - 0.5 * c * c))
