"""Interval plots: one bar per chunk on its own row, overlap hatched, the current chunk marked.

Everything draws into a persistent ``matplotlib.figure.Figure`` (never pyplot), so a widget can
redraw the same figure on every slider move without leaking figures or duplicating output.
``interval_frame`` draws what depends only on the document (x axis, labels, legend) and
``interval_bars`` the chunks, so an explorer can keep the frame as a cached picture
(``chunklib.widgets.layers.Layers``) and redraw only the bars; ``draw_intervals`` does both.

Colours are matplotlib's ``tableau-colorblind10`` palette (the hex values are listed here so
that importing this module does not import matplotlib; a test checks them against
matplotlib's style library). The overlapping part of a chunk is also hatched, so the plot
reads in greyscale and for colour-blind readers.

Leaves out: the text summary that accompanies every plot (each widget writes its own) and
interactive matplotlib backends (the PNG works everywhere, including exported HTML).

    >>> fig = interval_figure([(0, 200), (150, 350)], n=350, current=1)
"""

from __future__ import annotations

import io

# tableau-colorblind10 (Tableau's colour-blind-safe set): blue, orange, grey, dark grey, ...
PALETTE = ["#006BA4", "#FF800E", "#ABABAB", "#595959", "#5F9ED1", "#C85200", "#898989",
           "#A2C8EC", "#FFBC79", "#CFCFCF"]
NEW_COLOUR = PALETTE[0]      # units a chunk adds
OVERLAP_COLOUR = PALETTE[1]  # units repeated from the previous chunk
CURRENT_EDGE = "black"
MAX_ROW_TICKS = 12


def new_figure(width: float = 7.5, height: float = 3.2):
    """A figure with one axes, attached to an Agg canvas (no pyplot, no GUI).

    ``new_figure().axes`` -> [<Axes ...>]
    """
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), dpi=100, layout="constrained")
    FigureCanvasAgg(fig)
    fig.add_subplot()
    return fig


def interval_frame(ax, n: int, *, unit: str = "tokens", title: str | None = None) -> None:
    """Set up ``ax`` for chunk rows over a document of ``n`` units: x axis, labels, legend.

    ``interval_frame(ax, 1000, unit="tokens")``
    """
    from matplotlib.patches import Patch
    from matplotlib.ticker import MaxNLocator

    ax.clear()
    ax.set_xlim(0, max(n, 1))
    ax.set_xlabel(f"position in the document ({unit})")
    ax.set_ylabel("chunk")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
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


def set_row_axis(ax, k: int) -> None:
    """Rows 1..k top to bottom on the y axis, integer ticks only.

    ``set_row_axis(ax, 7)``
    """
    from matplotlib.ticker import MaxNLocator

    ax.set_ylim(k - 0.5 if k else 0.5, -0.5)
    if not k:
        ax.set_yticks([])  # no rows, no row numbers
        return
    ax.yaxis.set_major_locator(MaxNLocator(integer=True, nbins=min(k, MAX_ROW_TICKS)))
    ax.yaxis.set_major_formatter(lambda v, _pos: f"{int(v) + 1}" if v == int(v) else "")


def interval_bars(ax, spans: list[tuple[int, int]], *, current: int | None = None) -> list:
    """Draw chunks as rows on ``ax`` (first chunk on top), the part shared with the previous
    chunk in a hatched second colour, a thick outline on chunk ``current`` (0-based); set the
    row axis. Returns the artists added.

    ``interval_bars(ax, [(0, 200), (150, 350)], current=0)`` -> [<...Collection...>, ...]
    """
    bars, shared = [], []
    prev_end = 0
    for row, (start, end) in enumerate(spans):
        shared_end = min(max(prev_end, start), end)
        bars.append((row, shared_end, end - shared_end))
        if shared_end > start:
            shared.append((row, start, shared_end - start))
        prev_end = max(prev_end, end)
    added = [ax.broken_barh([(s, w)], (row - 0.38, 0.76), facecolor=NEW_COLOUR,
                            edgecolor="white") for row, s, w in bars]
    added += [ax.broken_barh([(s, w)], (row - 0.38, 0.76), facecolor=OVERLAP_COLOUR,
                             edgecolor="black", hatch="///", linewidth=0.4)
              for row, s, w in shared]
    if current is not None and 0 <= current < len(spans):
        s, e = spans[current]
        added.append(ax.broken_barh([(s, e - s)], (current - 0.45, 0.9), facecolor="none",
                                    edgecolor=CURRENT_EDGE, linewidth=2.2))
    set_row_axis(ax, len(spans))
    return added


def bars_patch(ax, bars, **style):
    """One patch holding every rectangle ``(x, width, y, height)`` in data coordinates.

    A hatch costs Agg about the same per drawn path, however small, so one compound path per
    style (not one rectangle each, as ``broken_barh`` draws) keeps a hatched lane cheap. The
    patch does not change the data limits (the frame sets them).
    ``bars_patch(ax, [(0, 5, 0.65, 0.7)], facecolor="#006BA4")`` -> <PathPatch ...>
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
    """``bars_patch`` for bars ``(start, end, row)``, ``height`` high, centred on their rows.

    ``rows_patch(ax, [(0, 200, 0), (200, 350, 1)], facecolor="#A2C8EC")`` -> <PathPatch ...>
    """
    half = height / 2
    return bars_patch(ax, [(start, end - start, row - half, height) for start, end, row in bars],
                      **style)


def row_ticks(k: int) -> list[int]:
    """The rows (0-based) that get a number on the y axis: the first, then every step-th, at
    most about 12.

    ``row_ticks(30)`` -> [0, 2, 5, 8, 11, 14, 17, 20, 23, 26, 29]
    """
    step = next(s for s in (1, 2, 5, 10, 20, 25, 50, 100, 200, 500, 10**9) if s * 12 >= k)
    return sorted({0, *range(step - 1, k, step)}) if k else []


def draw_intervals(
    ax,
    spans: list[tuple[int, int]],
    n: int,
    *,
    current: int | None = None,
    unit: str = "tokens",
    title: str | None = None,
) -> None:
    """``interval_frame`` then ``interval_bars``: the whole plot on ``ax``.

    ``draw_intervals(ax, [(0, 200), (150, 350)], 350, current=0)``
    """
    interval_frame(ax, n, unit=unit, title=title)
    interval_bars(ax, spans, current=current)


def interval_figure(spans, n, *, current=None, unit="tokens", title=None):
    """A new figure holding ``draw_intervals``'s plot.

    ``interval_figure([(0, 4), (3, 7)], 7).axes[0].get_ylabel()`` -> 'chunk'
    """
    fig = new_figure()
    draw_intervals(fig.axes[0], spans, n, current=current, unit=unit, title=title)
    return fig


def figure_png(fig, dpi: int = 80) -> bytes:
    """Render ``fig`` to PNG bytes.

    ``figure_png(interval_figure([(0, 4)], 4))[:4]`` -> b'\\x89PNG'
    """
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi)
    return buf.getvalue()
