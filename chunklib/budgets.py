"""One text, four length functions: characters, word-like units, BPE tokens, word pieces (lesson 1).

A budget means nothing without the length function it counts with. On the course's sample
passage the first 1000 cl100k tokens take 4721 characters, while the first 1000 characters hold
215 tokens; the embedding model all-MiniLM-L6-v2 counts in neither: it reads 254 word pieces of
text (the first 1184 characters there) and silently drops the rest. The helpers here turn a
budget in one length function into characters of the source.

Leaves out: other embedding models and prices; spans come from ``chunklib.units`` and
``chunklib.tokens``.

    >>> prefix_end([(0, 5), (6, 11), (11, 12)], 2)
    11
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from chunklib.tokens import token_spans, wordpiece_spans
from chunklib.units import char_spans, unit_spans
from chunklib.validate import require_int, require_spans

__all__ = ["UNIT_KINDS", "spans_of", "measure", "prefix_end", "units_within"]

#: Every unit kind of the course, by name, with the function that finds its spans.
UNIT_KINDS: dict[str, Callable[[str], list[tuple[int, int]]]] = {
    "characters": char_spans,
    "words": unit_spans,
    "cl100k_tokens": token_spans,
    "minilm_wordpieces": wordpiece_spans,
}


def spans_of(text: str, kind: str) -> list[tuple[int, int]]:
    """The character spans of ``text``'s units of one kind (a key of ``UNIT_KINDS``).

    ``spans_of("Hi, you", "words")`` -> [(0, 2), (2, 3), (4, 7)]
    """
    if kind not in UNIT_KINDS:
        raise ValueError(f"kind must be one of {', '.join(UNIT_KINDS)}, got {kind!r}")
    return UNIT_KINDS[kind](text)


def measure(text: str) -> dict[str, int]:
    """The length of ``text`` in every unit kind.

    ``measure("Hello, world!")`` ->
    {'characters': 13, 'words': 4, 'cl100k_tokens': 4, 'minilm_wordpieces': 4}
    """
    return {kind: len(find(text)) for kind, find in UNIT_KINDS.items()}


def prefix_end(spans: Sequence[tuple[int, int]], n: int) -> int:
    """The character offset where the first ``n`` units end (0 for ``n == 0``): a budget of ``n``
    units, counted from the start, covers ``text[:prefix_end(spans, n)]``.

    ``prefix_end([(0, 5), (6, 11), (11, 12)], 2)`` -> 11
    """
    spans = require_spans("spans", spans)
    n = require_int("n", n, minimum=0)
    if n > len(spans):
        raise ValueError(f"n must be <= the number of units ({len(spans)}), got {n}")
    return 0 if n == 0 else max(end for _, end in spans[:n])


def units_within(spans: Sequence[tuple[int, int]], limit: int) -> int:
    """How many units lie wholly inside the first ``limit`` characters (end <= ``limit``).

    ``units_within([(0, 5), (6, 11), (11, 12)], 10)`` -> 1
    """
    spans = require_spans("spans", spans)
    limit = require_int("limit", limit, minimum=0)
    return sum(1 for _, end in spans if end <= limit)
