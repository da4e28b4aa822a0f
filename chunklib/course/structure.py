"""Lesson 4 (Structure, metadata and context): the hands-on self-checks and the quiz.

Expected values are computed with chunklib (the parser, the chunkers and ``intervals``) when a
check runs; the data the learner works on by hand (``OUTLINE``, ``SPANS``, ...) lives here too,
so the notebook's prompts and the checks cannot drift apart (a test compares them).

Leaves out: prose; the templates ``notebooks/04-structure/prose/*.md`` hold it, rendered with
``figures()`` by ``tools/sync_prose.py``.

    >>> CHECKS["ex_repeated"].expected()
    50
"""

from __future__ import annotations

import dataclasses
import hashlib

from chunklib.course import POINTS
from chunklib.course.fixture import load_source
from chunklib.course.quiz import Question
from chunklib.course.selfcheck import Check
from chunklib.course.words import WORDS as _WORDS
from chunklib.elements import heading_paths, parse_elements
from chunklib.intervals import duplication_ratio, total_length, union_length
from chunklib.records import ChunkRecord
from chunklib.structure import DEFAULT_OVERLAP, DEFAULT_SIZE, structure_chunks

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
#: The smaller budget "Things to try" sets in the explorer.
SMALL_SIZE = 400
#: Quiz question 5: the semantic splitter's `buffer_size` setting.
QUIZ_BUFFER_SIZE = 1


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


# A table written without spaces around its bars: same cells, other characters (figures()).
TIGHT_TABLE = "| Environment | Replica count | Approval |\n|---|---|---|\n|production|4|SRE|\n"


def figures() -> dict[str, object]:
    """Every number lesson 4's Markdown states, computed with chunklib: name -> value, rendered
    into the prose templates ``notebooks/04-structure/prose/*.md`` by ``tools/sync_prose.py``.

    ``figures()["mixed_windows"]`` -> 6
    """
    from chunklib.course.fixture import load_sources
    from chunklib.structure import (
        acl_runs,
        acl_window_chunks,
        duplication,
        fixture_duplication,
        window_chunks,
    )
    from chunklib.tokens import (
        MINILM_MAX_SEQ_LENGTH,
        MINILM_SPECIAL_TOKENS,
        minilm_trained_length,
        wordpiece_count,
    )

    guide = load_source("deployment-guide")
    sources = load_sources()
    n = len(guide.text)
    elements = parse_elements(guide.text)
    chunks, windows = structure_chunks(guide), window_chunks(guide)
    cut = acl_window_chunks(guide)
    mixed = [w for w in windows if w.acl_parts is not None]
    oversized_all = [e for e in elements
                     if e.kind not in ("heading", "table") and e.end - e.start > DEFAULT_SIZE]
    (oversized,) = oversized_all
    split = [c for c in chunks if oversized.start <= c.start and c.end <= oversized.end]
    row = production_row()
    table = next(e for e in elements if e.kind == "table")
    (tight,) = [e for e in parse_elements(TIGHT_TABLE) if e.kind == "table"]
    (tight_row,) = tight.rows
    chunk_spans = [(c.start, c.end) for c in chunks]
    window_spans = [(w.start, w.end) for w in windows]
    positions = [wordpiece_count(c.retrieval_text) + MINILM_SPECIAL_TOKENS for c in chunks]
    trained = minilm_trained_length()
    longest = max(range(len(chunks)), key=lambda i: positions[i])
    texts = citable_options()
    # the row's ACL, and the one it gets when its heading is renamed and the rule is not
    (row_group,) = row.acl
    (renamed_group,) = production_row(guide.text.replace(RENAMED_FROM, RENAMED_TO)).acl
    return {
        "size": DEFAULT_SIZE, "overlap": DEFAULT_OVERLAP, "small_size": SMALL_SIZE,
        "guide_chars": n, "oversized_chars": oversized.end - oversized.start,
        "oversized_word": _WORDS[len(oversized_all)],
        "oversized_word_cap": _WORDS[len(oversized_all)].capitalize(),
        "fixture_sources_word": _WORDS[len(sources)],
        "fixture_structure_duplication": fixture_duplication(sources, structure_chunks),
        "fixture_window_duplication": fixture_duplication(sources, window_chunks),
        "context_lines_word": _WORDS[row.retrieval_text.count("\n") - row.text.count("\n")],
        "row_number": row.ordinal + 1, "row_ordinal": row.ordinal,
        "row_chars": len(row.text), "row_text": row.text,
        "row_replicas": row.text.split(" | ")[1],
        "split_numbers": tuple(c.ordinal + 1 for c in split),
        "split_shared": split[0].end - split[1].start,
        "structure_chunks": len(chunks),
        "structure_duplication": duplication(chunks, n),
        "window_duplication": duplication(windows, n),
        "structure_duplication_small": duplication(
            structure_chunks(guide, SMALL_SIZE, DEFAULT_OVERLAP), n),
        "window_duplication_small": duplication(
            window_chunks(guide, SMALL_SIZE, DEFAULT_OVERLAP), n),
        "naive_percent": round(100 * DEFAULT_OVERLAP / DEFAULT_SIZE),
        "naive_ratio": DEFAULT_OVERLAP / DEFAULT_SIZE,
        "structure_stored_share": (total_length(chunk_spans) - union_length(chunk_spans))
        / total_length(chunk_spans),
        "window_stored_share": (total_length(window_spans) - union_length(window_spans))
        / total_length(window_spans),
        "window_total_chars": total_length(window_spans),
        "structure_repeated": total_length(chunk_spans) - union_length(chunk_spans),
        "structure_total_chars": total_length(chunk_spans),
        "structure_shortfall_chars": n - total_length(chunk_spans),
        "structure_uncovered_chars": n - union_length(chunk_spans),
        "structure_heading_chars": sum(e.end - e.start for e in elements if e.kind == "heading"),
        "windows": len(windows), "window_joins": len(windows) - 1,
        "window_repeated": total_length(window_spans) - union_length(window_spans),
        "window_new_chars": DEFAULT_SIZE - DEFAULT_OVERLAP,
        "mixed_windows": len(mixed), "mixed_parts": mixed[0].acl_parts,
        "mixed_first_span": (mixed[0].start, mixed[0].end),
        "acl_cut_windows": len(cut), "acl_cut_duplication": duplication(cut, n),
        "acl_runs": len(acl_runs(guide)),
        "table_rows": len(table.rows),
        "tight_row_line": TIGHT_TABLE.splitlines()[-1],
        "tight_row_slice": TIGHT_TABLE[slice(*tight_row.cells_span)],
        "tight_row_join": " | ".join(tight_row.cells),
        "minilm_positions": MINILM_MAX_SEQ_LENGTH, "minilm_trained_positions": trained,
        "row_text_pieces": wordpiece_count(row.text),
        "row_retrieval_pieces": wordpiece_count(row.retrieval_text),
        "longest_retrieval_pieces": positions[longest] - MINILM_SPECIAL_TOKENS,
        "longest_text_pieces": wordpiece_count(chunks[longest].text),
        "longest_number": chunks[longest].ordinal + 1,
        "longest_ordinal": chunks[longest].ordinal,
        "retrieval_over_trained": sum(p > trained for p in positions),
        "source_length": SOURCE_LENGTH, "spans": ", ".join(map(str, SPANS)),
        "spans_word": _WORDS[len(SPANS)],
        "gap_start": SPANS[1][1], "gap_end": SPANS[2][0],
        "footer_chars": SOURCE_LENGTH - SPANS[-1][1],
        "citable_a": texts["A"], "citable_b": texts["B"],
        "row_group": row_group, "renamed_group": renamed_group,
        "no_duplication": 0, "buffer_size": QUIZ_BUFFER_SIZE,
        "sha256_hex_digits": len(hashlib.sha256().hexdigest()),
        "examples_points": POINTS["examples"], "hidden_points": POINTS["hidden"],
    }


_PATH = ("Walk back up the outline: the parent is the nearest heading above with a smaller "
         "level, whatever its level is. Write a tuple of the titles, top level first.")
_REPEATED = (f"Add up the {_WORDS[len(SPANS)]} lengths, then subtract the length of their union, "
             "the characters some chunk holds.")
_RATIO = "Divide the characters stored twice by the length of the whole source."
_SEED = (f"Add up the {_WORDS[len(SPANS)]} chunk lengths, then subtract the source length, "
         "exactly as written.")
_CITABLE = ("A citation must quote characters that stand in the source at the chunk's span; "
            "write \"A\" or \"B\".")
_HASH = ("`content_sha256` is the hash of the citable text and `retrieval_sha256` the hash "
         "of what the embedding model reads (see the chapter context). Which of text A and "
         "text B contains the section's title, the words that are renamed? Write one of "
         "\"content\", \"retrieval\", \"both\" or \"neither\".")

CHECKS = {
    "predict_repeated": Check(structure_repeated,
                              "Only the long paragraph is cut: into windows of "
                              f"{DEFAULT_SIZE} characters that overlap by {DEFAULT_OVERLAP}. "
                              "Count its windows, then the stretches two windows share. Nothing "
                              "else is repeated."),
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
            "C": ("Citations now quote words that do not stand at the row's span.",
                  "A citation must be checkable against the source, so `text` stays the exact "
                  "source slice and the context belongs in `retrieval_text`. Search gets the "
                  "context from there; the heading and the header row keep their own spans and "
                  "can be cited from there."),
            "D": ("Search gets worse, because the headings add noise to rows.",
                  "The heading path usually helps search: the bare row does not say that "
                  "{row_replicas} is a replica count. The mistake is where it is written, not "
                  "that it is added."),
        },
        "C",
    ),
    Question(
        "Both strategies chunk the Deployment Guide with a budget of {size} characters and an "
        "overlap of {overlap}. A colleague estimates the duplication ratio of each as overlap / "
        "size, {naive_percent} %. What does chunklib measure?",
        {
            "A": ("{structure_duplication:.4f} for the structure-aware chunks and "
                  "{window_duplication:.4f} for the fixed windows.",
                  "{oversized_word_cap} paragraph, {oversized_chars} characters long, is the only "
                  "element over budget, so {structure_repeated} characters are stored twice. The "
                  "{windows} windows repeat {overlap} characters at each of their "
                  "{window_joins} joins: {window_repeated}, more than {naive_percent} % "
                  "because each window brings only {size} − {overlap} = {window_new_chars} new "
                  "characters."),
            "B": ("{naive_ratio:.4f} for both, just as overlap / size estimates.",
                  "The estimate overlap / size assumes that every chunk boundary repeats O "
                  "characters. The structure-aware strategy repeats text only inside an element "
                  "it had to hard-split, and each window brings only {window_new_chars} new "
                  "characters, so the windows repeat more than {naive_percent} %."),
            "C": ("{no_duplication:.4f} for the structure-aware chunks, since sections never "
                  "overlap, and {naive_ratio:.4f} for the windows.",
                  "Sections do not overlap, but an element longer than the budget is cut into "
                  "overlapping pieces, and the guide has {oversized_word}."),
            "D": ("{structure_stored_share:.4f} for the structure-aware chunks and "
                  "{window_stored_share:.4f} for the fixed windows.",
                  "These divide the repeated characters by all the characters each strategy "
                  "stores ({structure_total_chars:,} and {window_total_chars:,}). The "
                  "duplication ratio divides them by the length of the source, the guide's "
                  "{guide_chars:,} characters."),
        },
        "A",
    ),
    Question(
        "An index stores one hash per chunk, `content_sha256` of `text`, and re-embeds a chunk "
        "only when that hash changes. The heading 'Environment Matrix' is renamed to "
        "'Environments'. What happens to the vector of the row `{row_text}`?",
        {
            "A": ("It is re-embedded, because the row's heading path changed.",
                  "Nothing tells this index so: the row's text is unchanged, so is its content "
                  "hash, and the index re-embeds only on a content change."),
            "B": ("Nothing needs to happen: the row's text is unchanged.",
                  "The citable text is unchanged, but the vector was computed from the "
                  "retrieval text, whose heading path line is now out of date."),
            "C": ("The row gets a new chunk id, so its old vector is dropped.",
                  "In chunklib the chunk id comes from the content, not from the heading path: "
                  "renaming a heading keeps every body chunk's id (lesson 5)."),
            "D": ("It stays, though it no longer matches the retrieval text.",
                  "The vector was embedded from the retrieval text, whose heading path line "
                  "changed, but this index watches only the content hash. The two hashes answer "
                  "two questions: `content_sha256` whether the citable text changed, "
                  "`retrieval_sha256` whether the input of the vector did. Store both and "
                  "re-embed when the second changes."),
        },
        "D",
    ),
    Question(
        "A fixed window covers the end of 'Before you begin' (readable by the group employees) "
        "and the start of 'Environment Matrix' (readable by sre only). Which groups may the "
        "window be shown to?",
        {
            "A": ("Only to readers whom each of the two sections allows.",
                  "A reader may see the window only if every part of it is allowed: the window "
                  "carries both sections' ACLs, all of them, so a reader in employees and in sre "
                  "may read it and nobody else. It never gets the intersection of the group lists "
                  "(empty here), which would refuse even that reader. Like {mixed_windows} of the "
                  "guide's {windows} windows it mixes two ACLs; section chunks never do."),
            "B": ("employees or sre: the groups of both sections.",
                  "Then every employee reads the start of the SRE-only Environment Matrix "
                  "through this window."),
            "C": ("employees: the section where the window starts.",
                  "Then the part of the window that comes from the SRE-only section leaks to "
                  "every employee."),
            "D": ("Whichever section's groups fill the larger part of the window.",
                  "The smaller part would still leak: a permission is not decided by majority."),
        },
        "A",
    ),
    Question(
        "A semantic splitter is configured with `buffer_size={buffer_size}`. What does that "
        "setting do?",
        {
            "A": ("Each chunk repeats the last sentence of the previous chunk.",
                  "No sentence is repeated between the chunks; the setting only changes what "
                  "is compared when the splitter looks for break points."),
            "B": ("It embeds each sentence with one neighbour on either side.",
                  "To find break points the splitter compares neighbouring sentences, each "
                  "embedded together with one sentence on either side. It is not overlap: every "
                  "sentence ends up in exactly one chunk."),
            "C": ("It reserves room for one more sentence in every chunk.",
                  "It has nothing to do with the budget: it smooths the comparison, it does "
                  "not size the chunks."),
            "D": ("It caps every chunk at one sentence, the smallest unit.",
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
            "C": ("In `retrieval_text`, with the model and prompt recorded.",
                  "Generated context is derived data: keep the original `text` for citations, "
                  "record which model and prompt versions wrote the context so that it can be "
                  "rebuilt, and give the chunk a new `retrieval_sha256` so that its vector is "
                  "rebuilt too."),
            "D": ("In `text`, with a new `content_sha256` to record the change.",
                  "A new hash records the change but does not undo it: the citable text would "
                  "still hold words the source does not."),
        },
        "C",
    ),
]
