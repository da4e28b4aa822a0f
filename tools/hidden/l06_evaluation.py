"""Lesson 6 (Evaluation): reference versions of the span measures for hidden tests.

Leaves out: merge_hits and pack_context (no exercise builds on them).
"""


def _r_union(spans):
    out = []
    for s, e in sorted(x for x in spans if x[1] > x[0]):
        if out and s <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], e))
        else:
            out.append((s, e))
    return out


def _r_covered(retrieved, evidence):
    return sum(max(0, min(e, f) - max(s, r))
               for s, e in _r_union(evidence) for r, f in _r_union(retrieved))


def _r_recall(retrieved, evidence):
    wanted = sum(e - s for s, e in _r_union(evidence))
    return _r_covered(retrieved, evidence) / wanted if wanted else 0.0


def _r_precision(retrieved, evidence):
    total = sum(e - s for s, e in retrieved)
    return _r_covered(retrieved, evidence) / total if total else 0.0


def _r_iou(retrieved, evidence):
    c = _r_covered(retrieved, evidence)
    d = sum(e - s for s, e in retrieved) + sum(e - s for s, e in _r_union(evidence)) - c
    return c / d if d else 0.0


def _r_complete(chunk_spans, evidence_span):
    return any(s <= evidence_span[0] and evidence_span[1] <= e for s, e in chunk_spans)


_REFS = {"evidence_complete": _r_complete, "span_recall": _r_recall,
         "span_precision": _r_precision, "span_iou": _r_iou}
