"""Tests for chunklib.tokens: BPE token ids and spans, MiniLM word pieces and truncation.

Reference values: the cl100k_base ids below are the literal expectations in OpenAI's own test
suite (openai/tiktoken, tests/test_encoding.py: test_simple, test_simple_regex,
test_basic_encode, test_encode_surrogate_pairs). The o200k_base "hello world" ids were computed
with tiktoken 0.14.0 on OpenAI's published vocabulary file. The MiniLM ids are those of
bert-base-uncased, whose vocabulary all-MiniLM-L6-v2 uses ("Hello, world!" -> [101, 7592, 1010,
2088, 999, 102]). When tiktoken is installed, every id is also compared with tiktoken itself.
"""

import base64
import gzip
import hashlib
import subprocess
import sys
import warnings
from importlib import resources
from unittest import mock

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chunklib.course.passages import sample_passage
from chunklib.tokens import (
    MINILM_MAX_SEQ_LENGTH,
    MINILM_TOKENIZER_FILE,
    _minilm,
    count_tokens,
    token_ids,
    token_spans,
    truncated_at,
    wordpiece_count,
    wordpiece_spans,
)

ALPHABET = list("ab é_0,.'!?\n\t\r ") + ["\u0301", "\u200d", "👩", "💻", "👍", "日", "本",
                                        "\u00a0", "ß", "İ", "ﬁ", "\x85", "<|endoftext|>"]
texts = (st.lists(st.sampled_from(ALPHABET), max_size=40).map("".join)
         | st.text(max_size=60))


@pytest.mark.parametrize("text, expected", [
    ("hello world", [15339, 1917]),
    ("rer", [38149]),
    ("'rer", [2351, 81]),
    ("today\n ", [31213, 198, 220]),
    ("today\n \n", [31213, 27907]),
    ("today\n  \n", [31213, 14211]),
    (" \x850", [220, 126, 227, 15]),
    ("👍", [9468, 239, 235]),
    ("", []),
])
def test_cl100k_ids_match_tiktokens_own_tests(text, expected):
    assert token_ids(text) == expected
    assert count_tokens(text) == len(expected)


def test_o200k_ids():
    assert token_ids("hello world", "o200k_base") == [24912, 2375]


def test_special_token_text_is_ordinary_text():
    assert count_tokens("hello <|endoftext|>") > 2   # never the single id 100257


@pytest.mark.parametrize("text, encoding, expected", [
    ("hello world", "cl100k_base", [(0, 5), (5, 11)]),
    ("", "cl100k_base", []),
    ("👍", "cl100k_base", [(0, 1), (0, 1), (0, 1)]),     # one character, three tokens
    ("a 🚨 é", "cl100k_base", [(0, 1), (1, 3), (2, 3), (2, 3), (3, 5)]),
    ("a 🚨 é", "o200k_base", [(0, 1), (1, 3), (2, 3), (3, 5)]),
    ("👩\u200d💻", "cl100k_base", [(0, 1), (0, 1), (0, 1), (1, 2), (1, 2), (2, 3), (2, 3)]),
    (" 日本語", "cl100k_base", [(0, 2), (2, 3), (3, 4), (3, 4)]),
])
def test_token_spans_examples(text, encoding, expected):
    assert token_spans(text, encoding) == expected


@pytest.mark.parametrize("call", [token_ids, token_spans, count_tokens])
def test_bad_arguments(call):
    with pytest.raises(TypeError, match="text"):
        call(b"hello")
    with pytest.raises(ValueError, match="encoding"):
        call("hello", "gpt2")
    with pytest.raises(ValueError, match="surrogate"):
        call("a\ud83d")


def test_too_long_text_is_a_clear_error():
    with pytest.raises(ValueError, match="too long"):
        count_tokens("a " * 500_000)


@given(texts, st.sampled_from(["cl100k_base", "o200k_base"]))
def test_token_spans_invariants(text, encoding):
    from chunklib.tokens import _bpe

    ids = token_ids(text, encoding)
    spans = token_spans(text, encoding)
    assert len(spans) == len(ids) == count_tokens(text, encoding)
    if text:
        assert spans[0][0] == 0 and spans[-1][1] == len(text)
    for (start, end), token in zip(spans, ids, strict=True):
        assert 0 <= start < end <= len(text)
        # the token's bytes lie inside the characters its span snaps to
        assert _bpe(encoding).decode_single_token_bytes(token) in text[start:end].encode()
    for (_, e0), (s1, e1) in zip(spans, spans[1:], strict=False):
        assert s1 in (e0, e0 - 1) and e1 >= e0          # touch, or share one character
        if s1 == e0 - 1:
            assert ord(text[s1]) > 127                  # only a multi-byte character is shared


@pytest.fixture(scope="module")
def tiktoken_encodings():
    """tiktoken itself, fed OpenAI's vocabulary files (checked against the SHA-256 in tiktoken's
    own source) from the bpe-openai wheel, so nothing is downloaded."""
    tiktoken = pytest.importorskip("tiktoken")
    from tiktoken_ext import openai_public

    def build(name):
        def load(url, expected_hash=None):
            raw = gzip.decompress(
                resources.files("bpe_openai").joinpath("data", f"{name}.tiktoken.gz").read_bytes())
            assert hashlib.sha256(raw).hexdigest() == expected_hash
            return {base64.b64decode(token): int(rank)
                    for token, rank in (line.split() for line in raw.splitlines() if line)}

        with mock.patch.object(openai_public, "load_tiktoken_bpe", load):
            return tiktoken.Encoding(**getattr(openai_public, name)())

    with warnings.catch_warnings():  # bpe-openai 0.1.4 reads its files, at import, with a
        warnings.simplefilter("ignore", DeprecationWarning)  # deprecated call
        resources.files("bpe_openai")
    return {name: build(name) for name in ("cl100k_base", "o200k_base")}


@given(texts, st.sampled_from(["cl100k_base", "o200k_base"]))
def test_ids_equal_tiktoken(tiktoken_encodings, text, encoding):
    assert token_ids(text, encoding) == tiktoken_encodings[encoding].encode_ordinary(text)


@pytest.mark.parametrize("encoding", ["cl100k_base", "o200k_base"])
def test_passage_ids_equal_tiktoken(tiktoken_encodings, encoding):
    text = sample_passage()
    assert token_ids(text, encoding) == tiktoken_encodings[encoding].encode_ordinary(text)
    # tiktoken's own offsets: where each token starts, a split character counted where it starts
    _, offsets = tiktoken_encodings[encoding].decode_with_offsets(token_ids(text, encoding))
    assert [start for start, _ in token_spans(text, encoding)] == offsets


@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # bpe-openai 0.1.4 reading its files
@pytest.mark.parametrize("encoding", ["cl100k_base", "o200k_base"])
def test_loaded_alone_equals_bpe_openais_own_encoding(encoding):
    """_bpe skips ``import bpe_openai`` (which decodes every vocabulary it ships); its ids and
    token bytes are those of bpe-openai's own Encoding, for every token of the vocabulary."""
    import bpe_openai

    from chunklib.tokens import _bpe

    ours, theirs = _bpe(encoding), bpe_openai.get_encoding(encoding)
    assert len(ours._tokens) == len(theirs._mergeable_ranks)
    assert all(ours.decode_single_token_bytes(token) == theirs.decode_single_token_bytes(token)
               for token in range(len(ours._tokens)))
    text = sample_passage()
    for piece in (text, text[:1], "", "a 🚨 é <|endoftext|>", "x" * 5000):
        assert ours.encode_ordinary(piece) == theirs.encode_ordinary(piece)


def test_only_the_encoding_asked_for_is_loaded():
    code = ("import sys\n"
            "from chunklib.tokens import count_tokens\n"
            "print(count_tokens('hello world'), 'bpe_openai' in sys.modules,"
            " 'bpe_openai.registry' in sys.modules)\n"
            "import bpe_openai\n"                     # the package still imports afterwards
            "print(bpe_openai.get_encoding('cl100k_base').encode_ordinary('hello world'))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["2 False False", "[15339, 1917]"]


def test_nothing_is_fetched(tmp_path):
    """A fresh interpreter whose sockets all fail still counts both kinds of tokens."""
    code = (
        "import socket\n"
        "def refuse(*args, **kwargs):\n"
        "    raise OSError('network used')\n"
        "socket.socket.connect = refuse\n"
        "socket.create_connection = refuse\n"
        "socket.getaddrinfo = refuse\n"
        "from chunklib.tokens import count_tokens, wordpiece_count\n"
        "print(count_tokens('hello world'), count_tokens('hello world', 'o200k_base'),"
        " wordpiece_count('Hello, world!'))\n"
    )
    env = {"PATH": "", "HOME": str(tmp_path), "TIKTOKEN_CACHE_DIR": str(tmp_path / "cache"),
           "HF_HOME": str(tmp_path / "hf"), "XDG_CACHE_HOME": str(tmp_path / "xdg")}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                          cwd=tmp_path, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["2", "2", "4"]
    assert list(tmp_path.iterdir()) == []                # no cache written anywhere either


def test_minilm_tokenizer_file_is_the_models():
    data = resources.files("chunklib").joinpath("data", MINILM_TOKENIZER_FILE).read_bytes()
    assert hashlib.sha256(data).hexdigest() == (
        "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037")
    assert _minilm().encode("Hello, world!").ids == [101, 7592, 1010, 2088, 999, 102]
    assert _minilm().get_vocab_size() == 30522


@pytest.mark.parametrize("text, expected", [
    ("Hello, world!", [(0, 5), (5, 6), (7, 12), (12, 13)]),
    ("Unaffable!", [(0, 3), (3, 6), (6, 9), (9, 10)]),      # una ##ffa ##ble !
    ("", []),
    ("   ", []),
    ("café", [(0, 4)]),
    ("cafe\u0301", [(0, 4)]),                 # accents are stripped: the combining mark goes
    ("👩\u200d💻 codes", [(0, 3), (4, 9)]),   # an emoji is one [UNK] piece
    ("日本語", [(0, 1), (1, 2), (2, 3)]),     # CJK characters are split one by one
    ("x" * 101, [(0, 101)]),                  # a word over 100 characters is one [UNK]
])
def test_wordpiece_spans_examples(text, expected):
    assert wordpiece_spans(text) == expected
    assert wordpiece_count(text) == len(expected)


def test_wordpiece_bad_text():
    with pytest.raises(TypeError, match="text"):
        wordpiece_count(None)
    with pytest.raises(ValueError, match="surrogate"):
        wordpiece_spans("\udc00")


@given(texts)
def test_wordpiece_spans_invariants(text):
    spans = wordpiece_spans(text)
    for start, end in spans:
        assert 0 <= start < end <= len(text)
        assert not text[start:end].isspace()
    assert spans == sorted(spans)


@pytest.mark.parametrize("text, limit, expected", [
    ("one two three four", 4, 8),          # [CLS] one two [SEP]: stops before "three"
    ("one two three four", 6, 18),         # all four fit
    ("one two three four", 2, 0),          # room for the special tokens only
    ("Unaffable", 3, 3),                   # cut inside a word: after "una"
    ("", 2, 0),
])
def test_truncated_at_examples(text, limit, expected):
    assert truncated_at(text, limit) == expected


def test_truncated_at_bad_limit():
    with pytest.raises(ValueError, match="limit"):
        truncated_at("text", 1)
    with pytest.raises(TypeError, match="limit"):
        truncated_at("text", "256")


def test_minilm_budget_constant():
    assert MINILM_MAX_SEQ_LENGTH == 256
    assert truncated_at("word " * 254) == len("word " * 254)
    assert truncated_at("word " * 255) == 254 * 5


@given(texts, st.integers(2, 40))
def test_truncated_at_properties(text, limit):
    cut = truncated_at(text, limit)
    assert truncated_at(text, limit + 1) >= cut                 # more room never reads less
    if wordpiece_count(text) <= limit - 2:
        assert cut == len(text)
    else:                                  # exactly limit - 2 pieces lie before the cut
        assert cut < len(text)
        assert sum(1 for _, end in wordpiece_spans(text) if end <= cut) == limit - 2


@pytest.mark.parametrize("encoding", ["cl100k_base", "o200k_base"])
def test_token_widths_are_the_decoded_lengths_of_every_token(encoding):
    from chunklib.tokens import _bpe

    enc = _bpe(encoding)
    assert all(enc.token_width(t) == len(enc.decode_single_token_bytes(t))
               for t in range(len(enc._tokens)))


def test_a_bpe_openai_without_its_compiled_module_is_a_clear_error(tmp_path, monkeypatch):
    from chunklib import tokens

    monkeypatch.delitem(sys.modules, "bpe_openai._bindings", raising=False)
    with pytest.raises(RuntimeError, match="chunklib needs bpe-openai 0.1"):
        tokens._bpe_bindings(tmp_path)
