"""Every number lesson 3 states in prose is computed here with chunklib and found in the text."""

import itertools
import re

import nbformat
import pytest

from chunklib import windows as w
from chunklib.course import overlap
from chunklib.course.quiz import questions
from chunklib.intervals import duplication_ratio
from tests.nbgrading import lesson_notebook

#: The quiz as the notebook states it (rendered by tools/sync_quiz.py).
RENDERED_QUIZ = questions("overlap")

NB = nbformat.read(lesson_notebook("03-overlap"), as_version=4)
PROSE = " ".join(" ".join(c.source for c in NB.cells if c.cell_type == "markdown").split())
QUIZ = "\n".join(why for q in RENDERED_QUIZ for _t, why in q.options.values())


def whole_in_some_chunk(n, size, o, start, end):
    return any(s <= start and end <= e for s, e in w.window_spans(n, size, o))


def times(n, size, o):
    counts = [0] * n
    for s, e in w.window_spans(n, size, o):
        for u in range(s, e):
            counts[u] += 1
    return counts


def shared(a, b):
    """The units two spans both hold: ``shared((0, 200), (150, 350))`` -> 50."""
    return max(0, min(a[1], b[1]) - max(a[0], b[0]))


def new_per_full_chunk(n=100_000, size=1000, o=200):
    """The new units of each full chunk, not in the one before: the first, then the distinct
    counts of the others (``[1000, 800]``: the first is all new, every later one brings 800)."""
    spans = w.window_spans(n, size, o)
    new = [e - max(s, prev_end) for (s, e), prev_end in zip(spans, [0] + [e for _, e in spans])]
    full = [k for (s, e), k in zip(spans, new) if e - s == size]
    return [full[0], *sorted(set(full[1:]))]


def gaps_with_negative_overlap():
    # the rule the functions refuse, done by hand: starts step by C − O > C
    size, o, n = 200, -50, 1000
    spans = [(s, min(s + size, n)) for s in range(0, n, size - o)]
    covered = {u for s, e in spans for u in range(s, e)}
    return len(covered) < n and all(b[0] > a[1] for a, b in zip(spans, spans[1:]))



CLAIMS = [  # (text the lesson shows, is it true by chunklib)
    ("needs 100 chunks without overlap and 125 with it",
     w.n_chunks(100_000, 1000, 0) == 100 and w.n_chunks(100_000, 1000, 200) == 125),
    ("about 25 % more storage", round(w.duplication_factor(100_000, 1000, 200), 2) == 1.25),
    ("Each full chunk stores 1000 tokens; every one after the first brings 800 new",
     max(w.chunk_lengths(100_000, 1000, 200)) == 1000 and w.stride(1000, 200) == 800
     and w.chunk_lengths(100_000, 1000, 200)[-1] == 800 and new_per_full_chunk() == [1000, 800]),
    ("the second one repeats O of its C units (50 of 200 here); when the evidence sits in that "
     "shared part, it adds nothing for this question",
     shared(*w.window_spans(1000, 200, 50)[:2]) == 50
     and w.window_spans(1000, 200, 50)[1] == (150, 350)),
    ("**Example 1**: N = 1000, C = 200, O = 50", w.n_chunks(1000, 200, 50) == 7),
    ("K = ⌈N / C⌉", all(w.n_chunks(n, 10, 0) == -(-n // 10) for n in range(1, 50))),
    ("K = N − C + 1 = 801 full chunks, and the stored positions are exactly (N − C + 1) · C = "
     "160200, about 0.80 · N · C (N · C would be 200000)",
     w.n_chunks(1000, 200, 199) == 1000 - 200 + 1 == 801
     and set(w.chunk_lengths(1000, 200, 199)) == {200}
     and w.stored_positions(1000, 200, 199) == 801 * 200 == 160_200
     and f"{160_200 / (1000 * 200):.2f}" == "0.80"),
    ("Only the 602 units from position C − 1 = 199 to N − C = 800 are stored C times; the first "
     "199 and the last 199 units sit in fewer chunks",
     [u for u, t in enumerate(times(1000, 200, 199)) if t == 200] == list(range(199, 801))
     and times(1000, 200, 199)[0] == times(1000, 200, 199)[-1] == 1),
    ("for **N = 1000, C = 200, O = 50** the stride is 200 − 50 = 150, and K = 1 + ⌈800 / 150⌉ = "
     "**7** chunks start at 0, 150, …, 900; the last one holds 100 units. The stored positions "
     "are 6 × 200 + 100 = **1300**, 1.3 times the document: overlap costs 30 % more storage here",
     w.chunk_starts(1000, 200, 50) == list(range(0, 901, 150))
     and w.chunk_lengths(1000, 200, 50) == [200] * 6 + [100]
     and w.stored_positions(1000, 200, 50) == 1300
     and w.duplication_factor(1000, 200, 50) == 1.3),
    ("R = (stored positions − N) / N = 0.3 here, the duplication factor minus one",
     duplication_ratio(w.window_spans(1000, 200, 50), 1000)
     == pytest.approx(w.duplication_factor(1000, 200, 50) - 1) == pytest.approx(0.3)),
    ("A negative overlap fails the other way: the stride is longer than C, so the units between "
     "two chunks are in none of them", gaps_with_negative_overlap()),
    ("the last one holds 100 units", w.last_chunk_length(1000, 200, 50) == 100),
    ("Work out K for **C = 400, O = 100** before you set them, then check it in the table. The "
     "last chunk is a full chunk of 400 units that ends exactly at 1000, with nothing left over",
     w.chunk_lengths(1000, 400, 100) == [400] * 3
     and len(range(0, 1000, w.stride(400, 100))) == 4),  # an exact fit the range bug gets wrong
    ("starts at the worked example, **N = 1000, C = 200, O = 50**: 7 chunks. Before you touch it, "
     "predict what happens when you double the overlap: with **O = 100**, and N and C unchanged, "
     "how many chunks are there?",
     overlap.PREDICT_OVERLAP == 2 * overlap.WORKED[2] == 100 and w.n_chunks(1000, 200, 50) == 7),
    ("Check your prediction: keep **N = 1000** and **C = 200**, set **O = 100**, and read **chunks "
     "K** in the table beside the plot. The overlap doubled, but K depends on it only through the "
     "stride, which went from 150 to 100",
     w.stride(200, 50) == 150 and w.stride(200, 100) == 100),
    ("**Example 2**: N = 1000, C = 250, O = 100",  # the explorer's exact fit is not Part 1's
     overlap.EXACT_FIT == (1000, 250, 100) and overlap.TRY_FIT == (1000, 400, 100)),
]


def test_the_part2_introduction_states_the_points_the_cells_give():
    from chunklib.course import POINTS

    points = {c.metadata["nbgrader"]["grade_id"]: c.metadata["nbgrader"].get("points")
              for c in NB.cells if c.metadata.get("nbgrader", {}).get("grade")}
    assert {p for g, p in points.items() if g.endswith("_examples")} == {POINTS["examples"]}
    assert {p for g, p in points.items() if g.endswith("_hidden")} == {POINTS["hidden"]}
    assert (f"a cell of examples ({POINTS['examples']} point) and a cell of hidden tests with edge "
            f"cases ({POINTS['hidden']} points)") in PROSE


def test_the_part2_introduction_counts_each_functions_arguments():
    import ast

    args = {}
    for cell in NB.cells:
        if cell.metadata.get("nbgrader", {}).get("solution") and cell.source.startswith("def "):
            (fn,) = ast.parse(cell.source).body
            args[fn.name] = [a.arg for a in fn.args.args]
    assert args["stride"] == ["size", "overlap"]
    assert args["chunk_with_overlap"] == ["units", "size", "overlap"]
    three = [name for name, a in args.items() if a == ["n", "size", "overlap"]]
    assert len(args) == 7 and len(three) == 5
    assert ("`stride` takes two ints, `chunk_with_overlap` takes a list of units and two ints, "
            "and the other five take three ints") in PROSE



def test_the_prediction_is_not_on_the_page_and_the_explorer_answers_it():
    from chunklib.course.selfcheck import verdict
    from chunklib.widgets.overlap import overlap_explorer

    k = overlap.CHECKS["predict_k"].expected()
    assert k == w.n_chunks(1000, 200, 100) == 9 != 2 * w.n_chunks(1000, 200, 50)
    assert verdict("overlap.predict_k", 9) == (True, "✓ Right.")
    # the likely wrong answers: twice the chunks of O = 50, the range bug's 10, no "1 +", no change
    for wrong in (14, 10, 8, 7):
        right, hint = verdict("overlap.predict_k", wrong)
        assert right is False and not re.search(rf"(?<![\d.,]){k}(?![\d.,])", hint)
    # nothing above the explorer states it: the idea, the predict cell, the explorer's prose
    cells = NB.cells[:[c.id for c in NB.cells].index("c05")]
    assert "predict_k" in cells[-2].source and "prose:predict" in cells[-3].metadata["tags"]
    assert not any(re.search(rf"(?<![\d.,]){k}(?![\d.,])", c.source) for c in cells
                   if c.cell_type == "markdown")
    # the explorer, started as the lesson starts it, shows it once O is set as item 1 says
    e = overlap_explorer(n=1000, size=200, overlap=50)
    e.overlap_slider.value = overlap.PREDICT_OVERLAP
    assert f">{k}<" in e.summary.value


def test_the_worked_example_cell_checks_the_loop_count_with_chunklib():
    code = [c.source for c in NB.cells if c.cell_type == "code"]
    (cell,) = [c for c in code if "1 + ceil(max(0, N - C) / (C - O))" in c]
    assert "window_spans(N, C, O)" in cell and "N, C, O = WORKED" in cell
    assert overlap.WORKED == (1000, 200, 50)


@pytest.mark.parametrize("text", [
    "Overlap is not new evidence", "Chunk-size advice depends on the corpus and the retrieval task",
    "It can also carry the end of the previous topic into the next chunk",
    "it can return the same evidence twice"])
def test_the_seed_pages_points_are_taught(text):
    assert " ".join(text.split()) in " ".join(PROSE.split())


def test_whats_next_points_forward():
    (cell,) = [c.source for c in NB.cells if c.source.startswith("## What's next")]
    assert "Lesson 4" in cell

QUIZ_CLAIMS = [
    ("1000 / 800 = 1.25 times the document: 25 % more than the document itself",
     w.duplication_factor(10**6, 1000, 200) == pytest.approx(1.25, 1e-3)),
    ("the last chunk that starts at or before it",
     all(whole_in_some_chunk(1000, 200, 50, a, a + 51) for a in range(0, 950))),
    ("a 120-token sentence at tokens 149 to 269 is cut by chunk (0, 200), and chunk "
     "(150, 350) starts one token after it",
     not whole_in_some_chunk(1000, 200, 50, 149, 269)
     and w.window_spans(1000, 200, 50)[:2] == [(0, 200), (150, 350)]),
    ("A 150-unit span at 149 to 299 overshoots chunk (0, 200)",
     not whole_in_some_chunk(1000, 200, 50, 149, 299)),
    # question 5: each full chunk after the first, and the first
    ("800 tokens are new and 200 repeat the previous chunk (the first chunk holds 1000 new ones)",
     w.stride(1000, 200) == 800 and new_per_full_chunk() == [1000, 800]),
    ("The chunk starting at 750 already reaches 1000",
     w.window_spans(1000, 250, 100)[-1] == (750, 1000)),
    ("The last start below 1000 is 900", list(range(0, 1000, 150))[-1] == 900),
    # question 6, the seed page's: the stride of C = 200, O = 50 and its two wrong options
    ("The stride is the chunk size minus the overlap, 200 − 50: each chunk starts 150 units "
     "after the previous one, and its first 50 units repeat the last 50 of that one",
     w.stride(200, 50) == 150 and w.window_spans(1000, 200, 50)[:2] == [(0, 200), (150, 350)]),
    ("Chunks 250 apart would leave 50 units between two chunks that no chunk holds",
     {b - (a + 200) for a, b in zip(range(0, 1000, 250), range(250, 1000, 250))} == {50}),
    ("Chunks 50 apart would hold most units 4 times",
     sum(s <= 500 < e for s, e in w.window_spans(1000, 200, 150)) == 4
     and sum(t == 4 for t in times(1000, 200, 150)) > 1000 // 2),
]


@pytest.mark.parametrize("text, true", CLAIMS, ids=[c[0][:30] for c in CLAIMS])
def test_prose_claims(text, true):
    assert text in PROSE and true


@pytest.mark.parametrize("text, true", QUIZ_CLAIMS, ids=[c[0][:30] for c in QUIZ_CLAIMS])
def test_quiz_explanations(text, true):
    assert text in QUIZ and true


def test_only_spans_of_o_plus_one_are_guaranteed():
    # O + 1 = 51 always fits; 52 does not for some start (the lesson's claim)
    assert all(whole_in_some_chunk(1000, 200, 50, a, a + 51) for a in range(950))
    assert not all(whole_in_some_chunk(1000, 200, 50, a, a + 52) for a in range(949))


def test_the_seed_to_do_comments_are_chunklibs():
    """The seed page's To-do prompts restate derived figures of Example 1: pinned here."""
    code = "\n".join(c.source for c in NB.cells if c.cell_type == "code")
    n, size, o = 1000, 200, 50
    s = w.stride(size, o)
    assert f"# To do 1: Chunk size {size} with overlap {o}: what is the stride?" in code
    assert f"K = 1 + ceil(({n} − {size}) / {s}) = ?" in code
    starts = ", ".join(map(str, w.chunk_starts(n, size, o)))
    assert f"# To do 3: The chunks start at {starts}. Tokens in the last chunk?" in code
    assert (f"({w.n_chunks(n, size, o) - 1} full chunks of {size} plus the last)"
            in code)
    n2, size2, o2 = 1000, 250, 100
    assert f"# To do 5: Chunk size {size2} with overlap {o2}: what is the stride?" in code
    assert f"K = 1 + ceil(({n2} − {size2}) / stride) = ?" in code
    assert f"(K − 1 full chunks of {size2} plus the last)" in code
    assert [c.expected() for k, c in overlap.CHECKS.items() if k.startswith("ex")] == [
        s, w.n_chunks(n, size, o), 100, 1300, w.stride(size2, o2), 6, 250, 1500]


def test_the_chapter_reference_states_chunklibs_figures():
    """The chapter reference (chunklib/course/reference.md, the same text in every lesson) is
    typed, not rendered: each figure it states is recomputed here, and a number it states
    without a claim below fails."""
    from chunklib.course import chapter_reference

    text = " ".join(chapter_reference().split())
    starts = w.chunk_starts(1000, 200, 50)
    range_bug = [(s, min(s + 250, 1000)) for s in range(0, 1000, w.stride(250, 100))]
    claims = [
        ("$N = 1000$, $C = 200$, $O = 50$: stride $S = 150$, $K = 1 + \\lceil 800 / 150 \\rceil "
         "= 7$", w.stride(200, 50) == 150 and w.n_chunks(1000, 200, 50) == 7),
        ("starts 0, 150, 300, 450, 600, 750, 900, the last chunk holds 100 units",
         starts == list(range(0, 901, 150)) and w.chunk_lengths(1000, 200, 50)[-1] == 100),
        ("$6 \\times 200 + 100 = 1300$ positions are stored: 1.3 times the document",
         w.stored_positions(1000, 200, 50) == 1300
         and w.duplication_factor(1000, 200, 50) == 1.3),
        ("$N = 1000$, $C = 250$, $O = 100$: stride 150, $K = 1 + \\lceil 750 / 150 \\rceil = 6$, "
         "starts 0 to 750, and the last chunk (750, 1000) fits exactly",
         w.stride(250, 100) == 150 and w.n_chunks(1000, 250, 100) == 6
         and w.window_spans(1000, 250, 100)[-1] == (750, 1000)),
        ("A loop over `range(0, N, S)` adds a seventh chunk (900, 1000) that repeats the end of "
         "the sixth", len(range_bug) == 7 and range_bug[-1] == (900, 1000)
         and range_bug[-2] == (750, 1000)),
        ("full chunks of size 1000 with overlap 200 store 1000 units each, not 1200; every one "
         "after the first brings 800 new", max(w.chunk_lengths(100_000, 1000, 200)) == 1000
         and {e - s for s, e in w.window_spans(100_000, 1000, 200)[:-1]} == {1000}
         and {b - a for a, b in itertools.pairwise(w.chunk_starts(100_000, 1000, 200))} == {800}
         and w.stride(1000, 200) == 800 and new_per_full_chunk() == [1000, 800]),
        ("20 % overlap on 1000-token chunks stores about 25 % more than the document",
         round(w.duplication_factor(100_000, 1000, 200), 2) == 1.25),
    ]
    for claim, true in claims:
        assert claim in text and true, claim
    code_figures = "1000 200 50 900 1000 7 1300 1000 250 100 6 0 200 50"  # its own asserts run
    pinned = set(re.findall(r"\d+(?:\.\d+)?", " ".join(c for c, _ in claims) + code_figures))
    names = re.sub(r"\(lesson \d\)|\$O \+ 1\$|2S", " ", text)  # a lesson, O + 1, 0, S, 2S
    stated = set(re.findall(r"(?<![\w.])\d+(?:\.\d+)?", names))
    assert stated - pinned - {"0", "1"} == set()  # 0 and 1 only in formulas (K − 1, 0 ≤ O)
