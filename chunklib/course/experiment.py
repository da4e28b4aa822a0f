"""Lesson 6's experiment on the course fixture: its strategies × questions → retrieval
metrics, the reasons questions fail, the overlap sweep, and the tables and context the lesson
shows.

Every fixture source is chunked by each strategy (``chunklib.experiment``), each question of
the set (``chunklib.course.questions``) is asked through ACL-filtered retrieval (dense by
default, ``MAIN_RETRIEVER``; ``lexical``, ``hybrid`` and lesson 5's ``terms`` on request),
and its hits are measured against its evidence with the sources laid end to end
(``global_spans``). (The fixture holds one revision per source and the question set is
validated against it, so a source id names one revision here.) Results are cached in memory,
so the widget and the notebook repeat nothing; lexical and hybrid retrieval are evaluated
together, since hybrid fuses the lexical ranking with the dense one.

The course also ships the totals and the diagnosis of every strategy lesson 6 shows, under each
retriever (``RESULTS``, ``chunklib/data/lesson6-results.json``, written by
``tools/build_results.py`` with ``computed_results``), so a "Run all" does not evaluate a
hundred strategies again, and the hits of every strategy the explorer retrieves with
(``HITS``, ``computed_hits``), which a lexical or hybrid move could not compute in time. They are
keyed by ``inputs_sha256``, a hash of everything they are computed from (the fixture, the
questions, the vector store and chunklib's code): when any of it differs, nothing shipped is
read and every number is computed here. ``summarize`` and ``diagnose`` read the totals
(``shipped=False`` computes one again), ``evaluate`` the hits (tests/test_lesson6_results.py
recomputes them all and compares).

The core names lesson 6 uses with these (``Strategy``, ``K``, ``Summary``, ...) are imported
here too, so one import serves the lesson's cells and its explorer.

Leaves out: the experiment's parts for any documents (``chunklib.experiment``), the sweep
across retrievers (``chunklib.course.sweep``), rerankers and answer generation.

    >>> summarize(Strategy("structure", 400)).counts
    '33/39'
"""

from __future__ import annotations

import hashlib
import json
import zipfile
from collections import OrderedDict
from collections.abc import Sequence
from functools import cache
from importlib.resources import files
from typing import NamedTuple

import numpy as np

from chunklib.access import readable
from chunklib.context import merge_hits, pack_context
from chunklib.course.fixture import load_source, load_sources
from chunklib.course.questions import EvidenceQuestion, load_questions
from chunklib.evaluation import evidence_complete
from chunklib.experiment import (
    CHUNKERS,
    OVERLAP_STEP,
    WINDOW_KINDS,
    K,
    Outcome,
    Strategy,
    Summary,
    expand_to_parents,
    hit_dicts,
    measure_hits,
    near_duplicates,
    retrieve_lexical_hybrid,
    retrieve_many,
    source_sections,
    stopping_point,
    structure_overlap,
    sweep_overlaps,
)
from chunklib.retrieval import remembered
from chunklib.structure import fixture_duplication
from chunklib.validate import require_int
from chunklib.windows import shifted_window_spans

__all__ = ["K", "OVERLAP_STEP", "WINDOW_KINDS", "Outcome", "Strategy", "Summary",
           "near_duplicates", "stopping_point", "structure_overlap", "sweep_overlaps",
           "SIZES", "MAIN_RETRIEVER", "LESSON_STRATEGIES", "offsets", "global_spans",
           "chunk_dicts", "sections",
           "fixture_parents", "question_outcome", "evaluate", "index_duplication", "summarize",
           "diagnose",
           "overlap_sweep", "results_table", "sweep_table", "diagnosis_table",
           "packed_context", "context_text", "RESULTS", "HITS", "inputs_sha256",
           "shipped_results", "computed_results", "explorer_strategies", "computed_hits",
           "shipped_hits"]

SIZES = tuple(range(200, 1001, 100))   # chunk sizes the widget offers, in characters
#: The retriever of the lesson's main line: dense all-MiniLM-L6-v2 vectors, the kind of search
#: a learner builds first (the lexical and hybrid retrievers check the conclusions).
MAIN_RETRIEVER = "dense"


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


@cache
def _fixture_records(kind: str, size: int, overlap: int, offset: int = 0) -> dict[str, tuple]:
    """Each fixture source's chunk records, computed once for ``chunk_dicts`` and the
    duplication ratio of ``summarize`` alike (a cache: the chunkers' results unchanged)."""
    chunker = CHUNKERS[kind]
    extra = (offset,) if offset else ()
    return {source.source_id: tuple(chunker(source, size, overlap, *extra))
            for source in load_sources()}


def _records(strategy: Strategy) -> dict[str, tuple]:
    kind = "structure" if strategy.kind == "parent-child" else strategy.kind
    return _fixture_records(kind, strategy.size, strategy.chunk_overlap, strategy.offset)


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


@cache
def sections(source_id: str) -> dict[tuple[str, ...], tuple[int, int, tuple]]:
    """``experiment.source_sections`` of one fixture source (cached).

    ``sections("deploy-faq")[("Harbor Deployment FAQ", "How often are secrets rotated?")][:2]``
    -> (1440, 1596)
    """
    return source_sections(load_source(source_id))


@cache
def fixture_parents() -> dict[tuple[str, tuple[str, ...]], tuple]:
    """Each fixture section by ``(source_id, heading_path)``: the parents of parent-child
    retrieval. ``fixture_parents()[("deploy-faq", ("Harbor Deployment FAQ",))][:2]`` -> (0, 206)
    """
    return {(s.source_id, path): section for s in load_sources()
            for path, section in sections(s.source_id).items()}


def question_outcome(question: EvidenceQuestion, hits: Sequence[dict]) -> Outcome:
    """``experiment.measure_hits`` of one fixture question, spans laid out by ``global_spans``.

    ``question_outcome(load_questions()[0], []).recall`` -> 0.0
    """
    evidence = global_spans([(question.source_id, s, e) for s, e in question.evidence_spans])
    return measure_hits(question.id, hits, global_spans(hits), evidence)


@cache
def _vectors():
    """The shipped store's vectors, each text's row kept for the kernel's life (``remembered``):
    every strategy asks for the same questions' vectors again. ``rank_dense`` asks for a query
    and the chunks a subject may read; the questions of one subject rank the same chunks, so
    that block of rows is kept for the last few chunk sets and only the query's row is added.
    """
    from chunklib.vectors import default_embedder

    rows = remembered(default_embedder().lookup)
    blocks: OrderedDict[tuple[str, ...], np.ndarray] = OrderedDict()

    def lookup(texts: Sequence[str]) -> np.ndarray:
        if len(texts) < 2:
            return rows(texts)
        key = tuple(texts[1:])
        if key in blocks:
            blocks.move_to_end(key)
        else:
            blocks[key] = rows(key)
            if len(blocks) > 8:
                blocks.popitem(last=False)
        return np.concatenate([rows(texts[:1]), blocks[key]])

    return lookup


@cache
def evaluate(strategy: Strategy, k: int = K, retriever: str = MAIN_RETRIEVER,
             shipped: bool = True) -> tuple[Outcome, ...]:
    """Every question of the set under ``strategy``, in question order (cached); ``retriever``
    as in ``retrieve`` (default ``MAIN_RETRIEVER``, dense). Dense, lexical and hybrid hits
    come from the shipped hits when they hold the strategy (``shipped_hits``), unless
    ``shipped`` is False.

    ``sum(o.complete for o in evaluate(Strategy("windows", 400)))`` -> 20
    """
    require_int("k", k, minimum=1)
    if retriever in ("lexical", "hybrid"):
        return _lexical_hybrid(strategy, k, shipped)[retriever]
    held = shipped_hits(_chunking(strategy), k, [retriever]) if shipped else None
    if held is not None:
        return _outcomes(strategy, _held_hits(strategy, held)[retriever])
    vectors = _vectors() if retriever == "dense" else None
    return _outcomes(strategy, retrieve_many(chunk_dicts(strategy), load_questions(), k,
                                             retriever, vectors))


def _held_hits(strategy: Strategy, held: dict[str, list]) -> dict[str, list[list[dict]]]:
    """Shipped hits (positions and scores, ``shipped_hits``) as the hit dicts of ``retrieve``."""
    chunks = chunk_dicts(strategy)
    return {name: hit_dicts(chunks, [[(chunks[i]["chunk_id"], score) for i, score in hits]
                                     for hits in per_question])
            for name, per_question in held.items()}


@cache
def _lexical_hybrid(strategy: Strategy, k: int,
                    shipped: bool = True) -> dict[str, tuple[Outcome, ...]]:
    """``evaluate`` under lexical and hybrid retrieval at once: hybrid fuses the lexical
    ranking with the dense one, so each question's bm25 ranking is computed once for both
    (``experiment.retrieve_lexical_hybrid``). The shipped hits when they hold the strategy's
    chunks (``shipped_hits``)."""
    held = shipped_hits(_chunking(strategy), k) if shipped else None
    if held is None:
        found = retrieve_lexical_hybrid(chunk_dicts(strategy), load_questions(), k, _vectors())
    else:
        found = _held_hits(strategy, held)
    return {name: _outcomes(strategy, hits) for name, hits in found.items()}


def _chunking(strategy: Strategy) -> Strategy:
    """The strategy whose chunks ``strategy`` retrieves (parent-child: structure-aware)."""
    return Strategy("structure", strategy.size) if strategy.kind == "parent-child" else strategy


def _outcomes(strategy: Strategy, found: Sequence[Sequence[dict]]) -> tuple[Outcome, ...]:
    """Each question's outcome from its hits (parent-child: the hits expanded to sections)."""
    out = []
    for q, hits in zip(load_questions(), found, strict=True):
        if strategy.kind == "parent-child":
            hits = expand_to_parents(hits, q, fixture_parents())
        out.append(question_outcome(q, hits))
    return tuple(out)


@cache
def summarize(strategy: Strategy, k: int = K, retriever: str = MAIN_RETRIEVER,
              shipped: bool = True) -> Summary:
    """Totals of ``evaluate``: complete questions, mean recall, precision and IoU, hits that
    are near-duplicates, retrieved and repeated characters, and the index's duplication ratio.
    The shipped totals when they hold this setting (``shipped_results``), unless ``shipped``
    is False (then nothing shipped is read: ``evaluate(..., shipped=False)``).

    ``summarize(Strategy("windows", 400)).counts`` -> '20/39'
    """
    require_int("k", k, minimum=1)
    if shipped and (strategy, k, retriever) in shipped_results():
        return shipped_results()[strategy, k, retriever][0]
    outcomes = evaluate(strategy, k, retriever, shipped)
    n = len(outcomes)
    return Summary(strategy, sum(o.complete for o in outcomes), n,
                   sum(o.recall for o in outcomes) / n, sum(o.precision for o in outcomes) / n,
                   sum(o.iou for o in outcomes) / n,
                   sum(o.near_duplicates for o in outcomes), sum(len(o.hits) for o in outcomes),
                   sum(o.retrieved_chars for o in outcomes),
                   sum(o.repeated_chars for o in outcomes), index_duplication(strategy, shipped))


@cache
def index_duplication(strategy: Strategy, shipped: bool = True) -> float:
    """The duplication ratio of the fixture's index under ``strategy``
    (``structure.fixture_duplication``): chunking alone, no retrieval. Fixed windows need only
    their spans (``windows.shifted_window_spans``, the spans ``window_chunks`` makes), so the
    explorer's axis, which spans every size and overlap, costs no chunk records.

    The shipped value when the shipped results hold the strategy (``shipped_results``), unless
    ``shipped`` is False.

    ``round(index_duplication(Strategy("windows", 400, 100)), 3)`` -> 0.316
    """
    if shipped and strategy in _shipped_duplication():
        return _shipped_duplication()[strategy]
    if strategy.kind == "windows":
        def chunked(source, size, overlap):
            return [_Span(*span) for span in shifted_window_spans(len(source.text), size,
                                                                  overlap, strategy.offset)]
    else:
        records = _records(strategy)  # the chunks chunk_dicts makes, not chunked again

        def chunked(source, _size, _overlap):
            return records[source.source_id]

    return fixture_duplication(load_sources(), chunked, strategy.size, strategy.chunk_overlap)


class _Span(NamedTuple):
    start: int
    end: int


def diagnose(strategy: Strategy, k: int = K, retriever: str = MAIN_RETRIEVER,
             shipped: bool = True) -> dict[str, list[str]]:
    """Why questions are incomplete, question ids per reason: ``complete``; ``cut`` (no chunk of
    the strategy holds the evidence whole: the failure overlap is meant to fix, though a new
    overlap moves every boundary and so changes the other reasons too); ``unreadable``
    (only chunks the subject may not read hold it); ``not retrieved`` (a readable chunk holds it
    but ranks below ``k``). Windows (either kind) and structure-aware chunks only. The shipped
    diagnosis when it holds this setting (``shipped_results``), unless ``shipped`` is False
    (then nothing shipped is read).

    ``{r: len(ids) for r, ids in diagnose(Strategy("windows", 400)).items()}``
    -> {'complete': 20, 'cut': 16, 'unreadable': 2, 'not retrieved': 1}
    """
    if strategy.kind == "parent-child":
        raise ValueError("diagnose compares chunks with the evidence: windows or structure")
    if shipped and (strategy, k, retriever) in shipped_results():
        letters = shipped_results()[strategy, k, retriever][1]  # one per question, in order
        return {reason: [q.id for q, got in zip(load_questions(), letters, strict=True)
                         if got == letter] for reason, letter in REASON_LETTERS.items()}
    chunks = chunk_dicts(strategy)
    out: dict[str, list[str]] = {"complete": [], "cut": [], "unreadable": [], "not retrieved": []}
    for q, outcome in zip(load_questions(), evaluate(strategy, k, retriever, shipped),
                          strict=True):
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


RESULTS = files("chunklib").joinpath("data", "lesson6-results.json")
#: The dense, lexical and hybrid hits of the explorer's strategies (``computed_hits``).
HITS = files("chunklib").joinpath("data", "lesson6-hits.npz")
#: Each reason of ``diagnose`` as one letter of a shipped row's diagnosis (one per question).
REASON_LETTERS = {"complete": "c", "cut": "x", "unreadable": "u", "not retrieved": "n"}
_SUMMARY_FIELDS = ("complete", "n", "recall", "precision", "iou", "near_duplicates", "hits",
                   "retrieved_chars", "repeated_chars", "index_duplication")


@cache
def inputs_sha256() -> str:
    """One SHA-256 of everything the shipped results are computed from: the fixture and the
    question set as loaded, the shipped vector store (``_store_identity``), and the source of
    chunklib's core modules and of this module (line endings made ``\n``, as a checkout may
    change them), computed once per process.

    ``len(inputs_sha256())`` -> 64
    """
    digest = hashlib.sha256()
    digest.update(repr(load_sources()).encode("utf-8"))
    digest.update(repr(load_questions()).encode("utf-8"))
    digest.update(_store_identity())
    root = files("chunklib")
    code = sorted(p for p in root.iterdir() if p.name.endswith(".py"))
    for path in [*code, root.joinpath("course", "experiment.py")]:
        digest.update(path.name.encode("utf-8") + b"\0")
        digest.update(path.read_text(encoding="utf-8").replace("\r\n", "\n").encode("utf-8"))
    return digest.hexdigest()


def _store_identity() -> bytes:
    """The shipped vector store (an ``.npz``, a zip file) as its zip directory lists it: each
    member's name, size and CRC-32 of its content, so any changed vector changes it, read
    without a pass over the file's 6 MB (b"" when there is no store).

    ``_store_identity()[:12]`` -> b"[('model.npy"
    """
    from chunklib.vectors import SHIPPED_STORE

    if not SHIPPED_STORE.is_file():
        return b""
    with SHIPPED_STORE.open("rb") as handle, zipfile.ZipFile(handle) as archive:
        return repr([(m.filename, m.file_size, m.CRC) for m in archive.infolist()]).encode()


def computed_results(strategies: Sequence[Strategy], retrievers: Sequence[str],
                     k: int = K) -> dict:
    """The results the course ships, computed: for each strategy and retriever, the
    ``summarize`` totals and (windows and structure only) the ``diagnose`` reasons as one
    letter per question (``REASON_LETTERS``), with ``inputs_sha256``; what
    ``tools/build_results.py`` writes as JSON (floats as Python writes them, read back equal).

    ``computed_results([Strategy("windows", 1000)], ["dense"])["rows"][0][:6]``
    -> ['windows', 1000, 0, 0, 'dense', 26]
    """
    rows = []
    for strategy in strategies:
        for retriever in retrievers:
            s = summarize(strategy, k, retriever, shipped=False)
            reasons = None
            if strategy.kind != "parent-child":
                letter = {q: REASON_LETTERS[r] for r, ids in
                          diagnose(strategy, k, retriever, shipped=False).items() for q in ids}
                reasons = "".join(letter[q.id] for q in load_questions())
            rows.append([strategy.kind, strategy.size, strategy.overlap, strategy.offset,
                         retriever, *(getattr(s, f) for f in _SUMMARY_FIELDS), reasons])
    return {"inputs_sha256": inputs_sha256(), "k": k,
            "columns": ["kind", "size", "overlap", "offset", "retriever", *_SUMMARY_FIELDS,
                        "reasons"], "rows": rows}


@cache
def shipped_results() -> dict[tuple[Strategy, int, str], tuple[Summary, str | None]]:
    """The results the course ships (``RESULTS``): (strategy, k, retriever) -> (its
    ``Summary``, its ``diagnose`` reasons as one letter per question, ``REASON_LETTERS``, or
    None), read once; empty when the file is missing or was computed from other inputs than
    these (``inputs_sha256``).

    ``shipped_results()[Strategy("windows", 400), K, "dense"][0].counts`` -> '20/39'
    """
    try:
        data = json.loads(RESULTS.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    if data["inputs_sha256"] != inputs_sha256():
        return {}
    out = {}
    for kind, size, overlap, offset, retriever, *values, reasons in data["rows"]:
        strategy = Strategy(kind, size, overlap, offset)
        out[strategy, data["k"], retriever] = (Summary(strategy, *values), reasons)
    return out


def explorer_strategies() -> list[Strategy]:
    """Every strategy whose chunks the evaluation explorer retrieves: fixed windows of each size
    of ``SIZES`` at each overlap of its sweep, and structure-aware chunks of each size (which
    parent-child retrieval uses too). ``len(explorer_strategies())`` -> 72
    """
    return [s for size in SIZES for s in (*(Strategy("windows", size, o)
                                            for o in sweep_overlaps(size)),
                                          Strategy("structure", size))]


def computed_hits(strategies: Sequence[Strategy], k: int = K) -> dict[str, np.ndarray]:
    """The dense, lexical and hybrid hits of every question under each strategy, as arrays:
    ``keys`` (one ``"kind size overlap offset retriever"`` per row), ``index`` (each hit's
    position in ``chunk_dicts(strategy)``, -1 past the last hit) and ``score`` (shape: rows ×
    questions × ``k``), with ``inputs_sha256``; what ``tools/build_results.py`` writes to
    ``HITS``.

    ``computed_hits([Strategy("windows", 1000)])["index"].shape`` -> (3, 39, 5)
    """
    questions = load_questions()
    keys, index, score = [], [], []
    for strategy in strategies:
        chunks = chunk_dicts(strategy)
        at = {c["chunk_id"]: i for i, c in enumerate(chunks)}
        found = {"dense": retrieve_many(chunks, questions, k, "dense", _vectors()),
                 **retrieve_lexical_hybrid(chunks, questions, k, _vectors())}
        for name, per_question in found.items():
            keys.append(f"{strategy.kind} {strategy.size} {strategy.overlap} {strategy.offset} "
                        f"{name}")
            index.append([[at[h["chunk_id"]] for h in hits] + [-1] * (k - len(hits))
                          for hits in per_question])
            score.append([[h["score"] for h in hits] + [0.0] * (k - len(hits))
                          for hits in per_question])
    shape = (len(keys), len(questions), k)
    return {"inputs_sha256": np.array(inputs_sha256()), "keys": np.array(keys, dtype=str),
            "index": np.array(index, dtype=np.int16).reshape(shape),
            "score": np.array(score, dtype=np.float64).reshape(shape)}


@cache
def _hit_arrays() -> tuple[dict[tuple[Strategy, int, str], int], np.ndarray, np.ndarray]:
    """The shipped hits file (``HITS``) read once: each (strategy, k, retriever)'s row, and the
    index and score arrays; nothing when it is missing or from other inputs."""
    try:
        with HITS.open("rb") as handle, np.load(handle) as data:
            if str(data["inputs_sha256"]) != inputs_sha256():
                return {}, np.zeros(0), np.zeros(0)
            keys, index, score = data["keys"].tolist(), data["index"], data["score"]
    except FileNotFoundError:
        return {}, np.zeros(0), np.zeros(0)
    rows = {}
    for row, key in enumerate(keys):
        kind, size, overlap, offset, retriever = key.split()
        rows[Strategy(kind, int(size), int(overlap), int(offset)), index.shape[2], retriever] = row
    return rows, index, score


def shipped_hits(strategy: Strategy, k: int = K,
                 retrievers: Sequence[str] = ("lexical", "hybrid")) -> dict[str, list] | None:
    """The hits the course ships for the chunks of ``strategy`` (``HITS``): for each retriever
    named in ``retrievers``, per question its hits as (position in ``chunk_dicts(strategy)``,
    score); None when they are not shipped, or were computed from other inputs
    (``inputs_sha256``).

    ``shipped_hits(Strategy("windows", 400, 100))["lexical"][0][0][0] >= 0`` -> True
    """
    rows, index, score = _hit_arrays()
    out = {}
    for retriever in retrievers:
        row = rows.get((strategy, k, retriever))
        if row is None:
            return None
        out[retriever] = [[(i, s) for i, s in zip(ids, values, strict=True) if i >= 0]
                          for ids, values in zip(index[row].tolist(), score[row].tolist(),
                                                 strict=True)]
    return out


@cache
def _shipped_duplication() -> dict[Strategy, float]:
    """Each strategy of the shipped results -> its index duplication (any retriever's row)."""
    return {strategy: value[0].index_duplication
            for (strategy, _k, _r), value in shipped_results().items()}


def overlap_sweep(size: int, k: int = K, retriever: str = MAIN_RETRIEVER) -> list[Summary]:
    """Fixed windows of ``size`` at every overlap of ``sweep_overlaps(size)`` (``retriever`` as
    in ``retrieve``).

    ``[s.complete for s in overlap_sweep(400)]`` -> [20, 22, 28, 26, 29]
    """
    return [summarize(Strategy("windows", size, o), k, retriever) for o in sweep_overlaps(size)]


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


def sweep_table(size: int, k: int = K, min_gain: int = 1,
                retriever: str = MAIN_RETRIEVER) -> str:
    """The overlap sweep as Markdown: complete questions, the gain of each step, the index
    duplication and the near-duplicate hits, with the stopping rule's row marked.

    ``sweep_table(400).splitlines()[2]`` -> '| 0 | 20/39 |  | 0.000 | 0/192 |  |'
    """
    sweep = overlap_sweep(size, k, retriever)
    stop = stopping_point(sweep, min_gain)
    lines = ["| overlap | complete | gain | index duplication | near-duplicate hits | |",
             "|---|---|---|---|---|---|"]
    for i, s in enumerate(sweep):
        gain = "" if i == 0 else f"{s.complete - sweep[i - 1].complete:+d}"
        mark = "← stopping rule" if s is stop else ""
        lines.append(f"| {s.strategy.overlap} | {s.counts} | {gain} | "
                     f"{s.index_duplication:.3f} | {s.near_duplicates}/{s.hits} | {mark} |")
    return "\n".join(lines)


def diagnosis_table(strategies: Sequence[Strategy], k: int = K,
                    retriever: str = MAIN_RETRIEVER) -> str:
    """``diagnose`` as Markdown, one row per strategy, counts of questions per reason.

    ``diagnosis_table([Strategy("windows", 400)]).splitlines()[2]``
    -> '| windows 400/0 | 20 | 16 | 2 | 1 |'
    """
    lines = ["| strategy | complete | cut | unreadable | not retrieved |", "|---|---|---|---|---|"]
    for strategy in strategies:
        d = diagnose(strategy, k, retriever)
        lines.append(f"| {strategy.label} | " + " | ".join(str(len(d[r])) for r in d) + " |")
    return "\n".join(lines)


def packed_context(question_id: str, strategy: Strategy, budget: int, k: int = K,
                   retriever: str = MAIN_RETRIEVER) -> tuple[list[dict], list[dict], list[dict]]:
    """The hits of one question, the same hits merged (``merge_hits``), and the merged hits
    packed into ``budget`` characters (``pack_context``).

    ``[len(x) for x in packed_context("q17", Strategy("windows", 400, 100), 1500)]`` -> [5, 3, 2]
    """
    index = [q.id for q in load_questions()].index(question_id)
    hits = list(evaluate(strategy, k, retriever)[index].hits)
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
