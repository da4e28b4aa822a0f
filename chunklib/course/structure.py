"""Lesson 4 (Structure, metadata and context): the hands-on self-checks and the quiz.

Expected values are computed with chunklib (the parser, the chunkers and ``intervals``) when a
check runs; the data the learner works on by hand (``OUTLINE``, ``SPANS``, ...) lives here too,
so the notebook's prompts and the checks cannot drift apart (a test compares them).

Leaves out: prose; the notebook ``notebooks/04-structure/structure.ipynb`` holds it.

    >>> CHECKS["ex_repeated"].expected()
    50
"""

from __future__ import annotations

import dataclasses

from chunklib.elements import heading_paths, parse_elements
from chunklib.fixture import load_source
from chunklib.intervals import duplication_ratio, total_length, union_length
from chunklib.quiz import Question
from chunklib.records import ChunkRecord
from chunklib.selfcheck import Check
from chunklib.structure import structure_chunks

# Part 1 data: an outline to read heading paths from (note the skipped level under "Failover
# steps"), three chunk spans that skip part of their source, and the renamed heading.
OUTLINE = """\
# Failover runbook
## Before failing over
### Check replication lag
#### Lag above five minutes
## Failover steps
#### Promote the standby
### Update DNS
## Verification
"""
PATH_A_TITLE = "Promote the standby"
PATH_B_TITLE = "Update DNS"
SPANS = [(0, 500), (450, 900), (960, 1200)]
SOURCE_LENGTH = 1250
RENAMED_FROM, RENAMED_TO = "## Environment Matrix\n", "## Environments\n"


def outline_path(title: str) -> tuple[str, ...]:
    """The heading path of the outline heading ``title``, by chunklib's parser.

    ``outline_path("Update DNS")[-1]`` -> 'Update DNS'
    """
    headings = [(e.level, e.heading_path[-1]) for e in parse_elements(OUTLINE)
                if e.kind == "heading"]
    (path,) = [p for p, (_level, t) in zip(heading_paths(headings), headings, strict=True)
               if t == title]
    return path


def production_row(text: str | None = None) -> ChunkRecord:
    """The structure-aware chunk of the row ``production | 4 | SRE`` (of ``text`` if given).

    ``production_row().text`` -> 'production | 4 | SRE'
    """
    guide = load_source("deployment-guide")
    if text is not None:
        guide = dataclasses.replace(guide, text=text)
    (row,) = [c for c in structure_chunks(guide)
              if c.kind == "table" and c.text.startswith("production |")]
    return row


def citable_options() -> dict[str, str]:
    """The two texts Part 1 shows: A is what search sees, B the source slice.

    ``citable_options()["B"]`` -> 'production | 4 | SRE'
    """
    row = production_row()
    return {"A": row.retrieval_text, "B": row.text}


def citable_letter() -> str:
    """The option that is exactly the source's own characters at the row's span."""
    row, guide = production_row(), load_source("deployment-guide")
    (letter,) = [k for k, v in citable_options().items() if v == guide.text[row.start:row.end]]
    return letter


def hash_change_after_rename() -> str:
    """Which of the row's hashes change when its section heading is renamed, by rebuilding.

    ``hash_change_after_rename()`` -> 'retrieval'
    """
    guide = load_source("deployment-guide")
    assert guide.text.count(RENAMED_FROM) == 1
    old, new = production_row(), production_row(guide.text.replace(RENAMED_FROM, RENAMED_TO))
    changed = (old.content_sha256 != new.content_sha256,
               old.retrieval_sha256 != new.retrieval_sha256)
    return {(False, False): "neither", (True, False): "content", (False, True): "retrieval",
            (True, True): "both"}[changed]


def structure_repeated() -> int:
    """Characters the structure-aware chunks of the guide store twice: Σ lengths − union."""
    spans = [(c.start, c.end) for c in structure_chunks(load_source("deployment-guide"))]
    return total_length(spans) - union_length(spans)


_PATH = ("Walk back up the outline: the parent is the nearest heading above with a smaller "
         "level, whatever its level is. Write a tuple of the titles, top level first.")
_REPEATED = ("Add up the three lengths, then subtract the length of their union, the characters "
             "some chunk holds.")
_RATIO = "Divide the characters stored twice by the length of the whole source."
_SEED = "Add up the three chunk lengths, then subtract the source length, exactly as written."
_CITABLE = ("A citation must quote characters that stand in the source at the chunk's span; "
            "write \"A\" or \"B\".")
_HASH = ("Which of the two texts contains the heading? Write one of \"content\", "
         "\"retrieval\", \"both\" or \"neither\".")

CHECKS = {
    "predict_repeated": Check(structure_repeated,
                              "Only the long paragraph is cut: into windows of 1000 characters "
                              "that overlap by 100. Count its windows, then the stretches "
                              "two windows share. Nothing else is repeated."),
    "ex_path_a": Check(lambda: outline_path(PATH_A_TITLE), _PATH),
    "ex_path_b": Check(lambda: outline_path(PATH_B_TITLE), _PATH),
    "ex_repeated": Check(lambda: total_length(SPANS) - union_length(SPANS), _REPEATED),
    "ex_ratio": Check(lambda: duplication_ratio(SPANS, SOURCE_LENGTH), _RATIO),
    "ex_seed_d": Check(lambda: total_length(SPANS) - SOURCE_LENGTH, _SEED),
    "ex_citable": Check(citable_letter, _CITABLE),
    "ex_hash": Check(hash_change_after_rename, _HASH),
}

QUIZ = [
    Question(
        "To help search, a pipeline writes the heading path and the table header into each "
        "table row's `text`, the field that citations quote. What goes wrong?",
        {
            "A": ("Nothing: the heading is part of the document anyway.",
                  "The heading is in the document, but not at the row's span: quoted as the "
                  "row's own words, it makes the source say something where it does not."),
            "B": ("Only storage: each chunk gets a few characters longer.",
                  "Storage is the small cost. The citation now passes derived context off as "
                  "the source's text, and `text` no longer equals `source[start:end]`."),
            "C": ("A citation now quotes words that do not stand at the row's span; the context "
                  "belongs in `retrieval_text`, and `text` stays the exact source slice.",
                  "a citation must be checkable against the source. Search gets the context "
                  "through `retrieval_text`; the heading and the header row keep their own spans "
                  "and can be cited from there."),
            "D": ("Search gets worse, because headings add noise.",
                  "The heading path usually helps search: the bare row does not say that 4 is "
                  "a replica count. The mistake is where it is written, not that it is added."),
        },
        "C",
    ),
    Question(
        "Both strategies chunk the Deployment Guide with a budget of 1000 characters and an "
        "overlap of 100. A colleague estimates the duplication of each as overlap / size, 10 %. "
        "What does chunklib measure?",
        {
            "A": ("About 10 % for both, as estimated.",
                  "overlap / size assumes that every chunk boundary repeats O characters. The "
                  "structure-aware strategy repeats text only inside an element it had to "
                  "hard-split."),
            "B": ("0.0048 for the structure-aware chunks and 0.1093 for the fixed windows.",
                  "one paragraph, 1596 characters long, is the only element over budget, so "
                  "100 characters are stored twice. The 24 windows repeat 100 characters at each "
                  "of their 23 joins: 2300, more than 10 % because each window brings only "
                  "1000 − 100 = 900 new characters."),
            "C": ("0 for the structure-aware chunks: sections never overlap.",
                  "Sections do not overlap, but an element longer than the budget is cut into "
                  "overlapping pieces, and the guide has one."),
            "D": ("Less than 10 % for the windows, because the last window is short.",
                  "A short last window lowers the total a little, but every window adds only "
                  "900 new characters, so the repeated share is close to 100 / 900, above 10 %."),
        },
        "B",
    ),
    Question(
        "An index stores one hash per chunk, `content_sha256` of `text`, and re-embeds a chunk "
        "only when that hash changes. The heading 'Environment Matrix' is renamed to "
        "'Environments'. What happens to the vector of the row `production | 4 | SRE`?",
        {
            "A": ("It is re-embedded, because the row's heading path changed.",
                  "Nothing tells this index so: the row's text is unchanged, so is its content "
                  "hash, and the index re-embeds only on a content change."),
            "B": ("Nothing needs to happen: the row's text is unchanged.",
                  "The citable text is unchanged, but the vector was computed from the "
                  "retrieval text, whose heading path line is now out of date."),
            "C": ("The row gets a new chunk id, so its old vector is dropped.",
                  "chunklib derives the chunk id from the content, not from the heading path: "
                  "renaming a heading keeps every body chunk's id (lesson 5)."),
            "D": ("It goes stale: it was embedded from the retrieval text, whose hash changed; "
                  "store `retrieval_sha256` apart and re-embed when it changes.",
                  "the two hashes answer two questions: `content_sha256` whether the citable "
                  "text changed, `retrieval_sha256` whether the input of the vector did."),
        },
        "D",
    ),
    Question(
        "A fixed window covers the end of 'Before you begin' (readable by the group employees) "
        "and the start of 'Environment Matrix' (readable by sre only). Which groups may the "
        "window be shown to?",
        {
            "A": ("Only groups that may read both sections; here no group, so nobody.",
                  "a reader may see the window only if every part of it is allowed, so the "
                  "window gets the groups the sections share: none. Fail-closed, it is "
                  "readable by nobody, like 6 of the guide's 24 windows; section chunks never "
                  "mix two ACLs."),
            "B": ("employees or sre: the groups of both sections.",
                  "Then every employee reads the start of the SRE-only Environment Matrix "
                  "through this window."),
            "C": ("employees: the section where the window starts.",
                  "Then the part of the window that comes from the SRE-only section leaks to "
                  "every employee."),
            "D": ("Whichever section fills most of the window.",
                  "The smaller part would still leak: a permission is not decided by majority."),
        },
        "A",
    ),
    Question(
        "A semantic splitter is configured with `buffer_size=1`. What does that setting do?",
        {
            "A": ("Each chunk repeats the last sentence of the previous chunk.",
                  "No sentence is repeated between the chunks; the setting only changes what "
                  "is compared when the splitter looks for break points."),
            "B": ("To compare neighbouring sentences, it embeds each one together with one "
                  "sentence on either side; the chunks do not overlap.",
                  "`buffer_size` groups sentences for the similarity test that finds the break "
                  "points. It is not overlap: every sentence ends up in exactly one chunk."),
            "C": ("It reserves room for one more sentence in every chunk.",
                  "It has nothing to do with the budget: it smooths the comparison, it does "
                  "not size the chunks."),
            "D": ("It limits every chunk to one sentence.",
                  "A chunk holds every sentence between two break points, however many."),
        },
        "B",
    ),
    Question(
        "A language model writes one sentence of context for each chunk, e.g. 'This row is from "
        "the Environment Matrix of Harbor's Deployment Guide.' Where does it belong?",
        {
            "A": ("In `text`, in front of the chunk, so every consumer sees it.",
                  "Then citations quote model-written words as if the source had said them."),
            "B": ("Nowhere: generated text must never reach an index.",
                  "Generated context can help search; the rule is to keep it apart and "
                  "traceable, not to forbid it."),
            "C": ("In `retrieval_text` (or a field of its own), with the model and prompt "
                  "versions recorded, the original `text` kept, and a new `retrieval_sha256` so "
                  "the vector is rebuilt.",
                  "generated context is derived data: you must know which model and prompt "
                  "wrote it, be able to rebuild it, and cite only the source."),
            "D": ("In `text`, with a new `content_sha256` to record the change.",
                  "A new hash records the change but does not undo it: the citable text would "
                  "still hold words the source does not."),
        },
        "C",
    ),
]
