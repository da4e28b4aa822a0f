"""Tests for chunklib.semantic: invariants with stand-in embedders (hypothesis), bad input by
name, LangChain's percentile rule, and the real model on lesson 2's passage (pinned figures).
"""

from __future__ import annotations

import doctest
import hashlib
import math
from importlib import resources

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import chunklib.semantic as semantic
from chunklib.boundaries import span_stats
from chunklib.embedding import embed
from chunklib.semantic import (
    ABBREVIATIONS,
    compare_with_recursive,
    comparison_report,
    fake_embedder,
    join_abbreviations,
    neighbour_similarities,
    paragraph_breaks_kept,
    semantic_chunks,
    semantic_split,
    similarity_report,
)
from chunklib.sentences import paragraph_spans, split_sentences
from chunklib.splitter import split_text
from chunklib.units import cut_sentence_spans


def hashed_embedder(texts):
    """Deterministic pseudo-random 4-d vectors, never zero (every coordinate is off by 0.5)."""
    return np.array([[b - 127.5 for b in hashlib.sha256(t.encode()).digest()[:4]]
                     for t in texts])


texts = st.text(alphabet="catdogx .!?\n\r\t日👩", max_size=150)
percentiles = st.one_of(st.integers(0, 100), st.floats(0, 100))
embedders = st.sampled_from([hashed_embedder, fake_embedder])


def assert_tiles(text, spans):
    if not text:
        assert spans == []
        return
    assert spans[0][0] == 0 and spans[-1][1] == len(text)
    assert all(s < e for s, e in spans)
    assert all(a[1] == b[0] for a, b in zip(spans, spans[1:]))
    assert "".join(text[s:e] for s, e in spans) == text


@given(texts, percentiles, embedders)
def test_chunks_tile_the_text_and_cut_only_below_the_threshold(text, percentile, embedder):
    split = semantic_split(text, embedder, percentile)
    assert split.sentences == split_sentences(text)
    assert_tiles(text, split.spans)
    assert len(split.similarities) == max(len(split.sentences) - 1, 0)
    if split.similarities:
        assert split.threshold == np.percentile(split.similarities, percentile)
    else:
        assert math.isnan(split.threshold)
    for i, similarity in enumerate(split.similarities):
        assert (i in split.breakpoints) == (similarity < split.threshold)
    # chunks start at 0 and at the sentence after each breakpoint, nowhere else
    if text:
        assert [s for s, _ in split.spans] == [0] + [split.sentences[i + 1][0]
                                                  for i in split.breakpoints]
    assert cut_sentence_spans(split.sentences, split.spans) == []
    assert semantic_chunks(text, embedder, percentile) == split.spans


@given(texts, percentiles, embedders, st.integers(1, 40))
def test_max_size_bounds_every_chunk_and_keeps_every_breakpoint(text, percentile, embedder,
                                                               max_size):
    free = semantic_split(text, embedder, percentile)
    capped = semantic_split(text, embedder, percentile, max_size)
    assert_tiles(text, capped.spans)
    assert all(e - s <= max_size for s, e in capped.spans)
    assert {s for s, _ in free.spans} <= {s for s, _ in capped.spans}
    # a sentence is cut only when it (with the whitespace after it) is longer than max_size
    next_start = {s: n for (s, _), (n, _) in zip(free.sentences, free.sentences[1:])}
    for s, _ in cut_sentence_spans(capped.sentences, capped.spans):
        assert next_start.get(s, len(text)) - s > max_size


@given(texts, embedders, st.floats(0, 100), st.floats(0, 100))
def test_a_higher_percentile_never_removes_a_breakpoint(text, embedder, p, q):
    low, high = sorted((p, q))
    assert (set(semantic_split(text, embedder, low).breakpoints)
            <= set(semantic_split(text, embedder, high).breakpoints))


@given(texts, embedders)
def test_percentile_zero_never_cuts(text, embedder):
    assert semantic_split(text, embedder, 0).breakpoints == []


abbreviated = st.lists(st.sampled_from(["Dr.", "Mr.", "e.g.", "X", " ", "\n", ".", "!"]),
                       max_size=12).map("".join)


def ends_with_abbreviation(sentence):
    return any(sentence == a or sentence.endswith(a) and sentence[-len(a) - 1].isspace()
               for a in ABBREVIATIONS)


@given(st.one_of(texts, abbreviated))
def test_joining_abbreviations_only_merges_neighbours_of_one_paragraph(text):
    sentences = split_sentences(text)
    assert join_abbreviations(text, sentences, ()) == sentences
    joined = join_abbreviations(text, sentences)
    # every joined span runs from one sentence's start to a later sentence's end
    assert {s for s, _ in joined} <= {s for s, _ in sentences}
    assert {e for _, e in joined} <= {e for _, e in sentences}
    assert len(joined) == len({s for s, _ in joined}) <= len(sentences)
    if sentences:
        assert (joined[0][0], joined[-1][1]) == (sentences[0][0], sentences[-1][1])
    for start, end in joined:
        inner = [(s, e) for s, e in sentences if start <= s and e <= end]
        for (s0, e), (s, _) in zip(inner, inner[1:]):  # each join: an abbreviation, no blank line
            assert ends_with_abbreviation(text[s0:e])
            assert text[e:s].count("\n") < 2
    # and no sentence left ending with an abbreviation could have been joined
    for (_, e), (nxt, _) in zip(joined, joined[1:]):
        last = max(x for x, _ in sentences if x < e)  # the last sentence joined into the span
        if text[e:nxt].count("\n") < 2:
            assert not ends_with_abbreviation(text[last:e])
    assert semantic_split(text, fake_embedder, 50, abbreviations=ABBREVIATIONS
                          ).sentences == joined


def test_joining_abbreviations_examples():
    text = "Ask Dr. Mr. Osei. Go to Dr.\n\nNext. NoDr. Stop."
    assert [text[s:e] for s, e in join_abbreviations(text, split_sentences(text))] == [
        "Ask Dr. Mr. Osei.", "Go to Dr.", "Next.", "NoDr.", "Stop."]
    with pytest.raises(TypeError, match="abbreviations"):
        join_abbreviations(text, split_sentences(text), "Dr.")
    with pytest.raises(TypeError, match="abbreviations"):
        join_abbreviations(text, split_sentences(text), [""])
    with pytest.raises(TypeError, match="sentences"):
        join_abbreviations(text, "no")


def test_reports():
    text = "Cats purr. Cats nap. Tax is due."
    split = semantic_split(text, fake_embedder, 50)
    assert similarity_report(text, split).splitlines() == [
        " 0 (0, 10) Cats purr.", "  gap 0   cosine 1.000", " 1 (11, 20) Cats nap.",
        "  gap 1   cosine 0.187   cut", " 2 (21, 32) Tax is due."]
    assert "cut" not in similarity_report(text, split, cuts=False)
    assert similarity_report(text, split, 1, 1) == " 1 (11, 20) Cats nap."
    assert similarity_report("a\nb. c.", semantic_split("a\nb. c.", fake_embedder), width=3
                             ).splitlines()[0] == " 0 (0, 4) a⏎…"
    for first, last in ((2, 1), (-1, 1), (0, 3)):
        with pytest.raises(ValueError, match="first and last"):
            similarity_report(text, split, first, last)
    assert comparison_report("Cats purr. Dogs bark.", 12, 50, fake_embedder).splitlines() == [
        "2 sentences; chunk lengths in characters",
        "                                chunks  sentences cut  shortest  median  longest",
        "recursive, at most 12                2              0        10    10.5       11",
        "semantic, 50th percentile            1              0        21      21       21",
        "semantic, then at most 12            2              0        10    10.5       11"]


def test_edge_texts():
    assert semantic_split("", fake_embedder).spans == []
    assert semantic_split(" \n ", fake_embedder).spans == [(0, 3)]
    assert semantic_split("One sentence only.", fake_embedder, 100).spans == [(0, 18)]
    # a long run without any separator is hard-cut, and terminates
    assert semantic_split("x" * 1000, fake_embedder, max_size=1).spans == [
        (i, i + 1) for i in range(1000)]


def test_the_embedder_is_not_asked_for_fewer_than_two_sentences():
    def refuse(texts):
        raise AssertionError("called")
    assert semantic_split("Just one.", refuse).spans == [(0, 9)]


@given(texts)
def test_paragraph_breaks_kept_counts_each_blank_line_once(text):
    paragraphs = paragraph_spans(text)
    cuts = [0] + [s for s, _ in paragraphs[1:]] + [len(text)]
    by_paragraph = list(zip(cuts, cuts[1:]))  # one chunk per paragraph
    assert paragraph_breaks_kept(text, by_paragraph) == max(len(paragraphs) - 1, 0)
    assert paragraph_breaks_kept(text, [(0, len(text))]) == 0
    every_char = [(i, i + 1) for i in range(len(text))]
    assert paragraph_breaks_kept(text, every_char) == max(len(paragraphs) - 1, 0)


def test_paragraph_breaks_kept_examples():
    text = "A.\n\nB. C."
    assert [paragraph_breaks_kept(text, [(0, cut), (cut, 9)]) for cut in range(1, 9)] == [
        0, 1, 1, 1, 0, 0, 0, 0]
    with pytest.raises(TypeError, match="spans"):
        paragraph_breaks_kept(text, "no")


def test_docstring_examples():
    assert doctest.testmod(semantic).failed == 0
    assert semantic_split("A. B.", fake_embedder).spans == [(0, 5)]
    assert semantic_chunks("Cats purr. Cats nap. Tax is due.", fake_embedder, 50) == [
        (0, 21), (21, 32)]
    assert compare_with_recursive("Cats purr. Dogs bark.", 12, 50, fake_embedder)[
        "semantic"]["chunks"] == 1
    assert [round(x, 4) for x in neighbour_similarities([[1, 0], [1, 1], [0, 1]])] == [
        0.7071, 0.7071]
    assert fake_embedder(["Cats purr."]).tolist() == [[1.1, 0.1, 0.1]]
    assert paragraph_breaks_kept("A.\n\nB. C.", [(0, 4), (4, 9)]) == 1
    assert join_abbreviations("Ask Dr. Osei. Go.", [(0, 7), (8, 13), (14, 17)]) == [
        (0, 13), (14, 17)]


@pytest.mark.parametrize("kwargs, kind, name", [
    ({"text": b"bytes"}, TypeError, "text"),
    ({"percentile": "5"}, TypeError, "percentile"),
    ({"percentile": True}, TypeError, "percentile"),
    ({"percentile": -1}, ValueError, "percentile"),
    ({"percentile": 100.5}, ValueError, "percentile"),
    ({"percentile": float("nan")}, ValueError, "percentile"),
    ({"max_size": 0}, ValueError, "max_size"),
    ({"max_size": 2.0}, TypeError, "max_size"),
    ({"embedder": "minilm"}, TypeError, "embedder"),
    ({"embedder": lambda t: np.ones((1, 3))}, ValueError, "embedder"),
    ({"embedder": lambda t: np.ones(len(t))}, ValueError, "embedder"),
    ({"embedder": lambda t: np.zeros((len(t), 3))}, ValueError, "embedder"),
    ({"embedder": lambda t: np.full((len(t), 3), np.nan)}, ValueError, "embedder"),
    ({"embedder": lambda t: [[1.0], [1.0, 2.0]] + [[1.0]] * (len(t) - 2)}, ValueError,
     "embedder"),
    ({"embedder": lambda t: [["a"]] * len(t)}, ValueError, "embedder"),
])
def test_bad_input_is_refused_by_name(kwargs, kind, name):
    args = {"text": "One. Two. Three.", "embedder": fake_embedder, **kwargs}
    with pytest.raises(kind, match=name):
        semantic_split(**args)


def test_bad_size_and_vectors_are_refused_by_name():
    with pytest.raises(ValueError, match="size"):
        compare_with_recursive("One. Two.", 0, 50, fake_embedder)
    with pytest.raises(ValueError, match=r"vectors\[1\] is all zeros"):
        neighbour_similarities([[1, 0], [0, 0]])
    with pytest.raises(ValueError, match="2-D"):
        neighbour_similarities([1, 2, 3])
    with pytest.raises(TypeError, match="vectors"):
        neighbour_similarities([["a"]])


# --- the real model --------------------------------------------------------------------------

PASSAGE = resources.files("chunklib").joinpath("data", "boundaries_passage.txt").read_text(
    encoding="utf-8")


@pytest.fixture(scope="module")
def minilm():
    """all-MiniLM-L6-v2, each list of texts embedded once in this module."""
    seen = {}

    def embedder(texts):
        key = tuple(texts)
        if key not in seen:
            seen[key] = embed(list(texts))
        return seen[key]
    return embedder


def test_the_real_model_cuts_where_the_topic_changes(minilm):
    text = ("The kettle boils water for tea. Tea leaves steep in the hot water. "
            "The invoice is due on Friday. Late payments cost a fee.")
    split = semantic_split(text, minilm, 50)
    assert split.breakpoints == [1]
    assert [text[s:e] for s, e in split.spans] == [
        "The kettle boils water for tea. Tea leaves steep in the hot water. ",
        "The invoice is due on Friday. Late payments cost a fee."]


def test_the_percentile_rule_is_langchains_on_distances(minilm):
    """LangChain cuts after sentence i when 1 - cosine > np.percentile(distances, amount)."""
    split = semantic_split(PASSAGE, minilm)
    distances = [1 - s for s in split.similarities]
    for percentile in (5, 10, 25, 50, 75):
        threshold = np.percentile(distances, 100 - percentile)
        langchain = [i for i, d in enumerate(distances) if d > threshold]
        assert semantic_split(PASSAGE, minilm, percentile).breakpoints == langchain


def test_lesson_2_passage_figures(minilm):
    """The figures of the report: recursive splitting at 300 against semantic chunking at the
    25th percentile, without and with a 300-character cap."""
    split = semantic_split(PASSAGE, minilm, 25)
    assert len(split.sentences) == 26
    assert round(split.threshold, 3) == 0.145
    assert split.breakpoints == [3, 4, 15, 16, 21, 22]
    # two breakpoints separate "Dr." from the name after it (sentences have no abbreviations)
    assert [PASSAGE[split.sentences[i][1] - 3:split.sentences[i + 1][0] + 4] for i in (4, 22)
            ] == ["Dr. Amar", "Dr. Osei"]
    figures = compare_with_recursive(PASSAGE, 300, 25, minilm)
    assert figures["recursive"] == {**span_stats(PASSAGE, split_text(PASSAGE, 300)),
                                    "paragraphs": 6, "paragraph_breaks": 2}
    rows = {name: (f["chunks"], f["sentences_cut"], f["min"], f["median"], f["max"],
                   f["paragraph_breaks"]) for name, f in figures.items()}
    assert rows == {"recursive": (9, 1, 80, 279, 298, 2),
                    "semantic": (7, 0, 4, 132, 1181, 2),
                    "semantic_capped": (13, 0, 4, 180, 290, 3)}
    # the shipped vectors of the passage's sentences are the model's
    assert semantic_split(PASSAGE, percentile=25).similarities == pytest.approx(
        split.similarities, abs=1e-6)


def test_lesson_2_passage_with_abbreviations_joined(minilm):
    """The two "Dr." fragments joined to their names: two sentences fewer, and no chunk of
    four characters; two of the six cuts fall at paragraph breaks."""
    split = semantic_split(PASSAGE, minilm, 25, abbreviations=ABBREVIATIONS)
    assert len(split.sentences) == 24
    assert [PASSAGE[s:e][:25] for s, e in split.sentences if "Dr." in PASSAGE[s:e]] == [
        "The idea came from Dr. Am", "Dr. Osei says the noteboo"]
    assert round(split.threshold, 3) == 0.241
    assert split.breakpoints == [3, 7, 12, 14, 15, 19]
    assert [e - s for s, e in split.spans] == [307, 293, 674, 237, 53, 317, 308]
    figures = compare_with_recursive(PASSAGE, 300, 25, minilm, ABBREVIATIONS)
    rows = {name: (f["chunks"], f["sentences_cut"], f["min"], f["median"], f["max"],
                   f["paragraph_breaks"]) for name, f in figures.items()}
    assert rows == {"recursive": (9, 1, 80, 279, 298, 2),
                    "semantic": (7, 0, 53, 307, 674, 2),
                    "semantic_capped": (12, 0, 51, 234.5, 293, 3)}
