"""Lesson 2 (Boundaries): the hand-worked text, its self-checks and the multiple-choice questions.

Expected values are computed with ``chunklib.splitter``, ``chunklib.boundaries``,
``chunklib.sentences`` and ``chunklib.semantic`` when a check runs; ``position_grid`` prints
the hand-worked text with every character's offset, so the Part 1 counts can be done with
pencil and paper.

``figures()`` computes every number the lesson's Markdown states; ``tools/sync_prose.py``
renders the templates in ``notebooks/02-boundaries/prose/`` with it.

Leaves out: prose; the notebook ``notebooks/02-boundaries/boundaries.ipynb`` and its templates
hold it.

    >>> CHECKS["fixed_k"].expected()
    4
"""

import numpy as np

from chunklib.boundaries import boundary_quality, span_stats
from chunklib.course import POINTS
from chunklib.course.comparison import compare_strategies
from chunklib.course.passages import load_passage
from chunklib.course.quiz import Question
from chunklib.course.selfcheck import Check
from chunklib.course.words import FRACTIONS
from chunklib.course.words import ORDINALS as _ORDINALS
from chunklib.course.words import WORDS as _WORDS
from chunklib.course.words import and_list as _listed
from chunklib.course.words import fraction as _fraction
from chunklib.semantic import (
    ABBREVIATIONS,
    _require_percentile,
    compare_with_recursive,
    semantic_split,
)
from chunklib.sentences import paragraph_spans, sentences_cut_at, split_sentences
from chunklib.splitter import DEFAULT_SEPARATORS, recursive_split, split_text
from chunklib.tokens import wordpiece_count
from chunklib.units import cut_sentences
from chunklib.validate import require_int
from chunklib.windows import text_windows

#: The Part 1 text: two paragraphs, three sentences, the last one longer than the chunk size.
PART1_TEXT = "Tea is ready. Milk is in the fridge.\n\nThe kettle is broken, so boil water in a pan."
#: The Part 1 chunk size, in characters.
PART1_SIZE = 24
#: The Part 1 second paragraph, as offsets (it starts after the blank line).
PART1_PARAGRAPH_2 = (38, 83)


#: The explorer's chunk size, and the sizes of the comparison table, in characters.
EXPLORER_SIZE = 300
SMALLER_SIZE = 200
SIZES = (100, 200, 300, 400)
#: The budget of the word-piece split, in all-MiniLM-L6-v2 word pieces.
WORDPIECE_BUDGET = 64
#: Quiz question 3: a splitter's chunk texts of a text that repeats, and that text.
SAME_CHUNKS = ("Same. ", "Same. ", "Same.")
SAME_TEXT = "".join(SAME_CHUNKS)
#: Semantic chunking: the percentile of the neighbour cosines below which a gap is cut, and the
#: passage's first sentences, the stretch worked by hand.
SEMANTIC_PERCENTILE = 25
HAND_SENTENCES = 5
#: LangChain's ``SemanticChunker`` default: the 95th percentile of distances, the 5th of cosines.
LANGCHAIN_PERCENTILE = 5
#: The hand-worked threshold is answered rounded to this many decimals.
HAND_DECIMALS = 2


def figures() -> dict[str, object]:
    """Every number lesson 2's Markdown states, computed with chunklib.

    ``figures()["passage_chars"]`` -> '2,189'
    """
    passage = load_passage()
    sentences = split_sentences(passage)
    size = EXPLORER_SIZE

    def split(at, separators=DEFAULT_SEPARATORS):
        return span_stats(passage, split_text(passage, at, separators=separators), sentences)

    def fixed(at):
        return span_stats(passage, text_windows(passage, at, 0), sentences)

    spans = split_text(passage, size)
    cut = sentences_cut_at(sentences, [end for _, end in spans[:-1]])
    cut_chunks = [i for i, sentence in enumerate(cut) if sentence is not None]
    cut_at = cut[cut_chunks[0]]
    pieces = [e - s for s, e in recursive_split(passage, size) if e > s]
    no_full_stop = tuple(sep for sep in DEFAULT_SEPARATORS if sep != ". ")
    extra = [split(at)["chunks"] - fixed(at)["chunks"] for at in SIZES]
    by_pieces = split_text(passage, WORDPIECE_BUDGET, length=wordpiece_count)
    lo, hi = SIZES[0], SIZES[-1]
    return {
        "size": size, "passage_chars": f"{len(passage):,}", "sentences": len(sentences),
        "paragraphs": len(paragraph_spans(passage)),
        "fixed_k": fixed(size)["chunks"], "fixed_ends": fixed(size)["chunks"] - 1,
        "fixed_cut": fixed(size)["sentences_cut"],
        "fixed_quality": fixed(size)["boundary_quality"],
        "split_k": split(size)["chunks"], "split_cut": split(size)["sentences_cut"],
        "cut_chunk": cut_chunks[0] + 1, "cut_sentence": cut_at[1] - cut_at[0],
        "no_full_stop_cut": split(size, no_full_stop)["sentences_cut"],
        "pieces": len(pieces), "piece_min": min(pieces), "piece_max": max(pieces),
        "smaller": SMALLER_SIZE, "smaller_k": split(SMALLER_SIZE)["chunks"],
        "smaller_cut": split(SMALLER_SIZE)["sentences_cut"],
        "longest_sentence": max(e - s for s, e in sentences),
        "split_median": round(split(size)["median"]), "fixed_median": round(fixed(size)["median"]),
        "split_min": split(size)["min"],
        "split_max": split(size)["max"],
        "lo": lo, "lo_split_cut": split(lo)["sentences_cut"],
        "lo_fixed_cut": fixed(lo)["sentences_cut"],
        "hi": hi, "hi_split_cut": _WORDS[split(hi)["sentences_cut"]].replace("zero", "none"),
        "hi_fixed_cut": fixed(hi)["sentences_cut"],
        "extra_min": _WORDS[min(extra)], "extra_max": _WORDS[max(extra)],
        "budget": WORDPIECE_BUDGET, "budget_k": len(by_pieces),
        "budget_largest": max(wordpiece_count(passage[s:e]) for s, e in by_pieces),
        **part1_figures(),
        "empty_split": repr(recursive_split("", PART1_SIZE)),
        "single_quality": boundary_quality(split_sentences(PART1_TEXT), [(0, len(PART1_TEXT))]),
        **{f"{part}_points": points for part, points in POINTS.items()},
        **_quiz_figures(),
        **semantic_figures(),
    }


def hand_stretch() -> str:
    """The passage up to the end of its ``HAND_SENTENCES``-th sentence: the stretch whose
    neighbour cosines the learner works through by hand.

    ``hand_stretch()[-3:]`` -> 'Dr.'
    """
    passage = load_passage()
    return passage[:split_sentences(passage)[HAND_SENTENCES - 1][1]]


def semantic_texts() -> list[str]:
    """Every sentence semantic chunking embeds in lesson 2: the passage's sentences as
    ``split_sentences`` finds them and with ``ABBREVIATIONS`` joined (the shipped vector store
    holds them, so the lesson never waits for the model).

    ``len(semantic_texts()) > HAND_SENTENCES`` -> True
    """
    passage = load_passage()
    plain = split_sentences(passage)
    joined = semantic_split(passage, lambda t: [[1.0]] * len(t), 0, abbreviations=ABBREVIATIONS)
    return sorted({passage[s:e] for s, e in plain + joined.sentences})


def _length(span: tuple[int, int]) -> int:
    return span[1] - span[0]


def _ordinal(i: int) -> str:
    return "smallest" if i == 0 else f"{_ORDINALS[i]} smallest"


#: Where the hand-worked percentile sits among the stretch's sorted cosines (numpy's position).
_HAND_POSITION = SEMANTIC_PERCENTILE / 100 * (HAND_SENTENCES - 2)


def semantic_figures() -> dict[str, object]:
    """The figures of the semantic chunking section: the stretch worked by hand, the whole
    passage with and without the abbreviation list, and the comparison with recursive splitting
    at ``EXPLORER_SIZE`` characters.

    ``semantic_figures()["sem_percentile"]`` -> 25
    """
    # the model's constants, imported here: the self-check (which imports this module) of a
    # lesson-2 cell does not need them, and chunklib.truncation reads the model's config
    from chunklib.embedding import DIMENSION
    from chunklib.tokens import MINILM_MAX_SEQ_LENGTH, MINILM_SPECIAL_TOKENS
    from chunklib.truncation import MINILM_TRAINED_LENGTH

    passage, p, size = load_passage(), SEMANTIC_PERCENTILE, EXPLORER_SIZE
    hand = semantic_split(hand_stretch(), percentile=p)
    gaps = len(hand.similarities)
    position = p / 100 * (gaps - 1)
    low = int(position)
    plain = semantic_split(passage, percentile=p)
    joined = semantic_split(passage, percentile=p, abbreviations=ABBREVIATIONS)
    fragments = [i for i, (s, e) in enumerate(plain.sentences) if passage[s:e].endswith("Dr.")]
    beside = [i for i in plain.breakpoints if i in fragments or i + 1 in fragments]
    before = compare_with_recursive(passage, size, p)
    after = compare_with_recursive(passage, size, p, abbreviations=ABBREVIATIONS)
    longest = max(plain.spans, key=lambda span: span[1] - span[0])
    breaks = paragraph_spans(passage)
    at_paragraph = [i for i in joined.breakpoints
                    if any(joined.sentences[i][1] <= s == joined.sentences[i + 1][0]
                           for s, _ in breaks[1:])]
    within = [i for i in joined.breakpoints if i not in at_paragraph]
    volunteers = next(i for i in within
                      if passage[slice(*joined.sentences[i + 1])].startswith("They "))
    # the gap worked by hand is the one before sentence 4; find it again among joined sentences
    hand_gap = hand.breakpoints[0]
    hand_joined = next(i for i, (_, e) in enumerate(joined.sentences)
                       if e == plain.sentences[hand_gap][1])
    whole = len(plain.similarities) - 1
    (at,) = [i for i, c in enumerate(plain.similarities) if c == plain.threshold]
    return {
        "sem_percentile": p, "sem_share": p / 100, "sem_dims": DIMENSION,
        "sem_fraction": (_fraction(100 // p) if 100 % p == 0 and 100 // p in FRACTIONS
                         else f"{p} %"),
        "sem_read": MINILM_MAX_SEQ_LENGTH - MINILM_SPECIAL_TOKENS,
        "sem_trained": MINILM_TRAINED_LENGTH,
        "hand_n": HAND_SENTENCES, "hand_gaps": gaps, "hand_last": HAND_SENTENCES - 1,
        "hand_position": f"{position:g}", "hand_fraction": f"{position - low:g}",
        "hand_low": _ordinal(low), "hand_high": _ordinal(low + 1),
        "hand_decimals": _WORDS[HAND_DECIMALS], "hand_gap": hand_gap,
        "hand_cosine": hand.similarities[hand_gap],
        "hand_joined_cosine": joined.similarities[hand_joined],
        "hand_joined_cut": "still cut" if hand_joined in joined.breakpoints else "no longer cut",
        "sem_gaps": len(plain.similarities),
        "relative_cut": relative_cuts(len(plain.similarities), p),
        "sem_threshold": plain.threshold, "sem_breaks": len(plain.breakpoints),
        "sem_position": f"{p / 100 * whole:g}", "sem_whole": whole,
        "sem_at_gap": at,
        "lc_amount": 100 - LANGCHAIN_PERCENTILE, "lc_percentile": LANGCHAIN_PERCENTILE,
        "lc_breaks": _WORDS[len(semantic_split(passage, percentile=LANGCHAIN_PERCENTILE
                                               ).breakpoints)],
        "lc_amount_here": 100 - p,
        "sem_beside": _WORDS[len(beside)], "sem_fragments": _listed(fragments),
        "sem_fragment_count": _WORDS[len(fragments)],
        # the chunks cut at the "Dr." fragments, counted against the sentences with them joined
        "sem_joined_cut": cut_sentences(joined.sentences, plain.spans),
        "sem_k": before["semantic"]["chunks"],
        "sem_min": before["semantic"]["min"], "sem_max": before["semantic"]["max"],
        "sem_max_pieces": wordpiece_count(passage[slice(*longest)]),
        "rec_k": before["recursive"]["chunks"], "rec_cut": before["recursive"]["sentences_cut"],
        "abbr_rec_cut": after["recursive"]["sentences_cut"],
        "rec_min": before["recursive"]["min"], "rec_max": before["recursive"]["max"],
        "abbr_breaks": len(joined.breakpoints),
        "abbr_min": after["semantic"]["min"], "abbr_max": after["semantic"]["max"],
        "abbr_capped_k": after["semantic_capped"]["chunks"],
        "abbr_at_paragraph": _WORDS[len(at_paragraph)], "abbr_within": _WORDS[len(within)],
        "abbr_they_cosine": joined.similarities[volunteers],
        "abbr_they_rank": _ordinal(sorted(joined.similarities).index(
            joined.similarities[volunteers])),
        "abbr_they_chars": _length(joined.spans[joined.breakpoints.index(volunteers)]),
        "sem_paragraph_breaks": _WORDS[len(breaks) - 1],
    }


def _same_figures() -> dict[str, object]:
    """Quiz question 3: where the chunks of SAME_TEXT start, and what ``str.find`` reports."""
    starts, at = [], 0
    for chunk in SAME_CHUNKS:
        starts.append(at)
        at += len(chunk)
    found = [SAME_TEXT.find(chunk) for chunk in SAME_CHUNKS]
    return {"same_true": _listed(starts), "same_found": _listed(found),
            "same_first_two": " and ".join(map(str, starts[:2])), "same_first": found[0],
            "not_found": str(SAME_TEXT.find("#")).replace("-", "−")}


def relative_cuts(gaps: int, percentile: float) -> int:
    """How many of ``gaps`` different cosines lie strictly below their ``percentile``-th
    percentile: the same number whatever the cosines are, because only their order counts
    (equal cosines can lower it, so they are left out).

    ``relative_cuts(25, 25)`` -> 6
    """
    gaps = require_int("gaps", gaps, minimum=1)
    percentile = _require_percentile(percentile)  # semantic_split's own check
    ranks = list(range(gaps))  # any distinct cosines, sorted, sit at these ranks
    threshold = np.percentile(ranks, percentile)
    return int(sum(rank < threshold for rank in ranks))


def _quiz_figures() -> dict[str, object]:
    """The numbers only the quiz states (the prose states the others)."""
    return {"size_twice": 2 * EXPLORER_SIZE, **_same_figures()}


def part1_figures() -> dict[str, object]:
    """The figures of the Part 1 introduction: the text, its offsets and its sentences.

    ``part1_figures()["part1_chars"]`` -> 83
    """
    sentences = split_sentences(PART1_TEXT)
    listed = "\n".join(f'- ({s}, {e}) "{PART1_TEXT[s:e]}"' for s, e in sentences)
    return {"part1_chars": len(PART1_TEXT), "part1_grid": position_grid(PART1_TEXT),
            "part1_paragraphs": _WORDS[len(paragraph_spans(PART1_TEXT))],
            "part1_sentence_count": _WORDS[len(sentences)],
            "part1_sentences": listed,
            "part1_size": PART1_SIZE}


def position_grid(text: str, width: int = 10) -> str:
    """``text`` in rows of ``width`` characters under a column ruler, each row led by the offset
    of its first character; a space shows as ``·`` and a line break as ``⏎``.

    ``position_grid("Hi you")`` -> '    0 1 2 3 4 5 6 7 8 9\\n0   H i · y o u'
    """
    shown = text.replace(" ", "·").replace("\n", "⏎")
    label = len(str(max(len(text) - 1, 0)))
    lines = [" " * (label + 3) + " ".join(str(i) for i in range(width))]
    for row in range(0, len(text), width):
        lines.append(f"{row:>{label}}   " + " ".join(shown[row:row + width]))
    return "\n".join(lines)


def _fixed():
    return text_windows(PART1_TEXT, PART1_SIZE, 0)


def _split():
    return split_text(PART1_TEXT, PART1_SIZE)


def _clean_ends(spans):
    return sentences_cut_at(split_sentences(PART1_TEXT), [end for _, end in spans[:-1]]
                            ).count(None)


def _pieces_in_paragraph_2():
    lo, hi = PART1_PARAGRAPH_2
    return sum(lo <= s and e <= hi for s, e in recursive_split(PART1_TEXT, PART1_SIZE))


_K = (f"Windows start at 0, {PART1_SIZE}, {2 * PART1_SIZE}, … and stop once one reaches the end "
      f"of the {len(PART1_TEXT)}-character text.")
_CLEAN = ("Find each chunk end, the last excluded, in the grid. It is clean when it sits at a "
          "sentence's end, in the whitespace after it, or right at the next sentence's start.")
_CUT = ("A sentence is whole when a single chunk holds everything from its first character to "
        "its last; count the sentences for which no chunk does.")
_PIECES = ("Which separators does that paragraph contain? '. ' needs a space after the full "
           "stop. Each piece keeps its separator at its end.")
_SPLIT_K = ("Split on the blank line first; the first paragraph with its blank line is longer than "
            f"{PART1_SIZE}, so split it further. Then merge left to right while next_end − "
            f"current_start ≤ {PART1_SIZE}.")

CHECKS = {
    "semantic_threshold": Check(
        lambda: round(semantic_split(hand_stretch(), percentile=SEMANTIC_PERCENTILE).threshold,
                      HAND_DECIMALS),
        f"Sort the {_WORDS[HAND_SENTENCES - 1]} cosines from the smallest up; the threshold is "
        f"the {_ordinal(int(_HAND_POSITION))} plus {_HAND_POSITION % 1:g} times the difference "
        f"between the {_ordinal(int(_HAND_POSITION) + 1)} and the "
        f"{_ordinal(int(_HAND_POSITION))}. Round it with round(x, {HAND_DECIMALS})."),
    "semantic_gap": Check(lambda: semantic_split(hand_stretch(), percentile=SEMANTIC_PERCENTILE
                                                 ).breakpoints[0],
                          "Sort the cosines; the percentile lies between the two values around "
                          "its position, and a gap is cut only when its cosine is strictly "
                          "below it. Answer with the number of the gap, as the table prints it."),
    "predict_cut": Check(lambda: compare_strategies(load_passage(), EXPLORER_SIZE)["fixed"][
                             "sentences_cut"],
                         "Each place where one window meets the next cuts at most one sentence, "
                         "and spares it only when it lands between two sentences."),
    "fixed_k": Check(lambda: len(_fixed()), _K),
    "fixed_clean": Check(lambda: _clean_ends(_fixed()), _CLEAN),
    "fixed_cut": Check(lambda: cut_sentences(split_sentences(PART1_TEXT), _fixed()), _CUT),
    "pieces_p2": Check(_pieces_in_paragraph_2, _PIECES),
    "split_k": Check(lambda: len(_split()), _SPLIT_K),
    "split_clean": Check(lambda: _clean_ends(_split()), _CLEAN),
    "split_cut": Check(lambda: cut_sentences(split_sentences(PART1_TEXT), _split()), _CUT),
}

QUIZ = [
    Question(
        "The explorer splits on the separators `\"\\n\\n\"`, `\"\\n\"`, `\". \"`, `\" \"` "
        "in that order and merges the pieces up to the chunk size. Can a chunk still end "
        "inside a sentence?",
        {
            "A": ("No: the hierarchy always cuts at sentence ends before it cuts at a space.",
                  "The hierarchy is a list of strings, not a sentence splitter: \". \" comes "
                  "third, and a piece still too long falls through to \" \", between any two "
                  "words."),
            "B": ("Yes: a sentence longer than the chunk size is one case of several.",
                  "Such a sentence has to be cut, and \". \" also misses sentences that end in ! "
                  "or ? or at a line break: on the passage at {smaller} characters the splitter "
                  "still cuts {smaller_cut} of its {sentences} sentences. Only a chunk size of at "
                  "least the longest sentence ({longest_sentence} characters here) makes a split "
                  "without cuts possible at all."),
            "C": ("Only when every separator in the list is switched off.",
                  "With all four separators on, {smaller}-character chunks still cut "
                  "{smaller_cut} of the {sentences} sentences of the passage."),
            "D": ("Only with a chunk size smaller than the longest word.",
                  "Much earlier: any sentence longer than the chunk size is cut, and so is a "
                  "sentence whose end no separator matches."),
        },
        "B",
    ),
    Question(
        "After `merge_spans(recursive_split(text, {size}, separators), {size})`, how long can a "
        "chunk be, in characters?",
        {
            "A": ("Up to {size} plus the length of the last piece merged in.",
                  "A piece is merged in only when next_end − current_start ≤ {size}, that is when "
                  "the merged chunk still fits."),
            "B": ("Up to {size_twice}: two pieces of up to {size} each can be merged.",
                  "Two pieces merge only when the result is at most {size} long."),
            "C": ("Any length: merging keeps a long sentence whole.",
                  "The function recursive_split hard-cuts anything that no separator makes short "
                  "enough, so no piece is longer than {size}, and merging never makes a chunk "
                  "longer than that."),
            "D": ("At most {size}, whatever the text and the separators.",
                  "Every piece fits, and merging tests next_end − current_start ≤ size before "
                  "it extends a chunk, so the budget holds. (A span that was already longer "
                  "than the size stays alone: merge_spans never shortens anything.)"),
        },
        "D",
    ),
    Question(
        "A splitter returns the chunk texts `[\"Same. \", \"Same. \", \"Same.\"]` of the text "
        "`\"Same. Same. Same.\"`, and a helper recovers each start with `text.find(chunk)`. "
        "Which starts does it report?",
        {
            "A": ("{same_true}: find goes on from the last match.",
                  "Each call of find starts from the beginning of the text and knows nothing "
                  "about the chunk before: it returns the first place where the string occurs."),
            "B": ("{same_first_two}, then {not_found}: the last has no space after it.",
                  "The string \"Same.\" does occur in the text (at {same_first}, among other "
                  "places); find returns {not_found} only for a string that does not occur at "
                  "all."),
            "C": ("{same_found}: every copy is found at the very first one.",
                  "Python's find returns the first occurrence, so three chunks claim the same "
                  "start, and citations point at the wrong sentence. Offsets must be "
                  "computed while splitting, as every function in this lesson does."),
            "D": ("An error: find cannot search text that repeats.",
                  "It searches fine; it just always returns the first match."),
        },
        "C",
    ),
    Question(
        "At {smaller} characters, one chunk of the passage ends right after \"The idea came from "
        "Dr. \", and the next begins with \"Amara Osei, a retired botanist\". How does "
        "boundary_quality count that chunk end?",
        {
            "A": ("As clean: by the sentence spans, a sentence ends there.",
                  "The sentence splitter has no abbreviation list, so \"Dr.\" followed by a "
                  "space ends a sentence. A metric computed from sentence spans is only as good "
                  "as the sentence splitter: here it reports a clean cut that separates a name "
                  "from its sentence, so read the chunk ends, not just the score."),
            "B": ("As a cut: split_sentences knows that \"Dr.\" is an abbreviation.",
                  "Nothing in split_sentences knows abbreviations: \"Dr.\" followed by a space "
                  "ends a sentence like any other full stop."),
            "C": ("Not at all: it is left out like the last chunk's end.",
                  "Only the last chunk's end is left out (it is the end of the text); every "
                  "other end counts."),
            "D": ("As clean, and rightly so: a cut there loses nothing.",
                  "It loses the link between \"The idea came from\" and the name; a reader of "
                  "either chunk alone cannot tell whose idea it was."),
        },
        "A",
    ),
    Question(
        "On the passage at {size} characters, fixed windows give {fixed_k} chunks and recursive "
        "splitting with merging gives {split_k}. Why more chunks?",
        {
            "A": ("Recursive splitting repeats some text between chunks.",
                  "Its chunks tile the text exactly: nothing is repeated, nothing skipped."),
            "B": ("Recursive splitting counts tokens, fixed windows characters.",
                  "Both count characters here; split_text counts tokens only when you pass a "
                  "token counter as its length function."),
            "C": ("Merging stops too early; a better merge would give {fixed_k}.",
                  "Greedy merging already takes as many pieces as fit; a chunk can only end where "
                  "a piece ends."),
            "D": ("Its chunks end only at separators, so most are under {size}.",
                  "The median chunk has {split_median} characters instead of {fixed_median}, and "
                  "the lengths spread from {split_min} to {split_max}: slightly more chunks buy "
                  "far fewer cut sentences ({split_cut} of {sentences} instead of {fixed_cut})."),
        },
        "D",
    ),
    Question(
        "`semantic_split(passage, percentile={sem_percentile})` cuts {sem_breaks} of the "
        "passage's {sem_gaps} gaps between sentences. Another text, also with {sem_gaps} gaps, "
        "never changes subject, and no two of its neighbour cosines are equal. How many of its "
        "gaps does `semantic_split(text, percentile={sem_percentile})` cut?",
        {
            "A": ("None: with one subject, no cosine is low enough to cut.",
                  "There is no fixed 'low enough': the threshold is the {sem_percentile}th "
                  "percentile of this text's own cosines, so it moves with them (high cosines, "
                  "high threshold), and when no two are equal, some of them always lie below "
                  "it."),
            "B": ("{relative_cut}, just as many as in the passage, whatever the text says.",
                  "The threshold is a percentile of the text's own cosines, so only their order "
                  "counts: of {sem_gaps} different cosines, the {relative_cut} smallest lie "
                  "strictly below the {sem_percentile}th percentile (position {sem_position}). "
                  "A text without a change of subject is still cut, between its least similar "
                  "neighbours, inside the one topic it has. (Equal cosines are the exception "
                  "the question rules out: a text that repeats one sentence is not cut at "
                  "all.)"),
            "C": ("Fewer than {sem_breaks}: its cosines are higher, so fewer fall below.",
                  "Higher cosines raise the threshold with them: it is computed from the very "
                  "cosines it is compared with, so how many fall below it does not depend on "
                  "how alike the sentences are."),
            "D": ("One: only the least similar pair, as in the stretch done by hand.",
                  "The stretch you worked by hand has only {hand_gaps} gaps: its position, "
                  "{hand_position}, puts the threshold between the smallest cosine and the "
                  "next. With {sem_gaps} gaps the position is {sem_position}, and more cosines "
                  "lie below it."),
        },
        "B",
    ),
]
