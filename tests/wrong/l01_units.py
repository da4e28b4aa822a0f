"""Realistic mistakes in lesson 1 (Units and windows), each confined to one function or answer."""

WRONG = {
    "offsets_from_find": ({"unit_spans": '''
import re
def unit_spans(text):
    # finds every unit, then looks its offset up again: wrong for a repeated word
    return [(text.find(u), text.find(u) + len(u)) for u in re.findall(r"\\w+|[^\\w\\s]", text)]
'''}, {"test_unit_spans_hidden"}),
    "words_only": ({"unit_spans": '''
import re
def unit_spans(text):
    return [(m.start(), m.end()) for m in re.finditer(r"\\w+", text)]
'''}, {"test_unit_spans_examples", "test_unit_spans_hidden"}),
    "punctuation_runs_as_one": ({"unit_spans": '''
import re
def unit_spans(text):
    return [(m.start(), m.end()) for m in re.finditer(r"\\w+|[^\\w\\s]+", text)]
'''}, {"test_unit_spans_hidden"}),
    "last_window_overflows": ({"fixed_windows": '''
def fixed_windows(n, size):
    if size < 1:
        raise ValueError("size")
    return [(start, start + size) for start in range(0, n, size)]
'''}, {"test_fixed_windows_examples", "test_fixed_windows_hidden"}),
    "empty_window_at_exact_fit": ({"fixed_windows": '''
def fixed_windows(n, size):
    if size < 1:
        raise ValueError("size")
    if n == 0:
        return []
    k = n // size + 1  # one too many when size divides n
    return [(i * size, min((i + 1) * size, n)) for i in range(k)]
'''}, {"test_fixed_windows_examples", "test_fixed_windows_hidden"}),
    "no_size_check": ({"fixed_windows": '''
def fixed_windows(n, size):
    return [(start, min(start + size, n)) for start in range(0, n, size)]
'''}, {"test_fixed_windows_hidden"}),
    # the right count as a numpy integer: the examples say so, and the grader takes the points
    "numpy_count": ({"cut_sentences": '''
import numpy as np
def cut_sentences(sentence_spans, windows):
    held = [any(a <= s and e <= b for a, b in windows) for s, e in sentence_spans]
    return np.sum(np.logical_not(held)) if held else 0
'''}, {"test_cut_sentences_examples", "test_cut_sentences_hidden"}),
    "always_equal_list": ({"fixed_windows": '''
class _Anything(list):
    def __eq__(self, other):
        return True
def fixed_windows(n, size):
    return _Anything()
'''}, {"test_fixed_windows_examples", "test_fixed_windows_hidden"}),
    "joined_with_spaces": ({"window_text": '''
def window_text(text, spans, window):
    first, stop = window
    return " ".join(text[s:e] for s, e in spans[first:stop])
'''}, {"test_window_text_examples", "test_window_text_hidden"}),
    "empty_window_not_handled": ({"window_text": '''
def window_text(text, spans, window):
    first, stop = window
    return text[spans[first][0]:spans[stop - 1][1]]
'''}, {"test_window_text_hidden"}),
    "ignores_given_spans": ({"window_text": '''
def window_text(text, spans, window):
    spans = unit_spans(text)  # recomputes word units instead of using the spans it was given
    first, stop = window
    return text[spans[first][0]:spans[stop - 1][1]] if stop > first else ""
'''}, {"test_window_text_hidden"}),
    "counts_cut_boundaries": ({"cut_sentences": '''
def cut_sentences(sentence_spans, windows):
    # counts window ends inside sentences: a sentence over three windows counts twice
    return sum(1 for _, w_end in windows for s, e in sentence_spans if s < w_end < e)
'''}, {"test_cut_sentences_examples", "test_cut_sentences_hidden"}),
    "strict_containment": ({"cut_sentences": '''
def cut_sentences(sentence_spans, windows):
    return sum(1 for s, e in sentence_spans
               if not any(a < s and e < b for a, b in windows))
'''}, {"test_cut_sentences_examples", "test_cut_sentences_hidden"}),
    "assumes_sorted_tiling": ({"cut_sentences": '''
def cut_sentences(sentence_spans, windows):
    cut = 0
    for s, e in sentence_spans:
        # the first window that reaches past the sentence start must hold it
        home = next(((a, b) for a, b in windows if b > s), None)
        if home is None or not (home[0] <= s and e <= home[1]):
            cut += 1
    return cut
'''}, {"test_cut_sentences_hidden"}),
    "hand_answers_off": ({"ex2_last": "ex2_last = 1000 % 250", "q5": 'q5 = "A"'},
                         {"test_ex2_last", "test_q5"}),
}

# Correct work that writes to stderr: must keep every point.
NOISY_BUT_RIGHT = {"unit_spans": '''
import re
import sys
import warnings
def unit_spans(text):
    warnings.warn("unit_spans() was called")
    print("debug: scanning", len(text), "characters", file=sys.stderr)
    return [(m.start(), m.end()) for m in re.finditer(r"\\w+|[^\\w\\s]", text)]
unit_spans("warm up")
'''}

# Correct work written another way than the reference (another algorithm, a result built
# in another order or container and then converted, the standard library instead of a
# given helper): each must keep every point (tests/test_grading_agreement.py).
VARIANTS = {
    "character_scan": {"unit_spans": '''
def unit_spans(text):
    spans, i, n = [], 0, len(text)
    while i < n:
        ch = text[i]
        if ch.isalnum() or ch == "_":
            j = i
            while j < n and (text[j].isalnum() or text[j] == "_"):
                j += 1
            spans.append((i, j))
            i = j
        elif ch.isspace():
            i += 1
        else:
            spans.append((i, i + 1))
            i += 1
    return spans
'''},
    "ceil_of_n_over_size": {"fixed_windows": '''
import math


def fixed_windows(n, size):
    if size < 1:
        raise ValueError("size")
    return [(i * size, min((i + 1) * size, n)) for i in range(math.ceil(n / size))]
'''},
    "slice_of_the_spans": {"window_text": '''
def window_text(text, spans, window):
    chosen = spans[window[0]:window[1]]
    if not chosen:
        return ""
    return text[chosen[0][0]:chosen[-1][1]]
'''},
    "sum_of_bools": {"cut_sentences": '''
def cut_sentences(sentence_spans, windows):
    return sum(not any(a <= s and e <= b for a, b in windows) for s, e in sentence_spans)
'''},
}
