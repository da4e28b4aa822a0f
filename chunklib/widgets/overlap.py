"""The lesson-3 overlap explorer: N, C and O sliders, a chunk stepper, a plot and a summary.

One setting (N, C, O) gives one ``WindowPlan``: the spans, K, the starts, the lengths, the
stored positions and the duplication factor, computed and validated once with
``chunklib.windows``. The overlap slider's maximum follows C − 1, so O stays below C; when C
drops below the current O, O is clamped, the explorer says so, and the picture is drawn once.
Up to 30 chunks are drawn one row each; beyond that (O near C − 1 gives hundreds) the plot
shows 30 evenly spaced chunks and the current one, and the summary says so.

Leaves out: real text (lesson 1 shows windows over words and tokens); here a document is just
N unit positions. The skeleton (caching, redraws, stepper, autograde note) is
``chunklib.widgets.explorer``.

    >>> OverlapExplorer(n=1000, size=200, overlap=50).summary_rows()[0]
    ('stride S = C − O', '200 − 50 = 150')
"""

from __future__ import annotations

from typing import NamedTuple

import ipywidgets as widgets

from chunklib import windows
from chunklib.validate import require_int, require_window
from chunklib.widgets.common import int_slider, short_list
from chunklib.widgets.explorer import Explorer
from chunklib.widgets.plotting import (
    MAX_ROWS,
    interval_frame,
    interval_rows,
    sampled_rows_row,
    shown_rows,
)


class WindowPlan(NamedTuple):
    """Everything lesson 3 says about one (N, C, O): computed once by ``window_plan``."""

    n: int
    size: int
    overlap: int
    stride: int
    spans: list[tuple[int, int]]
    starts: list[int]
    lengths: list[int]
    stored: int      # unit positions over all chunks, duplicates counted
    factor: float    # stored / N (1.0 for an empty document)


def window_plan(n: int, size: int, overlap: int) -> WindowPlan:
    """The chunks of a document of ``n`` units and their numbers, validated once.

    ``window_plan(1000, 200, 50).stored`` -> 1300
    """
    size, overlap = require_window(size, overlap)
    n = require_int("n", n, minimum=0)
    spans = windows.window_spans(n, size, overlap)
    lengths = [end - start for start, end in spans]
    stored = sum(lengths)
    return WindowPlan(n, size, overlap, size - overlap, spans, [s for s, _ in spans], lengths,
                      stored, stored / n if n else 1.0)


class OverlapExplorer(Explorer):
    """Interactive overlap explorer; ``OverlapExplorer().n_slider.value = 700`` redraws it."""

    name = "overlap explorer"
    margins = {"left": 0.08, "bottom": 0.16, "top": 0.88}
    empty = "the document is empty."

    def __init__(self, n: int = 1000, size: int = 200, overlap: int = 50,
                 unit: str = "tokens"):
        self.unit = unit
        super().__init__(n=n, size=size, overlap=overlap)

    @classmethod
    def check(cls, n=1000, size=200, overlap=50) -> None:
        require_window(size, overlap)
        require_int("n", n, minimum=0)

    def make_controls(self, n, size, overlap):
        unit = self.unit
        self.n_slider = int_slider("document N", n, 0, max(2000, n), 10,
                                   f"document length N in {unit}")
        self.size_slider = int_slider("chunk size C", size, 10, max(500, size), 10,
                                      f"chunk size C in {unit}")
        self.overlap_slider = int_slider("overlap O", overlap, 0, size - 1, 1,
                                         f"overlap O in {unit}, always below C")
        self.note = widgets.HTML()
        return {"n": self.n_slider, "size": self.size_slider, "overlap": self.overlap_slider}

    def notes(self):
        return [self.note]

    def adjust(self, name, old, new) -> None:
        if name != "size":
            return
        before = self.overlap_slider.value
        self.overlap_slider.max = new - 1  # clamps O when C drops to it or below
        after = self.overlap_slider.value
        self.note.value = (f"<i>Overlap lowered from {before} to {after}: O must stay below "
                           "C.</i>" if after != before else "")

    def compute(self, params) -> WindowPlan:
        return window_plan(params.n, params.size, params.overlap)

    def count(self, plan: WindowPlan) -> int:
        return len(plan.spans)

    def frame_key(self, plan: WindowPlan):
        return self.unit  # labels and legend; the x axis follows N on every draw

    def draw_frame(self, ax, plan: WindowPlan) -> None:
        interval_frame(ax, unit=self.unit)

    def underlays(self, ax):
        return (ax.xaxis,)  # its range follows N: kept per N

    def under_key(self, plan: WindowPlan):
        return plan.n

    def draw_data(self, ax, plan: WindowPlan, current):
        ax.set_xlim(0, max(plan.n, 1))
        return interval_rows(ax, plan.spans, shown_rows(len(plan.spans), current), current)

    def step_text(self, plan: WindowPlan, current: int) -> str:
        start, end = plan.spans[current]
        return f"{self.unit} {start} to {end}"

    def describe(self, plan: WindowPlan, current):
        n, size, overlap, k, unit = plan.n, plan.size, plan.overlap, len(plan.spans), self.unit
        rows = [
            ("stride S = C − O", f"{size} − {overlap} = {plan.stride}"),
            ("chunks K", str(k)),
            ("starts", short_list(plan.starts)),
            ("last chunk", f"{plan.lengths[-1] if k else 0} {unit}"),
            ("stored positions", f"{plan.stored} ({plan.factor:.2f}× the document)"),
            ("always whole", f"any span of up to O + 1 = {overlap + 1} "
                             f"{unit if overlap else unit.removesuffix('s')}"),  # "1 token"
            *sampled_rows_row(k, current),
        ]
        return f"N = {n}, C = {size}, O = {overlap}", rows

    def alt(self, plan: WindowPlan, current) -> str:
        k = len(plan.spans)
        if not k:
            return "Empty plot: no chunks."
        drawn = "" if k <= MAX_ROWS else f" ({len(shown_rows(k, current))} of them drawn)"
        return (f"Plot of {k} chunks{drawn} over {plan.n} {self.unit}; chunk {current + 1} "
                "highlighted.")


def overlap_explorer(n: int = 1000, size: int = 200,
                     overlap: int = 50) -> OverlapExplorer | widgets.HTML:
    """Build the lesson-3 explorer; the lesson cell is this one call (a note while autograding).

    ``overlap_explorer(1000, 200, 50)`` -> OverlapExplorer(...)
    """
    return OverlapExplorer.build(n=n, size=size, overlap=overlap)
