"""Every lesson's quiz gives nothing away by length, explains every option, and is the quiz the
notebook shows and grades.

A learner who always picks the longest option (or the shortest) must score no better than one
who guesses: the right option may be the strictly longest in at most as many questions as
chance gives, the sum over questions of 1 / (number of options), rounded up, per lesson and
over the whole course; the same bound holds for the strictly shortest.
"""

import math
import re
from collections import Counter

import nbformat
import pytest

from chunklib.course.quiz import Question, questions
from tests.nbgrading import lesson_notebook, lessons

LESSONS = lessons()


def module(lesson: str) -> str:
    """'03-overlap' -> 'overlap', the module of chunklib.course that holds the quiz."""
    return lesson.split("-", 1)[1].replace("-", "_")


def chance(qs: list[Question]) -> int:
    """How many questions a blind pick gets right, at most, rounded up."""
    return math.ceil(sum(1 / len(q.options) for q in qs) - 1e-9)


def strictly(q: Question, pick) -> bool:
    """Whether the right option is the only one of the length ``pick`` (max or min) chooses."""
    lengths = {letter: len(text) for letter, (text, _why) in q.options.items()}
    best = pick(lengths.values())
    return [k for k, n in lengths.items() if n == best] == [q.answer]


def longest(qs):
    return sum(strictly(q, max) for q in qs)


def shortest(qs):
    return sum(strictly(q, min) for q in qs)


ALL = [q for lesson in LESSONS for q in questions(module(lesson))]


def test_the_bound_is_what_chance_gives():
    four = Question("?", {k: (k, "Why.") for k in "ABCD"}, "A")
    three = Question("?", {k: (k, "Why.") for k in "ABC"}, "A")
    assert chance([four] * 6) == 2 and chance([four] * 4) == 1 and chance([four, three]) == 1
    assert strictly(Question("?", {"A": ("long one", "W."), "B": ("short", "W.")}, "A"), max)
    assert not strictly(Question("?", {"A": ("same", "W."), "B": ("same", "W.")}, "A"), max)


@pytest.mark.parametrize("lesson", LESSONS)
def test_the_right_option_is_not_told_by_its_length(lesson):
    qs = questions(module(lesson))
    assert longest(qs) <= chance(qs), f"the right option is the longest too often in {lesson}"
    assert shortest(qs) <= chance(qs), f"the right option is the shortest too often in {lesson}"


def test_the_whole_course_is_not_told_by_length_either():
    assert longest(ALL) <= chance(ALL) and shortest(ALL) <= chance(ALL)


def test_the_right_letters_are_spread_over_the_course():
    counts = Counter(q.answer for q in ALL)
    assert set(counts) == set("ABCD")
    assert max(counts.values()) - min(counts.values()) <= 3, counts


@pytest.mark.parametrize("lesson", LESSONS)
def test_every_option_is_explained_in_a_sentence(lesson):
    qs = questions(module(lesson))
    assert len(qs) >= 4 and len({q.answer for q in qs}) >= 3
    for i, q in enumerate(qs, start=1):
        assert q.answer in q.options and len(q.options) >= 3
        assert list(q.options) == list("ABCD")[:len(q.options)], f"q{i}: letters A, B, ..."
        for letter, (text, why) in q.options.items():
            assert text.strip() and why.strip(), f"q{i} {letter}: empty option or explanation"
            assert why[0].isupper(), f"q{i} {letter}: the explanation starts {why[:20]!r}"
            assert why.rstrip().endswith((".", ")", "!")), f"q{i} {letter}: end the sentence"


def graded(nb, grade_id: str):
    (cell,) = [c for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade_id") == grade_id]
    return cell


@pytest.mark.parametrize("lesson", LESSONS)
def test_the_notebook_shows_and_grades_this_quiz(lesson):
    nb = nbformat.read(lesson_notebook(lesson), as_version=4)
    qs = questions(module(lesson))
    ids = [c.metadata.get("nbgrader", {}).get("grade_id", "") for c in nb.cells]
    assert len([g for g in ids if re.fullmatch(r"quiz_q\d+", g)]) == len(qs)
    for i, q in enumerate(qs, start=1):
        assert graded(nb, f"quiz_q{i}").source == q.markdown(i)
        solution = graded(nb, f"q{i}").source
        assert re.search(rf"### BEGIN SOLUTION\nq{i} = '{q.answer}'\n", solution), f"q{i}"
        check = graded(nb, f"test_q{i}")
        assert check.metadata["nbgrader"]["points"] == 1
        assert f'explain("{module(lesson)}.q{i}", q{i})' in check.source
        hidden = check.source.split("### BEGIN HIDDEN TESTS")[1]
        assert re.findall(r"== '([A-Z])'", hidden) == [q.answer], f"q{i}: the hidden letter"
