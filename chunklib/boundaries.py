"""Where chunks end, measured against sentences, and merging pieces up to a budget (lesson 2).

``merge_spans`` and ``boundary_quality`` are the lesson's exercises, exactly as the course
appendix defines them; ``span_stats`` gives the numbers the lesson and its explorer show for
one chunking: chunk count, sentences cut, boundary quality and the spread of chunk lengths.
A chunk end cuts a sentence when it falls strictly inside one
(``chunklib.sentences.sentences_cut_at``, the one place that rule is written).

Leaves out: the splitter itself (``chunklib.splitter``: ``recursive_split`` and
``split_text``), sentence detection (``chunklib.sentences``) and the comparison of fixed
windows with recursive splitting (``chunklib.course.comparison``).

    >>> boundary_quality([(0, 4), (5, 9)], [(0, 6), (6, 9)])
    0.0
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence

from chunklib.sentences import sentences_cut_at, split_sentences
from chunklib.units import cut_sentences
from chunklib.validate import require_int, require_spans, require_text

Span = tuple[int, int]


def merge_spans(spans: Sequence[Span], size: int) -> list[Span]:
    """Left to right, extend the current span with the next while ``next_end - current_start
    <= size``; a span already longer than ``size`` stays alone (Lesson 2).

    ``merge_spans([(0, 4), (4, 8), (8, 11)], 8)`` -> [(0, 8), (8, 11)]
    """
    spans, size = require_spans("spans", spans), require_int("size", size, minimum=1)
    merged: list[Span] = []
    for start, end in spans:
        if merged and end - merged[-1][0] <= size:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged


def boundary_quality(sentence_spans: Sequence[Span], spans: Sequence[Span]) -> float:
    """The fraction of chunk ends, the last chunk's excluded, that do not cut a sentence: 1.0
    with fewer than 2 chunks (Lesson 2).

    A chunk end ``e`` counts when it equals a sentence end or falls in the whitespace after
    one, up to and including the next sentence's start: ``end_i <= e <= start_(i+1)``. Only
    offsets are passed, so this is computed as "the end cuts no sentence"
    (``chunklib.sentences.sentences_cut_at``; an end before the first sentence cuts none).
    ``spans`` are in source order. ``boundary_quality([(0, 4), (5, 9)], [(0, 5), (5, 9)])``
    -> 1.0
    """
    sentences = require_spans("sentence_spans", sentence_spans)
    spans = require_spans("spans", spans)
    if len(spans) < 2:
        return 1.0
    cuts = sentences_cut_at(sentences, [e for _, e in spans[:-1]])
    return cuts.count(None) / (len(spans) - 1)


def span_stats(text: str, spans: Sequence[Span],
               sentence_spans: Sequence[Span] | None = None) -> dict:
    """Chunk count, sentences cut (``chunklib.units.cut_sentences``), boundary quality and
    min/median/max length in characters; sentences default to ``split_sentences(text)``.

    ``span_stats("One. Two.", [(0, 5), (5, 9)])["boundary_quality"]`` -> 1.0
    """
    text = require_text(text)
    sentences = split_sentences(text) if sentence_spans is None else sentence_spans
    lengths = [e - s for s, e in require_spans("spans", spans)] or [0]
    return {"chunks": len(spans), "sentences": len(sentences),
            "sentences_cut": cut_sentences(sentences, spans),
            "boundary_quality": boundary_quality(sentences, spans),
            "min": min(lengths), "median": statistics.median(lengths), "max": max(lengths)}
