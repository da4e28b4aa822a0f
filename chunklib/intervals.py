"""Set arithmetic on half-open ``(start, end)`` intervals: union, overlap, duplication.

Used to measure what chunks actually store (lessons 3 and 4) and what retrieved chunks cover
(lesson 6). Empty intervals ``(s, s)`` cover nothing.

Leaves out: interval trees and queries over many documents; everything here sorts once,
O(k log k) for k intervals, which is plenty for one document's chunks.

    >>> duplication_ratio([(0, 200), (150, 350)], 350)
    0.14285714285714285
"""

from __future__ import annotations

from collections.abc import Iterable

from chunklib.validate import require_int, require_spans


def union(spans: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    """Merge overlapping or touching intervals; empty ones vanish.

    ``union([(5, 9), (0, 3), (2, 4)])`` -> [(0, 4), (5, 9)]
    """
    merged: list[tuple[int, int]] = []
    for start, end in sorted(s for s in require_spans("spans", spans) if s[1] > s[0]):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged


def total_length(spans: Iterable[tuple[int, int]]) -> int:
    """Sum of the lengths, overlaps counted each time.

    ``total_length([(0, 200), (150, 350)])`` -> 400
    """
    return sum(end - start for start, end in require_spans("spans", spans))


def union_length(spans: Iterable[tuple[int, int]]) -> int:
    """Length of the union: each position counted once.

    ``union_length([(0, 200), (150, 350)])`` -> 350
    """
    return sum(end - start for start, end in union(spans))


def intersection_length(a: Iterable[tuple[int, int]], b: Iterable[tuple[int, int]]) -> int:
    """Length of (∪a) ∩ (∪b).

    ``intersection_length([(0, 10)], [(5, 20)])`` -> 5
    """
    ua, ub = union(a), union(b)
    i = j = covered = 0
    while i < len(ua) and j < len(ub):
        lo, hi = max(ua[i][0], ub[j][0]), min(ua[i][1], ub[j][1])
        covered += max(0, hi - lo)
        if ua[i][1] < ub[j][1]:
            i += 1
        else:
            j += 1
    return covered


def duplication_ratio(spans: Iterable[tuple[int, int]], source_length: int) -> float:
    """Actual duplication: (Σ span lengths − length of their union) / source_length.

    With chunks that cover the source this is the seed's (Σ units − L) / L; taking the union
    instead of L keeps it from going negative when chunks skip source (blank lines).
    0.0 for an empty source. ``duplication_ratio([(0, 6), (4, 10)], 10)`` -> 0.2
    """
    spans = require_spans("spans", spans)
    source_length = require_int("source_length", source_length, minimum=0)
    if source_length == 0:
        return 0.0
    return (total_length(spans) - union_length(spans)) / source_length
