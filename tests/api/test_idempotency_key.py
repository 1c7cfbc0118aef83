"""The ``Idempotency-Key`` header makes every API write safe to retry (issue 26 §2).

A write sent again with its key is answered from the first answer (``Idempotent-Replayed:
true``) and nothing is written twice; the key with another request is a 409
``idempotency_key_reused``; keys are the sender's own (per league and token, or personal link)
and expire after ``IDEMPOTENCY_KEY_HOURS``.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

import pytest
from django.utils import timezone

from flipwell.api.api import api
from flipwell.league import models as m
from flipwell.league.player_link_tokens import token_for
from flipwell.league.selectors.meet_board import meet_board
from flipwell.league.services.corrections import request_correction
from flipwell.league.services.identity import merge_players
from flipwell.league.services.invitations import invite_official
from flipwell.league.services.ledger import record_ledger_entry
from flipwell.league.services.machine_care import report_machine_problem
from flipwell.league.services.player_links import issue_player_link
from flipwell.league.services.violations import record_violation
from tests import factories as f
from tests.api.conftest import bearer, token
from tests.league.league_night import Night, build_night, free_machine, game, play, start

pytestmark = pytest.mark.django_db

WRITES = ("post", "put", "patch", "delete")


def _send(client, method: str, url: str, body: object, secret: str | None, key: str | None):
    headers = {} if key is None else {"HTTP_IDEMPOTENCY_KEY": key}
    if secret is not None:
        headers.update(bearer(secret))
    send = getattr(client, method)
    if body is None:
        return send(url, **headers)
    return send(url, body, content_type="application/json", **headers)


def _rows() -> dict[str, int]:
    """How many rows the writes under test may add."""
    return {
        "audit": m.AuditEvent.objects.count(),
        "violations": m.Violation.objects.count(),
        "ledger": m.LedgerEntry.objects.count(),
        "games": m.Game.objects.count(),
        "absences": m.AnnouncedAbsence.objects.count(),
    }


# --- the dangerous retries of the issue --------------------------------------------------------


@pytest.fixture
def played(night: Night) -> m.Game:
    """Meet 1 started, group 1's game 1 confirmed (100, 50, 30, 10)."""
    a = night.players
    first = game(start(night), 1, 1)
    play(first, {a[0]: 100, a[1]: 50, a[2]: 30, a[3]: 10})
    return first


def test_violation_sent_three_times_with_one_key_is_one_violation(client, night, played):
    """issue 26 §2: three sends were offense 1, 2 and a serious violation (season forfeited)."""
    secret = token(night.official, "manage")
    url = f"/api/v1/meets/{played.group.meet_id}/violations"
    body = {
        "player": night.players[1].pk,
        "kind": "opponents_ball",
        "game": played.pk,
        "reason": "Seen by the LO",
    }

    answers = [_send(client, "post", url, body, secret, "violation-1") for _ in range(3)]

    assert [a.status_code for a in answers] == [201, 201, 201]
    assert [a.headers.get("Idempotent-Replayed") for a in answers] == [None, "true", "true"]
    assert answers[2].json() == answers[0].json()
    assert m.Violation.objects.count() == 1
    assert m.AuditEvent.objects.filter(action__startswith="violation").count() == 1


def test_ledger_entry_sent_twice_with_one_key_is_booked_once(client, night):
    """issue 26 §2: a ledger entry sent twice booked the money twice."""
    secret = token(night.official, "manage")
    url = f"/api/v1/leagues/{night.league.slug}/ledger"
    body = {"kind": "kitty_in", "account": "kitty", "amount_cents": 500}

    first = _send(client, "post", url, body, secret, "cash-7")
    again = _send(client, "post", url, body, secret, "cash-7")

    assert (first.status_code, again.status_code) == (201, 201)
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.json() == first.json()
    assert m.LedgerEntry.objects.count() == 1


def test_start_and_close_retried_with_their_keys_answer_done(client, night):
    """issue 26 §2: a retried start or close answered 422 `invalid`; now the first answer."""
    secret = token(night.official, "manage")
    start_url = f"/api/v1/seasons/{night.season.pk}/meets/start"
    start_body = {"number": 1, "date": "2026-01-06", "seed": 7}
    started = _send(client, "post", start_url, start_body, secret, "start-1")
    start_again = _send(client, "post", start_url, start_body, secret, "start-1")
    close_url = f"/api/v1/meets/{m.Meet.objects.get().pk}/close"
    close_body = {"override_reason": "Power cut"}
    closed = _send(client, "post", close_url, close_body, secret, "close-1")
    close_again = _send(client, "post", close_url, close_body, secret, "close-1")

    assert [r.status_code for r in (started, start_again, closed, close_again)] == [200] * 4
    assert (start_again.json(), close_again.json()) == (started.json(), closed.json())
    assert m.AuditEvent.objects.filter(action__in=("meet.started", "meet.closed")).count() == 2


def test_next_game_retried_with_its_key_is_one_game(client, night, played):
    secret = token(night.official, "scores")
    board = meet_board(played.group.meet)
    picker = next(g for g in board.groups if g.number == 1).next_picker
    url = f"/api/v1/groups/{played.group_id}/next-game"
    body = {"machine": free_machine(played.group.meet, 1).pk, "chosen_by": picker}

    first = _send(client, "post", url, body, secret, "game-2")
    again = _send(client, "post", url, body, secret, "game-2")

    assert (first.status_code, again.status_code) == (201, 201)
    assert again.json() == first.json()
    assert m.Game.objects.filter(group=played.group).count() == 2


def test_personal_link_absence_retried_with_its_key_is_replayed(client):
    """The /me/ writes have no token: the key is the link's own."""
    night = build_night()
    start_day = timezone.localdate() + datetime.timedelta(days=7)
    f.MeetFactory(season=night.season, number=1, date=start_day)
    link = issue_player_link(season=night.season, player=night.players[0], actor=night.user)
    url = f"/api/v1/me/{token_for(link)}/meets/1/absence"

    first = _send(client, "post", url, None, None, "away-1")
    again = _send(client, "post", url, None, None, "away-1")
    without_key = _send(client, "post", url, None, None, None)

    assert (first.status_code, again.status_code) == (201, 201)
    assert again.headers["Idempotent-Replayed"] == "true"
    assert without_key.status_code == 409
    assert m.AnnouncedAbsence.objects.count() == 1


# --- the key's rules ---------------------------------------------------------------------------


def test_same_key_with_another_body_is_409_idempotency_key_reused(client, night):
    secret = token(night.official, "manage")
    url = f"/api/v1/leagues/{night.league.slug}/ledger"
    body = {"kind": "kitty_in", "account": "kitty", "amount_cents": 500}
    _send(client, "post", url, body, secret, "cash-7")

    other = _send(client, "post", url, {**body, "amount_cents": 900}, secret, "cash-7")

    error = other.json()["error"]
    assert other.status_code == 409
    assert (error["code"], list(error["fields"])) == ("idempotency_key_reused", ["Idempotency-Key"])
    assert m.LedgerEntry.objects.count() == 1


def test_same_key_same_object_in_another_key_order_is_a_replay(client, night):
    secret = token(night.official, "manage")
    url = f"/api/v1/leagues/{night.league.slug}/ledger"
    first = {"kind": "kitty_in", "account": "kitty", "amount_cents": 500}
    reordered = {"amount_cents": 500, "account": "kitty", "kind": "kitty_in"}

    _send(client, "post", url, first, secret, "cash-7")
    again = _send(client, "post", url, reordered, secret, "cash-7")

    assert again.headers["Idempotent-Replayed"] == "true"
    assert m.LedgerEntry.objects.count() == 1


def test_same_key_from_another_token_or_league_is_a_new_write(client, night):
    url = f"/api/v1/leagues/{night.league.slug}/ledger"
    body = {"kind": "kitty_in", "account": "kitty", "amount_cents": 500}
    other = build_night()

    first = _send(client, "post", url, body, token(night.official, "manage"), "cash-7")
    second = _send(client, "post", url, body, token(night.official, "manage"), "cash-7")
    elsewhere = _send(
        client,
        "post",
        f"/api/v1/leagues/{other.league.slug}/ledger",
        body,
        token(other.official, "manage"),
        "cash-7",
    )

    assert [r.status_code for r in (first, second, elsewhere)] == [201, 201, 201]
    assert "Idempotent-Replayed" not in second.headers
    assert m.LedgerEntry.objects.count() == 3


def test_key_older_than_its_lifetime_is_a_new_write(client, night, settings):
    settings.IDEMPOTENCY_KEY_HOURS = 24
    secret = token(night.official, "manage")
    url = f"/api/v1/leagues/{night.league.slug}/ledger"
    body = {"kind": "kitty_in", "account": "kitty", "amount_cents": 500}
    _send(client, "post", url, body, secret, "cash-7")
    m.IdempotencyKey.objects.update(created_at=timezone.now() - datetime.timedelta(hours=25))

    later = _send(client, "post", url, body, secret, "cash-7")

    assert later.status_code == 201
    assert "Idempotent-Replayed" not in later.headers
    assert m.LedgerEntry.objects.count() == 2
    assert m.IdempotencyKey.objects.count() == 1


def test_a_refusal_is_replayed_too(client, night):
    """A retry of a refused write gets the same refusal, from the stored answer."""
    secret = token(night.official, "manage")
    planned = f.MeetFactory(season=night.season, number=1, date=datetime.date(2026, 1, 6))
    url = f"/api/v1/meets/{planned.pk}/close"

    first = _send(client, "post", url, {}, secret, "close-1")
    again = _send(client, "post", url, {}, secret, "close-1")

    assert first.status_code == again.status_code == 409
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.json() == first.json()


@pytest.mark.parametrize("key", ["", "a b", "x" * 256, "clé"])
def test_a_bad_key_is_400_naming_the_header(client, night, key):
    secret = token(night.official, "manage")
    url = f"/api/v1/leagues/{night.league.slug}/ledger"
    body = {"kind": "kitty_in", "account": "kitty", "amount_cents": 500}

    response = _send(client, "post", url, body, secret, key)

    assert response.status_code == 400
    assert list(response.json()["error"]["fields"]) == ["Idempotency-Key"]
    assert m.LedgerEntry.objects.count() == 0


def test_score_entry_body_key_keeps_working_beside_the_header(client, night, played):
    """The score sheet's own `idempotency_key` field is still honored without the header."""
    secret = token(night.official, "scores")
    second = game(played.group.meet, 2, 1)
    players = [x.player_id for x in second.group.members.order_by("position")]
    body = {
        "entered_by": players[0],
        "scores": [{"player": p, "machine_score": 900 - i} for i, p in enumerate(players)],
        "idempotency_key": "sheet-1",
    }
    url = f"/api/v1/games/{second.pk}/scores"

    created = _send(client, "post", url, body, secret, None)
    replayed = _send(client, "post", url, body, secret, None)

    assert (created.status_code, replayed.status_code) == (201, 200)
    assert replayed.json()["replayed"] is True


# --- every write honors the header -------------------------------------------------------------


@dataclass
class Ids:
    """A value for every path parameter of the API's writes."""

    values: dict[str, object]
    secret: str


@pytest.fixture
def ids(night: Night, played: m.Game) -> Ids:
    a = night.players
    meet = played.group.meet
    correction = request_correction(
        game=played, scores={a[1]: 60}, requested_by=a[0], reason="Misread", actor=night.user
    )
    record_violation(
        meet=meet, player=a[1], kind="opponents_ball", game=played, reason="Seen", actor=night.user
    )
    entry = record_ledger_entry(
        league=night.league, kind="kitty_in", account="kitty", amount_cents=500, actor=night.user
    )
    twin = f.SeasonEntryFactory(season=f.SeasonFactory(league=night.league)).player
    merge = merge_players(
        league=night.league, kept=a[7], merged=twin, reason="Same person", actor=night.user
    )
    link = issue_player_link(season=night.season, player=a[0], actor=night.user)
    values = {
        "slug": night.league.slug,
        "season_id": night.season.pk,
        "meet_id": meet.pk,
        "group_id": played.group_id,
        "game_id": played.pk,
        "submission_id": m.ScoreSubmission.objects.filter(game=played).first().pk,
        "correction_id": correction.pk,
        "violation_id": m.Violation.objects.get().pk,
        "entry_id": entry.pk,
        "player_id": a[0].pk,
        "machine_id": night.machines[0].pk,
        "report_id": report_machine_problem(machine=night.machines[0], text="Weak flipper").pk,
        "merge_id": merge.pk,
        "division": "A",
        "match": "QF1",
        "token": token_for(link),
        "number": 2,
        "other_game_id": game(meet, 2, 1).pk,
        "loose_player": a[4].pk,
        "group_player": game(meet, 2, 1).group.members.get(position=1).player_id,
        "official_id": f.LeagueOfficialFactory(
            league=night.league, role=m.LeagueOfficial.Role.SCOREKEEPER
        ).pk,
        # An invitation to the token's own account: withdrawn, accepted or declined.
        "invitation_id": invite_official(
            league=night.league, who=night.user.username, role="league_official", actor=night.user
        ).pk,
    }
    return Ids(values=values, secret=token(night.official))


def _write_operations() -> list[tuple[str, str]]:
    paths = api.get_openapi_schema()["paths"]
    return [
        (method, path)
        for path, operations in paths.items()
        for method in operations
        if method in WRITES
    ]


def test_every_write_documents_the_header():
    paths = api.get_openapi_schema()["paths"]

    undocumented = [
        f"{method.upper()} {path}"
        for method, path in _write_operations()
        if "Idempotency-Key" not in [p["name"] for p in paths[path][method]["parameters"]]
    ]

    assert len(_write_operations()) >= 40
    assert undocumented == []


@pytest.mark.parametrize(("method", "path"), _write_operations())
def test_every_write_replays_its_first_answer(client, ids, method, path):
    """issue 26 §2: whatever the first answer, the retry with the key gets it again and
    writes nothing (no audit event, no row)."""
    url = path.format(**ids.values)
    first = _send(client, method, url, {}, ids.secret, "retry-1")
    rows = _rows()

    again = _send(client, method, url, {}, ids.secret, "retry-1")

    assert first.status_code < 500
    assert (again.status_code, again.content) == (first.status_code, first.content)
    assert again.headers["Idempotent-Replayed"] == "true"
    assert _rows() == rows


RULING = {
    "machine_title": "Attack from Mars",
    "kind": "not_a_malfunction",
    "text": "The saucer may stick: play on.",
    "reproducible": True,
    "reproduction": "Hit the saucer twice.",
    "cause_and_effect": "A worn coil.",
}
# (method, URL template, body): writes that succeed on `ids`, then must not be done again.
DONE_ONCE = [
    ("post", "/api/v1/leagues/{slug}/invitations", {"who": "bo", "role": "scorekeeper"}),
    ("post", "/api/v1/seasons/{season_id}/meets", {"number": 2, "date": "2026-01-13"}),
    ("post", "/api/v1/seasons/{season_id}/players", {"first_name": "Zed", "last_name": "New"}),
    (
        "post",
        "/api/v1/games/{other_game_id}/forfeits",
        {"player": "{loose_player}", "countable": True, "reason": "absent"},
    ),
    ("post", "/api/v1/meets/{meet_id}/lateness-notices", {"player": "{loose_player}"}),
    (
        "post",
        "/api/v1/games/{other_game_id}/slow-play-warnings",
        {"player": "{group_player}", "reason": "Slow to begin"},
    ),
    (
        "post",
        "/api/v1/meets/{meet_id}/machine-problems",
        {"machine": "{machine_id}", "problem": "Left flipper weak"},
    ),
    ("post", "/api/v1/leagues/{slug}/special-rulings", RULING),
    ("post", "/api/v1/leagues/{slug}/ledger/{entry_id}/reversal", {"reason": "Counted twice"}),
    (
        "put",
        "/api/v1/leagues/{slug}/players/{player_id}/notices",
        {"email": "ada@example.org", "kinds": ["results"]},
    ),
    ("put", "/api/v1/me/{token}/email", {"email": "me@example.org"}),
    ("post", "/api/v1/leagues/{slug}/player-merges/{merge_id}/undo", {"reason": "Not him"}),
]


def _filled(value: object, values: dict[str, object]) -> object:
    """`value` with "{name}" strings replaced by the id named (a whole string stays a number)."""
    if isinstance(value, dict):
        return {k: _filled(v, values) for k, v in value.items()}
    if isinstance(value, str) and value.startswith("{") and value.endswith("}"):
        return values[value[1:-1]]
    return value


@pytest.mark.parametrize(("method", "path", "body"), DONE_ONCE, ids=[w[1] for w in DONE_ONCE])
def test_a_write_that_succeeds_is_done_once(client, ids, method, path, body):
    """issue 26 §2: the retry of a write that was done gets its answer and writes nothing."""
    url = path.format(**ids.values)
    sent = _filled(body, ids.values)
    first = _send(client, method, url, sent, ids.secret, "done-1")
    events = m.AuditEvent.objects.count()

    again = _send(client, method, url, sent, ids.secret, "done-1")

    assert 200 <= first.status_code < 300, first.content
    assert (again.status_code, again.content) == (first.status_code, first.content)
    assert again.headers["Idempotent-Replayed"] == "true"
    assert m.AuditEvent.objects.count() == events
