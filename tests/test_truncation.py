"""Tests for chunklib.truncation: the real all-MiniLM-L6-v2 on lesson 1's passage (pinned
figures), the claim that text after the cut cannot change the vector, and bad input."""

from __future__ import annotations

import doctest
import json
from importlib import resources

import numpy as np
import pytest

import chunklib.truncation as truncation_module
from chunklib.course.passages import sample_passage
from chunklib.embedding import embed
from chunklib.tokens import (
    MINILM_MAX_SEQ_LENGTH,
    MINILM_TOKENIZER_FILE,
    wordpiece_count,
    wordpiece_spans,
)
from chunklib.truncation import MINILM_TRAINED_LENGTH, truncation

PASSAGE = sample_passage()


@pytest.fixture(scope="module")
def figures():
    return truncation(PASSAGE)


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
