"""chunklib.embedding against sentence-transformers' own vectors, truncation, and bad input.

The reference vectors (tests/data/minilm_reference.json) were computed once by
sentence-transformers with PyTorch in a scratch environment (tools/make_embedding_fixture.py);
neither is needed here.
"""

from __future__ import annotations

import importlib.util
import json
import math
import struct
from pathlib import Path

import numpy as np
import pytest

import chunklib.embedding as embedding
from chunklib.embedding import DIMENSION, INSTALL, embed, read_safetensors
from chunklib.tokens import MINILM_MAX_SEQ_LENGTH, truncated_at, wordpiece_count

REFERENCE = json.loads((Path(__file__).parent / "data" / "minilm_reference.json")
                       .read_text(encoding="utf-8"))
TEXTS = REFERENCE["texts"]
LONG = " ".join(f"Paragraph {i} explains how the release train moves a build from staging to "
                "production, and who signs off each step." for i in range(40))


@pytest.fixture(scope="module")
def vectors():
    return embed(TEXTS)


def test_reference_covers_what_it_should():
    pieces = REFERENCE["word_pieces"]
    assert REFERENCE["max_seq_length"] == MINILM_MAX_SEQ_LENGTH
    assert sum(n > MINILM_MAX_SEQ_LENGTH for n in pieces) >= 3   # past the cut
    assert min(pieces) == 2                                     # the empty text: [CLS] [SEP]
    assert any("\n#" in t or t.startswith("#") for t in TEXTS)   # Markdown
    assert any("def " in t for t in TEXTS)                      # code
    assert any("\u4e00" <= c <= "\u9fff" for t in TEXTS for c in t)  # CJK
    assert any(ord(c) >= 0x1F300 for t in TEXTS for c in t)    # emoji
    # the tokenizer agrees with the one sentence-transformers ran
    assert [wordpiece_count(t) + 2 for t in TEXTS] == pieces


@pytest.mark.slow  # the model on 27 texts (about 20 s on one core)
@pytest.mark.parametrize("i", range(len(TEXTS)))
def test_vectors_agree_with_sentence_transformers(vectors, i):
    ref = np.array(REFERENCE["vectors"][i])
    cosine = float(vectors[i] @ ref) / (np.linalg.norm(vectors[i]) * np.linalg.norm(ref))
    assert cosine >= 0.9999, (TEXTS[i][:60], cosine)


@pytest.mark.slow  # the model on 27 texts (about 20 s on one core)
def test_vectors_are_unit_float32_in_input_order(vectors):
    assert vectors.shape == (len(TEXTS), DIMENSION) and vectors.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1, atol=1e-6)
    reversed_ = embed(TEXTS[::-1])
    np.testing.assert_allclose(reversed_[::-1], vectors, atol=1e-6)


@pytest.mark.slow  # the model on 27 texts (about 20 s on one core)
def test_batching_does_not_change_vectors(vectors):
    one_by_one = embed(TEXTS[:8], batch_tokens=1)
    np.testing.assert_allclose(one_by_one, vectors[:8], atol=1e-6)


def test_text_past_the_limit_has_the_vector_of_its_first_256_pieces():
    cut = truncated_at(LONG)
    assert wordpiece_count(LONG) > MINILM_MAX_SEQ_LENGTH and cut < len(LONG)
    assert wordpiece_count(LONG[:cut]) == MINILM_MAX_SEQ_LENGTH - 2  # [CLS], [SEP] take two
    whole, first, changed_tail, shorter = embed(
        [LONG, LONG[:cut], LONG[:cut] + " Nothing here is read.", LONG[:cut - 40]])
    np.testing.assert_allclose(whole, first, atol=1e-6)
    np.testing.assert_allclose(changed_tail, first, atol=1e-6)
    assert float(shorter @ first) < 0.9999  # the text before the cut does count


def test_empty_input_gives_an_empty_array():
    assert embed([]).shape == (0, DIMENSION)


@pytest.mark.parametrize("texts, kind, words", [
    ("one text", TypeError, "texts must be a list of str, got str (wrap one text in a list"),
    (None, TypeError, "texts must be a list of str, got NoneType"),
    (["ok", 3], TypeError, "texts[1] must be a str, got int"),
    (["ok", "bad \ud800"], ValueError, "texts[1] holds a lone surrogate"),
])
def test_bad_texts_are_refused_by_name(texts, kind, words):
    with pytest.raises(kind) as err:
        embed(texts)
    assert words in str(err.value)


@pytest.mark.parametrize("value, kind", [(0, ValueError), (2.0, TypeError)])
def test_bad_batch_tokens_is_refused_by_name(value, kind):
    with pytest.raises(kind, match="batch_tokens"):
        embed(["a"], batch_tokens=value)


def test_missing_weights_say_how_to_install(monkeypatch):
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "all_minilm_l6_v2" else real(name, *a))
    with pytest.raises(ModuleNotFoundError) as err:
        embedding._weights_file()
    assert INSTALL in str(err.value) and "--no-deps" in INSTALL


def test_weights_with_another_sha256_are_refused(monkeypatch):
    monkeypatch.setattr(embedding, "WEIGHTS_SHA256", "0" * 64)
    with pytest.raises(ValueError, match="SHA-256"):
        embedding._weights_file()


def _safetensors(header: dict, body: bytes) -> bytes:
    raw = json.dumps(header).encode()
    return struct.pack("<Q", len(raw)) + raw + body


def test_read_safetensors_reads_f32_and_i64():
    f32 = np.arange(6, dtype="<f4").reshape(2, 3)
    i64 = np.array([7, -1], dtype="<i8")
    data = _safetensors({"__metadata__": {"format": "pt"},
                         "a": {"dtype": "F32", "shape": [2, 3], "data_offsets": [0, 24]},
                         "b": {"dtype": "I64", "shape": [2], "data_offsets": [24, 40]}},
                        f32.tobytes() + i64.tobytes())
    tensors = read_safetensors(data)
    assert sorted(tensors) == ["a", "b"]
    np.testing.assert_array_equal(tensors["a"], f32)
    np.testing.assert_array_equal(tensors["b"], i64)
    assert tensors["b"].dtype == np.int64


def test_read_safetensors_refuses_other_dtypes():
    data = _safetensors({"h": {"dtype": "F16", "shape": [1], "data_offsets": [0, 2]}}, b"\0\0")
    with pytest.raises(ValueError, match="'h' is F16"):
        read_safetensors(data)


def test_model_shapes():
    model = embedding.load_model()
    assert model.words.shape == (30522, DIMENSION) and len(model.layers) == embedding.LAYERS
    assert model.layers[0][0][0].shape == (DIMENSION, 3 * DIMENSION)  # query, key, value


def test_gelu_is_the_erf_gelu_to_float32_precision():
    x = np.linspace(-10, 10, 200_001, dtype=np.float32)
    exact = np.array([v * 0.5 * (1 + math.erf(v / math.sqrt(2))) for v in x.tolist()])
    assert np.abs(embedding._gelu(x) - exact).max() < 5e-7
    erf_exact = np.array([math.erf(v) for v in x.tolist()])
    assert np.abs(embedding.erf(x) - erf_exact).max() < 6e-7


def test_batches_group_shortest_first_within_the_budget():
    assert embedding._batches([5, 2, 4, 3], tokens=8) == [[1, 3], [2], [0]]
    assert embedding._batches([300], tokens=8) == [[0]]
    assert embedding._batches([], tokens=8) == []
