"""Lesson 6 across retrievers: the strategies × retrievers table and the overlap sweep
averaged over where the windows start, with its spread.

One grid of windows is one draw: moving every window start by a few characters moves some
evidence spans across a cut and others out of one, so one overlap can gain or lose a question
or two by chance. ``averaged_sweep`` therefore evaluates each overlap at ``n_offsets`` window
grids (offsets 0, stride/n, 2·stride/n, ...; ``windows.shifted_window_spans``) and reports the
mean count of complete questions with its minimum, maximum and standard deviation. A
difference between two overlaps smaller than their spread is not a trend.

The lesson's one ranking rule (``holds_across``) compares two strategies question by question:
the *discordant* questions are those one strategy completes and the other does not
(``discordant``). If a fair coin decided which of the two gets each of them, how often would the
split look as lopsided as it does? That chance is the exact two-sided sign test (McNemar's exact
test, ``sign_test_p``). A strategy ranks above another only when its split is ahead and that
chance is below ``ALPHA`` under every retriever; otherwise the lesson ranks neither.

Leaves out: corrections for making many comparisons, effect sizes, and the strategies the
shipped vector store covers (``chunklib.course.vector_store``).

    >>> window_offsets(400, 100)
    [0, 75, 150, 225]
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from chunklib.course.experiment import LESSON_STRATEGIES, MAIN_RETRIEVER, evaluate, summarize
from chunklib.experiment import K, Strategy, sweep_overlaps
from chunklib.validate import require_int, require_window

RETRIEVERS = ("dense", "lexical", "hybrid")
N_OFFSETS = 4
SWEEP_SIZE = 400
#: The ranking rule's bar: a split a coin would produce at most this often does not rank.
ALPHA = 0.05


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


def discordant(a: Strategy, b: Strategy, retriever: str, k: int = K) -> tuple[int, int]:
    """The questions ``a`` completes and ``b`` does not, and the reverse, as two counts.

    ``discordant(Strategy("structure", 1000), Strategy("structure", 400), "dense")`` -> (3, 0)
    """
    pairs = zip(evaluate(a, k, retriever), evaluate(b, k, retriever), strict=True)
    wins = losses = 0
    for x, y in pairs:
        wins += x.complete and not y.complete
        losses += y.complete and not x.complete
    return wins, losses


def sign_test_p(wins: int, losses: int) -> float:
    """How often a fair coin, deciding each of ``wins + losses`` questions, gives a split at
    least as lopsided as this one, either way round (exact two-sided sign test).

    ``sign_test_p(3, 0)`` -> 0.25
    """
    wins = require_int("wins", wins, minimum=0)
    losses = require_int("losses", losses, minimum=0)
    n = wins + losses
    tail = sum(math.comb(n, i) for i in range(min(wins, losses) + 1))
    return min(1.0, 2 * tail / 2 ** n) if n else 1.0


def smallest_splits(alpha: float = ALPHA, up_to: int = 2) -> list[tuple[int, int]]:
    """The least lopsided splits that clear ``alpha``, for 0 to ``up_to`` losses.

    ``smallest_splits()`` -> [(6, 0), (8, 1), (10, 2)]
    """
    if isinstance(alpha, bool) or not isinstance(alpha, (int, float)):
        raise TypeError(f"alpha must be a number, got {alpha!r}")
    if not 0 < alpha <= 1:  # p is never below 0 or above 1: the search would never end
        raise ValueError(f"alpha must be above 0 and at most 1, got {alpha!r}")
    up_to = require_int("up_to", up_to, minimum=0)
    out = []
    for losses in range(up_to + 1):
        wins = losses
        while sign_test_p(wins, losses) >= alpha:
            wins += 1
        out.append((wins, losses))
    return out


def holds_across(better: Strategy, worse: Strategy, retrievers: Sequence[str] = RETRIEVERS,
                 k: int = K, alpha: float = ALPHA) -> bool:
    """The lesson's ranking rule: True when, under every retriever, ``better`` completes more of
    the discordant questions than ``worse`` and a coin would give a split that lopsided less
    often than ``alpha`` (``sign_test_p``).

    ``holds_across(Strategy("windows", 400, 200), Strategy("windows", 400), ["dense"])`` -> True
    """
    for r in retrievers:
        wins, losses = discordant(better, worse, r, k)
        if wins <= losses or sign_test_p(wins, losses) >= alpha:
            return False
    return True
