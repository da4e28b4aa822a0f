"""The lesson-6 question set: questions about the course fixture, who asks them, and their
evidence (``chunklib.experiment.EvidenceQuestion`` records).

``chunklib/data/questions.json`` holds every question with the asking subject (``tenant_id``,
``groups``) and its evidence: half-open character spans in one named source revision, each
stored with the exact text it holds. ``load_questions`` reads the file once and validates it
against the fixture: the revision must be the source's current one (a changed source fails
loudly instead of silently shifting spans), every span must reproduce its stored text, spans are
in order and disjoint, the subject belongs to the source's tenant, and the subject may read every
section an evidence span touches (an unreadable answer would make the question unfair).

Leaves out: the question type itself (``chunklib.experiment``), questions of your own
(``chunklib.corpus``), questions with no answer in the fixture, answers spread over several
sources, and graded answer text (the metrics compare spans, not generated answers).

    >>> load_questions()[0].evidence_spans
    [(137, 233)]
"""

from __future__ import annotations

import json
import re
from functools import cache, lru_cache
from importlib.resources import files

from chunklib.access import authorized
from chunklib.course.fixture import load_source
from chunklib.documents import Source
from chunklib.elements import parse_elements
from chunklib.experiment import Evidence, EvidenceQuestion

QUESTIONS_FILE = files("chunklib").joinpath("data", "questions.json")
_ID = re.compile(r"q\d{2,}")


@lru_cache(maxsize=8)
def _elements(text: str) -> tuple:
    """``parse_elements(text)``, parsed once per source text (questions share a few sources)."""
    return tuple(parse_elements(text))


def _section_acls(source: Source, start: int, end: int) -> list:
    """The ACLs of every element that shares a character with ``[start, end)``."""
    return [source.acl_for(e.heading_path) for e in _elements(source.text)
            if e.start < end and start < e.end]


def validate_question(q: EvidenceQuestion) -> EvidenceQuestion:
    """Check one question against the fixture; ValueError naming the question if anything is off.

    ``validate_question(load_questions()[0]).id`` -> 'q01'
    """
    if not _ID.fullmatch(q.id):
        raise ValueError(f"question id must look like 'q01', got {q.id!r}")
    if not isinstance(q.question, str) or not q.question.strip():
        raise ValueError(f"{q.id}: the question text is empty")
    source = load_source(q.source_id)
    if q.revision != source.revision:
        raise ValueError(f"{q.id}: written for {q.source_id} revision {q.revision}, but the "
                         f"fixture holds {source.revision}: re-check its evidence spans")
    if q.tenant_id != source.tenant_id:
        raise ValueError(f"{q.id}: the subject's tenant {q.tenant_id!r} is not the source's "
                         f"tenant {source.tenant_id!r}")
    if not q.evidence:
        raise ValueError(f"{q.id}: no evidence")
    previous_end = 0
    for i, ev in enumerate(q.evidence):
        if not (isinstance(ev.start, int) and isinstance(ev.end, int)
                and previous_end <= ev.start < ev.end <= len(source.text)):
            raise ValueError(f"{q.id}: evidence[{i}] ({ev.start}, {ev.end}) is empty, out of "
                             "the source, or not after the previous span")
        if source.text[ev.start:ev.end] != ev.text:
            raise ValueError(f"{q.id}: evidence[{i}] ({ev.start}, {ev.end}) does not reproduce "
                             f"its text {ev.text[:40]!r}")
        for acl in _section_acls(source, ev.start, ev.end):
            if not authorized(acl, q.groups):
                raise ValueError(f"{q.id}: groups {list(q.groups)} may not read the section "
                                 f"of evidence[{i}] (ACL {acl})")
        previous_end = ev.end
    return q


def parse_questions(data: dict) -> list[EvidenceQuestion]:
    """The questions of the JSON structure of ``questions.json``, validated; ids must be unique.

    ``parse_questions({"questions": []})`` -> []
    """
    out = []
    for item in data["questions"]:
        evidence = tuple(Evidence(e["start"], e["end"], e["text"]) for e in item["evidence"])
        q = EvidenceQuestion(item["id"], item["question"], item["tenant_id"],
                             tuple(item["groups"]), item["source_id"], item["revision"], evidence)
        out.append(validate_question(q))
    ids = [q.id for q in out]
    if len(set(ids)) != len(ids):
        raise ValueError("question ids repeat")
    return out


@cache
def _load() -> tuple[EvidenceQuestion, ...]:
    return tuple(parse_questions(json.loads(QUESTIONS_FILE.read_text(encoding="utf-8"))))


def load_questions() -> list[EvidenceQuestion]:
    """Every question of the set, validated, in file order (read once, then shared).

    ``len(load_questions())`` -> 39
    """
    return list(_load())


def get_question(question_id: str) -> EvidenceQuestion:
    """One question by id. ``get_question("q10").groups`` -> ('employees', 'sre')"""
    for q in _load():
        if q.id == question_id:
            return q
    raise ValueError(f"no question {question_id!r}")
