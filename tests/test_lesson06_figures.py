"""Every number lesson 6 states in prose or in a quiz explanation is computed here with chunklib
and found in the text; the results table is computed by a notebook cell, never typed."""

import re

import nbformat
import pytest

from chunklib import experiment as ex
from chunklib.context import merge_hits, pack_context
from chunklib.course import evaluation as ce
from chunklib.elements import parse_elements
from chunklib.evaluation import evidence_complete, span_iou, span_precision, span_recall
from chunklib.fixture import load_source
from chunklib.questions import get_question, load_questions
from tests.nbgrading import lesson_notebook

NB = nbformat.read(lesson_notebook("06-evaluation"), as_version=4)
PROSE = "\n".join(c.source for c in NB.cells if c.cell_type == "markdown")
CODE = "\n".join(c.source for c in NB.cells if c.cell_type == "code")
QUIZ = "\n".join(q.prompt + "\n" + "\n".join(t + " " + why for t, why in q.options.values())
                 for q in ce.QUIZ)
S = ex.Strategy
SUM = {s.label: ex.summarize(s) for s in ex.LESSON_STRATEGIES}
W0, W100, W200 = SUM["windows 400/0"], SUM["windows 400/100"], SUM["windows 400/200"]
S400, S1000, W1000, PC200 = (SUM["structure 400"], SUM["structure 1000"], SUM["windows 1000/0"],
                             SUM["parent-child 200"])
S200 = ex.summarize(S("structure", 200))
W150 = ex.summarize(S("windows", 400, 150))
SWEEP = ex.overlap_sweep(400)
STOP = ex.stopping_point(SWEEP)
QS = load_questions()
D = {label: ex.diagnose(strategy_) for label, strategy_ in
     [("w0", S("windows", 400)), ("w100", S("windows", 400, 100)),
      ("w200", S("windows", 400, 200)), ("s400", S("structure", 400)),
      ("w1000", S("windows", 1000))]}
Q19 = ex.evaluate(S("windows", 400, 100))[18]
HITS19, MERGED19, PACKED19 = ex.packed_context("q19", S("windows", 400, 100), 1500)


def n(reason, key):
    return len(D[key][reason])


PROSE_CLAIMS = [
    f"comes with {len(QS)} such questions",
    f"the top k = {ex.K} chunks",
    f"complete questions (of {len(QS)})",
    f"go\n   {', '.join(str(s.complete) for s in SWEEP)} (of {len(QS)})",
    f"Recall is {Q19.recall:.2f}, yet the question is not complete",
    f"the\n   {len(get_question('q19').evidence[0].text)}-character evidence",
    f"Fixed windows complete {W1000.counts}: {n('unreadable', 'w1000')} questions",
    f"one question is {round(100 / len(QS), 1)} percentage points",
    f"without overlap complete {W0.counts}. Overlap 100 raises that to {W100.counts}",
    f"at an index duplication of {W100.index_duplication:.3f}; overlap 200 to {W200.counts}",
    f"{W200.index_duplication:.3f}, nearly every character stored twice, with "
    f"{W200.near_duplicates}\n  of {W200.hits} hits",
    f"of the same size complete {S400.counts} at {S400.index_duplication:.3f}",
    f"hold {S400.retrieved_chars} characters over all questions",
    f"overlap 100 hold {W100.retrieved_chars}",
    f"({S1000.counts} for structure-aware chunks of 1000)",
    f"Without overlap, {n('cut', 'w0')} questions are cut at 400 characters; overlap 100 leaves\n"
    f"{n('cut', 'w100')} of them cut and overlap 200 leaves {n('cut', 'w200')}",
    f"go from {n('unreadable', 'w0')} to {n('unreadable', 'w100')} at\noverlap 100",
    f"{n('cut', 's400')} of their questions at 400 are cut",
    f"The rule stops at **O = {STOP.strategy.overlap}** ({STOP.counts})",
    f"from {STOP.index_duplication:.3f} to {W150.index_duplication:.3f}",
    f"overlap 200\nreaches {W200.counts}, three more questions, at three times the duplication",
    f"same size get {S400.counts} without paying",
    f"{len(HITS19)} hits, {Q19.near_duplicates} of them\nnear-duplicates",
    f"into\n{len(MERGED19)} segments",
    f"completes {PC200.counts}, against {S200.counts} for\nthe small chunks themselves and "
    f"{S1000.counts} for chunks of 1000",
    f"({PC200.retrieved_chars} against {S1000.retrieved_chars})",
    f"{sum(1 for q in QS if len(q.evidence) > 1)} have two\nevidence spans",
    f"and\n{n('cut', 'w0')} have evidence that straddles a boundary",
    f"{sum(1 for q in QS if q.groups != ('employees',) or q.tenant_id != 'kestrel')} "
    "questions are\nasked by someone",
]


@pytest.mark.parametrize("claim", PROSE_CLAIMS, ids=[c[:40] for c in PROSE_CLAIMS])
def test_prose_states_computed_figures(claim):
    assert claim in PROSE


def test_every_number_rests_on_true_relations():
    assert W200.complete - STOP.complete == 3 and round(W200.index_duplication
                                                          / STOP.index_duplication) == 3
    assert W150.complete < STOP.complete and SWEEP[SWEEP.index(STOP) + 1] == W150
    assert not Q19.complete and Q19.recall == 1.0
    assert len(get_question("q19").evidence[0].text) > 100 + 1  # longer than O + 1
    assert PC200.near_duplicates == 0 and PC200.retrieved_chars < S1000.retrieved_chars
    assert {"q10", "q11"} <= set(D["s400"]["cut"])
    assert [q for q in D["s400"]["cut"] if q not in ("q10", "q11")] == ["q21", "q30", "q31"]
    guide = load_source("deployment-guide")
    for qid in ("q21", "q30", "q31"):  # "paragraphs longer than 400 characters"
        (start, end), = get_question(qid).evidence_spans
        (para,) = [e for e in parse_elements(guide.text) if e.start <= start and end <= e.end]
        assert para.kind == "paragraph" and para.end - para.start > 400
    precisions = [s.precision for s in SUM.values()]
    assert 0.01 < min(precisions) < max(precisions) < 0.1  # "a few percent"


def test_the_table_header_walkthrough_and_the_parent_acl_check():
    assert "A window of 400/100 happens to hold both" in PROSE
    assert ex.evaluate(S("windows", 400, 100))[9].complete
    row = get_question("q10").evidence_spans[1]
    structure = ex.evaluate(S("structure", 400))[9]
    assert not structure.complete
    assert not any(h["start"] <= row[0] and row[1] <= h["end"] for h in structure.hits)
    assert ex.evaluate(S("parent-child", 400))[9].complete
    assert "so the check always\npasses here" in PROSE
    for strategy in (S("parent-child", 200), S("parent-child", 400)):
        assert all(h["chunk_id"].startswith("section:")
                   for o in ex.evaluate(strategy) for h in o.hits)


def test_worked_examples_in_the_text():
    assert f"**{ce.PREDICT_EVIDENCE}**" in PROSE
    assert f"**{ce.PREDICT_CHUNKS[0]}** and **{ce.PREDICT_CHUNKS[1]}**" in PROSE
    assert f"**E = {ce.EX1_EVIDENCE}**" in PROSE and f"**R = {ce.EX1_RETRIEVED}**" in PROSE
    for h in ce.EX2_HITS:
        assert (f"| `{h['chunk_id']}` | {h['source_id']} | {h['revision']} | {h['acl']} | "
                f"{h['start']} | {h['end']} | {h['score']} |") in PROSE
    for s in SWEEP:
        assert f"| {s.strategy.overlap} | {s.counts} | {s.index_duplication:.3f} |" in PROSE
    assert f"`pack_context(hits, {ce.EX2_BUDGET})`" in PROSE
    assert not evidence_complete(ce.PREDICT_CHUNKS, ce.PREDICT_EVIDENCE)


QUIZ_CLAIMS = [
    (f"complete {W100.complete} of {len(QS)} questions with overlap 100",
     W100.complete == 26),
    (f"It fell to {W150.counts}", W150.complete < W100.complete),
    (f"the duplication ratio rose from {W100.index_duplication:.3f} to "
     f"{W150.index_duplication:.3f}", True),
    (f"Completeness fell to {W150.counts} while the index duplication rose from "
     f"{W100.index_duplication:.3f} to\n{W150.index_duplication:.3f}", True),
    ("stopping rule stops at 100", STOP.strategy.overlap == 100),
    ("50 / 300", span_precision([(0, 100), (50, 150), (50, 150)], [(60, 110)]) == 50 / 300),
    ("50 / 150", span_precision([(0, 100), (50, 150)], [(60, 110)]) * 200 / 150 == 50 / 150),
    ("50 / 50 = 1.0", span_recall([(0, 100), (50, 150), (50, 150)], [(60, 110)]) == 1.0),
    (f"complete {S400.complete} of the {len(QS)}", True),
    (f"400 with overlap 200 complete {W200.complete}", True),
    (f"structure-aware {round(100 * S400.complete / len(QS))} %, windows "
     f"{round(100 * W200.complete / len(QS))} %", True),
    (f"{100 * S400.complete / len(QS):.2f} % against {100 * W200.complete / len(QS):.2f} %", True),
    (f"{S400.counts} against\n{W200.counts}", True),
    (f"one question moves the rate by {100 / len(QS):.1f} points", True),
]


@pytest.mark.parametrize("text, true", QUIZ_CLAIMS, ids=[c[0][:30] for c in QUIZ_CLAIMS])
def test_quiz_states_computed_figures(text, true):
    assert text.replace("\n", " ") in QUIZ.replace("\n", " ") and true


def test_results_are_computed_by_notebook_cells_not_typed():
    for call in ("results_table([summarize(s) for s in LESSON_STRATEGIES])",
                 "diagnosis_table(LESSON_STRATEGIES[:6])", "sweep_table(400)",
                 'packed_context("q19", Strategy("windows", 400, 100), budget=1500)',
                 "count_tokens(text)", "evaluation_explorer(size=400, overlap=100"):
        assert call in CODE, call
    # no results row is typed into the prose
    assert not re.search(r"\| windows 400/0 \| 17/39 \|", PROSE)


def test_part1_answers_follow_from_the_definitions():
    r, e = ce.EX1_RETRIEVED, ce.EX1_EVIDENCE
    assert ce.CHECKS["ex1_covered"].expected() == 120
    assert (span_recall(r, e), span_precision(r, e), span_iou(r, e)) == (0.6, 0.3, 0.25)
    assert len(merge_hits(ce.EX2_HITS)) == ce.CHECKS["ex2_groups"].expected() == 4
    assert [h["chunk_id"] for h in pack_context(ce.EX2_HITS, 250)] == ["a", "c", "d"]
    assert ce.CHECKS["ex3_stop"].expected() == STOP.strategy.overlap
