"""Span-level retrieval metrics: evidence completeness, recall, precision and IoU (lesson 6).

All spans are half-open character intervals in one source revision. With retrieved spans R
(duplicates counted) and evidence spans E, ``covered`` is the length of (∪E) ∩ (∪R):

- recall    = covered / |∪E|
- precision = covered / Σ|r|   (overlap between retrieved chunks is counted each time, so the
  cost of overlapping chunks that fill the top-k shows)
- IoU       = covered / (Σ|r| + |∪E| − covered)

each 0.0 when its denominator is 0. Completeness asks more than recall: *one* retrieved chunk
must hold the whole evidence span.

Leaves out: ranking metrics (MRR, nDCG) and spans across different revisions; compare spans of
one revision only.

    >>> span_recall([(0, 50)], [(40, 60)])
    0.5
"""

from __future__ import annotations

from collections.abc import Sequence

from chunklib.intervals import intersection_length, total_length, union_length
from chunklib.validate import require_spans

Span = tuple[int, int]


def evidence_complete(chunk_spans: Sequence[Span], evidence_span: Span) -> bool:
    """True when some chunk contains the evidence span whole.

    ``evidence_complete([(0, 100), (80, 180)], (90, 150))`` -> True
    """
    (start, end), = require_spans("evidence_span", [evidence_span])
    return any(s <= start and end <= e for s, e in require_spans("chunk_spans", chunk_spans))


def _covered(retrieved: Sequence[Span], evidence: Sequence[Span]) -> tuple[int, int, int]:
    retrieved = require_spans("retrieved", retrieved)
    evidence = require_spans("evidence", evidence)
    return (intersection_length(evidence, retrieved), total_length(retrieved),
            union_length(evidence))


def span_recall(retrieved: Sequence[Span], evidence: Sequence[Span]) -> float:
    """Share of the evidence characters that some retrieved span covers.

    ``span_recall([(0, 50)], [(40, 60)])`` -> 0.5
    """
    covered, _total, wanted = _covered(retrieved, evidence)
    return covered / wanted if wanted else 0.0


def span_precision(retrieved: Sequence[Span], evidence: Sequence[Span]) -> float:
    """Share of the retrieved characters, duplicates counted, that are evidence.

    ``span_precision([(0, 50), (0, 50)], [(40, 60)])`` -> 0.1
    """
    covered, total, _wanted = _covered(retrieved, evidence)
    return covered / total if total else 0.0


def span_iou(retrieved: Sequence[Span], evidence: Sequence[Span]) -> float:
    """covered / (Σ|r| + |∪E| − covered).

    ``span_iou([(0, 50)], [(40, 60)])`` -> 0.16666666666666666
    """
    covered, total, wanted = _covered(retrieved, evidence)
    denominator = total + wanted - covered
    return covered / denominator if denominator else 0.0
