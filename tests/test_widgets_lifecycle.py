"""Headless tests for the lesson-5 lifecycle explorer: menus and buttons drive the views."""

import pytest

from chunklib.course.edits import EDITS, make_edit
from chunklib.course.fixture import load_sources
from chunklib.widgets.lifecycle import KEPT_SHADOWS, LifecycleExplorer, lifecycle_explorer
from chunklib.widgets.lifecycle_plot import column_states

MATRIX = ("Deployment Guide", "Environment Matrix")


@pytest.fixture(scope="module")
def explorer():
    return lifecycle_explorer()


def rows(x):
    return dict(x.summary_rows())


def test_initial_state_is_the_heading_rename(explorer):
    r = rows(explorer)
    assert r["edit"] == '"Environment Matrix" renamed to "Environment Matrix (revised)"'
    assert r["readers see"] == "generation 1 (the fixture)"
    assert r["plan"] == "keep 53, reembed 6, reindex 0, add 0, tombstone 0"
    assert (r["chunk ids"], r["index entries"]) == ("0 new, 0 gone", "6 new")
    assert r["vectors computed"] == "6 (embedder calls)"
    assert r["employee: 'production 4 SRE'"] == "nothing"
    assert r["SRE: 'production 4 SRE'"].startswith("'production | 4 | SRE'")
    assert explorer.image.value[:4] == b"\x89PNG"
    assert explorer.table.value.count("<td>reembed</td>") == 6
    assert explorer.rollback_button.disabled and not explorer.publish_button.disabled


def test_every_control_is_labelled(explorer):
    for control in (explorer.edit_menu, explorer.section_menu, explorer.publish_button,
                    explorer.rollback_button):
        assert control.description and control.tooltip


@pytest.mark.parametrize("edit, plan, vectors", [
    ("insert a paragraph", "keep 58, reembed 0, reindex 0, add 1, tombstone 1", "1"),
    ("change the section's ACL", "keep 53, reembed 0, reindex 6, add 0, tombstone 0", "0"),
    ("remove the section's ACL", "keep 53, reembed 0, reindex 0, add 0, tombstone 6", "0"),
    ("add an unrelated source", "keep 59, reembed 0, reindex 0, add 2, tombstone 0", "2"),
    ("delete the source", "keep 15, reembed 0, reindex 0, add 0, tombstone 44", "0"),
    ("rename the heading", "keep 53, reembed 6, reindex 0, add 0, tombstone 0", "6"),
])
def test_each_edit_builds_a_shadow_and_says_what_changes(explorer, edit, plan, vectors):
    before_png, before_summary = explorer.image.value, explorer.summary.value
    explorer.edit_menu.value = edit
    r = rows(explorer)
    assert r["plan"] == plan and r["vectors computed"].startswith(vectors + " ")
    assert r["readers see"] == "generation 1 (the fixture)"
    assert explorer.image.value != before_png and explorer.summary.value != before_summary
    live = {g for g, state in explorer.index.generations().items() if state != "retired"}
    assert {1, explorer.report.generation} <= live  # the shown shadow is in the index
    assert len(live) <= 1 + KEPT_SHADOWS  # older shadows are dropped beyond the LRU's bound


def test_removing_the_acl_refuses_the_section(explorer):
    explorer.edit_menu.value = "remove the section's ACL"
    assert rows(explorer)["refused, ACL missing"] == "7"  # 6 + the March drill notes
    columns = column_states(explorer.index, 1, explorer.report.generation, {"deployment-guide"})
    assert [s for _, s in columns].count(("same", "none", "none")) == 6
    explorer.edit_menu.value = "rename the heading"


def test_publish_and_roll_back_move_what_readers_see():
    x = LifecycleExplorer(edit="change the section's ACL")
    assert rows(x)["employee: 'production 4 SRE'"] == "nothing"
    x.publish_button.click()
    r = rows(x)
    assert r["readers see"] == f"generation {x.report.generation} (the edit, published)"
    assert r["employee: 'production 4 SRE'"].startswith("'production | 4 | SRE'")
    assert x.publish_button.disabled and not x.rollback_button.disabled
    x.rollback_button.click()
    assert rows(x)["employee: 'production 4 SRE'"] == "nothing"
    x.publish_button.click()
    x.section_menu.value = ("Deployment Guide", "Overview")  # a new edit starts from gen 1
    assert "switched back to generation 1" in x.note.value
    assert rows(x)["readers see"] == "generation 1 (the fixture)"
    assert rows(x)["edit"] == 'ACL of "Overview" changed from employees to sre'


def test_columns_mark_the_inserted_paragraph():
    x = LifecycleExplorer(edit="insert a paragraph", section=("Deployment Guide", "Overview"))
    columns = column_states(x.index, 1, x.report.generation, {"deployment-guide"})
    assert len(columns) == 45 and columns[-1] == ("×", ("gone", "gone", "gone"))
    assert columns[1] == ("1", ("new", "new", "new"))
    assert all(s == ("same",) * 3 for label, s in columns[2:-1])


def test_a_root_rename_re_embeds_every_guide_chunk_and_keeps_every_id():
    x = LifecycleExplorer(section=("Deployment Guide",))
    assert rows(x)["plan"] == "keep 15, reembed 44, reindex 0, add 0, tombstone 0"
    assert rows(x)["chunk ids"] == "0 new, 0 gone"


def test_make_edit_rejects_unknown_edits_and_every_edit_is_offered():
    assert set(EDITS) == set(LifecycleExplorer().edit_menu.options)
    with pytest.raises(ValueError, match="edit"):
        make_edit(load_sources(), "translate", MATRIX)
