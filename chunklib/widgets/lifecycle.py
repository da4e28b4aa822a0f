"""The lesson-5 lifecycle explorer: edit a source, watch which ids, entries and vectors change.

A real ``ChunkIndex`` in memory holds the course fixture, published as generation 1. Each edit
(rename a heading, insert a paragraph, change or remove a section's ACL, add an unrelated
source, delete the source; ``chunklib.course.edits``) is made to that original fixture and built
by ``chunklib.lifecycle.update`` as shadow generation 2, which readers do not see, in a copy of
that index (SQLite's backup, well under a millisecond), so every edit starts from the same
generation 1 and shows the same numbers whatever was tried before. The plot shows, per chunk of
the edited source, whether its chunk_id, index entry and vector are as in generation 1. The
vectors are all-MiniLM-L6-v2's (``chunklib.vectors.MiniLMEmbedder``, which counts the texts the
build asks it for); the store the course ships holds every text an edit creates
(``chunklib.course.edits.edit_texts``), so no edit waits for the model. *Publish* switches the
copy's pointer to the shadow, *roll back* switches it back; the summary, which is the plot's
text alternative, says which generation readers see and what an employee and an SRE find for the
production row. Choosing another edit while the shadow is published rolls back first.

One setting (edit, section, published) gives one ``LifecycleView``, computed once by the base
(``chunklib.widgets.explorer``); the last ``KEPT_SHADOWS`` built indexes are kept, so a return
to a recent edit builds nothing and can still be published.

Leaves out: the plot (``chunklib.widgets.lifecycle_plot``), the change table and the report's
summary rows (``chunklib.widgets.lifecycle_html``), edits of your own text (the edits are
fixed, so every number is reproducible), sources other than the Deployment Guide.

    >>> x = LifecycleExplorer()
    >>> x.summary_rows()[1]
    ('readers see', 'generation 1 (the fixture)')
"""

from __future__ import annotations

from collections import OrderedDict
from typing import NamedTuple

import ipywidgets as widgets

from chunklib.course.edits import (
    EDITS,
    MATRIX,
    QUERY,
    SECTIONLESS,
    SOURCE_ID,
    guide_headings,
    make_edit,
)
from chunklib.course.fixture import load_sources
from chunklib.index import ChunkIndex
from chunklib.lifecycle import UpdateReport, update
from chunklib.vectors import MiniLMEmbedder
from chunklib.widgets.explorer import Explorer
from chunklib.widgets.lifecycle_html import change_table, report_rows
from chunklib.widgets.lifecycle_plot import (
    MARGINS,
    column_states,
    states_cells,
    states_frame,
)

KEPT_SHADOWS = 8  # built indexes kept for a quick return to a recent edit
FIXTURE = 1       # the generation the fixture is published as; every shadow is the next one


class Shadow(NamedTuple):
    """One edit built in its own copy of the fixture's index."""

    index: ChunkIndex
    report: UpdateReport
    description: str


class LifecycleView(NamedTuple):
    """Everything the explorer shows of one edit, published or not."""

    description: str
    report: UpdateReport
    columns: list      # (label, (chunk_id, entry, vector) states) per chunk, see lifecycle_plot
    table: str         # the change table (HTML)
    published: bool
    finds: tuple[str, str]  # what an employee and an SRE find for QUERY


def finds(index: ChunkIndex) -> tuple[str, str]:
    """What an employee and an SRE of kestrel find for ``QUERY`` in the published generation.
    In the fixture only the SRE may read the production row of the Environment Matrix:

    ``finds(x.fixture)`` -> ('nothing', "'production | 4 | SRE' (...)")
    """
    texts = {c.chunk_id: c.text for c in index.chunks()}
    return tuple("; ".join(f"{texts[cid][:40]!r} ({s:.2f})" for cid, s in
                           index.search(QUERY, "kestrel", groups, 3, ranking="bm25")) or "nothing"
                 for groups in (["employees"], ["sre"]))


class LifecycleExplorer(Explorer):
    """Interactive lesson-5 explorer: an edit menu, a section menu, publish and roll back.

    ``LifecycleExplorer().edit_menu.value = "change the section's ACL"`` builds that shadow.
    """

    name = "lifecycle explorer"
    figsize = (7.5, 2.2)
    margins = MARGINS
    has_stepper = False

    def __init__(self, edit: str = EDITS[0], section: tuple[str, ...] = MATRIX):
        self.check(edit=edit, section=section)  # before the fixture's index is built
        self.fixture, self.embedder = ChunkIndex(), MiniLMEmbedder()
        update(self.fixture, load_sources(), self.embedder)  # generation 1, published
        self.fixture_chunks = {c.chunk_id: c for c in self.fixture.chunks(FIXTURE)}
        self.fixture_finds = finds(self.fixture)
        self.shadows: OrderedDict[tuple, Shadow] = OrderedDict()
        self.published, self.switched_back = False, ""
        self.publish_button = widgets.Button(description="publish shadow",
                                             tooltip="switch readers to the shadow generation")
        self.rollback_button = widgets.Button(description="roll back",
                                              tooltip="switch readers back to generation 1")
        self.note = widgets.HTML()
        self.table = widgets.HTML()
        super().__init__(edit=edit, section=tuple(section))
        self.publish_button.on_click(lambda _b: self.switch(publish=True))
        self.rollback_button.on_click(lambda _b: self.switch(publish=False))

    @classmethod
    def check(cls, edit=EDITS[0], section=MATRIX) -> None:
        if edit not in EDITS:
            raise ValueError(f"edit must be one of {EDITS}, got {edit!r}")
        if not isinstance(section, tuple | list) or tuple(section) not in guide_headings():
            raise ValueError(f"section must be a heading path of {SOURCE_ID}, got {section!r}")

    def make_controls(self, edit, section):
        style = {"description_width": "7em"}
        self.edit_menu = widgets.Dropdown(options=list(EDITS), value=edit, description="edit",
                                          tooltip="which edit to make", style=style)
        self.section_menu = widgets.Dropdown(
            options=[(" > ".join(p[1:]) or p[0], p) for p in guide_headings()], value=section,
            description="section", tooltip="the heading the edit applies to", style=style)
        return {"edit": self.edit_menu, "section": self.section_menu}

    def notes(self):
        return [widgets.HBox([self.publish_button, self.rollback_button]), self.note]

    def views(self):
        return [self.table]

    # -- state no control holds: which generation readers see ---------------------------------

    def params(self):
        return (*super().params(), self.published)

    def shadow(self, edit: str, section: tuple[str, ...]) -> Shadow:
        """``edit`` at ``section`` built as generation 2 in a copy of the fixture's index;
        built once, the last ``KEPT_SHADOWS`` kept."""
        key = (edit,) if edit in SECTIONLESS else (edit, section)
        if key in self.shadows:
            self.shadows.move_to_end(key)
            return self.shadows[key]
        index = ChunkIndex()
        self.fixture.db.backup(index.db)  # generation 1, published, as built once
        edited, deleted, description = make_edit(load_sources(), edit, section)
        report = update(index, edited, self.embedder, deleted=deleted, publish=False)
        self.shadows[key] = shadow = Shadow(index, report, description)
        while len(self.shadows) > KEPT_SHADOWS:
            self.shadows.popitem(last=False)[1].index.close()
        return shadow

    @property
    def index(self) -> ChunkIndex:
        """The index of the edit shown now (its pointer says what readers see)."""
        return self.shadow(self.edit_menu.value, self.section_menu.value).index

    @property
    def report(self) -> UpdateReport:
        """The update report of the edit shown now."""
        return self.computed.report

    def switch(self, publish: bool) -> None:
        """Publish the shadow, or roll back to generation 1, then redraw."""
        index, report, _ = self.shadow(self.edit_menu.value, self.section_menu.value)
        if publish == self.published:
            return
        if publish:
            index.publish(report.generation)
        else:
            index.rollback()
        self.published, self.switched_back = publish, ""
        self.refresh()

    def adjust(self, name, old, new) -> None:
        """A new edit or section: roll the shown one back first, so readers see generation 1."""
        self.switched_back = ""
        if self.published:
            edit, section = self.edit_menu.value, self.section_menu.value
            edit, section = (old, section) if name == "edit" else (edit, old)
            self.shadow(edit, section).index.rollback()
            self.published = False
            self.switched_back = "Readers were switched back to generation 1 before this edit."

    # -- what the base draws -----------------------------------------------------------------

    def compute(self, params) -> LifecycleView:
        edit, section, published = params
        index, report, description = self.shadow(edit, section)
        new = {c.chunk_id: c for c in index.chunks(report.generation)}
        columns = column_states(index, FIXTURE, report.generation,
                                {SOURCE_ID, "onboarding-notes"})
        return LifecycleView(description, report, columns,
                             change_table(report.plan, self.fixture_chunks, new), published,
                             finds(index) if published else self.fixture_finds)

    def frame_key(self, view: LifecycleView):
        return "states"  # one frame: the x range and column labels are drawn with the cells

    def draw_frame(self, ax, view: LifecycleView) -> None:
        states_frame(ax)

    def draw_data(self, ax, view: LifecycleView, current):
        return states_cells(ax, view.columns)

    def overlays(self, ax) -> tuple:
        return tuple(ax.spines.values())  # the three row names never change

    def describe(self, view: LifecycleView, current):
        shown = (f"generation {view.report.generation} (the edit, published)" if view.published
                 else f"generation {FIXTURE} (the fixture)")
        rows = [("edit", view.description), ("readers see", shown), *report_rows(view.report)]
        employee, sre = view.finds
        return "Lifecycle of one edit", rows + [(f"employee: {QUERY!r}", employee),
                                                (f"SRE: {QUERY!r}", sre)]

    def alt(self, view: LifecycleView, current) -> str:
        return f"{len(view.columns)} chunks: what changed after {view.description}."

    def show(self, view: LifecycleView, current) -> None:
        self.note.value = f"<i>{self.switched_back}</i>" if self.switched_back else ""
        self.table.value = view.table
        self.publish_button.disabled = view.published
        self.rollback_button.disabled = not view.published


def lifecycle_explorer(edit: str = EDITS[0],
                       section: tuple[str, ...] = MATRIX) -> LifecycleExplorer | widgets.HTML:
    """Build the lesson-5 explorer; the lesson cell is this one call (a note while autograding).
    It opens on the first edit at the Environment Matrix:

    ``lifecycle_explorer().summary_rows()[0]``
    -> ('edit', '"Environment Matrix" renamed to "Environment Matrix (revised)"')
    """
    return LifecycleExplorer.build(edit=edit, section=section)
