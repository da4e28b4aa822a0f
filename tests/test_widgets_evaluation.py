"""The evaluation explorer, driven headless: slider values in, summaries and PNGs out."""

import pytest

from chunklib.widgets.evaluation import EvaluationExplorer, evaluation_explorer
from chunklib.widgets.evaluation_plot import draw_curve


@pytest.fixture(scope="module")
def explorer():
    return evaluation_explorer(size=400, overlap=100, question="q19")


def test_initial_state_shows_the_lesson_example(explorer):
    e = explorer
    s = e.summary.value
    for fact in ("28/39 complete, index duplication 0.316", "40 of 192",
                 "O=0: 20/39, O=50: 22/39, O=100: 28/39, O=150: 26/39, O=200: 32/39",
                 "stop at O=100 (28/39)", "30/39 complete, index duplication 0.050"):
        assert fact in s, fact
    t = e.topk_summary.value
    assert "q19 with windows 400/100: not complete" in t and "recall 0.99" in t
    assert t.count("<tr>") == 6  # header + 5 hits
    assert e.curve_image.value[:4] == b"\x89PNG" and e.topk_image.value[:4] == b"\x89PNG"
    assert e.topk_rows()[3] == ["4", "deployment-guide 10800–11200", "5", "no", "yes"]
    # rank 5 is a window over the employees and sre sections: q19's subject holds both groups
    assert e.topk_rows()[4] == ["5", "deployment-guide 4800–5200", "5", "no", "no"]


def test_overlap_slider_updates_curve_summary_and_topk():
    e = evaluation_explorer()
    before = (e.curve_image.value, e.summary.value, e.topk_image.value, e.topk_summary.value)
    e.overlap_slider.value = 200
    after = (e.curve_image.value, e.summary.value, e.topk_image.value, e.topk_summary.value)
    assert all(a != b for a, b in zip(before, after))
    assert "32/39 complete" in e.summary.value
    assert "q19 with windows 400/200" in e.topk_summary.value


def test_size_slider_moves_the_overlap_limit_and_clamps():
    e = evaluation_explorer(size=600, overlap=300)
    e.size_slider.value = 400
    assert e.overlap_slider.max == 200 and e.overlap_slider.value == 200
    assert "O=200: 32/39" in e.summary.value and "O=250" not in e.summary.value
    e.size_slider.value = 1000
    assert e.overlap_slider.max == 500
    assert "O=500:" in e.summary.value


def test_question_and_view_change_only_the_topk(explorer):
    e = explorer
    curve = e.curve_image.value
    e.question_menu.value = "q10"
    e.view_buttons.value = "parent-child"
    assert "q10 with parent-child 400: complete" in e.topk_summary.value
    assert e.curve_image.value == curve
    e.view_buttons.value = "structure"
    assert "q10 with structure 400: not complete" in e.topk_summary.value
    e.view_buttons.value = "windows"
    e.question_menu.value = "q19"


def test_every_control_is_labelled(explorer):
    e = explorer
    for control in (e.size_slider, e.overlap_slider, e.question_menu, e.view_buttons):
        assert control.description and control.tooltip
    assert len(e.view_buttons.tooltips) == len(e.view_buttons.options)
    assert len(e.question_menu.options) == 39


def test_invalid_start_values_are_refused():
    with pytest.raises(ValueError, match="overlap"):
        EvaluationExplorer(size=400, overlap=400)
    with pytest.raises(ValueError, match="q99"):
        EvaluationExplorer(question="q99")
    with pytest.raises(ValueError, match="view"):
        EvaluationExplorer(view="embeddings")


def test_curve_has_labels_integer_ticks_and_markers(explorer):
    ax = explorer.curve_figure.axes[0]
    assert ax.get_xlabel().startswith("index duplication ratio")
    assert ax.get_ylabel() == "complete questions (of 39)"
    assert all(float(t).is_integer() for t in ax.get_yticks())
    markers = {line.get_marker() for line in ax.get_lines()}
    assert {"o", "*", "s"} <= markers  # shapes, not only colours, tell the series apart
    topk = explorer.topk_figure.axes[0]
    assert topk.get_ylabel() == "rank" and any(p.get_hatch() for p in topk.patches)


def test_draw_curve_is_reusable(explorer):
    from chunklib.course import experiment as ex
    ax = explorer.curve_figure.axes[0]
    sweep = ex.overlap_sweep(300)
    draw_curve(ax, sweep, 0, ex.stopping_point(sweep), ex.summarize(ex.Strategy("structure", 300)))
    assert len(ax.texts) == len(sweep)
