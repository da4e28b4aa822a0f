"""Multiple-choice questions that explain every option, as data, a widget and a text check.

A lesson's questions are written as templates in ``chunklib.course.<lesson>.QUIZ``: every
number in them is a ``str.format`` field filled from the lesson's ``figures()``.
``tools/sync_quiz.py`` renders them into ``chunklib/data/quiz/<lesson>.json``, which this
module reads, so ``explain`` and the widget (``chunklib.widgets.quiz``) never compute a
figure. The notebook states each
question in Markdown and grades the letter written in a code cell (``q1 = "B"``); the widget
and ``explain`` give instant feedback with the explanation of the chosen option.

Leaves out: grading (nbgrader grades the code cells; widget state is gone at autograde) and
rendering the templates (``tools/sync_quiz.py``; tests/test_quiz_render.py proves it current).

    >>> explain("overlap.q1", "B")
    ✓ B is right. ...
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib.resources import files


@dataclass(frozen=True)
class Question:
    """A question, its options as letter -> (text, explanation), and the right letter.

    ``Question("2 + 2?", {"A": ("4", "Yes."), "B": ("5", "No.")}, "A")``
    """

    prompt: str
    options: dict[str, tuple[str, str]]
    answer: str

    def markdown(self, number: int) -> str:
        """The question as Markdown, as the notebook shows it."""
        lines = [f"**Question {number}.** {self.prompt}", ""]
        lines += [f"- **{letter}**: {text}" for letter, (text, _why) in self.options.items()]
        return "\n".join(lines)

    def render(self, figures: dict[str, object]) -> Question:
        """The question with every ``str.format`` field filled from ``figures``.

        ``Question("{a} + {a}?", {"A": ("{b}", "Yes.")}, "A").render({"a": 2, "b": 4}).prompt``
        -> '2 + 2?'
        """
        options = {letter: (text.format(**figures), why.format(**figures))
                   for letter, (text, why) in self.options.items()}
        return Question(self.prompt.format(**figures), options, self.answer)

    def as_dict(self) -> dict[str, object]:
        """The question as JSON data: prompt, options (letter -> [text, explanation]), answer."""
        return {"prompt": self.prompt,
                "options": {k: list(pair) for k, pair in self.options.items()},
                "answer": self.answer}


@cache
def _rendered(lesson: str) -> tuple[Question, ...]:
    path = files("chunklib").joinpath("data", "quiz", f"{lesson}.json")
    if not path.is_file():
        raise ValueError(f"lesson must name a lesson with a quiz, not {lesson!r}")
    data = json.loads(path.read_text(encoding="utf-8"))
    return tuple(Question(q["prompt"], {k: tuple(v) for k, v in q["options"].items()},
                          q["answer"]) for q in data)


def questions(lesson: str) -> list[Question]:
    """The rendered quiz of ``lesson`` (module name under chunklib.course), numbers filled in.

    >>> len(questions("overlap"))
    6
    """
    if not isinstance(lesson, str):
        raise TypeError(f"lesson must be a str, not {type(lesson).__name__}")
    return list(_rendered(lesson))


def feedback(question: Question, choice: object) -> str:
    """The explanation for ``choice``, marked right or wrong.

    ``feedback(Question("2 + 2?", {"A": ("4", "Yes."), "B": ("5", "No.")}, "A"), "a")``
    -> '✓ A is right. Yes.'
    """
    letter = choice.strip().upper() if type(choice) is str else None  # the hidden test's rule
    if letter not in question.options:
        return f"… Write one of {', '.join(question.options)} as a plain str, e.g. \"A\"."
    text, why = question.options[letter]
    if letter == question.answer:
        return f"✓ {letter} is right. {why}"
    return f"✗ {letter} is not it. {why}"


def explain(key: str, choice: object) -> None:
    """Print the feedback for the letter ``choice`` to question ``key`` ("lesson.qN").

    ``explain("overlap.q2", "A")``
    """
    lesson, _, name = key.partition(".")
    number = int(name.lstrip("q"))
    print(feedback(questions(lesson)[number - 1], choice))
