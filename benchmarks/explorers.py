"""Every move of every explorer: each control over its whole range, p50/p95/max per control.

Explorers: every ``*_explorer`` factory in ``chunklib.widgets`` (whatever exists at run time,
on the shared base or not). Controls: every slider, drop-down, toggle, checkbox and button the
explorer holds as an attribute (or in a dict attribute, such as a row of checkboxes); the chunk
stepper's slider is one control too. Grid: a slider's values from its minimum to its maximum,
``--grid`` of them evenly spaced, both extremes included; every option of a menu; both states
of a checkbox; a button pressed ``--grid`` times.

Each control is moved through its grid in five passes, each on a freshly built explorer (its
build is not timed; the widgets of the one before are closed and collected first): with the
other controls at their defaults, in ascending, descending and
a shuffled order (seeded), then shuffled once with every other slider at its maximum and once
with every other slider at its minimum (the settings with the most and the fewest chunks). So
every move starts from wherever the previous one left the explorer, big jumps included (C from
500 to 10), and most moves meet a setting for the first time. A move is timed from setting
``.value`` (or clicking) until the callback returns: plot drawn, PNG encoded, summary written.

Targets (issue 16): p95 <= 50 ms and max <= 150 ms for every control. The machine is shared,
so the load average before and after the run is part of the output; CPU time per move (this
process only) is recorded beside wall-clock time.

``--lines`` counts instead what a reader follows behind each explorer: the lines of its module
and of every chunklib module it imports, directly or not (read with ``ast``).

Leaves out: the browser's rendering and the comm round trip (``learner.py`` says why);
building the explorer (``learner.py`` times one build).

    .venv/bin/python benchmarks/explorers.py --json benchmarks/explorers-results.json \
        --markdown benchmarks/explorers-results.md   # the committed run
    .venv/bin/python benchmarks/explorers.py --lines   # lines behind each explorer, no timing
"""

from __future__ import annotations

import argparse
import ast
import gc
import importlib
import importlib.util
import json
import math
import os
import pkgutil
import random
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from timing import load_average, machine  # noqa: E402

P95_MS, MAX_MS = 50.0, 150.0
STEPPER = "chunk_slider"


def factories() -> list[tuple[str, object]]:
    """(module.function, factory) for every ``*_explorer`` function in chunklib.widgets."""
    import chunklib.widgets as pkg

    found = []
    for info in sorted(pkgutil.iter_modules(pkg.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"chunklib.widgets.{info.name}")
        for name in sorted(vars(module)):
            fn = getattr(module, name)
            if name.endswith("_explorer") and getattr(fn, "__module__", None) == module.__name__:
                found.append((f"{info.name}.{name}", fn))
    return found


def controls(explorer) -> dict[str, object]:
    """Every control of ``explorer`` by attribute name (``name[key]`` inside a dict), the
    stepper's buttons left out (the stepper's slider stands for them)."""
    import ipywidgets as widgets

    kinds = (widgets.IntSlider, widgets.FloatSlider, widgets.Dropdown, widgets.ToggleButtons,
             widgets.RadioButtons, widgets.Checkbox, widgets.Button)
    found = {}
    for name, value in sorted(vars(explorer).items()):
        if name in ("prev_button", "next_button") or name.startswith("_"):
            continue
        if isinstance(value, kinds):
            found[name] = value
        elif isinstance(value, dict):
            found.update({f"{name}[{key!r}]": v for key, v in value.items()
                          if isinstance(v, kinds)})
    # one name per widget: its attribute rather than its place in the ``controls`` dict
    seen, unique = set(), {}
    for name in sorted(found, key=lambda n: n.startswith("controls[")):
        if id(found[name]) not in seen:
            seen.add(id(found[name]))
            unique[name] = found[name]
    return unique


def grid(control, points: int) -> list:
    """The values a control is moved through: both extremes and evenly spaced ones between."""
    import ipywidgets as widgets

    if isinstance(control, widgets.Button):
        return [None] * points
    if isinstance(control, widgets.Checkbox):
        return [True, False]
    if hasattr(control, "options"):
        return [o[1] if isinstance(o, tuple) else o for o in control.options]
    lo, hi, step = control.min, control.max, control.step
    steps = round((hi - lo) / step)
    picked = {lo + round(i * steps / (points - 1)) * step for i in range(points)} | {hi}
    return sorted(v for v in picked if lo <= v <= hi)


def forget_widgets() -> None:
    """Close every widget made so far and collect them (untimed). ipywidgets keeps each widget
    until it is closed, so without this the explorers built for earlier passes would stay in
    memory and their garbage collection would land in later moves: a learner's kernel holds
    one explorer, not dozens."""
    import ipywidgets as widgets

    widgets.Widget.close_all()
    gc.collect()


def move(control, value) -> tuple[float, float]:
    """Wall and CPU seconds of one move."""
    wall, cpu = time.perf_counter(), time.process_time()
    if value is None:
        control.click()
    else:
        control.value = value
    return time.perf_counter() - wall, time.process_time() - cpu


def set_others(explorer, name: str, where: str) -> None:
    """Every slider but ``name`` (and the stepper) to its maximum or minimum."""
    if where == "defaults":
        return
    for other, control in controls(explorer).items():
        if other not in (name, STEPPER) and hasattr(control, "max"):
            control.value = control.max if where == "max" else control.min


def passes(values: list, seed: int) -> list[tuple[str, list]]:
    shuffled = values[:]
    random.Random(seed).shuffle(shuffled)
    again = values[:]
    random.Random(seed + 1).shuffle(again)
    return [("defaults", values), ("defaults", values[::-1]), ("defaults", shuffled),
            ("max", again), ("min", again[::-1])]


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile (``q`` in 0..100)."""
    ordered = sorted(values)
    return ordered[max(math.ceil(q / 100 * len(ordered)) - 1, 0)]


def measure_control(factory, name: str, points: int, seed: int) -> dict:
    times, cpus, slowest = [], [], (0.0, None, None)
    described, rng = None, None
    for where, order in passes(grid(controls(factory())[name], points), seed):
        forget_widgets()
        explorer = factory()
        set_others(explorer, name, where)
        control = controls(explorer)[name]
        values = order if name != STEPPER else grid(control, points)
        if name == STEPPER and where != "defaults":
            random.Random(seed).shuffle(values)
        described = getattr(control, "description", name)
        if hasattr(control, "max") and rng is None:  # the range with the others at defaults
            rng = [control.min, control.max]
        for value in values:
            before = getattr(control, "value", None)
            wall, cpu = move(control, value)
            times.append(wall)
            cpus.append(cpu)
            if wall > slowest[0]:
                slowest = (wall, f"{before} -> {value}", where)
    p95, worst = percentile(times, 95), max(times)
    cpu_p95, cpu_max = percentile(cpus, 95), max(cpus)
    return {"control": name, "description": described, "range": rng, "moves": len(times),
            "p50": percentile(times, 50), "p95": p95, "max": worst,
            "cpu_p50": percentile(cpus, 50), "cpu_p95": cpu_p95, "cpu_max": cpu_max,
            "slowest": {"move": slowest[1], "others": slowest[2]},
            "meets": p95 * 1000 <= P95_MS and worst * 1000 <= MAX_MS,
            "meets_cpu": cpu_p95 * 1000 <= P95_MS and cpu_max * 1000 <= MAX_MS}


def run(points: int = 11, only: str | None = None, seed: int = 16) -> dict:
    os.environ.setdefault("MPLBACKEND", "Agg")
    from chunklib.widgets.explorer import Explorer

    out = {"date": datetime.now(UTC).isoformat(timespec="seconds"), "machine": machine(),
           "load_before": load_average(), "grid": points,
           "targets": {"p95_ms": P95_MS, "max_ms": MAX_MS}, "explorers": []}
    for label, factory in factories():
        if only and only not in label:
            continue
        print(f"  {label} ...", flush=True)
        start = time.perf_counter()
        explorer = factory()
        row = {"explorer": label, "base": isinstance(explorer, Explorer),
               "build_seconds": time.perf_counter() - start, "controls": []}
        for name in controls(explorer):
            try:
                result = measure_control(factory, name, points, seed)
            except Exception as err:  # reported, not dropped
                result = {"control": name, "status": f"failed: {type(err).__name__}: {err}"}
            row["controls"].append(result)
            if "p95" in result:
                print(f"    {name}: p50 {result['p50'] * 1000:.1f} ms, p95 "
                      f"{result['p95'] * 1000:.1f} ms, max {result['max'] * 1000:.1f} ms",
                      flush=True)
            else:
                print(f"    {name}: {result['status']}", flush=True)
        out["explorers"].append(row)
    out["load_after"] = load_average()
    return out


def chunklib_imports(module: str) -> set[str]:
    """Every chunklib module that ``module`` imports, directly or through another (read from
    the source with ``ast``, so nothing is run), ``module`` included."""
    seen, todo = set(), [module]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        spec = importlib.util.find_spec(name)
        if spec is None or not spec.origin or not spec.origin.endswith(".py"):
            continue
        if spec.submodule_search_locations is None:  # a package's __init__ is not counted
            seen.add(name)
        for node in ast.walk(ast.parse(Path(spec.origin).read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                todo += [a.name for a in node.names if a.name.startswith("chunklib")]
            elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("chunklib"):
                todo.append(node.module)
                # ``from chunklib import windows``: a module, not a name
                todo += [f"{node.module}.{a.name}" for a in node.names
                         if importlib.util.find_spec(node.module).submodule_search_locations]
    return seen


def code_lines(source: str) -> int:
    """Lines that hold code: not blank, not only a comment, not part of a docstring."""
    tree = ast.parse(source)
    skip = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr) and isinstance(
                getattr(body[0], "value", None), ast.Constant) and isinstance(
                body[0].value.value, str):
            skip.update(range(body[0].lineno, body[0].end_lineno + 1))
    return sum(1 for i, line in enumerate(source.splitlines(), 1)
               if i not in skip and line.strip() and not line.strip().startswith("#"))


def reading_lines(only: str | None = None) -> list[dict]:
    """Per explorer: the lines of its module and of every chunklib module it imports (all
    lines, and code lines only)."""
    rows = []
    for label, factory in factories():
        if only and only not in label:
            continue
        sources = {m: Path(importlib.util.find_spec(m).origin).read_text(encoding="utf-8")
                   for m in sorted(chunklib_imports(factory.__module__))}
        counts = {m: len(text.splitlines()) for m, text in sources.items()}
        rows.append({"explorer": label, "module_lines": counts[factory.__module__],
                     "total_lines": sum(counts.values()),
                     "code_lines": sum(code_lines(t) for t in sources.values()),
                     "modules": counts})
    return rows


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f}"


def markdown(data: dict) -> str:
    m = data["machine"]
    rows = [c for e in data["explorers"] for c in e["controls"]]
    met = sum(1 for c in rows if c.get("meets"))
    met_cpu = sum(1 for c in rows if c.get("meets_cpu"))
    lines = [f"Explorer moves, {data['date']}: {m['cpu']}, {m['cores']} cores, Python "
             f"{m['python']}; load average {data['load_before']} before, "
             f"{data['load_after']} after (1, 5, 15 min; the machine is shared).", "",
             f"Targets: p95 <= {P95_MS:g} ms and max <= {MAX_MS:g} ms per control. "
             f"{met} of {len(rows)} controls meet both in wall-clock time, {met_cpu} in CPU "
             "time (this process's own: what the moves cost without the other work that "
             f"shares the cores). Grid: {data['grid']} values per slider "
             "(extremes included), every option of a menu; five passes per control "
             "(ascending, descending, shuffled with the others at their defaults; shuffled "
             "with the other sliders at their maximum, and at their minimum).", "",
             "| explorer | on the base | control | range | moves | p50 ms | p95 ms | max ms | "
             "CPU p50 / p95 / max ms | slowest move (wall) | meets: wall, CPU |",
             "|---|---|---|---|---:|---:|---:|---:|---:|---|---|"]
    for e in data["explorers"]:
        for c in e["controls"]:
            if "p95" not in c:
                lines.append(f"| {e['explorer']} | {'yes' if e['base'] else 'no'} | "
                             f"{c['control']} | | | | | | | {c['status']} | no, no |")
                continue
            rng = f"{c['range'][0]}–{c['range'][1]}" if c.get("range") else ""
            slow = f"{c['slowest']['move']} (others at {c['slowest']['others']})"
            lines.append(f"| {e['explorer']} | {'yes' if e['base'] else 'no'} | "
                         f"{c['control']} | {rng} | {c['moves']} | {_ms(c['p50'])} | "
                         f"{_ms(c['p95'])} | {_ms(c['max'])} | {_ms(c['cpu_p50'])} / "
                         f"{_ms(c['cpu_p95'])} / {_ms(c['cpu_max'])} | {slow} | "
                         f"{'yes' if c['meets'] else '**no**'}, "
                         f"{'yes' if c['meets_cpu'] else '**no**'} |")
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="every move of every explorer")
    parser.add_argument("--json", type=Path, help="write the results as JSON here")
    parser.add_argument("--markdown", type=Path, help="write the table here (else stdout)")
    parser.add_argument("--grid", type=int, default=11, help="values per slider (>= 2)")
    parser.add_argument("--only", help="only explorers whose name contains this")
    parser.add_argument("--seed", type=int, default=16)
    parser.add_argument("--lines", action="store_true",
                        help="only count the lines a reader follows behind each explorer")
    args = parser.parse_args(argv)
    if args.lines:
        for row in reading_lines(args.only):
            print(f"{row['explorer']}: {row['module_lines']} lines in its module, "
                  f"{row['total_lines']} ({row['code_lines']} of code) with the "
                  f"{len(row['modules']) - 1} chunklib modules it imports: "
                  + ", ".join(f"{m.removeprefix('chunklib.')} {n}"
                              for m, n in row["modules"].items()))
        return 0
    if args.grid < 2:
        parser.error("--grid must be at least 2 (both extremes)")
    data = run(args.grid, args.only, args.seed)
    if args.json:
        args.json.write_text(json.dumps(data, indent=2) + "\n")
    text = markdown(data)
    if args.markdown:
        args.markdown.write_text(text)
    else:
        print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
