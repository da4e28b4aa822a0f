"""The lesson-6 evaluation explorer through chunklib.widgets.layers: pictures that do not depend on
the
path of slider moves, frames drawn once per key, and autograde mode (no explorer, no
matplotlib)."""

import io

import pytest
from PIL import Image

from chunklib.course import experiment as ex
from chunklib.course.questions import get_question
from chunklib.widgets.common import not_drawn
from chunklib.widgets.evaluation import EvaluationExplorer, curve_data, evaluation_explorer
from chunklib.widgets.evaluation_plot import topk_range


def pixels(png: bytes) -> bytes:
    return Image.open(io.BytesIO(png)).convert("RGBA").tobytes()


def pictures(e: EvaluationExplorer) -> tuple[bytes, bytes]:
    return pixels(e.curve_image.value), pixels(e.topk_image.value)


def test_pictures_do_not_depend_on_the_path_taken():
    e = evaluation_explorer(400, 100, "q19")
    e.size_slider.value = 600
    e.overlap_slider.value = 250
    e.size_slider.value = 300  # clamps the overlap to 150
    e.question_menu.value = "q10"
    e.view_buttons.value = "parent-child"
    e.size_slider.value = 1000
    e.view_buttons.value = "windows"
    e.question_menu.value = "q19"
    e.size_slider.value = 400
    e.overlap_slider.value = 100
    assert pictures(e) == pictures(EvaluationExplorer(400, 100, "q19"))
    e.question_menu.value = "q39"  # fewer hits than k: rows stay
    assert pictures(e) == pictures(EvaluationExplorer(400, 100, "q39"))
    e.size_slider.value = 700  # frames first drawn after many moves
    assert pictures(e) == pictures(EvaluationExplorer(700, 100, "q39"))


def test_each_frame_is_drawn_once_while_the_sliders_go_back_and_forth():
    e = evaluation_explorer(400, 100)
    for _ in range(3):
        e.size_slider.value = 500
        e.size_slider.value = 400
        e.overlap_slider.value = 150
        e.overlap_slider.value = 100
    assert e.curve_layers.frame_renders == 2  # sizes 400 and 500
    assert e.topk_layers.frame_renders <= 4  # one per x range of q19's top-k


def test_old_data_artists_are_removed():
    e = evaluation_explorer(400, 100)
    ax = e.curve_figure.axes[0]
    lines = len(ax.get_lines())
    texts = len(ax.texts)
    for size in (500, 1000, 400):
        e.size_slider.value = size
    assert len(ax.get_lines()) == lines and len(ax.texts) == texts
    assert len(e.topk_figure.axes[0].collections) <= e.k


def test_the_top_k_range_holds_the_evidence_and_the_nearby_hits():
    for question_id, strategy in (("q19", ex.Strategy("windows", 400, 100)),
                                  ("q10", ex.Strategy("parent-child", 1000)),
                                  ("q01", ex.Strategy("windows", 200))):
        question = get_question(question_id)
        hits = ex.evaluate(strategy)[int(question_id[1:]) - 1].hits
        lo, hi = topk_range(question, hits)
        assert lo <= min(s for s, _e in question.evidence_spans)
        assert hi >= max(e for _s, e in question.evidence_spans)
        near = [h for h in hits if h["source_id"] == question.source_id
                and abs(h["start"] - question.evidence_spans[0][0]) < 1000]
        assert all(lo <= h["start"] and h["end"] <= hi for h in near)


def test_curve_data_is_the_experiments_and_is_bounded():
    sweep, stop, structure = curve_data(400)
    assert list(sweep) == ex.overlap_sweep(400)
    assert stop == ex.stopping_point(ex.overlap_sweep(400))
    assert structure == ex.summarize(ex.Strategy("structure", 400))
    assert curve_data.cache_info().maxsize is not None


def test_autograde_mode_returns_a_note_and_still_checks_arguments(monkeypatch):
    monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")
    placeholder = evaluation_explorer()
    assert placeholder.value == not_drawn("evaluation explorer").value
    with pytest.raises(ValueError, match="overlap"):
        evaluation_explorer(400, 400)
    with pytest.raises(ValueError, match="q99"):
        evaluation_explorer(question="q99")
    with pytest.raises(ValueError, match="view"):
        evaluation_explorer(view="embeddings")
