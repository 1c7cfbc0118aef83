"""Fixtures of the API tests: the golden season stored, a league night, tokens, a client."""

from __future__ import annotations

import datetime
import json
import uuid
from pathlib import Path

import pytest
from django.test import Client

from flipwell.league import models as m
from flipwell.league.services.season_files import import_season_file
from flipwell.league.services.tokens import issue_api_token
from tests import factories as f
from tests.league.league_night import Night, build_night

GOLDEN = json.loads((Path(__file__).parents[1] / "data" / "golden_season.json").read_text())


@pytest.fixture
def official(db):
    return f.LeagueOfficialFactory(role=m.LeagueOfficial.Role.LEAGUE_OFFICIAL)


@pytest.fixture
def golden(official) -> m.Season:
    """The golden season (22 players, 10 closed meets) stored in the official's league."""
    return import_season_file(
        league=official.league,
        name="Winter 2026",
        data=GOLDEN,
        first_meet=datetime.date(2026, 1, 7),
        actor=official.user,
    )


@pytest.fixture
def night(db) -> Night:
    """A league with 8 ranked players and 8 machines, no meet started yet."""
    return build_night()


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
