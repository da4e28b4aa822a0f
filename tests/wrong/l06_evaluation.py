"""Realistic mistakes in lesson 6 (Retrieval evaluation), each confined to one function or
answer."""

WRONG = {
    "complete_by_coverage": ({"evidence_complete": '''
def evidence_complete(chunk_spans, evidence_span):
    # "complete" when the chunks together cover the evidence: that is recall 1.0, not one chunk
    start, end = evidence_span
    return union_length([(max(s, start), min(e, end)) for s, e in chunk_spans
                         if min(e, end) > max(s, start)]) == end - start
'''}, {"test_evidence_complete_examples", "test_evidence_complete_hidden"}),
    "recall_sums_evidence": ({"span_recall": '''
def span_recall(retrieved, evidence):
    # overlapping evidence spans counted twice in the denominator
    wanted = total_length(evidence)
    return intersection_length(evidence, retrieved) / wanted if wanted else 0.0
'''}, {"test_span_recall_hidden"}),
    "precision_ignores_duplicates": ({"span_precision": '''
def span_precision(retrieved, evidence):
    total = union_length(retrieved)  # each retrieved character once: hides the duplicates
    return intersection_length(evidence, retrieved) / total if total else 0.0
'''}, {"test_span_precision_examples", "test_span_precision_hidden"}),
    "iou_of_sets": ({"span_iou": '''
def span_iou(retrieved, evidence):
    covered = intersection_length(evidence, retrieved)
    both = union_length(list(retrieved) + list(evidence))
    return covered / both if both else 0.0
'''}, {"test_span_iou_examples", "test_span_iou_hidden"}),
    "precision_divides_by_zero": ({"span_precision": '''
def span_precision(retrieved, evidence):
    return intersection_length(evidence, retrieved) / total_length(retrieved)
'''}, {"test_span_precision_examples", "test_span_precision_hidden"}),
    "recall_int_zero": ({"span_recall": '''
def span_recall(retrieved, evidence):
    wanted = union_length(evidence)
    if wanted == 0:
        return 0
    return intersection_length(evidence, retrieved) / wanted
'''}, {"test_span_recall_examples", "test_span_recall_hidden"}),
    "recall_bug_stays_in_recall": ({"span_recall": '''
def span_recall(retrieved, evidence):
    total = union_length(retrieved)  # divides by the wrong side
    return intersection_length(evidence, retrieved) / total if total else 0.0
''', "span_iou": '''
def span_iou(retrieved, evidence):
    # correct, built on the other two: 1 / IoU = 1 / precision + 1 / recall - 1
    p, r = span_precision(retrieved, evidence), span_recall(retrieved, evidence)
    return 1 / (1 / p + 1 / r - 1) if p > 0 and r > 0 else 0.0
'''}, {"test_span_recall_examples", "test_span_recall_hidden"}),
    "merge_ignores_acl": ({"merge_hits": '''
def merge_hits(hits):
    groups = {}
    for hit in hits:  # text from one source and revision: merged, whoever may read it
        groups.setdefault((hit["source_id"], hit["revision"]), []).append(hit)
    merged = []
    for group in groups.values():
        current = None
        for hit in sorted(group, key=lambda h: (h["start"], h["end"])):
            if current is not None and hit["start"] <= current["end"]:
                current["end"] = max(current["end"], hit["end"])
                current["score"] = max(current["score"], hit["score"])
                current["parts"].append(hit)
            else:
                current = {"source_id": hit["source_id"], "revision": hit["revision"],
                           "acl": hit["acl"], "start": hit["start"], "end": hit["end"],
                           "score": hit["score"], "parts": [hit]}
                merged.append(current)
    return sorted(merged, key=lambda m: (m["source_id"], m["revision"], m["start"], m["end"]))
'''}, {"test_merge_hits_examples", "test_merge_hits_hidden"}),
    "merge_end_of_last_part": ({"merge_hits": '''
def merge_hits(hits):
    groups = {}
    for hit in hits:
        groups.setdefault((hit["source_id"], hit["revision"], hit["acl"]), []).append(hit)
    merged = []
    for group in groups.values():
        current = None
        for hit in sorted(group, key=lambda h: (h["start"], h["end"])):
            if current is not None and hit["start"] <= current["end"]:
                current["end"] = hit["end"]  # a hit inside the group shortens it
                current["score"] = max(current["score"], hit["score"])
                current["parts"].append(hit)
            else:
                current = {"source_id": hit["source_id"], "revision": hit["revision"],
                           "acl": hit["acl"], "start": hit["start"], "end": hit["end"],
                           "score": hit["score"], "parts": [hit]}
                merged.append(current)
    return sorted(merged, key=lambda m: (m["source_id"], m["revision"], m["start"], m["end"]))
'''}, {"test_merge_hits_hidden"}),
    "merge_in_rank_order": ({"merge_hits": '''
def merge_hits(hits):
    merged = []
    for hit in hits:  # in the order they came, never sorted by position
        for m in merged:
            if ((m["source_id"], m["revision"], m["acl"]) == (hit["source_id"], hit["revision"],
                                                              hit["acl"])
                    and hit["start"] <= m["end"] and m["start"] <= hit["end"]):
                m["start"], m["end"] = min(m["start"], hit["start"]), max(m["end"], hit["end"])
                m["score"] = max(m["score"], hit["score"])
                m["parts"].append(hit)
                break
        else:
            merged.append({"source_id": hit["source_id"], "revision": hit["revision"],
                           "acl": hit["acl"], "start": hit["start"], "end": hit["end"],
                           "score": hit["score"], "parts": [hit]})
    return sorted(merged, key=lambda m: (m["source_id"], m["revision"], m["start"], m["end"]))
'''}, {"test_merge_hits_hidden"}),
    "merge_lone_hit_unwrapped": ({"merge_hits": '''
def merge_hits(hits):
    groups = {}
    for hit in hits:
        groups.setdefault((hit["source_id"], hit["revision"], hit["acl"]), []).append(hit)
    merged = []
    for group in groups.values():
        current = None
        for hit in sorted(group, key=lambda h: (h["start"], h["end"])):
            if current is not None and hit["start"] <= current["end"]:
                current["end"] = max(current["end"], hit["end"])
                current["score"] = max(current["score"], hit["score"])
                current["parts"].append(hit)
            else:
                current = {"source_id": hit["source_id"], "revision": hit["revision"],
                           "acl": hit["acl"], "start": hit["start"], "end": hit["end"],
                           "score": hit["score"], "parts": [hit]}
                merged.append(current)
    out = [m if len(m["parts"]) > 1 else m["parts"][0] for m in merged]  # a lone hit as it came
    return sorted(out, key=lambda m: (m["source_id"], m["revision"], m["start"], m["end"]))
'''}, {"test_merge_hits_examples", "test_merge_hits_hidden"}),
    "merge_sorted_by_revision_first": ({"merge_hits": '''
def merge_hits(hits):
    groups = {}
    for hit in hits:
        groups.setdefault((hit["source_id"], hit["revision"], hit["acl"]), []).append(hit)
    merged = []
    for group in groups.values():
        current = None
        for hit in sorted(group, key=lambda h: (h["start"], h["end"])):
            if current is not None and hit["start"] <= current["end"]:
                current["end"] = max(current["end"], hit["end"])
                current["score"] = max(current["score"], hit["score"])
                current["parts"].append(hit)
            else:
                current = {"source_id": hit["source_id"], "revision": hit["revision"],
                           "acl": hit["acl"], "start": hit["start"], "end": hit["end"],
                           "score": hit["score"], "parts": [hit]}
                merged.append(current)
    # revision before source: every r1 group ahead of any r2 group
    return sorted(merged, key=lambda m: (m["revision"], m["source_id"], m["start"], m["end"]))
'''}, {"test_merge_hits_hidden"}),
    "merge_ties_longest_group_first": ({"merge_hits": '''
def merge_hits(hits):
    groups = {}
    for hit in hits:
        groups.setdefault((hit["source_id"], hit["revision"], hit["acl"]), []).append(hit)
    merged = []
    for group in groups.values():
        current = None
        for hit in sorted(group, key=lambda h: (h["start"], h["end"])):
            if current is not None and hit["start"] <= current["end"]:
                current["end"] = max(current["end"], hit["end"])
                current["score"] = max(current["score"], hit["score"])
                current["parts"].append(hit)
            else:
                current = {"source_id": hit["source_id"], "revision": hit["revision"],
                           "acl": hit["acl"], "start": hit["start"], "end": hit["end"],
                           "score": hit["score"], "parts": [hit]}
                merged.append(current)
    # of two groups with one start, the longer first
    return sorted(merged, key=lambda m: (m["source_id"], m["revision"], m["start"], -m["end"]))
'''}, {"test_merge_hits_hidden"}),
    "merge_parts_longest_first": ({"merge_hits": '''
def merge_hits(hits):
    groups = {}
    for hit in hits:
        groups.setdefault((hit["source_id"], hit["revision"], hit["acl"]), []).append(hit)
    merged = []
    for group in groups.values():
        current = None
        # parts of one start: the longer hit first
        for hit in sorted(group, key=lambda h: (h["start"], -h["end"])):
            if current is not None and hit["start"] <= current["end"]:
                current["end"] = max(current["end"], hit["end"])
                current["score"] = max(current["score"], hit["score"])
                current["parts"].append(hit)
            else:
                current = {"source_id": hit["source_id"], "revision": hit["revision"],
                           "acl": hit["acl"], "start": hit["start"], "end": hit["end"],
                           "score": hit["score"], "parts": [hit]}
                merged.append(current)
    return sorted(merged, key=lambda m: (m["source_id"], m["revision"], m["start"], m["end"]))
'''}, {"test_merge_hits_hidden"}),
    "pack_stops_at_first_misfit": ({"pack_context": '''
def pack_context(hits, budget):
    remaining, chosen = budget, []
    for hit in sorted(hits, key=lambda h: (-h["score"], h["start"])):
        if hit["end"] - hit["start"] > remaining:
            break  # gives up although a shorter hit further down might fit
        chosen.append(hit)
        remaining -= hit["end"] - hit["start"]
    return sorted(chosen, key=lambda h: (h["source_id"], h["revision"], h["start"], h["end"]))
'''}, {"test_pack_context_examples", "test_pack_context_hidden"}),
    "pack_in_score_order": ({"pack_context": '''
def pack_context(hits, budget):
    remaining, chosen = budget, []
    for hit in sorted(hits, key=lambda h: (-h["score"], h["start"])):
        if hit["end"] - hit["start"] <= remaining:
            chosen.append(hit)
            remaining -= hit["end"] - hit["start"]
    return chosen  # best first, not in reading order
'''}, {"test_pack_context_examples", "test_pack_context_hidden"}),
    "pack_ties_in_input_order": ({"pack_context": '''
def pack_context(hits, budget):
    remaining, chosen = budget, []
    for hit in sorted(hits, key=lambda h: -h["score"]):  # ties keep the input order
        if hit["end"] - hit["start"] <= remaining:
            chosen.append(hit)
            remaining -= hit["end"] - hit["start"]
    return sorted(chosen, key=lambda h: (h["source_id"], h["revision"], h["start"], h["end"]))
'''}, {"test_pack_context_hidden"}),
    "always_equal_object": ({"pack_context": '''
class _Anything(list):
    def __eq__(self, other):
        return True
def pack_context(hits, budget):
    return _Anything()
'''}, {"test_pack_context_examples", "test_pack_context_hidden"}),
    "hand_answers_off": ({"ex1_precision": "ex1_precision = 120 / 300",
                          "ex1_recall": "ex1_recall = 60",
                          "q3": 'q3 = "A"'},
                         {"test_ex1_precision", "test_ex1_recall", "test_q3"}),
}

# Correct work that writes to stderr: must keep every point.
NOISY_BUT_RIGHT = {"evidence_complete": '''
import sys, warnings
def evidence_complete(chunk_spans, evidence_span):
    warnings.warn("evidence_complete() was called")
    print("debug: checking completeness", file=sys.stderr)
    start, end = evidence_span
    return any(s <= start and end <= e for s, e in chunk_spans)
evidence_complete([(0, 10)], (2, 5))
'''}

# Correct work written another way than the reference (another algorithm, a result built
# in another order or container and then converted, the standard library instead of a
# given helper): each must keep every point (tests/test_grading_agreement.py).
VARIANTS = {
    "loop_with_early_return": {"evidence_complete": '''
def evidence_complete(chunk_spans, evidence_span):
    a, b = evidence_span
    for s, e in chunk_spans:
        if s <= a and b <= e:
            return True
    return False
'''},
    "sets_of_positions": {"span_recall": '''
def span_recall(retrieved, evidence):
    ev = {i for s, e in evidence for i in range(s, e)}
    got = {i for s, e in retrieved for i in range(s, e)}
    return len(ev & got) / len(ev) if ev else 0.0
'''},
    "own_sum_helper_intersection": {"span_precision": '''
def span_precision(retrieved, evidence):
    total = 0
    for s, e in retrieved:
        total += e - s
    return intersection_length(evidence, retrieved) / total if total > 0 else 0.0
'''},
    "helpers_in_one_expression": {"span_iou": '''
def span_iou(retrieved, evidence):
    c = intersection_length(retrieved, evidence)
    d = total_length(retrieved) + union_length(evidence) - c
    return 0.0 if d == 0 else c / d
'''},
    "one_sort_one_pass": {"merge_hits": '''
def merge_hits(hits):
    order = sorted(hits, key=lambda h: (h["source_id"], h["revision"], repr(h["acl"]),
                                        h["start"], h["end"]))
    groups = []
    for h in order:
        g = groups[-1] if groups else None
        same_group = g and all(g[key] == h[key] for key in ("source_id", "revision", "acl"))
        if same_group and h["start"] <= g["end"]:
            g["end"] = max(g["end"], h["end"])
            g["score"] = max(g["score"], h["score"])
            g["parts"].append(h)
        else:
            groups.append({"source_id": h["source_id"], "revision": h["revision"], "acl": h["acl"],
                           "start": h["start"], "end": h["end"], "score": h["score"], "parts": [h]})
    return sorted(groups, key=lambda g: (g["source_id"], g["revision"], g["start"], g["end"]))
'''},
    "sorted_copy_then_reading_order": {"pack_context": '''
def pack_context(hits, budget):
    left, chosen = budget, []
    for h in sorted(hits, key=lambda h: (-h["score"], h["start"])):
        if h["end"] - h["start"] <= left:
            left -= h["end"] - h["start"]
            chosen.append(h)
    chosen.sort(key=lambda h: (h["source_id"], h["revision"], h["start"], h["end"]))
    return chosen
'''},
    # the text says "lists of spans": a copy with spans[:] and list.sort() must keep its points
    "list_copy_then_sort": {"evidence_complete": '''
def evidence_complete(chunk_spans, evidence_span):
    spans = chunk_spans[:]
    spans.sort()
    start, end = evidence_span
    for s, e in spans:
        if s > start:
            break
        if end <= e:
            return True
    return False
''', "span_recall": '''
def span_recall(retrieved, evidence):
    def merged(spans):
        spans = spans[:]
        spans.sort()
        out = []
        for s, e in spans:
            if e <= s:
                continue
            if out and s <= out[-1][1]:
                out[-1][1] = max(out[-1][1], e)
            else:
                out.append([s, e])
        return out
    ev, got = merged(evidence), merged(retrieved)
    wanted = sum(e - s for s, e in ev)
    covered = sum(max(0, min(e, f) - max(s, r)) for s, e in ev for r, f in got)
    return covered / wanted if wanted else 0.0
''', "span_precision": '''
def span_precision(retrieved, evidence):
    ev = evidence[:]
    ev.sort()
    total = sum(e - s for s, e in retrieved)
    return intersection_length(ev, retrieved) / total if total else 0.0
''', "span_iou": '''
def span_iou(retrieved, evidence):
    ev = evidence[:]
    ev.sort()
    covered = intersection_length(ev, retrieved)
    d = total_length(retrieved) + union_length(ev) - covered
    return covered / d if d else 0.0
'''},
    # groups of equal (source, revision, start, end), best score first: the text fixes no order
    "ties_by_score": {"merge_hits": '''
def merge_hits(hits):
    groups = {}
    for hit in hits:
        groups.setdefault((hit["source_id"], hit["revision"], hit["acl"]), []).append(hit)
    merged = []
    for group in groups.values():
        current = None
        for hit in sorted(group, key=lambda h: (h["start"], h["end"])):
            if current is not None and hit["start"] <= current["end"]:
                current["end"] = max(current["end"], hit["end"])
                current["score"] = max(current["score"], hit["score"])
                current["parts"].append(hit)
            else:
                current = {"source_id": hit["source_id"], "revision": hit["revision"],
                           "acl": hit["acl"], "start": hit["start"], "end": hit["end"],
                           "score": hit["score"], "parts": [hit]}
                merged.append(current)
    return sorted(merged, key=lambda m: (m["source_id"], m["revision"], m["start"], m["end"],
                                         -m["score"]))
'''},
}
