"""The lesson-1 units and lesson-2 boundaries explorers on cached frames (chunklib.widgets.layers):
pictures independent of the path taken, frames rendered once per key, autograde mode."""

import io

import pytest
from PIL import Image

from chunklib.widgets.boundaries import BoundariesExplorer, boundaries_explorer
from chunklib.widgets.common import not_drawn
from chunklib.widgets.units import UnitsExplorer, units_explorer


def pixels(png: bytes) -> bytes:
    return Image.open(io.BytesIO(png)).convert("RGBA").tobytes()


def test_units_picture_does_not_depend_on_the_path_taken():
    e = units_explorer(kind="words", size=200)
    e.chunk_slider.value = 5
    for size in (10, 1500, 300, 90):  # many chunks (no lengths), one chunk, a few
        e.size_slider.value = size
    e.kind_picker.value = "characters"  # another frame, then back to the words' frame
    e.kind_picker.value = "words"
    e.chunk_slider.value = 1
    e.size_slider.value = 200
    assert e.chunk_slider.value == 1
    assert pixels(e.image.value) == pixels(UnitsExplorer(kind="words", size=200).image.value)


@pytest.mark.parametrize(("kind", "size"), [("characters", 10), ("cl100k_tokens", 1500)])
def test_units_picture_at_the_extremes_matches_a_fresh_explorer(kind, size):
    e = units_explorer(kind="words", size=200)
    e.kind_picker.value = kind
    e.size_slider.value = size
    assert pixels(e.image.value) == pixels(UnitsExplorer(kind=kind, size=size).image.value)


def test_units_size_moves_reuse_the_frame_and_the_chunks():
    e = units_explorer(kind="words", size=200)
    renders = e.layers.frame_renders
    for size in (210, 200, 210, 200):  # K stays at 6 or 7: lengths beside the bars throughout
        e.size_slider.value = size
    assert e.layers.frame_renders == renders
    assert e._chunking.cache_info().misses == 2  # C = 200 and 210, each computed once


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
    assert UnitsExplorer(text="").image.value[:4] == b"\x89PNG"
    assert BoundariesExplorer(text="").image.value[:4] == b"\x89PNG"


def test_not_drawn_while_autograding(monkeypatch):
    monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")
    assert units_explorer().value == not_drawn("units explorer").value
    assert boundaries_explorer().value == not_drawn("boundaries explorer").value
    # bad arguments are still refused
    with pytest.raises(ValueError, match="kind"):
        units_explorer(kind="bytes")
    with pytest.raises(TypeError, match="text"):
        units_explorer(text=3)
    with pytest.raises(ValueError, match="size"):
        boundaries_explorer(size=0)
    with pytest.raises(TypeError, match="text"):
        boundaries_explorer(text=b"bytes")
