"""The lesson-4 structure explorer: one source chunked two ways (structure-aware chunks and
fixed windows) as lanes over its characters, repeated characters hatched; the current chunk's
heading path, ``text``, ``retrieval_text`` and both hashes side by side; the source with every
chunk's span. The overlap stays at most half the budget (a note says when it is lowered).

Leaves out: editing the source (lesson 5's explorer does that) and token budgets.

    >>> from chunklib.course.fixture import load_source
    >>> guide, faq = load_source("deployment-guide"), structure_chunks(load_source("deploy-faq"))
    >>> s = StructureExplorer()
    >>> s.summary_rows()[1]
    ('structure-aware', '44 chunks, duplication ratio 0.0048 (100 characters stored twice)')
"""

from __future__ import annotations

import html
from typing import NamedTuple

import ipywidgets as widgets

from chunklib.course.fixture import load_sources
from chunklib.documents import Source
from chunklib.elements import parse_elements
from chunklib.intervals import total_length, union, union_length
from chunklib.records import ChunkRecord
from chunklib.structure import (
    DEFAULT_OVERLAP,
    DEFAULT_SIZE,
    acl_runs,
    structure_chunks,
    window_chunks,
)
from chunklib.validate import require_window
from chunklib.widgets.explorer import PALETTE, Explorer, bars_patch, int_slider
from chunklib.windows import n_chunks

EXCERPT = 500  # characters of the source shown on both sides of the current chunk
CHUNK_COLOURS = (PALETTE[0], PALETTE[7])  # neighbouring chunks alternate dark / light blue
CHUNK_HATCHES = ("", "..")               # ... and plain / dotted, to read without colour
REPEAT_COLOUR, HEADING_COLOUR = PALETTE[1], PALETTE[3]
TITLE = "repeated characters: orange, hatched ///, marked ▼; current chunk: black outline"


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
    """Both strategies over ``source`` and what the explorer says of them:

    ``source_chunks(guide, 1000, 100).extra`` -> (100, 2300)
    """
    chunks = structure_chunks(source, size, overlap)
    windows = window_chunks(source, size, overlap)
    chunk_spans = [(c.start, c.end) for c in chunks]
    window_spans = [(w.start, w.end) for w in windows]
    extra = tuple(total_length(s) - union_length(s) for s in (chunk_spans, window_spans))
    headings = [(e.start, e.end) for e in parse_elements(source.text) if e.kind == "heading"]
    # the windows of ``acl_window_chunks`` (inside each run of one ACL), without their records
    acl_cut = sum(n_chunks(end - start, size, overlap)
                  for start, end, _ in acl_runs(source))
    return SourceChunks(source, size, overlap, chunks, chunk_spans, window_spans, headings,
                        extra, sum(w.acl_parts is not None for w in windows), acl_cut)


class StructureExplorer(Explorer):
    """Interactive lesson-4 explorer; ``StructureExplorer().chunk_slider.value = 11`` redraws."""

    name = "structure explorer"
    figsize = (7.5, 2.4)
    margins = {"left": 0.19, "right": 0.97, "bottom": 0.21, "top": 0.9}  # fit the lane names
    empty = "the source is empty."
    stepper_tooltip = "which chunk to show"

    def __init__(self, sources: list[Source] | None = None, source_id: str = "deployment-guide",
                 size: int = DEFAULT_SIZE, overlap: int = DEFAULT_OVERLAP):
        super().__init__(sources=sources, source_id=source_id, size=size, overlap=overlap)
        self.whole_box.observe(lambda _change: self.show(self.computed, self.current),
                               names="value")

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
        self.overlap_slider = int_slider(
            "overlap (chars)", overlap, 0, size // 2, 10,
            "overlap in characters: hard splits in the structure-aware lane, every join in the "
            "fixed-window lane")
        self.whole_box = widgets.Checkbox(value=False, description="whole document",
                                          tooltip="show the whole source, not an excerpt")
        self.note, self.detail, self.document = widgets.HTML(), widgets.HTML(), widgets.HTML()
        return {"source_id": self.source_menu, "size": self.size_slider,
                "overlap": self.overlap_slider}

    def arrange(self):
        return [*self.controls.values(), self.note, self.stepper, self.step_label,
                widgets.HBox([self.image, self.summary]), self.detail, self.whole_box,
                self.document]

    def adjust(self, name, old, new) -> None:
        if name == "source_id":
            self.chunk_slider.value = 1  # another source: start at its first chunk
        if name != "size":
            return
        before = self.overlap_slider.value
        self.overlap_slider.max = new // 2  # clamps the overlap (see the module docstring)
        after = self.overlap_slider.value
        self.note.value = (f"<i>Overlap lowered from {before} to {after}: at most half "
                           "the budget.</i>" if after != before else "")

    def compute(self, params) -> SourceChunks:
        return source_chunks(self.sources[params.source_id], params.size, params.overlap)

    def count(self, value: SourceChunks) -> int:
        return len(value.chunks)

    def draw_frame(self, ax, value: SourceChunks) -> None:
        from matplotlib.ticker import MaxNLocator

        ax.set_ylim(-0.6, 2.6)
        ax.set_yticks([0, 1, 2], ["fixed windows", "structure-aware", "headings"])
        ax.set_xlabel("position in the source (characters)")
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.grid(axis="x", alpha=0.3)
        ax.set_title(TITLE, fontsize=8, loc="left")

    def underlays(self, ax):
        return ax.xaxis, ax.yaxis  # the x range follows the source: kept per length

    def under_key(self, value: SourceChunks):
        return len(value.source.text)

    def draw_data(self, ax, value: SourceChunks, current):
        """Three lanes, the current chunk outlined, repeated parts hatched on top and marked:

        ``len(s.draw_data(s.figure.axes[0], s.computed, 0))`` -> 10
        """
        def lane(spans, y, **style):
            return bars_patch(ax, [(s, e - s, y - 0.35, 0.7) for s, e in spans], **style)

        ax.set_xlim(0, max(len(value.source.text), 1))
        added = [lane(value.headings, 2, facecolor=HEADING_COLOUR, edgecolor="white",
                      linewidth=0.3)] if value.headings else []
        for y, spans in ((1, value.chunk_spans), (0, value.window_spans)):
            added += [lane(spans[k::2], y, facecolor=CHUNK_COLOURS[k], edgecolor="white",
                           hatch=CHUNK_HATCHES[k] or None, linewidth=0.3)
                      for k in (0, 1) if spans[k::2]]
        if current is not None:
            s, e = value.chunk_spans[current]
            added.append(bars_patch(ax, [(s, max(e - s, 1), 0.55, 0.9)], facecolor="none",
                                    edgecolor="black", linewidth=2.2))
        for y, spans in enumerate((value.window_spans, value.chunk_spans, value.headings)):
            if shared := repeated(spans):
                added.append(lane(shared, y, facecolor=REPEAT_COLOUR, hatch="///",
                                  edgecolor="black", linewidth=0.4))
                added += ax.plot([(s + e) / 2 for s, e in shared], [y + 0.5] * len(shared), "v",
                                 color=REPEAT_COLOUR, markeredgecolor="black", markersize=5)
        return added

    def overlays(self, ax) -> tuple:
        return tuple(ax.spines.values())  # the lane names are drawn with the x axis

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
                 ("windows cut at ACL changes", f"{value.acl_cut} windows, none mixing ACLs")]
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
        return (f"{source.source_id}: budget {value.size}, overlap {value.overlap}",
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


def document_html(text: str, spans: list[tuple[int, int]], current: int | None,
                  window: tuple[int, int] | None = None) -> str:
    """``text`` (or the ``window`` part of it) with every chunk span marked, as HTML.

    ``document_html("ab cd", [(0, 2), (3, 5)], 1)``
    -> "<pre ...>ab</span>...<span ...;font-weight:bold' title='chunk 2'>cd</span></pre>"
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


def chunk_detail_html(c: ChunkRecord) -> str:
    """Chunk ``c``'s heading path, then its two texts side by side with their hashes, as HTML.

    ``chunk_detail_html(faq[0])`` -> "<div><b>heading path</b>: Harbor Deployment FAQ</div>..."
    """
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


def structure_explorer(source_id: str = "deployment-guide", size: int = DEFAULT_SIZE,
                       overlap: int = DEFAULT_OVERLAP) -> StructureExplorer | widgets.HTML:
    """Build the lesson-4 explorer; the lesson cell is this one call (a note while autograding).

    ``structure_explorer().source_menu.value`` -> 'deployment-guide'
    """
    return StructureExplorer.build(source_id=source_id, size=size, overlap=overlap)
