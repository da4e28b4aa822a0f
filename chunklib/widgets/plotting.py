"""Interval plots: one row per chunk, the part repeated from the previous chunk hatched, the
current chunk outlined; and the shared drawing pieces of every explorer's plot.

Everything draws into a persistent ``matplotlib.figure.Figure`` (never pyplot).
``interval_frame`` sets up what depends only on the unit (labels, ticks, legend) and
``interval_rows`` draws the chunks, so an explorer keeps the frame as a cached picture
(``chunklib.widgets.layers.Layers``) and redraws only the rows and the axes over it; the axis
labels are texts of the frame (``axis_labels``). Rows are drawn as one compound patch per
style (``rows_patch``), whatever their number, and at most ``MAX_ROWS`` of them: beyond that a
row would be thinner than a few pixels, so ``shown_rows`` picks evenly spaced chunks and the
current one (the explorer's summary says so).

Colours are matplotlib's ``tableau-colorblind10`` palette (the hex values are listed here so
that importing this module does not import matplotlib; a test checks them against
matplotlib's style library). The overlapping part of a chunk is also hatched, so the plot
reads in greyscale and for colour-blind readers.

Leaves out: the text summary that accompanies every plot (each explorer writes its own) and
interactive matplotlib backends (the PNG works everywhere, including exported HTML).

    >>> shown_rows(801, current=400)[:3]
    [0, 28, 55]

The other examples draw on the axes of a small figure:

    >>> from chunklib.widgets.layers import new_canvas_figure
    >>> fig = new_canvas_figure(7.5, 3.2)
    >>> ax = fig.axes[0]
"""

from __future__ import annotations

import io

# tableau-colorblind10 (Tableau's colour-blind-safe set): blue, orange, grey, dark grey, ...
PALETTE = ["#006BA4", "#FF800E", "#ABABAB", "#595959", "#5F9ED1", "#C85200", "#898989",
           "#A2C8EC", "#FFBC79", "#CFCFCF"]
NEW_COLOUR = PALETTE[0]      # units a chunk adds
OVERLAP_COLOUR = PALETTE[1]  # units repeated from the previous chunk
CURRENT_EDGE = "black"
MAX_ROWS = 30  # rows an interval plot draws at most (about 6 pixels each)


def interval_frame(ax, *, unit: str = "tokens") -> None:
    """Set up ``ax`` for chunk rows over a document in ``unit``: axis labels, integer x ticks,
    grid, legend; the x range is the data's (``ax.set_xlim``).

    ``interval_frame(ax, unit="tokens")``
    """
    from matplotlib.patches import Patch
    from matplotlib.ticker import MaxNLocator

    ax.clear()
    axis_labels(ax, f"position in the document ({unit})", "chunk")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True, nbins=6))
    ax.grid(axis="x", alpha=0.3)
    ax.legend(
        handles=[Patch(facecolor=NEW_COLOUR, label="new units"),
                 Patch(facecolor=OVERLAP_COLOUR, hatch="///", edgecolor="black",
                       label="repeated from previous chunk"),
                 Patch(facecolor="none", edgecolor=CURRENT_EDGE, linewidth=2,
                       label="current chunk")],
        loc="lower left", bbox_to_anchor=(0, 1.0), ncol=3, fontsize=8, frameon=False,
    )


def axis_labels(ax, x: str, y: str) -> list:
    """Write the axis labels as texts of the frame, not as the axes' own labels: those are
    part of the axes' x and y axis, which a move redraws when their ticks change, and a label
    costs as much to draw as all the ticks. Returns the two texts.

    ``axis_labels(ax, "position in the document (tokens)", "chunk")``
    -> [Text(0, -17, 'position in the document (tokens)'), Text(-35, 0, 'chunk')]
    """
    return [ax.annotate(x, (0.5, 0), xycoords="axes fraction", xytext=(0, -17),
                        textcoords="offset points", ha="center", va="top"),
            ax.annotate(y, (0, 0.5), xycoords="axes fraction", xytext=(-35, 0),
                        textcoords="offset points", ha="center", va="center", rotation=90)]


def shown_rows(k: int, current: int | None = None, limit: int = MAX_ROWS) -> list[int]:
    """The chunks (0-based) an interval plot draws as rows: all ``k`` up to ``limit``, else
    ``limit`` evenly spaced ones from the first to the last, and ``current``.

    ``shown_rows(5)`` -> [0, 1, 2, 3, 4]
    """
    if k <= limit:
        return list(range(k))
    picked = {(i * (k - 1) + (limit - 1) // 2) // (limit - 1) for i in range(limit)}
    return sorted(picked | ({current} if current is not None else set()))


def sampled_rows_row(k: int, current: int | None, limit: int = MAX_ROWS) -> list[tuple[str, str]]:
    """The summary row that says the plot shows a sample of the chunks (none when all show).

    ``sampled_rows_row(5, 0)`` -> []
    """
    if k <= limit:
        return []
    return [("plot", f"{len(shown_rows(k, current, limit))} of the {k} chunks, evenly spaced, "
                     "and the current one: more rows would be too thin to see")]


def interval_rows(ax, spans: list[tuple[int, int]], rows: list[int],
                  current: int | None = None) -> list:
    """Draw chunks ``rows`` (indices into ``spans``, top to bottom) on ``ax``: the part shared
    with the previous chunk hatched in the second colour, the rest in the first, chunk
    ``current`` outlined; set the row axis (chunk numbers counted from 1). Returns the artists:
    the new parts, the shared parts (one patch each) and the outline.

    ``[type(a).__name__ for a in interval_rows(ax, [(0, 200), (150, 350)], [0, 1], current=0)]``
    -> ['PathPatch', 'PathPatch', 'Rectangle']
    """
    from matplotlib.patches import Rectangle

    new, shared = [], []
    for row, k in enumerate(rows):
        start, end = spans[k]
        prev_end = spans[k - 1][1] if k else start
        cut = min(max(prev_end, start), end)
        new.append((cut, end, row))
        if cut > start:
            shared.append((start, cut, row))
    added = []
    if new:
        added.append(rows_patch(ax, new, facecolor=NEW_COLOUR, edgecolor="white",
                                linewidth=0.6))
    if shared:
        added.append(rows_patch(ax, shared, facecolor=OVERLAP_COLOUR, edgecolor="black",
                                hatch="///", linewidth=0.4))
    if current in rows:
        row = rows.index(current)
        start, end = spans[current]
        added.append(ax.add_patch(Rectangle((start, row - 0.45), end - start, 0.9,
                                            facecolor="none", edgecolor=CURRENT_EDGE,
                                            linewidth=2.2)))
    ax.set_ylim(max(len(rows), 1) - 0.5, -0.5)
    ticks = row_ticks(len(rows))
    ax.set_yticks(ticks, [str(rows[t] + 1) for t in ticks])
    return added


def bars_patch(ax, bars, **style):
    """One patch holding every rectangle ``(x, width, y, height)`` in data coordinates.

    A hatch costs Agg about the same per drawn path, however small, so one compound path per
    style (not one rectangle each, as ``broken_barh`` draws) keeps a hatched lane cheap. The
    patch does not change the data limits (the frame sets them). One rectangle is a closed
    path of five vertices, from its corner ``(x, y)``:

    ``bars_patch(ax, [(0, 5, 0.65, 0.7)], facecolor="#006BA4").get_path().vertices.tolist()``
    -> [[0.0, 0.65], [5.0, 0.65], [5.0, 1.35], [0.0, 1.35], [0.0, 0.65]]
    """
    from matplotlib.patches import PathPatch
    from matplotlib.path import Path

    vertices, codes = [], []
    for x, w, y, h in bars:
        vertices += [(x, y), (x + w, y), (x + w, y + h), (x, y + h), (x, y)]
        codes += [Path.MOVETO, Path.LINETO, Path.LINETO, Path.LINETO, Path.CLOSEPOLY]
    patch = PathPatch(Path(vertices, codes), transform=ax.transData, **style)
    patch.set_clip_path(ax.patch)
    ax.add_artist(patch)
    return patch


def rows_patch(ax, bars, height: float = 0.76, **style):
    """``bars_patch`` for bars ``(start, end, row)``, ``height`` high, centred on their rows:
    one patch, five vertices per bar, each bar's first at ``(start, row - height / 2)``.

    ``rows_patch(ax, [(0, 200, 0), (200, 350, 1)]).get_path().vertices[::5].tolist()``
    -> [[0.0, -0.38], [200.0, 0.62]]
    """
    half = height / 2
    return bars_patch(ax, [(start, end - start, row - half, height) for start, end, row in bars],
                      **style)


def row_ticks(k: int) -> list[int]:
    """The rows (0-based) that get a number on the y axis: the first, then every step-th, at
    most about 12 (the step is 1, 2, 5, 10, 20, 25, 50, ...; 5 for 30 rows).

    ``row_ticks(30)`` -> [0, 4, 9, 14, 19, 24, 29]
    """
    step = next(s for s in (1, 2, 5, 10, 20, 25, 50, 100, 200, 500, 10**9) if s * 12 >= k)
    return sorted({0, *range(step - 1, k, step)}) if k else []


def figure_png(fig, dpi: int = 80) -> bytes:
    """Render ``fig`` to PNG bytes.

    ``figure_png(fig)[:4]`` -> b'\\x89PNG'
    """
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi)
    return buf.getvalue()
