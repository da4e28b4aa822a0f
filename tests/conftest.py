"""Shared pytest settings: hypothesis profile for CI (deterministic, no deadline)."""

from hypothesis import HealthCheck, settings

settings.register_profile("ci", max_examples=200, deadline=None, derandomize=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ci")
