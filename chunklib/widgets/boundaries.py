"""The lesson-2 boundaries explorer: separators on/off, merging, a chunk size; the chunks as
rows against dotted sentence ends, an × where a chunk ends inside a sentence, a status row of
the switches (switching one off does not always move a chunk end), the current chunk's text.

Leaves out: token budgets (lesson 1) and overlap (lesson 3); ``split_sentences`` has no
abbreviation list, so "Dr. Osei" counts as a sentence end here too.

    >>> b = BoundariesExplorer(size=300)
    >>> b.summary_rows()[1]
    ('chunks', '9')
    >>> fold_rows(4), fold_rows(90)[:7]
    ([0, 1, 2, 3], [0, 0, 0, 1, 1, 1, 2])
    >>> from chunklib.widgets.explorer import Layers
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
from chunklib.widgets.explorer import PALETTE, Explorer, int_slider
from chunklib.widgets.rows import MAX_ROWS, row_axis, rows_patch

CHUNK_STYLES = [(PALETTE[0], "///"), (PALETTE[8], "\\\\\\")]  # blue, light orange
SENTENCE_COLOUR, CUT_COLOUR = PALETTE[3], PALETTE[5]  # dark grey, dark orange
CUT_MARK = {"linestyle": "none", "marker": "X", "markersize": 8, "color": CUT_COLOUR,
            "markeredgecolor": "black", "markeredgewidth": 0.6}
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
    """The chunks of ``text``, merged up to ``size`` or not; hard cuts end chunk 0 in "Two.":

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
    """Interactive boundaries explorer: ``e.separator_boxes[" "].value = False`` redraws it."""

    name = "boundaries explorer"
    figsize = (7.5, 4.45)
    margins = {"left": 0.085, "right": 0.97, "bottom": 0.17, "top": 0.925}  # the status row
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
                                 self.merge_box, self.size_slider, self.stepper,
                                 self.step_label])
        return [controls, widgets.HBox([self.image, self.summary]), self.chunk_view]

    def compute(self, params) -> Split:
        separators = tuple(sep for arg, (sep, *_) in SEPARATORS.items() if getattr(params, arg))
        return split(self.text, self.sentences, separators, params.merge, params.size)

    def count(self, value: Split) -> int:
        return len(value.spans)

    def draw_frame(self, ax, value: Split) -> None:
        """Axes, legend, the status row's names (the ■/□ before each name is data)."""
        from matplotlib.lines import Line2D
        from matplotlib.patches import Patch
        from matplotlib.ticker import MaxNLocator

        ax.set_xlim(0, max(len(self.text), 1))
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_xlabel("character offset in the text")
        ax.set_ylabel("chunk")
        ax.legend(handles=[
            Patch(facecolor=CHUNK_STYLES[0][0], hatch=CHUNK_STYLES[0][1], edgecolor="black",
                  label="chunk"),
            Patch(facecolor="none", edgecolor="black", linewidth=2, label="current chunk"),
            Line2D([], [], color=SENTENCE_COLOUR, linestyle=":", label="sentence end"),
            Line2D([], [], label="chunk end inside a sentence", **CUT_MARK),
        ], loc="lower left", bbox_to_anchor=(0, 1.0), ncol=4, fontsize=8, frameon=False)
        label = ax.text(0.01, 0.015, "switched on (■) or off (□):", fontsize=8, va="bottom",
                        transform=ax.figure.transFigure)
        self.status = []  # where each name starts, in figure pixels
        for _sep, name, _label in [*SEPARATORS.values(), (None, "merge", None)]:
            label = ax.annotate(name, (1, 0), xycoords=label, xytext=(14, 0), fontsize=8,
                                textcoords="offset points", va="bottom")
            self.status.append(label.get_window_extent(ax.figure.canvas.get_renderer()).p0)

    def draw_data(self, ax, value: Split, current):
        """Chunks on ``fold_rows`` rows, the current one outlined, sentence ends dotted, an ×
        at each chunk end in ``cut``, ■ or □ before each switch's name:

        ``[type(a).__name__ for a in b.draw_data(b.figure.axes[0], b.computed, 0)][:5]``
        -> ['PathPatch', 'PathPatch', 'Rectangle', 'LineCollection', 'Line2D']
        """
        from matplotlib.patches import Rectangle

        rows = fold_rows(len(value.spans))
        added = chunk_bars(ax, value.spans, rows)
        if current is not None:
            start, end = value.spans[current]
            added.append(ax.add_patch(Rectangle((start, rows[current] - 0.48), end - start,
                                                0.96, facecolor="none", edgecolor="black",
                                                linewidth=2.2)))
        added.append(ax.vlines([e for _, e in self.sentences], -0.5, max(rows, default=0) + 0.5,
                               colors=SENTENCE_COLOUR, linestyles=":", linewidth=0.9))
        if value.cut:
            added += ax.plot([value.spans[i][1] for i in value.cut],
                             [rows[i] for i in value.cut], **CUT_MARK)
        on = [sep in value.separators for sep, *_ in SEPARATORS.values()] + [value.merge]
        added += [ax.annotate("■" if on else "□", tuple(where), xycoords="figure pixels",
                              xytext=(-2, 0), textcoords="offset points", ha="right",
                              va="bottom", fontsize=8) for where, on in zip(self.status, on)]
        first = {row: i for i, row in reversed(list(enumerate(rows)))}  # each row's first chunk
        row_axis(ax, [first[row] for row in sorted(first)])
        return added

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


def fold_rows(k: int, limit: int = MAX_ROWS) -> list[int]:
    """The row of each of ``k`` chunks: one each up to ``limit``, else neighbours share rows.

    ``fold_rows(60, limit=30)[:4]`` -> [0, 0, 1, 1]
    """
    return [i * min(k, limit) // k for i in range(k)]


def chunk_bars(ax, spans, rows, height: float = 0.76) -> list:
    """Chunk ``i`` as a bar on row ``rows[i]``, neighbours in alternating styles:

    ``len(chunk_bars(Layers(2, 1).axes[0], [(0, 5), (5, 9), (9, 12)], [0, 1, 2]))`` -> 2
    """
    bars = [(start, end, row) for (start, end), row in zip(spans, rows, strict=True)]
    return [rows_patch(ax, bars[parity::2], height, facecolor=colour, hatch=hatch,
                       edgecolor="black", linewidth=0.4)
            for parity, (colour, hatch) in enumerate(CHUNK_STYLES) if bars[parity::2]]


def boundaries_explorer(text: str | None = None, size: int = 300,
                        **switches: bool) -> BoundariesExplorer | widgets.HTML:
    """Build the lesson-2 explorer on ``text`` (default: the course passage); a switch set to
    False (``merge``, ``blank_line``, ``line_break``, ``full_stop``, ``space``) starts off:

    ``boundaries_explorer(size=300)`` -> BoundariesExplorer(...)
    """
    return BoundariesExplorer.build(text=text, size=size, **switches)
