"""The lesson-5 lifecycle explorer: edit a source, watch which ids, entries and vectors change.

A real ``ChunkIndex`` in memory starts with the course fixture published as generation 1. Each
edit (insert a paragraph, rename a heading, change or remove a section's ACL, add an unrelated
source, delete the source) is made to that original fixture and built by ``lifecycle.update``
as a shadow generation, which readers do not see. The plot shows, per chunk of the edited
source, whether its chunk_id, index entry and vector are as in generation 1. *Publish*
switches the pointer to the shadow, *roll back* switches it back; the summary, which is the
plot's text alternative, says which generation readers see and what an employee and an SRE
find for the production table.

A menu change that returns to an edit built a moment ago reuses its shadow: the last few
shadows stay in the index (a bounded LRU, keyed by what the edit changes; the oldest is dropped
with ``ChunkIndex.drop``), with their plan, plot columns and change table, and the search lines
are kept per generation (a generation never changes once built). A new edit is built from
generation 1 as before. The plot is redrawn through ``chunklib.widgets.layers.Layers``, its frame
rendered once per set of columns (edits often share theirs). While nbgrader autogrades,
``lifecycle_explorer`` returns a note instead (no matplotlib).

Leaves out: the plot (``chunklib.widgets.lifecycle_plot``), the change table and the report's
summary rows (``chunklib.widgets.lifecycle_html``), edits of your own text (the edits are
fixed, so every number is reproducible), sources other than the Deployment Guide.

    >>> LifecycleExplorer().edit_menu.options[0]
    'rename the heading'
"""

from __future__ import annotations

import html
from collections import OrderedDict
from typing import NamedTuple

import ipywidgets as widgets

from chunklib.course.edits import EDITS, QUERY, SECTIONLESS, SOURCE_ID, make_edit
from chunklib.course.fixture import load_sources
from chunklib.documents import Source
from chunklib.elements import parse_elements
from chunklib.index import ChunkIndex
from chunklib.lifecycle import FakeEmbedder, UpdateReport, update
from chunklib.widgets.common import (
    autograding,
    image_view,
    not_drawn,
    set_image,
    summary_html,
)
from chunklib.widgets.layers import Layers
from chunklib.widgets.lifecycle_html import change_table, report_rows
from chunklib.widgets.lifecycle_plot import (
    MARGINS,
    column_states,
    column_ticks,
    states_axes,
    states_cells,
    states_frame,
)

MATRIX = ("Deployment Guide", "Environment Matrix")
KEPT_SHADOWS = 8  # shadows kept in the index for a quick return to a recent edit


class Shadow(NamedTuple):
    """One built edit: what the views show of it (the report is None if it was refused)."""

    description: str
    report: UpdateReport | None
    refused: str
    columns: list
    table: str


def heading_paths_of_guide(sources: list[Source]) -> list[tuple[str, ...]]:
    """The heading paths of the Deployment Guide, in reading order: the sections offered.

    ``heading_paths_of_guide(load_sources())[0]`` -> ('Deployment Guide',)
    """
    guide = next(s for s in sources if s.source_id == SOURCE_ID)
    return [e.heading_path for e in parse_elements(guide.text) if e.kind == "heading"]


class LifecycleExplorer(widgets.VBox):
    """Interactive lesson-5 explorer; a VBox, so the lesson cell just returns it.

    ``LifecycleExplorer().edit_menu.value = "change the section's ACL"`` rebuilds the shadow.
    """

    def __init__(self, edit: str = EDITS[0], section: tuple[str, ...] = MATRIX):
        self.sources = load_sources()
        self.index, self.embedder = ChunkIndex(), FakeEmbedder()
        update(self.index, self.sources, self.embedder)  # generation 1, published
        paths = heading_paths_of_guide(self.sources)
        self._shadows: OrderedDict[tuple, Shadow] = OrderedDict()  # LRU, see the docstring
        self._queries: dict[int, tuple[str, str]] = {}  # generation -> employee, SRE lines
        self._base: dict | None = None  # chunk_id -> record of generation 1
        style = {"description_width": "7em"}
        self.edit_menu = widgets.Dropdown(options=list(EDITS), value=edit, description="edit",
                                          tooltip="which edit to make", style=style)
        self.section_menu = widgets.Dropdown(
            options=[(" > ".join(p[1:]) or p[0], p) for p in paths], value=tuple(section),
            description="section", tooltip="the heading the edit applies to", style=style)
        self.publish_button = widgets.Button(description="publish shadow",
                                             tooltip="switch readers to the shadow generation")
        self.rollback_button = widgets.Button(description="roll back",
                                              tooltip="switch readers back to generation 1")
        self.note, self.summary, self.table = widgets.HTML(), widgets.HTML(), widgets.HTML()
        self.layers = Layers(7.5, 2.2, margins=MARGINS)
        self.figure = self.layers.figure
        states_axes(self.figure.axes[0])  # once: the frames differ only in their x axis
        self.image = image_view(b"")
        buttons = widgets.HBox([self.publish_button, self.rollback_button])
        super().__init__([widgets.VBox([self.edit_menu, self.section_menu, buttons, self.note]),
                          widgets.HBox([self.image, self.summary]), self.table])
        for menu in (self.edit_menu, self.section_menu):
            menu.observe(self._rebuild, names="value")
        self.publish_button.on_click(lambda _b: self._switch(publish=True))
        self.rollback_button.on_click(lambda _b: self._switch(publish=False))
        self._rebuild()

    def _rebuild(self, _change=None) -> None:
        note = ""
        if self.index.published() != 1:
            self.index.rollback()
            note = "Readers were switched back to generation 1 before this edit was built. "
        edit, section = self.edit_menu.value, self.section_menu.value
        key = (edit,) if edit in SECTIONLESS else (edit, section)
        shadow = self._shadows.get(key)
        if shadow is None:
            shadow = self._shadows[key] = self._build(edit, section)
            while len(self._shadows) > KEPT_SHADOWS:
                _key, old = self._shadows.popitem(last=False)
                if old.report is not None:
                    self.index.drop(old.report.generation)
                    self._queries.pop(old.report.generation, None)
        else:
            self._shadows.move_to_end(key)
        self.shadow, self.description, self.report = shadow, shadow.description, shadow.report
        note += shadow.refused
        self.note.value = f"<i>{html.escape(note)}</i>" if note else ""
        self._redraw()

    def _build(self, edit: str, section: tuple[str, ...]) -> Shadow:
        """Build ``edit`` at ``section`` as a shadow of generation 1 (published now)."""
        edited, deleted, description = make_edit(self.sources, edit, section)
        try:
            report = update(self.index, edited, self.embedder, deleted=deleted, publish=False)
        except ValueError as error:  # a refused revision: nothing is built, readers unaffected
            return Shadow(description, None, f"Refused: {error}", [], "")
        touched = {SOURCE_ID, "onboarding-notes"}
        columns = column_states(self.index, 1, report.generation, touched)
        return Shadow(description, report, "", columns, self._table_html(report))

    def _switch(self, publish: bool) -> None:
        if self.report is None:
            return
        if publish and self.index.published() == 1:
            self.index.publish(self.report.generation)
        elif not publish and self.index.published() != 1:
            self.index.rollback()
        self._redraw()

    def query_line(self, groups: list[str]) -> str:
        """What ``groups`` of kestrel find for the production row in the published generation."""
        hits = self.index.search(QUERY, "kestrel", groups, 3, ranking="bm25")
        texts = {c.chunk_id: c.text for c in self.index.chunks()}
        return "; ".join(f"{texts[cid][:40]!r} ({s:.2f})" for cid, s in hits) or "nothing"

    def summary_rows(self) -> list[tuple[str, str]]:
        """The numbers the summary shows, as (label, value) pairs."""
        shown = self.index.published()
        rows = [("edit", self.description),
                ("readers see", f"generation {shown}" + (" (the fixture)" if shown == 1
                                                         else " (the edit, published)"))]
        if self.report is not None:
            rows += report_rows(self.report)
        if shown not in self._queries:  # a generation never changes once built
            self._queries[shown] = (self.query_line(["employees"]), self.query_line(["sre"]))
        employee, sre = self._queries[shown]
        rows += [(f"employee: {QUERY!r}", employee), (f"SRE: {QUERY!r}", sre)]
        return rows

    def _table_html(self, report: UpdateReport) -> str:
        if self._base is None:  # generation 1 never changes: read once
            self._base = {c.chunk_id: c for c in self.index.chunks(1)}
        new = {c.chunk_id: c for c in self.index.chunks(report.generation)}
        return change_table(report.plan, self._base, new)

    def _redraw(self) -> None:
        columns = self.shadow.columns
        ax = self.figure.axes[0]
        ticks = column_ticks(columns)  # the frame key: many edits share their columns
        png = self.layers.draw(key=ticks, frame=lambda: states_frame(ax, ticks),
                               data=lambda: states_cells(ax, columns),
                               overlays=ax.spines.values())
        set_image(self.image, png, f"{len(columns)} chunks: what changed after "
                  f"{self.description}.")
        self.summary.value = summary_html("Lifecycle of one edit", self.summary_rows())
        self.table.value = self.shadow.table
        self.publish_button.disabled = self.report is None or self.index.published() != 1
        self.rollback_button.disabled = self.index.published() == 1


def lifecycle_explorer(edit: str = EDITS[0],
                       section: tuple[str, ...] = MATRIX) -> LifecycleExplorer | widgets.HTML:
    """Build the lesson-5 explorer; the lesson cell is this one call (a note while autograding).

    ``lifecycle_explorer()`` -> LifecycleExplorer(...) renaming "Environment Matrix"
    """
    if edit not in EDITS:
        raise ValueError(f"edit must be one of {EDITS}, got {edit!r}")
    if tuple(section) not in heading_paths_of_guide(load_sources()):
        raise ValueError(f"section must be a heading path of {SOURCE_ID}, got {section!r}")
    if autograding():
        return not_drawn("lifecycle explorer")
    return LifecycleExplorer(edit, tuple(section))
