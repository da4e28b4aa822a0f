"""Lesson 5 (Identity, permissions and lifecycle): Part 1 data, self-checks and the quiz.

The Part 1 tables (``PART1_CHUNKS`` for search, ``PLAN_OLD`` and ``PLAN_NEW`` for the update
plan) live here, so the notebook shows them and the checks compute their answers from the same
data with ``chunklib.access`` and ``chunklib.lifecycle``. ``ordinal_ids_moved`` counts, on a
document of one-paragraph chunks, how many existing chunks get another id when a paragraph is
inserted, with ids made of source_id + ordinal and with the course's content-derived ids.

``figures()`` computes every number the lesson's Markdown states, replaying the notebook's
index cells and the explorer's edits with the real embedder (its vectors from the store the
course ships); ``tools/sync_prose.py`` renders the templates in
``notebooks/05-lifecycle/prose/`` with it.

Leaves out: prose; the notebook ``notebooks/05-lifecycle/lifecycle.ipynb`` and its templates
hold it.

    >>> CHECKS["ordinal_moved"].expected()
    7
"""

from __future__ import annotations

import dataclasses

from chunklib.access import authorized, search
from chunklib.course import POINTS
from chunklib.course.edits import MATRIX, QUERY, make_edit
from chunklib.course.fixture import load_source, load_sources
from chunklib.course.quiz import Question
from chunklib.course.selfcheck import Check
from chunklib.course.words import ORDINALS as _ORDINALS
from chunklib.course.words import WORDS as _WORDS
from chunklib.course.words import and_list as _listed
from chunklib.documents import Source
from chunklib.elements import parse_elements
from chunklib.identity import H
from chunklib.index import INDEX_REVISION, ChunkIndex
from chunklib.lifecycle import plan_update, rename_heading, update
from chunklib.structure import DEFAULT_SIZE, structure_chunks
from chunklib.vectors import MiniLMEmbedder

#: The section of the explorer's third and fourth things to try.
OVERVIEW = ("Deployment Guide", "Overview")
#: The renamed heading of the Predict-first question.
RENAMED = "Environments and replicas"
#: The chunks of the Part 1 search (short ids and texts, so it can be done by hand).
PART1_CHUNKS = [
    {"chunk_id": "c1", "tenant_id": "kestrel", "acl": ["sre"],
     "retrieval_text": "Environment Matrix: production | 4 | SRE"},
    {"chunk_id": "c2", "tenant_id": "kestrel", "acl": ["employees", "sre"],
     "retrieval_text": "Rolling back staging: any engineer may roll back staging"},
    {"chunk_id": "c3", "tenant_id": "kestrel", "acl": None,
     "retrieval_text": "March drill: the production traffic shift took eleven minutes"},
    {"chunk_id": "c4", "tenant_id": "kestrel", "acl": ["employees"],
     "retrieval_text": "FAQ: production deploys are run by the SRE on duty"},
    {"chunk_id": "c5", "tenant_id": "fernhill", "acl": ["employees"],
     "retrieval_text": "Fernhill production runs 6 replicas"},
    {"chunk_id": "c6", "tenant_id": "kestrel", "acl": ["employees"],
     "retrieval_text": "Replica counts live in the Environment Matrix"},
]
PART1_QUERY = ("production replica count", "kestrel", ["employees"], 1)
#: The Part 1 update: the published chunks and the candidates of the new revision.
PLAN_OLD = [{"chunk_id": "a", "retrieval_sha256": "r1", "acl": ["employees"]},
            {"chunk_id": "b", "retrieval_sha256": "r2", "acl": ["sre"]},
            {"chunk_id": "c", "retrieval_sha256": "r3", "acl": ["sre"]},
            {"chunk_id": "d", "retrieval_sha256": "r4", "acl": ["employees"]},
            {"chunk_id": "e", "retrieval_sha256": "r5", "acl": ["employees", "sre"]}]
PLAN_NEW = [{"chunk_id": "a", "retrieval_sha256": "r1", "acl": ["employees"]},
            {"chunk_id": "b", "retrieval_sha256": "r2*", "acl": ["sre"]},
            {"chunk_id": "c", "retrieval_sha256": "r3", "acl": ["employees", "sre"]},
            {"chunk_id": "e", "retrieval_sha256": "r5*", "acl": ["sre"]},
            {"chunk_id": "f", "retrieval_sha256": "r6", "acl": ["employees"]}]
#: The hard-split element of Part 1 and the window asked about.
SPLIT_SECTION = ("Deployment Guide", "Deploying to production", "Change windows and freezes")


#: The ordinal-id example of the chapter context: (chunks in the document, ordinal inserted at).
ORDINAL_EXAMPLE = (40, 2)
#: The ordinal-id example of Part 1 (to dos 2 and 3), in the same form.
PART1_ORDINAL = (10, 3)
#: Quiz question 3: the top k kept before the ACL filter, and how many of them it removes.
QUIZ_TOP_K, QUIZ_REMOVED = 5, 4
#: The embedder call at which the notebook's failing build dies, and the build's batch size.
FAIL_CALL, FAIL_BATCH = 3, 8


def _notebook_replay() -> dict[str, object]:
    """The notebook's index cells, run again: build, score, rename, a failed build, delete."""
    index, embedder = ChunkIndex(), MiniLMEmbedder()
    first = update(index, load_sources(), embedder)
    first_calls, first_computed = embedder.calls, embedder.computed
    seen = []
    index.search("production replica count", "kestrel", ["employees"], k=5,
                 score=lambda query, chunk: seen.append(chunk) or 1)
    guide = load_source("deployment-guide")
    renamed = update(index, [rename_heading(guide, MATRIX, RENAMED)], embedder)

    at_fail = {}

    def down(call):
        if call == FAIL_CALL:  # what the failing batch has written so far, not yet committed
            at_fail.update(_counts(index, "state = 'building'"))
            raise RuntimeError("the embedding service is down")

    retitled = rename_heading(guide, MATRIX[:1], "Harbor " + MATRIX[0])
    try:
        update(index, [retitled], MiniLMEmbedder(hook=down), batch=FAIL_BATCH)
    except RuntimeError:
        pass
    (failed,) = [g for g, state in index.generations().items() if state == "failed"]
    written = [c.source_id for c in index.chunks(failed)]
    carried = [c.source_id for c in index.chunks() if c.source_id != guide.source_id]
    after = _counts(index, f"generation = {failed}")
    undone = {"rows": at_fail["rows"] - after["rows"],
              "vectors": at_fail["vectors"] - after["vectors"]}
    published = index.published()
    rolled_back = index.rollback()
    deleted = update(index, [], embedder, deleted=["deploy-faq"])
    stored = len(index.chunks(first.generation))
    holding = [g for g in index.generations()
               if any(c.source_id == "deploy-faq" for c in index.chunks(g))]
    purged = index.purge("deploy-faq")
    return {"first": first, "scored": len(seen), "renamed": renamed, "failed": failed,
            "published": published, "faq_entries": len(deleted.plan["tombstone"]),
            "rolled_back": rolled_back,
            "written": written, "carried": carried, "undone": undone,
            "purged": purged, "purge_generations": holding,
            "stored": stored, "first_calls": first_calls,
            "first_computed": first_computed}


def _explorer(edit: str, section: tuple[str, ...] = MATRIX):
    """The plan and vector count of one explorer edit, built as a shadow of generation 1."""
    index, embedder = ChunkIndex(), MiniLMEmbedder()
    sources = load_sources()
    update(index, sources, embedder)
    edited, deleted, _ = make_edit(sources, edit, section)
    return update(index, edited, embedder, deleted=deleted, publish=False)


def figures() -> dict[str, object]:
    """Every number lesson 5's Markdown states, computed with chunklib.

    ``figures()["section_chunks"]`` -> 6
    """
    section, _kept = renamed_section_ids()
    guide = load_source("deployment-guide")
    matrix = [c for c in structure_chunks(guide) if c.heading_path[:2] == MATRIX]
    replay = _notebook_replay()
    rename, acl = _explorer("rename the heading"), _explorer("change the section's ACL")
    insert = _explorer("insert a paragraph", OVERVIEW)
    removed = _explorer("remove the section's ACL", OVERVIEW)
    gone, top = _explorer("delete the source"), _explorer("rename the heading", MATRIX[:1])
    doc, at = ORDINAL_EXAMPLE
    first, renamed = replay["first"], replay["renamed"]
    return {
        "size": DEFAULT_SIZE, "section_chunks": section, "section_chunks_word": _WORDS[section],
        "matrix_paragraphs": _WORDS[sum(c.kind == "paragraph" for c in matrix)],
        "matrix_rows": _WORDS[sum(c.kind == "table" for c in matrix)],
        "first_generation": first.generation, "query": QUERY, "index_revision": INDEX_REVISION,
        "shadow_generation": rename.generation,
        "rename_ids": len(rename.plan["add"]), "rename_entries": len(rename.plan["reembed"]),
        "rename_vectors": rename.embedded,
        "acl_entries": len(acl.plan["reindex"]), "acl_vectors": acl.embedded,
        "insert_new": len(insert.plan["add"]), "insert_gone": len(insert.plan["tombstone"]),
        "remove_refused": len(removed.plan["tombstone"]),
        "guide_chunks": len(gone.plan["tombstone"]), "top_vectors": len(top.plan["reembed"]),
        "ordinal_doc": doc, "ordinal_word": _ORDINALS[at],
        "ordinal_moved": ordinal_ids_moved(doc, at)[0],
        "ordinal_at": at, "ordinal_chunk": at + 1, "ordinal_next": at + 1,
        "quiz_k": QUIZ_TOP_K, "quiz_removed": QUIZ_REMOVED, "quiz_next_rank": QUIZ_TOP_K + 1,
        "quiz_left_word": _WORDS[QUIZ_TOP_K - QUIZ_REMOVED],
        "ordinal_successor": ordinal_ids_moved(doc, at)[0] - 1,
        "fixture_chunks": replay["stored"], "fixture_entries": first.entries,
        "fixture_calls": replay["first_calls"], "fixture_computed": replay["first_computed"],
        "scored": replay["scored"],
        "renamed_generation": renamed.generation,
        "renamed_reembedded": len(renamed.plan["reembed"]),
        "renamed_kept": len(renamed.plan["keep"]), "renamed_calls": renamed.embedded,
        "fail_call": _ORDINALS[FAIL_CALL - 1], "failed_generation": replay["failed"],
        "still_published": replay["published"], "faq_entries": replay["faq_entries"],
        "rolled_back": replay["rolled_back"], "fallback_acl": ", ".join(stale_rule_fallback()),
        **_failed_rows(replay["written"], replay["carried"], replay["undone"]),
        "purged": replay["purged"], "purge_generations": _listed(replay["purge_generations"]),
        **_part_intros(),
    }


def _counts(index: ChunkIndex, which: str) -> dict[str, int]:
    """The chunk rows of the generation ``which`` selects and the vectors table's rows."""
    sql = f"SELECT count(*) FROM chunks JOIN generations USING (generation) WHERE {which}"
    return {"rows": index.db.execute(sql).fetchone()[0],
            "vectors": index.db.execute("SELECT count(*) FROM vectors").fetchone()[0]}


def _failed_rows(written: list[str], carried: list[str],
                 undone: dict[str, int]) -> dict[str, object]:
    """The figures of the failed build: the rows its committed batches wrote (their sources'
    ids, in order), the chunks the update carried over, and the chunk rows and vectors the
    failing batch had written when SQLite rolled it back."""
    if written != carried or len(written) % FAIL_BATCH:
        raise ValueError("the committed batches do not hold exactly the carried-over chunks")
    if undone["rows"] != undone["vectors"]:
        raise ValueError(f"the failing batch wrote {undone} rows and vectors: the prose says "
                         "one vector per row")
    return {
        "failed_rows": len(written), "failed_batch": FAIL_BATCH,
        "failed_batches": _WORDS[len(written) // FAIL_BATCH],
        "failed_sources": _WORDS[len(set(written))],
        "failed_faq": written.count("deploy-faq"),
        "failed_runbook": written.count("failover-runbook"),
        "failed_fernhill": written.count("fernhill-release-notes"),
        "fail_chunk": _ORDINALS[undone["rows"]], "failed_undone": _WORDS[undone["rows"]],
    }


def _part_intros() -> dict[str, object]:
    """The figures of the Part 1 and Part 2 introductions."""
    element_start, element_end = _split_element_span()
    (_, first_end, _, _), (second_start, second_end, _, _) = split_windows()
    doc, at = PART1_ORDINAL
    query, tenant, groups, k = PART1_QUERY
    return {
        "split_overlap": first_end - second_start, "split_start": element_start,
        "split_end": element_end, "window_start": second_start, "window_end": second_end,
        "moved_doc": doc, "moved_after": _ORDINALS[at - 1], "moved_new": _ORDINALS[at],
        "moved_at": at,
        "part1_call": f"search(chunks, {query!r}, {tenant!r}, {groups!r}, k={k})".replace("'", '"'),
        "part1_chunks": table_markdown(PART1_CHUNKS,
                                       ["chunk_id", "tenant_id", "acl", "retrieval_text"]),
        "plan_old": table_markdown(PLAN_OLD, ["chunk_id", "retrieval_sha256", "acl"]),
        "plan_new": table_markdown(PLAN_NEW, ["chunk_id", "retrieval_sha256", "acl"]),
        "examples_points": POINTS["examples"], "hidden_points": POINTS["hidden"],
    }


def table_markdown(rows: list[dict], columns: list[str]) -> str:
    """Rows of dicts as a Markdown table in code font: strings as they are, other values as
    Python writes them (``None``, lists); pipes escaped so a table row stays one cell.

    ``table_markdown([{"a": "x|y", "b": None}], ["a", "b"]).splitlines()[2]``
    -> '| `x\\\\|y` | `None` |'
    """
    lines = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    for row in rows:
        cells = [v if isinstance(v, str) else repr(v) for v in (row[c] for c in columns)]
        lines.append("| " + " | ".join("`" + v.replace("|", "\\|") + "`" for v in cells) + " |")
    return "\n".join(lines)


def _split_element_span() -> tuple[int, int]:
    """(start, end) in the source of the hard-split paragraph of Part 1."""
    guide = load_source("deployment-guide")
    (element,) = [e for e in parse_elements(guide.text)
                  if e.heading_path == SPLIT_SECTION and e.kind == "paragraph"]
    return element.start, element.end


def split_windows() -> list[tuple[int, int, int, int]]:
    """The hard-split element's windows: (start, end) in the source and relative to it.

    ``split_windows()[1]`` -> (11472, 12168, 900, 1596)
    """
    guide = load_source("deployment-guide")
    (element,) = [e for e in parse_elements(guide.text)
                  if e.heading_path == SPLIT_SECTION and e.kind == "paragraph"]
    return [(c.start, c.end, c.start - element.start, c.end - element.start)
            for c in structure_chunks(guide) if element.start <= c.start < element.end]


def ordinal_ids_moved(n: int = 10, at: int = 3) -> tuple[int, int]:
    """Insert a paragraph so that it becomes chunk ``at`` (0-based) of ``n`` one-paragraph
    chunks; return how many of the ``n`` old chunks get another id with source_id + ordinal
    ids, and with the course's content-derived chunk ids. ``ordinal_ids_moved()`` -> (7, 0)
    """
    paragraphs = [f"Paragraph {i} says something of its own, in a sentence." for i in range(n)]

    def chunks(items):
        source = Source("notes", "1", "kestrel", "notes.md", "\n\n".join(items), ("g",), ())
        return structure_chunks(source, size=60, overlap=0)

    old = chunks(paragraphs)
    new = chunks(paragraphs[:at] + ["A new paragraph, inserted by an editor today."]
                 + paragraphs[at:])
    new_by_text = {c.text: c for c in new}
    by_ordinal = sum(H([c.source_id, c.ordinal]) != H([c.source_id, new_by_text[c.text].ordinal])
                     for c in old)
    by_content = sum(c.chunk_id != new_by_text[c.text].chunk_id for c in old)
    return by_ordinal, by_content


def renamed_section_ids() -> tuple[int, int]:
    """(chunks in the Environment Matrix section, how many keep their chunk_id after renaming
    its heading to ``RENAMED``). ``renamed_section_ids()`` -> (6, 6)"""
    guide = load_source("deployment-guide")
    before = [c for c in structure_chunks(guide) if c.heading_path[:2] == MATRIX]
    after = {c.chunk_id for c in structure_chunks(rename_heading(guide, MATRIX, RENAMED))}
    return len(before), sum(c.chunk_id in after for c in before)


def stale_rule_fallback() -> tuple[str, ...]:
    """The ACL the renamed Environment Matrix would get if its revision kept the rule under the
    old name (``validate_revision`` refuses such a revision): the rule matches no heading, so
    the section falls back to the guide's default ACL. ``stale_rule_fallback()`` -> ('employees',)
    """
    guide = load_source("deployment-guide")
    renamed = rename_heading(guide, MATRIX, RENAMED)
    stale = dataclasses.replace(renamed, section_acls=guide.section_acls)
    return stale.acl_for(MATRIX[:-1] + (RENAMED,))


def scored_ids() -> list[str]:
    """The Part 1 chunks that search may pass to the score function, sorted."""
    query, tenant, groups, _k = PART1_QUERY
    return sorted(c["chunk_id"] for c in PART1_CHUNKS
                  if c["tenant_id"] == tenant and authorized(c["acl"], groups))


def _plan() -> dict[str, list[str]]:
    return plan_update(PLAN_OLD, PLAN_NEW)


_REL = ("The chunk id takes the span relative to its element: subtract the element's start "
        "from both ends. The result is a tuple of two ints.")
_MOVED = ("With ordinal ids, every chunk whose position shifts gets another id (the one its "
          "successor had, or a new one for the last chunk); count the old chunks at or after the "
          "insertion point.")
_CONTENT = ("A content-derived id is built from the chunk's own element, span and text: does "
            "any of that change for the old chunks?")
_SCORED = ("Filter first: same tenant, and the ACL shares a group with the reader (a missing "
           "ACL shares none). Give the ids as a sorted list of strings.")
_HITS = ("Score the readable chunks by distinct query terms ('counts' is not 'count'), drop "
         "zeros, sort by score then chunk_id, keep k. A list of (chunk_id, score) tuples.")
_EMBED = "A vector is computed for chunks whose retrieval hash is new: changed or added ones."
_ENTRIES = ("An index entry is new whenever its id changes: a new retrieval hash, a new ACL, "
            "or a new chunk.")
_TOMB = "Which ids of the old table are missing from the new one? A sorted list of strings."

CHECKS = {
    "predict_kept": Check(lambda: renamed_section_ids()[1],
                          "Go through the seven fields of the chunk id in rule 1: which of "
                          "them does renaming the heading above a chunk change?"),
    "rel_span": Check(lambda: split_windows()[1][2:], _REL),
    "ordinal_moved": Check(lambda: ordinal_ids_moved(*PART1_ORDINAL)[0], _MOVED),
    "content_moved": Check(lambda: ordinal_ids_moved(*PART1_ORDINAL)[1], _CONTENT),
    "scored_ids": Check(scored_ids, _SCORED),
    "employee_hits": Check(lambda: search(PART1_CHUNKS, *PART1_QUERY), _HITS),
    "n_embed": Check(lambda: len(_plan()["reembed"]) + len(_plan()["add"]), _EMBED),
    "n_new_entries": Check(lambda: sum(len(_plan()[a]) for a in ("reembed", "reindex", "add")),
                           _ENTRIES),
    "tombstoned": Check(lambda: _plan()["tombstone"], _TOMB),
}

QUIZ = [
    Question(
        "A team names chunks `source_id + ordinal`. An editor inserts a paragraph near the top of "
        "a {ordinal_doc}-chunk document, and it becomes chunk {ordinal_chunk} (ordinal "
        "{ordinal_at}). What happens to the ids?",
        {
            "A": ("Only the new chunk gets a new id; the others keep theirs.",
                  "The new chunk takes ordinal {ordinal_at}, so the chunk that had ordinal "
                  "{ordinal_at} now has {ordinal_next}, and so on to the end."),
            "B": ("The {ordinal_moved} chunks from ordinal {ordinal_at} on all get different ids.",
                  "Each of them moves one place on, so it takes the id its successor had, and the "
                  "last one gets an id that was never used; the new paragraph takes the old id of "
                  "ordinal {ordinal_at}. Stored citations and vectors now point at other text. An "
                  "ordinal says where a chunk sits, not what it holds: store it for reading "
                  "order, and derive the id from the chunk's own content."),
            "C": ("Nothing changes, because ordinals are stored with each chunk.",
                  "Storing the ordinal is right, but here it is the id, and every later "
                  "ordinal moved."),
            "D": ("Every id in the document changes, the first two included.",
                  "The chunks before the insertion keep their ordinals, so their ids stay."),
        },
        "B",
    ),
    Question(
        "In a parent-child setup the ACL is stored on each parent section only. Children are "
        "embedded and searched; a child's parent is checked when the answer is assembled. What "
        "goes wrong?",
        {
            "A": ("Nothing: the parent check runs before the user sees anything.",
                  "The child was already matched and scored against the query; its score, its "
                  "text in logs or a reranker, and the result count all come before that check."),
            "B": ("Only performance: the parent is fetched for every child.",
                  "The cost is real, but the problem is what the child search touches."),
            "C": ("Nothing, because children inherit the ACL of their parent.",
                  "Nothing is inherited unless the index stores it: a child row without an ACL "
                  "is unprotected, or, fail-closed, unreadable."),
            "D": ("Children the user may not read are still matched and scored.",
                  "Authorization has to hold for every row the search touches: every child "
                  "needs its own ACL, checked before scoring, and expansion to the parent (or "
                  "merging neighbours) checks again, because a parent can hold children the "
                  "user may not read."),
        },
        "D",
    ),
    Question(
        "A search scores every chunk, keeps the top {quiz_k} and then removes the ones the user "
        "may not read. What goes wrong?",
        {
            "A": ("Unreadable chunks are scored, and fewer than {quiz_k} may come back.",
                  "The unauthorized chunks were scored, so they can reach logs, rerankers or "
                  "timing, and the user can get fewer than {quiz_k} results while more readable "
                  "matches exist. Filter first, then score: only readable chunks are ever scored, "
                  "and the top k is taken among them, so k readable results come back when they "
                  "exist."),
            "B": ("None, as long as the removed chunks are never displayed.",
                  "Display is the last place a leak can happen, not the first; scores and logs "
                  "already depended on the unauthorized text."),
            "C": ("It is slower, but returns the same results as filtering first.",
                  "Not the same results: if {quiz_removed} of the top {quiz_k} are removed, "
                  "{quiz_left_word} result is left, though other readable chunks ranked "
                  "{quiz_next_rank}th and later would have filled k."),
            "D": ("Only the ranking order of the remaining results changes.",
                  "The order of what remains is the same; what is lost is the count and the "
                  "confidentiality."),
        },
        "A",
    ),
    Question(
        "To rebuild an index after a strategy change, a script deletes every chunk from the "
        "live index, then re-chunks and re-embeds everything into it for three hours. What do "
        "readers get meanwhile?",
        {
            "A": ("The old chunks' results until the script finishes.",
                  "The old chunks were deleted first: there are no old results to give."),
            "B": ("Slower answers while it works, but complete ones.",
                  "Nothing holds the content that is not re-embedded yet."),
            "C": ("An index that is empty, then partial, and no error at all.",
                  "Answers miss content without any error, and a crash half way leaves the "
                  "index that way. Build the new generation in the shadow, check it, switch the "
                  "published pointer in one step, and keep the old one for a rollback."),
            "D": ("An error for every query until the rebuild has finished.",
                  "A missing document gives no error; the search just finds less."),
        },
        "C",
    ),
    Question(
        "The heading above {section_chunks_word} chunks is renamed; their bodies do not change. "
        "With this course's ids, which of these change for the {section_chunks_word} chunks?",
        {
            "A": ("Their chunk ids, and with them everything else.",
                  "The chunk id is derived from the body's element, span and content, which "
                  "did not change."),
            "B": ("Only their ordinals, since the outline has changed.",
                  "A rename inserts and removes nothing, so no ordinal moves."),
            "C": ("Nothing: the body is the same, so the vectors still hold.",
                  "The vector was made from the retrieval text, heading included: keeping it "
                  "leaves search matching the old heading."),
            "D": ("Their retrieval hashes, index entry ids and vectors.",
                  "The heading path is part of the retrieval text, so the retrieval hash, the "
                  "index entry and the vector change. The chunk ids stay, and a citation by "
                  "chunk id still works."),
        },
        "D",
    ),
    Question(
        "A chunk arrives at the indexer with no ACL at all (the field is missing, not empty). "
        "What should the indexer do?",
        {
            "A": ("Keep it out of the published index until it has an ACL.",
                  "Fail-closed: a missing ACL is a bug upstream, and the safe reading of a bug "
                  "is 'no access', so nobody may read the chunk. Store it, report it, do not "
                  "publish it."),
            "B": ("Publish it as readable by every group in the tenant.",
                  "That turns every upstream mistake into a leak."),
            "C": ("Give it the source's default ACL, then publish it as usual.",
                  "The default may be wider than the section's real rule: guessing can leak."),
            "D": ("Publish it, since search already filters by tenant anyway.",
                  "The tenant filter keeps other customers out, not other groups of this one."),
        },
        "A",
    ),
]
