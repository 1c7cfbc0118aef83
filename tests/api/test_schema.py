"""Property-based run of the OpenAPI schema (schemathesis, through Django's WSGI app).

Every operation gets up to 25 generated requests, the same ones on every run (derandomized,
issue 34 §4: `make test` never fails or passes by chance; `make chaos`, FLIPWELL_CHAOS=long,
searches at random with 100 per operation), with a token of the seeded league (so the
writes reach the services) and without; no answer may be a 500, and every answer must match
the schema: a documented status, the documented content type, a body of the documented shape.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from django.test import override_settings
from hypothesis import HealthCheck, Phase, settings
from schemathesis.checks import not_a_server_error
from schemathesis.core.parameters import ParameterLocation
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    response_schema_conformance,
    status_code_conformance,
)

from flipwell.wsgi import application
from tests.api.conftest import bearer, token
from tests.conftest import CHAOS
from tests.league.league_night import build_night, start
from tests.shared_rows import forget_memos

# schemathesis' WSGI client calls itself "localhost"; Django accepts it here and in the tests.
with override_settings(ALLOWED_HOSTS=["localhost"]):
    schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", application)


@schemathesis.check
def negative_data_rejected(ctx, response, case):
    """schemathesis' negative-data check, counting 413 (a body over the size limit) as the
    rejection it is: the generator sends multi-megabyte strings against `maxLength`."""
    if response.status_code == 413:
        return None
    return negative_data_rejection(ctx, response, case)


CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
    negative_data_rejected,
]


@pytest.fixture(scope="module")
def league_token(module_rows) -> str:
    """A league with an open meet (ids 1.. exist, so some requests find rows) and a token,
    built once for the module (tests/conftest.py's ``module_rows``)."""
    night = build_night()
    start(night)
    return token(night.official)


@pytest.fixture
def api_token(league_token, db, settings) -> Iterator[str]:
    """`league_token`, each operation's requests in a savepoint of their own."""
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "localhost"]
    forget_memos()  # no page or fold a previous operation's requests had remembered
    # As Django's test client does: a request's end must not close the test's connection
    # (on PostgreSQL that would end the test's transaction).
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield league_token
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


@schema.parametrize()
@settings(
    max_examples=100 if CHAOS else 25,
    deadline=None,
    derandomize=not CHAOS,
    phases=[Phase.explicit, Phase.generate],
    suppress_health_check=list(HealthCheck),
)
def test_api_matches_its_schema(case, api_token):
    headers = {"Authorization": bearer(api_token)["HTTP_AUTHORIZATION"]}
    if (case.headers and "Authorization" in case.headers) or _headers_made_wrong(case):
        headers = {}  # the case's own: a negative case without a token must stay one
    # schemathesis' WSGI transport asks for gzip as requests does, but does not decode it as
    # requests does (a kept public read is served compressed: tests/web/test_compressed_pages).
    headers["Accept-Encoding"] = "identity"
    case.call_and_validate(headers=headers, checks=CHECKS)


def _headers_made_wrong(case) -> bool:
    """Whether schemathesis generated the case's headers to break the schema (a token left
    out among them): adding ours would make a request it counts as invalid a valid one."""
    info = (case.meta.components if case.meta else {}).get(ParameterLocation.HEADER)
    return info is not None and info.mode.is_negative


def test_make_test_runs_the_api_schema_derandomized(db):
    """issue 34 §4: the schemathesis run in `make test` sends the same requests every run."""
    used = test_api_matches_its_schema.__wrapped__._hypothesis_internal_use_settings
    assert used.derandomize
    assert used.database is None
