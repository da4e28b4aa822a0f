"""chunklib.intervals: union, intersection and the actual duplication ratio."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chunklib import intervals as iv
from chunklib import windows as w


def test_union_and_lengths():
    assert iv.union([(5, 9), (0, 3), (2, 4), (7, 7)]) == [(0, 4), (5, 9)]
    assert iv.union([(0, 3), (3, 5)]) == [(0, 5)]
    assert iv.total_length([(0, 200), (150, 350)]) == 400
    assert iv.union_length([(0, 200), (150, 350)]) == 350
    assert iv.intersection_length([(0, 10)], [(5, 20)]) == 5
    assert iv.intersection_length([(0, 2), (4, 6)], [(1, 5)]) == 2


def test_duplication_ratio_matches_the_seed_on_windows():
    spans = w.window_spans(1000, 200, 50)
    assert iv.duplication_ratio(spans, 1000) == pytest.approx(0.3)
    assert iv.duplication_ratio(w.window_spans(10_000, 1000, 0), 10_000) == 0.0
    assert iv.duplication_ratio(w.window_spans(10_000, 1000, 200), 10_000) == pytest.approx(0.24)


def test_duplication_ratio_never_negative_when_chunks_skip_source():
    # seeds/003's D = sum - L would give 8 - 10 < 0 here; the union-based D is 0
    assert iv.duplication_ratio([(0, 4), (6, 10)], 10) == 0.0
    assert iv.duplication_ratio([], 0) == 0.0


@pytest.mark.parametrize("bad, exc", [([(3, 1)], ValueError), ([(0,)], TypeError),
                                      ("ab", TypeError), ([(-1, 2)], ValueError)])
def test_bad_spans(bad, exc):
    with pytest.raises(exc, match="spans"):
        iv.union(bad)


spans_st = st.lists(st.tuples(st.integers(0, 50), st.integers(0, 20)).map(
    lambda t: (t[0], t[0] + t[1])), max_size=12)


@given(spans_st, spans_st)
def test_properties_against_sets(a, b):
    sa = {i for s, e in a for i in range(s, e)}
    sb = {i for s, e in b for i in range(s, e)}
    assert iv.union_length(a) == len(sa)
    assert iv.intersection_length(a, b) == len(sa & sb)
    assert iv.duplication_ratio(a, 100) >= 0
