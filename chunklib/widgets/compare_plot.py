"""Fixed windows against recursive splitting on one text: a plot and its text summary (Lesson 2).

The top panel has one row per strategy: its chunks as alternating hatched bars over character
offsets (``boundaries.chunk_bars``, as in the explorer), a dotted line at every sentence
end and an × wherever a chunk ends inside a sentence.
The bottom panel marks every chunk's length per strategy, with the median and the chunk size,
so the spread of lengths shows at a glance. Every number comes from
``chunklib.boundaries.compare_strategies``. A ``Comparison`` shows in a notebook as HTML (the
PNG inline with a real ``alt`` text, and the table under it) and prints as a plain-text table:
the table is the plot's text alternative.

matplotlib is imported only when a plot is drawn; while nbgrader autogrades the notebook
(``chunklib.widgets.explorer.autograding``), ``compare`` returns the numbers and the table
without the plot, so autograde pays for no rendering.

Leaves out: overlap and token budgets (chunk sizes are in characters here) and more than the
two strategies; the plot while nbgrader autogrades.

    >>> compare("One. Two. Three.", 10).stats["recursive"]["sentences_cut"]
    0
"""

from __future__ import annotations

import io
import statistics
from collections import Counter

from chunklib.course.comparison import STRATEGIES, Comparison, compare_strategies, strategy_spans
from chunklib.course.passages import load_passage
from chunklib.sentences import sentences_cut_at, split_sentences
from chunklib.validate import require_int
from chunklib.widgets.boundaries import CUT_MARK, SENTENCE_COLOUR, chunk_bars
from chunklib.widgets.explorer import PALETTE, autograding

MARKERS = {"fixed": ("s", PALETTE[0]), "recursive": ("o", PALETTE[1])}


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
    fig = Figure(figsize=(7.5, 4.6), dpi=100)
    FigureCanvasAgg(fig)
    # margins that fit the labels of any size, fixed: constrained layout would draw it twice
    top, bottom = fig.subplots(2, 1, height_ratios=[3, 2], gridspec_kw={
        "left": 0.241, "right": 0.97, "bottom": 0.104, "top": 0.932, "hspace": 0.316})
    names = list(STRATEGIES)
    for row, name in enumerate(names):
        chunk_bars(top, spans[name], [row] * len(spans[name]), height=0.7)
        ends = [e for _, e in spans[name][:-1]]
        cuts = [e for e, cut in zip(ends, sentences_cut_at(sentences, ends), strict=True) if cut]
        top.plot(cuts, [row] * len(cuts), **CUT_MARK)
    top.vlines([e for _, e in sentences], -0.5, len(names) - 0.5, colors=SENTENCE_COLOUR,
               linestyles=":", linewidth=0.9)
    top.set_xlim(0, max(len(text), 1))
    top.set_ylim(len(names) - 0.5, -0.5)
    top.set_yticks(range(len(names)), [STRATEGIES[n] for n in names])
    top.xaxis.set_major_locator(MaxNLocator(integer=True))
    top.set_xlabel("character offset in the text")
    top.legend(handles=[
        Line2D([], [], color=SENTENCE_COLOUR, linestyle=":", label="sentence end"),
        Line2D([], [], label="chunk end inside a sentence", **CUT_MARK),
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


def compare(text: str | None = None, size: int = 300) -> Comparison:
    """Fixed windows against recursive splitting on ``text`` (default: the lesson passage).
    While nbgrader autogrades, the numbers and the table only: the plot is not drawn.

    ``compare(size=300).stats["fixed"]["chunks"]`` -> 8
    """
    text = load_passage() if text is None else text
    size = require_int("size", size, minimum=1)
    stats = compare_strategies(text, size)
    buf = io.BytesIO()
    if not autograding():
        comparison_figure(text, size).savefig(buf, format="png", dpi=80,
                                             pil_kwargs={"compress_level": 1})
    png = buf.getvalue()
    return Comparison(len(text), size, stats, png)
