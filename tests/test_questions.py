"""The lesson-6 question set: every evidence span reproduces its text, and the loader refuses
anything that would make a question unfair (stale revision, wrong tenant, unreadable evidence)."""

import copy
import json

import pytest

from chunklib.access import authorized
from chunklib.course.fixture import load_source
from chunklib.course.questions import QUESTIONS_FILE, get_question, load_questions, parse_questions
from chunklib.elements import parse_elements
from chunklib.evaluation import evidence_complete
from chunklib.experiment import EvidenceQuestion
from chunklib.windows import text_windows

RAW = json.loads(QUESTIONS_FILE.read_text(encoding="utf-8"))
QUESTIONS = load_questions()


def test_there_are_at_least_thirty_questions_with_unique_ids():
    assert len(RAW["questions"]) == len(QUESTIONS) == 39
    assert [q.id for q in QUESTIONS] == [f"q{i:02d}" for i in range(1, 40)]
    assert all(isinstance(q, EvidenceQuestion) for q in QUESTIONS)


@pytest.mark.parametrize("item", RAW["questions"], ids=lambda item: item["id"])
def test_every_span_reproduces_its_stored_text(item):
    """Read straight from the JSON, independently of the loader."""
    source = load_source(item["source_id"])
    assert item["revision"] == source.revision
    assert item["evidence"], "every question needs evidence"
    for ev in item["evidence"]:
        assert type(ev["start"]) is int and type(ev["end"]) is int
        assert 0 <= ev["start"] < ev["end"] <= len(source.text)
        assert source.text[ev["start"]:ev["end"]] == ev["text"]
        assert source.text.count(ev["text"]) == 1, "evidence text must be unambiguous"
    starts = [ev["start"] for ev in item["evidence"]]
    assert starts == sorted(starts)


@pytest.mark.parametrize("q", QUESTIONS, ids=lambda q: q.id)
def test_the_subject_may_read_its_evidence(q):
    source = load_source(q.source_id)
    assert q.tenant_id == source.tenant_id
    for start, end in q.evidence_spans:
        touched = [e for e in parse_elements(source.text) if e.start < end and start < e.end]
        assert touched and all(authorized(source.acl_for(e.heading_path), q.groups)
                               for e in touched)


def test_the_set_covers_the_cases_the_lesson_needs():
    restricted = [q.id for q in QUESTIONS if set(q.groups) - {"employees"}]
    other_tenant = [q.id for q in QUESTIONS if q.tenant_id != "kestrel"]
    header = [q.id for q in QUESTIONS
              if any(e.text == "Environment | Replica count | Approval" for e in q.evidence)]
    assert len(restricted) == 17 and {"sre", "oncall"} <= {g for q in QUESTIONS for g in q.groups}
    assert other_tenant == ["q39"]
    assert header == ["q10", "q11"]
    assert {q.source_id for q in QUESTIONS} == {"deployment-guide", "failover-runbook",
                                                 "deploy-faq", "fernhill-release-notes"}


def test_some_evidence_straddles_window_boundaries():
    """Evidence that no window of 400 characters without overlap holds whole: overlap's case."""
    cut = []
    for q in QUESTIONS:
        windows = text_windows(load_source(q.source_id).text, 400, 0)
        if not all(evidence_complete(windows, span) for span in q.evidence_spans):
            cut.append(q.id)
    assert len(cut) == 16
    long = [q.id for q in QUESTIONS if max(e - s for s, e in q.evidence_spans) > 300]
    assert long == ["q19", "q21"]


def test_get_question():
    assert get_question("q19").source_id == "deployment-guide"
    with pytest.raises(ValueError, match="q99"):
        get_question("q99")


def broken(change):
    data = {"questions": [copy.deepcopy(RAW["questions"][9])]}
    change(data["questions"][0])
    return data


@pytest.mark.parametrize("change, message", [
    (lambda q: q["evidence"][0].update(text="Environment | Replicas | Approval"),
     "does not reproduce"),
    (lambda q: q["evidence"][0].update(start=5188), "does not reproduce"),
    (lambda q: q.update(revision="2025.01.01-1"), "fixture holds"),
    (lambda q: q.update(tenant_id="fernhill"), "tenant"),
    (lambda q: q.update(groups=["employees"]), "may not read"),
    (lambda q: q.update(evidence=[]), "no evidence"),
    (lambda q: q["evidence"].reverse(), "not after the previous span"),
    (lambda q: q["evidence"][0].update(end=10**6), "out of"),
    (lambda q: q.update(id="question-10"), "id"),
    (lambda q: q.update(question="  "), "empty"),
    (lambda q: q.update(source_id="no-such-source"), "no fixture source"),
])
def test_the_loader_refuses_unfair_or_stale_questions(change, message):
    with pytest.raises(ValueError, match=message):
        parse_questions(broken(change))


def test_repeated_ids_are_refused():
    item = RAW["questions"][0]
    with pytest.raises(ValueError, match="repeat"):
        parse_questions({"questions": [item, item]})
    assert parse_questions({"questions": []}) == []
