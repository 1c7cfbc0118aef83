"""Shared test configuration: Hypothesis profiles (issue 34 §4).

`make test` (and any plain pytest run) loads the profile ``test``: derandomized, so every run
of one commit draws the same examples (each test's seed is fixed, derived from the test
itself) and no example database replays an earlier run's failures: CI never fails or passes
by chance. ``FLIPWELL_CHAOS=long`` (`make chaos`) loads ``chaos``: a random search, three
times the examples. The profile is printed in the run's header.
"""

import os

import pytest
from hypothesis import HealthCheck, settings

from tests.form_keys import KeyedClient

CHAOS = os.environ.get("FLIPWELL_CHAOS", "").strip().lower() == "long"

settings.register_profile(
    "test",
    max_examples=100,
    deadline=None,
    derandomize=True,
    database=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "chaos",
    max_examples=300,
    deadline=None,
    derandomize=False,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
HYPOTHESIS_PROFILE = "chaos" if CHAOS else "test"
settings.load_profile(HYPOTHESIS_PROFILE)


def pytest_report_header() -> str:
    if CHAOS:
        return "flipwell: Hypothesis profile 'chaos': random search (seed printed on failure)"
    return (
        "flipwell: Hypothesis profile 'test': derandomized, seed fixed per test "
        "(FLIPWELL_CHAOS=long for a random search)"
    )


@pytest.fixture
def client() -> KeyedClient:
    """Django's test client, posting the console's forms with a form key the server issued
    (`tests.form_keys`), as a browser does."""
    return KeyedClient()
