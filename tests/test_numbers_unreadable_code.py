"""``numbers.unreadable_code`` skips ahead to the first word that could read
as NaN or an infinity, so a value of a hundred megabytes of ordinary numbers
is classified in one scan; the verdict is the one a float() of every word
gives."""
from __future__ import annotations

import math

import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import given, settings, strategies as st  # noqa: E402

from mbparse.numbers import unreadable_code  # noqa: E402


def every_word(text: str, otherwise: str) -> str:
    """The verdict of a float() of every word: the first word that reads
    as NaN or an infinity decides."""
    read = []
    for token in text.split():
        try:
            read.append(float(token))
        except ValueError:
            pass
    first = next((v for v in read if not math.isfinite(v)), None)
    if first is None:
        return otherwise
    return "number-nan" if math.isnan(first) else "number-not-finite"


WORDS = st.sampled_from(["1", "-2.5", "x", "nan", "-NaN", "inf", "+Infinity", "1e400", "1E+400",
                         "1e-400", "1e4_00", "1_" * 200 + "1", "9" * 320, "١" * 320, "0x1p3",
                         "1,2", "abcinf", "e", "", "\t", "\n", "9" * 250 + "e99", "9" * 150 + "e99",
                         "İ", "İnf", "x" * 150, "\u00a0"])


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.lists(WORDS, max_size=12), st.sampled_from([" ", "  ", "\n", "\t "]))
def test_the_verdict_is_that_of_reading_every_word(words, sep):
    text = sep.join(words)
    assert unreadable_code(text, "other") == every_word(text, "other")


@pytest.mark.parametrize("text, code", [("1 2 x", "other"), ("1 nan", "number-nan"),
                                        ("x 1 2 -INF", "number-not-finite"),
                                        ("1e-400 y", "other"), ("1" * 400 + " y", "number-not-finite")])
def test_known_verdicts(text, code):
    assert unreadable_code(text, "other") == code


def test_a_long_value_of_ordinary_numbers_is_not_read_word_by_word():
    text = " 0" * 5_000_000 + " x"
    assert unreadable_code(text, "other") == "other"
    assert unreadable_code(text + " inf", "other") == "number-not-finite"
