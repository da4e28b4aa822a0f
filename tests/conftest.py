"""Shared pytest settings: hypothesis profile for CI (deterministic, no deadline)."""

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("ci", max_examples=200, deadline=None, derandomize=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ci")


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    """Under ``--dist loadgroup``, a test file without groups of its own runs on one worker
    (its module fixtures are built once), while tests/test_autograde.py spreads its lessons."""
    for item in items:
        if not any(True for _ in item.iter_markers("xdist_group")):
            item.add_marker(pytest.mark.xdist_group(item.nodeid.split("::")[0]))


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
