"""What the course's nbgrader_config.py gives the autograde kernel, checked through nbgrader:
unix sockets instead of TCP ports (no "Address already in use" when autogrades run at once),
NBGRADER_EXECUTION in the kernel's environment (explorers are not drawn), and the course's
cell timeout (10 s, then an interrupt). The graded classes (tests/graded_class.py) run under a
shorter timeout of their own; that a loop is interrupted there and costs only its own cells is
tests/test_autograde.py's check on lesson 3's sign_slip_loops_forever."""

import os
import tempfile
from pathlib import Path

import nbformat
import pytest

from tests.nbgrading import REPO, nbgrader, new_course

PROBE = ("from ipykernel.connect import get_connection_info\n"
         "info = get_connection_info(unpack=True)\n"
         "import os\n"
         "print(info['transport'], info['ip'], os.environ.get('NBGRADER_EXECUTION'))")


@pytest.mark.slow
@pytest.mark.skipif(os.name != "posix", reason="unix sockets: Linux and macOS only")
def test_autograde_kernels_use_private_unix_sockets(tmp_path):
    course = new_course(tmp_path, [])
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(PROBE)])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    (course / "notebooks" / "probe").mkdir(parents=True)
    nbformat.write(nb, course / "notebooks" / "probe" / "probe.ipynb")
    nbgrader("generate_assignment", "probe", "--force", cwd=course)
    (course / "submitted" / "s1" / "probe").mkdir(parents=True)
    nbformat.write(nb, course / "submitted" / "s1" / "probe" / "probe.ipynb")
    nbgrader("autograde", "probe", "--create", "--force", cwd=course)
    graded = nbformat.read(course / "autograded" / "s1" / "probe" / "probe.ipynb", as_version=4)
    transport, ip, execution = graded.cells[0].outputs[0]["text"].split()
    assert transport == "ipc" and Path(ip).is_absolute()
    assert Path(ip).parent.name.startswith("nbgrader-kernels-")
    assert execution == "autograde"
    assert Path(ip).parent.parent == Path(tempfile.gettempdir())
    assert not Path(ip).parent.exists()  # the socket folder goes when nbgrader exits


def test_a_cell_may_run_ten_seconds_then_the_kernel_is_interrupted():
    from nbgrader.preprocessors import Execute
    from traitlets.config import PyFileConfigLoader

    config = PyFileConfigLoader("nbgrader_config.py", path=str(REPO)).load_config()
    execute = Execute(config=config)  # the preprocessor nbgrader's autograde runs the cells with
    assert execute.timeout == 10 and execute.interrupt_on_timeout
    assert Execute().timeout != 10  # nbgrader's own default is not the course's
