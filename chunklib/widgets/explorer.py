"""The one skeleton every lesson explorer stands on: controls, a cached computation, a picture
drawn as a frame and a data layer, a summary that is its text alternative, a chunk stepper.

A move of any control runs one path: the control values become ``params`` (a named tuple,
one field per control), ``compute(params)`` turns them into one value object (computed and
validated once per setting, in a bounded cache, so a move back costs nothing), and the base
draws it: the frame (what depends only on ``frame_key``) is rendered once per key and kept by
``chunklib.widgets.layers.Layers``, the data layer is drawn over it, the summary and the
stepper line are written. Built in, so no explorer writes them again:

- a re-entrancy guard: a control that changes another control (a range that follows another
  value, the stepper clamped when there are fewer chunks) never starts a second redraw;
- batched updates: everything that changes during one move, or inside ``with e.batch():``,
  is drawn once, at the end (``e.redraws`` counts the redraws);
- the autograde placeholder: ``build`` returns ``not_drawn(...)`` while nbgrader runs the
  notebook, so no explorer is built and matplotlib is never imported then;
- accessibility: labelled sliders with tooltips (``int_slider``), the picture as a
  ``PlotImage`` whose tooltip is its short alt text, the summary (a live region) ending with
  the plot's description in words.

How to port an explorer onto this base (a checklist):

1. Subclass ``Explorer``; set ``name`` (for the placeholder, e.g. "overlap explorer"),
   ``figsize``, ``margins``, and ``empty`` (the stepper's line when there are no chunks).
2. ``make_controls(**args)`` returns the controls as ``{param: widget}`` in display order
   (``int_slider``, ``widgets.Dropdown``, ``widgets.Checkbox``), each key the name of the
   constructor argument that sets it, so ``cls(**params)`` builds the explorer at a setting;
   keep the attribute names the lesson and its tests use (``self.size_slider = ...``).
   ``check(**args)`` refuses bad arguments (a clear ValueError/TypeError) before anything is
   built.
3. ``compute(params)`` returns the value object for one setting: every number the picture and
   the summary show, computed once (a NamedTuple). Nothing else computes.
4. ``count(value)``: how many chunks the stepper steps through.
5. ``frame_key(value)`` and ``draw_frame(ax, value)``: the axes, labels and legend that depend
   only on the key; ``draw_data(ax, value, current)`` returns the artists it adds.
6. ``step_text(value, current)``, ``describe(value, current)`` (the summary: a title and
   (label, value) rows) and ``alt(value, current)`` (the picture in one sentence).
7. Optional: ``adjust(name, old, new)`` when a control changes another control's range;
   ``views()`` and ``show(value, current)`` for extra views (HTML, or a second picture with its
   own ``Layers``); ``notes()`` under the controls; ``arrange()`` to place everything;
   ``overlays(ax)`` for artists drawn over the data on every draw (default: y axis and
   spines), ``underlays(ax)`` and ``under_key(value)`` for artists under it, kept per key;
   ``has_stepper = False`` for an explorer without a chunk stepper (``current`` is then None).
   State that no control holds (a button's effect): keep it on the explorer, add it to
   ``params()`` (any hashable), and call ``refresh()`` after changing it.
8. The factory the lesson calls is one line: ``return OverlapExplorer.build(n=n, ...)``.
9. Tests: ``tests/test_explorers.py`` finds the class by itself; the explorer's own test file
   keeps only what is its own (the numbers it shows). ``benchmarks/explorers.py`` times it.

Leaves out: the drawing of any particular plot (each explorer's ``*_plot`` module) and
interactive matplotlib backends (the picture is a PNG, which works in exported HTML too).

    >>> "OverlapExplorer" in {c.__name__ for c in explorers()}
    True
"""

from __future__ import annotations

import html
import importlib
import pkgutil
from collections import namedtuple
from collections.abc import Hashable, Iterable
from contextlib import contextmanager
from functools import lru_cache

import ipywidgets as widgets

from chunklib.widgets.common import (
    ChunkStepper,
    autograding,
    image_view,
    not_drawn,
    set_image,
    summary_html,
)
from chunklib.widgets.layers import Layers

_REGISTRY: list[type] = []


class Explorer(widgets.VBox):
    """An explorer: a VBox, so the lesson cell just returns it. Subclasses state only what is
    their own (see the module's checklist).

    ``OverlapExplorer().size_slider.value = 300`` -> one redraw: picture, summary, stepper.
    """

    name = "explorer"
    figsize: tuple[float, float] = (7.5, 3.2)
    margins: dict | None = None
    empty = "there is nothing to chunk."
    has_stepper = True  # a chunk stepper under the controls
    stepper_tooltip = "which chunk to highlight"
    cache_size = 32  # settings whose computed value is kept

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        _REGISTRY.append(cls)

    @classmethod
    def build(cls, **args):
        """The factory's body: check the arguments, then the explorer, or the placeholder note
        while nbgrader autogrades (nothing drawn, matplotlib not imported)."""
        cls.check(**args)
        if autograding():
            return not_drawn(cls.name)
        return cls(**args)

    def __init__(self, **args):
        self.check(**args)
        self.redraws = 0
        self._batching = self._drawing = self._dirty = False
        self.controls: dict[str, widgets.ValueWidget] = self.make_controls(**args)
        self.Params = namedtuple("Params", list(self.controls))
        self._compute = lru_cache(maxsize=self.cache_size)(self.compute)
        self.stepper = self.chunk_slider = self.step_label = None
        self.prev_button = self.next_button = None
        if self.has_stepper:
            self.stepper = ChunkStepper(self.stepper_tooltip)
            self.chunk_slider, self.step_label = self.stepper.slider, self.stepper.label
            self.prev_button, self.next_button = self.stepper.prev_button, self.stepper.next_button
        self.summary = widgets.HTML(layout=widgets.Layout(min_width="22em"))
        self.layers = Layers(*self.figsize, margins=self.margins)
        self.figure = self.layers.figure
        self.image = image_view(b"")
        super().__init__(self.arrange())
        self._names = {id(c): name for name, c in self.controls.items()}
        stepper = [self.chunk_slider] if self.has_stepper else []
        for control in [*self.controls.values(), *stepper]:
            control.observe(self._changed, names="value")
        self.redraw()

    # -- what an explorer states (override) ------------------------------------------------

    @classmethod
    def check(cls, **args) -> None:
        """Refuse bad factory arguments with a ValueError or TypeError naming the argument."""

    def make_controls(self, **args) -> dict[str, widgets.ValueWidget]:
        raise NotImplementedError

    def compute(self, params) -> object:
        raise NotImplementedError

    def count(self, value) -> int:
        raise NotImplementedError

    def frame_key(self, value) -> Hashable:
        raise NotImplementedError

    def draw_frame(self, ax, value) -> None:
        raise NotImplementedError

    def draw_data(self, ax, value, current: int | None) -> Iterable:
        raise NotImplementedError

    def step_text(self, value, current: int) -> str:
        raise NotImplementedError

    def describe(self, value, current: int | None) -> tuple[str, list[tuple[str, str]]]:
        raise NotImplementedError

    def alt(self, value, current: int | None) -> str:
        raise NotImplementedError

    def adjust(self, name: str, old, new) -> None:
        """Called once per user move of control ``name``, before the redraw."""

    def views(self) -> list[widgets.Widget]:
        """Extra views shown below the picture (HTML widgets the explorer fills in ``show``)."""
        return []

    def show(self, value, current: int | None) -> None:
        """Fill the extra views."""

    def arrange(self) -> list[widgets.Widget]:
        """Controls, stepper, then the picture beside its summary, then the extra views."""
        stepper = [self.stepper.box, self.step_label] if self.has_stepper else []
        return [widgets.VBox([*self.controls.values(), *self.notes(), *stepper]),
                widgets.HBox([self.image, self.summary]), *self.views()]

    def notes(self) -> list[widgets.Widget]:
        """Widgets shown under the controls (for example a note that a value was clamped)."""
        return []

    def overlays(self, ax) -> tuple:
        """Artists drawn over the data on every draw: their look follows the data."""
        return (ax.yaxis, *ax.spines.values())

    def underlays(self, ax) -> tuple:
        """Artists drawn under the data (an x axis whose range follows a control), kept with
        the frame per ``under_key``."""
        return ()

    def under_key(self, value) -> Hashable | None:
        """What the underlays depend on besides the frame key (None: drawn on every move)."""
        return None

    # -- the skeleton --------------------------------------------------------------------------

    def params(self):
        """The control values now, as a named tuple: the key of the computation (an explorer
        with state that no control holds returns it here too; anything hashable)."""
        return self.Params(*(c.value for c in self.controls.values()))

    @property
    def computed(self):
        """The value object for the current setting (cached)."""
        return self._compute(self.params())

    @property
    def current(self) -> int | None:
        """The current chunk, 0-based; None when there are none."""
        if not self.has_stepper or not self.count(self.computed):
            return None
        return self.chunk_slider.value - 1

    def summary_rows(self) -> list[tuple[str, str]]:
        """The (label, value) rows the summary shows now."""
        return self.describe(self.computed, self.current)[1]

    @contextmanager
    def batch(self):
        """Change several controls; the explorer redraws once, at the end (if anything moved).

        ``with e.batch(): e.size_slider.value = 100; e.overlap_slider.value = 20``
        """
        if self._batching:
            yield
            return
        self._batching = True
        try:
            yield
        finally:
            self._batching = False
        if self._dirty:
            self.redraw()

    def _changed(self, change) -> None:
        self._dirty = True
        if self._drawing:  # the stepper clamped while drawing: already drawn as it is now
            return
        with self.batch():  # a control moved by ``adjust`` is drawn with this move, once
            name = self._names.get(id(change["owner"]))
            if name is not None:
                self.adjust(name, change["old"], change["new"])

    def refresh(self) -> None:
        """Redraw after a change that no control holds (a button press); once per batch."""
        self._dirty = True
        if not self._batching and not self._drawing:
            self.redraw()

    def redraw(self) -> None:
        """Draw picture, summary, stepper line and extra views for the current setting."""
        self._drawing = True
        try:
            value, current = self.computed, None
            if self.has_stepper:
                k = self.count(value)
                current = self.stepper.follow(k)  # clamps the stepper when there are fewer
                if k:
                    self.stepper.say(k, current, self.step_text(value, current), "")
                else:
                    self.stepper.say(0, None, "", self.empty)
            ax = self.figure.axes[0]
            png = self.layers.draw(key=self.frame_key(value),
                                   frame=lambda: self.draw_frame(ax, value),
                                   data=lambda: self.draw_data(ax, value, current),
                                   overlays=lambda: self.overlays(ax),
                                   underlays=lambda: self.underlays(ax),
                                   under_key=self.under_key(value))
            alt = self.alt(value, current)
            set_image(self.image, png, alt)
            title, rows = self.describe(value, current)
            self.summary.value = (summary_html(title, rows)
                                  + f"<p><small>Plot: {html.escape(alt)}</small></p>")
            self.show(value, current)
            self.redraws += 1
        finally:
            self._drawing = False
            self._dirty = False


def explorers() -> list[type[Explorer]]:
    """Every explorer class in ``chunklib.widgets`` built on this base (imports the modules).

    ``[c.name for c in explorers()]`` -> ['overlap explorer', ...]
    """
    import chunklib.widgets as pkg

    for info in pkgutil.iter_modules(pkg.__path__):
        importlib.import_module(f"chunklib.widgets.{info.name}")
    return [c for c in _REGISTRY if c.__module__.startswith("chunklib.widgets.")]
