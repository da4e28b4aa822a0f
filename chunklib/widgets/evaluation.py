"""The lesson-6 evaluation explorer: size and overlap sliders and a retriever menu drive the
completeness-versus-duplication curve and the top-k view of one question.

The curve shows, for fixed windows of the chosen size, how many questions are complete at each
overlap of the sweep against the index's duplication ratio; the current overlap is ringed, the
stopping rule's choice is a star, structure-aware chunks of the same size are a square. The
top-k view draws the hits of the chosen question and strategy over its source (evidence
hatched). Each picture has its summary beside it, its text alternative.

One setting (size, overlap, question, view, retriever) gives one ``EvaluationView``, computed
once by the base (``chunklib.widgets.explorer``). The numbers come from
``chunklib.course.experiment``, which caches every evaluation for the kernel's life; the
curves' totals of every size and retriever are among the results the course ships
(``experiment.shipped_results``), so nothing is evaluated ahead. The curve's x axis is the
same at every size; its limit needs only the index duplication of every size, which is
chunking alone
(``experiment.index_duplication``), not retrieval.
The top-k view is the base's picture; the curve is the extra view, with its own layers.

Leaves out: the drawing (``chunklib.widgets.evaluation_plot``), embeddings, and editing the
question set.

    >>> EvaluationExplorer().summary_rows()[0]
    ('recall, precision', '0.99, 0.154')
"""

from __future__ import annotations

import html
from functools import cache
from typing import NamedTuple

import ipywidgets as widgets

from chunklib.course import experiment as ex
from chunklib.course.questions import get_question, load_questions
from chunklib.widgets.common import image_view, int_slider, set_image, summary_html
from chunklib.widgets.evaluation_plot import (
    CURVE_MARGINS,
    TOPK_MARGINS,
    curve_frame,
    curve_points,
    hit_marks,
    topk_frame,
    topk_hits,
    topk_range,
)
from chunklib.widgets.explorer import Explorer
from chunklib.widgets.layers import Layers

VIEWS = {"windows": "fixed windows", "structure": "structure-aware", "parent-child": "parent-child"}
RETRIEVERS = ("dense", "lexical", "hybrid")  # the menu's options; the first is the lesson's


@cache
def curve(size: int, k: int = ex.K, retriever: str = ex.MAIN_RETRIEVER) -> tuple:
    """The curve of one size under ``retriever``: (the overlap sweep, the stopping rule's
    choice, structure-aware chunks), evaluated on first use and kept.

    ``curve(400)[1].strategy.overlap`` -> 100
    """
    sweep = tuple(ex.overlap_sweep(size, k, retriever))
    return sweep, ex.stopping_point(sweep), ex.summarize(ex.Strategy("structure", size), k,
                                                         retriever)


def curves(k: int = ex.K, retriever: str = ex.MAIN_RETRIEVER) -> dict[int, tuple]:
    """Every size the explorer offers -> its ``curve`` under ``retriever`` (evaluates them all).

    ``curves()[400][1].strategy.overlap`` -> 100
    """
    return {size: curve(size, k, retriever) for size in ex.SIZES}


@cache
def duplication_limit() -> float:
    """The curve's x-axis limit: a margin past the largest index duplication of any size the
    explorer offers, at any overlap of its sweep or structure-aware (chunking alone).

    ``round(duplication_limit(), 2)`` -> 1.08
    """
    return max(ex.index_duplication(s) for size in ex.SIZES
               for s in (*(ex.Strategy("windows", size, o) for o in ex.sweep_overlaps(size)),
                         ex.Strategy("structure", size))) * 1.08 + 0.03


class EvaluationView(NamedTuple):
    """Everything the explorer shows for one setting."""

    size: int
    overlap: int
    retriever: str
    sweep: tuple        # the overlap sweep of this size (Summary per overlap)
    stop: ex.Summary    # the stopping rule's choice
    structure: ex.Summary
    here: ex.Summary    # windows of this size and overlap
    question: object    # the chosen question
    strategy: ex.Strategy  # the strategy of the top-k view
    outcome: ex.Outcome
    marks: tuple        # per hit: (holds all evidence, near-duplicate, near the evidence)
    xlim: tuple[int, int]


class EvaluationExplorer(Explorer):
    """Sliders for size and overlap, a question, which strategy's top-k to show, and which
    retriever ranks the chunks.

    ``EvaluationExplorer().overlap_slider.value = 150`` redraws both pictures and summaries.
    """

    name = "evaluation explorer"
    figsize = (6.4, 3.0)
    margins = TOPK_MARGINS
    has_stepper = False
    k = ex.K

    def __init__(self, size: int = 400, overlap: int = 100, question: str = "q19",
                 view: str = "windows", retriever: str = ex.MAIN_RETRIEVER):
        self.check(size=size, overlap=overlap, question=question, view=view,
                   retriever=retriever)
        self.xmax = duplication_limit()
        self.curve_layers = Layers(6.4, 3.6, margins=CURVE_MARGINS)
        self.curve_image = image_view(b"")
        self.curve_summary = widgets.HTML(layout=widgets.Layout(min_width="22em"))
        self.curve_shown: tuple | None = None  # (size, overlap, retriever) the curve shows
        super().__init__(size=size, overlap=overlap, question=question, view=view,
                         retriever=retriever)

    @classmethod
    def check(cls, size=400, overlap=100, question="q19", view="windows",
              retriever=ex.MAIN_RETRIEVER) -> None:
        ex.Strategy("windows", size, overlap)  # sizes and overlaps that are ints, overlap < size
        if size not in ex.SIZES:
            raise ValueError(f"size must be one of {ex.SIZES}, got {size!r}")
        if overlap % ex.OVERLAP_STEP or overlap > size // 2:
            raise ValueError(f"overlap must be a multiple of {ex.OVERLAP_STEP} up to half the "
                             f"size, got {overlap!r}")
        get_question(question)
        if view not in VIEWS:
            raise ValueError(f"view must be one of {list(VIEWS)}, got {view!r}")
        if retriever not in RETRIEVERS:
            raise ValueError(f"retriever must be one of {list(RETRIEVERS)}, got {retriever!r}")

    def make_controls(self, size, overlap, question, view, retriever):
        self.size_slider = int_slider("chunk size", size, ex.SIZES[0], ex.SIZES[-1],
                                      ex.SIZES[1] - ex.SIZES[0], "chunk size in characters")
        self.overlap_slider = int_slider("overlap", overlap, 0, size // 2, ex.OVERLAP_STEP,
                                         "overlap of the fixed windows in characters, at most "
                                         "half the size")
        self.question_menu = widgets.Dropdown(
            options=[(f"{q.id} · {q.question}", q.id) for q in load_questions()],
            value=question, description="question", tooltip="which question's top-k to show",
            layout=widgets.Layout(width="48em"), style={"description_width": "9em"})
        self.view_buttons = widgets.ToggleButtons(
            options=[(label, key) for key, label in VIEWS.items()], value=view,
            description="top-k of", style={"description_width": "9em"},
            tooltips=[f"show the top-{self.k} of {v}" for v in VIEWS.values()])
        self.view_buttons.tooltip = "which strategy's top-k to show"
        self.retriever_menu = widgets.Dropdown(
            options=list(RETRIEVERS), value=retriever, description="retriever",
            tooltip="which retriever ranks the chunks (each filters by tenant and ACL first)",
            style={"description_width": "9em"})
        return {"size": self.size_slider, "overlap": self.overlap_slider,
                "retriever": self.retriever_menu, "question": self.question_menu,
                "view": self.view_buttons}

    def adjust(self, name, old, new) -> None:
        if name == "size":
            self.overlap_slider.max = new // 2  # clamps the overlap when it is too big

    def arrange(self):
        return [self.size_slider, self.overlap_slider, self.retriever_menu,
                widgets.HBox([self.curve_image, self.curve_summary]),
                self.question_menu, self.view_buttons, widgets.HBox([self.image, self.summary])]

    def compute(self, params) -> EvaluationView:
        size, overlap, retriever, question_id, view = params
        sweep, stop, structure = curve(size, self.k, retriever)
        here = next(s for s in sweep if s.strategy.overlap == overlap)
        question = get_question(question_id)
        strategy = ex.Strategy(view, size, overlap if view == "windows" else 0)
        number = [q.id for q in load_questions()].index(question_id)
        outcome = ex.evaluate(strategy, self.k, retriever)[number]
        marks = hit_marks(question, outcome.hits)
        return EvaluationView(size, overlap, retriever, sweep, stop, structure, here, question,
                              strategy, outcome, marks, topk_range(question, outcome.hits, marks))

    # the base's picture: the top-k view
    def frame_key(self, view: EvaluationView):
        return self.k  # one frame: ranks and legend

    def draw_frame(self, ax, view: EvaluationView) -> None:
        topk_frame(ax, self.k)

    def draw_data(self, ax, view: EvaluationView, current):
        return topk_hits(ax, view.question, view.outcome.hits, view.marks, view.xlim,
                         view.retriever)

    def overlays(self, ax) -> tuple:
        return tuple(ax.spines.values())  # the rank axis never changes

    def describe(self, view: EvaluationView, current):
        o = view.outcome
        rows = [("recall, precision", f"{o.recall:.2f}, {o.precision:.3f}")]
        for rank, (h, (holds, repeats, _near)) in enumerate(zip(o.hits, view.marks,
                                                                strict=True)):
            rows.append((f"hit {rank + 1}", f"{h['source_id']} {h['start']}–{h['end']}, score "
                         f"{h['score']}; holds the evidence: {'yes' if holds else 'no'}; "
                         f"near-duplicate: {'yes' if repeats else 'no'}"))
        verdict = "complete" if o.complete else "not complete"
        q = view.question
        return (f"{q.id} (in {q.source_id}) with {view.strategy.label}, {view.retriever} "
                f"retrieval: {verdict}", rows)

    def alt(self, view: EvaluationView, current) -> str:
        q = view.question
        return (f"Top {self.k} hits of {view.strategy.label} ({view.retriever} retrieval) for "
                f"{q.id}, over {q.source_id}.")

    # the extra view: the curve
    def curve_rows(self, view: EvaluationView) -> list[tuple[str, str]]:
        """The curve's text alternative as (label, value) pairs."""
        here, stop, structure = view.here, view.stop, view.structure
        return [("windows now", f"{here.counts} complete, index duplication "
                                f"{here.index_duplication:.3f}"),
                ("near-duplicate hits", f"{here.near_duplicates} of {here.hits}"),
                ("the curve", ", ".join(f"O={s.strategy.overlap}: {s.counts}"
                                        for s in view.sweep)),
                ("stopping rule", f"stop at O={stop.strategy.overlap} ({stop.counts}): the "
                 "next step gains less than one question" if stop is not view.sweep[-1]
                 else "every step gains: no stop within the sweep"),
                ("structure-aware", f"{structure.counts} complete, index duplication "
                                    f"{structure.index_duplication:.3f}")]

    def show(self, view: EvaluationView, current) -> None:
        if (view.size, view.overlap, view.retriever) == self.curve_shown:  # question or view
            return
        self.curve_shown = view.size, view.overlap, view.retriever
        ax = self.curve_layers.axes[0]
        png = self.curve_layers.draw(
            key="curve", frame=lambda: curve_frame(ax, view.here.n, self.xmax),
            data=lambda: curve_points(ax, view.sweep, view.stop, view.structure, view.overlap))
        alt = (f"Complete questions against duplication for windows of {view.size} characters, "
               f"{view.retriever} retrieval.")
        set_image(self.curve_image, png, alt)
        self.curve_summary.value = (
            summary_html(f"Windows of {view.size} characters, overlap {view.overlap}, top "
                         f"{self.k}, {view.retriever} retrieval", self.curve_rows(view))
            + f"<p><small>Plot: {html.escape(alt)}</small></p>")


def evaluation_explorer(size: int = 400, overlap: int = 100, question: str = "q19",
                        view: str = "windows", retriever: str = ex.MAIN_RETRIEVER
                        ) -> EvaluationExplorer | widgets.HTML:
    """Build the lesson-6 explorer; the lesson cell is this one call (a note while autograding).

    ``evaluation_explorer(400, 100)`` -> EvaluationExplorer(...)
    """
    return EvaluationExplorer.build(size=size, overlap=overlap, question=question, view=view,
                                    retriever=retriever)
