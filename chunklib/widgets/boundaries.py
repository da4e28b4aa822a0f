"""The lesson-2 boundaries explorer: separators on/off, a chunk size, chunk ends against sentences.

One row per chunk (hatched, in alternating ``tableau-colorblind10`` colours), a dotted vertical
line at every sentence end, and an × wherever a chunk ends inside a sentence. A chunk stepper
shows the current chunk's real text and the text on both sides of its end, outlined in the
plot. The HTML summary beside the picture states the same facts in words (its text
alternative): chunks, boundary quality, sentences cut, and the min/median/max chunk length,
all computed by ``chunklib.boundaries``. Lengths are counted in characters.

The plot redraws through ``chunklib.widgets.layers.Layers``: the frame (x axis, labels, legend) is
rendered once per text; a move draws only the rows, sentence ends, marks and the y axis over
it. The chunks and their statistics are computed once per setting (separators, merge, size),
in a bounded cache. This module holds the explorer, its factory, the passage and the chunk
text view; the plot, its styles and ``inside_sentence`` (the rule for an ×, used here too) are
in ``chunklib.widgets.boundaries_plot``. matplotlib is imported only when a plot is drawn, so
the lesson's self-checks (``chunklib.course.boundaries`` imports ``load_passage`` and
``inside_sentence`` from here) do not pay for it; while nbgrader autogrades,
``boundaries_explorer`` returns a note instead of the explorer
(``chunklib.widgets.common.autograding``).

Leaves out: the drawing functions (``chunklib.widgets.boundaries_plot``), token budgets
(lesson 1 shows them) and overlap (lesson 3); sentences come from
``chunklib.sentences.split_sentences``, which has no abbreviation list, so "Dr. Osei" counts as
a sentence end here too.

    >>> BoundariesExplorer(size=300).summary_rows()[1]
    ('chunks', '9')
"""

from __future__ import annotations

import html
from functools import lru_cache

import ipywidgets as widgets

from chunklib.boundaries import span_stats
from chunklib.course.passages import load_passage
from chunklib.sentences import inside_sentence, split_sentences
from chunklib.splitter import DEFAULT_SEPARATORS, recursive_split, split_text
from chunklib.validate import require_int
from chunklib.widgets.boundaries_plot import MARGINS, boundaries_frame, boundaries_rows
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

SEPARATOR_NAMES = {"\n\n": "blank line \\n\\n", "\n": "line break \\n",
                   ". ": "full stop + space", " ": "space"}
CACHED_SETTINGS = 32  # (separators, merge, size) settings whose chunks are kept


def visible(text: str) -> str:
    """Line breaks and tabs made visible (``⏎``, ``⇥``); CR before LF is dropped.

    ``visible("a\\r\\nb\\tc")`` -> 'a⏎b⇥c'
    """
    return text.replace("\r\n", "⏎").replace("\n", "⏎").replace("\r", "⏎").replace("\t", "⇥")


class BoundariesExplorer(widgets.VBox):
    """Interactive boundaries explorer; a VBox, so the lesson cell just returns it.

    ``BoundariesExplorer().separator_boxes[" "].value = False`` redraws plot and summary.
    """

    def __init__(self, text: str | None = None, size: int = 300):
        size = _check_arguments(text, size)
        self.text = load_passage() if text is None else text
        self.sentences = split_sentences(self.text)
        # chunks and their numbers per setting: a move back costs nothing (bounded)
        self._chunking = lru_cache(maxsize=CACHED_SETTINGS)(self._compute_chunking)
        self.separator_boxes = {
            sep: widgets.Checkbox(value=True, description=SEPARATOR_NAMES[sep], indent=False,
                                  tooltip=f"split on {SEPARATOR_NAMES[sep]} ({sep!r})")
            for sep in DEFAULT_SEPARATORS}
        self.merge_box = widgets.Checkbox(value=True, indent=False,
                                          description="merge pieces up to the chunk size",
                                          tooltip="merge neighbouring pieces up to the size")
        self.size_slider = int_slider("chunk size", size, min(20, size), max(1000, size), 10,
                                      "chunk size in characters")
        self.stepper = ChunkStepper("which chunk to show")
        self.chunk_slider, self.step_label = self.stepper.slider, self.stepper.label
        self.prev_button, self.next_button = (self.stepper.prev_button,
                                              self.stepper.next_button)
        self.chunk_view = widgets.HTML()
        self.summary = widgets.HTML()
        self.layers = Layers(7.5, 4.2, margins=MARGINS)
        self.figure = self.layers.figure
        self.image = image_view(b"")
        label = widgets.HTML("<b>Separators, tried in this order:</b>")
        stepper = self.stepper.box
        controls = widgets.VBox([label, widgets.HBox(list(self.separator_boxes.values())),
                                 self.merge_box, self.size_slider, stepper, self.step_label])
        super().__init__([controls, widgets.HBox([self.image, self.summary]), self.chunk_view])
        for control in [*self.separator_boxes.values(), self.merge_box, self.size_slider,
                        self.chunk_slider]:
            control.observe(self._redraw, names="value")
        self._redraw()

    @property
    def separators(self) -> tuple[str, ...]:
        """The separators switched on, in the hierarchy's order."""
        return tuple(sep for sep, box in self.separator_boxes.items() if box.value)

    def spans(self) -> list[tuple[int, int]]:
        """The chunks for the current settings (recursive split, merged if the box is on)."""
        return self._chunking(self.separators, self.merge_box.value, self.size_slider.value)[0]

    def _compute_chunking(self, separators: tuple[str, ...], merge: bool, size: int):
        if merge:
            spans = split_text(self.text, size, separators=separators)
        else:
            spans = [s for s in recursive_split(self.text, size, separators) if s[1] > s[0]]
        stats = span_stats(self.text, spans, self.sentences)
        clean = sum(not inside_sentence(e, self.sentences) for _, e in spans[:-1])
        return spans, stats, clean

    def summary_rows(self) -> list[tuple[str, str]]:
        """The numbers the summary shows, as (label, value) pairs."""
        spans, stats, clean = self._chunking(self.separators, self.merge_box.value,
                                             self.size_slider.value)
        k, m = stats["chunks"], stats["sentences"]
        names = ", ".join(SEPARATOR_NAMES[s] for s in self.separators) or "none: hard cuts only"
        return [
            ("separators", names),
            ("chunks", str(k)),
            ("boundary quality", f"{stats['boundary_quality']:.2f} ({clean} of {max(k - 1, 0)} "
                                 "chunk ends, the last excluded, at a sentence boundary)"),
            ("sentences cut", f"{stats['sentences_cut']} of {m}"),
            ("chunk length (characters)",
             f"min {stats['min']}, median {stats['median']:g}, max {stats['max']}"),
        ]

    def chunk_text_html(self, spans, index: int) -> str:
        """The chunk's own text, and the text on both sides of its end with a verdict."""
        start, end = spans[index]
        if index == len(spans) - 1:
            verdict = "the end of the text"
        elif inside_sentence(end, self.sentences):
            verdict = "inside a sentence: this end cuts it"
        else:
            verdict = "at a sentence boundary"
        before = visible(self.text[max(start, end - 40):end])
        after = visible(self.text[end:end + 40])
        chunk = html.escape(visible(self.text[start:end]))
        return (f"<pre style='white-space:pre-wrap;margin:0'>{chunk}</pre>"
                f"<p>Its end: <code>…{html.escape(before)}</code> ‖ "
                f"<code>{html.escape(after)}…</code> is {verdict}.</p>")

    def _redraw(self, _change=None) -> None:
        if getattr(self, "_drawing", False):  # the clamp below changes the chunk slider
            return
        self._drawing = True
        try:
            self._draw()
        finally:
            self._drawing = False

    def _draw(self) -> None:
        spans = self.spans()
        k = len(spans)
        current = self.stepper.follow(k)  # clamps the current chunk when there are fewer
        start, end = spans[current] if k else (0, 0)
        self.stepper.say(k, current, f"characters {start} to {end} ({end - start} characters)",
                         "the text is empty.")
        self.chunk_view.value = self.chunk_text_html(spans, current) if k else ""
        ax = self.figure.axes[0]
        png = self.layers.draw(
            key=(len(self.text),),
            frame=lambda: boundaries_frame(ax, len(self.text)),
            data=lambda: boundaries_rows(ax, spans, self.sentences, current),
            overlays=(ax.yaxis, *ax.spines.values()),
        )
        rows = self.summary_rows()
        alt = (f"{k} chunks drawn as rows over {len(self.text)} characters, "
               f"{len(self.sentences)} sentence ends as dotted lines, "
               "an × where a chunk ends inside a sentence"
               + (f"; chunk {current + 1} outlined." if k else "."))
        set_image(self.image, png, alt)
        merged = "merged" if self.merge_box.value else "not merged"
        self.summary.value = (summary_html(f"Chunk size {self.size_slider.value}, {merged}",
                                           rows) + f"<p><small>Plot: {alt}</small></p>")


def boundaries_explorer(text: str | None = None,
                        size: int = 300) -> BoundariesExplorer | widgets.HTML:
    """Build the lesson-2 explorer on ``text`` (default: the course passage); one call per cell
    (a note instead while nbgrader autogrades).

    ``boundaries_explorer()`` -> BoundariesExplorer(...)
    """
    _check_arguments(text, size)
    if autograding():
        return not_drawn("boundaries explorer")
    return BoundariesExplorer(text, size)


def _check_arguments(text, size) -> int:
    """Refuse a text that is not a str or None and a size below 1; the size."""
    if text is not None and not isinstance(text, str):
        raise TypeError(f"text must be a str or None, got {type(text).__name__}")
    return require_int("size", size, minimum=1)
