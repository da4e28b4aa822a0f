"""Lesson 3 (Overlap): the hands-on self-checks and the multiple-choice questions.

Expected values are computed with ``chunklib.windows`` when a check runs.

``figures()`` computes every number the lesson's Markdown states; ``tools/sync_prose.py``
renders the templates in ``notebooks/03-overlap/prose/`` with it.

Leaves out: prose; the notebook ``notebooks/03-overlap/overlap.ipynb`` and its templates hold it.

    >>> CHECKS["ex1_k"].expected()
    7
"""

from chunklib.course import POINTS
from chunklib.course.quiz import Question
from chunklib.course.selfcheck import Check
from chunklib.intervals import duplication_ratio
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
#: The exact fit of Part 1: (N, C, O).
EXACT_FIT = (1000, 250, 100)
#: The explorer's exact fit (its third thing to try), not Part 1's, so that the explorer does
#: not show Part 1's answers before the learner works them out: (N, C, O).
TRY_FIT = (1000, 400, 100)
#: The Predict-first question: the worked example with its overlap doubled. How many chunks?
PREDICT_OVERLAP = 2 * WORKED[2]
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
           "empty_n": 0, "empty_factor": duplication_factor(0, size, overlap),
           "predict_overlap": PREDICT_OVERLAP, "predict_stride": stride(size, PREDICT_OVERLAP)}
    fit_n, fit_size, fit_overlap = EXACT_FIT
    try_n, try_size, try_overlap = TRY_FIT
    fig.update({"fit_n": fit_n, "fit_size": fit_size, "fit_overlap": fit_overlap,
                "try_size": try_size, "try_overlap": try_overlap,
                "try_last": last_chunk_length(try_n, try_size, try_overlap),
                "try_end": window_spans(try_n, try_size, try_overlap)[-1][1],
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
    fig.update(_quiz_figures())
    return fig


def _quiz_figures() -> dict[str, object]:
    """The numbers only the quiz states (the prose states the others)."""
    from chunklib.course.structure import production_row

    n, size, overlap = WORKED
    first, second = window_spans(n, size, overlap)[:2]
    fit_n, fit_size, fit_overlap = EXACT_FIT
    loop = [(start, min(start + fit_size, fit_n))
            for start in range(0, fit_n, stride(fit_size, fit_overlap))]
    myth_n, myth_size, myth_overlap = MYTH
    return {
        "myth_overlap": myth_overlap,
        "myth_factor": myth_size / stride(myth_size, myth_overlap),
        "q2_first": first, "q2_second": second,
        "q2_start": second[0] - 1, "q2_end": second[0] - 1 + QUIZ_SENTENCE,
        "q2_sentence": QUIZ_SENTENCE,
        "q2_stride_end": second[0] - 1 + stride(size, overlap),
        "row": production_row().text,
        "fit_k": n_chunks(fit_n, fit_size, fit_overlap),
        "fit_k_short": n_chunks(fit_n, fit_size, fit_overlap) - 1,
        "loop_k": len(loop), "loop_last": loop[-1], "loop_last_start": loop[-1][0],
        "loop_reaching": loop[-2], "loop_reaching_start": loop[-2][0],
        "seed_size": SEED_SIZE, "seed_overlap": SEED_OVERLAP,
        "seed_sum": SEED_SIZE + SEED_OVERLAP, "seed_gap": SEED_SIZE + SEED_OVERLAP - SEED_SIZE,
        "seed_times": SEED_SIZE // SEED_OVERLAP, "seed_stride": stride(SEED_SIZE, SEED_OVERLAP),
    }


def predict_k() -> int:
    """The Predict-first answer: the chunks of the worked example with ``PREDICT_OVERLAP``.

    ``predict_k()`` -> 9
    """
    n, size, _overlap = WORKED
    return n_chunks(n, size, PREDICT_OVERLAP)


_PREDICT_K = ("The overlap changes K only through the stride S = C − O, so doubling O does not "
              "double K. Work out the new stride, then K = 1 + ⌈(N − C) / S⌉ as the idea above "
              "does for the worked example: count the first chunk, then one more per stride "
              f"until a chunk reaches N. Or set O = {PREDICT_OVERLAP} in the explorer and read K "
              "in the table beside the plot.")
_STRIDE = "Each chunk starts where the previous one started, moved on by C − O."
_K = ("Use K = 1 + ceil(max(0, N − C) / S), then check it: the last chunk must reach N, and no "
      "chunk may lie wholly inside the one before it.")
_LAST = "The last chunk starts at (K − 1)·S and runs to the end of the document, N."
_STORED = "Add up every chunk's length: K − 1 full chunks of C, plus the last one."

CHECKS = {
    "predict_k": Check(predict_k, _PREDICT_K),
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
#: Quiz question 2: a sentence of this many units that starts one unit before a chunk start.
QUIZ_SENTENCE = 120

QUIZ = [
    Question(
        "A long document is cut into chunks of {myth_size} tokens with {myth_overlap} tokens of "
        "overlap ({myth_percent} %). About how much more than the document does the index store?",
        {
            "A": ("About {myth_percent} % more: the overlap's share of each chunk.",
                  "That is the share of each chunk that repeats, {myth_overlap} of {myth_size}, "
                  "but storage is measured against the document: each chunk brings only "
                  "{myth_new} new tokens."),
            "B": ("About {myth_extra} % more: chunk size over stride, minus one.",
                  "The stride is {myth_new}, so the document needs about N / {myth_new} chunks of "
                  "{myth_size}, that is {myth_size} / {myth_new} = {myth_factor} times the "
                  "document: {myth_extra} % more than the document itself."),
            "C": ("About {myth_overlap} tokens more: one overlap per document.",
                  "Every boundary repeats {myth_overlap} tokens, not just one: the cost grows "
                  "with the number of chunks."),
            "D": ("Nothing more: overlap only moves where chunks start.",
                  "Moving the starts closer together means more chunks for the same text, "
                  "and every repeated token is stored and embedded again."),
        },
        "B",
    ),
    Question(
        "With chunk size C = {size} and overlap O = {overlap}, which spans are guaranteed to sit "
        "whole inside at least one chunk, wherever they fall?",
        {
            "A": ("Every sentence that crosses a chunk boundary.",
                  "Only short ones: a {q2_sentence}-token sentence at tokens {q2_start} to "
                  "{q2_end} is cut by chunk {q2_first}, and chunk {q2_second} starts one token "
                  "after it."),
            "B": ("Every span of at most {size} units, the chunk size.",
                  "A span of {size} units fits only if it starts exactly at a chunk start."),
            "C": ("Every span of at most {guaranteed} units, that is O + 1 units.",
                  "A span of O + 1 units starting anywhere fits in the last chunk that "
                  "starts at or before it; one more unit can fall off the end."),
            "D": ("Every span of at most {stride} units, the stride.",
                  "A {stride}-unit span at {q2_start} to {q2_stride_end} overshoots chunk "
                  "{q2_first}, and chunk {q2_second} starts one unit too late."),
        },
        "C",
    ),
    Question(
        "A chunk holds the table row `{row}` but not the table's header row, so a search for "
        "'replica count' misses it. What fixes this?",
        {
            "A": ("Search text that adds the heading path and table header.",
                  "Overlap repeats only the neighbouring units; context that sits elsewhere (a "
                  "header, a heading) has to be added on purpose, kept apart from the citable "
                  "text (lesson 4)."),
            "B": ("More overlap, so that the header is repeated into the next chunks.",
                  "Overlap repeats the last O units of the previous chunk, not the table's "
                  "header; rows far below the header never see it."),
            "C": ("A {myth_percent} % overlap on every chunk, a value often quoted as a default.",
                  "No overlap setting, default or not, brings back context that sits "
                  "elsewhere; it costs storage on every chunk and is meant only for text cut at a "
                  "boundary."),
            "D": ("Smaller chunks, so that the row weighs more in its vector.",
                  "Smaller chunks separate the row from its header even more often, and the "
                  "row alone still does not say what its columns mean."),
        },
        "A",
    ),
    Question(
        "A loop `for start in range({start_1}, n, size - overlap)` makes chunks `(start, min(start "
        "+ size, n))`. What does it give for N = {fit_n}, C = {fit_size}, O = {fit_overlap}?",
        {
            "A": ("{fit_k} chunks, the same as the formula gives.",
                  "The range keeps going after a chunk has reached the end."),
            "B": ("{fit_k_short} chunks, missing the end of the document.",
                  "The last start below {fit_n} is {loop_last_start}, so the end is reached, "
                  "twice."),
            "C": ("No chunks at all: the loop never stops.",
                  "A range always stops; a while-loop that never advances is what loops."),
            "D": ("{loop_k} chunks, one of them a redundant tail.",
                  "The chunk starting at {loop_reaching_start} already reaches {fit_n}, so the "
                  "{loop_k}th, {loop_last}, lies wholly inside {loop_reaching} and repeats it. "
                  "Stop once a chunk reaches the end."),
        },
        "D",
    ),
    Question(
        "An article says that with {myth_size}-token chunks and {myth_overlap} tokens of overlap, "
        "'{myth_stored} tokens are stored per chunk'. How many tokens does each full chunk "
        "after the first store?",
        {
            "A": ("{myth_stored}: {myth_size} new plus {myth_overlap} repeated.",
                  "The overlap is part of the {myth_size}, not added to it: the chunk size is the "
                  "maximum a chunk holds."),
            "B": ("{myth_size}: {myth_new} new and {myth_overlap} repeated ones.",
                  "C bounds the chunk, overlap included: {myth_new} tokens are new and "
                  "{myth_overlap} repeat the previous chunk (the first chunk holds {myth_size} "
                  "new ones). The stride C − O counts the new tokens."),
            "C": ("{myth_new}: the repeated {myth_overlap} are subtracted.",
                  "That is the stride, how far the next chunk moves, not what a chunk holds."),
        },
        "B",
    ),
    Question(
        "With size {seed_size} and overlap {seed_overlap}, what is the stride?",
        {
            "A": ("{seed_sum}",
                  "That is the chunk size plus the overlap, {seed_size} + {seed_overlap}. Chunks "
                  "{seed_sum} apart would leave {seed_gap} units between two chunks that no chunk "
                  "holds: the overlap must be taken away, not added."),
            "B": ("{seed_overlap}",
                  "That is the overlap itself, the part each chunk shares with the one before. "
                  "Chunks {seed_overlap} apart would hold most units {seed_times} times."),
            "C": ("{seed_stride}",
                  "The stride is the chunk size minus the overlap, {seed_size} − {seed_overlap}: "
                  "each chunk starts {seed_stride} units after the previous one, and its first "
                  "{seed_overlap} units repeat the last {seed_overlap} of that one."),
        },
        "C",
    ),
]
