"""The lesson-6 evaluation explorer's two pictures: the completeness-versus-duplication curve
and the top-k view of one question, each as a frame that never changes (drawn once, then kept
as a picture by ``chunklib.widgets.layers.Layers``) and a data layer drawn over it on every
move. Text is most of what a matplotlib draw costs, so the data layers draw little of it: the
curve's x range holds every size's sweep, and the top-k view writes its few x labels itself.

The top-k x range is the evidence plus, on each side, the smallest of 100, 141, 200, 283, ...
characters (steps of √2) that shows every hit near the evidence; a hit elsewhere is a
triangle at the left of its row (the explorer's table names it). matplotlib is imported
inside the functions that draw.

Leaves out: the widgets and the summaries (``chunklib.widgets.evaluation``) and the numbers
themselves (``chunklib.course.experiment``).

The examples draw question q19's hits with 400-character windows and 100 of overlap, and the
sweep of overlaps at that size, on the axes of a small figure:

    >>> from chunklib.widgets.layers import new_canvas_figure
    >>> ax = new_canvas_figure(7.5, 3.2).axes[0]
    >>> q19 = get_question("q19")
    >>> hits = ex.evaluate(ex.Strategy("windows", 400, 100))[18].hits
    >>> marks = hit_marks(q19, hits)
    >>> topk_range(q19, hits, marks)
    (10061, 12635)
    >>> sweep = ex.overlap_sweep(400)
    >>> structure = ex.summarize(ex.Strategy("structure", 400))
"""

from __future__ import annotations

import math

from chunklib.course import experiment as ex
from chunklib.course.fixture import load_source
from chunklib.course.questions import get_question  # noqa: F401 (the module example uses it)
from chunklib.widgets.plotting import PALETTE

HOLDS, OTHER, REPEAT, EVIDENCE = PALETTE[0], PALETTE[2], PALETTE[1], PALETTE[3]
NEIGHBOURHOOD = 1500  # characters around the evidence that the top-k view draws
ZOOM_STEP = 100       # the top-k view reaches 100, 141, 200, ... characters past the evidence
X_LABELS = 4          # character positions written under the top-k view, about
# a hit away from the evidence: a triangle at the left edge of its row
ELSEWHERE = {"marker": "<", "markersize": 10, "color": OTHER, "markeredgecolor": "black",
             "linestyle": "none", "clip_on": False}
CURVE_MARGINS = {"left": 0.09, "right": 0.975, "bottom": 0.145, "top": 0.965}
TOPK_MARGINS = {"left": 0.075, "right": 0.975, "bottom": 0.165, "top": 0.83}


def curve_frame(ax, n: int, xmax: float) -> None:
    """What the curve shows for every size: the axes (``n`` questions, duplication up to
    ``xmax``), their labels, the grid and the legend.

    ``curve_frame(ax, 39, 1.2)``
    """
    from matplotlib.lines import Line2D
    from matplotlib.ticker import MaxNLocator

    ax.clear()
    ax.set_xlim(-0.02, xmax)
    ax.set_ylim(0, n + 1)
    ax.set_xlabel("index duplication ratio (repeated characters / fixture length)")
    ax.set_ylabel(f"complete questions (of {n})")
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.grid(alpha=0.3)
    marker = {"linestyle": "none", "markeredgecolor": "black"}
    ax.legend(handles=[
        Line2D([], [], color=HOLDS, marker="o", label="fixed windows (one point per overlap)"),
        Line2D([], [], marker="o", markersize=14, markerfacecolor="none", label="current overlap",
               **marker),
        Line2D([], [], marker="*", markersize=15, color=REPEAT, label="stopping rule's choice",
               **marker),
        Line2D([], [], marker="s", markersize=9, color=OTHER, label="structure-aware, same size",
               **marker)], loc="lower right", fontsize=7)


def curve_points(ax, sweep, stop, structure, current: int) -> list:
    """One size's sweep, the stopping rule's star, the structure-aware square and the ring on
    the ``current`` overlap; the overlap is written at both ends of the sweep and at the ring
    (it grows from left to right; every text costs about a millisecond). Returns the artists
    added: the curve, the three texts, the star, the square, the ring.

    ``curve_points(ax, sweep, ex.stopping_point(sweep), structure, 100)[1:4]``
    -> [Text(4, -12, 'O=0'), Text(4, -12, 'O=100'), Text(4, -12, 'O=200')]
    """
    here = next(s for s in sweep if s.strategy.overlap == current)
    point = {"linestyle": "none", "markeredgecolor": "black"}
    added = ax.plot([s.index_duplication for s in sweep], [s.complete for s in sweep],
                    color=HOLDS, marker="o")
    labelled = dict.fromkeys([sweep[0], here, sweep[-1]])  # the ends and the ring: O grows
    added += [ax.annotate(f"O={s.strategy.overlap}", (s.index_duplication, s.complete),
                          textcoords="offset points", xytext=(4, -12), fontsize=7)
              for s in labelled]
    added += ax.plot([stop.index_duplication], [stop.complete], marker="*", markersize=15,
                     color=REPEAT, **point)
    added += ax.plot([structure.index_duplication], [structure.complete], marker="s",
                     markersize=9, color=OTHER, **point)
    added += ax.plot([here.index_duplication], [here.complete], marker="o", markersize=14,
                     markerfacecolor="none", **point)
    return added


def hit_marks(question, hits) -> tuple[tuple[bool, bool, bool], ...]:
    """Per hit: does it hold all the evidence, is it a near-duplicate of a higher hit, is it
    near the evidence (same source, within ``NEIGHBOURHOOD`` characters).

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
    """The x range of the top-k view: on each side of the evidence the smallest of 100, 141,
    200, 283, ... characters that shows every hit near the evidence with a margin, cut at the
    ends of the source. (Example: the module's.)
    """
    ev_lo, ev_hi = _evidence_range(question)
    near = [h for h, (_holds, _repeats, is_near) in zip(hits, marks, strict=True) if is_near]
    lo = min([ev_lo] + [h["start"] for h in near])
    hi = max([ev_hi] + [h["end"] for h in near])
    pad = max(50, (hi - lo) // 10)
    left, right = _reach(ev_lo - lo + pad), _reach(hi - ev_hi + pad)
    length = len(load_source(question.source_id).text)
    return max(ev_lo - left, -pad), min(ev_hi + right, length + pad)


def topk_frame(ax, rows: int = ex.K) -> None:
    """What the top-k view shows for every question: ``rows`` rank rows and the legend.

    ``topk_frame(ax)``
    """
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    ax.clear()
    ax.set_ylabel("rank")
    ax.set_ylim(rows - 0.5, -0.5)
    ax.set_yticks(range(rows), [str(i + 1) for i in range(rows)])
    ax.set_xticks([])  # the character positions are written with the hits
    ax.set_xlabel("character position in the question's source", labelpad=12)
    ax.legend(handles=[Patch(facecolor=HOLDS, label="holds all evidence"),
                       Patch(facecolor=OTHER, label="does not"),
                       Patch(facecolor="white", hatch="///", edgecolor="black",
                             label="near-duplicate of a higher hit"),
                       Patch(facecolor=EVIDENCE, alpha=0.35, hatch="xx", label="evidence"),
                       Line2D([], [], label="a hit elsewhere (see the table)", **ELSEWHERE)],
              loc="lower left", bbox_to_anchor=(0, 1.0), ncol=3, fontsize=7, frameon=False)


def topk_hits(ax, question, hits, marks, xlim: tuple[int, int], retriever: str = "") -> list:
    """The evidence (hatched), one bar per hit near it, a triangle for each hit elsewhere, and
    the x range with a few character positions under it, and the retriever's name (if given)
    at the top right. Returns the artists added; for q19, the evidence, the triangles of its
    hits elsewhere, four hits near it and three positions:

    ``[type(a).__name__ for a in topk_hits(ax, q19, hits, marks, (10061, 12635))]``
    -> ['Rectangle', 'Line2D', 'PolyCollection', 'PolyCollection', 'PolyCollection',
    'PolyCollection', 'Text', 'Text', 'Text']
    """
    from matplotlib.ticker import MaxNLocator

    lo, hi = xlim
    ax.set_xlim(lo, hi)
    added = [ax.axvspan(s, e, facecolor=EVIDENCE, alpha=0.35, hatch="xx", edgecolor="black",
                        linewidth=0.3) for s, e in question.evidence_spans]
    away = [rank for rank, (_h, (_holds, _repeats, near)) in enumerate(zip(hits, marks,
                                                                            strict=True))
            if not near]
    if away:
        added += ax.plot([lo] * len(away), away, **ELSEWHERE)
    for rank, (h, (holds, repeats, near)) in enumerate(zip(hits, marks, strict=True)):
        if not near:
            continue
        added.append(ax.broken_barh([(h["start"], h["end"] - h["start"])], (rank - 0.35, 0.7),
                                    facecolor=HOLDS if holds else OTHER, edgecolor="black",
                                    hatch="///" if repeats else "", linewidth=0.5))
    bottom = ax.get_ylim()[0] + 0.1
    added += [ax.text(x, bottom, f"{x:.0f}", ha="center", va="top", fontsize=8)
              for x in MaxNLocator(X_LABELS, integer=True).tick_values(lo, hi) if lo <= x <= hi]
    if retriever:
        added.append(ax.text(1.0, 1.02, f"{retriever} retrieval", transform=ax.transAxes,
                             ha="right", va="bottom", fontsize=8))
    return added
