"""The lesson-1 units explorer: a unit kind and a chunk size C, K = ceil(N / C) fixed windows
over real text, shown three ways in the same alternating styles: a plot, the current chunk's
text, the whole passage (``¦``/``✂``: a chunk begins, inside a sentence; ``⊘``: the model
stops reading).

Leaves out: overlap (lesson 3) and boundary-aware splitting (lesson 2); sentences come from
``chunklib.sentences.split_sentences`` (no abbreviation list).

    >>> u = UnitsExplorer(kind="words", size=200)
    >>> u.summary_rows()[2]
    ('chunks K = ceil(N / C)', 'ceil(1204 / 200) = 7')
"""

from __future__ import annotations

import html
from typing import NamedTuple

import ipywidgets as widgets

from chunklib.budgets import KIND_LABELS, minilm_reads, spans_of
from chunklib.course.passages import sample_passage
from chunklib.sentences import split_sentences
from chunklib.tokens import MINILM_MAX_SEQ_LENGTH, MINILM_SPECIAL_TOKENS
from chunklib.units import cut_sentence_spans, cut_sentences, fixed_windows
from chunklib.validate import require_int
from chunklib.widgets.explorer import PALETTE, Explorer, int_slider
from chunklib.widgets.rows import axis_labels, row_axis, rows_patch, sampled_rows_row, shown_rows

CHUNK_STYLES = [(PALETTE[7], "///"), (PALETTE[8], "\\\\\\")]  # chunk k: light blue, orange
CUT_COLOUR, UNREAD_COLOUR = PALETTE[5], PALETTE[9]  # dark orange ×, light grey dotted tail
LABEL_LIMIT = 12  # each chunk's length is written beside its bar up to this many chunks
MAX_ROWS = 60     # rows drawn at most (about 4 pixels each)
MINILM_TEXT_PIECES = MINILM_MAX_SEQ_LENGTH - MINILM_SPECIAL_TOKENS
STRIPES = "repeating-linear-gradient(135deg,#CFCFCF 0 3px,#FFFFFF 3px 6px)"


def _mark(glyph: str, what: str) -> str:
    """A separator glyph with its meaning for screen readers and as a tooltip."""
    return (f"<span class='sep' title='{what}' aria-label='{what}' "
            f"style='color:#000;font-weight:bold'>{glyph}</span>")


def _boundary(k: int, cut: set[int]) -> str:
    """The mark before chunk ``k`` (0-based, k >= 1): ``¦`` or ``✂`` and the chunk's number."""
    if k in cut:
        return _mark(f"✂{k + 1}", f"chunk {k + 1} starts inside a sentence")
    return _mark(f"¦{k + 1}", f"chunk {k + 1} starts")


def _piece(text: str, start: int, end: int, read_end: int | None, style: str) -> str:
    """``text[start:end]`` on ``style``; from ``read_end`` on, a ``⊘`` and a striped background."""
    if read_end is None or read_end >= end:
        return f"<span style='{style}'>{html.escape(text[start:end])}</span>"
    stop = max(read_end, start)
    return (f"<span style='{style}'>{html.escape(text[start:stop])}</span>"
            + _mark("⊘", "all-MiniLM-L6-v2 stops reading this chunk here")
            + f"<span title='not read by all-MiniLM-L6-v2' style='background:{STRIPES};"
              f"color:#000'>{html.escape(text[stop:end])}</span>")


def text_view_html(text: str, char_windows: list[tuple[int, int]], current: int | None,
                   cut: set[int], read_ends: list[int] | None = None) -> str:
    """The text, chunks on alternating backgrounds, the current one bold and underlined, the
    marks between them; without marks and tags, ``text`` exactly.

    ``text_view_html("a b", [(0, 1), (2, 3)], 0, set())``
    -> "<div ...>...'chunk 1 (current)'...>a</span>...>¦2</span>...>b</span></span></div>"
    """
    out, pos = [], 0
    for k, (start, end) in enumerate(char_windows):
        start = max(start, pos)
        out.append(html.escape(text[pos:start]))
        if k:
            out.append(_boundary(k, cut))
        style = f"background:{CHUNK_STYLES[k % 2][0]};color:#000"
        label = f"chunk {k + 1}"
        if k == current:
            style += ";font-weight:bold;text-decoration:underline 2px"
            label += " (current)"
        read_end = None if read_ends is None else read_ends[k]
        out.append(f"<span title='{label}'>{_piece(text, start, max(end, start), read_end, style)}"
                   "</span>")
        pos = max(pos, end)
    out.append(html.escape(text[pos:]))
    return ("<div style='white-space:pre-wrap;max-height:24em;overflow-y:auto;"
            "border:1px solid #898989;padding:0.5em;font-size:0.9em;line-height:1.6'>"
            + "".join(out) + "</div>")


def chunk_view_html(text: str, char_windows: list[tuple[int, int]], k: int, cut: set[int],
                    read_end: int | None = None, context: int = 60) -> str:
    """Chunk ``k``'s exact text with up to ``context`` characters on each side in grey.

    ``chunk_view_html("ab cd", [(0, 2), (3, 5)], 1, set())``
    -> "<div ...>...>ab </span>...>¦2</span><span style='color:#000'>cd</span>...>▕</span>...</div>"
    """
    start, end = char_windows[k]
    grey = "color:#595959;font-style:italic"
    before = ("…" if start > context else "") + html.escape(text[max(0, start - context):start])
    after = html.escape(text[end:end + context]) + ("…" if end + context < len(text) else "")
    left = _boundary(k, cut) if k else _mark("▏", "start of the text")
    right = _boundary(k + 1, cut) if k + 1 < len(char_windows) else _mark("▕", "end of the text")
    body = _piece(text, start, end, read_end, "color:#000")
    return ("<div style='white-space:pre-wrap;border:1px solid #898989;padding:0.4em;"
            f"max-height:12em;overflow-y:auto;line-height:1.6'><span style='{grey}'>{before}"
            f"</span>{left}{body}{right}<span style='{grey}'>{after}</span></div>")


def cut_boundaries(char_windows: list[tuple[int, int]],
                   sentence_spans: list[tuple[int, int]]) -> set[int]:
    """The chunks ``k >= 1`` whose boundary with chunk ``k - 1`` cuts a sentence:

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
    margins = {"left": 0.085, "right": 0.97, "bottom": 0.13, "top": 0.86}  # labels, legend fit
    empty = "the text has no units."

    def __init__(self, text: str | None = None, kind: str = "words", size: int = 160):
        self.check(text=text, kind=kind, size=size)
        self.text = sample_passage() if text is None else text
        self.sentences = split_sentences(self.text)
        self.units: dict[str, list] = {}  # kind -> its unit spans, found on first use
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
                self.stepper, self.step_label, self.chunk_text,
                widgets.HTML("<b>The whole passage, chunk by chunk</b>"), self.text_view]

    def compute(self, params) -> UnitChunks:
        if params.kind not in self.units:  # a tokenizer loads on its kind's first use
            self.units[params.kind] = spans_of(self.text, params.kind)
        spans = self.units[params.kind]
        windows = fixed_windows(len(spans), params.size)
        chunks = [(spans[s][0], spans[e - 1][1]) for s, e in windows]
        reads = minilm_reads(self.text, chunks)
        unread = [next((u for u in range(first, stop) if spans[u][1] > read_end), stop)
                  for (first, stop), (_pieces, read_end) in zip(windows, reads)]
        return UnitChunks(params.kind, params.size, len(spans), windows, chunks,
                          cut_boundaries(chunks, self.sentences),
                          cut_sentences(self.sentences, chunks), reads, unread)

    def count(self, c: UnitChunks) -> int:
        return len(c.windows)

    def draw_frame(self, ax, c: UnitChunks) -> None:
        from matplotlib.lines import Line2D
        from matplotlib.patches import Patch
        from matplotlib.ticker import MaxNLocator

        ax.xaxis.set_major_locator(MaxNLocator(integer=True, nbins=6))
        ax.grid(axis="x", alpha=0.3)
        self.xlabel = axis_labels(ax, "", "chunk")[0]  # its text names the unit: data
        ax.legend(handles=[
            *(Patch(facecolor=face, hatch=hatch, edgecolor="black", label=f"chunks {k}, {k + 2}, …")
              for k, (face, hatch) in zip((1, 2), CHUNK_STYLES)),
            Patch(facecolor=UNREAD_COLOUR, hatch="...", edgecolor="black",
                  label="not read by all-MiniLM-L6-v2"),
            Patch(facecolor="none", edgecolor="black", linewidth=2, label="current chunk"),
            Line2D([], [], linestyle="none", marker="X", color=CUT_COLOUR,
                   markeredgecolor="black", label="ends inside a sentence"),
        ], loc="lower left", bbox_to_anchor=(0, 1.0), ncol=3, fontsize=8, frameon=False)

    def underlays(self, ax):
        return ax.xaxis, self.xlabel  # kept per unit kind, N and "lengths beside the bars"

    def under_key(self, c: UnitChunks):
        return c.kind, c.n, len(c.windows) <= LABEL_LIMIT

    def draw_data(self, ax, c: UnitChunks, current):
        """The shown chunks in alternating styles, each unread tail dotted grey, an × where a
        chunk ends inside a sentence, the current chunk outlined, short lists' lengths:

        ``[type(a).__name__ for a in u.draw_data(u.figure.axes[0], u.computed, 0)][:5]``
        -> ['PathPatch', 'PathPatch', 'Rectangle', 'Line2D', 'Annotation']
        """
        from matplotlib.patches import Rectangle

        labelled = len(c.windows) <= LABEL_LIMIT  # the x axis is 8 % wider for the lengths
        ax.set_xlim(0, max(c.n, 1) * (1.08 if labelled else 1.0))
        self.xlabel.set_text(f"position in the passage ({KIND_LABELS[c.kind]})")
        rows = shown_rows(len(c.windows), current, MAX_ROWS)
        row_of = {k: row for row, k in enumerate(rows)}
        bars = [(*c.windows[k], row, k) for row, k in enumerate(rows)]
        added = [rows_patch(ax, mine, facecolor=colour, hatch=hatch, edgecolor="black",
                            linewidth=0.4) for parity, (colour, hatch) in enumerate(CHUNK_STYLES)
                 if (mine := [(s, e, row) for s, e, row, k in bars if k % 2 == parity])]
        tails = [(c.unread[k], end, row) for _s, end, row, k in bars if c.unread[k] < end]
        if tails:
            added.append(rows_patch(ax, tails, facecolor=UNREAD_COLOUR, hatch="...",
                                    edgecolor="black", linewidth=0.4))
        if current in row_of:
            start, end = c.windows[current]
            added.append(ax.add_patch(Rectangle((start, row_of[current] - 0.48), end - start,
                                                0.96, facecolor="none", edgecolor="black",
                                                linewidth=2.2)))
        marks = [(c.windows[k - 1][1], row_of[k - 1]) for k in sorted(c.cut) if k - 1 in row_of]
        if marks:
            added += ax.plot(*zip(*marks), linestyle="none", marker="X", markersize=8,
                             color=CUT_COLOUR, markeredgecolor="black", markeredgewidth=0.6)
        row_axis(ax, rows)
        return added + [ax.annotate(f"{end - start}", (end, row), xytext=(9, 0), fontsize=8,
                                    textcoords="offset points", va="center")
                        for start, end, row, _k in bars if labelled]

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
            ("sentences cut", f"{c.sentences_cut} of {len(self.sentences)} sentences and headings "
                              f"(no chunk holds them whole); chunk ends marked ×: {len(c.cut)}"),
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
                + f"; an × at each chunk end inside a sentence: {len(c.cut)} in all"
                + (f"; a dotted grey tail on the {truncated} chunks that all-MiniLM-L6-v2 cuts "
                   "short." if truncated else "; all-MiniLM-L6-v2 reads every chunk whole."))


def units_explorer(text: str | None = None, kind: str = "words",
                   size: int = 160) -> UnitsExplorer | widgets.HTML:
    """Build the lesson-1 explorer on ``text`` (default: the sample passage).

    ``units_explorer(kind="cl100k_tokens", size=200)`` -> UnitsExplorer(...)
    """
    return UnitsExplorer.build(text=text, kind=kind, size=size)
