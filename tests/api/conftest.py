"""Fixtures and helpers of the API tests: tokens, a client, JSON posts. The league night, the
official and the golden season the API tests share with the others are in tests/conftest.py."""

from __future__ import annotations

import uuid

import pytest
from django.test import Client

from flipwell.league import models as m
from flipwell.league.services.tokens import issue_api_token
from tests.league.league_night import game


def bearer(secret: str) -> dict[str, str]:
    return {"HTTP_AUTHORIZATION": f"Bearer {secret}"}


def keyed(secret: str) -> dict[str, str]:
    """A write's headers as a careful client sends them: the token and a new Idempotency-Key
    (the writes that record a fact require one)."""
    return {**bearer(secret), "HTTP_IDEMPOTENCY_KEY": uuid.uuid4().hex}


def token(league_official: m.LeagueOfficial, *scopes: str) -> str:
    """A new token's secret for the official's league."""
    issued = issue_api_token(
        league=league_official.league,
        name="test",
        scopes=scopes or ("read_private", "scores", "manage"),
        actor=league_official.user,
    )
    return issued.secret


@pytest.fixture
def client() -> Client:
    return Client()


def post(client: Client, url: str, body: object, secret: str):
    """POST a JSON body with the token and a new Idempotency-Key."""
    return client.post(url, body, content_type="application/json", **keyed(secret))


@pytest.fixture
def first_game(meet):
    """Group 1's game 1 of the started meet."""
    return game(meet, 1, 1)


@pytest.fixture
def night_secret(night):
    """A token's secret of the night's league, every scope."""
    return token(night.official)


@pytest.fixture
def manage_secret(night):
    """A token's secret of the night's league, scope manage."""
    return token(night.official, "manage")
