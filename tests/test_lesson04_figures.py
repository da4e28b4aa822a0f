"""Every number lesson 4 states in prose or in a quiz explanation is computed here with chunklib
and found in the text; the Part 1 data, prompts and solutions agree with the self-checks."""

import ast
import dataclasses
import types

import nbformat
import pytest

from chunklib.access import readable
from chunklib.course import structure as cs
from chunklib.course.fixture import load_source
from chunklib.course.quiz import questions
from chunklib.elements import parse_elements
from chunklib.index import ChunkIndex
from chunklib.intervals import total_length, union_length
from chunklib.lifecycle import rename_heading, update, validate_revision
from chunklib.records import to_dict
from chunklib.structure import (
    DEFAULT_OVERLAP,
    DEFAULT_SIZE,
    acl_window_chunks,
    duplication,
    structure_chunks,
    window_chunks,
)
from chunklib.tokens import wordpiece_count
from chunklib.windows import stride
from tests.nbgrading import lesson_notebook

#: The quiz as the notebook states it (rendered by tools/sync_quiz.py).
RENDERED_QUIZ = questions("structure")

NB = nbformat.read(lesson_notebook("04-structure"), as_version=4)


def flat(text: str) -> str:
    """Whitespace runs as single spaces, so a claim may wrap anywhere in the Markdown."""
    return " ".join(text.split())


PROSE = flat("\n".join(c.source for c in NB.cells if c.cell_type == "markdown"))
QUIZ = flat("\n".join(f"{text} {why}" for q in RENDERED_QUIZ for text, why in q.options.values()))

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
TABLE = next(e for e in ELEMENTS if e.kind == "table")
#: the guide's characters no structure-aware chunk holds
UNCOVERED = [i for i in range(N) if not any(s <= i < e for s, e in S_SPANS)]
#: the guide's characters on the lines that start with '#', counted without the parser
HEADING_LINE_CHARS = set()
_at = 0
for _line in GUIDE.text.split("\n"):
    if _line.startswith("#"):
        HEADING_LINE_CHARS |= set(range(_at, _at + len(_line)))
    _at += len(_line) + 1
_table_lines = GUIDE.text[TABLE.start:TABLE.end].split("\n")
#: the table's characters that are layout, not cells: the header line, the separator line, the
#: '| ' and ' |' at both ends of every row and the line breaks between the table's lines
TABLE_LAYOUT_CHARS = set(range(TABLE.start, TABLE.start + len(_table_lines[0]) + 1
                               + len(_table_lines[1]) + 1))
for _r in TABLE.rows:
    TABLE_LAYOUT_CHARS |= {_r.cells_span[0] - 2, _r.cells_span[0] - 1,
                           _r.cells_span[1], _r.cells_span[1] + 1}
    if _r.cells_span[1] + 2 < TABLE.end:
        TABLE_LAYOUT_CHARS.add(_r.cells_span[1] + 2)
UNCOVERED_IN_TABLE = {i for i in UNCOVERED if TABLE.start <= i < TABLE.end}
UNCOVERED_ELSEWHERE = [i for i in UNCOVERED if not TABLE.start <= i < TABLE.end
                       and i not in HEADING_LINE_CHARS]
#: the guide's chunks after the rename of quiz 3 and to do 7, the ACL rule left as it was
RENAMED = structure_chunks(dataclasses.replace(
    GUIDE, text=GUIDE.text.replace(cs.RENAMED_FROM, cs.RENAMED_TO)))
F = cs.figures()


def refused_by_update(source):
    """Why lesson 5's ``update`` refuses a revision of the guide (the message of the
    ``validate_revision`` it calls, without source and revision), or None when the revision
    passes that check. It is refused before anything is embedded, so no model is loaded."""
    try:
        validate_revision(source, structure_chunks(source))
    except ValueError as e:
        with pytest.raises(ValueError, match="matches no heading"):
            index = ChunkIndex()
            stub = types.SimpleNamespace(model=index.embedding_model, calls=0)  # never called
            update(index, [source], embedder=stub, publish=False)
        return str(e).split(" refused: ", 1)[1]
    return None


def repeated(spans):
    return total_length(spans) - union_length(spans)


def r4(x):
    return f"{x:.4f}"


TRUTHS = [  # (what the prose says, in words, with the figures it renders: does it hold?)
    ("only one element is longer than the budget, and the predict cell names it",
     len(OVERSIZED) == 1 and F["oversized_chars"] == OVERSIZED[0]
     and cs.CHECKS["predict_repeated"].expected() == F["structure_repeated"]),
    ("the row of chunk row_number is the table row whose text the lesson shows",
     STRUCT[F["row_number"] - 1] == cs.production_row()
     and F["row_chars"] == len(F["row_text"]) == STRUCT[F["row_number"] - 1].end
     - STRUCT[F["row_number"] - 1].start
     and next(e for e in ELEMENTS if e.kind == "table").header.cells[1] == "Replica count"
     and F["row_replicas"] == F["row_text"].split(" | ")[1]),
    ("the two split pieces share the only repeated characters of the structure-aware lane",
     STRUCT[F["split_numbers"][0] - 1].element_id == STRUCT[F["split_numbers"][1] - 1].element_id
     and F["split_shared"] == DEFAULT_OVERLAP == repeated(S_SPANS) == F["structure_repeated"]
     and STRUCT[24].heading_path[-1] == "Change windows and freezes"),
    ("the duplication ratios are chunklib's, and rise at the smaller budget",
     (F["structure_duplication"], F["window_duplication"]) == (S_DUP, W_DUP)
     and F["structure_duplication_small"] > F["structure_duplication"]
     and F["window_duplication_small"] > F["window_duplication"]),
    ("windows of size and overlap repeat overlap characters at each of their joins",
     F["window_repeated"] == F["window_joins"] * DEFAULT_OVERLAP == repeated(W_SPANS)
     and F["window_new_chars"] == stride(DEFAULT_SIZE, DEFAULT_OVERLAP)
     and all(b[0] - a[0] == F["window_new_chars"] for a, b in zip(W_SPANS, W_SPANS[1:]))),
    ("over the whole fixture the picture is the same: structure-aware far below windows",
     F["fixture_structure_duplication"] < F["fixture_window_duplication"] / 10),
    ("overlap / size is not the duplication of either strategy",
     F["naive_percent"] / 100 not in (round(S_DUP, 2), round(W_DUP, 2))),
    ("the seed's formula goes negative on the structure-aware chunks",
     total_length(S_SPANS) - N == -F["structure_shortfall_chars"] < 0 < repeated(S_SPANS)),
    ("the structure-aware chunks leave out every heading character (the lines that start with "
     "'#') and, besides, exactly the table's header and separator lines, the bar and space at "
     "both ends of each row, the line breaks between the table's lines and, outside the table, "
     "line breaks only; their lengths add up to the guide's less the uncovered, plus the repeated",
     F["structure_uncovered_chars"] == N - union_length(S_SPANS) == len(UNCOVERED)
     and F["structure_heading_chars"] == len(HEADING_LINE_CHARS) > 0
     and set(UNCOVERED) >= HEADING_LINE_CHARS
     and UNCOVERED_IN_TABLE == TABLE_LAYOUT_CHARS
     and {GUIDE.text[i] for i in UNCOVERED_ELSEWHERE} == {"\n"}
     and len(UNCOVERED) == len(HEADING_LINE_CHARS) + len(UNCOVERED_IN_TABLE)
     + len(UNCOVERED_ELSEWHERE)
     and F["structure_total_chars"] == sum(e - s for s, e in S_SPANS)
     == N - F["structure_uncovered_chars"] + F["structure_repeated"]
     and F["structure_shortfall_chars"] == N - sum(e - s for s, e in S_SPANS)
     and "(`| ` and ` |`)" in PROSE
     and "line breaks, between elements and between the table's lines" in PROSE),
    ("the longest retrieval text is chunks[longest_ordinal], chunk longest_number in the explorer",
     F["longest_number"] == F["longest_ordinal"] + 1
     and STRUCT[F["longest_ordinal"]].ordinal == F["longest_ordinal"]
     and F["longest_text_pieces"] == wordpiece_count(STRUCT[F["longest_ordinal"]].text)
     and F["longest_retrieval_pieces"] == max(wordpiece_count(c.retrieval_text) for c in STRUCT)),
    ("the Environment Matrix is readable by row_group only; renamed without its rule, every chunk "
     "of the section falls back to the guide's default ACL, renamed_group",
     GUIDE.acl_for(("Deployment Guide", "Environment Matrix")) == (F["row_group"],)
     and GUIDE.default_acl == (F["renamed_group"],) != (F["row_group"],)
     and {c.acl for c in RENAMED if c.heading_path[:2] == ("Deployment Guide", "Environments")}
     == {(F["renamed_group"],)}),
    ("lesson 5's update refuses the rename that leaves the rule behind (validate_revision: the "
     "rule matches no heading) and takes rename_heading's; the fallback group is every employee",
     refused_by_update(dataclasses.replace(
         GUIDE, text=GUIDE.text.replace(cs.RENAMED_FROM, cs.RENAMED_TO)))
     == "ACL rule for 'Deployment Guide > Environment Matrix' matches no heading"
     and refused_by_update(rename_heading(GUIDE, ("Deployment Guide", "Environment Matrix"),
                                          cs.RENAMED_TO.strip().lstrip("# "))) is None
     and F["renamed_group"] == "employees"
     and "lesson 5's `update` refuses a revision whose rule is left behind" in PROSE
     and "every employee could read the rows meant for `sre` only" in PROSE),
    ("the runbook's last chunk has a missing ACL",
     structure_chunks(load_source("failover-runbook"))[-1].acl is None),
    ("mixed windows carry the ACL parts employees and sre, and only a reader of both may read",
     F["mixed_windows"] == MIXED > 0 and F["mixed_parts"] == (("employees",), ("sre",))
     and F["mixed_first_span"] == next((w.start, w.end) for w in WINDOWS if w.acl_parts)
     and [readable(to_dict(next(w for w in WINDOWS if w.acl_parts)), g)
          for g in (["employees"], ["sre"], ["employees", "sre"])] == [False, False, True]),
    ("windows cut at ACL changes: more windows, none mixed, less duplication",
     not any(c.acl_parts for c in acl_window_chunks(GUIDE)) and F["acl_runs"] > 1
     and F["acl_cut_windows"] > F["windows"]
     and F["acl_cut_duplication"] < F["window_duplication"]),
    ("the fixture's rows slice to their joined cells; the tight table's do not",
     F["table_rows"] == sum(GUIDE.text[slice(*r.cells_span)] == " | ".join(r.cells)
                            for r in next(e for e in ELEMENTS if e.kind == "table").rows)
     and F["tight_row_slice"] != F["tight_row_join"]
     and F["tight_row_line"].strip("|") == F["tight_row_slice"]),
    ("the retrieval texts fit the model's positions, and some exceed its training length",
     F["row_retrieval_pieces"] > F["row_text_pieces"]
     and F["longest_text_pieces"] < F["longest_retrieval_pieces"]
     and F["longest_retrieval_pieces"] + 2 <= F["minilm_positions"]
     and 0 < F["retrieval_over_trained"] < F["structure_chunks"]),
    ("the second split piece starts inside a word; the first ends at a space by chance",
     GUIDE.text[STRUCT[25].start - 1:STRUCT[25].start + 1].isalpha()
     and GUIDE.text[STRUCT[24].end - 1].isspace()),
    ("the budget is counted on what is embedded", "what the model embeds: the `retrieval_text`, "
     "heading path and table header included" in PROSE),
]

QUIZ_CLAIMS = [
    ("0.0048 for the structure-aware chunks and 0.1093 for the fixed windows.",
     (r4(S_DUP), r4(W_DUP)) == ("0.0048", "0.1093")),
    ("One paragraph, 1596 characters long, is the only element over budget, so 100 characters "
     "are stored twice", OVERSIZED == [1596] and repeated(S_SPANS) == 100),
    ("The 24 windows repeat 100 characters at each of their 23 joins: 2300",
     len(WINDOWS) == 24 and repeated(W_SPANS) == 2300),
    ("1000 − 100 = 900 new characters", stride(1000, 100) == 900),
    ("repeated characters by all the characters each strategy stores (20,164 and 23,346)",
     (total_length(S_SPANS), total_length(W_SPANS)) == (20164, 23346)
     and (r4(100 / 20164), r4(2300 / 23346)) == ("0.0050", "0.0985")),
    (f"Like {MIXED} of the guide's {len(WINDOWS)} windows it mixes two ACLs", MIXED > 0),
]


@pytest.mark.parametrize("text, true", TRUTHS, ids=[c[0][:30] for c in TRUTHS])
def test_prose_figures_hold(text, true):
    assert true, text


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
    assert F["oversized_chars"] == OVERSIZED[0] and len(OVERSIZED) == 1
    assert (F["structure_duplication"], F["window_duplication"]) == (S_DUP, W_DUP)
    assert F["structure_repeated"] == repeated(S_SPANS) and F["window_repeated"] == repeated(
        W_SPANS)
    assert F["row_text"] == STRUCT[F["row_number"] - 1].text
    assert F["row_ordinal"] == F["row_number"] - 1 and any(  # the record the code cell prints
        f"describe(chunks[{F['row_ordinal']}])" in c.source for c in NB.cells)
    assert F["spans"] == ", ".join(map(str, cs.SPANS))
    assert (F["source_length"], F["gap_start"], F["gap_end"]) == (
        cs.SOURCE_LENGTH, cs.SPANS[1][1], cs.SPANS[2][0])
    assert F["split_numbers"] == (25, 26) and F["split_shared"] == 100
    assert F["minilm_trained_positions"] == 128 and F["minilm_positions"] == 256


def test_the_demo_comment_and_the_predict_hint_state_the_default_budget():
    code = "\n".join(c.source for c in NB.cells if c.cell_type == "code")
    assert (f"chunks = structure_chunks(guide)  # budget {DEFAULT_SIZE} characters; overlap "
            f"{DEFAULT_OVERLAP}, for hard splits only") in code
    assert DEFAULT_SIZE == 1000 and DEFAULT_OVERLAP == 100
    assert "windows of 1000 characters that overlap by 100." in cs.CHECKS["predict_repeated"].hint
    assert F["oversized_word"] == "one" and F["oversized_word_cap"] == "One"
    assert len(cs.SPANS) == 3 and F["spans_word"] == "three"
    assert "A chunker gives three chunks of" in PROSE
    assert "Add up the three lengths" in cs.CHECKS["ex_repeated"].hint
    assert "Add up the three chunk lengths" in cs.CHECKS["ex_seed_d"].hint


def test_the_acl_cell_shows_both_strategies():
    code = "\n".join(c.source for c in NB.cells if c.cell_type == "code")
    assert "acl_window_chunks(guide)" in code and "readable(to_dict(first), groups)" in code


def test_predict_and_part1_data_are_shown_as_checked():
    assert cs.CHECKS["predict_repeated"].expected() == 100
    md = "\n".join(c.source for c in NB.cells if c.cell_type == "markdown")
    assert f"```markdown\n{cs.OUTLINE.rstrip()}\n```" in md
    # the spans skip a stretch and a footer, as the prose says
    assert cs.SPANS[1][1] < cs.SPANS[2][0] and cs.SPANS[-1][1] < cs.SOURCE_LENGTH
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
    literal = want.casefold() if isinstance(want, str) else want  # text: case does not count
    assert repr(literal) in test_cell.source  # the hidden literal is the same value


@pytest.mark.parametrize("i, q", list(enumerate(RENDERED_QUIZ, start=1)))
def test_quiz_solutions_are_the_answers(i, q):
    assert _solution(f"q{i}") == q.answer


def test_quiz_letters_vary_and_every_option_is_explained():
    assert len(RENDERED_QUIZ) >= 4 and len({q.answer for q in RENDERED_QUIZ}) >= 3
    for q in RENDERED_QUIZ:
        assert q.answer in q.options
        assert all(text and why for text, why in q.options.values())


def test_the_points_the_part2_intro_states_are_the_notebooks():
    points = {(c.metadata["nbgrader"]["grade_id"].rsplit("_", 1)[1],
               c.metadata["nbgrader"]["points"])
              for c in NB.cells
              if c.metadata.get("nbgrader", {}).get("grade_id", "").endswith(("_examples",
                                                                              "_hidden"))}
    assert points == {("examples", F["examples_points"]), ("hidden", F["hidden_points"])}
