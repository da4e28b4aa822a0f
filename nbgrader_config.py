"""nbgrader configuration for the course (read by every nbgrader command run in this folder).

Traps it avoids (see ../shared/FACTS.md):
- stderr: nbgrader scores a test cell 0 on any stderr stream, so a correct answer that also
  prints a warning would lose its points. IgnorePattern drops every stderr stream before
  grading; errors (exceptions) still fail the cell.
- a loop that never ends: each cell may run 10 seconds; after a timeout the kernel is
  interrupted and the remaining cells are still executed and graded.
- feedback: the feedback HTML shows neither hidden tests nor the lines of a failing hidden
  assert, only the message written for the learner.
- chunklib is an installed package (pip install -e .), so the autograde kernel, which runs in
  autograded/<student>/<assignment>/, imports it like the learner's kernel does.
- a kernel that dies at start: over TCP, the ports picked for a new kernel can be taken by
  another process before the kernel binds them ("Address already in use"; the submission is
  then not graded), which happens when several autogrades run at once. On Linux and macOS the
  kernels talk over unix sockets in a folder of this nbgrader process's own instead.
- explorers: nbgrader sets NBGRADER_EXECUTION in the kernel's environment, and chunklib's
  explorers then show a one-line note instead of being drawn (nothing is graded from them).
"""

import atexit
import os
import shutil
import tempfile

from nbconvert.preprocessors import CSSHTMLHeaderPreprocessor
from nbgrader.preprocessors import ClearHiddenTests, GetGrades, NbGraderPreprocessor

c = get_config()  # noqa: F821 (provided by traitlets when nbgrader loads this file)

c.CourseDirectory.course_id = "chunking-strategies"
c.CourseDirectory.source_directory = "notebooks"
c.CourseDirectory.release_directory = "release"
# the prose templates (notebooks/NN-*/prose/, rendered into the notebook by tools/sync_prose.py)
# are the instructor's source: never copied into the release, nor into a student's folder
c.CourseDirectory.ignore = [".ipynb_checkpoints", "*.pyc", "__pycache__", "feedback", "prose"]

c.ClearSolutions.code_stub = {"python": "# YOUR CODE HERE\nraise NotImplementedError()"}

c.Execute.timeout = 10
c.Execute.interrupt_on_timeout = True

if os.name == "posix":  # zmq has no unix sockets on Windows: TCP there
    _sockets = tempfile.mkdtemp(prefix="nbgrader-kernels-")
    atexit.register(shutil.rmtree, _sockets, ignore_errors=True)
    c.KernelManager.transport = "ipc"
    c.KernelManager.ip = os.path.join(_sockets, "kernel")

c.IgnorePattern.enabled = True
c.IgnorePattern.pattern = r"^"  # matches every stderr text: warnings cost nothing


class HideHiddenTestsInFeedback(NbGraderPreprocessor):
    """Feedback shows a graded cell without its hidden tests and an error as one line."""

    def preprocess_cell(self, cell, resources, index):
        if cell.cell_type == "code" and "BEGIN HIDDEN TESTS" in cell.source:
            cell, resources = ClearHiddenTests().preprocess_cell(cell, resources, index)
            for out in cell.get("outputs", []):
                if out.get("output_type") == "error":
                    out["traceback"] = [f"{out.get('ename')}: {out.get('evalue')}"]
        return cell, resources


c.GenerateFeedback.preprocessors = [
    GetGrades,
    HideHiddenTestsInFeedback,
    CSSHTMLHeaderPreprocessor,
]
