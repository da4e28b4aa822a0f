"""Every number lesson 5 states in prose is computed here with chunklib and found in the text."""

import nbformat
import pytest

from chunklib.access import search, term_overlap
from chunklib.course import lifecycle as cl
from chunklib.course.fixture import load_source, load_sources
from chunklib.course.quiz import questions
from chunklib.index import INDEX_REVISION, ChunkIndex
from chunklib.lifecycle import insert_paragraph, rename_heading, update
from chunklib.structure import DEFAULT_OVERLAP, DEFAULT_SIZE, structure_chunks
from chunklib.vectors import MiniLMEmbedder
from chunklib.widgets.lifecycle import LifecycleExplorer
from tests.nbgrading import lesson_notebook

#: The quiz as the notebook states it (rendered by tools/sync_quiz.py).
RENDERED_QUIZ = questions("lifecycle")

NB = nbformat.read(lesson_notebook("05-lifecycle"), as_version=4)
PROSE = "\n".join(c.source for c in NB.cells if c.cell_type == "markdown")
CODE = "\n".join(c.source for c in NB.cells if c.cell_type == "code")
QUIZ = "\n".join(text + "\n" + why for q in RENDERED_QUIZ for text, why in q.options.values())
GUIDE = load_source("deployment-guide")
ALL = [c for s in load_sources() for c in structure_chunks(s)]
MATRIX = ("Deployment Guide", "Environment Matrix")


def plan_of(edit, section=MATRIX):
    x = LifecycleExplorer(edit=edit, section=section)
    return x.report.plan, x.report.embedded


def demo():
    """The notebook's index cells, replayed: build, rename, delete."""
    index, embedder = ChunkIndex(), MiniLMEmbedder()
    first = update(index, load_sources(), embedder)
    first_calls = (embedder.calls, embedder.computed)
    seen = []
    index.search("production replica count", "kestrel", ["employees"], 5,
                 score=lambda q, c: seen.append(c) or 1)
    renamed = update(index, [rename_heading(GUIDE, MATRIX, "Environments and replicas")],
                     embedder)
    deleted = update(index, [], embedder, deleted=["deploy-faq"])
    vectors = index.db.execute("SELECT count(*) FROM vectors").fetchone()[0]
    return first, len(seen), renamed, deleted, first_calls, vectors, embedder.computed


def opened_row_scores():
    """The production row's bm25 score for an employee and an SRE once the matrix is open."""
    x = LifecycleExplorer(edit="change the section's ACL")
    x.publish_button.click()
    return [x.index.search("production 4 SRE", "kestrel", g, 1, ranking="bm25")[0]
            for g in (["employees"], ["sre"])]


FIRST, SCORED, RENAMED, DELETED, FIRST_CALLS, VECTORS, COMPUTED = demo()
OPENED = opened_row_scores()
ROW_ID = next(c.chunk_id for c in ALL if c.text == "production | 4 | SRE")
RENAME, RENAME_VECTORS = plan_of("rename the heading")
ACL, ACL_VECTORS = plan_of("change the section's ACL")
ACL_ROWS = LifecycleExplorer(edit="change the section's ACL").summary_rows()
RENAME_ROWS_EMBEDDED = ("embedded", f"{RENAME_VECTORS} of 59 chunks (embedder calls)") in \
    LifecycleExplorer().summary_rows() and RENAME_VECTORS == len(RENAME["reembed"])


def edit_vectors_ship():
    """Every retrieval text any explorer edit makes has its vector in the shipped store, and
    the explorer's own builds never run the model."""
    from chunklib.course.edits import edit_texts
    from chunklib.identity import sha256_hex
    from chunklib.vectors import shipped_store

    x = LifecycleExplorer(edit="rename the heading", section=("Deployment Guide",))
    store = shipped_store()
    return all(sha256_hex(t) in store for t in edit_texts()) and x.embedder.computed == 0
INSERT, _ = plan_of("insert a paragraph", ("Deployment Guide", "Overview"))
GONE, _ = plan_of("delete the source")
ROOT, _ = plan_of("rename the heading", ("Deployment Guide",))
REMOVED, _ = plan_of("remove the section's ACL", ("Deployment Guide", "Overview"))
_REMOVED_X = LifecycleExplorer(edit="remove the section's ACL",
                               section=("Deployment Guide", "Overview"))
REMOVED_REFUSED, REMOVED_ROWS = sorted(_REMOVED_X.report.refused), _REMOVED_X.summary_rows()


def edits_do_not_add_up():
    """Things to try 3 then 4 in one explorer: the ACL removal plans as if built alone, in its
    own copy of the fixture's index, as generation 2."""
    x = LifecycleExplorer(edit="insert a paragraph", section=("Deployment Guide", "Overview"))
    x.edit_menu.value = "remove the section's ACL"
    return (x.report.plan == REMOVED and x.report.generation == 2
            and x.index.generations() == {1: "ready", 2: "ready"})


def repeated_paragraph_moves_a_later_id():
    """A paragraph inserted in the first section that repeats the guide's last paragraph."""
    from chunklib.elements import parse_elements
    from chunklib.lifecycle import insert_paragraph

    last = [e for e in parse_elements(GUIDE.text) if e.kind == "paragraph"][-1]
    old = structure_chunks(GUIDE)
    new = {c.chunk_id for c in structure_chunks(
        insert_paragraph(GUIDE, ("Deployment Guide", "Overview"), last.text))}
    moved = {c.heading_path for c in old if c.chunk_id not in new}
    return moved == {("Deployment Guide", "Overview"), last.heading_path}
def purged_rows():
    """The notebook's index cells up to the purge: chunk rows removed, FAQ rows per generation."""
    index, embedder = ChunkIndex(), MiniLMEmbedder()
    update(index, load_sources(), embedder)
    update(index, [rename_heading(GUIDE, MATRIX, "Environments and replicas")], embedder)

    def down(call):
        if call == 3:
            raise RuntimeError("down")

    with pytest.raises(RuntimeError):
        update(index, [rename_heading(GUIDE, MATRIX[:1], "Harbor Deployment Guide")],
               MiniLMEmbedder(hook=down), batch=8)
    index.rollback()
    update(index, [], embedder, deleted=["deploy-faq"])
    per_generation = [sum(c.source_id == "deploy-faq" for c in index.chunks(g))
                      for g in (1, 2, 3, 4)]
    return index.purge("deploy-faq"), per_generation


def failed_build():
    """The notebook's failing build, with an embedder that records the texts it is asked for
    and, at the failing call, the rows generation 3 and the vectors table hold: (source ids of
    the rows generation 3 keeps, the texts asked for, the retitled guide, (rows, vectors) at
    the failing call, (rows, vectors) after it)."""
    index, embedder = ChunkIndex(), MiniLMEmbedder()
    update(index, load_sources(), embedder)
    update(index, [rename_heading(GUIDE, MATRIX, "Environments and replicas")], embedder)

    def counts():
        return tuple(index.db.execute(sql).fetchone()[0] for sql in (
            "SELECT count(*) FROM chunks WHERE generation = 3", "SELECT count(*) FROM vectors"))

    class Recording:
        model, calls, asked, at_fail = embedder.model, 0, [], None

        def __call__(self, text):
            self.asked.append(text)
            self.calls += 1
            if self.calls == 3:
                Recording.at_fail = counts()
                raise RuntimeError("down")
            return embedder.lookup([text])[0]

    retitled = rename_heading(GUIDE, MATRIX[:1], "Harbor Deployment Guide")
    vectors_before = counts()[1]
    with pytest.raises(RuntimeError):
        update(index, [retitled], Recording(), batch=8)
    assert index.generations()[3] == "failed" and index.published() == 2
    assert counts()[1] == vectors_before
    return ([c.source_id for c in index.chunks(3)], Recording.asked, structure_chunks(retitled),
            Recording.at_fail, counts())


PURGED = purged_rows()
FAILED_ROWS, FAILED_ASKED, RETITLED, AT_FAIL, AFTER_FAIL = failed_build()
SECTION, KEPT = cl.renamed_section_ids()
SPLIT = cl.split_windows()

def sre_row_scores():
    """The notebook's SRE searches for the production row: generation 1 (the first search),
    generation 2 after the rename (the failed build leaves it published), and after the
    rollback; the rollback's target; the row's retrieval text in generations 1 and 2; the plan
    of the deletion that follows."""
    index, embedder = ChunkIndex(), MiniLMEmbedder()
    update(index, load_sources(), embedder)

    def sre():
        return index.search("production 4 SRE", "kestrel", ["sre"], 1, ranking="bm25")[0]

    first = sre()
    update(index, [rename_heading(GUIDE, MATRIX, "Environments and replicas")], embedder)
    renamed = sre()
    target = index.rollback()
    back = sre()
    texts = [next(c.retrieval_text for c in index.chunks(g) if c.chunk_id == ROW_ID)
             for g in (1, 2)]
    deleted = update(index, [], embedder, deleted=["deploy-faq"])
    return first, renamed, back, target, texts, deleted


def stale_rule_revision_refused():
    """The renamed guide with the ACL rule left under the old name: refused, and without the
    refusal the section would read the guide's default ACL, employees."""
    import dataclasses

    from chunklib.lifecycle import validate_revision

    renamed = rename_heading(GUIDE, MATRIX, "Environments and replicas")
    stale = dataclasses.replace(renamed, section_acls=GUIDE.section_acls)
    with pytest.raises(ValueError, match="matches no heading"):
        validate_revision(stale, structure_chunks(stale))
    return (stale.acl_for(("Deployment Guide", "Environments and replicas"))
            == GUIDE.default_acl == ("employees",) == cl.stale_rule_fallback()
            and renamed.acl_for(("Deployment Guide", "Environments and replicas")) == ("sre",))


def merged_chunks_count_from_their_first_element():
    """Every chunk that holds several elements takes its element id and the zero of its
    relative span from its first element (there are such chunks in the fixture)."""
    from chunklib.elements import parse_elements
    from chunklib.identity import chunk_id, element_id

    merged = 0
    for source in load_sources():
        elements = [e for e in parse_elements(source.text) if e.kind != "heading"]
        for c in structure_chunks(source):
            inside = [e for e in elements if c.start <= e.start and e.end <= c.end]
            if c.kind == "table" or len(inside) < 2:
                continue
            merged += 1
            first = inside[0]
            same = [e for e in elements if (e.kind, e.text) == (first.kind, first.text)]
            eid = element_id(first.kind, first.text, same.index(first))
            if c.element_id != eid or c.chunk_id != chunk_id(
                    c.source_id, c.strategy_version, eid, c.start - first.start,
                    c.end - first.start, c.content_sha256, c.tenant_id):
                return False
    return merged > 0


def refused_chunks_show_twice():
    """Things to try 4: each refused chunk is a column at its ordinal (no entry) and a
    tombstone column; the tombstoned entries' vectors stay in the shared vectors table."""
    x = _REMOVED_X
    columns, plan = x.computed.columns, x.report.plan
    old = x.index.entries(1)
    return (len(columns) == len(structure_chunks(GUIDE)) + len(plan["tombstone"])
            and sum(states == ("same", "none", "none") for _l, states in columns)
            == len(plan["tombstone"])
            and sum(label == "×" and states == ("same", "gone", "gone")
                    for label, states in columns) == len(plan["tombstone"])
            and all(x.index.has_vector(*old[cid]["vector_key"]) for cid in plan["tombstone"]))


def bm25_is_negated():
    """FTS5's bm25() is negative, lower is better; the index reports its negation."""
    import sqlite3

    db = sqlite3.connect(":memory:")
    db.execute("CREATE VIRTUAL TABLE t USING fts5(x)")
    db.executemany("INSERT INTO t VALUES (?)", [("production sre",), ("other text",),
                                                ("more words here",)])
    raw = db.execute("SELECT bm25(t) FROM t WHERE t MATCH 'production'").fetchone()[0]
    return raw < 0 and SRE_ROW[0][1] > 0


def the_lesson5_index_never_searches_by_vector():
    """The index's search has no vector ranking; lesson 6's dense ranker reads the shipped
    store through chunklib.vectors (no ChunkIndex)."""
    import inspect

    from chunklib import retrieval
    from chunklib.index import ChunkIndex as Index
    with pytest.raises(ValueError, match="ranking must be"):
        Index().search("x", "t", ["g"], 1, ranking="dense")
    source = inspect.getsource(retrieval)
    return "default_embedder" in source and "ChunkIndex" not in source


def revision_binds_the_model():
    """The index revision names the model; an index for another model has another revision
    (so other entry ids) and refuses this model's vectors."""
    from chunklib.embedding import MODEL_NAME

    other = ChunkIndex(embedding_model="another-model")
    generation = other.begin(None)
    row = next(c for c in ALL if c.chunk_id == ROW_ID)
    with pytest.raises(ValueError, match="new index_revision"), other.batch():
        other.put(generation, row, MODEL_NAME, (0.0,))
    return (INDEX_REVISION.endswith("+" + MODEL_NAME)
            and other.index_revision == "course-index-v1+another-model")


def ordinal_paragraphs_stand_alone(n, at):
    """In the Part 1 document every paragraph, the new one included, is a chunk of its own and
    no paragraph repeats another (so the occurrence counts of rule 1 do not move)."""
    from chunklib.documents import Source

    paragraphs = [f"Paragraph {i} says something of its own, in a sentence." for i in range(n)]
    new = paragraphs[:at] + ["A new paragraph, inserted by an editor today."] + paragraphs[at:]
    chunks = structure_chunks(Source("notes", "1", "kestrel", "notes.md", "\n\n".join(new),
                                     ("g",), ()), size=60, overlap=0)
    return [c.text for c in chunks] == new and len(set(new)) == len(new)


SRE_ROW = sre_row_scores()


def ordinal_ids_shift(n, at):
    """Old ids by ordinal; after inserting at ``at``, chunk j >= at sits at j + 1."""
    old = [("guide", j) for j in range(n)]
    moved = [("guide", j + (j >= at)) for j in range(n)]
    return (all(moved[j] == old[j + 1] for j in range(at, n - 1)) and moved[-1] not in old
            and ("guide", at) == old[at] and moved[:at] == old[:at])


CLAIMS = [  # (text the lesson shows, is it true by chunklib)
    (f"section holds {SECTION} chunks: two paragraphs and\nthe four rows of its table",
     [c.kind for c in ALL if c.heading_path[:2] == MATRIX].count("table") == 4
     and SECTION == 6),
    ("0 chunk ids change, while 6 index\n   entries and 6 vectors are new",
     RENAME["add"] == RENAME["tombstone"] == [] and len(RENAME["reembed"]) == 6
     and RENAME_VECTORS == 6 and KEPT == SECTION),
    ("the same 6 entries are new, but the *embedded* line\n   reads 0: no chunk needs a new "
     "vector, because no retrieval text changed",
     len(ACL["reindex"]) == 6 and ACL["reindex"] == RENAME["reembed"] and ACL_VECTORS == 0
     and ("embedded", "0 of 59 chunks (embedder calls)") in ACL_ROWS),
    ("Its *embedded* line counts the chunks for\nwhich the build asked the embedder for a vector: "
     "one for each retrieval text the index had no\nvector for", RENAME_ROWS_EMBEDDED),
    ("every text an edit can make went through the model when\nthe course was built, and those "
     "vectors ship with the course, so the model itself does not run\nhere", edit_vectors_ship()),
    ("(1 new, 1 gone)", len(INSERT["add"]) == 1 and len(INSERT["tombstone"]) == 1
     and len(INSERT["keep"]) == len(ALL) - 2),
    ("tombstones all 44 of its chunks",
     len(GONE["tombstone"]) == 44 == len(structure_chunks(GUIDE))),
    ("all 44 chunks need a new vector,\n   and still no chunk id changes",
     len(ROOT["reembed"]) == 44 and ROOT["add"] == []),
    ("inserted as the\n  third chunk of a 40-chunk document moves the 38 chunks after it one place "
     "on. The\n  new paragraph takes the id the old third chunk had, 37 of the moved chunks take "
     "the id\n  their successor had, and the last one gets an id never used before",
     cl.ordinal_ids_moved(40, 2) == (38, 0) and ordinal_ids_shift(40, 2)),
    ("index and builds the edit in the copy as generation 2, a **shadow generation**",
     FIRST.generation == 1 and edits_do_not_add_up()),
    ("Every edit starts from the unedited fixture, so edits never add up",
     edits_do_not_add_up()),
    ("With *Overview* still chosen, choose *remove the section's ACL*: the 4 chunks of\n   "
     "the section and its subsections are refused (the *refused* line adds them to the one "
     "chunk\n   the fixture refuses from the start) and their entries become tombstones",
     REMOVED["tombstone"] == sorted(c.chunk_id for c in structure_chunks(GUIDE)
                                    if c.heading_path[:2] == ("Deployment Guide", "Overview"))
     and len(REMOVED["tombstone"]) == 4 and REMOVED_REFUSED == sorted(
         REMOVED["tombstone"] + [c.chunk_id for c in ALL if c.acl is None])
     and len(FIRST.refused) == 1
     and ("refused, ACL missing", str(4 + len(FIRST.refused))) in REMOVED_ROWS),
    ("a new paragraph that repeats, word for word, one further down the\n   source shifts that "
     "one's occurrence count, and with it that one's id", repeated_paragraph_moves_a_later_id()),
    ("Both\ngenerations use the same `index_revision`",
     cl.CHECKS["n_new_entries"].expected() == 4),
    ("the production row then gets one bm25 score for an employee and another for an\nSRE",
     OPENED[0][0] == OPENED[1][0] == ROW_ID and OPENED[0][1] != OPENED[1][1]),
    ("Of the fixture's 60 chunks, 59 get an index entry",
     len(ALL) == 60 and FIRST.entries == 59 and len(FIRST.refused) == 1),
    ("Only the 37 chunks an employee of kestrel may read", SCORED == 37),
    ("The embedder was\ncalled 6 times, once for each of the 6 chunks whose retrieval text now "
     "holds the new heading;\nthe other 53 kept their entries and their vectors",
     RENAMED.plan["reembed"] == sorted(c.chunk_id for c in ALL if c.heading_path[:2] == MATRIX)
     and len(RENAMED.plan["keep"]) == 53 and RENAMED.embedded == 6),
    ("it counts every text it is asked\nto embed: 59 here, one for each retrieval text that had "
     "no vector in the index yet. That\ncount is the report's *embedded* figure",
     FIRST_CALLS[0] == FIRST.embedded == 59 == len({c.retrieval_sha256 for c in ALL if c.acl})
     and "embedded 59 of 59 chunks" in str(FIRST)),
    ("so the model itself encoded 0 texts and the cell answered at once",
     FIRST_CALLS[1] == COMPUTED == 0),
    ("a text whose vector\nis there is never embedded again",  # three builds, one row per call
     VECTORS == FIRST.embedded + RENAMED.embedded and DELETED.embedded == 0),
    ("a tombstone for each of its 7 entries", len(DELETED.plan["tombstone"]) == 7),
    # 16 rows = two committed batches of 8 carried-over chunks (no embedder call); the guide's
    # first three chunks then asked for vectors, and the third call's failure undid the two
    # chunk rows and two vectors its batch had written
    ("The 16 rows are the chunks of the three sources the update carries over unchanged\n(7 of "
     "the FAQ, 6 of the runbook, 3 of Fernhill's notes). They come first and need no new\n"
     "vector, so the two batches of 8 they filled were committed without calling the embedder. "
     "The\nnext batch began with the retitled guide, whose chunks all need a new vector (the "
     "new title is in\nevery heading path): the embedder's third call, for the guide's third "
     "chunk, failed, and SQLite\nrolled that batch back, undoing the two chunks and two "
     "vectors it had already written. Generation 3\nis marked failed",
     len(FAILED_ROWS) == 16 == 2 * 8
     and {s: FAILED_ROWS.count(s) for s in FAILED_ROWS} == {
         "deploy-faq": 7, "failover-runbook": 6, "fernhill-release-notes": 3}
     and len(ALL) - len(structure_chunks(GUIDE)) == 16
     and FAILED_ASKED == [c.retrieval_text for c in RETITLED[:3]]
     and all("Harbor Deployment Guide" in c.retrieval_text for c in RETITLED)
     and not {c.retrieval_sha256 for c in RETITLED} & {c.retrieval_sha256 for c in ALL + list(
         structure_chunks(rename_heading(GUIDE, MATRIX, "Environments and replicas")))}
     and AT_FAIL[0] - AFTER_FAIL[0] == 2 == AT_FAIL[1] - AFTER_FAIL[1]
     and "batch=8)" in CODE and "rows the failed build had written:" in CODE),
    ("(21 chunk rows: 7 in each of generations 1, 2 and 3)", PURGED == (21, [7, 7, 7, 0])),
    ("longer than the 1000-character budget", DEFAULT_SIZE == 1000),
    ("overlap by 100 characters", DEFAULT_OVERLAP == 100
     and SPLIT[0][1] - SPLIT[1][0] == 100 and len(SPLIT) == 2),
    (f"runs from character {SPLIT[0][0]}\nto {SPLIT[1][1]} of the source; the second window "
     f"covers characters {SPLIT[1][0]} to\n{SPLIT[1][1]}", SPLIT[1][2:] == (900, 1596)),
    ("A document has 10 chunks, one paragraph each", cl.ordinal_ids_moved(10, 3) == (7, 0)),
    ("inserts a new\nparagraph after the third (a chunk of its own, repeating no other paragraph)",
     ordinal_paragraphs_stand_alone(10, 3)),
    # c6 ("Replica counts ...") scores 1 only because its text is lowercased ("Replica" ->
    # "replica") and only by whole terms ("counts" is not "count"); the query is lowercased too
    ("the `\\w+` terms of the lowercased retrieval text",
     cl.CHECKS["employee_hits"].expected() == [("c4", 1)]
     and search(cl.PART1_CHUNKS, *cl.PART1_QUERY[:3], 5)
     == [("c4", 1), ("c6", 1)]
     and term_overlap("Replica", {"retrieval_text": "replica"}) == 1),
    ("are counted from the start of that element (for a chunk merged from several elements, "
     "its\n   first element)", merged_chunks_count_from_their_first_element()),
    ("`index_revision` names the index's configuration: its own settings\n   and the embedding "
     "model's name, which must change with anything that changes the vectors\n   (weights, "
     "truncation, pooling, normalization). So a new model means a new `index_revision` "
     "(chunklib's is\n   "
     "`course-index-v1+sentence-transformers/all-MiniLM-L6-v2`, the settings' name and the "
     "model's full name,\n   and its index refuses vectors of any other model)",
     INDEX_REVISION == "course-index-v1+sentence-transformers/all-MiniLM-L6-v2"
     and cl.figures()["index_revision"] == INDEX_REVISION and FIRST.generation == 1
     and revision_binds_the_model()),
    ("binding `index_revision`, which\n  names the index's settings and the embedding model, "
     "does the same for a new model", revision_binds_the_model()),
    ("silently fall back to the guide's default ACL, `employees`: every employee could read "
     "the\nSRE-only section", stale_rule_revision_refused()),
    ("A\nrefused chunk shows twice: at its ordinal (no entry, no vector) and, at the right, as "
     "the\ntombstone of its old entry (whose chunk_id cell stays light blue: the chunk keeps its "
     "id).\n*Gone* means the shadow generation no longer holds or uses it: a tombstoned entry's "
     "vector\nstays in the `vectors` table, which all generations share, since\ngeneration 1 "
     "still uses it", refused_chunks_show_twice()),
    ("FTS5's `bm25()` gives a better match a lower, negative value; chunklib negates it, so "
     "higher\nis better here", bm25_is_negated()),
    ("Neither ranks by the vectors: this index\nstores them but searches by terms or bm25 only",
     the_lesson5_index_never_searches_by_vector()),
    ("readers still see generation 2, whole. (The\nSRE's bm25 score for the production row "
     "differs from the first search's: in generation 2 the\nrow's retrieval text holds the new "
     "heading",
     SRE_ROW[0][0] == SRE_ROW[1][0] == ROW_ID and SRE_ROW[0][1] != SRE_ROW[1][1]
     and "Environments and replicas" in SRE_ROW[4][1]
     and SRE_ROW[4][0].replace("Environment Matrix", "Environments and replicas")
     == SRE_ROW[4][1]),
    ("here back to generation 1, before the rename (the score is the first search's again, "
     "because\nthe row's retrieval text no longer holds the new heading)",
     SRE_ROW[3] == 1 and SRE_ROW[2] == SRE_ROW[0]),
    ("The new generation, built on generation 1, the one readers now see\n(so the guide keeps "
     "its old heading, and every entry but the FAQ's is kept)",
     SRE_ROW[3] == 1 and len(SRE_ROW[5].plan["keep"]) == FIRST.entries - 7
     and SRE_ROW[5].plan["reembed"] == SRE_ROW[5].plan["add"] == []
     and len(SRE_ROW[5].plan["tombstone"]) == 7 and SRE_ROW[5].embedded == 0),
]


QUIZ_CLAIMS = [
    ("40-chunk document", cl.ordinal_ids_moved(40, 2)[0] == 38),
    ("The 38 chunks from ordinal 2 on", cl.ordinal_ids_moved(40, 2) == (38, 0)),
    ("are removed, one result is left", cl.QUIZ_TOP_K - cl.QUIZ_REMOVED == 1
     and cl.figures()["quiz_left_word"] == "one"),
    ("The heading above six chunks", SECTION == 6 == cl.figures()["section_chunks"]
     and cl.figures()["section_chunks_word"] == "six"),
    # question 1 with source_id + ordinal ids: each moved chunk takes its successor's old id
    ("it takes the id its successor had, and the last one gets an id that was never used; the "
     "new paragraph takes the old id of ordinal 2", ordinal_ids_shift(40, 2)),
]


@pytest.mark.parametrize("text, true", CLAIMS, ids=[c[0][:30] for c in CLAIMS])
def test_prose_claims(text, true):
    assert text in PROSE and true


@pytest.mark.parametrize("text, true", QUIZ_CLAIMS, ids=[c[0][:30] for c in QUIZ_CLAIMS])
def test_quiz_claims(text, true):
    assert text in QUIZ + "\n" + "\n".join(q.prompt for q in RENDERED_QUIZ) and true


def test_part1_tables_are_the_course_data():
    for rows, columns in ((cl.PART1_CHUNKS, ["chunk_id", "tenant_id", "acl", "retrieval_text"]),
                          (cl.PLAN_OLD, ["chunk_id", "retrieval_sha256", "acl"]),
                          (cl.PLAN_NEW, ["chunk_id", "retrieval_sha256", "acl"])):
        assert cl.table_markdown(rows, columns) in PROSE


def test_part1_acls_never_differ_only_in_order():
    old = {c["chunk_id"]: c["acl"] for c in cl.PLAN_OLD}
    for c in cl.PLAN_NEW:
        before = old.get(c["chunk_id"])
        if before is not None and before != c["acl"]:
            assert sorted(before) != sorted(c["acl"])


def test_the_demo_cells_say_what_they_do():
    assert 'rename_heading(guide, ("Deployment Guide", "Environment Matrix"), ' in CODE
    assert "if call == 3:" in CODE and "fails at its third call" in PROSE
    assert 'deleted=["deploy-faq"]' in CODE


def test_quiz_answers_vary():
    letters = [q.answer for q in RENDERED_QUIZ]
    assert len(letters) >= 4 and len(set(letters)) >= 3
    for q in RENDERED_QUIZ:
        assert all(why for _text, why in q.options.values())


def inserted_paragraph_ids(paragraph: str) -> list[tuple]:
    """For every section of the Deployment Guide: (heading path, old chunks of that section
    whose id changes, old chunks of *other* sections whose id changes) when ``paragraph`` is
    inserted below its heading."""
    old = structure_chunks(GUIDE)
    rows = []
    for path in dict.fromkeys(c.heading_path for c in old):
        new = {c.chunk_id for c in structure_chunks(insert_paragraph(GUIDE, path, paragraph))}
        changed = [c for c in old if c.chunk_id not in new]
        rows.append((path, sum(c.heading_path == path for c in changed),
                     sum(c.heading_path != path for c in changed)))
    return rows


def test_an_inserted_paragraph_moves_ids_only_in_its_own_section():
    from chunklib.course.edits import NOTE

    sentence = ("a paragraph inserted in one section, or a new source, changes no chunk id in any "
                "other section. Inside the same section it can")
    assert sentence in " ".join(PROSE.split())
    rows = inserted_paragraph_ids(NOTE)
    assert len(rows) == len({c.heading_path for c in structure_chunks(GUIDE)})
    assert all(outside == 0 for _path, _inside, outside in rows)  # the rule, on every section
    # and why the sentence says "other": greedy merging moves a later boundary of the section
    assert max(inside for _path, inside, _outside in rows) >= 2


def test_the_failing_build_of_the_lesson_needs_no_model_run_either():
    """The notebook's third build (the one that fails at its third call) asks for vectors the
    shipped store holds, as its first two builds do (``COMPUTED``): Run all never waits for
    the model."""
    index = ChunkIndex()
    update(index, load_sources(), MiniLMEmbedder())

    def down(call):
        if call == cl.FAIL_CALL:
            raise RuntimeError("the embedding service is down")

    failing = MiniLMEmbedder(hook=down)
    retitled = rename_heading(GUIDE, MATRIX[:1], "Harbor " + MATRIX[0])
    with pytest.raises(RuntimeError, match="down"):
        update(index, [retitled], failing, batch=8)
    assert failing.calls == cl.FAIL_CALL - 1 and failing.computed == 0 and COMPUTED == 0
    assert 'MiniLMEmbedder(hook=embedding_service_down)' in CODE
    assert '"Harbor Deployment Guide"' in CODE


def test_the_to_do_comments_state_the_part1_document():
    doc, _at = cl.PART1_ORDINAL
    assert f"how many of the {doc} old chunks now have a different id?" in CODE
    assert f"how many of the {doc} old chunks have a different id?" in CODE
    assert f"A document has {doc} chunks, one paragraph each." in PROSE


def test_the_production_query_has_the_three_terms_the_prose_counts():
    import re
    assert '"production 4 SRE"' in CODE
    assert len(set(re.findall(r"\w+", "production 4 SRE".lower()))) == 3
    assert "no chunk an employee may read holds all three terms" in PROSE


def test_the_field_counts_are_the_id_functions():
    import inspect

    from chunklib.identity import chunk_id, index_entry_id
    assert len(inspect.signature(chunk_id).parameters) == 7
    assert len(inspect.signature(index_entry_id).parameters) == 4
    assert "`H` of the seven fields, in this order" in PROSE
    assert "Go through the seven fields of the chunk id" in cl.CHECKS["predict_kept"].hint
    assert "`H` of the four" in PROSE
