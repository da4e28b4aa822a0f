"""Every number lesson 1 states in prose is computed here with chunklib and found in the text.

``test_every_number_in_the_lesson_is_pinned`` closes the loop: a number in the lesson's prose,
quiz or Part 1 prompts that no claim below recomputes fails the suite.
"""

import importlib.util
import json
import re
import unicodedata
import zipfile
from pathlib import Path

import nbformat
import pytest
from tokenizers import Tokenizer

import chunklib
from chunklib.budgets import minilm_reads, prefix_end, spans_of, unit_table, units_within
from chunklib.course import units as course
from chunklib.course.passages import sample_passage
from chunklib.course.quiz import questions
from chunklib.sentences import split_sentences
from chunklib.tokens import (
    MINILM_MAX_SEQ_LENGTH,
    MINILM_SPECIAL_TOKENS,
    _minilm,
    token_spans,
    truncated_at,
    wordpiece_spans,
)
from chunklib.truncation import truncation
from chunklib.units import cut_sentences, fixed_windows, unit_spans
from chunklib.widgets.units import MAX_ROWS, UnitsExplorer
from chunklib.windows import unit_windows
from tests.nbgrading import lesson_notebook

#: The quiz as the notebook states it (rendered by tools/sync_quiz.py).
RENDERED_QUIZ = questions("units")

NB = nbformat.read(lesson_notebook("01-units"), as_version=4)
LESSON_MD = [c.source for c in NB.cells if c.cell_type == "markdown"
             and "chapter-reference" not in c.metadata.get("tags", [])]
PROSE = " ".join("\n".join(LESSON_MD).split())          # whitespace collapsed
QUIZ = " ".join(" ".join(why for q in RENDERED_QUIZ for _t, why in q.options.values()).split())
CODE = "\n".join(c.source for c in NB.cells if c.cell_type == "code")

PASSAGE = sample_passage()
TOKENS = token_spans(PASSAGE)
SENTENCES = split_sentences(PASSAGE)
PIECES_READ = MINILM_MAX_SEQ_LENGTH - MINILM_SPECIAL_TOKENS
#: "See it with the real model": the vectors the lesson's cell reads (the shipped store).
CUT = truncation(PASSAGE)
TOKENIZER_FILE = Path(chunklib.__file__).with_name("data") / "all-MiniLM-L6-v2.tokenizer.json"
TRAINED = json.loads(TOKENIZER_FILE.read_text(encoding="utf-8"))["truncation"]["max_length"]


def package_json(name):
    """A JSON file of the installed all-MiniLM-L6-v2 package's model.zip ({} when missing)."""
    spec = importlib.util.find_spec("all_minilm_l6_v2")
    if spec is None or not spec.submodule_search_locations:
        return {}
    archive = Path(next(iter(spec.submodule_search_locations))) / "model.zip"
    with zipfile.ZipFile(archive) as zipped:
        return json.loads(zipped.read(name))


def explorer_marks(kind, size):
    """The × marks the units explorer draws at (kind, size), every chunk drawn."""
    e = UnitsExplorer(kind=kind, size=size)
    (marks,) = [line for line in e.figure.axes[0].lines if line.get_marker() == "X"]
    return len(marks.get_xdata()) if len(e.computed.windows) <= MAX_ROWS else None


def windows(kind, size):
    return unit_windows(spans_of(PASSAGE, kind), size, 0)


def overflowing(kind, size):
    return sum(1 for p, _ in minilm_reads(PASSAGE, windows(kind, size)) if p > PIECES_READ)


def largest(kind, size):
    return max(p for p, _ in minilm_reads(PASSAGE, windows(kind, size)))


def over_trained(kind, size):
    return sum(1 for p, _ in minilm_reads(PASSAGE, windows(kind, size)) if p > TRAINED - 2)


def cut(kind, size):
    return cut_sentences(SENTENCES, windows(kind, size))


def read_lengths(kind, size):
    return [stop - start for (start, _), (_, stop)
            in zip(windows(kind, size), minilm_reads(PASSAGE, windows(kind, size)), strict=True)]


def raises(function, *args):
    try:
        function(*args)
    except ValueError:
        return True
    return False


FACE, TECHNOLOGIST, KANJI = "cafe\u0301", "👩\u200d💻", "日本語の文章です"

#: What all-MiniLM-L6-v2's own tokenizer reads in the lesson's Unicode demo: (piece, start, end)
DEMO_TEXT = course.UNICODE_DEMO
_DEMO = _minilm().encode(DEMO_TEXT, add_special_tokens=False)
DEMO_READ = [(piece, s, e) for piece, (s, e) in zip(_DEMO.tokens, _DEMO.offsets, strict=True)]
DEMO_TABLE = unit_table(DEMO_TEXT)

CLAIMS = [  # (text the lesson shows, is it true by chunklib)
    ("The embedding model drops the accent and reads the emoji as a single unknown piece",
     DEMO_READ[:2] == [("cafe", 0, 4), ("[UNK]", 6, 9)] and DEMO_TEXT[:5] == FACE
     and DEMO_TEXT[6:9] == TECHNOLOGIST),
    ("It strips the voicing mark of で the same way, so it reads `てす` where the text says `です`",
     [(p, DEMO_TEXT[s:e]) for p, s, e in DEMO_READ if DEMO_TEXT[s:e] in ("で", "す")]
     == [("て", "で"), ("##す", "す")]
     and unicodedata.category(unicodedata.normalize("NFD", "で")[1]) == "Mn"),
    ("The MiniLM row of the table below shows where each piece lies in the text, not what the "
     "model reads", "16:17 'で'" in DEMO_TABLE and "[UNK]" not in DEMO_TABLE),
    ("👩‍💻 is three", len(TECHNOLOGIST) == 3),
    ("🚨 takes three", len(token_spans("🚨")) == 3),
    ("an operations runbook of 5757 characters", len(PASSAGE) == 5757),
    ("puts the first 1000 tokens into the first chunk. Where does that chunk end?",
     fixed_windows(len(TOKENS), 1000)[0] == (0, 1000)),
    ("**C**: near character 4700", round(prefix_end(TOKENS, 1000), -2) == 4700
     and course.CHECKS["predict_reach"].expected() == "C"),
    ("1000 tokens are more than 5757 characters", len(TOKENS) > 1000),
    ("`¦3` marks where chunk 3 begins", len(windows("words", 160)) >= course.MARKER_EXAMPLE),
    ("choose **cl100k tokens** and **C = 1000**. The line above the chunk says where the first "
     "chunk ends",
     prefix_end(TOKENS, 1000) < len(PASSAGE)),
    ("The explorer starts with **word-like units** and **C = 160**",
     len(windows("words", 160)) > 1 and course.TRIES["words"] == ("words", 160)),
    ("Part 1 asks you to do the same by hand for other sizes",
     all((kind, size) != ("words", 160) for kind, size in course.PART1.values())),
    ("try **C = 30**: more, smaller chunks (41 of them), and 36 of the 70 sentences and headings "
     "are cut instead of 6. The plot shows 38 ×, not 36: a sentence longer than a chunk can be "
     "cut more than once", (len(windows("words", 30)), cut("words", 30), len(SENTENCES),
                            cut("words", 160), explorer_marks("words", 30)) == (41, 36, 70, 6, 38)
     and course.figures()["small_words_marks"] == 38),
    ("Choose **characters** and **C = 1400**. Every full chunk has a dotted grey tail",
     overflowing("characters", 1400) == len(windows("characters", 1400)) - 1
     and ("characters", 1400) not in course.PART1.values()),
    ("reads only about the first 1200 characters of each",
     all(abs(n - 1200) <= 50 for n in read_lengths("characters", 1400)[:-1])),
    ("only the short last chunk (157 characters) is read whole",
     read_lengths("characters", 1400)[-1] == len(PASSAGE) - 4 * 1400 == 157),
    ("At **C = 1000** every chunk is read to its end (0 overflow)",
     overflowing("characters", 1000) == 0),
    ("Choose **cl100k tokens** and **C = 260**, close to the model's limit of 256 word pieces: 4 "
     "of the 5 chunks overflow it", (overflowing("cl100k_tokens", 260),
                                     len(windows("cl100k_tokens", 260))) == (4, 5)
     and MINILM_MAX_SEQ_LENGTH == 256),
    ("At **C = 250** they are all read whole (0 overflow), the largest with 254 word pieces, "
     "exactly the 254 the model reads",
     overflowing("cl100k_tokens", 250) == 0 and largest("cl100k_tokens", 250) == 254
     and PIECES_READ == 254),
    ("used inputs of at most 128 word pieces, and all 5 chunks are longer than that",
     TRAINED == 128 and over_trained("cl100k_tokens", 250) == 5
     and len(windows("cl100k_tokens", 250)) == 5),
    ("the three cl100k tokens that share the 🚨",
     [s for s in token_spans("The runbook's 🚨 alert: don't panic.") if s[1] == 15]
     == [(13, 15), (14, 15), (14, 15)]),
    ("byte-level BPE split its four UTF-8 bytes", len("🚨".encode()) == 4),
    ("the word pieces `run` and `##book` (shown as its text, `book`)",
     [(s, e) for s, e in wordpiece_spans("The runbook's")][1:3] == [(4, 7), (7, 11)]
     and _minilm().encode("The runbook's", add_special_tokens=False).tokens[1:3]
     == ["run", "##book"]),
    ("(an `e` followed by U+0301)", unicodedata.name("\u0301") == "COMBINING ACUTE ACCENT"),
    ("Word-like units make two units of that café, three of the emoji and two of the Japanese "
     "sentence: the whole text before the full stop is one run of word characters, and the full "
     "stop `。` is a punctuation unit of its own",
     (len(unit_spans(FACE)), len(unit_spans(TECHNOLOGIST)), len(unit_spans(KANJI + "。")))
     == (2, 3, 2) and unit_spans(KANJI + "。") == [(0, len(KANJI)), (len(KANJI), len(KANJI) + 1)]
     and course.UNICODE_DEMO.split(" ") == [FACE, TECHNOLOGIST, KANJI + "。"]),
    ("The embedding model drops the accent and reads the emoji as a single unknown piece",
     wordpiece_spans(FACE) == [(0, 4)] and wordpiece_spans(TECHNOLOGIST) == [(0, 3)]),
    ("The same budget of 1000, counted in each unit",
     "budget_table(passage, 1000)" in CODE and course.BUDGET == 1000),
    ("the first 1000 cl100k tokens reach character 4721, while the first 1000 characters hold "
     "only 215 tokens: about 4.7 characters per token",
     (prefix_end(TOKENS, 1000), units_within(TOKENS, 1000), round(len(PASSAGE) / len(TOKENS), 1))
     == (4721, 215, 4.7)),
    ("it reads at most 256 word pieces (its `max_seq_length`), two of which are its markers "
     "`[CLS]` and `[SEP]`", (MINILM_MAX_SEQ_LENGTH, MINILM_SPECIAL_TOKENS) == (256, 2)),
    ("defaults to the model's `max_seq_length`, so a full chunk at the default is two word "
     "pieces longer than the model reads",  # LangChain strips [CLS] and [SEP] before counting
     len(_minilm().encode("runbook").ids) - len(wordpiece_spans("runbook")) == 2),
    ("But its training as a sentence encoder used inputs of at most 128 word pieces, so text "
     "between 128 and 256",
     TRAINED == 128),
    ("On the passage the model stops reading at character 1184", truncated_at(PASSAGE) == 1184),
    ("and the first 126 word pieces, the most the model was trained on (128 with `[CLS]` and "
     "`[SEP]`)", len(wordpiece_spans(PASSAGE[:CUT.trained_cut])) == TRAINED - 2 == 126),
    ("The model reads 254 of the passage's 1245 word pieces and stops at character 1184: the "
     "other 4573 characters never reach the vector",
     (CUT.read, CUT.pieces, CUT.cut, CUT.ignored) == (254, 1245, 1184, 4573)
     and CUT.cut + CUT.ignored == len(PASSAGE) and CUT.cut == truncated_at(PASSAGE)),
    ("the whole passage's vector against the vector of its first 1184 characters prints as "
     "1.00000. They are the same vector, up to rounding",
     f"{CUT.cosine_prefix:.5f}" == "1.00000" and abs(1 - CUT.cosine_prefix) < 1e-6),
    ("both times the model was given exactly the same 254 word pieces between `[CLS]` and "
     "`[SEP]`. It never sees what follows",
     CUT.prefix_pieces == CUT.read == PIECES_READ == 254
     and wordpiece_spans(PASSAGE[:CUT.cut]) == wordpiece_spans(PASSAGE)[:PIECES_READ]),
    ("stop one word piece earlier (at character 1180) and the cosine falls to 0.99987, a small "
     "change but a real one, far beyond rounding",
     CUT.one_less_cut == wordpiece_spans(PASSAGE)[PIECES_READ - 1][0] == 1180
     and f"{CUT.cosine_one_less:.5f}" == "0.99987"
     and 1 - CUT.cosine_one_less > 1000 * abs(1 - CUT.cosine_prefix)),
    ("The first 126 word pieces (up to character 595) give a cosine of 0.90064 with the whole, "
     "well below the other two",
     CUT.trained_cut == wordpiece_spans(PASSAGE)[TRAINED - 2][0] == 595
     and f"{CUT.cosine_trained:.5f}" == "0.90064"
     and CUT.cosine_trained < CUT.cosine_one_less < CUT.cosine_prefix),
    ("never showed it an input longer than 128 word pieces. Chunks within the training length "
     "are embedded the way the model was trained; chunks of up to 254 word pieces are embedded "
     "whole", TRAINED == 128 and PIECES_READ == 254),
    ("4 of the 5 chunks of 1400 characters overflow the model (all but the short last one): the "
     "end of each never reaches its vector",
     (overflowing("characters", 1400), len(windows("characters", 1400))) == (4, 5)),
    ("With 1000-character chunks every chunk is read to its end (the largest has 218 word "
     "pieces), though all 6 are longer than the 128 word pieces of the model's training",
     overflowing("characters", 1000) == 0 and largest("characters", 1000) == 218
     and over_trained("characters", 1000) == len(windows("characters", 1000)) == 6),
    ("With windows of 160 word-like units, 6 of the passage's 70 sentences and headings (as "
     "lesson 2's `split_sentences` finds them)",  # 7 headings end without . ! or ?
     (cut("words", 160), len(SENTENCES)) == (6, 70)
     and sum(not PASSAGE[s:e].endswith((".", "!", "?")) for s, e in SENTENCES) == 7),
    ("with `truncation=True` stops at 512 word pieces (its `model_max_length`, as many as it "
     "has position embeddings), and through its own `tokenizer.json` loaded as it is, at 128, "
     "both counting `[CLS]` and `[SEP]`",
     package_json("tokenizer_config.json").get("model_max_length")
     == package_json("config.json").get("max_position_embeddings") == course.MINILM_POSITIONS
     == 512 and len(Tokenizer.from_file(str(TOKENIZER_FILE)).encode(PASSAGE).ids) == 128
     and Tokenizer.from_file(str(TOKENIZER_FILE)).encode(PASSAGE).tokens[::127] == ["[CLS]",
                                                                                   "[SEP]"]
     and package_json("sentence_bert_config.json").get("max_seq_length") == 256),
    ("with windows of 30, 36", cut("words", 30) == 36),
    ("**Example 1**: the passage's N = 1204 word-like units, C = 200",
     course.part1_n("ex1") == len(unit_spans(PASSAGE)) == 1204),
    ("**Example 2**: N = 1000 units, C = 250. Careful: C divides N.",
     course.PART1["ex2"] == (1000, 250) and course.part1_last("ex2") == 250),
    ("**Example 3**: the passage's N = 5757 characters, C = 1500",
     course.part1_n("ex3") == len(PASSAGE) == 5757),
    ("**Example 4**: the passage's N = 1229 cl100k tokens, C = 2000, a window larger than the "
     "text", course.part1_n("ex4") == len(TOKENS) == 1229 < 2000),
    ("`[]` when `n` is zero; `ValueError` when `size` is zero or negative",
     fixed_windows(0, 1) == [] and raises(fixed_windows, 4, 0) and raises(fixed_windows, 4, -1)),
    ("gives two units (`cafe` and the lone accent), 👩‍💻 three (👩, the zero-width joiner, 💻), "
     "and an unspaced Japanese sentence two (the run of text, then its closing `。`)",
     (len(unit_spans(FACE)), len(unit_spans(TECHNOLOGIST)), len(unit_spans(KANJI + "。")))
     == (2, 3, 2)),
    ("cell of examples (1 point) and a cell of hidden tests with edge cases (2 points)",
     {c.metadata["nbgrader"]["points"] for c in NB.cells
      if c.metadata.get("nbgrader", {}).get("grade_id", "").startswith("test_")
      and c.metadata["nbgrader"]["grade_id"].endswith(("_examples", "_hidden"))} == {1, 2}),
    ("**Question 5.** Fixed windows of C = 300 units over a document of N = 1000 units",
     fixed_windows(1000, 300)[-1] == (900, 1000)),
    ("**D**: 0: a fourth window would be empty, so there are three.",
     len(fixed_windows(1000, 300)) == 4),
    ("**B**: About 333: the units are spread evenly",
     round(1000 / len(fixed_windows(1000, 300)[:-1])) == 333),
    ("**Question 1.** A team's budget is 1000 cl100k tokens per chunk, and its splitter is set "
     "to `chunk_size=1000`", units_within(TOKENS, 1000) < 1000),
    ("**Question 2.** A 1500-character chunk (the passage's first)",
     windows("characters", 1500)[0] == (0, 1500)),
    ("the first 254 of its 326 word pieces, characters 0 to 1184",
     truncated_at(PASSAGE[:1500]) == 1184 and len(wordpiece_spans(PASSAGE[:1500])) == 326),
    ("`len(word)` is 5 and `word[3]` is `'e'`", len(FACE) == 5 and FACE[3] == "e"),
    ("**Question 4.** A chunker cuts fixed windows of at most 10 characters",
     len(fixed_windows(len(TECHNOLOGIST * 4), 10)) == 2),
    ("set to 256, the same number as all-MiniLM-L6-v2's limit",
     overflowing("cl100k_tokens", 256) == 4),
    ("It cuts the lesson's passage into 5 chunks", len(windows("cl100k_tokens", 256)) == 5),
    ("No: 4 of the 5 are longer than the 254 word pieces the model reads",
     (overflowing("cl100k_tokens", 256), len(windows("cl100k_tokens", 256))) == (4, 5)),
]

QUIZ_CLAIMS = [
    ("well over two characters per cl100k token (4.7 on this passage)",
     f"{len(PASSAGE) / len(TOKENS):.1f}" == "4.7"),
    ("the first 1000 characters of the passage hold 215 tokens",
     units_within(TOKENS, 1000) == 215),
    ("the first chunk would run to character 4721", prefix_end(TOKENS, 1000) == 4721),
    ("256 word pieces with [CLS] and [SEP]", MINILM_MAX_SEQ_LENGTH == 256),
    ("nothing of the last 316 characters reaches the vector",
     1500 - truncated_at(PASSAGE[:1500]) == 316),
    ("this word is 6 bytes in UTF-8", len(FACE.encode()) == 6),
    ("a precomposed é (U+00E9) is one code point, and len('café') is then 4",
     unicodedata.normalize("NFC", FACE) == "caf\u00e9" and len("caf\u00e9") == 4),
    ("joins them into one é and a length of 4", len(unicodedata.normalize("NFC", FACE)) == 4),
    ("Python sees 12 code points: each 👩‍💻 is 👩, an invisible zero-width joiner (U+200D)",
     len(TECHNOLOGIST * 4) == 12 and unicodedata.name("\u200d") == "ZERO WIDTH JOINER"),
    ("the text is 44 bytes in UTF-8 but 12 code points",
     (len((TECHNOLOGIST * 4).encode()), len(TECHNOLOGIST * 4)) == (44, 12)),
    ("12 code points make windows (0, 10) and (10, 12), and offset 10 falls inside the fourth "
     "emoji", fixed_windows(len(TECHNOLOGIST * 4), 10) == [(0, 10), (10, 12)]
     and (TECHNOLOGIST * 4)[9:12] == TECHNOLOGIST),
    ("It reads one window of at most 256 positions", MINILM_MAX_SEQ_LENGTH == 256),
    ("K = ⌈1000 / 300⌉ = 4, and the last holds 1000 − 3·300",
     (len(fixed_windows(1000, 300)), 1000 - 3 * 300) == (4, 100)),
    ("Three windows end at 900 and miss the last 100 units; the fourth, (900, 1000), holds them",
     fixed_windows(1000, 300)[-1] == (900, 1000)),
    ("[CLS] and [SEP] take two of the 256 word pieces of its max_seq_length",
     MINILM_SPECIAL_TOKENS == 2 and MINILM_MAX_SEQ_LENGTH == 256),
    ("the first three chunks hold 300 each and the fourth what is left",
     [e - s for s, e in fixed_windows(1000, 300)][:3] == [300] * 3),
    ("a full chunk of 256 tokens holds 258 to 261 word pieces. That is the trouble, as only "
     "254 fit",
     [p for p, _ in minilm_reads(PASSAGE, windows("cl100k_tokens", 256))][:-1]
     == [259, 258, 261, 259] and PIECES_READ == 254),
    ("the last, shorter one is the only one that fits",
     [p <= PIECES_READ for p, _ in minilm_reads(PASSAGE, windows("cl100k_tokens", 256))]
     == [False] * 4 + [True]),
]

OPTION_CLAIMS = [  # the options' texts, by chunklib
    ("The text is four 👩‍💻 emoji (woman technologist) in a row",
     course.QUIZ_EMOJI == TECHNOLOGIST * 4),
    ("**B**: Five chunks, as it counts the text's 44 UTF-8 bytes",
     len(fixed_windows(len((TECHNOLOGIST * 4).encode()), 10)) == 5
     and len((TECHNOLOGIST * 4).encode()) == 44),
    ("**D**: Two chunks: the cut falls inside the fourth emoji",
     len(fixed_windows(len(TECHNOLOGIST * 4), 10)) == 2 and 3 * 3 < 10 < 3 * 4),
    ("**D**: 0: a fourth window would be empty, so there are three",
     len(fixed_windows(1000, 300)) == 4),
    ("100: the units left after three full chunks",
     [e - s for s, e in fixed_windows(1000, 300)] == [300, 300, 300, 100]),
]


@pytest.mark.parametrize("text, true", CLAIMS, ids=[c[0][:40] for c in CLAIMS])
def test_prose_claims(text, true):
    assert " ".join(text.split()) in PROSE and true


@pytest.mark.parametrize("text, true", QUIZ_CLAIMS, ids=[c[0][:40] for c in QUIZ_CLAIMS])
def test_quiz_explanations(text, true):
    assert text in QUIZ and true


@pytest.mark.parametrize("text, true", OPTION_CLAIMS, ids=[c[0][:40] for c in OPTION_CLAIMS])
def test_quiz_options(text, true):
    assert text in PROSE and true


# Numbers that are names, not figures: lesson and part numbers, code points, model names.
NAMES = [r"Lesson \d of 6", r"[Ll]essons? \d(?: and \d)?", r"Part \d", r"Example \d",
         r"Question \d", r"To do \d", r"\bq\d\b", r"U\+[0-9A-F]{4}", r"gpt-3\.5-turbo",
         r"GPT-4", r"text-embedding-3", r"cl100k", r"o200k", r"MiniLM-L6-v2", r"UTF-8", r"gpt2",
         r"\*\*Question \d\.\*\*"]


def numbers(text):
    for pattern in NAMES:
        text = re.sub(pattern, " ", text)
    return set(re.findall(r"(?<![\w.])\d+(?:\.\d+)?", text))


def test_every_number_in_the_lesson_is_pinned():
    pinned = set().union(*(numbers(t) for t, _ in CLAIMS + QUIZ_CLAIMS + OPTION_CLAIMS))
    stated = numbers(PROSE) | numbers(QUIZ)
    assert stated - pinned == set(), "numbers stated without a claim in this file"


def test_part1_answers_and_checks_are_chunklibs():
    for ex in course.PART1:
        n, size = course.part1_n(ex), course.PART1[ex][1]
        k, last = len(fixed_windows(n, size)), n - (len(fixed_windows(n, size)) - 1) * size
        assert (course.CHECKS[f"{ex}_k"].expected(), course.CHECKS[f"{ex}_last"].expected()) \
            == (k, last) == (course.part1_k(ex), course.part1_last(ex))
        assert f"{ex}_k = {k}\n### END SOLUTION" in CODE
        assert f"{ex}_last = {last}\n### END SOLUTION" in CODE
    assert [course.part1_k(ex) for ex in course.PART1] == [7, 4, 4, 1]
    assert [course.part1_last(ex) for ex in course.PART1] == [4, 250, 1257, 1229]


def test_part1_prompts_and_hints_state_chunklibs_numbers():
    # the To-do comments of the answer cells restate each example's N and C
    for number, ex in enumerate(course.PART1, start=1):
        n, size = course.part1_n(ex), course.PART1[ex][1]
        assert f": Example {number} (N = {n}, C = {size}): how many chunks K?" in CODE, ex
    # the Predict-first hint names the budget the question and the explorer use
    assert "C = 1000, and read where chunk 1 ends" in course.CHECKS["predict_reach"].hint
    slider = UnitsExplorer().size_slider  # and the explorer's slider can be set to it
    assert slider.min <= course.BUDGET <= slider.max and course.BUDGET % slider.step == 0
    assert course.CHECKS["predict_reach"].expected() == "C"  # near character 4700


def test_hidden_literals_match_chunklib():
    # the passage figures embedded in the hidden tests were computed at authoring time
    assert f"passage_sentences = {SENTENCES!r}" in CODE
    assert f"passage_windows = {windows('words', 200)!r}" in CODE
    assert f"assert _same(f(passage_sentences, passage_windows), {cut('words', 200)!r})" in CODE
    head = PASSAGE[:400]
    assert f"head = {head!r}" in CODE and repr(unit_spans(head)) in CODE


def test_demo_cells_call_chunklib():
    for call in ("units_explorer()", "unit_table(", "budget_table(passage, 1000)",
                 'truncation_table(passage, 1400, "characters")', "truncation_report(passage)"):
        assert call in CODE, call


def test_the_unicode_counts_are_figures():
    # the idea and "Units keep their offsets" render these counts (prose:idea, prose:offsets)
    fig = course.figures()
    assert f"print(unit_table({course.OFFSETS_DEMO!r}))" in CODE
    assert (course.SIREN, course.TECHNOLOGIST) == ("🚨", TECHNOLOGIST)
    at = course.OFFSETS_DEMO.index("🚨")
    assert [(s, e) for s, e in token_spans(course.OFFSETS_DEMO) if s <= at < e] \
        == [(13, 15), (14, 15), (14, 15)]
    assert (fig["unit_kinds_word"], fig["technologist_len_word"], fig["siren_tokens_word"],
            fig["siren_demo_tokens_word"], fig["siren_bytes_word"]) \
        == ("four", "three", "three", "three", "four")
    assert len(unit_table("x").splitlines()) == 1 + 4  # the text row and one row per unit kind
    for text in ("*Length function in this lesson:* four of them", "counted four ways",
                 "👩‍💻 is three", "🚨 takes three", "the three cl100k tokens that share the 🚨",
                 "its four UTF-8 bytes"):
        assert text in PROSE, text
