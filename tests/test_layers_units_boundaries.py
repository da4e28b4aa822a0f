"""The lesson-1 units explorer on cached frames (chunklib.widgets.layers):
pictures independent of the path taken, frames rendered once per key, autograde mode."""

import io

import pytest
from PIL import Image

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


def test_empty_texts_draw_an_empty_frame():
    assert UnitsExplorer(text="").image.value[:4] == b"\x89PNG"


def test_not_drawn_while_autograding(monkeypatch):
    monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")
    assert units_explorer().value == not_drawn("units explorer").value
    # bad arguments are still refused
    with pytest.raises(ValueError, match="kind"):
        units_explorer(kind="bytes")
    with pytest.raises(TypeError, match="text"):
        units_explorer(text=3)
