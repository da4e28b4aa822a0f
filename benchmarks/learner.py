"""The learner's wait: each lesson run top to bottom, and one slider move of each explorer.

Notebooks: every lesson in ``notebooks/*/`` (whatever exists at run time) is executed with
nbclient in a fresh kernel, as "Run all" does, from a temporary copy of its folder; each run
follows a run of an empty notebook (no cells: kernel start and shutdown only), and the ratio
is the median of the per-pair ratios. The source notebooks are run, so every answer cell holds
its solution: the wait of a learner who has finished the lesson. The three slowest cells of
the last run are recorded from nbclient's own timestamps. A reference row, "(imports only)",
runs one cell that imports what every explorer imports (matplotlib, ipywidgets): the floor of
any lesson that shows an explorer.

Sliders: every ``*_explorer`` factory in ``chunklib.widgets`` is built with its defaults, then
its ``size_slider`` (else its first other slider, else its first ``*_menu`` dropdown) is moved
one step and back, each move timed from setting ``.value`` until the callback returns (plot
drawn, PNG encoded, summary written): the redraw a learner waits for before the front end
receives the new image. CPU seconds are recorded beside wall-clock seconds.

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


def execute(nb, folder: Path) -> float:
    """Seconds to run ``nb`` top to bottom in a fresh kernel started in ``folder``."""
    from nbclient import NotebookClient

    client = NotebookClient(nb, timeout=120, kernel_name="python3",
                            resources={"metadata": {"path": str(folder)}})
    start = time.perf_counter()
    client.execute()
    return time.perf_counter() - start


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


def notebook_waits(rounds: int = 3, only: str | None = None) -> dict:
    import nbformat

    out = []
    # The floor of any lesson with an explorer: one cell importing what every explorer imports.
    floor = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(
        "import chunklib.widgets.common  # matplotlib and ipywidgets, as every explorer")])
    todo = [(FLOOR, None, floor)] + [(p.parent.name, p, None) for p in lessons()]
    for lesson, path, notebook in todo:
        if only and only not in lesson:
            continue
        print(f"  notebook {lesson} ...", end=" ", flush=True)
        source = notebook if path is None else nbformat.read(path, as_version=4)
        empty = nbformat.v4.new_notebook(metadata=source.metadata)
        pairs, last = [], None
        try:
            with tempfile.TemporaryDirectory() as tmp:
                folder = Path(tmp) / "lesson"
                if path is None:
                    folder.mkdir()
                else:
                    shutil.copytree(path.parent, folder)
                execute(nbformat.from_dict(empty), folder)  # warm the disk cache, untimed
                for _ in range(rounds):
                    t_empty = execute(nbformat.from_dict(empty), folder)
                    last = nbformat.from_dict(source)
                    t_lesson = execute(last, folder)
                    pairs.append((t_empty, t_lesson))
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
               "slowest_cells": slowest_cells(last)}
        out.append(row)
        print(f"{row['lesson_median']:.2f} s vs empty {row['empty_median']:.2f} s "
              f"({row['ratio']:.2f}x)", flush=True)
    return {"notebooks": out}


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


def main_control(widget):
    """(control, value, other value) to move: the explorer's ``size_slider``, else its first
    other ``*_slider`` but the chunk stepper, else its first ``*_menu`` dropdown (by name)."""
    names = sorted(vars(widget))
    sliders = ["size_slider"] if hasattr(widget, "size_slider") else [
        k for k in names if k.endswith("_slider") and k != "chunk_slider"]
    if sliders:
        slider = getattr(widget, sliders[0])
        v0 = slider.value
        return slider, v0, v0 + slider.step if v0 + slider.step <= slider.max else v0 - slider.step
    menus = [k for k in names if k.endswith("_menu")]
    if menus:
        menu = getattr(widget, menus[0])
        values = [v for _, v in menu.options] if isinstance(menu.options[0], tuple) else list(
            menu.options)
        other = next(v for v in values if v != menu.value)
        return menu, menu.value, other
    raise AttributeError(f"{type(widget).__name__} has no slider or menu to move")


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
            times, cpu = [], []
            for i in range(moves):
                start, cpu_start = time.perf_counter(), time.process_time()
                slider.value = v1 if i % 2 == 0 else v0
                times.append(time.perf_counter() - start)
                cpu.append(time.process_time() - cpu_start)
        except Exception as err:
            out.append({"widget": label, "status": f"failed: {type(err).__name__}: {err}"[:300]})
            print(out[-1]["status"], flush=True)
            continue
        row = {"widget": label, "status": "ok", "moves": moves, "values": [v0, v1],
               "slider": slider.description,
               "build_seconds": build, "median": statistics.median(times),
               "min": min(times), "max": max(times), "cpu_median": statistics.median(cpu)}
        out.append(row)
        print(f"median {row['median'] * 1000:.1f} ms (min {row['min'] * 1000:.1f}, "
              f"max {row['max'] * 1000:.1f}; CPU {row['cpu_median'] * 1000:.1f})", flush=True)
    return {"sliders": out}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="the learner's wait")
    parser.add_argument("--json", type=Path, required=True)
    parser.add_argument("--rounds", type=int, default=3, help="notebook runs per lesson")
    parser.add_argument("--moves", type=int, default=21, help="slider moves per explorer")
    parser.add_argument("--only", help="only lessons whose folder name contains this")
    parser.add_argument("--widgets", help="only explorers whose name contains this")
    parser.add_argument("--skip-notebooks", action="store_true")
    parser.add_argument("--skip-sliders", action="store_true")
    args = parser.parse_args(argv)
    os.environ.setdefault("MPLBACKEND", "Agg")  # what `python3 course.py open` gives kernels
    result = {}
    if not args.skip_sliders:
        result.update(slider_waits(args.moves, args.widgets))
    if not args.skip_notebooks:
        result.update(notebook_waits(args.rounds, args.only))
    args.json.write_text(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
