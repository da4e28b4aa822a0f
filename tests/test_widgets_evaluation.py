"""The lesson-6 evaluation explorer's own numbers: the curve's and the top-k view's summaries,
the overlap clamped by the size, both frames drawn once, the top-k range. What every explorer
keeps (labels, one redraw per move, path independence, the autograde placeholder) is
tests/test_explorers.py."""

import pytest

from chunklib.course import experiment as ex
from chunklib.course.questions import get_question
from chunklib.widgets.evaluation import (
    EvaluationExplorer,
    curve,
    duplication_limit,
    evaluation_explorer,
    hit_marks,
    topk_range,
)


@pytest.fixture(scope="module")
def explorer():
    return evaluation_explorer(size=400, overlap=100, question="q19")


def test_initial_state_shows_the_lesson_example(explorer):
    e = explorer
    s = e.curve_summary.value
    for fact in ("dense retrieval", "28/39 complete, index duplication 0.316", "56 of 192",
                 "O=0: 20/39, O=50: 22/39, O=100: 28/39, O=150: 26/39, O=200: 29/39",
                 "stop at O=100 (28/39)", "33/39 complete, index duplication 0.050"):
        assert fact in s, fact
    t = e.summary.value
    assert "q19 (in deployment-guide) with windows 400/100, dense retrieval: not complete" in t
    assert "0.99, 0.154" in t
    rows = dict(e.summary_rows())
    assert len(rows) == 6  # recall and precision, then one row per hit
    assert rows["hit 2"] == ("deployment-guide 11100–11500, score 0.398454; holds the evidence: "
                             "no; near-duplicate: yes")
    assert e.retriever_menu.value == ex.MAIN_RETRIEVER == "dense"
    assert e.curve_image.value[:4] == b"\x89PNG" and e.curve_image.tooltip
    assert len(e.question_menu.options) == 39
    assert len(e.view_buttons.tooltips) == len(e.view_buttons.options)


def test_overlap_slider_updates_curve_and_topk():
    e = evaluation_explorer()
    before = (e.curve_image.value, e.curve_summary.value)
    e.overlap_slider.value = 200
    assert e.curve_image.value != before[0] and e.curve_summary.value != before[1]
    assert "29/39 complete" in e.curve_summary.value
    assert "q19 (in deployment-guide) with windows 400/200" in e.summary.value


def test_size_slider_moves_the_overlap_limit_and_clamps():
    e = evaluation_explorer(size=600, overlap=300)
    e.size_slider.value = 400
    assert e.overlap_slider.max == 200 and e.overlap_slider.value == 200
    assert "O=200: 29/39" in e.curve_summary.value and "O=250" not in e.curve_summary.value
    e.size_slider.value = 1000
    assert e.overlap_slider.max == 500 and "O=500:" in e.curve_summary.value


def test_question_and_view_change_only_the_topk(explorer):
    e = explorer
    curve = e.curve_image.value
    e.question_menu.value = "q10"
    e.view_buttons.value = "parent-child"
    assert "q10 (in deployment-guide) with parent-child 400, dense retrieval: complete" in (
        e.summary.value)
    assert e.curve_image.value == curve
    e.view_buttons.value = "structure"
    assert "with structure 400, dense retrieval: not complete" in e.summary.value
    e.view_buttons.value = "windows"
    e.question_menu.value = "q19"


def test_both_frames_are_drawn_once_and_old_artists_go():
    e = evaluation_explorer(400, 100)
    topk, curve = e.figure.axes[0], e.curve_layers.axes[0]
    counts = len(curve.get_lines()), len(curve.texts), len(topk.patches) + len(topk.collections)
    for size, overlap, question in ((500, 250, "q10"), (1000, 0, "q39"), (400, 100, "q19")):
        with e.batch():
            e.size_slider.value, e.overlap_slider.value = size, overlap
            e.question_menu.value = question
    assert e.layers.frame_renders == e.curve_layers.frame_renders == 1
    assert (len(curve.get_lines()), len(curve.texts),
            len(topk.patches) + len(topk.collections)) == counts


def test_the_curve_is_drawn_the_same_at_every_size_path(explorer):
    e = evaluation_explorer(400, 100)
    e.size_slider.value = 700
    e.overlap_slider.value = 350
    fresh = EvaluationExplorer(700, 350)
    assert e.curve_image.value == fresh.curve_image.value
    assert e.curve_summary.value == fresh.curve_summary.value
    # the x range holds every size's sweep and structure-aware point
    assert e.xmax > max(s.index_duplication for sweep, _stop, structure in map(curve, ex.SIZES)
                        for s in (*sweep, structure))


def test_invalid_start_values_are_refused(monkeypatch):
    for args, match in (({"size": 400, "overlap": 400}, "overlap"),
                        ({"overlap": 75}, "overlap"), ({"size": 450}, "size"),
                        ({"question": "q99"}, "q99"), ({"view": "embeddings"}, "view"),
                        ({"retriever": "terms"}, "retriever")):
        with pytest.raises(ValueError, match=match):
            EvaluationExplorer(**args)
        monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")  # checked while autograding too
        with pytest.raises(ValueError, match=match):
            evaluation_explorer(**args)
        monkeypatch.delenv("NBGRADER_EXECUTION")


def test_curves_are_the_experiments():
    for retriever in ("dense", "lexical", "hybrid"):
        sweep, stop, structure = curve(400, ex.K, retriever)
        assert list(sweep) == ex.overlap_sweep(400, ex.K, retriever)
        assert stop == ex.stopping_point(ex.overlap_sweep(400, ex.K, retriever))
        assert structure == ex.summarize(ex.Strategy("structure", 400), ex.K, retriever)


def test_the_retriever_menu_switches_curve_and_topk():
    e = evaluation_explorer(400, 100, "q19")
    shown = e.curve_image.value, e.image.value
    e.retriever_menu.value = "lexical"
    assert e.curve_image.value != shown[0] and e.image.value != shown[1]
    assert "O=0: 20/39, O=50: 21/39, O=100: 27/39, O=150: 26/39, O=200: 31/39" in (
        e.curve_summary.value)
    assert "windows 400/100, lexical retrieval" in e.summary.value
    e.retriever_menu.value = "hybrid"
    assert "O=200: 33/39" in e.curve_summary.value
    hits = ex.evaluate(ex.Strategy("windows", 400, 100), ex.K, "hybrid")[18].hits
    assert f"score {hits[0]['score']};" in e.summary.value
    e.retriever_menu.value = "dense"
    assert (e.curve_image.value, e.image.value) == shown


def test_the_top_k_range_holds_the_evidence_and_the_nearby_hits():
    for question_id, strategy in (("q19", ex.Strategy("windows", 400, 100)),
                                  ("q10", ex.Strategy("parent-child", 1000)),
                                  ("q01", ex.Strategy("windows", 200))):
        question = get_question(question_id)
        hits = ex.evaluate(strategy)[int(question_id[1:]) - 1].hits
        lo, hi = topk_range(question, hits, hit_marks(question, hits))
        assert lo <= min(s for s, _e in question.evidence_spans)
        assert hi >= max(e for _s, e in question.evidence_spans)
        near = [h for h in hits if h["source_id"] == question.source_id
                and abs(h["start"] - question.evidence_spans[0][0]) < 1000]
        assert all(lo <= h["start"] and h["end"] <= hi for h in near)


def test_curve_has_labels_integer_ticks_and_markers(explorer):
    ax = explorer.curve_layers.axes[0]
    assert ax.get_xlabel().startswith("index duplication ratio")
    assert ax.get_ylabel() == "complete questions (of 39)"
    assert all(float(t).is_integer() for t in ax.get_yticks())
    markers = {line.get_marker() for line in ax.get_lines()}
    assert {"o", "*", "s"} <= markers  # shapes, not only colours, tell the series apart
    topk = explorer.figure.axes[0]
    assert topk.get_ylabel() == "rank" and any(p.get_hatch() for p in topk.patches)


def test_curves_wait_for_their_first_use():
    curve.cache_clear()
    e = EvaluationExplorer(400, 100)
    assert curve.cache_info().currsize == 1  # the curve it shows, nothing ahead
    e.size_slider.value = 700
    assert curve.cache_info().currsize == 2
    e.size_slider.value = 400
    e.retriever_menu.value = "hybrid"
    assert curve.cache_info().currsize == 3


def test_the_x_limit_comes_from_every_sizes_chunks():
    most = max(s.index_duplication for retriever in ("dense", "lexical")
               for sweep, _stop, structure in (curve(size, ex.K, retriever) for size in ex.SIZES)
               for s in (*sweep, structure))
    assert duplication_limit() == most * 1.08 + 0.03
