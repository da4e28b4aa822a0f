"""The lesson-5 explorer on cached frames (chunklib.widgets.explorer.Layers): the picture does
not
depend on the path taken, the caches are bounded and give what a fresh build gives, and
nothing is drawn (nor matplotlib imported) while nbgrader autogrades."""

import io

import pytest
from PIL import Image

from chunklib.widgets.explorer import not_drawn
from chunklib.widgets.lifecycle import MATRIX, LifecycleExplorer, lifecycle_explorer

OVERVIEW = ("Deployment Guide", "Overview")


def pixels(png: bytes) -> bytes:
    return Image.open(io.BytesIO(png)).convert("RGBA").tobytes()


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
    assert lifecycle_explorer().value == not_drawn("lifecycle explorer").value
    with pytest.raises(ValueError, match="edit"):  # bad arguments are still refused
        lifecycle_explorer("translate")
    with pytest.raises(ValueError, match="section"):
        lifecycle_explorer(section=("Deployment Guide", "No such heading"))
