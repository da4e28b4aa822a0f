"""chunklib.windows: the seed's figures, edge cases, bad arguments and properties."""

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chunklib import windows as w


def test_seed_worked_example():  # seeds/000: N = 1000, C = 200, O = 50
    assert w.stride(200, 50) == 150
    assert w.n_chunks(1000, 200, 50) == 7
    assert w.chunk_starts(1000, 200, 50) == [0, 150, 300, 450, 600, 750, 900]
    assert w.chunk_lengths(1000, 200, 50)[-1] == 100
    assert w.last_chunk_length(1000, 200, 50) == 100
    assert w.stored_positions(1000, 200, 50) == 1300
    assert w.duplication_factor(1000, 200, 50) == 1.3


def test_exact_fit_that_the_range_loop_gets_wrong():
    assert w.window_spans(1000, 250, 100) == [
        (0, 250), (150, 400), (300, 550), (450, 700), (600, 850), (750, 1000)]
    assert len(range(0, 1000, 150)) == 7  # the bug this lesson teaches against


def test_grading_standard_cases():
    assert w.n_chunks(1000, 200, 100) == 9
    assert w.n_chunks(1000, 250, 100) == 6


def test_seed_002_hundred_thousand_tokens():  # 1000/200: 125 chunks, not 1200 per chunk
    assert w.n_chunks(100_000, 1000, 200) == 125
    assert w.n_chunks(100_000, 1000, 0) == 100
    assert max(w.chunk_lengths(100_000, 1000, 200)) == 1000
    assert w.duplication_factor(100_000, 1000, 200) == pytest.approx(1.248)


def test_empty_document():
    assert w.chunk_starts(0, 200, 50) == []
    assert w.n_chunks(0, 200, 50) == 0
    assert w.chunk_lengths(0, 200, 50) == []
    assert w.stored_positions(0, 200, 50) == 0
    assert w.duplication_factor(0, 200, 50) == 1.0
    assert w.chunk_with_overlap([], 3, 1) == []
    assert w.unit_windows([], 3, 1) == []


def test_chunk_with_overlap_and_text_windows():
    assert w.chunk_with_overlap(list("abcdefg"), 3, 1) == [
        ["a", "b", "c"], ["c", "d", "e"], ["e", "f", "g"]]
    text = "abcdefg"
    assert [text[s:e] for s, e in w.text_windows(text, 3, 1)] == ["abc", "cde", "efg"]
    assert w.unit_windows([(0, 3), (4, 7), (8, 11)], 2, 1) == [(0, 7), (4, 11)]


@pytest.mark.parametrize("size, overlap, exc, word", [
    (200, 200, ValueError, "overlap"), (200, 250, ValueError, "overlap"),
    (200, -1, ValueError, "overlap"), (0, 0, ValueError, "size"),
    (200.0, 50, TypeError, "size"), (200, 50.0, TypeError, "overlap"),
    (True, 0, TypeError, "size"), ("200", 50, TypeError, "size"),
])
def test_bad_window_arguments_name_the_argument(size, overlap, exc, word):
    for f in (w.stride, lambda c, o: w.chunk_starts(10, c, o), lambda c, o: w.n_chunks(10, c, o)):
        with pytest.raises(exc, match=word):
            f(size, overlap)


@pytest.mark.parametrize("n, exc", [(-1, ValueError), (1.5, TypeError), (None, TypeError)])
def test_bad_n(n, exc):
    with pytest.raises(exc, match="n must"):
        w.n_chunks(n, 10, 2)


def test_units_must_be_a_sequence():
    with pytest.raises(TypeError, match="units"):
        w.chunk_with_overlap("abc", 2, 0)


def test_counting_is_constant_time_on_huge_inputs():
    # 10**15 units: listing would never finish, counting is one formula
    assert w.n_chunks(10**15, 1000, 200) == 1 + math.ceil((10**15 - 1000) / 800)
    assert w.stored_positions(10**15, 1000, 1) > 10**15


windows_args = st.integers(1, 60).flatmap(
    lambda size: st.tuples(st.integers(0, 400), st.just(size), st.integers(0, size - 1)))


@given(windows_args)
def test_properties(args):
    n, size, overlap = args
    spans = w.window_spans(n, size, overlap)
    k = len(spans)
    assert k == w.n_chunks(n, size, overlap)
    assert k == (0 if n == 0 else 1 + math.ceil(max(0, n - size) / (size - overlap)))
    if n == 0:
        assert spans == []
        return
    assert spans[0][0] == 0 and spans[-1][1] == n  # covers [0, n)
    for (s1, e1), (s2, e2) in zip(spans, spans[1:]):
        assert s1 < s2 and e1 < e2  # in order, no chunk inside the previous one
        assert e1 - s2 == overlap  # consecutive chunks share exactly O units
    assert all(0 < e - s <= size for s, e in spans)
    if k >= 2:
        assert overlap < spans[-1][1] - spans[-1][0] <= size  # last length in (O, C]
    assert w.stored_positions(n, size, overlap) == sum(e - s for s, e in spans)
    assert w.stored_positions(n, size, overlap) == n + (k - 1) * overlap
    assert w.last_chunk_length(n, size, overlap) == spans[-1][1] - spans[-1][0]


@given(windows_args, st.data())
def test_spans_of_at_most_o_plus_one_units_sit_whole_in_some_chunk(args, data):
    n, size, overlap = args
    if n == 0:
        return
    spans = w.window_spans(n, size, overlap)
    length = data.draw(st.integers(1, min(overlap + 1, n)))
    start = data.draw(st.integers(0, n - length))
    assert any(s <= start and start + length <= e for s, e in spans)


@given(st.text(max_size=80), st.integers(1, 12), st.data())
def test_text_offsets_reproduce_slices(text, size, data):
    overlap = data.draw(st.integers(0, size - 1))
    pieces = w.chunk_with_overlap(list(text), size, overlap)
    spans = w.text_windows(text, size, overlap)
    assert ["".join(p) for p in pieces] == [text[s:e] for s, e in spans]


@pytest.mark.parametrize("text", [
    "café e\u0301 👩‍💻 emoji", "日本語の文章には空白がありません。", "same. same. same. same.",
    "",
])
def test_unicode_and_repeated_text_offsets(text):
    spans = w.text_windows(text, 4, 1)
    assert "".join(text[s:e][(1 if i else 0):] for i, (s, e) in enumerate(spans)) == text
