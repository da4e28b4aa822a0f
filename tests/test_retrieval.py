"""chunklib.retrieval: filter before score for every retriever, RRF, bm25, dense cosine."""


import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chunklib import retrieval
from chunklib.access import readable
from chunklib.access import search as access_search
from chunklib.retrieval import (
    NAMES,
    filtered_search,
    get_retriever,
    rank_bm25,
    rank_dense,
    rank_hybrid,
    rrf,
)

WORDS = ["replica", "count", "rollback", "secret", "the", "of", "deploy", "freeze"]


def fake_vectors(texts):
    """Unit vectors from the words of each text (a bag of words over WORDS, plus one), so the
    dense ranker can be tested without the model."""
    out = np.zeros((len(texts), len(WORDS) + 1), dtype=np.float32)
    for row, text in enumerate(texts):
        for word in text.lower().split():
            out[row, WORDS.index(word) if word in WORDS else -1] += 1
        out[row] /= max(np.linalg.norm(out[row]), 1e-9)
    return out


chunk_st = st.fixed_dictionaries({
    "tenant_id": st.sampled_from(["kestrel", "osprey"]),
    "acl": st.one_of(st.none(), st.lists(st.sampled_from(["sre", "employees", "eng"]),
                                         max_size=2)),
    "acl_parts": st.one_of(st.none(), st.lists(
        st.one_of(st.none(), st.lists(st.sampled_from(["sre", "employees"]), max_size=2)),
        min_size=1, max_size=3)),
    "retrieval_text": st.lists(st.sampled_from(WORDS), min_size=1, max_size=6).map(" ".join),
})


def with_ids(chunks):
    return [{**c, "chunk_id": f"c{i:02d}"} for i, c in enumerate(chunks)]


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=30)
@given(chunks=st.lists(chunk_st, max_size=12),
       groups=st.lists(st.sampled_from(["sre", "employees", "eng"]), max_size=2),
       query=st.lists(st.sampled_from(WORDS), min_size=1, max_size=3).map(" ".join))
def test_only_authorized_chunks_reach_the_ranker(name, chunks, groups, query):
    chunks = with_ids(chunks)
    seen = []
    base = retrieval.RANKERS[name]

    def recording(q, allowed):
        seen.extend(allowed)
        kwargs = {"vectors": fake_vectors} if name in ("dense", "hybrid") else {}
        return base(q, allowed, **kwargs)

    hits = filtered_search(chunks, query, "kestrel", groups, 5, recording)
    ok = {c["chunk_id"] for c in chunks if c["tenant_id"] == "kestrel" and readable(c, groups)}
    assert {c["chunk_id"] for c in seen} <= ok
    assert {cid for cid, _ in hits} <= ok
    assert [s for _, s in hits] == sorted((s for _, s in hits), reverse=True)


def test_public_retrievers_wrap_filtered_search_with_their_ranker():
    secret = {"chunk_id": "s", "tenant_id": "t", "acl": ["sre"], "retrieval_text": "replica"}
    mixed = {"chunk_id": "m", "tenant_id": "t", "acl": None,
             "acl_parts": [["employees"], ["sre"]], "retrieval_text": "replica count"}
    other = {"chunk_id": "o", "tenant_id": "u", "acl": ["employees"], "retrieval_text": "replica"}
    public = {"chunk_id": "p", "tenant_id": "t", "acl": ["employees"],
              "retrieval_text": "replica count"}
    chunks = [secret, mixed, other, public]
    for name in NAMES:
        vectors = fake_vectors if name in ("dense", "hybrid") else None
        hits = get_retriever(name, vectors)(chunks, "replica count", "t", ["employees"], 5)
        assert [cid for cid, _ in hits] == ["p"], name
        both = get_retriever(name, vectors)(chunks, "replica count", "t", ["employees", "sre"], 5)
        assert {cid for cid, _ in both} == {"p", "m", "s"}, name


def test_terms_retriever_is_lesson_5_search():
    chunks = with_ids([{"tenant_id": "t", "acl": ["g"], "retrieval_text": t}
                       for t in ["replica count", "the count", "freeze", "count of replica"]])
    assert get_retriever("terms")(chunks, "replica count", "t", ["g"], 3) == \
        access_search(chunks, "replica count", "t", ["g"], 3)


@settings(max_examples=100)
@given(st.lists(st.lists(st.tuples(st.sampled_from("abcdefg"), st.integers(0, 9)),
                         max_size=7, unique_by=lambda p: p[0]), min_size=1, max_size=3))
def test_rrf_scores_and_order(rankings):
    fused = rrf(rankings)
    ids = {cid for ranking in rankings for cid, _ in ranking}
    assert {cid for cid, _ in fused} == ids
    assert [s for _, s in fused] == sorted((s for _, s in fused), reverse=True)
    for cid, score in fused:
        expected = sum(1 / (60 + r) for ranking in rankings
                       for r, (c, _) in enumerate(retrieval.top(ranking, len(ranking)), 1)
                       if c == cid)
        assert score == pytest.approx(expected, abs=1e-6)
    # an id first in every ranking it is in, and in every ranking, wins
    if all(ranking for ranking in rankings):
        firsts = {retrieval.top(r, 1)[0][0] for r in rankings}
        if len(firsts) == 1:
            assert fused[0][0] == firsts.pop()


def test_rrf_uses_k_60():
    assert retrieval.RRF_K == 60
    assert rrf([[("a", 1.0)]]) == [("a", round(1 / 61, 6))]
    with pytest.raises(ValueError, match="k must be >= 0"):
        rrf([], k=-1)


def test_bm25_ranks_the_rarer_term_higher_and_drops_chunks_without_terms():
    chunks = with_ids([{"retrieval_text": t} for t in
                       ["the replica count", "the freeze", "the rollback plan", "nothing here"]])
    ranked = retrieval.top(rank_bm25("replica the", chunks), 10)
    assert ranked[0][0] == "c00"
    assert "c03" not in {cid for cid, _ in ranked}
    assert rank_bm25("...", chunks) == []


def test_bm25_statistics_come_from_the_authorized_chunks_only():
    # the same chunk scores differently when the others around it change: so the table must
    # be built from what the reader may see, not from the whole corpus
    a = {"chunk_id": "a", "retrieval_text": "replica count"}
    others = [{"chunk_id": f"b{i}", "retrieval_text": "freeze"} for i in range(4)]
    rare = dict(rank_bm25("replica", [a, *others]))
    common = dict(rank_bm25("replica", [a, {"chunk_id": "r", "retrieval_text": "replica"},
                                        *others]))
    assert rare["a"] > common["a"] > 0


def test_dense_is_the_cosine_of_unit_vectors():
    chunks = with_ids([{"retrieval_text": t} for t in ["replica count", "freeze", "replica"]])
    ranked = dict(rank_dense("replica", chunks, fake_vectors))
    assert ranked["c02"] == pytest.approx(1.0)
    assert ranked["c01"] == pytest.approx(0.0)
    assert ranked["c00"] == pytest.approx(1 / np.sqrt(2), abs=1e-6)
    fused = retrieval.top(rank_hybrid("replica", chunks, fake_vectors), 3)
    # c01 shares no term: only the dense list holds it, last
    assert fused[-1] == ("c01", round(1 / 63, 6))


@pytest.mark.parametrize("call, error, match", [
    (lambda: get_retriever("cosine"), ValueError, "retriever must be one of"),
    (lambda: get_retriever("lexical", fake_vectors), ValueError, "vectors applies"),
    (lambda: filtered_search([], 3, "t", ["g"], 1, rank_bm25), TypeError, "query must be a str"),
    (lambda: filtered_search([], "q", "t", "g", 1, rank_bm25), TypeError, "groups"),
    (lambda: filtered_search([], "q", "t", ["g"], -1, rank_bm25), ValueError, "k must be"),
])
def test_bad_arguments_are_named(call, error, match):
    with pytest.raises(error, match=match):
        call()


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=25)
@given(chunks=st.lists(chunk_st, max_size=12),
       asks=st.lists(st.tuples(
           st.lists(st.sampled_from(WORDS), min_size=1, max_size=3).map(" ".join),
           st.sampled_from(["kestrel", "osprey"]),
           st.lists(st.sampled_from(["sre", "employees", "eng"]), max_size=2).map(tuple)),
           max_size=6),
       k=st.integers(0, 4))
def test_filtered_search_many_is_filtered_search_per_ask(name, chunks, asks, k):
    chunks = with_ids(chunks)
    rank = retrieval.ranker(name, fake_vectors if name in ("dense", "hybrid") else None)
    assert retrieval.filtered_search_many(chunks, asks, k, rank) == [
        filtered_search(chunks, q, tenant, groups, k, rank) for q, tenant, groups in asks]


def test_remembered_vectors_are_the_same_rows_looked_up_once():
    asked = []

    def vectors(texts):
        asked.append(list(texts))
        return fake_vectors(texts)

    lookup = retrieval.remembered(vectors)
    first = lookup(["replica count", "the deploy", "replica count"])
    again = lookup(["the deploy", "freeze"])
    assert np.array_equal(first, fake_vectors(["replica count", "the deploy", "replica count"]))
    assert np.array_equal(again, fake_vectors(["the deploy", "freeze"]))
    assert asked == [["replica count", "the deploy"], ["freeze"]]
    with pytest.raises(ValueError, match="vectors applies to the dense and hybrid"):
        retrieval.ranker("lexical", fake_vectors)
