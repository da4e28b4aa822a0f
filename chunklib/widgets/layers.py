"""Fast redraws: a figure drawn as a frame cached per key with a data layer on top, and the
drawing pieces every explorer's plot shares (the palette, one patch for many bars).

The frame (axes, labels, legend: most of what a render costs) is rendered once per key and
kept; a later draw restores it and draws only the data artists over it (matplotlib's
blitting), then encodes the canvas with Pillow. docs/explorers.md says more, and why the
figure has fixed margins. matplotlib is imported when the first figure is made, so importing
this module costs nothing while nbgrader autogrades.

Leaves out: interactive backends and partial-region blitting (the pictures are small).

    >>> layers = Layers(7.5, 3.2)
    >>> png = layers.draw("empty", lambda: None, list)
    >>> png[:4], layers.frame_renders
    (b'\\x89PNG', 1)
    >>> ax = layers.axes[0]
"""

from __future__ import annotations

import io
from collections import OrderedDict

# matplotlib's tableau-colorblind10 (a test checks these against matplotlib's style library)
PALETTE = ["#006BA4", "#FF800E", "#ABABAB", "#595959", "#5F9ED1", "#C85200", "#898989",
           "#A2C8EC", "#FFBC79", "#CFCFCF"]
CURRENT_EDGE = "black"  # the outline of the current chunk
MARGINS = {"left": 0.09, "right": 0.96, "bottom": 0.17, "top": 0.86}


def new_canvas_figure(width: float, height: float, margins: dict | None = None,
                      nrows: int = 1, dpi: int = 80):
    """A Figure on an Agg canvas with ``nrows`` axes and fixed margins (no layout engine).

    ``new_canvas_figure(7.5, 3.2, nrows=2).axes`` -> [<Axes: >, <Axes: >]
    """
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), dpi=dpi)
    FigureCanvasAgg(fig)
    for row in range(nrows):
        fig.add_subplot(nrows, 1, row + 1)
    fig.subplots_adjust(**{**MARGINS, **(margins or {})})
    return fig


def canvas_png(fig) -> bytes:
    """PNG bytes of what ``fig``'s canvas holds now (no new render).

    ``canvas_png(layers.figure) == png`` -> True
    """
    from PIL import Image

    size = fig.canvas.get_width_height(physical=True)
    buf = io.BytesIO()
    Image.frombuffer("RGBA", size, fig.canvas.buffer_rgba(), "raw", "RGBA", 0, 1).save(
        buf, format="png", compress_level=1)
    return buf.getvalue()


def bars_patch(ax, bars, **style):
    """One patch holding every rectangle ``(x, width, y, height)``: a hatch costs as much per
    drawn path however small, so one path per style keeps many bars cheap. It does not change
    the data limits. Each rectangle is five vertices from its corner:

    ``bars_patch(ax, [(0, 5, 0.65, 0.7)]).get_path().vertices.tolist()``
    -> [[0.0, 0.65], [5.0, 0.65], [5.0, 1.35], [0.0, 1.35], [0.0, 0.65]]
    """
    from matplotlib.patches import PathPatch
    from matplotlib.path import Path

    vertices = [v for x, w, y, h in bars for v in ((x, y), (x + w, y), (x + w, y + h),
                                                   (x, y + h), (x, y))]
    codes = [Path.MOVETO, Path.LINETO, Path.LINETO, Path.LINETO, Path.CLOSEPOLY] * len(bars)
    patch = PathPatch(Path(vertices, codes), transform=ax.transData, **style)
    patch.set_clip_path(ax.patch)
    return ax.add_artist(patch)


class Layers:
    """One figure, redrawn as a cached frame plus a data layer; at most ``max_frames``
    pictures are kept (about 0.6 MB each), the least recently used dropped. Drawn again with
    the module example's key, the frame is restored, not rendered again:

    ``(layers.draw("empty", lambda: None, list) == png, layers.frame_renders)`` -> (True, 1)
    """

    def __init__(self, width: float, height: float, margins: dict | None = None, nrows: int = 1,
                 max_frames: int = 24):
        if max_frames < 1:
            raise ValueError(f"max_frames must be at least 1, got {max_frames!r}")
        self.figure = new_canvas_figure(width, height, margins, nrows)
        self.axes = self.figure.axes
        self.max_frames, self.frame_renders = max_frames, 0  # renders: for tests, benchmarks
        self._frames = OrderedDict()  # (key,) or (key, under_key) -> the picture
        self._key, self._data = object(), []  # no frame drawn yet: a key equal to none

    def draw(self, key, frame, data, overlays=tuple, underlays=tuple, under_key=None) -> bytes:
        """Redraw and return the PNG: ``frame()`` when ``key`` differs from the last draw's,
        ``data()`` always (it returns the artists it added, which the next draw removes).
        ``overlays()`` and ``underlays()`` return artists drawn over and under the data on
        every draw and never removed (an axis whose ticks follow the data); with an
        ``under_key`` (what the underlays depend on besides ``key``), the frame with the
        underlays drawn on it is kept too, so a known pair only restores it.
        """
        for artist in self._data:
            artist.remove()
        if key != self._key:
            frame()
            self._key = key
        self._data = [a for a in data() if a is not None]
        under, over = list(underlays()), list(overlays())
        for artist in [*under, *self._data, *over]:
            artist.set_animated(True)  # left out of the frame's render
        if under_key is None or not self._restore((key, under_key)):
            if not self._restore((key,)):
                self.figure.canvas.draw()
                self.frame_renders += 1
                self._keep((key,))
            for artist in under:
                self.figure.draw_artist(artist)
            if under_key is not None:
                self._keep((key, under_key))
        for artist in [*self._data, *over]:
            self.figure.draw_artist(artist)
        return canvas_png(self.figure)

    def _restore(self, name: tuple) -> bool:
        if name in self._frames:
            self._frames.move_to_end(name)
            self.figure.canvas.restore_region(self._frames[name])
        return name in self._frames

    def _keep(self, name: tuple) -> None:
        self._frames[name] = self.figure.canvas.copy_from_bbox(self.figure.bbox)
        if len(self._frames) > self.max_frames:
            self._frames.popitem(last=False)
