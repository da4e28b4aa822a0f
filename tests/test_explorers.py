"""The contract every explorer built on ``chunklib.widgets.explorer`` keeps, checked for each of
them (they are discovered, so a newly ported explorer is checked without a line here):

- every control changes the picture and the summary;
- the picture (PNG bytes) and the summary depend on the setting only, not on the path taken
  to it (cached frames, cached computations and clamped controls included);
- a control that changes another control's range causes one redraw, not two;
- the chunk stepper steps, stays in range, follows the chunk count and says where it is;
- every control is labelled and has a tooltip; the picture has its alt text;
- while nbgrader autogrades, the lesson's factory call gives the placeholder note and imports
  no matplotlib (every ``*_explorer`` factory, ported or not); importing a widget module never
  imports matplotlib.

What is particular to one explorer (the numbers it shows) is in that explorer's test file.
"""

from __future__ import annotations

import importlib
import os
import pkgutil
import subprocess
import sys
from pathlib import Path

import ipywidgets as widgets
import pytest

import chunklib.widgets as widget_pkg
from chunklib.widgets.explorer import Explorer, not_drawn

WIDGET_MODULES = sorted(f"chunklib.widgets.{m.name}" for m in pkgutil.iter_modules(
    widget_pkg.__path__))
for _name in WIDGET_MODULES:  # every explorer class is defined once its module is imported
    importlib.import_module(_name)
EXPLORERS = [c for c in Explorer.__subclasses__() if c.__module__.startswith("chunklib.widgets.")]


def factories() -> list[str]:
    """'module:function' for every ``*_explorer`` factory in chunklib.widgets."""
    found = []
    for name in WIDGET_MODULES:
        module = importlib.import_module(name)
        found += [f"{name}:{f}" for f in sorted(vars(module)) if f.endswith("_explorer")
                  and getattr(getattr(module, f), "__module__", None) == name]
    return found


FACTORIES = factories()
by_name = pytest.mark.parametrize("cls", EXPLORERS, ids=lambda c: c.__name__)


def options(control) -> list:
    """Every value a control can take that the contract tries: a slider's extremes, a menu's
    options, a checkbox's two states."""
    if isinstance(control, widgets.Checkbox):
        return [not control.value]
    if hasattr(control, "options"):
        return [v for v in control.options if v != control.value] if not isinstance(
            control.options[0], tuple) else [v for _, v in control.options
                                             if v != control.value]
    return [v for v in (control.max, control.min) if v != control.value]


def shown(e: Explorer) -> tuple[bytes, str]:
    return e.image.value, e.summary.value


def restore(e: Explorer, values: dict) -> None:
    """Move every control back to ``values`` (a control clamped by another may need a second
    pass, once the other holds its value)."""
    for _ in range(3):
        for name, value in values.items():
            e.controls[name].value = value


def test_every_explorer_class_has_a_factory_and_is_discovered():
    assert EXPLORERS, "no explorer uses the base"
    for cls in EXPLORERS:
        module = importlib.import_module(cls.__module__)
        made = [f for f in FACTORIES if f.startswith(f"{cls.__module__}:")]
        assert len(made) == 1, (cls, made)
        factory = getattr(module, made[0].split(":")[1])
        assert type(factory()) is cls


@by_name
def test_every_control_changes_picture_and_summary(cls):
    e = cls()
    assert e.image.value[:4] == b"\x89PNG" and e.image.tooltip
    for name, control in e.controls.items():
        start = {n: c.value for n, c in e.controls.items()}
        before = shown(e)
        for value in options(control):
            control.value = value
            after = shown(e)
            assert after[0] != before[0], f"{name} = {value!r} left the picture as it was"
            assert after[1] != before[1], f"{name} = {value!r} left the summary as it was"
            before = after
        restore(e, start)


def wander(e: Explorer) -> None:
    """Move every control to each of its extremes, in turn and back in reverse order, the
    stepper to its last chunk after each move: a long path through cached frames and values."""
    last = e.chunk_slider if e.has_stepper else None
    for control in [*e.controls.values(), *reversed(e.controls.values())]:
        for value in options(control):
            control.value = value
            if last:
                last.value = last.max


@pytest.mark.slow  # 1-11 s per explorer: the full run's, not the quick lane's
@by_name
def test_pictures_and_summaries_do_not_depend_on_the_path_taken(cls):
    """Every setting with one control at an extreme (and the one with all of them moved at
    once, in a batch), reached after a long path, shows what an explorer built at that setting
    shows: the same PNG bytes, the same summary."""
    e = cls()
    defaults = {n: c.value for n, c in e.controls.items()}
    targets = [defaults] + [{**defaults, name: value} for name, control in e.controls.items()
                            for value in options(control)]
    wander(e)
    for target in targets:
        for control in e.controls.values():  # from somewhere else each time
            control.value = options(control)[-1]
        restore(e, target)
        if e.has_stepper:
            e.chunk_slider.value = min(2, e.chunk_slider.max)
        reached = {n: c.value for n, c in e.controls.items()}  # after any clamping
        fresh = cls(**reached)
        if e.has_stepper:
            fresh.chunk_slider.value = e.chunk_slider.value
        assert shown(fresh) == shown(e), reached
    with e.batch():
        for control in e.controls.values():
            control.value = options(control)[0]
    fresh = cls(**{n: c.value for n, c in e.controls.items()})
    if e.has_stepper:
        fresh.chunk_slider.value = e.chunk_slider.value
    assert shown(fresh) == shown(e)


@by_name
def test_a_setting_seen_before_is_neither_computed_nor_framed_again(cls):
    e = cls()
    for control in e.controls.values():
        back, there = control.value, options(control)[0]
        control.value = there
        control.value = back
        misses, renders = e._compute.cache_info().misses, e.layers.frame_renders
        for _ in range(2):
            control.value = there
            control.value = back
        assert e._compute.cache_info().misses == misses
        assert e.layers.frame_renders == renders


@by_name
def test_one_move_is_one_redraw(cls):
    e = cls()
    for name, control in e.controls.items():
        for value in options(control):
            before = e.redraws
            control.value = value
            assert e.redraws == before + 1, f"{name} = {value!r}: {e.redraws - before} redraws"
    before = e.redraws
    with e.batch():
        for control in e.controls.values():
            control.value = options(control)[0]
    assert e.redraws == before + 1


@pytest.mark.parametrize("cls", [c for c in EXPLORERS if c.has_stepper],
                         ids=lambda c: c.__name__)
def test_the_stepper_steps_stays_in_range_and_follows_the_chunk_count(cls):
    e = cls()
    k = e.chunk_slider.max
    assert k >= 2, "the default setting should have a few chunks to step through"
    assert e.step_label.value.startswith(f"<b>Chunk 1 of {k}</b>: ")
    before = shown(e)
    e.next_button.click()
    assert e.chunk_slider.value == 2 and e.step_label.value.startswith(f"<b>Chunk 2 of {k}</b>")
    assert shown(e)[0] != before[0] and shown(e)[1] != before[1]
    for _ in range(k + 2):
        e.next_button.click()
    assert e.chunk_slider.value == k
    for _ in range(k + 2):
        e.prev_button.click()
    assert e.chunk_slider.value == 1
    e.chunk_slider.value = k
    for control in e.controls.values():  # fewer chunks somewhere: the stepper follows
        for value in options(control):
            control.value = value
            count = e.count(e.computed)
            assert e.chunk_slider.max == max(count, 1)
            assert e.chunk_slider.disabled == (count == 0)
            if count:
                assert e.current == e.chunk_slider.value - 1 < count
                assert e.step_label.value.startswith(
                    f"<b>Chunk {e.chunk_slider.value} of {count}</b>")
            else:
                assert e.step_label.value.startswith("<b>No chunks</b>")


@by_name
def test_every_control_is_labelled(cls):
    e = cls()
    stepper = (e.chunk_slider, e.prev_button, e.next_button) if cls.has_stepper else ()
    for control in (*e.controls.values(), *stepper):
        assert control.description and control.tooltip, control


@pytest.mark.parametrize("factory", FACTORIES)
def test_autograde_gives_the_placeholder_without_matplotlib(factory):
    module, name = factory.split(":")
    code = (f"import sys; from {module} import {name} as f; w = f(); "
            "print(type(w).__name__, 'matplotlib' in sys.modules); print(w.value)")
    env = {**os.environ, "NBGRADER_EXECUTION": "autograde"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         check=True).stdout.splitlines()
    assert out[0] == "HTML False"
    assert "is not drawn while nbgrader runs this notebook" in out[1]


@by_name
def test_autograde_placeholder_names_the_explorer(cls, monkeypatch):
    monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")
    assert cls.build().value == not_drawn(cls.name).value


@pytest.mark.parametrize("module", WIDGET_MODULES)
def test_importing_a_widget_module_does_not_import_matplotlib(module):
    env = {k: v for k, v in os.environ.items() if k != "NBGRADER_EXECUTION"}
    out = subprocess.run([sys.executable, "-c", f"import sys, {module}; "
                          "print('matplotlib' in sys.modules)"],
                         env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_the_move_benchmark_finds_every_control_and_reports_them():
    """benchmarks/explorers.py on one control of the overlap explorer with the smallest grid
    (no timing is judged here: the benchmark is run on demand)."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
    import explorers as bench

    found = dict(bench.factories())
    assert sorted(found) == sorted(f.replace("chunklib.widgets.", "").replace(":", ".")
                                   for f in FACTORIES)
    factory = found["overlap.overlap_explorer"]
    assert sorted(bench.controls(factory())) == [
        "chunk_slider", "n_slider", "overlap_slider", "size_slider"]
    result = bench.measure_control(factory, "overlap_slider", 2, seed=0)
    assert result["range"] == [0, 199] and result["moves"] == 10  # 2 values, 5 passes
    assert result["p50"] <= result["p95"] <= result["max"]
    data = {"date": "now", "machine": {"cpu": "test", "cores": 2, "python": "3.11"},
            "load_before": "1.00 1.00 1.00", "load_after": "2.00 1.00 1.00", "grid": 2,
            "explorers": [{"explorer": "overlap.overlap_explorer", "base": True,
                           "controls": [result]}]}
    table = bench.markdown(data)
    assert "load average 1.00 1.00 1.00 before, 2.00 1.00 1.00 after" in table
    assert "| overlap.overlap_explorer | yes | overlap_slider | 0–199 | 10 |" in table
    (lines,) = bench.reading_lines("overlap.")
    assert {"chunklib.windows", "chunklib.widgets.explorer"} <= set(lines["modules"])
    assert lines["code_lines"] < lines["total_lines"] == sum(lines["modules"].values())
