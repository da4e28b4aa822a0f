"""Structure-aware chunks and fixed windows over the same source, with their duplication (lesson 4).

``structure_chunks``: the elements under one heading are merged, left to right, while the
chunk stays within ``size`` characters (measured from its first element's start to its last
element's end, gaps included); a heading always starts a new chunk and is not copied into one
(its title reaches search through ``retrieval_text``; the heading keeps its own span for
citation). An element longer than ``size`` is hard-split into character windows that overlap by
``overlap`` characters, which is the *only* overlap, as in Unstructured's default. A table
becomes one chunk per body row (``table_row_chunks``); the header and the separator line are
in no chunk. ``window_chunks``: fixed character windows of ``size`` with ``overlap`` over the
whole text, the comparison baseline; a window over sections with different ACLs carries all of
them (``acl_parts``). ``acl_window_chunks``: the same windows cut where the ACL changes, so each
has one ACL. Both give ``ChunkRecord``s; ``duplication`` measures
them with ``intervals.duplication_ratio`` (union-based, so skipped headings do not count).

Defaults: ``size=1000`` characters, ``overlap=100`` characters, for both strategies.
Leaves out: snapping hard splits to word ends (lesson 2's ``recursive_split`` does that),
token budgets, splitting a table row longer than ``size`` (it stays whole).

    >>> from chunklib.documents import SectionAcl
    >>> text = "# FAQ\\n\\n" + "Some words. " * 10 + "\\n\\n## Keys\\n\\nRotate weekly."
    >>> doc = Source("faq", "1", "t", "faq.md", text, ("staff",), (SectionAcl(("FAQ", "Keys"),
    ...              ("sre",)),))
    >>> [(c.start, c.end) for c in structure_chunks(doc, 60, 20)]  # a paragraph hard-split
    [(7, 67), (47, 107), (87, 126), (138, 152)]
    >>> round(duplication(structure_chunks(doc, 60, 20), len(doc.text)), 4)
    0.2632

The one-line examples below use this ``doc``.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import Counter
from collections.abc import Sequence
from typing import NamedTuple

from chunklib.documents import Source
from chunklib.elements import Element, parse_elements, table_row_chunks
from chunklib.identity import element_id
from chunklib.intervals import duplication_ratio
from chunklib.records import ChunkRecord, access_fields, make_chunk
from chunklib.validate import require_window
from chunklib.windows import shifted_window_spans, window_spans

DEFAULT_SIZE = 1000
DEFAULT_OVERLAP = 100
STRUCTURE_STRATEGY = "section-v1"
WINDOW_STRATEGY = "window-v1"
ACL_WINDOW_STRATEGY = "acl-window-v1"


class Piece(NamedTuple):
    """A planned chunk: span, kind, heading path, the id and start of its anchor (the element,
    or table row, its id derives from) and, unless it is heading path plus text, the
    retrieval text."""

    start: int
    end: int
    kind: str
    heading_path: tuple[str, ...]
    element_id: str
    anchor_start: int
    retrieval_text: str | None = None


def _element_ids(elements: Sequence[Element]) -> tuple[list[str], list[list[str]]]:
    """Ids of every element and of every table body row; occurrence counts identical ones."""
    seen: Counter = Counter()

    def next_id(kind: str, text: str) -> str:
        seen[kind, text] += 1
        return element_id(kind, text, seen[kind, text] - 1)

    ids = [next_id(e.kind, e.text) for e in elements]
    row_ids = [[next_id("table_row", " | ".join(r.cells)) for r in e.rows] for e in elements]
    return ids, row_ids


def section_pieces(elements: Sequence[Element], size: int = DEFAULT_SIZE,
                   overlap: int = DEFAULT_OVERLAP) -> list[Piece]:
    """Plan structure-aware chunks over parsed elements (see the module docstring).

    ``[(p.start, p.end) for p in section_pieces(parse_elements("# A\\n\\nxy\\n\\nz"), 5, 1)]``
    -> [(5, 10)]
    """
    size, overlap = require_window(size, overlap)
    ids, row_ids = _element_ids(elements)
    pieces: list[Piece] = []
    group: list[int] = []  # indices of the elements being merged

    def flush() -> None:
        if group:
            kinds = {elements[i].kind for i in group}
            kind = kinds.pop() if len(kinds) == 1 else "section"
            first = elements[group[0]]
            pieces.append(Piece(first.start, elements[group[-1]].end, kind, first.heading_path,
                                ids[group[0]], first.start))
            group.clear()

    for index, el in enumerate(elements):
        if el.kind == "heading" or el.kind == "table" or el.end - el.start > size:
            flush()
        if el.kind == "heading":
            continue
        if el.kind == "table":
            dicts = table_row_chunks(list(el.header.cells) if el.header else [],
                                     [list(r.cells) for r in el.rows], el.heading_path)
            for row, row_id, chunk in zip(el.rows, row_ids[index], dicts, strict=True):
                start, end = row.cells_span
                pieces.append(Piece(start, end, "table", el.heading_path, row_id, start,
                                    chunk["retrieval_text"]))
        elif el.end - el.start > size:
            for s, e in window_spans(el.end - el.start, size, overlap):
                pieces.append(Piece(el.start + s, el.start + e, el.kind, el.heading_path,
                                    ids[index], el.start))
        else:
            if group and el.end - elements[group[0]].start > size:
                flush()
            group.append(index)
    flush()
    return pieces


def _records(source: Source, pieces: list[Piece], access: list,
             strategy: str) -> list[ChunkRecord]:
    """Planned pieces, each with its ``(acl, acl_parts)``, to records in reading order."""
    return [make_chunk(source.text, p.start, p.end, kind=p.kind, heading_path=p.heading_path,
                       anchor_start=p.anchor_start, element_id=p.element_id, ordinal=i,
                       source_id=source.source_id, revision=source.revision,
                       tenant_id=source.tenant_id, acl=acl, acl_parts=parts,
                       strategy_version=strategy, retrieval_text=p.retrieval_text)
            for i, (p, (acl, parts)) in enumerate(zip(pieces, access, strict=True))]


def structure_chunks(source: Source, size: int = DEFAULT_SIZE,
                     overlap: int = DEFAULT_OVERLAP) -> list[ChunkRecord]:
    """Structure-aware chunk records of one source, in reading order; ACLs from its sections.

    ``structure_chunks(doc, 60, 20)[-1].heading_path`` -> ('FAQ', 'Keys')
    """
    pieces = section_pieces(parse_elements(source.text), size, overlap)
    access = [(source.acl_for(p.heading_path), None) for p in pieces]
    return _records(source, pieces, access, f"{STRUCTURE_STRATEGY}/size={size}/overlap={overlap}")


def window_chunks(source: Source, size: int = DEFAULT_SIZE,
                  overlap: int = DEFAULT_OVERLAP, offset: int = 0) -> list[ChunkRecord]:
    """Fixed character windows as records, the baseline: ``retrieval_text`` is the bare text,
    the heading path is what all elements the window touches share. A window inside one ACL
    section gets that ``acl``; a window over sections with different ACLs gets ``acl=None`` and
    *all of* their ACLs in ``acl_parts`` (``access.readable``: a reader must share a group with
    every part; a missing part makes it unreadable, fail-closed).

    ``offset`` moves the grid of window starts (``windows.shifted_window_spans``).
    ``len(window_chunks(doc, 60, 20))`` -> 4
    """
    if not isinstance(source.text, str):
        raise TypeError(f"source.text must be a str, got {type(source.text).__name__}")
    spans = shifted_window_spans(len(source.text), size, overlap, offset)
    shift = f"/offset={offset}" if offset else ""  # offset 0 keeps the ids it always had
    return _window_records(source, spans, [None] * len(spans),
                           f"{WINDOW_STRATEGY}/size={size}/overlap={overlap}{shift}")


def acl_runs(source: Source, elements: Sequence[Element] | None = None,
             ) -> list[tuple[int, int, tuple[str, ...] | None]]:
    """The source cut where the ACL changes: ``(start, end, acl)`` from the first element of a
    run of elements with one ACL to the last one's end (text between runs, blank lines, is in
    no run), in reading order. ``elements``: the source's parsed elements, if already at hand.

    ``[acl for _s, _e, acl in acl_runs(doc)]``
    -> [('staff',), ('sre',)]
    """
    runs: list[list] = []
    for e in parse_elements(source.text) if elements is None else elements:
        acl = source.acl_for(e.heading_path)
        if runs and runs[-1][2] == acl:
            runs[-1][1] = e.end
        else:
            runs.append([e.start, e.end, acl])
    return [tuple(run) for run in runs]


def acl_window_chunks(source: Source, size: int = DEFAULT_SIZE,
                      overlap: int = DEFAULT_OVERLAP) -> list[ChunkRecord]:
    """Fixed character windows cut at ACL boundaries: windows of ``size`` with ``overlap``
    inside each of ``acl_runs``, so no window crosses a change of ACL and every window has the
    one ACL of its run (a run shorter than ``size`` is one shorter window).

    ``{c.acl_parts for c in acl_window_chunks(doc, 60, 20)}`` -> {None}
    """
    elements = parse_elements(source.text)
    spans, acls = [], []
    for start, end, acl in acl_runs(source, elements):
        for s, e in window_spans(end - start, size, overlap):
            spans.append((start + s, start + e))
            acls.append(acl)
    return _window_records(source, spans, acls,
                           f"{ACL_WINDOW_STRATEGY}/size={size}/overlap={overlap}",
                           known_acl=True, elements=elements)


def _window_records(source: Source, spans: list[tuple[int, int]], acls: list, strategy: str,
                    known_acl: bool = False,
                    elements: Sequence[Element] | None = None) -> list[ChunkRecord]:
    """Window spans to records: the heading path the touched elements share, and (unless
    ``known_acl``) access from the ACLs of the touched sections, all of them."""
    if elements is None:
        elements = parse_elements(source.text)
    ends = [e.end for e in elements]  # elements are disjoint and in order, so ends ascend
    pieces, access, seen = [], [], Counter()
    for (start, end), acl in zip(spans, acls, strict=True):
        paths = []
        for e in elements[bisect_right(ends, start):]:
            if e.start >= end:
                break
            paths.append(e.heading_path)
        paths = paths or [()]
        access.append((acl, None) if known_acl
                      else access_fields(source.acl_for(path) for path in paths))
        text = source.text[start:end]
        seen[text] += 1
        pieces.append(Piece(start, end, "window", _shared_prefix(paths),
                            element_id("window", text, seen[text] - 1), start, text))
    return _records(source, pieces, access, strategy)


def _shared_prefix(paths: list[tuple[str, ...]]) -> tuple[str, ...]:
    """The longest heading path every one of ``paths`` starts with."""
    shared = paths[0]
    for path in paths[1:]:
        n = 0
        while n < min(len(shared), len(path)) and shared[n] == path[n]:
            n += 1
        shared = shared[:n]
    return shared


def duplication(chunks: Sequence[ChunkRecord], source_length: int) -> float:
    """Actual duplication ratio of one source's chunks, ``intervals.duplication_ratio`` of their
    spans: (Σ lengths − union) / source_length. Lesson 4.

    ``round(duplication(window_chunks(doc, 60, 20), len(doc.text)), 4)`` -> 0.3947
    """
    return duplication_ratio([(c.start, c.end) for c in chunks], source_length)


def fixture_duplication(sources: Sequence[Source], chunker, size: int = DEFAULT_SIZE,
                        overlap: int = DEFAULT_OVERLAP) -> float:
    """Duplication ratio over several sources read as one text laid end to end: each source's
    spans are shifted by the lengths before it, so no chunk overlaps across sources.

    ``round(fixture_duplication([doc, doc], window_chunks, 60, 20), 4)`` -> 0.3947
    """
    spans, offset = [], 0
    for source in sources:
        spans += [(c.start + offset, c.end + offset) for c in chunker(source, size, overlap)]
        offset += len(source.text)
    return duplication_ratio(spans, offset)
