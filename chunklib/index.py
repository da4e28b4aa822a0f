"""The lesson-5 index: chunks, index entries, vectors and a published pointer in SQLite.

One SQLite file (or ``:memory:``) holds *generations*. A generation is a complete copy of the
index: its ``chunks`` (every candidate record, a chunk with a missing ACL included), its
``entries`` (the published index proper: one per chunk that passed validation, with its
``index_entry_id``, the key of its vector and the number of its ACL parts) and its
``entry_acl`` rows (one per part and group: a chunk within one section has one part, its ACL;
a window over sections with different ACLs has one part per ACL, all of which apply). A
shadow generation is written while readers keep using the published one; ``publish`` then moves
the one-row ``pointer`` in a single transaction, and ``rollback`` moves it back. Every search
reads the pointer and the rows in one statement, so a reader sees one generation, whole.

Search is fail-closed and filters *before* it scores: a materialized CTE keeps the entries of
the published generation that belong to the tenant and share a group with the query's groups
in *every* part (the parts with a shared group are counted and must number ``acl_parts``, so a
part without rows can never match; the same rule as ``access.readable``); only
those rows are scored, with the course's term score (a registered SQL function, the same rule
as ``access.term_overlap``) or with FTS5's bm25 over a temporary FTS5 table filled with the
authorized rows alone, so not even bm25's corpus statistics come from rows the reader may not
see. An entry whose parts do not all have ACL rows matches no reader, and ``publish`` refuses a
generation that holds one.

Needs SQLite 3.35 or newer (``AS MATERIALIZED``) with the JSON functions; FTS5, checked here
(SQLite 3.40 in Python 3.11 on Debian 12), is needed only for ``ranking="bm25"``, and a build
without it gets a clear error there while the course's term ranking keeps working.

The index revision names the index's configuration, the embedding model included
(``INDEX_REVISION``: the course's settings, ``+``, then the full name of all-MiniLM-L6-v2), and
it is one of the four fields of every ``index_entry_id``; ``put`` refuses vectors of any other
model, so a new model needs an index of its own revision, and with it new entry ids
(``lifecycle.update`` on an index opened for a new model plans every chunk it carries over as
re-embed; its embedder runs only for texts with no vector of that model yet).

Vectors are stored once per (model, retrieval_sha256), as float32 bytes
(``chunklib.vectors.to_blob``; a JSON list of numbers is read too), the table and key that
``chunklib.vectors.VectorCache`` reads and writes; ``lifecycle.update`` asks its embedder only
for texts the table lacks, so no text is embedded twice. Leaves out: vector search here (vectors
are stored and tracked, search is by terms or bm25; lesson 6's dense retriever,
``chunklib.retrieval``, ranks by the same model's vectors, which it takes from
``chunklib.vectors`` rather than from this table), users and deny
rules (any-of groups per part, all parts required), concurrent writers (one builder at a time),
scale (lesson 5's notebook names the engines that carry the same contract across machines).

    >>> ChunkIndex().published() is None
    True
"""

from __future__ import annotations

import dataclasses
import functools
import json
import sqlite3
from collections.abc import Callable, Iterable, Mapping
from contextlib import contextmanager

from chunklib.access import access_complete, access_parts, term_overlap, term_set
from chunklib.embedding import MODEL_NAME
from chunklib.identity import access_snapshot_sha256, index_entry_id
from chunklib.records import ChunkRecord, from_dict
from chunklib.retrieval import FTS_TOKENIZER
from chunklib.validate import require_int, require_text
from chunklib.vectors import decode_vector, to_blob

#: The course's index settings (what the index does with vectors, not how they are made: a
#: change to how vectors are made is a new model name); a revision is ``f"{settings}+{model}"``.
INDEX_SETTINGS = "course-index-v1"
#: The index configuration every entry id binds: the course's settings and the embedding model.
INDEX_REVISION = f"{INDEX_SETTINGS}+{MODEL_NAME}"
SCHEMA = """
CREATE TABLE generations (generation INTEGER PRIMARY KEY, index_revision TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('building', 'ready', 'failed', 'retired')),
  base INTEGER, note TEXT NOT NULL DEFAULT '');
CREATE TABLE pointer (name TEXT PRIMARY KEY CHECK (name = 'published'),
  generation INTEGER REFERENCES generations (generation));
CREATE TABLE publications (seq INTEGER PRIMARY KEY, generation INTEGER NOT NULL);
CREATE TABLE chunks (generation INTEGER NOT NULL REFERENCES generations (generation),
  chunk_id TEXT NOT NULL, tenant_id TEXT NOT NULL, source_id TEXT NOT NULL,
  ordinal INTEGER NOT NULL, heading_key TEXT NOT NULL, acl TEXT, retrieval_text TEXT NOT NULL,
  record TEXT NOT NULL, PRIMARY KEY (generation, chunk_id));
CREATE TABLE vectors (embedding_model TEXT NOT NULL, retrieval_sha256 TEXT NOT NULL,
  vector BLOB NOT NULL, PRIMARY KEY (embedding_model, retrieval_sha256));
CREATE TABLE entries (generation INTEGER NOT NULL, chunk_id TEXT NOT NULL,
  index_entry_id TEXT NOT NULL, retrieval_sha256 TEXT NOT NULL,
  acl_snapshot_sha256 TEXT NOT NULL, embedding_model TEXT NOT NULL,
  acl_parts INTEGER NOT NULL CHECK (acl_parts >= 1),
  PRIMARY KEY (generation, chunk_id),
  FOREIGN KEY (generation, chunk_id) REFERENCES chunks (generation, chunk_id),
  FOREIGN KEY (embedding_model, retrieval_sha256) REFERENCES vectors);
CREATE TABLE entry_acl (generation INTEGER NOT NULL, chunk_id TEXT NOT NULL,
  part INTEGER NOT NULL, group_name TEXT NOT NULL,
  PRIMARY KEY (generation, chunk_id, part, group_name),
  FOREIGN KEY (generation, chunk_id) REFERENCES entries (generation, chunk_id));
CREATE TABLE tombstones (generation INTEGER NOT NULL, chunk_id TEXT NOT NULL,
  index_entry_id TEXT NOT NULL, source_id TEXT NOT NULL, reason TEXT NOT NULL,
  purged INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (generation, chunk_id));
INSERT INTO pointer VALUES ('published', NULL);
"""
# The authorized rows of the published generation: tenant first, then a shared group in every
# part (count the parts that share one; a part without rows never counts).
ALLOWED = """
WITH allowed AS MATERIALIZED (
  SELECT c.chunk_id, c.tenant_id, c.retrieval_text
  FROM pointer AS p
  JOIN entries AS e ON e.generation = p.generation
  JOIN chunks AS c ON c.generation = e.generation AND c.chunk_id = e.chunk_id
  WHERE p.name = 'published' AND c.tenant_id = :tenant
    AND (SELECT count(DISTINCT a.part) FROM entry_acl AS a
         WHERE a.generation = e.generation AND a.chunk_id = e.chunk_id
           AND a.group_name IN (SELECT value FROM json_each(:groups))) = e.acl_parts)
"""
SEARCH_SQL = ALLOWED + """, scored AS MATERIALIZED (
  SELECT chunk_id, course_score(:query, chunk_id, tenant_id, retrieval_text) AS score
  FROM allowed)
SELECT chunk_id, score FROM scored WHERE score != 0 ORDER BY score DESC, chunk_id LIMIT :k
"""


def heading_key(path: Iterable[str]) -> str:
    """A heading path as one string whose prefixes are its ancestors' keys.

    ``heading_key(("Guide", "Rollback"))`` -> 'Guide\\x1fRollback\\x1f'
    """
    return "".join(f"{title}\x1f" for title in path)


@functools.lru_cache(maxsize=4096)
def _record(text: str) -> ChunkRecord:
    """The record a row stores as JSON, checked when first read and then shared (records are
    frozen): a lesson reads the same unchanged chunks from every generation again and again.
    A changed row is another text, so it is checked again."""
    return from_dict(json.loads(text))


class ChunkIndex:
    """Generations of chunks and entries behind one published pointer (see the module); a
    path such as ``"harbor.db"`` keeps it on disk. The examples of its methods, in one run:

    >>> from chunklib.documents import Source
    >>> from chunklib.embedding import MODEL_NAME
    >>> from chunklib.lifecycle import update
    >>> faq = Source("faq", "1", "t", "faq.md", "# FAQ\\n\\nKeys rotate weekly.", ("staff",), ())
    >>> index = ChunkIndex()
    >>> str(update(index, [faq]))[:23]
    'generation 1 published:'
    >>> [c.ordinal for c in index.chunks()]
    [0]
    >>> cid = index.chunks()[0].chunk_id
    >>> len(index.entries()[cid]["index_entry_id"])
    64
    >>> index.search("keys rotate", "t", ["staff"], 5) == [(cid, 2)]
    True
    >>> index.search("keys rotate", "t", ["guests"], 5, ranking="bm25")
    []
    >>> index.explain()[:2]
    ['MATERIALIZE scored', '  MATERIALIZE allowed']
    >>> len(index.vector(MODEL_NAME, index.chunks()[0].retrieval_sha256))
    384
    >>> str(update(index, [], deleted=["faq"]))[:23]
    'generation 2 published:'
    >>> index.generations()
    {1: 'ready', 2: 'ready'}
    >>> index.rollback()
    1
    >>> index.recover()
    []
    """

    def __init__(self, path: str = ":memory:", index_revision: str | None = None,
                 embedding_model: str = MODEL_NAME):
        """An index for vectors of ``embedding_model``; ``index_revision`` (by default
        ``INDEX_SETTINGS + "+" + embedding_model``, so ``INDEX_REVISION`` for the course's
        model) must end with ``"+"`` and that model's full name, because every index entry id
        binds it:

        ``ChunkIndex(embedding_model="m").index_revision`` -> 'course-index-v1+m'

        ``ChunkIndex(index_revision="v2", embedding_model="m")``
        -> ValueError: index_revision 'v2' must end with '+m', the embedding model, ...
        """
        if not require_text(embedding_model, "embedding_model"):
            raise ValueError("embedding_model must not be empty")
        if index_revision is None:
            index_revision = f"{INDEX_SETTINGS}+{embedding_model}"
        suffix = "+" + embedding_model
        settings = require_text(index_revision, "index_revision").removesuffix(suffix)
        if settings == index_revision or not settings:
            raise ValueError(f"index_revision {index_revision!r} must end with {suffix!r}, the "
                             "embedding model, after the index's own settings: a new model means "
                             "a new index_revision")
        if sqlite3.sqlite_version_info < (3, 35):
            raise RuntimeError(f"SQLite {sqlite3.sqlite_version} is too old: the index needs "
                               "3.35 or newer (materialized CTEs filter before scoring)")
        self.path, self.index_revision = str(path), index_revision
        self.embedding_model = embedding_model
        self.db = sqlite3.connect(self.path, isolation_level=None, timeout=30)
        self.db.execute("PRAGMA foreign_keys = ON")
        if self.path != ":memory:":
            self.db.execute("PRAGMA journal_mode = WAL")  # readers never wait for the builder
        if not self._has_schema():  # a reader must not need the write lock
            with self._write():
                if not self._has_schema():  # another process may have won the race
                    for statement in SCHEMA.split(";"):
                        if statement.strip():
                            self.db.execute(statement)

    def _has_schema(self) -> bool:
        return bool(self.db.execute("SELECT 1 FROM sqlite_master WHERE name = 'pointer'")
                    .fetchone())

    def close(self) -> None:
        """Close the connection. ``index.close()``"""
        self.db.close()

    @contextmanager
    def _write(self):
        """One write transaction: all of it is committed, or none of it."""
        self.db.execute("BEGIN IMMEDIATE")
        try:
            yield self.db
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")

    # ------------------------------------------------------------------ reading
    def published(self) -> int | None:
        """The generation readers see, or None before the first publish. ``index.published()``"""
        return self.db.execute("SELECT generation FROM pointer").fetchone()[0]

    def generations(self) -> dict[int, str]:
        """Every generation's state, e.g. ``{1: 'ready', 2: 'failed'}``."""
        return dict(self.db.execute("SELECT generation, state FROM generations ORDER BY 1"))

    def chunks(self, generation: int | None = None) -> list[ChunkRecord]:
        """The chunk records of a generation (default: published), entry or not, in order."""
        rows = self.db.execute("SELECT record FROM chunks WHERE generation = ? ORDER BY "
                               "source_id, ordinal", (self._generation(generation),))
        return [_record(text) for (text,) in rows]

    def entries(self, generation: int | None = None) -> dict[str, dict]:
        """chunk_id -> its index entry in a generation: id, retrieval hash, ``acl`` (the one ACL
        tuple, or None for a chunk with several parts), ``acl_parts`` (None, or every part's
        tuple), the ACL snapshot and the vector key.
        """
        gen = self._generation(generation)
        out = {}
        for cid, eid, rh, snap, model in self.db.execute(
                "SELECT chunk_id, index_entry_id, retrieval_sha256, acl_snapshot_sha256, "
                "embedding_model FROM entries WHERE generation = ?", (gen,)):
            parts: dict[int, list[str]] = {}
            for part, group in self.db.execute(
                    "SELECT part, group_name FROM entry_acl WHERE generation = ? AND "
                    "chunk_id = ? ORDER BY 1, 2", (gen, cid)):
                parts.setdefault(part, []).append(group)
            acls = tuple(tuple(groups) for _part, groups in sorted(parts.items()))
            one = len(acls) <= 1
            out[cid] = {"chunk_id": cid, "index_entry_id": eid, "retrieval_sha256": rh,
                        "acl": (acls[0] if acls else ()) if one else None,
                        "acl_parts": None if one else acls,
                        "acl_snapshot_sha256": snap, "vector_key": (model, rh)}
        return out

    def vector(self, model: str, retrieval_sha256: str) -> tuple[float, ...] | None:
        """The stored vector of a retrieval text, or None. ``index.vector(model, rh)``"""
        row = self.db.execute("SELECT vector FROM vectors WHERE embedding_model = ? AND "
                              "retrieval_sha256 = ?", (model, retrieval_sha256)).fetchone()
        return tuple(decode_vector(row[0]).tolist()) if row else None

    def has_vector(self, model: str, retrieval_sha256: str) -> bool:
        """Whether the table holds a vector for this key (read without decoding it).
        ``ChunkIndex().has_vector("m", "0" * 64)`` -> False"""
        return self.db.execute("SELECT 1 FROM vectors WHERE embedding_model = ? AND "
                               "retrieval_sha256 = ?", (model, retrieval_sha256)).fetchone() \
            is not None

    def tombstones(self) -> list[tuple[int, str, str, str]]:
        """(generation, chunk_id, source_id, reason) of every tombstone, oldest first."""
        return self.db.execute("SELECT generation, chunk_id, source_id, reason FROM tombstones "
                               "ORDER BY generation, chunk_id").fetchall()

    def _generation(self, generation: int | None) -> int | None:
        return self.published() if generation is None else generation

    def search(self, query: str, tenant_id: str, groups: Iterable[str], k: int, *,
               ranking: str = "terms",
               score: Callable[[str, Mapping], float] | None = None) -> list[tuple[str, float]]:
        """Top ``k`` ``(chunk_id, score)`` of the published generation for one reader.

        ``ranking="terms"``: the course score (``access.term_overlap``, or ``score(query,
        chunk)``), ties by chunk_id, zero scores dropped: the same answer as ``access.search``.
        ``ranking="bm25"``: FTS5's bm25 (higher is better) over the authorized chunks that
        contain every query term. Either way only authorized rows of the tenant are scored.
        """
        k = require_int("k", k, minimum=0)
        if not isinstance(query, str):
            raise TypeError(f"query must be a str, got {type(query).__name__}")
        if isinstance(groups, str):
            raise TypeError("groups must be a collection of group names, not a single string")
        params = {"tenant": tenant_id, "groups": json.dumps(sorted(set(groups or ()))),
                  "query": query, "k": k}
        if ranking == "terms":
            scorer = score or term_overlap
            self.db.create_function("course_score", 4, lambda q, cid, tenant, text: scorer(
                q, {"chunk_id": cid, "tenant_id": tenant, "retrieval_text": text}))
            return [tuple(row) for row in self.db.execute(SEARCH_SQL, params)]
        if ranking != "bm25" or score is not None:
            raise ValueError("ranking must be 'terms' (optionally with score) or 'bm25'")
        terms = sorted(term_set(query))
        if not terms or k == 0:
            return []
        self.db.execute("DROP TABLE IF EXISTS temp.scoring")
        try:
            self.db.execute("CREATE VIRTUAL TABLE temp.scoring USING fts5(chunk_id UNINDEXED, "
                            f'retrieval_text, tokenize = "{FTS_TOKENIZER}")')
        except sqlite3.OperationalError as error:  # a SQLite built without FTS5
            raise RuntimeError(f"ranking='bm25' needs SQLite's FTS5 ({error}); "
                               "ranking='terms' works without it") from error
        try:
            self.db.execute(ALLOWED + "INSERT INTO temp.scoring SELECT chunk_id, retrieval_text "
                            "FROM allowed", params)
            match = " ".join('"' + t.replace('"', '""') + '"' for t in terms)  # every term
            rows = self.db.execute("SELECT chunk_id, -bm25(scoring) AS s FROM temp.scoring "
                                   "WHERE scoring MATCH ? ORDER BY s DESC, chunk_id LIMIT ?",
                                   (match, k)).fetchall()
        finally:
            self.db.execute("DROP TABLE temp.scoring")
        return [(cid, round(s, 6)) for cid, s in rows]

    def explain(self) -> list[str]:
        """SQLite's plan for a search, one line per step, indented under its parent: the
        authorized rows are materialized first, then scanned by the step that scores them
        (the class example shows its first two lines).
        """
        self.db.create_function("course_score", 4, lambda *_: 0)
        rows = self.db.execute("EXPLAIN QUERY PLAN " + SEARCH_SQL,
                               {"tenant": "", "groups": "[]", "query": "", "k": 1})
        depth, lines = {0: -1}, []
        for node, parent, _unused, detail in rows:
            depth[node] = depth.get(parent, -1) + 1
            lines.append("  " * depth[node] + detail)
        return lines

    def expand(self, chunk_id: str, tenant_id: str, groups: Iterable[str]) -> list[ChunkRecord]:
        """Parent expansion that checks again: the chunks of the hit's parent section (same
        source, heading path without its last title) that this reader may read, in order; []
        when the hit itself is not readable.

        ``[c.heading_path[-1] for c in index.expand(cid, "kestrel", ["employees"])]``
        """
        readable = {c.chunk_id: c for c in self._readable(tenant_id, groups)}
        hit = readable.get(chunk_id)
        if hit is None:
            return []
        parent = heading_key(hit.heading_path[:-1])
        return [c for c in readable.values() if c.source_id == hit.source_id
                and heading_key(c.heading_path).startswith(parent)]

    def _readable(self, tenant_id: str, groups: Iterable[str]) -> list[ChunkRecord]:
        rows = self.db.execute(
            ALLOWED + "SELECT c.record FROM allowed JOIN chunks AS c ON c.chunk_id = "
            "allowed.chunk_id AND c.generation = (SELECT generation FROM pointer) "
            "ORDER BY c.source_id, c.ordinal",
            {"tenant": tenant_id, "groups": json.dumps(sorted(set(groups or ())))})
        return [_record(text) for (text,) in rows]

    # ------------------------------------------------------------------ writing
    def begin(self, base: int | None, note: str = "") -> int:
        """Open a shadow generation planned against ``base``; returns its number."""
        with self._write() as db:
            cur = db.execute("INSERT INTO generations (index_revision, state, base, note) "
                             "VALUES (?, 'building', ?, ?)", (self.index_revision, base, note))
        return cur.lastrowid

    def put(self, generation: int, record: ChunkRecord, model: str | None = None,
            vector: Iterable[float] | None = None) -> str | None:
        """Write one chunk into a building generation (inside the caller's transaction, see
        ``batch``); with ``model`` also its entry, ACL rows and, if new, its vector. Returns
        the index entry id, or None for a chunk stored without an entry."""
        state = self.db.execute("SELECT state FROM generations WHERE generation = ?",
                                (generation,)).fetchone()
        if state != ("building",):
            raise ValueError(f"generation {generation} is not being built: {state}")
        if model is not None and model != self.embedding_model:
            raise ValueError(f"vectors of {model!r} cannot enter an index whose revision "
                             f"{self.index_revision!r} is for {self.embedding_model!r}: a new "
                             "model needs a new index_revision")
        rec = {f.name: getattr(record, f.name) for f in dataclasses.fields(record)}  # to_dict
        self.db.execute(
            "INSERT INTO chunks VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (generation, record.chunk_id, record.tenant_id, record.source_id, record.ordinal,
             heading_key(record.heading_path), None if record.acl is None
             else json.dumps(record.acl), record.retrieval_text, json.dumps(rec)))
        if model is None:
            return None
        access = {"acl": record.acl, "acl_parts": record.acl_parts}
        if not access_complete(access):
            raise ValueError(f"chunk {record.chunk_id[:12]} has a missing or empty ACL (of "
                             "some part): it must not enter the index")
        parts = access_parts(access)
        if vector is not None:
            self.db.execute("INSERT OR IGNORE INTO vectors VALUES (?, ?, ?)",
                            (model, record.retrieval_sha256, to_blob(vector)))
        snap = access_snapshot_sha256(parts)
        eid = index_entry_id(record.chunk_id, record.retrieval_sha256, self.index_revision, snap)
        self.db.execute("INSERT INTO entries VALUES (?, ?, ?, ?, ?, ?, ?)",
                        (generation, record.chunk_id, eid, record.retrieval_sha256, snap, model,
                         len(parts)))
        self.db.executemany("INSERT INTO entry_acl VALUES (?, ?, ?, ?)",
                            [(generation, record.chunk_id, i, g)
                             for i, part in enumerate(parts) for g in part])
        return eid

    @contextmanager
    def batch(self):
        """A write transaction for a batch of ``put`` calls (committed at the end)."""
        with self._write() as db:
            yield db

    def finish(self, generation: int, state: str = "ready") -> None:
        """Mark a building generation ``ready`` (or ``failed``)."""
        with self._write() as db:
            db.execute("UPDATE generations SET state = ? WHERE generation = ? AND state = "
                       "'building'", (state, generation))

    def tombstone(self, generation: int, rows: Iterable[tuple[str, str, str, str]]) -> None:
        """Record entries of the base that ``generation`` no longer holds: (chunk_id,
        index_entry_id, source_id, reason) each."""
        with self._write() as db:
            db.executemany("INSERT OR REPLACE INTO tombstones VALUES (?, ?, ?, ?, ?, 0)",
                           [(generation, *row) for row in rows])

    def publish(self, generation: int) -> None:
        """Switch the published pointer to a ready generation, in one transaction.

        Refuses a generation that is not ready, or that holds an entry with a part (or all of
        them) without ACL rows.
        ``index.publish(2)``
        """
        with self._write() as db:
            state = db.execute("SELECT state FROM generations WHERE generation = ?",
                               (generation,)).fetchone()
            if state is None or state[0] != "ready":
                raise ValueError(f"generation {generation} is not ready to publish: {state}")
            bare = db.execute("SELECT count(*) FROM entries AS e WHERE generation = ? AND "
                              "(SELECT count(DISTINCT a.part) FROM entry_acl AS a WHERE "
                              "a.generation = e.generation AND a.chunk_id = e.chunk_id) "
                              "!= e.acl_parts", (generation,))
            if bare.fetchone()[0]:
                raise ValueError(f"generation {generation} holds entries without an ACL")
            db.execute("UPDATE pointer SET generation = ?", (generation,))
            db.execute("INSERT INTO publications (generation) VALUES (?)", (generation,))

    def rollback(self) -> int:
        """Point readers back at the generation published before the current one; its number.
        """
        with self._write() as db:
            history = [g for (g,) in db.execute(
                "SELECT p.generation FROM publications AS p JOIN generations USING (generation) "
                "WHERE state = 'ready' ORDER BY seq DESC LIMIT 2")]
            if len(history) < 2:
                raise ValueError("no earlier generation to roll back to")
            db.execute("DELETE FROM publications WHERE seq = (SELECT max(seq) FROM publications)")
            db.execute("UPDATE pointer SET generation = ?", (history[1],))
        return history[1]

    def recover(self) -> list[int]:
        """After a crash: mark every generation still 'building' failed and drop its rows.

        Call it only when no builder is running. Returns the generations it marked.
        """
        stale = [g for (g,) in self.db.execute(
            "SELECT generation FROM generations WHERE state = 'building'")]
        for generation in stale:
            self.drop(generation, "failed")
        return stale

    def drop(self, generation: int, state: str = "retired") -> None:
        """Delete a generation's rows (never the published one) and unreferenced vectors."""
        if generation == self.published():
            raise ValueError("the published generation cannot be dropped")
        with self._write() as db:
            for table in ("entry_acl", "entries", "chunks"):
                db.execute(f"DELETE FROM {table} WHERE generation = ?", (generation,))
            db.execute("UPDATE generations SET state = ? WHERE generation = ?",
                       (state, generation))
            db.execute("DELETE FROM vectors WHERE NOT EXISTS (SELECT 1 FROM entries AS e WHERE "
                       "e.embedding_model = vectors.embedding_model AND "
                       "e.retrieval_sha256 = vectors.retrieval_sha256)")

    def purge(self, source_id: str) -> int:
        """A deletion request: remove a tombstoned source's rows from *every* generation (so a
        rollback cannot bring them back) and the vectors nothing uses any more. Returns the
        number of chunk rows removed (those of every generation)."""
        with self._write() as db:
            live = db.execute("SELECT count(*) FROM chunks WHERE source_id = ? AND generation = "
                              "(SELECT generation FROM pointer)", (source_id,)).fetchone()[0]
            if live:
                raise ValueError(f"{source_id} is still published: delete it first")
            keys = "SELECT generation, chunk_id FROM chunks WHERE source_id = ?"
            for table in ("entry_acl", "entries"):
                db.execute(f"DELETE FROM {table} WHERE (generation, chunk_id) IN ({keys})",
                           (source_id,))
            removed = db.execute("DELETE FROM chunks WHERE source_id = ?", (source_id,)).rowcount
            db.execute("DELETE FROM vectors WHERE NOT EXISTS (SELECT 1 FROM entries AS e WHERE "
                       "e.embedding_model = vectors.embedding_model AND "
                       "e.retrieval_sha256 = vectors.retrieval_sha256)")
            db.execute("UPDATE tombstones SET purged = 1 WHERE source_id = ?", (source_id,))
        return removed
