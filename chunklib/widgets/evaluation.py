"""The lesson-6 evaluation explorer: size and overlap sliders drive the completeness-versus-
duplication curve and the top-k view of one question.

The curve shows, for fixed windows of the chosen size, how many questions are complete at each
overlap of the sweep against the index's duplication ratio; the current overlap is ringed, the
stopping rule's choice is a star, structure-aware chunks of the same size are a square. The
top-k view draws the hits for the chosen question over its source (evidence hatched). Every
number comes from ``chunklib.experiment``, which caches each evaluation in memory, so moving a
slider back and forth recomputes nothing. Both summaries are the pictures' text alternatives.

Leaves out: embeddings, and editing the question set.

    >>> EvaluationExplorer().size_slider.description
    'chunk size'
"""

from __future__ import annotations

import html

import ipywidgets as widgets
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.patches import Patch
from matplotlib.ticker import MaxNLocator

from chunklib import experiment as ex
from chunklib.plotting import PALETTE
from chunklib.questions import get_question, load_questions
from chunklib.widgets.common import int_slider, png_view, refresh_png, summary_html

VIEWS = {"windows": "fixed windows", "structure": "structure-aware", "parent-child": "parent-child"}
HOLDS, OTHER, REPEAT, EVIDENCE = PALETTE[0], PALETTE[2], PALETTE[1], PALETTE[3]
NEIGHBOURHOOD = 1500  # characters around the evidence that the top-k view draws


def _figure(width: float, height: float) -> Figure:
    fig = Figure(figsize=(width, height), dpi=100, layout="constrained")
    FigureCanvasAgg(fig)
    fig.add_subplot()
    return fig


def draw_curve(ax, sweep, current: int, stop, structure) -> None:
    """Complete questions against the index duplication ratio, one point per overlap.

    ``draw_curve(ax, ex.overlap_sweep(400), 100, ex.stopping_point(...), ex.summarize(...))``
    """
    ax.clear()
    xs = [s.index_duplication for s in sweep]
    ys = [s.complete for s in sweep]
    ax.plot(xs, ys, color=HOLDS, marker="o", linestyle="-", label="fixed windows (overlap O)")
    for s in sweep:
        ax.annotate(f"O={s.strategy.overlap}", (s.index_duplication, s.complete),
                    textcoords="offset points", xytext=(4, -12), fontsize=7)
    here = next(s for s in sweep if s.strategy.overlap == current)
    ax.plot([here.index_duplication], [here.complete], marker="o", markersize=14,
            markerfacecolor="none", markeredgecolor="black", linestyle="none",
            label=f"current O={current}")
    ax.plot([stop.index_duplication], [stop.complete], marker="*", markersize=15,
            color=REPEAT, markeredgecolor="black", linestyle="none",
            label=f"stopping rule: O={stop.strategy.overlap}")
    ax.plot([structure.index_duplication], [structure.complete], marker="s", markersize=9,
            color=OTHER, markeredgecolor="black", linestyle="none",
            label="structure-aware, same size")
    n = sweep[0].n
    ax.set_ylim(0, n + 1)
    ax.set_xlim(-0.02, max(xs + [structure.index_duplication]) * 1.1 + 0.05)
    ax.set_xlabel("index duplication ratio (repeated characters / fixture length)")
    ax.set_ylabel(f"complete questions (of {n})")
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.grid(alpha=0.3)
    ax.legend(loc="lower right", fontsize=7)


def draw_topk(ax, question, outcome) -> None:
    """One row per hit near the evidence (hatched); hits elsewhere are named in words.

    ``draw_topk(ax, get_question("q19"), ex.evaluate(ex.Strategy("windows", 400))[18])``
    """
    ax.clear()
    hits = list(outcome.hits)
    ev_lo = min(s for s, _e in question.evidence_spans)
    ev_hi = max(e for _s, e in question.evidence_spans)
    near = [h for h in hits if h["source_id"] == question.source_id
            and h["start"] < ev_hi + NEIGHBOURHOOD and ev_lo - NEIGHBOURHOOD < h["end"]]
    lo = min([ev_lo] + [h["start"] for h in near])
    hi = max([ev_hi] + [h["end"] for h in near])
    pad = max(50, (hi - lo) // 10)
    for s, e in question.evidence_spans:
        ax.axvspan(s, e, facecolor=EVIDENCE, alpha=0.35, hatch="xx", edgecolor="black",
                   linewidth=0.3)
    for rank, h in enumerate(hits):
        if not any(h is x for x in near):
            ax.text(lo - pad, rank, f" {h['source_id']} {h['start']}–{h['end']}, away from "
                    "the evidence", va="center", fontsize=7)
            continue
        holds = all(h["start"] <= s and e <= h["end"] for s, e in question.evidence_spans)
        repeats = ex.near_duplicates(hits[:rank + 1]) > ex.near_duplicates(hits[:rank])
        ax.broken_barh([(h["start"], h["end"] - h["start"])], (rank - 0.35, 0.7),
                       facecolor=HOLDS if holds else OTHER, edgecolor="black",
                       hatch="///" if repeats else "", linewidth=0.5)
    ax.set_xlim(lo - pad, hi + pad)
    ax.set_ylim(len(hits) - 0.5 if hits else 0.5, -0.5)
    ax.set_xlabel(f"character position in {question.source_id}")
    ax.set_ylabel("rank")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True, nbins=6))
    ax.set_yticks(range(len(hits)), [str(i + 1) for i in range(len(hits))])
    ax.legend(handles=[Patch(facecolor=HOLDS, label="holds all evidence"),
                       Patch(facecolor=OTHER, label="does not"),
                       Patch(facecolor="white", hatch="///", edgecolor="black",
                             label="near-duplicate of a higher hit"),
                       Patch(facecolor=EVIDENCE, alpha=0.35, hatch="xx", label="evidence")],
              loc="lower left", bbox_to_anchor=(0, 1.0), ncol=4, fontsize=7, frameon=False)


class EvaluationExplorer(widgets.VBox):
    """Sliders for size and overlap, a question, which strategy's top-k to show.

    ``EvaluationExplorer().overlap_slider.value = 150`` redraws both pictures and summaries.
    """

    def __init__(self, size: int = 400, overlap: int = 100, question: str = "q19",
                 view: str = "windows", k: int = ex.K):
        ex.Strategy("windows", size, overlap)  # validates size and overlap
        get_question(question)
        if view not in VIEWS:
            raise ValueError(f"view must be one of {list(VIEWS)}, got {view!r}")
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
        self.curve_figure, self.topk_figure = _figure(6.4, 3.6), _figure(6.4, 3.0)
        self.curve_image, self.topk_image = png_view(self.curve_figure), png_view(self.topk_figure)
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
        self.overlap_slider.max = change["new"] // 2  # clamps the overlap when it is too big
        self._redraw()

    def summary_rows(self) -> list[tuple[str, str]]:
        """The curve's text alternative as (label, value) pairs."""
        size, overlap = self.size_slider.value, self.overlap_slider.value
        sweep = ex.overlap_sweep(size, self.k)
        here = next(s for s in sweep if s.strategy.overlap == overlap)
        stop = ex.stopping_point(sweep)
        structure = ex.summarize(ex.Strategy("structure", size), self.k)
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
        sweep = ex.overlap_sweep(size, self.k)
        draw_curve(self.curve_figure.axes[0], sweep, overlap, ex.stopping_point(sweep),
                   ex.summarize(ex.Strategy("structure", size), self.k))
        refresh_png(self.curve_image, self.curve_figure,
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
        draw_topk(self.topk_figure.axes[0], question, outcome)
        refresh_png(self.topk_image, self.topk_figure,
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


def evaluation_explorer(size: int = 400, overlap: int = 100, question: str = "q19",
                        view: str = "windows") -> EvaluationExplorer:
    """Build the lesson-6 explorer; the lesson cell is this one call.

    ``evaluation_explorer(400, 100)`` -> EvaluationExplorer(...)
    """
    return EvaluationExplorer(size, overlap, question, view)
