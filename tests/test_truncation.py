"""Tests for chunklib.truncation: the real all-MiniLM-L6-v2 on lesson 1's passage (pinned
figures), the claim that text after the cut cannot change the vector, the shipped store's
vectors (what lesson 1's cell reads) against the model's, the report, and bad input."""

from __future__ import annotations

import doctest
import json
from importlib import resources

import numpy as np
import pytest

import chunklib.truncation as truncation_module
from chunklib.course.passages import sample_passage
from chunklib.embedding import embed
from chunklib.identity import sha256_hex
from chunklib.tokens import (
    MINILM_MAX_SEQ_LENGTH,
    MINILM_TOKENIZER_FILE,
    wordpiece_count,
    wordpiece_spans,
)
from chunklib.truncation import (
    MINILM_TRAINED_LENGTH,
    truncation,
    truncation_report,
    truncation_texts,
)
from chunklib.vectors import default_embedder, shipped_store

PASSAGE = sample_passage()


@pytest.fixture(scope="module")
def figures():
    return truncation(PASSAGE, embed)  # the model itself, not the shipped store


def test_lesson_1_passage_figures(figures):
    assert (figures.pieces, figures.read, figures.cut, figures.ignored, figures.prefix_pieces,
            figures.one_less_cut, figures.trained_cut) == (1245, 254, 1184, 4573, 254, 1180, 595)
    assert figures.cut + figures.ignored == len(PASSAGE)
    assert figures.cosine_prefix == pytest.approx(1.0, abs=1e-6)
    # one word piece less before the cut moves the vector far more than float rounding does
    assert figures.cosine_one_less == pytest.approx(0.99987, abs=2e-5)
    assert 1 - figures.cosine_one_less > 100 * abs(1 - figures.cosine_prefix)
    assert figures.cosine_trained == pytest.approx(0.9006, abs=2e-3)


def test_the_cuts_are_where_the_word_pieces_start(figures):
    spans = wordpiece_spans(PASSAGE)
    read = MINILM_MAX_SEQ_LENGTH - 2
    assert figures.cut == spans[read][0]
    assert figures.one_less_cut == spans[read - 1][0]
    assert figures.trained_cut == spans[MINILM_TRAINED_LENGTH - 2][0]


def test_text_after_the_cut_cannot_change_the_vector(figures):
    prefix = PASSAGE[:figures.cut]
    whole, replaced, dropped_early = embed(
        [PASSAGE, prefix + "The answer to every question is here.", PASSAGE[:200] + PASSAGE[300:]])
    np.testing.assert_allclose(whole @ replaced, 1.0, atol=1e-6)
    assert whole @ dropped_early < 0.999  # text before the cut does count


def test_lesson_1_reads_the_model_s_vectors_from_the_shipped_store(figures):
    store = shipped_store()
    assert all(sha256_hex(t) in store for t in truncation_texts(PASSAGE))
    computed = default_embedder().computed
    stored = truncation(PASSAGE)  # the default: the store, as lesson 1's cell
    assert default_embedder().computed == computed, "the passage's vectors were not in the store"
    ints = [name for name in figures._fields if not name.startswith("cosine")]
    assert [getattr(stored, n) for n in ints] == [getattr(figures, n) for n in ints]
    np.testing.assert_allclose([stored.cosine_prefix, stored.cosine_one_less,
                                stored.cosine_trained],
                               [figures.cosine_prefix, figures.cosine_one_less,
                                figures.cosine_trained], atol=1e-6)


def test_the_texts_are_the_whole_and_its_three_beginnings(figures):
    assert truncation_texts(PASSAGE) == [PASSAGE, PASSAGE[:figures.cut],
                                         PASSAGE[:figures.one_less_cut],
                                         PASSAGE[:figures.trained_cut]]


def test_the_report_shows_the_figures():
    lines = truncation_report(PASSAGE).splitlines()
    assert lines[0] == "The text: 5757 characters, 1245 word pieces."
    assert "reads 254 of them (256 with [CLS] and [SEP]), up to character 1184" in lines[1]
    assert lines[2] == "the other 4573 characters never reach the vector."
    rows = [line.split()[:5] for line in lines[-3:]]
    assert rows == [["254", "0", "to", "1184", "1.00000"], ["253", "0", "to", "1180", "0.99987"],
                    ["126", "0", "to", "595", "0.90064"]]
    assert "nothing is left out" in truncation_report("Chunks are the unit of retrieval.")


def test_a_short_text_is_read_whole():
    text = "Chunks are the unit of retrieval."
    short = truncation(text)
    assert (short.ignored, short.cut, short.trained_cut) == (0, len(text), len(text))
    assert short.read == short.pieces == short.prefix_pieces == wordpiece_count(text)
    assert short.cosine_prefix == pytest.approx(1.0, abs=1e-6)
    assert short.cosine_trained == pytest.approx(1.0, abs=1e-6)
    assert short.cosine_one_less < 0.999  # dropping the full stop
    assert truncation("").read == 0


def test_the_training_length_is_the_shipped_tokenizers():
    source = resources.files("chunklib").joinpath("data", MINILM_TOKENIZER_FILE)
    shipped = json.loads(source.read_text(encoding="utf-8"))["truncation"]["max_length"]
    assert MINILM_TRAINED_LENGTH == shipped == 128 < MINILM_MAX_SEQ_LENGTH


def test_docstring_example():
    assert doctest.testmod(truncation_module).failed == 0


@pytest.mark.parametrize("text, kind, words", [
    (None, TypeError, "text must be a str"),
    (["a"], TypeError, "text must be a str"),
    ("bad \ud800", ValueError, "lone surrogate"),
])
def test_bad_input_is_refused_by_name(text, kind, words):
    with pytest.raises(kind, match=words):
        truncation(text)
    with pytest.raises(kind, match=words):
        truncation_report(text)
    with pytest.raises(kind, match=words):
        truncation_texts(text)


def test_vectors_must_be_a_function():
    with pytest.raises(TypeError, match="vectors must be a function"):
        truncation("Short text.", vectors="embed")
