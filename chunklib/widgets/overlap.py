"""The lesson-3 overlap explorer: N, C and O sliders (O is clamped below C, and the explorer
says so), the chunks as rows with the part repeated from the previous chunk hatched, a summary.

Leaves out: real text (lesson 1 shows windows over words and tokens); here a document is just
N unit positions.

    >>> e = OverlapExplorer(n=1000, size=200, overlap=50)
    >>> e.summary_rows()[0]
    ('stride S = C − O', '200 − 50 = 150')
"""

from __future__ import annotations

from typing import NamedTuple

import ipywidgets as widgets

from chunklib import windows
from chunklib.validate import require_int, require_window
from chunklib.widgets import rows
from chunklib.widgets.explorer import PALETTE, Explorer, int_slider


class WindowPlan(NamedTuple):
    """Everything lesson 3 says about one (N, C, O)."""

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

    def __init__(self, n: int = 1000, size: int = 200, overlap: int = 50, unit: str = "tokens"):
        self.unit = unit
        super().__init__(n=n, size=size, overlap=overlap)

    @classmethod
    def check(cls, n=1000, size=200, overlap=50) -> None:
        window_plan(n, size, overlap)

    def make_controls(self, n, size, overlap):
        self.n_slider = int_slider("document N", n, 0, max(2000, n), 10,
                                   f"document length N in {self.unit}")
        self.size_slider = int_slider("chunk size C", size, 10, max(500, size), 10,
                                      f"chunk size C in {self.unit}")
        self.overlap_slider = int_slider("overlap O", overlap, 0, size - 1, 1,
                                         f"overlap O in {self.unit}, always below C")
        self.note = widgets.HTML()
        return {"n": self.n_slider, "size": self.size_slider, "overlap": self.overlap_slider}

    def arrange(self):
        return [*self.controls.values(), self.note, self.stepper, self.step_label,
                widgets.HBox([self.image, self.summary])]

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

    def draw_frame(self, ax, plan: WindowPlan) -> None:
        from matplotlib.patches import Patch
        from matplotlib.ticker import MaxNLocator

        rows.axis_labels(ax, f"position in the document ({self.unit})", "chunk")
        ax.xaxis.set_major_locator(MaxNLocator(integer=True, nbins=6))
        ax.grid(axis="x", alpha=0.3)
        ax.legend(handles=[Patch(facecolor=PALETTE[0], label="new units"),
                           Patch(facecolor=PALETTE[1], hatch="///", edgecolor="black",
                                 label="repeated from previous chunk"),
                           Patch(facecolor="none", edgecolor="black", linewidth=2,
                                 label="current chunk")],
                  loc="lower left", bbox_to_anchor=(0, 1.0), ncol=3, fontsize=8, frameon=False)

    def underlays(self, ax):
        return (ax.xaxis,)  # its range follows N: kept with the frame per N

    def under_key(self, plan: WindowPlan):
        return plan.n

    def draw_data(self, ax, plan: WindowPlan, current):
        """Each shown chunk a row: the part repeated from the previous chunk hatched in the
        second colour, the rest in the first, the current chunk outlined. Returns the artists:

        ``[type(a).__name__ for a in e.draw_data(e.figure.axes[0], e.computed, 0)]``
        -> ['PathPatch', 'PathPatch', 'Rectangle']
        """
        from matplotlib.patches import Rectangle

        ax.set_xlim(0, max(plan.n, 1))
        shown = rows.shown_rows(len(plan.spans), current)
        new, repeated = [], []
        for row, k in enumerate(shown):
            start, end = plan.spans[k]
            cut = min(max(plan.spans[k - 1][1] if k else start, start), end)
            new.append((cut, end, row))
            repeated += [(start, cut, row)] if cut > start else []
        added = [rows.rows_patch(ax, new, facecolor=PALETTE[0], edgecolor="white",
                                 linewidth=0.6)] if new else []
        if repeated:
            added.append(rows.rows_patch(ax, repeated, facecolor=PALETTE[1], edgecolor="black",
                                         hatch="///", linewidth=0.4))
        if current in shown:
            start, end = plan.spans[current]
            added.append(ax.add_patch(Rectangle((start, shown.index(current) - 0.45),
                                                end - start, 0.9, facecolor="none",
                                                edgecolor="black", linewidth=2.2)))
        rows.row_axis(ax, shown)
        return added

    def step_text(self, plan: WindowPlan, current: int) -> str:
        start, end = plan.spans[current]
        return f"{self.unit} {start} to {end}"

    def describe(self, plan: WindowPlan, current):
        n, size, overlap, k, unit = plan.n, plan.size, plan.overlap, len(plan.spans), self.unit
        starts = plan.starts if k <= 7 else [*plan.starts[:4], "…", *plan.starts[-2:]]
        return f"N = {n}, C = {size}, O = {overlap}", [
            ("stride S = C − O", f"{size} − {overlap} = {plan.stride}"),
            ("chunks K", str(k)),
            ("starts", ", ".join(map(str, starts)) or "none"),
            ("last chunk", f"{plan.lengths[-1] if k else 0} {unit}"),
            ("stored positions", f"{plan.stored} ({plan.factor:.2f}× the document)"),
            ("always whole", f"any span of up to O + 1 = {overlap + 1} "
                             f"{unit if overlap else unit.removesuffix('s')}"),  # "1 token"
            *rows.sampled_rows_row(k, current),
        ]

    def alt(self, plan: WindowPlan, current) -> str:
        k = len(plan.spans)
        if not k:
            return "Empty plot: no chunks."
        drawn = "" if k <= rows.MAX_ROWS else (
            f" ({len(rows.shown_rows(k, current))} of them drawn)")
        return (f"Plot of {k} chunks{drawn} over {plan.n} {self.unit}; chunk {current + 1} "
                "highlighted.")


def overlap_explorer(n: int = 1000, size: int = 200,
                     overlap: int = 50) -> OverlapExplorer | widgets.HTML:
    """Build the lesson-3 explorer (a note instead while nbgrader runs the notebook).

    ``overlap_explorer(1000, 200, 50)`` -> OverlapExplorer(...)
    """
    return OverlapExplorer.build(n=n, size=size, overlap=overlap)
