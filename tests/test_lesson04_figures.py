"""Every number lesson 4 states in prose or in a quiz explanation is computed here with chunklib
and found in the text; the Part 1 data, prompts and solutions agree with the self-checks."""

import ast
import dataclasses

import nbformat
import pytest

from chunklib.course import structure as cs
from chunklib.elements import parse_elements
from chunklib.fixture import load_source
from chunklib.intervals import total_length, union_length
from chunklib.structure import (
    DEFAULT_OVERLAP,
    DEFAULT_SIZE,
    duplication,
    structure_chunks,
    window_chunks,
)
from chunklib.windows import stride
from tests.nbgrading import lesson_notebook

NB = nbformat.read(lesson_notebook("04-structure"), as_version=4)


def flat(text: str) -> str:
    """Whitespace runs as single spaces, so a claim may wrap anywhere in the Markdown."""
    return " ".join(text.split())


PROSE = flat("\n".join(c.source for c in NB.cells if c.cell_type == "markdown"))
QUIZ = flat("\n".join(f"{text} {why}" for q in cs.QUIZ for text, why in q.options.values()))

GUIDE = load_source("deployment-guide")
N = len(GUIDE.text)
ELEMENTS = parse_elements(GUIDE.text)
STRUCT = structure_chunks(GUIDE)
WINDOWS = window_chunks(GUIDE)
S_SPANS = [(c.start, c.end) for c in STRUCT]
W_SPANS = [(c.start, c.end) for c in WINDOWS]
S_DUP, W_DUP = duplication(STRUCT, N), duplication(WINDOWS, N)
OVERSIZED = [e.end - e.start for e in ELEMENTS
             if e.kind not in ("heading", "table") and e.end - e.start > DEFAULT_SIZE]
MIXED = sum(w.acl_parts is not None for w in WINDOWS)  # windows that carry two ACLs
F = cs.figures()


def repeated(spans):
    return total_length(spans) - union_length(spans)


def r4(x):
    return f"{x:.4f}"


CLAIMS = [  # (text the lesson shows, is it true by chunklib)
    ("Budgets and overlaps are in characters: 1000 and 100",
     (DEFAULT_SIZE, DEFAULT_OVERLAP) == (1000, 100)),
    ("The guide is 21,046 characters long", N == 21046),
    ("only one of its elements is longer than the budget of 1000 characters: a paragraph of "
     "1596 characters", OVERSIZED == [1596]),
    ("`text` is 20 characters of the source", len(STRUCT[10].text) == 20),
    ("Step to chunk 11, the row `production | 4 | SRE`", STRUCT[10].text == "production | 4 | SRE"),
    ("Step to chunks 25 and 26, the two pieces of the long paragraph. The 100 characters they "
     "share are the only repeated characters in the structure-aware lane",
     STRUCT[24].element_id == STRUCT[25].element_id and STRUCT[24].end - STRUCT[25].start == 100
     and repeated(S_SPANS) == 100),
    (f"{r4(S_DUP)} for the structure-aware chunks, {r4(W_DUP)} for the fixed windows",
     (r4(S_DUP), r4(W_DUP)) == ("0.0048", "0.1093")),
    ("the ratios rise to 0.0570 and 0.3279",
     (r4(duplication(structure_chunks(GUIDE, 400, 100), N)),
      r4(duplication(window_chunks(GUIDE, 400, 100), N))) == ("0.0570", "0.3279")),
    (f"{F['mixed_windows']} of the {F['windows']} windows run from a section for all employees "
     "into one for SRE only", F["mixed_windows"] == MIXED and F["windows"] == len(WINDOWS)),
    (f"windows cut at every change of ACL: {F['acl_cut_windows']} windows, each with one ACL",
     F["acl_cut_mixed"] == 0),
    (f"{F['mixed_windows']} of the guide's {F['windows']} windows are like that",
     F["mixed_windows"] == MIXED),
    ("100 / 1000 = 10 %", DEFAULT_OVERLAP / DEFAULT_SIZE == 0.10),
    ("store 0.0048 of the guide twice (one hard split, 100 characters)",
     r4(S_DUP) == "0.0048" and repeated(S_SPANS) == 100 and len(OVERSIZED) == 1),
    ("0.1093 (23 joins of 100 characters, 2300 in all)",
     r4(W_DUP) == "0.1093" and len(WINDOWS) - 1 == 23 and repeated(W_SPANS) == 2300),
    ("a window repeats 100 characters for every 900 new ones",
     stride(1000, 100) == 900 and all(b[0] - a[0] == 900 for a, b in zip(W_SPANS, W_SPANS[1:]))),
    ("their lengths add up to 20,164 characters, 882 fewer than the guide's 21,046",
     total_length(S_SPANS) == 20164 and N - 20164 == 882),
    ("that formula reports D = −882 although 100 characters are stored twice",
     total_length(S_SPANS) - N == -882 and repeated(S_SPANS) == 100),
    ("step to its last chunk: its section has no ACL rule and the runbook no default, so its "
     "ACL is *missing*", structure_chunks(load_source("failover-runbook"))[-1].acl is None),
    # the access rule for mixed windows, and windows cut at ACL changes
    (f"the window {F['mixed_first_span']} holds the end of a section every employee may read",
     F["mixed_first_span"] == next((w.start, w.end) for w in WINDOWS if w.acl_parts)),
    (f"`acl_parts = {F['mixed_parts']}`", F["mixed_parts"] == (("employees",), ("sre",))),
    ("a member of both `employees` and `sre` may read the window, a member of only one of them "
     "may not", F["mixed_readable"] == {"employees": False, "sre": False,
                                        "employees+sre": True}),
    (f"The guide falls into {F['acl_runs']} runs of neighbouring sections with one ACL",
     F["acl_runs"] > 1),
    (f"give {F['acl_cut_windows']} windows instead of {F['windows']}, each with one ACL, and a "
     f"duplication ratio of {F['acl_cut_duplication']:.4f} instead of "
     f"{F['window_duplication']:.4f}", F["acl_cut_duplication"] < F["window_duplication"]),
    # text is sliced by span; the budget is counted on the retrieval text, in word pieces
    (f"the two agree for all {F['table_rows']} rows of the table",
     F["table_rows_slice_is_join"] == F["table_rows"] == 4),
    (f"its row span holds `{F['tight_row_slice']}`, while the joined cells read "
     f"`{F['tight_row_join']}`", F["tight_row_slice"] != F["tight_row_join"]),
    (f"A table written `{cs.TIGHT_TABLE.splitlines()[-1]}` has the same cells", True),
    (f"makes {F['row_text_pieces']} word pieces of this row's `text` and "
     f"{F['row_retrieval_pieces']} of its `retrieval_text`",
     F["row_retrieval_pieces"] > F["row_text_pieces"]),
    (f"among the guide's {F['structure_chunks']} structure-aware chunks (chunk "
     f"{F['longest_number']}) is {F['longest_retrieval_pieces']} word pieces, of which its "
     f"`text` alone makes {F['longest_text_pieces']}",
     F["longest_text_pieces"] < F["longest_retrieval_pieces"]),
    (f"fits the {F['minilm_positions']} positions the model reads, so nothing is cut off",
     F["retrieval_over_positions"] == 0
     and F["longest_retrieval_pieces"] + 2 <= F["minilm_positions"]),
    (f"inputs of at most {F['minilm_trained_positions']} positions, and "
     f"{F['retrieval_over_trained']} of the {F['structure_chunks']} retrieval texts are longer",
     0 < F["retrieval_over_trained"] < F["structure_chunks"]),
    ("it applies to what the model embeds: the `retrieval_text`, heading path and table header "
     "included", True),
    ("a paragraph of 1596 characters about change windows and freezes",
     STRUCT[24].heading_path[-1] == "Change windows and freezes"),
]

QUIZ_CLAIMS = [
    ("0.0048 for the structure-aware chunks and 0.1093 for the fixed windows.",
     (r4(S_DUP), r4(W_DUP)) == ("0.0048", "0.1093")),
    ("One paragraph, 1596 characters long, is the only element over budget, so 100 characters "
     "are stored twice", OVERSIZED == [1596] and repeated(S_SPANS) == 100),
    ("The 24 windows repeat 100 characters at each of their 23 joins: 2300",
     len(WINDOWS) == 24 and repeated(W_SPANS) == 2300),
    ("1000 − 100 = 900 new characters", stride(1000, 100) == 900),
    ("the repeated share is close to 100 / 900, above 10 %",
     100 / 900 > 0.10 and abs(W_DUP - 100 / 900) < 0.005),
    (f"Like {MIXED} of the guide's {len(WINDOWS)} windows it mixes two ACLs", True),
]


@pytest.mark.parametrize("text, true", CLAIMS, ids=[c[0][:30] for c in CLAIMS])
def test_prose_claims(text, true):
    assert flat(text) in PROSE and true


@pytest.mark.parametrize("text, true", QUIZ_CLAIMS, ids=[c[0][:30] for c in QUIZ_CLAIMS])
def test_quiz_explanations(text, true):
    assert flat(text) in QUIZ and true


def test_renaming_a_heading_keeps_ids_and_changes_only_the_retrieval_hash():
    # quiz 3 and to do 7: the row's id and text hash stay, its retrieval hash changes
    renamed = dataclasses.replace(GUIDE, text=GUIDE.text.replace(cs.RENAMED_FROM, cs.RENAMED_TO))
    new = structure_chunks(renamed)
    assert [c.chunk_id for c in new] == [c.chunk_id for c in STRUCT]
    assert cs.hash_change_after_rename() == "retrieval"
    assert f"heading `{cs.RENAMED_FROM.strip()}` is renamed to `{cs.RENAMED_TO.strip()}`" in PROSE


def test_the_quiz_window_straddles_the_employees_sre_boundary():
    # quiz 4: a window runs from 'Before you begin' (employees) into 'Environment Matrix' (sre)
    straddling = []
    for w in WINDOWS:
        paths = {e.heading_path[:2] for e in ELEMENTS if e.start < w.end and e.end > w.start}
        if {("Deployment Guide", "Before you begin"),
                ("Deployment Guide", "Environment Matrix")} <= paths:
            straddling.append(w)
    assert straddling and all(w.acl is None and w.acl_parts == (("employees",), ("sre",))
                              for w in straddling)
    assert GUIDE.acl_for(("Deployment Guide", "Before you begin")) == ("employees",)
    assert GUIDE.acl_for(("Deployment Guide", "Environment Matrix")) == ("sre",)


def test_figures_are_the_numbers_the_tests_recompute():
    assert (F["guide_chars"], F["structure_chunks"], F["windows"]) == (N, len(STRUCT), len(WINDOWS))
    assert F["oversized_chars"] == OVERSIZED[0] and F["oversized_elements"] == len(OVERSIZED)
    assert (F["structure_duplication"], F["window_duplication"]) == (round(S_DUP, 4),
                                                                     round(W_DUP, 4))
    assert F["structure_repeated"] == repeated(S_SPANS) and F["window_repeated"] == repeated(
        W_SPANS)
    assert F["row_text"] == STRUCT[F["row_number"] - 1].text
    assert F["split_numbers"] == (25, 26) and F["split_shared"] == 100
    assert F["minilm_trained_positions"] == 128 and F["minilm_positions"] == 256


def test_the_acl_cell_shows_both_strategies():
    code = "\n".join(c.source for c in NB.cells if c.cell_type == "code")
    assert "acl_window_chunks(guide)" in code and "readable(to_dict(first), groups)" in code


def test_predict_and_part1_data_are_shown_as_checked():
    assert cs.CHECKS["predict_repeated"].expected() == 100
    md = "\n".join(c.source for c in NB.cells if c.cell_type == "markdown")
    assert f"```markdown\n{cs.OUTLINE.rstrip()}\n```" in md
    assert f"L = {cs.SOURCE_LENGTH} characters" in PROSE
    assert ", ".join(map(str, cs.SPANS)) in PROSE
    assert flat(f"from {cs.SPANS[1][1]} to {cs.SPANS[2][0]}") in PROSE
    assert flat(f"the last {cs.SOURCE_LENGTH - cs.SPANS[-1][1]} (a footer)") in PROSE
    options = cs.citable_options()
    assert f"Text A:\n```text\n{options['A']}\n```" in md
    assert f"Text B:\n```text\n{options['B']}\n```" in md
    # the chunk the contract demo prints is the row the texts come from
    assert cs.production_row() == STRUCT[10]


def _solution(var):
    (cell,) = [c for c in NB.cells if c.metadata.get("nbgrader", {}).get("grade_id") == var]
    line = cell.source.split("### BEGIN SOLUTION\n")[1].split("\n")[0]
    name, value = line.split(" = ", 1)
    assert name == var
    return ast.literal_eval(value)


@pytest.mark.parametrize("var", [k for k in cs.CHECKS if k.startswith("ex_")])
def test_part1_solutions_are_the_self_checks(var):
    want = cs.CHECKS[var].expected()
    got = _solution(var)
    assert type(got) is type(want) and got == want
    (test_cell,) = [c for c in NB.cells
                    if c.metadata.get("nbgrader", {}).get("grade_id") == f"test_{var}"]
    assert repr(want) in test_cell.source  # the hidden literal is the same value


@pytest.mark.parametrize("i, q", list(enumerate(cs.QUIZ, start=1)))
def test_quiz_solutions_are_the_answers(i, q):
    assert _solution(f"q{i}") == q.answer


def test_quiz_letters_vary_and_every_option_is_explained():
    assert len(cs.QUIZ) >= 4 and len({q.answer for q in cs.QUIZ}) >= 3
    for q in cs.QUIZ:
        assert q.answer in q.options
        assert all(text and why for text, why in q.options.values())
