"""Refusals a program can tell apart (issue 34 §1): every service refusal has a stable code
from `flipwell.league.refusals.CODES`, 409 when the league's state forbids it now and 422 when
the request itself is wrong; the OpenAPI document lists, per operation and status, every
code the operation can answer; a sheet's line is named ``scores.N.player``; the messages
about the request as a whole are under ``request``."""

from __future__ import annotations

import ast
import datetime
import functools
import inspect
import re
from pathlib import Path

import pytest

from flipwell.api.api import api
from flipwell.api.errors import WHOLE_REQUEST
from flipwell.api.refusal_codes import API_CODES, REFUSING, TRANSPORT, WRITE_CODES, literal_codes
from flipwell.league import models as m
from flipwell.league import services
from flipwell.league.refusals import CODES
from flipwell.league.selectors.meet_board.board import meet_board
from flipwell.league.services.malfunctions.compensatory import request_compensatory_game
from flipwell.league.services.malfunctions.report import report_malfunction
from tests.api.conftest import post
from tests.league.league_night import game, play, start

SERVICES = Path(services.__file__).parent
SOURCE = SERVICES.parents[1]  # src/flipwell
REGISTRY = "src/flipwell/league/refusals.py"


def _calls(path: Path) -> list[tuple[ast.Call, str]]:
    """Every call in the module at `path`, with the function it is in."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for function in ast.walk(tree):
        if isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
            found += [(c, function.name) for c in ast.walk(function) if isinstance(c, ast.Call)]
    return found


def _name(call: ast.Call) -> str | None:
    func = call.func
    return func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)


@functools.cache
def _refusals() -> list[tuple[str, int, str, list[str] | None, int]]:
    """(module, line, function, codes or None, status) of every refusal the league app and
    the API make (module: its path under src/flipwell)."""
    found = []
    paths = [*sorted((SOURCE / "league").rglob("*.py")), *sorted((SOURCE / "api").rglob("*.py"))]
    for path in (p for p in paths if "migrations" not in p.parts):
        for call, function in _calls(path):
            name = _name(call)
            if name not in REFUSING or (path.name == "_edge.py" and function == "rules_edge"):
                continue
            conflict = any(k.arg == "conflict" for k in call.keywords)
            status = 409 if conflict else REFUSING[name]
            module = path.relative_to(SOURCE).as_posix()
            found.append((module, call.lineno, function, literal_codes(call), status))
    return found


def test_every_service_refusal_is_a_refusal_with_a_code():
    """A plain ValidationError loses its code (Django drops a dict's): a service refuses with
    `Refusal` or `ConflictError`, giving the check's code as a literal."""
    plain = [
        f'{path.name}:{call.lineno} ({function}): raise Refusal(..., code="<the_check>") '
        '(422, the request is wrong) or ConflictError(..., code="<the_check>") (409, the '
        "league's state forbids it now) instead of ValidationError"
        for path in sorted(SERVICES.rglob("*.py"))
        for call, function in _calls(path)
        if _name(call) == "ValidationError"
    ]
    unnamed = [
        f'{module}:{line} ({function}): give it code="<the_check>" (a literal snake_case name)'
        for module, line, function, codes, _status in _refusals()
        if codes is None and module != "api/refusal_codes.py"
    ]

    assert plain + unnamed == []


def test_every_code_is_in_the_registry_with_its_status():
    missing = [
        f'{module}:{line}: add "{code}": "<what it means, one line>" to '
        f"{'CONFLICTS' if status == 409 else 'REFUSALS'} in {REGISTRY}"
        for module, line, _function, codes, status in _refusals()
        for code in codes or ()
        if code not in CODES
    ]
    wrong = [
        f"{module}:{line}: {code} is a {CODES[code].status} in {REGISTRY} but raised as a "
        f"{status}: one code, one status (rename one of them)"
        for module, line, _function, codes, status in _refusals()
        for code in codes or ()
        if code in CODES and CODES[code].status != status
    ]

    assert missing + wrong == []
    assert all(re.fullmatch(r"[a-z][a-z0-9_]*", code) for code in CODES)


def _schema_codes() -> dict[tuple[str, str], dict[int, set[str]]]:
    """(path, method) -> status -> the codes the OpenAPI document lists."""
    schema = api.get_openapi_schema()
    listed: dict[tuple[str, str], dict[int, set[str]]] = {}
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            VIEWS[(path, method)] = api.views()[operation["operationId"]]
            statuses = listed.setdefault((path, method), {})
            for status, response in operation["responses"].items():
                content = response.get("content", {}).get("application/json", {})
                parts = content.get("schema", {}).get("allOf")
                if int(status) < 400 or not parts:
                    continue  # not an error with listed codes (a 304, a 429 ...)
                code = parts[1]["properties"]["error"]["properties"]["code"]
                statuses[int(status)] = set(code["enum"])
    return listed


@pytest.fixture(scope="module")
def schema_codes():
    return _schema_codes()


def _service_codes(name: str) -> dict[int, set[str]]:
    """The codes service function `name` refuses with in its own body (by status)."""
    function = getattr(services, name)
    path = Path(inspect.getsourcefile(function) or "")
    codes: dict[int, set[str]] = {}
    for module, _line, where, found, status in _refusals():
        if module == path.relative_to(SOURCE).as_posix() and where == function.__name__:
            codes.setdefault(status, set()).update(found or ())
    return codes


def test_every_service_code_is_listed_for_the_operations_that_call_it(schema_codes):
    """The walk: each operation's view names services (``services.start_meet``); every code
    those services refuse with is in the operation's OpenAPI answers, under its status."""
    missing = []
    for (path, method), statuses in schema_codes.items():
        view = _view(path, method)
        for name in sorted(set(re.findall(r"services\.(\w+)\(", inspect.getsource(view)))):
            for status, codes in _service_codes(name).items():
                for code in sorted(codes - statuses.get(status, set())):
                    missing.append(f"{method.upper()} {path}: {status} {code} (from {name})")

    assert missing == []


VIEWS: dict[tuple[str, str], object] = {}
"""(path, method) -> the operation's view (filled by `_schema_codes`)."""


def _view(path: str, method: str):
    return VIEWS[(path, method)]


def test_every_listed_code_is_known_and_conflict_is_gone(schema_codes):
    """issue 34 §1: 409 codes such as meet_already_closed and stale_version were missing from
    the document, and the listed `conflict` never occurs."""
    known = set(CODES) | set(API_CODES)
    for codes in (*TRANSPORT.values(), *WRITE_CODES.values()):
        known |= set(codes)
    listed = {code for statuses in schema_codes.values() for c in statuses.values() for code in c}
    start_meet = schema_codes[("/api/v1/seasons/{season_id}/meets/start", "post")]
    confirm = schema_codes[("/api/v1/submissions/{submission_id}/confirm", "post")]

    assert listed - known == set()
    assert "conflict" not in listed
    assert {"meet_already_closed", "meet_not_today", "another_meet_open"} <= start_meet[409]
    assert {"stale_version", "game_already_confirmed"} <= confirm[409]
    assert {"not_the_picker", "machine_not_allowed"} <= _next_game(schema_codes)[422]


def _next_game(schema_codes):
    return schema_codes[("/api/v1/groups/{group_id}/next-game", "post")]


# --- over HTTP -------------------------------------------------------------------------------


def _error(response):
    body = response.json()["error"]
    return response.status_code, body["code"], sorted(body["fields"])


@pytest.mark.django_db
def test_starting_a_meet_before_its_day_is_409_about_the_request(client, night, night_secret):
    """issue 34 §1: it was a 422 `invalid` on a `date` field the request never sent."""
    ahead = datetime.date.today() + datetime.timedelta(days=14)
    m.Meet.objects.create(season=night.season, number=1, date=ahead)

    response = post(
        client, f"/api/v1/seasons/{night.season.pk}/meets/start", {"number": 1}, night_secret
    )

    assert _error(response) == (409, "meet_not_today", [WHOLE_REQUEST])
    assert "it can start on that day, not before" in response.json()["error"]["message"]


@pytest.mark.django_db
def test_closing_an_unfinished_meet_is_409_meet_unfinished(client, night, night_secret):
    meet = start(night)

    response = post(client, f"/api/v1/meets/{meet.pk}/close", {}, night_secret)

    assert _error(response)[:2] == (409, "meet_unfinished")
    assert m.Meet.objects.get(pk=meet.pk).status == m.Meet.Status.OPEN


def _catastrophic(night, first):
    report_malfunction(
        game=first,
        player=night.players[3],
        ball=1,
        reason_code="power_loss",
        ball_in_play=False,
        actor=night.user,
    )


@pytest.mark.django_db
def test_a_repeated_compensatory_game_is_409_like_a_repeated_forfeit(client, night, night_secret):
    """issue 34 §1: a repeated forfeit was a 409, a repeated compensatory game a 422."""
    first = game(start(night), 1, 1)
    _catastrophic(night, first)
    request_compensatory_game(game=first, player=night.players[3], actor=night.user)
    url = f"/api/v1/games/{first.pk}"
    body = {"player": night.players[3].pk, "new_score": 90}

    again = post(
        client, f"{url}/compensatory-requests", {"player": night.players[3].pk}, night_secret
    )
    recorded = post(client, f"{url}/compensatory-games", body, night_secret)
    twice = post(client, f"{url}/compensatory-games", body, night_secret)
    post(client, f"{url}/forfeits", {"player": night.players[2].pk}, night_secret)
    forfeit = post(client, f"{url}/forfeits", {"player": night.players[2].pk}, night_secret)

    assert _error(again) == (409, "compensatory_already_granted", ["player"])
    assert recorded.status_code == 201
    assert _error(twice) == (409, "compensatory_game_already_recorded", ["player"])
    assert _error(forfeit) == (409, "forfeit_already_recorded", ["player"])


@pytest.mark.django_db
def test_a_machine_the_rules_forbid_is_422_machine_not_allowed(client, night, night_secret):
    """R5-d: a group does not play a machine twice in a match."""
    meet = start(night)
    a = night.players
    play(game(meet, 1, 1), {a[0]: 900, a[1]: 50, a[2]: 30, a[3]: 10})
    played = game(meet, 1, 1)
    picker = next(g for g in meet_board(meet).groups if g.number == 1).next_picker

    response = post(
        client,
        f"/api/v1/groups/{played.group_id}/next-game",
        {"machine": played.machine_id, "chosen_by": picker},
        night_secret,
    )

    assert _error(response) == (422, "machine_not_allowed", ["machine"])


@pytest.mark.django_db
def test_a_player_not_in_the_group_is_named_on_scores_n_player(client, night, night_secret):
    """issue 34 §1: an unknown or non-member player inside scores[] was reported on
    `scores`, not on `scores.N.player` as the README says."""
    first = game(start(night), 1, 1)
    members = list(first.group.members.order_by("position").values_list("player_id", flat=True))
    stranger = next(p for p in night.players if p.pk not in members)
    lines = [{"player": p, "machine_score": 100} for p in members[:3]]
    sheet = {"entered_by": members[0], "idempotency_key": "k"}

    strange = post(
        client,
        f"/api/v1/games/{first.pk}/scores",
        {**sheet, "scores": [*lines, {"player": stranger.pk, "machine_score": 1}]},
        night_secret,
    )
    unknown = post(
        client,
        f"/api/v1/games/{first.pk}/scores",
        {**sheet, "scores": [*lines, {"player": 10**9, "machine_score": 1}]},
        night_secret,
    )

    assert _error(strange) == (422, "not_in_group", ["scores.3.player"])
    assert _error(unknown) == (422, "not_in_group", ["scores.3.player"])


@pytest.mark.django_db
def test_a_body_level_schema_error_is_under_request(client, night, night_secret):
    """issue 34 §1: body-level errors were keyed `__all__`, a name no document gave."""
    first = game(start(night), 1, 1)
    member = first.group.members.order_by("position").first().player_id

    response = post(
        client,
        f"/api/v1/games/{first.pk}/scores",
        {
            "entered_by": member,
            "idempotency_key": "k",
            "scores": [{"player": member, "machine_score": 1}] * 2,
        },
        night_secret,
    )

    assert response.status_code == 422
    assert "__all__" not in response.json()["error"]["fields"]
