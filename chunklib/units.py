"""Units with character offsets, fixed windows over them, and the sentences they cut (lesson 1).

A text becomes a list of units, each a half-open ``(start, end)`` character span of the source,
so every unit, and every window of units, can be sliced back out of the text exactly. Two unit
kinds live here: characters (one Python code point each) and word-like units (a run of ``\\w``
characters, or one single mark that is neither a word character nor whitespace). Real BPE
tokens are in ``chunklib.tokens``.

Word-like units follow Python's ``re`` rules, not the reader's eye:

- ``"café"`` written with a precomposed é is one unit, but decomposed (``"cafe\\u0301"``, an e
  followed by a combining accent) it is two: ``"cafe"`` and the lone accent ``"\\u0301"``.
- The emoji 👩‍💻 is three units: 👩, the invisible zero-width joiner ``"\\u200d"``, and 💻.
- An unspaced Japanese sentence such as ``"日本語の文章です"`` is one unit (its full stop
  ``"。"``, if present, is a second).
- ``"don't"`` is three units (``don``, ``'``, ``t``), ``"3.14"`` is three, ``"snake_case"`` one.

Leaves out: grapheme clusters, Unicode normalisation and language-aware word segmentation (the
spans are what the regular expression finds, nothing more), and lesson 1's passage
(``chunklib.course.passages.sample_passage``).

    >>> unit_spans("Chunks keep offsets.")
    [(0, 6), (7, 11), (12, 19), (19, 20)]
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from itertools import accumulate

from chunklib.validate import require_int, require_spans, require_text
from chunklib.windows import window_spans

__all__ = ["UNIT_PATTERN", "unit_spans", "char_spans", "fixed_windows", "window_text",
           "cut_sentence_spans", "cut_sentences"]

#: A word-like unit: a run of word characters, or one character that is neither word nor space.
UNIT_PATTERN = re.compile(r"\w+|[^\w\s]")


def unit_spans(text: str) -> list[tuple[int, int]]:
    """Character spans of the word-like units of ``text``, in order (lesson 1).

    Exactly ``[(m.start(), m.end()) for m in re.finditer(r"\\w+|[^\\w\\s]", text)]``; the
    surprises (decomposed "café" is two units, 👩‍💻 three) are listed in the module docstring.
    ``unit_spans("Hi, you!")`` -> [(0, 2), (2, 3), (4, 7), (7, 8)]
    """
    return [(m.start(), m.end()) for m in UNIT_PATTERN.finditer(require_text(text))]


def char_spans(text: str) -> list[tuple[int, int]]:
    """One span per character (Python code point), so 👩‍💻 gives three spans (lesson 1).

    ``char_spans("abc")`` -> [(0, 1), (1, 2), (2, 3)]
    """
    return [(i, i + 1) for i in range(len(require_text(text)))]


def fixed_windows(n: int, size: int) -> list[tuple[int, int]]:
    """Windows of ``size`` units without overlap over ``n`` units: ``K = ceil(n / size)``, the last
    one ``n - (K - 1)·size`` long; ``[]`` for ``n == 0``; ValueError for ``size < 1`` (lesson 1).

    ``fixed_windows(10, 4)`` -> [(0, 4), (4, 8), (8, 10)]
    """
    return window_spans(n, size, 0)


def window_text(text: str, spans: Sequence[tuple[int, int]], window: tuple[int, int]) -> str:
    """The exact source slice of a window of unit indices: from the first unit's start to the last
    unit's end, whatever lies between them (spaces, line breaks); ``""`` for an empty window.

    ``window_text("a b c", [(0, 1), (2, 3), (4, 5)], (1, 3))`` -> 'b c'
    """
    text = require_text(text)
    spans = require_spans("spans", spans)
    try:
        first, stop = window
    except (TypeError, ValueError):
        raise TypeError(f"window must be a (start, end) pair, got {window!r}") from None
    first = require_int("window start", first, minimum=0)
    stop = require_int("window end", stop, minimum=first)
    if stop > len(spans):
        raise ValueError(f"window end must be <= len(spans) = {len(spans)}, got {stop}")
    if stop == first:
        return ""
    start, end = spans[first][0], spans[stop - 1][1]
    if end > len(text) or end < start:
        raise ValueError(f"spans do not fit text: window {window!r} covers ({start}, {end}) "
                         f"of a text of length {len(text)}")
    return text[start:end]


def cut_sentence_spans(sentence_spans: Sequence[tuple[int, int]],
                       windows: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """The sentences no single window holds whole, in the order given (lesson 1).

    Both arguments are half-open intervals in the same coordinates (characters, or unit
    indices). A sentence is held when some window has ``start <= s_start`` and
    ``s_end <= end``; an empty sentence counts as held. O((S + W) log W).
    ``cut_sentence_spans([(0, 10), (11, 20)], [(0, 15), (15, 20)])`` -> [(11, 20)]
    """
    sentences = require_spans("sentence_spans", sentence_spans)
    ordered = sorted(require_spans("windows", windows))
    starts = [start for start, _ in ordered]
    # furthest[i]: the largest end among the windows ordered[:i + 1].
    furthest = list(accumulate((end for _, end in ordered), max))
    cut = []
    for start, end in sentences:
        if end == start:
            continue
        i = bisect_right(starts, start) - 1
        if i < 0 or furthest[i] < end:
            cut.append((start, end))
    return cut


def cut_sentences(sentence_spans: Sequence[tuple[int, int]],
                  windows: Sequence[tuple[int, int]]) -> int:
    """How many sentences no single window holds whole (lesson 1): the length of
    ``cut_sentence_spans(sentence_spans, windows)``.

    ``cut_sentences([(0, 10), (11, 20)], [(0, 15), (15, 20)])`` -> 1
    """
    return len(cut_sentence_spans(sentence_spans, windows))
