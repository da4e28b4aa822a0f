"""Every number lesson 2 states is computed here with chunklib and found in the text (semantic
chunking's with all-MiniLM-L6-v2's shipped vectors); the grading
literals of the notebook still agree with chunklib; the reference solutions agree with chunklib.
"""

import re

import nbformat
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from chunklib.boundaries import boundary_quality, merge_spans, span_stats
from chunklib.course import boundaries as lesson
from chunklib.course import quiz, selfcheck
from chunklib.course.comparison import compare_strategies
from chunklib.course.passages import load_passage
from chunklib.course.quiz import questions
from chunklib.embedding import DIMENSION
from chunklib.semantic import (
    ABBREVIATIONS,
    compare_with_recursive,
    semantic_split,
    similarity_report,
)
from chunklib.sentences import inside_sentence, paragraph_spans, split_sentences
from chunklib.splitter import DEFAULT_SEPARATORS, recursive_split, split_text
from chunklib.tokens import wordpiece_count
from chunklib.units import cut_sentence_spans, cut_sentences
from chunklib.windows import text_windows
from tests.nbgrading import lesson_notebook

#: The quiz as the notebook states it (rendered by tools/sync_quiz.py).
RENDERED_QUIZ = questions("boundaries")

NB = nbformat.read(lesson_notebook("02-boundaries"), as_version=4)
MARKDOWN = [c.source for c in NB.cells if c.cell_type == "markdown"]
PROSE = " ".join(" ".join(MARKDOWN).split())  # whitespace folded: claims may wrap lines
QUIZ = " ".join(" ".join(why for q in RENDERED_QUIZ for _t, why in q.options.values()).split())
PASSAGE = load_passage()
SENT = split_sentences(PASSAGE)
SEPS = DEFAULT_SEPARATORS


def stats(size, separators=SEPS):
    return span_stats(PASSAGE, split_text(PASSAGE, size, separators=separators), SENT)


def fixed(size):
    return span_stats(PASSAGE, text_windows(PASSAGE, size, 0), SENT)


def chunk_ending_with(size, tail):
    return [i for i, (s, e) in enumerate(split_text(PASSAGE, size)) if PASSAGE[s:e].endswith(tail)]


RAW300 = [s for s in recursive_split(PASSAGE, 300) if s[1] > s[0]]
LIST = next((s, e) for s, e in SENT if PASSAGE[s:].startswith("Each packet"))
TOKENS = split_text(PASSAGE, 64, length=wordpiece_count)
P1 = lesson.PART1_TEXT
P1_SENT = split_sentences(P1)

CLAIMS = [  # (text the lesson shows, is it true by chunklib)
    ("the 2,189-character passage of the explorer into 8 chunks, so there are 7 places",
     len(PASSAGE) == 2189 and fixed(300)["chunks"] == 8),
    ("The passage has 26 sentences", len(SENT) == 26),
    ("26 sentences in 6 paragraphs, one of them a list",
     len(paragraph_spans(PASSAGE)) == 6 and "\nthe garden it came from,\n" in PASSAGE),
    ("exactly fixed windows: 8 chunks, 6 of 26 sentences cut, boundary quality 0.14",
     split_text(PASSAGE, 300, separators=()) == text_windows(PASSAGE, 300, 0)
     and fixed(300)["sentences_cut"] == 6 and f"{fixed(300)['boundary_quality']:.2f}" == "0.14"),
    ("Switch them all on again: 9 chunks and 1 sentence cut. Step to chunk 3 to see where.",
     stats(300)["chunks"] == 9 and stats(300)["sentences_cut"] == 1
     and [i for i, (_, e) in enumerate(split_text(PASSAGE, 300)[:-1])
          if inside_sentence(e, SENT)] == [2]),
    ("one sentence of 176 characters, and the chunk ends at a line break inside it",
     LIST[1] - LIST[0] == 176 and PASSAGE[split_text(PASSAGE, 300)[2][1] - 1] == "\n"
     and LIST[0] < split_text(PASSAGE, 300)[2][1] < LIST[1]
     and split_text(PASSAGE, 300)[2][0] < LIST[0]),
    ("Switch off *full stop + space* only: 5 sentences cut",
     stats(300, ("\n\n", "\n", " "))["sentences_cut"] == 5),
    ("Switch *merge* off: 34 pieces, from 1 to 236 characters long",
     len(RAW300) == 34 and min(e - s for s, e in RAW300) == 1
     and max(e - s for s, e in RAW300) == 236),
    ("With every checkbox on, set the size to **200**: 12 chunks, 3 sentences cut",
     stats(200)["chunks"] == 12 and stats(200)["sentences_cut"] == 3),
    ('Find the chunks that end right after "Dr.": the summary counts those ends as clean',
     len(chunk_ending_with(200, "Dr. ")) > 1
     and all(not inside_sentence(split_text(PASSAGE, 200)[i][1], SENT)
             for i in chunk_ending_with(200, "Dr. "))),
    ("Drag the size below **227**, the length of the longest sentence",
     max(e - s for s, e in SENT) == 227
     and all(stats(size, seps)["sentences_cut"] >= 1 for size in (20, 100, 220)
             for seps in (SEPS, (), (" ",)))),
    ("The text below has 83 characters in two paragraphs",
     len(P1) == 83 and len(paragraph_spans(P1)) == 2),
    ('are - (0, 13) "Tea is ready." - (14, 36) "Milk is in the fridge." - (38, 83) "The kettle is '
     'broken, so boil water in a pan."',
     P1_SENT == [(0, 13), (14, 36), (38, 83)]
     and [P1[s:e] for s, e in P1_SENT] == ["Tea is ready.", "Milk is in the fridge.",
                                            "The kettle is broken, so boil water in a pan."]),
    ("The chunk size is **24 characters**", lesson.PART1_SIZE == 24),
    ("At 300 characters the splitter needs 9 chunks where fixed windows need 8",
     compare_strategies(PASSAGE, 300)["recursive"]["chunks"] == 9),
    ("the median chunk has 279 characters instead of 300, and the lengths spread from 80 to 298. "
     "In exchange it cuts 1 sentence instead of 6.",
     (stats(300)["median"], fixed(300)["median"], stats(300)["min"], stats(300)["max"],
      stats(300)["sentences_cut"], fixed(300)["sentences_cut"]) == (279, 300, 80, 298, 1, 6)),
    ("(7 instead of 15 at 100 characters, none instead of 5 at 400) for one to three more chunks",
     (stats(100)["sentences_cut"], fixed(100)["sentences_cut"], stats(400)["sentences_cut"],
      fixed(400)["sentences_cut"]) == (7, 15, 0, 5)
     and {stats(c)["chunks"] - fixed(c)["chunks"] for c in (100, 200, 300, 400)} == {1, 3}
     and all(stats(c)["sentences_cut"] < fixed(c)["sentences_cut"] for c in (100, 200, 300, 400))),
    ("the longest sentence (227 characters)", max(e - s for s, e in SENT) == 227),
    ("9 chunks of at most 64 word pieces each (the largest has 64)",
     len(TOKENS) == 9 and max(wordpiece_count(PASSAGE[s:e]) for s, e in TOKENS) == 64),
    ("every chunk still ends at a separator",
     all(PASSAGE[e - 1].isspace() for _, e in TOKENS[:-1])
     and "".join(PASSAGE[s:e] for s, e in TOKENS) == PASSAGE
     and all(a[1] == b[0] for a, b in zip(TOKENS, TOKENS[1:], strict=False))),
]

QUIZ_CLAIMS = [
    ("on the passage at 200 characters the splitter still cuts 3 of its 26 sentences",
     stats(200)["sentences_cut"] == 3),
    ("the longest sentence (227 characters here)", max(e - s for s, e in SENT) == 227),
    ("200-character chunks still cut 3 of the 26 sentences", stats(200)["sentences_cut"] == 3),
    ("no piece is longer than 300, and merging never makes a chunk longer than that",
     max(e - s for s, e in merge_spans(recursive_split(PASSAGE, 300), 300)) <= 300),
    ("find returns the first occurrence, so three chunks claim the same start, and citations",
     [("Same. Same. Same.").find(c) for c in ("Same. ", "Same. ", "Same.")] == [0, 0, 0]),
    ("The median chunk has 279 characters instead of 300, and the lengths spread from 80 to 298",
     (stats(300)["median"], stats(300)["min"], stats(300)["max"]) == (279, 80, 298)),
    ("(1 of 26 instead of 6)",
     (stats(300)["sentences_cut"], fixed(300)["sentences_cut"]) == (1, 6)),
]


@pytest.mark.parametrize("text, true", CLAIMS, ids=[c[0][:30] for c in CLAIMS])
def test_prose_claims(text, true):
    assert text in PROSE and true


@pytest.mark.parametrize("text, true", QUIZ_CLAIMS, ids=[c[0][:30] for c in QUIZ_CLAIMS])
def test_quiz_explanations(text, true):
    assert text in QUIZ and true


def test_quiz_prompts_state_chunklib_facts():
    prompts = " ".join(q.prompt for q in RENDERED_QUIZ)
    assert "At 200 characters, one chunk of the passage ends right after" in prompts
    (i,) = chunk_ending_with(200, "The idea came from Dr. ")
    assert PASSAGE[split_text(PASSAGE, 200)[i + 1][0]:].startswith("Amara Osei, a retired botanist")
    assert "fixed windows give 8 chunks and recursive splitting with merging gives 9" in prompts
    assert (fixed(300)["chunks"], stats(300)["chunks"]) == (8, 9)


def _vectors_with(cosines):
    """Unit vectors in the plane whose neighbours have exactly ``cosines`` (up to rounding)."""
    angles = np.concatenate([[0.0], np.cumsum(np.arccos(cosines))])
    return np.column_stack([np.cos(angles), np.sin(angles)])


@given(st.permutations(range(25)), st.floats(-1, 0.9), st.floats(0.01, 1))
def test_question_6_semantic_split_cuts_6_of_any_25_different_cosines(order, low, spread):
    # 25 different cosines in any order, all high (one subject) or spread out: semantic_split
    # cuts the 6 smallest, as many as it cuts in the passage
    step = spread * (1 - low) / 24
    cosines = [low + step * rank for rank in order]
    text = " ".join(f"Sentence {i}." for i in range(26))
    split = semantic_split(text, lambda texts: _vectors_with(cosines), lesson.SEMANTIC_PERCENTILE)
    assert len(split.similarities) == 25
    assert split.breakpoints == sorted(order.index(rank) for rank in range(6))
    assert len(split.breakpoints) == lesson.relative_cuts(25, 25) == 6


def test_question_6_states_the_passages_split():
    (q6,) = [q for q in RENDERED_QUIZ if "never changes subject" in q.prompt]
    split = semantic_split(PASSAGE, percentile=lesson.SEMANTIC_PERCENTILE)
    assert (len(split.breakpoints), len(split.similarities)) == (6, 25)
    assert len(set(split.similarities)) == 25  # no ties: the rule the question states applies
    assert q6.prompt.startswith("`semantic_split(passage, percentile=25)` cuts 6 of the passage's "
                                "25 gaps between sentences. Another text, also with 25 gaps,")
    assert q6.prompt.endswith("How many of its gaps does `semantic_split(text, percentile=25)` "
                              "cut?")
    assert "semantic_split(passage, percentile=25)" in {c.id: c.source for c in NB.cells}["c42d"]
    assert q6.options[q6.answer][0].startswith("6, just as many as in the passage")
    # D's stretch: 4 gaps at position 0.75, so only the smallest cosine is below the threshold
    hand = semantic_split(lesson.hand_stretch(), percentile=lesson.SEMANTIC_PERCENTILE)
    assert len(hand.similarities) == 4 and len(hand.breakpoints) == lesson.relative_cuts(4, 25) == 1
    assert ("The stretch you worked by hand has only 4 gaps: its position, 0.75, puts the "
            "threshold between the smallest cosine and the next. With 25 gaps the position is 6"
            ) in QUIZ
    assert "a text that repeats one sentence is not cut at all" in QUIZ  # REPEATED below


@pytest.mark.parametrize("gaps, percentile, error", [
    (0, 25, ValueError), (2.0, 25, TypeError), (4, 101, ValueError), (4, -1, ValueError),
    (4, float("nan"), ValueError), (4, "25", TypeError), (4, True, TypeError)])
def test_relative_cuts_refuses_bad_input(gaps, percentile, error):
    with pytest.raises(error, match="gaps" if gaps != 4 else "percentile"):
        lesson.relative_cuts(gaps, percentile)


def test_the_position_grid_in_the_notebook_is_chunklibs():
    grid = lesson.position_grid(P1)
    assert f"```text\n{grid}\n```" in "\n".join(MARKDOWN)
    rows = grid.splitlines()[1:]
    for row in rows:  # every row reads back as the text from its offset
        offset, chars = int(row[:3]), row[5::2]
        assert chars == P1[offset:offset + 10].replace(" ", "·").replace("\n", "⏎")


def test_part1_prompts_name_the_second_paragraph():
    prompts = "\n".join(c.source for c in NB.cells if c.cell_type == "code")
    assert "the second paragraph (offsets 38 to 83)" in prompts
    assert paragraph_spans(P1)[1] == lesson.PART1_PARAGRAPH_2 == (38, 83)


def test_part1_answers_by_chunklib():
    fixed24, split24 = text_windows(P1, 24, 0), split_text(P1, 24)
    assert split24 == merge_spans(recursive_split(P1, 24), 24)
    expected = {"fixed_k": len(fixed24), "fixed_cut": cut_sentences(P1_SENT, fixed24),
                "fixed_clean": round(boundary_quality(P1_SENT, fixed24) * (len(fixed24) - 1)),
                "split_k": len(split24), "split_cut": cut_sentences(P1_SENT, split24),
                "split_clean": round(boundary_quality(P1_SENT, split24) * (len(split24) - 1)),
                "pieces_p2": sum(38 <= s and e <= 83 for s, e in recursive_split(P1, 24))}
    assert expected == {"fixed_k": 4, "fixed_cut": 2, "fixed_clean": 0, "split_k": 4,
                        "split_cut": 1, "split_clean": 2, "pieces_p2": 10}
    assert {k: lesson.CHECKS[k].expected() for k in expected} == expected
    assert lesson.CHECKS["predict_cut"].expected() == fixed(300)["sentences_cut"]


# --- self-checks and quiz --------------------------------------------------------------------

@pytest.mark.parametrize("key", sorted(lesson.CHECKS))
def test_self_checks_never_print_the_answer(key, capsys):
    expected = lesson.CHECKS[key].expected()
    for wrong in (expected + 1, expected - 1, str(expected)):
        ok, message = selfcheck.verdict(f"boundaries.{key}", wrong)
        assert ok is False
        assert not re.search(rf"\b{expected}\b", message), message
    assert selfcheck.verdict(f"boundaries.{key}", expected) == (True, "✓ Right.")
    assert selfcheck.verdict(f"boundaries.{key}", None)[0] is None
    selfcheck.check(f"boundaries.{key}", expected)
    assert capsys.readouterr().out == "✓ Right.\n"


def test_every_question_explains_every_option():
    qs = quiz.questions("boundaries")
    assert len(qs) >= 4
    assert len({q.answer for q in qs}) >= 3, "vary the right letter"
    for q in qs:
        assert q.answer in q.options and len(q.options) >= 3
        for letter, (text, why) in q.options.items():
            assert text and len(why) > 20
            assert quiz.feedback(q, letter).startswith("✓" if letter == q.answer else "✗")


# --- the notebook's grading literals and reference solutions -----------------------------------

CHUNKLIB = {"split_sentences": split_sentences, "recursive_split": recursive_split,
            "merge_spans": merge_spans, "boundary_quality": boundary_quality}


def graded_cells():
    return [c for c in NB.cells if c.metadata.get("nbgrader", {}).get("grade")]


@pytest.mark.parametrize("cell", graded_cells(),
                         ids=[c.metadata["nbgrader"]["grade_id"] for c in graded_cells()])
def test_grading_literals_agree_with_chunklib_today(cell, capsys):
    """Each graded cell passes when chunklib's functions (and chunklib's Part 1 answers, and the
    quiz's letters) stand in for the learner's: the literals were not typed by hand."""
    answers = {k: c.expected() for k, c in lesson.CHECKS.items()}
    letters = {f"q{i}": q.answer for i, q in enumerate(RENDERED_QUIZ, start=1)}
    exec(compile(cell.source, cell.metadata["nbgrader"]["grade_id"], "exec"),
         {**CHUNKLIB, **answers, **letters})


def solutions():
    ns = {}
    for cell in NB.cells:
        gid = cell.metadata.get("nbgrader", {}).get("grade_id")
        if gid in CHUNKLIB:
            exec(compile(cell.source, gid, "exec"), ns)
    return ns


SOLUTION = solutions()
texts = st.text(alphabet="ab .!?\"\n\r\t日é👩\u200d\u00a0", max_size=60)


@given(texts)
def test_reference_split_sentences_is_chunklibs(text):
    assert SOLUTION["split_sentences"](text) == split_sentences(text)


@given(texts, st.integers(1, 12),
       st.sampled_from([SEPS, (), (" ",), ("\n", ". "), (". ", "\n\n", "a")]))
def test_reference_recursive_split_is_chunklibs(text, size, separators):
    assert SOLUTION["recursive_split"](text, size, separators) == recursive_split(
        text, size, separators)


@given(st.lists(st.integers(0, 6), max_size=8), st.integers(1, 12))
def test_reference_merge_spans_is_chunklibs(steps, size):
    bounds = [0]
    for step in steps:  # ordered spans, some with gaps between them
        bounds.append(bounds[-1] + step)
    spans = [(a, b) for a, b in zip(bounds[::2], bounds[1::2], strict=False)]
    assert SOLUTION["merge_spans"](spans, size) == merge_spans(spans, size)


@given(texts, st.integers(1, 12))
def test_reference_boundary_quality_is_chunklibs(text, size):
    sentences = split_sentences(text)
    spans = [s for s in recursive_split(text, size) if s[1] > s[0]]
    if len(spans) > 1 and (not sentences or any(e <= sentences[0][0] for _, e in spans[:-1])):
        return  # no sentence, or an end before the first: left open by the lesson
    got = SOLUTION["boundary_quality"](sentences, spans)
    assert type(got) is float and got == boundary_quality(sentences, spans)



# --- semantic chunking (all-MiniLM-L6-v2 through the shipped vectors) -------------------------

HAND = semantic_split(lesson.hand_stretch(), percentile=25)
SEM = semantic_split(PASSAGE, percentile=25)
ABBR = semantic_split(PASSAGE, percentile=25, abbreviations=ABBREVIATIONS)
VS = {k: (v["chunks"], v["sentences_cut"], v["min"], v["median"], v["max"])
      for k, v in compare_with_recursive(PASSAGE, 300, 25).items()}
VS_ABBR = {k: (v["chunks"], v["sentences_cut"], v["min"], v["median"], v["max"])
           for k, v in compare_with_recursive(PASSAGE, 300, 25, None, ABBREVIATIONS).items()}

CAPPED = semantic_split(PASSAGE, percentile=25, max_size=300)
#: The sentences (abbreviations joined) that the first table's semantic chunks cut, capped or not,
#: and the chunk ends inside them.
JOINED_CUT = [cut_sentence_spans(ABBR.sentences, spans) for spans in (SEM.spans, CAPPED.spans)]
ENDS_INSIDE = [[e for _, e in spans[:-1] if inside_sentence(e, ABBR.sentences)]
               for spans in (SEM.spans, CAPPED.spans)]

#: A sentence of the passage (its vector ships) repeated: 25 equal cosines, no cut.
REPEATED = semantic_split(" ".join([PASSAGE[slice(*SENT[1])]] * 26), percentile=25)

SEMANTIC_CLAIMS = [
    ("each sentence becomes a vector of 384 numbers", DIMENSION == 384),
    ("strictly below* the 25th percentile", lesson.SEMANTIC_PERCENTILE == 25),
    ("the 25th percentile sits at position 0.25 · (N − 1)",
     np.percentile([0.0, 1.0, 2.0, 3.0, 4.0], 25) == 0.25 * 4),
    ("prints the passage's first 5 sentences, numbered from zero, with the cosine across each of "
     "the 4 gaps between them", len(HAND.sentences) == 5 and len(HAND.similarities) == 4
     and HAND.sentences == SENT[:5]),
    ("Here N = 4, so the position is 0.75: the threshold lies 0.75 of the way from the smallest "
     "cosine to the second smallest. Write it, rounded to two decimals, in `semantic_threshold`",
     HAND.threshold == pytest.approx(sorted(HAND.similarities)[0] + 0.75 * (
         sorted(HAND.similarities)[1] - sorted(HAND.similarities)[0]))),
    ("look at sentence 4: what has happened to it?", PASSAGE[slice(*SENT[4])].endswith("Dr.")),
    ('Sentence 4, "The idea came from Dr.", is not a sentence but half of one',
     PASSAGE[slice(*SENT[4])] == "The idea came from Dr."),
    ("With only 4 gaps the threshold always falls between the smallest cosine and the next "
     "(position 0.75): unless those two are equal, the least similar pair is cut, however alike "
     "its two sentences are, and no other pair is",
     0.25 * (len(HAND.similarities) - 1) < 1 and len(HAND.breakpoints) == 1
     and HAND.similarities[HAND.breakpoints[0]] == min(HAND.similarities)),
    ("Across the passage's 25 gaps the position is 0.25 · 24 = 6, a whole number, so the 25th "
     "percentile is one of the cosines itself: 0.145, the cosine of gap 20, which is therefore "
     "not cut. The 6 gaps strictly below it give 7 chunks, and no sentence (as `split_sentences` "
     "finds them) is cut",
     len(SEM.similarities) == 25 and f"{SEM.threshold:.3f}" == "0.145"
     and SEM.threshold == sorted(SEM.similarities)[6] == SEM.similarities[20]
     and 20 not in SEM.breakpoints
     and len(SEM.breakpoints) == 6 and VS["semantic"][:2] == (7, 0)),
    ("At the 25th percentile about a quarter of the gaps of any text are cut, whether or not its "
     "subject changes. Only equal cosines can change that: a text that repeats one sentence has "
     "nothing but equal cosines, none of them lies strictly below their percentile, and it is not "
     "cut at all",
     lesson.relative_cuts(25, 25) == 6 and lesson.relative_cuts(101, 25) == 25
     and len(REPEATED.similarities) == 25 and len(set(REPEATED.similarities)) == 1
     and REPEATED.breakpoints == []),
    ("With `breakpoint_threshold_amount=75`, `buffer_size` set to zero and the same sentences it "
     "cuts the same gaps as here. Its default amount, 95, matches the 5th percentile of the "
     "cosines, which on this passage (still with `buffer_size` zero) cuts only two gaps; the "
     "lesson uses the 25th",
     len(semantic_split(PASSAGE, percentile=5).breakpoints) == 2
     and [i for i, c in enumerate(SEM.similarities)
          if 1 - c > np.percentile([1 - x for x in SEM.similarities], 75)] == SEM.breakpoints),
    ('But four of those cuts sit beside sentences 4 and 22, the two pieces that end in "Dr."',
     [i for i in SEM.breakpoints if {i, i + 1} & {4, 22}] == [3, 4, 21, 22]
     and [i for i, (s, e) in enumerate(SENT) if PASSAGE[s:e].endswith("Dr.")] == [4, 22]
     and lesson.figures()["sem_fragment_count"] == "two"),
    ('one chunk is just "Dr. ", 4 characters',
     [PASSAGE[s:e] for s, e in SEM.spans if e - s == VS["semantic"][2]] == ["Dr. "]),
    ("`split_text` at 300 characters on the same passage", lesson.EXPLORER_SIZE == 300),
    ("Recursive splitting cuts 1 sentence in both tables. Semantic chunking cuts none in either, "
     "capped or not, because it cuts only between the sentences it is given",
     VS["recursive"][1] == VS_ABBR["recursive"][1] == 1
     and VS["semantic"][1] == VS["semantic_capped"][1] == 0
     and VS_ABBR["semantic"][1] == VS_ABBR["semantic_capped"][1] == 0),
    ("But the first table's none is the sentence splitter's blind spot: measured against the "
     "sentences with the abbreviations joined, the same chunks cut 2 sentences, capped or not, "
     'against 1 for recursive splitting. Their ends after "Dr." fall inside the sentences that '
     "name Dr. Osei. Only the second table's none is real.",
     (len(CAPPED.spans), VS["semantic_capped"][0]) == (13, 13)
     and [len(cut) for cut in JOINED_CUT] == [2, 2] and JOINED_CUT[0] == JOINED_CUT[1]
     and [PASSAGE[s:e] for s, e in ABBR.sentences if "Osei" in PASSAGE[s:e]]
     == [PASSAGE[s:e] for s, e in JOINED_CUT[0]]
     and all(PASSAGE[:e].endswith("Dr. ") for ends in ENDS_INSIDE for e in ends)
     and [len(ends) for ends in ENDS_INSIDE] == [2, 2]
     and cut_sentences(ABBR.sentences, split_text(PASSAGE, 300)) == VS_ABBR["recursive"][1] == 1
     and lesson.figures()["sem_joined_cut"] == 2 and lesson.figures()["abbr_rec_cut"] == 1),
    ("Recursive chunks stay between 80 and 298 characters", VS["recursive"][2::2] == (80, 298)),
    ("from 4 to 1181 characters with the fragments, from 53 to 674 without them",
     VS["semantic"][2::2] == (4, 1181) and VS_ABBR["semantic"][2::2] == (53, 674)),
    ("The chunk of 1181 characters has 243 word pieces: the model still reads all of it (up to "
     "254 word pieces), but that is far beyond the 128 it was trained on",
     [wordpiece_count(PASSAGE[s:e]) for s, e in SEM.spans if e - s == 1181] == [243]),
    ("(12 with the abbreviations joined, against 9 for recursive splitting)",
     VS_ABBR["semantic_capped"][0] == 12 and VS["recursive"][0] == 9
     and max(e - s for s, e in semantic_split(PASSAGE, percentile=25, max_size=300,
                                              abbreviations=ABBREVIATIONS).spans) <= 300),
    ("With the abbreviations joined, two of the 6 cuts fall at paragraph breaks (the passage has "
     "five) and four inside paragraphs",
     len(ABBR.breakpoints) == 6 and len(paragraph_spans(PASSAGE)) == 6
     and sum(any(ABBR.sentences[i][1] <= s == ABBR.sentences[i + 1][0]
                 for s, _ in paragraph_spans(PASSAGE)[1:]) for i in ABBR.breakpoints) == 2),
    ("The gap you cut by hand, 3, is still cut at the first paragraph break, but its cosine rises "
     'from 0.041 to 0.228 once "Dr." is joined to the name',
     HAND.breakpoints == [3] and ABBR.sentences[3] == SENT[3] and 3 in ABBR.breakpoints
     and PASSAGE[SENT[3][1]:SENT[4][0]] == "\n\n" and "\n\n" not in PASSAGE[:SENT[3][1]]
     and [f"{c:.3f}" for c in (HAND.similarities[3], ABBR.similarities[3])] == ["0.041", "0.228"]),
    ('from "They sort the returned seed, …" (cosine 0.078, the second smallest). The first '
     "sentence becomes a chunk of its own, 53 characters, and the next chunk opens with "
     '"They": neither chunk says who sorts the seed',
     [(f"{c:.3f}", sorted(ABBR.similarities).index(c)) for i, c in enumerate(ABBR.similarities)
      if PASSAGE[slice(*ABBR.sentences[i + 1])].startswith("They sort")] == [("0.078", 1)]
     and [PASSAGE[s:e] for s, e in ABBR.spans if e - s == 53]
     == ["Volunteers meet on the first Saturday of each month. "]
     and any(PASSAGE[s:e].startswith("They sort") and "olunteer" not in PASSAGE[s:e]
             for s, e in ABBR.spans)),
]


@pytest.mark.parametrize("text, true", SEMANTIC_CLAIMS, ids=[c[0][:30] for c in SEMANTIC_CLAIMS])
def test_semantic_prose_claims(text, true):
    assert text in PROSE and true


def test_semantic_cells_use_the_lessons_settings():
    cells = {c.id: c.source for c in NB.cells}
    assert "semantic_split(stretch, percentile=25)" in cells["c42b"]
    assert 'check("boundaries.semantic_gap", semantic_gap)' in cells["c42b"]
    assert 'check("boundaries.semantic_threshold", semantic_threshold)' in cells["c42b"]
    assert "width=90" in cells["c42b"]  # every sentence of the stretch printed whole
    assert max(e - s for s, e in HAND.sentences) <= 90
    assert "semantic_split(passage, percentile=25)" in cells["c42d"]
    assert cells["c42f"].count("comparison_report(passage, 300, 25") == 2
    assert (lesson.SEMANTIC_PERCENTILE, lesson.EXPLORER_SIZE, lesson.HAND_SENTENCES) == (25, 300, 5)
    assert not any(c.metadata.get("nbgrader") for c in NB.cells if c.id.startswith("c42"))


def test_the_hand_worked_gap_and_its_table():
    assert lesson.CHECKS["semantic_gap"].expected() == 3 == HAND.breakpoints[0]
    # the threshold asked for, rounded to two decimals, comes out the same from the printed
    # (three-decimal) cosines as from the exact ones, and the gap below it too
    printed = sorted(round(c, 3) for c in HAND.similarities)
    by_hand = printed[0] + 0.75 * (printed[1] - printed[0])
    assert lesson.CHECKS["semantic_threshold"].expected() == 0.26 == round(by_hand, 2)
    assert round(by_hand, 2) == round(float(np.percentile(HAND.similarities, 25)), 2)
    assert [i for i, c in enumerate(HAND.similarities) if round(c, 3) < by_hand] == [3]
    assert selfcheck.verdict("boundaries.semantic_threshold", 0.26)[0] is True
    for wrong in (0.2585, 0.041, 0.331, 0.25, "0.26"):
        assert selfcheck.verdict("boundaries.semantic_threshold", wrong)[0] is False
    assert HAND.breakpoints == [3]
    table = similarity_report(lesson.hand_stretch(), HAND, cuts=False)
    assert "cut" not in table and table.count("cosine") == 4
    assert [f"{c:.3f}" for c in HAND.similarities] == ["0.488", "0.589", "0.331", "0.041"]
    # the stretch's cosines are the whole passage's: the same sentences, the same vectors
    assert HAND.similarities == SEM.similarities[:4]


def test_the_share_of_gaps_cut_is_the_percentiles():
    # "about a quarter of the gaps": the 25th percentile, as a fraction word from figures()
    fig = lesson.figures()
    assert lesson.SEMANTIC_PERCENTILE == 25 and fig["sem_fraction"] == "a quarter"
    assert f"about {fig['sem_fraction']} of the gaps" in PROSE
    assert lesson.relative_cuts(100, lesson.SEMANTIC_PERCENTILE) == 25


def test_the_code_comments_state_the_lessons_constants():
    from chunklib.course.words import WORDS as words

    code = "\n".join(c.source for c in NB.cells if c.cell_type == "code")
    assert f"# To do 1: Fixed windows of {lesson.PART1_SIZE} characters: how many chunks?" in code
    size = lesson.PART1_SIZE
    assert f": recursive_split(text, {size}, separators): into how many pieces" in code
    assert f": merge_spans(recursive_split(text, {size}, separators), {size}): how many" in code
    assert len(P1_SENT) == 3 and code.count("How many of the three sentences does no") == 2
    assert (f"# the {lesson.SEMANTIC_PERCENTILE}th percentile of the cosines, "
            f"{words[lesson.HAND_DECIMALS]} decimals (a float)") in code
    assert f"percentile={lesson.SEMANTIC_PERCENTILE}), cuts=False" in code
    assert len(split_sentences(lesson.hand_stretch())) == lesson.HAND_SENTENCES
    assert f"# the passage's first {words[lesson.HAND_SENTENCES]} sentences" in code
    assert "split_text(passage, 64, length=wordpiece_count)  # at most 64 word pieces" in code


def test_the_counts_in_words_are_the_lessons():
    # "all four separators"; quiz 6's "One: only the least similar pair, as in the stretch done
    # by hand" (a wrong option, but its premise, one cut in the stretch, must hold)
    assert len(DEFAULT_SEPARATORS) == 4
    assert "with all four off only hard cuts remain" in PROSE and "Switch all four separators off" \
        in PROSE and "With all four separators on" in QUIZ
    hand = semantic_split(lesson.hand_stretch(), percentile=lesson.SEMANTIC_PERCENTILE)
    assert len(hand.breakpoints) == 1
    options = " ".join(t for q in RENDERED_QUIZ for t, _why in q.options.values())
    assert "One: only the least similar pair, as in the stretch done by hand" in options
