"""One contract per use case (issue 22 §4): a write's body passes to its service once, each
field under the service's keyword (`flipwell.api.arguments.resolved`, through
`flipwell.api.writing.write`); the wire keeps its names through aliases. A field and a
keyword that do not match fail here, before any request does."""

from __future__ import annotations

import ast
import inspect
import pkgutil
from dataclasses import dataclass
from importlib import import_module
from types import ModuleType
from typing import Any

import pytest
from pydantic import BaseModel

import flipwell.api.endpoints as endpoints_package
from flipwell.api.arguments import PLAYER, by_player, resolved
from flipwell.api.schemas.incidents import DiscardIn, MalfunctionIn
from flipwell.api.schemas.ledger import LedgerIn
from flipwell.api.schemas.people import MergeIn
from flipwell.api.writing import write
from tests import factories as f
from tests.api.conftest import post, token
from tests.league.league_night import game, start


@dataclass(frozen=True)
class Passing:
    """An endpoint's call that spreads ``resolved(payload, ...)`` into its service."""

    endpoint: str
    schema: type[BaseModel]
    service: Any
    lookups: frozenset[str]
    popped: frozenset[str]
    explicit: frozenset[str]


def _modules() -> list[ModuleType]:
    return [
        import_module(f"{endpoints_package.__name__}.{info.name}")
        for info in pkgutil.iter_modules(endpoints_package.__path__)
    ]


def _value(module: ModuleType, node: ast.expr) -> Any:
    """The object a dotted name of the module's source names (``services.record_forfeit``)."""
    if isinstance(node, ast.Name):
        return getattr(module, node.id)
    assert isinstance(node, ast.Attribute), ast.dump(node)
    return getattr(_value(module, node.value), node.attr)


def _is_resolved(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "resolved"
    )


def _passings(module: ModuleType, function: ast.FunctionDef) -> list[Passing | str]:
    """The endpoint's passing of its body, or what is wrong with it (a sentence)."""
    payload = next((a for a in function.args.args if a.arg == "payload"), None)
    if payload is None:
        return []
    annotation = payload.annotation
    if isinstance(annotation, ast.Subscript):  # Form[PhotoIn]: a body sent as a form
        annotation = annotation.slice
    assert isinstance(annotation, ast.Name)
    schema = getattr(module, annotation.id)
    writing = [node for node in ast.walk(function) if _is_write(node)]
    resolving = [node for node in ast.walk(function) if _is_resolved(node)]
    if len(writing) + len(resolving) != 1:
        count = len(writing) + len(resolving)
        return [f"{function.name} passes its body through write() or resolved() {count} times"]
    if writing:
        return [_written(module, function, schema, writing[0])]
    call = resolving[0]
    assert isinstance(call, ast.Call)
    lookups = frozenset(k.arg for k in call.keywords if k.arg)
    named = {  # `arguments = resolved(payload, ...)`, spread later
        target.id
        for node in ast.walk(function)
        if isinstance(node, ast.Assign) and node.value is call
        for target in node.targets
        if isinstance(target, ast.Name)
    }
    popped = frozenset(
        node.args[0].value
        for node in ast.walk(function)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "pop"
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id in named
        and isinstance(node.args[0], ast.Constant)
    )
    found: list[Passing | str] = []
    for node in ast.walk(function):
        if not isinstance(node, ast.Call):
            continue
        spread = [k.value for k in node.keywords if k.arg is None]
        if any(s is call or (isinstance(s, ast.Name) and s.id in named) for s in spread):
            explicit = frozenset(k.arg for k in node.keywords if k.arg)
            service = _value(module, node.func)
            found.append(Passing(function.name, schema, service, lookups, popped, explicit))
    if len(found) != 1:
        return [f"{function.name} spreads resolved(payload) into {len(found)} calls"]
    return found


WRITE_OPTIONS = frozenset(
    name for name, p in inspect.signature(write).parameters.items() if p.kind is p.KEYWORD_ONLY
)
"""`write`'s own keywords; its others are the service's (targets)."""


def _is_write(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "write"
    )


def _written(
    module: ModuleType, function: ast.FunctionDef, schema: type[BaseModel], call: ast.Call
) -> Passing | str:
    """``write(request, service, payload, lookups={...}, arguments=..., **targets)``: the body
    passes to `service` with the targets and the actor; an ``arguments`` hook pops fields
    and names keywords of its own (its returned dict's keys)."""
    if len(call.args) != 3 or not isinstance(call.args[2], ast.Name):
        return f"{function.name} gives write() no payload"
    options = {k.arg: k.value for k in call.keywords if k.arg in WRITE_OPTIONS}
    lookups = options.get("lookups")
    if lookups is not None and not isinstance(lookups, ast.Dict):
        return f"{function.name} gives write() lookups that are not a dict written out"
    keys = lookups.keys if isinstance(lookups, ast.Dict) else []
    actor_as = options.get("actor_as")
    actor = actor_as.value if isinstance(actor_as, ast.Constant) else "actor"
    explicit = {k.arg for k in call.keywords if k.arg and k.arg not in WRITE_OPTIONS}
    explicit |= {actor} if actor else set()
    popped: set[str] = set()
    hook = options.get("arguments")
    for node in ast.walk(function) if hook is not None else ():
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if node.func.attr == "pop" and isinstance(node.args[0], ast.Constant):
                popped.add(node.args[0].value)
        elif isinstance(node, ast.Return) and isinstance(node.value, ast.Dict):
            explicit |= {k.value for k in node.value.keys if isinstance(k, ast.Constant)}
    service = _value(module, call.args[1])
    service, explicit = _through_wrapper(module, service, explicit)
    return Passing(
        function.name,
        schema,
        service,
        frozenset(k.value for k in keys if isinstance(k, ast.Constant)),
        frozenset(popped),
        frozenset(explicit),
    )


def _through_wrapper(module: ModuleType, service: Any, explicit: set[str]) -> tuple[Any, set[str]]:
    """The service a wrapper of the endpoint's module passes its ``**keywords`` on to, and
    the keywords it gives that service: `service` itself when it is no such wrapper."""
    parameters = inspect.signature(service).parameters.values()
    spread = next((p.name for p in parameters if p.kind is p.VAR_KEYWORD), None)
    if spread is None or service.__module__ != module.__name__:
        return service, explicit
    tree = ast.parse(inspect.getsource(service).lstrip())
    (call,) = (
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and any(k.arg is None and getattr(k.value, "id", "") == spread for k in node.keywords)
    )
    given = {k.arg for k in call.keywords if k.arg}
    return _value(module, call.func), given | (explicit - {p.name for p in parameters})


def _all_passings() -> list[Passing | str]:
    return [
        passing
        for module in _modules()
        for node in ast.walk(ast.parse(inspect.getsource(module)))
        if isinstance(node, ast.FunctionDef)
        for passing in _passings(module, node)
    ]


FOUND = _all_passings()
PASSINGS = [p for p in FOUND if isinstance(p, Passing)]


def test_every_write_with_a_body_passes_it_through_resolved_into_one_call():
    """Every endpoint that takes a body; the count guards the walk itself."""
    assert [p for p in FOUND if isinstance(p, str)] == []
    assert len(PASSINGS) >= 47


@pytest.mark.parametrize("passing", PASSINGS, ids=[p.endpoint for p in PASSINGS])
def test_a_bodys_fields_are_its_services_keywords(passing):
    fields = set(passing.schema.model_fields) - passing.popped
    parameters = inspect.signature(passing.service).parameters
    keywords = {
        name
        for name, p in parameters.items()
        if p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD)
    }
    required = {
        name for name, p in parameters.items() if p.kind is p.KEYWORD_ONLY and p.default is p.empty
    }

    assert passing.lookups <= fields
    assert fields & passing.explicit == set()
    assert fields | passing.explicit <= keywords
    assert required <= fields | passing.explicit


def test_an_alias_keeps_the_wire_name_and_gives_the_services_keyword():
    body = {"kept_player_id": 1, "merged_player_id": 2, "reason": "one person"}

    merge = MergeIn.model_validate(body)

    assert resolved(merge) == {"kept": 1, "merged": 2, "reason": "one person"}
    assert merge.model_dump(by_alias=True) == body
    with pytest.raises(ValueError, match="kept_player_id"):
        MergeIn.model_validate({"kept": 1, "merged": 2, "reason": "one person"})


def test_a_lookup_of_a_field_the_body_has_not_is_a_type_error():
    with pytest.raises(TypeError, match="DiscardIn has no field players"):
        resolved(DiscardIn.model_validate({"players": [1], "reason": "x"}), players=PLAYER)


def test_a_nested_object_without_a_lookup_is_a_type_error():
    body = {
        "player": 1,
        "ball": 1,
        "reason_code": "forced_tilt_stuck_ball",
        "extra_balls": [{"player": 1, "collected": 1}],
    }

    with pytest.raises(TypeError, match=r"MalfunctionIn\.extra_balls needs a lookup"):
        resolved(MalfunctionIn.model_validate(body), player=lambda v, *, field: v)
    passed = resolved(
        MalfunctionIn.model_validate(body),
        player=lambda v, *, field: v,
        extra_balls=by_player("collected"),
    )
    assert passed["extra_balls"] == {1: 1}


def test_a_null_id_stays_null():
    passed = resolved(
        LedgerIn.model_validate({"kind": "dues_paid", "account": "dues", "amount_cents": 1}),
        season=PLAYER,
        player=PLAYER,
    )

    assert (passed["season"], passed["player"]) == (None, None)


@pytest.mark.django_db
def test_an_unknown_id_under_an_alias_is_422_on_the_name_sent(client, night):
    secret = token(night.official)
    meet = start(night)
    played = game(meet, 1, 1)

    merge = post(
        client,
        f"/api/v1/leagues/{night.league.slug}/player-merges",
        {"kept_player_id": night.players[0].pk, "merged_player_id": 10**9, "reason": "x"},
        secret,
    )
    discard = post(
        client,
        f"/api/v1/games/{played.pk}/discarded-scores",
        {"players": [night.players[0].pk, 10**9], "reason": "x"},
        secret,
    )
    ledger = post(
        client,
        f"/api/v1/leagues/{night.league.slug}/ledger",
        {"kind": "dues_paid", "account": "dues", "amount_cents": 1, "season_id": 10**9},
        secret,
    )

    assert (merge.status_code, list(merge.json()["error"]["fields"])) == (
        422,
        ["merged_player_id"],
    )
    assert (discard.status_code, list(discard.json()["error"]["fields"])) == (422, ["players.1"])
    assert (ledger.status_code, list(ledger.json()["error"]["fields"])) == (422, ["season_id"])


@pytest.mark.django_db
def test_another_leagues_machine_is_422_on_its_field(client, night):
    meet = start(night)
    elsewhere = f.MachineFactory()

    response = post(
        client,
        f"/api/v1/meets/{meet.pk}/machine-problems",
        {"machine": elsewhere.pk, "problem": "left flipper weak"},
        token(night.official),
    )

    assert (response.status_code, list(response.json()["error"]["fields"])) == (422, ["machine"])
