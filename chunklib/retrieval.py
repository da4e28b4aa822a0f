"""Three retrievers that filter by tenant and ACL before they score: dense, lexical, hybrid.

Each takes the chunks (dicts with ``chunk_id``, ``tenant_id``, ``acl``, optional
``acl_parts``, ``retrieval_text``), the query, the asking tenant and groups, and ``k``, and
returns the top ``k`` as ``(chunk_id, score)`` pairs, best first, ties by ``chunk_id``: the
shape of ``access.search``. ``filtered_search`` keeps the chunks of the tenant that the groups
may read (``access.readable``: every part of a mixed chunk) and hands only those to a ranking
function, so a ranker never sees, and cannot leak, a chunk the reader may not read; that also
holds for corpus statistics such as bm25's document frequencies.

- ``dense``: cosine similarity of all-MiniLM-L6-v2 vectors (``chunklib.vectors``: unit
  vectors, so the cosine is a dot product); every authorized chunk gets a score.
- ``lexical``: SQLite FTS5's bm25 (k1 = 1.2, b = 0.75) over a table of the authorized chunks
  alone, any query term matching (OR); chunks that share no term with the query are left out.
  Scores are ``-bm25`` (higher is better).
- ``hybrid``: reciprocal rank fusion (Cormack, Clarke and Büttcher, SIGIR 2009) of the dense
  and the lexical ranking: ``Σ 1 / (60 + rank)`` over the lists a chunk appears in (ranks from
  1), with k = 60 as in that paper.

``terms`` (lesson 5's count of shared query terms, ``access.term_overlap``) is kept beside
them because lesson 5 states figures computed with it.

Leaves out: rerankers, query expansion, approximate vector search and stemming (FTS5's
``unicode61`` tokenizer folds case and nothing else here).

    >>> sorted(RANKERS)
    ['dense', 'hybrid', 'lexical', 'terms']
"""

from __future__ import annotations

import functools
import sqlite3
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence

import numpy as np

from chunklib.access import readable, term_overlap, term_set
from chunklib.validate import require_int

RRF_K = 60
FTS_TOKENIZER = "unicode61 remove_diacritics 0 tokenchars '_'"  # ``\w+`` runs, case-folded
Ranker = Callable[[str, Sequence[Mapping]], list[tuple[str, float]]]


def authorized_chunks(chunks: Iterable[Mapping], tenant_id: str,
                      groups: Iterable[str]) -> list[Mapping]:
    """The chunks of ``tenant_id`` that ``groups`` may read, in their order (fail-closed).

    ``authorized_chunks([{"tenant_id": "t", "acl": ["g"]}], "t", ["h"])`` -> []
    """
    if isinstance(groups, str):
        raise TypeError("groups must be a collection of group names, not a single string")
    if not isinstance(tenant_id, str):
        raise TypeError(f"tenant_id must be a str, got {type(tenant_id).__name__}")
    groups = set(groups or ())
    return [c for c in chunks if c["tenant_id"] == tenant_id and readable(c, groups)]


def top(scored: Iterable[tuple[str, float]], k: int) -> list[tuple[str, float]]:
    """The ``k`` best pairs, score descending, ties by chunk id. ``top([("b", 1), ("a", 1)], 1)``
    -> [('a', 1)]"""
    return sorted(scored, key=lambda pair: (-pair[1], pair[0]))[:k]


def filtered_search(chunks: Iterable[Mapping], query: str, tenant_id: str,
                    groups: Iterable[str], k: int, rank: Ranker) -> list[tuple[str, float]]:
    """Filter first (``authorized_chunks``), then ``rank(query, allowed)``; the top ``k``.

    ``filtered_search([], "x", "t", ["g"], 3, rank_terms)`` -> []
    """
    k = require_int("k", k, minimum=0)
    if not isinstance(query, str):
        raise TypeError(f"query must be a str, got {type(query).__name__}")
    allowed = authorized_chunks(chunks, tenant_id, groups)
    if not allowed or k == 0:
        return []
    return top(rank(query, allowed), k)


def filtered_search_many(chunks: Sequence[Mapping], asks: Sequence[tuple[str, str, tuple]],
                         k: int, rank: Ranker) -> list[list[tuple[str, float]]]:
    """``filtered_search`` for each ``(query, tenant_id, groups)`` of ``asks``, the chunks
    filtered once per distinct subject (an evaluation asks many questions as few subjects).

    ``filtered_search_many([], [("x", "t", ("g",))], 3, rank_terms)`` -> [[]]
    """
    k = require_int("k", k, minimum=0)
    return [top(rank(query, mine), k) if mine and k else []
            for query, mine in allowed_per_ask(chunks, asks)]


def allowed_per_ask(chunks: Sequence[Mapping], asks: Iterable[tuple[str, str, Iterable[str]]]
                    ) -> list[tuple[str, list[Mapping]]]:
    """Each ask's query with the chunks its subject may read (``authorized_chunks``), filtered
    once per distinct ``(tenant_id, groups)``.

    ``allowed_per_ask([{"tenant_id": "t", "acl": ["g"]}], [("x", "t", ["h"])])`` -> [('x', [])]
    """
    allowed: dict[tuple, list[Mapping]] = {}
    out = []
    for query, tenant_id, groups in asks:
        if not isinstance(query, str):
            raise TypeError(f"query must be a str, got {type(query).__name__}")
        subject = (tenant_id, tuple(groups))
        if subject not in allowed:
            allowed[subject] = authorized_chunks(chunks, tenant_id, groups)
        out.append((query, allowed[subject]))
    return out


def remembered(vectors: Callable[[Sequence[str]], np.ndarray]
               ) -> Callable[[Sequence[str]], np.ndarray]:
    """``vectors`` with each text's row kept, so texts asked again are not looked up again.

    ``remembered(lambda ts: np.ones((len(ts), 2)))(["a", "a"]).shape`` -> (2, 2)
    """
    rows: dict[str, np.ndarray] = {}

    def lookup(texts: Sequence[str]) -> np.ndarray:
        new = [t for t in dict.fromkeys(texts) if t not in rows]
        if new:
            rows.update(zip(new, vectors(new), strict=True))
        return np.stack([rows[t] for t in texts]) if texts else vectors([])

    return lookup


def rank_terms(query: str, chunks: Sequence[Mapping]) -> list[tuple[str, float]]:
    """Lesson 5's score: shared distinct ``\\w+`` terms; zero scores dropped.

    ``rank_terms("a b", [{"chunk_id": "x", "retrieval_text": "b"}])`` -> [('x', 1)]
    """
    scored = ((c["chunk_id"], term_overlap(query, c)) for c in chunks)
    return [(cid, s) for cid, s in scored if s > 0]


def rank_dense(query: str, chunks: Sequence[Mapping],
               vectors: Callable[[Sequence[str]], np.ndarray] | None = None
               ) -> list[tuple[str, float]]:
    """Cosine of each chunk's retrieval text with the query, rounded to 6 decimals.

    ``vectors(texts)`` gives unit vectors (default: ``vectors.default_embedder().lookup``).
    ``rank_dense("a", [{"chunk_id": "x", "retrieval_text": "a"}])`` -> [('x', 1.0)]
    """
    if vectors is None:
        from chunklib.vectors import default_embedder

        vectors = default_embedder().lookup
    if not chunks:
        return []
    matrix = vectors([query] + [c["retrieval_text"] for c in chunks])
    cosines = matrix[1:] @ matrix[0]
    return [(c["chunk_id"], round(float(s), 6)) for c, s in zip(chunks, cosines, strict=True)]


class _FtsTables:
    """In-memory FTS5 tables, one per set of authorized texts, reused while they are recent
    (the questions of one subject share one table)."""

    def __init__(self, keep: int = 8):
        self.db = sqlite3.connect(":memory:")
        self.names: OrderedDict[tuple, str] = OrderedDict()
        self.keep, self.made = keep, 0

    def table(self, chunks: Sequence[Mapping]) -> str:
        key = tuple((c["chunk_id"], c["retrieval_text"]) for c in chunks)
        if key in self.names:
            self.names.move_to_end(key)
            return self.names[key]
        self.made += 1
        name = f"fts{self.made}"
        try:
            self.db.execute(f"CREATE VIRTUAL TABLE {name} USING fts5(chunk_id UNINDEXED, "
                            f'retrieval_text, tokenize = "{FTS_TOKENIZER}")')
        except sqlite3.OperationalError as error:  # a SQLite built without FTS5
            raise RuntimeError(f"the lexical retriever needs SQLite's FTS5 ({error})") from error
        self.db.executemany(f"INSERT INTO {name} VALUES (?, ?)", key)
        self.names[key] = name
        if len(self.names) > self.keep:
            _old, dropped = self.names.popitem(last=False)
            self.db.execute(f"DROP TABLE {dropped}")
        return name


_FTS = _FtsTables()


def rank_bm25(query: str, chunks: Sequence[Mapping]) -> list[tuple[str, float]]:
    """FTS5 bm25 over ``chunks`` alone, any query term matching; ``-bm25``, 6 decimals.

    ``rank_bm25("cat", [{"chunk_id": "x", "retrieval_text": "a cat"}])[0][0]`` -> 'x'
    """
    terms = sorted(term_set(query))
    if not terms or not chunks:
        return []
    name = _FTS.table(chunks)
    match = " OR ".join('"' + t.replace('"', '""') + '"' for t in terms)
    rows = _FTS.db.execute(f"SELECT chunk_id, -bm25({name}) FROM {name} WHERE {name} MATCH ?",
                           (match,))
    return [(cid, round(s, 6)) for cid, s in rows]


def rrf(rankings: Sequence[Sequence[tuple[str, float]]], k: int = RRF_K
        ) -> list[tuple[str, float]]:
    """Reciprocal rank fusion: each id scores ``Σ 1 / (k + rank)`` over the rankings it is in
    (each ranking best first, ranks from 1); best first, ties by id.

    ``rrf([[("a", 9), ("b", 5)], [("b", 2)]])`` -> [('b', 0.032522), ('a', 0.016393)]
    """
    k = require_int("k", k, minimum=0)
    fused: dict[str, float] = {}
    for ranking in rankings:
        for rank, (cid, _score) in enumerate(top(ranking, len(ranking)), start=1):
            fused[cid] = fused.get(cid, 0.0) + 1.0 / (k + rank)
    return top(((cid, round(s, 6)) for cid, s in fused.items()), len(fused))


def rank_hybrid(query: str, chunks: Sequence[Mapping],
                vectors: Callable[[Sequence[str]], np.ndarray] | None = None
                ) -> list[tuple[str, float]]:
    """``rrf`` of ``rank_dense`` and ``rank_bm25`` over the same authorized chunks.

    ``rank_hybrid("cat", [{"chunk_id": "x", "retrieval_text": "a cat"}])`` -> [('x', 0.032787)]
    """
    return rrf([rank_dense(query, chunks, vectors), rank_bm25(query, chunks)])


RANKERS: dict[str, Ranker] = {"terms": rank_terms, "dense": rank_dense, "lexical": rank_bm25,
                              "hybrid": rank_hybrid}
NAMES = tuple(RANKERS)


def ranker(name: str, vectors: Callable[[Sequence[str]], np.ndarray] | None = None) -> Ranker:
    """The ranking function called ``name``; ``vectors`` (dense and hybrid only) replaces the
    default source of vectors. ``ranker("lexical").__name__`` -> 'rank_bm25'"""
    if name not in RANKERS:
        raise ValueError(f"retriever must be one of {sorted(RANKERS)}, got {name!r}")
    if vectors is None:
        return RANKERS[name]
    if name not in ("dense", "hybrid"):
        raise ValueError(f"vectors applies to the dense and hybrid retrievers, not {name!r}")
    return functools.partial(RANKERS[name], vectors=vectors)


def get_retriever(name: str, vectors: Callable[[Sequence[str]], np.ndarray] | None = None):
    """The retriever called ``name``, a function ``retriever(chunks, query, tenant_id, groups,
    k)`` that runs ``filtered_search`` with that ranker. ``vectors`` (dense and hybrid only)
    replaces the default source of vectors, ``vectors.default_embedder().lookup``.

    ``get_retriever("hybrid").__name__`` -> 'hybrid'
    """
    rank = ranker(name, vectors)

    def retriever(chunks: Iterable[Mapping], query: str, tenant_id: str, groups: Iterable[str],
                  k: int) -> list[tuple[str, float]]:
        return filtered_search(chunks, query, tenant_id, groups, k, rank)

    retriever.__name__ = name
    retriever.__doc__ = (f"Top ``k`` (chunk_id, score) by ``{RANKERS[name].__name__}`` among "
                         "the authorized chunks (``filtered_search``).")
    return retriever


terms, dense, lexical, hybrid = (get_retriever(n) for n in NAMES)
