"""The bare view of the benchmarks (`bench/bench_http.py`): never mounted unless asked for."""

import pytest
from django.test import RequestFactory

from flipwell.web.views.bare import bare

pytestmark = pytest.mark.django_db


def test_bare_url_absent_by_default(client):
    response = client.get("/bench/bare/")

    assert response.status_code == 404


def test_bare_view_serves_a_static_page_of_3_5_kb():
    response = bare(RequestFactory().get("/bench/bare/"))

    assert (response.status_code, response["Content-Type"]) == (200, "text/html; charset=utf-8")
    assert 3_000 <= len(response.content) <= 4_000
