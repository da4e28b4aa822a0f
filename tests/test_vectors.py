"""chunklib.vectors: the shipped store is current and right, the cache and the counting
embedder, and lesson 5's index builds with the real model without encoding anything."""

import io

import numpy as np
import pytest

from chunklib import vectors
from chunklib.course.fixture import load_sources
from chunklib.course.vector_store import store_texts
from chunklib.embedding import MODEL_NAME, embed
from chunklib.identity import sha256_hex
from chunklib.index import ChunkIndex
from chunklib.lifecycle import update
from chunklib.vectors import MiniLMEmbedder, Progress, VectorCache, decode_vector, shipped_store


def test_store_covers_every_text_lesson_6_and_lesson_5_need():
    wanted = store_texts()
    store = shipped_store()
    assert set(wanted) == set(store), "run tools/build_vectors.py"
    assert all(v.dtype == np.float32 and v.shape == (384,) for v in store.values())


def test_a_sample_of_the_store_equals_fresh_embeddings():
    wanted = store_texts()
    keys = sorted(wanted, key=lambda key: len(wanted[key]))
    sample = keys[:: len(keys) // 4][:4]  # short to long, a few seconds on one core
    fresh = embed([wanted[key] for key in sample])
    stored = np.stack([shipped_store()[key] for key in sample])
    assert np.abs(fresh - stored).max() < 1e-5
    assert (np.sum(fresh * stored, axis=1) > 0.99999).all()


def test_cache_round_trip_and_json_rows_of_the_lesson_5_index(tmp_path):
    cache = VectorCache(str(tmp_path / "v.sqlite"))
    vec = np.linspace(-1, 1, 384, dtype=np.float32)
    cache.put(MODEL_NAME, {"k": vec})
    cache.put(MODEL_NAME, {"k": vec * 0})  # a key already present is kept
    assert np.array_equal(cache.get(MODEL_NAME, ["k", "missing"])["k"], vec)
    assert len(cache) == 1
    cache.close()
    assert decode_vector("[0.25, -1]").tolist() == [0.25, -1.0]
    with pytest.raises(TypeError, match="blob must be bytes"):
        vectors.from_blob([1.0])


def test_cache_reads_the_vectors_table_of_a_lesson_5_index(tmp_path):
    path = str(tmp_path / "index.db")
    index = ChunkIndex(path)
    update(index, load_sources()[:1], MiniLMEmbedder())
    record = index.chunks()[0]
    cached = VectorCache(path).get(MODEL_NAME, [record.retrieval_sha256])
    assert np.array_equal(cached[record.retrieval_sha256], shipped_store()[record.retrieval_sha256])


def test_embedder_counts_calls_and_computes_each_text_once(tmp_path):
    path = str(tmp_path / "v.sqlite")
    first = MiniLMEmbedder(VectorCache(path), shipped=False)
    a = first.many(["a compost heap", "the shed key", "a compost heap"])
    assert (first.calls, first.computed) == (3, 2)
    assert np.array_equal(a[0], a[2])
    again = MiniLMEmbedder(VectorCache(path), shipped=False)  # a later run: from the cache
    b = again.many(["the shed key"])
    assert (again.calls, again.computed) == (1, 0)
    assert np.allclose(b[0], a[1], atol=1e-6)
    with pytest.raises(TypeError, match="texts must be a list"):
        again.many("one text")
    with pytest.raises(TypeError, match="cache must be a VectorCache"):
        MiniLMEmbedder(cache=path)


def test_lesson_5_update_with_the_real_model_reads_the_shipped_store():
    real = MiniLMEmbedder()
    index = ChunkIndex()
    real_report = update(index, load_sources(), real)
    distinct = {e["retrieval_sha256"] for e in index.entries().values()}
    assert real_report.embedded == len(distinct) == real.calls > 0
    assert real.computed == 0  # every vector came from the store
    record = index.chunks()[0]
    stored = index.vector(MODEL_NAME, record.retrieval_sha256)
    assert np.allclose(stored, shipped_store()[sha256_hex(record.retrieval_text)], atol=1e-7)
    again = update(index, load_sources(), real)  # nothing changed: nothing asked for
    assert again.embedded == 0


def test_update_uses_the_real_model_by_default():
    index = ChunkIndex()
    report = update(index, load_sources()[:1])
    assert report.embedded > 0
    assert {e["vector_key"][0] for e in index.entries().values()} == {MODEL_NAME}


def test_embedder_hook_fails_a_build():
    def down(call):
        if call == 3:
            raise RuntimeError("down")

    index = ChunkIndex()
    with pytest.raises(RuntimeError, match="down"):
        update(index, load_sources(), MiniLMEmbedder(hook=down), batch=8)
    assert index.published() is None and list(index.generations().values()) == ["failed"]


def test_progress_bar_estimates_from_sizes():
    stream = io.StringIO()
    bar = Progress([10, 30], stream=stream, width=8)
    bar(1)
    bar(2)
    text = stream.getvalue()
    assert "[##      ] 1/2 texts" in text and "[########] 2/2 texts, about 0 s left" in text
