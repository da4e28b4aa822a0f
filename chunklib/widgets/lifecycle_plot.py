"""The lesson-5 lifecycle explorer's plot: one column per chunk of the edited source
(tombstoned chunks at the right), one row each for its chunk_id, index entry and vector, every
cell coloured and hatched by its state against generation 1 (same, new, gone, or none when a
chunk refused for a missing ACL has no entry and no vector).

``column_states`` computes the columns from a ``ChunkIndex``; ``states_frame`` draws what never
changes (the cached frame), ``states_cells`` the cells, the x range and the column labels (the
data layer: one patch per state, however many chunks).
matplotlib is imported inside the functions that draw.

Leaves out: the edits (``chunklib.course.edits``), the widgets (``chunklib.widgets.lifecycle``),
the summary rows and the change table (``chunklib.widgets.lifecycle_html``).

    >>> STATES["gone"][0]
    'gone (tombstone)'

The other examples take the index of the explorer's default edit (the course fixture
published as generation 1, the Environment Matrix heading renamed in shadow generation 2) and
draw on the axes of a small figure.

    >>> from chunklib.widgets.lifecycle import LifecycleExplorer
    >>> ix = LifecycleExplorer("rename the heading").index
    >>> from chunklib.widgets.layers import new_canvas_figure
    >>> ax = new_canvas_figure(7.5, 2.2, MARGINS).axes[0]
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from chunklib.widgets.plotting import PALETTE, bars_patch

if TYPE_CHECKING:
    from chunklib.index import ChunkIndex

# state -> (label, colour, hatch); every state reads without colour through its hatch
STATES = {"same": ("same as generation 1", PALETTE[7], ""),
          "new": ("new", PALETTE[1], "///"),
          "gone": ("gone (tombstone)", PALETTE[3], "xx"),
          "none": ("none: refused, ACL missing", "white", "..")}
ROWS = ("chunk_id", "index entry", "vector")
LABELS = 8  # column labels at most
MARGINS = {"left": 0.14, "right": 0.98, "bottom": 0.22, "top": 0.86}  # fit row names, legend


def column_states(index: ChunkIndex, base: int, shadow: int, source_ids: set[str]):
    """Per chunk of ``source_ids`` in ``shadow`` (then each tombstoned entry): a label and the
    state of its chunk_id, index entry and vector against generation ``base`` (a tombstoned
    entry of a chunk refused for a missing ACL keeps its chunk_id: the chunk is still stored).

    Chunk 9 of the Deployment Guide is in the renamed section: its chunk_id stays, its index
    entry and vector are new (the heading is part of the text that is embedded).

    ``column_states(ix, 1, 2, {"deployment-guide"})[9]`` -> ('9', ('same', 'new', 'new'))
    """
    old, new = index.entries(base), index.entries(shadow)
    sources = {c.chunk_id: c.source_id for c in index.chunks(base)}  # its chunk ids, too
    columns = []
    for c in index.chunks(shadow):
        if c.source_id not in source_ids:
            continue
        entry = new.get(c.chunk_id)
        before = old.get(c.chunk_id)
        if entry is None:
            states = ("same" if c.chunk_id in sources else "new", "none", "none")
        else:
            states = ("same" if c.chunk_id in sources else "new",
                      "same" if before and before["index_entry_id"] == entry["index_entry_id"]
                      else "new",
                      "same" if before and before["vector_key"] == entry["vector_key"] else "new")
        columns.append((str(c.ordinal), states))
    gone = sorted(cid for cid in old if cid not in new)
    stored = {c.chunk_id for c in index.chunks(shadow)}  # a refused chunk keeps its id
    columns += [("×", ("same" if cid in stored else "gone", "gone", "gone"))
                for cid in gone if sources[cid] in source_ids]
    return columns


def states_frame(ax) -> None:
    """What never changes: the row names, the y range, the x axis's title and the legend (the
    cached frame).

    ``states_frame(ax)``
    """
    from matplotlib.patches import Patch

    ax.clear()
    ax.set_ylim(-0.6, 2.6)
    ax.set_yticks([2, 1, 0], list(ROWS))
    ax.set_xticks([])  # the column labels are drawn with the cells
    ax.text(0.5, -0.2, "chunk ordinal in the edited source (× = tombstoned, at the right)",
            transform=ax.transAxes, ha="center", va="top")
    ax.legend(handles=[Patch(facecolor=c, hatch=h, edgecolor="black", label=name)
                       for name, c, h in STATES.values()],
              loc="lower left", bbox_to_anchor=(0, 1.0), ncol=4, fontsize=7, frameon=False)


def states_cells(ax, columns) -> list:
    """One column per chunk, one row each for chunk_id, index entry and vector (one patch per
    state, however many chunks), the x range, and the ordinals of about ``LABELS`` columns
    and of the last one below them (texts: a matplotlib x axis costs about 20 ms a draw).
    Returns the artists added; for one column, its label and one patch per state it shows:

    ``[type(a).__name__ for a in states_cells(ax, [("0", ("same", "new", "new"))])]``
    -> ['Text', 'PathPatch', 'PathPatch']
    """
    n = max(len(columns), 1)
    ax.set_xlim(-0.3, n + 0.2)
    picked = list(range(0, len(columns), -(-n // LABELS)))
    if picked and len(columns) - 1 - picked[-1] >= 2:
        picked.append(len(columns) - 1)  # the last column: often a tombstone
    added = [ax.text(x + 0.45, -0.72, columns[x][0], fontsize=7, ha="center", va="top")
             for x in picked]
    cells: dict[str, list] = {state: [] for state in STATES}
    for x, (_label, states) in enumerate(columns):
        for y, state in enumerate(states):
            cells[state].append((x, 0.9, 2 - y - 0.4, 0.8))
    return added + [bars_patch(ax, bars, facecolor=STATES[state][1],
                               hatch=STATES[state][2] or None, edgecolor="black", linewidth=0.3)
                    for state, bars in cells.items() if bars]

