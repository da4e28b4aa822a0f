"""The learner's wait: each lesson run top to bottom, and one slider move of each explorer.

Notebooks: every lesson in ``notebooks/*/`` (whatever exists at run time) is executed with
nbclient in a fresh kernel, as "Run all" does, from a temporary copy of its folder; each run
follows a run of an empty notebook (no cells: kernel start and shutdown only), and the ratio is
the median of the per-pair ratios. What runs is what a learner who has finished the lesson has
in front of them: the source notebook, so every answer cell holds its solution, with the
hidden-test regions removed exactly as nbgrader's release removes them (nbgrader's own
``ClearHiddenTests`` preprocessor, ``learner_notebook``); hidden tests run only at grading,
never in a learner's "Run all". The visible tests and every other cell stay. The three slowest
cells of the last run are recorded from nbclient's own timestamps. Each round also runs the
lesson's *floor*: a notebook with as many code cells as the lesson, the first importing what an
explorer needs (matplotlib's Figure and Agg canvas, ipywidgets) and the rest ``pass``: what any
lesson of that length with a matplotlib picture costs before it computes anything. A reference
row, "(imports only)", is that import cell alone. The issue's target, "Run all" within
``RUN_ALL_TARGET`` (1.25) times the floor, is judged on the median of the per-round ratios
lesson / floor (the two run one after the other, each first in every other round; 7 rounds by
default). Beside the wall-clock seconds, the kernel's own CPU seconds (user + system of the
reaped kernel process) are recorded for both: steadier than wall-clock seconds when other work
shares the cores. The vector cache the lessons read (the one the course ships,
``chunklib/data/minilm-vectors.npz``) is recorded with its size, and so are lesson 6's shipped
results (``chunklib/data/lesson6-results.json``). Kernels write bytecode as a learner's Python
does (a ``PYTHONDONTWRITEBYTECODE`` in the environment is dropped for them), so a lesson's own
modules are compiled in its first round only.

Sliders: every ``*_explorer`` factory in ``chunklib.widgets`` is built with its defaults, then
its ``size_slider`` (else its first other slider, else its first ``*_menu`` dropdown) is moved
one step and back, each move timed from setting ``.value`` until the callback returns (plot
drawn, PNG encoded, summary written): the redraw a learner waits for before the front end
receives the new image. CPU seconds are recorded beside wall-clock seconds. Every other slider
and menu of the explorer (the chunk stepper included) is then moved the same way, fewer times,
and the slowest control's median is recorded too: moves that change what a cached frame shows
(the document length, say) cost a full render.

Leaves out: the browser's own rendering and the comm round trip (a few milliseconds on
loopback); JupyterLab start-up.

    benchmarks/.venv/bin/python benchmarks/learner.py --json /tmp/learner.json
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import pkgutil
import shutil
import statistics
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

try:
    import resource
except ImportError:  # Windows: the kernel's CPU seconds are not recorded
    resource = None

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))


def lessons(root: Path = REPO / "notebooks") -> list[Path]:
    """The single notebook of every lesson folder that has one, in reading order."""
    found = []
    for folder in sorted(p for p in root.iterdir() if p.is_dir()):
        books = sorted(folder.glob("*.ipynb"))
        if len(books) == 1:
            found.append(books[0])
    return found


RUN_ALL_TARGET = 1.25  # issue 19: a lesson's "Run all" within 1.25x of its own floor
# One round's ratio moves by about 0.15 either way on this 2-core machine (other work, the
# kernel's shutdown polling in 0.1 s steps); the median of 7 rounds moves far less.
ROUNDS = 7


def execute(nb, folder: Path) -> float:
    """Seconds to run ``nb`` top to bottom in a fresh kernel started in ``folder``."""
    return execute_timed(nb, folder)[0]


def _children_cpu() -> float:
    if resource is None:
        return 0.0
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def execute_timed(nb, folder: Path) -> tuple[float, float]:
    """Wall-clock seconds to run ``nb`` top to bottom in a fresh kernel started in ``folder``,
    and the kernel's CPU seconds (the kernel is this process's child, reaped at shutdown)."""
    from nbclient import NotebookClient

    client = NotebookClient(nb, timeout=120, kernel_name="python3",
                            resources={"metadata": {"path": str(folder)}})
    start, cpu = time.perf_counter(), _children_cpu()
    client.execute()
    return time.perf_counter() - start, _children_cpu() - cpu


def vector_cache() -> dict:
    """The vector cache a lesson reads: the store the course ships, its size and entries."""
    import numpy as np

    from chunklib.vectors import SHIPPED_STORE

    path = Path(str(SHIPPED_STORE))
    # relative to the chunklib package's parent: the repository, or wherever chunklib was found
    name = str(path.relative_to(path.parents[2]))
    if not path.exists():
        return {"kind": "none shipped", "path": name}
    with np.load(path) as data:
        vectors = data["vectors"].shape
    return {"kind": "shipped with the course", "path": name,
            "bytes": path.stat().st_size, "vectors": vectors[0], "dimension": vectors[1]}


def shipped_results() -> dict:
    """Lesson 6's shipped results (``chunklib.course.experiment.RESULTS``): size, rows, and
    whether they match their inputs (else the lesson computes every number itself)."""
    from chunklib.course.experiment import RESULTS, shipped_results

    path = Path(str(RESULTS))
    if not path.exists():
        return {"kind": "none shipped"}
    return {"kind": "shipped with the course", "path": str(path.relative_to(path.parents[2])),
            "bytes": path.stat().st_size, "rows": len(json.loads(path.read_text())["rows"]),
            "current": bool(shipped_results())}


def _stamp(value: str) -> float:
    return datetime.fromisoformat(value.replace("Z", "+00:00")).timestamp()


def slowest_cells(nb, k: int = 3) -> list[dict]:
    """The ``k`` slowest code cells of an executed notebook, from nbclient's timestamps."""
    cells = []
    for i, cell in enumerate(nb.cells):
        ex = cell.get("metadata", {}).get("execution", {})
        if cell.cell_type == "code" and "shell.execute_reply" in ex:
            seconds = _stamp(ex["shell.execute_reply"]) - _stamp(ex["iopub.execute_input"])
            first = cell.source.strip().splitlines()[0][:60] if cell.source.strip() else ""
            cells.append({"cell": i, "seconds": round(seconds, 3), "first_line": first})
    return sorted(cells, key=lambda c: -c["seconds"])[:k]


FLOOR = "(imports only)"
IMPORTS = ("import ipywidgets, matplotlib.figure, matplotlib.backends.backend_agg"
           "  # what an explorer needs")


def learner_notebook(source):
    """A copy of the source notebook ``source`` as a learner who finished the lesson has it:
    every solution in place, the hidden-test regions removed by nbgrader's ``ClearHiddenTests``
    (what ``course.py release`` runs; the release also replaces the solutions by stubs, which
    a learner who finished has replaced by answers). Every cell stays, in order."""
    import nbformat
    from nbgrader.preprocessors import ClearHiddenTests

    nb, _ = ClearHiddenTests().preprocess(nbformat.from_dict(source), {})
    return nb


def floor_notebook(source):
    """As many code cells as ``source``: the explorer's imports, then ``pass``."""
    import nbformat

    n = sum(c.cell_type == "code" for c in source.cells)
    cells = [nbformat.v4.new_code_cell(IMPORTS)] + [nbformat.v4.new_code_cell("pass")
                                                    for _ in range(max(n - 1, 0))]
    return nbformat.v4.new_notebook(cells=cells, metadata=source.metadata)


def notebook_waits(rounds: int = ROUNDS, only: str | None = None) -> dict:
    import nbformat

    out = []
    # The floor of any lesson with an explorer: one cell importing what every explorer imports.
    floor = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(IMPORTS)])
    todo = [(FLOOR, None, floor)] + [(p.parent.name, p, None) for p in lessons()]
    for lesson, path, notebook in todo:
        if only and only not in lesson:
            continue
        print(f"  notebook {lesson} ...", end=" ", flush=True)
        source = notebook if path is None else learner_notebook(nbformat.read(path, 4))
        empty = nbformat.v4.new_notebook(metadata=source.metadata)
        floor_nb = floor_notebook(source) if path is not None else None
        pairs, floors, floor_times, cpu, last = [], [], [], [], None
        try:
            with tempfile.TemporaryDirectory() as tmp:
                folder = Path(tmp) / "lesson"
                if path is None:
                    folder.mkdir()
                else:
                    shutil.copytree(path.parent, folder)
                execute(nbformat.from_dict(empty), folder)  # warm the disk cache, untimed
                for i in range(rounds):
                    t_empty = execute(nbformat.from_dict(empty), folder)
                    # the floor and the lesson swap places every round, so neither always
                    # runs second (after a kernel that just warmed the caches, say)
                    if floor_nb is not None and i % 2 == 0:
                        t_floor, cpu_floor = execute_timed(nbformat.from_dict(floor_nb), folder)
                    last = nbformat.from_dict(source)
                    t_lesson, cpu_lesson = execute_timed(last, folder)
                    if floor_nb is not None and i % 2 == 1:
                        t_floor, cpu_floor = execute_timed(nbformat.from_dict(floor_nb), folder)
                    pairs.append((t_empty, t_lesson))
                    if floor_nb is not None:
                        floors.append(t_floor / t_empty)
                        floor_times.append(t_floor)
                        cpu.append((cpu_floor, cpu_lesson))
        except Exception as err:  # a lesson that fails to run is reported, not dropped
            out.append({"lesson": lesson, "status": f"failed: {type(err).__name__}: "
                        f"{str(err).splitlines()[0] if str(err) else ''}"[:300]})
            print(out[-1]["status"], flush=True)
            continue
        row = {"lesson": lesson, "status": "ok", "runs": len(pairs),
               "empty_median": statistics.median(p[0] for p in pairs),
               "lesson_median": statistics.median(p[1] for p in pairs),
               "ratio": statistics.median(p[1] / p[0] for p in pairs),
               "code_cells": sum(c.cell_type == "code" for c in source.cells),
               "floor_ratio": statistics.median(floors) if floors else None,
               "slowest_cells": slowest_cells(last)}
        if floor_times:
            ratios = [p[1] / f for p, f in zip(pairs, floor_times, strict=True)]
            cpu_ratios = [c[1] / c[0] for c in cpu if c[0] > 0]
            row.update({
                "floor_median": statistics.median(floor_times),
                "vs_floor": statistics.median(ratios),
                # every round's ratio: their spread is the measurement's own noise
                "vs_floor_rounds": [round(r, 3) for r in ratios],
                "cpu_vs_floor_rounds": [round(r, 3) for r in cpu_ratios],
                "cpu_lesson_median": statistics.median(c[1] for c in cpu),
                "cpu_floor_median": statistics.median(c[0] for c in cpu),
                "cpu_vs_floor": statistics.median(cpu_ratios) if cpu_ratios else None,
                "target": RUN_ALL_TARGET})
        out.append(row)
        print(f"{row['lesson_median']:.2f} s vs empty {row['empty_median']:.2f} s "
              f"({row['ratio']:.2f}x)" + (f"; vs its floor {row['floor_median']:.2f} s: "
                                           f"{row['vs_floor']:.2f}x" if floor_times else ""),
              flush=True)
    return {"notebooks": out}


def _spread(ratios) -> str:
    """A round's ratios, lowest to highest: ``_spread([1.2, 1.1])`` -> '1.10-1.20'"""
    return "-".join(f"{r:.2f}" for r in (min(ratios), max(ratios))) if ratios else ""


def floor_table(notebooks: list[dict]) -> list[str]:
    """Markdown rows: each lesson's "Run all" against its floor, and the 1.25x target met or
    not (wall clock, paired per round; the kernel's CPU seconds beside it)."""
    lines = [f"| lesson | Run all | floor | ratio (target <= {RUN_ALL_TARGET}) | met | "
             "kernel CPU: lesson / floor | rounds' ratios: wall; CPU |",
             "|---|---:|---:|---:|---|---|---|"]
    for nb in notebooks:
        if nb.get("status") != "ok" or nb.get("vs_floor") is None:
            if not nb["lesson"].startswith("("):
                lines.append(f"| {nb['lesson']} | {nb.get('status')} | | | no | | |")
            continue
        cpu = (f"{nb['cpu_lesson_median']:.2f} s / {nb['cpu_floor_median']:.2f} s = "
               f"{nb['cpu_vs_floor']:.2f}x" if nb.get("cpu_vs_floor") else "")
        lines.append(f"| {nb['lesson']} | {nb['lesson_median']:.2f} s | "
                     f"{nb['floor_median']:.2f} s | {nb['vs_floor']:.2f}x | "
                     f"{'yes' if nb['vs_floor'] <= RUN_ALL_TARGET else 'no'} | {cpu} | "
                     f"{_spread(nb.get('vs_floor_rounds'))}; "
                     f"{_spread(nb.get('cpu_vs_floor_rounds'))} |")
    return lines


def explorers() -> list[tuple[str, object]]:
    """(module.function, factory) for every ``*_explorer`` function in chunklib.widgets."""
    import chunklib.widgets as pkg

    found = []
    for info in sorted(pkgutil.iter_modules(pkg.__path__), key=lambda m: m.name):
        if info.name == "common":
            continue
        try:
            module = importlib.import_module(f"chunklib.widgets.{info.name}")
        except Exception as err:
            found.append((f"chunklib.widgets.{info.name}", err))
            continue
        for name in sorted(vars(module)):
            fn = getattr(module, name)
            if name.endswith("_explorer") and callable(fn) and fn.__module__ == module.__name__:
                found.append((f"{info.name}.{name}", fn))
    return found


def other_value(control):
    """A value to move ``control`` to: a slider's next step (else its previous), a menu's first
    other option; None when there is none."""
    if hasattr(control, "step"):
        v0, step = control.value, control.step
        v1 = v0 + step if v0 + step <= control.max else v0 - step
        return v1 if v1 >= control.min and v1 != v0 else None
    values = [v for _, v in control.options] if isinstance(control.options[0], tuple) else list(
        control.options)
    return next((v for v in values if v != control.value), None)


def main_control(widget):
    """(control, value, other value) to move: the explorer's ``size_slider``, else its first
    other ``*_slider`` but the chunk stepper, else its first ``*_menu`` dropdown (by name)."""
    names = sorted(vars(widget))
    sliders = ["size_slider"] if hasattr(widget, "size_slider") else [
        k for k in names if k.endswith("_slider") and k != "chunk_slider"]
    menus = [k for k in names if k.endswith("_menu")]
    if sliders or menus:
        control = getattr(widget, (sliders or menus)[0])
        return control, control.value, other_value(control)
    raise AttributeError(f"{type(widget).__name__} has no slider or menu to move")


def other_controls(widget, main) -> list[tuple[object, object, object]]:
    """(control, value, other value) for every other ``*_slider`` and ``*_menu`` of ``widget``."""
    found = []
    for name in sorted(vars(widget)):
        control = getattr(widget, name)
        if control is not main and name.endswith(("_slider", "_menu")):
            v1 = other_value(control)
            if v1 is not None:
                found.append((control, control.value, v1))
    return found


def timed_moves(control, v0, v1, moves: int) -> tuple[list[float], list[float]]:
    """Wall and CPU seconds of ``moves`` moves of ``control`` between ``v1`` and ``v0``."""
    times, cpu = [], []
    for i in range(moves):
        start, cpu_start = time.perf_counter(), time.process_time()
        control.value = v1 if i % 2 == 0 else v0
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - cpu_start)
    return times, cpu


def slider_waits(moves: int = 21, only: str | None = None) -> dict:
    out = []
    for label, factory in explorers():
        if only and only not in label:
            continue
        print(f"  slider {label} ...", end=" ", flush=True)
        if isinstance(factory, Exception):
            out.append({"widget": label, "status": f"not run: import failed: {factory}"[:300]})
            print(out[-1]["status"], flush=True)
            continue
        try:
            start = time.perf_counter()
            widget = factory()
            build = time.perf_counter() - start
            slider, v0, v1 = main_control(widget)
            times, cpu = timed_moves(slider, v0, v1, moves)
            others = []
            for control, c0, c1 in other_controls(widget, slider):
                t_other, _ = timed_moves(control, c0, c1, max(moves // 2, 3))
                others.append((statistics.median(t_other), control.description))
        except Exception as err:
            out.append({"widget": label, "status": f"failed: {type(err).__name__}: {err}"[:300]})
            print(out[-1]["status"], flush=True)
            continue
        row = {"widget": label, "status": "ok", "moves": moves, "values": [v0, v1],
               "slider": slider.description,
               "build_seconds": build, "median": statistics.median(times),
               "min": min(times), "max": max(times), "cpu_median": statistics.median(cpu),
               "slowest_other": ({"control": max(others)[1], "median": max(others)[0]}
                                 if others else None)}
        out.append(row)
        print(f"median {row['median'] * 1000:.1f} ms (min {row['min'] * 1000:.1f}, "
              f"max {row['max'] * 1000:.1f}; CPU {row['cpu_median'] * 1000:.1f})", flush=True)
    return {"sliders": out}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="the learner's wait")
    parser.add_argument("--json", type=Path, required=True)
    parser.add_argument("--markdown", type=Path, help="also write the floor table here")
    parser.add_argument("--rounds", type=int, default=ROUNDS, help="notebook runs per lesson")
    parser.add_argument("--moves", type=int, default=21, help="slider moves per explorer")
    parser.add_argument("--only", help="only lessons whose folder name contains this")
    parser.add_argument("--widgets", help="only explorers whose name contains this")
    parser.add_argument("--skip-notebooks", action="store_true")
    parser.add_argument("--skip-sliders", action="store_true")
    args = parser.parse_args(argv)
    os.environ.setdefault("MPLBACKEND", "Agg")  # what `python3 course.py open` gives kernels
    # a learner's Python keeps the bytecode of chunklib's modules after their first import;
    # a PYTHONDONTWRITEBYTECODE set here would make every kernel compile them again
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    from timing import load_average

    result = {"load_average_start": load_average()}
    if not args.skip_sliders:
        result.update(slider_waits(args.moves, args.widgets))
    if not args.skip_notebooks:
        result["vector_cache"] = vector_cache()
        result["lesson6_results"] = shipped_results()
        result.update(notebook_waits(args.rounds, args.only))
    result["load_average_end"] = load_average()
    args.json.write_text(json.dumps(result, indent=2))
    if result.get("notebooks"):
        lines = [*floor_table(result["notebooks"]), "",
                 f"vector cache: {result['vector_cache']}",
                 f"lesson 6's results: {result['lesson6_results']}",
                 f"load average (1, 5, 15 min) at start / end: "
                 f"{result['load_average_start']} / {result['load_average_end']}"]
        print("\n".join(["", *lines]))
        if args.markdown:
            args.markdown.write_text("\n".join([
                f"# The learner's Run all against its floor ({args.rounds} rounds, "
                f"{datetime.now().astimezone():%Y-%m-%d %H:%M %Z})", "",
                f"`benchmarks/learner.py --json {args.json} --markdown {args.markdown} "
                f"--rounds {args.rounds}{' --skip-sliders' if args.skip_sliders else ''}`; "
                "the lessons run as a learner who finished them has them (hidden tests "
                "removed as the release removes them; see the module docstring).", "",
                *lines, ""]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
