"""Shifted window grids, the overlap sweep averaged over them, and the strategies × retrievers
table (chunklib.windows.shifted_window_spans, chunklib.course.sweep, experiment's ``retriever``)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chunklib.course import sweep
from chunklib.course.experiment import LESSON_STRATEGIES, chunk_dicts, overlap_sweep, summarize
from chunklib.course.fixture import load_source
from chunklib.course.vector_store import store_strategies
from chunklib.experiment import Strategy
from chunklib.structure import window_chunks
from chunklib.windows import shifted_window_spans, window_spans


@given(st.integers(0, 300), st.integers(1, 40), st.data())
def test_shifted_grid_covers_the_text_and_keeps_the_overlap(n, size, data):
    overlap = data.draw(st.integers(0, size - 1))
    offset = data.draw(st.integers(0, size - overlap - 1))
    spans = shifted_window_spans(n, size, overlap, offset)
    if offset == 0:
        assert spans == window_spans(n, size, overlap)
    if n == 0:
        assert spans == []
        return
    assert spans[0][0] == 0 and spans[-1][1] == n
    for (a, b), (c, _d) in zip(spans, spans[1:]):
        assert b - c == overlap and a < c  # neighbours share the overlap, starts move forward
    assert all(0 < e - s <= size for s, e in spans)
    if len(spans) > 1 and offset:
        assert spans[1][0] == offset


def test_shifted_grid_refuses_bad_offsets():
    with pytest.raises(ValueError, match="offset must be smaller than the stride 3"):
        shifted_window_spans(10, 4, 1, 3)
    with pytest.raises(TypeError, match="offset must be an int"):
        shifted_window_spans(10, 4, 1, 1.0)
    with pytest.raises(ValueError, match="offset applies to fixed windows only"):
        Strategy("structure", 400, offset=10)
    with pytest.raises(ValueError, match="smaller than the stride"):
        Strategy("windows", 400, 100, offset=300)


def test_offset_zero_keeps_every_chunk_id():
    guide = load_source("deployment-guide")
    assert window_chunks(guide, 400, 100) == window_chunks(guide, 400, 100, 0)
    shifted = window_chunks(guide, 400, 100, 75)
    assert shifted[0].start == 0 and shifted[1].start == 75
    assert Strategy("windows", 400, 100, 75).label == "windows 400/100 @75"


def test_window_offsets():
    assert sweep.window_offsets(400, 0) == [0, 100, 200, 300]
    assert sweep.window_offsets(400, 200, 3) == [0, 66, 133]
    assert sweep.window_offsets(3, 1, 4) == [0, 1]  # a stride of 2 has two offsets
    with pytest.raises(ValueError, match="n must be >= 1"):
        sweep.window_offsets(400, 0, 0)


def test_averaged_sweep_holds_the_single_grid_sweep_and_its_spread():
    points = sweep.averaged_sweep(400, "terms")
    single = overlap_sweep(400, retriever="terms")
    assert [p.overlap for p in points] == [s.strategy.overlap for s in single]
    for point, one in zip(points, single, strict=True):
        assert point.complete[0] == one.complete  # offset 0 is the lesson's grid
        assert min(point.complete) <= point.mean <= max(point.complete)
        assert point.offsets == tuple(sweep.window_offsets(400, point.overlap))
        assert point.sd == pytest.approx(
            (sum((c - point.mean) ** 2 for c in point.complete) / len(point.complete)) ** 0.5)
    table = sweep.averaged_sweep_table(["terms"])
    assert table.splitlines()[2].startswith(
        f"| 0 | 0.000 | {points[0].mean:.2f}/39 ({min(points[0].complete)}–")


def test_every_retriever_runs_the_experiment_on_the_shipped_vectors():
    from chunklib.vectors import default_embedder

    before = default_embedder().computed
    for name in sweep.RETRIEVERS:
        s = summarize(Strategy("structure", 400), retriever=name)
        assert s.n == 39 and 0 < s.complete <= 39
    table = sweep.retriever_table([Strategy("windows", 400)], ["terms", "lexical"])
    assert table.splitlines()[2].startswith("| windows 400/0 | 20/39 (")
    assert default_embedder().computed == before  # nothing encoded


def test_store_strategies_cover_the_lesson_and_the_averaged_sweep():
    covered = set(store_strategies())
    assert set(LESSON_STRATEGIES) <= covered
    assert {Strategy("windows", 400, o, f) for o in range(0, 201, 50)
            for f in sweep.window_offsets(400, o)} <= covered
    assert all(chunk_dicts(s) for s in covered)


def test_holds_across():
    s400, w400 = Strategy("structure", 400), Strategy("windows", 400)
    assert sweep.holds_across(s400, w400, ["terms", "lexical"])
    assert not sweep.holds_across(w400, s400, ["terms", "lexical"])


@pytest.mark.parametrize("alpha, error", [(0, ValueError), (-0.5, ValueError), (1.5, ValueError),
                                          (float("nan"), ValueError), ("0.05", TypeError),
                                          (True, TypeError)])
def test_smallest_splits_refuses_an_alpha_its_search_could_never_reach(alpha, error):
    with pytest.raises(error, match="alpha"):
        sweep.smallest_splits(alpha)
