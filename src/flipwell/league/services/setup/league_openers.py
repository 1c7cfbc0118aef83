"""Who may open a league, and opening one (a fresh installation's first official included).

Words:
- *league opener*: an account that may open a new league: staff, a superuser or a holder of
  `OPEN_LEAGUE_PERMISSION` (Django's own permission on the League model); anybody signed in
  while no league exists yet (the first user of a fresh install sets his league up).
- *opening* a league creates it (`flipwell.league.services.leagues.create_league`) with its
  opener as its league official (LO).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import PermissionDenied, ValidationError

from flipwell.league import models as m
from flipwell.league.refusals import Refusal
from flipwell.league.selectors.setup import may_create_league, open_league_permission
from flipwell.league.services._protocol import Actor, league_write
from flipwell.league.services.leagues import create_league, require_slug_free
from flipwell.league.validators import clean_lines, clean_slug

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def create_league_opener(*, username: str, password: str) -> User:
    """Create an account that may open leagues (a fresh installation's first official).

    Side effects, in one transaction: a User with `password` and `OPEN_LEAGUE_PERMISSION`,
    an audit event ``official.created``. Raises ValidationError (keyed by field, nothing
    written) for a blank, malformed or taken username, or a password Django's password
    validators refuse (their messages say why).
    """
    user_model = get_user_model()
    name = username.strip()
    user = user_model(username=name)
    try:
        user.full_clean(exclude=["password"])
    except ValidationError as error:
        raise Refusal(
            {"username": error.message_dict.get("username", [])}, code="invalid_username"
        ) from error
    try:
        validate_password(password, user)
    except ValidationError as error:
        raise Refusal({"password": error.messages}, code="invalid_password") from error
    with league_write(
        league=None, actor=Actor.installation(), action="create a league opener"
    ) as write:
        if user_model._default_manager.filter(username=name).exists():
            raise Refusal(
                {"username": f"An account named “{name}” already exists."}, code="username_taken"
            )
        user.set_password(password)
        user.save()
        user.user_permissions.add(open_league_permission())
        write.event("official.created", user, {"username": name, "may_open_leagues": True})
    return user


def open_league(
    *, name: str, slug: str, venue: str = "", time_zone: str = "UTC", actor: User
) -> m.League:
    """Create a league through `create_league`, its creator becoming its league official.

    Side effects: those of `create_league`. Raises PermissionDenied unless `may_create_league`
    allows `actor`; ValidationError (keyed by field, nothing written) for a blank name, a taken
    or malformed slug or an unknown time zone.
    """
    with league_write(league=None, actor=Actor.account(actor), action="open a league"):
        if not may_create_league(actor):
            raise PermissionDenied(
                "Only a staff member may open a new league: ask your flipwell administrator."
            )
        if not clean_lines(name=name)["name"]:
            raise Refusal({"name": "Name the league."}, code="name_required")
        require_slug_free(clean_slug(slug))
        return create_league(
            name=name, slug=slug, venue=venue, time_zone=time_zone, created_by=actor
        )
