"""The lesson-4 structure plot: three lanes over the character axis of a source (headings,
structure-aware chunks, fixed windows), repeated characters hatched, the current chunk outlined.

Holds the plot's constants (colours, hatches, lane names, title, margins), ``repeated`` (the
parts of a lane that two or more spans cover) and the drawing functions: ``structure_frame``
(what depends only on the source length, the frame ``chunklib.widgets.layers.Layers`` keeps)
and ``structure_lanes`` (the data layer). Every chunk is drawn, however many: a lane is one
patch per style, and the explorer's summary says when chunks are too narrow to tell apart.
matplotlib is imported inside the drawing functions, never when this module is imported.

Leaves out: the explorer and its controls (``chunklib.widgets.structure``) and its HTML views
(``chunklib.widgets.structure_html``).

    >>> repeated([(0, 10), (8, 20), (30, 40)])
    [(8, 10)]
    >>> from chunklib.widgets.layers import new_canvas_figure
    >>> ax = new_canvas_figure(7.5, 2.4, MARGINS).axes[0]
"""

from __future__ import annotations

from chunklib.intervals import union
from chunklib.widgets.plotting import CURRENT_EDGE, PALETTE, bars_patch

CHUNK_COLOURS = (PALETTE[0], PALETTE[7])  # neighbouring chunks alternate dark / light blue
CHUNK_HATCHES = ("", "..")               # ... and plain / dotted, to read without colour
REPEAT_COLOUR, HEADING_COLOUR = PALETTE[1], PALETTE[3]
LANE_NAMES = ["fixed windows", "structure-aware", "headings"]
TITLE = "repeated characters: orange, hatched ///; current chunk: black outline"
MARGINS = {"left": 0.19, "right": 0.97, "bottom": 0.21, "top": 0.9}  # fit the lane names


def repeated(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The parts of the line that two or more spans cover, merged.

    ``repeated([(0, 10), (8, 20), (30, 40)])`` -> [(8, 10)]
    """
    events = sorted([(s, 1) for s, e in spans if e > s] + [(e, -1) for s, e in spans if e > s])
    out, depth, opened = [], 0, 0
    for pos, step in events:
        if depth < 2 <= depth + step:
            opened = pos
        elif depth >= 2 > depth + step and pos > opened:
            out.append((opened, pos))
        depth += step
    return union(out)


def structure_frame(ax, n: int) -> None:
    """What depends only on the source length ``n``: x axis, lane names, grid, title. The
    labels are made once per axes; later calls only move the x range (matplotlib keeps its
    tick objects, whose making is most of a frame's cost).

    ``structure_frame(ax, 8)``
    """
    from matplotlib.ticker import MaxNLocator

    if ax.get_title(loc="left") != TITLE:
        ax.set_ylim(-0.6, 2.6)
        ax.set_yticks([0, 1, 2], LANE_NAMES)
        ax.set_xlabel("position in the source (characters)")
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.grid(axis="x", alpha=0.3)
        ax.set_title(TITLE, fontsize=8, loc="left")
    ax.set_xlim(0, max(n, 1))


def structure_lanes(ax, chunk_spans, window_spans, heading_spans, current=None) -> list:
    """Three lanes: headings, structure chunks, fixed windows; returns the artists added (a
    patch per lane and style, one for each lane's repeated parts, the current chunk's outline).

    ``len(structure_lanes(ax, [(0, 5)], [(0, 4), (3, 8)], [], current=0))`` -> 5
    """
    added = []
    lanes = [(2, heading_spans), (1, chunk_spans), (0, window_spans)]
    for y, spans in lanes:  # one patch per style: fast to draw, however many chunks
        styles = ([(spans, HEADING_COLOUR, "")] if y == 2 else
                  [(spans[k::2], CHUNK_COLOURS[k], CHUNK_HATCHES[k]) for k in (0, 1)])
        for group, colour, hatch in styles:
            if group:
                added.append(bars_patch(ax, [(s, e - s, y - 0.35, 0.7) for s, e in group],
                                        facecolor=colour, hatch=hatch or None,
                                        edgecolor="white", linewidth=0.3))
        shared = repeated(spans)
        if shared:
            added.append(bars_patch(ax, [(s, e - s, y - 0.35, 0.7) for s, e in shared],
                                    facecolor=REPEAT_COLOUR, hatch="///", edgecolor="black",
                                    linewidth=0.4))
    if current is not None and 0 <= current < len(chunk_spans):
        s, e = chunk_spans[current]
        added.append(bars_patch(ax, [(s, max(e - s, 1), 0.55, 0.9)], facecolor="none",
                                edgecolor=CURRENT_EDGE, linewidth=2.2))
    return added
