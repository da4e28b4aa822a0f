"""A learner's own documents and questions, read and checked before anything is computed.

The documents are the ``.md`` and ``.txt`` files of a folder (subfolders included), read as
UTF-8 text with universal newlines (as Python's ``open`` reads them, so offsets count the same
characters). The questions come in the format of Chroma's ``chunking_evaluation``
(``questions_df.csv``): a CSV file with the columns ``question``, ``references`` and
``corpus_id``; ``references`` is a JSON list of objects with ``content``, ``start_index`` and
``end_index`` (a half-open character span of the corpus); ``corpus_id`` names the document, by
its path relative to the folder (``notes/deploy.md``) or by that path without its extension
(``notes/deploy``, as Chroma names ``state_of_the_union``).

Every problem is reported at once, each naming the file and the question's row (row 1 is the
first question; the line number in the file follows): a reference whose ``content`` is not the
document's slice at its offsets, offsets out of range, an unknown corpus, an empty document or
folder, a malformed row. ``load_corpus`` and ``load_questions`` raise ``CorpusError`` (a
``ValueError``) and return nothing partial.

Leaves out: other file types (PDF, HTML), encodings other than UTF-8, and ACLs (every document
is readable by the one reader, ``READER``).

    >>> parse_reference({"content": "ab", "start_index": 0, "end_index": 2}, "ab")
    (0, 2)
"""

from __future__ import annotations

import csv
import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

from chunklib.documents import Source

SUFFIXES = (".md", ".txt")
COLUMNS = ("question", "references", "corpus_id")
TENANT, READER = "local", ("reader",)


class CorpusError(ValueError):
    """Bad input: a list of problems, each naming its file (and row)."""

    def __init__(self, problems: list[str]):
        self.problems = problems
        super().__init__("\n".join(problems))


@dataclass(frozen=True)
class UserQuestion:
    """One row of the question file: its row number, text, document and evidence spans."""

    row: int
    question: str
    corpus_id: str
    evidence_spans: tuple[tuple[int, int], ...]


def load_corpus(folder: str | Path) -> dict[str, Source]:
    """corpus id (path relative to ``folder``, with ``/``) -> a ``Source`` of one reader.

    ``sorted(load_corpus("tests/data/corpus"))[0]`` -> 'faq.md'
    """
    folder = Path(folder)
    if not folder.is_dir():
        raise CorpusError([f"{folder}: not a folder of documents"])
    files = sorted(p for p in folder.rglob("*") if p.is_file() and p.suffix in SUFFIXES)
    if not files:
        raise CorpusError([f"{folder}: empty corpus, no {' or '.join(SUFFIXES)} files"])
    out, problems = {}, []
    for path in files:
        name = path.relative_to(folder).as_posix()
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError as error:
            problems.append(f"{path}: not UTF-8 text ({error.reason} at byte {error.start})")
            continue
        if not text.strip():
            problems.append(f"{path}: empty document (a corpus file needs text)")
            continue
        revision = hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]
        out[name] = Source(name, revision, TENANT, name, text, READER, ())
    if problems:
        raise CorpusError(problems)
    return out


def _corpus_names(corpus: dict[str, Source]) -> dict[str, str]:
    """Every name a corpus id may use -> the document (a stem shared by two files is left out)."""
    names: dict[str, str | None] = {}
    for name in corpus:
        stem = name.rsplit(".", 1)[0]
        names[stem] = None if stem in names and names[stem] != name else name
    names.update({name: name for name in corpus})
    return {k: v for k, v in names.items() if v is not None}


def parse_reference(ref: object, text: str) -> tuple[int, int]:
    """A reference object checked against its document's ``text``: its ``(start, end)``.

    ``parse_reference({"content": "b", "start_index": 1, "end_index": 2}, "abc")`` -> (1, 2)
    """
    if not isinstance(ref, dict):
        raise ValueError(f"a reference must be an object, got {type(ref).__name__}")
    missing = [key for key in ("content", "start_index", "end_index") if key not in ref]
    if missing:
        raise ValueError(f"a reference lacks {', '.join(missing)}")
    start, end, content = ref["start_index"], ref["end_index"], ref["content"]
    for key, value in (("start_index", start), ("end_index", end)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"{key} must be an integer, got {value!r}")
    if not isinstance(content, str):
        raise ValueError(f"content must be a string, got {type(content).__name__}")
    if not 0 <= start < end <= len(text):
        raise ValueError(f"offsets out of range: start_index {start}, end_index {end} (need "
                         f"0 <= start_index < end_index <= {len(text)}, the document's length)")
    if text[start:end] != content:
        raise ValueError(f"content is not the document's text at {start}:{end}: "
                         f"{content[:40]!r} != {text[start:end][:40]!r}")
    return start, end


def load_questions(path: str | Path, corpus: dict[str, Source]) -> list[UserQuestion]:
    """The questions of a CSV file in Chroma's format, each checked against ``corpus``.

    ``len(load_questions("tests/data/corpus-questions.csv", load_corpus("tests/data/corpus")))``
    -> 6
    """
    path = Path(path)
    try:
        raw = path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise CorpusError([f"{path}: no such question file"]) from None
    except UnicodeDecodeError as error:
        raise CorpusError([f"{path}: not UTF-8 text ({error.reason})"]) from None
    reader = csv.reader(raw.splitlines(keepends=True))
    header = next(reader, None)
    if header is None or [h.strip() for h in header[:3]] != list(COLUMNS) or len(header) != 3:
        raise CorpusError([f"{path}: the header must be {','.join(COLUMNS)}, got {header}"])
    names = _corpus_names(corpus)
    questions, problems = [], []
    for row, fields in enumerate(reader, start=1):
        where = f"{path}, row {row} (line {reader.line_num})"
        try:
            questions.append(_parse_row(row, fields, corpus, names))
        except ValueError as error:
            problems.append(f"{where}: {error}")
    if not questions and not problems:
        problems.append(f"{path}: no questions")
    if problems:
        raise CorpusError(problems)
    return questions


def _parse_row(row: int, fields: list[str], corpus: dict[str, Source],
               names: dict[str, str]) -> UserQuestion:
    if len(fields) != len(COLUMNS):
        raise ValueError(f"malformed row: {len(fields)} fields, expected {len(COLUMNS)} "
                         f"({','.join(COLUMNS)})")
    question, references, corpus_id = fields
    if not question.strip():
        raise ValueError("malformed row: the question is empty")
    if corpus_id not in names:
        raise ValueError(f"unknown corpus {corpus_id!r}: no such document (known: "
                         f"{', '.join(sorted(corpus))})")
    try:
        refs = json.loads(references)
    except json.JSONDecodeError as error:
        raise ValueError(f"malformed row: references is not JSON ({error.msg})") from None
    if not isinstance(refs, list) or not refs:
        raise ValueError("malformed row: references must be a non-empty JSON list")
    text = corpus[names[corpus_id]].text
    spans = []
    for i, ref in enumerate(refs):
        try:
            spans.append(parse_reference(ref, text))
        except ValueError as error:
            raise ValueError(f"reference {i}: {error}") from None
    return UserQuestion(row, question, names[corpus_id], tuple(sorted(spans)))
