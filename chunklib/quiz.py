"""Multiple-choice questions that explain every option, as data, a widget and a text check.

A lesson's questions live in ``chunklib.course.<lesson>.QUIZ``. The notebook states each
question in Markdown and grades the letter written in a code cell (``q1 = "B"``); the widget
and ``explain`` give instant feedback with the explanation of the chosen option.

Leaves out: grading. nbgrader grades the code cells; widget state is gone at autograde.

    >>> explain("overlap.q1", "B")
    ✓ B is right. ...
"""

from __future__ import annotations

import html
import importlib
from dataclasses import dataclass

import ipywidgets as widgets


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


def questions(lesson: str) -> list[Question]:
    """The quiz of ``lesson`` (module name under chunklib.course).

    ``len(questions("overlap"))`` -> 6
    """
    return list(importlib.import_module(f"chunklib.course.{lesson}").QUIZ)


def feedback(question: Question, choice: object) -> str:
    """The explanation for ``choice``, marked right or wrong.

    ``feedback(q, "A")`` -> '✓ A is right. ...'
    """
    letter = choice.strip().upper() if isinstance(choice, str) else choice
    if letter not in question.options:
        return f"… Write one of {', '.join(question.options)} as a string, e.g. \"A\"."
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


def quiz_widget(lesson: str) -> widgets.VBox:
    """Every question of ``lesson`` with radio buttons; choosing shows that option's explanation.

    ``quiz_widget("overlap")`` -> VBox([...])
    """
    boxes = []
    for number, q in enumerate(questions(lesson), start=1):
        radio = widgets.RadioButtons(
            options=[(f"{k}: {text}", k) for k, (text, _w) in q.options.items()],
            value=None, description=f"Q{number}", tooltip=f"answer to question {number}",
            layout=widgets.Layout(width="auto"),
        )
        out = widgets.HTML()

        def show(change, q=q, out=out):
            out.value = f"<div role='status'>{html.escape(feedback(q, change['new']))}</div>"

        radio.observe(show, names="value")
        prompt = widgets.HTML(f"<b>Question {number}.</b> {html.escape(q.prompt)}")
        boxes.append(widgets.VBox([prompt, radio, out]))
    return widgets.VBox(boxes)
