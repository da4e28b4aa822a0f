"""Headless tests for the lesson-2 boundaries explorer: controls drive the summary and the PNG."""

import matplotlib.pyplot as plt
import pytest

from chunklib.boundaries import span_stats
from chunklib.course.comparison import compare_strategies
from chunklib.course.passages import load_passage
from chunklib.sentences import paragraph_spans, split_sentences
from chunklib.splitter import recursive_split, split_text
from chunklib.widgets.boundaries import BoundariesExplorer, boundaries_explorer
from chunklib.widgets.boundaries_plot import draw_boundaries


@pytest.fixture
def explorer():
    return boundaries_explorer()


def rows(explorer):
    return dict(explorer.summary_rows())


def test_passage_is_a_real_multi_paragraph_text():
    text = load_passage()
    assert 350 <= len(text.split()) <= 450
    assert len(paragraph_spans(text)) >= 5
    assert "Dr. Osei" in text  # shows the missing abbreviation list


def test_initial_state_shows_png_and_summary(explorer):
    assert explorer.image.value[:4] == b"\x89PNG"
    assert explorer.image.format == "png"
    assert "Chunk size 300, merged" in explorer.summary.value
    assert rows(explorer)["chunks"] == str(len(split_text(explorer.text, 300)))


def test_every_control_has_a_description_and_tooltip(explorer):
    controls = [*explorer.separator_boxes.values(), explorer.merge_box, explorer.size_slider]
    for control in controls:
        assert control.description and control.tooltip


@pytest.mark.parametrize("size", [40, 150, 600])
def test_size_slider_updates_summary_and_png(explorer, size):
    before_png, before_html = explorer.image.value, explorer.summary.value
    explorer.size_slider.value = size
    assert explorer.image.value != before_png
    assert explorer.summary.value != before_html
    stats = span_stats(explorer.text, split_text(explorer.text, size))
    assert rows(explorer)["chunks"] == str(stats["chunks"])
    assert rows(explorer)["sentences cut"] == f"{stats['sentences_cut']} of {stats['sentences']}"
    assert f"Chunk size {size}," in explorer.summary.value


def test_separator_checkboxes_change_the_split(explorer):
    before_png = explorer.image.value
    explorer.separator_boxes[". "].value = False
    assert ". " not in explorer.separators
    assert explorer.image.value != before_png
    expected = split_text(explorer.text, 300, separators=("\n\n", "\n", " "))
    assert explorer.spans() == expected


def test_all_separators_off_gives_fixed_windows(explorer):
    for box in explorer.separator_boxes.values():
        box.value = False
    fixed = compare_strategies(explorer.text, 300)["fixed"]
    summary = rows(explorer)
    assert summary["separators"] == "none: hard cuts only"
    assert summary["chunks"] == str(fixed["chunks"])
    assert summary["boundary quality"].startswith(f"{fixed['boundary_quality']:.2f} ")
    assert summary["chunk length (characters)"] == (
        f"min {fixed['min']}, median {fixed['median']:g}, max {fixed['max']}")


def test_merge_box_shows_raw_pieces(explorer):
    explorer.merge_box.value = False
    raw = recursive_split(explorer.text, 300)
    assert explorer.spans() == raw
    assert rows(explorer)["chunks"] == str(len(raw))
    assert "not merged" in explorer.summary.value


def test_plot_has_one_row_per_chunk_and_one_line_per_sentence(explorer):
    explorer.size_slider.value = 200
    ax = explorer.figure.axes[0]
    spans, sentences = explorer.spans(), split_sentences(explorer.text)
    bars = [p for p in ax.patches if p.get_hatch()]  # one hatched patch per colour
    assert sum(len(p.get_path().vertices) // 5 for p in bars) == len(spans)  # a bar per chunk
    assert len(ax.collections) == 1  # the sentence lines
    assert len(ax.collections[0].get_segments()) == len(sentences)
    assert ax.get_xlabel() == "character offset in the text" and ax.get_ylabel() == "chunk"
    assert all(float(t).is_integer() for t in ax.get_yticks())


@pytest.mark.parametrize(
    ("spans", "cuts"),
    [([(0, 5), (5, 9)], 0), ([(0, 6), (6, 9)], 1), ([(0, 2), (2, 6), (6, 9)], 2)],
)
def test_draw_boundaries_marks_cuts(spans, cuts):
    fig = BoundariesExplorer(text="One. Two.", size=20).figure
    ax = fig.axes[0]
    draw_boundaries(ax, 9, spans, [(0, 4), (5, 9)])
    marked = sum(len(line.get_xdata()) for line in ax.lines)
    assert marked == cuts


@pytest.mark.parametrize("text", ["", "   ", "no separators here at all" * 20, "日本語。" * 50,
                                  "A.\r\n\r\nB.\r\n" * 30])
def test_any_text_renders(text):
    e = boundaries_explorer(text, size=40)
    assert e.image.value[:4] == b"\x89PNG"
    assert rows(e)["chunks"] == str(len(split_text(text, 40)))


def test_no_pyplot_figures_are_created():
    before = plt.get_fignums()
    e = boundaries_explorer()
    e.size_slider.value = 500
    assert plt.get_fignums() == before


@pytest.mark.parametrize(
    ("kwargs", "error", "name"),
    [({"text": 3}, TypeError, "text"), ({"size": 0}, ValueError, "size"),
     ({"size": "300"}, TypeError, "size")],
)
def test_bad_arguments_name_themselves(kwargs, error, name):
    with pytest.raises(error, match=name):
        boundaries_explorer(**kwargs)


# --- chunk stepper ---------------------------------------------------------------------------

def test_stepper_starts_on_chunk_one_and_shows_its_text(explorer):
    start, end = explorer.spans()[0]
    k = len(explorer.spans())
    assert explorer.step_label.value == (f"<b>Chunk 1 of {k}</b>: characters {start} to {end} "
                                         f"({end - start} characters)")
    assert "The seed library on Harbour Street" in explorer.chunk_view.value
    assert explorer.chunk_slider.max == k and explorer.chunk_slider.description


def test_next_and_previous_buttons_step_and_stay_in_range(explorer):
    k = len(explorer.spans())
    explorer.prev_button.click()
    assert explorer.chunk_slider.value == 1
    before = explorer.image.value
    explorer.next_button.click()
    assert explorer.chunk_slider.value == 2 and explorer.image.value != before
    for _ in range(k + 3):
        explorer.next_button.click()
    assert explorer.chunk_slider.value == k
    assert "the end of the text" in explorer.chunk_view.value
    assert explorer.prev_button.tooltip and explorer.next_button.tooltip


def test_stepper_names_a_cut_in_words(explorer):
    spans, sentences = explorer.spans(), explorer.sentences
    cuts = [i for i, (_, e) in enumerate(spans[:-1]) if any(s < e < t for s, t in sentences)]
    clean = [i for i, (_, e) in enumerate(spans[:-1]) if i not in cuts]
    assert cuts and clean  # the default settings show both kinds
    explorer.chunk_slider.value = cuts[0] + 1
    assert "inside a sentence: this end cuts it" in explorer.chunk_view.value
    explorer.chunk_slider.value = clean[0] + 1
    assert "at a sentence boundary" in explorer.chunk_view.value


def test_fewer_chunks_clamp_the_stepper(explorer):
    explorer.size_slider.value = 40
    explorer.chunk_slider.value = explorer.chunk_slider.max
    explorer.size_slider.value = 1000
    k = len(explorer.spans())
    assert explorer.chunk_slider.max == k and explorer.chunk_slider.value == k
    assert explorer.step_label.value.startswith(f"<b>Chunk {k} of {k}</b>")


def test_empty_text_has_no_chunks_to_step():
    e = boundaries_explorer("", size=40)
    assert e.step_label.value == "<b>No chunks</b>: the text is empty."
    assert e.chunk_slider.disabled and e.chunk_view.value == ""


def test_chunk_view_shows_line_breaks_and_escapes_html():
    e = boundaries_explorer("<b>One.</b>\n\nTwo & three.", size=20)
    assert "⏎⏎" in e.chunk_view.value and "&lt;b&gt;" in e.chunk_view.value


def test_x_ticks_are_integers(explorer):
    explorer.size_slider.value = 150
    assert all(float(t).is_integer() for t in explorer.figure.axes[0].get_xticks())


# --- the comparison plot (chunklib.widgets.compare_plot) ---

def test_compare_states_chunklibs_numbers_in_picture_table_and_alt_text():
    from chunklib.widgets.compare_plot import compare

    c = compare(size=300)
    assert c.stats == compare_strategies(load_passage(), 300)
    assert c.png[:4] == b"\x89PNG"
    f, r = c.stats["fixed"], c.stats["recursive"]
    rows = c.table().rows
    assert rows[0] == ("fixed windows", str(f["chunks"]), f"{f['sentences_cut']} of 26",
                       f"{f['boundary_quality']:.2f}", f"{f['min']} / {f['median']:g} / {f['max']}")
    assert rows[1][0] == "recursive split + merge" and rows[1][1] == str(r["chunks"])
    page = c._repr_html_()
    assert "<img src='data:image/png;base64," in page and "alt='Chunks of at most 300" in page
    assert f"fixed windows give {f['chunks']} chunks and cut {f['sentences_cut']} of 26" in page
    assert str(c).splitlines()[0] == "Chunk size 300 characters"


def test_comparison_figure_marks_every_cut_and_reads_without_colour():
    from chunklib.course.comparison import strategy_spans
    from chunklib.widgets.compare_plot import comparison_figure

    text = load_passage()
    fig = comparison_figure(text, 200)
    top, bottom = fig.axes
    spans, sentences = strategy_spans(text, 200), split_sentences(text)
    cuts = {name: sum(any(s < e < t for s, t in sentences) for _, e in chunks[:-1])
            for name, chunks in spans.items()}
    marked = [len(line.get_xdata()) for line in top.lines]
    assert marked == [cuts["fixed"], cuts["recursive"]]
    assert len(top.collections) == len(spans["fixed"]) + len(spans["recursive"]) + 1
    assert all(bar.get_hatch() for bar in top.collections[:-1])
    assert [t.get_text() for t in top.get_yticklabels()] == ["fixed windows",
                                                           "recursive split + merge"]
    assert top.get_xlabel() and bottom.get_xlabel().startswith("chunk length in characters")
    for ax in (top, bottom):
        assert all(float(t).is_integer() for t in ax.get_xticks())


def test_compare_sizes_table_and_text():
    from chunklib.course.comparison import Table, compare_sizes

    table = compare_sizes(sizes=[100, 400])
    assert [row[:3] for row in table.rows] == [
        ("100", "fixed windows", str(compare_strategies(load_passage(), 100)["fixed"]["chunks"])),
        ("100", "recursive split + merge",
         str(compare_strategies(load_passage(), 100)["recursive"]["chunks"])),
        ("400", "fixed windows", str(compare_strategies(load_passage(), 400)["fixed"]["chunks"])),
        ("400", "recursive split + merge",
         str(compare_strategies(load_passage(), 400)["recursive"]["chunks"])),
    ]
    assert "<table>" in table._repr_html_() and "&lt;" in Table(("a",), [("<",)])._repr_html_()
    assert str(Table(("a", "bb"), [("ccc", "d")])) == "a    bb\nccc  d"


@pytest.mark.parametrize("text", ["", "no separators" * 30, "Same. " * 40])
def test_compare_renders_any_text(text):
    from chunklib.widgets.compare_plot import compare

    c = compare(text, 25)
    assert c.png[:4] == b"\x89PNG" and c.text_length == len(text)


def test_compare_draws_no_pyplot_figures_and_checks_arguments():
    from chunklib.course.comparison import compare_sizes
    from chunklib.widgets.compare_plot import compare

    before = plt.get_fignums()
    compare(size=150)
    assert plt.get_fignums() == before
    with pytest.raises(ValueError, match="size"):
        compare(size=0)
    with pytest.raises(TypeError, match="size"):
        compare_sizes(sizes=["300"])
    with pytest.raises(TypeError, match="text"):
        compare(b"bytes", 10)
