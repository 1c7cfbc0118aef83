"""issue 34 §3: every stored fact belongs to one league, so one league's write cannot change
what another shows. A model whose rows reach no league through required relations (a league
foreign key, or one to a row that has one) is shared by every league of the installation; the
few that are shared on purpose are named here with why. Special rulings were shared by
accident until league migration 0031."""

from __future__ import annotations

from django.apps import apps
from django.db import models

from flipwell.league import models as m

SHARED_ON_PURPOSE = {
    "league.Player": "a person plays in several leagues (each league's rows are its entries)",
    "league.PlayerMerge": "merges two players, who belong to no one league",
    "league.AuditEvent": "its league is optional: an event that concerns no one league has none",
    "league.ApiToken": "its league is optional: an installation token has none",
    "league.IdempotencyKey": "a stored answer keyed by its sender's token, not a fact",
    "league.DerivedResult": "a cache keyed by its scope (a season's id), not a fact",
}


def _reaches_a_league(model: type[models.Model], seen: frozenset[type[models.Model]]) -> bool:
    if model is m.League:
        return True
    return any(
        _reaches_a_league(field.related_model, seen | {model})
        for field in model._meta.concrete_fields
        if field.is_relation
        and (field.many_to_one or field.one_to_one)
        and not field.null
        and field.related_model not in seen | {model}
    )


def test_every_model_belongs_to_a_league_or_is_named_shared():
    shared = {
        model._meta.label
        for model in apps.get_app_config("league").get_models()
        if not _reaches_a_league(model, frozenset())
    }

    assert shared == set(SHARED_ON_PURPOSE)
