"""The lesson-4 structure explorer: a document view with every chunk's span, and one chunk's
heading path, ``text``, ``retrieval_text`` and both hashes side by side.

Controls: the fixture source, the budget in characters, the overlap used for hard splits (at
most half the budget: beyond that most characters are stored many times over and the views
would hold thousands of chunks; a note says so when a smaller budget lowers it), and a chunk
stepper. The plot draws three lanes over the
character axis (headings, structure-aware chunks, fixed windows), repeated characters hatched;
the summary beside it is its text alternative and gives both duplication ratios, computed with
``chunklib.structure``.

A move redraws through ``chunklib.layers.Layers``: the frame (x axis over the source, lane
names, title) is rendered once per source length, the lanes are drawn over it. A source is
parsed once (its headings); the chunks and windows of a (source, budget, overlap) are kept in
a small LRU cache, so moving back to a recent value does not chunk again. While nbgrader
autogrades, ``structure_explorer`` returns a note instead (no matplotlib).

Leaves out: editing the source (lesson 5's explorer does that), token budgets.

    >>> StructureExplorer().summary_rows()[1][0]
    'structure-aware'
"""

from __future__ import annotations

import html
from collections import OrderedDict
from typing import NamedTuple

import ipywidgets as widgets

from chunklib.elements import parse_elements
from chunklib.fixture import Source, load_sources
from chunklib.intervals import total_length, union, union_length
from chunklib.layers import Layers
from chunklib.plotting import CURRENT_EDGE, PALETTE, bars_patch
from chunklib.records import ChunkRecord
from chunklib.structure import DEFAULT_OVERLAP, DEFAULT_SIZE, structure_chunks, window_chunks
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

CHUNK_COLOURS = (PALETTE[0], PALETTE[7])  # neighbouring chunks alternate dark / light blue
CHUNK_HATCHES = ("", "..")               # ... and plain / dotted, to read without colour
REPEAT_COLOUR, HEADING_COLOUR = PALETTE[1], PALETTE[3]
_EXCERPT = 500  # characters of context shown around the current chunk
_CACHED_CHUNKINGS = 16  # (source, budget, overlap) results kept: a few slider steps each way
LANE_NAMES = ["fixed windows", "structure-aware", "headings"]
TITLE = "repeated characters: orange, hatched ///; current chunk: black outline"
MARGINS = {"left": 0.19, "right": 0.97, "bottom": 0.21, "top": 0.9}  # fit the lane names


class Chunking(NamedTuple):
    """Everything a (source, budget, overlap) gives that a move would otherwise recompute."""

    chunks: list[ChunkRecord]
    windows: list[ChunkRecord]
    chunk_spans: list[tuple[int, int]]
    window_spans: list[tuple[int, int]]
    extra: tuple[int, int]  # characters stored more than once: chunks, windows
    unreadable: int  # windows whose ACL intersection is empty


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
    """What depends only on the source length ``n``: x axis, lane names, grid, title.

    ``structure_frame(ax, 8)``
    """
    from matplotlib.ticker import MaxNLocator

    ax.clear()
    ax.set_xlim(0, max(n, 1))
    ax.set_ylim(-0.6, 2.6)
    ax.set_yticks([0, 1, 2], LANE_NAMES)
    ax.set_xlabel("position in the source (characters)")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.grid(axis="x", alpha=0.3)
    ax.set_title(TITLE, fontsize=8, loc="left")


def structure_lanes(ax, chunk_spans, window_spans, heading_spans, current=None) -> list:
    """Three lanes: headings, structure chunks, fixed windows; returns the artists added.

    ``structure_lanes(ax, [(0, 5)], [(0, 4), (3, 8)], [], current=0)`` -> [<PathPatch ...>, ...]
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


def draw_structure(ax, chunk_spans, window_spans, heading_spans, n, current=None) -> None:
    """Three lanes over ``n`` characters: headings, structure chunks, fixed windows.

    ``draw_structure(ax, [(0, 5)], [(0, 4), (3, 8)], [], 8, current=0)``
    """
    structure_frame(ax, n)
    structure_lanes(ax, chunk_spans, window_spans, heading_spans, current)


def document_html(text: str, spans: list[tuple[int, int]], current: int | None,
                  window: tuple[int, int] | None = None) -> str:
    """``text`` (or the ``window`` part of it) with every chunk span marked, as HTML.

    ``document_html("ab cd", [(0, 2), (3, 5)], 1)`` -> "<pre ...><span ...>ab</span> ..."
    """
    lo, hi = window or (0, len(text))
    cuts = sorted({lo, hi, *(p for s, e in spans for p in (s, e) if lo < p < hi)})
    order = sorted(range(len(spans)), key=lambda i: spans[i][0])
    parts, active, nxt = ["…" if lo > 0 else ""], [], 0
    for a, b in zip(cuts, cuts[1:], strict=False):  # sweep: spans that cover [a, b)
        while nxt < len(order) and spans[order[nxt]][0] <= a:
            active.append(order[nxt])
            nxt += 1
        active = [i for i in active if spans[i][1] >= b]
        owners = sorted(active)
        piece = html.escape(text[a:b])
        if not owners:
            parts.append(f"<span style='color:#595959'>{piece}</span>")
            continue
        style = (f"background:{REPEAT_COLOUR};text-decoration:underline" if len(owners) > 1
                 else f"background:{'#cfe3f3' if owners[0] % 2 == 0 else '#a2c8ec'}")
        if current in owners:
            style += ";outline:2px solid black;font-weight:bold"
        label = ", ".join(f"chunk {i + 1}" for i in owners)
        parts.append(f"<span style='{style}' title='{label}'>{piece}</span>")
    parts.append("…" if hi < len(text) else "")
    return ("<pre role='document' aria-label='source text with chunk spans' style='white-space:"
            "pre-wrap;max-height:22em;overflow:auto;font-size:12px'>" + "".join(parts) + "</pre>")


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
                         sum(w.acl == () for w in windows))
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
        rows.append(("windows readable by nobody",
                     f"{self.chunking.unreadable} (they mix ACL sections)"))
        if self.chunks:
            c = self.chunks[self.chunk_slider.value - 1]
            rows += [("current chunk", f"{c.ordinal + 1} of {len(self.chunks)}: characters "
                                       f"{c.start} to {c.end}, kind {c.kind}"),
                     ("heading path", " > ".join(c.heading_path) or "(none)"),
                     ("ACL", "missing" if c.acl is None else ", ".join(c.acl) or "nobody")]
        return rows

    def _detail_html(self, c) -> str:
        cell = "vertical-align:top;padding:0 1em 0 0;width:50%"
        pre = "white-space:pre-wrap;margin:0;font-size:12px"

        def column(title: str, text: str, name: str, digest: str) -> str:
            return (f"<td style='{cell}'><b>{title}</b><pre style='{pre}'>{html.escape(text)}"
                    f"</pre><small>{name}: <code>{digest}</code></small></td>")

        same = "the same" if c.content_sha256 == c.retrieval_sha256 else "different"
        path = html.escape(" > ".join(c.heading_path) or "(none)")
        return (f"<div><b>heading path</b>: {path}</div>"
                "<table role='table' aria-label='the current chunk, two texts side by side' "
                "style='width:100%'><tr>"
                + column(f"text: the citable slice [{c.start}, {c.end})", c.text,
                         "content_sha256", c.content_sha256)
                + column("retrieval_text: what search and embeddings see", c.retrieval_text,
                         "retrieval_sha256", c.retrieval_sha256)
                + f"</tr></table><small>The two hashes are {same}. chunk_id "
                  f"<code>{c.chunk_id[:16]}…</code>, element_id <code>{c.element_id[:16]}…"
                  "</code></small>")

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
            self.detail.value = self._detail_html(c)
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
