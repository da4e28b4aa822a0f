"""Tests for chunklib.structure: section chunks, fixed windows and their duplication on the fixture.

Pinned figures use the documented defaults, size = 1000 characters and overlap = 100 characters
(overlap only inside hard-split elements for the structure strategy; between all windows for the
fixed baseline). They were computed once with chunklib and written here as literals.
"""

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chunklib.access import access_parts, readable
from chunklib.course.fixture import load_source, load_sources
from chunklib.elements import parse_elements
from chunklib.intervals import duplication_ratio, union
from chunklib.records import to_dict
from chunklib.structure import (
    DEFAULT_OVERLAP,
    DEFAULT_SIZE,
    acl_runs,
    acl_window_chunks,
    duplication,
    fixture_duplication,
    section_pieces,
    structure_chunks,
    window_chunks,
)
from chunklib.windows import stored_positions, text_windows, window_spans

GUIDE = load_source("deployment-guide")
GUIDE_ELEMENTS = parse_elements(GUIDE.text)


def test_defaults():
    assert (DEFAULT_SIZE, DEFAULT_OVERLAP) == (1000, 100)


# ---------------------------------------------------------------- pinned fixture figures


def test_pinned_duplication_of_the_guide():
    n = len(GUIDE.text)
    assert n == 21046
    assert duplication(structure_chunks(GUIDE), n) == 100 / 21046  # one cut, 100 characters
    assert duplication(window_chunks(GUIDE), n) == 2300 / 21046   # 23 cuts of 100 characters
    assert round(100 / 21046, 4) == 0.0048 and round(2300 / 21046, 4) == 0.1093


def test_pinned_duplication_of_the_whole_fixture():
    sources = load_sources()
    assert sum(len(s.text) for s in sources) == 25919
    assert fixture_duplication(sources, structure_chunks) == 100 / 25919
    assert fixture_duplication(sources, window_chunks) == 2600 / 25919
    assert round(100 / 25919, 4) == 0.0039 and round(2600 / 25919, 4) == 0.1003


@pytest.mark.parametrize("source_id, n_structure, n_windows", [
    ("deployment-guide", 44, 24), ("failover-runbook", 6, 3), ("deploy-faq", 7, 2),
    ("fernhill-release-notes", 3, 1),
])
def test_pinned_chunk_counts(source_id, n_structure, n_windows):
    source = load_source(source_id)
    assert len(structure_chunks(source)) == n_structure
    assert len(window_chunks(source)) == n_windows


def test_pinned_hard_split_of_the_freeze_paragraph():
    split = [c for c in structure_chunks(GUIDE)
             if c.heading_path[-1] == "Change windows and freezes"]
    assert [(c.start, c.end) for c in split] == [(10572, 11572), (11472, 12168)]
    assert split[0].element_id == split[1].element_id and split[0].chunk_id != split[1].chunk_id
    assert split[0].text.startswith("Production changes are allowed only inside")


def test_pinned_kinds_of_guide_chunks():
    kinds = [c.kind for c in structure_chunks(GUIDE)]
    assert {k: kinds.count(k) for k in set(kinds)} == {
        "paragraph": 24, "section": 15, "table": 4, "list": 1}


def test_table_rows_are_their_own_chunks():
    rows = [c for c in structure_chunks(GUIDE) if c.kind == "table"]
    assert [c.text for c in rows] == ["production | 4 | SRE", "staging | 2 | Release manager",
                                      "canary | 1 | SRE", "development | 1 | None"]
    assert rows[0].retrieval_text == ("Heading path: Deployment Guide > Environment Matrix\n"
                                      "Table header: Environment | Replica count | Approval\n"
                                      "production | 4 | SRE")
    assert all(c.acl == ("sre",) and GUIDE.text[c.start:c.end] == c.text for c in rows)


def test_acls_follow_sections():
    chunks = structure_chunks(GUIDE)
    by_acl = {acl: sum(c.acl == acl for c in chunks) for acl in {c.acl for c in chunks}}
    assert by_acl == {("employees",): 30, ("sre",): 14}
    drill = structure_chunks(load_source("failover-runbook"))[-1]
    assert drill.acl is None and drill.heading_path[-1] == "Notes from the March drill"
    assert {c.tenant_id for c in structure_chunks(load_source("fernhill-release-notes"))} == {
        "fernhill"}


def test_windows_that_straddle_acl_sections_carry_every_part():
    windows = window_chunks(GUIDE)
    assert [(c.start, c.end) for c in windows if c.acl_parts] == [
        (4500, 5500), (5400, 6400), (9900, 10900), (14400, 15400), (15300, 16300), (17100, 18100)]
    for w in windows:
        touched = {GUIDE.acl_for(e.heading_path) for e in GUIDE_ELEMENTS
                   if e.start < w.end and e.end > w.start}
        # all of the touched sections' ACLs, never their intersection
        assert set(access_parts(to_dict(w))) == touched
        assert (w.acl is None) == (len(touched) > 1)
    mixed = [to_dict(w) for w in windows if w.acl_parts]
    assert all(w["acl_parts"] == (("employees",), ("sre",)) for w in mixed)
    assert all(readable(w, ["employees", "sre"]) for w in mixed)
    assert not any(readable(w, ["employees"]) or readable(w, ["sre"]) for w in mixed)


def test_acl_cut_windows_never_cross_a_change_of_acl():
    for source in load_sources():
        runs = acl_runs(source)
        assert all(a[2] != b[2] and a[1] <= b[0] for a, b in zip(runs, runs[1:]))
        elements = parse_elements(source.text)
        for w in acl_window_chunks(source, 400, 100):
            assert w.acl_parts is None and w.text == source.text[w.start:w.end]
            (run,) = [r for r in runs if r[0] <= w.start and w.end <= r[1]]
            assert w.acl == run[2]
            assert {source.acl_for(e.heading_path) for e in elements
                    if e.start < w.end and e.end > w.start} == {w.acl}
        # inside each run the windows are lesson 3's windows, shifted to the run's start
        spans = [(w.start, w.end) for w in acl_window_chunks(source, 400, 100)]
        assert spans == [(r[0] + s, r[0] + e) for r in runs
                         for s, e in window_spans(r[1] - r[0], 400, 100)]


def test_windows_are_the_plain_baseline():
    windows = window_chunks(GUIDE)
    assert [(c.start, c.end) for c in windows] == text_windows(GUIDE.text, 1000, 100)
    assert all(c.retrieval_text == c.text and c.kind == "window" for c in windows)
    assert windows[0].heading_path == ("Deployment Guide",)
    assert windows[-1].heading_path == ("Deployment Guide", "Glossary")


@pytest.mark.parametrize("chunker", [structure_chunks, window_chunks])
@pytest.mark.parametrize("source", load_sources(), ids=lambda s: s.source_id)
def test_records_are_consistent(chunker, source):
    chunks = chunker(source)
    assert [c.ordinal for c in chunks] == list(range(len(chunks)))
    assert len({c.chunk_id for c in chunks}) == len(chunks)
    for c in chunks:
        assert c.text == source.text[c.start:c.end]
        assert (c.source_id, c.revision, c.tenant_id) == (
            source.source_id, source.revision, source.tenant_id)
        assert c.strategy_version.endswith("/size=1000/overlap=100")


def test_headings_are_in_no_structure_chunk():
    covered = union([(c.start, c.end) for c in structure_chunks(GUIDE)])
    for e in GUIDE_ELEMENTS:
        inside = any(s <= e.start and e.end <= t for s, t in covered)
        assert inside == (e.kind not in ("heading", "table"))
    assert not any("\n#" in c.text for c in structure_chunks(GUIDE))


# ---------------------------------------------------------------- identity under edits


def _ids(source):
    return [c.chunk_id for c in structure_chunks(source)]


def test_inserting_a_paragraph_changes_only_its_own_chunk():
    old = _ids(GUIDE)
    edited = dataclasses.replace(GUIDE, revision="r-next", text=GUIDE.text.replace(
        "## Overview\n", "## Overview\n\nA new paragraph nobody asked for.\n", 1))
    new = _ids(edited)
    assert len(new) == len(old)
    changed = [i for i, (a, b) in enumerate(zip(old, new, strict=True)) if a != b]
    assert changed == [1]  # the first chunk under Overview, which now holds the new paragraph


def test_renaming_a_heading_keeps_ids_and_changes_retrieval_hashes():
    old = structure_chunks(GUIDE)
    new = structure_chunks(dataclasses.replace(GUIDE, text=GUIDE.text.replace(
        "### Smoke tests", "### Smoke testing")))
    assert [c.chunk_id for c in new] == [c.chunk_id for c in old]
    assert [c.content_sha256 for c in new] == [c.content_sha256 for c in old]
    changed = [c.heading_path for o, c in zip(old, new, strict=True)
               if o.retrieval_sha256 != c.retrieval_sha256]
    assert changed == [("Deployment Guide", "Deploying to staging", "Smoke testing")]


def test_table_header_change_and_row_edit():
    rows = [c for c in structure_chunks(GUIDE) if c.kind == "table"]
    header = [c for c in structure_chunks(dataclasses.replace(GUIDE, text=GUIDE.text.replace(
        "| Environment | Replica count | Approval |", "| Environment | Replicas | Approval |")))
        if c.kind == "table"]
    assert [c.chunk_id for c in header] == [c.chunk_id for c in rows]
    assert all(a.retrieval_sha256 != b.retrieval_sha256 for a, b in zip(rows, header, strict=True))
    edited = [c for c in structure_chunks(dataclasses.replace(GUIDE, text=GUIDE.text.replace(
        "| staging | 2 |", "| staging | 3 |"))) if c.kind == "table"]
    assert [a.chunk_id == b.chunk_id for a, b in zip(rows, edited, strict=True)] == [
        True, False, True, True]


def test_identical_elements_get_ids_by_occurrence():
    text = "# A\n\nSame words.\n\nfirst only\n\n## B\n\nSame words.\n"
    source = dataclasses.replace(GUIDE, text=text, section_acls=())
    small = structure_chunks(source, 12, 2)  # every paragraph alone
    big = structure_chunks(source, 40, 2)    # "Same words." merged with "first only" under A
    assert small[0].element_id != small[2].element_id
    assert small[0].text == small[2].text and small[0].chunk_id != small[2].chunk_id
    assert big[-1].text == "Same words." and big[-1].element_id == small[-1].element_id
    assert big[-1].chunk_id != small[-1].chunk_id  # the strategy version names the size


# ---------------------------------------------------------------- properties


@given(st.integers(50, 3000), st.data())
def test_section_pieces_properties_on_the_guide(size, data):
    overlap = data.draw(st.integers(0, size - 1))
    pieces = section_pieces(GUIDE_ELEMENTS, size, overlap)
    assert [p.start for p in pieces] == sorted(p.start for p in pieces)
    for a, b in zip(pieces, pieces[1:], strict=False):
        if (a.element_id, a.anchor_start) == (b.element_id, b.anchor_start):  # one hard split
            assert a.end - b.start == overlap
        else:
            assert a.end <= b.start
    assert all(p.end - p.start <= size for p in pieces if p.kind != "table")
    oversized = [e.end - e.start for e in GUIDE_ELEMENTS
                 if e.kind not in ("heading", "table") and e.end - e.start > size]
    expected = sum(stored_positions(n, size, overlap) - n for n in oversized)
    spans = [(p.start, p.end) for p in pieces]
    assert duplication_ratio(spans, len(GUIDE.text)) == expected / len(GUIDE.text)
    covered = union(spans)
    for e in GUIDE_ELEMENTS:
        targets = ([r.cells_span for r in e.rows] if e.kind == "table"
                   else [] if e.kind == "heading" else [(e.start, e.end)])
        for s, t in targets:
            assert any(cs <= s and t <= ce for cs, ce in covered)


@given(st.text(alphabet="ab #|-\n\r`>*1.\\", max_size=300), st.integers(5, 60), st.data())
def test_any_text_gives_valid_records(text, size, data):
    overlap = data.draw(st.integers(0, size - 1))
    source = dataclasses.replace(GUIDE, text=text, section_acls=())
    for chunker in (structure_chunks, window_chunks):
        for c in chunker(source, size, overlap):  # ChunkRecord validates itself on creation
            assert c.text == text[c.start:c.end]


@pytest.mark.parametrize("size, overlap", [(0, 0), (100, 100), (100, -1)])
def test_bad_window_is_refused(size, overlap):
    with pytest.raises(ValueError):
        structure_chunks(GUIDE, size, overlap)
    with pytest.raises(ValueError):
        window_chunks(GUIDE, size, overlap)


def test_section_pieces_and_duplication_on_the_fixture():
    text = "# A\n\nxy\n\nz"
    assert [(p.start, p.end) for p in section_pieces(parse_elements(text), 5, 1)] == [(5, 10)]
    assert [(p.start, p.end) for p in section_pieces(parse_elements(text), 4, 1)] == [
        (5, 7), (9, 10)]
    assert round(fixture_duplication(load_sources(), window_chunks), 4) == 0.1003
    assert round(duplication(window_chunks(load_source("deploy-faq")), 1597), 4) == 0.0626
