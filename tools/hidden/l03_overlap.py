"""Lesson 3 (Overlap): reference versions of the Part 2 functions for hidden tests.

Leaves out: chunk_with_overlap (no other exercise builds on it).
"""


def _r_stride(size, overlap):
    if not 0 <= overlap < size:
        raise ValueError("overlap")
    return size - overlap


def _r_starts(n, size, overlap):
    s = _r_stride(size, overlap)
    return [i * s for i in range(1 + -(-max(0, n - size) // s))] if n else []


def _r_n_chunks(n, size, overlap):
    return len(_r_starts(n, size, overlap))


def _r_lengths(n, size, overlap):
    return [min(b + size, n) - b for b in _r_starts(n, size, overlap)]


def _r_stored(n, size, overlap):
    return sum(_r_lengths(n, size, overlap))


def _r_dup(n, size, overlap):
    return _r_stored(n, size, overlap) / n if n else 1.0


_REFS = {"stride": _r_stride, "chunk_starts": _r_starts, "n_chunks": _r_n_chunks,
         "chunk_lengths": _r_lengths, "stored_positions": _r_stored,
         "duplication_factor": _r_dup}
