r"""Bounds of learning theory: mistake bounds (chapter 3) and generalisation bounds (chapter 8).

Each bound is a function of the quantities it is stated in, named after the theorem.
"""

from ._validation import check_positive

__all__ = ["novikoff_bound"]


def novikoff_bound(R, rho):
    r"""Novikoff's bound on the number of mistakes of the perceptron.

    .. math:: \text{mistakes} \le \left(\frac{R}{\rho}\right)^2

    for data in the ball :math:`\|x_i\| \le R` that a hyperplane through the origin separates
    with (geometric) margin :math:`\rho = \min_i y_i \langle w^*, x_i\rangle / \|w^*\|`, whatever
    the order and the number of passes. Source: Chevaleyre, *Fondamentaux de l'apprentissage
    automatique* (2023), §2.5, Théorème 1 (Novikoff 1962), with :math:`\rho = 1/\|w^*\|` for a
    canonical :math:`w^*`.

    With a bias, apply it to the augmented points :math:`(x_i, 1)` (bias update
    :math:`b \leftarrow b + y_i`) or :math:`(x_i, R)` (update :math:`b \leftarrow b + y_i R^2`),
    on which the perceptron with a bias is the perceptron through the origin.

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
    R = check_positive(R, "R")
    rho = check_positive(rho, "rho")
    if rho > R * (1.0 + 1e-9):  # equality is possible: allow for round-off
        raise ValueError(f"rho must be <= R (a margin cannot exceed the radius), got {rho} > {R}")
    return (R / rho) ** 2
