"""chunklib.evaluate and chunklib.corpus: lesson 6's evaluation on a folder of documents and a
question file in Chroma's format; every bad input refused, naming file and row, writing nothing."""

import csv
import json
import shutil
from pathlib import Path

import pytest

from chunklib.corpus import CorpusError, load_corpus, load_questions
from chunklib.evaluate import evaluate_folder, main, strategies

DATA = Path(__file__).parent / "data"
CORPUS, QUESTIONS = DATA / "corpus", DATA / "corpus-questions.csv"


def rows_of(path=QUESTIONS):
    with open(path, newline="", encoding="utf-8") as handle:
        return list(csv.reader(handle))


def write_rows(path, rows):
    with open(path, "w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows(rows)
    return path


def test_the_test_questions_match_their_documents():
    docs = load_corpus(CORPUS)
    assert sorted(docs) == ["faq.md", "guides/compost.md", "notes.txt"]
    questions = load_questions(QUESTIONS, docs)
    assert [q.row for q in questions] == [1, 2, 3, 4, 5, 6]
    for q, row in zip(questions, rows_of()[1:], strict=True):
        refs = json.loads(row[1])
        assert [docs[q.corpus_id].text[s:e] for s, e in q.evidence_spans] == \
            [r["content"] for r in refs]


def test_lexical_run_prints_the_table_and_writes_per_question_results(tmp_path, capsys):
    out = tmp_path / "out"
    status = main([str(CORPUS), str(QUESTIONS), "--retriever", "lexical", "--sizes", "200",
                   "--overlaps", "0,50", "-k", "2", "--out", str(out), "--no-progress"])
    assert status == 0
    printed = capsys.readouterr().out
    assert "| windows 200/0 | lexical |" in printed and "| structure 200 | lexical |" in printed
    assert (out / "summary.md").read_text(encoding="utf-8").strip() in printed
    results = list(csv.DictReader((out / "results.csv").open(encoding="utf-8")))
    assert len(results) == 3 * 6  # strategies × questions
    first = results[0]
    assert first["strategy"] == "windows 200/0" and first["row"] == "1"
    assert len(json.loads(first["hits"])) == 2


def test_measures_follow_lesson_6(tmp_path):
    rows, results = evaluate_folder(CORPUS, QUESTIONS, kinds=["structure"], sizes=[2000],
                                    retrievers=["lexical"], k=3, out=None)
    (row,) = rows
    # structure chunks are the 7 sections (none longer than 2000): each question's evidence
    # lies whole in one of them, so with k = 3 recall is 1 and precision is the evidence's share
    # of the three hits (they never overlap one another)
    docs = load_corpus(CORPUS)
    questions = load_questions(QUESTIONS, docs)
    assert (row.n, row.chunks) == (6, 7)
    assert row.complete == 6 and row.recall == pytest.approx(1.0)
    shares = [sum(e - s for s, e in q.evidence_spans) / sum(h[2] - h[1] for h in r["hits"])
              for q, r in zip(questions, results, strict=True)]
    assert row.precision == pytest.approx(sum(shares) / 6)
    assert row.iou == pytest.approx(row.precision)
    assert [r["complete"] for r in results] == [True] * 6


def test_dense_run_caches_vectors_between_runs(tmp_path):
    cache = tmp_path / "vectors.sqlite"
    kwargs = dict(kinds=["structure"], sizes=[300], retrievers=["dense", "hybrid"], k=2,
                  out=None, cache=cache, progress=False)
    first, _ = evaluate_folder(CORPUS, QUESTIONS, **kwargs)
    stored = cache.stat().st_size
    from chunklib.vectors import VectorCache

    assert len(VectorCache(str(cache))) > 6
    second, _ = evaluate_folder(CORPUS, QUESTIONS, **kwargs)
    assert first == second and cache.stat().st_size == stored


def bad_cases(tmp_path):
    """(name, corpus folder, question file, expected message) for each kind of bad input."""
    good = rows_of()
    header, row = good[0], good[1]
    refs = json.loads(row[1])
    cases = []

    def case(name, rows, folder=CORPUS, match=None):
        cases.append((name, folder, write_rows(tmp_path / f"{name}.csv", rows), match))

    wrong = [{**refs[0], "content": refs[0]["content"].upper()}]
    case("content", [header, [row[0], json.dumps(wrong), row[2]]],
         match=r"row 1 \(line 2\): reference 0: content is not the document's text")
    far = [{**refs[0], "end_index": 10_000}]
    case("range", [header, [row[0], json.dumps(far), row[2]]], match="offsets out of range")
    back = [{**refs[0], "start_index": refs[0]["end_index"], "end_index": refs[0]["start_index"]}]
    case("reversed", [header, good[2], [row[0], json.dumps(back), row[2]]],
         match=r"row 2 \(line 3\): reference 0: offsets out of range")
    case("unknown", [header, [row[0], row[1], "greenhouse-manual"]],
         match="unknown corpus 'greenhouse-manual'")
    case("fields", [header, row[:2]], match="malformed row: 2 fields")
    case("json", [header, [row[0], "[{content: 1}", row[2]]], match="references is not JSON")
    case("keys", [header, [row[0], json.dumps([{"content": "x"}]), row[2]]],
         match="lacks start_index, end_index")
    case("float", [header, [row[0], json.dumps([{**refs[0], "start_index": 1.5}]), row[2]]],
         match="start_index must be an integer")
    case("empty-question", [header, ["", row[1], row[2]]], match="the question is empty")
    case("header", [["q", "refs", "corpus"], row], match="the header must be")
    case("no-rows", [header], match="no questions")
    empty = tmp_path / "empty-folder"
    empty.mkdir()
    case("empty-corpus", good, folder=empty, match="empty corpus")
    blank = tmp_path / "blank-doc"
    shutil.copytree(CORPUS, blank)
    (blank / "notes.txt").write_text("  \n", encoding="utf-8")
    case("empty-document", good, folder=blank, match=r"notes.txt: empty document")
    return cases


def test_each_bad_input_is_refused_naming_file_and_row_and_nothing_is_written(tmp_path, capsys):
    for name, folder, questions, match in bad_cases(tmp_path):
        out, cache = tmp_path / f"out-{name}", tmp_path / f"cache-{name}.sqlite"
        with pytest.raises(CorpusError, match=match):
            evaluate_folder(folder, questions, retrievers=["dense"], out=out, cache=cache)
        status = main([str(folder), str(questions), "--out", str(out), "--cache", str(cache)])
        err = capsys.readouterr().err
        assert status == 2 and err.startswith("error: "), name
        assert str(questions) in err or str(folder) in err, name
        assert not out.exists() and not cache.exists(), name


def test_every_problem_is_listed_at_once(tmp_path):
    good = rows_of()
    bad = write_rows(tmp_path / "two.csv", [good[0], [good[1][0], good[1][1], "nope"], good[2],
                                            good[3][:1]])
    with pytest.raises(CorpusError) as info:
        load_questions(bad, load_corpus(CORPUS))
    assert [p.split(": ", 1)[0].rsplit(", ", 1)[1] for p in info.value.problems] == \
        ["row 1 (line 2)", "row 3 (line 4)"]


def test_options_are_checked():
    with pytest.raises(ValueError, match="kinds must be among"):
        strategies(["semantic"], [400], [0])
    with pytest.raises(ValueError, match="every overlap is at least the size"):
        strategies(["windows"], [100], [100])
    with pytest.raises(ValueError, match="retrievers must be among"):
        evaluate_folder(CORPUS, QUESTIONS, retrievers=["bm25"], out=None)
    with pytest.raises(TypeError, match="retrievers must be a list"):
        evaluate_folder(CORPUS, QUESTIONS, retrievers="dense", out=None)
    with pytest.raises(ValueError, match="k must be >= 1"):
        evaluate_folder(CORPUS, QUESTIONS, k=0, out=None)
    assert strategies(["windows", "structure"], [400], [0, 100, 400]) == \
        [("windows", 400, 0), ("windows", 400, 100), ("structure", 400, 100)]
