"""kernels_ref.report: a check that prints what it found fails when the values disagree, and
prints no digit below its tolerance."""

import numpy as np
import pytest

from kernels_ref.report import agree, at_most


def test_agree_fails_beyond_the_tolerance_and_names_the_difference():
    with pytest.raises(AssertionError, match=r"objective: relative difference 1\.000e-03"):
        agree("objective", 1.001, 1.0, 1e-6)


def test_agree_fails_on_nan():
    with pytest.raises(AssertionError):
        agree("alpha", [np.nan, 1.0], [0.0, 1.0], 1e-3, relative=False)


def test_agree_prints_the_same_text_for_values_that_differ_below_the_tolerance():
    texts = {agree("b", 0.7 + d, 0.7, 1e-8, relative=False) for d in (-4e-9, 0.0, 3e-9)}
    assert texts == {"b: 0.7, the reference 0.7 (they agree to 1e-8)"}


def test_a_value_within_the_tolerance_of_zero_is_shown_as_zero_whatever_its_sign():
    texts = {agree("b", d, 0.0, 1e-10, relative=False) for d in (-2e-13, 0.0, 2e-13)}
    assert texts == {"b: 0, the reference 0 (they agree to 1e-10)"}


def test_agree_shows_only_the_digits_above_the_uncertainty():
    pi = 3.14159265
    assert agree("pi", pi, pi, 1e-2, relative=False).startswith("pi: 3.1, the reference 3.1 (")
    assert agree("pi", pi, pi, 1e-9, relative=False).startswith("pi: 3.142, the reference 3.142")


def test_at_most_states_the_bound_not_the_value():
    assert at_most("gap", 3.7e-12, 1e-9) == "gap <= 1e-9"
    with pytest.raises(AssertionError, match=r"gap is 2\.000e-09"):
        at_most("gap", 2e-9, 1e-9)


def test_a_value_that_is_not_a_number_is_refused_by_name():
    with pytest.raises(TypeError, match=r"^reference must be a number"):
        agree("b", 1.0, "1.0x", 1e-6)
    with pytest.raises(TypeError, match=r"^value must be a number"):
        at_most("gap", None, 1e-9)


@pytest.mark.parametrize("tol", [1e-4, 1e-3, 1e-6])
def test_agree_shows_both_values_with_the_same_digits_whatever_the_round_off(tol):
    # |value| / (tol |reference|) is 1/tol, a power of ten: the digits must not depend on
    # which side of it round-off falls
    texts = {agree("m", 0.30470001 * (1 + d), 0.30470001, tol) for d in (-4e-9, 0.0, 4e-9)}
    assert len(texts) == 1
    ours, theirs = next(iter(texts)).split("(")[0].split(": ")[1].split(", the reference ")
    assert ours.strip() == theirs.strip()
