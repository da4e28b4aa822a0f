"""The quiz as radio buttons: choosing an option shows its explanation at once.

The questions and their feedback live in ``chunklib.course.quiz``; this module only draws them.
Leaves out: grading (nbgrader grades the letter written in a code cell).
"""

from __future__ import annotations

import html

import ipywidgets as widgets
from ipywidgets.widgets.widget_description import DescriptionStyle
from ipywidgets.widgets.widget_string import HTMLStyle

from chunklib.course.quiz import feedback, questions


def quiz_widget(lesson: str) -> widgets.VBox:
    """Every question of ``lesson`` with radio buttons; choosing shows that option's explanation.
    One box per question holds its prompt, its radio buttons and the explanation; the boxes
    share their (default) layouts and styles, so the kernel opens a few widgets fewer per question:

    ``[type(w).__name__ for w in quiz_widget("overlap").children[0].children]``
    -> ['HTML', 'RadioButtons', 'HTML']
    """
    boxes, plain = [], {"layout": widgets.Layout()}
    shown = {**plain, "style": HTMLStyle()}  # the HTML widgets' (default) look
    picked = {"layout": widgets.Layout(width="auto"), "style": DescriptionStyle()}
    for number, q in enumerate(questions(lesson), start=1):
        radio = widgets.RadioButtons(
            options=[(f"{k}: {text}", k) for k, (text, _w) in q.options.items()],
            value=None, description=f"Q{number}", tooltip=f"answer to question {number}",
            **picked,
        )
        out = widgets.HTML(**shown)

        def show(change, q=q, out=out):
            out.value = f"<div role='status'>{html.escape(feedback(q, change['new']))}</div>"

        radio.observe(show, names="value")
        prompt = widgets.HTML(f"<b>Question {number}.</b> {html.escape(q.prompt)}", **shown)
        boxes.append(widgets.VBox([prompt, radio, out], **plain))
    return widgets.VBox(boxes, **plain)
