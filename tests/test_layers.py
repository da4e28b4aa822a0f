"""Cached-frame redraws (chunklib.widgets.explorer.Layers), the palette, nbgrader's variable,
and the autograde mode of what is not an explorer (the lesson-2 comparison, the self-checks);
the explorers' autograde mode is part of tests/test_explorers.py."""

import io
import os
import subprocess
import sys

import pytest
from PIL import Image

from chunklib.widgets.explorer import PALETTE, Layers, autograding
from chunklib.widgets.rows import axis_labels, row_axis, rows_patch


def pixels(png: bytes) -> bytes:
    return Image.open(io.BytesIO(png)).convert("RGBA").tobytes()


def draw(layers, n, spans, current=0):
    """Chunk rows over ``n`` units, chunk ``current`` outlined; ``n`` is the x axis's key."""
    from matplotlib.patches import Rectangle

    ax = layers.axes[0]

    def frame():
        ax.clear()
        axis_labels(ax, "position", "chunk")
        ax.legend(handles=[Rectangle((0, 0), 1, 1, label="units")], loc="upper right")

    def data():
        ax.set_xlim(0, n)
        row_axis(ax, list(range(len(spans))))
        start, end = spans[current]
        return [rows_patch(ax, [(s, e, row) for row, (s, e) in enumerate(spans)]),
                ax.add_patch(Rectangle((start, current - 0.45), end - start, 0.9,
                                       facecolor="none", edgecolor="black"))]

    return layers.draw(frame, data, lambda: (ax.yaxis, *ax.spines.values()),
                       lambda: (ax.xaxis,), n)


def test_the_frame_is_rendered_once_and_the_underlays_once_per_key():
    layers = Layers(7.5, 3.2)
    draw(layers, 1000, [(0, 200), (150, 350)])
    draw(layers, 1000, [(0, 300)])
    draw(layers, 1000, [(0, 200), (150, 350), (300, 500)], current=2)
    assert layers.frame_renders == 1 and list(layers._frames) == [1000]
    draw(layers, 500, [(0, 300)])
    draw(layers, 1000, [(0, 300)])
    assert layers.frame_renders == 1  # 1000's x axis came back from the cache
    assert list(layers._frames) == [500, 1000]


def test_a_cached_frame_gives_the_same_picture_as_a_fresh_draw():
    spans = [(0, 200), (150, 350), (300, 500)]
    cached = Layers(7.5, 3.2)
    for n, s in ((1000, spans), (600, spans[:1]), (1000, spans[:2])):
        draw(cached, n, s)
    again = draw(cached, 1000, spans, current=1)
    fresh = draw(Layers(7.5, 3.2), 1000, spans, current=1)
    assert pixels(again) == pixels(fresh)
    assert again[:4] == b"\x89PNG" and cached.png() == again


def test_old_data_artists_are_removed():
    layers = Layers(7.5, 3.2)
    draw(layers, 1000, [(0, 100)] * 5)
    draw(layers, 1000, [(0, 100)])
    assert len(layers.axes[0].patches) == 2  # the bars (one patch) and the current outline


def test_the_frame_cache_is_bounded():
    layers = Layers(7.5, 3.2, max_frames=2)
    for n in (100, 200, 300, 100):
        draw(layers, n, [(0, 50)])
    assert layers.frame_renders == 1 and list(layers._frames) == [300, 100]
    with pytest.raises(ValueError, match="max_frames"):
        Layers(7.5, 3.2, max_frames=0)


def test_palette_is_matplotlibs_tableau_colorblind10():
    import matplotlib.style

    cycle = matplotlib.style.library["tableau-colorblind10"]["axes.prop_cycle"]
    assert [c.upper() for c in cycle.by_key()["color"]] == PALETTE


def test_autograding_follows_nbgraders_variable(monkeypatch):
    monkeypatch.delenv("NBGRADER_EXECUTION", raising=False)
    assert not autograding()
    monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")
    assert autograding()


# What a lesson cell runs besides the explorers: the lesson-2 comparison, the self-checks.
LESSON_CALLS = [
    "from chunklib.widgets.compare_plot import compare; "
    "from chunklib.course.comparison import compare_sizes; "
    "assert compare(size=300).png == b''; compare_sizes()",
    "import chunklib.course.units, chunklib.course.boundaries, chunklib.course.overlap, "
    "chunklib.course.structure, chunklib.course.lifecycle, chunklib.course.evaluation",
]


@pytest.mark.parametrize("call", LESSON_CALLS)
def test_autograde_mode_never_imports_matplotlib(call):
    code = f"import sys; {call}; print('matplotlib' in sys.modules)"
    env = {**os.environ, "NBGRADER_EXECUTION": "autograde"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "False"
