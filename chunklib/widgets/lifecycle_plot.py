"""The lesson-5 lifecycle explorer's plot: one column per chunk of the edited source
(tombstoned chunks at the right), one row each for its chunk_id, index entry and vector, every
cell coloured and hatched by its state against generation 1 (same, new, gone, or none when a
chunk refused for a missing ACL has no entry and no vector).

``column_states`` computes the columns from a ``ChunkIndex``; ``states_axes`` draws what never
changes, ``states_frame`` the x axis of one set of columns (the cached frame),
``states_cells`` the cells (the data layer), and ``draw_states`` all three on a plain figure.
matplotlib is imported inside the functions that draw.

Leaves out: the edits, the widgets, the summary and the change table
(``chunklib.widgets.lifecycle``).

    >>> column_ticks([("0", ("same",) * 3), ("×", ("gone",) * 3)])
    (2, (0.45, 1.45), ('0', '×'))
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
MARGINS = {"left": 0.14, "right": 0.98, "bottom": 0.22, "top": 0.86}  # fit row names, legend


def column_states(index: ChunkIndex, base: int, shadow: int, source_ids: set[str]):
    """Per chunk of ``source_ids`` in ``shadow`` (then each tombstoned one): a label and the
    state of its chunk_id, index entry and vector against generation ``base``.

    ``column_states(ix, 1, 2, {"deployment-guide"})[0]`` -> ('0', ('same', 'new', 'new'))
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
    columns += [("×", ("gone",) * 3) for cid in gone if sources[cid] in source_ids]
    return columns


def column_ticks(columns) -> tuple[int, tuple[float, ...], tuple[str, ...]]:
    """The number of columns, the x tick positions and their labels (at most about 12).

    ``column_ticks([("0", ("same",) * 3), ("×", ("gone",) * 3)])`` -> (2, (0.45, 1.45), ('0', '×'))
    """
    n = max(len(columns), 1)
    picked = range(0, len(columns), max(1, n // 12))
    return n, tuple(x + 0.45 for x in picked), tuple(columns[x][0] for x in picked)


def states_axes(ax) -> None:
    """What never changes: the row names, the y range, the x axis label and the legend.

    ``states_axes(ax)``
    """
    from matplotlib.patches import Patch

    ax.clear()
    ax.set_ylim(-0.6, 2.6)
    ax.set_yticks([2, 1, 0], list(ROWS))
    ax.set_xlabel("chunk ordinal in the edited source (× = tombstoned, at the right)")
    ax.legend(handles=[Patch(facecolor=c, hatch=h, edgecolor="black", label=name)
                       for name, c, h in STATES.values()],
              loc="lower left", bbox_to_anchor=(0, 1.0), ncol=4, fontsize=7, frameon=False)


def states_frame(ax, ticks) -> None:
    """The x range and the column labels of ``column_ticks``: the rest of the frame, cheap to
    set again when a cached frame comes back (``states_axes`` has set up what never changes).

    ``states_frame(ax, column_ticks(columns))``
    """
    n, positions, labels = ticks
    ax.set_xlim(-0.3, n + 0.2)
    ax.set_xticks(positions, labels, fontsize=7)


def states_cells(ax, columns) -> list:
    """One column per chunk, one row each for chunk_id, index entry and vector (one patch per
    state, however many chunks). Returns the artists added.

    ``states_cells(ax, [("0", ("same", "new", "new"))])`` -> [<PathPatch ...>, ...]
    """
    cells: dict[str, list] = {state: [] for state in STATES}
    for x, (_label, states) in enumerate(columns):
        for y, state in enumerate(states):
            cells[state].append((x, 0.9, 2 - y - 0.4, 0.8))
    return [bars_patch(ax, bars, facecolor=STATES[state][1], hatch=STATES[state][2] or None,
                       edgecolor="black", linewidth=0.3)
            for state, bars in cells.items() if bars]


def draw_states(ax, columns) -> None:
    """One column per chunk, one row each for chunk_id, index entry and vector.

    ``draw_states(ax, [("0", ("same", "new", "new")), ("×", ("gone",) * 3)])``
    """
    states_axes(ax)
    states_frame(ax, column_ticks(columns))
    states_cells(ax, columns)
