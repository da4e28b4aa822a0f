"""Realistic mistakes in lesson 5 (Identity, permissions and lifecycle), each in one function or
answer. Several keep the visible examples green and are caught only by the hidden tests: the
results look right while the contract (filter before scoring, fail-closed) is broken."""

_TERMS = '''
import re
def _terms(text):
    return set(re.findall(r"\\w+", text.lower()))
'''

WRONG = {
    # scores every chunk, then filters: same results, but unauthorized text reached the scorer
    "score_then_filter": ({"search": _TERMS + '''
def search(chunks, query, tenant_id, groups, k, score=None):
    if score is None:
        score = lambda q, c: len(_terms(q) & _terms(c["retrieval_text"]))
    scored = [(c, score(query, c)) for c in chunks]  # everything is scored first
    hits = [(c["chunk_id"], s) for c, s in scored
            if s != 0 and c["tenant_id"] == tenant_id and authorized(c["acl"], groups)]
    hits.sort(key=lambda h: (-h[1], h[0]))
    return hits[:k]
'''}, {"test_search_hidden"}),
    # a chunk whose ACL is missing is treated as public
    "missing_acl_kept": ({"search": _TERMS + '''
def search(chunks, query, tenant_id, groups, k, score=None):
    if score is None:
        score = lambda q, c: len(_terms(q) & _terms(c["retrieval_text"]))
    hits = []
    for c in chunks:
        if c["tenant_id"] != tenant_id:
            continue
        if c["acl"] is not None and not authorized(c["acl"], groups):
            continue  # "no ACL means nobody restricted it"
        s = score(query, c)
        if s != 0:
            hits.append((c["chunk_id"], s))
    hits.sort(key=lambda h: (-h[1], h[0]))
    return hits[:k]
'''}, {"test_search_examples", "test_search_hidden"}),
    # substring matching: "count" is found in "counts"
    "substring_terms": ({"search": '''
import re
def search(chunks, query, tenant_id, groups, k, score=None):
    if score is None:
        score = lambda q, c: sum(t in c["retrieval_text"].lower()
                                 for t in set(re.findall(r"\\w+", q.lower())))
    hits = []
    for c in chunks:
        if c["tenant_id"] == tenant_id and authorized(c["acl"], groups):
            s = score(query, c)
            if s != 0:
                hits.append((c["chunk_id"], s))
    hits.sort(key=lambda h: (-h[1], h[0]))
    return hits[:k]
'''}, {"test_search_hidden"}),
    # keeps only positive scores: a negative one (a cosine can be negative) is dropped too
    "negative_scores_dropped": ({"search": _TERMS + '''
def search(chunks, query, tenant_id, groups, k, score=None):
    if score is None:
        score = lambda q, c: len(_terms(q) & _terms(c["retrieval_text"]))
    hits = []
    for c in chunks:
        if c["tenant_id"] == tenant_id and authorized(c["acl"], groups):
            s = score(query, c)
            if s > 0:
                hits.append((c["chunk_id"], s))
    hits.sort(key=lambda h: (-h[1], h[0]))
    return hits[:k]
'''}, {"test_search_examples", "test_search_hidden"}),
    # ties keep the input order instead of chunk_id order
    "no_tie_break": ({"search": _TERMS + '''
def search(chunks, query, tenant_id, groups, k, score=None):
    if score is None:
        score = lambda q, c: len(_terms(q) & _terms(c["retrieval_text"]))
    hits = []
    for c in chunks:
        if c["tenant_id"] == tenant_id and authorized(c["acl"], groups):
            s = score(query, c)
            if s != 0:
                hits.append((c["chunk_id"], s))
    hits.sort(key=lambda h: -h[1])
    return hits[:k]
'''}, {"test_search_hidden"}),
    # the seed's formula read as string concatenation
    "concatenated_fields": ({"index_entry_id": '''
import hashlib
def index_entry_id(chunk_id, retrieval_sha256, index_revision, acl_snapshot_sha256):
    joined = chunk_id + retrieval_sha256 + str(index_revision) + acl_snapshot_sha256
    return hashlib.sha256(joined.encode("utf-8")).hexdigest()
'''}, {"test_index_entry_id_examples", "test_index_entry_id_hidden"}),
    # "the tenant is in the ACL anyway"
    "tenant_left_out": ({"chunk_id": '''
def chunk_id(source_id, strategy_version, element_id, start, end, content_sha256, tenant_id):
    return H([source_id, strategy_version, element_id, start, end, content_sha256])
'''}, {"test_chunk_id_examples", "test_chunk_id_hidden"}),
    # the span as one tuple field: str((0, 20)) is not "0\x1f20"
    "span_as_tuple": ({"chunk_id": '''
def chunk_id(source_id, strategy_version, element_id, start, end, content_sha256, tenant_id):
    return H([source_id, strategy_version, element_id, (start, end), content_sha256, tenant_id])
'''}, {"test_chunk_id_examples", "test_chunk_id_hidden"}),
    # returns the shared groups (truthy) instead of a bool
    "set_not_bool": ({"authorized": '''
def authorized(chunk_acl, subject_groups):
    if not chunk_acl:
        return False
    return set(chunk_acl) & set(subject_groups)
'''}, {"test_authorized_examples", "test_authorized_hidden"}),
    # an empty list is treated like "no restriction"
    "empty_acl_open": ({"authorized": '''
def authorized(chunk_acl, subject_groups):
    if chunk_acl is None:
        return False
    if len(chunk_acl) == 0:
        return True
    return bool(set(chunk_acl) & set(subject_groups))
'''}, {"test_authorized_examples", "test_authorized_hidden"}),
    # ACL changes ignored: a permission change keeps the old index entry
    "acl_ignored": ({"plan_update": '''
def plan_update(old_chunks, new_chunks):
    old = {c["chunk_id"]: c for c in old_chunks}
    new = {c["chunk_id"]: c for c in new_chunks}
    plan = {"keep": [], "reembed": [], "reindex": [], "add": [], "tombstone": []}
    for cid, c in new.items():
        if cid not in old:
            plan["add"].append(cid)
        elif old[cid]["retrieval_sha256"] != c["retrieval_sha256"]:
            plan["reembed"].append(cid)
        else:
            plan["keep"].append(cid)
    plan["tombstone"] = [cid for cid in old if cid not in new]
    return {a: sorted(ids) for a, ids in plan.items()}
'''}, {"test_plan_update_examples", "test_plan_update_hidden"}),
    # checks the ACL before the hash: a chunk whose text and ACL both changed keeps its vector
    "acl_before_hash": ({"plan_update": '''
def plan_update(old_chunks, new_chunks):
    old = {c["chunk_id"]: c for c in old_chunks}
    new = {c["chunk_id"]: c for c in new_chunks}
    plan = {"keep": [], "reembed": [], "reindex": [], "add": [], "tombstone": []}
    for cid, c in new.items():
        if cid not in old:
            plan["add"].append(cid)
        elif old[cid]["acl"] != c["acl"]:
            plan["reindex"].append(cid)
        elif old[cid]["retrieval_sha256"] != c["retrieval_sha256"]:
            plan["reembed"].append(cid)
        else:
            plan["keep"].append(cid)
    plan["tombstone"] = [cid for cid in old if cid not in new]
    return {a: sorted(ids) for a, ids in plan.items()}
'''}, {"test_plan_update_examples", "test_plan_update_hidden"}),
    # ids in the order they were met, not sorted
    "unsorted_ids": ({"plan_update": '''
def plan_update(old_chunks, new_chunks):
    old = {c["chunk_id"]: c for c in old_chunks}
    new = {c["chunk_id"]: c for c in new_chunks}
    plan = {"keep": [], "reembed": [], "reindex": [], "add": [], "tombstone": []}
    for cid, c in new.items():
        if cid not in old:
            plan["add"].append(cid)
        elif old[cid]["retrieval_sha256"] != c["retrieval_sha256"]:
            plan["reembed"].append(cid)
        elif old[cid]["acl"] != c["acl"]:
            plan["reindex"].append(cid)
        else:
            plan["keep"].append(cid)
    plan["tombstone"] = [cid for cid in old if cid not in new]
    return plan
'''}, {"test_plan_update_hidden"}),
    "always_equal_object": ({"index_entry_id": '''
class _Anything(str):
    def __eq__(self, other):
        return True
    __hash__ = str.__hash__
def index_entry_id(chunk_id, retrieval_sha256, index_revision, acl_snapshot_sha256):
    return _Anything("0" * 64)
'''}, {"test_index_entry_id_examples", "test_index_entry_id_hidden"}),
    "hand_answers_off": ({"ordinal_moved": "ordinal_moved = 10", "rel_span": "rel_span = "
                          "(11472, 12168)", "q3": 'q3 = "C"'},
                         {"test_ordinal_moved", "test_rel_span", "test_q3"}),
}

# Correct work that writes to stderr: must keep every point.
NOISY_BUT_RIGHT = {"authorized": '''
import sys, warnings
def authorized(chunk_acl, subject_groups):
    warnings.warn("authorized() was called")
    print("debug: checking an ACL", file=sys.stderr)
    if not chunk_acl or not subject_groups:
        return False
    return not set(chunk_acl).isdisjoint(subject_groups)
authorized(["sre"], ["sre"])
'''}

# Correct work written another way than the reference (another algorithm, a result built
# in another order or container and then converted, the standard library instead of a
# given helper): each must keep every point (tests/test_grading_agreement.py).
VARIANTS = {
    "hashlib_directly": {"chunk_id": '''
import hashlib


def chunk_id(source_id, strategy_version, element_id, start, end, content_sha256, tenant_id):
    fields = [source_id, strategy_version, element_id, start, end, content_sha256, tenant_id]
    return hashlib.sha256("\\x1f".join(map(str, fields)).encode("utf-8")).hexdigest()
'''},
    "H_of_a_tuple": {"index_entry_id": '''
def index_entry_id(chunk_id, retrieval_sha256, index_revision, acl_snapshot_sha256):
    return H((chunk_id, retrieval_sha256, index_revision, acl_snapshot_sha256))
'''},
    "any_over_the_groups": {"authorized": '''
def authorized(chunk_acl, subject_groups):
    return chunk_acl is not None and any(g in chunk_acl for g in subject_groups)
'''},
    "heapq_nsmallest": {"search": '''
import heapq
import re


def _terms(text):
    return set(re.findall(r"\\w+", text.lower()))


def _overlap(query, chunk):
    return len(_terms(query) & _terms(chunk["retrieval_text"]))


def search(chunks, query, tenant_id, groups, k, score=None):
    score = score or _overlap
    hits = []
    for c in chunks:
        if c["tenant_id"] == tenant_id and authorized(c["acl"], groups):
            s = score(query, c)
            if s:
                hits.append((c["chunk_id"], s))
    return heapq.nsmallest(k, hits, key=lambda h: (-h[1], h[0]))
'''},
    "set_algebra_on_ids": {"plan_update": '''
def plan_update(old_chunks, new_chunks):
    old = {c["chunk_id"]: c for c in old_chunks}
    new = {c["chunk_id"]: c for c in new_chunks}
    both = old.keys() & new.keys()
    return {
        "keep": sorted(i for i in both if old[i]["retrieval_sha256"] == new[i]["retrieval_sha256"]
                       and old[i]["acl"] == new[i]["acl"]),
        "reembed": sorted(i for i in both
                          if old[i]["retrieval_sha256"] != new[i]["retrieval_sha256"]),
        "reindex": sorted(i for i in both
                          if old[i]["retrieval_sha256"] == new[i]["retrieval_sha256"]
                          and old[i]["acl"] != new[i]["acl"]),
        "add": sorted(new.keys() - old.keys()),
        "tombstone": sorted(old.keys() - new.keys()),
    }
'''},
}
