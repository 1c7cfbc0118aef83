"""Every console write needs its scope and a token of the league concerned: a token without
the scope, or of another league, is a 403 and nothing is written. An override (a correction
of a closed meet, A45.2) needs the manage scope of a league official's token; a removed
official's tokens are refused."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from flipwell.league import models as m
from flipwell.league.models import ApiToken
from flipwell.league.services.corrections.request import request_correction
from flipwell.league.services.ledger import record_ledger_entry
from flipwell.league.services.meets.close import close_meet
from flipwell.league.services.setup.officials import remove_official
from flipwell.league.services.violations.penalties import record_violation
from tests import factories as f
from tests.api.conftest import bearer, post, token
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
    ("/groups/{group}/next-game/by-official", {"machine": None}, "manage"),
    ("/groups/{group}/absence", {"players": [P]}, "manage"),
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
    ("/games/{game}/slow-play-warnings", {"player": P, "reason": "x"}, "manage"),
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
    (
        "/leagues/{slug}/special-rulings/copies",
        {"league": "x", "machine_title": "x", "number": 1},
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


# --- overrides: a correction of a closed meet (A45.2) ------------------------------------------


@pytest.fixture
def closed(night) -> m.Game:
    """Meet 1 closed by its official after group 1's first game (100, 50, 30, 10)."""
    a = night.players
    meet = start(night)
    played = game(meet, 1, 1)
    play(played, {a[0]: 100, a[1]: 50, a[2]: 30, a[3]: 10})
    close_meet(meet=meet, actor=night.user, override_reason="Power cut")
    return played


def _override(client, night, closed, secret):
    a = night.players
    body = {
        "requested_by": a[0].pk,
        "scores": [{"player": a[1].pk, "machine_score": 60}],
        "reason": "50 was misread",
        "override_reason": "The photo of the display shows 60",
    }
    return post(client, f"/api/v1/games/{closed.pk}/corrections", body, secret)


def test_override_with_a_scores_token_of_an_lo_is_403(client, night, closed):
    """A45.2: a scores token never overrides, even one an LO issued."""
    response = _override(client, night, closed, token(night.official, "scores"))

    assert response.status_code == 403
    assert response.json()["error"]["code"] == "forbidden"
    assert (
        "'manage' scope needed to override a closed meet" in (response.json()["error"]["message"])
    )
    assert m.CorrectionRequest.objects.count() == 0
    assert m.Ruling.objects.filter(kind="late_correction").count() == 0


def test_override_on_an_open_meet_with_a_scores_token_is_403(client, night):
    a = night.players
    played = game(start(night), 1, 1)
    play(played, {a[0]: 100, a[1]: 50, a[2]: 30, a[3]: 10})

    response = _override(client, night, played, token(night.official, "scores"))

    assert response.status_code == 403
    assert m.CorrectionRequest.objects.count() == 0


def test_override_with_a_manage_token_of_an_lo_is_201(client, night, closed):
    response = _override(client, night, closed, token(night.official, "manage"))

    assert response.status_code == 201
    assert m.CorrectionRequest.objects.get().override_reason == (
        "The photo of the display shows 60"
    )


def test_override_with_a_manage_token_of_an_lo_now_a_scorekeeper_is_403(client, night, closed):
    secret = token(night.official, "manage")
    night.official.role = m.LeagueOfficial.Role.SCOREKEEPER
    night.official.save()

    response = _override(client, night, closed, secret)

    assert response.status_code == 403
    assert "is no longer a league official" in response.json()["error"]["message"]
    assert m.CorrectionRequest.objects.count() == 0


def test_correction_of_a_closed_meet_without_override_reason_is_422(client, night, closed):
    a = night.players
    body = {"requested_by": a[0].pk, "scores": [{"player": a[1].pk, "machine_score": 60}],
            "reason": "Misread"}  # fmt: skip

    response = post(
        client, f"/api/v1/games/{closed.pk}/corrections", body, token(night.official, "scores")
    )

    assert response.status_code == 422
    assert list(response.json()["error"]["fields"]) == ["override_reason"]


# --- a removed official ----------------------------------------------------------------------


@pytest.fixture
def removed(night):
    """Meet 1 open; the night's official issued a token with every scope; a second LO."""
    start(night)
    secret = token(night.official)
    other = f.LeagueOfficialFactory(league=night.league, role=m.LeagueOfficial.Role.LEAGUE_OFFICIAL)
    return secret, other


def _submit(client, night, secret):
    a = night.players
    body = {
        "scores": [
            {"player": p.pk, "machine_score": s} for p, s in zip(a[:4], (4, 3, 2, 1), strict=True)
        ],
        "entered_by": a[0].pk,
        "idempotency_key": "removed-1",
    }
    played = m.Game.objects.get(group__number=1, number=1)
    return post(client, f"/api/v1/games/{played.pk}/scores", body, secret)


def test_removed_officials_token_is_refused(client, night, removed):
    secret, other = removed
    remove_official(official=night.official, actor=other.user)

    treasury = client.get(f"/api/v1/leagues/{night.league.slug}/treasury", **bearer(secret))
    submitted = _submit(client, night, secret)

    assert (treasury.status_code, submitted.status_code) == (401, 401)
    assert m.ScoreSubmission.objects.count() == 0
    assert ApiToken.objects.get(issued_by=night.user).revoked_by == other.user


def test_token_of_an_official_removed_outside_the_service_is_403(client, night, removed):
    """Deleted in the admin (so not revoked): the issuer's role is checked on every request."""
    secret, _ = removed
    m.LeagueOfficial.objects.filter(pk=night.official.pk).delete()

    treasury = client.get(f"/api/v1/leagues/{night.league.slug}/treasury", **bearer(secret))
    submitted = _submit(client, night, secret)

    assert (treasury.status_code, submitted.status_code) == (403, 403)
    assert "no longer holds a role" in treasury.json()["error"]["message"]
    assert m.ScoreSubmission.objects.count() == 0


def test_token_of_a_demoted_official_keeps_only_the_scores_scope(client, night, removed):
    secret, _ = removed
    m.LeagueOfficial.objects.filter(pk=night.official.pk).update(
        role=m.LeagueOfficial.Role.SCOREKEEPER
    )

    treasury = client.get(f"/api/v1/leagues/{night.league.slug}/treasury", **bearer(secret))
    submitted = _submit(client, night, secret)

    assert (treasury.status_code, submitted.status_code) == (403, 201)
