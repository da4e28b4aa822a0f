"""Interval plots: one bar per chunk on its own row, overlap hatched, the current chunk marked.

Everything draws into a persistent ``matplotlib.figure.Figure`` (never pyplot), so a widget can
redraw the same figure on every slider move without leaking figures or duplicating output, and
``figure_png`` turns it into PNG bytes for an ``ipywidgets.Image``.

Colours come from matplotlib's ``tableau-colorblind10`` palette; the overlapping part of a chunk
is also hatched, so the plot reads in greyscale and for colour-blind readers.

Leaves out: the text summary that accompanies every plot (each widget writes its own) and
interactive matplotlib backends (the PNG works everywhere, including exported HTML).

    >>> fig = interval_figure([(0, 200), (150, 350)], n=350, current=1)
"""

from __future__ import annotations

import io

import matplotlib.style
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.patches import Patch
from matplotlib.ticker import MaxNLocator

# tableau-colorblind10: blue, orange, grey, ... (Tableau's colour-blind-safe set).
PALETTE = matplotlib.style.library["tableau-colorblind10"]["axes.prop_cycle"].by_key()["color"]
NEW_COLOUR = PALETTE[0]      # units a chunk adds
OVERLAP_COLOUR = PALETTE[1]  # units repeated from the previous chunk
CURRENT_EDGE = "black"


def new_figure(width: float = 7.5, height: float = 3.2) -> Figure:
    """A figure with one axes, attached to an Agg canvas (no pyplot, no GUI).

    ``new_figure().axes`` -> [<Axes ...>]
    """
    fig = Figure(figsize=(width, height), dpi=100, layout="constrained")
    FigureCanvasAgg(fig)
    fig.add_subplot()
    return fig


def draw_intervals(
    ax,
    spans: list[tuple[int, int]],
    n: int,
    *,
    current: int | None = None,
    unit: str = "tokens",
    title: str | None = None,
) -> None:
    """Draw chunks as rows on ``ax`` (first chunk on top), the part shared with the previous
    chunk in a hatched second colour, and a thick outline on chunk ``current`` (0-based).

    ``draw_intervals(ax, [(0, 200), (150, 350)], 350, current=0)``
    """
    ax.clear()
    k = len(spans)
    new_parts, shared_parts = [], []
    prev_end = 0
    for start, end in spans:
        shared_end = min(max(prev_end, start), end)
        shared_parts.append((start, shared_end - start))
        new_parts.append((shared_end, end - shared_end))
        prev_end = max(prev_end, end)
    rows = range(k)
    for row, (s, w) in zip(rows, new_parts):
        ax.broken_barh([(s, w)], (row - 0.38, 0.76), facecolor=NEW_COLOUR, edgecolor="white")
    for row, (s, w) in zip(rows, shared_parts):
        if w > 0:
            ax.broken_barh([(s, w)], (row - 0.38, 0.76), facecolor=OVERLAP_COLOUR,
                           edgecolor="black", hatch="///", linewidth=0.4)
    if current is not None and 0 <= current < k:
        s, e = spans[current]
        ax.broken_barh([(s, e - s)], (current - 0.45, 0.9), facecolor="none",
                       edgecolor=CURRENT_EDGE, linewidth=2.2)
    ax.set_xlim(0, max(n, 1))
    ax.set_ylim(k - 0.5 if k else 0.5, -0.5)
    ax.set_xlabel(f"position in the document ({unit})")
    ax.set_ylabel("chunk")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.yaxis.set_major_locator(MaxNLocator(integer=True, nbins=min(max(k, 1), 12)))
    ax.yaxis.set_major_formatter(lambda v, _pos: f"{int(v) + 1}" if v == int(v) else "")
    ax.grid(axis="x", alpha=0.3)
    ax.legend(
        handles=[Patch(facecolor=NEW_COLOUR, label="new units"),
                 Patch(facecolor=OVERLAP_COLOUR, hatch="///", edgecolor="black",
                       label="repeated from previous chunk"),
                 Patch(facecolor="none", edgecolor=CURRENT_EDGE, linewidth=2,
                       label="current chunk")],
        loc="lower left", bbox_to_anchor=(0, 1.0), ncol=3, fontsize=8, frameon=False,
    )
    if title:
        ax.set_title(title, fontsize=10, loc="right")


def interval_figure(spans, n, *, current=None, unit="tokens", title=None) -> Figure:
    """A new figure holding ``draw_intervals``'s plot.

    ``interval_figure([(0, 4), (3, 7)], 7).axes[0].get_ylabel()`` -> 'chunk'
    """
    fig = new_figure()
    draw_intervals(fig.axes[0], spans, n, current=current, unit=unit, title=title)
    return fig


def figure_png(fig: Figure, dpi: int = 80) -> bytes:
    """Render ``fig`` to PNG bytes.

    ``figure_png(interval_figure([(0, 4)], 4))[:4]`` -> b'\\x89PNG'
    """
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi)
    return buf.getvalue()
