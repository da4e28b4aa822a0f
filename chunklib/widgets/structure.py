"""The lesson-4 structure explorer: a document view with every chunk's span, and one chunk's
heading path, ``text``, ``retrieval_text`` and both hashes side by side.

Controls: the fixture source, the budget in characters and the overlap used for hard splits
(at most half the budget: beyond that most characters are stored many times over; a note says
so when a smaller budget lowers it), and a chunk stepper (a new source starts at chunk 1). One
setting gives one ``SourceChunks``: the structure-aware chunks and the fixed windows of
``chunklib.structure``, the characters each strategy stores twice, the windows that mix ACLs
and the count of windows cut at ACL changes, computed once. The plot (``structure_plot``) draws
three lanes over the characters (headings, structure-aware chunks, fixed windows), repeated
characters hatched, each source's frame drawn when the explorer is built; the summary beside
it is its text alternative. Below it, the current chunk in detail and the source with every
chunk's span (``structure_html``); *whole document* switches that view from an excerpt to the
whole source (a view option: plot and summary stay).

Leaves out: editing the source (lesson 5's explorer does that) and token budgets. The skeleton
(caching, redraws, stepper, autograde note) is ``chunklib.widgets.explorer``.

    >>> from chunklib.course.fixture import load_source
    >>> guide = load_source("deployment-guide")
    >>> StructureExplorer().summary_rows()[1]
    ('structure-aware', '44 chunks, duplication ratio 0.0048 (100 characters stored twice)')
"""

from __future__ import annotations

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
    acl_runs,
    structure_chunks,
    window_chunks,
)
from chunklib.validate import require_window
from chunklib.widgets.common import int_slider
from chunklib.widgets.explorer import Explorer
from chunklib.widgets.structure_html import chunk_detail_html, document_html
from chunklib.widgets.structure_plot import MARGINS, structure_frame, structure_lanes
from chunklib.windows import n_chunks

EXCERPT = 500  # characters of the source shown on both sides of the current chunk


def acl_text(acl, acl_parts) -> str:
    """A chunk's access in words: its groups (any of them), or every part's groups.

    ``acl_text(None, (("employees",), ("sre",)))`` -> 'all of: (employees) and (sre)'
    """
    def one(groups):
        return "missing" if groups is None else ", ".join(groups) or "nobody"
    if acl_parts is not None:
        return "all of: " + " and ".join(f"({one(p)})" for p in acl_parts)
    return one(acl)


class SourceChunks(NamedTuple):
    """Both strategies over one source at one (budget, overlap), computed once."""

    source: Source
    size: int
    overlap: int
    chunks: list[ChunkRecord]
    chunk_spans: list[tuple[int, int]]
    window_spans: list[tuple[int, int]]
    headings: list[tuple[int, int]]
    extra: tuple[int, int]  # characters stored more than once: chunks, windows
    mixed: int    # windows over sections with different ACLs (all of them apply)
    acl_cut: int  # windows when they are cut at every change of ACL


def source_chunks(source: Source, size: int, overlap: int) -> SourceChunks:
    """Structure-aware chunks and fixed windows of ``source``, and what the explorer says of
    them (``parse_elements`` keeps its parse of a text, so the source is parsed once).

    ``source_chunks(guide, 1000, 100).extra`` -> (100, 2300)
    """
    chunks = structure_chunks(source, size, overlap)
    windows = window_chunks(source, size, overlap)
    chunk_spans = [(c.start, c.end) for c in chunks]
    window_spans = [(w.start, w.end) for w in windows]
    extra = tuple(total_length(s) - union_length(s) for s in (chunk_spans, window_spans))
    headings = [(e.start, e.end) for e in parse_elements(source.text) if e.kind == "heading"]
    # the windows of ``acl_window_chunks`` (windows inside each run of one ACL), counted
    # without making their records
    acl_cut = sum(n_chunks(end - start, size, overlap)
                  for start, end, _ in acl_runs(source))
    return SourceChunks(source, size, overlap, chunks, chunk_spans, window_spans, headings,
                        extra, sum(w.acl_parts is not None for w in windows), acl_cut)


class StructureExplorer(Explorer):
    """Interactive lesson-4 explorer; ``StructureExplorer().chunk_slider.value = 11`` shows the
    table row "production | 4 | SRE"."""

    name = "structure explorer"
    figsize = (7.5, 2.4)
    margins = MARGINS
    empty = "the source is empty."
    stepper_tooltip = "which chunk to show"

    def __init__(self, sources: list[Source] | None = None, source_id: str = "deployment-guide",
                 size: int = DEFAULT_SIZE, overlap: int = DEFAULT_OVERLAP):
        super().__init__(sources=sources, source_id=source_id, size=size, overlap=overlap)
        self.whole_box.observe(lambda _change: self.show(self.computed, self.current),
                               names="value")
        ax = self.figure.axes[0]
        for n in sorted({len(s.text) for s in self.sources.values()})[:self.layers.max_frames]:
            # every source's frame now, kept by Layers: no source switch waits for one (the
            # picture shown is not touched; the next redraw draws its data again)
            self.layers.draw(key=n, frame=lambda n=n: structure_frame(ax, n), data=list)

    @classmethod
    def check(cls, sources=None, source_id="deployment-guide", size=DEFAULT_SIZE,
              overlap=DEFAULT_OVERLAP) -> None:
        size, overlap = require_window(size, overlap)
        if overlap > size // 2:
            raise ValueError(f"overlap must be at most half the size ({size // 2}), "
                             f"got {overlap}")
        known = [s.source_id for s in sources or load_sources()]
        if source_id not in known:
            raise ValueError(f"source_id must be one of {known}, got {source_id!r}")

    def make_controls(self, sources, source_id, size, overlap):
        self.sources = {s.source_id: s for s in (sources or load_sources())}
        self.source_menu = widgets.Dropdown(
            options=list(self.sources), value=source_id, description="source",
            tooltip="which fixture source to chunk", style={"description_width": "9em"})
        self.size_slider = int_slider("budget (chars)", size, min(100, size), max(3000, size),
                                      50, "chunk budget in characters")
        self.overlap_slider = int_slider("split overlap", overlap, 0, size // 2, 10,
                                         "overlap in characters, used only for hard splits")
        self.whole_box = widgets.Checkbox(value=False, description="whole document",
                                          tooltip="show the whole source, not an excerpt")
        self.note, self.detail, self.document = widgets.HTML(), widgets.HTML(), widgets.HTML()
        return {"source_id": self.source_menu, "size": self.size_slider,
                "overlap": self.overlap_slider}

    def notes(self):
        return [self.note]

    def views(self):
        return [self.detail, self.whole_box, self.document]

    def adjust(self, name, old, new) -> None:
        if name == "source_id":
            self.chunk_slider.value = 1  # another source: start at its first chunk
        if name != "size":
            return
        before = self.overlap_slider.value
        self.overlap_slider.max = new // 2  # clamps the overlap (see the module docstring)
        after = self.overlap_slider.value
        self.note.value = (f"<i>Split overlap lowered from {before} to {after}: at most half "
                           "the budget.</i>" if after != before else "")

    def compute(self, params) -> SourceChunks:
        return source_chunks(self.sources[params.source_id], params.size, params.overlap)

    def count(self, value: SourceChunks) -> int:
        return len(value.chunks)

    def frame_key(self, value: SourceChunks):
        return len(value.source.text)

    def draw_frame(self, ax, value: SourceChunks) -> None:
        structure_frame(ax, len(value.source.text))

    def draw_data(self, ax, value: SourceChunks, current):
        return structure_lanes(ax, value.chunk_spans, value.window_spans, value.headings,
                               current)

    def overlays(self, ax) -> tuple:
        return tuple(ax.spines.values())  # the lane names never change: they are the frame's

    def step_text(self, value: SourceChunks, current: int) -> str:
        c = value.chunks[current]
        return f"characters {c.start} to {c.end} ({c.kind})"

    def describe(self, value: SourceChunks, current):
        source, n = value.source, len(value.source.text)
        rows = [("source", f"{source.source_id}, revision {source.revision}, {n} characters")]
        for label, spans, extra in (("structure-aware", value.chunk_spans, value.extra[0]),
                                    ("fixed windows", value.window_spans, value.extra[1])):
            rows.append((label, f"{len(spans)} chunks, duplication ratio "
                                f"{extra / n if n else 0.0:.4f} ({extra} characters stored "
                                "twice)"))
        rows += [("windows that mix ACLs",
                  f"{value.mixed} (a reader needs a group of every section's ACL)"),
                 ("windows cut at ACL changes", f"{value.acl_cut} windows, each with one ACL")]
        if current is not None:
            c = value.chunks[current]
            rows += [("current chunk", f"{current + 1} of {len(value.chunks)}: characters "
                                       f"{c.start} to {c.end}, kind {c.kind}"),
                     ("heading path", " > ".join(c.heading_path) or "(none)"),
                     ("ACL", acl_text(c.acl, c.acl_parts))]
        pixels = self.figure.axes[0].bbox.width  # of the character axis
        slivers = sum((e - s) * pixels < 3 * n for s, e in value.chunk_spans)
        if slivers > len(value.chunk_spans) // 2:
            rows.append(("plot", f"{slivers} of the {len(value.chunks)} chunks are under 3 "
                                 "pixels wide: the lanes show where chunks lie and repeat; "
                                 "the text view below shows each chunk"))
        return (f"{source.source_id}: budget {value.size}, split overlap {value.overlap}",
                rows)

    def alt(self, value: SourceChunks, current) -> str:
        return (f"Plot of {len(value.chunks)} structure-aware chunks and "
                f"{len(value.window_spans)} fixed windows over {len(value.source.text)} "
                "characters" + (f"; chunk {current + 1} outlined." if current is not None
                                else "."))

    def show(self, value: SourceChunks, current) -> None:
        text = value.source.text
        if current is None:
            self.detail.value, window = "", None
        else:
            c = value.chunks[current]
            self.detail.value = chunk_detail_html(c)
            window = None if self.whole_box.value else (
                max(0, c.start - EXCERPT), min(len(text), c.end + EXCERPT))
        self.document.value = document_html(text, value.chunk_spans, current, window)


def structure_explorer(source_id: str = "deployment-guide", size: int = DEFAULT_SIZE,
                       overlap: int = DEFAULT_OVERLAP) -> StructureExplorer | widgets.HTML:
    """Build the lesson-4 explorer; the lesson cell is this one call (a note while autograding).

    ``structure_explorer().source_menu.value`` -> 'deployment-guide'
    """
    return StructureExplorer.build(source_id=source_id, size=size, overlap=overlap)
