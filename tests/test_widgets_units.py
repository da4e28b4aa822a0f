"""The lesson-1 units explorer's own numbers and views, driven headless; what every explorer
does (controls redraw, path independence, stepper, autograde note) is checked in
tests/test_explorers.py."""

import html
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chunklib.budgets import spans_of
from chunklib.course.passages import sample_passage
from chunklib.course.units import PART1, TRIES
from chunklib.sentences import split_sentences
from chunklib.units import cut_sentences
from chunklib.widgets.rows import shown_rows
from chunklib.widgets.units import (
    MAX_ROWS,
    UnitsExplorer,
    chunk_view_html,
    cut_boundaries,
    text_view_html,
    units_explorer,
)
from chunklib.windows import unit_windows


def bars_hatched(ax, hatch: str) -> int:
    """How many bars the plot draws with ``hatch`` (one compound patch per style)."""
    return sum(len(p.get_path().vertices) // 5 for p in ax.patches if p.get_hatch() == hatch)


def plain(view: str) -> str:
    """The text view without marks and tags: must be the source text."""
    return html.unescape(re.sub(r"<[^>]*>", "", re.sub(r"<span class='sep'[^>]*>[^<]*</span>", "",
                                                         view)))


def test_starts_on_no_part1_example():
    # the lesson's "Things to try" item 2 starts here; a Part 1 example would show its answer
    e = units_explorer()
    assert (e.kind_picker.value, e.size_slider.value) == TRIES["words"]
    assert TRIES["words"] not in PART1.values()
    assert ("chunks K = ceil(N / C)", "ceil(1204 / 160) = 8") in e.summary_rows()


def test_initial_state_words():
    e = units_explorer(size=200)
    assert e.step_label.value == ("<b>Chunk 1 of 7</b>: word-like units 0 to 200, "
                                  "characters 0 to 967; all-MiniLM-L6-v2 reads all of it")
    assert e.summary_rows() == [
        ("units N", "1204 word-like units (5757 characters)"),
        ("chunk size C", "200 word-like units"),
        ("chunks K = ceil(N / C)", "ceil(1204 / 200) = 7"),
        ("last chunk", "N − (K − 1)·C = 1204 − 6·200 = 4 word-like units"),
        ("sentences cut", "6 of 70 sentences and headings (no chunk holds them whole); "
                          "chunk ends marked ×: 6"),
        ("all-MiniLM-L6-v2", "0 of 7 chunks are longer than the 254 word pieces it reads "
                             "(largest: 214); it reads every chunk whole"),
    ]
    assert "ceil(1204 / 200) = 7" in e.summary.value and "Plot: 7 chunks" in e.summary.value
    assert "reads every chunk whole" in e.summary.value
    assert e.image.value[:4] == b"\x89PNG"
    assert plain(e.text_view.value) == sample_passage()
    assert "⊘" not in e.text_view.value                    # nothing is truncated at 200 words
    chunk = plain(e.chunk_text.value)                      # the chunk, then 60 characters after
    assert chunk == sample_passage()[:967 + 60] + "…"


@pytest.mark.parametrize("kind, size, k, last, cut, minilm, truncated", [
    ("characters", 1000, 6, "5757 − 5·1000 = 757 characters", "5 of 70",
     "0 of 6 chunks are longer than the 254 word pieces it reads (largest: 218)", 0),
    ("characters", 1500, 4, "5757 − 3·1500 = 1257 characters", "3 of 70",
     "4 of 4 chunks are longer than the 254 word pieces it reads (largest: 326)", 4),
    ("cl100k_tokens", 200, 7, "1229 − 6·200 = 29 cl100k tokens", "6 of 70",
     "0 of 7 chunks are longer than the 254 word pieces it reads (largest: 208)", 0),
    ("cl100k_tokens", 256, 5, "1229 − 4·256 = 205 cl100k tokens", "4 of 70",
     "4 of 5 chunks are longer than the 254 word pieces it reads (largest: 261)", 4),
    ("cl100k_tokens", 1000, 2, "1229 − 1·1000 = 229 cl100k tokens", "1 of 70",
     "1 of 2 chunks are longer than the 254 word pieces it reads (largest: 1013)", 1),
    ("minilm_wordpieces", 250, 5, "1245 − 4·250 = 245 MiniLM word pieces", "4 of 70",
     "0 of 5 chunks are longer than the 254 word pieces it reads (largest: 250)", 0),
])
def test_controls_update_every_view(kind, size, k, last, cut, minilm, truncated):
    e = units_explorer()
    before = e.text_view.value
    e.kind_picker.value = kind
    e.size_slider.value = size
    assert e.text_view.value != before
    s = e.summary.value
    for fact in (f"= {k}<", last, cut, minilm):
        assert fact in s, fact
    view = e.text_view.value
    assert view.count("class='sep'") == k - 1 + truncated     # boundaries, then ⊘ marks
    assert view.count("⊘") == truncated
    assert view.count("(current)") == 1
    assert plain(view) == sample_passage()
    marks = [line for line in e.figure.axes[0].lines if line.get_marker() == "X"]
    crossed = cut_boundaries(e.computed.char_windows, e.sentences)
    assert (len(marks[0].get_xdata()) if marks else 0) == len(crossed) == view.count("✂")
    assert len(crossed) >= int(cut.split()[0])          # a cut sentence crosses a boundary


def test_the_stepper_says_where_a_chunk_is_and_what_the_model_reads():
    e = units_explorer(kind="cl100k_tokens", size=200)
    e.chunk_slider.value = 7
    assert e.step_label.value == ("<b>Chunk 7 of 7</b>: cl100k tokens 1200 to 1229, "
                                  "characters 5639 to 5757; all-MiniLM-L6-v2 reads all of it")
    assert "title='chunk 7 (current)'" in e.text_view.value
    e.size_slider.value = 1000
    e.chunk_slider.value = 1
    assert e.step_label.value == ("<b>Chunk 1 of 2</b>: cl100k tokens 0 to 1000, characters "
                                  "0 to 4721; all-MiniLM-L6-v2 reads only characters 0 to 1184 "
                                  "(254 of its 1013 word pieces)")


def test_cut_boundaries_are_marked_in_text_and_plot():
    e = units_explorer(kind="words", size=30)
    view = e.text_view.value
    assert view.count("✂") == 38 and view.count("¦") == 2
    assert ">✂2</span>" in view and ">¦5</span>" in view   # chunk numbers beside the marks
    assert "36 of 70" in e.summary.value
    marks = [line for line in e.figure.axes[0].lines if line.get_marker() == "X"]
    assert len(marks[0].get_xdata()) == 38


def test_split_characters_are_shown_once():
    # cl100k cuts 👍 into three tokens, so one-token chunks share that character
    e = units_explorer(text="👍 ok 👍", kind="cl100k_tokens", size=1)
    assert e.computed.char_windows == [(0, 1), (0, 1), (0, 1), (1, 4), (4, 6), (5, 6)]
    assert plain(e.text_view.value) == "👍 ok 👍"
    assert e.text_view.value.count("class='sep'") == 5


@given(st.text(max_size=40), st.sampled_from(["characters", "words", "cl100k_tokens"]),
       st.integers(1, 12), st.data())
def test_text_view_always_reproduces_the_text(text, kind, size, data):
    chunks = unit_windows(spans_of(text, kind), size, 0)
    sentences = split_sentences(text)
    cut = cut_boundaries(chunks, sentences)
    current = data.draw(st.integers(0, len(chunks) - 1)) if chunks else None
    view = text_view_html(text, chunks, current, cut)
    assert plain(view) == text
    assert view.count("class='sep'") == max(len(chunks) - 1, 0)
    if chunks:
        assert text[slice(*chunks[current])] in plain(chunk_view_html(text, chunks, current, cut))
    assert view.count("✂") == len(cut) and cut <= set(range(1, len(chunks)))
    if cut_sentences(sentences, chunks) == 0:
        assert not cut                          # no sentence cut, no boundary inside one


def test_the_explorer_takes_any_text():
    e = UnitsExplorer("One. Two three! Four", "words", 2)
    assert e.computed.windows == [(0, 2), (2, 4), (4, 6)]     # One . | Two three | ! Four
    assert e.computed.char_windows == [(0, 4), (5, 14), (14, 20)]
    assert plain(e.text_view.value) == "One. Two three! Four"
    assert "1 of 3 sentences and headings (no chunk" in e.summary.value  # "Two three!" is cut
    assert "an × at each chunk end inside a sentence: 1 in all" in e.summary.value
    assert e.text_view.value.count("✂") == 1 and e.text_view.value.count("¦") == 1
    assert plain(e.chunk_text.value) == "One. Two three! Four"


def test_empty_text():
    e = units_explorer(text="", kind="words", size=200)
    assert "No chunks" in e.step_label.value and "ceil(0 / 200) = 0" in e.summary.value
    assert e.chunk_slider.disabled and e.chunk_text.value == ""
    assert e.image.value[:4] == b"\x89PNG"


@pytest.mark.parametrize("args, error", [
    (dict(kind="bytes"), ValueError), (dict(size=0), ValueError), (dict(text=5), TypeError),
])
@pytest.mark.parametrize("autograde", [False, True])
def test_bad_arguments_are_refused(args, error, autograde, monkeypatch):
    if autograde:  # the placeholder note still refuses them
        monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")
    with pytest.raises(error, match=next(iter(args))):
        units_explorer(**args)


def test_plot_has_labels_integer_ticks_and_a_lesson_1_legend():
    e = units_explorer(kind="cl100k_tokens", size=200)
    ax = e.figure.axes[0]
    assert all(float(t).is_integer() for t in ax.get_xticks())
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels == ["chunks 1, 3, …", "chunks 2, 4, …", "not read by all-MiniLM-L6-v2",
                      "current chunk", "ends inside a sentence"]
    assert [t.get_text() for t in ax.texts] == [      # axis labels, lengths beside the bars
        "position in the passage (cl100k tokens)", "chunk"] + ["200"] * 6 + ["29"]


def test_helpers():
    assert cut_boundaries([(0, 5), (5, 9), (9, 14)], [(0, 7), (9, 14)]) == {1}
    assert cut_boundaries([], [(0, 3)]) == set()
    view = text_view_html("a b", [(0, 1), (2, 3)], 0, set())
    assert "¦2" in view and "chunk 1 (current)" in view and plain(view) == "a b"
    assert "&lt;b&gt;" in text_view_html("<b>", [(0, 3)], None, set())   # text is escaped
    # the model stops reading chunk 1 at character 2: a ⊘, then the striped rest
    view = text_view_html("abcd ef", [(0, 4), (5, 7)], None, set(), read_ends=[2, 7])
    assert plain(view) == "abcd ef" and view.count("⊘") == 1
    assert re.search(r"⊘</span><span title='not read by all-MiniLM-L6-v2'[^>]*>cd</span>", view)
    panel = chunk_view_html("ab cd ef", [(0, 2), (3, 5), (6, 8)], 1, {2}, context=2)
    assert plain(panel) == "…b cd e…" and ">¦2</span>" in panel and ">✂3</span>" in panel
    assert plain(chunk_view_html("ab cd", [(0, 2), (3, 5)], 0, set())) == "ab cd"   # no elision


def test_a_character_budget_overflows_the_model():
    e = units_explorer(kind="characters", size=1500)
    assert e.computed.reads == [(326, 1184), (322, 2688), (323, 4177), (276, 5669)]
    assert e.computed.unread == [1184, 2688, 4177, 5669]  # characters: units are offsets
    assert bars_hatched(e.figure.axes[0], "...") == 4   # the dotted grey tails
    e.kind_picker.value = "words"
    e.size_slider.value = 300
    assert [pieces for pieces, _ in e.computed.reads] == [311, 308, 314, 308, 4]
    # the first unit the model does not read whole: word 243 of chunk 1 starts at character 1184
    assert e.computed.unread == [243, 546, 840, 1149, 1204]
    assert e.units["words"][243][0] == 1184
    assert bars_hatched(e.figure.axes[0], "...") == 4   # the dotted grey tails


def test_hundreds_of_chunks_are_drawn_as_rows_a_person_can_see():
    e = units_explorer(kind="characters", size=10)
    k = len(e.computed.windows)
    assert k == 576 > MAX_ROWS
    e.chunk_slider.value = 300
    drawn = shown_rows(k, 299, MAX_ROWS)
    assert len(drawn) == MAX_ROWS + 1 and 299 in drawn and drawn[0] == 0 and drawn[-1] == k - 1
    assert f"{len(drawn)} of the {k} chunks, evenly spaced, and the current one" in (
        e.summary.value)
    assert e.figure.axes[0].get_ylim() == (len(drawn) - 0.5, -0.5)
