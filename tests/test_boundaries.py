"""Tests for chunklib.splitter and chunklib.boundaries: the lesson-2 exercises, split_text and
the strategy comparison (chunklib.course.comparison).

The exercises are checked against a slow string-based oracle written from the appendix, and
every splitter against its invariants: tiling (or covering, with overlap), the size bound,
exact offsets on repeated text, CRLF, emoji and CJK, text with no separator at all.
"""

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chunklib.boundaries import boundary_quality, merge_spans, span_stats
from chunklib.course.comparison import compare_strategies
from chunklib.sentences import split_sentences
from chunklib.splitter import DEFAULT_SEPARATORS, recursive_split, split_text

ALPHABET = "ab .\n\r\t!日本👩\u200d💻e\u0301"
texts = st.text(alphabet=ALPHABET, max_size=120)
sizes = st.integers(min_value=1, max_value=30)
separator_lists = st.one_of(
    st.just(DEFAULT_SEPARATORS),
    st.lists(st.sampled_from(["\n\n", "\n", ". ", " ", "ab", "..", "\r\n", "日"]),
             max_size=5, unique=True).map(tuple),
)


def oracle_recursive(text, size, separators=DEFAULT_SEPARATORS):
    """The appendix read literally, on strings; offsets come from adding up piece lengths."""
    def pieces(piece, seps):
        if len(piece) <= size:
            return [piece]
        for k, sep in enumerate(seps):
            if sep in piece:
                parts = piece.split(sep)
                kept = [p + sep for p in parts[:-1]] + [parts[-1]]
                return [q for p in kept if p for q in pieces(p, seps[k + 1:])]
        return [piece[i:i + size] for i in range(0, len(piece), size)]

    spans, pos = [], 0
    for p in pieces(text, tuple(separators)):
        spans.append((pos, pos + len(p)))
        pos += len(p)
    return spans


def assert_tiles(text, spans):
    assert spans[0][0] == 0 and spans[-1][1] == len(text)
    assert all(a[1] == b[0] for a, b in zip(spans, spans[1:], strict=False))
    assert "".join(text[s:e] for s, e in spans) == text


def utf8_bytes(s):
    return len(s.encode("utf-8"))


def words(s):
    return len(s.split())


def wobbly(s):
    """Not monotone in the length of the piece: termination must not rely on monotonicity."""
    return len(s) + (5 if len(s) % 3 == 0 else 0)


# --- recursive_split -------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("text", "size", "separators", "expected"),
    [
        ("", 5, DEFAULT_SEPARATORS, [(0, 0)]),
        ("Hello world", 20, DEFAULT_SEPARATORS, [(0, 11)]),
        ("aaa bbb ccc", 5, DEFAULT_SEPARATORS, [(0, 4), (4, 8), (8, 11)]),
        ("One. Two. Three.", 6, DEFAULT_SEPARATORS, [(0, 5), (5, 10), (10, 16)]),
        ("abcdefghij", 4, DEFAULT_SEPARATORS, [(0, 4), (4, 8), (8, 10)]),  # hard cut
        ("Para one.\n\nPara two is long.", 12, DEFAULT_SEPARATORS,
         [(0, 11), (11, 16), (16, 20), (20, 23), (23, 28)]),
        ("aaaa\n\nbbbb", 3, DEFAULT_SEPARATORS, [(0, 3), (3, 5), (5, 6), (6, 9), (9, 10)]),
        ("a b c", 2, (), [(0, 2), (2, 4), (4, 5)]),  # no separators: hard cuts only
        ("x. y. z", 3, (" ", ". "), [(0, 3), (3, 6), (6, 7)]),  # order matters: " " first
        ("Same. Same. Same.", 6, DEFAULT_SEPARATORS, [(0, 6), (6, 12), (12, 17)]),
        ("Same. Same. Same.", 5, DEFAULT_SEPARATORS,
         [(0, 5), (5, 6), (6, 11), (11, 12), (12, 17)]),  # "Same. " is hard-cut
        ("A.\r\n\r\nB.", 3, DEFAULT_SEPARATORS, [(0, 3), (3, 4), (4, 6), (6, 8)]),
    ],
)
def test_recursive_split_examples(text, size, separators, expected):
    assert recursive_split(text, size, separators) == expected
    assert oracle_recursive(text, size, separators) == expected


@given(texts, sizes, separator_lists)
def test_recursive_split_matches_oracle_tiles_and_fits(text, size, separators):
    spans = recursive_split(text, size, separators)
    assert spans == oracle_recursive(text, size, separators)
    assert_tiles(text, spans)
    assert all(e - s <= size for s, e in spans)
    assert all(e > s for s, e in spans) or text == ""


@given(st.text(alphabet="xyz日👩", min_size=1, max_size=200), sizes)
def test_no_separator_means_exact_hard_cuts(text, size):
    """With no separator present every piece but the last is exactly ``size`` long."""
    spans = recursive_split(text, size)
    assert [e - s for s, e in spans[:-1]] == [size] * (len(spans) - 1)
    assert 0 < spans[-1][1] - spans[-1][0] <= size
    assert split_text(text, size) == spans


# --- merge_spans -----------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("spans", "size", "expected"),
    [
        ([], 5, []),
        ([(0, 4), (4, 8), (8, 11)], 8, [(0, 8), (8, 11)]),
        ([(0, 11), (11, 16), (16, 20), (20, 23), (23, 28)], 12, [(0, 11), (11, 23), (23, 28)]),
        ([(0, 10), (10, 12), (12, 13)], 5, [(0, 10), (10, 13)]),  # a long span stays alone
        ([(0, 2), (2, 4)], 4, [(0, 4)]),  # next_end - current_start == size still merges
        ([(0, 2), (2, 4)], 3, [(0, 2), (2, 4)]),
    ],
)
def test_merge_spans_examples(spans, size, expected):
    assert merge_spans(spans, size) == expected


# --- boundary_quality and sentences cut -------------------------------------------------------

SENTENCES = [(0, 4), (5, 9), (10, 16)]  # "One. Two. Three."


@pytest.mark.parametrize(
    ("spans", "expected"),
    [
        ([(0, 16)], 1.0),  # fewer than 2 chunks
        ([], 1.0),
        ([(0, 5), (5, 10), (10, 16)], 1.0),  # ends at the next sentence's start
        ([(0, 4), (4, 9), (9, 16)], 1.0),  # ends exactly at sentence ends
        ([(0, 6), (6, 12), (12, 16)], 0.0),  # fixed windows cut both
        ([(0, 4), (4, 7), (7, 16)], 0.5),
        ([(0, 3), (3, 16)], 0.0),
        ([(0, 10), (10, 14), (14, 15)], 0.5),  # the last end (15) is never counted
    ],
)
def test_boundary_quality_examples(spans, expected):
    assert boundary_quality(SENTENCES, spans) == expected


@pytest.mark.parametrize(
    ("spans", "expected"),
    [([(0, 16)], 0), ([(0, 5), (5, 10), (10, 16)], 0), ([(0, 6), (6, 12), (12, 16)], 2),
     ([(0, 3), (3, 16)], 1), ([(0, 10), (5, 16)], 0), ([], 3)],
)
def test_sentences_cut_examples(spans, expected):
    assert span_stats("One. Two. Three.", spans)["sentences_cut"] == expected


@given(texts, sizes)
def test_boundary_quality_matches_both_readings(text, size):
    """For split_sentences' output, "not strictly inside a sentence" equals "at or after a
    sentence end, up to the next sentence's start" (plus ends before the first sentence)."""
    sentences = split_sentences(text)
    spans = [s for s in recursive_split(text, size) if s[1] > s[0]]
    ends = [e for _, e in spans[:-1]]
    gaps = [(0, sentences[0][0])] if sentences else [(0, len(text))]
    gaps += [(a[1], b[0]) for a, b in zip(sentences, sentences[1:], strict=False)]
    gaps += [(sentences[-1][1], len(text))] if sentences else []
    in_gap = sum(any(lo <= e <= hi for lo, hi in gaps) for e in ends)
    not_inside = sum(not any(s < e < t for s, t in sentences) for e in ends)
    expected = 1.0 if len(spans) < 2 else in_gap / len(ends)
    assert in_gap == not_inside
    assert boundary_quality(sentences, spans) == expected


# --- split_text ------------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("text", "size", "overlap", "expected"),
    [
        ("", 5, 0, []),
        ("One. Two. Three.", 10, 0, [(0, 10), (10, 16)]),
        ("aaa bbb ccc", 8, 0, [(0, 8), (8, 11)]),
        ("Para one.\n\nPara two is long.", 12, 0, [(0, 11), (11, 23), (23, 28)]),
        ("a b c d e f", 5, 2, [(0, 4), (2, 6), (4, 8), (6, 11)]),
        ("aa bb cc dd", 6, 3, [(0, 6), (3, 9), (6, 11)]),
        ("Same. Same. Same. Same.", 12, 0, [(0, 12), (12, 23)]),
        ("Same. Same. Same. Same.", 12, 6, [(0, 12), (6, 18), (12, 23)]),
    ],
)
def test_split_text_examples(text, size, overlap, expected):
    assert split_text(text, size, overlap) == expected


@pytest.mark.parametrize(
    ("text", "size", "length", "expected"),
    [
        ("one two three four five", 2, words, [(0, 8), (8, 19), (19, 23)]),
        ("xxxxxxx", 3, utf8_bytes, [(0, 3), (3, 6), (6, 7)]),
        ("😀😀😀", 3, utf8_bytes, [(0, 1), (1, 2), (2, 3)]),  # one character exceeds: alone
        ("é😀 ab", 5, utf8_bytes, [(0, 1), (1, 3), (3, 5)]),
    ],
)
def test_split_text_with_a_length_function(text, size, length, expected):
    assert split_text(text, size, length=length) == expected


@pytest.mark.parametrize(
    ("text", "size", "expected"),
    [("a  a", 1, [(0, 3), (3, 4)]), ("a  aa", 1, [(0, 3), (3, 5)]),
     ("x\n\ny\n\nz", 1, [(0, 3), (3, 6), (6, 7)])],
)
def test_split_text_tiles_when_a_length_counts_whitespace_as_zero(text, size, expected):
    """Regression: with overlap 0, a piece measured 0 (whitespace, for a token counter) must
    not be repeated at the start of the next chunk."""
    assert split_text(text, size, length=words) == expected


@given(st.text(alphabet="ab \n", min_size=1, max_size=12), st.integers(1, 4))
def test_split_text_with_zero_length_whitespace_tiles(text, size):
    assert_tiles(text, split_text(text, size, length=words))


@given(st.text(alphabet=ALPHABET, min_size=1, max_size=120), sizes, separator_lists)
def test_split_text_is_merge_of_recursive_split(text, size, separators):
    expected = merge_spans(recursive_split(text, size, separators), size)
    assert split_text(text, size, separators=separators) == expected


@given(st.text(alphabet=ALPHABET, min_size=1, max_size=120),
       st.integers(2, 30).flatmap(lambda c: st.tuples(st.just(c), st.integers(0, c - 1))),
       separator_lists)
def test_split_text_with_overlap_covers_and_fits(text, window, separators):
    size, overlap = window
    spans = split_text(text, size, overlap, separators)
    pieces = {s for s, _ in recursive_split(text, size, separators)} | {len(text)}
    assert spans[0][0] == 0 and spans[-1][1] == len(text)
    for (s0, e0), (s1, e1) in zip(spans, spans[1:], strict=False):
        assert s0 < s1 <= e0 < e1  # moves forward, no gap, no chunk inside another
        assert e0 - s1 <= overlap
    assert all(e - s <= size for s, e in spans)
    assert all(s in pieces and e in pieces for s, e in spans)  # cuts only where pieces end


@pytest.mark.parametrize("length", [utf8_bytes, words, wobbly, len])
@given(text=st.text(alphabet=ALPHABET, min_size=1, max_size=80), size=sizes,
       separators=separator_lists)
def test_split_text_length_functions_terminate_tile_and_fit(length, text, size, separators):
    spans = split_text(text, size, separators=separators, length=length)
    assert_tiles(text, spans)
    assert all(length(text[s:e]) <= size or e - s == 1 for s, e in spans)


@given(st.sampled_from(["Same. ", "Same sentence again.\n", "日本語です。 ", "Hi 👩\u200d💻! "]),
       st.integers(1, 40), st.integers(1, 60), st.integers(0, 59))
def test_repeated_sentences_keep_exact_offsets(sentence, k, size, overlap):
    """Offsets match the oracle's, which adds up piece lengths (no searching at all)."""
    text = sentence * k
    overlap = min(overlap, size - 1)
    expected = merge_spans(oracle_recursive(text, size), size)
    assert split_text(text, size) == expected
    if len(sentence) <= size:  # every copy fits: chunks start and end on copies
        by_copy = split_text(text, size, separators=(sentence,))
        assert by_copy == merge_spans(
            [(i * len(sentence), (i + 1) * len(sentence)) for i in range(k)], size)
    assert_covers(text, split_text(text, size, overlap))


def assert_covers(text, spans):
    assert spans[0][0] == 0 and spans[-1][1] == len(text)
    assert all(s0 < s1 <= e0 < e1 for (s0, e0), (s1, e1) in zip(spans, spans[1:], strict=False))


@given(st.text(alphabet="ab .\n日👩", min_size=1, max_size=80))
def test_crlf_never_splits_a_line_break_unless_hard_cut(text):
    """With a size that no word exceeds, no cut falls between "\r" and "\n"."""
    crlf = text.replace("\n", "\r\n")
    size = max(len(run) for run in re.split("[ \n]", crlf)) + 2
    spans = split_text(crlf, size)
    assert_tiles(crlf, spans)
    assert all(crlf[e - 1:e + 1] != "\r\n" for _, e in spans[:-1])
    assert all(e - s <= size for s, e in spans)


@pytest.mark.parametrize(
    ("text", "size", "expected"),
    [
        ("One.\r\n\r\nTwo.\r\n\r\nThree.", 9, [(0, 8), (8, 16), (16, 22)]),
        ("a\r\n", 2, [(0, 2), (2, 3)]),  # a hard cut may fall inside CRLF
    ],
)
def test_crlf_examples(text, size, expected):
    assert split_text(text, size) == expected


# --- statistics ------------------------------------------------------------------------------

def test_compare_strategies_literal():
    text = "One. Two. Three. Four five six seven. Eight."
    result = compare_strategies(text, 12)
    assert result["fixed"] == {"chunks": 4, "sentences": 5, "sentences_cut": 2,
                               "boundary_quality": 0.0, "min": 8, "median": 12.0, "max": 12}
    assert result["recursive"] == {"chunks": 5, "sentences": 5, "sentences_cut": 1,
                                   "boundary_quality": 0.5, "min": 6, "median": 9, "max": 12}


def test_span_stats_of_empty_text():
    assert span_stats("", []) == {"chunks": 0, "sentences": 0, "sentences_cut": 0,
                                  "boundary_quality": 1.0, "min": 0, "median": 0, "max": 0}


# --- argument errors -------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("call", "error", "name"),
    [
        (lambda: recursive_split(b"bytes", 5), TypeError, "text"),
        (lambda: recursive_split("abc", 0), ValueError, "size"),
        (lambda: recursive_split("abc", 2.5), TypeError, "size"),
        (lambda: recursive_split("abc", True), TypeError, "size"),
        (lambda: recursive_split("abc", 2, "\n"), TypeError, "separators"),
        (lambda: recursive_split("abc", 2, ("",)), ValueError, r"separators\[0\]"),
        (lambda: recursive_split("abc", 2, (" ", 3)), TypeError, r"separators\[1\]"),
        (lambda: merge_spans([(0, 2)], 0), ValueError, "size"),
        (lambda: merge_spans([(3, 2)], 4), ValueError, "spans"),
        (lambda: merge_spans("ab", 4), TypeError, "spans"),
        (lambda: boundary_quality([(0, "4")], [(0, 4)]), TypeError, "sentence_spans"),
        (lambda: boundary_quality([(0, 4)], [(0, -1)]), ValueError, "spans"),
        (lambda: span_stats("One.", [(0, "4")]), TypeError, "spans"),
        (lambda: span_stats(b"One.", [(0, 4)]), TypeError, "text"),
        (lambda: split_text(None, 5), TypeError, "text"),
        (lambda: split_text("abc", 0), ValueError, "size"),
        (lambda: split_text("abc", 5, 5), ValueError, "overlap"),
        (lambda: split_text("abc", 5, -1), ValueError, "overlap"),
        (lambda: split_text("abc", 5, separators=None), TypeError, "separators"),
        (lambda: split_text("abc", 5, length="len"), TypeError, "length"),
        (lambda: split_text("abc abc", 2, length=lambda s: "many"), TypeError, "length"),
        (lambda: split_text("abc abc", 2, length=lambda s: -1.0), TypeError, "length"),
        (lambda: compare_strategies("abc", 0), ValueError, "size"),
    ],
)
def test_errors_name_the_argument(call, error, name):
    with pytest.raises(error, match=name):
        call()
