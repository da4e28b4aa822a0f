"""Lesson 6 (Retrieval evaluation): the hands-on self-checks and the multiple-choice questions.

Expected values are computed with ``chunklib.evaluation``, ``chunklib.context`` and
``chunklib.course.experiment`` when a check runs; the worked examples' data live here so the
notebook, the checks and the tests share one copy.

Leaves out: prose; the templates ``notebooks/06-evaluation/prose/*.md`` hold it, rendered with
``figures()`` by ``tools/sync_prose.py``.

    >>> CHECKS["ex1_covered"].expected()
    120
"""

from chunklib.context import merge_hits, pack_context
from chunklib.course import POINTS
from chunklib.course.quiz import Question
from chunklib.course.selfcheck import Check
from chunklib.course.words import WORDS as _WORDS
from chunklib.course.words import and_list as _and_list
from chunklib.course.words import fraction as _fraction
from chunklib.evaluation import evidence_complete, span_iou, span_precision, span_recall
from chunklib.intervals import intersection_length, total_length, union_length

# Predict first: two overlapping windows (size 100, overlap 50) and evidence across their cut.
PREDICT_SIZE, PREDICT_OVERLAP = 100, 50
PREDICT_CHUNKS = [(100, 200), (150, 250)]
PREDICT_EVIDENCE = (130, 230)

# Example 1: the top 4 hits of windows of 100 characters with overlap 50, and the evidence.
EX1_RETRIEVED = [(100, 200), (150, 250), (50, 150), (400, 500)]
EX1_EVIDENCE = [(130, 330)]

# Example 2: six hits to merge, then pack into a budget of characters.
EX2_HITS = [
    {"chunk_id": "a", "source_id": "deployment-guide", "revision": "r1",
     "acl": ("employees",), "start": 100, "end": 200, "score": 5},
    {"chunk_id": "b", "source_id": "deployment-guide", "revision": "r1",
     "acl": ("employees",), "start": 150, "end": 250, "score": 4},
    {"chunk_id": "c", "source_id": "deployment-guide", "revision": "r1",
     "acl": ("employees",), "start": 250, "end": 300, "score": 2},
    {"chunk_id": "d", "source_id": "deployment-guide", "revision": "r1",
     "acl": ("sre",), "start": 300, "end": 400, "score": 6},
    {"chunk_id": "e", "source_id": "deploy-faq", "revision": "r1",
     "acl": ("employees",), "start": 110, "end": 210, "score": 5},
    {"chunk_id": "f", "source_id": "deployment-guide", "revision": "r2",
     "acl": ("employees",), "start": 120, "end": 220, "score": 3},
]
EX2_BUDGET = 250
# Example 3: the overlap sweep of windows of 400 characters over the fixture (computed).
EX3_SIZE = 400
# The budget of the merge-and-pack walkthrough (q17, windows 400/100), in characters.
PACK_BUDGET = 1500
#: Quiz question 3: the top hits (one chunk twice) and the evidence span.
QUIZ_HITS = ((0, 100), (50, 150), (50, 150))
QUIZ_EVIDENCE = (60, 110)
# The overlap the explorer opens at (and where the stopping rule stops; a test checks both),
# the larger and the smaller chunk size the lesson compares.
STOP_EXAMPLE_OVERLAP, LARGE_SIZE, SMALL_SIZE = 100, 1000, 200
# The two questions whose second evidence span is the table header of a row.
HEADER_QUESTIONS = ("q10", "q11")
#: The fixture question the own-documents section shows as a row of a question file.
CLI_EXAMPLE = "q14"
_CLI_OUT = "evaluation-results"  # the command's default output folder (tests check it)
#: The retrievers every conclusion is checked with, in the order the prose lists their counts.
RETRIEVERS = ("dense", "lexical", "hybrid")
# Every comparison of completeness the lesson makes, as (first, second), each (kind, size,
# overlap), named for the figures ``split[<name>]`` ("11 to 3, ...": the questions the first
# completes and the second does not, and the reverse, under each of RETRIEVERS) and
# ``p[<name>]`` (``chunklib.course.sweep.sign_test_p``). The prose ranks the first above the
# second for RANKED only; for UNRANKED it ranks neither (``chunklib.course.sweep.holds_across``;
# tests/test_lesson06_figures.py checks both).
RANKED = {"pc_s200": (("parent-child", 200, 0), ("structure", 200, 0)),
          "s400_w0": (("structure", 400, 0), ("windows", 400, 0)),
          "w200_w0": (("windows", 400, 200), ("windows", 400, 0))}
UNRANKED = {"w100_w0": (("windows", 400, 100), ("windows", 400, 0)),
            "w200_w100": (("windows", 400, 200), ("windows", 400, 100)),
            "w100_w150": (("windows", 400, 100), ("windows", 400, 150)),
            "a1000_w1000": (("acl-windows", 1000, 0), ("windows", 1000, 0)),
            "a0_w0": (("acl-windows", 400, 0), ("windows", 400, 0)),
            "a100_w100": (("acl-windows", 400, 100), ("windows", 400, 100)),
            "s1000_s400": (("structure", 1000, 0), ("structure", 400, 0)),
            "pc_s1000": (("parent-child", 200, 0), ("structure", 1000, 0)),
            "s400_w200": (("structure", 400, 0), ("windows", 400, 200))}
#: The ``min_gain`` the prose applies to the averaged sweep's means (the rule's default).
MEANS_MIN_GAIN = 1


def hits_table(hits: list[dict]) -> str:
    """Hits as the Markdown table Part 1 shows.

    ``hits_table(EX2_HITS[:1]).splitlines()[-1]``
    -> "| `a` | deployment-guide | r1 | ('employees',) | 100 | 200 | 5 |"
    """
    keys = ("source_id", "revision", "acl", "start", "end", "score")
    return "\n".join(["| chunk_id | " + " | ".join(keys) + " |", "|---" * (len(keys) + 1) + "|"]
                     + [f"| `{h['chunk_id']}` | " + " | ".join(str(h[k]) for k in keys) + " |"
                        for h in hits])


def _ex3_stop() -> int:
    from chunklib.course.experiment import overlap_sweep
    from chunklib.experiment import stopping_point

    return stopping_point(overlap_sweep(EX3_SIZE)).strategy.overlap


def figures() -> dict[str, object]:
    """Every number lesson 6's prose states, computed with ``chunklib.course.experiment``: name ->
    value (a later step renders the prose from it; ``tests/test_lesson06_figures.py`` finds
    each in the text). Counts are of the 39 questions, top 5.

    ``figures()["sweep_counts"]`` -> '20, 22, 28, 26, 29'
    """
    from chunklib.course import experiment as ex
    from chunklib.course.fixture import load_sources
    from chunklib.course.overlap import MYTH
    from chunklib.course.questions import get_question, load_questions

    S = ex.Strategy
    size, mid = EX3_SIZE, STOP_EXAMPLE_OVERLAP
    questions = load_questions()

    def summary(kind, size, overlap=0):
        return ex.summarize(S(kind, size, overlap))

    def reasons(kind, size, overlap=0):
        return {r: len(ids) for r, ids in ex.diagnose(S(kind, size, overlap)).items()}

    sweep = ex.overlap_sweep(size)
    stop = ex.stopping_point(sweep)
    after = sweep[sweep.index(stop) + 1]
    w0, w100, w200 = (summary("windows", size, o) for o in (0, mid, size // 2))
    a0 = summary("acl-windows", size)
    s400, s1000, s200 = (summary("structure", n) for n in (size, LARGE_SIZE, SMALL_SIZE))
    w1000, w1000_100, a1000 = (summary("windows", LARGE_SIZE),
                               summary("windows", LARGE_SIZE, mid),
                               summary("acl-windows", LARGE_SIZE))
    pc200 = summary("parent-child", SMALL_SIZE)
    q17 = get_question("q17")
    o17 = ex.evaluate(S("windows", size, mid))[questions.index(q17)]
    hits, merged, packed = ex.packed_context("q17", S("windows", size, mid), PACK_BUDGET)
    (holder,) = [m for m in merged if m["source_id"] == q17.source_id
                 and m["start"] <= q17.evidence_spans[0][0]
                 and q17.evidence_spans[0][1] <= m["end"]]
    mixed = {o: sum(c["acl_parts"] is not None for c in ex.chunk_dicts(S("windows", size, o)))
             for o in (0, mid)}
    cut_s400 = ex.diagnose(S("structure", size))["cut"]
    long_answers = [q for q in cut_s400 if q not in HEADER_QUESTIONS]
    _n, myth_size, myth_overlap = MYTH
    overlaps = ex.sweep_overlaps(size)
    best_precision = max(ex.summarize(s).precision for s in ex.LESSON_STRATEGIES)
    return {
        "questions": len(questions), "k": ex.K, "point_per_question": round(100 / len(questions),
                                                                           1),
        "size": size, "min_overlap": overlaps[0], "mid_overlap": mid,
        "max_overlap": overlaps[-1], "large_size": LARGE_SIZE, "small_size": SMALL_SIZE,
        "sweep_step": ex.OVERLAP_STEP, "myth_percent": round(100 * myth_overlap / myth_size),
        "predict_size": PREDICT_SIZE, "predict_overlap": PREDICT_OVERLAP,
        "predict_starts": ", ".join(str(i * (PREDICT_SIZE - PREDICT_OVERLAP)) for i in range(4)),
        "predict_evidence": PREDICT_EVIDENCE, "predict_chunks": tuple(PREDICT_CHUNKS),
        "ex1_evidence": EX1_EVIDENCE, "ex1_retrieved": EX1_RETRIEVED, "ex1_k": len(EX1_RETRIEVED),
        "examples_points": POINTS["examples"], "hidden_points": POINTS["hidden"],
        "ex2_table": hits_table(EX2_HITS), "ex2_budget": EX2_BUDGET,
        "ex3_table": "\n".join(["| overlap | complete | index duplication |", "|---|---|---|"]
                               + [f"| {s.strategy.overlap} | {s.counts} | "
                                  f"{s.index_duplication:.3f} |" for s in sweep]),
        "sweep_counts": ", ".join(str(s.complete) for s in sweep),
        "asked_by_others": sum(q.groups != ("employees",) or q.tenant_id != "kestrel"
                               for q in questions),
        "two_span_questions": sum(len(q.evidence) > 1 for q in questions),
        "other_tenant_questions": _WORDS[sum(q.tenant_id != "kestrel" for q in questions)],
        "header_questions": len(HEADER_QUESTIONS),
        "header_questions_word": _WORDS[len(HEADER_QUESTIONS)],
        "ex2_hits_word": _WORDS[len(EX2_HITS)].capitalize(),
        "sources_word": _WORDS[len(load_sources())],
        "stop_overlap": stop.strategy.overlap, "stop_counts": stop.counts,
        "stop_duplication": round(stop.index_duplication, 3), "after_stop_duplication":
        round(after.index_duplication, 3),
        "w0": w0.counts, "w100": w100.counts, "w200": w200.counts,
        "w100_duplication": round(w100.index_duplication, 3),
        "w200_duplication": round(w200.index_duplication, 3),
        "w200_near_duplicates": w200.near_duplicates, "w200_hits": w200.hits,
        "w200_retrieved_chars": w200.retrieved_chars,
        "s400": s400.counts, "s400_duplication": round(s400.index_duplication, 3),
        "s400_overlap": ex.structure_overlap(size),
        "s400_near_duplicates": s400.near_duplicates, "s400_hits": s400.hits,
        "s400_retrieved_chars": s400.retrieved_chars,
        "best_precision": best_precision,
        "best_precision_fraction": _fraction(round(1 / best_precision)),
        "s400_vs_w200_word": _WORDS[abs(w200.complete - s400.complete)],
        "pc_vs_s1000_word": _WORDS[abs(pc200.complete - s1000.complete)],
        "stop_drop_word": _WORDS[stop.complete - after.complete],
        "w200_duplication_times_s400": round(w200.index_duplication / s400.index_duplication),
        "a0": a0.counts, "a1000": a1000.counts,
        "a0_gain_over_w0": a0.complete - w0.complete,
        "reasons_w0": reasons("windows", size), "reasons_w100": reasons("windows", size, mid),
        "reasons_w200": reasons("windows", size, size // 2),
        "reasons_s400": reasons("structure", size), "reasons_a0": reasons("acl-windows", size),
        "reasons_s1000": reasons("structure", LARGE_SIZE),
        "reasons_w1000": reasons("windows", LARGE_SIZE),
        "reasons_a1000": reasons("acl-windows", LARGE_SIZE),
        "mixed_windows_400": mixed[0], "mixed_windows_400_100": mixed[mid],
        "w1000": w1000.counts, "w1000_100": w1000_100.counts,
        "s1000": s1000.counts, "s200": s200.counts, "pc200": pc200.counts,
        "pc200_retrieved_chars": pc200.retrieved_chars,
        "s1000_retrieved_chars": s1000.retrieved_chars,
        "long_answer_word": _WORDS[len(long_answers)],
        "long_answer_list": _and_list([e - s for q in long_answers
                                       for s, e in get_question(q).evidence_spans]),
        "q17_recall": round(o17.recall, 2), "q17_evidence_chars": len(q17.evidence[0].text),
        "q17_hits": len(hits), "q17_near_duplicates": o17.near_duplicates,
        "q17_segments": len(merged), "q17_packed": len(packed), "pack_budget": PACK_BUDGET,
        "q17_holder": (holder["start"], holder["end"]),
        "stop_complete": stop.complete, "after_stop_overlap": after.strategy.overlap,
        "after_stop_counts": after.counts,
        "w200_complete": w200.complete, "s400_complete": s400.complete,
        **_percent_figures(w200.complete, s400.complete, len(questions)),
        **_precision_figures(), **_retriever_figures(), **_cli_figures(),
        **_reshuffle_figures(), **_model_limit_figures(),
        "q17_packed_chars": sum(p["end"] - p["start"] for p in packed),
        "q17_context_chars": len(ex.context_text(packed)),
        "s400_overlap_fraction": _fraction(size // ex.structure_overlap(size)),
    }


def _model_limit_figures() -> dict[str, object]:
    """Lesson 1's limits of all-MiniLM-L6-v2 met by the chunks of ``LARGE_SIZE``: how many
    ``retrieval_text``s are longer (in word pieces, ``[CLS]`` and ``[SEP]`` included) than the
    training length, and how many windows sentence-transformers cuts.

    ``_model_limit_figures()["w1000_chunks"]`` -> 28
    """
    from chunklib.course import experiment as ex
    from chunklib.tokens import MINILM_MAX_SEQ_LENGTH, MINILM_SPECIAL_TOKENS, wordpiece_count
    from chunklib.truncation import MINILM_TRAINED_LENGTH

    def pieces(kind):
        return [wordpiece_count(c["retrieval_text"]) + MINILM_SPECIAL_TOKENS
                for c in ex.chunk_dicts(ex.Strategy(kind, LARGE_SIZE))]

    windows, structure = pieces("windows"), pieces("structure")
    cut = [n for n in windows if n > MINILM_MAX_SEQ_LENGTH]
    return {"minilm_trained": MINILM_TRAINED_LENGTH, "minilm_max": MINILM_MAX_SEQ_LENGTH,
            "w1000_chunks": len(windows),
            "w1000_over_trained": sum(n > MINILM_TRAINED_LENGTH for n in windows),
            "s1000_chunks": len(structure),
            "s1000_over_trained": sum(n > MINILM_TRAINED_LENGTH for n in structure),
            "w1000_over_max_word": _WORDS[len(cut)], "w1000_longest": max(windows)}


def _reshuffle_figures() -> dict[str, object]:
    """Why questions fail, windows of ``EX3_SIZE`` without overlap against overlap
    ``STOP_EXAMPLE_OVERLAP`` (and half the size): the cut questions overlap makes whole, the ones
    it cuts instead, and the other reasons that change with the boundaries.

    ``_reshuffle_figures()["w100_newly_cut"]`` -> 'q06, q17 and q30'
    """
    from chunklib.course import experiment as ex

    d0, d100, d200 = (ex.diagnose(ex.Strategy("windows", EX3_SIZE, o))
                      for o in (0, STOP_EXAMPLE_OVERLAP, EX3_SIZE // 2))
    before = {q: r for r, ids in d0.items() for q in ids}
    after = {q: r for r, ids in d100.items() for q in ids}

    def moved(old, new):
        return [q for q in before if before[q] == old and after[q] == new]

    newly_cut = [q for q in d100["cut"] if q not in d0["cut"]]
    return {"w100_made_whole": sum(after[q] != "cut" for q in d0["cut"]),
            "w100_newly_cut": _and_list(newly_cut), "w100_newly_cut_word": _WORDS[len(newly_cut)],
            "w200_cut_ids": _and_list(d200["cut"]),
            "w100_now_readable": _and_list(moved("unreadable", "complete")),
            "w100_now_unreadable": _and_list(moved("complete", "unreadable")),
            "w100_cut_to_unreadable": _and_list(moved("cut", "unreadable"))}


def chroma_row(question_id: str) -> str:
    """One fixture question as a line of a ``chunklib.evaluate`` question file (Chroma's
    ``chunking_evaluation`` format), its ``corpus_id`` the file name without ``.md``.

    ``chroma_row("q14").split(",")[0]`` -> 'How long does a release build take?'
    """
    import csv
    import io
    import json

    from chunklib.course.questions import get_question

    q = get_question(question_id)
    refs = [{"content": e.text, "start_index": e.start, "end_index": e.end} for e in q.evidence]
    out = io.StringIO()
    csv.writer(out, lineterminator="").writerow([q.question, json.dumps(refs), q.source_id])
    return out.getvalue()


def _cli_figures() -> dict[str, object]:
    """The defaults of ``python -m chunklib.evaluate`` that the last section names."""
    from chunklib.evaluate import DEFAULTS, main  # noqa: F401 (the command the section runs)

    return {"cli_example": chroma_row(CLI_EXAMPLE),
            "cli_sizes": ",".join(map(str, DEFAULTS["sizes"])),
            "cli_overlaps": ",".join(map(str, DEFAULTS["overlaps"])),
            "cli_retrievers": ",".join(DEFAULTS["retrievers"]), "cli_k": DEFAULTS["k"],
            "cli_out": _CLI_OUT}


def _by_retriever(kind: str, size: int, overlap: int = 0) -> str:
    """Complete questions of one strategy under each of ``RETRIEVERS``, in words for the prose.

    ``_by_retriever("windows", 400)`` -> '20, 20 and 20'
    """
    from chunklib.course import experiment as ex

    return _and_list([ex.summarize(ex.Strategy(kind, size, overlap), ex.K, r).complete
                      for r in RETRIEVERS])


def _p_text(p: float) -> str:
    """A sign-test chance as the prose writes it. ``_p_text(0.0625)`` -> '0.062'"""
    return "below 0.001" if p < 0.001 else f"{p:.3f}".rstrip("0").rstrip(".")


def _comparison_figures() -> dict[str, object]:
    """For each comparison of ``RANKED`` and ``UNRANKED`` (by name): the discordant splits
    under dense, lexical and hybrid retrieval (``split``, ``split_by_r``) and their chances
    under a coin (``p``, ``p_by_r``); the dense split of the coin example; and the rule's bar."""
    from chunklib.course import experiment as ex
    from chunklib.course import sweep as sw

    out, raw = {"split": {}, "p": {}, "split_by_r": {}, "p_by_r": {}}, {}
    for name, (one, other) in {**RANKED, **UNRANKED}.items():
        splits = [sw.discordant(ex.Strategy(*one), ex.Strategy(*other), r) for r in RETRIEVERS]
        raw[name] = splits
        texts = [f"{w} to {lo}" for w, lo in splits]
        chances = [_p_text(sw.sign_test_p(*s)) for s in splits]
        out["split"][name], out["p"][name] = _and_list(texts), _and_list(chances)
        out["split_by_r"][name] = dict(zip(RETRIEVERS, texts))
        out["p_by_r"][name] = dict(zip(RETRIEVERS, chances))
    wins, losses = raw["s1000_s400"][RETRIEVERS.index(ex.MAIN_RETRIEVER)]
    coin = sw.sign_test_p(wins, losses)
    # the ranked pair nearest the bar: the largest chance of any ranked pair, any retriever
    nearest = max(sw.sign_test_p(*split) for name in RANKED for split in raw[name])
    return {**out, "coin_wins": wins, "coin_losses": losses,
            "n_comparisons_word": _WORDS[len(RANKED) + len(UNRANKED)],
            "closest_pass": _p_text(nearest),
            "coin_in": round(1 / coin),
            "alpha": sw.ALPHA, "alpha_in": round(1 / sw.ALPHA),
            "smallest_splits": " or ".join(f"{w} to {lo}" for w, lo in sw.smallest_splits())
                                .replace(" or ", ", ", 1),
            "smallest_losses": _and_list([lo for _w, lo in sw.smallest_splits()])
                               .replace(" and ", " or ")}


def _retriever_figures() -> dict[str, object]:
    """The counts behind the comparisons across retrievers and the averaged overlap sweep: the
    spread of one overlap's count over the window offsets, the mean gains of the first and
    second ``STOP_EXAMPLE_OVERLAP`` characters of overlap."""
    from chunklib.course import experiment as ex
    from chunklib.course import sweep as sw
    from chunklib.retrieval import RRF_K

    named = {f"{kind.replace('-', '_')}_{size}_{overlap}": (kind, size, overlap)
             for kind, size, overlap in UNRANKED["a100_w100"]}  # the pair quiz question 5 shows
    out = {f"{key}_by_r": _by_retriever(*spec) for key, spec in named.items()}
    one, other = (ex.Strategy(*spec) for spec in UNRANKED["a100_w100"])
    gapped = [r for r in RETRIEVERS if ex.summarize(one, ex.K, r).complete
              != ex.summarize(other, ex.K, r).complete]
    out.update({"a100_w100_ties_word": _WORDS[len(RETRIEVERS) - len(gapped)],
                "a100_w100_ties_word_cap": _WORDS[len(RETRIEVERS) - len(gapped)].capitalize(),
                "a100_w100_gaps_word": _WORDS[len(gapped)], "a100_w100_gap_by": _and_list(gapped)})
    points = {r: sw.averaged_sweep(EX3_SIZE, r) for r in RETRIEVERS}
    at = {p.overlap: i for i, p in enumerate(points[RETRIEVERS[0]])}
    first, second = (at[STOP_EXAMPLE_OVERLAP], at[0]), (at[2 * STOP_EXAMPLE_OVERLAP],
                                                        at[STOP_EXAMPLE_OVERLAP])

    def gains(pair):
        return _and_list([f"{points[r][pair[0]].mean - points[r][pair[1]].mean:.2f}"
                          for r in RETRIEVERS])

    dense = points[ex.MAIN_RETRIEVER]
    pc = ex.Strategy("parent-child", SMALL_SIZE)
    header = [q for q in HEADER_QUESTIONS if ex.evaluate(pc)[_index(q)].complete]
    return {**out, **_comparison_figures(), "n_offsets": sw.N_OFFSETS,
            "offset_step": _fraction(sw.N_OFFSETS), "rrf_k": RRF_K,
            "offset_spread_max": max(max(p.complete) - min(p.complete)
                                     for r in RETRIEVERS for p in points[r]),
            "dense_means": _and_list([f"{p.mean:.2f}" for p in dense]),
            "first_gains": gains(first), "second_gains": gains(second),
            "first_duplication": round(dense[first[0]].index_duplication
                                       - dense[first[1]].index_duplication, 3),
            "second_duplication": round(dense[second[0]].index_duplication
                                        - dense[second[1]].index_duplication, 3),
            "pc_header_dense": _WORDS[len(header)],
            **_gain_noise_figures(dense, first, second),
            "means_min_gain": MEANS_MIN_GAIN,
            "means_stops": _and_list([_means_stop([(p.overlap, p.mean, p.index_duplication)
                                                 for p in points[r]], MEANS_MIN_GAIN)
                                    for r in RETRIEVERS])}


def _gain_noise_figures(dense, first, second) -> dict[str, object]:
    """How far the averaged sweep's dense means can be trusted: the mean gains of the first and
    the second step (``first``, ``second``: (to, from) positions in ``dense``), the shifted
    grids on which the second step gains more than the first (and each grid's gains), and the
    step behind the stop the rule finds on the means."""
    def grid_gains(pair):
        return [a - b for a, b in zip(dense[pair[0]].complete, dense[pair[1]].complete,
                                      strict=True)]

    later = sum(g2 > g1 for g1, g2 in zip(grid_gains(first), grid_gains(second), strict=True))
    stop = _means_stop([(p.overlap, p.mean, p.index_duplication) for p in dense],
                       MEANS_MIN_GAIN)
    at = [p.overlap for p in dense].index(stop)
    after = dense[min(at + 1, len(dense) - 1)]
    last_from, last_to = dense[at].mean, after.mean
    return {"dense_first_gain": f"{dense[first[0]].mean - dense[first[1]].mean:.2f}",
            "dense_second_gain": f"{dense[second[0]].mean - dense[second[1]].mean:.2f}",
            "dense_first_grid_gains": _and_list(grid_gains(first)),
            "dense_second_grid_gains": _and_list(grid_gains(second)),
            "dense_means_next": after.overlap,
            "second_gains_more_word": _WORDS[later],
            "n_offsets_word": _WORDS[len(dense[0].complete)],
            "dense_means_stop": stop, "dense_last_gain": f"{last_to - last_from:.2f}",
            "dense_last_from": f"{last_from:.2f}", "dense_last_to": f"{last_to:.2f}"}


def _means_stop(points, min_gain: int = 1) -> int:
    """The stopping rule applied to the mean counts of an averaged sweep, given as
    ``(overlap, mean, duplication)``: the overlap before the first step whose mean gains less
    than ``min_gain`` while the duplication rises, else the largest overlap.

    ``_means_stop([(0, 20.0, 0.0), (50, 22.5, 0.1), (100, 23.0, 0.3)])`` -> 50
    """
    for (overlap, mean, dup), (_o, next_mean, next_dup) in zip(points, points[1:]):
        if next_mean - mean < min_gain and next_dup > dup:
            return overlap
    return points[-1][0]


def _index(question_id: str) -> int:
    """The position of a question in the question set. ``_index("q17")`` -> 16"""
    from chunklib.course.questions import load_questions

    return [q.id for q in load_questions()].index(question_id)


def _percent_figures(windows: int, structure: int, questions: int) -> dict[str, object]:
    """Quiz question 4: the two completeness counts as the report's rounded percentages."""
    rates = [100 * n / questions for n in (windows, structure)]
    return {"w200_percent": round(rates[0]), "s400_percent": round(rates[1]),
            "percent_gap": abs(round(rates[0]) - round(rates[1])),
            "w200_percent_2": f"{rates[0]:.2f}", "s400_percent_2": f"{rates[1]:.2f}"}


def _precision_figures() -> dict[str, object]:
    """Quiz question 3: the span precision of QUIZ_HITS against QUIZ_EVIDENCE, and the wrong
    denominators the other options use."""
    evidence = [QUIZ_EVIDENCE]
    lengths = [end - start for start, end in QUIZ_HITS]
    return {"q3_k": len(QUIZ_HITS), "q3_hits": _and_list(list(QUIZ_HITS)),
            "q3_evidence": QUIZ_EVIDENCE, "q3_repeated": QUIZ_HITS[1],
            "q3_covered": intersection_length(QUIZ_HITS, evidence),
            "q3_merged": union_length(QUIZ_HITS), "q3_total": total_length(QUIZ_HITS),
            "q3_evidence_length": union_length(evidence),
            "q3_recall": span_recall(QUIZ_HITS, evidence),
            "q3_sum": " + ".join(map(str, lengths)), "q3_first": lengths[0]}


_COMPLETE = ("Complete asks for ONE chunk that starts at or before the evidence and ends at or "
             "after it.")
_COVERED = ("Merge the retrieved spans first (each character once), then count the evidence "
            "characters that fall inside the merged spans.")
_RECALL = "Covered evidence characters divided by the evidence length."
_PRECISION = ("Covered characters divided by ALL retrieved characters, adding up every hit's "
              "length, overlaps and all: the reader pays for each of them.")
_IOU = "covered / (Σ|r| + |E| − covered): the retrieved length plus the evidence, once."
_GROUPS = ("Hits merge only when source, revision AND ACL are equal and the spans overlap or "
           "touch; count what is left.")
_SPAN = "Follow the chain of overlapping or touching spans with equal source, revision and ACL."
_PACKED = ("Go by score, highest first (ties: lower start first); skip a hit that does not fit "
           "and keep going; then sort the chosen ones by source, revision and start.")
_STOP = ("Walk the table from O = 0; stop before the first step that gains fewer than one "
         "complete question while the duplication rises.")

CHECKS = {
    "predict_complete": Check(lambda: evidence_complete(PREDICT_CHUNKS, PREDICT_EVIDENCE),
                              _COMPLETE),
    "ex1_complete": Check(lambda: evidence_complete(EX1_RETRIEVED, EX1_EVIDENCE[0]), _COMPLETE),
    "ex1_covered": Check(lambda: intersection_length(EX1_EVIDENCE, EX1_RETRIEVED), _COVERED),
    "ex1_recall": Check(lambda: span_recall(EX1_RETRIEVED, EX1_EVIDENCE), _RECALL),
    "ex1_precision": Check(lambda: span_precision(EX1_RETRIEVED, EX1_EVIDENCE), _PRECISION),
    "ex1_iou": Check(lambda: span_iou(EX1_RETRIEVED, EX1_EVIDENCE), _IOU),
    "ex2_groups": Check(lambda: len(merge_hits(EX2_HITS)), _GROUPS),
    "ex2_span": Check(lambda: next((m["start"], m["end"]) for m in merge_hits(EX2_HITS)
                                   if any(p["chunk_id"] == "a" for p in m["parts"])), _SPAN),
    "ex2_packed": Check(lambda: [h["chunk_id"] for h in pack_context(EX2_HITS, EX2_BUDGET)],
                        _PACKED),
    "ex3_stop": Check(_ex3_stop, _STOP),
}

QUIZ = [
    Question(
        "On the fixture, windows of {size} characters complete {stop_complete} of {questions} "
        "questions with overlap {stop_overlap}. A colleague raises the overlap to "
        "{after_stop_overlap} 'because more overlap always helps'. What does the same grid of "
        "windows show at {after_stop_overlap}?",
        {
            "A": ("Completeness rises: more overlap can only add evidence.",
                  "It fell to {after_stop_counts}. Changing the overlap moves every window "
                  "boundary, so some evidence that fitted before is now cut; and the duplication "
                  "ratio rose from {stop_duplication:.3f} to {after_stop_duplication:.3f}. "
                  "Averaged over shifted grids the count does rise, but no step 'can only add "
                  "evidence'."),
            "B": ("Completeness falls, while the index grows larger.",
                  "Completeness fell to {after_stop_counts} while the index duplication rose from "
                  "{stop_duplication:.3f} to {after_stop_duplication:.3f}. A drop of "
                  "{stop_drop_word} questions is a split of {split_by_r[w100_w150][dense]}, which "
                  "a coin gives often (averaged over the window starts, the step even gains), so "
                  "the finding is not that overlap hurts but that this grid shows no gain for a "
                  "larger index: on this grid the stopping rule stops at {stop_overlap}. "
                  "Overlap is meant for evidence cut at a boundary, and every step moves all "
                  "the boundaries; measure each step and stop when completeness gains too little "
                  "for the duplication it adds."),
            "C": ("Nothing changes: the same chunks are still retrieved.",
                  "Every window boundary moves, so the chunks, their scores and the hits all "
                  "change."),
            "D": ("Duplication falls, because fewer chunks are needed.",
                  "A larger overlap means a smaller stride and more chunks: the duplication "
                  "ratio rises."),
        },
        "B",
    ),
    Question(
        "Two retrieved chunks hold the same sentence word for word: one from the deployment "
        "guide's section readable by `sre`, one from the section readable by `employees` of "
        "the same revision. They sit next to each other. What should deduplication do?",
        {
            "A": ("Merge them: the text is the same, so keeping both wastes context.",
                  "Similar text is not the test. Different ACLs mean different readers; a "
                  "merged span would carry one ACL for text the other group may not read."),
            "B": ("Keep one of them at random and drop the other copy.",
                  "Dropping loses provenance: the citation and the permission of the dropped "
                  "chunk are gone."),
            "C": ("Keep them apart, each with its own provenance and score.",
                  "Hits merge only with equal source, revision and ACL, and the ACLs differ "
                  "here. Merge neighbours only within one source, revision and ACL; text "
                  "similarity alone would merge what must stay apart."),
            "D": ("Merge them if their embeddings are close enough to each other.",
                  "Closeness of meaning says nothing about source, version or permission; it "
                  "is the same mistake as comparing strings."),
        },
        "C",
    ),
    Question(
        "The top {q3_k} hits are the spans {q3_hits} (one chunk came back twice, through two index "
        "entries), and the evidence is {q3_evidence}. What is the span precision?",
        {
            "A": ("{q3_covered} / {q3_merged}: evidence over the characters of the merged hits.",
                  "That ignores duplicates: the reader gets {q3_repeated} twice and pays for both "
                  "copies, so precision must show it."),
            "B": ("{q3_covered} / {q3_evidence_length} = {q3_recall}: all of the evidence is "
                  "covered by the hits.",
                  "That is the recall. Precision asks how much of what was retrieved is "
                  "evidence."),
            "C": ("{q3_covered} / {q3_total}: covered over every retrieved character.",
                  "Precision divides the covered characters by Σ|r| = {q3_sum}, duplicates "
                  "counted, so overlap and repeats between hits lower it, which is the cost they "
                  "put on the context."),
            "D": ("{q3_covered} / {q3_first}: covered characters over the first hit's length.",
                  "Precision is over all k hits, not the first one."),
        },
        "C",
    ),
    Question(
        "Windows of {size} with overlap {max_overlap} complete {w200_complete} of the {questions} "
        "questions, structure-aware chunks of {size} characters complete {s400_complete}. A report "
        "says: 'windows {w200_percent} %, structure-aware {s400_percent} %'. What is wrong with "
        "it?",
        {
            "A": ("Nothing: percentages are the standard way to compare.",
                  "Without the counts a reader cannot tell that {percent_gap} points here are "
                  "{s400_vs_w200_word} questions out of {questions}."),
            "B": ("It hides that the gap is just {s400_vs_w200_word} questions out of "
                  "{questions}.",
                  "Report {w200} against {s400}: with {questions} questions one question moves "
                  "the rate by {point_per_question} points; the questions only one of them "
                  "completes split {split_by_r[s400_w200][dense]} for the structure-aware "
                  "chunks, which a coin gives often; and the lexical and hybrid retrievers put "
                  "the two in the other order. Counts show how little evidence stands behind "
                  "the gap."),
            "C": ("It should give more decimals: {w200_percent_2} % against {s400_percent_2} %.",
                  "More decimals suggest more precision than {questions} questions hold."),
            "D": ("It should report recall instead of completeness.",
                  "Recall is a different measure; the problem is hiding how few questions "
                  "stand behind the rates."),
        },
        "B",
    ),
    Question(
        "Windows of {size} cut at ACL changes, with overlap {mid_overlap}, complete "
        "{acl_windows_400_100_by_r} questions under dense, lexical and hybrid retrieval; "
        "plain windows of the same size and overlap complete {windows_400_100_by_r}. What does "
        "the lesson conclude about the two strategies?",
        {
            "A": ("Nothing about their order: no retriever's split passes the coin test.",
                  "A conclusion about chunking must hold whichever retriever ranks the chunks, "
                  "and none gives a split that passes. {a100_w100_ties_word_cap} retrievers tie, "
                  "and {a100_w100_gap_by}'s split, {split_by_r[a100_w100][hybrid]}, is "
                  "one a coin gives more often than not (p = {p_by_r[a100_w100][hybrid]}): the "
                  "lesson ranks neither."),
            "B": ("Cutting at ACL changes helps: hybrid retrieval completes more questions.",
                  "Only {a100_w100_gaps_word} retriever sees a gap, and even there the split, "
                  "{split_by_r[a100_w100][hybrid]}, is one a coin gives often: it shows no gain."),
            "C": ("They are equal: {a100_w100_ties_word} of the three retrievers tie.",
                  "A tie on {questions} questions does not show equality either; and counting "
                  "votes among retrievers is not a test. The lesson draws no conclusion."),
            "D": ("Use hybrid retrieval, since it separates the two.",
                  "A retriever that separates two strategies is not thereby better; choose the "
                  "retriever on its own evaluation, and the chunking on what holds for all."),
        },
        "A",
    ),
    Question(
        "In another system a parent is a whole section, subsections included (this lesson's "
        "parents hold only what sits directly under the heading). Parent-child retrieval finds a "
        "small chunk the subject may read and expands it to its parent, which also holds a "
        "subsection the subject may not read. What should happen?",
        {
            "A": ("Expand anyway: the child was authorized, so its parent is too.",
                  "The ACL check must run again for what is actually returned; otherwise the "
                  "expansion leaks the restricted subsection."),
            "B": ("Expand the parent once for each child that points to it.",
                  "A parent is expanded once however many children point to it; and this one "
                  "must not be expanded at all."),
            "C": ("Expand now, and remove the restricted sentences when the answer is shown.",
                  "By then the model has read them: filtering at display time is too late."),
            "D": ("Check the ACL again, and return only the child if it fails.",
                  "Authorization applies to the text that reaches the model, so parent "
                  "expansion (like merging) re-checks the ACL; when the subject may not read "
                  "the whole parent, the child is returned alone."),
        },
        "D",
    ),
]
