"""Tests for chunklib.sentences: literal examples, a slow independent oracle, properties."""

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chunklib.sentences import (
    CLOSERS,
    inside_sentence,
    paragraph_spans,
    sentences_cut_at,
    split_sentences,
)

# Characters that exercise every rule: terminators, closers, spaces, line breaks, CJK, emoji
# (a ZWJ sequence), a combining accent and a no-break space.
ALPHABET = "ab .!?\n\r\t\"')»日。👩\u200d💻e\u0301\u00a0"
texts = st.text(alphabet=ALPHABET, max_size=80)


def oracle_sentences(text):
    """A character-by-character reading of the appendix rule, written independently."""
    spans, start, i, n = [], None, 0, len(text)
    while i < n:
        c = text[i]
        if start is None:
            if c.isspace():
                i += 1
                continue
            start = i
        if c in ".!?":
            j = i
            while j < n and text[j] in ".!?":
                j += 1
            while j < n and text[j] in CLOSERS:
                j += 1
            if j == n or text[j].isspace():
                spans.append((start, j))
                start = None
            i = j
            continue
        if c == "\n":
            j = i + 1
            while j < n and text[j].isspace() and text[j] != "\n":
                j += 1
            if j < n and text[j] == "\n":  # a blank line ends the sentence
                end = i
                while text[end - 1].isspace():
                    end -= 1
                spans.append((start, end))
                start, i = None, j + 1
                continue
        i += 1
    if start is not None:
        end = n
        while text[end - 1].isspace():
            end -= 1
        spans.append((start, end))
    return spans


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", []),
        ("   \n\n \t", []),
        ("One. Two!\n\nThree", [(0, 4), (5, 9), (11, 16)]),
        ("no terminator at all", [(0, 20)]),
        ("  padded.  ", [(2, 9)]),
        ("Dr. Smith left.", [(0, 3), (4, 15)]),  # no abbreviation list
        ("Pi is 3.14 today.", [(0, 17)]),  # no whitespace after the inner full stop
        ("Wait... what?! Yes.", [(0, 7), (8, 14), (15, 19)]),
        ('He said "Hi!" then left.', [(0, 13), (14, 24)]),  # closing quote stays in
        ("(Quiet.) Then noise.", [(0, 20)]),  # a bracket is not a closing quote
        ("She said \u201cNo.\u201d Then left.", [(0, 14), (15, 25)]),  # curly quotes close
        ("Title\nBody text.", [(0, 16)]),  # one line break is not a boundary
        ("Title\n\nBody text.", [(0, 5), (7, 17)]),
        ("A.\r\n\r\nB.\r\n", [(0, 2), (6, 8)]),  # CRLF blank line
        ("Head\r\n\r\nBody", [(0, 4), (8, 12)]),
        ("Line \n  \t\n next", [(0, 4), (11, 15)]),  # blank line holding spaces
        ("日本語の文です。次の文です。", [(0, 14)]),  # "。" is not a terminator
        ("Code 👩\u200d💻 works. Next.", [(0, 15), (16, 21)]),
    ],
)
def test_split_sentences_examples(text, expected):
    assert split_sentences(text) == expected
    assert split_sentences(text) == oracle_sentences(text)


def test_repeated_sentences_get_their_own_offsets():
    text = "Same. " * 3 + "Same."
    assert split_sentences(text) == [(0, 5), (6, 11), (12, 17), (18, 23)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", []),
        ("one paragraph\nstill one", [(0, 23)]),
        ("A b.\r\n\r\nC d.\n", [(0, 4), (8, 12)]),
        ("\n\n  first  \n \n\n second \n\n", [(4, 9), (16, 22)]),
        ("x\n\ny\n\nx", [(0, 1), (3, 4), (6, 7)]),
    ],
)
def test_paragraph_spans_examples(text, expected):
    assert paragraph_spans(text) == expected


@pytest.mark.parametrize("func", [split_sentences, paragraph_spans])
@pytest.mark.parametrize("bad", [None, b"bytes", 3, ["a"]])
def test_rejects_non_str_naming_text(func, bad):
    with pytest.raises(TypeError, match="text"):
        func(bad)


@given(texts)
def test_matches_oracle(text):
    assert split_sentences(text) == oracle_sentences(text)


@pytest.mark.parametrize("func", [split_sentences, paragraph_spans])
@given(text=texts)
def test_spans_are_trimmed_ordered_and_cover_every_non_space(func, text):
    spans = func(text)
    covered = set()
    previous_end = 0
    for start, end in spans:
        assert previous_end <= start < end <= len(text)
        piece = text[start:end]
        assert piece == piece.strip()
        covered.update(range(start, end))
        previous_end = end
    assert all(c.isspace() for i, c in enumerate(text) if i not in covered)


@given(texts)
def test_no_paragraph_holds_a_blank_line(text):
    for start, end in paragraph_spans(text):
        assert not re.search(r"\n[^\S\n]*\n", text[start:end])


@given(texts)
def test_every_sentence_lies_inside_one_paragraph(text):
    paragraphs = paragraph_spans(text)
    for start, end in split_sentences(text):
        assert any(p <= start and end <= q for p, q in paragraphs)


@given(st.text(alphabet=ALPHABET.replace("\r", ""), max_size=60))
def test_crlf_gives_the_same_sentences(text):
    crlf = text.replace("\n", "\r\n")
    unix = [text[s:e] for s, e in split_sentences(text)]
    windows = [crlf[s:e].replace("\r\n", "\n") for s, e in split_sentences(crlf)]
    assert windows == unix


@given(st.sampled_from(["Same.", "Again!", "Is it?", "日本 ok."]), st.integers(1, 20),
       st.sampled_from([" ", "\n", "\n\n", "\r\n\r\n", "  \t"]))
def test_repeats_have_exact_offsets(sentence, k, gap):
    text = gap.join([sentence] * k)
    step = len(sentence) + len(gap)
    assert split_sentences(text) == [(i * step, i * step + len(sentence)) for i in range(k)]


# --- the one rule "this chunk end cuts a sentence" ---------------------------------------------

def test_an_end_cuts_only_strictly_inside_a_sentence():
    sentences = [(0, 4), (5, 9)]
    assert sentences_cut_at(sentences, [0, 2, 4, 5, 6, 9, 12]) == [
        None, (0, 4), None, None, (5, 9), None, None]
    assert inside_sentence(6, sentences) and not inside_sentence(4, sentences)
    assert sentences_cut_at([], [3]) == [None] and sentences_cut_at(sentences, []) == []


@given(st.lists(st.tuples(st.integers(0, 30), st.integers(0, 30)).map(sorted).map(tuple),
                max_size=6), st.lists(st.integers(0, 35), max_size=8))
def test_sentences_cut_at_names_a_sentence_that_holds_the_end(sentences, ends):
    for end, cut in zip(ends, sentences_cut_at(sentences, ends), strict=True):
        holding = [(s, t) for s, t in sentences if s < end < t]
        assert (cut is None) == (not holding)
        assert cut is None or (cut in holding and cut[1] == max(t for _, t in holding))


def test_sentences_cut_at_names_the_bad_argument():
    with pytest.raises(TypeError, match="sentence_spans"):
        sentences_cut_at([(0, "4")], [2])
