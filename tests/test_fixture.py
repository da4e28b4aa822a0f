"""Tests for chunklib.fixture: the course's own sources, their metadata, ACL rules and loading."""

import dataclasses
import shutil
from importlib.resources import as_file

import pytest

from chunklib.course import fixture
from chunklib.course.fixture import load_source, load_sources
from chunklib.documents import SectionAcl, Source, unmatched_acl_rules
from chunklib.elements import parse_elements
from chunklib.structure import DEFAULT_SIZE

GUIDE = "Deployment Guide"
RUNBOOK = "Runbook: Harbor regional failover"


def test_sources_ids_revisions_tenants():
    got = [(s.source_id, s.revision, s.tenant_id, s.filename) for s in load_sources()]
    assert got == [
        ("deployment-guide", "2025.06.12-1", "kestrel", "deployment-guide.md"),
        ("failover-runbook", "2025.05.30-2", "kestrel", "failover-runbook.md"),
        ("deploy-faq", "2025.06.03-1", "kestrel", "deploy-faq.md"),
        ("fernhill-release-notes", "2025.04.22-1", "fernhill", "fernhill-release-notes.md"),
    ]
    assert all(isinstance(s, Source) for s in load_sources())
    assert load_sources() is not load_sources()  # a fresh list; the frozen sources are shared


def test_sizes_and_word_counts():
    """Figures quoted in the lesson: characters and whitespace-separated words per source."""
    got = {s.source_id: (len(s.text), len(s.text.split())) for s in load_sources()}
    assert got == {"deployment-guide": (21046, 3444), "failover-runbook": (2797, 450),
                   "deploy-faq": (1597, 267), "fernhill-release-notes": (479, 72)}
    assert got["deployment-guide"][1] >= 3000


def test_fixture_files_are_lf_only():
    """Every pinned offset assumes LF line ends; CRLF handling is tested in test_elements."""
    assert all("\r" not in s.text for s in load_sources())


def test_guide_has_every_element_kind_and_nesting():
    elements = parse_elements(load_source("deployment-guide").text)
    kinds = {e.kind for e in elements}
    assert kinds == {"heading", "paragraph", "list", "code", "table"}
    assert {e.level for e in elements if e.kind == "heading"} == {1, 2, 3}
    text = load_source("deployment-guide").text
    assert "\n1. " in text and "\n- " in text  # numbered and bullet lists
    assert sum(e.kind == "code" for e in elements) == 10
    assert max(e.end - e.start for e in elements) > DEFAULT_SIZE  # needs a hard split


def test_environment_matrix_table():
    elements = parse_elements(load_source("deployment-guide").text)
    (table,) = [e for e in elements if e.kind == "table"]
    assert table.heading_path == (GUIDE, "Environment Matrix")
    assert table.header.cells == ("Environment", "Replica count", "Approval")
    assert [r.cells for r in table.rows] == [
        ("production", "4", "SRE"), ("staging", "2", "Release manager"), ("canary", "1", "SRE"),
        ("development", "1", "None")]


def test_faq_skips_a_heading_level():
    headings = [e for e in parse_elements(load_source("deploy-faq").text) if e.kind == "heading"]
    assert [e.level for e in headings] == [1] + [3] * 6
    assert headings[1].heading_path == (
        "Harbor Deployment FAQ", "How long does a staging deploy take?")


@pytest.mark.parametrize("source_id, path, acl", [
    ("deployment-guide", (GUIDE,), ("employees",)),
    ("deployment-guide", (GUIDE, "Overview", "Release cadence"), ("employees",)),
    ("deployment-guide", (GUIDE, "Environment Matrix"), ("sre",)),
    ("deployment-guide", (GUIDE, "Deploying to production", "Canary rollout"), ("sre",)),
    ("deployment-guide", (GUIDE, "Rolling back"), ("employees",)),
    ("deployment-guide", (GUIDE, "Rolling back", "Rolling back staging"), ("employees",)),
    ("deployment-guide", (GUIDE, "Rolling back", "Rolling back production"), ("sre",)),
    ("deployment-guide", (GUIDE, "Configuration and secrets", "Production secrets"), ("sre",)),
    ("deployment-guide", ("Not a heading",), ("employees",)),
    ("failover-runbook", (RUNBOOK, "Failover steps"), ("oncall", "sre")),
    ("failover-runbook", (RUNBOOK, "Notes from the March drill"), None),
    ("failover-runbook", (RUNBOOK,), None),
    ("deploy-faq", ("Harbor Deployment FAQ", "How often are secrets rotated?"), ("employees",)),
    ("fernhill-release-notes", ("Fernhill release notes", "Production"), ("employees",)),
])
def test_acl_for(source_id, path, acl):
    assert load_source(source_id).acl_for(path) == acl


def test_longest_rule_wins_whatever_the_order():
    source = dataclasses.replace(load_source("deploy-faq"), section_acls=(
        SectionAcl(("A", "B"), ("sre",)), SectionAcl(("A",), ("employees",))))
    assert source.acl_for(("A", "B", "C")) == ("sre",)
    assert source.acl_for(("A", "X")) == ("employees",)


def test_every_rule_matches_a_heading():
    assert all(unmatched_acl_rules(s) == [] for s in load_sources())


def test_renamed_heading_leaves_its_rule_unmatched():
    guide = load_source("deployment-guide")
    renamed = dataclasses.replace(guide, text=guide.text.replace(
        "## Environment Matrix", "## Environments"))
    assert unmatched_acl_rules(renamed) == [SectionAcl((GUIDE, "Environment Matrix"), ("sre",))]
    assert renamed.acl_for((GUIDE, "Environments")) == ("employees",)  # why the loader refuses


def test_load_source_unknown():
    with pytest.raises(ValueError, match="no fixture source"):
        load_source("missing")


@pytest.fixture
def fixture_copy(tmp_path, monkeypatch):
    """A writable copy of the fixture directory that the loader reads instead of the real one."""
    with as_file(fixture.FIXTURE_DIR) as real:
        shutil.copytree(real, tmp_path / "fixture")
    monkeypatch.setattr(fixture, "FIXTURE_DIR", tmp_path / "fixture")
    fixture._load.cache_clear()
    yield tmp_path / "fixture"
    fixture._load.cache_clear()


def test_loader_refuses_a_changed_file(fixture_copy):
    path = fixture_copy / "deploy-faq.md"
    path.write_bytes(path.read_bytes().replace(b"\n", b"\r\n"))
    with pytest.raises(ValueError, match="deploy-faq.md does not match its sha256"):
        load_sources()


def test_loader_refuses_a_rule_for_a_missing_heading(fixture_copy):
    manifest = fixture_copy / "manifest.toml"
    manifest.write_text(manifest.read_text().replace(
        '"Deployment Guide", "Environment Matrix"', '"Deployment Guide", "Environment matrix"'))
    with pytest.raises(ValueError, match="match no heading"):
        load_sources()


def test_loader_reads_the_copy(fixture_copy):
    assert [s.source_id for s in load_sources()][0] == "deployment-guide"
