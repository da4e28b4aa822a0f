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
