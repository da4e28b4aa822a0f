"""The lesson-2 boundaries explorer on cached frames (chunklib.widgets.layers): pictures
independent of the path taken, frames rendered once per key, autograde mode. (The units
explorer is on the explorer base: tests/test_explorers.py checks the same for it.)"""

import io

import pytest
from PIL import Image

from chunklib.widgets.boundaries import BoundariesExplorer, boundaries_explorer
from chunklib.widgets.common import not_drawn


def pixels(png: bytes) -> bytes:
    return Image.open(io.BytesIO(png)).convert("RGBA").tobytes()


def test_boundaries_picture_does_not_depend_on_the_path_taken():
    e = boundaries_explorer(size=300)
    e.chunk_slider.value = 4
    e.separator_boxes[". "].value = False
    e.merge_box.value = False
    for size in (20, 1000, 310):
        e.size_slider.value = size
    e.merge_box.value = True
    e.separator_boxes[". "].value = True
    e.chunk_slider.value = 1
    e.size_slider.value = 300
    assert pixels(e.image.value) == pixels(BoundariesExplorer(size=300).image.value)


def test_boundaries_moves_render_the_frame_once():
    e = boundaries_explorer(size=300)
    for size in (310, 300, 20, 1000):
        e.size_slider.value = size
    e.separator_boxes[" "].value = False
    assert e.layers.frame_renders == 1  # the frame depends on the text alone
    assert pixels(e.image.value) == pixels(_fresh_boundaries_without_spaces(1000).image.value)


def _fresh_boundaries_without_spaces(size: int) -> BoundariesExplorer:
    e = BoundariesExplorer(size=size)
    e.separator_boxes[" "].value = False
    return e


def test_empty_texts_draw_an_empty_frame():
    assert BoundariesExplorer(text="").image.value[:4] == b"\x89PNG"


def test_not_drawn_while_autograding(monkeypatch):
    monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")
    assert boundaries_explorer().value == not_drawn("boundaries explorer").value
    # bad arguments are still refused
    with pytest.raises(ValueError, match="size"):
        boundaries_explorer(size=0)
    with pytest.raises(TypeError, match="text"):
        boundaries_explorer(text=b"bytes")
