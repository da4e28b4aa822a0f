"""chunklib's splitter: recursive splitting with exact offsets, then merging up to a budget
(lesson 2, reused by later lessons).

``recursive_split`` is the lesson's exercise, exactly as the course appendix defines it: split on
the first separator present, recurse into pieces that are still too long, hard-cut when no
separator is left. ``split_text`` is the reusable splitter: ``merge_spans(recursive_split(text,
size), size)`` done fast, plus overlap and a length function (characters by default, or a
callable that counts the tokens of a piece).

Everything works on offsets into the one source string: separators are found with a compiled
regular expression scanning a range of the text, never by copying pieces or by ``str.find`` on
a piece's text (which returns the first copy of a repeated sentence, not this one). Every span
reproduces its text as ``text[start:end]``; with overlap 0 the spans tile the text.

Unlike LangChain's recursive splitter, which merges small pieces only within one level of the
separator hierarchy, ``split_text`` merges all pieces left to right, so the tail of a long
paragraph can share a chunk with the next paragraph: fewer, fuller chunks, still ending only
at a separator or a hard cut.

Leaves out: the lesson's other exercises and the measures of where chunks end
(``chunklib.boundaries``: ``merge_spans``, ``boundary_quality``, ``span_stats``), grapheme
clusters (a hard cut falls between code points, so it can split an emoji sequence or a letter
from its accent), sentence detection (``chunklib.sentences``) and semantic splitting.

    >>> split_text("One. Two. Three.", 10)
    [(0, 10), (10, 16)]
"""

from __future__ import annotations

import functools
import numbers
import operator
import re
from bisect import bisect_right
from collections.abc import Callable, Sequence
from itertools import pairwise

from chunklib.validate import require_int, require_text, require_window

DEFAULT_SEPARATORS = ("\n\n", "\n", ". ", " ")
Span = tuple[int, int]


@functools.lru_cache(maxsize=64)
def _pattern(separator: str) -> re.Pattern[str]:
    return re.compile(re.escape(separator))


def _require_separators(separators: object) -> tuple[str, ...]:
    if isinstance(separators, str) or not isinstance(separators, (list, tuple)):
        raise TypeError("separators must be a tuple or list of strings, "
                        f"got {type(separators).__name__} {separators!r}")
    for i, sep in enumerate(separators):
        if not isinstance(sep, str):
            raise TypeError(f"separators[{i}] must be a str, got {type(sep).__name__}")
        if not sep:
            raise ValueError(f"separators[{i}] is empty; hard cuts already handle 'no separator'")
    return tuple(separators)


def _gallop(fits: Callable[[int], bool], lo: int, hi: int) -> int:
    """The largest x in [lo, hi] with fits(x), trusting lo and assuming fits is true then false.

    Doubling steps, then bisection: O(log(answer - lo)) calls. ``_gallop(lambda x: x < 5, 0, 9)``
    -> 4
    """
    good, step = lo, 1
    while good < hi:
        probe = min(good + step, hi)
        if not fits(probe):
            bad = probe
            while bad - good > 1:  # bisect between a fitting and a failing position
                mid = (good + bad) // 2
                good, bad = (mid, bad) if fits(mid) else (good, mid)
            return good
        good, step = probe, step * 2
    return good


def _pieces(text, size, separators, measure, hard_cut) -> list[Span]:
    """Recursive splitting of ``text`` on offsets: pieces that fit, in order, tiling the text.

    ``measure`` is None for characters (``end - start``, computed in bulk) or a function of
    ``(start, end)``."""
    out: list[Span] = []

    def split(start: int, end: int, level: int) -> None:
        for k in range(level, len(separators)):
            pattern = _pattern(separators[k])
            first = pattern.search(text, start, end)
            if first is None:
                continue
            # Cut after every separator: it stays at the end of its left piece.
            bounds = [start, *map(re.Match.end, pattern.finditer(text, first.start(), end))]
            if bounds[-1] != end:
                bounds.append(end)
            if measure is None and max(map(operator.sub, bounds[1:], bounds)) <= size:
                out.extend(pairwise(bounds))  # the common case: every piece already fits
                return
            for pos, cut in pairwise(bounds):
                if (cut - pos if measure is None else measure(pos, cut)) <= size:
                    out.append((pos, cut))
                else:
                    split(pos, cut, k + 1)
            return
        out.extend(hard_cut(start, end))

    if (len(text) if measure is None else measure(0, len(text))) <= size:
        return [(0, len(text))]
    split(0, len(text), 0)
    return out


def recursive_split(text: str, size: int, separators: Sequence[str] = DEFAULT_SEPARATORS
                    ) -> list[Span]:
    """Split on the first separator present, recurse into pieces longer than ``size`` with the
    separators after it, hard-cut every ``size`` characters when none is left (Lesson 2).

    No merging; the spans tile the text and every one is at most ``size`` long. A piece that
    had to be hard-cut gives spans of exactly ``size``, except its last. ``""`` gives
    ``[(0, 0)]`` (``len("") <= size``: one span). ``recursive_split("aaa bbb ccc", 5)`` ->
    [(0, 4), (4, 8), (8, 11)]
    """
    text, size = require_text(text), require_int("size", size, minimum=1)
    separators = _require_separators(separators)

    def hard_cut(start: int, end: int) -> list[Span]:
        return [(s, min(s + size, end)) for s in range(start, end, size)]

    return _pieces(text, size, separators, None, hard_cut)


def split_text(text: str, size: int, overlap: int = 0,
               separators: Sequence[str] = DEFAULT_SEPARATORS,
               length: Callable[[str], int] = len) -> list[Span]:
    """chunklib's splitter: recursive split, then merge up to ``size`` (Lesson 2, reused later).

    ``length`` measures a piece (``len``: characters; or e.g. a tokenizer's token count).
    With ``overlap`` 0 the chunks tile the text and equal ``merge_spans(recursive_split(text,
    size, separators), size)``; otherwise each chunk repeats at most ``overlap`` of the previous
    chunk's tail, in whole pieces, and the chunks cover the text. Every chunk has
    ``length(chunk) <= size``, except a one-character chunk whose character alone measures
    more. A length that does not grow with the text still terminates and still fits, but may
    give shorter chunks. ``""`` gives ``[]``. ``split_text("aaa bbb ccc", 8)`` ->
    [(0, 8), (8, 11)]
    """
    text = require_text(text)
    size, overlap = require_window(size, overlap)
    separators = _require_separators(separators)
    if not callable(length):
        raise TypeError(f"length must be callable, got {type(length).__name__}")
    if not text:
        return []
    if length is len:
        def measure(a: int, b: int) -> int:
            return b - a

        def hard_cut(start: int, end: int) -> list[Span]:
            return [(s, min(s + size, end)) for s in range(start, end, size)]
    else:
        def measure(a: int, b: int) -> int:
            value = length(text[a:b])
            if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 0:
                raise TypeError(f"length must return an int >= 0, got {value!r}")
            return value

        def hard_cut(start: int, end: int) -> list[Span]:
            cuts = []
            while start < end:  # each cut takes at least one character: always terminates
                stop = _gallop(lambda e, s=start: measure(s, e) <= size, start + 1, end)
                cuts.append((start, stop))
                start = stop
            return cuts

    pieces = _pieces(text, size, separators, None if length is len else measure, hard_cut)
    return _merge(pieces, size, overlap, measure, by_chars=length is len)


def _merge(pieces: list[Span], size: int, overlap: int, measure, by_chars: bool) -> list[Span]:
    """Greedy merge of tiling pieces; the next chunk restarts at the earliest piece whose tail
    up to the chunk end is within ``overlap`` and still fits with the following piece."""
    chunks: list[Span] = []
    n, first = len(pieces), 0
    ends = [e for _, e in pieces]

    def fits(start: int, j: int) -> bool:
        return measure(start, ends[j]) <= size

    while True:
        start = pieces[first][0]
        if by_chars:  # ends only grow, so the last piece that fits is found by bisection
            last = max(first, bisect_right(ends, start + size) - 1)
        else:
            last = _gallop(functools.partial(fits, start), first, n - 1)
        end = ends[last]
        chunks.append((start, end))
        if last == n - 1:
            return chunks
        nxt, following_end = last + 1, ends[last + 1]
        # Step back over tail pieces that fit in the overlap. Never with overlap 0: a piece that
        # a token counter measures as 0 (whitespace) would otherwise be repeated.
        while (overlap and nxt - 1 > first and measure(pieces[nxt - 1][0], end) <= overlap
               and measure(pieces[nxt - 1][0], following_end) <= size):
            nxt -= 1
        first = nxt
