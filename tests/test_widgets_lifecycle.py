"""The lesson-5 lifecycle explorer's own numbers: what each edit changes, publish and roll back.
What every explorer keeps (labels, one redraw per move, path independence, the autograde
placeholder) is tests/test_explorers.py."""

import pytest

from chunklib.course.edits import EDITS, make_edit
from chunklib.course.fixture import load_sources
from chunklib.widgets.lifecycle import (
    KEPT_SHADOWS,
    LifecycleExplorer,
    column_states,
    lifecycle_explorer,
)

MATRIX = ("Deployment Guide", "Environment Matrix")
OVERVIEW = ("Deployment Guide", "Overview")


@pytest.fixture(scope="module")
def explorer():
    return lifecycle_explorer()


def rows(x):
    return dict(x.summary_rows())


def test_initial_state_is_the_heading_rename(explorer):
    r = rows(explorer)
    assert r["edit"] == '"Environment Matrix" renamed to "Environment Matrix (revised)"'
    assert r["readers see"] == "generation 1 (the fixture)" and r["shadow"] == "generation 2"
    assert r["plan"] == "keep 53, reembed 6, reindex 0, add 0, tombstone 0"
    assert (r["chunk ids"], r["index entries"]) == ("0 new, 0 gone", "6 new")
    assert r["embedded"] == "6 of 59 chunks (embedder calls)"
    assert explorer.embedder.computed == 0  # every vector from the store the course ships
    assert r["employee: 'production 4 SRE'"] == "nothing"
    assert r["SRE: 'production 4 SRE'"].startswith("'production | 4 | SRE'")
    assert explorer.table.value.count("<td>reembed</td>") == 6
    assert explorer.rollback_button.disabled and not explorer.publish_button.disabled
    for button in (explorer.publish_button, explorer.rollback_button):  # not controls: the
        assert button.description and button.tooltip  # contract test does not see them


@pytest.mark.parametrize("edit, plan, vectors", [
    ("insert a paragraph", "keep 58, reembed 0, reindex 0, add 1, tombstone 1", "1"),
    ("change the section's ACL", "keep 53, reembed 0, reindex 6, add 0, tombstone 0", "0"),
    ("remove the section's ACL", "keep 53, reembed 0, reindex 0, add 0, tombstone 6", "0"),
    ("add an unrelated source", "keep 59, reembed 0, reindex 0, add 2, tombstone 0", "2"),
    ("delete the source", "keep 15, reembed 0, reindex 0, add 0, tombstone 44", "0"),
    ("rename the heading", "keep 53, reembed 6, reindex 0, add 0, tombstone 0", "6"),
])
def test_each_edit_builds_a_shadow_and_says_what_changes(explorer, edit, plan, vectors):
    explorer.edit_menu.value = edit
    r = rows(explorer)
    assert r["plan"] == plan and r["embedded"].startswith(vectors + " of ")
    assert r["readers see"] == "generation 1 (the fixture)"
    assert explorer.index.generations() == {1: "ready", 2: "ready"}  # its own copy
    assert len(explorer.shadows) <= KEPT_SHADOWS


def test_removing_the_acl_refuses_the_section(explorer):
    explorer.edit_menu.value = "remove the section's ACL"
    assert rows(explorer)["refused, ACL missing"] == "7"  # 6 + the March drill notes
    columns = column_states(explorer.index, 1, explorer.report.generation, {"deployment-guide"})
    assert [s for _, s in columns].count(("same", "none", "none")) == 6
    # their entries are tombstoned, their chunk ids stay: the chunks are stored, refused
    assert [s for _, s in columns].count(("same", "gone", "gone")) == 6
    assert rows(explorer)["chunk ids"] == "0 new, 0 gone"
    explorer.edit_menu.value = "rename the heading"


def test_publish_and_roll_back_move_what_readers_see():
    x = LifecycleExplorer(edit="change the section's ACL")
    assert rows(x)["employee: 'production 4 SRE'"] == "nothing"
    x.publish_button.click()
    r = rows(x)
    assert r["readers see"] == "generation 2 (the edit, published)"
    assert r["employee: 'production 4 SRE'"].startswith("'production | 4 | SRE'")
    assert x.index.published() == 2
    assert x.publish_button.disabled and not x.rollback_button.disabled
    x.rollback_button.click()
    assert rows(x)["employee: 'production 4 SRE'"] == "nothing" and x.index.published() == 1
    x.publish_button.click()
    published = x.index
    x.section_menu.value = OVERVIEW  # a new edit: readers are switched back first
    assert "switched back to generation 1" in x.note.value and published.published() == 1
    assert rows(x)["readers see"] == "generation 1 (the fixture)"
    assert rows(x)["edit"] == 'ACL of "Overview" changed from employees to sre'
    x.edit_menu.value = "insert a paragraph"
    assert x.note.value == ""


def test_a_return_to_a_recent_edit_builds_nothing_and_the_shadows_are_bounded():
    x = LifecycleExplorer()
    first = x.shadows[(EDITS[0], MATRIX)]
    x.edit_menu.value = "insert a paragraph"
    x.edit_menu.value = EDITS[0]
    assert x.shadows[(EDITS[0], MATRIX)] is first and x.index is first.index
    x.publish_button.click()  # a reused shadow can be published
    assert first.index.published() == 2
    x.rollback_button.click()
    for _label, path in x.section_menu.options[:KEPT_SHADOWS + 3]:
        x.section_menu.value = path
    assert len(x.shadows) == KEPT_SHADOWS and (EDITS[0], MATRIX) not in x.shadows


def test_columns_mark_the_inserted_paragraph():
    x = LifecycleExplorer(edit="insert a paragraph", section=OVERVIEW)
    columns = x.computed.columns
    assert len(columns) == 45 and columns[-1] == ("×", ("gone", "gone", "gone"))
    assert columns[1] == ("1", ("new", "new", "new"))
    assert all(s == ("same",) * 3 for label, s in columns[2:-1])


def test_a_root_rename_re_embeds_every_guide_chunk_and_keeps_every_id():
    x = LifecycleExplorer(section=("Deployment Guide",))
    assert rows(x)["plan"] == "keep 15, reembed 44, reindex 0, add 0, tombstone 0"
    assert rows(x)["chunk ids"] == "0 new, 0 gone"


def test_every_edit_builds_at_every_section_without_running_the_model():
    x = LifecycleExplorer()
    for edit in EDITS:
        for _label, section in x.section_menu.options:
            view = x.compute((edit, section, False))
            assert view.report.generation == 2 and view.columns, (edit, section)
    # the shipped store holds every text an edit creates (chunklib.course.edits.edit_texts)
    assert x.embedder.calls > 0 and x.embedder.computed == 0


def test_bad_arguments_and_every_edit_is_offered():
    assert set(EDITS) == set(LifecycleExplorer().edit_menu.options)
    with pytest.raises(ValueError, match="edit"):
        make_edit(load_sources(), "translate", MATRIX)
    with pytest.raises(ValueError, match="edit"):
        LifecycleExplorer(edit="translate")
    for section in (("Deployment Guide", "No such heading"), "Deployment Guide", 5):
        with pytest.raises(ValueError, match="section"):
            LifecycleExplorer(section=section)
