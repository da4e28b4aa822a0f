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


def test_merge_output_has_exactly_the_seven_keys_even_for_a_lone_hit():
    lone = hit("z", 10, 20, 3)
    assert merge_hits([lone]) == [{"source_id": "guide", "revision": 1, "acl": ["sre"],
                                   "start": 10, "end": 20, "score": 3, "parts": [lone]}]
    for m in merge_hits([hit("a", 0, 10, 1), hit("b", 10, 20, 2), lone]):
        assert set(m) == {"source_id", "revision", "acl", "start", "end", "score", "parts"}


def test_merge_touching_containment_unsorted_and_acl_as_a_set():
    merged = merge_hits([hit("c", 150, 160, 3), hit("a", 0, 200, 1), hit("b", 50, 100, 2),
                         hit("d", 200, 210, 1, acl=("sre", "oncall")),
                         hit("e", 205, 230, 1, acl=("oncall", "sre"))])
    # a touches d but their ACLs differ; d and e have the same groups in another order
    assert [(m["start"], m["end"]) for m in merged] == [(0, 200), (200, 230)]
    assert [p["chunk_id"] for p in merged[0]["parts"]] == ["a", "b", "c"]
    assert [p["chunk_id"] for p in merged[1]["parts"]] == ["d", "e"]
    assert merged[0]["score"] == 3  # the highest, not the sum


def test_pack_context_skips_and_keeps_going_ties_by_start_reading_order():
    hits = [hit("big", 0, 300, 9), hit("b", 500, 600, 5), hit("a", 400, 500, 5),
            hit("faq", 0, 50, 4, source="faq"), hit("old", 60, 100, 4, revision=0)]
    assert [h["chunk_id"] for h in pack_context(hits, 290)] == ["faq", "old", "a", "b"]
    assert [h["chunk_id"] for h in pack_context(hits, 100)] == ["a"]  # tie: lower start
    assert [h["chunk_id"] for h in pack_context(hits, 300)] == ["big"]
    assert pack_context([], 10) == []


def test_part1_examples_of_lesson_6():
    from chunklib.course import evaluation as ce
    assert not evidence_complete(ce.PREDICT_CHUNKS, ce.PREDICT_EVIDENCE)
    assert span_recall(ce.PREDICT_CHUNKS, [ce.PREDICT_EVIDENCE]) == 1.0
    r, e = ce.EX1_RETRIEVED, ce.EX1_EVIDENCE
    assert (span_recall(r, e), span_precision(r, e), span_iou(r, e)) == (0.6, 0.3, 0.25)
    merged = merge_hits(ce.EX2_HITS)
    assert [[p["chunk_id"] for p in m["parts"]] for m in merged] == [["e"], ["a", "b", "c"],
                                                                      ["d"], ["f"]]
    assert [h["chunk_id"] for h in pack_context(ce.EX2_HITS, ce.EX2_BUDGET)] == ["a", "c", "d"]


hits_strategy = st.lists(
    st.tuples(st.integers(0, 30), st.integers(0, 8), st.integers(1, 5), st.sampled_from("ab"),
              st.sampled_from([("x",), ("y",)])),
    max_size=8)


@given(hits_strategy)
def test_merge_partitions_the_hits_into_separate_groups(raw):
    hits = [hit(f"h{i}", s, s + n, score, source=src, acl=acl)
            for i, (s, n, score, src, acl) in enumerate(raw)]
    merged = merge_hits(hits)
    parts = [p["chunk_id"] for m in merged for p in m["parts"]]
    assert sorted(parts) == sorted(h["chunk_id"] for h in hits)
    for m in merged:
        assert m["start"] == min(p["start"] for p in m["parts"])
        assert m["end"] == max(p["end"] for p in m["parts"])
        assert m["score"] == max(p["score"] for p in m["parts"])
        assert all((p["source_id"], tuple(p["acl"])) == (m["source_id"], tuple(m["acl"]))
                   for p in m["parts"])
    for a in merged:  # groups of one key neither overlap nor touch
        for b in merged:
            if a is not b and (a["source_id"], a["acl"]) == (b["source_id"], b["acl"]):
                assert a["end"] < b["start"] or b["end"] < a["start"]
    keys = [(m["source_id"], m["revision"], m["start"], m["end"]) for m in merged]
    assert keys == sorted(keys)


@given(hits_strategy, st.integers(0, 40))
def test_pack_never_exceeds_the_budget_and_is_in_reading_order(raw, budget):
    hits = [hit(f"h{i}", s, s + n, score, source=src)
            for i, (s, n, score, src, _acl) in enumerate(raw)]
    chosen = pack_context(hits, budget)
    assert sum(h["end"] - h["start"] for h in chosen) <= budget
    keys = [(h["source_id"], h["revision"], h["start"], h["end"]) for h in chosen]
    assert keys == sorted(keys)
    left = budget - sum(h["end"] - h["start"] for h in chosen)
    assert all(h["end"] - h["start"] > left for h in hits if h not in chosen)
