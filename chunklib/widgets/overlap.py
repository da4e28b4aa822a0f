"""The lesson-3 overlap explorer: N, C and O sliders, a chunk stepper, a plot and a summary.

The overlap slider's maximum follows C − 1, so O stays below C; when C drops below the
current O, O is clamped and the explorer says so. The summary is computed with
``chunklib.windows`` and doubles as the plot's text alternative.

Leaves out: real text (lesson 1 shows windows over words and tokens); here a document is just
N unit positions.

    >>> OverlapExplorer(n=1000, size=200, overlap=50).summary_rows()[0]
    ('stride S = C − O', '200 − 50 = 150')
"""

from __future__ import annotations

import ipywidgets as widgets

from chunklib import windows
from chunklib.validate import require_window
from chunklib.widgets.common import (
    ChunkStepper,
    autograding,
    image_view,
    int_slider,
    not_drawn,
    set_image,
    short_list,
    summary_html,
)
from chunklib.widgets.layers import Layers
from chunklib.widgets.plotting import interval_bars, interval_frame


class OverlapExplorer(widgets.VBox):
    """Interactive overlap explorer; a VBox, so the lesson cell just returns it.

    ``OverlapExplorer().n_slider.value = 700`` redraws the plot and the summary.
    """

    def __init__(self, n: int = 1000, size: int = 200, overlap: int = 50, unit: str = "tokens"):
        require_window(size, overlap)
        self.unit = unit
        self.n_slider = int_slider("document N", n, 0, max(2000, n), 10,
                                   f"document length N in {unit}")
        self.size_slider = int_slider("chunk size C", size, 10, max(500, size), 10,
                                      f"chunk size C in {unit}")
        self.overlap_slider = int_slider("overlap O", overlap, 0, size - 1, 1,
                                         f"overlap O in {unit}, always below C")
        self.stepper = ChunkStepper("which chunk to highlight")
        self.chunk_slider, self.step_label = self.stepper.slider, self.stepper.label
        self.prev_button, self.next_button = (self.stepper.prev_button,
                                              self.stepper.next_button)
        self.note = widgets.HTML()
        self.summary = widgets.HTML()
        self.layers = Layers(7.5, 3.2, margins={"left": 0.08, "bottom": 0.16, "top": 0.88})
        self.figure = self.layers.figure
        self.image = image_view(b"")
        stepper = self.stepper.box
        controls = widgets.VBox([self.n_slider, self.size_slider, self.overlap_slider,
                                 self.note, stepper, self.step_label])
        super().__init__([controls, widgets.HBox([self.image, self.summary])])
        self.size_slider.observe(self._on_size, names="value")
        for s in (self.n_slider, self.overlap_slider, self.chunk_slider):
            s.observe(self._redraw, names="value")
        self._redraw()

    @property
    def params(self) -> tuple[int, int, int]:
        """(N, C, O) as the sliders hold them now."""
        return self.n_slider.value, self.size_slider.value, self.overlap_slider.value

    def _on_size(self, change) -> None:
        old_overlap = self.overlap_slider.value
        self.overlap_slider.max = change["new"] - 1  # clamps O when C drops below it
        if self.overlap_slider.value != old_overlap:
            self.note.value = (f"<i>Overlap lowered from {old_overlap} to "
                               f"{self.overlap_slider.value}: O must stay below C.</i>")
        else:
            self.note.value = ""
        self._redraw()

    def summary_rows(self) -> list[tuple[str, str]]:
        """The numbers the summary shows, as (label, value) pairs."""
        n, size, overlap = self.params
        k = windows.n_chunks(n, size, overlap)
        stored = windows.stored_positions(n, size, overlap)
        factor = windows.duplication_factor(n, size, overlap)
        return [
            ("stride S = C − O", f"{size} − {overlap} = {windows.stride(size, overlap)}"),
            ("chunks K", str(k)),
            ("starts", short_list(windows.chunk_starts(n, size, overlap))),
            ("last chunk", f"{windows.last_chunk_length(n, size, overlap)} {self.unit}"),
            ("stored positions", f"{stored} ({factor:.2f}× the document)"),
            ("always whole", f"any span of up to O + 1 = {overlap + 1} {self.unit}"),
        ]

    def _redraw(self, _change=None) -> None:
        n, size, overlap = self.params
        spans = windows.window_spans(n, size, overlap)
        k = len(spans)
        current = self.stepper.follow(k)
        start, end = spans[current] if k else (0, 0)
        self.stepper.say(k, current, f"{self.unit} {start} to {end}", "the document is empty.")
        ax = self.figure.axes[0]
        png = self.layers.draw(
            key=(n, self.unit),
            frame=lambda: interval_frame(ax, n, unit=self.unit),
            data=lambda: interval_bars(ax, spans, current=current),
            overlays=(ax.yaxis, *ax.spines.values()),
        )
        rows = self.summary_rows()
        alt = (f"Plot of {k} chunks over {n} {self.unit}; chunk {current + 1} highlighted."
               if k else "Empty plot: no chunks.")
        set_image(self.image, png, alt)
        self.summary.value = summary_html(f"N = {n}, C = {size}, O = {overlap}", rows)


def overlap_explorer(n: int = 1000, size: int = 200,
                     overlap: int = 50) -> OverlapExplorer | widgets.HTML:
    """Build the lesson-3 explorer; the lesson cell is this one call (a note while autograding).

    ``overlap_explorer(1000, 200, 50)`` -> OverlapExplorer(...)
    """
    require_window(size, overlap)
    if autograding():
        return not_drawn("overlap explorer")
    return OverlapExplorer(n, size, overlap)
