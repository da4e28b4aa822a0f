"""Lesson 5's edits of the Deployment Guide: what the lifecycle explorer offers and what the
lesson's figures count (one source of both).

Each edit is made to the original fixture: rename a heading, insert a paragraph, change or
remove a section's ACL, add an unrelated source, delete the source. ``make_edit`` returns the
edited sources, the deleted ids and a one-line description; ``QUERY`` is the search the
explorer's summary runs as an employee and as an SRE. ``guide_headings`` lists the sections an
edit can apply to, and ``edit_texts`` every retrieval text an edit at any of them creates: the
texts the shipped vector store holds for the explorer (``chunklib.course.vector_store``), so
no edit waits for the model.

Leaves out: building the edit into an index (``chunklib.lifecycle.update``) and the explorer
(``chunklib.widgets.lifecycle``).

    >>> make_edit(load_sources(), "delete the source", ("Deployment Guide",))[1:]
    (['deployment-guide'], 'deployment-guide deleted')
"""

from __future__ import annotations

from chunklib.course.fixture import load_sources
from chunklib.documents import Source
from chunklib.elements import parse_elements
from chunklib.lifecycle import insert_paragraph, rename_heading, set_section_acl
from chunklib.structure import structure_chunks

SOURCE_ID = "deployment-guide"
#: The section the explorer edits first (and the lesson's figures rename).
MATRIX = ("Deployment Guide", "Environment Matrix")
NOTE = ("Reviewed in June by the Platform Reliability team: report anything out of date in "
        "the #harbor-releases channel.")
QUERY = "production 4 SRE"  # the production row of the Environment Matrix, every term needed
EDITS = ("rename the heading", "insert a paragraph", "change the section's ACL",
         "remove the section's ACL", "add an unrelated source", "delete the source")
SECTIONLESS = ("add an unrelated source", "delete the source")  # the section plays no part


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


def guide_headings() -> list[tuple[str, ...]]:
    """The heading paths of the Deployment Guide, in reading order: the sections offered.

    ``guide_headings()[1]`` -> ('Deployment Guide', 'Overview')
    """
    guide = next(s for s in load_sources() if s.source_id == SOURCE_ID)
    return [e.heading_path for e in parse_elements(guide.text) if e.kind == "heading"]


def edit_texts() -> set[str]:
    """The retrieval texts of every source that any edit at any section makes (chunked as
    lesson 5's index chunks them): what the explorer may ask the embedder for.

    ``len(edit_texts()) > len(guide_headings())`` -> True
    """
    sources, texts = load_sources(), set()
    for path in guide_headings():
        for edit in EDITS:
            for source in make_edit(sources, edit, path)[0]:
                texts |= {c.retrieval_text for c in structure_chunks(source)}
    return texts
