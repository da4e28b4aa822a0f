"""The chunking project: strategies × questions → retrieval metrics, the overlap sweep, and
parent-child retrieval (lesson 6).

A strategy chunks every fixture source (``window_chunks``, ``acl_window_chunks`` or
``structure_chunks``, sizes in characters). A window over sections with different ACLs carries
all of them (``acl_parts``): a subject reads it only when allowed by every part. For each
question, ``chunklib.access.search`` filters by tenant and ACL *first* and scores only what the
asking subject may read (the score is ``term_overlap``, lesson 5's default, with each chunk's
terms computed once); the top ``k`` hits are measured against the evidence with
``chunklib.evaluation``. To compare spans of different sources, the sources are laid end to end
(``global_spans``): a hit from another source then counts in Σ|r| but can never cover evidence.
(The fixture holds one revision per source and the question set is validated against it, so a
source id names one revision here.) Results are cached in memory, so the widget and the notebook
repeat nothing.

A question is *complete* when every evidence span lies whole inside one retrieved chunk (each
span may sit in a different chunk). A *near-duplicate* is a hit that shares characters with a
higher-ranked hit of the same source and revision: it repeats text the reader already has.

``retriever`` switches the scorer to ``chunklib.retrieval``'s dense, lexical (bm25) or hybrid
retriever, which filter first the same way; ``chunklib.sweep`` compares them.

Leaves out: rerankers and answer generation; lesson 5's SQLite index applies the same
filter-then-score contract as ``search``.

    >>> summarize(Strategy("structure", 400)).counts
    '30/39'
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from chunklib.access import combine_acls, readable, search
from chunklib.course.fixture import load_source, load_sources
from chunklib.elements import parse_elements
from chunklib.evaluation import evidence_complete, span_iou, span_precision, span_recall
from chunklib.intervals import total_length, union_length
from chunklib.questions import Question, load_questions
from chunklib.records import access_fields
from chunklib.retrieval import get_retriever
from chunklib.structure import (
    acl_window_chunks,
    fixture_duplication,
    structure_chunks,
    window_chunks,
)
from chunklib.validate import require_int, require_window

K = 5                                  # hits per question
SIZES = tuple(range(200, 1001, 100))   # chunk sizes the widget offers, in characters
OVERLAP_STEP = 50                      # the sweep raises overlap in steps of 50 characters
KINDS = ("windows", "acl-windows", "structure", "parent-child")
WINDOW_KINDS = ("windows", "acl-windows")  # the kinds that take an overlap
_TERM = re.compile(r"\w+")


@dataclass(frozen=True)
class Strategy:
    """How to chunk: ``kind`` (windows, acl-windows: windows cut at ACL boundaries, structure
    or parent-child), ``size`` and ``overlap`` in characters. Structure-aware chunks overlap
    only where an element is hard-split, by ``size // 4`` (``structure_overlap``); parent-child
    retrieves structure chunks of ``size`` and returns sections.

    ``offset`` (fixed windows only) moves the grid of window starts right
    (``windows.shifted_window_spans``); ``chunklib.sweep`` averages over it.

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


@cache
def _terms(text: str) -> frozenset[str]:
    return frozenset(_TERM.findall(text.lower()))


def score_terms(query: str, chunk: dict) -> int:
    """``access.term_overlap`` with each text's terms computed once (a cache, same result).

    ``score_terms("Replica count", {"retrieval_text": "replica count: 4"})`` -> 2
    """
    return len(_terms(query) & _terms(chunk["retrieval_text"]))


@cache
def offsets() -> dict[str, int]:
    """Where each source starts when the fixture is laid end to end, in manifest order.

    ``offsets()["deployment-guide"]`` -> 0
    """
    out, at = {}, 0
    for source in load_sources():
        out[source.source_id] = at
        at += len(source.text)
    return out


def global_spans(items: Sequence) -> list[tuple[int, int]]:
    """``(source_id, start, end)`` triples, or dicts with those keys, as spans on the laid-out line.

    ``global_spans([("failover-runbook", 0, 35)])`` -> [(21046, 21081)]
    """
    at = offsets()
    if items and isinstance(items[0], dict):
        items = [(h["source_id"], h["start"], h["end"]) for h in items]
    return [(at[s] + a, at[s] + b) for s, a, b in items]


def structure_overlap(size: int) -> int:
    """The overlap of hard-split elements in structure-aware (and parent-child) strategies:
    a quarter of the size. ``structure_overlap(400)`` -> 100"""
    return require_int("size", size, minimum=1) // 4


_CHUNKERS = {"windows": window_chunks, "acl-windows": acl_window_chunks,
             "structure": structure_chunks, "parent-child": structure_chunks}


def _chunker(strategy: Strategy) -> tuple:
    """(the chunker, its overlap) of ``strategy``; parent-child children are structure chunks."""
    if strategy.kind in WINDOW_KINDS:
        return _CHUNKERS[strategy.kind], strategy.overlap
    return structure_chunks, structure_overlap(strategy.size)


@cache
def _fixture_records(kind: str, size: int, overlap: int, offset: int = 0) -> dict[str, tuple]:
    """Each fixture source's chunk records, computed once for ``chunk_dicts`` and the
    duplication ratio of ``summarize`` alike (a cache: the chunkers' results unchanged)."""
    chunker = _CHUNKERS[kind]
    extra = (offset,) if offset else ()
    return {source.source_id: tuple(chunker(source, size, overlap, *extra))
            for source in load_sources()}


def _records(strategy: Strategy) -> dict[str, tuple]:
    kind = "structure" if strategy.kind == "parent-child" else strategy.kind
    return _fixture_records(kind, strategy.size, _chunker(strategy)[1], strategy.offset)


@cache
def chunk_dicts(strategy: Strategy) -> tuple[dict, ...]:
    """Every fixture chunk of ``strategy`` as the dicts ``search`` takes (parent-child: the
    children). ``len(chunk_dicts(Strategy("windows", 1000)))`` -> 28
    """
    records = _records(strategy)
    return tuple({"chunk_id": c.chunk_id, "source_id": c.source_id, "revision": c.revision,
                  "tenant_id": c.tenant_id, "acl": c.acl, "acl_parts": c.acl_parts,
                  "start": c.start, "end": c.end,
                  "heading_path": c.heading_path, "retrieval_text": c.retrieval_text,
                  "retrieval_sha256": c.retrieval_sha256}
                 for source in load_sources() for c in records[source.source_id])


def retrieve(chunks: Sequence[dict], question: Question, k: int = K,
             retriever: str = "terms") -> list[dict]:
    """The top ``k`` hits for ``question`` as the subject may see them (ACL before scoring):
    dicts with ``chunk_id, source_id, revision, acl, acl_parts, start, end, score,
    heading_path``. ``retriever`` names one of ``retrieval.NAMES`` (``terms``, the
    default, counts shared terms as lesson 5 does; ``dense``, ``lexical``, ``hybrid``).

    ``[h["start"] for h in retrieve(chunk_dicts(Strategy("structure", 400)), q19, 2)]``
    -> [707, 11172]
    """
    by_id = {c["chunk_id"]: c for c in chunks}
    keys = ("chunk_id", "source_id", "revision", "acl", "acl_parts", "start", "end",
            "heading_path")
    if retriever == "terms":
        found = search(chunks, question.question, question.tenant_id, question.groups, k,
                       score_terms)
    else:
        found = get_retriever(retriever)(chunks, question.question, question.tenant_id,
                                         question.groups, k)
    return [{**{key: by_id[cid][key] for key in keys}, "score": score} for cid, score in found]


@cache
def sections(source_id: str) -> dict[tuple[str, ...], tuple[int, int, tuple]]:
    """Each heading path of a source -> its section: ``(start, end, parts)`` from the heading
    to the last element directly under it, with the ACLs of every element inside that span, all
    of which apply (``access.combine_acls``; a missing one stays ``None``, fail-closed).

    ``sections("deploy-faq")[("Harbor Deployment FAQ", "How often are secrets rotated?")][:2]``
    -> (1440, 1596)
    """
    source = load_source(source_id)
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


def expand_to_parents(hits: Sequence[dict], question: Question,
                      parents: dict | None = None) -> list[dict]:
    """Small-to-big: replace each hit by its parent section, once per parent, in the order of
    the best child. The parent's ACLs are checked again for the asking subject (every one of
    them); a child whose parent the subject may not read whole stays as it is. ``parents`` maps
    ``(source_id, heading_path)`` to ``(start, end, parts)`` (default: ``sections``), the
    parent's ACLs, all of which apply. A parent hit keeps the best child's score, gets the
    parent's ``acl`` and ``acl_parts`` (as ``records.access_fields``), and lists its children
    in ``parts``.

    ``[(h["start"], h["end"]) for h in expand_to_parents(hits, q19)]`` -> [(10540, 12168), ...]
    """
    out, seen = [], {}
    for hit in hits:
        key = (hit["source_id"], tuple(hit["heading_path"]))
        start, end, acls = (parents[key] if parents is not None
                            else sections(hit["source_id"])[key[1]])
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


def measure(question: Question, hits: Sequence[dict]) -> Outcome:
    """Completeness, span recall, precision and IoU, near-duplicates and characters of ``hits``.

    ``measure(q, []).recall`` -> 0.0
    """
    retrieved = global_spans(hits)
    evidence = global_spans([(question.source_id, s, e) for s, e in question.evidence_spans])
    return Outcome(question.id, tuple(hits),
                   all(evidence_complete(retrieved, e) for e in evidence),
                   span_recall(retrieved, evidence), span_precision(retrieved, evidence),
                   span_iou(retrieved, evidence), near_duplicates(hits),
                   total_length(retrieved), total_length(retrieved) - union_length(retrieved))


@cache
def evaluate(strategy: Strategy, k: int = K, retriever: str = "terms") -> tuple[Outcome, ...]:
    """Every question of the set under ``strategy``, in question order (cached); ``retriever``
    as in ``retrieve``.

    ``sum(o.complete for o in evaluate(Strategy("windows", 400)))`` -> 20
    """
    require_int("k", k, minimum=1)
    chunks = chunk_dicts(strategy)
    out = []
    for q in load_questions():
        hits = retrieve(chunks, q, k, retriever)
        if strategy.kind == "parent-child":
            hits = expand_to_parents(hits, q)
        out.append(measure(q, hits))
    return tuple(out)


@dataclass(frozen=True)
class Summary:
    """A strategy's totals over the question set; report ``complete`` with ``n`` (20/39)."""

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


@cache
def summarize(strategy: Strategy, k: int = K, retriever: str = "terms") -> Summary:
    """Totals of ``evaluate``: complete questions, mean recall, precision and IoU, hits that
    are near-duplicates, retrieved and repeated characters, and the index's duplication ratio.

    ``summarize(Strategy("windows", 400)).counts`` -> '20/39'
    """
    outcomes = evaluate(strategy, k, retriever)
    n = len(outcomes)
    records = _records(strategy)  # the chunks chunk_dicts made, not chunked again

    def chunked(source, _size, _overlap):
        return records[source.source_id]

    return Summary(strategy, sum(o.complete for o in outcomes), n,
                   sum(o.recall for o in outcomes) / n, sum(o.precision for o in outcomes) / n,
                   sum(o.iou for o in outcomes) / n,
                   sum(o.near_duplicates for o in outcomes), sum(len(o.hits) for o in outcomes),
                   sum(o.retrieved_chars for o in outcomes),
                   sum(o.repeated_chars for o in outcomes),
                   fixture_duplication(load_sources(), chunked, strategy.size,
                                       _chunker(strategy)[1]))


def diagnose(strategy: Strategy, k: int = K,
             retriever: str = "terms") -> dict[str, list[str]]:
    """Why questions are incomplete, question ids per reason: ``complete``; ``cut`` (no chunk of
    the strategy holds the evidence whole, the only failure overlap can fix); ``unreadable``
    (only chunks the subject may not read hold it); ``not retrieved`` (a readable chunk holds it
    but ranks below ``k``). Windows (either kind) and structure-aware chunks only.

    ``{r: len(ids) for r, ids in diagnose(Strategy("windows", 400)).items()}``
    -> {'complete': 20, 'cut': 16, 'unreadable': 2, 'not retrieved': 1}
    """
    if strategy.kind == "parent-child":
        raise ValueError("diagnose compares chunks with the evidence: windows or structure")
    chunks = chunk_dicts(strategy)
    out: dict[str, list[str]] = {"complete": [], "cut": [], "unreadable": [], "not retrieved": []}
    for q, outcome in zip(load_questions(), evaluate(strategy, k, retriever), strict=True):
        evidence = global_spans([(q.source_id, s, e) for s, e in q.evidence_spans])
        mine = [c for c in chunks if c["source_id"] == q.source_id]
        allowed = [c for c in mine if readable(c, q.groups)]
        if outcome.complete:
            reason = "complete"
        elif not all(evidence_complete(global_spans(mine), e) for e in evidence):
            reason = "cut"
        elif not all(evidence_complete(global_spans(allowed), e) for e in evidence):
            reason = "unreadable"
        else:
            reason = "not retrieved"
        out[reason].append(q.id)
    return out


def sweep_overlaps(size: int, step: int = OVERLAP_STEP) -> list[int]:
    """Overlaps 0, step, 2·step, ... up to half the size. ``sweep_overlaps(400)`` ->
    [0, 50, 100, 150, 200]"""
    size = require_int("size", size, minimum=2)
    return list(range(0, size // 2 + 1, require_int("step", step, minimum=1)))


def overlap_sweep(size: int, k: int = K, retriever: str = "terms") -> list[Summary]:
    """Fixed windows of ``size`` at every overlap of ``sweep_overlaps(size)`` (``retriever`` as
    in ``retrieve``).

    ``[s.complete for s in overlap_sweep(400)]`` -> [20, 22, 28, 26, 32]
    """
    return [summarize(Strategy("windows", size, o), k, retriever) for o in sweep_overlaps(size)]


def stopping_point(sweep: Sequence[Summary], min_gain: int = 1) -> Summary:
    """The stopping rule: raise the overlap step by step and stop before the first step that
    gains fewer than ``min_gain`` complete questions while the duplication rises.

    ``stopping_point(overlap_sweep(400)).strategy.overlap`` -> 100
    """
    require_int("min_gain", min_gain, minimum=1)
    if not sweep:
        raise ValueError("sweep must hold at least one summary")
    for here, nxt in zip(sweep, sweep[1:]):
        if (nxt.complete - here.complete < min_gain
                and nxt.index_duplication > here.index_duplication):
            return here
    return sweep[-1]


def results_table(summaries: Sequence[Summary]) -> str:
    """A Markdown table, one row per strategy, counts with their total.

    ``results_table([summarize(Strategy("windows", 400))]).splitlines()[2].split(" | ")[1]``
    -> '20/39'
    """
    lines = ["| strategy | complete | recall | precision | IoU | near-duplicate hits "
             "| retrieved characters | index duplication |",
             "|---|---|---|---|---|---|---|---|"]
    for s in summaries:
        lines.append(f"| {s.strategy.label} | {s.counts} | {s.recall:.2f} | {s.precision:.3f} "
                     f"| {s.iou:.3f} | {s.near_duplicates}/{s.hits} | {s.retrieved_chars} "
                     f"| {s.index_duplication:.3f} |")
    return "\n".join(lines)


LESSON_STRATEGIES = (Strategy("windows", 400), Strategy("windows", 400, 100),
                     Strategy("windows", 400, 200), Strategy("acl-windows", 400),
                     Strategy("acl-windows", 400, 100), Strategy("structure", 400),
                     Strategy("windows", 1000), Strategy("acl-windows", 1000),
                     Strategy("structure", 1000), Strategy("parent-child", 200))


def sweep_table(size: int, k: int = K, min_gain: int = 1) -> str:
    """The overlap sweep as Markdown: complete questions, the gain of each step, the index
    duplication and the near-duplicate hits, with the stopping rule's row marked.

    ``sweep_table(400).splitlines()[2]`` -> '| 0 | 20/39 |  | 0.000 | 0/192 |  |'
    """
    sweep = overlap_sweep(size, k)
    stop = stopping_point(sweep, min_gain)
    lines = ["| overlap | complete | gain | index duplication | near-duplicate hits | |",
             "|---|---|---|---|---|---|"]
    for i, s in enumerate(sweep):
        gain = "" if i == 0 else f"{s.complete - sweep[i - 1].complete:+d}"
        mark = "← stopping rule" if s is stop else ""
        lines.append(f"| {s.strategy.overlap} | {s.counts} | {gain} | "
                     f"{s.index_duplication:.3f} | {s.near_duplicates}/{s.hits} | {mark} |")
    return "\n".join(lines)


def diagnosis_table(strategies: Sequence[Strategy], k: int = K) -> str:
    """``diagnose`` as Markdown, one row per strategy, counts of questions per reason.

    ``diagnosis_table([Strategy("windows", 400)]).splitlines()[2]``
    -> '| windows 400/0 | 20 | 16 | 2 | 1 |'
    """
    lines = ["| strategy | complete | cut | unreadable | not retrieved |", "|---|---|---|---|---|"]
    for strategy in strategies:
        d = diagnose(strategy, k)
        lines.append(f"| {strategy.label} | " + " | ".join(str(len(d[r])) for r in d) + " |")
    return "\n".join(lines)


def packed_context(question_id: str, strategy: Strategy, budget: int,
                   k: int = K) -> tuple[list[dict], list[dict], list[dict]]:
    """The hits of one question, the same hits merged (``merge_hits``), and the merged hits
    packed into ``budget`` characters (``pack_context``).

    ``[len(x) for x in packed_context("q17", Strategy("windows", 400, 100), 1500)]`` -> [5, 4, 3]
    """
    from chunklib.context import merge_hits, pack_context

    index = [q.id for q in load_questions()].index(question_id)
    hits = list(evaluate(strategy, k)[index].hits)
    merged = merge_hits(hits)
    return hits, merged, pack_context(merged, budget)


def context_text(packed: Sequence[dict]) -> str:
    """The packed hits as the model would read them: each segment's source slice under a line
    naming its source, revision, span and score (the provenance travels with the text).

    ``context_text([])`` -> ''
    """
    parts = []
    for hit in packed:
        text = load_source(hit["source_id"]).text[hit["start"]:hit["end"]]
        parts.append(f"[{hit['source_id']} {hit['revision']} {hit['start']}–{hit['end']}, "
                     f"score {hit['score']}]\n{text}")
    return "\n\n".join(parts)
