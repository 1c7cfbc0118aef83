"""Use cases that create and configure a league: open it, its readings of the rules, the
IFPA figures it uses."""

from __future__ import annotations

from dataclasses import fields
from typing import TYPE_CHECKING, Any

from django.core.exceptions import ValidationError

from flipwell.league.models import League, LeagueOfficial
from flipwell.league.refusals import ConflictError, Refusal
from flipwell.league.selectors.seasons import seasons_newest_first
from flipwell.league.services._edge import (
    league_changed,
    require_reason,
    rules_edge,
)
from flipwell.league.services._protocol import Actor, league_write, official_write
from flipwell.league.validators import clean_lines, clean_slug, validate_ruleset_overrides
from flipwell.rules import (
    FWPL_V1,
    IFPA_DEFAULTS,
    READINGS,
    IfpaParameters,
    RuleError,
    check_ruleset_change,
    ifpa_figure_value,
    ifpa_overrides,
    ifpa_parameters,
    parse_setting,
    ruleset_from_overrides,
    setting_text,
)

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def create_league(
    *,
    name: str,
    slug: str,
    venue: str = "",
    time_zone: str = "UTC",
    ruleset_overrides: dict[str, Any] | None = None,
    created_by: User,
) -> League:
    """Create a league, with its creator as its first league official.

    The name, venue and slug are stored as `flipwell.league.validators` normalises them (a
    slug in lower case). Side effects: inserts the League, a LeagueOfficial (created_by,
    league official) and an audit event ``league.created``. Raises ValidationError (nothing
    written) for a slug taken in any case (``slug_taken``), reserved for a route
    (``slug_reserved``) or malformed, a time zone that is not a canonical one, an unknown
    ruleset setting name or a value the setting does not allow.
    """
    overrides = ruleset_overrides or {}
    try:
        validate_ruleset_overrides(overrides)
    except ValidationError as error:
        raise Refusal({"ruleset_overrides": error.messages}, code="invalid_ruleset") from error
    typed = clean_lines(name=name, venue=venue)
    slug = clean_slug(slug)
    # An account that may open leagues (the caller checks `may_create_league`).
    with league_write(
        league=None, actor=Actor.account(created_by), action="open a league"
    ) as write:
        require_slug_free(slug)
        league = League(
            slug=slug, time_zone=time_zone.strip(), ruleset_overrides=overrides, **typed
        )
        league.full_clean()
        league.save()
        LeagueOfficial.objects.create(
            user=created_by, league=league, role=LeagueOfficial.Role.LEAGUE_OFFICIAL
        )
        write.league = league
        write.event(
            "league.created",
            league,
            {
                "name": league.name,
                "slug": league.slug,
                "venue": league.venue,
                "time_zone": league.time_zone,
                "ruleset_overrides": league.ruleset_overrides,
            },
        )
    return league


def require_slug_free(slug: str) -> None:
    """Refusal ``slug_taken`` on ``slug`` when a league has `slug`, in any case."""
    if League.objects.filter(slug__iexact=slug).exists():
        raise Refusal(
            {"slug": f"The address “{slug}” is taken by another league: pick another."},
            code="slug_taken",
        )


def change_ruleset_setting(
    *, league: League, setting: str, value: str, reason: str, actor: User
) -> League:
    """Change one of the league's readings (a `Ruleset` field) to `value`, as typed or picked:
    the league's (which every season created later takes) and its newest season's, which has
    not begun. Seasons played keep the readings they were played under.

    Refused (nothing written): ConflictError ``season_begun`` (on ``value``) once the league's
    newest season has begun (`check_ruleset_change`); ValidationError for an unknown setting or
    a value it does not allow, and without a reason. Side effects: the league's and the newest
    season's ruleset overrides (a value equal to the rulebook's default is dropped from them),
    a Ruling (who, when, why), an audit event ``league.ruleset_changed`` with the old and new
    values and the season changed, and that season folded again when its reading changed
    (`season_changed`).
    PermissionDenied unless `actor` is a league official of `league`.
    """
    doing = "change the league's readings"
    with official_write(league=league, actor=actor, action=doing) as write:
        if setting not in READINGS:
            raise Refusal({"setting": f"No reading is called {setting!r}."}, code="unknown_setting")
        why = require_reason(reason, field="reason", what="Changing a reading")
        league = League.objects.select_for_update().get(pk=league.pk)
        newest = seasons_newest_first(league).select_for_update(of=("self",)).first()
        _require_not_begun(newest)
        with rules_edge("value", code="invalid_setting_value"):
            old, new, league.ruleset_overrides = _read_as(league.ruleset_overrides, setting, value)
            if newest is not None:
                was, _, newest.ruleset_overrides = _read_as(
                    newest.ruleset_overrides, setting, value
                )
        league.save(update_fields=["ruleset_overrides"])
        change = f"{setting}: {setting_text(old)} -> {setting_text(new)}"
        write.ruling(kind="ruleset_setting", subject=change, reason=why)
        write.record_rulings()  # the event names it
        ruling = write.recorded[-1]
        write.event(
            "league.ruleset_changed",
            league,
            {
                "setting": setting,
                "from": setting_text(old),
                "to": setting_text(new),
                "season": newest.name if newest else None,
                "ruling": ruling.pk,
                "reason": why,
            },
        )
        league_changed(league)
        if newest is not None:
            newest.save(update_fields=["ruleset_overrides"])
            if was != new:
                write.season = newest  # its numbers may change: refolded at the end
    return league


def _require_not_begun(newest: Any) -> None:
    """ConflictError ``season_begun`` (on ``value``, the rules' words) once the league's newest
    season (None: it has none; annotated ``begun``) has begun."""
    try:
        check_ruleset_change(
            season=newest.name if newest else None, begun=bool(getattr(newest, "begun", False))
        )
    except RuleError as error:
        raise ConflictError({"value": str(error)}, code="season_begun") from error


def _read_as(
    overrides: dict[str, Any], setting: str, value: str
) -> tuple[Any, Any, dict[str, Any]]:
    """The value `overrides` read for `setting`, the value `value` reads as, and the overrides
    with it (without it when it is the rulebook's default). RuleError for a value `setting`
    does not allow."""
    old = getattr(ruleset_from_overrides(overrides), setting)
    changed = {**overrides, setting: parse_setting(setting, value)}
    new = getattr(ruleset_from_overrides(changed), setting)
    if new == getattr(FWPL_V1, setting):
        del changed[setting]
    return old, new, changed


def change_ifpa_figure(
    *, league: League, figure: str, value: str, reason: str, actor: User
) -> League:
    """Set one of the IFPA's figures as the league uses it (`IfpaParameters`: its fee in local
    currency, a number the IFPA has changed); an empty `value` returns to the IFPA's own.
    Every IFPA check of the league's seasons reads them from then on; nothing is refolded.

    Refused (nothing written): ValidationError on ``figure`` for an unknown name, on
    ``value`` for a value it does not allow (its bounds), on ``reason`` without one.
    Side effects: the league's ``ifpa_figures`` (a figure equal to the IFPA's is dropped), a
    Ruling (who, when, why), an audit event ``league.ifpa_figure_changed`` with the old and
    new values, the league's new revision. PermissionDenied unless `actor` is a league
    official of `league`.
    """
    with official_write(
        league=league, actor=actor, action="change the league's IFPA figures", field="value"
    ) as write:
        if figure not in {f.name for f in fields(IfpaParameters)}:
            raise Refusal(
                {"figure": f"No IFPA figure is called {figure!r}."}, code="unknown_ifpa_figure"
            )
        why = require_reason(reason, field="reason", what="Changing an IFPA figure")
        league = League.objects.select_for_update().get(pk=league.pk)
        old = getattr(ifpa_parameters(league.ifpa_figures or {}), figure)
        typed = value.strip()
        new = ifpa_figure_value(figure, typed) if typed else getattr(IFPA_DEFAULTS, figure)
        wanted = {**(league.ifpa_figures or {}), figure: new}
        league.ifpa_figures = ifpa_overrides(ifpa_parameters(wanted))
        league.save(update_fields=["ifpa_figures"])
        change = f"IFPA {figure}: {old} -> {new}"
        write.ruling(kind="ifpa_figure", subject=change, reason=why)
        data = {"figure": figure, "from": old, "to": new, "reason": why}
        write.event("league.ifpa_figure_changed", league, data)
        league_changed(league)
    return league
