r"""Exercise of chapter 8: the margin slacks of a classifier, the vector :math:`\xi(S, f,
\gamma)` of the margin-slack bounds.

The slacks are unique: judged against the reference. The problems are integer decision values,
so that the answers are exact up to round-off and a counterexample can be typed in.
"""

import numpy as np
from hypothesis import strategies as st

from ..bounds import margin_slacks as _margin_slacks
from ..report import _tolerance
from ._core import Exercise, Problem
from ._judging import array_output, close, compare, either

#: Tolerance of the slacks, relative to the largest slack (or 1): they are computed from integers
#: by one division, a subtraction and a maximum, so round-off stays near 1e-15.
SLACK_TOL = 1e-9


def margin_slacks(f, y, gamma, w_norm):
    r""":math:`\xi_i = \max(0, \gamma - y_i f(x_i)/\|w\|)`
    (:func:`kernels_ref.bounds.margin_slacks`)."""
    return _margin_slacks(f, y, gamma, w_norm)


#: One example: an integer decision value in [-3, 3] and its label (shrinking: 0 and +1).
_EXAMPLE = st.tuples(st.integers(-3, 3).map(float), st.sampled_from([1.0, -1.0]))


@st.composite
def _slack_problems(draw):
    """Examples (f(x_i), y_i) with labels of both classes; gamma and ||w|| from short lists
    whose first value, 1, is where shrinking goes (at ||w|| = 1 the division cannot show, at
    gamma = 1 the target margin cannot be told from the soft margin's 1)."""
    examples = draw(
        st.lists(_EXAMPLE, min_size=2, max_size=7).filter(lambda ex: len({y for _, y in ex}) == 2)
    )
    f, y = (np.array(column) for column in zip(*examples, strict=True))
    gamma = draw(st.sampled_from([1.0, 0.5, 2.0]))
    w_norm = draw(st.sampled_from([1.0, 2.0, 0.5]))
    args = {"f": f, "y": y, "gamma": gamma, "w_norm": w_norm}
    return Problem(args=args, shown=dict(args), size=len(f),
                   note="f[i] = f(x_i) = <w, phi(x_i)> + b, w_norm = ||w||")  # fmt: skip


def _is(*formulas):
    """A symptom: the answer is one of ``formula(y_i f(x_i), f, gamma, ||w||)``, a mistaken
    slack."""

    def holds(pb, got, exp):
        f, y, gamma, w = pb.args.values()
        return any(close(got, formula(y * f, f, gamma, w), SLACK_TOL) for formula in formulas)

    return holds


#: The mistakes, each named when the answer is its formula; on a small problem two can give the
#: same answer (at gamma = 1, ||w|| not divided is the soft margin's hinge loss), and the message
#: then names each (:func:`either`).
SLACK_SYMPTOMS = (
    (
        "max(0, gamma - y_i f(x_i)): ||w|| is not divided; the slack is that of f/||w||, the "
        "function of unit weight vector",
        _is(lambda m, f, g, w: np.maximum(0.0, g - m)),
    ),
    (
        "max(0, (gamma - y_i f(x_i))/||w||): gamma is divided by ||w|| too (the parentheses); "
        "only the margin is: gamma - y_i f(x_i)/||w||",
        _is(lambda m, f, g, w: np.maximum(0.0, (g - m) / w)),
    ),
    (
        "max(0, gamma - y_i f(x_i) ||w||): f is multiplied by ||w||, not divided by it",
        _is(lambda m, f, g, w: np.maximum(0.0, g - m * w)),
    ),
    (
        "max(0, gamma ||w|| - y_i f(x_i)), ||w|| times the slack: the shortfall of f itself "
        "from gamma ||w||; the slack is that of f/||w|| (divide by ||w||)",
        _is(lambda m, f, g, w: np.maximum(0.0, g * w - m)),
    ),
    (
        "gamma - y_i f(x_i)/||w||, negative beyond the target margin: max(0, .) is missing (a "
        "point whose margin exceeds gamma has slack 0)",
        _is(lambda m, f, g, w: g - m / w),
    ),
    (
        "|gamma - y_i f(x_i)/||w|||: the absolute value in place of max(0, .) (a point whose "
        "margin exceeds gamma has slack 0)",
        _is(lambda m, f, g, w: np.abs(g - m / w)),
    ),
    (
        "y_i f(x_i)/||w|| - gamma: the sign is reversed; the slack is the shortfall "
        "max(0, gamma - y_i f(x_i)/||w||)",
        _is(lambda m, f, g, w: m / w - g, lambda m, f, g, w: np.maximum(0.0, m / w - g)),
    ),
    (
        "max(0, gamma - f(x_i)/||w||): the labels are missing; the margin of x_i is "
        "y_i f(x_i)/||w||",
        _is(lambda m, f, g, w: np.maximum(0.0, g - f / w)),
    ),
    (
        "max(0, 1 - y_i f(x_i)): the soft margin's hinge loss, gamma and ||w|| ignored (for "
        "gamma = 1/||w||, xi_i is the hinge loss over ||w||)",
        _is(lambda m, f, g, w: np.maximum(0.0, 1.0 - m)),
    ),
)

SLACK_CONDITION = "xi_i = max(0, gamma - y_i f(x_i)/||w||)"


def _slack_judge(pb, got, exp):
    """Against the reference, naming each mistake whose formula gives the answer."""
    return compare(pb, got, exp, SLACK_TOL, SLACK_CONDITION, either(SLACK_SYMPTOMS, pb, got, exp))


MARGIN_SLACKS = Exercise(
    name="margin_slacks",
    signature="margin_slacks(f, y, gamma, w_norm) -> xi",
    statement=(
        "f of shape (n,), the decision values f(x_i) = <w, phi(x_i)> + b of a classifier; labels "
        "y in {-1, +1} (both classes present); a target margin gamma > 0; w_norm = ||w|| > 0: "
        "the margin slacks xi of shape (n,), xi_i = max(0, gamma - y_i f(x_i)/||w||), the slacks "
        "of the function of unit weight vector f/||w|| = <w/||w||, phi(x)> + b/||w||: how far "
        "each example falls short of the margin gamma (xi_i > gamma exactly when x_i is "
        "misclassified)."
    ),
    tolerance=(
        f"each slack within {_tolerance(SLACK_TOL)} times the largest slack of the reference "
        "(or 1); f has integer entries"
    ),
    chapter="ch08_generalisation",
    reference=margin_slacks,
    problems=_slack_problems,
    output=array_output(lambda pb: (pb.size,), "xi"),
    judge=_slack_judge,
)

EXERCISES = (MARGIN_SLACKS,)
