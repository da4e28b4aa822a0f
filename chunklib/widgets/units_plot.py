"""The lesson-1 units plot: one bar per chunk, drawn as a frame and a data layer.

Holds the plot's constants (the two alternating chunk styles, the colours of the cut marks
and of the unread tails, the margins, how many rows are drawn at most) and its drawing
functions: ``unit_chunks_frame`` (grid, legend: what ``chunklib.widgets.layers.Layers``
renders once), ``unit_chunks_axis`` (the x axis, kept per unit kind and passage length) and
``unit_chunks_bars`` (the chunks). matplotlib is imported inside them.

Leaves out: the explorer and its controls (``chunklib.widgets.units``) and the HTML views of
the text (``chunklib.widgets.units_html``).

    >>> CHUNK_STYLES[0]
    ('#A2C8EC', '///')
"""

from __future__ import annotations

from chunklib.widgets.plotting import PALETTE, axis_labels, row_ticks, rows_patch

#: Chunk k is drawn (plot) and shaded (text) in CHUNK_STYLES[k % 2]: light blue, light orange.
CHUNK_STYLES = [(PALETTE[7], "///"), (PALETTE[8], "\\\\\\")]
CUT_COLOUR = PALETTE[5]      # dark orange
UNREAD_COLOUR = PALETTE[9]   # light grey, dotted
LABEL_LIMIT = 12             # write each chunk's length beside its bar up to this many chunks
MAX_ROWS = 60                # rows drawn at most (about 4 pixels each); see plotting.shown_rows
#: Fixed margins (fractions of the 600 x 304 px picture): room for four-digit row numbers on
#: the left, the x tick label at the right end, the two-row legend above the axes.
MARGINS = {"left": 0.085, "right": 0.97, "bottom": 0.13, "top": 0.86}


def unit_chunks_frame(ax):
    """What the units plot shows whatever the unit kind and the chunks: grid, y label, legend.
    Returns the x label, a text that ``unit_chunks_axis`` sets (it names the unit).

    ``unit_chunks_frame(ax).get_text()`` -> ''
    """
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch
    from matplotlib.ticker import MaxNLocator

    ax.clear()
    ax.xaxis.set_major_locator(MaxNLocator(integer=True, nbins=6))
    ax.grid(axis="x", alpha=0.3)
    xlabel, _ylabel = axis_labels(ax, "", "chunk")
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
    return xlabel


def unit_chunks_axis(ax, xlabel, n: int, unit: str, labelled: bool) -> None:
    """The x axis over ``n`` units (8 % wider when ``labelled``, for the lengths written beside
    the bars) and its label, ``xlabel`` from ``unit_chunks_frame``.

    ``unit_chunks_axis(ax, xlabel, 1204, "word-like units", labelled=True)``
    """
    ax.set_xlim(0, max(n, 1) * (1.08 if labelled else 1.0))
    xlabel.set_text(f"position in the passage ({unit})")


def unit_chunks_bars(ax, windows: list[tuple[int, int]], rows: list[int], *,
                     current: int | None = None, cut: set[int] = frozenset(),
                     unread: list[int] | None = None) -> list:
    """The data of the units plot on ``ax``: chunks ``rows`` (indices into ``windows``, top to
    bottom) in alternating hatched colours, the unread tail of each (from unit ``unread[k]``
    on) dotted grey, an × where chunk k - 1 ends inside a sentence for every k in ``cut``,
    chunk ``current`` outlined, each chunk's length beside its bar up to ``LABEL_LIMIT``
    chunks; sets the row axis. Returns the artists added.

    ``unit_chunks_bars(ax, [(0, 200), (200, 350)], [0, 1], current=0)`` -> [<PathPatch ...>, ...]
    """
    from matplotlib.patches import Rectangle

    row_of = {k: row for row, k in enumerate(rows)}
    bars = [(*windows[k], row, k) for row, k in enumerate(rows)]
    labels = []
    if len(windows) <= LABEL_LIMIT:
        labels = [ax.annotate(f"{end - start}", (end, row), xytext=(9, 0),
                              textcoords="offset points", va="center", fontsize=8)
                  for start, end, row, _k in bars]
    added = []
    for parity, (colour, hatch) in enumerate(CHUNK_STYLES):
        mine = [(start, end, row) for start, end, row, k in bars if k % 2 == parity]
        if mine:
            added.append(rows_patch(ax, mine, facecolor=colour, hatch=hatch, edgecolor="black",
                                    linewidth=0.4))
    tails = [(unread[k], end, row) for _start, end, row, k in bars
             if unread is not None and unread[k] < end]
    if tails:  # the part the model never reads, over its chunk
        added.append(rows_patch(ax, tails, facecolor=UNREAD_COLOUR, hatch="...",
                                edgecolor="black", linewidth=0.4))
    if current in row_of:
        start, end = windows[current]
        added.append(ax.add_patch(Rectangle((start, row_of[current] - 0.48), end - start, 0.96,
                                            facecolor="none", edgecolor="black",
                                            linewidth=2.2)))
    marks = [(windows[c - 1][1], row_of[c - 1]) for c in sorted(cut) if c - 1 in row_of]
    if marks:
        added += ax.plot(*zip(*marks, strict=True), linestyle="none", marker="X", markersize=8,
                         color=CUT_COLOUR, markeredgecolor="black", markeredgewidth=0.6)
    ax.set_ylim(max(len(rows), 1) - 0.5, -0.5)
    ticks = row_ticks(len(rows))
    ax.set_yticks(ticks, [str(rows[t] + 1) for t in ticks])  # chunks counted from 1
    return added + labels  # in the order a full render draws them (by zorder)
