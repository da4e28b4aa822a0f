"""The lesson-4 structure explorer's own numbers, views and plot. What every explorer keeps
(controls change picture and summary, path independence, one redraw per move, the stepper,
labels, the autograde note) is checked in tests/test_explorers.py."""

import dataclasses
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chunklib.course.fixture import load_source, load_sources
from chunklib.elements import parse_elements, sha256_hex
from chunklib.structure import acl_window_chunks, structure_chunks, window_chunks
from chunklib.widgets.explorer import not_drawn
from chunklib.widgets.structure import (
    StructureExplorer,
    document_html,
    repeated,
    source_chunks,
    structure_explorer,
)


@pytest.fixture(scope="module")
def explorer():
    return structure_explorer()


def rows(explorer):
    return dict(explorer.summary_rows())


def test_initial_state(explorer):
    assert explorer.image.value[:4] == b"\x89PNG"
    assert rows(explorer)["structure-aware"] == (
        "44 chunks, duplication ratio 0.0048 (100 characters stored twice)")
    assert rows(explorer)["fixed windows"] == (
        "24 chunks, duplication ratio 0.1093 (2300 characters stored twice)")
    assert rows(explorer)["windows that mix ACLs"].startswith("6 ")
    assert rows(explorer)["windows cut at ACL changes"] == "27 windows, none mixing ACLs"
    assert "Chunk 1 of 44" in explorer.step_label.value
    assert explorer.image.tooltip.startswith("Plot of 44 structure-aware chunks and 24 fixed")


def test_stepping_to_the_table_row_shows_both_texts_and_hashes(explorer):
    before_png, before_summary = explorer.image.value, explorer.summary.value
    explorer.chunk_slider.value = 11
    chunk = structure_chunks(load_source("deployment-guide"))[10]
    assert chunk.text == "production | 4 | SRE"
    detail = explorer.detail.value
    assert "production | 4 | SRE" in detail
    assert "Table header: Environment | Replica count | Approval" in detail
    assert "Heading path: Deployment Guide &gt; Environment Matrix" in detail
    assert sha256_hex(chunk.text) in detail and sha256_hex(chunk.retrieval_text) in detail
    assert rows(explorer)["ACL"] == "sre"
    assert rows(explorer)["heading path"] == "Deployment Guide > Environment Matrix"
    assert "<b>heading path</b>: Deployment Guide &gt; Environment Matrix" in detail
    assert explorer.image.value != before_png and explorer.summary.value != before_summary
    assert "font-weight:bold' title='chunk 11'>production | 4 | SRE</span>" in (
        explorer.document.value)


def test_whole_document_is_a_view_option(explorer):
    explorer.chunk_slider.value = 1
    excerpt, shown, redraws = explorer.document.value, explorer.image.value, explorer.redraws
    explorer.whole_box.value = True
    assert len(explorer.document.value) > len(excerpt)
    assert "Glossary" in explorer.document.value and "Glossary" not in excerpt
    assert (explorer.image.value, explorer.redraws) == (shown, redraws)  # plot and summary stay
    assert explorer.whole_box.description and explorer.whole_box.tooltip
    explorer.whole_box.value = False


def test_budget_changes_the_chunks_and_clamps_overlap():
    x = StructureExplorer()
    x.overlap_slider.value = 500
    assert x.note.value == ""
    x.size_slider.value = 400
    assert x.overlap_slider.value == 200  # at most half the budget
    assert "lowered from 500 to 200" in x.note.value
    assert rows(x)["structure-aware"].startswith("88 chunks")  # rechunked with overlap 200
    x.size_slider.value = 450
    assert x.note.value == "" and x.overlap_slider.value == 200
    x.size_slider.value = 400
    x.overlap_slider.value = 100
    assert rows(x)["structure-aware"] == (
        "85 chunks, duplication ratio 0.0570 (1200 characters stored twice)")
    assert rows(x)["fixed windows"] == (
        "70 chunks, duplication ratio 0.3279 (6900 characters stored twice)")


def test_changing_source_resets_the_stepper():
    x = StructureExplorer()
    x.chunk_slider.value = 30
    x.source_menu.value = "failover-runbook"
    assert (x.chunk_slider.value, x.chunk_slider.max) == (1, 6)
    x.chunk_slider.value = 6
    assert rows(x)["ACL"] == "missing"  # the March drill notes have no ACL rule


def test_empty_source_and_escaping():
    empty = dataclasses.replace(load_source("deploy-faq"), source_id="empty", text="",
                                section_acls=())
    x = StructureExplorer(sources=[empty], source_id="empty")
    assert "No chunks" in x.step_label.value and x.detail.value == ""
    risky = dataclasses.replace(empty, source_id="risky", text="# <b>\n\nuse <script> & go")
    y = StructureExplorer(sources=[risky], source_id="risky")
    assert "<script>" not in y.document.value + y.detail.value
    assert "use &lt;script&gt; &amp; go" in y.document.value


@pytest.mark.parametrize("spans, expected", [
    ([], []), ([(0, 10), (8, 20), (30, 40)], [(8, 10)]), ([(0, 5), (5, 9)], []),
    ([(0, 10), (0, 10), (4, 6)], [(0, 10)]), ([(0, 4), (2, 8), (6, 10)], [(2, 4), (6, 8)]),
    ([(3, 3), (3, 3)], []),
])
def test_repeated(spans, expected):
    assert repeated(spans) == expected


def test_document_html_marks_overlap_and_gaps():
    out = document_html("ab cd", [(0, 3), (2, 5)], 0)
    assert "title='chunk 1, chunk 2'> </span>" in out
    out = document_html("# H\n\nbody", [(5, 9)], None, (4, 9))
    assert out.count("…") == 1 and "# H" not in out


SEGMENT = re.compile(r"<span style='([^']*)'(?: title='([^']*)')?>([^<]*)</span>")


@given(st.lists(st.tuples(st.integers(0, 12), st.integers(0, 6)), max_size=6),
       st.integers(-1, 5))
def test_document_html_matches_a_brute_force_reading(raw, current):
    text = "abcdefghijkl"
    spans = [(s, min(s + w, len(text))) for s, w in raw]
    out = document_html(text, spans, current if current >= 0 else None)
    got = [(piece, [int(x.split()[1]) - 1 for x in title.split(", ")] if title else [])
           for _style, title, piece in SEGMENT.findall(out)]
    assert "".join(piece for piece, _ in got) == text
    pos = 0
    for piece, owners in got:
        for p in range(pos, pos + len(piece)):
            assert owners == [i for i, (s, e) in enumerate(spans) if s <= p < e]
        pos += len(piece)


def test_position_ticks_are_integers():
    x = StructureExplorer(sources=[load_source("fernhill-release-notes")],
                          source_id="fernhill-release-notes")
    ticks = [t for t in x.figure.axes[0].get_xticks() if 0 <= t <= 479]
    assert ticks and all(float(t).is_integer() for t in ticks)


def test_views_do_not_depend_on_the_path_taken():
    x = structure_explorer()
    for size in (1050, 400, 3000, 100):
        x.size_slider.value = size
    x.source_menu.value = "fernhill-release-notes"  # another frame (length)
    x.source_menu.value = "deployment-guide"
    x.size_slider.value, x.overlap_slider.value = 600, 50
    x.chunk_slider.value = 7
    x.whole_box.value = True
    fresh = StructureExplorer(size=600, overlap=50)
    fresh.chunk_slider.value = 7
    fresh.whole_box.value = True
    assert (x.document.value, x.detail.value) == (fresh.document.value, fresh.detail.value)
    assert x.layers.frame_renders == 1  # one frame; each source's x axis is kept on it


def test_computed_once_and_exactly_what_chunklib_gives():
    x = StructureExplorer()
    guide = load_source("deployment-guide")
    x.size_slider.value, x.overlap_slider.value = 700, 150
    value = x.computed
    assert value.chunks == structure_chunks(guide, 700, 150)
    assert value.window_spans == [(w.start, w.end) for w in window_chunks(guide, 700, 150)]
    for source in load_sources():  # the count of windows cut at ACL changes, everywhere
        for size, overlap in ((100, 0), (100, 50), (700, 150), (3000, 1500)):
            counted = source_chunks(source, size, overlap).acl_cut
            assert counted == len(acl_window_chunks(source, size, overlap))
    assert value.headings == [(e.start, e.end) for e in parse_elements(guide.text)
                              if e.kind == "heading"]
    misses = x._compute.cache_info().misses
    x.size_slider.value = 750
    x.size_slider.value = 700
    assert x.computed is value and x._compute.cache_info().misses == misses + 1  # 750 only
    assert x._compute.cache_info().maxsize == x.cache_size  # bounded


def test_narrow_chunks_are_said_in_the_summary():
    assert "plot" not in rows(StructureExplorer())
    narrow = rows(StructureExplorer(size=100, overlap=50))["plot"]
    assert narrow.startswith("364 of the 364 chunks are under 3 pixels wide")


@pytest.mark.parametrize("autograde", [False, True])
@pytest.mark.parametrize(("kwargs", "name"), [
    ({"size": 200, "overlap": 200}, "overlap"), ({"size": 200, "overlap": 101}, "overlap"),
    ({"size": 0}, "size"), ({"source_id": "no-such-source"}, "source_id")])
def test_bad_arguments_are_refused_by_name(kwargs, name, autograde, monkeypatch):
    if autograde:
        monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")
        assert structure_explorer().value == not_drawn("structure explorer").value
    with pytest.raises(ValueError, match=name):
        structure_explorer(**kwargs)
