"""Every console write needs its scope and a token of the league concerned: a token without
the scope, or of another league, is a 403 and nothing is written."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from flipwell.league import models as m
from flipwell.league.services.corrections import request_correction
from flipwell.league.services.incidents import record_violation
from flipwell.league.services.ledger import record_ledger_entry
from tests import factories as f
from tests.api.conftest import post, token
from tests.league.league_night import game, play, start

pytestmark = pytest.mark.django_db


@dataclass
class Ids:
    slug: str
    season: int
    meet: int
    group: int
    game: int
    machine: int
    correction: int
    violation: int
    entry: int
    player: int


@pytest.fixture
def ids(night) -> Ids:
    a = night.players
    meet = start(night)
    played = game(meet, 1, 1)
    play(played, {a[0]: 100, a[1]: 50, a[2]: 30, a[3]: 10})
    correction = request_correction(
        game=played, scores={a[1]: 60}, requested_by=a[0], reason="Misread", actor=night.user
    )
    record_violation(
        meet=meet, player=a[1], kind="opponents_ball", game=played, reason="Seen", actor=night.user
    )
    entry = record_ledger_entry(
        league=night.league, kind="kitty_in", account="kitty", amount_cents=500, actor=night.user
    )
    return Ids(
        slug=night.league.slug,
        season=night.season.pk,
        meet=meet.pk,
        group=played.group_id,
        game=played.pk,
        machine=night.machines[0].pk,
        correction=correction.pk,
        violation=m.Violation.objects.get().pk,
        entry=entry.pk,
        player=a[0].pk,
    )


P = 1  # a well-formed id: the scope is checked before any id in the body is looked up
SCORES = [{"player": P, "machine_score": 1}]
RULING = {
    "machine_title": "T",
    "kind": "not_a_malfunction",
    "text": "x",
    "reproducible": True,
    "reproduction": "x",
    "cause_and_effect": "x",
}
# (URL template, body, scope): every endpoint this change added.
WRITES = [
    ("/seasons/{season}/meets", {"number": 2, "date": "2026-01-13"}, "manage"),
    ("/meets/{meet}/absences", {"player": P}, "manage"),
    ("/meets/{meet}/lateness-notices", {"player": P}, "manage"),
    ("/groups/{group}/next-game", {"machine": P, "chosen_by": P}, "scores"),
    (
        "/games/{game}/corrections",
        {"requested_by": P, "scores": SCORES, "reason": "x"},
        "scores",
    ),
    ("/corrections/{correction}/answers", {"player": P, "agrees": True}, "scores"),
    (
        "/games/{game}/late-joins",
        {"player": P, "machine_allows_joining": True, "last_player_not_past_ball_1": True},
        "manage",
    ),
    ("/games/{game}/malfunctions", {"player": P, "ball": 1, "reason_code": "fire"}, "manage"),
    ("/games/{game}/compensatory-requests", {"player": P}, "manage"),
    ("/games/{game}/compensatory-games", {"player": P, "new_score": 1}, "manage"),
    ("/meets/{meet}/machine-problems", {"machine": P, "problem": "x"}, "manage"),
    ("/meets/{meet}/machines/{machine}/unplayable", {"reason": "x"}, "manage"),
    ("/meets/{meet}/machines/{machine}/repaired", {"reason": "x"}, "manage"),
    ("/games/{game}/replace-machine", {"reason": "x"}, "manage"),
    ("/meets/{meet}/violations", {"player": P, "kind": "cheating", "reason": "x"}, "manage"),
    ("/violations/{violation}/remedies", {"victim": P}, "manage"),
    (
        "/games/{game}/restarts",
        {"responsible": P, "games_started": 3, "game_price_cents": 50},
        "manage",
    ),
    ("/games/{game}/discarded-scores", {"players": [P], "reason": "x"}, "manage"),
    (
        "/games/{game}/replay-scores",
        {"scores": SCORES, "entered_by": P, "confirmed_by": P},
        "manage",
    ),
    (
        "/seasons/{season}/players/{player}/late-join-forfeits",
        {"countable": True, "reason": "x"},
        "manage",
    ),
    ("/leagues/{slug}/ledger/{entry}/reversal", {"reason": "x"}, "manage"),
    ("/leagues/{slug}/special-rulings/appendix-a", {}, "manage"),
    ("/leagues/{slug}/special-rulings", RULING, "manage"),
    (
        "/leagues/{slug}/special-rulings/amendments",
        {**RULING, "number": 1, "reason": "x"},
        "manage",
    ),
    ("/seasons/{season}/playoffs/qualification", {"date": "2026-03-25"}, "manage"),
    ("/seasons/{season}/playoffs/seed-playoffs", {"order": [P]}, "manage"),
    ("/seasons/{season}/playoffs/withdrawals", {"player": P}, "manage"),
    ("/seasons/{season}/playoffs/A/QF1/games", {}, "manage"),
    ("/seasons/{season}/playoffs/A/QF1/games/current/result", {"order": [P]}, "manage"),
    ("/seasons/{season}/playoffs/A/QF1/tiebreakers", {"order": [P]}, "manage"),
    ("/seasons/{season}/playoffs/A/QF1/no-shows", {"player": P}, "manage"),
    ("/seasons/{season}/playoffs/A/QF1/lateness-notices", {"player": P}, "manage"),
    ("/seasons/{season}/playoffs/close", {}, "manage"),
]
OTHER_SCOPES = {"manage": ("read_private", "scores"), "scores": ("read_private", "manage")}


def _audit_count() -> int:
    return m.AuditEvent.objects.count()


@pytest.mark.parametrize(("template", "body", "scope"), WRITES, ids=[w[0] for w in WRITES])
def test_write_without_its_scope_is_403(client, night, ids, template, body, scope):
    secret = token(night.official, *OTHER_SCOPES[scope])
    before = _audit_count()

    response = post(client, "/api/v1" + template.format(**vars(ids)), body, secret)

    assert response.status_code == 403
    assert response.json()["error"]["code"] == "forbidden"
    assert scope in response.json()["error"]["message"]
    assert _audit_count() == before


@pytest.mark.parametrize(("template", "body", "scope"), WRITES, ids=[w[0] for w in WRITES])
def test_write_with_another_leagues_token_is_403(client, ids, template, body, scope):
    secret = token(f.LeagueOfficialFactory())
    before = _audit_count()

    response = post(client, "/api/v1" + template.format(**vars(ids)), body, secret)

    assert response.status_code == 403
    assert "another league" in response.json()["error"]["message"]
    assert _audit_count() == before
