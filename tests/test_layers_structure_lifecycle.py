"""The lesson-4 and lesson-5 explorers on cached frames (chunklib.widgets.layers): the picture does
not
depend on the path taken, the caches are bounded and give what a fresh build gives, and
nothing is drawn (nor matplotlib imported) while nbgrader autogrades."""

import io

import pytest
from PIL import Image

from chunklib.course.fixture import load_source
from chunklib.structure import structure_chunks, window_chunks
from chunklib.widgets.common import not_drawn
from chunklib.widgets.lifecycle import MATRIX, LifecycleExplorer, lifecycle_explorer
from chunklib.widgets.structure import StructureExplorer, structure_explorer

OVERVIEW = ("Deployment Guide", "Overview")


def pixels(png: bytes) -> bytes:
    return Image.open(io.BytesIO(png)).convert("RGBA").tobytes()


def test_structure_picture_does_not_depend_on_the_path_taken():
    x = structure_explorer()
    for size in (1050, 400, 3000, 100):
        x.size_slider.value = size
    x.source_menu.value = "fernhill-release-notes"  # another frame (length)
    x.source_menu.value = "deployment-guide"
    x.size_slider.value = 600
    x.overlap_slider.value = 50
    x.chunk_slider.value = 7
    x.whole_box.value = True
    fresh = StructureExplorer(size=600, overlap=50)
    fresh.chunk_slider.value = 7
    fresh.whole_box.value = True
    assert pixels(x.image.value) == pixels(fresh.image.value)
    assert x.summary.value == fresh.summary.value and x.document.value == fresh.document.value
    assert x.layers.frame_renders == 2  # one per source length, then from the cache


def test_structure_chunkings_are_cached_bounded_and_exact():
    x = StructureExplorer()
    for size in range(100, 1100, 50):
        x.size_slider.value = size
    assert len(x._chunkings) <= 16
    guide = load_source("deployment-guide")
    x.size_slider.value, x.overlap_slider.value = 700, 150
    assert x.chunks == structure_chunks(guide, 700, 150)
    assert x.windows == window_chunks(guide, 700, 150)
    before = x._chunkings[("deployment-guide", 700, 150)]
    x.size_slider.value = 750
    x.size_slider.value = 700
    assert x.chunking is before  # moving back did not chunk again


def test_lifecycle_picture_and_numbers_do_not_depend_on_the_path_taken():
    x = lifecycle_explorer()
    x.edit_menu.value = "add an unrelated source"
    x.section_menu.value = OVERVIEW  # the same edit: its shadow is reused
    x.edit_menu.value = "insert a paragraph"
    x.publish_button.click()
    x.edit_menu.value = "rename the heading"  # rolls back first, then a new shadow
    x.section_menu.value = MATRIX
    x.edit_menu.value = "insert a paragraph"  # back to a built edit at this section
    fresh = LifecycleExplorer("insert a paragraph", MATRIX)
    assert pixels(x.image.value) == pixels(fresh.image.value)
    assert x.summary_rows() == fresh.summary_rows() and x.table.value == fresh.table.value
    assert x.layers.frame_renders == 1  # one frame: the columns are drawn over it


def test_not_drawn_while_nbgrader_runs(monkeypatch):
    monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")
    assert structure_explorer().value == not_drawn("structure explorer").value
    assert lifecycle_explorer().value == not_drawn("lifecycle explorer").value
    with pytest.raises(ValueError, match="overlap"):
        structure_explorer(size=200, overlap=200)  # bad arguments are still refused
    with pytest.raises(ValueError, match="source_id"):
        structure_explorer("no-such-source")
    with pytest.raises(ValueError, match="edit"):
        lifecycle_explorer("translate")
    with pytest.raises(ValueError, match="section"):
        lifecycle_explorer(section=("Deployment Guide", "No such heading"))
