"""The lesson-1 units explorer: a unit kind and a chunk size, fixed windows over real text.

Choose characters, word-like units, cl100k tokens or MiniLM word pieces and a chunk size C;
the passage is cut into K = ceil(N / C) windows without overlap. Three views show the same
chunks, in the same two alternating colours and hatchings, and mark where a chunk ends inside
a sentence and what all-MiniLM-L6-v2 never reads: an interval plot (one bar per chunk,
``chunklib.widgets.units_plot``), the text itself (``chunklib.widgets.units_html``) and a
stepper with the current chunk's exact text between its neighbours' edges.

The HTML summary is the text alternative of all three: units, K, the last chunk, sentences
cut, and how many chunks all-MiniLM-L6-v2 silently truncates.

The plot redraws through ``chunklib.widgets.layers.Layers``: the frame (x axis, labels, legend) is
rendered once per unit kind, passage length and "lengths written beside the bars or not"; a
move draws only the bars, marks and the y axis over it. The chunks, the sentences they cut and
what the model reads are computed once per (unit kind, C), in a bounded cache. matplotlib is
imported only when a plot is drawn; while nbgrader autogrades, ``units_explorer`` returns a
note instead of the explorer (``chunklib.widgets.common.autograding``).

Leaves out: the drawing (``units_plot``) and the HTML views (``units_html``); overlap
(lesson 3) and boundary-aware splitting (lesson 2); sentences come from
``chunklib.sentences.split_sentences`` (no abbreviation list).

    >>> UnitsExplorer(kind="words", size=200).summary_rows()[2]
    ('chunks K = ceil(N / C)', 'ceil(1204 / 200) = 7')
"""

from __future__ import annotations

import html
from functools import lru_cache
from typing import NamedTuple

import ipywidgets as widgets

from chunklib.budgets import KIND_LABELS, minilm_reads, spans_of
from chunklib.course.passages import sample_passage
from chunklib.sentences import split_sentences
from chunklib.tokens import MINILM_MAX_SEQ_LENGTH, MINILM_SPECIAL_TOKENS
from chunklib.units import cut_sentence_spans, cut_sentences, fixed_windows
from chunklib.validate import require_int
from chunklib.widgets.common import (
    ChunkStepper,
    autograding,
    image_view,
    int_slider,
    not_drawn,
    set_image,
    summary_html,
)
from chunklib.widgets.layers import Layers
from chunklib.widgets.units_html import chunk_view_html, text_view_html
from chunklib.widgets.units_plot import LABEL_LIMIT, MARGINS, unit_chunks_bars, unit_chunks_frame

MINILM_TEXT_PIECES = MINILM_MAX_SEQ_LENGTH - MINILM_SPECIAL_TOKENS
CACHED_SETTINGS = 32         # (unit kind, C) pairs whose chunks are kept


def cut_boundaries(char_windows: list[tuple[int, int]],
                   sentence_spans: list[tuple[int, int]]) -> set[int]:
    """The chunks ``k >= 1`` whose boundary with chunk ``k - 1`` falls inside a cut sentence: one
    that no chunk holds whole (``cut_sentence_spans``) and that reaches into both chunks.

    ``cut_boundaries([(0, 5), (5, 9), (9, 14)], [(0, 7), (9, 14)])`` -> {1}
    """
    cut = cut_sentence_spans(sentence_spans, char_windows)
    return {k for k in range(1, len(char_windows))
            if any(s < char_windows[k - 1][1] and char_windows[k][0] < e for s, e in cut)}


class Chunking(NamedTuple):
    """Everything the explorer shows for one (unit kind, C), computed once."""

    windows: list[tuple[int, int]]       # unit intervals
    char_windows: list[tuple[int, int]]  # the same chunks as character spans
    cut: set[int]                        # chunks whose boundary cuts a sentence
    sentences_cut: int
    reads: list[tuple[int, int]]         # (word pieces, read_end) per chunk
    unread: list[int]                    # first unit the model does not read, per chunk


class UnitsExplorer(widgets.VBox):
    """Interactive lesson-1 explorer; a VBox, so the lesson cell just returns it.

    ``UnitsExplorer().size_slider.value = 300`` redraws the plot, the text and the summary.
    """

    def __init__(self, text: str | None = None, kind: str = "words", size: int = 200):
        size = _check_arguments(text, kind, size)
        self.text = sample_passage() if text is None else text
        self.sentences = split_sentences(self.text)
        self._spans: dict[str, list[tuple[int, int]]] = {}
        # chunks per (kind, C): a move back to a C seen before costs nothing (bounded)
        self._chunking = lru_cache(maxsize=CACHED_SETTINGS)(self._compute_chunking)
        self._drawing = False
        self.kind_picker = widgets.Dropdown(
            options=[(label, key) for key, label in KIND_LABELS.items()], value=kind,
            description="unit kind", tooltip="what one unit is: the length function",
            style={"description_width": "9em"})
        self.size_slider = int_slider("chunk size C", size, min(10, size), max(1500, size), 10,
                                      "chunk size C, counted in the chosen units")
        self.stepper = ChunkStepper("which chunk to highlight")
        self.chunk_slider, self.step_label = self.stepper.slider, self.stepper.label
        self.prev_button, self.next_button = (self.stepper.prev_button,
                                              self.stepper.next_button)
        self.chunk_text = widgets.HTML()
        self.text_view = widgets.HTML()
        self.summary = widgets.HTML(layout=widgets.Layout(min_width="22em"))
        self.layers = Layers(7.5, 3.8, margins=MARGINS)
        self.figure = self.layers.figure
        self.image = image_view(b"")
        stepper = self.stepper.box
        super().__init__([self.kind_picker, self.size_slider,
                          widgets.HBox([self.image, self.summary]), stepper, self.step_label,
                          self.chunk_text, widgets.HTML("<b>The whole passage, chunk by chunk"
                                                        "</b>"), self.text_view])
        for control in (self.kind_picker, self.size_slider, self.chunk_slider):
            control.observe(self._redraw, names="value")
        self._redraw()

    @property
    def kind(self) -> str:
        return self.kind_picker.value

    def spans(self) -> list[tuple[int, int]]:
        """Character spans of the units of the chosen kind (computed once per kind)."""
        return self._units(self.kind)

    def _units(self, kind: str) -> list[tuple[int, int]]:
        if kind not in self._spans:
            self._spans[kind] = spans_of(self.text, kind)
        return self._spans[kind]

    def chunking(self) -> Chunking:
        """The chunks for the current unit kind and C, and what they cut and the model reads."""
        return self._chunking(self.kind, self.size_slider.value)

    def _compute_chunking(self, kind: str, size: int) -> Chunking:
        spans = self._units(kind)
        windows = fixed_windows(len(spans), size)
        chunks = [(spans[s][0], spans[e - 1][1]) for s, e in windows]
        reads = minilm_reads(self.text, chunks)
        return Chunking(windows, chunks, cut_boundaries(chunks, self.sentences),
                        cut_sentences(self.sentences, chunks), reads,
                        _unread_units(spans, windows, reads))

    def windows(self) -> list[tuple[int, int]]:
        """The chunks as unit intervals: fixed windows of C units, no overlap."""
        return self.chunking().windows

    def char_windows(self) -> list[tuple[int, int]]:
        """The chunks as character spans of the text: first unit's start to last unit's end."""
        return self.chunking().char_windows

    def reads(self) -> list[tuple[int, int]]:
        """Per chunk: (MiniLM word pieces, the character where the model stops reading it)."""
        return self.chunking().reads

    def unread_from(self, reads: list[tuple[int, int]] | None = None) -> list[int]:
        """Per chunk: the first unit (an index) that all-MiniLM-L6-v2 does not read whole; the
        chunk's end when the model reads all of it."""
        if reads is None:
            return self.chunking().unread
        return _unread_units(self.spans(), self.windows(), reads)

    def summary_rows(self, reads: list[tuple[int, int]] | None = None) -> list[tuple[str, str]]:
        """The numbers the summary shows, as (label, value) pairs."""
        unit, n, size = KIND_LABELS[self.kind], len(self.spans()), self.size_slider.value
        chunking = self.chunking()
        k = len(chunking.windows)
        pieces = [p for p, _ in (chunking.reads if reads is None else reads)]
        over = sum(1 for p in pieces if p > MINILM_TEXT_PIECES)
        last = n - (k - 1) * size if k else 0
        chars = "" if self.kind == "characters" else f" ({len(self.text)} characters)"
        return [
            ("units N", f"{n} {unit}{chars}"),
            ("chunk size C", f"{size} {unit}"),
            ("chunks K = ceil(N / C)", f"ceil({n} / {size}) = {k}"),
            ("last chunk", f"N − (K − 1)·C = {n} − {max(k - 1, 0)}·{size} = {last} {unit}"),
            ("sentences cut", f"{chunking.sentences_cut} of "
                              f"{len(self.sentences)} (no single chunk holds them whole)"),
            ("all-MiniLM-L6-v2", f"{over} of {k} chunks are longer than the {MINILM_TEXT_PIECES} "
                                 f"word pieces it reads (largest: {max(pieces, default=0)}); it "
                                 "silently drops the rest of those"),
        ]

    def _redraw(self, _change=None) -> None:
        if self._drawing:  # lowering the stepper's max below its value fires a second change
            return
        self._drawing = True
        try:
            self._draw()
        finally:
            self._drawing = False

    def _draw(self) -> None:
        chunking = self.chunking()
        windows, chunks, cut, reads = (chunking.windows, chunking.char_windows, chunking.cut,
                                       chunking.reads)
        k, unit, n = len(windows), KIND_LABELS[self.kind], len(self.spans())
        current = self.stepper.follow(k)  # clamps the stepper when K drops
        read_ends = [stop for _, stop in reads]
        if k:
            (first, stop), (start, end) = windows[current], chunks[current]
            pieces, read_end = reads[current]
            verdict = ("all-MiniLM-L6-v2 reads all of it" if read_end >= end else
                       f"all-MiniLM-L6-v2 reads only characters {start} to {read_end} "
                       f"({MINILM_TEXT_PIECES} of its {pieces} word pieces)")
            where = (f"characters {start} to {end}" if self.kind == "characters" else
                     f"{unit} {first} to {stop}, characters {start} to {end}")
            self.stepper.say(k, current, f"{where}; {verdict}", "")
            self.chunk_text.value = chunk_view_html(self.text, chunks, current, cut, read_end)
        else:
            self.stepper.say(0, None, "", "the text has no units.")
            self.chunk_text.value = ""
        ax = self.figure.axes[0]
        labelled = k <= LABEL_LIMIT
        png = self.layers.draw(
            key=(unit, n, labelled),
            frame=lambda: unit_chunks_frame(ax, n, unit, labelled),
            data=lambda: unit_chunks_bars(ax, windows, current=current, cut=cut,
                                          unread=chunking.unread),
            overlays=(ax.yaxis, *ax.spines.values()),
        )
        truncated = sum(1 for stop, (_s, end) in zip(read_ends, chunks, strict=True) if stop < end)
        alt = (f"{k} chunks drawn as bars over {n} {unit}"
               + (f"; chunk {current + 1} outlined" if k else "")
               + f"; an × at each of the {len(cut)} chunk ends inside a sentence"
               + (f"; a dotted grey tail on the {truncated} chunks that all-MiniLM-L6-v2 cuts "
                  "short." if truncated else "; all-MiniLM-L6-v2 reads every chunk whole."))
        set_image(self.image, png, alt)
        self.text_view.value = text_view_html(self.text, chunks, current, cut, read_ends)
        title = f"Chunks of C = {self.size_slider.value} {unit}"
        self.summary.value = (summary_html(title, self.summary_rows(reads))
                              + f"<p><small>Plot: {html.escape(alt)}</small></p>")


def _unread_units(spans, windows, reads) -> list[int]:
    """Per window of unit indices: the first unit that ends after the model's ``read_end``."""
    out = []
    for (first, stop), (_pieces, read_end) in zip(windows, reads, strict=True):
        unit = first
        while unit < stop and spans[unit][1] <= read_end:
            unit += 1
        out.append(unit)
    return out


def units_explorer(text: str | None = None, kind: str = "words",
                   size: int = 200) -> UnitsExplorer | widgets.HTML:
    """Build the lesson-1 explorer on ``text`` (default: the sample passage); one call per cell
    (a note instead while nbgrader autogrades).

    ``units_explorer(kind="cl100k_tokens", size=200)`` -> UnitsExplorer(...)
    """
    _check_arguments(text, kind, size)
    if autograding():
        return not_drawn("units explorer")
    return UnitsExplorer(text, kind, size)


def _check_arguments(text, kind, size) -> int:
    """Refuse a text that is not a str or None, an unknown kind, a size below 1; the size."""
    if text is not None and not isinstance(text, str):
        raise TypeError(f"text must be a str or None, got {type(text).__name__}")
    if kind not in KIND_LABELS:
        raise ValueError(f"kind must be one of {', '.join(KIND_LABELS)}, got {kind!r}")
    return require_int("size", size, minimum=1)
