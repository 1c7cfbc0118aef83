"""A write endpoint's steps in one place: check who acts, load what the path names inside the
league, pass the body to the service as its keywords, call it, and answer (201 with
``Location`` for what it made).

Words:
- *acting*: who the request acts for, checked before anything but the path's own row is
  loaded: `official` (a token of the league with a scope, `flipwell.api.auth.acting_official`)
  or `flipwell.api.auth.acting_opener` (an installation token that opens leagues).
- *target*: a keyword the endpoint hands the service beside the body's (the meet, game or
  season the path names). A target found inside the league (a machine, a player of the
  season) is loaded only once the token is checked: `after_check`, so another league's token
  is refused (403) whatever the path names.
- *answer*: what the endpoint renders, the service's result or ``answer`` of it: a 201 whose
  ``Location`` is ``location`` (of the result, when it is a function), or a 200 when there is
  no location (or it gives None: nothing new was made).

The endpoint names its service in its own body, so the refusal codes the OpenAPI document
lists for it (`flipwell.api.refusal_codes`, read from the view's code) are the service's.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.http import HttpRequest
from pydantic import BaseModel

from flipwell.api.arguments import Lookup, resolved
from flipwell.api.auth import acting_official
from flipwell.api.contract import created
from flipwell.league.models import Game, League, Meet
from flipwell.league.services.tokens import Scope

if TYPE_CHECKING:
    from django.contrib.auth.models import User

Acting = Callable[[HttpRequest], "User"]
"""Who the request acts for (PermissionDenied, a 403, when it may not)."""
Fields = dict[str, Any]


def meet_league(meet: Meet) -> League:
    """The league a write about `meet` acts in (its token is checked against it)."""
    return meet.season.league


def game_league(game: Game) -> League:
    """The league a write about `game` acts in."""
    return game.group.meet.season.league


def official(league: League, scope: Scope, *, doing: str | None = None) -> Acting:
    """The official a token of `league` with `scope` acts for (`doing` says, in the 403, what
    the scope is needed for)."""

    def acting(request: HttpRequest) -> User:
        return acting_official(request, league=league, scope=scope, doing=doing)

    return acting


@dataclass(frozen=True)
class AfterCheck:
    """A target loaded once the token is checked: ``find(*args)``."""

    find: Callable[..., Any]
    args: tuple[Any, ...]


def after_check(find: Callable[..., Any], /, *args: Any) -> AfterCheck:
    """The target ``find(*args)``, loaded once the token is checked (its 404 or 422 comes
    after the 403 of a token that may not write here)."""
    return AfterCheck(find, args)


def write(
    request: HttpRequest,
    service: Callable[..., Any],
    payload: BaseModel | None = None,
    /,
    *,
    by: Acting,
    lookups: Mapping[str, Lookup] | None = None,
    arguments: Callable[[Fields], Fields] | None = None,
    actor_as: str | None = "actor",
    answer: Callable[[Any], Any] | None = None,
    location: str | Callable[[Any], str | None] | None = None,
    **targets: Any,
) -> Any:
    """Run one write: check `by`, load the `targets` marked `after_check`, call `service` with
    the body's fields (`resolved` with `lookups`, then `arguments` of them), the targets and
    the actor (as the keyword `actor_as`; None: the service takes none), and answer (see the
    module's words)."""
    actor = by(request)
    keywords = {
        name: target.find(*target.args) if isinstance(target, AfterCheck) else target
        for name, target in targets.items()
    }
    fields = resolved(payload, **(lookups or {})) if payload is not None else {}
    if arguments is not None:
        fields = arguments(fields)
    if actor_as is not None:
        keywords[actor_as] = actor
    result = service(**fields, **keywords)
    body = result if answer is None else answer(result)
    where = location(result) if callable(location) else location
    return body if where is None else created(request, body, where)
