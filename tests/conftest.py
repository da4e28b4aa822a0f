"""Shared pytest settings: hypothesis profile for CI (deterministic, no deadline), the groups
tests run in on two workers, a kernel config on unix sockets."""

import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

# first, before any test module imports nbformat: jsonschema then leaves out its optional IRI
# format checker (``rfc3987_syntax``: seconds of grammar building in each worker); no test
# validates with a format checker, so no check is lost (tools/grading/__init__.py says more)
import tools.grading  # noqa: F401

settings.register_profile("ci", max_examples=200, deadline=None, derandomize=True,
                          suppress_health_check=[HealthCheck.too_slow])
# the fast lane (python3 course.py test --quick) passes --hypothesis-profile quick
settings.register_profile("quick", max_examples=25, deadline=None, derandomize=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ci")


#: Test files whose tests of one lesson form a group of their own: the lesson's graded class
#: (tests/graded_class.py), which they read, is built once, on one worker, while the other
#: lessons' are built on the other.
BY_LESSON = ("tests/test_autograde.py", "tests/test_grading_agreement.py",
             "tests/test_notebooks.py", "tests/test_selfgrade.py")


#: Test files that share a session fixture, and the group they run in together.
SHARED = {"tests/test_adversarial.py": "sandbox", "tests/test_parallel.py": "sandbox"}


def xdist_group(nodeid: str) -> str:
    """The group a test runs in under ``--dist loadgroup``: its lesson in a ``BY_LESSON`` file,
    its ``SHARED`` group, else its file (a file's module fixtures are then built once).

    ``xdist_group("tests/test_autograde.py::test_x[03-overlap]")`` -> '03-overlap'
    """
    path, _, rest = nodeid.partition("::")
    lesson = re.search(r"\[(\d\d-[a-z-]+)\]$", rest)
    return lesson.group(1) if path in BY_LESSON and lesson else SHARED.get(path, path)


#: The longest groups, started first in this order: the browser's run of every lesson, the
#: adversarial class (graded with two jobs), each lesson's graded class; then the other files
#: that hold slow tests; the rest keep pytest's order. The short groups at the end then even
#: out the two workers (when a long group came last, one worker waited for it alone).
LONG_FIRST = ("tests/test_browser.py", "sandbox", "lessons", "tests/test_instructor.py",
              "tests/test_selfgrade.py")


def start_order(group: str) -> int:
    """Where a group starts: its place in ``LONG_FIRST`` (a lesson counts as 'lessons'), then
    files that hold slow tests, then the rest.

    ``start_order("03-overlap") < start_order("tests/test_windows.py")`` -> True
    """
    key = "lessons" if re.fullmatch(r"\d\d-[a-z-]+", group) else group
    if key in LONG_FIRST:
        return LONG_FIRST.index(key)
    path = Path(__file__).parents[1] / group
    slow = path.is_file() and "mark.slow" in path.read_text(encoding="utf-8")
    return len(LONG_FIRST) + (0 if slow else 1)


@pytest.hookimpl(tryfirst=True)
def pytest_xdist_make_scheduler(config, log):
    """``--dist loadgroup`` with the groups of ``xdist_group``, read from the test ids.

    pytest-xdist 3.8 groups by ``xdist_group`` marks by appending the group to a test's id,
    which pytest 9 no longer lets a plugin change: every test would be a group of its own, so
    each worker built every module fixture again (and waited for the other's graded class)."""
    if config.getvalue("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class ByGroup(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return xdist_group(nodeid)

        def _assign_work_unit(self, node) -> None:
            if not getattr(self, "_ordered", False):  # the first assignment: long groups first
                self._ordered = True
                order = sorted(self.workqueue, key=start_order)  # stable: pytest's order within
                self.workqueue = type(self.workqueue)((g, self.workqueue[g]) for g in order)
            super()._assign_work_unit(node)

    return ByGroup(config, log)


#: (worker, group, start, stop) of every test phase run on an xdist worker, for the schedule
#: the full lane prints at the end (``pytest_terminal_summary``)
PHASES: list[tuple[str, str, float, float]] = []


def pytest_runtest_logreport(report):
    node = getattr(report, "node", None)  # set on the reports a worker sends to the controller
    if node is not None and getattr(report, "start", None):
        PHASES.append((node.gateway.id, xdist_group(report.nodeid), report.start, report.stop))


def schedule(phases, least: float = 10.0) -> list[str]:
    """Per worker, its groups in the order they ran (those of ``least`` seconds or more, the
    others summed) and when it finished, in seconds from the first test.

    ``schedule([("gw0", "a", 0, 12), ("gw0", "b", 12, 13)])`` ->
    ['gw0: a 0-12, 1 shorter group(s) 1 s; done at 13 s']
    """
    t0 = min(p[2] for p in phases)
    lines = []
    for worker in sorted({p[0] for p in phases}):
        spans: dict[str, list[float]] = {}
        for w, group, start, stop in phases:
            if w == worker:
                span = spans.setdefault(group, [start, stop, 0.0])
                span[0], span[1] = min(span[0], start), max(span[1], stop)
                span[2] += stop - start
        big = [(a, b, g) for g, (a, b, busy) in spans.items() if busy >= least]
        rest = [busy for a, b, busy in spans.values() if busy < least]
        parts = [f"{g.removeprefix('tests/')} {a - t0:.0f}-{b - t0:.0f}" for a, b, g in sorted(big)]
        parts += [f"{len(rest)} shorter group(s) {sum(rest):.0f} s"] if rest else []
        lines.append(f"{worker}: {', '.join(parts)}; "
                     f"done at {max(b for _, b, _ in spans.values()) - t0:.0f} s")
    return lines


def pytest_terminal_summary(terminalreporter, config):
    """The full lane (``--durations``) on xdist workers: which worker ran what, and when."""
    if PHASES and config.getoption("durations", None):
        terminalreporter.section("schedule (seconds from the first test)")
        for line in schedule(PHASES):
            terminalreporter.write_line(line)


@pytest.fixture
def kernel_config():
    """nbclient config whose kernel talks over unix sockets in a private folder, as the course's
    nbgrader_config.py gives nbgrader's kernels: with TCP, a port picked for a kernel can be
    taken by a parallel test's process before the kernel binds it ("Address already in use")."""
    import os
    import shutil
    import tempfile

    from traitlets.config import Config

    config = Config()
    if os.name != "posix":
        yield config
        return
    folder = tempfile.mkdtemp(prefix="kernels-")
    config.KernelManager.transport = "ipc"
    config.KernelManager.ip = os.path.join(folder, "kernel")
    yield config
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="session")
def sandbox_runs(tmp_path_factory):
    """Lesson 3's adversarial class graded once by the whole pipeline in its sandbox
    (tests/adversarial/graded.py), side by side with test_parallel's serial and Dask runs of
    five of its students (tests/adversarial/runs.py): for tests/test_adversarial.py and
    tests/test_parallel.py, one xdist group."""
    from tests.adversarial.runs import side_by_side
    from tests.nbgrading import require_sandbox

    require_sandbox()
    runs = side_by_side(tmp_path_factory.mktemp("sandbox"))
    yield runs
    runs["adversarial"].stop()


@pytest.fixture(scope="session")
def adversarial_class(sandbox_runs):
    """The adversarial class's run (``graded.graded_run``'s result), once it has finished."""
    return sandbox_runs["adversarial"].result()


def sandbox_order(fixturenames) -> int:
    """Where a test goes (a stable sort, the same on every worker): first the tests that start
    the sandbox runs and read only the serial and Dask ones, last those that read the
    adversarial class's run, the rest (the sandbox group's other tests, every other file) in
    between. The sandbox group's tests then run while the class is still being graded
    (tests/adversarial/runs.py), not after it.

    ``sandbox_order(["runs", "sandbox_runs"])`` -> 0
    """
    if "adversarial_class" in fixturenames:
        return 2
    return 0 if "sandbox_runs" in fixturenames else 1


@pytest.hookimpl(trylast=True)  # after pytest's own ordering, which the stable sort keeps
def pytest_collection_modifyitems(items):
    items.sort(key=lambda item: sandbox_order(getattr(item, "fixturenames", ())))
