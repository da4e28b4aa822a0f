"""The course's comparison rule (chunklib.exact) and the self-check that applies it."""

from collections import namedtuple

import numpy as np
import pytest

from chunklib.course import selfcheck
from chunklib.course.selfcheck import expect
from chunklib.exact import same, type_advice
from tools.grading import cases


class AlwaysEqual:
    def __eq__(self, other):
        return True

    __hash__ = object.__hash__


@pytest.mark.parametrize("answer, expected", [
    (6, 6), (0.6, 0.6), (120 / 200, 0.6), (1e12 + 1e-4, 1e12), (True, True), ("B", "B"),
    ([("c4", 1)], [("c4", 1)]), (("a", "b"), ("a", "b")), ({"k": [1, 2]}, {"k": [1, 2]}),
    ([], []), (None, None),
])
def test_equal_values_of_the_same_type_are_the_same(answer, expected):
    assert same(answer, expected)


@pytest.mark.parametrize("answer, expected", [
    (6.0, 6), (np.int64(6), 6), ("6", 6), (True, 1), (1, True), (0, False), (6, 6.0),
    (np.float64(0.6), 0.6), ([1, 2], (1, 2)), ((1, 2), [1, 2]), ([("c4", 1.0)], [("c4", 1)]),
    ([["c4", 1]], [("c4", 1)]), (AlwaysEqual(), 6), ([AlwaysEqual()], [6]),
    ({"k": AlwaysEqual()}, {"k": [1]}), ({AlwaysEqual(): 1}, {"k": 1}), (0.6 + 1e-6, 0.6),
    (7, 6), ([1, 2, 3], [1, 2]), ("b", "B"), (None, 0),
])
def test_other_types_or_values_are_not(answer, expected):
    assert not same(answer, expected)


Span = namedtuple("Span", "start end")


@pytest.mark.parametrize("answer, expected, advice", [
    (6.0, 6, "write 6, not 6.0"),
    (np.int64(6), 6, "write a plain int, e.g. int(x), not a numpy int64"),
    (np.float64(0.25), 0.25, "write a plain float, e.g. float(x), not a numpy float64"),
    ("6", 6, "write it without quotes: a string is not a number or a True/False"),
    ("True", True, "write it without quotes: a string is not a number or a True/False"),
    (0, False, "write False, not 0"),
    ([("c4", 1.0)], [("c4", 1)], "at [0][1]: write 1, not 1.0"),
    ([["c4", 1]], [("c4", 1)], "at [0]: write a tuple (...), not a list [...]"),
    ({"a": [0, 1.0]}, {"a": [0, 1]}, "at ['a'][1]: write 1, not 1.0"),
    (np.array([0, 150]), [0, 150], "write a list [...], e.g. x.tolist(), not a numpy ndarray"),
    (range(0, 300, 150), [0, 150], "write a list [...], e.g. list(x), not a range"),
    (np.array([[0, 5]]), [(0, 5)], "write a list [...], e.g. x.tolist(), not a numpy ndarray"),
    (np.array([0, 5]), (0, 5), "write a tuple (...), e.g. tuple(x.tolist()), not a numpy ndarray"),
    (np.unique(["d", "a"]), ["a", "d"], "write a list [...], e.g. x.tolist(), not a numpy ndarray"),
    ([np.str_("a")], ["a"], "at [0]: write a plain str, e.g. str(x), not a numpy str_"),
    ({"a": {1.0: 2}}, {"a": {1: 2}}, "at ['a'] key 1: write 1, not 1.0"),
    (Span(0, 5), (0, 5), "write a tuple (...), not a Span"),
    ([100, 300], (100, 300), "write a tuple (...), not a list [...]"),
])
def test_a_right_value_of_the_wrong_type_is_explained(answer, expected, advice):
    assert type_advice(answer, expected) == advice


@pytest.mark.parametrize("answer, expected", [
    (6, 6), (7.0, 6), ("7", 6), (None, 6), (AlwaysEqual(), 6), ("B ", "B"), (True, 6),
])
def test_no_advice_for_a_right_answer_or_a_wrong_value(answer, expected):
    assert type_advice(answer, expected) is None


def test_expect_explains_without_raising_anything_but_assertion_error():
    with pytest.raises(AssertionError, match="this example gives array"):
        expect(np.array(5), [5])  # a 0-d array has no len()
    with pytest.raises(AssertionError, match=r"an iterator .*: return list\(\.\.\.\)"):
        expect((x for x in [1]), [1])
    with pytest.raises(AssertionError, match="not its type: write 6, not 6.0") as raised:
        expect(6.0, 6)
    assert str(raised.value).startswith(cases.TYPE_ONLY)  # the self-grade report reads it
    expect([(0, 5)], [(0, 5)])


def test_the_self_check_says_right_only_when_the_rule_does():
    assert selfcheck.verdict("overlap.ex1_k", 7) == (True, "✓ Right.")
    ok, message = selfcheck.verdict("overlap.ex1_k", 1 + 900 / 150)
    assert ok is False and message.endswith("Write 7, not 7.0.")
    ok, message = selfcheck.verdict("lifecycle.employee_hits", [("c4", 1.0)])
    assert ok is False and "At [0][1]: write 1, not 1.0." in message
    assert selfcheck.verdict("overlap.ex1_k", AlwaysEqual())[0] is False
