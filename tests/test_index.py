"""The lesson-5 SQLite index: fail-closed search, shadow builds, the pointer, crashes, deletion."""

import dataclasses
import json
import subprocess
import sys
import textwrap
import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chunklib.access import authorized, search, term_overlap
from chunklib.course.edits import NOTE, unrelated_source
from chunklib.course.fixture import load_source, load_sources
from chunklib.course.lifecycle import RENAMED
from chunklib.embedding import MODEL_NAME
from chunklib.identity import acl_snapshot_sha256, index_entry_id
from chunklib.index import INDEX_REVISION, ChunkIndex, heading_key
from chunklib.lifecycle import (
    insert_paragraph,
    rename_heading,
    set_section_acl,
    update,
    validate_revision,
)
from chunklib.records import to_dict
from chunklib.structure import structure_chunks
from chunklib.vectors import MiniLMEmbedder, shipped_store

MATRIX = ("Deployment Guide", "Environment Matrix")
GUIDE = load_source("deployment-guide")
ALL = [c for s in load_sources() for c in structure_chunks(s)]
ACCEPTED = [to_dict(c) for c in ALL if c.acl]
MARCH = next(c for c in ALL if c.heading_path[-1] == "Notes from the March drill")
ROW = next(c for c in ALL if c.text == "production | 4 | SRE")
GROUPS = [["employees"], ["sre"], ["oncall"], ["employees", "sre"], [], ["nobody"]]
WORDS = ["production", "replica", "count", "sre", "staging", "rollback", "the", "4", "march",
         "drill", "fernhill", "approval", "canary", "secret", "zzz"]


def fresh():
    index, embedder = ChunkIndex(), MiniLMEmbedder()
    report = update(index, load_sources(), embedder)
    return index, embedder, report


@pytest.fixture(scope="module")
def published():
    return fresh()


def test_first_publish_holds_every_chunk_but_indexes_only_those_with_an_acl(published):
    index, embedder, report = published
    assert index.published() == 1 == report.generation and report.published
    assert len(index.chunks()) == len(ALL) == 60
    assert set(index.entries()) == {c["chunk_id"] for c in ACCEPTED} and report.entries == 59
    assert report.refused == [MARCH.chunk_id] and MARCH.chunk_id not in index.entries()
    assert embedder.calls == report.embedded == 59 and embedder.computed == 0  # the store
    assert report.plan["add"] == sorted(c["chunk_id"] for c in ACCEPTED)
    assert str(report) == (
        "generation 1 published: 59 index entries; keep 0, reembed 0, reindex 0, add 59, "
        "tombstone 0; embedded 59 of 59 chunks; refused for a missing or empty ACL: 1")
    one = dataclasses.replace(report, entries=1, embedded=1)
    assert "1 index entry;" in str(one) and "embedded 1 of 1 chunk;" in str(one)


def test_entries_bind_the_course_index_entry_id(published):
    index = published[0]
    for cid, entry in index.entries().items():
        record = next(c for c in ALL if c.chunk_id == cid)
        assert entry["acl"] == record.acl
        assert entry["index_entry_id"] == index_entry_id(
            cid, record.retrieval_sha256, index.index_revision, acl_snapshot_sha256(record.acl))
        assert entry["vector_key"] == (MODEL_NAME, record.retrieval_sha256)
        assert index.vector(*entry["vector_key"]) == tuple(
            shipped_store()[record.retrieval_sha256].tolist())  # float32, stored exactly


def test_the_index_revision_names_the_embedding_model(published):
    """A vector depends on the model, so the model is part of the index revision that every
    entry id binds: another model means another revision, and so other entry ids."""
    index, embedder, _ = published
    assert MODEL_NAME in index.index_revision == INDEX_REVISION
    other = ChunkIndex(embedding_model="other-model")
    assert other.index_revision != INDEX_REVISION and "other-model" in other.index_revision
    with pytest.raises(ValueError, match="must end with '\\+other-model'"):
        ChunkIndex(index_revision="course-index-v2", embedding_model="other-model")
    with pytest.raises(ValueError, match="not be empty"):
        ChunkIndex(embedding_model="")
    generation = other.begin(None)
    with pytest.raises(ValueError, match="new index_revision"), other.batch():
        other.put(generation, ROW, embedder.model, embedder(ROW.retrieval_text))
    snap = acl_snapshot_sha256(ROW.acl)
    assert (index_entry_id(ROW.chunk_id, ROW.retrieval_sha256, other.index_revision, snap)
            != index.entries()[ROW.chunk_id]["index_entry_id"])


def test_the_index_revision_ends_with_the_full_model_name():
    """The model is the revision's last field, after a "+", in full: a model name that is only
    part of the revision, or a short form of the model's name, is not enough."""
    assert INDEX_REVISION == "course-index-v1+" + MODEL_NAME
    assert ChunkIndex(embedding_model="m").index_revision == "course-index-v1+m"
    assert ChunkIndex(index_revision="my-index+" + MODEL_NAME).index_revision.endswith(MODEL_NAME)
    for revision, model in (("v2", "v"), ("my-index+all-MiniLM-L6-v2", MODEL_NAME),
                            ("m+course-index-v1", "m"), ("course-index-v1m", "m")):
        with pytest.raises(ValueError, match="must end with"):
            ChunkIndex(index_revision=revision, embedding_model=model)
    for revision in ("+m", "m", "v2"):  # the settings come first, and are not empty
        with pytest.raises(ValueError, match="index_revision"):
            ChunkIndex(index_revision=revision, embedding_model="m")
    assert ChunkIndex(index_revision="v2+m", embedding_model="m").index_revision == "v2+m"


class OtherModel:
    """An embedder of another model (vectors of zeros), counting its calls."""

    model, calls = "other-model", 0

    def __call__(self, text):
        self.calls += 1
        return [0.0] * 384


def test_a_new_model_or_new_settings_keep_no_entry(tmp_path):
    """Reopening an index for another revision and updating it keeps no entry: the same model
    under other settings re-indexes every carried chunk (same vectors, no embedder call); another
    model re-embeds every one. Either way every index entry id changes."""
    path = str(tmp_path / "harbor.db")
    first = ChunkIndex(path)
    update(first, load_sources(), MiniLMEmbedder())
    ids = {cid: e["index_entry_id"] for cid, e in first.entries().items()}
    first.close()
    settings = ChunkIndex(path, index_revision="course-index-v2+" + MODEL_NAME)
    report = update(settings, [], MiniLMEmbedder())
    assert report.plan["reindex"] == sorted(ids) and report.embedded == 0
    assert all(not report.plan[a] for a in ("keep", "reembed", "add", "tombstone"))
    second = {cid: e["index_entry_id"] for cid, e in settings.entries().items()}
    assert set(second) == set(ids) and all(second[c] != ids[c] for c in ids)
    settings.close()
    other, embedder = ChunkIndex(path, embedding_model="other-model"), OtherModel()
    guide = load_source("deployment-guide")  # and an ACL change the plan alone would re-index
    matrix = ("Deployment Guide", "Environment Matrix")
    report = update(other, [set_section_acl(guide, matrix, ["employees", "sre"])], embedder)
    assert report.plan["reembed"] == sorted(ids) and report.embedded == embedder.calls == 59
    assert all(not report.plan[a] for a in ("keep", "reindex", "add", "tombstone"))
    assert "keep 0, reembed 59," in str(report)
    third = other.entries()
    assert all(third[c]["index_entry_id"] not in (ids[c], second[c]) for c in ids)
    assert {e["vector_key"][0] for e in third.values()} == {"other-model"}


def test_an_embedder_of_another_model_is_refused_before_the_build_begins():
    index = ChunkIndex(embedding_model="other-model")
    asked = []

    class Wrong(MiniLMEmbedder):
        def lookup(self, texts):
            asked.append(texts)
            return super().lookup(texts)

    for embedder in (Wrong(), MiniLMEmbedder(), object()):
        with pytest.raises(ValueError, match="is not the index's embedding_model 'other-model'"):
            update(index, load_sources(), embedder)
    assert index.generations() == {} and asked == [] and index.published() is None
    update(index, load_sources(), OtherModel())
    assert index.generations() == {1: "ready"}


def test_an_employee_query_for_the_production_table_returns_nothing(published):
    index = published[0]
    assert index.search("production 4 SRE", "kestrel", ["employees"], 5, ranking="bm25") == []
    (top, _score), *_ = index.search("production 4 SRE", "kestrel", ["sre"], 5, ranking="bm25")
    assert top == ROW.chunk_id
    matrix = {c.chunk_id for c in ALL if c.heading_path[:2] == MATRIX}
    for query in ("production replica count", "Environment Matrix", "replica count approval"):
        hits = {cid for cid, _ in index.search(query, "kestrel", ["employees"], 60)}
        assert hits and not hits & matrix


@pytest.mark.parametrize("query", ["production replica count", "Notes from the March drill",
                                   "the", "fernhill production", "", "zzz"])
@pytest.mark.parametrize("groups", GROUPS)
@pytest.mark.parametrize("tenant", ["kestrel", "fernhill", "nobody"])
def test_sql_search_is_the_course_search(published, query, groups, tenant):
    index = published[0]
    for k in (0, 1, 5, 100):
        assert index.search(query, tenant, groups, k) == search(ACCEPTED, query, tenant, groups, k)


@given(st.lists(st.sampled_from(WORDS), max_size=5), st.sampled_from(GROUPS),
       st.integers(0, 8))
def test_sql_search_matches_the_course_search_on_random_queries(published, words, groups, k):
    query = " ".join(words)
    assert published[0].search(query, "kestrel", groups, k) == search(
        ACCEPTED, query, "kestrel", groups, k)


@pytest.mark.parametrize("groups", GROUPS)
def test_only_authorized_rows_of_the_tenant_are_ever_scored(published, groups):
    seen = []

    def spy(query, chunk):
        seen.append(chunk["chunk_id"])
        return term_overlap(query, chunk)

    published[0].search("production", "kestrel", groups, 3, score=spy)
    allowed = {c.chunk_id for c in ALL if c.tenant_id == "kestrel"
               and authorized(c.acl, groups)}
    assert sorted(seen) == sorted(allowed)  # each authorized row once, nothing else
    assert MARCH.chunk_id not in seen


def test_sql_search_drops_only_zero_scores_as_the_course_search_does(published):
    def signed(query, chunk):  # negative, zero and positive scores, as a cosine can give
        return (int(chunk["chunk_id"], 16) % 5) - 2

    got = published[0].search("q", "kestrel", ["employees"], 100, score=signed)
    assert got == search(ACCEPTED, "q", "kestrel", ["employees"], 100, score=signed)
    assert {s for _, s in got} == {-2, -1, 1, 2}


def test_the_plan_materializes_the_authorized_rows_before_scoring(published):
    plan = published[0].explain()
    assert plan[:2] == ["MATERIALIZE scored", "  MATERIALIZE allowed"]
    assert plan.index("  SCAN allowed") > plan.index("  MATERIALIZE allowed")  # then scored
    assert [step for step in plan if "entry_acl" in step][0].startswith("      SEARCH a")
    assert plan.index("SCAN scored") > plan.index("  SCAN allowed")


def test_bm25_statistics_come_only_from_rows_the_reader_may_read():
    index, embedder, _ = fresh()
    before = index.search("staging deploy", "kestrel", ["employees"], 10, ranking="bm25")
    secret = set_section_acl(insert_paragraph(
        GUIDE, ("Deployment Guide", "Deploying to production"),
        "staging deploy " * 40), ("Deployment Guide", "Deploying to production"), ["sre"])
    update(index, [secret], embedder)
    assert index.search("staging deploy", "kestrel", ["employees"], 10, ranking="bm25") == before
    assert index.search("staging deploy", "kestrel", ["sre"], 10, ranking="bm25") != before


def test_bm25_edges(published):
    index = published[0]
    assert index.search("", "kestrel", ["sre"], 5, ranking="bm25") == []
    assert index.search("production", "kestrel", ["sre"], 0, ranking="bm25") == []
    assert index.search('"quoted" OR NOT', "kestrel", ["sre"], 5, ranking="bm25") == []
    hits = index.search("production replicas", "kestrel", ["sre"], 4, ranking="bm25")
    assert len(hits) == 4 and [s for _, s in hits] == sorted((s for _, s in hits), reverse=True)
    with pytest.raises(ValueError, match="ranking"):
        index.search("x", "kestrel", ["sre"], 5, ranking="vector")
    with pytest.raises(ValueError, match="k"):
        index.search("x", "kestrel", ["sre"], -1)
    with pytest.raises(TypeError, match="groups"):
        index.search("x", "kestrel", "sre", 5)


def test_tenants_never_see_each_other(published):
    index = published[0]
    fern = {c.chunk_id for c in ALL if c.tenant_id == "fernhill"}
    hits = {cid for cid, _ in index.search("fernhill production", "kestrel", ["employees"], 99)}
    assert hits and not hits & fern
    hits = {cid for cid, _ in index.search("fernhill production", "fernhill", ["employees"], 99)}
    assert hits == fern
    assert index.search("production", "fernhill", ["sre"], 9) == []


def test_a_missing_acl_never_enters_the_index():
    index, embedder, _ = fresh()
    assert not any(MARCH.chunk_id == cid for q in ("march drill", "DNS time to live")
                   for g in (["sre"], ["oncall"], ["employees"])
                   for cid, _ in index.search(q, "kestrel", g, 60))
    generation = index.begin(1)
    with pytest.raises(ValueError, match="missing or empty ACL"), index.batch():
        index.put(generation, MARCH, embedder.model, embedder(MARCH.retrieval_text))
    with pytest.raises(ValueError, match="missing or empty ACL"), index.batch():
        index.put(generation, dataclasses.replace(MARCH, acl=()), embedder.model, (0.0,))
    with pytest.raises(ValueError, match="not being built"), index.batch():
        index.put(1, ROW)  # the published generation is never written to


def test_publish_refuses_an_entry_without_acl_rows_and_search_skips_it_anyway():
    index, embedder, _ = fresh()
    report = update(index, [rename_heading(GUIDE, MATRIX, RENAMED)], embedder, publish=False)
    index.db.execute("DELETE FROM entry_acl WHERE generation = ? AND chunk_id = ?",
                     (report.generation, ROW.chunk_id))
    with pytest.raises(ValueError, match="without an ACL"):
        index.publish(report.generation)
    assert index.published() == 1
    index.db.execute("UPDATE pointer SET generation = ?", (report.generation,))  # forced
    assert ROW.chunk_id not in {cid for g in GROUPS for cid, _ in
                                index.search("production 4 SRE", "kestrel", g, 99)}
    with pytest.raises(ValueError, match="not ready"):
        index.publish(99)


def test_parent_expansion_checks_the_acl_again(published):
    index = published[0]
    staging = next(c for c in ALL if c.heading_path[-1] == "Rolling back staging")
    as_employee = index.expand(staging.chunk_id, "kestrel", ["employees"])
    as_sre = index.expand(staging.chunk_id, "kestrel", ["employees", "sre"])
    titles = [c.heading_path[-1] for c in as_sre]
    assert titles == ["Rolling back", "Rolling back staging", "Rolling back production"]
    assert [c.heading_path[-1] for c in as_employee] == titles[:2]
    assert index.expand(staging.chunk_id, "kestrel", ["oncall"]) == []
    assert index.expand(ROW.chunk_id, "kestrel", ["employees"]) == []
    assert index.expand(staging.chunk_id, "fernhill", ["employees"]) == []


def entry_ids(index, generation=None):
    return {cid: e["index_entry_id"] for cid, e in index.entries(generation).items()}


def test_heading_rename_keeps_chunk_ids_and_replaces_entries_and_vectors():
    index, embedder, _ = fresh()
    before, records = entry_ids(index), {c.chunk_id: c for c in index.chunks()}
    report = update(index, [rename_heading(GUIDE, MATRIX, RENAMED)], embedder)
    after = {c.chunk_id: c for c in index.chunks()}
    matrix = sorted(cid for cid, c in records.items() if c.heading_path[:2] == MATRIX)
    assert set(after) == set(records) and len(matrix) == 6
    assert report.plan["reembed"] == matrix and report.embedded == 6
    assert {cid for cid in before if entry_ids(index)[cid] != before[cid]} == set(matrix)
    for cid in matrix:
        assert after[cid].retrieval_sha256 != records[cid].retrieval_sha256
        assert after[cid].content_sha256 == records[cid].content_sha256
        assert after[cid].acl == ("sre",)  # the ACL rule followed the rename
    assert index.search("production 4 SRE", "kestrel", ["employees"], 5, ranking="bm25") == []


def test_table_header_change_keeps_row_ids_and_replaces_their_entries():
    index, embedder, _ = fresh()
    before = entry_ids(index)
    header = "| Environment | Replica count | Approval |"
    edited = dataclasses.replace(GUIDE, text=GUIDE.text.replace(header, "| Environment | "
                                 "Replicas | Approval |"), revision="header")
    report = update(index, [edited], embedder)
    rows = sorted(c.chunk_id for c in ALL if c.kind == "table")
    assert report.plan["reembed"] == rows and report.embedded == 4
    assert report.plan["add"] == report.plan["tombstone"] == []
    assert {cid for cid, eid in entry_ids(index).items() if before[cid] != eid} == set(rows)


def test_acl_change_reindexes_without_embedding():
    index, embedder, _ = fresh()
    before = index.entries()
    report = update(index, [set_section_acl(GUIDE, MATRIX, ["employees", "sre"])], embedder)
    assert len(report.plan["reindex"]) == 6 and report.embedded == 0
    after = index.entries()
    for cid in report.plan["reindex"]:
        assert after[cid]["vector_key"] == before[cid]["vector_key"]
        assert after[cid]["index_entry_id"] != before[cid]["index_entry_id"]
    (top, _), = index.search("production 4 SRE", "kestrel", ["employees"], 1, ranking="bm25")
    assert top == ROW.chunk_id


def test_unrelated_source_and_ordinals_leave_existing_ids_alone():
    index, embedder, _ = fresh()
    before = entry_ids(index)
    report = update(index, [unrelated_source()], embedder)
    assert report.plan["keep"] == sorted(before) and len(report.plan["add"]) == 2
    assert {cid: entry_ids(index)[cid] for cid in before} == before
    ids = [c.chunk_id for s in [unrelated_source(), *load_sources()] for c in structure_chunks(s)]
    assert ids[2:] == [c.chunk_id for c in ALL]  # a source placed first changes no other id
    long = insert_paragraph(GUIDE, ("Deployment Guide", "Overview"), "Long note. " * 80)
    old, new = structure_chunks(GUIDE), structure_chunks(long)
    assert len(new) == len(old) + 1
    assert [c.chunk_id for c in new[:1] + new[2:]] == [c.chunk_id for c in old]
    assert [c.ordinal for c in new[2:]] == [c.ordinal + 1 for c in old[1:]]  # stored, not id


def test_insert_paragraph_changes_only_the_chunk_it_joins():
    index, embedder, _ = fresh()
    report = update(index, [insert_paragraph(GUIDE, ("Deployment Guide", "Overview"), NOTE)],
                    embedder)
    (gone,) = report.plan["tombstone"]
    assert len(report.plan["add"]) == 1 and report.embedded == 1
    assert next(c for c in ALL if c.chunk_id == gone).heading_path[-1] == "Overview"
    assert index.tombstones() == [(2, gone, "deployment-guide", "gone from the new revision")]


def test_rollback_and_a_refused_revision():
    index, embedder, _ = fresh()
    first = index.search("production 4 SRE", "kestrel", ["employees"], 5, ranking="bm25")
    update(index, [set_section_acl(GUIDE, MATRIX, ["employees"])], embedder)
    assert index.search("production 4 SRE", "kestrel", ["employees"], 5, ranking="bm25")
    assert index.rollback() == 1 and index.published() == 1
    assert index.search("production 4 SRE", "kestrel", ["employees"], 5, ranking="bm25") == first
    with pytest.raises(ValueError, match="no earlier generation"):
        index.rollback()
    renamed_text_only = dataclasses.replace(
        GUIDE, text=GUIDE.text.replace("## Environment Matrix", "## Environments"))
    with pytest.raises(ValueError, match="matches no heading"):
        update(index, [renamed_text_only], embedder)  # its sre rule would protect nothing
    assert index.published() == 1 and max(index.generations()) == 2
    with pytest.raises(ValueError, match="longer than 100"):
        validate_revision(GUIDE, structure_chunks(GUIDE), max_chars=100)


def test_a_failing_build_leaves_readers_on_the_old_generation_whole():
    index, _, _ = fresh()
    before = (index.entries(), index.search("production", "kestrel", ["sre"], 60))

    def fail(n):
        if n == 3:
            raise RuntimeError("embedding service down")

    with pytest.raises(RuntimeError, match="down"):
        update(index, [rename_heading(GUIDE, ("Deployment Guide",), "Harbor Deployment Guide")],
               MiniLMEmbedder(hook=fail), batch=4)
    assert index.published() == 1 and index.generations() == {1: "ready", 2: "failed"}
    assert (index.entries(), index.search("production", "kestrel", ["sre"], 60)) == before
    assert 0 < len(index.chunks(2)) < len(ALL)  # the batches before the failure were written


CHILD = textwrap.dedent("""
    import pathlib, sys, time
    from chunklib.course.fixture import load_source
    from chunklib.index import ChunkIndex
    from chunklib.lifecycle import rename_heading, update
    from chunklib.vectors import MiniLMEmbedder

    def stall(n):
        if n == 3:
            pathlib.Path(sys.argv[2]).write_text("stalled")
            time.sleep(600)

    guide = load_source("deployment-guide")
    update(ChunkIndex(sys.argv[1]),
           [rename_heading(guide, ("Deployment Guide",), "Harbor Deployment Guide")],
           MiniLMEmbedder(hook=stall), batch=4)
""")


def test_a_build_killed_half_way_leaves_readers_on_the_old_generation_whole(tmp_path):
    path, flag = tmp_path / "harbor.db", tmp_path / "stalled"
    index = ChunkIndex(path)
    update(index, load_sources(), MiniLMEmbedder())
    queries = [(q, g) for q in ("production replica count", "staging") for g in GROUPS]
    before = index.entries(), [index.search(q, "kestrel", g, 60) for q, g in queries]
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(path), str(flag)])
    try:
        for _ in range(1200):  # the child stalls inside its third embedding call
            if flag.exists() or child.poll() is not None:
                break
            time.sleep(0.1)
        assert flag.exists() and child.poll() is None, "the build did not reach its stall"
        reader = ChunkIndex(path)  # a reader while the builder holds a write transaction
        assert reader.published() == 1 and reader.generations()[2] == "building"
        assert (reader.entries(), [reader.search(q, "kestrel", g, 60)
                                   for q, g in queries]) == before
    finally:
        child.kill()
        child.wait()
    after = ChunkIndex(path)
    assert after.published() == 1 and after.generations()[2] == "building"
    partial = after.db.execute("SELECT count(*) FROM chunks WHERE generation = 2").fetchone()[0]
    assert 0 < partial < len(ALL)  # committed batches of the dead build are on disk
    assert (after.entries(), [after.search(q, "kestrel", g, 60) for q, g in queries]) == before
    assert after.recover() == [2] and after.generations()[2] == "failed"
    assert after.chunks(2) == []
    assert update(after, [GUIDE], MiniLMEmbedder()).generation == 3 and after.published() == 3


def test_deletion_reaches_entries_tombstones_vectors_and_old_generations():
    index, embedder, _ = fresh()
    faq = {c.chunk_id for c in ALL if c.source_id == "deploy-faq"}
    vectors = index.db.execute("SELECT count(*) FROM vectors").fetchone()[0]
    report = update(index, [], embedder, deleted=["deploy-faq"])
    assert set(report.plan["tombstone"]) == faq and report.embedded == 0
    assert {t[1] for t in index.tombstones()} == faq
    assert {t[3] for t in index.tombstones()} == {"source deleted"}
    assert not faq & {cid for cid, _ in index.search("deploy", "kestrel", ["employees"], 99)}
    with pytest.raises(ValueError, match="still published"):
        fresh()[0].purge("deploy-faq")
    assert index.purge("deploy-faq") == 7  # its rows in generation 1, the only copy left
    assert index.db.execute("SELECT count(*) FROM vectors").fetchone()[0] == vectors - 7
    assert index.rollback() == 1  # a rollback cannot bring deleted text back
    assert not faq & {cid for cid, _ in index.search("deploy", "kestrel", ["employees"], 99)}
    assert not faq & {c.chunk_id for c in index.chunks(1)}
    assert index.db.execute("SELECT min(purged) FROM tombstones").fetchone()[0] == 1


def test_drop_keeps_the_published_generation():
    index, embedder, _ = fresh()
    update(index, [unrelated_source()], embedder)
    with pytest.raises(ValueError, match="published"):
        index.drop(2)
    index.drop(1)
    assert index.generations() == {1: "retired", 2: "ready"} and index.chunks(1) == []
    with pytest.raises(ValueError, match="no earlier"):
        index.rollback()


def test_records_come_back_whole_with_model_and_index_revision(published):
    index = published[0]
    stored = {c.chunk_id: c for c in index.chunks()}
    for c in ALL:
        got = stored[c.chunk_id]
        want = dataclasses.replace(c, embedding_model=MODEL_NAME,
                                   index_revision=INDEX_REVISION) if c.acl else c
        assert got == want
    raw = index.db.execute("SELECT record FROM chunks LIMIT 1").fetchone()[0]
    assert set(json.loads(raw)) == set(to_dict(ALL[0]))


@pytest.mark.parametrize("path, key", [((), ""), (("A",), "A\x1f"), (("A", "B"), "A\x1fB\x1f")])
def test_heading_key_prefixes_are_ancestors(path, key):
    assert heading_key(path) == key
    assert heading_key(("A", "B", "C")).startswith(heading_key(path[:1]))
    assert not heading_key(("AB",)).startswith(heading_key(("A",)))


def test_an_old_or_fts5_less_sqlite_is_refused_clearly(monkeypatch, published):
    import chunklib.index as ix

    monkeypatch.setattr(ix, "FTS_TOKENIZER", "no_such_tokenizer")
    with pytest.raises(RuntimeError, match="FTS5"):
        published[0].search("production", "kestrel", ["sre"], 3, ranking="bm25")
    assert published[0].search("production", "kestrel", ["sre"], 3)  # terms still work
    monkeypatch.setattr(ix.sqlite3, "sqlite_version_info", (3, 31, 1))
    with pytest.raises(RuntimeError, match="3.35"):
        ChunkIndex()
