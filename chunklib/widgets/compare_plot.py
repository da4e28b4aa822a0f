"""Fixed windows against recursive splitting on one text: a plot and its text summary (Lesson 2).

The top panel has one row per strategy: its chunks as alternating hatched bars over character
offsets, a dotted line at every sentence end and an × wherever a chunk ends inside a sentence.
The bottom panel marks every chunk's length per strategy, with the median and the chunk size,
so the spread of lengths shows at a glance. Every number comes from
``chunklib.boundaries.compare_strategies``. A ``Comparison`` shows in a notebook as HTML (the
PNG inline with a real ``alt`` text, and the table beside it) and prints as a plain-text table:
the table is the plot's text alternative.

matplotlib is imported only when a plot is drawn; while nbgrader autogrades the notebook
(``chunklib.widgets.common.autograding``), ``compare`` returns the numbers and the table
without the plot, so autograde pays for no rendering.

Leaves out: overlap and token budgets (chunk sizes are in characters here) and more than the
two strategies; the plot while nbgrader autogrades.

    >>> compare("One. Two. Three.", 10).stats["recursive"]["sentences_cut"]
    0
"""

from __future__ import annotations

import base64
import html
import statistics
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from chunklib.boundaries import compare_strategies, split_text
from chunklib.sentences import split_sentences
from chunklib.validate import require_int
from chunklib.widgets.boundaries import load_passage
from chunklib.widgets.boundaries_plot import (
    CHUNK_STYLES,
    CUT_COLOUR,
    SENTENCE_COLOUR,
    inside_sentence,
)
from chunklib.widgets.common import autograding
from chunklib.widgets.plotting import PALETTE, figure_png
from chunklib.windows import text_windows

STRATEGIES = {"fixed": "fixed windows", "recursive": "recursive split + merge"}
MARKERS = {"fixed": ("s", PALETTE[0]), "recursive": ("o", PALETTE[1])}


def strategy_spans(text: str, size: int) -> dict[str, list[tuple[int, int]]]:
    """The chunks of both strategies at ``size`` characters, no overlap.

    ``strategy_spans("One. Two. Three.", 10)["fixed"]`` -> [(0, 10), (10, 16)]
    """
    return {"fixed": text_windows(text, size, 0), "recursive": split_text(text, size)}


def comparison_figure(text: str, size: int):
    """Both strategies' chunks against the sentence ends (top) and their lengths (bottom): a
    matplotlib Figure (matplotlib is imported here, on the first plot).

    ``comparison_figure("One. Two. Three.", 10).axes[1].get_xlabel()`` -> 'chunk length ...'
    """
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.lines import Line2D
    from matplotlib.ticker import MaxNLocator

    spans, sentences = strategy_spans(text, size), split_sentences(text)
    fig = Figure(figsize=(7.5, 4.6), dpi=100, layout="constrained")
    FigureCanvasAgg(fig)
    top, bottom = fig.subplots(2, 1, height_ratios=[3, 2])
    names = list(STRATEGIES)
    for row, name in enumerate(names):
        for i, (start, end) in enumerate(spans[name]):
            colour, hatch = CHUNK_STYLES[i % len(CHUNK_STYLES)]
            top.broken_barh([(start, end - start)], (row - 0.35, 0.7), facecolor=colour,
                            hatch=hatch, edgecolor="black", linewidth=0.4)
        cuts = [e for _, e in spans[name][:-1] if inside_sentence(e, sentences)]
        top.plot(cuts, [row] * len(cuts), linestyle="none", marker="X", markersize=8,
                 color=CUT_COLOUR, markeredgecolor="black", markeredgewidth=0.6)
    top.vlines([e for _, e in sentences], -0.5, len(names) - 0.5, colors=SENTENCE_COLOUR,
               linestyles=":", linewidth=0.9)
    top.set_xlim(0, max(len(text), 1))
    top.set_ylim(len(names) - 0.5, -0.5)
    top.set_yticks(range(len(names)), [STRATEGIES[n] for n in names])
    top.xaxis.set_major_locator(MaxNLocator(integer=True))
    top.set_xlabel("character offset in the text")
    top.legend(handles=[
        Line2D([], [], color=SENTENCE_COLOUR, linestyle=":", label="sentence end"),
        Line2D([], [], color=CUT_COLOUR, marker="X", linestyle="none", markeredgecolor="black",
               label="chunk end inside a sentence"),
    ], loc="lower left", bbox_to_anchor=(0, 1.0), ncol=2, fontsize=8, frameon=False)
    for row, name in enumerate(names):
        marker, colour = MARKERS[name]
        lengths = [e - s for s, e in spans[name]]
        bottom.plot(lengths, [row] * len(lengths), linestyle="none", marker=marker,
                    markersize=7, markerfacecolor="none", markeredgecolor=colour)
        for length, count in Counter(lengths).items():
            if count > 1:  # equal lengths draw on top of each other: say how many
                bottom.annotate(f"{count}×", (length, row), xytext=(0, 7),
                                textcoords="offset points", ha="center", fontsize=8)
        if lengths:
            bottom.plot([statistics.median(lengths)], [row], marker="|", markersize=18,
                        color="black")
    bottom.axvline(size, color="black", linestyle="--", linewidth=1)
    bottom.set_xlim(0, size * 1.05)
    bottom.set_ylim(len(names) - 0.5, -0.5)
    bottom.set_yticks(range(len(names)), [STRATEGIES[n] for n in names])
    bottom.xaxis.set_major_locator(MaxNLocator(integer=True))
    bottom.set_xlabel(f"chunk length in characters (dashed: the chunk size, {size}; "
                      "bar: the median)")
    return fig


@dataclass(frozen=True)
class Table:
    """A small table that shows as HTML in a notebook and prints as aligned plain text.

    ``print(Table(("a", "b"), [("1", "2")]))`` prints two aligned lines
    """

    header: tuple[str, ...]
    rows: list[tuple[str, ...]]

    def __repr__(self) -> str:
        return str(self)

    def __str__(self) -> str:
        cols = list(zip(self.header, *self.rows, strict=True))
        widths = [max(len(cell) for cell in col) for col in cols]
        lines = [self.header, *self.rows]
        return "\n".join("  ".join(c.ljust(w) for c, w in zip(line, widths, strict=True)).rstrip()
                         for line in lines)

    def _repr_html_(self) -> str:
        head = "".join(f"<th>{html.escape(h)}</th>" for h in self.header)
        body = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>"
                       for row in self.rows)
        return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _stat_row(label: str, s: dict) -> tuple[str, ...]:
    return (label, str(s["chunks"]), f"{s['sentences_cut']} of {s['sentences']}",
            f"{s['boundary_quality']:.2f}", f"{s['min']} / {s['median']:g} / {s['max']}")


@dataclass(frozen=True)
class Comparison:
    """The comparison at one size: numbers (``stats``), a table and the plot as PNG bytes
    (``b""`` when ``compare`` ran while nbgrader autograded: no plot, the rest unchanged)."""

    text_length: int
    size: int
    stats: dict[str, dict]
    png: bytes

    def table(self) -> Table:
        """One row per strategy: chunks, sentences cut, boundary quality, length spread."""
        header = ("strategy", "chunks", "sentences cut", "boundary quality",
                  "length min / median / max")
        return Table(header, [_stat_row(STRATEGIES[n], self.stats[n]) for n in STRATEGIES])

    def alt_text(self) -> str:
        """The plot in one sentence, for the ``alt`` attribute of the image."""
        f, r = self.stats["fixed"], self.stats["recursive"]
        return (f"Chunks of at most {self.size} characters over a {self.text_length}-character "
                f"text: fixed windows give {f['chunks']} chunks and cut {f['sentences_cut']} of "
                f"{f['sentences']} sentences; recursive split + merge gives {r['chunks']} "
                f"chunks and cuts {r['sentences_cut']}. Below, chunk lengths: fixed "
                f"{f['min']} to {f['max']}, recursive {r['min']} to {r['max']}.")

    def __str__(self) -> str:
        return f"Chunk size {self.size} characters\n{self.table()}"

    def __repr__(self) -> str:
        return str(self)

    def _repr_html_(self) -> str:
        if self.png:
            data = base64.b64encode(self.png).decode("ascii")
            picture = (f"<img src='data:image/png;base64,{data}' "
                       f"alt='{html.escape(self.alt_text(), quote=True)}' "
                       "style='max-width:640px'>")
        else:
            picture = ("<p><i>The plot is not drawn while nbgrader runs this notebook; the "
                       "table holds its numbers.</i></p>")
        return (f"<figure style='margin:0'>{picture}"
                f"<figcaption><b>Chunk size {self.size} characters</b>"
                f"{self.table()._repr_html_()}</figcaption></figure>")


def compare(text: str | None = None, size: int = 300) -> Comparison:
    """Fixed windows against recursive splitting on ``text`` (default: the lesson passage).
    While nbgrader autogrades, the numbers and the table only: the plot is not drawn.

    ``compare(size=300).stats["fixed"]["chunks"]`` -> 8
    """
    text = load_passage() if text is None else text
    size = require_int("size", size, minimum=1)
    stats = compare_strategies(text, size)
    png = b"" if autograding() else figure_png(comparison_figure(text, size))
    return Comparison(len(text), size, stats, png)


def compare_sizes(text: str | None = None, sizes: Sequence[int] = (100, 200, 300, 400)
                  ) -> Table:
    """Both strategies at several sizes, one row per size and strategy.

    ``str(compare_sizes(sizes=[300])).splitlines()[1].split()[:4]`` -> ['300', 'fixed', ...]
    """
    text = load_passage() if text is None else text
    header = ("size", "strategy", "chunks", "sentences cut", "boundary quality",
              "length min / median / max")
    rows = []
    for size in sizes:
        stats = compare_strategies(text, require_int("size", size, minimum=1))
        rows += [(str(size), *_stat_row(STRATEGIES[n], stats[n])) for n in STRATEGIES]
    return Table(header, rows)
