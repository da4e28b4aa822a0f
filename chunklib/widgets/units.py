"""The lesson-1 units explorer: a unit kind and a chunk size, fixed windows over real text.

Choose characters, word-like units, cl100k tokens or MiniLM word pieces and a chunk size C;
the passage is cut into K = ceil(N / C) windows without overlap. Three views show the same
chunks: an interval plot (one bar per chunk, in units, an × where a chunk ends inside a
sentence), the text itself (chunks on alternating light backgrounds, a ``¦`` between chunks and
a ``✂`` where the boundary cuts a sentence, so it reads without colour) and a stepper with the
current chunk's exact text. The HTML summary is the text alternative of all three: units, K,
the last chunk, sentences cut, and how many chunks all-MiniLM-L6-v2 would silently truncate.

Leaves out: overlap (lesson 3) and boundary-aware splitting (lesson 2); sentences come from
``chunklib.sentences.split_sentences`` (no abbreviation list).

    >>> UnitsExplorer(kind="words", size=200).summary_rows()[2]
    ('chunks K = ceil(N / C)', 'ceil(1204 / 200) = 7')
"""

from __future__ import annotations

import html

import ipywidgets as widgets
from matplotlib.patches import Patch

from chunklib.budgets import spans_of
from chunklib.plotting import CURRENT_EDGE, NEW_COLOUR, PALETTE, draw_intervals, new_figure
from chunklib.sentences import split_sentences
from chunklib.tokens import MINILM_MAX_SEQ_LENGTH, MINILM_SPECIAL_TOKENS, wordpiece_count
from chunklib.units import cut_sentences, fixed_windows, sample_passage, window_text
from chunklib.validate import require_int
from chunklib.widgets.common import int_slider, png_view, refresh_png, summary_html

KIND_LABELS = {"characters": "characters", "words": "word-like units",
               "cl100k_tokens": "cl100k tokens", "minilm_wordpieces": "MiniLM word pieces"}
BACKGROUNDS = (PALETTE[7], PALETTE[8])  # light blue, light orange: black text stays readable
CUT_COLOUR = PALETTE[5]                 # dark orange
MINILM_TEXT_PIECES = MINILM_MAX_SEQ_LENGTH - MINILM_SPECIAL_TOKENS


def cut_boundaries(char_windows: list[tuple[int, int]],
                   sentence_spans: list[tuple[int, int]]) -> set[int]:
    """The chunks ``k >= 1`` whose boundary with chunk ``k - 1`` falls inside a sentence: one that
    reaches into both chunks and that neither holds whole.

    ``cut_boundaries([(0, 5), (5, 9), (9, 14)], [(0, 7), (9, 14)])`` -> {1}
    """
    return {k for k in range(1, len(char_windows))
            if any(s < char_windows[k - 1][1] and char_windows[k][0] < e
                   and not char_windows[k - 1][0] <= s <= e <= char_windows[k - 1][1]
                   and not char_windows[k][0] <= s <= e <= char_windows[k][1]
                   for s, e in sentence_spans)}


def text_view_html(text: str, char_windows: list[tuple[int, int]], current: int | None,
                   cut: set[int]) -> str:
    """The text with every chunk in a span on an alternating background, a ``¦`` before each
    chunk after the first (``✂`` before the chunks in ``cut``, whose boundary cuts a sentence)
    and the current chunk outlined and underlined. Without the separators and tags this is
    ``text`` exactly: a character split between two chunks' tokens is shown once, in the first.

    ``text_view_html("a b", [(0, 1), (2, 3)], 0, set())`` -> '<div ...>...¦...</div>'
    """
    out, pos = [], 0
    for k, (start, end) in enumerate(char_windows):
        start = max(start, pos)
        out.append(html.escape(text[pos:start]))
        if k:
            glyph, what = ("✂", "chunk boundary inside a sentence") if k in cut else (
                "¦", "chunk boundary")
            out.append(f"<span class='sep' title='{what}' aria-label='{what}' "
                       f"style='color:#000;font-weight:bold'>{glyph}</span>")
        style = f"background:{BACKGROUNDS[k % 2]};color:#000"
        label = f"chunk {k + 1}"
        if k == current:
            style += ";outline:2px solid #000;text-decoration:underline 2px"
            label += " (current)"
        out.append(f"<span title='{label}' style='{style}'>{html.escape(text[start:end])}</span>")
        pos = max(pos, end)
    out.append(html.escape(text[pos:]))
    return ("<div style='white-space:pre-wrap;max-height:22em;overflow-y:auto;"
            "border:1px solid #898989;padding:0.5em;font-size:0.9em;line-height:1.5'>"
            + "".join(out) + "</div>")


class UnitsExplorer(widgets.VBox):
    """Interactive lesson-1 explorer; a VBox, so the lesson cell just returns it.

    ``UnitsExplorer().size_slider.value = 300`` redraws the plot, the text and the summary.
    """

    def __init__(self, text: str | None = None, kind: str = "words", size: int = 200):
        text = sample_passage() if text is None else text
        if not isinstance(text, str):
            raise TypeError(f"text must be a str or None, got {type(text).__name__}")
        if kind not in KIND_LABELS:
            raise ValueError(f"kind must be one of {', '.join(KIND_LABELS)}, got {kind!r}")
        size = require_int("size", size, minimum=1)
        self.text = text
        self.sentences = split_sentences(text)
        self._spans: dict[str, list[tuple[int, int]]] = {}
        self.kind_picker = widgets.Dropdown(
            options=[(label, key) for key, label in KIND_LABELS.items()], value=kind,
            description="unit kind", tooltip="what one unit is: the length function",
            style={"description_width": "9em"})
        self.size_slider = int_slider("chunk size C", size, min(10, size), max(1500, size), 10,
                                      "chunk size C, counted in the chosen units")
        self.chunk_slider = int_slider("chunk", 1, 1, 1, 1, "which chunk to highlight")
        self.prev_button = widgets.Button(description="◀ previous", tooltip="previous chunk")
        self.next_button = widgets.Button(description="next ▶", tooltip="next chunk")
        self.step_label = widgets.HTML()
        self.chunk_text = widgets.HTML()
        self.text_view = widgets.HTML()
        self.summary = widgets.HTML()
        self.figure = new_figure(width=7.5, height=3.6)
        self.image = png_view(self.figure)
        stepper = widgets.HBox([self.prev_button, self.chunk_slider, self.next_button])
        super().__init__([self.kind_picker, self.size_slider,
                          widgets.HBox([self.image, self.summary]), stepper, self.step_label,
                          self.chunk_text, self.text_view])
        for control in (self.kind_picker, self.size_slider, self.chunk_slider):
            control.observe(self._redraw, names="value")
        self.prev_button.on_click(lambda _b: self._step(-1))
        self.next_button.on_click(lambda _b: self._step(+1))
        self._redraw()

    @property
    def kind(self) -> str:
        return self.kind_picker.value

    def spans(self) -> list[tuple[int, int]]:
        """Character spans of the units of the chosen kind (computed once per kind)."""
        if self.kind not in self._spans:
            self._spans[self.kind] = spans_of(self.text, self.kind)
        return self._spans[self.kind]

    def windows(self) -> list[tuple[int, int]]:
        """The chunks as unit intervals: fixed windows of C units, no overlap."""
        return fixed_windows(len(self.spans()), self.size_slider.value)

    def char_windows(self) -> list[tuple[int, int]]:
        """The chunks as character spans of the text: first unit's start to last unit's end."""
        spans = self.spans()
        return [(spans[s][0], spans[e - 1][1]) for s, e in self.windows()]

    def _step(self, delta: int) -> None:
        s = self.chunk_slider
        s.value = min(max(s.value + delta, s.min), s.max)

    def summary_rows(self) -> list[tuple[str, str]]:
        """The numbers the summary shows, as (label, value) pairs."""
        unit, n, size = KIND_LABELS[self.kind], len(self.spans()), self.size_slider.value
        k = len(self.windows())
        chunks = self.char_windows()
        pieces = [wordpiece_count(self.text[s:e]) for s, e in chunks]
        over = sum(1 for p in pieces if p > MINILM_TEXT_PIECES)
        last = n - (k - 1) * size if k else 0
        chars = "" if self.kind == "characters" else f" ({len(self.text)} characters)"
        return [
            ("units N", f"{n} {unit}{chars}"),
            ("chunk size C", f"{size} {unit}"),
            ("chunks K = ceil(N / C)", f"ceil({n} / {size}) = {k}"),
            ("last chunk", f"N − (K − 1)·C = {n} − {max(k - 1, 0)}·{size} = {last} {unit}"),
            ("sentences cut", f"{cut_sentences(self.sentences, chunks)} of "
                              f"{len(self.sentences)} (no single chunk holds them whole)"),
            ("all-MiniLM-L6-v2", f"{over} of {k} chunks exceed its {MINILM_TEXT_PIECES} word "
                                 f"pieces (largest: {max(pieces, default=0)}); it silently "
                                 "drops the rest of those"),
        ]

    def _draw(self, windows, cut, current) -> None:
        ax = self.figure.axes[0]
        unit = KIND_LABELS[self.kind]
        draw_intervals(ax, windows, len(self.spans()), current=current, unit=unit)
        marks = [(windows[k - 1][1], k - 1) for k in sorted(cut)]
        if marks:
            ax.plot(*zip(*marks, strict=True), linestyle="none", marker="X", markersize=8,
                    color=CUT_COLOUR, markeredgecolor="black", markeredgewidth=0.6)
        ax.set_xlabel(f"position in the passage ({unit})")
        ax.legend(handles=[  # no overlap in lesson 1: replace the lesson-3 legend
            Patch(facecolor=NEW_COLOUR, label="chunk"),
            Patch(facecolor="none", edgecolor=CURRENT_EDGE, linewidth=2, label="current chunk"),
            ax.plot([], [], linestyle="none", marker="X", color=CUT_COLOUR,
                    markeredgecolor="black", label="ends inside a sentence")[0],
        ], loc="lower left", bbox_to_anchor=(0, 1.0), ncol=3, fontsize=8, frameon=False)

    def _redraw(self, _change=None) -> None:
        windows = self.windows()
        k, unit = len(windows), KIND_LABELS[self.kind]
        self.chunk_slider.max = max(k, 1)  # clamps the stepper when K drops
        self.chunk_slider.disabled = k == 0
        current = self.chunk_slider.value - 1 if k else None
        chunks = self.char_windows()
        cut = cut_boundaries(chunks, self.sentences)
        if k:
            (first, stop), (start, end) = windows[current], chunks[current]
            self.step_label.value = (f"<b>Chunk {current + 1} of {k}</b>: {unit} {first} to "
                                     f"{stop}, characters {start} to {end}")
            piece = window_text(self.text, self.spans(), windows[current])
            self.chunk_text.value = (
                "<div style='white-space:pre-wrap;border:2px solid #000;padding:0.4em;"
                f"max-height:10em;overflow-y:auto'>{html.escape(piece)}</div>")
        else:
            self.step_label.value = "<b>No chunks</b>: the text has no units."
            self.chunk_text.value = ""
        self._draw(windows, cut, current)
        alt = (f"{k} chunks drawn as bars over {len(self.spans())} {unit}"
               + (f"; chunk {current + 1} outlined" if k else "")
               + "; an × where a chunk ends inside a sentence.")
        refresh_png(self.image, self.figure, alt)
        self.text_view.value = text_view_html(self.text, chunks, current, cut)
        title = f"Chunks of C = {self.size_slider.value} {unit}"
        self.summary.value = (summary_html(title, self.summary_rows())
                              + f"<p><small>Plot: {html.escape(alt)}</small></p>")


def units_explorer(text: str | None = None, kind: str = "words", size: int = 200) -> UnitsExplorer:
    """Build the lesson-1 explorer on ``text`` (default: the sample passage); one call per cell.

    ``units_explorer(kind="cl100k_tokens", size=200)`` -> UnitsExplorer(...)
    """
    return UnitsExplorer(text, kind, size)
