"""The skeleton every lesson explorer stands on (``Explorer``), its cached-frame picture
(``Layers``) and the accessible widgets it is made of; docs/explorers.md explains the design.

Leaves out: the drawing of any particular plot (each explorer's module) and interactive
matplotlib backends (the picture is a PNG, which works in exported HTML too).

    >>> from chunklib.widgets.overlap import OverlapExplorer
    >>> e, layers = OverlapExplorer(n=1000, size=200, overlap=50), Layers(7.5, 3.2)
    >>> e.size_slider.value = 300
    >>> png = layers.draw(lambda: None, list)
"""

from __future__ import annotations

import html
import io
import os
from collections import OrderedDict, namedtuple
from contextlib import contextmanager
from functools import lru_cache
from importlib.resources import files

import ipywidgets as widgets
from IPython import get_ipython
from IPython.display import Javascript, display
from traitlets import Unicode

# matplotlib's tableau-colorblind10 (a test checks these against matplotlib's style library)
PALETTE = ["#006BA4", "#FF800E", "#ABABAB", "#595959", "#5F9ED1", "#C85200", "#898989",
           "#A2C8EC", "#FFBC79", "#CFCFCF"]
WIDGET_A11Y_JS = files(__package__).joinpath("a11y.js").read_text(encoding="utf-8")
_sent_in = None  # the (shell, cell run) the script was last sent in


def send_widget_a11y() -> bool:
    """Display ``a11y.js`` once per cell run, only in a kernel: ``send_widget_a11y()`` -> False"""
    global _sent_in
    shell = get_ipython()
    if getattr(shell, "kernel", None) is None or _sent_in == (id(shell), shell.execution_count):
        return False
    _sent_in = (id(shell), shell.execution_count)
    display(Javascript(WIDGET_A11Y_JS))
    return True


class PlotImage(widgets.Image):
    """A PNG whose ``tooltip`` (its alt text) becomes the ``<img>`` title (docs/explorers.md).

    ``PlotImage(tooltip="Plot of 7 chunks").tooltip`` -> 'Plot of 7 chunks'
    """

    description = Unicode("").tag(sync=True)

    def __init__(self, **kwargs):
        send_widget_a11y()
        super().__init__(format="png", layout={"max_width": "640px", "align_self": "flex-start"},
                         **kwargs)


def int_slider(description: str, value: int, lo: int, hi: int, step: int = 1,
               tooltip: str | None = None) -> widgets.IntSlider:
    """An integer slider with a label and a tooltip: ``int_slider("O", 50, 0, 99).value`` -> 50"""
    send_widget_a11y()
    return widgets.IntSlider(value=value, min=lo, max=hi, step=step, description=description,
                             tooltip=tooltip or description, continuous_update=False,
                             style={"description_width": "9em"}, layout={"width": "28em"})


def summary_html(title: str, rows: list[tuple[str, str]], alt: str) -> str:
    """The text alternative beside a picture: a live region, a table, the alt text under it.

    ``summary_html("Overlap", [("stride", "150")], "7 chunks")`` -> "<div role=...150...</div>"
    """
    body = "".join(f"<tr><th style='text-align:left;padding-right:1em'>{html.escape(k)}</th>"
                   f"<td>{html.escape(v)}</td></tr>" for k, v in rows)
    return (f"<div role='status' aria-live='polite'><b>{html.escape(title)}</b><table>{body}"
            f"</table><p><small>Plot: {html.escape(alt)}</small></p></div>")


def autograding() -> bool:
    """True while nbgrader runs the notebook: ``autograding()`` -> False"""
    return bool(os.environ.get("NBGRADER_EXECUTION"))


def not_drawn(name: str) -> widgets.HTML:
    """What an explorer's cell shows while nbgrader runs the notebook.

    ``not_drawn("overlap explorer").value`` -> '<i>The overlap explorer is not drawn ...</i>'
    """
    return widgets.HTML(f"<i>The {html.escape(name)} is not drawn while nbgrader runs this "
                        "notebook; open the notebook in JupyterLab to use it.</i>")


def bars_patch(ax, bars, **style):
    """One patch of many rectangles ``(x, width, y, height)`` (cheaper than one each).

    ``bars_patch(layers.axes[0], [(0, 5, 0.6, 0.5)]).get_path().vertices[2].tolist()`` -> [5.0, 1.1]
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
    """A figure drawn as a frame rendered once, underlays kept on it per key (at most
    ``max_frames``) and a data layer on top, with fixed margins. The module example's draw
    again: restored, not rendered.

    ``(layers.draw(lambda: None, list) == png, layers.frame_renders)`` -> (True, 1)
    """

    def __init__(self, width: float, height: float, margins: dict | None = None,
                 max_frames: int = 24):
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure

        if max_frames < 1:
            raise ValueError(f"max_frames must be at least 1, got {max_frames!r}")
        self.figure = Figure(figsize=(width, height), dpi=80)
        self.canvas, self.axes = FigureCanvasAgg(self.figure), [self.figure.add_subplot()]
        self.figure.subplots_adjust(**{"left": 0.09, "right": 0.96, "bottom": 0.17,
                                       "top": 0.86, **(margins or {})})
        self.max_frames, self.frame_renders = max_frames, 0  # renders: for tests, benchmarks
        self._frame, self._frames = None, OrderedDict()  # under_key -> frame with underlays
        self._data = []

    def draw(self, frame, data, overlays=tuple, underlays=tuple, under_key=None) -> bytes:
        """Redraw and return the PNG: ``frame()`` on the first draw only, ``data()`` always
        (the next draw removes the artists it returns); the artists of ``overlays()`` and
        ``underlays()`` are kept, the frame with the underlays per ``under_key``.
        """
        for artist in self._data:
            artist.remove()
        if self._frame is None:
            frame()
        self._data, under, over = list(data()), list(underlays()), list(overlays())
        for artist in [*under, *self._data, *over]:
            artist.set_animated(True)  # left out of the frame's render
        if under_key in self._frames:
            self._frames.move_to_end(under_key)
            self.canvas.restore_region(self._frames[under_key])
        else:
            if self._frame is None:
                self.canvas.draw()
                self.frame_renders += 1
                self._frame = self.canvas.copy_from_bbox(self.figure.bbox)
            self.canvas.restore_region(self._frame)
            for artist in under:
                self.figure.draw_artist(artist)
            self._frames[under_key] = self.canvas.copy_from_bbox(self.figure.bbox)
            if len(self._frames) > self.max_frames:
                self._frames.popitem(last=False)
        for artist in [*self._data, *over]:
            self.figure.draw_artist(artist)
        return self.png()

    def png(self) -> bytes:
        """PNG bytes of what the canvas holds now (no new render): ``layers.png() == png`` -> True
        """
        from PIL import Image

        buf = io.BytesIO()
        Image.frombuffer("RGBA", self.canvas.get_width_height(physical=True),
                         self.canvas.buffer_rgba(), "raw", "RGBA", 0, 1).save(
            buf, format="png", compress_level=1)
        return buf.getvalue()


class Explorer(widgets.VBox):
    """An explorer (a VBox: the lesson cell returns it) states its controls, ``compute``, the
    picture's frame and data, the summary and the stepper's words (docs/explorers.md lists
    them). The module example's explorer has drawn twice:

    ``(e.redraws, e.summary_rows()[0])`` -> (2, ('stride S = C − O', '300 − 50 = 250'))
    """

    name = "explorer"  # for the autograde placeholder
    figsize, margins = (7.5, 3.2), None
    empty = "there is nothing to chunk."  # the stepper's line when there are no chunks
    has_stepper, stepper_tooltip = True, "which chunk to highlight"
    cache_size = 32  # settings whose computed value is kept

    @classmethod
    def build(cls, **args):
        """The factory's body: the explorer, or the placeholder while nbgrader runs."""
        cls.check(**args)
        return not_drawn(cls.name) if autograding() else cls(**args)

    def __init__(self, **args):
        self.check(**args)
        self.redraws, self._batching, self._drawing, self._dirty = 0, False, False, False
        self.controls = self.make_controls(**args)
        self.Params = namedtuple("Params", list(self.controls))
        self._compute = lru_cache(maxsize=self.cache_size)(self.compute)
        if self.has_stepper:
            self.chunk_slider = int_slider("chunk", 1, 1, 1, 1, self.stepper_tooltip)
            self.prev_button = widgets.Button(description="◀ previous", tooltip="previous chunk")
            self.next_button = widgets.Button(description="next ▶", tooltip="next chunk")
            self.prev_button.on_click(lambda _b: self.step(-1))
            self.next_button.on_click(lambda _b: self.step(+1))
            self.stepper = widgets.HBox([self.prev_button, self.chunk_slider, self.next_button])
            self.step_label = widgets.HTML()
            self.chunk_slider.observe(lambda change: self._changed(None, change), "value")
        self.summary = widgets.HTML(layout={"min_width": "22em"})
        self.layers = Layers(*self.figsize, margins=self.margins)
        self.figure, self.image = self.layers.figure, PlotImage()
        super().__init__(self.arrange())
        for name, control in self.controls.items():
            control.observe(lambda change, name=name: self._changed(name, change), "value")
        self.redraw()

    # -- optional: what an explorer may state (docs/explorers.md, step 8) --------------------

    @classmethod
    def check(cls, **args) -> None:
        """Refuse bad factory arguments (a ValueError or TypeError naming the argument)."""

    def adjust(self, name: str, old, new) -> None:
        """Called once per move of control ``name``, before the redraw (to clamp another)."""

    def show(self, value, current: int | None) -> None:
        """Fill the explorer's own views."""

    def overlays(self, ax) -> tuple:
        """Artists drawn over the data on every draw: the y axis (its rows follow the data)."""
        return (ax.yaxis, *ax.spines.values())

    def underlays(self, ax) -> tuple:
        """Artists drawn under the data, kept with the frame per ``under_key``."""
        return ()

    def under_key(self, value):
        """What the underlays depend on (None: nothing, they are drawn once)."""

    # -- the skeleton ---------------------------------------------------------------------

    def params(self):
        """The key of the computation: the control values (and any state no control holds)."""
        return self.Params(*(c.value for c in self.controls.values()))

    @property
    def computed(self):
        """The value object of the current setting (cached)."""
        return self._compute(self.params())

    @property
    def current(self) -> int | None:
        """The current chunk, 0-based; None when there are none."""
        if self.has_stepper and self.count(self.computed):
            return self.chunk_slider.value - 1
        return None

    def summary_rows(self) -> list[tuple[str, str]]:
        """The (label, value) rows the summary shows now."""
        return self.describe(self.computed, self.current)[1]

    def step(self, delta: int) -> None:
        """Move the stepper ``delta`` chunks, staying in range."""
        s = self.chunk_slider
        s.value = min(max(s.value + delta, s.min), s.max)

    @contextmanager
    def batch(self):
        """Redraw once, at the end, for all the moves made inside (``with e.batch(): ...``)."""
        outer, self._batching = self._batching, True
        try:
            yield
        finally:
            self._batching = outer
        if self._dirty and not outer:
            self.redraw()

    def _changed(self, name: str | None, change) -> None:
        self._dirty = True
        if self._drawing:  # the stepper clamped while drawing: drawn as it is now
            return
        with self.batch():  # a control that ``adjust`` moves is drawn with this move, once
            if name:
                self.adjust(name, change["old"], change["new"])

    def refresh(self) -> None:
        """Redraw after a change that no control holds (a button press)."""
        self._changed(None, None)

    def redraw(self) -> None:
        """Draw the stepper line, the picture, the summary and the views of this setting."""
        self._drawing = True
        try:
            value, current = self.computed, None
            if self.has_stepper:
                k = self.count(value)
                self.chunk_slider.max = max(k, 1)  # clamps the stepper to fewer chunks
                self.chunk_slider.disabled = k == 0
                current = self.chunk_slider.value - 1 if k else None
                self.step_label.value = (f"<b>Chunk {current + 1} of {k}</b>: "
                                         f"{self.step_text(value, current)}" if k else
                                         f"<b>No chunks</b>: {self.empty}")
            ax = self.figure.axes[0]
            png = self.layers.draw(lambda: self.draw_frame(ax, value),
                                   lambda: self.draw_data(ax, value, current),
                                   lambda: self.overlays(ax), lambda: self.underlays(ax),
                                   self.under_key(value))
            alt = self.alt(value, current)
            self.image.value, self.image.tooltip = png, alt
            self.summary.value = summary_html(*self.describe(value, current), alt)
            self.show(value, current)
            self.redraws += 1
        finally:
            self._drawing = self._dirty = False
