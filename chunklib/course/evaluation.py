"""Lesson 6 (Retrieval evaluation): the hands-on self-checks and the multiple-choice questions.

Expected values are computed with ``chunklib.evaluation``, ``chunklib.context`` and
``chunklib.experiment`` when a check runs; the worked examples' data live here so the notebook,
the checks and the tests share one copy.

Leaves out: prose; the notebook ``notebooks/06-evaluation/evaluation.ipynb`` holds it.

    >>> CHECKS["ex1_covered"].expected()
    120
"""

from chunklib.context import merge_hits, pack_context
from chunklib.evaluation import evidence_complete, span_iou, span_precision, span_recall
from chunklib.intervals import intersection_length
from chunklib.quiz import Question
from chunklib.selfcheck import Check

# Predict first: two overlapping windows (size 100, overlap 50) and evidence across their cut.
PREDICT_CHUNKS = [(100, 200), (150, 250)]
PREDICT_EVIDENCE = (130, 230)

# Example 1: the top 4 hits of windows of 100 characters with overlap 50, and the evidence.
EX1_RETRIEVED = [(100, 200), (150, 250), (50, 150), (400, 500)]
EX1_EVIDENCE = [(130, 330)]

# Example 2: six hits to merge, then pack into a budget of characters.
EX2_HITS = [
    {"chunk_id": "a", "source_id": "deployment-guide", "revision": "r1",
     "acl": ("employees",), "start": 100, "end": 200, "score": 5},
    {"chunk_id": "b", "source_id": "deployment-guide", "revision": "r1",
     "acl": ("employees",), "start": 150, "end": 250, "score": 4},
    {"chunk_id": "c", "source_id": "deployment-guide", "revision": "r1",
     "acl": ("employees",), "start": 250, "end": 300, "score": 2},
    {"chunk_id": "d", "source_id": "deployment-guide", "revision": "r1",
     "acl": ("sre",), "start": 300, "end": 400, "score": 6},
    {"chunk_id": "e", "source_id": "deploy-faq", "revision": "r1",
     "acl": ("employees",), "start": 110, "end": 210, "score": 5},
    {"chunk_id": "f", "source_id": "deployment-guide", "revision": "r2",
     "acl": ("employees",), "start": 120, "end": 220, "score": 3},
]
EX2_BUDGET = 250
# Example 3: the overlap sweep of windows of 400 characters over the fixture (computed).
EX3_SIZE = 400


def _ex3_stop() -> int:
    from chunklib.experiment import overlap_sweep, stopping_point

    return stopping_point(overlap_sweep(EX3_SIZE)).strategy.overlap


_COMPLETE = ("Complete asks for ONE chunk that starts at or before the evidence and ends at or "
             "after it.")
_COVERED = ("Merge the retrieved spans first (each character once), then count the evidence "
            "characters that fall inside the merged spans.")
_RECALL = "Covered evidence characters divided by the evidence length."
_PRECISION = ("Covered characters divided by ALL retrieved characters, adding up every hit's "
              "length, overlaps and all: the reader pays for each of them.")
_IOU = "covered / (Σ|r| + |E| − covered): the retrieved length plus the evidence, once."
_GROUPS = ("Hits merge only when source, revision AND ACL are equal and the spans overlap or "
           "touch; count what is left.")
_SPAN = "Follow the chain of overlapping or touching spans with equal source, revision and ACL."
_PACKED = ("Go by score, highest first (ties: lower start first); skip a hit that does not fit "
           "and keep going; then sort the chosen ones by source, revision and start.")
_STOP = ("Walk the table from O = 0; stop before the first step that gains fewer than one "
         "complete question while the duplication rises.")

CHECKS = {
    "predict_complete": Check(lambda: evidence_complete(PREDICT_CHUNKS, PREDICT_EVIDENCE),
                              _COMPLETE),
    "ex1_complete": Check(lambda: evidence_complete(EX1_RETRIEVED, EX1_EVIDENCE[0]), _COMPLETE),
    "ex1_covered": Check(lambda: intersection_length(EX1_EVIDENCE, EX1_RETRIEVED), _COVERED),
    "ex1_recall": Check(lambda: span_recall(EX1_RETRIEVED, EX1_EVIDENCE), _RECALL),
    "ex1_precision": Check(lambda: span_precision(EX1_RETRIEVED, EX1_EVIDENCE), _PRECISION),
    "ex1_iou": Check(lambda: span_iou(EX1_RETRIEVED, EX1_EVIDENCE), _IOU),
    "ex2_groups": Check(lambda: len(merge_hits(EX2_HITS)), _GROUPS),
    "ex2_span": Check(lambda: next((m["start"], m["end"]) for m in merge_hits(EX2_HITS)
                                   if any(p["chunk_id"] == "a" for p in m["parts"])), _SPAN),
    "ex2_packed": Check(lambda: [h["chunk_id"] for h in pack_context(EX2_HITS, EX2_BUDGET)],
                        _PACKED),
    "ex3_stop": Check(_ex3_stop, _STOP),
}

QUIZ = [
    Question(
        "On the fixture, windows of 400 characters complete 26 of 39 questions with overlap "
        "100. A colleague raises the overlap to 150 'because more overlap always helps'. What "
        "does the experiment show?",
        {
            "A": ("Completeness rises: every extra character of overlap can only add evidence.",
                  "It fell to 23/39. Changing the overlap moves every window boundary, so some "
                  "evidence that fitted before is now cut; and the duplication ratio rose from "
                  "0.316 to 0.573."),
            "B": ("Completeness fell to 23/39 while the index duplication rose from 0.316 to "
                  "0.573: the step does not pay, so the stopping rule stops at 100.",
                  "overlap helps only with evidence cut at a boundary, and every step moves "
                  "all the boundaries; measure each step and stop when completeness gains too "
                  "little for the duplication it adds."),
            "C": ("Nothing changes: the same chunks are retrieved.",
                  "Every window boundary moves, so the chunks, their scores and the hits all "
                  "change."),
            "D": ("Duplication falls, because fewer chunks are needed.",
                  "A larger overlap means a smaller stride and more chunks: the duplication "
                  "ratio rises."),
        },
        "B",
    ),
    Question(
        "Two retrieved chunks hold the same sentence word for word: one from the deployment "
        "guide's section readable by `sre`, one from the section readable by `employees` of "
        "the same revision. They sit next to each other. What should deduplication do?",
        {
            "A": ("Merge them: the text is the same, so keeping both wastes context.",
                  "Similar text is not the test. Different ACLs mean different readers; a "
                  "merged span would carry one ACL for text the other group may not read."),
            "B": ("Keep one at random and drop the other.",
                  "Dropping loses provenance: the citation and the permission of the dropped "
                  "chunk are gone."),
            "C": ("Keep them apart: hits merge only with equal source, revision and ACL, and "
                  "each keeps its own provenance and score.",
                  "merge neighbours only within one source, revision and ACL; text "
                  "similarity alone would merge what must stay apart."),
            "D": ("Merge them if their embeddings are close enough.",
                  "Closeness of meaning says nothing about source, version or permission; it "
                  "is the same mistake as comparing strings."),
        },
        "C",
    ),
    Question(
        "The top 3 hits are the spans (0, 100), (50, 150) and (50, 150) (one chunk came back "
        "twice, through two index entries), and the evidence is (60, 110). What is the span "
        "precision?",
        {
            "A": ("50 / 150: the evidence characters over the characters of the merged hits.",
                  "That ignores duplicates: the reader gets (50, 150) twice and pays for both "
                  "copies, so precision must show it."),
            "B": ("50 / 50 = 1.0: all evidence is covered.",
                  "That is the recall. Precision asks how much of what was retrieved is "
                  "evidence."),
            "C": ("50 / 300: the covered characters over every retrieved character, "
                  "duplicates counted.",
                  "precision divides by Σ|r| = 100 + 100 + 100, so overlap and repeats "
                  "between hits lower it, which is the cost they put on the context."),
            "D": ("50 / 100: the covered characters over the first hit's length.",
                  "Precision is over all k hits, not the first one."),
        },
        "C",
    ),
    Question(
        "Structure-aware chunks of 400 characters complete 30 of the 39 questions, windows of "
        "400 with overlap 200 complete 29. A report says: 'structure-aware 77 %, windows "
        "74 %'. What is wrong with it?",
        {
            "A": ("Nothing: percentages are the standard way to compare.",
                  "Without the counts a reader cannot tell that 3 points here are a single "
                  "question out of 39."),
            "B": ("It hides that the difference is one question of 39: report 30/39 against "
                  "29/39.",
                  "with 39 questions one question moves the rate by 2.6 points, less than "
                  "what moving the window boundaries does by itself; counts show the size of "
                  "the evidence."),
            "C": ("It should give more decimals: 76.92 % against 74.36 %.",
                  "More decimals suggest more precision than 39 questions hold."),
            "D": ("It should report recall instead.",
                  "Recall is a different measure; the problem is hiding how few questions "
                  "stand behind the rates."),
        },
        "B",
    ),
    Question(
        "Every result in this lesson comes from term-overlap retrieval. What do they tell you "
        "about the same strategies with an embedding model?",
        {
            "A": ("Nothing directly: rerun the evaluation with the embedding retriever, on the "
                  "same questions and evidence.",
                  "term overlap rewards long chunks (more words, more matches) and exact "
                  "words; an embedding compresses a chunk into one vector and may prefer "
                  "short, focused chunks. The harness transfers, the numbers may not."),
            "B": ("The same ranking of strategies, since the chunks are the same.",
                  "The chunks are the same, but the scorer decides the ranking; a different "
                  "scorer can reverse it."),
            "C": ("Embeddings always do better, so every strategy improves equally.",
                  "Neither part holds in general; measure it."),
            "D": ("Only the ACL results change.",
                  "ACL filtering happens before scoring and does not depend on the scorer; "
                  "the ranking does."),
        },
        "A",
    ),
    Question(
        "Parent-child retrieval finds a small chunk the subject may read and expands it to its "
        "parent section. The parent also holds a subsection the subject may not read. What "
        "should happen?",
        {
            "A": ("Expand anyway: the child was authorized, so its parent is too.",
                  "The ACL check must run again for what is actually returned; otherwise the "
                  "expansion leaks the restricted subsection."),
            "B": ("Do not expand to that parent: check its ACL again and keep the child alone "
                  "when the subject may not read the whole parent.",
                  "authorization applies to the text that reaches the model, so parent "
                  "expansion (like merging) re-checks the ACL."),
            "C": ("Expand and remove the restricted sentences later, when the answer is shown.",
                  "By then the model has read them: filtering at display time is too late."),
            "D": ("Expand the parent once for each child that points to it.",
                  "A parent is expanded once however many children point to it; and this one "
                  "must not be expanded at all."),
        },
        "B",
    ),
]
