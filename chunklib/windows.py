"""Window arithmetic for fixed-size chunks with overlap (lesson 3, used from lesson 1 on).

A document of ``n`` units (characters, words or tokens) is cut into chunks of at most ``size``
units; each chunk repeats the last ``overlap`` units of the one before, so starts move by the
stride ``size - overlap``. Chunks stop as soon as one reaches the end: there is never a
redundant trailing chunk that lies wholly inside the one before it. All intervals are
half-open ``(start, end)`` and counting is O(1) by the formula
``K = 1 + ceil(max(0, n - size) / stride)``; listing is O(K).

Leaves out: where the units come from (see ``chunklib.units``) and boundary-aware splitting
(see ``chunklib.splitter``). Nothing here looks at text content.

    >>> window_spans(1000, 200, 50)[-1]
    (900, 1000)
"""

from __future__ import annotations

from collections.abc import Sequence

from chunklib.validate import require_int, require_window


def stride(size: int, overlap: int) -> int:
    """How far each chunk's start moves: ``size - overlap``.

    ``stride(200, 50)`` -> 150
    """
    size, overlap = require_window(size, overlap)
    return size - overlap


def n_chunks(n: int, size: int, overlap: int) -> int:
    """The number of chunks, ``1 + ceil(max(0, n - size) / stride)``, and 0 for ``n == 0``.

    ``n_chunks(1000, 200, 50)`` -> 7
    """
    n = require_int("n", n, minimum=0)
    step = stride(size, overlap)
    if n == 0:
        return 0
    return 1 + -(-max(0, n - size) // step)


def chunk_starts(n: int, size: int, overlap: int) -> list[int]:
    """The start of every chunk: 0, stride, 2·stride, … until a chunk reaches ``n``.

    ``chunk_starts(1000, 200, 50)`` -> [0, 150, 300, 450, 600, 750, 900]
    """
    step = stride(size, overlap)
    return [i * step for i in range(n_chunks(n, size, overlap))]


def window_spans(n: int, size: int, overlap: int) -> list[tuple[int, int]]:
    """Every chunk as a half-open ``(start, end)`` interval of unit positions.

    ``window_spans(10, 4, 1)`` -> [(0, 4), (3, 7), (6, 10)]
    """
    return [(s, min(s + size, n)) for s in chunk_starts(n, size, overlap)]


def chunk_lengths(n: int, size: int, overlap: int) -> list[int]:
    """The length of every chunk; all are ``size`` except perhaps the last.

    ``chunk_lengths(1000, 200, 50)`` -> [200, 200, 200, 200, 200, 200, 100]
    """
    return [end - start for start, end in window_spans(n, size, overlap)]


def last_chunk_length(n: int, size: int, overlap: int) -> int:
    """The length of the last chunk in O(1), 0 for ``n == 0``.

    ``last_chunk_length(1000, 250, 100)`` -> 250
    """
    k = n_chunks(n, size, overlap)
    return 0 if k == 0 else n - (k - 1) * stride(size, overlap)


def stored_positions(n: int, size: int, overlap: int) -> int:
    """Unit positions kept over all chunks, duplicates counted: ``(K - 1)·size + last``.

    ``stored_positions(1000, 200, 50)`` -> 1300
    """
    k = n_chunks(n, size, overlap)
    return 0 if k == 0 else (k - 1) * size + last_chunk_length(n, size, overlap)


def duplication_factor(n: int, size: int, overlap: int) -> float:
    """Stored positions divided by ``n``; 1.0 for an empty document (nothing duplicated).

    ``duplication_factor(1000, 200, 50)`` -> 1.3
    """
    stored = stored_positions(n, size, overlap)
    return 1.0 if n == 0 else stored / n


def chunk_with_overlap(units: Sequence, size: int, overlap: int) -> list[list]:
    """The chunks themselves, each a list of units.

    ``chunk_with_overlap(list("abcdefg"), 3, 1)``
    -> [['a', 'b', 'c'], ['c', 'd', 'e'], ['e', 'f', 'g']]
    """
    if isinstance(units, (str, bytes)) or not isinstance(units, Sequence):
        raise TypeError(f"units must be a list or tuple of units, got {type(units).__name__}")
    return [list(units[s:e]) for s, e in window_spans(len(units), size, overlap)]


def unit_windows(
    unit_spans: Sequence[tuple[int, int]], size: int, overlap: int
) -> list[tuple[int, int]]:
    """Windows counted in units, returned as character spans of the source text.

    ``unit_spans`` are the ``(start, end)`` character offsets of each unit (a word, a token);
    each window runs from its first unit's start to its last unit's end, so slicing the source
    with it gives exactly the text the units came from.
    ``unit_windows([(0, 3), (4, 7), (8, 11)], 2, 1)`` -> [(0, 7), (4, 11)]
    """
    return [(unit_spans[s][0], unit_spans[e - 1][1])
            for s, e in window_spans(len(unit_spans), size, overlap)]


def text_windows(text: str, size: int, overlap: int) -> list[tuple[int, int]]:
    """Character windows over ``text``: the unit is one Python character (code point).

    ``text_windows("abcdefg", 3, 1)`` -> [(0, 3), (2, 5), (4, 7)]
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, got {type(text).__name__}")
    return window_spans(len(text), size, overlap)


def shifted_window_spans(n: int, size: int, overlap: int, offset: int) -> list[tuple[int, int]]:
    """``window_spans`` with the grid of starts moved right by ``offset`` (0 <= offset <
    stride): the windows start at offset, offset + stride, ..., and the window that would start
    at ``offset - stride`` is kept from 0, so the text is still covered whole and the first two
    windows still share ``overlap`` units (lesson 6 averages results over such offsets).

    ``shifted_window_spans(10, 4, 1, 1)`` -> [(0, 2), (1, 5), (4, 8), (7, 10)]
    """
    step = stride(size, overlap)
    n = require_int("n", n, minimum=0)
    offset = require_int("offset", offset, minimum=0)
    if offset >= step:
        raise ValueError(f"offset must be smaller than the stride {step}, got {offset}")
    if offset == 0 or n == 0:
        return window_spans(n, size, overlap)
    head = [(0, min(n, offset + overlap))]
    if n <= offset + overlap:
        return head
    return head + [(offset + s, offset + e) for s, e in window_spans(n - offset, size, overlap)]
