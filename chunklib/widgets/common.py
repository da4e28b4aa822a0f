"""Pieces every lesson widget shares: labelled sliders, a PNG view of a Figure, an HTML summary.

Accessibility: every control carries a visible ``description`` and a ``tooltip`` that repeats
it in words, and every picture has an HTML summary beside it that states what the picture
shows (its text alternative).

Leaves out: layout decisions of a particular lesson.

    >>> s = int_slider("chunk size C", 200, 1, 500)
"""

from __future__ import annotations

import html

import ipywidgets as widgets
from matplotlib.figure import Figure

from chunklib.plotting import figure_png

_STYLE = {"description_width": "9em"}


def int_slider(description: str, value: int, lo: int, hi: int, step: int = 1,
               tooltip: str | None = None) -> widgets.IntSlider:
    """An integer slider with a readable label and a tooltip.

    ``int_slider("overlap O", 50, 0, 199).value`` -> 50
    """
    return widgets.IntSlider(
        value=value, min=lo, max=hi, step=step, description=description,
        tooltip=tooltip or description, continuous_update=False, style=_STYLE,
        layout=widgets.Layout(width="28em"),
    )


def png_view(fig: Figure, alt: str = "") -> widgets.Image:
    """An Image widget showing ``fig`` as PNG; call ``refresh_png`` after redrawing.

    ``png_view(new_figure()).format`` -> 'png'
    """
    img = widgets.Image(value=figure_png(fig), format="png")
    img.layout = widgets.Layout(max_width="640px")
    if alt:
        img.tooltip = alt
    return img


def refresh_png(img: widgets.Image, fig: Figure, alt: str = "") -> None:
    """Re-render ``fig`` into ``img`` (and update the tooltip used as a short alt text).

    ``refresh_png(img, fig)``
    """
    img.value = figure_png(fig)
    if alt:
        img.tooltip = alt


def summary_html(title: str, rows: list[tuple[str, str]]) -> str:
    """A small definition table: the text alternative written beside a plot.

    ``summary_html("Overlap", [("stride", "150")])`` -> '<div ...>...stride...150...</div>'
    """
    body = "".join(
        f"<tr><th style='text-align:left;padding-right:1em'>{html.escape(k)}</th>"
        f"<td>{html.escape(v)}</td></tr>" for k, v in rows
    )
    return (f"<div role='status' aria-live='polite'><b>{html.escape(title)}</b>"
            f"<table>{body}</table></div>")


def short_list(values: list[int], head: int = 4, tail: int = 2) -> str:
    """Numbers as text, elided in the middle when long.

    ``short_list(list(range(0, 1000, 100)))`` -> '0, 100, 200, 300, …, 800, 900'
    """
    if len(values) <= head + tail + 1:
        return ", ".join(map(str, values)) or "none"
    return ", ".join(map(str, values[:head])) + ", …, " + ", ".join(map(str, values[-tail:]))
