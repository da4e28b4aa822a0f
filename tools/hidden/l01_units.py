"""Lesson 1 (Units and windows): reference versions of the Part 2 functions for hidden tests.

Leaves out: input checks beyond the ValueError the contract names.
"""

import re as _re


def _r_unit_spans(text):
    return [(m.start(), m.end()) for m in _re.finditer(r"\w+|[^\w\s]", text)]


def _r_fixed_windows(n, size):
    if size < 1:
        raise ValueError("size")
    return [(s, min(s + size, n)) for s in range(0, n, size)]


def _r_window_text(text, spans, window):
    first, stop = window
    return text[spans[first][0]:spans[stop - 1][1]] if stop > first else ""


def _r_cut_sentences(sentence_spans, windows):
    return sum(1 for s, e in sentence_spans if not any(a <= s and e <= b for a, b in windows))


_REFS = {"unit_spans": _r_unit_spans, "fixed_windows": _r_fixed_windows,
         "window_text": _r_window_text, "cut_sentences": _r_cut_sentences}
