"""Tests for chunklib.records: the chunk contract, its validation, ids and the factory."""

import dataclasses
import hashlib
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chunklib.identity import H, chunk_id, element_id, sha256_hex
from chunklib.records import (
    FIELD_GROUPS,
    ChunkRecord,
    describe,
    from_dict,
    make_chunk,
    normalize_acl,
    retrieval_context,
    to_dict,
)

SOURCE = "## Environment Matrix\n\n| production | 4 | SRE |\n"


def _record(**changes):
    """A valid table-row record of SOURCE, with ``changes`` passed to the factory."""
    args = dict(kind="table", heading_path=("Deployment Guide", "Environment Matrix"),
                anchor_start=25, element_id=element_id("table_row", "production | 4 | SRE", 0),
                ordinal=3, source_id="deployment-guide", revision="r1", tenant_id="kestrel",
                acl=["sre"], strategy_version="section-v1")
    args.update(changes)
    return make_chunk(SOURCE, 25, 45, **args)


def test_factory_builds_the_contract():
    r = _record()
    assert r.text == SOURCE[25:45] == "production | 4 | SRE"
    assert r.retrieval_text == ("Heading path: Deployment Guide > Environment Matrix\n"
                                "production | 4 | SRE")
    assert r.content_sha256 == hashlib.sha256(b"production | 4 | SRE").hexdigest()
    assert r.retrieval_sha256 == sha256_hex(r.retrieval_text)
    assert r.acl == ("sre",) and r.heading_path == ("Deployment Guide", "Environment Matrix")
    assert (r.embedding_model, r.embedding_revision, r.index_revision, r.tombstone) == (
        None, None, None, False)
    assert r.chunk_id == chunk_id("deployment-guide", "section-v1", r.element_id, 0, 20,
                                  r.content_sha256, "kestrel")


def test_factory_keeps_a_given_retrieval_text():
    r = _record(retrieval_text="Table header: Environment | Replica count | Approval\nx")
    assert r.retrieval_text.endswith("\nx") and r.text == "production | 4 | SRE"
    assert r.retrieval_sha256 == sha256_hex(r.retrieval_text)


def test_chunk_id_ignores_ordinal_revision_absolute_position_and_acl():
    base = _record()
    moved = make_chunk("inserted paragraph\n\n" + SOURCE, 45, 65, **{
        **dict(kind="table", heading_path=base.heading_path, anchor_start=45,
               element_id=base.element_id, ordinal=9, source_id="deployment-guide",
               revision="r2", tenant_id="kestrel", acl=["employees"],
               strategy_version="section-v1")})
    assert moved.text == base.text and moved.chunk_id == base.chunk_id
    assert _record(heading_path=("Renamed",)).chunk_id == base.chunk_id
    assert _record(heading_path=("Renamed",)).retrieval_sha256 != base.retrieval_sha256


@pytest.mark.parametrize("change", [
    dict(tenant_id="fernhill"), dict(source_id="other"), dict(strategy_version="section-v2"),
    dict(element_id="e" * 64), dict(anchor_start=24),
])
def test_chunk_id_depends_on_its_fields(change):
    assert _record(**change).chunk_id != _record().chunk_id


def test_field_hash_is_the_appendix_h():
    assert H(["a", 1, None]) == hashlib.sha256(b"a\x1f1\x1fNone").hexdigest()
    assert H([]) == sha256_hex("")
    assert H(["ab", "c"]) != H(["a", "bc"])


def test_element_id_counts_occurrence():
    assert element_id("paragraph", "x", 0) == H(["paragraph", "x", 0])
    assert element_id("paragraph", "x", 1) != element_id("paragraph", "x", 0)
    assert element_id("list", "x", 0) != element_id("paragraph", "x", 0)
    with pytest.raises(ValueError, match="occurrence"):
        element_id("paragraph", "x", -1)


@pytest.mark.parametrize("groups, expected", [
    (None, None), ([], ()), (["sre", "oncall", "sre"], ("oncall", "sre")), (("b", "a"), ("a", "b")),
])
def test_normalize_acl(groups, expected):
    assert normalize_acl(groups) == expected


@pytest.mark.parametrize("groups, error", [
    ("sre", TypeError), ([1], TypeError), ([""], ValueError)])
def test_normalize_acl_rejects(groups, error):
    with pytest.raises(error, match="acl"):
        normalize_acl(groups)


@pytest.mark.parametrize("path, text, expected", [
    ((), "x", "x"),
    (("Guide",), "x", "Heading path: Guide\nx"),
    (("Guide", "Rollback"), "", "Heading path: Guide > Rollback\n"),
])
def test_retrieval_context(path, text, expected):
    assert retrieval_context(path, text) == expected


# ---------------------------------------------------------------- validation


def test_record_is_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        _record().acl = ("employees",)


@pytest.mark.parametrize("change, error, name", [
    (dict(acl="sre"), TypeError, "acl"),
    (dict(acl=["sre"]), TypeError, "acl"),
    (dict(acl=("sre", "oncall")), ValueError, "acl"),
    (dict(acl=("sre", "sre")), ValueError, "acl"),
    (dict(acl=("",)), ValueError, "acl"),
    (dict(heading_path=["Deployment Guide"]), TypeError, "heading_path"),
    (dict(heading_path=("Guide", 2)), TypeError, "heading_path"),
    (dict(ordinal=True), TypeError, "ordinal"),
    (dict(ordinal=-1), ValueError, "ordinal"),
    (dict(start=50), ValueError, "end"),
    (dict(start=30), ValueError, "text"),
    (dict(end=44), ValueError, "text"),
    (dict(kind="row"), ValueError, "kind"),
    (dict(source_id=""), ValueError, "source_id"),
    (dict(tenant_id=None), TypeError, "tenant_id"),
    (dict(revision=3), TypeError, "revision"),
    (dict(content_sha256="0" * 64), ValueError, "content_sha256"),
    (dict(content_sha256="ABC"), ValueError, "content_sha256"),
    (dict(retrieval_sha256=sha256_hex("production | 4 | SRE")), ValueError, "retrieval_sha256"),
    (dict(text="production | 4 | SRF"), ValueError, "content_sha256"),
    (dict(retrieval_text="other"), ValueError, "retrieval_sha256"),
    (dict(tombstone=1), TypeError, "tombstone"),
    (dict(embedding_model=""), ValueError, "embedding_model"),
    (dict(index_revision=7), TypeError, "index_revision"),
])
def test_record_rejects(change, error, name):
    with pytest.raises(error, match=name):
        dataclasses.replace(_record(), **change)


def test_replace_keeps_valid_records_valid():
    r = _record()
    gone = dataclasses.replace(r, tombstone=True, index_revision="ix-7",
                               embedding_model="all-MiniLM-L6-v2", embedding_revision="e1")
    assert gone.tombstone and gone.chunk_id == r.chunk_id
    assert dataclasses.replace(r, acl=None).acl is None  # a missing ACL is representable


def test_dict_round_trip_through_json():
    r = _record()
    d = to_dict(r)
    assert d["acl"] == ("sre",) and d["chunk_id"] == r.chunk_id
    assert from_dict(d) == r
    assert from_dict(json.loads(json.dumps(d))) == r
    assert from_dict(json.loads(json.dumps(to_dict(dataclasses.replace(r, acl=None))))).acl is None


def test_factory_rejects_bad_anchor():
    with pytest.raises(ValueError, match="anchor_start"):
        _record(anchor_start=-1)


@given(st.text(max_size=40), st.data())
def test_factory_text_is_always_the_source_slice(source, data):
    start = data.draw(st.integers(0, len(source)))
    end = data.draw(st.integers(start, len(source)))
    r = make_chunk(source, start, end, kind="paragraph", heading_path=("H",), anchor_start=0,
                   element_id="e", ordinal=0, source_id="s", revision="r", tenant_id="t",
                   acl=None, strategy_version="v")
    assert r.text == source[start:end]
    assert r.retrieval_text == "Heading path: H\n" + r.text
    assert isinstance(r, ChunkRecord)


# ---------------------------------------------------------------- field groups and describe


def test_field_groups_hold_every_field_once():
    grouped = [name for names in FIELD_GROUPS.values() for name in names]
    assert sorted(grouped) == sorted(f.name for f in dataclasses.fields(ChunkRecord))
    assert len(grouped) == len(set(grouped))
    assert list(FIELD_GROUPS)[:7] == ["identity", "source", "structure", "security",
                                      "integrity", "vectors", "lifecycle"]  # seed 003's order


def test_describe_shows_every_field_and_shortens_hashes():
    r = _record()
    lines = describe(r).splitlines()
    assert len(lines) == len(dataclasses.fields(ChunkRecord))
    assert lines[0].split() == ["identity", "chunk_id", r.chunk_id[:16] + "…"]
    assert lines[1] == "           ordinal            3"
    assert f"content_sha256     {r.content_sha256[:16]}…" in describe(r)
    assert "text               'production | 4 | SRE'" in describe(r)
    assert r.retrieval_sha256 in describe(r, digits=64)
