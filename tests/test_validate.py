"""Tests for chunklib.validate: the plain-int and (int, int)-tuple fast paths accept and refuse
exactly what the general checks do."""

import enum

import numpy as np
import pytest

from chunklib.validate import require_int, require_spans


class Size(enum.IntEnum):
    SMALL = 3


@pytest.mark.parametrize("value, expected", [(0, 0), (7, 7), (np.int64(5), 5), (Size.SMALL, 3)])
def test_require_int_accepts_integers(value, expected):
    out = require_int("n", value, minimum=0)
    assert out == expected and type(out) is int


@pytest.mark.parametrize("value", [True, False, 2.0, "2", None])
def test_require_int_refuses_non_integers(value):
    with pytest.raises(TypeError, match="n must be an int"):
        require_int("n", value)


def test_require_int_minimum():
    with pytest.raises(ValueError, match="n must be >= 1, got 0"):
        require_int("n", 0, minimum=1)


def test_require_spans_accepts_pairs_of_any_integer_kind():
    spans = [(0, 3), [2, 5], (np.int64(4), 9), (Size.SMALL, 3), (6, 6)]
    out = require_spans("spans", spans)
    assert out == [(0, 3), (2, 5), (4, 9), (3, 3), (6, 6)]
    assert all(type(s) is tuple and type(s[0]) is int and type(s[1]) is int for s in out)


@pytest.mark.parametrize("span, error, message", [
    ((True, 3), TypeError, r"spans\[1\] start must be an int"),
    ((0, 2.0), TypeError, r"spans\[1\] end must be an int"),
    ((-1, 3), ValueError, r"spans\[1\] start must be >= 0"),
    ((5, 3), ValueError, r"spans\[1\] ends before it starts"),
    ((1, 2, 3), TypeError, r"spans\[1\] must be a \(start, end\) pair"),
    (7, TypeError, r"spans\[1\] must be a \(start, end\) pair"),
])
def test_require_spans_names_the_bad_span(span, error, message):
    with pytest.raises(error, match=message):
        require_spans("spans", [(0, 1), span])
