"""The lesson-6 evaluation explorer: size, overlap and retriever drive the curve of complete
questions against index duplication (the current overlap ringed, the stopping rule's choice a
star, structure-aware chunks a square); a question and a strategy, the top-k view of its hits
over its source, evidence hatched. The numbers are ``chunklib.course.experiment``'s.

Leaves out: embeddings and editing the question set.

    >>> v = EvaluationExplorer()
    >>> v.summary_rows()[0]
    ('recall, precision', '0.99, 0.154')
    >>> q19, ax = get_question("q19"), Layers(7.5, 3.2).axes[0]
    >>> hits = ex.evaluate(ex.Strategy("windows", 400, 100))[18].hits
    >>> marks = hit_marks(q19, hits)
    >>> topk_range(q19, hits, marks)
    (10061, 12635)
"""

from __future__ import annotations

import math
from functools import cache
from typing import NamedTuple

import ipywidgets as widgets

from chunklib.course import experiment as ex
from chunklib.course.fixture import load_source
from chunklib.course.questions import get_question, load_questions
from chunklib.widgets.explorer import PALETTE, Explorer, Layers, PlotImage, int_slider, summary_html

HOLDS, OTHER, REPEAT, EVIDENCE = PALETTE[0], PALETTE[2], PALETTE[1], PALETTE[3]
NEIGHBOURHOOD = 1500  # characters around the evidence that the top-k view draws
ZOOM_STEP = 100       # the top-k view reaches 100, 141, 200, ... characters past the evidence
X_LABELS = 4          # character positions written under the top-k view, about
# a hit away from the evidence: a triangle at the left edge of its row
ELSEWHERE = {"marker": "<", "markersize": 10, "color": OTHER, "markeredgecolor": "black",
             "linestyle": "none", "clip_on": False}
# the curve's marks: the stopping rule's choice, structure-aware chunks, the current overlap
POINT = {"linestyle": "none", "markeredgecolor": "black"}
STOP = {"marker": "*", "markersize": 15, "color": REPEAT, **POINT}
SQUARE = {"marker": "s", "markersize": 9, "color": OTHER, **POINT}
RING = {"marker": "o", "markersize": 14, "markerfacecolor": "none", **POINT}
CURVE_MARGINS = {"left": 0.09, "right": 0.975, "bottom": 0.145, "top": 0.965}
VIEWS = {"windows": "fixed windows", "structure": "structure-aware", "parent-child": "parent-child"}
RETRIEVERS = ("dense", "lexical", "hybrid")  # the menu's options; the first is the lesson's


@cache
def curve(size: int, k: int = ex.K, retriever: str = ex.MAIN_RETRIEVER) -> tuple:
    """The curve of one size: (the overlap sweep, the stopping rule's choice, structure-aware).

    ``curve(400)[1].strategy.overlap`` -> 100
    """
    sweep = tuple(ex.overlap_sweep(size, k, retriever))
    return sweep, ex.stopping_point(sweep), ex.summarize(ex.Strategy("structure", size), k,
                                                         retriever)


@cache
def duplication_limit() -> float:
    """The curve's x-axis limit: a margin past the largest index duplication it can show.

    ``round(duplication_limit(), 2)`` -> 1.08
    """
    return max(ex.index_duplication(s) for s in ex.explorer_strategies()) * 1.08 + 0.03


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
    """Interactive lesson-6 explorer; ``EvaluationExplorer().overlap_slider.value = 150``
    redraws both pictures."""

    name = "evaluation explorer"
    figsize = (6.4, 3.0)
    margins = {"left": 0.075, "right": 0.975, "bottom": 0.165, "top": 0.83}
    has_stepper = False
    k = ex.K

    def __init__(self, size: int = 400, overlap: int = 100, question: str = "q19",
                 view: str = "windows", retriever: str = ex.MAIN_RETRIEVER):
        self.xmax = duplication_limit()
        self.curve_layers = Layers(6.4, 3.6, margins=CURVE_MARGINS)
        self.curve_image = PlotImage()
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

    # -- the base's picture: the top-k view of one question -----------------------------------

    def draw_frame(self, ax, view: EvaluationView) -> None:
        from matplotlib.lines import Line2D
        from matplotlib.patches import Patch

        ax.set_ylabel("rank")
        ax.set_ylim(self.k - 0.5, -0.5)
        ax.set_yticks(range(self.k), [str(i + 1) for i in range(self.k)])
        ax.set_xticks([])  # the character positions are written with the hits
        ax.set_xlabel("character position in the question's source", labelpad=12)
        ax.legend(handles=[Patch(facecolor=HOLDS, label="holds all evidence"),
                           Patch(facecolor=OTHER, label="does not"),
                           Patch(facecolor="white", hatch="///", edgecolor="black",
                                 label="near-duplicate of a higher hit"),
                           Patch(facecolor=EVIDENCE, alpha=0.35, hatch="xx", label="evidence"),
                           Line2D([], [], label="a hit elsewhere (see the table)", **ELSEWHERE)],
                  loc="lower left", bbox_to_anchor=(0, 1.0), ncol=3, fontsize=7, frameon=False)

    def draw_data(self, ax, view: EvaluationView, current):
        """The evidence, a bar per hit near it, a triangle per hit elsewhere, a few character
        positions under the x range (texts: cheaper than an x axis), the retriever's name:

        ``[type(a).__name__ for a in v.draw_data(v.figure.axes[0], v.computed, None)][:3]``
        -> ['Rectangle', 'Line2D', 'PolyCollection']
        """
        from matplotlib.ticker import MaxNLocator

        (lo, hi), hits = view.xlim, view.outcome.hits
        ax.set_xlim(lo, hi)
        added = [ax.axvspan(s, e, facecolor=EVIDENCE, alpha=0.35, hatch="xx", edgecolor="black",
                            linewidth=0.3) for s, e in view.question.evidence_spans]
        if away := [rank for rank, (_h, _r, near) in enumerate(view.marks) if not near]:
            added += ax.plot([lo] * len(away), away, **ELSEWHERE)
        added += [ax.broken_barh([(h["start"], h["end"] - h["start"])], (rank - 0.35, 0.7),
                                 facecolor=HOLDS if holds else OTHER, edgecolor="black",
                                 hatch="///" if repeats else "", linewidth=0.5)
                  for rank, (h, (holds, repeats, near)) in enumerate(zip(hits, view.marks))
                  if near]
        added += [ax.text(x, ax.get_ylim()[0] + 0.1, f"{x:.0f}", ha="center", va="top",
                          fontsize=8)
                  for x in MaxNLocator(X_LABELS, integer=True).tick_values(lo, hi) if lo <= x <= hi]
        return added + [ax.text(1.0, 1.02, f"{view.retriever} retrieval", transform=ax.transAxes,
                                ha="right", va="bottom", fontsize=8)]

    def overlays(self, ax) -> tuple:
        return tuple(ax.spines.values())  # the rank axis never changes

    def describe(self, view: EvaluationView, current):
        o, q = view.outcome, view.question
        rows = [("recall, precision", f"{o.recall:.2f}, {o.precision:.3f}")]
        rows += [(f"hit {rank + 1}", f"{h['source_id']} {h['start']}–{h['end']}, score "
                  f"{h['score']}; holds the evidence: {'yes' if holds else 'no'}; "
                  f"near-duplicate: {'yes' if repeats else 'no'}")
                 for rank, (h, (holds, repeats, _near)) in enumerate(zip(o.hits, view.marks))]
        verdict = "complete" if o.complete else "not complete"
        return (f"{q.id} (in {q.source_id}) with {view.strategy.label}, {view.retriever} "
                f"retrieval: {verdict}", rows)

    def alt(self, view: EvaluationView, current) -> str:
        q = view.question
        return (f"Top {self.k} hits of {view.strategy.label} ({view.retriever} retrieval) for "
                f"{q.id}, over {q.source_id}.")

    # -- the second picture: the curve of one size ----------------------------------------

    def show(self, view: EvaluationView, current) -> None:
        """Draw the curve and its summary, unless only the question or the view moved."""
        if (view.size, view.overlap, view.retriever) == self.curve_shown:
            return
        self.curve_shown = view.size, view.overlap, view.retriever
        ax = self.curve_layers.axes[0]
        png = self.curve_layers.draw(lambda: self.curve_frame(ax, view.here.n),
                                     lambda: self.curve_points(ax, view))
        alt = (f"Complete questions against duplication for windows of {view.size} characters, "
               f"{view.retriever} retrieval.")
        self.curve_image.value, self.curve_image.tooltip = png, alt
        here, stop, structure = view.here, view.stop, view.structure
        self.curve_summary.value = summary_html(
            f"Windows of {view.size} characters, overlap {view.overlap}, top {self.k}, "
            f"{view.retriever} retrieval",
            [("windows now", f"{here.counts} complete, index duplication "
                             f"{here.index_duplication:.3f}"),
             ("near-duplicate hits", f"{here.near_duplicates} of {here.hits}"),
             ("the curve", ", ".join(f"O={s.strategy.overlap}: {s.counts}" for s in view.sweep)),
             ("stopping rule (this one grid)", f"stop at O={stop.strategy.overlap} "
              f"({stop.counts}): the next step gains less than one question"
              if stop is not view.sweep[-1] else "every step gains: no stop within the sweep"),
             ("structure-aware", f"{structure.counts} complete, index duplication "
                                 f"{structure.index_duplication:.3f}")], alt)

    def curve_frame(self, ax, n: int) -> None:
        """The curve's axes (``n`` questions; one duplication range for every size), legend."""
        from matplotlib.lines import Line2D
        from matplotlib.ticker import MaxNLocator

        ax.set_xlim(-0.02, self.xmax)
        ax.set_ylim(0, n + 1)
        ax.set_xlabel("index duplication ratio (repeated characters / fixture length)")
        ax.set_ylabel(f"complete questions (of {n})")
        ax.yaxis.set_major_locator(MaxNLocator(integer=True))
        ax.grid(alpha=0.3)
        ax.legend(handles=[
            Line2D([], [], color=HOLDS, marker="o", label="fixed windows (one point per overlap)"),
            Line2D([], [], label="current overlap", **RING),
            Line2D([], [], label="stopping rule, this one grid", **STOP),
            Line2D([], [], label="structure-aware, same size", **SQUARE)],
            loc="lower right", fontsize=7)

    def curve_points(self, ax, view: EvaluationView) -> list:
        """The sweep, the overlap written at both ends and at the ring (every text costs about
        a millisecond), the star, the square, the ring on the current overlap:

        ``[type(a).__name__ for a in v.curve_points(v.curve_layers.axes[0], v.computed)][:2]``
        -> ['Line2D', 'Annotation']
        """
        added = ax.plot([s.index_duplication for s in view.sweep],
                        [s.complete for s in view.sweep], color=HOLDS, marker="o")
        added += [ax.annotate(f"O={s.strategy.overlap}", (s.index_duplication, s.complete),
                              textcoords="offset points", xytext=(4, -12), fontsize=7)
                  for s in dict.fromkeys([view.sweep[0], view.here, view.sweep[-1]])]
        for s, style in ((view.stop, STOP), (view.structure, SQUARE), (view.here, RING)):
            added += ax.plot([s.index_duplication], [s.complete], **style)
        return added


def hit_marks(question, hits) -> tuple[tuple[bool, bool, bool], ...]:
    """Per hit: does it hold all the evidence, is it a near-duplicate of a higher hit, is it
    within ``NEIGHBOURHOOD`` characters of the evidence:

    ``hit_marks(q19, hits)[3]`` -> (False, False, True)
    """
    lo, hi = _evidence_range(question)
    marks = []
    for rank, h in enumerate(hits):
        same = h["source_id"] == question.source_id
        marks.append((same and all(h["start"] <= s and e <= h["end"]
                                   for s, e in question.evidence_spans),
                      ex.near_duplicates(hits[:rank + 1]) > ex.near_duplicates(hits[:rank]),
                      same and h["start"] < hi + NEIGHBOURHOOD and lo - NEIGHBOURHOOD < h["end"]))
    return tuple(marks)


def _evidence_range(question) -> tuple[int, int]:
    return (min(s for s, _e in question.evidence_spans),
            max(e for _s, e in question.evidence_spans))


def _reach(need: float) -> int:
    """The smallest of 100, 141, 200, 283, 400, ... (steps of √2) at least ``need``."""
    return round(ZOOM_STEP * math.sqrt(2) ** max(0, math.ceil(2 * math.log2(need / ZOOM_STEP))))


def topk_range(question, hits, marks) -> tuple[int, int]:
    """The x range of the top-k view: every hit near the evidence with a margin, in steps
    of √2 from 100 characters on each side of it (example: the module's)."""
    ev_lo, ev_hi = _evidence_range(question)
    near = [h for h, (_holds, _repeats, is_near) in zip(hits, marks, strict=True) if is_near]
    lo = min([ev_lo] + [h["start"] for h in near])
    hi = max([ev_hi] + [h["end"] for h in near])
    pad = max(50, (hi - lo) // 10)
    left, right = _reach(ev_lo - lo + pad), _reach(hi - ev_hi + pad)
    length = len(load_source(question.source_id).text)
    return max(ev_lo - left, -pad), min(ev_hi + right, length + pad)


def evaluation_explorer(size: int = 400, overlap: int = 100, question: str = "q19",
                        view: str = "windows", retriever: str = ex.MAIN_RETRIEVER
                        ) -> EvaluationExplorer | widgets.HTML:
    """Build the lesson-6 explorer; the lesson cell is this one call (a note while autograding).

    ``evaluation_explorer(400, 100)`` -> EvaluationExplorer(...)
    """
    return EvaluationExplorer.build(size=size, overlap=overlap, question=question, view=view,
                                    retriever=retriever)
