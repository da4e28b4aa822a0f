"""The lesson-1 units plot: one bar per chunk, drawn as a frame and a data layer.

Holds the plot's constants (the two alternating chunk styles, the colours of the cut marks
and of the unread tails, the margins) and its drawing functions: ``unit_chunks_frame`` (axes,
labels, legend: what ``chunklib.widgets.layers.Layers`` caches),
``unit_chunks_bars`` (the chunks) and
``draw_unit_chunks`` (both, for a plain figure). matplotlib is imported inside them.

Leaves out: the explorer and its controls (``chunklib.widgets.units``) and the HTML views of
the text (``chunklib.widgets.units_html``).

    >>> draw_unit_chunks(ax, [(0, 200), (200, 350)], 350, "word-like units", current=0)
"""

from __future__ import annotations

from chunklib.widgets.plotting import PALETTE, row_ticks, rows_patch

#: Chunk k is drawn (plot) and shaded (text) in CHUNK_STYLES[k % 2]: light blue, light orange.
CHUNK_STYLES = [(PALETTE[7], "///"), (PALETTE[8], "\\\\\\")]
CUT_COLOUR = PALETTE[5]      # dark orange
UNREAD_COLOUR = PALETTE[9]   # light grey, dotted
LABEL_LIMIT = 12             # write each chunk's length beside its bar up to this many chunks
#: Fixed margins (fractions of the 600 x 304 px picture): room for four-digit row numbers on
#: the left, the x tick label at the right end, the two-row legend above the axes.
MARGINS = {"left": 0.085, "right": 0.97, "bottom": 0.13, "top": 0.86}


def unit_chunks_frame(ax, n: int, unit: str, labelled: bool) -> None:
    """What the units plot shows whatever the chunks: the x axis over ``n`` units (8 % wider
    when ``labelled``, for the lengths written beside the bars), its grid, the axis labels and
    the legend.

    ``unit_chunks_frame(ax, 1204, "word-like units", labelled=True)``
    """
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch
    from matplotlib.ticker import MaxNLocator

    ax.clear()
    ax.set_xlim(0, max(n, 1) * (1.08 if labelled else 1.0))
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.grid(axis="x", alpha=0.3)
    ax.set_xlabel(f"position in the passage ({unit})")
    ax.set_ylabel("chunk")
    ax.legend(handles=[
        Patch(facecolor=CHUNK_STYLES[0][0], hatch=CHUNK_STYLES[0][1], edgecolor="black",
              label="chunk"),
        Patch(facecolor=CHUNK_STYLES[1][0], hatch=CHUNK_STYLES[1][1], edgecolor="black",
              label="next chunk"),
        Patch(facecolor=UNREAD_COLOUR, hatch="...", edgecolor="black",
              label="not read by all-MiniLM-L6-v2"),
        Patch(facecolor="none", edgecolor="black", linewidth=2, label="current chunk"),
        Line2D([], [], linestyle="none", marker="X", color=CUT_COLOUR, markeredgecolor="black",
               label="ends inside a sentence"),
    ], loc="lower left", bbox_to_anchor=(0, 1.0), ncol=3, fontsize=8, frameon=False)


def unit_chunks_bars(ax, windows: list[tuple[int, int]], *, current: int | None = None,
                     cut: set[int] = frozenset(), unread: list[int] | None = None) -> list:
    """The data of the units plot on ``ax``: chunks as rows (first on top) in alternating
    hatched colours, the unread tail of each (from unit ``unread[k]`` on) dotted grey, an ×
    where chunk k - 1 ends inside a sentence for every k in ``cut``, chunk ``current``
    outlined, each chunk's length beside its bar up to ``LABEL_LIMIT`` chunks; sets the row
    axis. Returns the artists added.

    ``unit_chunks_bars(ax, [(0, 200), (200, 350)], current=0)`` -> [<PathPatch ...>, ...]
    """
    from matplotlib.patches import Rectangle

    k = len(windows)
    labels = []
    if k <= LABEL_LIMIT:
        labels = [ax.annotate(f"{end - start}", (end, row), xytext=(9, 0),
                              textcoords="offset points", va="center", fontsize=8)
                  for row, (start, end) in enumerate(windows)]
    rows = [(start, end, row) for row, (start, end) in enumerate(windows)]
    added = [rows_patch(ax, rows[parity::2], facecolor=colour, hatch=hatch, edgecolor="black",
                        linewidth=0.4)
             for parity, (colour, hatch) in enumerate(CHUNK_STYLES) if rows[parity::2]]
    tails = [(unread[row], end, row) for _start, end, row in rows
             if unread is not None and unread[row] < end]
    if tails:  # the part the model never reads, over its chunk
        added.append(rows_patch(ax, tails, facecolor=UNREAD_COLOUR, hatch="...",
                                edgecolor="black", linewidth=0.4))
    if current is not None and 0 <= current < k:
        start, end = windows[current]
        added.append(ax.add_patch(Rectangle((start, current - 0.48), end - start, 0.96,
                                            facecolor="none", edgecolor="black",
                                            linewidth=2.2)))
    marks = [(windows[c - 1][1], c - 1) for c in sorted(cut)]
    if marks:
        added += ax.plot(*zip(*marks, strict=True), linestyle="none", marker="X", markersize=8,
                         color=CUT_COLOUR, markeredgecolor="black", markeredgewidth=0.6)
    ax.set_ylim(max(k, 1) - 0.5, -0.5)
    ticks = row_ticks(k)
    ax.set_yticks(ticks, [str(r + 1) for r in ticks])  # integer ticks, chunks counted from 1
    return added + labels  # in the order a full render draws them (by zorder)


def draw_unit_chunks(ax, windows: list[tuple[int, int]], n: int, unit: str, *,
                     current: int | None = None, cut: set[int] = frozenset(),
                     unread: list[int] | None = None) -> None:
    """``unit_chunks_frame`` then ``unit_chunks_bars``: the whole units plot on ``ax``.

    ``draw_unit_chunks(ax, [(0, 200), (200, 350)], 350, "word-like units", current=0)``
    """
    unit_chunks_frame(ax, n, unit, len(windows) <= LABEL_LIMIT)
    unit_chunks_bars(ax, windows, current=current, cut=cut, unread=unread)
