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
from flipwell.league.selectors.meet_board.board import meet_board
from flipwell.league.services.corrections.request import request_correction
from flipwell.league.services.identity import merge_players
from flipwell.league.services.invitations import invite_official
from flipwell.league.services.ledger import record_ledger_entry
from flipwell.league.services.machine_care import report_machine_problem
from flipwell.league.services.player_links import issue_player_link
from flipwell.league.services.violations.penalties import record_violation
from tests import factories as f
from tests.api.conftest import bearer, token
from tests.league.league_night import Night, build_night, free_machine, game, play, start
from tests.shared_rows import own_copy

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


def _kept_headers(response) -> dict[str, str | None]:
    """The headers a replay must give as the first answer gave them."""
    return {h: response.headers.get(h) for h in ("Location", "Vary", "Content-Type")}


def _rows() -> dict[str, int]:
    """How many rows the writes under test may add."""
    return {
        "audit": m.AuditEvent.objects.count(),
        "violations": m.Violation.objects.count(),
        "ledger": m.LedgerEntry.objects.count(),
        "games": m.Game.objects.count(),
        "absences": m.AnnouncedAbsence.objects.count(),
        "keys": m.IdempotencyKey.objects.count(),
    }


# --- the dangerous retries of the issue --------------------------------------------------------


@pytest.fixture
def played(night: Night) -> m.Game:
    """Meet 1 started, group 1's game 1 confirmed (100, 50, 30, 10)."""
    return _play_first_game(night)


def _play_first_game(night: Night) -> m.Game:
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

    statuses = [r.status_code for r in (started, start_again, closed, close_again)]
    assert statuses == [201, 201, 200, 200]
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
    another_key = _send(client, "post", url, None, None, "away-2")
    without_key = _send(client, "post", url, None, None, None)

    assert (first.status_code, again.status_code) == (201, 201)
    assert again.headers["Idempotent-Replayed"] == "true"
    assert another_key.status_code == 409
    assert without_key.status_code == 428  # issue 34 §1: an absence is a fact that counts
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
    """The score sheet's own `idempotency_key` field is still honored without the header, and
    its retry is answered as a header key's is (issue 34 §1)."""
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

    assert (created.status_code, replayed.status_code) == (201, 201)
    assert replayed.headers["Idempotent-Replayed"] == "true"
    assert replayed.content == created.content


# --- every write honors the header -------------------------------------------------------------


@dataclass
class Ids:
    """A value for every path parameter of the API's writes."""

    values: dict[str, object]
    secret: str


@pytest.fixture(scope="module")
def shared_ids(module_rows) -> Ids:
    """A value for every path parameter, their rows built once for the module (tests/conftest.py's
    ``module_rows``): each test's writes are rolled back before the next."""
    night = build_night()
    return _ids(night, _play_first_game(night))


@pytest.fixture
def ids(shared_ids: Ids, db) -> Ids:
    return own_copy(shared_ids)


def _ids(night: Night, played: m.Game) -> Ids:
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
    assert _kept_headers(again) == _kept_headers(first)  # issue 34 §1: Location, Vary too
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


# --- one replay behaviour (issue 34 §1) ---------------------------------------------------------


def test_replay_of_a_created_write_keeps_status_location_vary_and_body(client, night):
    """issue 34 §1: a replay dropped the first answer's Location and Vary."""
    secret = token(night.official, "manage")
    url = f"/api/v1/leagues/{night.league.slug}/ledger"
    body = {"kind": "kitty_in", "account": "kitty", "amount_cents": 500}

    first = _send(client, "post", url, body, secret, "cash-7")
    again = _send(client, "post", url, body, secret, "cash-7")

    assert first.status_code == 201
    assert first.headers["Location"].endswith(f"/api/v1/leagues/{night.league.slug}/treasury")
    assert first.headers["Vary"] == "Authorization"
    assert (again.status_code, _kept_headers(again), again.content) == (
        first.status_code,
        _kept_headers(first),
        first.content,
    )
    assert again.headers["Idempotent-Replayed"] == "true"


def _sheet_of(played: m.Game, key: str) -> dict[str, object]:
    players = [x.player_id for x in played.group.members.order_by("position")]
    return {
        "entered_by": players[0],
        "scores": [{"player": p, "machine_score": 900 - i} for i, p in enumerate(players)],
        "idempotency_key": key,
    }


def test_score_entry_body_key_replays_like_the_header_key(client, night, played):
    """issue 34 §1: the sheet's own retry key answered 200 `replayed: true` without the replay
    header, the header key 201 with it: both now give the first answer again."""
    secret = token(night.official, "scores")
    second = game(played.group.meet, 2, 1)
    url = f"/api/v1/games/{second.pk}/scores"
    body = _sheet_of(second, "sheet-1")

    created = _send(client, "post", url, body, secret, None)
    by_body_key = _send(client, "post", url, body, secret, None)
    by_header_key = _send(client, "post", url, body, secret, "sheet-1")

    assert created.status_code == 201
    assert created.headers["Location"].endswith(f"/api/v1/games/{second.pk}")
    for replay in (by_body_key, by_header_key):
        assert (replay.status_code, _kept_headers(replay), replay.content) == (
            201,
            _kept_headers(created),
            created.content,
        )
        assert replay.headers["Idempotent-Replayed"] == "true"
    assert m.ScoreSubmission.objects.filter(game=second).count() == 1


def test_score_entry_body_key_whose_answer_expired_still_answers_201_replayed(
    client, night, played, settings
):
    """Past the key's lifetime the stored answer is gone; the sheet is found by its key, and
    the answer is the first one's status and Location, marked replayed."""
    settings.IDEMPOTENCY_KEY_HOURS = 24
    secret = token(night.official, "scores")
    second = game(played.group.meet, 2, 1)
    url = f"/api/v1/games/{second.pk}/scores"
    body = _sheet_of(second, "sheet-1")
    created = _send(client, "post", url, body, secret, None)
    m.IdempotencyKey.objects.update(created_at=timezone.now() - datetime.timedelta(hours=25))

    later = _send(client, "post", url, body, secret, None)

    assert (later.status_code, later.headers["Location"]) == (201, created.headers["Location"])
    assert later.headers["Idempotent-Replayed"] == "true"
    assert later.json()["submission"] == created.json()["submission"]
    assert m.ScoreSubmission.objects.filter(game=second).count() == 1


# --- a fact write needs its key (issue 34 §1) ---------------------------------------------------

# Every write that records a fact that counts: without a key, a retry after a lost answer
# would store it again (a second malfunction in a machine's reliability, offense 2).
FACT_WRITES = {
    ("post", "/api/v1/leagues/{slug}/invitations"),
    ("post", "/api/v1/seasons/{season_id}/players/{player_id}/link"),
    ("post", "/api/v1/seasons/{season_id}/playoffs/{division}/{match}/corrections"),
    ("post", "/api/v1/games/{game_id}/forfeits"),
    ("post", "/api/v1/games/{game_id}/late-joins"),
    ("post", "/api/v1/meets/{meet_id}/absences"),
    ("post", "/api/v1/meets/{meet_id}/lateness-notices"),
    ("post", "/api/v1/groups/{group_id}/absence"),
    ("post", "/api/v1/me/{token}/meets/{number}/absence"),
    ("post", "/api/v1/me/{token}/meets/{number}/lateness"),
    ("post", "/api/v1/groups/{group_id}/next-game"),
    ("post", "/api/v1/groups/{group_id}/next-game/by-official"),
    ("post", "/api/v1/games/{game_id}/malfunctions"),
    ("post", "/api/v1/games/{game_id}/compensatory-requests"),
    ("post", "/api/v1/games/{game_id}/compensatory-games"),
    ("post", "/api/v1/games/{game_id}/discarded-scores"),
    ("post", "/api/v1/games/{game_id}/replay-scores"),
    ("post", "/api/v1/meets/{meet_id}/violations"),
    ("post", "/api/v1/games/{game_id}/slow-play-warnings"),
    ("post", "/api/v1/games/{game_id}/distraction-rulings"),
    ("post", "/api/v1/violations/{violation_id}/remedies"),
    ("post", "/api/v1/games/{game_id}/restarts"),
    ("post", "/api/v1/leagues/{slug}/ledger"),
    ("post", "/api/v1/leagues/{slug}/ledger/{entry_id}/reversal"),
    ("post", "/api/v1/games/{game_id}/corrections"),
    ("post", "/api/v1/meets/{meet_id}/machine-problems"),
    ("post", "/api/v1/meets/{meet_id}/machines/{machine_id}/unplayable"),
    ("post", "/api/v1/meets/{meet_id}/machines/{machine_id}/repaired"),
    ("post", "/api/v1/leagues/{slug}/machines/{machine_id}/problem-reports"),
    ("post", "/api/v1/leagues/{slug}/machines/{machine_id}/repairs"),
    ("post", "/api/v1/leagues/{slug}/special-rulings"),
    ("post", "/api/v1/leagues/{slug}/special-rulings/amendments"),
    ("post", "/api/v1/leagues/{slug}/special-rulings/copies"),
    ("post", "/api/v1/games/{game_id}/photos"),
    ("post", "/api/v1/seasons/{season_id}/playoffs/{division}/{match}/games"),
    ("post", "/api/v1/seasons/{season_id}/playoffs/{division}/{match}/tiebreakers"),
    ("post", "/api/v1/seasons/{season_id}/playoffs/{division}/{match}/no-shows"),
    ("post", "/api/v1/seasons/{season_id}/playoffs/{division}/{match}/lateness-notices"),
}
# The writes that create something (201) without needing the key, and why: a second send is
# the same thing, or is refused as what it is.
NATURAL_IDENTITY = {
    ("post", "/api/v1/me/invitations/{invitation_id}/acceptance"): "accepted once (409 after)",
    ("post", "/api/v1/seasons/{season_id}/meets/start"): "a meet starts once (409 after)",
    ("post", "/api/v1/games/{game_id}/non-countable-forfeits"): "a forfeit is designated once",
    ("post", "/api/v1/seasons/{season_id}/player-links"): "issues only to players without one",
    ("post", "/api/v1/seasons/{season_id}/next-season"): "a season is its name",
    ("post", "/api/v1/games/{game_id}/scores"): "its body's idempotency_key is its key",
    ("post", "/api/v1/leagues"): "a league is its slug",
    ("post", "/api/v1/leagues/{slug}/seasons"): "a season is its name",
    ("post", "/api/v1/leagues/{slug}/machines"): "a machine is its title at its location",
    ("post", "/api/v1/leagues/{slug}/machines/{machine_id}/status"): "sets the status",
    ("post", "/api/v1/seasons/{season_id}/meets"): "a meet is its number",
    ("post", "/api/v1/seasons/{season_id}/players"): "a player is entered once",
    ("post", "/api/v1/seasons/{season_id}/players/import"): "a roster's players, once",
    ("post", "/api/v1/leagues/{slug}/player-merges"): "two rows are merged once",
}


def _documented_key(operation: dict) -> dict:
    return next(p for p in operation["parameters"] if p["name"] == "Idempotency-Key")


def test_the_fact_writes_require_the_key_in_the_schema_with_their_428():
    paths = api.get_openapi_schema()["paths"]

    required = {
        (method, path)
        for method, path in _write_operations()
        if _documented_key(paths[path][method])["required"]
    }

    assert required == FACT_WRITES
    assert [
        f"{method} {path}"
        for method, path in FACT_WRITES
        if 428 not in paths[path][method]["responses"]
    ] == []


def test_every_write_that_creates_something_decided_whether_it_needs_the_key():
    """A new endpoint that answers 201 must be a fact write (`@key_required`) or say here why
    a second send of it is the same thing."""
    paths = api.get_openapi_schema()["paths"]

    creating = {
        (method, path)
        for method, path in _write_operations()
        if 201 in paths[path][method]["responses"]
    }

    assert creating - FACT_WRITES - set(NATURAL_IDENTITY) == set()


@pytest.mark.parametrize(("method", "path"), sorted(FACT_WRITES))
def test_every_fact_write_without_a_key_is_428_and_stores_nothing(client, ids, method, path):
    url = path.format(**ids.values)
    rows = _rows()

    response = _send(client, method, url, {}, ids.secret, None)

    error = response.json()["error"]
    assert response.status_code == 428
    assert (error["code"], error["fields"]) == ("idempotency_key_required", {})
    assert "Idempotency-Key header" in error["message"]
    assert _rows() == rows


# (method, URL template, body): fact writes that succeed on `ids`.
FACTS = [
    (
        "post",
        "/api/v1/meets/{meet_id}/violations",
        {"player": "{player_id}", "kind": "opponents_ball", "game": "{game_id}",
         "reason": "Seen by the LO"},
    ),
    (
        "post",
        "/api/v1/games/{other_game_id}/malfunctions",
        {"player": "{group_player}", "ball": 1, "reason_code": "forced_tilt_stuck_ball"},
    ),
    ("post", "/api/v1/leagues/{slug}/ledger", {"kind": "kitty_in", "account": "kitty",
                                               "amount_cents": 500}),
    *[w for w in DONE_ONCE if w[1] in {
        "/api/v1/games/{other_game_id}/forfeits",
        "/api/v1/meets/{meet_id}/lateness-notices",
        "/api/v1/games/{other_game_id}/slow-play-warnings",
        "/api/v1/meets/{meet_id}/machine-problems",
        "/api/v1/leagues/{slug}/special-rulings",
        "/api/v1/leagues/{slug}/ledger/{entry_id}/reversal",
    }],
]  # fmt: skip


@pytest.mark.parametrize(("method", "path", "body"), FACTS, ids=[w[1] for w in FACTS])
def test_a_fact_write_without_a_key_is_refused_and_with_one_is_stored_once(
    client, ids, method, path, body
):
    """issue 34 §1: sent again without a key, a malfunction counted twice in the machine's
    reliability and a violation became offense 2."""
    url = path.format(**ids.values)
    sent = _filled(body, ids.values)
    before = _rows()

    refused = _send(client, method, url, sent, ids.secret, None)
    unchanged = _rows()
    first = _send(client, method, url, sent, ids.secret, "fact-1")
    stored = _rows()
    again = _send(client, method, url, sent, ids.secret, "fact-1")

    assert (refused.status_code, unchanged) == (428, before)
    assert first.status_code == 201, first.content
    assert stored["audit"] > before["audit"]
    assert (again.status_code, again.content) == (first.status_code, first.content)
    assert _rows() == stored
