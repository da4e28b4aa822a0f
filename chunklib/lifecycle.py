"""Incremental updates: plan which chunks to keep, re-embed, re-index, add or tombstone, and
carry the plan out in a shadow generation of the lesson-5 index (``chunklib.index``).

``plan_update`` compares the chunks of the published generation with the candidates of a new
revision by ``chunk_id``: a changed retrieval hash means a new vector (re-embed); an unchanged
hash with a changed ACL means a new index entry but the same vector (re-index); ids that vanish
get tombstones so that deletion reaches the index. ``update`` runs the seed's steps: parse and
chunk the new revisions, validate them (a revision whose ACL rule matches no heading is refused
whole; a chunk with a missing or empty ACL is stored but never enters the index), embed only the
retrieval texts that have no vector yet, write the shadow generation in batches, and publish it
with one switch of the pointer. The embedder is the real all-MiniLM-L6-v2
(``chunklib.vectors.MiniLMEmbedder``, which counts the texts it is asked to embed), so
``UpdateReport`` says how many of a build's chunks were embedded: after an edit, only those
whose retrieval text is new. An index opened for another model (``ChunkIndex(path,
embedding_model=...)``) gets a new ``index_revision``, so ``update`` plans every chunk it
carries over from a base built under the old one as re-embed (the embedder runs only for texts
with no vector of that model yet), and as re-index, same vectors, when only the index's own
settings changed: no entry keeps its id. Anything that changes how vectors are made (weights,
truncation, pooling, normalization) must change the model name: vectors are stored by it.
``rename_heading``, ``insert_paragraph`` and ``set_section_acl`` make the edited revisions the
lesson uses.

Leaves out: several builders at once, timed rollback windows.

    >>> plan_update([], [{"chunk_id": "a", "retrieval_sha256": "r", "acl": ["g"]}])["add"]
    ['a']
    >>> from chunklib.documents import Source
    >>> faq = Source("faq", "1", "t", "faq.md", "# FAQ\\n\\nKeys rotate weekly.", ("staff",), ())

The one-line examples below use this ``faq``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence

from chunklib.access import access_complete, access_parts
from chunklib.documents import SectionAcl, Source, unmatched_acl_rules
from chunklib.elements import parse_elements
from chunklib.identity import index_entry_id
from chunklib.index import ChunkIndex
from chunklib.records import ChunkRecord, normalize_acl
from chunklib.structure import DEFAULT_OVERLAP, DEFAULT_SIZE, structure_chunks

ACTIONS = ("keep", "reembed", "reindex", "add", "tombstone")


def _by_id(name: str, chunks: Iterable[Mapping]) -> dict[str, Mapping]:
    out: dict[str, Mapping] = {}
    for chunk in chunks:
        cid = chunk["chunk_id"]
        if cid in out:
            raise ValueError(f"{name} holds chunk_id {cid!r} twice")
        out[cid] = chunk
    return out


def _acl(chunk: Mapping):
    """The chunk's access as comparable sets: one ACL, or all parts of a mixed chunk."""
    return frozenset(None if part is None else frozenset(part) for part in access_parts(chunk))


def _indexable(record: ChunkRecord) -> bool:
    """Every part of the record's access has a group (``access.access_complete``)."""
    return access_complete({"acl": record.acl, "acl_parts": record.acl_parts})


def plan_update(old_chunks: Iterable[Mapping], new_chunks: Iterable[Mapping]) -> dict[str, list]:
    """The chunk ids of each action (``keep``, ``reembed``, ``reindex``, ``add``,
    ``tombstone``), sorted.

    Same id, retrieval hash and ACL: keep; same id, retrieval hash changed: reembed (whatever
    the ACL did); same id and hash, ACL changed (compared as sets of groups; missing differs
    from empty): reindex; only new: add; only old: tombstone. Lesson 5.
    ``plan_update([{"chunk_id": "a", "retrieval_sha256": "r", "acl": ["g"]}], [])["tombstone"]``
    -> ['a']
    """
    old, new = _by_id("old_chunks", old_chunks), _by_id("new_chunks", new_chunks)
    plan: dict[str, list] = {action: [] for action in ACTIONS}
    for cid, chunk in new.items():
        before = old.get(cid)
        if before is None:
            plan["add"].append(cid)
        elif before["retrieval_sha256"] != chunk["retrieval_sha256"]:
            plan["reembed"].append(cid)
        elif _acl(before) != _acl(chunk):
            plan["reindex"].append(cid)
        else:
            plan["keep"].append(cid)
    plan["tombstone"] = [cid for cid in old if cid not in new]
    return {action: sorted(ids) for action, ids in plan.items()}


@dataclasses.dataclass(frozen=True)
class UpdateReport:
    """What one ``update`` did: the plan, the texts embedded (the embedder's calls), the chunks
    kept out."""

    generation: int
    published: bool
    plan: dict[str, list[str]]
    embedded: int
    refused: list[str]
    entries: int

    def __str__(self) -> str:
        counts = ", ".join(f"{a} {len(self.plan[a])}" for a in ACTIONS)
        state = "published" if self.published else "built (shadow, not published)"
        entries, chunks = (("entry", "chunk") if self.entries == 1 else ("entries", "chunks"))
        return (f"generation {self.generation} {state}: {self.entries} index {entries}; {counts}; "
                f"embedded {self.embedded} of {self.entries} {chunks}; refused for a missing or "
                f"empty ACL: {len(self.refused)}")


def _revise_plan(plan: dict[str, list], old_entries: Mapping[str, Mapping],
                 index: ChunkIndex) -> dict[str, list]:
    """``plan`` with the entries that ``plan_update`` keeps or re-indexes but whose id the
    index's revision changes: a vector of another model is re-embedded, an entry of the same
    model under other settings is re-indexed (same vector, new entry id)."""
    out = {action: set(ids) for action, ids in plan.items()}
    for cid in plan["keep"] + plan["reindex"]:
        entry = old_entries[cid]
        if entry["vector_key"][0] != index.embedding_model:  # new vectors
            out["keep"].discard(cid)
            out["reindex"].discard(cid)
            out["reembed"].add(cid)
        elif cid in out["keep"] and entry["index_entry_id"] != index_entry_id(
                cid, entry["retrieval_sha256"], index.index_revision,
                entry["acl_snapshot_sha256"]):  # same vector, new entry id
            out["keep"].discard(cid)
            out["reindex"].add(cid)
    return {action: sorted(ids) for action, ids in out.items()}


def validate_revision(source: Source, chunks: Sequence[ChunkRecord],
                      max_chars: int = DEFAULT_SIZE) -> None:
    """Refuse a revision (ValueError) whose ACL rules match no heading, whose chunks do not
    reproduce the source, belong to another tenant or exceed ``max_chars`` (table rows
    excepted). ``validate_revision(faq, structure_chunks(faq))`` -> None
    """
    problems = [f"ACL rule for {' > '.join(r.heading_path)!r} matches no heading"
                for r in unmatched_acl_rules(source)]
    for c in chunks:
        if source.text[c.start:c.end] != c.text or c.tenant_id != source.tenant_id:
            problems.append(f"chunk {c.ordinal} does not match the source or its tenant")
        if c.kind != "table" and c.end - c.start > max_chars:
            problems.append(f"chunk {c.ordinal} is longer than {max_chars} characters")
    if problems:
        raise ValueError(f"{source.source_id} {source.revision} refused: " + "; ".join(problems))


def update(index: ChunkIndex, sources: Iterable[Source], embedder=None, *,
           deleted: Iterable[str] = (), publish: bool = True, batch: int = 16,
           size: int = DEFAULT_SIZE, overlap: int = DEFAULT_OVERLAP) -> UpdateReport:
    """Build a shadow generation from the published one: ``sources`` replace their earlier
    revisions, ``deleted`` source ids are tombstoned, every other source is carried over.
    Then publish it (one pointer switch) unless ``publish=False``. ``embedder`` (by default
    ``vectors.default_embedder()``; any object with ``model``, ``calls`` and ``embedder(text)``)
    is called once per retrieval text the index holds no vector for; ``UpdateReport.embedded``
    counts those calls. An embedder with ``lookup(texts)`` gets those texts in one batch first
    (vectors only, not counted), so the model encodes them together. An embedder of another
    model than ``index.embedding_model`` is refused (ValueError) before anything is written.
    The plan is ``plan_update``'s, except that a carried entry whose id the index's revision
    changes is never kept: re-embedded if its vector is of another model, else re-indexed.
    Lesson 5.

    ``str(update(ChunkIndex(), [faq]))`` -> 'generation 1 published: ...'
    """
    if embedder is None:
        from chunklib.vectors import default_embedder

        embedder = default_embedder()
    model = getattr(embedder, "model", None)
    if model != index.embedding_model:
        raise ValueError(f"embedder.model {model!r} is not the index's embedding_model "
                         f"{index.embedding_model!r}: pass an embedder of that model, or open "
                         "the index for the embedder's model, ChunkIndex(path, "
                         "embedding_model=...), and every entry is re-embedded")
    sources, deleted = list(sources), set(deleted)
    base = index.published()
    old_entries = index.entries(base) if base is not None else {}
    old_records = index.chunks(base) if base is not None else []
    changed = deleted | {s.source_id for s in sources}
    candidates = [c for c in old_records if c.source_id not in changed]
    for source in sources:
        chunks = structure_chunks(source, size, overlap)
        validate_revision(source, chunks, max(size, 1))
        candidates += chunks
    # fail-closed: a missing or empty ACL (of any part) stays out
    accepted = [c for c in candidates if _indexable(c)]
    plan = plan_update(old_entries.values(), [
        {"chunk_id": c.chunk_id, "retrieval_sha256": c.retrieval_sha256, "acl": c.acl,
         "acl_parts": c.acl_parts} for c in accepted])
    plan = _revise_plan(plan, old_entries, index)  # a new model or settings: no entry is kept
    generation = index.begin(base, f"update of {', '.join(sorted(changed)) or 'nothing'}")
    if hasattr(embedder, "lookup"):  # encode every missing text in one batch, then count calls
        texts = {c.retrieval_sha256: c.retrieval_text for c in accepted}
        embedder.lookup([t for key, t in texts.items()
                         if not index.has_vector(embedder.model, key)])
    before = embedder.calls
    try:
        for i in range(0, len(candidates), batch):
            with index.batch():  # a crash loses at most this batch; readers never see it
                for record in candidates[i:i + batch]:
                    if not _indexable(record):
                        index.put(generation, record)
                        continue
                    vector = None
                    if not index.has_vector(embedder.model, record.retrieval_sha256):
                        vector = embedder(record.retrieval_text)
                    index.put(generation, dataclasses.replace(
                        record, embedding_model=embedder.model,
                        index_revision=index.index_revision), embedder.model, vector)
        owner = {c.chunk_id: c.source_id for c in old_records}
        refused = {c.chunk_id for c in candidates if not _indexable(c)}
        index.tombstone(generation, [
            (cid, old_entries[cid]["index_entry_id"], owner[cid],
             "source deleted" if owner[cid] in deleted else
             "ACL missing" if cid in refused else "gone from the new revision")
            for cid in plan["tombstone"]])
        index.finish(generation)
    except BaseException:
        index.finish(generation, "failed")
        raise
    if publish:
        index.publish(generation)
    return UpdateReport(generation, publish, plan, embedder.calls - before, sorted(refused),
                        len(accepted))


def _heading(source: Source, heading_path: Sequence[str]):
    for element in parse_elements(source.text):
        if element.kind == "heading" and element.heading_path == tuple(heading_path):
            return element
    raise ValueError(f"heading_path {tuple(heading_path)!r} is not a heading of "
                     f"{source.source_id}")


def rename_heading(source: Source, heading_path: Sequence[str], title: str) -> Source:
    """A new revision with one heading renamed; ACL rules on it and below it follow the name.

    ``rename_heading(guide, ("Deployment Guide", "Environment Matrix"), "Environments")``
    """
    element, old = _heading(source, heading_path), tuple(heading_path)
    if not element.text.endswith(old[-1]):
        raise ValueError(f"cannot find the title at the end of {element.text!r}")
    cut = element.end - len(old[-1])
    new = old[:-1] + (title,)
    rules = tuple(SectionAcl(new + r.heading_path[len(old):], r.groups)
                  if r.heading_path[:len(old)] == old else r for r in source.section_acls)
    return dataclasses.replace(source, text=source.text[:cut] + title + source.text[element.end:],
                               revision=source.revision + "+rename", section_acls=rules)


def insert_paragraph(source: Source, heading_path: Sequence[str], paragraph: str) -> Source:
    """A new revision with ``paragraph`` inserted right below the heading at ``heading_path``.

    ``insert_paragraph(guide, ("Deployment Guide", "Overview"), "New note.")``
    """
    end = _heading(source, heading_path).end
    text = source.text[:end] + "\n\n" + paragraph.strip() + source.text[end:]
    return dataclasses.replace(source, text=text, revision=source.revision + "+insert")


def set_section_acl(source: Source, heading_path: Sequence[str],
                    groups: Iterable[str] | None) -> Source:
    """A new revision whose section at ``heading_path`` gets ``groups`` (None: a missing ACL).

    ``set_section_acl(guide, ("Deployment Guide", "Environment Matrix"), ["employees", "sre"])``
    """
    path = tuple(_heading(source, heading_path).heading_path)
    rule = SectionAcl(path, normalize_acl(groups))
    rules = tuple(r for r in source.section_acls if r.heading_path != path) + (rule,)
    return dataclasses.replace(source, section_acls=rules, revision=source.revision + "+acl")
