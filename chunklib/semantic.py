"""Semantic chunking: cut where neighbouring sentences stop being alike (lesson 2).

The text becomes sentences (``chunklib.sentences.split_sentences``), each sentence one vector
(all-MiniLM-L6-v2, the course's numpy encoder ``chunklib.embedding``, which gives
sentence-transformers' vectors; through ``chunklib.vectors.default_embedder``, so a text whose
vector the course ships is not run through the model again), and each pair of neighbours one
cosine similarity. The threshold is the ``percentile``-th percentile of those similarities,
computed as ``numpy.percentile`` does by default (sort them, then interpolate linearly between
the two values around position ``percentile / 100 · (n - 1)``).
Between sentences ``i`` and ``i + 1`` there is a breakpoint when their similarity is strictly
below the threshold, so ``percentile=0`` never cuts and with ``percentile=25`` about a quarter
of the gaps are cut. A chunk runs from the start of its first sentence to the start of the next
chunk's first sentence: the whitespace between sentences stays at the end of the chunk before
it, the first chunk starts at 0, the last ends at ``len(text)``, so the chunks tile the text and
``text[start:end]`` is each chunk exactly. With ``max_size`` (characters), a chunk that is too
long is rebuilt from its sentences with ``merge_spans``; a sentence that, with the whitespace
after it, is longer than ``max_size`` is split inside by ``chunklib.splitter.split_text``:
the only case where a chunk end can cut a sentence.

``split_sentences`` has no abbreviation list, so ``"Dr. Osei"`` is two sentences, and semantic
chunking inherits that: the fragment ``"Dr."`` gets a vector of its own, unlike both
neighbours, and a breakpoint on either side of it. ``abbreviations`` (for example
``ABBREVIATIONS``) joins a sentence that ends with one of them to the next sentence of the same
paragraph before anything is embedded (``join_abbreviations``); ``split_sentences`` itself does
not change.

The cut is LangChain's ``SemanticChunker`` with ``breakpoint_threshold_type="percentile"`` and
``buffer_size=0``: it cuts where the distance ``1 - cosine`` is above the ``100 - percentile``
percentile of the distances, the same gaps up to float rounding. But LangChain finds sentences
with its own regular expression (``(?<=[.?!])\\s+`` by default, which also ends a sentence
after "Dr.") and joins a chunk's sentences with single spaces, so its
chunks are not slices of the text; here they are.

Leaves out: neighbouring sentences embedded together for the similarity test (LangChain's
``buffer_size``, 1 by default; it groups sentences, it is not overlap: no chunk repeats text),
other thresholds (standard deviation, interquartile range, gradient, a fixed similarity, a
target number of chunks), smoothing the similarities (chonkie), a minimum chunk size, token
budgets (``max_size`` counts characters), and a real sentence splitter (``abbreviations`` is a
short list, not a model of where sentences end).

    >>> semantic_split("Cats purr. Cats nap. Tax is due.", fake_embedder, 50).spans
    [(0, 21), (21, 32)]
"""

from __future__ import annotations

import numbers
from collections.abc import Callable, Sequence
from typing import NamedTuple

import numpy as np

from chunklib.boundaries import merge_spans, span_stats
from chunklib.sentences import paragraph_spans, split_sentences
from chunklib.splitter import split_text
from chunklib.validate import require_int, require_spans, require_text

__all__ = ["ABBREVIATIONS", "SemanticSplit", "join_abbreviations", "neighbour_similarities",
           "semantic_split", "semantic_chunks", "paragraph_breaks_kept", "compare_with_recursive",
           "similarity_report", "comparison_report", "fake_embedder"]

Span = tuple[int, int]
Embedder = Callable[[list[str]], np.ndarray]

#: Abbreviations after which a sentence does not end: titles and two Latin ones. Short on
#: purpose; "etc." is left out because it often does end a sentence.
ABBREVIATIONS = ("Dr.", "Mr.", "Mrs.", "Ms.", "Prof.", "e.g.", "i.e.")


class SemanticSplit(NamedTuple):
    """Everything one semantic split computed, so a lesson can show each step."""

    sentences: list[Span]      # the sentence spans, whitespace excluded
    similarities: list[float]  # cosine of sentence i and sentence i + 1
    threshold: float           # the percentile of the similarities (nan with none)
    breakpoints: list[int]     # every i whose similarity is below the threshold
    spans: list[Span]          # the chunks: tiling the text, in order


def neighbour_similarities(vectors: object) -> list[float]:
    """Cosine similarity of each row of ``vectors`` with the next one.

    ``neighbour_similarities([[1, 0], [1, 1], [0, 1]])`` -> [0.7071..., 0.7071...]
    """
    try:
        matrix = np.asarray(vectors, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError("vectors must be a 2-D array of numbers") from None
    if matrix.ndim != 2 or not np.isfinite(matrix).all():
        raise ValueError(f"vectors must be a 2-D array of finite numbers, got shape "
                         f"{matrix.shape}")
    norms = np.linalg.norm(matrix, axis=1)
    if (norms == 0).any():
        raise ValueError(f"vectors[{int(np.argmin(norms))}] is all zeros: it has no direction")
    unit = matrix / norms[:, None]
    return [float(x) for x in np.einsum("ij,ij->i", unit[:-1], unit[1:])]


def join_abbreviations(text: str, sentences: Sequence[Span],
                       abbreviations: Sequence[str] = ABBREVIATIONS) -> list[Span]:
    """``sentences`` with each sentence that ends with one of ``abbreviations`` (as a whole
    word: at the sentence's start or after whitespace) joined to the next, unless a blank line
    lies between them. Spans keep their offsets; ``abbreviations=()`` changes nothing.

    ``join_abbreviations("Ask Dr. Osei. Go.", [(0, 7), (8, 13), (14, 17)])`` ->
    [(0, 13), (14, 17)]
    """
    text, sentences = require_text(text), require_spans("sentences", sentences)
    if isinstance(abbreviations, str) or not all(
            isinstance(a, str) and a and not a[0].isspace() for a in abbreviations):
        raise TypeError("abbreviations must be a list of non-empty str without leading "
                        "whitespace")
    out: list[Span] = []
    for start, end in sentences:
        if out and _ends_with_abbreviation(text, *out[-1], abbreviations) \
                and text[out[-1][1]:start].count("\n") < 2:
            out[-1] = (out[-1][0], end)
        else:
            out.append((start, end))
    return out


def _ends_with_abbreviation(text: str, start: int, end: int, abbreviations: Sequence[str]
                            ) -> bool:
    sentence = text[start:end]
    return any(sentence.endswith(a) and (len(sentence) == len(a)
                                         or sentence[-len(a) - 1].isspace())
               for a in abbreviations)


def _require_percentile(percentile: object) -> float:
    if isinstance(percentile, bool) or not isinstance(percentile, numbers.Real):
        raise TypeError(f"percentile must be a number, got {type(percentile).__name__}")
    if not 0 <= percentile <= 100:  # also refuses nan
        raise ValueError(f"percentile must be between 0 and 100, got {percentile!r}")
    return float(percentile)


def _vectors(embedder: Embedder, texts: list[str]) -> np.ndarray:
    """The embedder's vectors of ``texts``, checked: one row per text."""
    try:
        vectors = np.asarray(embedder(texts), dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError("embedder must return an array of numbers, one row per text") from None
    if vectors.ndim != 2 or len(vectors) != len(texts):
        raise ValueError(f"embedder must return one vector per text ({len(texts)} rows), "
                         f"got shape {vectors.shape}")
    return vectors


def semantic_split(text: str, embedder: Embedder | None = None, percentile: float = 5.0,
                   max_size: int | None = None, abbreviations: Sequence[str] = ()
                   ) -> SemanticSplit:
    """Sentences, neighbour similarities, threshold, breakpoints and chunks of ``text``.

    ``embedder`` maps a list of texts to a (len(texts), d) array (default: all-MiniLM-L6-v2,
    shipped vectors first). The default ``percentile`` 5 is LangChain's default (95 on
    distances). ``abbreviations`` are joined to the next sentence (``join_abbreviations``).
    ``""`` gives no chunks; a text with one sentence or none (only whitespace) gives one.
    ``semantic_split("A. B.", fake_embedder).spans`` -> [(0, 5)]
    """
    text = require_text(text)
    percentile = _require_percentile(percentile)
    if max_size is not None:
        max_size = require_int("max_size", max_size, minimum=1)
    if embedder is None:
        from chunklib.vectors import default_embedder
        embedder = default_embedder().lookup
    elif not callable(embedder):
        raise TypeError(f"embedder must be callable, got {type(embedder).__name__}")
    sentences = join_abbreviations(text, split_sentences(text), abbreviations)
    similarities: list[float] = []
    if len(sentences) > 1:
        vectors = _vectors(embedder, [text[s:e] for s, e in sentences])
        try:
            similarities = neighbour_similarities(vectors)
        except (TypeError, ValueError) as err:
            raise ValueError(f"embedder returned unusable vectors: {err}") from None
    threshold = float(np.percentile(similarities, percentile)) if similarities else float("nan")
    breakpoints = [i for i, s in enumerate(similarities) if s < threshold]
    # A chunk starts at its first sentence's start (the first chunk at 0) and ends where the
    # next chunk starts; every sentence start after a breakpoint begins a chunk.
    starts = [0] + [sentences[i + 1][0] for i in breakpoints]
    spans = list(zip(starts, starts[1:] + [len(text)])) if text else []
    if max_size is not None:
        spans = [piece for span in spans for piece in _fit(text, span, sentences, max_size)]
    return SemanticSplit(sentences, similarities, threshold, breakpoints, spans)


def _fit(text: str, span: Span, sentences: list[Span], max_size: int) -> list[Span]:
    """``span`` as chunks of at most ``max_size`` characters that tile it: whole sentences
    merged left to right, a sentence longer than ``max_size`` split by ``split_text``."""
    start, end = span
    if end - start <= max_size:
        return [span]
    cuts = sorted({start, end, *(s for s, _ in sentences if start < s < end)})
    pieces = []
    for a, b in zip(cuts, cuts[1:]):
        if b - a <= max_size:
            pieces.append((a, b))
        else:
            pieces.extend((a + s, a + e) for s, e in split_text(text[a:b], max_size))
    return merge_spans(pieces, max_size)


def semantic_chunks(text: str, embedder: Embedder | None = None, percentile: float = 5.0,
                    max_size: int | None = None) -> list[Span]:
    """The chunk spans of ``semantic_split`` (same arguments).

    ``semantic_chunks("Cats purr. Cats nap. Tax is due.", fake_embedder, 50)`` ->
    [(0, 21), (21, 32)]
    """
    return semantic_split(text, embedder, percentile, max_size).spans


def paragraph_breaks_kept(text: str, spans: Sequence[Span]) -> int:
    """How many of the blank lines between paragraphs have a chunk end in them (at the end of
    the paragraph before, at the start of the one after, or between).

    ``paragraph_breaks_kept("A.\\n\\nB. C.", [(0, 4), (4, 9)])`` -> 1
    """
    paragraphs = paragraph_spans(require_text(text))
    ends = {e for _, e in require_spans("spans", spans)[:-1]}
    return sum(any(before[1] <= e <= after[0] for e in ends)
               for before, after in zip(paragraphs, paragraphs[1:]))


def compare_with_recursive(text: str, size: int, percentile: float,
                           embedder: Embedder | None = None, abbreviations: Sequence[str] = ()
                           ) -> dict[str, dict]:
    """Recursive splitting (``split_text`` at ``size``) against semantic chunking, uncapped
    and capped at ``size``: for each, ``span_stats`` (chunk count, sentences cut as
    ``chunklib.units.cut_sentences`` counts them against the sentences semantic chunking
    used, boundary quality, min/median/max characters) and ``paragraph_breaks``
    (``paragraph_breaks_kept``; the text has ``paragraphs - 1``).

    ``compare_with_recursive("Cats purr. Dogs bark.", 12, 50, fake_embedder)["semantic"][
    "chunks"]`` -> 1
    """
    text, size = require_text(text), require_int("size", size, minimum=1)
    split = semantic_split(text, embedder, percentile, abbreviations=abbreviations)
    capped = [p for span in split.spans for p in _fit(text, span, split.sentences, size)]
    rows = {"recursive": split_text(text, size), "semantic": split.spans,
            "semantic_capped": capped}
    paragraphs = len(paragraph_spans(text))
    return {name: {**span_stats(text, spans, split.sentences), "paragraphs": paragraphs,
                   "paragraph_breaks": paragraph_breaks_kept(text, spans)}
            for name, spans in rows.items()}


def _shown(text: str, width: int) -> str:
    """``text`` on one line (a line break as ``⏎``), cut to ``width`` characters with ``…``."""
    flat = text.replace("\n", "⏎")
    return flat if len(flat) <= width else flat[:width - 1] + "…"


def similarity_report(text: str, split: SemanticSplit, first: int = 0,
                      last: int | None = None, width: int = 64, cuts: bool = True) -> str:
    """Sentences ``first`` to ``last`` (default: all) of ``split`` as numbered lines with their
    offsets, and the cosine of each pair of neighbours on the line between them, marked ``cut``
    at a breakpoint (unless ``cuts`` is False).

    ``similarity_report("Cats purr. Tax is due.", semantic_split("Cats purr. Tax is due.",
    fake_embedder, 50)).splitlines()[1]`` -> '  gap 0   cosine 0.187'
    """
    last = len(split.sentences) - 1 if last is None else last
    if not 0 <= first <= last < len(split.sentences):
        raise ValueError(f"first and last must be sentence numbers with first <= last, "
                         f"0 to {len(split.sentences) - 1}, got {first} and {last}")
    lines = []
    for i in range(first, last + 1):
        start, end = split.sentences[i]
        lines.append(f"{i:>2} ({start}, {end}) {_shown(text[start:end], width)}")
        if i < last:
            cut = "   cut" if cuts and i in split.breakpoints else ""
            lines.append(f"  gap {i:<3} cosine {split.similarities[i]:.3f}{cut}")
    return "\n".join(lines)


def comparison_report(text: str, size: int, percentile: float,
                      embedder: Embedder | None = None,
                      abbreviations: Sequence[str] = ()) -> str:
    """``compare_with_recursive`` as a table: one row per way of chunking, in characters.

    ``comparison_report("Cats purr. Dogs bark.", 12, 50, fake_embedder).splitlines()[2]``
    -> 'recursive, at most 12                2              0        10    10.5       11'
    """
    rows = compare_with_recursive(text, size, percentile, embedder, abbreviations)
    names = {"recursive": f"recursive, at most {size}",
             "semantic": f"semantic, {percentile:g}th percentile",
             "semantic_capped": f"semantic, then at most {size}"}
    lines = [f"{rows['recursive']['sentences']} sentences; chunk lengths in characters",
             f"{'':<30}  chunks  sentences cut  shortest  median  longest"]
    for key, r in rows.items():
        lines.append(f"{names[key]:<30}  {r['chunks']:>6}  {r['sentences_cut']:>13}  "
                     f"{r['min']:>8}  {r['median']:>6g}  {r['max']:>7}")
    return "\n".join(lines)


_TOPICS = ("cat", "dog", "tax")


def fake_embedder(texts: Sequence[str]) -> np.ndarray:
    """A stand-in for a model, for examples and tests: per text, how often it names each of
    "cat", "dog" and "tax" (lowercase substrings), plus 0.1 so no vector is all zeros.

    ``fake_embedder(["Cats purr."]).tolist()`` -> [[1.1, 0.1, 0.1]]
    """
    return np.array([[t.lower().count(w) + 0.1 for w in _TOPICS] for t in texts])

