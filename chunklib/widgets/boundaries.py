"""The lesson-2 boundaries explorer: separators on/off, merging, a chunk size; chunk ends drawn
against sentence ends.

One setting (separators switched on, merge or not, size) gives one ``Split``: the chunks, the
sentence each chunk end cuts, and the numbers the summary states (chunks, boundary quality,
sentences cut, min/median/max length in characters), computed once with ``chunklib.splitter``,
``chunklib.boundaries`` and ``chunklib.sentences``. The plot (``boundaries_plot``) draws one row
per chunk, a dotted line at every sentence end and an × where a chunk ends inside a sentence;
a status row under it shows which separators and merging are on, because switching a separator
off does not always move a chunk end. Beyond 30 chunks, neighbouring chunks share a row and the
summary says so. Below the picture, the current chunk's text and the text on both sides of its
end (``⏎`` a line break).

Leaves out: token budgets (lesson 1) and overlap (lesson 3); ``split_sentences`` has no
abbreviation list, so "Dr. Osei" counts as a sentence end here too. The skeleton (caching,
redraws, stepper, autograde note) is ``chunklib.widgets.explorer``.

    >>> BoundariesExplorer(size=300).summary_rows()[1]
    ('chunks', '9')
"""

from __future__ import annotations

import html
from typing import NamedTuple

import ipywidgets as widgets

from chunklib.boundaries import span_stats
from chunklib.course.passages import load_passage
from chunklib.sentences import sentences_cut_at, split_sentences
from chunklib.splitter import recursive_split, split_text
from chunklib.validate import require_int
from chunklib.widgets.boundaries_plot import MARGINS, boundaries_frame, boundaries_rows
from chunklib.widgets.common import int_slider
from chunklib.widgets.explorer import Explorer
from chunklib.widgets.plotting import MAX_ROWS

#: The separator hierarchy, in the order it is tried: argument -> (separator, name, checkbox).
SEPARATORS = {"blank_line": ("\n\n", "blank line", "blank line \\n\\n"),
              "line_break": ("\n", "line break", "line break \\n"),
              "full_stop": (". ", "full stop + space", "full stop + space"),
              "space": (" ", "space", "space")}


class Split(NamedTuple):
    """Everything the explorer shows for one setting, computed once by ``split``."""

    separators: tuple[str, ...]
    merge: bool
    size: int
    spans: list[tuple[int, int]]
    cut: list[int]  # the chunks whose end cuts a sentence (the last chunk's end never does)
    stats: dict     # chunklib.boundaries.span_stats


def split(text: str, sentences, separators: tuple[str, ...], merge: bool, size: int) -> Split:
    """The chunks of ``text`` and their numbers: recursive split, merged up to ``size`` or not.
    With no separator, hard cuts every 6 characters end chunk 0 inside "Two.":

    ``split("One. Two.", [(0, 4), (5, 9)], (), True, 6).cut`` -> [0]
    """
    if merge:
        spans = split_text(text, size, separators=separators)
    else:
        spans = [s for s in recursive_split(text, size, separators) if s[1] > s[0]]
    cuts = sentences_cut_at(sentences, [end for _, end in spans[:-1]])
    return Split(separators, merge, size, spans, [i for i, c in enumerate(cuts) if c],
                 span_stats(text, spans, sentences))


def visible(text: str) -> str:
    """Line breaks and tabs made visible (``⏎``, ``⇥``); CR before LF is dropped.

    ``visible("a\\r\\nb\\tc")`` -> 'a⏎b⇥c'
    """
    return text.replace("\r\n", "⏎").replace("\n", "⏎").replace("\r", "⏎").replace("\t", "⇥")


class BoundariesExplorer(Explorer):
    """Interactive boundaries explorer: ``e.separator_boxes[" "].value = False`` redraws it.

    ``BoundariesExplorer(size=200, merge=False)`` starts with the pieces not merged.
    """

    name = "boundaries explorer"
    figsize = (7.5, 4.45)
    margins = MARGINS
    empty = "the text is empty."
    stepper_tooltip = "which chunk to show"

    def __init__(self, text: str | None = None, size: int = 300, merge: bool = True,
                 blank_line: bool = True, line_break: bool = True, full_stop: bool = True,
                 space: bool = True):
        self.check(text=text)
        self.text = load_passage() if text is None else text
        self.sentences = split_sentences(self.text)
        self.chunk_view = widgets.HTML()
        super().__init__(blank_line=blank_line, line_break=line_break, full_stop=full_stop,
                         space=space, merge=merge, size=size)

    @classmethod
    def check(cls, text=None, size=300, **switches) -> None:
        if text is not None and not isinstance(text, str):
            raise TypeError(f"text must be a str or None, got {type(text).__name__}")
        require_int("size", size, minimum=1)
        for name, on in switches.items():
            if name not in (*SEPARATORS, "merge"):
                raise TypeError(f"unexpected argument {name!r}")
            if not isinstance(on, bool):
                raise TypeError(f"{name} must be True or False, got {on!r}")

    def make_controls(self, size, merge, **switches):
        self.separator_boxes = {
            sep: widgets.Checkbox(value=switches[arg], description=label, indent=False,
                                  tooltip=f"split on {name} ({sep!r})")
            for arg, (sep, name, label) in SEPARATORS.items()}
        self.merge_box = widgets.Checkbox(value=merge, indent=False,
                                          description="merge pieces up to the chunk size",
                                          tooltip="merge neighbouring pieces up to the size")
        self.size_slider = int_slider("chunk size", size, min(20, size), max(1000, size), 10,
                                      "chunk size in characters")
        boxes = dict(zip(SEPARATORS, self.separator_boxes.values(), strict=True))
        return {**boxes, "merge": self.merge_box, "size": self.size_slider}

    def arrange(self):
        boxes = widgets.HBox(list(self.separator_boxes.values()))
        controls = widgets.VBox([widgets.HTML("<b>Separators, tried in this order:</b>"), boxes,
                                 self.merge_box, self.size_slider, self.stepper.box,
                                 self.step_label])
        return [controls, widgets.HBox([self.image, self.summary]), self.chunk_view]

    def compute(self, params) -> Split:
        separators = tuple(sep for arg, (sep, *_) in SEPARATORS.items() if getattr(params, arg))
        return split(self.text, self.sentences, separators, params.merge, params.size)

    def count(self, value: Split) -> int:
        return len(value.spans)

    def frame_key(self, value: Split):
        return len(self.text)

    def draw_frame(self, ax, value: Split) -> None:
        names = [name for _, name, _ in SEPARATORS.values()]
        self.status = boundaries_frame(ax, len(self.text), [*names, "merge"])

    def draw_data(self, ax, value: Split, current):
        on = [sep in value.separators for sep, *_ in SEPARATORS.values()] + [value.merge]
        return boundaries_rows(ax, value.spans, value.cut, [e for _, e in self.sentences],
                               current, list(zip(self.status, on, strict=True)))

    def step_text(self, value: Split, current: int) -> str:
        start, end = value.spans[current]
        return f"characters {start} to {end} ({end - start} characters)"

    def describe(self, value: Split, current):
        stats, k = value.stats, len(value.spans)
        names = ", ".join(label for sep, _, label in SEPARATORS.values()
                          if sep in value.separators)
        rows = [
            ("separators", names or "none: hard cuts only"),
            ("chunks", str(k)),
            ("boundary quality", f"{stats['boundary_quality']:.2f} ({k - 1 - len(value.cut)} "
                                 f"of {max(k - 1, 0)} chunk ends, the last excluded, at a "
                                 "sentence boundary)"),
            ("sentences cut", f"{stats['sentences_cut']} of {stats['sentences']}"),
            ("chunk length (characters)",
             f"min {stats['min']}, median {stats['median']:g}, max {stats['max']}"),
        ]
        if k > MAX_ROWS:
            rows.append(("plot", f"{k} chunks on {MAX_ROWS} rows, neighbours side by side: "
                                 "a row each would be too thin to see"))
        merged = "merged" if value.merge else "not merged"
        return f"Chunk size {value.size}, {merged}", rows

    def alt(self, value: Split, current) -> str:
        k, cuts = len(value.spans), len(value.cut)
        rows = f"{k} chunks drawn as rows" if k <= MAX_ROWS else (
            f"{k} chunks drawn on {MAX_ROWS} rows")
        marks = ("no chunk end inside a sentence" if not cuts else
                 "an × at the one chunk end inside a sentence" if cuts == 1 else
                 f"an × at each of the {cuts} chunk ends inside a sentence")
        return (f"{rows} over {len(self.text)} characters, {len(self.sentences)} sentence ends "
                f"as dotted lines, {marks}" + (f"; chunk {current + 1} outlined." if k else "."))

    def show(self, value: Split, current) -> None:
        self.chunk_view.value = "" if current is None else self.chunk_html(value, current)

    def chunk_html(self, value: Split, index: int) -> str:
        """The chunk's own text, and the text on both sides of its end with a verdict."""
        start, end = value.spans[index]
        if index == len(value.spans) - 1:
            verdict = "the end of the text"
        elif index in value.cut:
            verdict = "inside a sentence: this end cuts it"
        else:
            verdict = "at a sentence boundary"
        before = html.escape(visible(self.text[max(start, end - 40):end]))
        after = html.escape(visible(self.text[end:end + 40]))
        return (f"<pre style='white-space:pre-wrap;margin:0'>"
                f"{html.escape(visible(self.text[start:end]))}</pre>"
                f"<p>Its end: <code>…{before}</code> ‖ <code>{after}…</code> is {verdict}.</p>")


def boundaries_explorer(text: str | None = None, size: int = 300,
                        **switches: bool) -> BoundariesExplorer | widgets.HTML:
    """Build the lesson-2 explorer on ``text`` (default: the course passage); the lesson cell
    is this one call (a note instead while nbgrader autogrades). ``switches`` start a box off:
    ``merge``, ``blank_line``, ``line_break``, ``full_stop``, ``space``.

    ``boundaries_explorer(size=300)`` -> BoundariesExplorer(...)
    """
    return BoundariesExplorer.build(text=text, size=size, **switches)
