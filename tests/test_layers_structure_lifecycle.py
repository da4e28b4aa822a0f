"""The lesson-5 explorer on cached frames (chunklib.widgets.layers): the picture does
not
depend on the path taken, the caches are bounded and give what a fresh build gives, and
nothing is drawn (nor matplotlib imported) while nbgrader autogrades."""

import io

import pytest
from PIL import Image

from chunklib.course.edits import EDITS
from chunklib.widgets.common import not_drawn
from chunklib.widgets.lifecycle import KEPT_SHADOWS, MATRIX, LifecycleExplorer, lifecycle_explorer

OVERVIEW = ("Deployment Guide", "Overview")


def pixels(png: bytes) -> bytes:
    return Image.open(io.BytesIO(png)).convert("RGBA").tobytes()


def lifecycle_rows(x):
    """The summary without generation numbers (they count builds, so they follow the path)."""
    return [(k, v) for k, v in x.summary_rows() if k not in ("shadow", "readers see")]


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
    assert lifecycle_rows(x) == lifecycle_rows(fresh)
    assert x.table.value == fresh.table.value
    assert x.layers.frame_renders == 3  # one per column layout (44, 46, 45), then cached


def test_a_return_to_a_recent_edit_builds_nothing_and_the_lru_is_bounded():
    x = LifecycleExplorer()
    first = x.report.generation
    x.edit_menu.value = "insert a paragraph"
    x.edit_menu.value = EDITS[0]
    assert x.report.generation == first and max(x.index.generations()) == first + 1
    x.publish_button.click()  # a reused shadow is still publishable
    assert x.index.published() == first
    x.rollback_button.click()
    paths = [value for _label, value in x.section_menu.options]
    for path in paths[:KEPT_SHADOWS + 3]:
        x.section_menu.value = path
    live = {g for g, state in x.index.generations().items() if state != "retired"}
    assert len(live) == 1 + KEPT_SHADOWS and first not in live  # the oldest were dropped
    assert x.report.generation in live and x.index.published() == 1


def test_not_drawn_while_nbgrader_runs(monkeypatch):
    monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")
    assert lifecycle_explorer().value == not_drawn("lifecycle explorer").value
    with pytest.raises(ValueError, match="edit"):  # bad arguments are still refused
        lifecycle_explorer("translate")
    with pytest.raises(ValueError, match="section"):
        lifecycle_explorer(section=("Deployment Guide", "No such heading"))
