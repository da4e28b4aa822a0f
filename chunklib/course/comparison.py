"""Fixed windows against recursive splitting on one text (lesson 2): the numbers and the tables.

``strategy_spans`` gives both strategies' chunks, ``compare_strategies`` their numbers
(``chunklib.boundaries.span_stats``), ``Comparison`` holds one size's numbers with its table and
the plot's text alternative, and ``compare_sizes`` tabulates several sizes. A ``Table`` shows
as HTML in a notebook and prints as aligned plain text.

Leaves out: the plot itself (``chunklib.widgets.compare_plot`` draws it and fills
``Comparison.png``), overlap and token budgets (sizes are in characters here).

    >>> [row[3] for row in compare_sizes("One. Two. Three.", [7]).rows]
    ['2 of 3', '0 of 3']
"""

from __future__ import annotations

import base64
import html
from collections.abc import Sequence
from dataclasses import dataclass

from chunklib.boundaries import span_stats
from chunklib.course.passages import load_passage
from chunklib.sentences import split_sentences
from chunklib.splitter import split_text
from chunklib.validate import require_int, require_text
from chunklib.windows import text_windows

STRATEGIES = {"fixed": "fixed windows", "recursive": "recursive split + merge"}


def strategy_spans(text: str, size: int) -> dict[str, list[tuple[int, int]]]:
    """The chunks of both strategies at ``size`` characters, no overlap.

    ``strategy_spans("One. Two. Three.", 10)["fixed"]`` -> [(0, 10), (10, 16)]
    """
    return {"fixed": text_windows(text, size, 0), "recursive": split_text(text, size)}


def compare_strategies(text: str, size: int) -> dict[str, dict]:
    """Fixed character windows against ``split_text`` at the same ``size``, no overlap.

    ``compare_strategies("One. Two. Three.", 10)["recursive"]["sentences_cut"]`` -> 0
    """
    text, size = require_text(text), require_int("size", size, minimum=1)
    sentences = split_sentences(text)
    return {name: span_stats(text, spans, sentences)
            for name, spans in strategy_spans(text, size).items()}


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


def stat_row(label: str, s: dict) -> tuple[str, ...]:
    """One strategy's numbers as table cells.

    ``stat_row("x", compare_strategies("One. Two.", 4)["fixed"])[2]`` -> '1 of 2'
    """
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
        return Table(header, [stat_row(STRATEGIES[n], self.stats[n]) for n in STRATEGIES])

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
        rows += [(str(size), *stat_row(STRATEGIES[n], stats[n])) for n in STRATEGIES]
    return Table(header, rows)
