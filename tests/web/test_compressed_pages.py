"""A kept public page served compressed to a client that accepts gzip (flipwell.serving.pages:
venues' Wi-Fi; issue 36 §5): the same page in fewer bytes, under the same weak tag, and never a
page that may hold a secret."""

from __future__ import annotations

import gzip
import random

import pytest
from django.test import Client

from flipwell.serving import pages

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("empty_page_memo")]
GZIP = {"Accept-Encoding": "gzip, deflate, br"}
"""What a browser says it accepts."""


def _public_urls(demo) -> list[str]:
    slug, season = demo.league.slug, demo.finished_season
    return [
        f"/leagues/{slug}/seasons/{season.pk}/",
        f"/tv/{slug}/",
        f"/api/v1/seasons/{season.pk}/standings",
    ]


def test_a_kept_page_is_the_same_page_in_fewer_bytes_to_a_client_that_accepts_gzip(demo):
    for url in _public_urls(demo):
        plain = Client().get(url)
        packed = Client().get(url, headers=GZIP)  # served from the page memo

        assert (url, plain.status_code, packed.status_code) == (url, 200, 200)
        assert "Content-Encoding" not in plain
        assert (url, packed["Content-Encoding"]) == (url, "gzip")
        assert gzip.decompress(packed.content) == plain.content
        assert len(packed.content) < len(plain.content) / 3
        assert packed["ETag"] == plain["ETag"]  # one page, one (weak) tag
        assert "Accept-Encoding" in packed["Vary"]
        assert "Accept-Encoding" in plain["Vary"]


def test_the_first_render_is_served_compressed_too(demo):
    url = _public_urls(demo)[0]

    first = Client().get(url, headers=GZIP)

    assert first["Content-Encoding"] == "gzip"
    assert gzip.decompress(first.content) == Client().get(url).content


def test_a_compressed_page_is_still_answered_304_to_its_tag(demo):
    url = _public_urls(demo)[0]
    first = Client().get(url, headers=GZIP)

    again = Client().get(url, headers={**GZIP, "If-None-Match": first["ETag"]})

    assert (again.status_code, again.content) == (304, b"")


def test_a_client_that_does_not_accept_gzip_gets_the_plain_page(demo):
    url = _public_urls(demo)[0]
    Client().get(url, headers=GZIP)

    for accepted in ("identity", "br", "deflate"):
        answer = Client().get(url, headers={"Accept-Encoding": accepted})
        assert (accepted, "Content-Encoding" in answer) == (accepted, False)


def test_a_signed_in_page_is_never_compressed(demo):
    """It holds the session's form token: compressed beside what a visitor's query reflects,
    its length could leak it (BREACH)."""
    official = Client()
    official.force_login(demo.official)

    answer = official.get(_public_urls(demo)[0], headers=GZIP)

    assert (answer.status_code, "Content-Encoding" in answer) == (200, False)


def test_a_short_page_or_one_that_would_not_shrink_is_kept_without_a_compressed_body():
    short = pages.Page.of(200, b"<p>x</p>", "text/html")
    noise = pages.Page.of(200, random.Random(36).randbytes(2048), "application/octet-stream")
    long = pages.Page.of(200, b"<td>12,345,678,901</td>" * 100, "text/html")

    assert (short.gzipped, noise.gzipped) == (None, None)
    assert long.gzipped is not None
    assert gzip.decompress(long.gzipped) == long.content
