"""Generated quiz (tools/sync_quiz.py): every number a quiz states comes from its lesson's
``figures()``, and the rendered files and notebook cells are current.

A template's literal text (prompt, option texts, explanations) may hold a digit only inside a
name on tests/test_prose.py's ``ALLOWED``, so a number typed by hand into a question fails here.
"""

import importlib
import re
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from tests.test_prose import literal_text, strip_allowed
from tools import sync_quiz

NOTEBOOKS = sorted((sync_quiz.ROOT / "notebooks").glob("*/*.ipynb"))


def template_texts(lesson):
    for q in importlib.import_module(f"chunklib.course.{lesson}").QUIZ:
        yield q.prompt
        for text, why in q.options.values():
            yield text
            yield why


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.parent.name)
def test_the_quiz_file_and_cells_are_the_render(path: Path):
    lesson = sync_quiz.lesson_of(path)
    quiz = sync_quiz.rendered(lesson)
    assert sync_quiz.quiz_file(lesson).read_text(encoding="utf-8") == sync_quiz.dump(quiz), \
        f"chunklib/data/quiz/{lesson}.json: run tools/sync_quiz.py"
    nb = nbformat.read(path, as_version=4)
    cells = {c.metadata.get("nbgrader", {}).get("grade_id"): c for c in nb.cells}
    for number, question in enumerate(quiz, start=1):
        assert cells[f"quiz_q{number}"].source == question.markdown(number), \
            f"{path.name} quiz_q{number}: run tools/sync_quiz.py"
    assert f"quiz_q{len(quiz) + 1}" not in cells


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.parent.name)
def test_no_quiz_template_types_a_number(path: Path):
    lesson = sync_quiz.lesson_of(path)
    for text in template_texts(lesson):
        stray = re.findall(r"\d+", strip_allowed(literal_text(text)))
        assert stray == [], f"{lesson}.QUIZ types {stray} by hand in {text[:60]!r}"


def test_the_check_catches_a_typed_number():
    assert re.findall(r"\d+", strip_allowed(literal_text("K = {k}, of 39 questions")))
    assert not re.findall(r"\d+", strip_allowed(literal_text("{done} of {n_questions} (O + 1)")))


def test_explain_reads_the_rendered_quiz_without_importing_the_lesson():
    code = ("import sys; from chunklib.course.quiz import explain; explain('evaluation.q1', 'A'); "
            "print('chunklib.course.evaluation' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=sync_quiz.ROOT).stdout
    assert out.rstrip().endswith("False") and "A is" in out


def test_an_unknown_lesson_is_a_clear_error():
    from chunklib.course.quiz import questions

    with pytest.raises(ValueError, match="lesson"):
        questions("nope")
    with pytest.raises(TypeError, match="lesson"):
        questions(3)
