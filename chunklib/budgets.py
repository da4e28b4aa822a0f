"""One text, four length functions: characters, word-like units, BPE tokens, word pieces (lesson 1).

A budget means nothing without the length function it counts with. On the course's sample
passage the first 1000 cl100k tokens take 4721 characters, while the first 1000 characters hold
215 tokens; the embedding model all-MiniLM-L6-v2 counts in neither: it reads 254 word pieces of
text (the first 1184 characters there) and silently drops the rest. The helpers here turn a
budget in one length function into characters of the source, say where the model stops
reading each chunk, and print the three tables lesson 1 shows (``unit_table``,
``budget_table``, ``truncation_table``).

Leaves out: other embedding models and prices; spans come from ``chunklib.units`` and
``chunklib.tokens``.

    >>> prefix_end([(0, 5), (6, 11), (11, 12)], 2)
    11
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Sequence

from chunklib.tokens import (
    MINILM_MAX_SEQ_LENGTH,
    MINILM_SPECIAL_TOKENS,
    token_spans,
    truncated_at,
    wordpiece_spans,
)
from chunklib.units import char_spans, unit_spans
from chunklib.validate import require_int, require_spans
from chunklib.windows import unit_windows

__all__ = ["UNIT_KINDS", "KIND_LABELS", "spans_of", "measure", "prefix_end", "units_within",
           "minilm_reads", "unit_table", "budget_table", "truncation_table"]

#: Every unit kind of the course, by name, with the function that finds its spans.
UNIT_KINDS: dict[str, Callable[[str], list[tuple[int, int]]]] = {
    "characters": char_spans,
    "words": unit_spans,
    "cl100k_tokens": token_spans,
    "minilm_wordpieces": wordpiece_spans,
}
#: How the lesson names each unit kind in prose, tables and plots.
KIND_LABELS = {"characters": "characters", "words": "word-like units",
               "cl100k_tokens": "cl100k tokens", "minilm_wordpieces": "MiniLM word pieces"}


def spans_of(text: str, kind: str) -> list[tuple[int, int]]:
    """The character spans of ``text``'s units of one kind (a key of ``UNIT_KINDS``).

    ``spans_of("Hi, you", "words")`` -> [(0, 2), (2, 3), (4, 7)]
    """
    if kind not in UNIT_KINDS:
        raise ValueError(f"kind must be one of {', '.join(UNIT_KINDS)}, got {kind!r}")
    return UNIT_KINDS[kind](text)


def measure(text: str) -> dict[str, int]:
    """The length of ``text`` in every unit kind.

    ``measure("Hello, world!")`` ->
    {'characters': 13, 'words': 4, 'cl100k_tokens': 4, 'minilm_wordpieces': 4}
    """
    return {kind: len(find(text)) for kind, find in UNIT_KINDS.items()}


def prefix_end(spans: Sequence[tuple[int, int]], n: int) -> int:
    """The character offset where the first ``n`` units end (0 for ``n == 0``): a budget of ``n``
    units, counted from the start, covers ``text[:prefix_end(spans, n)]``.

    ``prefix_end([(0, 5), (6, 11), (11, 12)], 2)`` -> 11
    """
    spans = require_spans("spans", spans)
    n = require_int("n", n, minimum=0)
    if n > len(spans):
        raise ValueError(f"n must be <= the number of units ({len(spans)}), got {n}")
    return _prefix_end(spans, n)


def _prefix_end(spans: Sequence[tuple[int, int]], n: int) -> int:
    return 0 if n == 0 else max(end for _, end in spans[:n])


def units_within(spans: Sequence[tuple[int, int]], limit: int) -> int:
    """How many units lie wholly inside the first ``limit`` characters (end <= ``limit``).

    ``units_within([(0, 5), (6, 11), (11, 12)], 10)`` -> 1
    """
    return _units_within(require_spans("spans", spans), require_int("limit", limit, minimum=0))


def _units_within(spans: Sequence[tuple[int, int]], limit: int) -> int:
    return sum(1 for _, end in spans if end <= limit)


def minilm_reads(text: str, chunks: Sequence[tuple[int, int]],
                 limit: int = MINILM_MAX_SEQ_LENGTH) -> list[tuple[int, int]]:
    """For every chunk, a character span of ``text``: ``(word pieces, read_end)``, the chunk's
    length in all-MiniLM-L6-v2 word pieces and the offset in ``text`` where the model stops
    reading it (the chunk's end when it fits in ``limit - 2`` pieces, [CLS] and [SEP] aside).

    ``minilm_reads("one two three", [(0, 7), (8, 13)], limit=3)`` -> [(2, 4), (1, 13)]
    """
    chunks = require_spans("chunks", chunks)
    keep = require_int("limit", limit, minimum=MINILM_SPECIAL_TOKENS) - MINILM_SPECIAL_TOKENS
    out = []
    for start, end in chunks:
        pieces = wordpiece_spans(text[start:end])
        out.append((len(pieces), end if len(pieces) <= keep else start + pieces[keep][0]))
    return out


def _rows(rows: list[tuple[str, str]], width: int = 100) -> str:
    """Label-value rows, values wrapped under their own column."""
    pad = max(len(label) for label, _ in rows) + 2
    return "\n".join(textwrap.fill(value, width, initial_indent=label.ljust(pad),
                                    subsequent_indent=" " * pad, break_on_hyphens=False)
                      for label, value in rows)


def unit_table(text: str) -> str:
    """Every unit kind's units of a short ``text``, each as ``start:end 'text[start:end]'``, so the
    offsets, the leading spaces of BPE tokens and the characters split by BPE show.

    ``unit_table("Hi!").splitlines()[2]`` -> "word-like units (2)     0:2 'Hi'  2:3 '!'"
    """
    rows = [("text", f"{text!r} ({len(text)} characters)")]
    for kind in UNIT_KINDS:
        spans = spans_of(text, kind)
        # a no-break space inside each unit keeps the wrapping between units (repr escapes any
        # no-break space of the text itself, so restoring them below touches nothing else)
        rows.append((f"{KIND_LABELS[kind]} ({len(spans)})",
                     "  ".join(f"{s}:{e} {text[s:e]!r}".replace(" ", "\u00a0") for s, e in spans)
                     or "none"))
    return _rows(rows).replace("\u00a0", " ")


def budget_table(text: str, budget: int = 1000) -> str:
    """A table: how far a budget of ``budget`` units, counted in each unit kind, reaches into
    ``text`` (the character where it ends), and how many cl100k tokens and MiniLM word pieces lie
    wholly inside that reach; then where all-MiniLM-L6-v2 stops reading ``text``.

    ``budget_table("Hi, you", 2).splitlines()[1].split()`` -> ['2', 'characters', '2', '1', '1']
    """
    budget = require_int("budget", budget, minimum=0)
    spans = {kind: spans_of(text, kind) for kind in UNIT_KINDS}
    tokens, pieces = spans["cl100k_tokens"], spans["minilm_wordpieces"]
    width = max(len(f"{budget} {label}") for label in KIND_LABELS.values()) + 2
    lines = ["budget".ljust(width) + "reaches character  cl100k tokens  MiniLM word pieces"]
    for kind, units in spans.items():  # spans of chunklib's own: no check needed
        reach = _prefix_end(units, min(budget, len(units)))
        lines.append(f"{budget} {KIND_LABELS[kind]}".ljust(width) + f"{reach:>17}"
                     f"{_units_within(tokens, reach):>15}{_units_within(pieces, reach):>20}")
    keep = MINILM_MAX_SEQ_LENGTH - MINILM_SPECIAL_TOKENS
    lines += [f"The text: {', '.join(f'{len(s)} {KIND_LABELS[k]}' for k, s in spans.items())}.",
              f"all-MiniLM-L6-v2 reads {keep} word pieces ({MINILM_MAX_SEQ_LENGTH} with [CLS] and "
              f"[SEP]): it stops reading this text at character {truncated_at(text)}."]
    return "\n".join(lines)


def truncation_table(text: str, size: int, kind: str = "characters") -> str:
    """Fixed windows of ``size`` units of ``kind`` over ``text``, each with its word pieces and
    the characters all-MiniLM-L6-v2 silently drops from it.

    ``truncation_table("a b c", 2).splitlines()[0]`` -> '3 chunks of at most 2 characters; ...'
    """
    chunks = unit_windows(spans_of(text, kind), size, 0)
    reads = minilm_reads(text, chunks)
    keep = MINILM_MAX_SEQ_LENGTH - MINILM_SPECIAL_TOKENS
    over = sum(1 for pieces, _ in reads if pieces > keep)
    lines = [f"{len(chunks)} chunks of at most {size} {KIND_LABELS[kind]}; all-MiniLM-L6-v2 reads "
             f"{keep} word pieces of each ({MINILM_MAX_SEQ_LENGTH} with [CLS] and [SEP]); "
             f"{over} of {len(chunks)} chunks are longer"]
    for k, ((start, end), (pieces, stop)) in enumerate(zip(chunks, reads, strict=True), 1):
        fate = ("read whole" if stop == end else
                f"read up to character {stop}, the last {end - stop} characters silently dropped")
        lines.append(f"  chunk {k}: characters {start} to {end}, {pieces} word "
                     f"piece{'' if pieces == 1 else 's'}: {fate}")
    return "\n".join(lines)
