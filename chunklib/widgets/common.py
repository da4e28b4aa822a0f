"""Pieces every lesson widget shares: labelled sliders, a PNG view of a Figure, an HTML summary.

Accessibility: every control carries a visible ``description`` and a ``tooltip`` that repeats
it in words, and every picture has an HTML summary beside it that states what the picture
shows (its text alternative). Three gaps of ipywidgets 8.1 in JupyterLab 4.6, measured in
Chromium's accessibility tree and with the keyboard, are closed here:

- a slider's ``description`` is a ``<label>`` that is not tied to the slider handle, so the
  handle (role ``slider``) has no accessible name, and ipywidgets cannot set ``aria-label``
  (jupyter-widgets/ipywidgets#2650);
- in a notebook, the arrow keys and Enter on a focused drop-down, radio button, button or
  slider handle run JupyterLab's notebook shortcuts (move to the next cell) instead of
  reaching the control;
- a plain ``widgets.Image`` with a ``tooltip`` fails to render in JupyterLab 4 (its view reads
  a ``description`` the Image model does not have).

``int_slider`` and ``image_view`` therefore send, once per cell run in a kernel, a small script
(``WIDGET_A11Y_JS``) that copies each slider's description onto its handle as ``aria-label``
(its tooltip as ``aria-description``) and marks widget controls ``data-lm-suppress-shortcuts``
so their keys reach them; it runs in JupyterLab and in the offline HTML export alike.
``PlotImage`` adds the missing trait, so the tooltip becomes the ``<img>``'s title: its
accessible name, the short alt text.

Leaves out: layout decisions of a particular lesson.

The examples below show a PNG drawn by ``chunklib.widgets.layers.Layers`` (an empty plot):

    >>> from chunklib.widgets.layers import Layers
    >>> png = Layers(2, 1).draw(key="empty", frame=lambda: None, data=lambda: [])
    >>> img = image_view(png, "An empty plot")
    >>> img.tooltip
    'An empty plot'
"""

from __future__ import annotations

import html
import os

import ipywidgets as widgets
from traitlets import Unicode

_STYLE = {"description_width": "9em"}

# Copies every slider's visible label onto its handle (role=slider) as aria-label, the tooltip
# as aria-description, and lets keys on widget controls reach them instead of JupyterLab's
# notebook shortcuts; watches the page, because widget views render after this runs.
WIDGET_A11Y_JS = """
(() => {
  if (window.chunklibWidgetA11y) { return; }
  window.chunklibWidgetA11y = true;
  const KEYED = 'select, input, textarea, button, [role="slider"], [contenteditable="true"]';
  const label = (box) => {
    const tag = box.querySelector(':scope > .widget-label');
    const name = tag ? tag.textContent.trim() : '';
    if (!name) { return; }
    const tip = tag.title && tag.title !== 'null' && tag.title !== name ? tag.title : '';
    box.querySelectorAll('[role="slider"]').forEach((handle) => {
      if (handle.getAttribute('aria-label') !== name) { handle.setAttribute('aria-label', name); }
      if (tip) { handle.setAttribute('aria-description', tip); }
    });
    const readout = box.querySelector(':scope > .widget-readout');
    if (readout) { readout.setAttribute('aria-label', name + ' (type a value)'); }
  };
  const keyed = (el) => el.setAttribute('data-lm-suppress-shortcuts', 'true');
  const scan = (node) => {
    const el = node.nodeType === 1 ? node : node.parentElement;
    if (!el || !el.closest('.jupyter-widgets, .widget-subarea')) {
      if (el) { el.querySelectorAll('.jupyter-widgets').forEach(scan); }
      return;
    }
    const own = el.closest('.widget-slider');
    if (own) { label(own); }
    el.querySelectorAll('.widget-slider').forEach(label);
    if (el.matches(KEYED)) { keyed(el); }
    el.querySelectorAll(KEYED).forEach(keyed);
  };
  scan(document.body);
  new MutationObserver((records) => records.forEach((r) => r.addedNodes.forEach(scan)))
    .observe(document.body, {childList: true, subtree: true});
})();
"""
_a11y_sent_in: tuple[int, int] | None = None


def send_widget_a11y() -> bool:
    """Display ``WIDGET_A11Y_JS`` once per cell run, only inside a kernel; True if sent.

    In plain Python there is no page to fix, so nothing is sent:
    ``send_widget_a11y()`` -> False
    """
    global _a11y_sent_in
    try:
        from IPython import get_ipython
        from IPython.display import Javascript, display
    except ImportError:  # pragma: no cover (IPython comes with ipywidgets)
        return False
    shell = get_ipython()
    if shell is None or getattr(shell, "kernel", None) is None:
        return False
    key = (id(shell), shell.execution_count)
    if key == _a11y_sent_in:
        return False
    _a11y_sent_in = key
    display(Javascript(WIDGET_A11Y_JS))
    return True


class PlotImage(widgets.Image):
    """``widgets.Image`` whose ``tooltip`` becomes the ``<img>`` title, its accessible name.

    ``PlotImage(value=b"", format="png", tooltip="Plot of 7 chunks").tooltip`` -> 'Plot of 7 chunks'
    """

    # ipywidgets 8.1's ImageView reads description.length when a tooltip is set: without this
    # trait the view fails with a TypeError and JupyterLab shows an error box, not the plot.
    description = Unicode("").tag(sync=True)


def int_slider(description: str, value: int, lo: int, hi: int, step: int = 1,
               tooltip: str | None = None) -> widgets.IntSlider:
    """An integer slider with a readable label and a tooltip.

    ``int_slider("overlap O", 50, 0, 199).value`` -> 50
    """
    send_widget_a11y()
    return widgets.IntSlider(
        value=value, min=lo, max=hi, step=step, description=description,
        tooltip=tooltip or description, continuous_update=False, style=_STYLE,
        layout=widgets.Layout(width="28em"),
    )


class ChunkStepper:
    """The chunk stepper every explorer shows: ◀ previous, a chunk slider, next ▶, and a line
    such as "Chunk 3 of 7: tokens 300 to 500". The explorer observes ``slider`` to redraw.

    ``follow(k)`` ranges the slider over ``k`` chunks and returns the current one, 0-based:
    ``ChunkStepper().follow(7)`` -> 0
    """

    def __init__(self, tooltip: str = "which chunk to highlight"):
        self.slider = int_slider("chunk", 1, 1, 1, 1, tooltip)
        self.prev_button = widgets.Button(description="◀ previous", tooltip="previous chunk")
        self.next_button = widgets.Button(description="next ▶", tooltip="next chunk")
        self.label = widgets.HTML()
        self.box = widgets.HBox([self.prev_button, self.slider, self.next_button])
        self.prev_button.on_click(lambda _b: self.step(-1))
        self.next_button.on_click(lambda _b: self.step(+1))

    def step(self, delta: int) -> None:
        """Move ``delta`` chunks, staying in range."""
        s = self.slider
        s.value = min(max(s.value + delta, s.min), s.max)

    def follow(self, k: int) -> int | None:
        """Range over ``k`` chunks (lowering the maximum clamps the value), disabled when there
        are none; returns the current chunk, 0-based, or None when ``k`` is 0."""
        self.slider.max = max(k, 1)
        self.slider.disabled = k == 0
        return self.slider.value - 1 if k else None

    def say(self, k: int, current: int | None, detail: str, empty: str) -> None:
        """Write "Chunk i of k: detail", or "No chunks: empty" when ``k`` is 0."""
        self.label.value = (f"<b>Chunk {current + 1} of {k}</b>: {detail}" if k and
                            current is not None else f"<b>No chunks</b>: {empty}")


def image_view(png: bytes, alt: str = "") -> PlotImage:
    """An Image widget showing PNG bytes (for example from ``Layers.draw``).

    ``image_view(png, "Plot of 7 chunks").format`` -> 'png'
    """
    send_widget_a11y()
    img = PlotImage(value=png, format="png")
    # flex-start: in an HBox beside a taller summary the picture would otherwise be stretched
    img.layout = widgets.Layout(max_width="640px", align_self="flex-start")
    if alt:
        img.tooltip = alt
    return img


def set_image(img: widgets.Image, png: bytes, alt: str = "") -> None:
    """Show new PNG bytes in ``img`` and update its short alt text.

    ``set_image(img, png, "Plot of 6 chunks")``
    """
    img.value = png
    if alt:
        img.tooltip = alt


def autograding() -> bool:
    """True while nbgrader autogrades or validates a notebook (it sets ``NBGRADER_EXECUTION``).

    Explorers are not built then: nothing is graded from them, and drawing them would make
    every submission's autograde pay for matplotlib. Outside nbgrader, as in a learner's kernel:
    ``autograding()`` -> False
    """
    return bool(os.environ.get("NBGRADER_EXECUTION"))


def not_drawn(name: str) -> widgets.HTML:
    """What an explorer's cell shows instead of the explorer while nbgrader runs the notebook.

    ``not_drawn("overlap explorer").value`` -> '<i>The overlap explorer is not drawn ...</i>'
    """
    return widgets.HTML(f"<i>The {html.escape(name)} is not drawn while nbgrader runs this "
                        "notebook; open the notebook in JupyterLab to use it.</i>")


def summary_html(title: str, rows: list[tuple[str, str]]) -> str:
    """A small definition table: the text alternative written beside a plot.

    ``summary_html("Overlap", [("stride", "150")])``
    -> "<div role='status' aria-live='polite'><b>Overlap</b><table>...stride...150...</table></div>"
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
