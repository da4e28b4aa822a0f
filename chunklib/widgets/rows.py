"""Chunks drawn as rows, first on top (the lesson 1, 2 and 3 plots): the bars, the numbered
row axis, the axis labels, and which chunks get a row when there are too many.

Leaves out: what a row shows and the legend (each explorer draws its own).

    >>> from chunklib.widgets.explorer import Layers
    >>> ax = Layers(7.5, 3.2).axes[0]
"""

from __future__ import annotations

from chunklib.widgets.explorer import bars_patch

MAX_ROWS = 30  # rows drawn at most (about 6 pixels each)


def rows_patch(ax, bars, height: float = 0.76, **style):
    """``bars_patch`` for bars ``(start, end, row)``, ``height`` high, centred on their rows.

    ``rows_patch(ax, [(0, 200, 0), (200, 350, 1)]).get_path().vertices[::5].tolist()``
    -> [[0.0, -0.38], [200.0, 0.62]]
    """
    return bars_patch(ax, [(start, end - start, row - height / 2, height)
                           for start, end, row in bars], **style)


def row_axis(ax, chunks: list[int]) -> list[int]:
    """Row ``i`` numbered by chunk ``chunks[i]`` (from 1), about 12 numbers; the numbered rows:

    ``row_axis(ax, list(range(30)))`` -> [0, 4, 9, 14, 19, 24, 29]
    """
    from matplotlib.ticker import FixedFormatter, FixedLocator

    k = len(chunks)
    step = next(s for s in (1, 2, 5, 10, 20, 25, 50, 100, 200, 500, 10**9) if s * 12 >= k)
    ticks = sorted({0, *range(step - 1, k, step)}) if k else []
    ax.set_ylim(max(k, 1) - 0.5, -0.5)
    ax.yaxis.set(major_locator=FixedLocator(ticks),  # set_yticks would restyle every tick
                 major_formatter=FixedFormatter([str(chunks[t] + 1) for t in ticks]))
    return ticks


def axis_labels(ax, x: str, y: str) -> list:
    """The axis labels as texts of the frame (docs/explorers.md says why):

    ``axis_labels(ax, "position", "chunk")`` -> [Text(0, -17, 'position'), Text(-35, 0, 'chunk')]
    """
    return [ax.annotate(x, (0.5, 0), xycoords="axes fraction", xytext=(0, -17),
                        textcoords="offset points", ha="center", va="top"),
            ax.annotate(y, (0, 0.5), xycoords="axes fraction", xytext=(-35, 0),
                        textcoords="offset points", ha="center", va="center", rotation=90)]


def shown_rows(k: int, current: int | None = None, limit: int = MAX_ROWS) -> list[int]:
    """The chunks that get a row: all ``k`` up to ``limit``, else ``limit`` evenly spaced ones
    and ``current``:

    ``shown_rows(801, current=400)[:3]`` -> [0, 28, 55]
    """
    if k <= limit:
        return list(range(k))
    picked = {(i * (k - 1) + (limit - 1) // 2) // (limit - 1) for i in range(limit)}
    return sorted(picked | ({current} if current is not None else set()))


def sampled_rows_row(k: int, current: int | None, limit: int = MAX_ROWS) -> list[tuple]:
    """The summary row that says the plot shows a sample of the chunks (none when all show).

    ``sampled_rows_row(5, 0)`` -> []
    """
    return [] if k <= limit else [
        ("plot", f"{len(shown_rows(k, current, limit))} of the {k} chunks, evenly spaced, and "
                 "the current one: more rows would be too thin to see")]
