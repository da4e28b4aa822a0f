"""Lesson 6's evaluation on your own documents: ``python3 -m chunklib.evaluate CORPUS_DIR
QUESTIONS.csv`` (or ``evaluate_folder``).

The documents and questions are read and checked first (``chunklib.corpus``: Chroma's
``chunking_evaluation`` question format); any problem stops the run before anything is
computed or written, with one line per problem naming the file and row. Then each strategy
(fixed windows at every size and overlap asked for, structure-aware chunks at every size)
chunks every document, each retriever (``chunklib.retrieval``) returns the top ``k`` chunks per
question, and the hits are measured as in lesson 6: complete questions (every evidence span
whole inside one retrieved chunk), character recall, precision and IoU (``chunklib.evaluation``;
Chroma's definitions but for two differences: Chroma's recall divides by the summed lengths of
the evidence spans, Σ|E|, and its IoU adds each span's uncovered part separately, where ours
use their union, |∪E|, in both (recall covered / |∪E|, IoU covered / (Σ|r| + |∪E| − covered);
the same unless evidence spans overlap); and Chroma's ``retrieve=-1`` mode takes, per
question, as many chunks as contain evidence (at most 20), where ours always takes the top
``k``, as Chroma's default ``retrieve=5`` does) and near-duplicate hits. The table is
printed; the output folder gets ``summary.md`` and ``results.csv`` (one line per strategy,
retriever and question, with the hits). Vectors are computed once, with a progress bar and an
estimate of the time left, and kept in a SQLite cache between runs (``--cache``; default
``~/.cache/chunklib/vectors.sqlite``).

Leaves out: ACLs (one reader reads everything), parent-child retrieval, and answer generation.

    >>> parse_ints("sizes", "400,1000")
    (400, 1000)
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from chunklib.corpus import READER, TENANT, CorpusError, UserQuestion, load_corpus, load_questions
from chunklib.documents import Source
from chunklib.experiment import measure_hits, structure_overlap
from chunklib.retrieval import NAMES, get_retriever
from chunklib.structure import structure_chunks, window_chunks
from chunklib.validate import require_int, require_window

KINDS = ("windows", "structure")
DEFAULTS = {"kinds": ("windows", "structure"), "sizes": (400, 1000), "overlaps": (0, 100, 200),
            "retrievers": ("dense", "lexical", "hybrid"), "k": 5}


def default_cache() -> Path:
    """Where vectors are kept between runs. ``default_cache().name`` -> 'vectors.sqlite'"""
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "chunklib" / "vectors.sqlite"


def parse_ints(name: str, text: str) -> tuple[int, ...]:
    """A comma-separated list of integers (an option's value), checked.

    ``parse_ints("k", "5")`` -> (5,)
    """
    try:
        return tuple(int(part) for part in text.split(","))
    except ValueError:
        raise ValueError(f"{name} must be comma-separated integers, got {text!r}") from None


@dataclass(frozen=True)
class Row:
    """One strategy under one retriever: totals over the questions."""

    strategy: str
    retriever: str
    chunks: int
    complete: int
    n: int
    recall: float
    precision: float
    iou: float
    near_duplicates: int
    hits: int


def strategies(kinds: Sequence[str], sizes: Sequence[int],
               overlaps: Sequence[int]) -> list[tuple[str, int, int]]:
    """(kind, size, overlap) to run: windows at every overlap smaller than the size, structure
    once per size (its overlap applies to hard-split elements, ``structure_overlap``).

    ``strategies(["windows"], [400], [0, 500])`` -> [('windows', 400, 0)]
    """
    out = []
    for kind in kinds:
        if kind not in KINDS:
            raise ValueError(f"kinds must be among {KINDS}, got {kind!r}")
        for size in sizes:
            require_int("size", size, minimum=1)
            if kind == "structure":
                out.append((kind, size, structure_overlap(size)))
                continue
            out += [(kind, size, o) for o in overlaps
                    if require_int("overlap", o, minimum=0) < size]
    if not out:
        raise ValueError("no strategy to run: every overlap is at least the size")
    return out


def label(kind: str, size: int, overlap: int) -> str:
    """A strategy's name in tables. ``label("windows", 400, 100)`` -> 'windows 400/100'"""
    return f"windows {size}/{overlap}" if kind == "windows" else f"structure {size}"


def chunk_corpus(corpus: dict[str, Source], kind: str, size: int, overlap: int) -> list[dict]:
    """Every document's chunks as the dicts the retrievers take, documents in name order.

    ``len(chunk_corpus({"a.md": src}, "windows", 400, 0))``
    """
    require_window(size, overlap)
    chunker = window_chunks if kind == "windows" else structure_chunks
    return [{"chunk_id": c.chunk_id, "source_id": c.source_id, "revision": c.revision,
             "tenant_id": c.tenant_id, "acl": c.acl, "acl_parts": c.acl_parts,
             "start": c.start, "end": c.end, "retrieval_text": c.retrieval_text}
            for name in sorted(corpus) for c in chunker(corpus[name], size, overlap)]


def question_measures(question: UserQuestion, hits: Sequence[dict],
                      at: dict[str, int]) -> dict:
    """Lesson 6's measures of one question's hits (``experiment.measure_hits``) as the fields
    of ``results.csv``; spans laid end to end by ``at`` (document -> where it starts).
    ``question_measures(UserQuestion(2, "Who?", "a.md", [(0, 5)]), [], {"a.md": 0})["recall"]``
    -> 0.0
    """
    retrieved = [(at[h["source_id"]] + h["start"], at[h["source_id"]] + h["end"]) for h in hits]
    evidence = [(at[question.corpus_id] + s, at[question.corpus_id] + e)
                for s, e in question.evidence_spans]
    o = measure_hits(str(question.row), hits, retrieved, evidence)
    return {"complete": o.complete, "recall": o.recall, "precision": o.precision, "iou": o.iou,
            "near_duplicates": o.near_duplicates}


def evaluate_folder(corpus_dir: str | Path, questions_csv: str | Path, *,
                    kinds: Sequence[str] = DEFAULTS["kinds"],
                    sizes: Sequence[int] = DEFAULTS["sizes"],
                    overlaps: Sequence[int] = DEFAULTS["overlaps"],
                    retrievers: Sequence[str] = DEFAULTS["retrievers"], k: int = DEFAULTS["k"],
                    out: str | Path | None = "evaluation-results",
                    cache: str | Path | None = None, progress: bool = True
                    ) -> tuple[list[Row], list[dict]]:
    """Run the evaluation; returns the table's rows and the per-question results, and (unless
    ``out`` is None) writes ``summary.md`` and ``results.csv`` into ``out``. Raises
    ``CorpusError`` (a ValueError naming file and row) on bad input, before writing anything.

    ``evaluate_folder("docs", "questions.csv", retrievers=["lexical"], out=None)[0][0].n``
    """
    from chunklib.vectors import MiniLMEmbedder, Progress, VectorCache

    k = require_int("k", k, minimum=1)
    if isinstance(retrievers, str):
        raise TypeError("retrievers must be a list of names, not one string")
    for name in retrievers:
        if name not in NAMES:
            raise ValueError(f"retrievers must be among {NAMES}, got {name!r}")
    plan = strategies(kinds, sizes, overlaps)
    if out is not None and Path(out).exists() and not Path(out).is_dir():
        raise ValueError(f"out {out}: exists and is not a folder")
    corpus = load_corpus(corpus_dir)
    questions = load_questions(questions_csv, corpus)
    at, offset = {}, 0
    for name in sorted(corpus):
        at[name], offset = offset, offset + len(corpus[name].text)
    chunked = {s: chunk_corpus(corpus, *s) for s in plan}
    vectors = None
    if {"dense", "hybrid"} & set(retrievers):
        if cache is None:
            cache = default_cache()
        if str(cache) != ":memory:":
            Path(cache).parent.mkdir(parents=True, exist_ok=True)
        embedder = MiniLMEmbedder(VectorCache(str(cache)), shipped=False,
                                  progress=Progress if progress else None)
        texts = {c["retrieval_text"] for chunks in chunked.values() for c in chunks}
        embedder.lookup(sorted(texts | {q.question for q in questions}))
        vectors = embedder.lookup
    rows, results = [], []
    for name in retrievers:
        retrieve = get_retriever(name, vectors if name in ("dense", "hybrid") else None)
        for strategy, chunks in chunked.items():
            by_id = {c["chunk_id"]: c for c in chunks}
            per = []
            for q in questions:
                found = retrieve(chunks, q.question, TENANT, list(READER), k)
                hits = [{**by_id[cid], "score": score} for cid, score in found]
                per.append({"strategy": label(*strategy), "retriever": name, "row": q.row,
                            "question": q.question, "corpus_id": q.corpus_id,
                            **question_measures(q, hits, at),
                            "hits": [[h["source_id"], h["start"], h["end"], h["score"]]
                                     for h in hits]})
            n = len(per)
            rows.append(Row(label(*strategy), name, len(chunks), sum(r["complete"] for r in per),
                            n, sum(r["recall"] for r in per) / n,
                            sum(r["precision"] for r in per) / n,
                            sum(r["iou"] for r in per) / n,
                            sum(r["near_duplicates"] for r in per),
                            sum(len(r["hits"]) for r in per)))
            results += per
    if out is not None:
        write_results(Path(out), rows, results)
    return rows, results


def table(rows: Sequence[Row]) -> str:
    """The rows as a Markdown table, completeness as a count of the questions.

    ``table([]).splitlines()[0]`` -> '| strategy | retriever | chunks | complete | recall | ...'
    """
    lines = ["| strategy | retriever | chunks | complete | recall | precision | IoU "
             "| near-duplicate hits |", "|---|---|---|---|---|---|---|---|"]
    lines += [f"| {r.strategy} | {r.retriever} | {r.chunks} | {r.complete}/{r.n} "
              f"| {r.recall:.2f} | {r.precision:.3f} | {r.iou:.3f} "
              f"| {r.near_duplicates}/{r.hits} |" for r in rows]
    return "\n".join(lines)


def write_results(out: Path, rows: Sequence[Row], results: Sequence[dict]) -> None:
    """``summary.md`` (the table) and ``results.csv`` (one line per question) in ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    (out / "summary.md").write_text(table(rows) + "\n", encoding="utf-8")
    fields = ["strategy", "retriever", "row", "question", "corpus_id", "complete", "recall",
              "precision", "iou", "near_duplicates", "hits"]
    with (out / "results.csv").open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fields)
        writer.writeheader()
        for r in results:
            writer.writerow({**r, "hits": json.dumps(r["hits"])})


def main(argv: Sequence[str] | None = None) -> int:
    """The command line; returns the exit status (2 for bad input)."""
    parser = argparse.ArgumentParser(
        prog="python3 -m chunklib.evaluate",
        description="Compare chunking strategies and retrievers on your own documents and "
                    "questions (Chroma chunking_evaluation format: question, references, "
                    "corpus_id).")
    parser.add_argument("corpus_dir", help="folder of .md and .txt files")
    parser.add_argument("questions_csv", help="CSV file: question,references,corpus_id")
    parser.add_argument("--strategies", default=",".join(DEFAULTS["kinds"]),
                        help="windows and/or structure (default: %(default)s)")
    parser.add_argument("--sizes", default="400,1000", help="chunk sizes in characters")
    parser.add_argument("--overlaps", default="0,100,200", help="window overlaps in characters")
    parser.add_argument("--retriever", default=",".join(DEFAULTS["retrievers"]),
                        help=f"any of {','.join(NAMES)} (default: %(default)s)")
    parser.add_argument("-k", type=int, default=DEFAULTS["k"], help="hits per question")
    parser.add_argument("--out", default="evaluation-results", help="output folder")
    parser.add_argument("--cache", default=None, help=f"vector cache (default: {default_cache()})")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    args = parser.parse_args(argv)
    try:
        rows, _ = evaluate_folder(
            args.corpus_dir, args.questions_csv, kinds=args.strategies.split(","),
            sizes=parse_ints("sizes", args.sizes), overlaps=parse_ints("overlaps", args.overlaps),
            retrievers=args.retriever.split(","), k=args.k, out=args.out, cache=args.cache,
            progress=not args.no_progress)
    except (CorpusError, ValueError, TypeError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(table(rows))
    print(f"\nper-question results: {Path(args.out) / 'results.csv'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
