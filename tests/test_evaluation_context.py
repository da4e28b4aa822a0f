"""Lesson 6 building blocks: span metrics, merging hits, packing context."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chunklib.context import merge_hits, pack_context
from chunklib.evaluation import evidence_complete, span_iou, span_precision, span_recall


def test_completeness_needs_one_chunk_to_hold_it_all():
    assert evidence_complete([(0, 100), (80, 180)], (90, 150))
    assert not evidence_complete([(0, 100), (100, 200)], (90, 150))  # split over two
    assert not evidence_complete([], (0, 1))


def test_metrics_count_duplicates_in_precision():
    r, e = [(0, 50), (0, 50)], [(40, 60)]
    assert span_recall(r, e) == 0.5
    assert span_precision(r, e) == 0.1
    assert span_iou(r, e) == pytest.approx(10 / 110)
    assert span_recall([], []) == span_precision([], []) == span_iou([], []) == 0.0


spans = st.lists(st.tuples(st.integers(0, 40), st.integers(0, 15)).map(
    lambda t: (t[0], t[0] + t[1])), max_size=6)


@given(spans, spans)
def test_metrics_are_fractions_and_agree_with_sets(r, e):
    for f in (span_recall, span_precision, span_iou):
        assert 0.0 <= f(r, e) <= 1.0
    se = {i for s, t in e for i in range(s, t)}
    sr = {i for s, t in r for i in range(s, t)}
    if se:
        assert span_recall(r, e) == pytest.approx(len(se & sr) / len(se))


def hit(cid, start, end, score, source="guide", revision=1, acl=("sre",)):
    return {"chunk_id": cid, "source_id": source, "revision": revision, "acl": list(acl),
            "start": start, "end": end, "score": score}


def test_merge_only_within_source_revision_and_acl():
    hits = [hit("b", 100, 180, 0.5), hit("a", 0, 100, 0.9), hit("c", 300, 400, 0.7),
            hit("d", 150, 250, 0.8, revision=2), hit("e", 170, 200, 0.6, acl=("employees",)),
            hit("f", 180, 220, 0.4)]
    merged = merge_hits(hits)
    spans = [(m["source_id"], m["revision"], m["start"], m["end"]) for m in merged]
    assert spans == [("guide", 1, 0, 220), ("guide", 1, 170, 200), ("guide", 1, 300, 400),
                     ("guide", 2, 150, 250)]
    assert [p["chunk_id"] for p in merged[0]["parts"]] == ["a", "b", "f"]
    assert merged[0]["score"] == 0.9
    assert merge_hits([]) == []


def test_pack_context_by_score_then_reading_order():
    hits = [hit("a", 0, 60, 0.5), hit("b", 100, 150, 0.9), hit("c", 200, 260, 0.9),
            hit("d", 300, 310, 0.1)]
    chosen = pack_context(hits, 120)
    assert [h["chunk_id"] for h in chosen] == ["b", "c", "d"]
    assert pack_context(hits, 0) == []
    with pytest.raises(ValueError, match="budget"):
        pack_context(hits, -1)
