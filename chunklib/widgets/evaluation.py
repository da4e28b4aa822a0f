"""The lesson-6 evaluation explorer: size and overlap sliders drive the completeness-versus-
duplication curve and the top-k view of one question.

The curve shows, for fixed windows of the chosen size, how many questions are complete at each
overlap of the sweep against the index's duplication ratio; the current overlap is ringed, the
stopping rule's choice is a star, structure-aware chunks of the same size are a square. The
top-k view draws the hits for the chosen question over its source (evidence hatched), on an x
range around the evidence that widens in steps of √2 only as far as the nearby hits need.
Every number comes from ``chunklib.experiment``, which caches each evaluation in memory, so
moving a slider back and forth recomputes nothing. Both summaries are the pictures' text
alternatives.

Both pictures redraw through ``chunklib.widgets.layers.Layers``: the curve's frame (the sweep, the
star, the square, axes) depends only on the size, the top-k frame (evidence, axes, legend) only
on the question, the x range and the rows; a move draws the ring and the hit bars over a
cached frame. While nbgrader runs the notebook, ``evaluation_explorer`` checks its arguments
and returns a note instead of the explorer (matplotlib is not imported).

Leaves out: the drawing functions and their colours (``chunklib.widgets.evaluation_plot``),
embeddings, and editing the question set.

    >>> EvaluationExplorer().size_slider.description
    'chunk size'
"""

from __future__ import annotations

import html
from collections.abc import Callable
from functools import lru_cache

import ipywidgets as widgets

from chunklib.course import experiment as ex
from chunklib.course.questions import get_question, load_questions
from chunklib.widgets.common import (
    autograding,
    image_view,
    int_slider,
    not_drawn,
    set_image,
    summary_html,
)
from chunklib.widgets.evaluation_plot import (
    CURVE_MARGINS,
    TOPK_MARGINS,
    curve_axes,
    curve_frame,
    curve_marker,
    topk_axes,
    topk_bars,
    topk_frame,
    topk_range,
)
from chunklib.widgets.layers import Layers

VIEWS = {"windows": "fixed windows", "structure": "structure-aware", "parent-child": "parent-child"}
CACHED_SIZES = 16     # sweeps (one per size) kept by the explorer; the sizes offered are 9


@lru_cache(maxsize=CACHED_SIZES)
def curve_data(size: int, k: int = ex.K) -> tuple[tuple[ex.Summary, ...], ex.Summary, ex.Summary]:
    """(the overlap sweep, the stopping rule's choice, structure-aware chunks) for ``size``.

    ``curve_data(400)[1].strategy.overlap`` -> 100
    """
    sweep = tuple(ex.overlap_sweep(size, k))
    return sweep, ex.stopping_point(sweep), ex.summarize(ex.Strategy("structure", size), k)


def _replace(old: list, make: Callable[[], list]) -> None:
    """Remove the artists in ``old``, then hold the artists ``make()`` adds in their place
    (in this order: removing an axes' old legend after ``make`` drew a new one would drop
    the new one)."""
    for artist in old:
        artist.remove()
    old[:] = make()


class EvaluationExplorer(widgets.VBox):
    """Sliders for size and overlap, a question, which strategy's top-k to show.

    ``EvaluationExplorer().overlap_slider.value = 150`` redraws both pictures and summaries.
    """

    def __init__(self, size: int = 400, overlap: int = 100, question: str = "q19",
                 view: str = "windows", k: int = ex.K):
        _check(size, overlap, question, view)
        self.k = k
        self.size_slider = int_slider("chunk size", size, ex.SIZES[0], ex.SIZES[-1], 100,
                                      "chunk size in characters")
        self.overlap_slider = int_slider("overlap", overlap, 0, size // 2, ex.OVERLAP_STEP,
                                         "overlap of the fixed windows in characters, at most "
                                         "half the size")
        self.question_menu = widgets.Dropdown(
            options=[(f"{q.id} · {q.question}", q.id) for q in load_questions()],
            value=question, description="question", tooltip="which question's top-k to show",
            layout=widgets.Layout(width="48em"), style={"description_width": "9em"})
        self.view_buttons = widgets.ToggleButtons(
            options=[(label, key) for key, label in VIEWS.items()], value=view,
            description="top-k of", tooltips=[f"show the top-{k} of {v}" for v in VIEWS.values()],
            style={"description_width": "9em"})
        self.view_buttons.tooltip = "which strategy's top-k to show"
        # one frame per size (9 sizes) and per question and x range
        self.curve_layers = Layers(6.4, 3.6, margins=CURVE_MARGINS, max_frames=len(ex.SIZES) + 1)
        self.topk_layers = Layers(6.4, 3.0, margins=TOPK_MARGINS, max_frames=12)
        self.curve_figure, self.topk_figure = self.curve_layers.figure, self.topk_layers.figure
        curve_axes(self.curve_figure.axes[0], len(load_questions()))
        topk_axes(self.topk_figure.axes[0])
        self._curve_artists: list = []  # the current frame's artists, replaced on a new key
        self._topk_artists: list = []
        self.curve_image, self.topk_image = image_view(b""), image_view(b"")
        self.summary, self.topk_summary = widgets.HTML(), widgets.HTML()
        super().__init__([self.size_slider, self.overlap_slider,
                          widgets.HBox([self.curve_image, self.summary]),
                          self.question_menu, self.view_buttons,
                          widgets.HBox([self.topk_image, self.topk_summary])])
        self.size_slider.observe(self._on_size, names="value")
        self.overlap_slider.observe(self._redraw, names="value")
        self.question_menu.observe(self._redraw_topk, names="value")
        self.view_buttons.observe(self._redraw_topk, names="value")
        self._redraw()

    def strategy(self) -> ex.Strategy:
        """The strategy the top-k view shows."""
        size, view = self.size_slider.value, self.view_buttons.value
        return ex.Strategy(view, size, self.overlap_slider.value if view == "windows" else 0)

    def _on_size(self, change) -> None:
        overlap = self.overlap_slider.value
        self.overlap_slider.max = change["new"] // 2  # clamps the overlap when it is too big
        if self.overlap_slider.value == overlap:  # a clamped overlap has redrawn already
            self._redraw()

    def summary_rows(self) -> list[tuple[str, str]]:
        """The curve's text alternative as (label, value) pairs."""
        size, overlap = self.size_slider.value, self.overlap_slider.value
        sweep, stop, structure = curve_data(size, self.k)
        here = next(s for s in sweep if s.strategy.overlap == overlap)
        curve = ", ".join(f"O={s.strategy.overlap}: {s.counts}" for s in sweep)
        return [("windows now", f"{here.counts} complete, index duplication "
                 f"{here.index_duplication:.3f}"),
                ("near-duplicate hits", f"{here.near_duplicates} of {here.hits}"),
                ("the curve", curve),
                ("stopping rule", f"stop at O={stop.strategy.overlap} ({stop.counts}): the "
                 "next step gains less than one question"
                 if stop is not sweep[-1] else "every step gains: no stop within the sweep"),
                ("structure-aware", f"{structure.counts} complete, index duplication "
                 f"{structure.index_duplication:.3f}")]

    def _redraw(self, _change=None) -> None:
        size, overlap = self.size_slider.value, self.overlap_slider.value
        sweep, stop, structure = curve_data(size, self.k)
        ax = self.curve_figure.axes[0]
        png = self.curve_layers.draw(
            key=(size, self.k),
            frame=lambda: _replace(self._curve_artists,
                                   lambda: curve_frame(ax, sweep, stop, structure)),
            data=lambda: curve_marker(ax, sweep, overlap),
        )
        set_image(self.curve_image, png,
                  f"Complete questions against duplication for windows of {size} characters.")
        self.summary.value = summary_html(f"Windows of {size} characters, overlap {overlap}, "
                                          f"top {self.k}", self.summary_rows())
        self._redraw_topk()

    def outcome(self) -> ex.Outcome:
        """The chosen question's outcome under the strategy of the top-k view (cached)."""
        index = [q.id for q in load_questions()].index(self.question_menu.value)
        return ex.evaluate(self.strategy(), self.k)[index]

    def topk_rows(self) -> list[list[str]]:
        """The top-k view as rows: rank, source and span, score, holds evidence, repeats."""
        question = get_question(self.question_menu.value)
        rows, hits = [], list(self.outcome().hits)
        for rank, h in enumerate(hits):
            holds = h["source_id"] == question.source_id and all(
                h["start"] <= s and e <= h["end"] for s, e in question.evidence_spans)
            repeats = ex.near_duplicates(hits[:rank + 1]) > ex.near_duplicates(hits[:rank])
            rows.append([str(rank + 1), f"{h['source_id']} {h['start']}–{h['end']}",
                         str(h["score"]), "yes" if holds else "no", "yes" if repeats else "no"])
        return rows

    def _redraw_topk(self, _change=None) -> None:
        question, strategy, outcome = (get_question(self.question_menu.value), self.strategy(),
                                       self.outcome())
        ax = self.topk_figure.axes[0]
        xlim, rows = topk_range(question, outcome.hits), max(self.k, len(outcome.hits))
        png = self.topk_layers.draw(
            key=(question.id, xlim, rows),
            frame=lambda: _replace(self._topk_artists,
                                   lambda: topk_frame(ax, question, xlim, rows)),
            data=lambda: topk_bars(ax, question, outcome, xlim[0]),
            overlays=tuple(ax.spines.values()),
        )
        set_image(self.topk_image, png,
                  f"Top {self.k} hits of {strategy.label} for {question.id}.")
        head = "".join(f"<th>{h}</th>" for h in ("rank", "source span", "score",
                                                 "holds evidence", "near-duplicate"))
        body = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>"
                       for row in self.topk_rows())
        verdict = "complete" if outcome.complete else "not complete"
        self.topk_summary.value = (
            f"<div role='status' aria-live='polite'><b>{html.escape(question.id)} with "
            f"{html.escape(strategy.label)}: {verdict}</b>, recall {outcome.recall:.2f}, "
            f"precision {outcome.precision:.3f}<table><tr>{head}</tr>{body}</table></div>")


def _check(size: int, overlap: int, question: str, view: str) -> None:
    ex.Strategy("windows", size, overlap)  # validates size and overlap
    get_question(question)
    if view not in VIEWS:
        raise ValueError(f"view must be one of {list(VIEWS)}, got {view!r}")


def evaluation_explorer(size: int = 400, overlap: int = 100, question: str = "q19",
                        view: str = "windows") -> EvaluationExplorer | widgets.HTML:
    """Build the lesson-6 explorer; the lesson cell is this one call (a note while autograding).

    ``evaluation_explorer(400, 100)`` -> EvaluationExplorer(...)
    """
    _check(size, overlap, question, view)
    if autograding():
        return not_drawn("evaluation explorer")
    return EvaluationExplorer(size, overlap, question, view)
