"""The lesson-5 lifecycle explorer: edit a source, watch which ids, entries and vectors change.

A real ``ChunkIndex`` in memory starts with the course fixture published as generation 1. Each
edit (insert a paragraph, rename a heading, change or remove a section's ACL, add an unrelated
source, delete the source) is made to that original fixture and built by ``lifecycle.update``
as a shadow generation, which readers do not see. The plot has one column per chunk of the
edited source (tombstoned chunks at the right) and three rows: is its chunk_id, its index
entry, its vector the same as in generation 1, new, gone, or absent (a chunk refused for a
missing ACL has no entry and no vector). *Publish* switches the pointer to the shadow, *roll
back* switches it back; the summary, which is the plot's text alternative, says which
generation readers see and what an employee and an SRE find for the production table.

Leaves out: edits of your own text (the edits are fixed, so every number is reproducible),
sources other than the Deployment Guide.

    >>> LifecycleExplorer().edit_menu.options[0]
    'rename the heading'
"""

from __future__ import annotations

import html

import ipywidgets as widgets
from matplotlib.patches import Patch

from chunklib.elements import parse_elements
from chunklib.fixture import Source, load_sources
from chunklib.index import ChunkIndex
from chunklib.lifecycle import (
    FakeEmbedder,
    insert_paragraph,
    rename_heading,
    set_section_acl,
    update,
)
from chunklib.plotting import PALETTE, new_figure
from chunklib.widgets.common import png_view, refresh_png, summary_html

SOURCE_ID = "deployment-guide"
NOTE = ("Reviewed in June by the Platform Reliability team: report anything out of date in "
        "the #harbor-releases channel.")
QUERY = "production 4 SRE"  # the production row of the Environment Matrix, every term needed
EDITS = ("rename the heading", "insert a paragraph", "change the section's ACL",
         "remove the section's ACL", "add an unrelated source", "delete the source")
# state -> (label, colour, hatch); every state reads without colour through its hatch
STATES = {"same": ("same as generation 1", PALETTE[7], ""),
          "new": ("new", PALETTE[1], "///"),
          "gone": ("gone (tombstone)", PALETTE[3], "xx"),
          "none": ("none: refused, ACL missing", "white", "..")}
ROWS = ("chunk_id", "index entry", "vector")


def unrelated_source() -> Source:
    """A small kestrel source that shares nothing with the Deployment Guide.

    ``unrelated_source().source_id`` -> 'onboarding-notes'
    """
    text = ("# Onboarding notes\n\nNew engineers get a laptop, a hardware key and an access "
            "request on their first day.\n\n## First week\n\nPair with a teammate on one "
            "staging deploy before you run one alone.\n")
    return Source("onboarding-notes", "2025.06.20-1", "kestrel", "onboarding-notes.md", text,
                  ("employees",), ())


def make_edit(sources: list[Source], edit: str, path: tuple[str, ...]):
    """The edited sources, the deleted ids and a one-line description of ``edit`` at ``path``.

    ``make_edit(load_sources(), "insert a paragraph", ("Deployment Guide", "Overview"))[2]``
    -> 'a paragraph inserted below "Overview"'
    """
    guide = next(s for s in sources if s.source_id == SOURCE_ID)
    title = path[-1]
    if edit == "rename the heading":
        new = f"{title} (revised)"
        return [rename_heading(guide, path, new)], [], f'"{title}" renamed to "{new}"'
    if edit == "insert a paragraph":
        return [insert_paragraph(guide, path, NOTE)], [], f'a paragraph inserted below "{title}"'
    if edit == "change the section's ACL":
        old = guide.acl_for(path) or ()
        groups = ("sre",) if "employees" in old else tuple(sorted({*old, "employees"}))
        return ([set_section_acl(guide, path, groups)], [],
                f'ACL of "{title}" changed from {", ".join(old) or "nobody"} to '
                f'{", ".join(groups)}')
    if edit == "remove the section's ACL":
        return [set_section_acl(guide, path, None)], [], f'ACL of "{title}" removed (missing)'
    if edit == "add an unrelated source":
        return [unrelated_source()], [], "an unrelated source, onboarding-notes, added"
    if edit == "delete the source":
        return [], [SOURCE_ID], f"{SOURCE_ID} deleted"
    raise ValueError(f"edit must be one of {EDITS}, got {edit!r}")


def column_states(index: ChunkIndex, base: int, shadow: int, source_ids: set[str]):
    """Per chunk of ``source_ids`` in ``shadow`` (then each tombstoned one): a label and the
    state of its chunk_id, index entry and vector against generation ``base``.

    ``column_states(ix, 1, 2, {"deployment-guide"})[0]`` -> ('0', ('same', 'new', 'new'))
    """
    old, new = index.entries(base), index.entries(shadow)
    old_ids = {c.chunk_id for c in index.chunks(base)}
    columns = []
    for c in index.chunks(shadow):
        if c.source_id not in source_ids:
            continue
        entry = new.get(c.chunk_id)
        before = old.get(c.chunk_id)
        if entry is None:
            states = ("same" if c.chunk_id in old_ids else "new", "none", "none")
        else:
            states = ("same" if c.chunk_id in old_ids else "new",
                      "same" if before and before["index_entry_id"] == entry["index_entry_id"]
                      else "new",
                      "same" if before and before["vector_key"] == entry["vector_key"] else "new")
        columns.append((str(c.ordinal), states))
    gone = sorted(cid for cid in old if cid not in new)
    sources = {c.chunk_id: c.source_id for c in index.chunks(base)}
    columns += [("×", ("gone",) * 3) for cid in gone if sources[cid] in source_ids]
    return columns


def draw_states(ax, columns) -> None:
    """One column per chunk, one row each for chunk_id, index entry and vector."""
    ax.clear()
    for x, (_label, states) in enumerate(columns):
        for y, state in enumerate(states):
            _name, colour, hatch = STATES[state]
            ax.broken_barh([(x, 0.9)], (2 - y - 0.4, 0.8), facecolor=colour, hatch=hatch,
                           edgecolor="black", linewidth=0.3)
    n = max(len(columns), 1)
    ax.set_xlim(-0.3, n + 0.2)
    ax.set_ylim(-0.6, 2.6)
    ax.set_yticks([2, 1, 0], list(ROWS))
    step = max(1, n // 12)
    ax.set_xticks([x + 0.45 for x in range(0, len(columns), step)],
                  [columns[x][0] for x in range(0, len(columns), step)], fontsize=7)
    ax.set_xlabel("chunk ordinal in the edited source (× = tombstoned, at the right)")
    ax.legend(handles=[Patch(facecolor=c, hatch=h, edgecolor="black", label=name)
                       for name, c, h in STATES.values()],
              loc="lower left", bbox_to_anchor=(0, 1.0), ncol=4, fontsize=7, frameon=False)


class LifecycleExplorer(widgets.VBox):
    """Interactive lesson-5 explorer; a VBox, so the lesson cell just returns it.

    ``LifecycleExplorer().edit_menu.value = "change the section's ACL"`` rebuilds the shadow.
    """

    def __init__(self, edit: str = EDITS[0],
                 section: tuple[str, ...] = ("Deployment Guide", "Environment Matrix")):
        self.sources = load_sources()
        self.index, self.embedder = ChunkIndex(), FakeEmbedder()
        update(self.index, self.sources, self.embedder)  # generation 1, published
        guide = next(s for s in self.sources if s.source_id == SOURCE_ID)
        paths = [e.heading_path for e in parse_elements(guide.text) if e.kind == "heading"]
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
        self.figure = new_figure(7.5, 2.2)
        self.image = png_view(self.figure)
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
        for generation in self.index.generations():
            if generation != 1:
                self.index.drop(generation)
        edited, deleted, self.description = make_edit(
            self.sources, self.edit_menu.value, self.section_menu.value)
        try:
            self.report = update(self.index, edited, self.embedder, deleted=deleted,
                                 publish=False)
        except ValueError as error:  # a refused revision: nothing is built, readers unaffected
            self.report = None
            note += f"Refused: {error}"
        self.note.value = f"<i>{html.escape(note)}</i>" if note else ""
        self._redraw()

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
            plan = self.report.plan
            rows += [("shadow", f"generation {self.report.generation}"),
                     ("plan", ", ".join(f"{a} {len(ids)}" for a, ids in plan.items())),
                     ("chunk ids", f"{len(plan['add'])} new, {len(plan['tombstone'])} gone"),
                     ("index entries", f"{sum(len(plan[a]) for a in ('reembed', 'reindex', 'add'))}"
                                       " new"),
                     ("vectors computed", f"{self.report.embedded} (embedder calls)"),
                     ("refused, ACL missing", str(len(self.report.refused)))]
        rows += [(f"employee: {QUERY!r}", self.query_line(["employees"])),
                 (f"SRE: {QUERY!r}", self.query_line(["sre"]))]
        return rows

    def _table_html(self) -> str:
        base = {c.chunk_id: c for c in self.index.chunks(1)}
        new = {c.chunk_id: c for c in self.index.chunks(self.report.generation)}
        lines = []
        for action, ids in self.report.plan.items():
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

    def _redraw(self) -> None:
        columns = []
        if self.report is not None:
            touched = {SOURCE_ID, "onboarding-notes"}
            columns = column_states(self.index, 1, self.report.generation, touched)
        draw_states(self.figure.axes[0], columns)
        refresh_png(self.image, self.figure, f"{len(columns)} chunks: what changed after "
                    f"{self.description}.")
        self.summary.value = summary_html("Lifecycle of one edit", self.summary_rows())
        self.table.value = self._table_html() if self.report is not None else ""
        self.publish_button.disabled = self.report is None or self.index.published() != 1
        self.rollback_button.disabled = self.index.published() == 1


def lifecycle_explorer(edit: str = EDITS[0],
                       section: tuple[str, ...] = ("Deployment Guide", "Environment Matrix")):
    """Build the lesson-5 explorer; the lesson cell is this one call.

    ``lifecycle_explorer()`` -> LifecycleExplorer(...) renaming "Environment Matrix"
    """
    return LifecycleExplorer(edit, section)
