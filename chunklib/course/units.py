"""Lesson 1 (Units and windows): the hands-on self-checks and the multiple-choice questions.

Expected values are computed with ``chunklib`` when a check runs: the lengths N come from the
course passage itself (``chunklib.course.passages.sample_passage``), counted by
``chunklib.units`` and ``chunklib.tokens``, and K and the last chunk from
``chunklib.units.fixed_windows``.

``figures()`` computes every number the lesson's Markdown states; ``tools/sync_prose.py``
renders the templates in ``notebooks/01-units/prose/`` with it.

Leaves out: prose; the notebook ``notebooks/01-units/units.ipynb`` and its templates hold it.
The numbers in the quiz explanations are pinned by ``tests/test_lesson01_figures.py``.

    >>> CHECKS["ex1_k"].expected()
    7
"""

import unicodedata
from statistics import median

from chunklib.budgets import UNIT_KINDS, minilm_reads, prefix_end, spans_of, units_within
from chunklib.course import POINTS
from chunklib.course.passages import sample_passage
from chunklib.course.quiz import Question
from chunklib.course.selfcheck import Check
from chunklib.course.words import ORDINALS as _ORDINALS
from chunklib.course.words import WORDS as _WORDS
from chunklib.sentences import sentences_cut_at, split_sentences
from chunklib.tokens import (
    MINILM_MAX_SEQ_LENGTH,
    MINILM_SPECIAL_TOKENS,
    minilm_trained_length,
    token_spans,
    truncated_at,
    wordpiece_count,
)
from chunklib.truncation import truncation
from chunklib.units import cut_sentences, fixed_windows, unit_spans
from chunklib.windows import unit_windows

#: The Part 1 examples: (N, C) and the unit N counts. N is measured on the passage where named.
PART1 = {
    "ex1": ("words", 200),          # the passage's word-like units, C = 200
    "ex2": (1000, 250),             # an exact fit
    "ex3": ("characters", 1500),    # the passage's characters, C = 1500
    "ex4": ("cl100k_tokens", 2000),  # the passage's cl100k tokens, a window larger than N
}


def part1_n(example: str) -> int:
    """N of a Part 1 example: a number, or the passage's length in the named unit.

    ``part1_n("ex1")`` -> 1204
    """
    n, _size = PART1[example]
    if isinstance(n, int):
        return n
    passage = sample_passage()
    return {"words": lambda: len(unit_spans(passage)), "characters": lambda: len(passage),
            "cl100k_tokens": lambda: len(token_spans(passage))}[n]()


def part1_k(example: str) -> int:
    """The number of fixed windows K of a Part 1 example.

    ``part1_k("ex2")`` -> 4
    """
    return len(fixed_windows(part1_n(example), PART1[example][1]))


def part1_last(example: str) -> int:
    """The length of the last window of a Part 1 example.

    ``part1_last("ex2")`` -> 250
    """
    start, end = fixed_windows(part1_n(example), PART1[example][1])[-1]
    return end - start


#: The budget of the Predict-first question and of the budget table, in each unit.
BUDGET = 1000
#: The explorer settings the lesson names: (unit kind, chunk size C). None of them is a Part 1
#: example, so the explorer never shows a Part 1 answer before the learner works it out; "words"
#: is where the explorer starts.
TRIES = {"words": ("words", 160), "small_words": ("words", 30),
         "chars_over": ("characters", 1400), "chars_fit": ("characters", 1000),
         "tokens_over": ("cl100k_tokens", 260), "tokens_fit": ("cl100k_tokens", 250)}
#: The chunk number the explorer's notation is shown with (any chunk would do).
MARKER_EXAMPLE = 3
#: The short texts the lesson counts unit by unit.
UNICODE_DEMO = "cafe\u0301 👩\u200d💻 日本語の文章です。"
#: The sentence the lesson counts in every unit kind, and the two emoji its prose counts.
OFFSETS_DEMO = "The runbook's 🚨 alert: don't panic."
SIREN, TECHNOLOGIST = "🚨", "👩\u200d💻"
#: Quiz question 3: café typed as an e and a combining accent.
QUIZ_CAFE = "cafe\u0301"
#: Quiz question 4: four woman-technologist emoji, and the chunker's limit in characters.
QUIZ_EMOJI = "\U0001f469\u200d\U0001f4bb" * 4
QUIZ_EMOJI_LIMIT = 10
#: Quiz question 5: (N, C) of the fixed windows whose last chunk the learner finds.
QUIZ_LAST = (1000, 300)
#: all-MiniLM-L6-v2's position embeddings, and the ``model_max_length`` of its
#: ``tokenizer_config.json``: where transformers' tokenizer cuts with ``truncation=True``
#: (the package's ``model.zip`` holds both files; chunklib ships only ``tokenizer.json``).
MINILM_POSITIONS = 512


def share(count: int, total: int) -> str:
    """``count`` of ``total`` things in words ("all 6" when the count is the total).

    ``share(4, 5)`` -> '4 of the 5'
    """
    return f"all {total}" if count == total else f"{count} of the {total}"


def _windows(kind: str, size: int) -> list[tuple[int, int]]:
    return unit_windows(spans_of(sample_passage(), kind), size, 0)


def _reads(kind: str, size: int) -> list[tuple[int, int]]:
    return minilm_reads(sample_passage(), _windows(kind, size))


def _overflowing(kind: str, size: int) -> int:
    return sum(pieces > MINILM_MAX_SEQ_LENGTH - MINILM_SPECIAL_TOKENS
               for pieces, _ in _reads(kind, size))


def _cut(kind: str, size: int) -> int:
    return cut_sentences(split_sentences(sample_passage()), _windows(kind, size))


def _cut_ends(kind: str, size: int) -> int:
    """The chunk ends inside a sentence: the explorer's × marks (more than the cut sentences
    when a sentence longer than a chunk is cut more than once)."""
    ends = [end for _start, end in _windows(kind, size)[:-1]]
    return sum(cut is not None for cut in sentences_cut_at(split_sentences(sample_passage()), ends))


def figures() -> dict[str, object]:
    """Every number lesson 1's Markdown states, computed with chunklib.

    ``figures()["passage_chars"]`` -> 5757
    """
    passage = sample_passage()
    tokens = token_spans(passage)
    reach = prefix_end(tokens, BUDGET)  # the Predict-first question's options need a longer text
    if round(reach, -2) in (BUDGET, 2 * BUDGET) or QUIZ_EMOJI_LIMIT % len(TECHNOLOGIST) == 0:
        raise ValueError("the passage or the quiz's limit no longer fits the questions' options")
    sentences = split_sentences(passage)
    read = MINILM_MAX_SEQ_LENGTH - MINILM_SPECIAL_TOKENS
    words_size, chars_over = TRIES["words"][1], TRIES["chars_over"]
    char_reads = [read_end - start for (start, end), (_, read_end)
                  in zip(_windows(*chars_over), _reads(*chars_over), strict=True)
                  if read_end < end]  # the chunks the model cuts short
    fig = {
        "marker_chunk": MARKER_EXAMPLE,
        "passage_chars": len(passage),
        "budget": BUDGET,
        "option_b": 2 * BUDGET,
        "reach_rounded": round(reach, -2),
        "reach": reach,
        "tokens_in_budget_chars": units_within(tokens, BUDGET),
        "chars_per_token": len(passage) / len(tokens),
        "cut_words": _cut("words", words_size),
        "sentences": len(sentences),
        "chars_size": PART1["ex3"][1],  # quiz question 2, after Part 1
        "chars_read_about": int(round(median(char_reads), -2)),
        "max_seq_length": MINILM_MAX_SEQ_LENGTH,
        "trained_length": minilm_trained_length(),
        "pieces_read": read,
        "special_words": _WORDS[MINILM_SPECIAL_TOKENS],
        "stops_at": truncated_at(passage),
        **_truncation_figures(passage),
    }
    for name, (kind, size) in TRIES.items():
        pieces = [p for p, _ in _reads(kind, size)]
        fig.update({f"{name}_size": size, f"{name}_k": len(pieces),
                    f"{name}_largest": max(pieces),
                    f"{name}_overflowing": _overflowing(kind, size),
                    f"{name}_over_trained": share(
                        sum(p > fig["trained_length"] - MINILM_SPECIAL_TOKENS for p in pieces),
                        len(pieces))})
    fig["small_words_cut"] = _cut(*TRIES["small_words"])
    fig["small_words_marks"] = _cut_ends(*TRIES["small_words"])
    fig["minilm_positions"] = MINILM_POSITIONS
    last_start, last_end = _windows(*chars_over)[-1]
    fig.update({"chars_over_share": share(fig["chars_over_overflowing"], fig["chars_over_k"]),
                "chars_over_last": last_end - last_start})
    for unstated in ("words_k", "words_largest", "words_overflowing", "words_over_trained",
                     "chars_over_largest", "chars_over_over_trained", "chars_over_overflowing",
                     "chars_over_k",
                     "small_words_largest", "small_words_overflowing", "small_words_over_trained",
                     "tokens_over_largest", "tokens_over_over_trained", "chars_fit_k",
                     "tokens_fit_k"):
        del fig[unstated]
    for ex, (_n, size) in PART1.items():
        fig.update({f"{ex}_n": part1_n(ex), f"{ex}_size": size})
    fig.update({f"{part}_points": points for part, points in POINTS.items()})
    demo = UNICODE_DEMO.split(" ")
    fig.update({f"unicode_units_{i}": _WORDS[len(unit_spans(t))] for i, t in enumerate(demo)})
    fig.update(_quiz_figures(fig))
    fig.update(_unicode_figures())
    return fig


def _unicode_figures() -> dict[str, object]:
    """The counts of the idea and of "Units keep their offsets": unit kinds, the code points of
    👩‍💻, the cl100k tokens and UTF-8 bytes of 🚨, alone and in the demo sentence."""
    at = OFFSETS_DEMO.index(SIREN)
    sharing = [s for s, e in token_spans(OFFSETS_DEMO) if s <= at < e]
    return {"unit_kinds_word": _WORDS[len(UNIT_KINDS)],
            "technologist_len_word": _WORDS[len(TECHNOLOGIST)],
            "siren_tokens_word": _WORDS[len(token_spans(SIREN))],
            "siren_demo_tokens_word": _WORDS[len(sharing)],
            "siren_bytes_word": _WORDS[len(SIREN.encode("utf-8"))]}


def _truncation_figures(passage: str) -> dict[str, object]:
    """The figures of the "See it with the real model" step: ``truncation(passage)``, whose
    vectors come from the shipped store (as in the lesson's cell)."""
    t = truncation(passage)
    return {"passage_pieces": t.pieces, "ignored_chars": t.ignored,
            "cosine_prefix": t.cosine_prefix, "one_less_cut": t.one_less_cut,
            "cosine_one_less": t.cosine_one_less, "trained_cut": t.trained_cut,
            "trained_pieces": wordpiece_count(passage[:t.trained_cut]),
            "cosine_trained": t.cosine_trained}


def _quiz_figures(fig: dict[str, object]) -> dict[str, object]:
    """The numbers only the quiz states (the prose states the others)."""
    start, end = _windows("characters", fig["chars_size"])[0]
    emoji_bytes = len(QUIZ_EMOJI.encode("utf-8"))
    first, second = fixed_windows(len(QUIZ_EMOJI), QUIZ_EMOJI_LIMIT)
    n, size = QUIZ_LAST
    windows = fixed_windows(n, size)
    # the word pieces of the full chunks of MINILM_MAX_SEQ_LENGTH cl100k tokens (question 6)
    q6_full = [p for p, _ in _reads("cl100k_tokens", MINILM_MAX_SEQ_LENGTH)[:-1]]
    return {
        "chunk_start": start, "chars_lost": end - fig["stops_at"],
        "q2_pieces": wordpiece_count(sample_passage()[start:end]),
        "cafe_len": len(QUIZ_CAFE), "cafe_e": QUIZ_CAFE.index("e"),
        "cafe_nfc_len": len(unicodedata.normalize("NFC", QUIZ_CAFE)),
        "cafe_bytes": len(QUIZ_CAFE.encode("utf-8")),
        "emoji_limit": QUIZ_EMOJI_LIMIT, "emoji_len": len(QUIZ_EMOJI),
        "emoji_bytes": emoji_bytes, "emoji_first": first, "emoji_second": second,
        "q5_n": n, "q5_size": size, "q5_k": len(windows), "q5_full": len(windows) - 1,
        "q5_even": round(n / (n // size)), "q5_last": windows[-1][1] - windows[-1][0],
        "q5_empty": 0, "q5_full_end": windows[-2][1], "q5_window": windows[-1],
        "q5_full_word": _WORDS[len(windows) - 1],
        "q5_full_word_cap": _WORDS[len(windows) - 1].capitalize(),
        "q5_k_ordinal": _ORDINALS[len(windows) - 1],
        "emoji_count_word": _WORDS[len(QUIZ_EMOJI) // len(TECHNOLOGIST)],
        "emoji_byte_chunks_word_cap": _WORDS[len(fixed_windows(emoji_bytes, QUIZ_EMOJI_LIMIT))]
        .capitalize(),
        "emoji_chunks_word_cap": _WORDS[len(fixed_windows(len(QUIZ_EMOJI), QUIZ_EMOJI_LIMIT))]
        .capitalize(),
        "emoji_cut_ordinal": _ORDINALS[QUIZ_EMOJI_LIMIT // len(TECHNOLOGIST)],
        "q6_over": _overflowing("cl100k_tokens", MINILM_MAX_SEQ_LENGTH),
        "q6_k": len(_windows("cl100k_tokens", MINILM_MAX_SEQ_LENGTH)),
        "q6_pieces_min": min(q6_full), "q6_pieces_max": max(q6_full),
    }


def _reach_letter() -> str:
    """The Predict-first option that holds: D when the first ``BUDGET`` cl100k tokens run past
    the passage, else the option (A, B or C) whose character is nearest to where they end."""
    passage = sample_passage()
    tokens = token_spans(passage)
    if len(tokens) < BUDGET:  # exactly BUDGET tokens end at the passage's end, not past it
        return "D"
    reach = prefix_end(tokens, BUDGET)
    options = {"A": BUDGET, "B": 2 * BUDGET, "C": round(reach, -2)}
    return min(options, key=lambda letter: abs(options[letter] - reach))


_K = ("Divide N by C and round up: a part-filled window at the end is still a chunk, "
      "so K = ⌈N / C⌉.")
_LAST = ("The first K − 1 chunks are full, C units each; the last holds what is left, "
         "N − (K − 1)·C, which is at least 1 and at most C.")
_REACH = ("A cl100k token is often a whole short word with its leading space, so a budget in "
          "tokens reaches several times further than the same number of characters. Try it in "
          f"the explorer: choose cl100k tokens and C = {BUDGET}, and read where chunk 1 ends.")

CHECKS = {
    "predict_reach": Check(_reach_letter, _REACH),
    **{f"{ex}_k": Check(lambda ex=ex: part1_k(ex), _K) for ex in PART1},
    **{f"{ex}_last": Check(lambda ex=ex: part1_last(ex), _LAST) for ex in PART1},
}

QUIZ = [
    Question(
        "A team's budget is {budget} cl100k tokens per chunk, and its splitter is set to "
        "`chunk_size={budget}` with the default length function, Python's `len`. How much of the "
        "token budget does a full chunk of this lesson's passage use?",
        {
            "A": ("All of it: a character costs about one token.",
                  "A cl100k token is usually a short word with its leading space, several "
                  "characters long: the first {budget} characters of the passage hold "
                  "{tokens_in_budget_chars} tokens."),
            "B": ("About a fifth: a token spans several characters.",
                  "The chunks are far smaller than the budget allows. Counted in tokens, the "
                  "first chunk would run to character {reach}."),
            "C": ("More than all of it: the chunk overflows the budget.",
                  "It is the other way round: one token holds several characters, so a "
                  "character budget is the smaller one."),
            "D": ("About half: a token is roughly two characters.",
                  "English prose averages well over two characters per cl100k token "
                  "({chars_per_token:.1f} on this passage), because a token is often a whole "
                  "word. Numbers, code, emoji and rare words cost more "
                  "tokens per character, so measure on your own documents."),
        },
        "B",
    ),
    Question(
        "A {chars_size}-character chunk (the passage's first) goes to all-MiniLM-L6-v2 through "
        "sentence-transformers. What happens to the text beyond the model's limit?",
        {
            "A": ("The vector stands for the first {pieces_read} of its {q2_pieces} word pieces, "
                  "characters {chunk_start} to {stops_at}.",
                  "The rest is silently ignored: nothing of the last {chars_lost} characters "
                  "reaches the vector, so a question answered only there cannot find this chunk "
                  "by its answer, and nothing warns you."),
            "B": ("The model embeds all {q2_pieces} word pieces in windows of {max_seq_length} "
                  "positions and averages them.",
                  "Some pipelines build that themselves; the model does not. It reads one window "
                  "of at most {max_seq_length} positions."),
            "C": ("The model raises an error, as {q2_pieces} word pieces are more than its "
                  "max_seq_length of {max_seq_length}.",
                  "The sentence-transformers library cuts the input to the model's "
                  "max_seq_length, {max_seq_length} word pieces with [CLS] and [SEP], without an "
                  "error. (Some hosted embedding APIs do refuse over-long input; either way the "
                  "budget belongs to the model.)"),
            "D": ("The model compresses its {q2_pieces} word pieces into {max_seq_length} "
                  "positions, so every word counts.",
                  "An encoder reads a fixed number of positions; what does not fit is dropped, "
                  "not compressed."),
        },
        "A",
    ),
    Question(
        "A user types the four-letter word café into a form. In Python, `len(word)` is {cafe_len} "
        "and `word[{cafe_e}]` is `'e'`. What happened?",
        {
            "A": ("The é was typed as an e followed by a combining accent.",
                  "That accent (U+0301) is a code point of its own, and Python counts code "
                  "points, not what the reader sees. unit_spans finds two units there, 'cafe' and "
                  "the lone accent; unicodedata.normalize('NFC', word) joins them into one é and "
                  "a length of {cafe_nfc_len}."),
            "B": ("Python's len counts UTF-8 bytes, and é takes two of them.",
                  "The len of a str counts code points, not bytes; this word is {cafe_bytes} "
                  "bytes in UTF-8."),
            "C": ("Python always stores an accented letter as two characters.",
                  "Only when the text holds it that way: a precomposed é (U+00E9) is one code "
                  "point, and len('café') is then {cafe_nfc_len}."),
            "D": ("The form added an invisible character to the end of the word.",
                  "A character at the end would leave word[{cafe_e}] an é; here the e stands "
                  "alone, and its accent follows it as a character of its own."),
        },
        "A",
    ),
    Question(
        "A chunker cuts fixed windows of at most {emoji_limit} characters, counted with Python's "
        "`len`. The text is {emoji_count_word} 👩‍💻 emoji (woman technologist) in a row. What "
        "does it make of them?",
        {
            "A": ("One chunk: the {emoji_count_word} visible characters fit in {emoji_limit}.",
                  "Python sees {emoji_len} code points: each 👩‍💻 is 👩, an invisible zero-width "
                  "joiner (U+200D) and 💻."),
            "B": ("{emoji_byte_chunks_word_cap} chunks, as it counts the text's {emoji_bytes} "
                  "UTF-8 bytes.",
                  "Python's len counts code points, not bytes: the text is {emoji_bytes} bytes in "
                  "UTF-8 but {emoji_len} code points."),
            "C": ("None: it raises an error, as emoji are not text.",
                  "Emoji are ordinary Unicode text. Nothing complains; the cut just lands "
                  "inside one."),
            "D": ("{emoji_chunks_word_cap} chunks: the cut falls inside the {emoji_cut_ordinal} "
                  "emoji.",
                  "The {emoji_len} code points make windows {emoji_first} and {emoji_second}, and "
                  "offset {emoji_limit} falls inside the {emoji_cut_ordinal} emoji: the first "
                  "chunk ends with 👩, the second starts with the joiner and 💻, and each shows a "
                  "broken piece of it."),
        },
        "D",
    ),
    Question(
        "Fixed windows of C = {q5_size} units over a document of N = {q5_n} units, no overlap. How "
        "many units does the last chunk hold?",
        {
            "A": ("{q5_size}: every chunk holds C units.",
                  "Only the first K − 1 chunks are full."),
            "B": ("About {q5_even}: the units are spread evenly over the chunks.",
                  "Some chunkers balance their sizes; fixed windows fill each window before "
                  "starting the next."),
            "C": ("{q5_last}: the units left after {q5_full_word} full chunks.",
                  "K = ⌈{q5_n} / {q5_size}⌉ = {q5_k}, and the last holds {q5_n} − "
                  "{q5_full}·{q5_size}: the first {q5_full_word} chunks hold {q5_size} each and "
                  "the {q5_k_ordinal} what is left."),
            "D": ("{q5_empty}: a {q5_k_ordinal} window would be empty, so there are "
                  "{q5_full_word}.",
                  "{q5_full_word_cap} windows end at {q5_full_end} and miss the last {q5_last} "
                  "units; the {q5_k_ordinal}, {q5_window}, holds them. No window is ever empty: "
                  "when C divides N exactly, the last chunk is full."),
        },
        "C",
    ),
    Question(
        "A chunker counts cl100k tokens and is set to {max_seq_length}, the same number as "
        "all-MiniLM-L6-v2's limit. It cuts the lesson's passage into {q6_k} chunks. Is each of "
        "them read whole by that model?",
        {
            "A": ("Yes: each holds at most {max_seq_length} cl100k tokens, within a limit of "
                  "{max_seq_length}.",
                  "Both say {max_seq_length}, but they count different units: a budget belongs to "
                  "the model that reads the text."),
            "B": ("No: {q6_over} of the {q6_k} are longer than the {pieces_read} word pieces the "
                  "model reads.",
                  "The model counts its own word pieces, and [CLS] and [SEP] take "
                  "{special_words} of the {max_seq_length} word pieces of its max_seq_length. "
                  "Count with the model's tokenizer and leave room for both."),
            "C": ("Yes, as long as none of the {q6_k} cuts a sentence, since the model reads "
                  "sentence by sentence.",
                  "The model reads whatever text it is given, up to its limit. Where a chunk "
                  "ends has nothing to do with how many word pieces it holds."),
            "D": ("No, but only one of the {q6_k} overflows: a word piece and a cl100k token are "
                  "about the same size.",
                  "On the passage they are about the same size: a full chunk of "
                  "{max_seq_length} tokens holds {q6_pieces_min} to {q6_pieces_max} word "
                  "pieces. That is the trouble, as only {pieces_read} fit beside [CLS] and "
                  "[SEP]: {q6_over} of the {q6_k} chunks overflow, and the last, shorter one is "
                  "the only one that fits."),
        },
        "B",
    ),
]
