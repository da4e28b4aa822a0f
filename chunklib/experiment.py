"""The parts of a chunking experiment, for any documents and questions (lesson 6): strategies,
ACL-filtered retrieval, parent-child expansion, the measures of a question's hits, and the
overlap stopping rule.

A ``Strategy`` names how to chunk (``window_chunks``, ``acl_window_chunks`` or
``structure_chunks``, sizes in characters). ``retrieve`` filters by tenant and ACL *first*
(``chunklib.access.search``, or one of ``chunklib.retrieval``'s retrievers, which filter the
same way) and keeps the top ``k`` hits. ``measure_hits`` compares the hits with the evidence,
both as spans on one line (documents laid end to end, so a hit from another document counts in
Σ|r| but never covers evidence): a question is *complete* when every evidence span lies whole
inside one retrieved chunk; a *near-duplicate* is a hit that shares characters with a
higher-ranked hit of the same source and revision.

Leaves out: the course fixture, its question set and the lesson's tables
(``chunklib.course.experiment`` runs the experiment on them; ``chunklib.evaluate`` on a folder
of your own), rerankers and answer generation.

    >>> measure_hits("q", [{"source_id": "a", "revision": "1", "start": 0, "end": 10}],
    ...              [(0, 10)], [(2, 6)]).complete
    True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from chunklib.access import combine_acls, readable, search, term_overlap
from chunklib.documents import Source
from chunklib.elements import parse_elements
from chunklib.intervals import intersection_length, union
from chunklib.records import access_fields
from chunklib.retrieval import (
    allowed_per_ask,
    filtered_search_many,
    get_retriever,
    rank_bm25,
    rank_dense,
    ranker,
    rrf,
    top,
)
from chunklib.structure import acl_window_chunks, structure_chunks, window_chunks
from chunklib.validate import require_int, require_spans, require_window

K = 5                                  # hits per question
OVERLAP_STEP = 50                      # the sweep raises overlap in steps of 50 characters
KINDS = ("windows", "acl-windows", "structure", "parent-child")
WINDOW_KINDS = ("windows", "acl-windows")  # the kinds that take an overlap
#: The chunker of each kind; parent-child retrieves structure chunks and returns sections.
CHUNKERS = {"windows": window_chunks, "acl-windows": acl_window_chunks,
            "structure": structure_chunks, "parent-child": structure_chunks}


@dataclass(frozen=True)
class Strategy:
    """How to chunk: ``kind`` (windows, acl-windows: windows cut at ACL boundaries, structure
    or parent-child), ``size`` and ``overlap`` in characters. Structure-aware chunks overlap
    only where an element is hard-split, by ``size // 4`` (``structure_overlap``); parent-child
    retrieves structure chunks of ``size`` and returns sections.

    ``offset`` (fixed windows only) moves the grid of window starts right
    (``windows.shifted_window_spans``); ``chunklib.course.sweep`` averages over it.

    ``Strategy("windows", 400, 100).label`` -> 'windows 400/100'
    """

    kind: str
    size: int
    overlap: int = 0
    offset: int = 0

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"kind must be one of {KINDS}, got {self.kind!r}")
        require_window(self.size, self.overlap)
        if self.kind not in WINDOW_KINDS and self.overlap:
            raise ValueError("overlap applies to windows only")
        require_int("offset", self.offset, minimum=0)
        if self.offset and (self.kind != "windows" or self.offset >= self.size - self.overlap):
            raise ValueError("offset applies to fixed windows only and must be smaller than "
                             "the stride (size - overlap)")

    @property
    def label(self) -> str:
        """A short name for tables and plots."""
        if self.kind in WINDOW_KINDS:
            shift = f" @{self.offset}" if self.offset else ""
            return f"{self.kind} {self.size}/{self.overlap}{shift}"
        return f"{self.kind} {self.size}"

    @property
    def chunk_overlap(self) -> int:
        """The overlap its chunker gets: the strategy's own for windows, else
        ``structure_overlap(size)``. ``Strategy("structure", 400).chunk_overlap`` -> 100"""
        return self.overlap if self.kind in WINDOW_KINDS else structure_overlap(self.size)


def structure_overlap(size: int) -> int:
    """The overlap of hard-split elements in structure-aware (and parent-child) strategies:
    a quarter of the size. ``structure_overlap(400)`` -> 100"""
    return require_int("size", size, minimum=1) // 4


@dataclass(frozen=True)
class Evidence:
    """One evidence span ``[start, end)`` of the question's source and the text it holds."""

    start: int
    end: int
    text: str


@dataclass(frozen=True)
class EvidenceQuestion:
    """A question, who asks it (``tenant_id``, ``groups``), and where the answer is: evidence
    spans in one source revision.

    ``EvidenceQuestion("q01", "?", "t", ("g",), "s", "1", (Evidence(3, 9, "answer"),)
    ).evidence_spans`` -> [(3, 9)]
    """

    id: str
    question: str
    tenant_id: str
    groups: tuple[str, ...]
    source_id: str
    revision: str
    evidence: tuple[Evidence, ...]

    @property
    def evidence_spans(self) -> list[tuple[int, int]]:
        """The evidence as ``(start, end)`` spans, in source order."""
        return [(e.start, e.end) for e in self.evidence]


def retrieve(chunks: Sequence[dict], question: EvidenceQuestion, k: int = K,
             retriever: str = "terms") -> list[dict]:
    """The top ``k`` hits for ``question`` as the subject may see them (ACL before scoring):
    dicts with ``chunk_id, source_id, revision, acl, acl_parts, start, end, score,
    heading_path``. ``retriever`` names one of ``retrieval.NAMES`` (``terms``, the
    default, counts shared terms as lesson 5 does; ``dense``, ``lexical``, ``hybrid``).

    ``retrieve([{"chunk_id": "c", "tenant_id": "t", "acl": ("g",), "acl_parts": None,
    "source_id": "s", "revision": "1", "start": 0, "end": 9, "heading_path": (),
    "retrieval_text": "cat food"}], EvidenceQuestion("q01", "cat?", "t", ("g",), "s", "1", ()))
    [0]["score"]`` -> 1
    """
    if retriever == "terms":
        found = search(chunks, question.question, question.tenant_id, question.groups, k,
                       term_overlap)
    else:
        found = get_retriever(retriever)(chunks, question.question, question.tenant_id,
                                         question.groups, k)
    return hit_dicts(chunks, [found])[0]


def retrieve_many(chunks: Sequence[dict], questions: Sequence[EvidenceQuestion], k: int = K,
                  retriever: str = "dense", vectors=None) -> list[list[dict]]:
    """``retrieve`` for every question (the same hits), the chunks filtered once per asking
    subject (``retrieval.filtered_search_many``); ``vectors`` as in ``retrieval.ranker``.
    ``terms`` asks question by question, through ``access.search``.

    ``retrieve_many([], [EvidenceQuestion("q01", "cat?", "t", ("g",), "s", "1", ())])`` -> [[]]
    """
    if retriever == "terms":
        return [retrieve(chunks, q, k, retriever) for q in questions]
    found = filtered_search_many(chunks, [(q.question, q.tenant_id, q.groups) for q in questions],
                                 k, ranker(retriever, vectors))
    return hit_dicts(chunks, found)


def retrieve_lexical_hybrid(chunks: Sequence[dict], questions: Sequence[EvidenceQuestion],
                            k: int = K, vectors=None) -> dict[str, list[list[dict]]]:
    """``retrieve_many`` under ``lexical`` and ``hybrid`` at once (the same hits): hybrid fuses
    the dense ranking with the lexical one (``retrieval.rank_hybrid``), so each question's bm25
    ranking is computed once for both. ``vectors`` as in ``retrieval.ranker``.

    ``retrieve_lexical_hybrid([], [EvidenceQuestion("q01", "cat?", "t", ("g",), "s", "1", ())])``
    -> {'lexical': [[]], 'hybrid': [[]]}
    """
    k = require_int("k", k, minimum=0)
    lexical, hybrid = [], []
    asks = [(q.question, q.tenant_id, q.groups) for q in questions]
    for query, mine in allowed_per_ask(chunks, asks):
        if not mine or not k:
            lexical.append([])
            hybrid.append([])
            continue
        bm25 = rank_bm25(query, mine)
        fused = rrf([rank_dense(query, mine, vectors), bm25])  # as rank_hybrid fuses them
        lexical.append(top(bm25, k))
        hybrid.append(top(fused, k))
    return {"lexical": hit_dicts(chunks, lexical), "hybrid": hit_dicts(chunks, hybrid)}


def hit_dicts(chunks: Sequence[dict], found: Sequence[Sequence[tuple[str, float]]]
              ) -> list[list[dict]]:
    """Each question's ``(chunk_id, score)`` pairs as the hit dicts ``retrieve`` returns.

    ``hit_dicts([{"chunk_id": "c", "source_id": "s", "revision": "1", "acl": None,
    "acl_parts": None, "start": 0, "end": 9, "heading_path": ()}], [[("c", 0.5)]])[0][0]["end"]``
    -> 9
    """
    by_id = {c["chunk_id"]: c for c in chunks}
    keys = ("chunk_id", "source_id", "revision", "acl", "acl_parts", "start", "end",
            "heading_path")
    return [[{**{key: by_id[cid][key] for key in keys}, "score": score} for cid, score in hits]
            for hits in found]


def source_sections(source: Source) -> dict[tuple[str, ...], tuple[int, int, tuple]]:
    """Each heading path of a source -> its section: ``(start, end, parts)`` from the heading
    to the last element directly under it, with the ACLs of every element inside that span, all
    of which apply (``access.combine_acls``; a missing one stays ``None``, fail-closed).

    ``source_sections(Source("a", "1", "t", "a.md", "# A\\n\\nText.\\n", ("g",), ()))``
    -> {('A',): (0, 10, (('g',),))}
    """
    elements = parse_elements(source.text)
    spans: dict = {}
    for e in elements:
        start = spans.get(e.heading_path, (e.start, e.end))[0]
        spans[e.heading_path] = (start, e.end)
    out = {}
    for path, (start, end) in spans.items():
        out[path] = (start, end, combine_acls(source.acl_for(e.heading_path) for e in elements
                                              if e.start < end and start < e.end))
    return out


def expand_to_parents(hits: Sequence[dict], question: EvidenceQuestion,
                      parents: Mapping[tuple[str, tuple[str, ...]], tuple]) -> list[dict]:
    """Small-to-big: replace each hit by its parent section, once per parent, in the order of
    the best child. ``parents`` maps ``(source_id, heading_path)`` to ``(start, end, parts)``
    (``source_sections`` of every source), the parent's ACLs, all of which apply; they are
    checked again for the asking subject, and a child whose parent the subject may not read
    whole stays as it is. A parent hit keeps the best child's score, gets the parent's ``acl``
    and ``acl_parts`` (as ``records.access_fields``), and lists its children in ``parts``.

    ``expand_to_parents([{"source_id": "s", "heading_path": ("A",), "start": 5, "end": 9,
    "chunk_id": "c", "score": 1}], EvidenceQuestion("q01", "?", "t", ("g",), "s", "1", ()),
    {("s", ("A",)): (0, 40, (("g",),))})[0]["end"]`` -> 40
    """
    out, seen = [], {}
    for hit in hits:
        key = (hit["source_id"], tuple(hit["heading_path"]))
        start, end, acls = parents[key]
        acl, acl_parts = access_fields(acls)
        if not readable({"acl": acl, "acl_parts": acl_parts}, question.groups):
            out.append({**hit, "parts": [hit]})  # fail-closed: no expansion
            continue
        if key in seen:
            seen[key]["parts"].append(hit)
            continue
        parent = {**hit, "chunk_id": f"section:{hit['source_id']}:{start}", "acl": acl,
                  "acl_parts": acl_parts, "start": start, "end": end, "parts": [hit]}
        seen[key] = parent
        out.append(parent)
    return out


@dataclass(frozen=True)
class Outcome:
    """One question under one strategy: the hits and their measures."""

    question_id: str
    hits: tuple[dict, ...]
    complete: bool
    recall: float
    precision: float
    iou: float
    near_duplicates: int
    retrieved_chars: int
    repeated_chars: int


def near_duplicates(hits: Sequence[dict]) -> int:
    """How many hits share characters with a higher-ranked hit of the same source and revision.

    ``near_duplicates([{"source_id": "a", "revision": 1, "start": 0, "end": 10},
    {"source_id": "a", "revision": 1, "start": 5, "end": 15}])`` -> 1
    """
    count = 0
    for i, h in enumerate(hits):
        count += any(p["source_id"] == h["source_id"] and p["revision"] == h["revision"]
                     and min(p["end"], h["end"]) > max(p["start"], h["start"])
                     for p in hits[:i])
    return count


def measure_hits(question_id: str, hits: Sequence[dict], retrieved: Sequence[tuple[int, int]],
                 evidence: Sequence[tuple[int, int]]) -> Outcome:
    """Completeness, span recall, precision and IoU, near-duplicates and characters of one
    question's ``hits``; ``retrieved`` and ``evidence`` are their spans laid out on one line.

    ``measure_hits("q", [], [], [(0, 5)]).recall`` -> 0.0
    """
    # the definitions of ``evidence_complete`` and ``span_recall`` / ``span_precision`` /
    # ``span_iou`` (chunklib.evaluation), with the spans checked once instead of in each call
    # and each union taken once (the intersection of two unions is that of the spans)
    retrieved = require_spans("retrieved", retrieved)
    evidence = require_spans("evidence", evidence)
    merged, wanted_spans = union(retrieved), union(evidence)
    covered = intersection_length(wanted_spans, merged)
    total = sum(e - s for s, e in retrieved)
    wanted = sum(e - s for s, e in wanted_spans)
    return Outcome(question_id, tuple(hits),
                   all(any(s <= a and b <= e for s, e in retrieved) for a, b in evidence),
                   covered / wanted if wanted else 0.0, covered / total if total else 0.0,
                   covered / (total + wanted - covered) if total + wanted - covered else 0.0,
                   near_duplicates(hits), total, total - sum(e - s for s, e in merged))


@dataclass(frozen=True)
class Summary:
    """A strategy's totals over a question set; report ``complete`` with ``n`` (20/39)."""

    strategy: Strategy
    complete: int
    n: int
    recall: float
    precision: float
    iou: float
    near_duplicates: int
    hits: int
    retrieved_chars: int
    repeated_chars: int
    index_duplication: float

    @property
    def counts(self) -> str:
        """Completeness as a count: ``'20/39'``."""
        return f"{self.complete}/{self.n}"


def sweep_overlaps(size: int, step: int = OVERLAP_STEP) -> list[int]:
    """Overlaps 0, step, 2·step, ... up to half the size. ``sweep_overlaps(400)`` ->
    [0, 50, 100, 150, 200]"""
    size = require_int("size", size, minimum=2)
    return list(range(0, size // 2 + 1, require_int("step", step, minimum=1)))


def stopping_point(sweep: Sequence[Summary], min_gain: int = 1) -> Summary:
    """The stopping rule: raise the overlap step by step and stop before the first step that
    gains fewer than ``min_gain`` complete questions while the duplication rises.

    On lesson 6's fixture, ``chunklib.course.experiment``:
    ``stopping_point(overlap_sweep(400)).strategy.overlap`` gives 100.
    """
    require_int("min_gain", min_gain, minimum=1)
    if not sweep:
        raise ValueError("sweep must hold at least one summary")
    for here, nxt in zip(sweep, sweep[1:]):
        if (nxt.complete - here.complete < min_gain
                and nxt.index_duplication > here.index_duplication):
            return here
    return sweep[-1]
