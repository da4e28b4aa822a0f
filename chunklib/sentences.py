"""Sentence and paragraph spans with exact character offsets (lesson 2, used from lesson 1 on).

A sentence ends after a run of ``.``, ``!`` or ``?`` (plus any closing quotes right after it)
that is followed by whitespace or the end of the text, or at a blank line. A blank
line is a line break, then only whitespace, then another line break, so ``"\\r\\n\\r\\n"`` (CRLF)
counts as well as ``"\\n\\n"``. Spans leave out the whitespace around each sentence and are
found in one left-to-right scan: repeated identical sentences get their own, correct offsets.

Deliberately simple, so a learner can predict every split:

- No abbreviation list: ``"Dr. Smith"`` is two sentences (``"Dr."`` and ``"Smith ..."``), and
  so are ``"e.g. this"`` and ``"U.S. law"``; ``"3.14"`` and ``"example.com"`` are not cut,
  because no whitespace follows their full stop.
- Only ``.!?`` end a sentence: the CJK full stop ``"。"`` does not, so an unspaced Japanese
  paragraph is one sentence; a heading without a full stop joins the next line (a single line
  break is not a boundary; a blank line is).
- ``"Hi!" she said.`` is two sentences, ``"Hi!"`` and ``she said.``
- Closing brackets are not closing quotes: ``"(Quiet.) Then noise."`` is one sentence, because
  ``")"`` follows the full stop.

Leaves out: abbreviations, closing brackets, decimal commas, quotations that span sentences,
other scripts' punctuation and line separators other than ``\\n`` (``\\r`` alone, ``\\u2028``).

    >>> split_sentences("One. Two!\\n\\nThree")
    [(0, 4), (5, 9), (11, 16)]
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Sequence

from chunklib.validate import require_spans, require_text

__all__ = ["split_sentences", "paragraph_spans", "sentences_cut_at", "inside_sentence"]

# Closing quotes: they may follow the terminator run and still belong to the sentence.
CLOSERS = "\"'»”’›」』"
# A blank line: a line break, then only whitespace that is not a line break, then a line break.
_BLANK_LINE = r"\n[^\S\n]*\n"
_SENTENCE_BREAK = re.compile(r"[.!?]+[" + re.escape(CLOSERS) + r"]*(?=\s|\Z)|" + _BLANK_LINE)
_PARAGRAPH_BREAK = re.compile(_BLANK_LINE)
_NON_SPACE = re.compile(r"\S")


def _trimmed(text: str, start: int, end: int) -> tuple[int, int] | None:
    """``(start, end)`` without surrounding whitespace, or None if only whitespace is left."""
    first = _NON_SPACE.search(text, start, end)
    if first is None:
        return None
    start = first.start()
    # Only the tail is copied to find the trailing whitespace; every character is copied once.
    end = start + len(text[start:end].rstrip())
    return (start, end)


def _pieces(text: str, breaks: re.Pattern[str]) -> list[tuple[int, int]]:
    """Cut ``text`` at every match of ``breaks``; terminators stay in their piece, blank lines
    go to none. Whitespace-only pieces are dropped."""
    spans = []
    pos = 0
    for m in breaks.finditer(text):
        if m.group().startswith("\n"):  # a blank line: the piece ends before it
            span = _trimmed(text, pos, m.start())
        else:  # a terminator run: the piece ends after it
            span = _trimmed(text, pos, m.end())
        if span is not None:
            spans.append(span)
        pos = m.end()
    span = _trimmed(text, pos, len(text))
    if span is not None:
        spans.append(span)
    return spans


def split_sentences(text: str) -> list[tuple[int, int]]:
    """Half-open ``(start, end)`` character spans of the sentences of ``text`` (Lesson 2).

    ``split_sentences("Dr. Smith left. Dr. Smith left.")`` -> [(0, 3), (4, 15), (16, 19), (20, 31)]
    """
    return _pieces(require_text(text), _SENTENCE_BREAK)


def paragraph_spans(text: str) -> list[tuple[int, int]]:
    """Half-open spans of the blank-line separated paragraphs, surrounding whitespace excluded.

    ``paragraph_spans("A b.\\r\\n\\r\\nC d.\\n")`` -> [(0, 4), (8, 12)]
    """
    return _pieces(require_text(text), _PARAGRAPH_BREAK)


def sentences_cut_at(sentence_spans: Sequence[tuple[int, int]], ends: Sequence[int]
                     ) -> list[tuple[int, int] | None]:
    """For each chunk end, the sentence it cuts, or None: the rule "this chunk end cuts a
    sentence", in one place (boundary quality, the × marks of lesson 2's explorer and comparison
    plot, lesson 2's figures). Lesson 1's explorer marks a boundary a cut sentence crosses
    (``widgets.units.cut_boundaries``): the same, except where chunks overlap because one
    character is split over several tokens.

    An end ``e`` cuts a sentence when ``start < e < end``; an end at a sentence's end, in the
    whitespace after it or at the next sentence's start cuts nothing. When several sentences
    overlap ``e``, the one reaching furthest is returned. O((S + E) log S).
    ``sentences_cut_at([(0, 4), (5, 9)], [4, 6])`` -> [None, (5, 9)]
    """
    sentences = sorted(require_spans("sentence_spans", sentence_spans))
    starts = [s for s, _ in sentences]
    furthest: list[tuple[int, int]] = []  # furthest[i]: the furthest-reaching of sentences[:i+1]
    for span in sentences:
        furthest.append(span if not furthest or span[1] > furthest[-1][1] else furthest[-1])
    cuts: list[tuple[int, int] | None] = []
    for e in ends:
        i = bisect_left(starts, e)  # sentences[:i] start before e
        cuts.append(furthest[i - 1] if i and furthest[i - 1][1] > e else None)
    return cuts


def inside_sentence(end: int, sentence_spans: Sequence[tuple[int, int]]) -> bool:
    """True when a chunk ending at ``end`` cuts a sentence (``sentences_cut_at`` for one end).

    ``inside_sentence(6, [(0, 4), (5, 9)])`` -> True
    """
    return sentences_cut_at(sentence_spans, [end])[0] is not None
