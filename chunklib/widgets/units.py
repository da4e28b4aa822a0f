"""The lesson-1 units explorer: a unit kind and a chunk size, fixed windows over real text.

Choose characters, word-like units, cl100k tokens or MiniLM word pieces and a chunk size C;
the passage is cut into K = ceil(N / C) windows without overlap. Three views show the same
chunks, in the same two alternating colours and hatchings, and mark where a chunk ends inside
a sentence and what all-MiniLM-L6-v2 never reads: an interval plot (``units_plot``), the text
itself (``units_html``) and a stepper with the current chunk's exact text between its
neighbours' edges. The HTML summary is the text alternative of all three: units, K, the last
chunk, sentences cut, and how many chunks all-MiniLM-L6-v2 silently truncates.

One setting (unit kind, C) gives one ``UnitChunks``, computed once: the chunks as unit and
character spans, the boundaries that cut a sentence, and what the model reads. The units of
every kind are found when the explorer is built (loading the tokenizers then, not on the
first move to a kind). Up to 60 chunks are drawn one row each; beyond that the plot shows 60
evenly spaced ones and the current one, and the summary says so.

Leaves out: overlap (lesson 3) and boundary-aware splitting (lesson 2); sentences come from
``chunklib.sentences.split_sentences`` (no abbreviation list). The skeleton (caching,
redraws, stepper, autograde note) is ``chunklib.widgets.explorer``.

    >>> UnitsExplorer(kind="words", size=200).summary_rows()[2]
    ('chunks K = ceil(N / C)', 'ceil(1204 / 200) = 7')
"""

from __future__ import annotations

from typing import NamedTuple

import ipywidgets as widgets

from chunklib.budgets import KIND_LABELS, minilm_reads, spans_of
from chunklib.course.passages import sample_passage
from chunklib.sentences import split_sentences
from chunklib.tokens import MINILM_MAX_SEQ_LENGTH, MINILM_SPECIAL_TOKENS
from chunklib.units import cut_sentence_spans, cut_sentences, fixed_windows
from chunklib.validate import require_int
from chunklib.widgets.common import int_slider
from chunklib.widgets.explorer import Explorer
from chunklib.widgets.plotting import sampled_rows_row, shown_rows
from chunklib.widgets.units_html import chunk_view_html, text_view_html
from chunklib.widgets.units_plot import (
    LABEL_LIMIT,
    MARGINS,
    MAX_ROWS,
    unit_chunks_axis,
    unit_chunks_bars,
    unit_chunks_frame,
)

MINILM_TEXT_PIECES = MINILM_MAX_SEQ_LENGTH - MINILM_SPECIAL_TOKENS


def cut_boundaries(char_windows: list[tuple[int, int]],
                   sentence_spans: list[tuple[int, int]]) -> set[int]:
    """The chunks ``k >= 1`` whose boundary with chunk ``k - 1`` falls inside a cut sentence: one
    that no chunk holds whole (``cut_sentence_spans``) and that reaches into both chunks.

    ``cut_boundaries([(0, 5), (5, 9), (9, 14)], [(0, 7), (9, 14)])`` -> {1}
    """
    cut = cut_sentence_spans(sentence_spans, char_windows)
    return {k for k in range(1, len(char_windows))
            if any(s < char_windows[k - 1][1] and char_windows[k][0] < e for s, e in cut)}


class UnitChunks(NamedTuple):
    """Everything the explorer shows for one (unit kind, C), computed once."""

    kind: str
    size: int
    n: int                               # units of that kind in the text
    windows: list[tuple[int, int]]       # unit intervals
    char_windows: list[tuple[int, int]]  # the same chunks as character spans
    cut: set[int]                        # chunks whose boundary cuts a sentence
    sentences_cut: int
    reads: list[tuple[int, int]]         # (word pieces, read_end) per chunk
    unread: list[int]                    # first unit the model does not read, per chunk


class UnitsExplorer(Explorer):
    """Interactive lesson-1 explorer; ``UnitsExplorer().size_slider.value = 300`` redraws it."""

    name = "units explorer"
    figsize = (7.5, 3.8)
    margins = MARGINS
    empty = "the text has no units."

    def __init__(self, text: str | None = None, kind: str = "words", size: int = 160):
        self.check(text=text, kind=kind, size=size)
        self.text = sample_passage() if text is None else text
        self.sentences = split_sentences(self.text)
        self.units = {k: spans_of(self.text, k) for k in KIND_LABELS}  # tokenizers load here
        super().__init__(kind=kind, size=size, text=text)

    @classmethod
    def check(cls, text=None, kind="words", size=160) -> None:
        if text is not None and not isinstance(text, str):
            raise TypeError(f"text must be a str or None, got {type(text).__name__}")
        if kind not in KIND_LABELS:
            raise ValueError(f"kind must be one of {', '.join(KIND_LABELS)}, got {kind!r}")
        require_int("size", size, minimum=1)

    def make_controls(self, kind, size, text):
        self.kind_picker = widgets.Dropdown(
            options=[(label, key) for key, label in KIND_LABELS.items()], value=kind,
            description="unit kind", tooltip="what one unit is: the length function",
            style={"description_width": "9em"})
        self.size_slider = int_slider("chunk size C", size, min(10, size), max(1500, size), 10,
                                      "chunk size C, counted in the chosen units")
        self.chunk_text, self.text_view = widgets.HTML(), widgets.HTML()
        return {"kind": self.kind_picker, "size": self.size_slider}

    def arrange(self):
        return [self.kind_picker, self.size_slider, widgets.HBox([self.image, self.summary]),
                self.stepper.box, self.step_label, self.chunk_text,
                widgets.HTML("<b>The whole passage, chunk by chunk</b>"), self.text_view]

    def compute(self, params) -> UnitChunks:
        spans = self.units[params.kind]
        windows = fixed_windows(len(spans), params.size)
        chunks = [(spans[s][0], spans[e - 1][1]) for s, e in windows]
        reads = minilm_reads(self.text, chunks)
        return UnitChunks(params.kind, params.size, len(spans), windows, chunks,
                          cut_boundaries(chunks, self.sentences),
                          cut_sentences(self.sentences, chunks), reads,
                          unread_units(spans, windows, reads))

    def count(self, c: UnitChunks) -> int:
        return len(c.windows)

    def frame_key(self, c: UnitChunks):
        return "units"  # grid and legend: the same for every setting

    def draw_frame(self, ax, c: UnitChunks) -> None:
        self.xlabel = unit_chunks_frame(ax)

    def underlays(self, ax):
        return ax.xaxis, self.xlabel  # kept per unit kind, N and "lengths beside the bars"

    def under_key(self, c: UnitChunks):
        return c.kind, c.n, len(c.windows) <= LABEL_LIMIT

    def draw_data(self, ax, c: UnitChunks, current):
        unit_chunks_axis(ax, self.xlabel, c.n, KIND_LABELS[c.kind], len(c.windows) <= LABEL_LIMIT)
        rows = shown_rows(len(c.windows), current, MAX_ROWS)
        return unit_chunks_bars(ax, c.windows, rows, current=current, cut=c.cut,
                                unread=c.unread)

    def step_text(self, c: UnitChunks, current: int) -> str:
        (first, stop), (start, end) = c.windows[current], c.char_windows[current]
        pieces, read_end = c.reads[current]
        verdict = ("all-MiniLM-L6-v2 reads all of it" if read_end >= end else
                   f"all-MiniLM-L6-v2 reads only characters {start} to {read_end} "
                   f"({MINILM_TEXT_PIECES} of its {pieces} word pieces)")
        where = (f"characters {start} to {end}" if c.kind == "characters" else
                 f"{KIND_LABELS[c.kind]} {first} to {stop}, characters {start} to {end}")
        return f"{where}; {verdict}"

    def show(self, c: UnitChunks, current) -> None:
        read_ends = [stop for _, stop in c.reads]
        self.chunk_text.value = ("" if current is None else chunk_view_html(
            self.text, c.char_windows, current, c.cut, read_ends[current]))
        self.text_view.value = text_view_html(self.text, c.char_windows, current, c.cut,
                                              read_ends)

    def describe(self, c: UnitChunks, current):
        unit, n, size, k = KIND_LABELS[c.kind], c.n, c.size, len(c.windows)
        pieces = [p for p, _ in c.reads]
        over = sum(1 for p in pieces if p > MINILM_TEXT_PIECES)
        chars = "" if c.kind == "characters" else f" ({len(self.text)} characters)"
        rows = [
            ("units N", f"{n} {unit}{chars}"),
            ("chunk size C", f"{size} {unit}"),
            ("chunks K = ceil(N / C)", f"ceil({n} / {size}) = {k}"),
            ("last chunk", f"N − (K − 1)·C = {n} − {max(k - 1, 0)}·{size} = "
                           f"{n - (k - 1) * size if k else 0} {unit}"),
            ("sentences cut", f"{c.sentences_cut} of "
                              f"{len(self.sentences)} (no single chunk holds them whole)"),
            ("all-MiniLM-L6-v2", f"{over} of {k} chunks are longer than the {MINILM_TEXT_PIECES} "
                                 f"word pieces it reads (largest: {max(pieces, default=0)}); "
                                 + ("it silently drops the rest of those" if over else
                                    "it reads every chunk whole")),
            *sampled_rows_row(k, current, MAX_ROWS),
        ]
        return f"Chunks of C = {size} {unit}", rows

    def alt(self, c: UnitChunks, current) -> str:
        k, unit = len(c.windows), KIND_LABELS[c.kind]
        truncated = sum(1 for (_p, stop), (_s, end) in zip(c.reads, c.char_windows, strict=True)
                        if stop < end)
        drawn = "" if k <= MAX_ROWS else f" ({len(shown_rows(k, current, MAX_ROWS))} drawn)"
        return (f"{k} chunks{drawn} drawn as bars over {c.n} {unit}"
                + (f"; chunk {current + 1} outlined" if k else "")
                + f"; an × at each of the {len(c.cut)} chunk ends inside a sentence"
                + (f"; a dotted grey tail on the {truncated} chunks that all-MiniLM-L6-v2 cuts "
                   "short." if truncated else "; all-MiniLM-L6-v2 reads every chunk whole."))


def unread_units(spans, windows, reads) -> list[int]:
    """Per window of unit indices: the first unit that ends after the model's ``read_end``.

    ``unread_units([(0, 2), (3, 5)], [(0, 2)], [(9, 3)])`` -> [1]
    """
    out = []
    for (first, stop), (_pieces, read_end) in zip(windows, reads, strict=True):
        unit = first
        while unit < stop and spans[unit][1] <= read_end:
            unit += 1
        out.append(unit)
    return out


def units_explorer(text: str | None = None, kind: str = "words",
                   size: int = 160) -> UnitsExplorer | widgets.HTML:
    """Build the lesson-1 explorer on ``text`` (default: the sample passage); one call per cell
    (a note instead while nbgrader autogrades).

    ``units_explorer(kind="cl100k_tokens", size=200)`` -> UnitsExplorer(...)
    """
    return UnitsExplorer.build(text=text, kind=kind, size=size)
