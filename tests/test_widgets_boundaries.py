"""The lesson-2 boundaries explorer's own numbers, plot and text view, and the comparison plot.
What every explorer keeps (controls change picture and summary, path independence, the
stepper, labels, the autograde note) is checked in tests/test_explorers.py."""

import matplotlib.pyplot as plt
import pytest

from chunklib.boundaries import span_stats
from chunklib.course.comparison import compare_strategies
from chunklib.course.passages import load_passage
from chunklib.sentences import paragraph_spans, split_sentences
from chunklib.splitter import recursive_split, split_text
from chunklib.widgets.boundaries import BoundariesExplorer, boundaries_explorer, fold_rows
from chunklib.widgets.rows import MAX_ROWS


@pytest.fixture
def explorer():
    return boundaries_explorer()


def rows(explorer):
    return dict(explorer.summary_rows())


def cuts_by_brute_force(spans, sentences):
    """Chunks (but the last) whose end falls strictly inside a sentence."""
    return [i for i, (_, e) in enumerate(spans[:-1]) if any(s < e < t for s, t in sentences)]


def test_passage_is_a_real_multi_paragraph_text():
    text = load_passage()
    assert 350 <= len(text.split()) <= 450
    assert len(paragraph_spans(text)) >= 5
    assert "Dr. Osei" in text  # shows the missing abbreviation list


@pytest.mark.parametrize("size", [20, 40, 150, 300, 600, 1000])
def test_summary_states_chunklibs_numbers(size):
    e = BoundariesExplorer(size=size)
    text = load_passage()
    spans = split_text(text, size)
    stats = span_stats(text, spans)
    assert e.computed.spans == spans
    assert rows(e)["chunks"] == str(stats["chunks"])
    assert rows(e)["sentences cut"] == f"{stats['sentences_cut']} of {stats['sentences']}"
    clean = len(spans) - 1 - len(cuts_by_brute_force(spans, split_sentences(text)))
    assert rows(e)["boundary quality"].startswith(
        f"{stats['boundary_quality']:.2f} ({clean} of {len(spans) - 1} chunk ends")
    assert f"Chunk size {size}, merged" in e.summary.value
    assert ("plot" in rows(e)) == (len(spans) > MAX_ROWS)


def test_separator_boxes_and_merge_choose_the_split(explorer):
    explorer.separator_boxes[". "].value = False
    assert explorer.computed.spans == split_text(explorer.text, 300,
                                                 separators=("\n\n", "\n", " "))
    explorer.separator_boxes[". "].value = True
    explorer.merge_box.value = False
    raw = recursive_split(explorer.text, 300)
    assert explorer.computed.spans == raw and rows(explorer)["chunks"] == str(len(raw))
    assert "not merged" in explorer.summary.value


def test_all_separators_off_gives_fixed_windows():
    e = BoundariesExplorer(blank_line=False, line_break=False, full_stop=False, space=False)
    fixed = compare_strategies(e.text, 300)["fixed"]
    summary = rows(e)
    assert summary["separators"] == "none: hard cuts only"
    assert summary["chunks"] == str(fixed["chunks"])
    assert summary["boundary quality"].startswith(f"{fixed['boundary_quality']:.2f} ")
    assert summary["chunk length (characters)"] == (
        f"min {fixed['min']}, median {fixed['median']:g}, max {fixed['max']}")


@pytest.mark.parametrize(("size", "merge"), [(200, True), (20, False)])
def test_plot_draws_every_chunk_sentence_end_and_cut(size, merge):
    e = BoundariesExplorer(size=size, merge=merge)
    ax = e.figure.axes[0]
    spans, sentences = e.computed.spans, split_sentences(e.text)
    bars = [p for p in ax.patches if p.get_hatch()]  # one hatched patch per colour
    assert sum(len(p.get_path().vertices) // 5 for p in bars) == len(spans)  # a bar per chunk
    assert len(ax.collections) == 1  # the sentence lines
    assert len(ax.collections[0].get_segments()) == len(sentences)
    cut = cuts_by_brute_force(spans, sentences)
    assert e.computed.cut == cut and sum(len(line.get_xdata()) for line in ax.lines) == len(cut)
    assert ax.get_ylim()[0] == min(len(spans), MAX_ROWS) - 0.5
    assert ax.get_xlabel() == "character offset in the text" and ax.get_ylabel() == "chunk"
    for ticks in (ax.get_xticks(), ax.get_yticks()):
        assert all(float(t).is_integer() for t in ticks)

    e.separator_boxes[". "].value = False  # the status row under the plot says what is on
    row = sorted(ax.texts, key=lambda t: t.get_window_extent().x0)  # left to right
    assert [t.get_text() for t in row[1:]] == [
        "■", "blank line", "■", "line break", "□", "full stop + space", "■", "space",
        "■" if merge else "□", "merge"]  # each box right before its name
    assert all(row[i].get_window_extent().x1 <= row[i + 1].get_window_extent().x0
               for i in range(len(row) - 1))  # nothing overlaps
    width = e.figure.bbox.width
    assert all(0 < t.get_window_extent().x0 < t.get_window_extent().x1 < width
               for t in ax.texts)  # the whole row fits in the picture


def test_fold_rows_keeps_neighbours_in_order_on_at_most_max_rows():
    assert fold_rows(0) == [] and fold_rows(MAX_ROWS) == list(range(MAX_ROWS))
    for k in (MAX_ROWS + 1, 110, 401):
        rows_of = fold_rows(k)
        assert sorted(rows_of) == rows_of and set(rows_of) == set(range(MAX_ROWS))


@pytest.mark.parametrize("text", ["", "   ", "no separators here at all" * 20, "日本語。" * 50,
                                  "A.\r\n\r\nB.\r\n" * 30])
def test_any_text_renders(text):
    e = boundaries_explorer(text, size=40)
    assert e.image.value[:4] == b"\x89PNG"
    assert rows(e)["chunks"] == str(len(split_text(text, 40)))


def test_empty_text_has_no_chunks_to_step():
    e = boundaries_explorer("", size=40)
    assert e.step_label.value == "<b>No chunks</b>: the text is empty."
    assert e.chunk_slider.disabled and e.chunk_view.value == ""


@pytest.mark.parametrize("autograde", [False, True])
@pytest.mark.parametrize(
    ("kwargs", "error", "name"),
    [({"text": 3}, TypeError, "text"), ({"text": b"bytes"}, TypeError, "text"),
     ({"size": 0}, ValueError, "size"), ({"size": "300"}, TypeError, "size"),
     ({"merge": 1}, TypeError, "merge"), ({"tab": False}, TypeError, "tab")],
)
def test_bad_arguments_name_themselves(kwargs, error, name, autograde, monkeypatch):
    if autograde:
        monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")
    with pytest.raises(error, match=name):
        boundaries_explorer(**kwargs)


def test_moves_render_the_frame_once_and_draw_no_pyplot_figures(explorer):
    before = plt.get_fignums()
    for size in (310, 300, 20, 1000):
        explorer.size_slider.value = size
    explorer.separator_boxes[" "].value = False
    explorer.merge_box.value = False
    assert explorer.layers.frame_renders == 1  # the frame depends on the text alone
    assert plt.get_fignums() == before


# --- the chunk's text below the plot ---------------------------------------------------------

def test_chunk_view_shows_the_chunk_and_names_its_end_in_words(explorer):
    spans, k = explorer.computed.spans, explorer.count(explorer.computed)
    start, end = spans[0]
    assert explorer.step_label.value == (f"<b>Chunk 1 of {k}</b>: characters {start} to {end} "
                                         f"({end - start} characters)")
    assert "The seed library on Harbour Street" in explorer.chunk_view.value
    cuts = cuts_by_brute_force(spans, explorer.sentences)
    clean = [i for i in range(k - 1) if i not in cuts]
    assert cuts and clean  # the default settings show both kinds
    explorer.chunk_slider.value = cuts[0] + 1
    assert "inside a sentence: this end cuts it" in explorer.chunk_view.value
    explorer.chunk_slider.value = clean[0] + 1
    assert "at a sentence boundary" in explorer.chunk_view.value
    explorer.chunk_slider.value = k
    assert "the end of the text" in explorer.chunk_view.value


def test_chunk_view_shows_line_breaks_and_escapes_html():
    e = boundaries_explorer("<b>One.</b>\n\nTwo & three.", size=20)
    assert "⏎⏎" in e.chunk_view.value and "&lt;b&gt;" in e.chunk_view.value


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
    marked = [len(line.get_xdata()) for line in top.lines]
    assert marked == [len(cuts_by_brute_force(spans[name], sentences))
                      for name in ("fixed", "recursive")]
    bars = [p for p in top.patches if p.get_hatch()]  # hatched: reads without colour
    assert sum(len(p.get_path().vertices) // 5 for p in bars) == sum(map(len, spans.values()))
    assert len(top.collections[0].get_segments()) == len(sentences)
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
