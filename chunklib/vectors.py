"""Sentence vectors computed once: a SQLite cache keyed by (model, retrieval_sha256), the store
the course ships for lesson 6, and an embedder that uses both and counts what it is asked.

A vector belongs to a retrieval text, not to a chunk: two chunks with the same retrieval text
share one vector, and a chunk whose text did not change keeps its vector across revisions. So
the key is the model's name and the SHA-256 of the text (``identity.sha256_hex``), the same key
as lesson 5's ``vectors`` table (``chunklib.index``; ``VectorCache`` opens that table in any
SQLite file, an index's included). Vectors are stored as raw little-endian float32 (1,536 bytes
for 384 values).

``MiniLMEmbedder`` is the real model (``chunklib.embedding.embed``) behind the interface
lesson 5's index builds use: ``model``, ``calls`` and ``embedder(text)``. ``calls`` counts
the texts the index asked for, whether the vector came from a store or from the network, so
lesson 5's counts do not depend on what was cached; ``computed`` counts the texts that really
went through the model. Lookups go to memory, then to the shipped store (``SHIPPED_STORE``:
every retrieval text of the fixture's chunks under the strategies lesson 6 uses, its
questions, and lesson 1's truncation texts; ``tools/build_vectors.py`` writes it from
``chunklib.course.vector_store``), then to an optional ``VectorCache``.

Leaves out: which texts the shipped store holds (course content,
``chunklib.course.vector_store``), approximate nearest-neighbour search (the course's corpora
are small enough to score every authorized vector), other models, and evicting old vectors.

    >>> VectorCache().get(MODEL_NAME, ["0" * 64]) == {}
    True
"""

from __future__ import annotations

import json
import sqlite3
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from functools import cache
from importlib.resources import files

import numpy as np

from chunklib.embedding import DIMENSION, MODEL_NAME, embed
from chunklib.identity import sha256_hex

SHIPPED_STORE = files("chunklib").joinpath("data", "minilm-vectors.npz")
CREATE = ("CREATE TABLE IF NOT EXISTS vectors (embedding_model TEXT NOT NULL, "
          "retrieval_sha256 TEXT NOT NULL, vector BLOB NOT NULL, "
          "PRIMARY KEY (embedding_model, retrieval_sha256))")


def to_blob(vector: Iterable[float]) -> bytes:
    """A vector as little-endian float32 bytes. ``len(to_blob([0.0] * 384))`` -> 1536"""
    return np.asarray(vector, dtype="<f4").tobytes()


def from_blob(blob: bytes) -> np.ndarray:
    """``to_blob`` undone. ``from_blob(to_blob([1.0, 2.0])).tolist()`` -> [1.0, 2.0]"""
    if not isinstance(blob, bytes | memoryview):
        raise TypeError(f"blob must be bytes, got {type(blob).__name__}")
    return np.frombuffer(bytes(blob), dtype="<f4").astype(np.float32)


def decode_vector(value: bytes | str) -> np.ndarray:
    """A stored vector: float32 bytes (``to_blob``) or a JSON list (lesson 5's index), as
    float64 values. ``decode_vector("[0.5, 1]").tolist()`` -> [0.5, 1.0]"""
    if isinstance(value, str):
        return np.asarray(json.loads(value), dtype=np.float64)
    return from_blob(value).astype(np.float64)


class VectorCache:
    """The ``vectors`` table of a SQLite file (``:memory:`` by default), read and written in
    batches; ``get`` returns the vectors it holds by key.
    ``VectorCache().get(MODEL_NAME, [sha256_hex("cat")])`` -> {}
    """

    def __init__(self, path: str = ":memory:"):
        self.path = str(path)
        self.db = sqlite3.connect(self.path, timeout=30)
        with self.db:
            self.db.execute(CREATE)

    def get(self, model: str, keys: Sequence[str]) -> dict[str, np.ndarray]:
        """The stored vectors among ``keys`` (retrieval hashes): hash -> float32 array."""
        out = {}
        for i in range(0, len(keys), 500):  # SQLite limits the number of parameters
            chunk = list(keys[i:i + 500])
            rows = self.db.execute(
                "SELECT retrieval_sha256, vector FROM vectors WHERE embedding_model = ? AND "
                f"retrieval_sha256 IN ({', '.join('?' * len(chunk))})", [model, *chunk])
            out.update((key, decode_vector(value).astype(np.float32)) for key, value in rows)
        return out

    def put(self, model: str, items: dict[str, np.ndarray]) -> None:
        """Store hash -> vector pairs (a pair already present is kept as it is)."""
        with self.db:
            self.db.executemany("INSERT OR IGNORE INTO vectors VALUES (?, ?, ?)",
                                [(model, key, to_blob(v)) for key, v in items.items()])

    def __len__(self) -> int:
        return self.db.execute("SELECT count(*) FROM vectors").fetchone()[0]

    def close(self) -> None:
        """Close the connection."""
        self.db.close()


@cache
def shipped_store() -> dict[str, np.ndarray]:
    """The vectors the course ships (``SHIPPED_STORE``): retrieval hash -> float32 array; {}
    when the file is absent. ``len(next(iter(shipped_store().values())))`` -> 384
    """
    try:
        with SHIPPED_STORE.open("rb") as handle, np.load(handle) as data:
            if str(data["model"]) != MODEL_NAME:
                raise ValueError(f"{SHIPPED_STORE} holds vectors of {data['model']}, "
                                 f"not {MODEL_NAME}")
            keys = [key.decode("ascii") for key in data["sha256"].tolist()]
            vectors = data["vectors"]
    except FileNotFoundError:
        return {}
    return dict(zip(keys, vectors, strict=True))


def save_store(path: str, vectors: dict[str, np.ndarray]) -> None:
    """Write hash -> vector pairs as the shipped store's ``.npz`` (sorted by hash)."""
    keys = sorted(vectors)
    matrix = (np.stack([vectors[k] for k in keys]).astype(np.float32) if keys
              else np.zeros((0, DIMENSION), dtype=np.float32))
    np.savez(path, model=np.array(MODEL_NAME), sha256=np.array(keys, dtype="S64"),
             vectors=matrix)


class Progress:
    """A text progress bar on stderr (or ``stream``) for ``len(sizes)`` texts; the estimate of
    the time left assumes time proportional to the texts' sizes (characters) done so far.

    ``Progress([10, 30])(1)`` draws ``embedding [#######    ] 1/2 texts, about 3 s left``
    """

    def __init__(self, sizes: Sequence[int], stream=None, width: int = 30):
        self.sizes, self.stream, self.width = list(sizes), stream or sys.stderr, width
        self.total, self.weight = len(self.sizes), max(sum(self.sizes), 1)
        self.started = time.monotonic()

    def __call__(self, done: int) -> None:
        """Redraw after the first ``done`` texts."""
        share = max(sum(self.sizes[:done]), 1) / self.weight
        left = (time.monotonic() - self.started) * (1 - share) / share if done else 0.0
        bar = "#" * int(self.width * share if done else 0)
        end = "\n" if done >= self.total else ""
        self.stream.write(f"\rembedding [{bar:<{self.width}}] {done}/{self.total} texts, "
                          f"about {left:.0f} s left {end}")
        self.stream.flush()


class MiniLMEmbedder:
    """all-MiniLM-L6-v2 with its vectors remembered (memory, shipped store, ``cache``).

    ``calls`` counts the texts asked for (``embedder(text)`` or ``embedder.many(texts)``),
    ``computed`` the texts the model really encoded.
    ``MiniLMEmbedder()("Chunks are the unit of retrieval.").shape`` -> (384,)
    """

    model = MODEL_NAME

    def __init__(self, cache: VectorCache | None = None, shipped: bool = True,
                 progress: Callable[[Sequence[int]], Callable[[int], None]] | None = None,
                 batch: int = 64, hook: Callable[[int], None] | None = None):
        if cache is not None and not isinstance(cache, VectorCache):
            raise TypeError(f"cache must be a VectorCache or None, got {type(cache).__name__}")
        self.cache, self.shipped, self.progress, self.batch = cache, shipped, progress, batch
        self.hook = hook  # runs before the n-th counted call (tests fail or stall a build)
        self.memory: dict[str, np.ndarray] = {}
        self.calls = self.computed = 0

    def __call__(self, text: str) -> np.ndarray:
        return self.many([text])[0]

    def many(self, texts: Sequence[str]) -> np.ndarray:
        """One vector per text, as a (len(texts), 384) float32 array; counts every text."""
        if isinstance(texts, str) or not isinstance(texts, Sequence):
            raise TypeError("texts must be a list of str")
        for _ in texts:
            if self.hook is not None:
                self.hook(self.calls + 1)
            self.calls += 1
        return self.lookup(texts)

    def lookup(self, texts: Sequence[str]) -> np.ndarray:
        """``many`` without counting: for readers (retrieval), not for index builds."""
        for i, text in enumerate(texts):
            if not isinstance(text, str):
                raise TypeError(f"texts[{i}] must be a str, got {type(text).__name__}")
        keys = [sha256_hex(t) for t in texts]
        self._fill(dict(zip(keys, texts, strict=True)))
        out = np.zeros((len(texts), DIMENSION), dtype=np.float32)
        for row, key in enumerate(keys):
            out[row] = self.memory[key]
        return out

    def _fill(self, wanted: dict[str, str]) -> None:
        missing = [k for k in wanted if k not in self.memory]
        if self.shipped and missing:
            store = shipped_store()
            self.memory.update((k, store[k]) for k in missing if k in store)
            missing = [k for k in missing if k not in self.memory]
        if self.cache is not None and missing:
            self.memory.update(self.cache.get(self.model, missing))
            missing = [k for k in missing if k not in self.memory]
        if not missing:
            return
        missing.sort(key=lambda key: len(wanted[key]))  # similar lengths batch well
        bar = self.progress([len(wanted[k]) for k in missing]) if self.progress else None
        for i in range(0, len(missing), self.batch):
            keys = missing[i:i + self.batch]
            new = dict(zip(keys, embed([wanted[k] for k in keys]), strict=True))
            self.computed += len(keys)
            self.memory.update(new)
            if self.cache is not None:
                self.cache.put(self.model, new)
            if bar:
                bar(i + len(keys))


@cache
def default_embedder() -> MiniLMEmbedder:
    """The one embedder the course's retrievers share in a process (shipped store, memory).

    ``default_embedder().model`` -> 'sentence-transformers/all-MiniLM-L6-v2'
    """
    return MiniLMEmbedder()
