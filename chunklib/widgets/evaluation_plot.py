"""The lesson-6 evaluation explorer's pictures: the completeness-versus-duplication curve and
the top-k view of one question, each as axes, a frame, a data layer and a ``draw_*`` function
for a plain figure, with their colours, x range and margins.

The curve's frame (the sweep, the star, the square, the legend) depends only on the size, the
ring on the current overlap is its data layer; the top-k frame (evidence, axes, rank rows)
depends on the question, the x range and the rows, the hit bars are its data layer. The x
range around the evidence widens in steps of √2 only as far as the nearby hits need.
matplotlib is imported inside the functions that draw.

Leaves out: the widgets, the summaries and the cache of sweeps
(``chunklib.widgets.evaluation``), and the numbers themselves (``chunklib.experiment``).

    >>> topk_range(get_question("q19"), ex.evaluate(ex.Strategy("windows", 400, 100))[18].hits)
    (10626, 11904)
"""

from __future__ import annotations

import math

from chunklib.course import experiment as ex
from chunklib.widgets.plotting import PALETTE

HOLDS, OTHER, REPEAT, EVIDENCE = PALETTE[0], PALETTE[2], PALETTE[1], PALETTE[3]
NEIGHBOURHOOD = 1500  # characters around the evidence that the top-k view draws
ZOOM_STEP = 100       # the top-k view reaches 100, 141, 200, ... characters past the evidence
CURVE_MARGINS = {"left": 0.09, "right": 0.975, "bottom": 0.145, "top": 0.965}
TOPK_MARGINS = {"left": 0.075, "right": 0.975, "bottom": 0.165, "top": 0.87}


def curve_axes(ax, n: int) -> None:
    """What the curve shows for every size: the y range (``n`` questions), labels, grid.

    ``curve_axes(ax, 39)``
    """
    from matplotlib.ticker import MaxNLocator

    ax.clear()
    ax.set_ylim(0, n + 1)
    ax.set_xlabel("index duplication ratio (repeated characters / fixture length)")
    ax.set_ylabel(f"complete questions (of {n})")
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.grid(alpha=0.3)


def curve_frame(ax, sweep, stop, structure) -> list:
    """What the curve shows for one size: the sweep, the star, the square, the x range and
    the legend. Returns the artists added.

    ``curve_frame(ax, *curve_data(400))`` -> [<Line2D>, <Annotation>, ...]
    """
    from matplotlib.lines import Line2D

    xs = [s.index_duplication for s in sweep]
    ys = [s.complete for s in sweep]
    line = ax.plot(xs, ys, color=HOLDS, marker="o", linestyle="-",
                   label="fixed windows (overlap O)")[0]
    added = [line]
    added += [ax.annotate(f"O={s.strategy.overlap}", (s.index_duplication, s.complete),
                          textcoords="offset points", xytext=(4, -12), fontsize=7)
              for s in sweep]
    star = ax.plot([stop.index_duplication], [stop.complete], marker="*", markersize=15,
                   color=REPEAT, markeredgecolor="black", linestyle="none",
                   label=f"stopping rule: O={stop.strategy.overlap}")[0]
    square = ax.plot([structure.index_duplication], [structure.complete], marker="s",
                     markersize=9, color=OTHER, markeredgecolor="black", linestyle="none",
                     label="structure-aware, same size")[0]
    ring = Line2D([], [], marker="o", markersize=14, markerfacecolor="none",
                  markeredgecolor="black", linestyle="none", label="current overlap")
    ax.set_xlim(-0.02, max(xs + [structure.index_duplication]) * 1.1 + 0.05)
    legend = ax.legend(handles=[line, ring, star, square], loc="lower right", fontsize=7)
    return [*added, star, square, legend]


def curve_marker(ax, sweep, current: int) -> list:
    """The ring on the current overlap. Returns the artists added.

    ``curve_marker(ax, curve_data(400)[0], 100)`` -> [<Line2D>]
    """
    here = next(s for s in sweep if s.strategy.overlap == current)
    return ax.plot([here.index_duplication], [here.complete], marker="o", markersize=14,
                   markerfacecolor="none", markeredgecolor="black", linestyle="none",
                   label=f"current O={current}")


def draw_curve(ax, sweep, current: int, stop, structure) -> None:
    """Complete questions against the index duplication ratio, one point per overlap.

    ``draw_curve(ax, ex.overlap_sweep(400), 100, ex.stopping_point(...), ex.summarize(...))``
    """
    curve_axes(ax, sweep[0].n)
    curve_frame(ax, sweep, stop, structure)
    curve_marker(ax, sweep, current)


def _evidence_range(question) -> tuple[int, int]:
    return (min(s for s, _e in question.evidence_spans),
            max(e for _s, e in question.evidence_spans))


def _near(question, hits) -> list[dict]:
    ev_lo, ev_hi = _evidence_range(question)
    return [h for h in hits if h["source_id"] == question.source_id
            and h["start"] < ev_hi + NEIGHBOURHOOD and ev_lo - NEIGHBOURHOOD < h["end"]]


def _reach(need: float) -> int:
    """The smallest of 100, 141, 200, 283, 400, ... (steps of √2) at least ``need``."""
    return round(ZOOM_STEP * math.sqrt(2) ** max(0, math.ceil(2 * math.log2(need / ZOOM_STEP))))


def topk_range(question, hits) -> tuple[int, int]:
    """The x range of the top-k view: on each side of the evidence the smallest of 100, 141,
    200, 283, ... characters (steps of √2) that shows every hit near the evidence with a
    margin, cut at the ends of the source; few ranges, so few frames to draw.

    ``topk_range(get_question("q19"), ex.evaluate(ex.Strategy("windows", 400, 100))[18].hits)``
    -> (10626, 11904)
    """
    from chunklib.course.fixture import load_source

    ev_lo, ev_hi = _evidence_range(question)
    near = _near(question, hits)
    lo = min([ev_lo] + [h["start"] for h in near])
    hi = max([ev_hi] + [h["end"] for h in near])
    pad = max(50, (hi - lo) // 10)
    left, right = _reach(ev_lo - lo + pad), _reach(hi - ev_hi + pad)
    length = len(load_source(question.source_id).text)
    return max(ev_lo - left, -pad), min(ev_hi + right, length + pad)


def topk_axes(ax) -> None:
    """What the top-k view shows for every question: the rank label and the legend.

    ``topk_axes(ax)``
    """
    from matplotlib.patches import Patch
    from matplotlib.ticker import MaxNLocator

    ax.clear()
    ax.set_ylabel("rank")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True, nbins=6))
    ax.legend(handles=[Patch(facecolor=HOLDS, label="holds all evidence"),
                       Patch(facecolor=OTHER, label="does not"),
                       Patch(facecolor="white", hatch="///", edgecolor="black",
                             label="near-duplicate of a higher hit"),
                       Patch(facecolor=EVIDENCE, alpha=0.35, hatch="xx", label="evidence")],
              loc="lower left", bbox_to_anchor=(0, 1.0), ncol=4, fontsize=7, frameon=False)


def topk_frame(ax, question, xlim: tuple[int, int], rows: int = ex.K) -> list:
    """What the top-k view shows for one question and x range: the evidence (hatched), the x
    axis and ``rows`` rank rows. Returns the artists added.

    ``topk_frame(ax, get_question("q19"), (10000, 12000))`` -> [<Rectangle>, ...]
    """
    added = [ax.axvspan(s, e, facecolor=EVIDENCE, alpha=0.35, hatch="xx", edgecolor="black",
                        linewidth=0.3) for s, e in question.evidence_spans]
    ax.set_xlim(*xlim)
    ax.set_ylim(rows - 0.5, -0.5)
    ax.set_yticks(range(rows), [str(i + 1) for i in range(rows)])
    ax.set_xlabel(f"character position in {question.source_id}")
    return added


def topk_bars(ax, question, outcome, left: float) -> list:
    """One row per hit near the evidence; hits elsewhere are named in words at ``left``.
    Returns the artists added.

    ``topk_bars(ax, get_question("q19"), ex.evaluate(ex.Strategy("windows", 400))[18], 10000)``
    """
    hits = list(outcome.hits)
    near = _near(question, hits)
    added = []
    for rank, h in enumerate(hits):
        if not any(h is x for x in near):
            added.append(ax.text(left, rank, f" {h['source_id']} {h['start']}–{h['end']}, "
                                 "away from the evidence", va="center", fontsize=7))
            continue
        holds = all(h["start"] <= s and e <= h["end"] for s, e in question.evidence_spans)
        repeats = ex.near_duplicates(hits[:rank + 1]) > ex.near_duplicates(hits[:rank])
        added.append(ax.broken_barh([(h["start"], h["end"] - h["start"])], (rank - 0.35, 0.7),
                                    facecolor=HOLDS if holds else OTHER, edgecolor="black",
                                    hatch="///" if repeats else "", linewidth=0.5))
    return added


def draw_topk(ax, question, outcome, k: int = ex.K) -> None:
    """The whole top-k view on ``ax``: ``topk_axes``, ``topk_frame``, ``topk_bars``.

    ``draw_topk(ax, get_question("q19"), ex.evaluate(ex.Strategy("windows", 400))[18])``
    """
    xlim = topk_range(question, outcome.hits)
    topk_axes(ax)
    topk_frame(ax, question, xlim, max(k, len(outcome.hits)))
    topk_bars(ax, question, outcome, xlim[0])
