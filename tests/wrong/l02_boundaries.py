"""Realistic mistakes in lesson 2 (Boundaries), each confined to one function or answer."""

WRONG = {
    "sentence_offsets_by_find": ({"split_sentences": '''
import re
def split_sentences(text):
    # split into sentence strings, then look each one up: wrong on repeated sentences
    pieces = re.split(r"(?<=[.!?])\\s+|\\n[^\\S\\n]*\\n", text)
    spans = []
    for piece in pieces:
        piece = piece.strip()
        if piece:
            start = text.find(piece)
            spans.append((start, start + len(piece)))
    return spans
'''}, {"test_split_sentences_hidden"}),
    "every_line_break_ends_a_sentence": ({"split_sentences": '''
import re
def split_sentences(text):
    spans, pos = [], 0
    for m in re.finditer(r"[.!?]+[\\"'»”’›」』]*(?=\\s|\\Z)|\\n", text):
        end = m.start() if m.group() == "\\n" else m.end()
        piece = text[pos:end]
        if piece.strip():
            start = pos + len(piece) - len(piece.lstrip())
            spans.append((start, start + len(piece.strip())))
        pos = m.end()
    piece = text[pos:]
    if piece.strip():
        start = pos + len(piece) - len(piece.lstrip())
        spans.append((start, start + len(piece.strip())))
    return spans
'''}, {"test_split_sentences_hidden"}),
    "abbreviation_list": ({"split_sentences": '''
import re
def split_sentences(text):
    # knows a few abbreviations, which the specification leaves out on purpose
    breaks = re.compile(r"(?<!\\bDr)(?<!\\bMr)(?<!\\bMrs)[.!?]+[\\"'»”’›」』]*(?=\\s|\\Z)"
                        r"|\\n[^\\S\\n]*\\n")
    spans, pos = [], 0
    def add(a, b):
        while a < b and text[a].isspace():
            a += 1
        while b > a and text[b - 1].isspace():
            b -= 1
        if a < b:
            spans.append((a, b))
    for m in breaks.finditer(text):
        add(pos, m.start() if m.group().startswith("\\n") else m.end())
        pos = m.end()
    add(pos, len(text))
    return spans
'''}, {"test_split_sentences_examples", "test_split_sentences_hidden"}),
    "separator_dropped": ({"recursive_split": '''
def recursive_split(text, size, separators=("\\n\\n", "\\n", ". ", " ")):
    spans = []
    def split(start, piece, seps):
        if len(piece) <= size:
            spans.append((start, start + len(piece)))
            return
        for k, sep in enumerate(seps):
            if sep in piece:
                for part in piece.split(sep):  # the separator is lost: spans no longer tile
                    if part:
                        split(start, part, seps[k + 1:])
                    start += len(part) + len(sep)
                return
        for i in range(0, len(piece), size):
            spans.append((start + i, start + min(i + size, len(piece))))
    split(0, text, tuple(separators))
    return spans
'''}, {"test_recursive_split_examples", "test_recursive_split_hidden"}),
    "recursion_restarts_the_hierarchy": ({"recursive_split": '''
def recursive_split(text, size, separators=("\\n\\n", "\\n", ". ", " ")):
    spans = []
    def split(start, piece):
        if len(piece) <= size:
            spans.append((start, start + len(piece)))
            return
        for sep in separators:  # every separator again, not only the ones after it
            if sep in piece:
                parts = piece.split(sep)
                for p in [q + sep for q in parts[:-1]] + [parts[-1]]:
                    if p:
                        split(start, p)
                        start += len(p)
                return
        for i in range(0, len(piece), size):
            spans.append((start + i, start + min(i + size, len(piece))))
    split(0, text)
    return spans
'''}, {"test_recursive_split_hidden"}),
    "hard_cut_forgets_the_piece_start": ({"recursive_split": '''
def recursive_split(text, size, separators=("\\n\\n", "\\n", ". ", " ")):
    spans = []
    def split(start, piece, seps):
        if len(piece) <= size:
            spans.append((start, start + len(piece)))
            return
        for k, sep in enumerate(seps):
            if sep in piece:
                parts = piece.split(sep)
                for p in [q + sep for q in parts[:-1]] + [parts[-1]]:
                    if p:
                        split(start, p, seps[k + 1:])
                        start += len(p)
                return
        for i in range(0, len(piece), size):  # offsets in the piece, not in the text
            spans.append((i, min(i + size, len(piece))))
    split(0, text, tuple(separators))
    return spans
'''}, {"test_recursive_split_hidden"}),
    "lists_not_tuples": ({"recursive_split": '''
def recursive_split(text, size, separators=("\\n\\n", "\\n", ". ", " ")):
    spans = []
    def split(start, piece, seps):
        if len(piece) <= size:
            spans.append([start, start + len(piece)])
            return
        for k, sep in enumerate(seps):
            if sep in piece:
                parts = piece.split(sep)
                for p in [q + sep for q in parts[:-1]] + [parts[-1]]:
                    if p:
                        split(start, p, seps[k + 1:])
                        start += len(p)
                return
        for i in range(0, len(piece), size):
            spans.append([start + i, start + min(i + size, len(piece))])
    split(0, text, tuple(separators))
    return spans
'''}, {"test_recursive_split_examples", "test_recursive_split_hidden"}),
    "merge_strictly_below_size": ({"merge_spans": '''
def merge_spans(spans, size):
    merged = []
    for start, end in spans:
        if merged and end - merged[-1][0] < size:  # a chunk of exactly size is allowed
            merged[-1] = (merged[-1][0], end)
        else:
            merged.append((start, end))
    return merged
'''}, {"test_merge_spans_examples", "test_merge_spans_hidden"}),
    "merge_adds_lengths": ({"merge_spans": '''
def merge_spans(spans, size):
    merged, length = [], 0
    for start, end in spans:
        if merged and length + (end - start) <= size:  # forgets the gaps between spans
            merged[-1] = (merged[-1][0], end)
            length += end - start
        else:
            merged.append((start, end))
            length = end - start
    return merged
'''}, {"test_merge_spans_hidden"}),
    "always_equal_object": ({"merge_spans": '''
class _Anything(list):
    def __eq__(self, other):
        return True
def merge_spans(spans, size):
    return _Anything()
'''}, {"test_merge_spans_examples", "test_merge_spans_hidden"}),
    "quality_over_all_chunks": ({"boundary_quality": '''
def boundary_quality(sentence_spans, spans):
    if not spans:
        return 1.0
    clean = sum(not any(s < e < t for s, t in sentence_spans) for _, e in spans[:-1])
    return clean / len(spans)  # K chunks have only K - 1 ends to judge
'''}, {"test_boundary_quality_examples", "test_boundary_quality_hidden"}),
    "next_start_counts_as_cut": ({"boundary_quality": '''
def boundary_quality(sentence_spans, spans):
    if len(spans) < 2:
        return 1.0
    ends = {e for _, e in sentence_spans}
    return sum(e in ends for _, e in spans[:-1]) / (len(spans) - 1)
'''}, {"test_boundary_quality_examples", "test_boundary_quality_hidden"}),
    "int_for_one_chunk": ({"boundary_quality": '''
def boundary_quality(sentence_spans, spans):
    if len(spans) < 2:
        return 1
    clean = sum(not any(s < e < t for s, t in sentence_spans) for _, e in spans[:-1])
    return clean / (len(spans) - 1)
'''}, {"test_boundary_quality_examples", "test_boundary_quality_hidden"}),
    "hand_answers_off": ({"fixed_cut": "fixed_cut = 3", "split_k": "split_k = 13",
                          "q4": 'q4 = "B"'}, {"test_fixed_cut", "test_split_k", "test_q4"}),
}

# Correct work that writes to stderr: must keep every point.
NOISY_BUT_RIGHT = {"merge_spans": '''
import sys, warnings
def merge_spans(spans, size):
    warnings.warn("merge_spans() was called")
    print("debug: merging", len(spans), "spans", file=sys.stderr)
    merged = []
    for start, end in spans:
        if merged and end - merged[-1][0] <= size:
            merged[-1] = (merged[-1][0], end)
        else:
            merged.append((start, end))
    return merged
merge_spans([(0, 1)], 1)
'''}

# Correct work written another way than the reference (another algorithm, a result built
# in another order or container and then converted, the standard library instead of a
# given helper): each must keep every point (tests/test_grading_agreement.py).
VARIANTS = {
    "character_scanner": {"split_sentences": '''
CLOSERS = "\\"'»”’›」』"


def split_sentences(text):
    spans, n, i, start = [], len(text), 0, None

    def close(end):
        while text[end - 1].isspace():
            end -= 1
        spans.append((start, end))

    while i < n:
        ch = text[i]
        if ch == "\\n":
            j = i + 1
            while j < n and text[j].isspace() and text[j] != "\\n":
                j += 1
            if j < n and text[j] == "\\n":  # a blank line
                if start is not None:
                    close(i)
                    start = None
                i = j
                continue
        if start is None:
            if ch.isspace():
                i += 1
                continue
            start = i
        if ch in ".!?":
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
        i += 1
    if start is not None:
        close(n)
    return spans
'''},
    "pieces_then_offsets": {"recursive_split": '''
def recursive_split(text, size, separators=("\\n\\n", "\\n", ". ", " ")):
    def pieces(s, seps):
        if len(s) <= size:
            return [s]
        for k, sep in enumerate(seps):
            if sep in s:
                parts = s.split(sep)
                out = []
                for i, p in enumerate(parts):
                    if i < len(parts) - 1:
                        p += sep
                    if p:
                        out.extend(pieces(p, seps[k + 1:]))
                return out
        return [s[i:i + size] for i in range(0, len(s), size)]

    spans, pos = [], 0
    for p in pieces(text, tuple(separators)):
        spans.append((pos, pos + len(p)))
        pos += len(p)
    return spans
'''},
    "index_while_loop": {"merge_spans": '''
def merge_spans(spans, size):
    merged, i = [], 0
    while i < len(spans):
        start, end = spans[i]
        j = i + 1
        while j < len(spans) and spans[j][1] - start <= size:
            end = spans[j][1]
            j += 1
        merged.append((start, end))
        i = j
    return merged
'''},
    "bisect_on_sentence_ends": {"boundary_quality": '''
import bisect


def boundary_quality(sentence_spans, spans):
    if len(spans) < 2:
        return 1.0
    ends = [e for _, e in sentence_spans]
    starts = [s for s, _ in sentence_spans]
    clean = 0
    for _, end in spans[:-1]:
        i = bisect.bisect_right(ends, end) - 1
        if i >= 0 and (i + 1 == len(starts) or end <= starts[i + 1]):
            clean += 1
    return clean / (len(spans) - 1)
'''},
}
