"""A chunk over sections with different ACLs: all of the parts' any-of ACLs apply (COURSE.md,
lesson 4). Properties of the rule, and the SQL index against the Python search on mixed chunks."""

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chunklib.access import (
    access_complete,
    access_parts,
    authorized,
    combine_acls,
    readable,
    search,
    term_overlap,
)
from chunklib.course.fixture import load_sources
from chunklib.identity import access_snapshot_sha256, acl_snapshot_sha256
from chunklib.index import ChunkIndex
from chunklib.records import access_fields, from_dict, make_chunk, to_dict
from chunklib.structure import acl_window_chunks, structure_chunks, window_chunks
from chunklib.vectors import MiniLMEmbedder

GROUP_NAMES = ["employees", "sre", "oncall", "vp", "auditors"]
group_sets = st.lists(st.sampled_from(GROUP_NAMES), min_size=1, max_size=3, unique=True)
parts_lists = st.lists(group_sets, min_size=1, max_size=4)


def chunk(parts):
    acl, acl_parts = access_fields(parts)
    return {"acl": acl, "acl_parts": acl_parts}


@given(parts_lists)
def test_a_reader_in_every_parts_groups_reads_the_window(parts):
    union = set().union(*map(set, parts))
    assert readable(chunk(parts), union)
    # one group from each part is enough: any-of inside a part, all-of across parts
    assert readable(chunk(parts), {p[0] for p in parts})


@given(parts_lists, st.data())
def test_a_reader_without_one_parts_groups_is_refused(parts, data):
    missing = data.draw(st.sampled_from(parts))
    others = set().union(*map(set, parts)) - set(missing)
    assert not readable(chunk(parts), others)
    assert not readable(chunk(parts), set())


@given(parts_lists, st.sets(st.sampled_from(GROUP_NAMES)))
def test_the_rule_is_all_of_any_of_never_the_intersection(parts, groups):
    assert readable(chunk(parts), groups) == all(set(p) & groups for p in parts)
    if len(parts) > 1 and not set.intersection(*map(set, parts)):
        assert readable(chunk(parts), set().union(*map(set, parts)))  # intersection is empty


@given(parts_lists, st.sets(st.sampled_from(GROUP_NAMES)),
       st.sampled_from([None, ()]))
def test_a_missing_or_empty_part_makes_the_window_unreadable(parts, groups, bad):
    mixed = chunk([*parts, bad])
    assert not readable(mixed, groups) and not readable(mixed, GROUP_NAMES)
    assert not access_complete(mixed)


def test_one_part_is_the_lesson_5_acl():
    assert access_fields([["sre"], ("sre",)]) == (("sre",), None)
    assert access_parts({"acl": ["sre"]}) == (["sre"],)
    for acl in (None, (), ("sre",), ("employees", "sre")):
        for groups in ([], ["sre"], ["employees"], ["employees", "sre"]):
            assert readable({"acl": acl}, groups) == authorized(acl, groups)
    assert combine_acls([None, ["sre"], None]) == (None, ("sre",))
    with pytest.raises(ValueError, match="at least one"):
        combine_acls([])
    with pytest.raises(TypeError, match="single string"):
        readable({"acl": ["sre"]}, "sre")
    with pytest.raises(TypeError, match="ACL"):
        combine_acls(["sre"])


def test_snapshots_keep_one_part_entries_and_tell_parts_apart():
    assert access_snapshot_sha256([("sre",)]) == acl_snapshot_sha256(["sre"])
    two = access_snapshot_sha256([("employees",), ("sre",)])
    assert two == access_snapshot_sha256([("sre",), ("employees",)])
    assert two not in {acl_snapshot_sha256(["employees", "sre"]), acl_snapshot_sha256([])}


def test_records_hold_the_parts_and_refuse_inconsistent_ones():
    text = "# A\n\nab\n\n# B\n\ncd\n"
    common = dict(kind="window", heading_path=(), anchor_start=0, element_id="e", ordinal=0,
                  source_id="s", revision="r", tenant_id="t", strategy_version="v")
    record = make_chunk(text, 0, len(text), acl=None, acl_parts=[["sre"], ["employees"]],
                        **common)
    assert record.acl is None and record.acl_parts == (("employees",), ("sre",))
    assert from_dict(to_dict(record)) == record
    for bad in (dict(acl=("sre",)), dict(acl_parts=(("sre",),)),
                dict(acl_parts=(("sre",), ("employees",))), dict(acl_parts=(("sre",), ("sre",))),
                dict(acl_parts=(("sre", "oncall"), ("employees",)))):
        with pytest.raises(ValueError, match="acl"):
            dataclasses.replace(record, **bad)


# ---------------------------------------------------------------- the SQL index agrees
WINDOWS = [c for s in load_sources() for size, overlap in ((400, 100), (1000, 0))
           for c in window_chunks(s, size, overlap)]
CUT = [c for s in load_sources() for c in acl_window_chunks(s, 400, 100)]
RECORDS = WINDOWS + CUT + [c for s in load_sources() for c in structure_chunks(s)]
GROUP_CHOICES = [[], ["employees"], ["sre"], ["oncall"], ["employees", "sre"],
                 ["employees", "oncall"], ["employees", "sre", "oncall"]]
WORDS = ["production", "replica", "freeze", "approval", "sre", "the", "rollback", "drill",
         "fernhill", "canary", "zzz"]


EMBEDDER = MiniLMEmbedder()  # one for every build: a text outside the shipped store is encoded once


def build(records):
    index, embedder = ChunkIndex(), EMBEDDER
    generation = index.begin(None)
    with index.batch():
        for record in records:
            if access_complete(to_dict(record)):
                index.put(generation, dataclasses.replace(
                    record, embedding_model=embedder.model,
                    index_revision=index.index_revision), embedder.model,
                    embedder(record.retrieval_text))
            else:
                index.put(generation, record)
    index.finish(generation)
    index.publish(generation)
    return index


@pytest.fixture(scope="module")
def windows_index():
    unique = {c.chunk_id: c for c in RECORDS}  # the same window can come from two strategies
    return build(list(unique.values())), [to_dict(c) for c in unique.values()
                                           if access_complete(to_dict(c))]


def test_the_fixture_has_mixed_windows_to_compare():
    mixed = [c for c in WINDOWS if c.acl_parts]
    assert len(mixed) >= 10 and all(c.acl is None for c in mixed)
    assert not any(c.acl_parts for c in CUT)


@pytest.mark.parametrize("groups", GROUP_CHOICES)
@pytest.mark.parametrize("query", ["freeze approval", "production replica count sre", "the"])
def test_sql_index_is_the_python_search_on_mixed_windows(windows_index, groups, query):
    index, dicts = windows_index
    for tenant in ("kestrel", "fernhill"):
        for k in (1, 5, 400):
            assert index.search(query, tenant, groups, k) == search(dicts, query, tenant,
                                                                     groups, k)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(WORDS), min_size=1, max_size=4), st.sampled_from(GROUP_CHOICES),
       st.integers(1, 20))
def test_sql_and_python_agree_on_random_queries(windows_index, words, groups, k):
    index, dicts = windows_index
    query = " ".join(words)
    assert index.search(query, "kestrel", groups, k) == search(dicts, query, "kestrel",
                                                                groups, k)


@pytest.mark.parametrize("groups", GROUP_CHOICES)
def test_the_index_scores_exactly_the_readable_windows(windows_index, groups):
    index, dicts = windows_index
    seen = []

    def spy(query, chunk):
        seen.append(chunk["chunk_id"])
        return term_overlap(query, chunk)

    index.search("production", "kestrel", groups, 3, score=spy)
    assert sorted(seen) == sorted(d["chunk_id"] for d in dicts
                                  if d["tenant_id"] == "kestrel" and readable(d, groups))


@settings(max_examples=40, deadline=None)
@given(st.lists(st.one_of(st.none(), group_sets), min_size=1, max_size=3),
       st.sets(st.sampled_from(GROUP_NAMES)))
def test_one_random_chunk_sql_python_and_rule_agree(parts, groups):
    text = "replica count\n"
    acl, acl_parts = access_fields(parts)
    record = make_chunk(text, 0, len(text), kind="paragraph", heading_path=(), anchor_start=0,
                        element_id="e", ordinal=0, source_id="s", revision="r", tenant_id="t",
                        acl=acl, acl_parts=acl_parts, strategy_version="v")
    index = build([record])
    want = [(record.chunk_id, 2)] if readable(to_dict(record), groups) else []
    assert index.search("replica count", "t", groups, 5) == want
    assert search([to_dict(record)], "replica count", "t", groups, 5) == want
    if access_complete(to_dict(record)):
        entry = index.entries()[record.chunk_id]
        assert (entry["acl"], entry["acl_parts"]) == (record.acl, record.acl_parts)
    else:
        assert index.entries() == {}


def test_a_mixed_entry_that_lost_one_parts_rows_is_refused():
    mixed = next(c for c in WINDOWS if c.acl_parts)
    index, embedder = ChunkIndex(), MiniLMEmbedder()
    generation = index.begin(None)
    with index.batch():
        index.put(generation, dataclasses.replace(mixed, embedding_model=embedder.model,
                                                  index_revision=index.index_revision),
                  embedder.model, embedder(mixed.retrieval_text))
    index.finish(generation)
    index.db.execute("DELETE FROM entry_acl WHERE chunk_id = ? AND part = 1", (mixed.chunk_id,))
    with pytest.raises(ValueError, match="without an ACL"):
        index.publish(generation)
    index.db.execute("UPDATE pointer SET generation = ?", (generation,))  # forced
    everyone = ["employees", "sre", "oncall"]
    assert index.search(mixed.text[:60], mixed.tenant_id, everyone, 5) == []
    later = index.begin(None)
    with pytest.raises(ValueError, match="missing or empty ACL"), index.batch():
        index.put(later, dataclasses.replace(mixed, acl_parts=(None, ("sre",))),
                  embedder.model, (0.0,))
