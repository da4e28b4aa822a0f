"""The lesson-5 lifecycle explorer: edit a source, watch which ids, entries and vectors change.

The fixture is indexed once as generation 1; each edit is built by ``chunklib.lifecycle.update``
as shadow generation 2 in a copy of that index, so it shows the same numbers whatever was tried
before. The plot shows, per chunk, whether its chunk_id, index entry and vector are as in
generation 1; a table lists the entries that change. *Publish* and *roll back* switch what
readers see (another edit rolls back first); the summary says what an employee and an SRE find.

Leaves out: edits of your own text (the edits are fixed, so every number is reproducible) and
sources other than the Deployment Guide.

    >>> x = LifecycleExplorer()
    >>> x.summary_rows()[1]
    ('readers see', 'generation 1 (the fixture)')
    >>> change_table({"keep": ["3f2a"]}, base={}, new={})
    '<p>Every index entry is kept: nothing to re-embed or re-index.</p>'
    >>> e = LifecycleExplorer("add an unrelated source")
    >>> new = {c.chunk_id: c for c in e.index.chunks(2)}
"""

from __future__ import annotations

import html
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
from chunklib.widgets.explorer import PALETTE, Explorer, bars_patch

KEPT_SHADOWS = 8  # built indexes kept for a quick return to a recent edit
FIXTURE = 1       # the generation the fixture is published as; every shadow is the next one
# state -> (label, colour, hatch); every state reads without colour through its hatch
STATES = {"same": ("same as generation 1", PALETTE[7], ""),
          "new": ("new", PALETTE[1], "///"),
          "gone": ("gone (tombstone)", PALETTE[3], "xx"),
          "none": ("none: refused, ACL missing", "white", "..")}
LABELS = 8  # column labels at most


class Shadow(NamedTuple):
    """One edit built in its own copy of the fixture's index."""

    index: ChunkIndex
    report: UpdateReport
    description: str


class LifecycleView(NamedTuple):
    """Everything the explorer shows of one edit, published or not."""

    description: str
    report: UpdateReport
    columns: list      # (label, (chunk_id, entry, vector) states) per chunk: column_states
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
    """Interactive lesson-5 explorer; ``LifecycleExplorer().edit_menu.value = "change the
    section's ACL"`` builds that shadow."""

    name = "lifecycle explorer"
    figsize = (7.5, 2.2)
    margins = {"left": 0.14, "right": 0.98, "bottom": 0.22, "top": 0.86}  # row names, legend
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
        self.note, self.table = widgets.HTML(), widgets.HTML()
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

    def arrange(self):
        return [*self.controls.values(), widgets.HBox([self.publish_button, self.rollback_button]),
                self.note, widgets.HBox([self.image, self.summary]), self.table]

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

    def draw_frame(self, ax, view: LifecycleView) -> None:
        from matplotlib.patches import Patch

        ax.set_ylim(-0.6, 2.6)
        ax.set_yticks([2, 1, 0], ["chunk_id", "index entry", "vector"])
        ax.set_xticks([])  # the column labels are texts drawn with the cells
        ax.text(0.5, -0.2, "chunk ordinal in the edited source (× = tombstoned, at the right)",
                transform=ax.transAxes, ha="center", va="top")
        ax.legend(handles=[Patch(facecolor=c, hatch=h, edgecolor="black", label=name)
                           for name, c, h in STATES.values()],
                  loc="lower left", bbox_to_anchor=(0, 1.0), ncol=4, fontsize=7, frameon=False)

    def draw_data(self, ax, view: LifecycleView, current):
        """One column per chunk, one patch per state, the x range, and the ordinals of about
        ``LABELS`` columns and the last one (texts: an x axis costs about 20 ms a draw):

        ``[type(a).__name__ for a in x.draw_data(x.figure.axes[0], x.computed, None)][-3:]``
        -> ['Text', 'PathPatch', 'PathPatch']
        """
        columns = view.columns
        ax.set_xlim(-0.3, max(len(columns), 1) + 0.2)
        picked = list(range(0, len(columns), -(-max(len(columns), 1) // LABELS)))
        if picked and len(columns) - 1 - picked[-1] >= 2:
            picked.append(len(columns) - 1)  # the last column: often a tombstone
        added = [ax.text(x + 0.45, -0.72, columns[x][0], fontsize=7, ha="center", va="top")
                 for x in picked]
        cells = {state: [] for state in STATES}
        for x, (_label, states) in enumerate(columns):
            for y, state in enumerate(states):
                cells[state].append((x, 0.9, 2 - y - 0.4, 0.8))
        return added + [bars_patch(ax, bars, facecolor=STATES[state][1], edgecolor="black",
                                   hatch=STATES[state][2] or None, linewidth=0.3)
                        for state, bars in cells.items() if bars]

    def overlays(self, ax) -> tuple:
        return tuple(ax.spines.values())  # the three row names never change

    def describe(self, view: LifecycleView, current):
        report, plan = view.report, view.report.plan
        shown = (f"generation {report.generation} (the edit, published)" if view.published
                 else f"generation {FIXTURE} (the fixture)")
        employee, sre = view.finds
        return "Lifecycle of one edit", [
            ("edit", view.description), ("readers see", shown),
            ("shadow", f"generation {report.generation}"),
            ("plan", ", ".join(f"{a} {len(ids)}" for a, ids in plan.items())),
            ("chunk ids", f"{len(plan['add'])} new, "  # a refused chunk keeps its id
                          f"{len(set(plan['tombstone']) - set(report.refused))} gone"),
            ("index entries", f"{sum(len(plan[a]) for a in ('reembed', 'reindex', 'add'))}"
                              " new"),
            ("embedded", f"{report.embedded} of {report.entries} chunks (embedder calls)"),
            ("refused, ACL missing", str(len(report.refused))),
            (f"employee: {QUERY!r}", employee), (f"SRE: {QUERY!r}", sre)]

    def alt(self, view: LifecycleView, current) -> str:
        return f"{len(view.columns)} chunks: what changed after {view.description}."

    def show(self, view: LifecycleView, current) -> None:
        self.note.value = f"<i>{self.switched_back}</i>" if self.switched_back else ""
        self.table.value = view.table
        self.publish_button.disabled = view.published
        self.rollback_button.disabled = not view.published


def column_states(index: ChunkIndex, base: int, shadow: int, source_ids: set[str]):
    """Per chunk of ``source_ids`` in ``shadow`` (then each tombstoned entry): a label and the
    state of its chunk_id, index entry and vector against generation ``base``. Chunk 9 is in
    the renamed section: its chunk_id stays, its entry and vector (the heading is embedded) not.

    ``column_states(x.index, 1, 2, {"deployment-guide"})[9]`` -> ('9', ('same', 'new', 'new'))
    """
    old, new = index.entries(base), index.entries(shadow)
    sources = {c.chunk_id: c.source_id for c in index.chunks(base)}  # its chunk ids, too
    columns, mine = [], index.chunks(shadow)
    for c in mine:
        if c.source_id not in source_ids:
            continue
        entry, before = new.get(c.chunk_id), old.get(c.chunk_id) or {}
        kept = [("same" if entry[k] == before.get(k) else "new") if entry else "none"
                for k in ("index_entry_id", "vector_key")]  # no entry: refused
        columns.append((str(c.ordinal), ("same" if c.chunk_id in sources else "new", *kept)))
    gone = sorted(cid for cid in old if cid not in new)
    stored = {c.chunk_id for c in mine}  # a refused chunk keeps its id
    columns += [("×", ("same" if cid in stored else "gone", "gone", "gone"))
                for cid in gone if sources[cid] in source_ids]
    return columns


def change_table(plan: dict, base: dict, new: dict) -> str:
    """The change table of ``plan`` as HTML; ``base`` and ``new`` map chunk ids to the chunks
    of generation 1 and of the shadow (a tombstoned chunk is found in ``base``).

    ``change_table(e.report.plan, e.fixture_chunks, new)``
    -> "<table role='table' ...><tr><td>add</td><td>1</td><td>Onboarding notes
    &gt; First week</td><td><code>...</code></td><td>Pair with a teammate ...</table>"
    """
    lines = []
    for action, ids in plan.items():
        if action == "keep":
            continue
        for cid in ids:
            c = new.get(cid) or base[cid]
            lines.append(f"<tr><td>{action}</td><td>{c.ordinal}</td><td>"
                         f"{html.escape(' > '.join(c.heading_path[-2:]))}</td><td><code>"
                         f"{cid[:12]}</code></td><td>{html.escape(c.text[:50])}</td></tr>")
    if not lines:
        return "<p>Every index entry is kept: nothing to re-embed or re-index.</p>"
    head = "".join(f"<th style='text-align:left'>{h}</th>" for h in
                   ("action", "ordinal", "section", "chunk_id", "text"))
    return ("<table role='table' aria-label='chunks whose index entry changes'>"
            f"<tr>{head}</tr>{''.join(lines)}</table>")


def lifecycle_explorer(edit: str = EDITS[0],
                       section: tuple[str, ...] = MATRIX) -> LifecycleExplorer | widgets.HTML:
    """Build the lesson-5 explorer; the lesson cell is this one call (a note while autograding).
    It opens on the first edit at the Environment Matrix:

    ``lifecycle_explorer().summary_rows()[0]``
    -> ('edit', '"Environment Matrix" renamed to "Environment Matrix (revised)"')
    """
    return LifecycleExplorer.build(edit=edit, section=section)
