"""Lesson 6 across retrievers: the strategies × retrievers table and the overlap sweep
averaged over where the windows start, with its spread.

One grid of windows is one draw: moving every window start by a few characters moves some
evidence spans across a cut and others out of one, so one overlap can gain or lose a question
or two by chance. ``averaged_sweep`` therefore evaluates each overlap at ``n_offsets`` window
grids (offsets 0, stride/n, 2·stride/n, ...; ``windows.shifted_window_spans``) and reports the
mean count of complete questions with its minimum, maximum and standard deviation. A
difference between two overlaps smaller than their spread is not a trend.
``holds_across`` keeps a comparison only when every retriever agrees on it.

Leaves out: significance tests (39 questions; the spread is the honest summary) and the
per-question view (``chunklib.course.experiment.evaluate``) and the strategies the shipped
vector store covers (``chunklib.course.vector_store``).

    >>> window_offsets(400, 100)
    [0, 75, 150, 225]
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from chunklib.course.experiment import LESSON_STRATEGIES, MAIN_RETRIEVER, summarize
from chunklib.experiment import K, Strategy, sweep_overlaps
from chunklib.validate import require_int, require_window

RETRIEVERS = ("dense", "lexical", "hybrid")
N_OFFSETS = 4
SWEEP_SIZE = 400


def window_offsets(size: int, overlap: int, n: int = N_OFFSETS) -> list[int]:
    """``n`` evenly spread starts of the window grid within one stride.

    ``window_offsets(400, 0, 2)`` -> [0, 200]
    """
    size, overlap = require_window(size, overlap)
    n = require_int("n", n, minimum=1)
    step = size - overlap
    return sorted({i * step // n for i in range(n)})


@dataclass(frozen=True)
class SweepPoint:
    """One overlap of the averaged sweep: complete questions at each offset and their spread."""

    size: int
    overlap: int
    offsets: tuple[int, ...]
    complete: tuple[int, ...]
    n: int
    index_duplication: float

    @property
    def mean(self) -> float:
        """Mean complete questions over the offsets."""
        return statistics.fmean(self.complete)

    @property
    def sd(self) -> float:
        """Population standard deviation of the counts (0.0 for one offset)."""
        return statistics.pstdev(self.complete)


def averaged_sweep(size: int = SWEEP_SIZE, retriever: str = MAIN_RETRIEVER, k: int = K,
                   n_offsets: int = N_OFFSETS) -> list[SweepPoint]:
    """The overlap sweep of fixed windows of ``size``, each overlap at ``n_offsets`` grids.

    ``[p.complete for p in averaged_sweep(400, "terms")][0]`` -> (20, ...)
    """
    out = []
    for overlap in sweep_overlaps(size):
        offsets = tuple(window_offsets(size, overlap, n_offsets))
        sums = [summarize(Strategy("windows", size, overlap, o), k, retriever) for o in offsets]
        out.append(SweepPoint(size, overlap, offsets, tuple(s.complete for s in sums), sums[0].n,
                              statistics.fmean(s.index_duplication for s in sums)))
    return out


def averaged_sweep_table(retrievers: Sequence[str] = RETRIEVERS, size: int = SWEEP_SIZE,
                         k: int = K, n_offsets: int = N_OFFSETS) -> str:
    """Markdown: one row per overlap, per retriever the mean of complete questions over the
    window offsets with its range and standard deviation.

    ``averaged_sweep_table(["terms"]).splitlines()[0]``
    -> '| overlap | index duplication | terms: mean (min–max, sd) |'
    """
    sweeps = {r: averaged_sweep(size, r, k, n_offsets) for r in retrievers}
    lines = ["| overlap | index duplication | "
             + " | ".join(f"{r}: mean (min–max, sd)" for r in retrievers) + " |",
             "|---" * (len(retrievers) + 2) + "|"]
    for i, point in enumerate(sweeps[retrievers[0]]):
        cells = [f"{p.mean:.2f}/{p.n} ({min(p.complete)}–{max(p.complete)}, {p.sd:.1f})"
                 for p in (sweeps[r][i] for r in retrievers)]
        lines.append(f"| {point.overlap} | {point.index_duplication:.3f} | "
                     + " | ".join(cells) + " |")
    return "\n".join(lines)


def retriever_table(strategies: Sequence[Strategy] = LESSON_STRATEGIES,
                    retrievers: Sequence[str] = RETRIEVERS, k: int = K) -> str:
    """Markdown: complete questions (of n) per strategy and retriever, and mean IoU.

    ``retriever_table([Strategy("windows", 400)], ["terms"]).splitlines()[2]``
    -> '| windows 400/0 | 20/39 (0.061) |'
    """
    lines = ["| strategy | " + " | ".join(f"{r}: complete (IoU)" for r in retrievers) + " |",
             "|---" * (len(retrievers) + 1) + "|"]
    for strategy in strategies:
        cells = [summarize(strategy, k, r) for r in retrievers]
        lines.append(f"| {strategy.label} | "
                     + " | ".join(f"{s.counts} ({s.iou:.3f})" for s in cells) + " |")
    return "\n".join(lines)


def holds_across(better: Strategy, worse: Strategy, retrievers: Sequence[str] = RETRIEVERS,
                 k: int = K) -> bool:
    """True when ``better`` completes more questions than ``worse`` under every retriever.

    ``holds_across(Strategy("windows", 400, 200), Strategy("windows", 400), ["terms"])`` -> True
    """
    return all(summarize(better, k, r).complete > summarize(worse, k, r).complete
               for r in retrievers)
