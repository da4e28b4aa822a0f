"""The overlap explorer's own numbers and behaviour; what every explorer does (controls redraw,
path independence, stepper, autograde note) is checked in tests/test_explorers.py."""

import pytest

from chunklib import windows
from chunklib.widgets.overlap import OverlapExplorer, overlap_explorer, window_plan
from chunklib.widgets.rows import MAX_ROWS


def test_initial_state_shows_the_worked_example():
    e = overlap_explorer(1000, 200, 50)
    assert e.step_label.value == "<b>Chunk 1 of 7</b>: tokens 0 to 200"
    for fact in ("200 − 50 = 150", ">7<", "0, 150, 300, 450, 600, 750, 900", "100 tokens",
                 "1300 (1.30× the document)", "O + 1 = 51"):
        assert fact in e.summary.value, fact
    ax = e.figure.axes[0]
    assert [t.get_text() for t in ax.texts] == ["position in the document (tokens)", "chunk"]
    assert all(float(t).is_integer() for t in ax.get_xticks())
    assert [p.get_hatch() for p in ax.patches] == [None, "///", None]  # new, repeated, current


@pytest.mark.parametrize("n, size, overlap", [
    (0, 10, 0), (1, 10, 9), (1000, 200, 50), (1000, 250, 100), (1000, 200, 199),
    (2000, 10, 9), (2000, 500, 0), (999, 500, 499)])
def test_the_plan_holds_what_chunklib_windows_computes(n, size, overlap):
    plan = window_plan(n, size, overlap)
    assert plan.spans == windows.window_spans(n, size, overlap)
    assert len(plan.spans) == windows.n_chunks(n, size, overlap)
    assert plan.starts == windows.chunk_starts(n, size, overlap)
    assert plan.lengths == windows.chunk_lengths(n, size, overlap)
    assert plan.stored == windows.stored_positions(n, size, overlap)
    assert plan.factor == windows.duplication_factor(n, size, overlap)
    assert plan.stride == windows.stride(size, overlap)


def test_things_to_try():
    """The lesson's "Things to try", in its order, from the state each item leaves."""
    e = overlap_explorer()
    e.overlap_slider.value = 100                     # 1: the Predict-first answer
    assert ">9<" in e.summary.value
    e.overlap_slider.value = 0                       # 2: K = ceil(N / C)
    assert ">5<" in e.summary.value
    e.size_slider.value, e.overlap_slider.value = 400, 100   # 3: a full last chunk
    assert ">3<" in e.summary.value and "400 tokens" in e.summary.value
    e.chunk_slider.value = 3
    assert e.step_label.value == "<b>Chunk 3 of 3</b>: tokens 600 to 1000"
    e.size_slider.value = 200
    e.overlap_slider.value = 199                     # 5: stride 1
    assert ">801<" in e.summary.value and "160200 (160.20× the document)" in e.summary.value
    assert f"{MAX_ROWS + 1} of the 801 chunks" in e.summary.value  # 30 spaced + the current
    assert f"Plot of 801 chunks ({MAX_ROWS + 1} of them drawn)" in e.image.tooltip


def test_overlap_is_clamped_below_size_and_says_so():
    e = overlap_explorer(1000, 200, 150)
    e.size_slider.value = 100                        # 4: C below O
    assert e.overlap_slider.max == 99 and e.overlap_slider.value == 99
    assert "lowered from 150 to 99" in e.note.value
    e.size_slider.value = 300
    assert e.note.value == ""


def test_empty_document():
    e = overlap_explorer(0)
    assert "No chunks" in e.step_label.value and ">0<" in e.summary.value
    assert e.image.tooltip == "Empty plot: no chunks."


@pytest.mark.parametrize("args", [dict(size=200, overlap=200), dict(overlap=-1),
                                  dict(n=-1), dict(size=0)])
def test_invalid_start_values_are_refused(args, monkeypatch):
    with pytest.raises(ValueError, match=next(iter(args))):
        OverlapExplorer(**args)
    monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")  # the placeholder refuses them too
    with pytest.raises(ValueError, match=next(iter(args))):
        overlap_explorer(**args)
