"""Lesson 5 building blocks: ids, fail-closed access control, update plans."""

import dataclasses
import hashlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chunklib.access import authorized, search, term_overlap
from chunklib.course.fixture import load_source, load_sources
from chunklib.identity import (
    H,
    acl_snapshot_sha256,
    chunk_id,
    element_id,
    index_entry_id,
    sha256_hex,
)
from chunklib.lifecycle import insert_paragraph, plan_update, rename_heading
from chunklib.structure import structure_chunks


def test_h_is_the_course_definition():
    assert H(["a", 1, None]) == hashlib.sha256(b"a\x1f1\x1fNone").hexdigest()
    assert H(["ab", "c"]) != H(["a", "bc"])
    with pytest.raises(TypeError, match="fields"):
        H("abc")
    with pytest.raises(ValueError, match=r"fields\[1\]"):
        H(["a", "b\x1fc"])  # would hash like ["a", "b", "c"]


@given(st.lists(st.text(), min_size=1, max_size=4), st.lists(st.text(), min_size=1, max_size=4))
def test_h_never_hashes_two_field_lists_alike(a, b):
    try:
        ha, hb = H(a), H(b)
    except ValueError:  # a field holding the separator is refused
        assert any("\x1f" in f for f in a + b)
        return
    assert (ha == hb) == (a == b)


def test_id_functions_check_their_fields_types():
    with pytest.raises(TypeError, match="tenant_id"):
        chunk_id("guide", "v1", "e1", 0, 10, "c", None)
    with pytest.raises(TypeError, match="index_revision"):
        index_entry_id("c", "r", 1.5, "a")
    with pytest.raises(TypeError, match="chunk_id"):
        index_entry_id(7, "r", 1, "a")


def test_sha256_hex():
    assert sha256_hex("") == hashlib.sha256(b"").hexdigest()
    assert sha256_hex("café") == hashlib.sha256("café".encode()).hexdigest()


def test_chunk_id_binds_each_field():
    base = ["guide", "v1", element_id("paragraph", "Restart the pods."), 0, 17, "c", "acme"]
    ids = {chunk_id(*base)}
    for i, other in enumerate(["faq", "v2", element_id("paragraph", "x"), 1, 18, "d", "beta"]):
        changed = list(base)
        changed[i] = other
        ids.add(chunk_id(*changed))
    assert len(ids) == 8
    assert element_id("paragraph", "same", 0) != element_id("paragraph", "same", 1)
    with pytest.raises(ValueError, match="end"):
        chunk_id("s", "v", "e", 5, 4, "c", "t")


def test_index_entry_binds_all_four():
    base = ["chunk", "retrieval", 3, acl_snapshot_sha256(["sre"])]
    variants = {index_entry_id(*base)}
    for i, other in enumerate(["chunk2", "retrieval2", 4, acl_snapshot_sha256(["ops"])]):
        changed = list(base)
        changed[i] = other
        variants.add(index_entry_id(*changed))
    assert len(variants) == 5
    assert acl_snapshot_sha256(["b", "a", "a"]) == acl_snapshot_sha256(["a", "b"])
    assert acl_snapshot_sha256(None) != acl_snapshot_sha256([])


@pytest.mark.parametrize("acl, groups, want", [
    (["sre"], ["sre"], True), (["sre", "ops"], {"ops"}, True), (["sre"], ["employees"], False),
    (None, ["sre"], False), ([], ["sre"], False), (["sre"], [], False), (["sre"], None, False),
])
def test_authorized_fails_closed(acl, groups, want):
    assert authorized(acl, groups) is want


CHUNKS = [
    {"chunk_id": "prod", "tenant_id": "acme", "acl": ["sre"],
     "retrieval_text": "Environment Matrix production replica count 4 approval SRE"},
    {"chunk_id": "stage", "tenant_id": "acme", "acl": ["employees", "sre"],
     "retrieval_text": "Environment Matrix staging replica count 2"},
    {"chunk_id": "noacl", "tenant_id": "acme", "acl": None,
     "retrieval_text": "production replica count secret"},
    {"chunk_id": "other", "tenant_id": "beta", "acl": ["employees"],
     "retrieval_text": "production replica count"},
]


def test_employee_query_for_the_production_row_returns_nothing_of_it():
    seen = []

    def spy(query, chunk):
        seen.append(chunk["chunk_id"])
        return term_overlap(query, chunk)

    got = search(CHUNKS, "production replica count", "acme", ["employees"], 5, score=spy)
    assert got == [("stage", 2)]
    assert seen == ["stage"], "only authorized chunks of the tenant may be scored"
    assert search(CHUNKS, "production replica count", "acme", ["sre"], 5) == [
        ("prod", 3), ("stage", 2)]
    assert search(CHUNKS, "nothing matches", "acme", ["sre"], 5) == []
    assert search(CHUNKS, "production", "acme", ["sre"], 0) == []


def test_search_ties_break_by_chunk_id_and_bad_k():
    chunks = [{"chunk_id": c, "tenant_id": "t", "acl": ["g"], "retrieval_text": "x"}
              for c in "cab"]
    assert search(chunks, "x", "t", ["g"], 2) == [("a", 1), ("b", 1)]
    with pytest.raises(ValueError, match="k"):
        search(chunks, "x", "t", ["g"], -1)


def test_search_drops_only_zero_scores():
    # a negative score (a cosine can be one) is still a hit, ranked below the positive ones
    chunks = [{"chunk_id": c, "tenant_id": "t", "acl": ["g"], "retrieval_text": "x"}
              for c in "abcd"]
    scores = {"a": -0.5, "b": 0, "c": 0.25, "d": -2}
    assert search(chunks, "x", "t", ["g"], 5, score=lambda q, c: scores[c["chunk_id"]]) == [
        ("c", 0.25), ("a", -0.5), ("d", -2)]


def _c(cid, rh="r", acl=("g",)):
    return {"chunk_id": cid, "retrieval_sha256": rh, "acl": list(acl) if acl else acl}


def test_plan_update_each_action():
    old = [_c("keep"), _c("emb"), _c("idx"), _c("gone"), _c("both")]
    new = [_c("keep"), _c("emb", "r2"), _c("idx", acl=("h",)), _c("new"),
           _c("both", "r2", ("h",))]
    assert plan_update(old, new) == {"keep": ["keep"], "reembed": ["both", "emb"],
                                     "reindex": ["idx"], "add": ["new"], "tombstone": ["gone"]}
    assert plan_update([], []) == {a: [] for a in ("keep", "reembed", "reindex", "add",
                                                  "tombstone")}
    with pytest.raises(ValueError, match="twice"):
        plan_update([_c("a"), _c("a")], [])


@given(st.lists(st.sampled_from("abcdef"), unique=True),
       st.lists(st.sampled_from("abcdef"), unique=True))
def test_plan_update_partitions_the_ids(old_ids, new_ids):
    plan = plan_update([_c(i) for i in old_ids], [_c(i) for i in new_ids])
    assert sorted(plan["add"] + plan["keep"]) == sorted(new_ids)
    assert sorted(plan["keep"] + plan["tombstone"]) == sorted(old_ids)


# ---------------------------------------------------------------- ids on the course fixture
GUIDE = load_source("deployment-guide")
MATRIX = ("Deployment Guide", "Environment Matrix")
HEADER = "| Environment | Replica count | Approval |"


def _entry(chunk, index_revision="idx-1"):
    return index_entry_id(chunk.chunk_id, chunk.retrieval_sha256, index_revision,
                          acl_snapshot_sha256(chunk.acl))


def _renamed():
    return rename_heading(GUIDE, MATRIX, "Environments")


def _new_header():
    return dataclasses.replace(GUIDE, text=GUIDE.text.replace(HEADER, "| Env | Replicas | "
                                                              "Approval |"))


@pytest.mark.parametrize("edit, changed", [
    (_renamed, lambda c: c.heading_path[:2] == MATRIX),
    (_new_header, lambda c: c.kind == "table"),
])
def test_heading_and_table_header_changes_keep_chunk_ids_but_not_index_entries(edit, changed):
    old, new = structure_chunks(GUIDE), structure_chunks(edit())
    assert [c.chunk_id for c in new] == [c.chunk_id for c in old]
    hit = [i for i, c in enumerate(old) if changed(c)]
    assert hit, "the edit touches some chunk"
    for i, (a, b) in enumerate(zip(old, new, strict=True)):
        assert a.content_sha256 == b.content_sha256
        if i in hit:
            assert a.retrieval_sha256 != b.retrieval_sha256 and _entry(a) != _entry(b)
        else:
            assert a.retrieval_sha256 == b.retrieval_sha256 and _entry(a) == _entry(b)


def test_the_index_entry_binds_revision_and_acl_of_a_real_chunk():
    row = next(c for c in structure_chunks(GUIDE) if c.text == "production | 4 | SRE")
    opened = dataclasses.replace(row, acl=("employees", "sre"))
    assert len({_entry(row), _entry(row, "idx-2"), _entry(opened)}) == 3
    assert opened.chunk_id == row.chunk_id


def test_an_unrelated_source_first_changes_no_id_and_ordinals_are_not_identity():
    other = dataclasses.replace(GUIDE, source_id="onboarding", text="# Onboarding\n\nHi.\n",
                                section_acls=())
    before = [c.chunk_id for s in load_sources() for c in structure_chunks(s)]
    after = [c.chunk_id for s in [other, *load_sources()] for c in structure_chunks(s)]
    assert after[1:] == before
    longer = insert_paragraph(GUIDE, ("Deployment Guide", "Overview"), "A note. " * 120)
    old, new = structure_chunks(GUIDE), structure_chunks(longer)
    assert [c.chunk_id for c in new if c.chunk_id != new[1].chunk_id] == [c.chunk_id for c in old]
    assert [(c.chunk_id, c.ordinal) for c in new[2:]] == [(c.chunk_id, c.ordinal + 1)
                                                          for c in old[1:]]
    # ids made of source_id + ordinal would move for every chunk after the insertion
    ordinal_id = {c.chunk_id: H([c.source_id, c.ordinal]) for c in new}
    moved = [c for c in old if ordinal_id[c.chunk_id] != H([c.source_id, c.ordinal])]
    assert len(moved) == len(old) - 1 == 43


def test_plan_update_compares_acls_as_sets_and_missing_differs_from_empty():
    assert plan_update([_c("a", acl=("x", "y"))], [_c("a", acl=("y", "x"))])["keep"] == ["a"]
    assert plan_update([_c("a", acl=None)], [_c("a", acl=("g",))])["reindex"] == ["a"]
    old = [{"chunk_id": "a", "retrieval_sha256": "r", "acl": None}]
    new = [{"chunk_id": "a", "retrieval_sha256": "r", "acl": []}]
    assert plan_update(old, new)["reindex"] == ["a"]
