"""nbgrader's Execute, hardened: every submission finishes, and a test cell's error always counts.

On top of nbgrader's ``Execute`` (per-cell timeout and interrupt):
- kernel death (``os._exit``, a crash) or a kernel that ignores the interrupt after a timeout:
  the cell that did it is recorded, the kernel restarted, and the notebook run again from the
  top without that cell (it scores 0; a skipped answer cell leaves its function undefined).
  At most ``max_restarts`` times, then the submission fails and is reported.
- before each test cell the kernel-side guard (``guard.py``) undoes patches to builtins and
  IPython; if the guard cannot run, the test cell is not run and scores 0.
- a test cell with an error output keeps no ``execute_result`` (nbgrader would read one as
  partial credit and ignore the error).
- output is capped per cell (characters and count) while it arrives, so huge output costs
  neither memory nor the grade.
- with ``ipc_dir`` set, the kernel talks over unix sockets there (the sandbox has no network).
Events (timeouts, restarts, truncations) go to ``EVENTS[(student, assignment)]``.
``RestoreMissingCells`` adds deleted test cells back (nbgrader's own version raises KeyError
when the cell before a deleted test cell was deleted too).

Leaves out: whole-notebook time budgets (the per-cell timeout and the restart cap bound a run).
Example: ``c.Autograde.autograde_preprocessors = [GuardedExecute, ...]``.
"""

from __future__ import annotations

import copy
import secrets
from pathlib import Path
from queue import Empty
from time import monotonic

from jupyter_core.utils import ensure_async, run_sync
from nbclient.exceptions import CellTimeoutError, DeadKernelError
from nbformat import NotebookNode
from nbgrader.preprocessors import Execute, OverwriteCells
from nbgrader.utils import is_grade, is_solution
from traitlets import Float, Integer, Unicode

from . import guard

EVENTS: dict[tuple[str, str], list[dict]] = {}
TIMEOUT_ENAME = "CellTimeoutError"


class KernelHung(Exception):
    """The kernel did not answer after a timeout and an interrupt."""


def _error(ename: str, evalue: str) -> NotebookNode:
    return NotebookNode(output_type="error", ename=ename, evalue=evalue,
                        traceback=[f"{ename}: {evalue}"])


class GuardedExecute(Execute):
    """Execute with restarts after a dead or hung kernel, a guard, output caps, errors first."""

    max_restarts = Integer(4, help="kernel restarts per notebook before giving up").tag(config=True)
    probe_timeout = Float(2.0, help="seconds a kernel that did not go idle after an "
                          "interrupt gets to answer a no-op").tag(config=True)
    max_output_chars = Integer(100_000, help="characters of output kept per cell").tag(config=True)
    max_outputs = Integer(100, help="outputs kept per cell").tag(config=True)
    ipc_dir = Unicode("", help="directory for the kernel's unix sockets ('' = TCP)"
                      ).tag(config=True)

    # ---- the notebook: run, and run again without the cell that killed the kernel
    def preprocess(self, nb, resources=None, km=None):
        info = (resources or {}).get("nbgrader", {})
        self._key = (info.get("student", "?"), info.get("assignment", "?"))
        self._skip: dict[int, str] = {}
        stops: list[dict] = []
        original = copy.deepcopy(nb)
        for attempt in range(self.max_restarts + 1):
            work = nb if attempt == 0 else copy.deepcopy(original)
            self._guard_ready, self._current, self._events = None, None, []
            self.shutdown_kernel = "immediate"  # nothing left to wait for: saves seconds
            try:
                work, resources = super().preprocess(work, resources, km)
            except (DeadKernelError, KernelHung) as exc:
                if self._current is None:  # the kernel never started: nothing to skip
                    raise
                reason = "hung" if isinstance(exc, KernelHung) else "died"
                self._skip[self._current] = reason
                self._event("kernel-" + reason, original.cells[self._current], self._current)
                stops += self._events[-1:]
                continue
            EVENTS[self._key] = stops + self._events
            return work, resources
        EVENTS[self._key] = stops
        raise RuntimeError(f"the kernel stopped {len(self._skip)} times; giving up")

    def create_kernel_manager(self):
        km = super().create_kernel_manager()
        if self.ipc_dir:
            km.transport = "ipc"
            km.ip = str(Path(self.ipc_dir) / ("k" + secrets.token_hex(4)))
        return km

    # ---- one cell
    def preprocess_cell(self, cell, resources, index):
        self._current = index
        self._chars, self._count, self._cut = 0, 0, False
        if cell.cell_type != "code":
            return cell, resources
        if index in self._skip:
            verb = ("stopped the kernel (it exited or crashed)" if self._skip[index] == "died"
                    else "ran past the time limit and ignored the interrupt")
            cell.outputs = [_error("KernelStopped", f"This cell {verb}; it was skipped when the "
                                   "notebook was run again, so it scores 0.")]
            cell.execution_count = None
            return cell, resources
        graded = is_grade(cell) and not is_solution(cell)
        if self._guard_ready is None:  # once, before any student code; never after it
            self._guard_ready = self._guard(guard.SETUP)
        if graded and not self._guard(guard.before_code(cell.source)):
            self._event("guard-failed", cell, index)
            cell.outputs = [_error("GraderGuardError", "The notebook changed the kernel so the "
                                   "grader's checks could not run; this test scores 0.")]
            return cell, resources
        start = monotonic()
        try:
            cell, resources = super().preprocess_cell(cell, resources, index)
        except CellTimeoutError:
            if self.timeout and monotonic() - start < self.timeout:
                raise  # output lagged behind a finished cell: fail loudly, never guess a grade
            # the interrupted cell never went idle: is the kernel still alive?
            cell.outputs.append(_error(TIMEOUT_ENAME, "the cell ran past the time limit"))
            if self._silent("pass", self.probe_timeout) is None:
                raise KernelHung(index) from None
        if any(o.get("ename") == TIMEOUT_ENAME for o in cell.outputs):
            self._event("timeout", cell, index)
        if graded:
            self._guard(guard.AFTER)
            if any(o.output_type == "error" for o in cell.outputs):
                cell.outputs = [o for o in cell.outputs if o.output_type != "execute_result"]
        if self._cut:
            self._event("output-truncated", cell, index)
        return cell, resources

    def _guard(self, code: str) -> bool:
        reply = self._silent(code, 10)
        return bool(reply) and reply["content"].get("status") == "ok"

    # ---- silent requests to the kernel (no output, no history)
    async def _async_silent(self, code: str, timeout: float):
        msg_id = self.kc.execute(code, silent=True, store_history=False, allow_stdin=False,
                                 stop_on_error=False)
        deadline = monotonic() + timeout
        while (remaining := deadline - monotonic()) > 0:
            try:
                msg = await ensure_async(self.kc.shell_channel.get_msg(timeout=remaining))
            except Empty:
                return None
            if msg["parent_header"].get("msg_id") == msg_id:
                return msg
        return None

    _silent = run_sync(_async_silent)

    # ---- output caps
    def output(self, outs, msg, display_id, cell_index):
        if self._count >= self.max_outputs or self._chars >= self.max_output_chars:
            self._cut = True
            return None
        out = super().output(outs, msg, display_id, cell_index)
        if out is None:
            return None
        self._count += 1
        room = self.max_output_chars - self._chars
        if out.output_type == "stream":
            if len(out.text) > room:
                out.text, self._cut = out.text[:room] + "\n... output truncated ...\n", True
            self._chars += len(out.text)
        elif out.output_type == "error":
            out.evalue = out.evalue[:2000]
            out.traceback = [line[:2000] for line in out.traceback[:200]]
            self._chars += len(out.evalue)
        else:
            size = sum(len(str(v)) for v in out.get("data", {}).values())
            if size > room:
                out.data, self._cut = {"text/plain": "... output too large, removed ..."}, True
                out.metadata = {}
                size = 40
            self._chars += size
        return out

    def _event(self, kind: str, cell, index: int) -> None:
        gid = cell.metadata.get("nbgrader", {}).get("grade_id") or f"cell {index}"
        self._events.append({"event": kind, "cell": gid})


class RestoreMissingCells(OverwriteCells):
    """OverwriteCells that adds deleted test cells back even when their neighbour is gone too.

    nbgrader 0.9.6 puts a missing test cell after the source cell just before it and raises
    KeyError (the whole submission fails) when the student deleted that cell as well, e.g. an
    answer cell and its test. Here it goes after the nearest earlier cell still present.
    """

    def add_missing_grade_cells(self, nb, resources):
        source_nb = self.gradebook.find_notebook(self.notebook_id, self.assignment_id)
        order = [c.name for c in source_nb.source_cells]
        grade_cells = {c.name: c for c in source_nb.grade_cells}
        solutions = {c.name for c in source_nb.solution_cells}
        for gid in order:
            where = {c.metadata.get("nbgrader", {}).get("grade_id"): i
                     for i, c in enumerate(nb.cells)}
            if gid not in grade_cells or gid in where:
                continue
            self.log.warning("Missing grade cell %s encountered, adding to notebook", gid)
            earlier = [where[g] for g in order[:order.index(gid)] if g in where]
            cell = self.missing_cell_transform(source_nb.source_cells[order.index(gid)],
                                               grade_cells[gid].max_score,
                                               is_solution=gid in solutions)
            cell["id"] = ("restored-" + gid)[:64]  # nbformat 4.5 wants an id on every cell
            nb.cells.insert(max(earlier) + 1 if earlier else 0, cell)
        return nb, resources
