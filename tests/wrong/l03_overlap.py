"""Realistic mistakes in lesson 3 (Overlap), each confined to one function or answer."""

WRONG = {
    "range_bug": ({"chunk_starts": '''
def chunk_starts(n, size, overlap):
    # every start below n, even after a chunk has reached the end
    return list(range(0, n, stride(size, overlap)))
'''}, {"test_chunk_starts_examples", "test_chunk_starts_hidden"}),
    "no_validation": ({"stride": '''
def stride(size, overlap):
    return size - overlap
'''}, {"test_stride_hidden"}),
    "ceil_n_over_stride": ({"n_chunks": '''
import math
def n_chunks(n, size, overlap):
    return math.ceil(n / stride(size, overlap))
'''}, {"test_n_chunks_examples", "test_n_chunks_hidden"}),
    "last_chunk_full": ({"chunk_lengths": '''
def chunk_lengths(n, size, overlap):
    return [size for _ in chunk_starts(n, size, overlap)]
'''}, {"test_chunk_lengths_examples", "test_chunk_lengths_hidden"}),
    "stored_all_full": ({"stored_positions": '''
def stored_positions(n, size, overlap):
    return n_chunks(n, size, overlap) * size
'''}, {"test_stored_positions_examples", "test_stored_positions_hidden"}),
    "factor_from_ratio": ({"duplication_factor": '''
def duplication_factor(n, size, overlap):
    return 1 + overlap / size
'''}, {"test_duplication_factor_examples", "test_duplication_factor_hidden"}),
    "empty_divides_by_zero": ({"duplication_factor": '''
def duplication_factor(n, size, overlap):
    return stored_positions(n, size, overlap) / n
'''}, {"test_duplication_factor_examples", "test_duplication_factor_hidden"}),
    "overlap_ignored": ({"chunk_with_overlap": '''
def chunk_with_overlap(units, size, overlap):
    return [list(units[i:i + size]) for i in range(0, len(units), size)]
'''}, {"test_chunk_with_overlap_examples", "test_chunk_with_overlap_hidden"}),
    "tuples_not_lists": ({"chunk_starts": '''
def chunk_starts(n, size, overlap):
    k = n_chunks(n, size, overlap)
    return tuple(i * stride(size, overlap) for i in range(k))
'''}, {"test_chunk_starts_examples", "test_chunk_starts_hidden"}),
    "sign_slip_loops_forever": ({"n_chunks": '''
def n_chunks(n, size, overlap):
    if n == 0:
        return 0
    k, end = 1, size
    while end < n:
        end += overlap - size  # sign slip: the stride is size - overlap
        k += 1
    return k
'''}, {"test_n_chunks_examples", "test_n_chunks_hidden"}),
    "always_equal_object": ({"stored_positions": '''
class _Anything(int):
    def __eq__(self, other):
        return True
    __hash__ = int.__hash__
def stored_positions(n, size, overlap):
    return _Anything(0)
'''}, {"test_stored_positions_examples", "test_stored_positions_hidden"}),
    "hand_answers_off": ({"ex2_k": "ex2_k = 7", "q3": 'q3 = "B"'}, {"test_ex2_k", "test_q3"}),
}

# Correct work that writes to stderr: must keep every point.
NOISY_BUT_RIGHT = {"stride": '''
import sys, warnings
def stride(size, overlap):
    warnings.warn("stride() was called")
    print("debug: computing a stride", file=sys.stderr)
    if not 0 <= overlap < size:
        raise ValueError("overlap must satisfy 0 <= overlap < size")
    return size - overlap
stride(200, 50)
'''}

# Correct work written another way than the reference (another algorithm, a result built
# in another order or container and then converted, the standard library instead of a
# given helper): each must keep every point (tests/test_grading_agreement.py).
VARIANTS = {
    "range_to_n_minus_size_plus_stride": {"chunk_starts": '''
def chunk_starts(n, size, overlap):
    if overlap < 0 or overlap >= size:
        raise ValueError("overlap")
    step = size - overlap
    if n <= 0:
        return []
    return list(range(0, max(n - size, 0) + step, step))
'''},
    "floor_division_formula": {"n_chunks": '''
def n_chunks(n, size, overlap):
    s = stride(size, overlap)
    return 1 + -(-max(0, n - size) // s) if n > 0 else 0
'''},
    "full_chunks_then_the_last": {"chunk_lengths": '''
def chunk_lengths(n, size, overlap):
    starts = chunk_starts(n, size, overlap)
    if not starts:
        return []
    return [size] * (len(starts) - 1) + [n - starts[-1]]
'''},
    "closed_form": {"stored_positions": '''
def stored_positions(n, size, overlap):
    k = n_chunks(n, size, overlap)
    if k == 0:
        return 0
    return (k - 1) * size + (n - (k - 1) * stride(size, overlap))
'''},
    "float_of_summed_lengths": {"duplication_factor": '''
def duplication_factor(n, size, overlap):
    lengths = chunk_lengths(n, size, overlap)
    return float(sum(lengths)) / n if n else 1.0
'''},
    "while_loop_over_units": {"chunk_with_overlap": '''
def chunk_with_overlap(units, size, overlap):
    if overlap < 0 or overlap >= size:
        raise ValueError("overlap")
    chunks, start = [], 0
    while start < len(units):
        chunks.append(units[start:start + size])
        if start + size >= len(units):
            break
        start += size - overlap
    return chunks
'''},
}
