"""Fast redraws for the explorers: a figure drawn as a cached frame with a data layer on top.

A slider move changes the data (bars, markers, the current chunk), rarely the frame (axes,
x ticks and grid, axis labels, legend), and the frame's text is most of what a matplotlib
render costs. ``Layers`` therefore renders the frame once per *frame key* (the values it
depends on, such as the document length), keeps that picture, and on every later draw with the
same key restores it and draws only the data artists over it (matplotlib's blitting:
``copy_from_bbox``, ``restore_region``, ``draw_artist``), then encodes the canvas with Pillow.
Artists marked animated are left out of the frame render; the data artists and the overlays
(usually the y axis, whose ticks follow the number of rows, and the spines) are animated.
Underlays (an x axis whose range follows a slider, say: drawing an axis costs more than the
bars) are drawn on the frame and, with a key of their own, kept with it, so a slider that
changes the range costs one axis draw the first time and a restore after that.

The figure has fixed margins (``subplots_adjust``), never a layout engine: a layout engine
would move the axes between draws and invalidate the cached frame. Callers choose margins that
fit their labels.

matplotlib is imported when the first figure is made, so importing this module costs nothing
during autograding, where no explorer is drawn (``chunklib.widgets.common.autograding``).

Leaves out: interactive backends and partial-region blitting (the whole canvas is one region;
the pictures are small).

    >>> layers = Layers(7.5, 3.2)
"""

from __future__ import annotations

import io
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable

DPI = 80
_UNSET = object()  # no frame drawn yet: differs from every key
DEFAULT_MARGINS = {"left": 0.09, "right": 0.96, "bottom": 0.17, "top": 0.86}


def new_canvas_figure(width: float, height: float, margins: dict | None = None,
                      nrows: int = 1, dpi: int = DPI, **subplot_kw):
    """A Figure on an Agg canvas with ``nrows`` axes and fixed margins (no layout engine).

    ``new_canvas_figure(7.5, 3.2).axes`` -> [<Axes ...>]
    """
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), dpi=dpi)
    FigureCanvasAgg(fig)
    for row in range(nrows):
        fig.add_subplot(nrows, 1, row + 1, **subplot_kw)
    fig.subplots_adjust(**{**DEFAULT_MARGINS, **(margins or {})})
    return fig


def canvas_png(fig) -> bytes:
    """PNG bytes of what ``fig``'s Agg canvas holds now (no new render).

    ``canvas_png(fig)[:4]`` -> b'\\x89PNG'
    """
    from PIL import Image

    canvas = fig.canvas
    width, height = canvas.get_width_height(physical=True)
    image = Image.frombuffer("RGBA", (width, height), canvas.buffer_rgba(), "raw", "RGBA", 0, 1)
    buf = io.BytesIO()
    image.save(buf, format="png", compress_level=1)
    return buf.getvalue()


class Layers:
    """One figure, redrawn as a cached frame (per key) plus a data layer.

    ``png = layers.draw(key=(n,), frame=set_up_axes, data=draw_bars)``: ``frame()`` runs only
    when the key differs from the previous draw's; ``data()`` runs every time and returns the
    artists it added, which the next draw removes. At most ``max_frames`` pictures are kept
    (about 0.6 MB each), frames and frames with underlays together, the least recent dropped.
    """

    def __init__(self, width: float, height: float, margins: dict | None = None, nrows: int = 1,
                 max_frames: int = 24, dpi: int = DPI):
        if max_frames < 1:
            raise ValueError(f"max_frames must be at least 1, got {max_frames!r}")
        self.figure = new_canvas_figure(width, height, margins, nrows, dpi)
        self.max_frames = max_frames
        self._frames: OrderedDict[Hashable, object] = OrderedDict()
        self._key: object = _UNSET
        self._data: list = []
        self.frame_renders = 0  # how many times the frame was rendered (tests, benchmarks)

    @property
    def axes(self) -> list:
        """The figure's axes, top to bottom."""
        return self.figure.axes

    def draw(self, key: Hashable, frame: Callable[[], None],
             data: Callable[[], Iterable], overlays: Iterable | Callable = (),
             underlays: Iterable | Callable = (), under_key: Hashable | None = None) -> bytes:
        """Redraw and return the PNG: ``frame()`` on a new key, ``data()`` always.

        ``overlays`` are existing artists drawn over the data on every draw (for example an
        axis whose tick labels depend on the data), ``underlays`` under it (for example an x
        axis and its grid, whose range ``data()`` sets); both are kept, never removed, and
        either may be a function returning them (called after ``frame()``). With an
        ``under_key`` (what the underlays depend on besides ``key``), the frame with the
        underlays drawn on it is kept too, so a draw with a known pair only restores it.
        """
        for artist in self._data:
            artist.remove()
        self._data = []
        if key != self._key:
            frame()
            self._key = key
        self._data = [a for a in data() if a is not None]
        underlays = list(underlays() if callable(underlays) else underlays)
        overlays = list(overlays() if callable(overlays) else overlays)
        for artist in [*underlays, *self._data, *overlays]:
            artist.set_animated(True)
        canvas = self.figure.canvas
        both = (key, under_key)
        if under_key is not None and both in self._frames:
            self._frames.move_to_end(both)
            canvas.restore_region(self._frames[both])
        else:
            self._restore_frame(key)
            for artist in underlays:
                self.figure.draw_artist(artist)
            if under_key is not None:
                self._keep(both, canvas.copy_from_bbox(self.figure.bbox))
        for artist in [*self._data, *overlays]:
            self.figure.draw_artist(artist)
        return canvas_png(self.figure)

    def _restore_frame(self, key: Hashable) -> None:
        """Put the frame of ``key`` on the canvas, rendering it if it is not kept."""
        canvas = self.figure.canvas
        background = self._frames.get((key,))
        if background is None:
            canvas.draw()  # skips animated artists: the frame alone
            self.frame_renders += 1
            self._keep((key,), canvas.copy_from_bbox(self.figure.bbox))
        else:
            self._frames.move_to_end((key,))
            canvas.restore_region(background)

    def _keep(self, key: Hashable, background) -> None:
        self._frames[key] = background
        if len(self._frames) > self.max_frames:
            self._frames.popitem(last=False)
