"""The overlap explorer, driven headless: slider values in, summary and PNG out."""

import pytest

from chunklib.widgets.overlap import OverlapExplorer, overlap_explorer
from chunklib.widgets.plotting import PALETTE, figure_png, interval_figure


def summary_text(e):
    return e.summary.value


def test_initial_state_shows_the_worked_example():
    e = overlap_explorer(1000, 200, 50)
    assert e.step_label.value == "<b>Chunk 1 of 7</b>: tokens 0 to 200"
    s = summary_text(e)
    for fact in ("200 − 50 = 150", ">7<", "0, 150, 300, 450, 600, 750, 900", "100 tokens",
                 "1300 (1.30× the document)", "O + 1 = 51"):
        assert fact in s, fact
    assert e.image.value[:4] == b"\x89PNG"


def test_sliders_update_summary_and_picture():
    e = overlap_explorer()
    before_png, before_summary = e.image.value, summary_text(e)
    e.size_slider.value = 250
    e.overlap_slider.value = 100
    assert e.image.value != before_png and summary_text(e) != before_summary
    assert ">6<" in summary_text(e) and "250 tokens" in summary_text(e)
    e.chunk_slider.value = 6
    assert e.step_label.value == "<b>Chunk 6 of 6</b>: tokens 750 to 1000"


def test_overlap_is_clamped_below_size_and_says_so():
    e = overlap_explorer(1000, 200, 150)
    e.size_slider.value = 100
    assert e.overlap_slider.max == 99 and e.overlap_slider.value == 99
    assert "lowered from 150 to 99" in e.note.value
    e.size_slider.value = 300
    assert e.note.value == ""


def test_stepper_buttons_stay_in_range():
    e = overlap_explorer(1000, 200, 50)
    e.prev_button.click()
    assert e.chunk_slider.value == 1
    for _ in range(10):
        e.next_button.click()
    assert e.chunk_slider.value == 7
    e.n_slider.value = 300  # fewer chunks: the stepper follows
    assert e.chunk_slider.max == 2 and e.chunk_slider.value == 2


def test_empty_document():
    e = overlap_explorer()
    e.n_slider.value = 0
    assert "No chunks" in e.step_label.value and ">0<" in summary_text(e)


def test_invalid_start_values_are_refused():
    with pytest.raises(ValueError, match="overlap"):
        OverlapExplorer(1000, 200, 200)


def test_every_control_is_labelled():
    e = overlap_explorer()
    for control in (e.n_slider, e.size_slider, e.overlap_slider, e.chunk_slider,
                    e.prev_button, e.next_button):
        assert control.description and control.tooltip


def test_plot_has_labels_integer_ticks_hatching_and_the_palette():
    fig = interval_figure([(0, 200), (150, 350)], 350, current=1)
    ax = fig.axes[0]
    assert ax.get_xlabel() == "position in the document (tokens)" and ax.get_ylabel() == "chunk"
    hatched = [c for c in ax.collections if c.get_hatch()]
    assert hatched, "the overlap must be hatched to read without colour"
    assert all(float(t).is_integer() for t in ax.get_xticks())
    assert PALETTE[0].lower() == "#006ba4"
    assert figure_png(fig)[:4] == b"\x89PNG"
