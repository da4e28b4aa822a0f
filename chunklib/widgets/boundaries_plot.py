"""The lesson-2 boundaries plot: one row per chunk over character offsets, a dotted line at every
sentence end and an × wherever a chunk ends inside a sentence.

Holds the plot's constants (chunk styles, colours, margins), ``inside_sentence`` (the rule for
an ×, shared with the explorer's summary, ``chunklib.widgets.compare_plot`` and the lesson's
self-checks) and the drawing functions: ``boundaries_frame`` (the cached frame of
``chunklib.widgets.layers.Layers``),
``boundaries_rows`` (the data layer) and ``draw_boundaries`` (both,
for a plain figure). matplotlib is imported inside the drawing functions, never when this
module is imported.

Leaves out: the explorer, its controls and its text views (``chunklib.widgets.boundaries``).

    >>> inside_sentence(6, [(0, 4), (5, 9)])
    True
"""

from __future__ import annotations

from chunklib.sentences import inside_sentence
from chunklib.widgets.plotting import PALETTE, row_ticks, rows_patch

CHUNK_STYLES = [(PALETTE[0], "///"), (PALETTE[8], "\\\\\\")]  # blue, light orange
SENTENCE_COLOUR, CUT_COLOUR = PALETTE[3], PALETTE[5]  # dark grey, dark orange
#: Fixed margins (fractions of the 600 x 336 px picture): room for four-digit row numbers on
#: the left, the x tick label at the right end, the one-row legend above the axes.
MARGINS = {"left": 0.085, "right": 0.97, "bottom": 0.12, "top": 0.92}


def boundaries_frame(ax, text_length: int) -> None:
    """What the boundaries plot shows whatever the chunks: the x axis over ``text_length``
    characters, the axis labels and the legend.

    ``boundaries_frame(ax, 2200)``
    """
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch
    from matplotlib.ticker import MaxNLocator

    ax.clear()
    ax.set_xlim(0, max(text_length, 1))
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("character offset in the text")
    ax.set_ylabel("chunk")
    ax.legend(handles=[
        Patch(facecolor=CHUNK_STYLES[0][0], hatch=CHUNK_STYLES[0][1], edgecolor="black",
              label="chunk"),
        Patch(facecolor="none", edgecolor="black", linewidth=2, label="current chunk"),
        Line2D([], [], color=SENTENCE_COLOUR, linestyle=":", label="sentence end"),
        Line2D([], [], color=CUT_COLOUR, marker="X", linestyle="none", markeredgecolor="black",
               label="chunk end inside a sentence"),
    ], loc="lower left", bbox_to_anchor=(0, 1.0), ncol=4, fontsize=8, frameon=False)


def boundaries_rows(ax, spans, sentence_spans, current: int | None = None) -> list:
    """The data of the boundaries plot on ``ax``: chunks as rows (first on top), sentence ends
    as dotted lines, cuts as ×, a thick outline around chunk ``current`` (0-based); sets the
    row axis. Returns the artists added, in the order a full render draws them.

    ``boundaries_rows(ax, [(0, 5), (5, 9)], [(0, 4), (5, 9)], current=0)`` -> [<...>, ...]
    """
    from matplotlib.patches import Rectangle

    k = len(spans)
    rows = [(start, end, row) for row, (start, end) in enumerate(spans)]
    styles = len(CHUNK_STYLES)
    added = [rows_patch(ax, rows[parity::styles], facecolor=colour, hatch=hatch,
                        edgecolor="black", linewidth=0.4)
             for parity, (colour, hatch) in enumerate(CHUNK_STYLES) if rows[parity::styles]]
    if current is not None and 0 <= current < k:
        start, end = spans[current]
        added.append(ax.add_patch(Rectangle((start, current - 0.48), end - start, 0.96,
                                            facecolor="none", edgecolor="black",
                                            linewidth=2.2)))
    ends = [e for _, e in sentence_spans]
    added.append(ax.vlines(ends, -0.5, max(k, 1) - 0.5, colors=SENTENCE_COLOUR,
                           linestyles=":", linewidth=0.9))
    cut_rows = [(e, row) for row, (_, e) in enumerate(spans[:-1])
                if inside_sentence(e, sentence_spans)]
    if cut_rows:
        added += ax.plot(*zip(*cut_rows, strict=True), linestyle="none", marker="X",
                         markersize=8, color=CUT_COLOUR, markeredgecolor="black",
                         markeredgewidth=0.6)
    ax.set_ylim(max(k, 1) - 0.5, -0.5)
    rows = row_ticks(k)
    ax.set_yticks(rows, [str(r + 1) for r in rows])  # integer ticks, chunks counted from 1
    return added


def draw_boundaries(ax, text_length: int, spans, sentence_spans, current: int | None = None
                    ) -> None:
    """``boundaries_frame`` then ``boundaries_rows``: the whole boundaries plot on ``ax``.

    ``draw_boundaries(ax, 9, [(0, 5), (5, 9)], [(0, 4), (5, 9)], current=0)``
    """
    boundaries_frame(ax, text_length)
    boundaries_rows(ax, spans, sentence_spans, current)
