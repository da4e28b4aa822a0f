"""Tests for chunklib.units: word-like units, characters, fixed windows, cut sentences."""

import math
import re
import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chunklib.course.passages import sample_passage
from chunklib.units import (
    char_spans,
    cut_sentence_spans,
    cut_sentences,
    fixed_windows,
    unit_spans,
    window_text,
)

# Text with the characters that make units interesting: accents, combining marks, emoji with a
# zero-width joiner, CJK, digits, underscores, punctuation and every kind of whitespace.
ALPHABET = list("ab é_0,.'!\n\t\r") + ["\u0301", "\u200d", "👩", "💻", "日", "本", "\u00a0", "²"]
texts = st.text(alphabet=ALPHABET, max_size=60) | st.text(max_size=60)


@pytest.mark.parametrize("text, expected", [
    ("Chunks keep offsets.", [(0, 6), (7, 11), (12, 19), (19, 20)]),
    ("Hi, you!", [(0, 2), (2, 3), (4, 7), (7, 8)]),
    ("", []),
    (" \n\t ", []),
    ("café", [(0, 4)]),                        # precomposed é: one unit
    ("cafe\u0301", [(0, 4), (4, 5)]),          # e + combining accent: two units
    ("👩\u200d💻", [(0, 1), (1, 2), (2, 3)]),  # woman, zero-width joiner, laptop
    ("日本語の文章です", [(0, 8)]),             # an unspaced Japanese sentence: one unit
    ("日本語の文章です。", [(0, 8), (8, 9)]),
    ("don't", [(0, 3), (3, 4), (4, 5)]),
    ("3.14", [(0, 1), (1, 2), (2, 4)]),
    ("snake_case x²", [(0, 10), (11, 13)]),
    ("ab ab", [(0, 2), (3, 5)]),               # repeated text keeps its own offsets
    ("a\u00a0b", [(0, 1), (2, 3)]),            # a no-break space is whitespace
])
def test_unit_spans_examples(text, expected):
    assert unit_spans(text) == expected


@pytest.mark.parametrize("bad", [None, b"bytes", 5, ["a"]])
def test_unit_spans_needs_a_str(bad):
    with pytest.raises(TypeError, match="text"):
        unit_spans(bad)


@given(texts)
def test_unit_spans_invariants(text):
    spans = unit_spans(text)
    assert spans == [(m.start(), m.end()) for m in re.finditer(r"\w+|[^\w\s]", text)]
    outside, previous_end = [], 0
    for start, end in spans:
        assert previous_end <= start < end <= len(text)   # in order, non-overlapping, non-empty
        assert re.fullmatch(r"\w+|[^\w\s]", text[start:end])
        outside.append(text[previous_end:start])
        previous_end = end
    outside.append(text[previous_end:])
    assert all(gap.isspace() for gap in outside if gap)    # only whitespace is left out


@pytest.mark.parametrize("text, expected", [
    ("abc", [(0, 1), (1, 2), (2, 3)]),
    ("", []),
    ("👩\u200d💻", [(0, 1), (1, 2), (2, 3)]),
])
def test_char_spans_examples(text, expected):
    assert char_spans(text) == expected


def test_char_spans_needs_a_str():
    with pytest.raises(TypeError, match="text"):
        char_spans(b"abc")


@given(texts)
def test_char_spans_tile_the_text(text):
    assert "".join(text[s:e] for s, e in char_spans(text)) == text


@pytest.mark.parametrize("n, size, expected", [
    (10, 4, [(0, 4), (4, 8), (8, 10)]),
    (12, 4, [(0, 4), (4, 8), (8, 12)]),        # exact fit: no empty or redundant last window
    (3, 10, [(0, 3)]),
    (1, 1, [(0, 1)]),
    (0, 5, []),
    (1000, 200, [(0, 200), (200, 400), (400, 600), (600, 800), (800, 1000)]),
])
def test_fixed_windows_examples(n, size, expected):
    assert fixed_windows(n, size) == expected


@pytest.mark.parametrize("n, size, error", [
    (10, 0, ValueError), (10, -3, ValueError), (-1, 4, ValueError),
    (10, 2.5, TypeError), (10, True, TypeError), ("10", 4, TypeError),
])
def test_fixed_windows_rejects_bad_arguments(n, size, error):
    with pytest.raises(error):
        fixed_windows(n, size)


@given(st.integers(0, 500), st.integers(1, 120))
def test_fixed_windows_tile_without_overlap(n, size):
    windows = fixed_windows(n, size)
    assert len(windows) == math.ceil(n / size)
    starts, ends = [s for s, _ in windows], [e for _, e in windows]
    assert starts == ([0] + ends[:-1] if windows else [])      # contiguous, from 0
    assert all(e - s == size for s, e in windows[:-1])
    if n:
        assert windows[-1][1] == n
        assert windows[-1][1] - windows[-1][0] == n - (len(windows) - 1) * size


@pytest.mark.parametrize("text, window, expected", [
    ("a b c", (1, 3), "b c"),
    ("a b c", (0, 3), "a b c"),
    ("a b c", (2, 2), ""),
    ("  one,\n\ntwo  ", (0, 3), "one,\n\ntwo"),    # what lies between units comes along
    ("ab ab ab", (1, 2), "ab"),
])
def test_window_text_examples(text, window, expected):
    assert window_text(text, unit_spans(text), window) == expected


def test_window_text_empty_text():
    assert window_text("", [], (0, 0)) == ""


@pytest.mark.parametrize("window, error", [
    ((0, 4), ValueError),      # past the last unit
    ((2, 1), ValueError),      # ends before it starts
    ((-1, 2), ValueError),
    ((0,), TypeError),
    ((0.0, 1), TypeError),
    (None, TypeError),
])
def test_window_text_rejects_bad_windows(window, error):
    with pytest.raises(error, match="window"):
        window_text("a b c", [(0, 1), (2, 3), (4, 5)], window)


def test_window_text_rejects_spans_outside_the_text():
    with pytest.raises(ValueError, match="spans"):
        window_text("abc", [(0, 1), (2, 9)], (0, 2))
    with pytest.raises(TypeError, match="text"):
        window_text(None, [], (0, 0))


@given(texts, st.data())
def test_window_text_is_the_exact_slice(text, data):
    spans = unit_spans(text)
    first = data.draw(st.integers(0, len(spans)))
    stop = data.draw(st.integers(first, len(spans)))
    piece = window_text(text, spans, (first, stop))
    if first == stop:
        assert piece == ""
    else:
        assert piece == text[spans[first][0]:spans[stop - 1][1]]
        assert piece.startswith(text[slice(*spans[first])])
        assert piece.endswith(text[slice(*spans[stop - 1])])
        assert unit_spans(piece) == [(s - spans[first][0], e - spans[first][0])
                                     for s, e in spans[first:stop]]


@pytest.mark.parametrize("sentences, windows, expected", [
    ([(0, 10), (11, 20)], [(0, 15), (15, 20)], 1),
    ([(0, 10), (11, 20)], [(0, 10), (10, 20)], 0),       # a sentence that fills a window is held
    ([(0, 10), (11, 20)], [(0, 20)], 0),
    ([(0, 10), (11, 20)], [], 2),                        # no window holds anything
    ([(5, 5), (0, 10)], [(0, 4)], 1),                    # an empty sentence is held
    ([(3, 8)], [(6, 12), (0, 7)], 1),                    # windows in any order
    ([(3, 8)], [(0, 7), (2, 9)], 0),                     # overlapping windows can hold it
    ([], [(0, 5)], 0),
])
def test_cut_sentences_examples(sentences, windows, expected):
    assert cut_sentences(sentences, windows) == expected


def test_cut_sentences_rejects_bad_spans():
    with pytest.raises(ValueError, match="sentence_spans"):
        cut_sentences([(5, 2)], [(0, 9)])
    with pytest.raises(TypeError, match="windows"):
        cut_sentences([(0, 2)], "0-9")


spans_lists = st.lists(st.tuples(st.integers(0, 40), st.integers(0, 12)).map(
    lambda p: (p[0], p[0] + p[1])), max_size=12)


@given(spans_lists, spans_lists)
def test_cut_sentences_matches_brute_force(sentences, windows):
    expected = [(s, e) for s, e in sentences
                if e > s and not any(ws <= s and e <= we for ws, we in windows)]
    assert cut_sentence_spans(sentences, windows) == expected
    assert cut_sentences(sentences, windows) == len(expected)


def test_cut_sentence_spans_keeps_the_given_order():
    assert cut_sentence_spans([(11, 20), (0, 10), (3, 4)], [(0, 15), (15, 20)]) == [(11, 20)]
    assert cut_sentence_spans([(5, 9), (0, 3)], [(0, 2)]) == [(5, 9), (0, 3)]


def test_sample_passage_is_a_real_text():
    text = sample_passage()
    assert text.startswith("Runbook: recovering the document search index\n\n")
    assert len(text) == 5757
    assert len(text.split()) == 1066                    # 600-1500 words, as the lesson needs
    assert len(unit_spans(text)) == 1204
    assert [c for c in text if ord(c) > 127] == ["🚨", "é"]   # one emoji, one accented word
    assert "café" in text and unicodedata.is_normalized("NFC", text)
    assert "\r" not in text and text.endswith(".\n")
