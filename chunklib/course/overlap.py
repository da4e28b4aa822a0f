"""Lesson 3 (Overlap): the hands-on self-checks and the multiple-choice questions.

Expected values are computed with ``chunklib.windows`` when a check runs.

``figures()`` computes every number the lesson's Markdown states; ``tools/sync_prose.py``
renders the templates in ``notebooks/03-overlap/prose/`` with it.

Leaves out: prose; the notebook ``notebooks/03-overlap/overlap.ipynb`` and its templates hold it.

    >>> CHECKS["ex1_k"].expected()
    7
"""

from chunklib.course import POINTS
from chunklib.intervals import duplication_ratio
from chunklib.quiz import Question
from chunklib.selfcheck import Check
from chunklib.windows import (
    chunk_lengths,
    chunk_starts,
    duplication_factor,
    last_chunk_length,
    n_chunks,
    stored_positions,
    stride,
    window_spans,
)

#: The worked example of the seed page: (N, C, O).
WORKED = (1000, 200, 50)
#: The exact fit of Part 1 and of the explorer's second thing to try: (N, C, O).
EXACT_FIT = (1000, 250, 100)
#: The long document of the "1200 tokens per chunk" myth: (N, C, O).
MYTH = (100_000, 1000, 200)


def times_stored(n: int, size: int, overlap: int) -> list[int]:
    """How many chunks hold each unit, unit by unit.

    ``times_stored(5, 3, 1)`` -> [1, 1, 2, 1, 1]
    """
    counts = [0] * n
    for start, end in window_spans(n, size, overlap):
        for unit in range(start, end):
            counts[unit] += 1
    return counts


def figures() -> dict[str, object]:
    """Every number lesson 3's Markdown states, computed with chunklib.

    ``figures()["k"]`` -> 7
    """
    n, size, overlap = WORKED
    starts, lengths = chunk_starts(n, size, overlap), chunk_lengths(n, size, overlap)
    fig = {"n": n, "size": size, "overlap": overlap, "stride": stride(size, overlap),
           "n_minus_c": n - size, "k": n_chunks(n, size, overlap),
           "start_1": starts[0], "start_2": starts[1], "start_last": starts[-1],
           "full_chunks": lengths.count(size), "last": lengths[-1],
           "stored": stored_positions(n, size, overlap),
           "extra_percent": round((stored_positions(n, size, overlap) - n) / n * 100),
           "factor": duplication_factor(n, size, overlap),
           "ratio_r": duplication_ratio(window_spans(n, size, overlap), n),
           "guaranteed": overlap + 1, "no_overlap": 0,
           "empty_n": 0, "empty_factor": duplication_factor(0, size, overlap)}
    fit_n, fit_size, fit_overlap = EXACT_FIT
    fig.update({"fit_n": fit_n, "fit_size": fit_size, "fit_overlap": fit_overlap,
                "fit_last": last_chunk_length(fit_n, fit_size, fit_overlap),
                "fit_end": window_spans(fit_n, fit_size, fit_overlap)[-1][1],
                "examples_points": POINTS["examples"], "hidden_points": POINTS["hidden"]})
    top = size - 1  # the explorer keeps O below C
    counts = times_stored(n, size, top)
    full = [unit for unit, times in enumerate(counts) if times == size]
    fig.update({"top_overlap": top, "top_stride": stride(size, top),
                "top_k": n_chunks(n, size, top), "top_stored": stored_positions(n, size, top),
                "top_share": stored_positions(n, size, top) / (n * size),
                "n_times_c": n * size, "full_units": len(full),
                "full_first": full[0], "full_last": full[-1],
                "edge_before": full[0], "edge_after": n - 1 - full[-1]})
    myth_n, myth_size, myth_overlap = MYTH
    fig.update({"myth_n": myth_n, "myth_size": myth_size,
                "myth_percent": round(myth_overlap / myth_size * 100),
                "myth_stored": myth_size + myth_overlap,
                "myth_new": stride(myth_size, myth_overlap),
                "myth_k0": n_chunks(myth_n, myth_size, 0),
                "myth_k": n_chunks(myth_n, myth_size, myth_overlap),
                "myth_extra": round((duplication_factor(myth_n, myth_size, myth_overlap) - 1)
                                    * 100)})
    return fig

_STRIDE = "Each chunk starts where the previous one started, moved on by C − O."
_K = ("Use K = 1 + ceil(max(0, N − C) / S), then check it: the last chunk must reach N, and no "
      "chunk may lie wholly inside the one before it.")
_LAST = "The last chunk starts at (K − 1)·S and runs to the end of the document, N."
_STORED = "Add up every chunk's length: K − 1 full chunks of C, plus the last one."

CHECKS = {
    "predict_stride": Check(lambda: stride(200, 50), _STRIDE),
    "ex1_stride": Check(lambda: stride(200, 50), _STRIDE),
    "ex1_k": Check(lambda: n_chunks(1000, 200, 50), _K),
    "ex1_last": Check(lambda: last_chunk_length(1000, 200, 50), _LAST),
    "ex1_stored": Check(lambda: stored_positions(1000, 200, 50), _STORED),
    "ex2_stride": Check(lambda: stride(250, 100), _STRIDE),
    "ex2_k": Check(lambda: n_chunks(1000, 250, 100), _K),
    "ex2_last": Check(lambda: last_chunk_length(1000, 250, 100), _LAST),
    "ex2_stored": Check(lambda: stored_positions(1000, 250, 100), _STORED),
}

#: The seed page's quiz question: the stride for these C and O.
SEED_SIZE, SEED_OVERLAP = 200, 50

QUIZ = [
    Question(
        "A long document is cut into chunks of 1000 tokens with 200 tokens of overlap (20 %). "
        "About how much more than the document does the index store?",
        {
            "A": ("About 20 % more: the overlap's share of each chunk.",
                  "That is the share of each chunk that repeats, 200 of 1000, but storage is "
                  "measured against the document: each chunk brings only 800 new tokens."),
            "B": ("About 25 % more: the chunk size over the stride.",
                  "The stride is 800, so the document needs about N / 800 chunks of "
                  "1000, that is 1000 / 800 = 1.25 times the document."),
            "C": ("About 200 tokens more: one overlap per document.",
                  "Every boundary repeats 200 tokens, not just one: the cost grows with the "
                  "number of chunks."),
            "D": ("Nothing more: overlap only moves where chunks start.",
                  "Moving the starts closer together means more chunks for the same text, "
                  "and every repeated token is stored and embedded again."),
        },
        "B",
    ),
    Question(
        "With chunk size C = 200 and overlap O = 50, which spans are guaranteed to sit whole "
        "inside at least one chunk, wherever they fall?",
        {
            "A": ("Every sentence that crosses a chunk boundary.",
                  "Only short ones: a 120-token sentence at tokens 149 to 269 is cut by chunk "
                  "(0, 200), and chunk (150, 350) starts one token after it."),
            "B": ("Every span of at most 200 units, the chunk size.",
                  "A span of 200 units fits only if it starts exactly at a chunk start."),
            "C": ("Every span of at most 51 units, that is O + 1 units.",
                  "A span of O + 1 units starting anywhere fits in the last chunk that "
                  "starts at or before it; one more unit can fall off the end."),
            "D": ("Every span of at most 150 units, the stride.",
                  "A 150-unit span at 149 to 299 overshoots chunk (0, 200), and chunk "
                  "(150, 350) starts one unit too late."),
        },
        "C",
    ),
    Question(
        "A chunk holds the table row `production | 4 | SRE` but not the table's header row, so "
        "a search for 'replica count' misses it. What fixes this?",
        {
            "A": ("Search text that adds the heading path and table header.",
                  "Overlap repeats only the neighbouring units; context that sits elsewhere (a "
                  "header, a heading) has to be added on purpose, kept apart from the citable "
                  "text (lesson 4)."),
            "B": ("More overlap, so that the header is repeated into the next chunks.",
                  "Overlap repeats the last O units of the previous chunk, not the table's "
                  "header; rows far below the header never see it."),
            "C": ("Overlap of 20 %, the usual default, on every chunk.",
                  "No overlap setting, default or not, brings back context that sits "
                  "elsewhere; it costs storage on every chunk and helps only at boundaries."),
            "D": ("Smaller chunks, so that the row weighs more in its vector.",
                  "Smaller chunks separate the row from its header even more often, and the "
                  "row alone still does not say what its columns mean."),
        },
        "A",
    ),
    Question(
        "A loop `for start in range(0, n, size - overlap)` makes chunks "
        "`(start, min(start + size, n))`. What does it give for N = 1000, C = 250, O = 100?",
        {
            "A": ("6 chunks, the same as the formula gives.",
                  "The range keeps going after a chunk has reached the end."),
            "B": ("5 chunks, missing the end of the document.",
                  "The last start below 1000 is 900, so the end is reached, twice."),
            "C": ("No chunks at all: the loop never stops.",
                  "A range always stops; a while-loop that never advances is what loops."),
            "D": ("7 chunks, one of them a redundant tail.",
                  "The chunk starting at 750 already reaches 1000, so the 7th, (900, 1000), "
                  "lies wholly inside (750, 1000) and repeats it. Stop once a chunk reaches the "
                  "end."),
        },
        "D",
    ),
    Question(
        "An article says that with 1000-token chunks and 200 tokens of overlap, '1200 tokens "
        "are stored per chunk'. How many tokens does each full chunk store?",
        {
            "A": ("1200: 1000 new plus 200 repeated.",
                  "The overlap is part of the 1000, not added to it: the chunk size is the "
                  "maximum a chunk holds."),
            "B": ("1000: 800 new and 200 repeated ones.",
                  "C bounds the chunk, overlap included: 800 tokens are new and 200 repeat the "
                  "previous chunk. The stride C − O counts the new tokens."),
            "C": ("800: the repeated 200 are subtracted.",
                  "That is the stride, how far the next chunk moves, not what a chunk holds."),
        },
        "B",
    ),
    Question(
        f"With size {SEED_SIZE} and overlap {SEED_OVERLAP}, what is the stride?",
        {
            "A": (f"{SEED_SIZE + SEED_OVERLAP}",
                  f"That is the chunk size plus the overlap, {SEED_SIZE} + {SEED_OVERLAP}. "
                  f"Chunks {SEED_SIZE + SEED_OVERLAP} apart would leave "
                  f"{SEED_SIZE + SEED_OVERLAP - SEED_SIZE} units between two chunks that no "
                  "chunk holds: the overlap must be taken away, not added."),
            "B": (f"{SEED_OVERLAP}",
                  f"That is the overlap itself, the part each chunk shares with the one before. "
                  f"Chunks {SEED_OVERLAP} apart would hold most units "
                  f"{SEED_SIZE // SEED_OVERLAP} times."),
            "C": (f"{stride(SEED_SIZE, SEED_OVERLAP)}",
                  f"The stride is the chunk size minus the overlap, {SEED_SIZE} − "
                  f"{SEED_OVERLAP}: each chunk starts {stride(SEED_SIZE, SEED_OVERLAP)} units "
                  f"after the previous one, and its first {SEED_OVERLAP} units repeat the last "
                  f"{SEED_OVERLAP} of that one."),
        },
        "C",
    ),
]
