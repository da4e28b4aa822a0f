"""The lesson-4 structure explorer: a document view with every chunk's span, and one chunk's
heading path, ``text``, ``retrieval_text`` and both hashes side by side.

Controls: the fixture source, the budget in characters, the overlap used for hard splits (at
most half the budget: beyond that most characters are stored many times over and the views
would hold thousands of chunks; a note says so when a smaller budget lowers it), and a chunk
stepper. The plot draws three lanes over the
character axis (headings, structure-aware chunks, fixed windows), repeated characters hatched;
the summary beside it is its text alternative and gives both duplication ratios, computed with
``chunklib.structure``. This module holds the explorer and its factory; the plot is drawn by
``chunklib.widgets.structure_plot``, the document and chunk views are written by
``chunklib.widgets.structure_html``.

A move redraws through ``chunklib.widgets.layers.Layers``: the frame (x axis over the source, lane
names, title) is rendered once per source length, the lanes are drawn over it. A source is
parsed once (its headings); the chunks and windows of a (source, budget, overlap) are kept in
a small LRU cache, so moving back to a recent value does not chunk again. While nbgrader
autogrades, ``structure_explorer`` returns a note instead (no matplotlib).

Leaves out: editing the source (lesson 5's explorer does that), token budgets; the
drawing functions and the HTML views (the two modules above).

    >>> StructureExplorer().summary_rows()[1][0]
    'structure-aware'
"""

from __future__ import annotations

from collections import OrderedDict
from typing import NamedTuple

import ipywidgets as widgets

from chunklib.course.fixture import load_sources
from chunklib.documents import Source
from chunklib.elements import parse_elements
from chunklib.intervals import total_length, union_length
from chunklib.records import ChunkRecord
from chunklib.structure import (
    DEFAULT_OVERLAP,
    DEFAULT_SIZE,
    acl_window_chunks,
    structure_chunks,
    window_chunks,
)
from chunklib.validate import require_window
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
from chunklib.widgets.structure_html import chunk_detail_html, document_html
from chunklib.widgets.structure_plot import MARGINS, structure_frame, structure_lanes

_EXCERPT = 500  # characters of context shown around the current chunk
_CACHED_CHUNKINGS = 16  # (source, budget, overlap) results kept: a few slider steps each way


def acl_text(acl, acl_parts) -> str:
    """A chunk's access in words: its groups (any of them), or every part's groups.

    ``acl_text(None, (("employees",), ("sre",)))`` -> 'all of: (employees) and (sre)'
    """
    def one(groups):
        return "missing" if groups is None else ", ".join(groups) or "nobody"
    if acl_parts is not None:
        return "all of: " + " and ".join(f"({one(p)})" for p in acl_parts)
    return one(acl)


class Chunking(NamedTuple):
    """Everything a (source, budget, overlap) gives that a move would otherwise recompute."""

    chunks: list[ChunkRecord]
    windows: list[ChunkRecord]
    chunk_spans: list[tuple[int, int]]
    window_spans: list[tuple[int, int]]
    extra: tuple[int, int]  # characters stored more than once: chunks, windows
    mixed: int  # windows over sections with different ACLs (all of them apply)
    acl_cut: int  # windows when they are cut at every change of ACL


class StructureExplorer(widgets.VBox):
    """Interactive lesson-4 explorer; a VBox, so the lesson cell just returns it.

    ``StructureExplorer().chunk_slider.value = 11`` shows the table row "production | 4 | SRE".
    """

    def __init__(self, sources: list[Source] | None = None, source_id: str = "deployment-guide",
                 size: int = DEFAULT_SIZE, overlap: int = DEFAULT_OVERLAP):
        self.sources = {s.source_id: s for s in (sources or load_sources())}
        self.source_menu = widgets.Dropdown(
            options=list(self.sources), value=source_id, description="source",
            tooltip="which fixture source to chunk", style={"description_width": "9em"})
        self.size_slider = int_slider("budget (chars)", size, 100, 3000, 50,
                                      "chunk budget in characters")
        self.overlap_slider = int_slider("split overlap", overlap, 0, size // 2, 10,
                                         "overlap in characters, used only for hard splits")
        self.stepper = ChunkStepper("which chunk to show")
        self.chunk_slider, self.step_label = self.stepper.slider, self.stepper.label
        self.prev_button, self.next_button = (self.stepper.prev_button,
                                              self.stepper.next_button)
        self.whole_box = widgets.Checkbox(value=False, description="whole document",
                                          tooltip="show the whole source, not an excerpt")
        self.summary, self.note = widgets.HTML(), widgets.HTML()
        self.document, self.detail = widgets.HTML(), widgets.HTML()
        self.layers = Layers(7.5, 2.4, margins=MARGINS)
        self.figure = self.layers.figure
        self.image = image_view(b"")
        self._headings: dict[str, list[tuple[int, int]]] = {}  # per source, parsed once
        self._chunkings: OrderedDict[tuple[str, int, int], Chunking] = OrderedDict()
        self._rechunk()  # draws the first picture
        stepper = self.stepper.box
        controls = widgets.VBox([self.source_menu, self.size_slider, self.overlap_slider,
                                 self.note, stepper, self.step_label])
        super().__init__([controls, widgets.HBox([self.image, self.summary]), self.detail,
                          self.whole_box, self.document])
        self.size_slider.observe(self._on_size, names="value")
        for control in (self.source_menu, self.overlap_slider):
            control.observe(self._rechunk, names="value")
        for control in (self.chunk_slider, self.whole_box):
            control.observe(self._redraw, names="value")

    def _on_size(self, change) -> None:
        old_overlap = self.overlap_slider.value
        self.overlap_slider.max = change["new"] // 2  # clamps the overlap (see the docstring)
        if self.overlap_slider.value != old_overlap:  # the overlap's observer has rechunked
            self.note.value = (f"<i>Split overlap lowered from {old_overlap} to "
                               f"{self.overlap_slider.value}: at most half the budget.</i>")
        else:
            self.note.value = ""
            self._rechunk()

    def _chunking(self, source: Source, size: int, overlap: int) -> Chunking:
        """The chunks and windows of ``source`` at (size, overlap), from a bounded LRU cache."""
        key = (source.source_id, size, overlap)
        found = self._chunkings.get(key)
        if found is not None:
            self._chunkings.move_to_end(key)
            return found
        chunks = structure_chunks(source, size, overlap)
        windows = window_chunks(source, size, overlap)
        chunk_spans = [(c.start, c.end) for c in chunks]
        window_spans = [(w.start, w.end) for w in windows]
        extra = tuple(total_length(spans) - union_length(spans)
                      for spans in (chunk_spans, window_spans))
        found = Chunking(chunks, windows, chunk_spans, window_spans, extra,
                         sum(w.acl_parts is not None for w in windows),
                         len(acl_window_chunks(source, size, overlap)))
        self._chunkings[key] = found
        if len(self._chunkings) > _CACHED_CHUNKINGS:
            self._chunkings.popitem(last=False)
        return found

    def _rechunk(self, _change=None) -> None:
        self.source = self.sources[self.source_menu.value]
        size, overlap = self.size_slider.value, self.overlap_slider.value
        self.chunking = self._chunking(self.source, size, overlap)
        self.chunks, self.windows = self.chunking.chunks, self.chunking.windows
        if self.source.source_id not in self._headings:
            self._headings[self.source.source_id] = [
                (e.start, e.end) for e in parse_elements(self.source.text) if e.kind == "heading"]
        self.headings = self._headings[self.source.source_id]
        new_source = getattr(self, "_shown", None) != self.source.source_id
        self._shown = self.source.source_id
        before = self.chunk_slider.value
        with self.chunk_slider.hold_trait_notifications():
            self.chunk_slider.max = max(len(self.chunks), 1)
            self.chunk_slider.value = 1 if new_source else min(self.chunk_slider.value,
                                                               self.chunk_slider.max)
        if self.chunk_slider.value == before:  # otherwise the stepper's observer has redrawn
            self._redraw()

    def summary_rows(self) -> list[tuple[str, str]]:
        """The numbers the summary shows, as (label, value) pairs."""
        n = len(self.source.text)
        rows = [("source", f"{self.source.source_id}, revision {self.source.revision}, "
                           f"{n} characters")]
        for label, chunks, extra in (("structure-aware", self.chunks, self.chunking.extra[0]),
                                     ("fixed windows", self.windows, self.chunking.extra[1])):
            ratio = extra / n if n else 0.0
            rows.append((label, f"{len(chunks)} chunks, duplication ratio {ratio:.4f} "
                                f"({extra} characters stored twice)"))
        rows.append(("windows that mix ACLs",
                     f"{self.chunking.mixed} (a reader needs a group of every section's ACL)"))
        rows.append(("windows cut at ACL changes",
                     f"{self.chunking.acl_cut} windows, each with one ACL"))
        if self.chunks:
            c = self.chunks[self.chunk_slider.value - 1]
            rows += [("current chunk", f"{c.ordinal + 1} of {len(self.chunks)}: characters "
                                       f"{c.start} to {c.end}, kind {c.kind}"),
                     ("heading path", " > ".join(c.heading_path) or "(none)"),
                     ("ACL", acl_text(c.acl, c.acl_parts))]
        return rows


    def _redraw(self, _change=None) -> None:
        text, k = self.source.text, len(self.chunks)
        current = self.chunk_slider.value - 1 if k else None
        spans, n = self.chunking.chunk_spans, len(text)
        ax = self.figure.axes[0]
        png = self.layers.draw(
            key=(n,),
            frame=lambda: structure_frame(ax, n),
            data=lambda: structure_lanes(ax, spans, self.chunking.window_spans, self.headings,
                                         current),
            overlays=ax.spines.values(),
        )
        if current is None:
            self.stepper.say(0, None, "", "the source is empty.")
            self.detail.value, window = "", None
        else:
            c = self.chunks[current]
            self.stepper.say(k, current, f"characters {c.start} to {c.end} ({c.kind})", "")
            self.detail.value = chunk_detail_html(c)
            window = None if self.whole_box.value else (
                max(0, c.start - _EXCERPT), min(len(text), c.end + _EXCERPT))
        self.document.value = document_html(text, spans, current, window)
        self._alt = (f"Plot of {k} structure-aware chunks and {len(self.windows)} fixed "
                     f"windows over {len(text)} characters.")
        set_image(self.image, png, self._alt)
        self.summary.value = summary_html(
            f"{self.source.source_id}: budget {self.size_slider.value}, split overlap "
            f"{self.overlap_slider.value}", self.summary_rows())


def structure_explorer(source_id: str = "deployment-guide", size: int = DEFAULT_SIZE,
                       overlap: int = DEFAULT_OVERLAP) -> StructureExplorer | widgets.HTML:
    """Build the lesson-4 explorer; the lesson cell is this one call (a note while autograding).

    ``structure_explorer()`` -> StructureExplorer(...) showing the Deployment Guide
    """
    require_window(size, overlap)
    known = [s.source_id for s in load_sources()]
    if source_id not in known:
        raise ValueError(f"source_id must be one of {known}, got {source_id!r}")
    if autograding():
        return not_drawn("structure explorer")
    return StructureExplorer(source_id=source_id, size=size, overlap=overlap)
