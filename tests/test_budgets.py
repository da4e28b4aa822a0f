"""Tests for chunklib.budgets, and the lesson-1 figures measured on the sample passage."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chunklib.budgets import (
    KIND_LABELS,
    UNIT_KINDS,
    budget_table,
    measure,
    minilm_reads,
    prefix_end,
    spans_of,
    truncation_table,
    unit_table,
    units_within,
)
from chunklib.course.passages import sample_passage
from chunklib.sentences import split_sentences
from chunklib.tokens import count_tokens, token_spans, truncated_at, wordpiece_count
from chunklib.units import cut_sentences, fixed_windows, unit_spans
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


# ---- minilm_reads and the three tables lesson 1 prints ----

def test_minilm_reads_examples():
    assert minilm_reads("one two three", [(0, 7), (8, 13)], limit=3) == [(2, 4), (1, 13)]
    assert minilm_reads("", []) == []
    assert minilm_reads("abc", [(1, 1)]) == [(0, 1)]                 # an empty chunk fits
    with pytest.raises(ValueError, match="limit"):
        minilm_reads("a", [(0, 1)], limit=1)
    with pytest.raises(TypeError, match="chunks"):
        minilm_reads("a", "0-1")


@given(st.text(max_size=60), st.integers(1, 20), st.integers(2, 12))
def test_minilm_reads_agrees_with_truncated_at(text, size, limit):
    chunks = unit_windows(spans_of(text, "characters"), size, 0)
    for (start, end), (pieces, stop) in zip(chunks, minilm_reads(text, chunks, limit),
                                            strict=True):
        assert pieces == wordpiece_count(text[start:end])
        assert stop == start + truncated_at(text[start:end], limit)
        assert start <= stop <= end and (stop == end) == (pieces <= limit - 2)


def test_the_passage_overflows_minilm_in_1500_character_chunks(passage):
    chunks = unit_windows(spans_of(passage, "characters"), 1500, 0)
    assert minilm_reads(passage, chunks) == [(326, 1184), (322, 2688), (323, 4177), (276, 5669)]
    chunks = unit_windows(spans_of(passage, "cl100k_tokens"), 256, 0)
    assert [p for p, _ in minilm_reads(passage, chunks)] == [259, 258, 261, 259, 208]


def test_unit_table_shows_offsets_and_text():
    table = unit_table("The runbook's 🚨 alert: don't panic.")
    lines = table.splitlines()
    assert lines[0].startswith("text") and "(35 characters)" in lines[0]
    assert "cl100k tokens (13)" in table and "MiniLM word pieces (13)" in table
    bpe = table[table.index("cl100k tokens (13)"):table.index("MiniLM word pieces")]
    assert "13:15 ' 🚨'" in bpe and bpe.count("14:15 '🚨'") == 2   # three tokens share the 🚨
    assert "28:34 ' panic'" in table                              # a unit is never wrapped apart
    assert "4:7 'run'  7:11 'book'" in table
    assert all(len(line) <= 100 for line in lines)
    assert [label for label in KIND_LABELS.values() if label in table] == list(KIND_LABELS.values())
    assert "word-like units (0)     none" in unit_table("")


def test_budget_table_on_the_passage(passage):
    lines = budget_table(passage, 1000).splitlines()
    assert lines[1].split() == ["1000", "characters", "1000", "215", "217"]
    assert lines[3].split() == ["1000", "cl100k", "tokens", "4721", "1000", "1013"]
    assert lines[-1].endswith("it stops reading this text at character 1184.")
    short = budget_table("Hi, you", 1000).splitlines()
    assert short[2].split()[-3:] == ["7", "3", "3"]              # a budget past the end: all of it


def test_truncation_table_on_the_passage(passage):
    lines = truncation_table(passage, 1500).splitlines()
    assert lines[0].endswith("4 of 4 chunks are longer")
    assert lines[1] == ("  chunk 1: characters 0 to 1500, 326 word pieces: read up to character "
                        "1184, the last 316 characters silently dropped")
    lines = truncation_table(passage, 1000).splitlines()
    assert lines[0].endswith("0 of 6 chunks are longer")
    assert all(line.endswith("read whole") for line in lines[1:])
    assert truncation_table("a b", 1, "words").splitlines()[1].endswith("1 word piece: read whole")
