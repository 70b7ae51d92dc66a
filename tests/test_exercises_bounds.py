"""The exercise of chapter 8 (kernels_ref.exercises): the margin slacks
xi_i = max(0, gamma - y_i f(x_i)/||w||).

The reference passes; the classic mistakes, written out as a student would write them, fail on a
problem of at most five points with a message that names the mistake; correct implementations
written differently from the reference pass.
"""

import numpy as np
import pytest

from kernels_ref import exercises


def _fails_naming(function, words):
    report = exercises.check("margin_slacks", function)
    assert not report.passed, f"{function.__name__} passed"
    assert words in report.message, str(report)
    assert report.problem.size <= 5, str(report)
    return report


def test_reference_passes():
    report = exercises.check("margin_slacks", exercises.reference("margin_slacks"))
    assert report.passed, str(report)


def slacks_not_divided(f, y, gamma, w_norm):
    return np.maximum(0.0, gamma - y * f)


def slacks_gamma_divided_too(f, y, gamma, w_norm):
    return np.maximum(0.0, (gamma - y * f) / w_norm)


def slacks_multiplied(f, y, gamma, w_norm):
    return np.maximum(0.0, gamma - y * f * w_norm)


def slacks_of_f_itself(f, y, gamma, w_norm):
    return np.maximum(0.0, gamma * w_norm - y * f)


def slacks_without_max(f, y, gamma, w_norm):
    return gamma - y * f / w_norm


def slacks_absolute(f, y, gamma, w_norm):
    return np.abs(gamma - y * f / w_norm)


def slacks_reversed(f, y, gamma, w_norm):
    return np.maximum(0.0, y * f / w_norm - gamma)


def slacks_without_labels(f, y, gamma, w_norm):
    return np.maximum(0.0, gamma - f / w_norm)


def slacks_hinge(f, y, gamma, w_norm):
    return np.maximum(0.0, 1.0 - y * f)


@pytest.mark.parametrize(
    ("function", "words"),
    [
        (slacks_not_divided, "||w|| is not divided"),
        (slacks_gamma_divided_too, "gamma is divided by ||w|| too"),
        (slacks_multiplied, "f is multiplied by ||w||, not divided by it"),
        (slacks_of_f_itself, "||w|| times the slack"),
        (slacks_without_max, "max(0, .) is missing"),
        (slacks_absolute, "the absolute value in place of max(0, .)"),
        (slacks_reversed, "the sign is reversed"),
        (slacks_without_labels, "the labels are missing"),
        (slacks_hinge, "the soft margin's hinge loss, gamma and ||w|| ignored"),
    ],
    ids=lambda v: getattr(v, "__name__", ""),
)
def test_margin_slacks_names_the_mistake(function, words):
    _fails_naming(function, words)


def test_two_mistakes_with_one_answer_are_both_named():
    # at gamma = 1, where shrinking goes, the slacks of f are the soft margin's hinge losses
    report = _fails_naming(slacks_not_divided, "||w|| is not divided")
    assert report.problem.args["gamma"] == 1.0
    assert "; or, the same answer on this problem, max(0, 1 - y_i f(x_i))" in report.message


def test_margin_slacks_by_a_loop_passes():
    def margin_slacks(f, y, gamma, w_norm):
        xi = np.zeros(len(f))
        for i in range(len(f)):
            margin = y[i] * f[i] / w_norm  # the geometric margin of x_i
            if margin < gamma:
                xi[i] = gamma - margin
        return xi

    assert exercises.check("margin_slacks", margin_slacks).passed


def test_margin_slacks_from_the_hinge_loss_passes():
    # xi_i = gamma max(0, 1 - y_i g(x_i)) for g = f / (gamma ||w||), of margin 1 at gamma
    def margin_slacks(f, y, gamma, w_norm):
        g = np.asarray(f) / (gamma * w_norm)
        return gamma * np.clip(1.0 - np.asarray(y) * g, 0.0, None)

    assert exercises.check("margin_slacks", margin_slacks).passed
