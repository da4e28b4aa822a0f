"""The lesson-2 boundaries plot: chunks as rows over character offsets, a dotted line at every
sentence end, an × wherever a chunk ends inside a sentence, and a status row under the axes
that shows which separators (and merging) are switched on.

``boundaries_frame`` draws what depends only on the text (the frame that
``chunklib.widgets.layers.Layers`` keeps, with the status row's names),
``boundaries_rows`` the data layer over it (with the status row's ■/□ boxes), and
``chunk_bars`` one set of rows of chunks (the comparison plot, ``compare_plot``, uses it too).
Up to ``MAX_ROWS`` chunks get a row each. More would make rows thinner than a few pixels, so
``fold_rows`` puts neighbouring chunks side by side on ``MAX_ROWS`` rows: the chunks of one
split never overlap, their colours alternate, and every chunk and every × stays in the picture.
matplotlib is imported inside the drawing functions, never when this module is imported.

Leaves out: the explorer, its controls and its text views (``chunklib.widgets.boundaries``);
which chunk end cuts a sentence (``chunklib.sentences.sentences_cut_at`` decides, the caller
passes the result).

    >>> fold_rows(4), fold_rows(90)[:7]
    ([0, 1, 2, 3], [0, 0, 0, 1, 1, 1, 2])
    >>> from chunklib.widgets.layers import new_canvas_figure
    >>> ax = new_canvas_figure(7.5, 4.45, MARGINS).axes[0]
"""

from __future__ import annotations

from chunklib.widgets.plotting import CURRENT_EDGE, MAX_ROWS, PALETTE, row_ticks, rows_patch

CHUNK_STYLES = [(PALETTE[0], "///"), (PALETTE[8], "\\\\\\")]  # blue, light orange
SENTENCE_COLOUR, CUT_COLOUR = PALETTE[3], PALETTE[5]  # dark grey, dark orange
CUT_MARK = {"linestyle": "none", "marker": "X", "markersize": 8, "color": CUT_COLOUR,
            "markeredgecolor": "black", "markeredgewidth": 0.6}
#: Fixed margins (fractions of the 600 x 356 px picture): room for four-digit row numbers on
#: the left, the x tick label at the right end, the one-row legend above the axes and the
#: status row under the x axis label.
MARGINS = {"left": 0.085, "right": 0.97, "bottom": 0.17, "top": 0.925}


def fold_rows(k: int, limit: int = MAX_ROWS) -> list[int]:
    """The plot row of each of ``k`` chunks: chunk ``i`` on row ``i`` up to ``limit`` chunks,
    else neighbours share a row, ``limit`` rows from the first chunk to the last.

    ``fold_rows(60, limit=30)[:4]`` -> [0, 0, 1, 1]
    """
    return [i * min(k, limit) // k for i in range(k)]


def boundaries_frame(ax, text_length: int, switches: list[str]) -> list:
    """What the boundaries plot shows whatever the chunks: the x axis over ``text_length``
    characters, the axis labels, the legend, and a status row under the axes naming the
    ``switches`` (whether each is on is data: ``boundaries_rows`` ticks them). Returns where
    each name starts, in figure pixels.

    ``len(boundaries_frame(ax, 2189, ["space", "merged"]))`` -> 2
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
        Patch(facecolor="none", edgecolor=CURRENT_EDGE, linewidth=2, label="current chunk"),
        Line2D([], [], color=SENTENCE_COLOUR, linestyle=":", label="sentence end"),
        Line2D([], [], label="chunk end inside a sentence", **CUT_MARK),
    ], loc="lower left", bbox_to_anchor=(0, 1.0), ncol=4, fontsize=8, frameon=False)
    label = ax.text(0.01, 0.015, "switched on (■) or off (□):", fontsize=8, va="bottom",
                    transform=ax.figure.transFigure)
    labels = []
    for name in switches:  # each label placed after the one before it
        label = ax.annotate(name, (1, 0), xycoords=label, xytext=(14, 0), fontsize=8,
                            textcoords="offset points", va="bottom")
        labels.append(label)
    renderer = ax.figure.canvas.get_renderer()
    return [tuple(label.get_window_extent(renderer).p0) for label in labels]


def chunk_bars(ax, spans, rows, height: float = 0.76) -> list:
    """Chunk ``i`` of ``spans`` as a bar on row ``rows[i]``, hatched, neighbours in alternating
    styles; one patch per style. Returns the patches.

    ``len(chunk_bars(ax, [(0, 5), (5, 9), (9, 12)], [0, 1, 2]))`` -> 2
    """
    bars = [(start, end, row) for (start, end), row in zip(spans, rows, strict=True)]
    return [rows_patch(ax, bars[parity::2], height, facecolor=colour, hatch=hatch,
                       edgecolor="black", linewidth=0.4)
            for parity, (colour, hatch) in enumerate(CHUNK_STYLES) if bars[parity::2]]


def boundaries_rows(ax, spans, cut: list[int], sentence_ends, current: int | None = None,
                    status: list = ()) -> list:
    """The data layer: chunks on ``fold_rows`` rows (first on top), sentence ends as dotted
    lines, an × at the end of every chunk listed in ``cut``, chunk ``current`` (0-based)
    outlined, a box before each name of the status row (``(where, on)`` pairs, ``where`` from
    ``boundaries_frame``): ■ on, □ off; sets the row axis, each row numbered by its first
    chunk. Returns the artists added.

    ``[type(a).__name__ for a in boundaries_rows(ax, [(0, 6), (6, 9)], [0], [4, 9], 0)]``
    -> ['PathPatch', 'PathPatch', 'Rectangle', 'LineCollection', 'Line2D']
    """
    from matplotlib.patches import Rectangle

    rows = fold_rows(len(spans))
    height = max(rows, default=0) + 1
    added = chunk_bars(ax, spans, rows)
    if current is not None:
        start, end = spans[current]
        added.append(ax.add_patch(Rectangle((start, rows[current] - 0.48), end - start, 0.96,
                                            facecolor="none", edgecolor=CURRENT_EDGE,
                                            linewidth=2.2)))
    added.append(ax.vlines(sentence_ends, -0.5, height - 0.5, colors=SENTENCE_COLOUR,
                           linestyles=":", linewidth=0.9))
    if cut:
        added += ax.plot([spans[i][1] for i in cut], [rows[i] for i in cut], **CUT_MARK)
    added += [ax.annotate("■" if on else "□", where, xycoords="figure pixels", xytext=(-2, 0),
                          textcoords="offset points", ha="right", va="bottom", fontsize=8)
              for where, on in status]
    ax.set_ylim(height - 0.5, -0.5)
    first = {row: i for i, row in reversed(list(enumerate(rows)))}  # each row's first chunk
    ticks = row_ticks(height if spans else 0)
    ax.set_yticks(ticks, [str(first[t] + 1) for t in ticks])  # chunks counted from 1
    return added
