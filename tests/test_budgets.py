"""Tests for chunklib.budgets, and the lesson-1 figures measured on the sample passage."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chunklib.budgets import UNIT_KINDS, measure, prefix_end, spans_of, units_within
from chunklib.sentences import split_sentences
from chunklib.tokens import count_tokens, token_spans, truncated_at, wordpiece_count
from chunklib.units import cut_sentences, fixed_windows, sample_passage, unit_spans
from chunklib.windows import unit_windows


@pytest.mark.parametrize("spans, n, expected", [
    ([(0, 5), (6, 11), (11, 12)], 0, 0),
    ([(0, 5), (6, 11), (11, 12)], 2, 11),
    ([(0, 5), (6, 11), (11, 12)], 3, 12),
    ([(0, 1), (0, 1), (0, 1), (1, 2)], 2, 1),     # tokens that share one character
    ([], 0, 0),
])
def test_prefix_end_examples(spans, n, expected):
    assert prefix_end(spans, n) == expected


@pytest.mark.parametrize("spans, limit, expected", [
    ([(0, 5), (6, 11), (11, 12)], 10, 1),
    ([(0, 5), (6, 11), (11, 12)], 11, 2),
    ([(0, 5), (6, 11), (11, 12)], 0, 0),
    ([(0, 1), (0, 1), (0, 1), (1, 2)], 1, 3),
    ([], 7, 0),
])
def test_units_within_examples(spans, limit, expected):
    assert units_within(spans, limit) == expected


def test_bad_arguments():
    with pytest.raises(ValueError, match="n must be <="):
        prefix_end([(0, 1)], 2)
    with pytest.raises(ValueError, match="n"):
        prefix_end([(0, 1)], -1)
    with pytest.raises(ValueError, match="limit"):
        units_within([(0, 1)], -1)
    with pytest.raises(TypeError, match="spans"):
        units_within("0-1", 3)
    with pytest.raises(ValueError, match="kind"):
        spans_of("text", "bytes")


@given(st.text(max_size=80), st.sampled_from(sorted(UNIT_KINDS)), st.integers(0, 90))
def test_prefix_and_within_agree(text, kind, limit):
    spans = spans_of(text, kind)
    k = units_within(spans, limit)
    assert prefix_end(spans, k) <= limit                      # k units fit in the budget...
    if k < len(spans):
        assert prefix_end(spans, k + 1) > limit               # ...and one more would not


def test_spans_of_every_kind():
    assert spans_of("Hi, you", "words") == [(0, 2), (2, 3), (4, 7)]
    assert spans_of("Hi", "characters") == [(0, 1), (1, 2)]
    assert spans_of("hello world", "cl100k_tokens") == [(0, 5), (5, 11)]
    assert spans_of("Hello, world!", "minilm_wordpieces") == [(0, 5), (5, 6), (7, 12), (12, 13)]


def test_measure_example():
    assert measure("Hello, world!") == {
        "characters": 13, "words": 4, "cl100k_tokens": 4, "minilm_wordpieces": 4}


# ---- Lesson-1 figures on the sample passage (every number the lesson states is pinned here) ----

@pytest.fixture(scope="module")
def passage():
    return sample_passage()


def test_passage_lengths(passage):
    assert measure(passage) == {
        "characters": 5757, "words": 1204, "cl100k_tokens": 1229, "minilm_wordpieces": 1245}
    assert count_tokens(passage, "o200k_base") == 1228


def test_a_token_budget_is_not_a_character_budget(passage):
    tokens = token_spans(passage)
    assert prefix_end(tokens, 1000) == 4721          # 1000 tokens take 4721 characters
    assert units_within(tokens, 1000) == 215         # 1000 characters hold 215 tokens
    assert units_within(unit_spans(passage), 1000) == 207


def test_the_embedding_model_stops_reading(passage):
    assert truncated_at(passage) == 1184             # 254 word pieces of text, then nothing
    assert units_within(token_spans(passage), 1184) == 251
    first_1000_tokens = passage[:prefix_end(token_spans(passage), 1000)]
    assert wordpiece_count(first_1000_tokens) == 1013    # a 1000-token chunk: 1013 pieces
    assert truncated_at(first_1000_tokens) == 1184       # ...of which MiniLM reads a quarter


@pytest.mark.parametrize("kind, size, chunks, last, cut", [
    ("characters", 1000, 6, (5000, 5757), 5),
    ("words", 200, 7, (1200, 1204), 6),
    ("cl100k_tokens", 200, 7, (1200, 1229), 6),
    ("cl100k_tokens", 1000, 2, (1000, 1229), 1),
    ("minilm_wordpieces", 254, 5, (1016, 1245), 3),
])
def test_fixed_windows_on_the_passage(passage, kind, size, chunks, last, cut):
    spans = spans_of(passage, kind)
    windows = fixed_windows(len(spans), size)
    assert (len(windows), windows[-1]) == (chunks, last)
    sentences = split_sentences(passage)
    assert len(sentences) == 70
    assert cut_sentences(sentences, unit_windows(spans, size, 0)) == cut
