"""The official asks the players of the last season about the next one, and opens or closes
the public sign-up form (see `flipwell.league.models.signups` for the words).

Words: the call is *asked* once per last season and may be *changed* (its name, league night,
first date or dues) until the season is built from it; asked or changed, each player of the
last season who chose the reminders before each meet gets the question by e-mail, with the
link to answer (their personal link), once per version of the question.
"""

from __future__ import annotations

import datetime
import hashlib
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo

from django.utils import timezone

from flipwell.league import models as m
from flipwell.league.notices import (
    NoticeFacts,
    SeasonCallFacts,
    draft,
    enabled,
    store_notices,
    subscriptions,
)
from flipwell.league.player_link_tokens import token_for
from flipwell.league.refusals import ConflictError, Refusal
from flipwell.league.selectors.player_links import season_links
from flipwell.league.services._protocol import Write, official_write

if TYPE_CHECKING:
    from django.contrib.auth.models import User

DETAILS = ("name", "weekday", "starts_on", "dues_cents")
"""What the question says of the next season, which the official may change."""


def ask_next_season(
    *,
    season: m.Season,
    name: str,
    weekday: int,
    starts_on: datetime.date,
    dues_cents: int = 0,
    actor: User,
) -> m.SeasonCall:
    """Ask the players of `season`, the league's newest, whether they play in the next one:
    named `name`, on `weekday` (Monday = 0), from `starts_on` (a date of that weekday, not
    past), for `dues_cents`. Asked again with other details, the question changes (its answers
    are kept); with the same, nothing is written.

    Side effects: the SeasonCall, an audit event ``season_call.asked`` (or
    ``season_call.changed`` with the details before and after), and a notice to each player
    of `season` who chose the reminders and has a personal link. Raises PermissionDenied
    unless `actor` is a league official of the league; ValidationError for an empty name, a
    name a season of the league has, a first date off the league night or past; ConflictError
    when a newer season exists (``newer_season``) or the season is built from the question
    (``season_already_built``).
    """
    wanted = {
        "name": name.strip(),
        "weekday": weekday,
        "starts_on": starts_on,
        "dues_cents": dues_cents,
    }
    with official_write(
        league=season.league, actor=actor, action="ask the players about the next season"
    ) as write:
        locked = m.Season.objects.select_for_update().select_related("league").get(pk=season.pk)
        call = m.SeasonCall.objects.select_for_update().filter(season=locked).first()
        if call is not None and _details(call) == wanted:
            return call
        if call is not None:
            refuse_built(call)
        _refuse_older(locked)
        _check_details(locked.league, name=name.strip(), weekday=weekday, starts_on=starts_on)
        if call is None:
            call = m.SeasonCall(season=locked, asked_by=actor, **wanted)
            call.full_clean()
            call.save()
            write.event("season_call.asked", call, _shown(wanted))
        else:
            before = _details(call)
            for detail, value in wanted.items():
                setattr(call, detail, value)
            call.full_clean()
            call.save(update_fields=list(DETAILS))
            shown = {"before": _shown(before), "after": _shown(wanted)}
            write.event("season_call.changed", call, shown)
        _queue_question(write, call)
    return call


def _check_details(league: m.League, *, name: str, weekday: int, starts_on: datetime.date) -> None:
    """The question's details as the league's roster allows them (see `ask_next_season`)."""
    if not name:
        raise Refusal({"name": "Name the next season."}, code="name_required")
    if m.Season.objects.filter(league=league, name=name).exists():
        raise Refusal(
            {"name": f"{league.name} already has a season called “{name}”: choose another name."},
            code="season_name_taken",
        )
    if weekday not in m.Weekday.values:
        raise Refusal({"weekday": "Choose the league night: a day of the week."}, code="no_weekday")
    if starts_on.weekday() != weekday:
        night = m.Weekday(weekday).label
        raise Refusal(
            {
                "starts_on": f"{starts_on:%a} {starts_on.day} {starts_on:%b %Y} is a "
                f"{starts_on:%A}, not a {night}: the first meet is on the league night."
            },
            code="start_off_league_night",
        )
    if starts_on < timezone.localdate(timezone=ZoneInfo(league.time_zone)):
        raise Refusal(
            {"starts_on": f"{starts_on:%a} {starts_on.day} {starts_on:%b %Y} is past: give "
             "the date of the next season's first meet."},
            code="start_in_the_past",
        )  # fmt: skip


def _refuse_older(season: m.Season) -> None:
    """ConflictError ``newer_season`` when `season` is not the league's newest season."""
    newer = (
        m.Season.objects.filter(league=season.league, created_at__gt=season.created_at)
        .order_by("created_at")
        .first()
    )
    if newer is not None:
        raise ConflictError(
            f"{newer.name} was created after {season.name}: ask its players about the season "
            "after it instead.",
            code="newer_season",
        )


def refuse_built(call: m.SeasonCall) -> None:
    """ConflictError ``season_already_built`` once a season is built from `call`."""
    if call.built_id is not None:
        raise ConflictError(
            f"{call.name} is built from this question already: its roster is set.",
            code="season_already_built",
        )


def _shown(details: dict[str, object]) -> dict[str, object]:
    """The details as the audit log keeps them (the date as YYYY-MM-DD)."""
    starts_on = details["starts_on"]
    shown = starts_on.isoformat() if isinstance(starts_on, datetime.date) else starts_on
    return {**details, "starts_on": shown}


def set_signups_open(*, call: m.SeasonCall, open_now: bool, actor: User) -> m.SeasonCall:
    """Open (`open_now`) or close the league's public sign-up form for `call`'s season.

    Side effects: the call's ``signups_open`` and an audit event ``season_call.signups_opened``
    or ``season_call.signups_closed`` (nothing when it is so already). Raises PermissionDenied
    unless `actor` is a league official of the league; ConflictError
    ``season_already_built`` to open it once the season is built from the call.
    """
    league = m.League.objects.get(seasons=call.season_id)
    with official_write(league=league, actor=actor, action="open or close the sign-ups") as write:
        call = m.SeasonCall.objects.select_for_update().select_related("season").get(pk=call.pk)
        if call.signups_open == open_now:
            return call
        if open_now:
            refuse_built(call)
        call.signups_open = open_now
        call.save(update_fields=["signups_open"])
        opened = "opened" if open_now else "closed"
        write.event(f"season_call.signups_{opened}", call, {"season": call.season_id})
    return call


def _queue_question(write: Write, call: m.SeasonCall) -> int:
    """Queue the question of `call` to each player of its season who chose the reminders
    before each meet (the question is the reminder before the next season's) and has a
    personal link to answer on; once per version of the question (its details). Returns how
    many were queued."""
    if not enabled():
        return 0
    links = season_links(call.season)
    if not links:
        return 0
    season = call.season
    wanted = subscriptions("reminder", list(links), league_id=season.league_id)
    version = hashlib.sha256(repr(_shown(_details(call))).encode()).hexdigest()[:16]
    drafts = [
        draft(
            NoticeFacts(
                kind="reminder",
                player=subscription.player,
                league=write.league,
                season=season,
                meet=None,
                about=SeasonCallFacts(
                    name=call.name,
                    weekday=call.weekday,
                    starts_on=call.starts_on,
                    dues_cents=call.dues_cents,
                    link_token=token_for(links[player_id]),
                ),
            ),
            key=f"season_call:{call.pk}:{version}",
        )
        for player_id, subscription in sorted(wanted.items())
    ]
    return store_notices(league_id=season.league_id, kind="reminder", meet=None, drafts=drafts)


def _details(call: m.SeasonCall) -> dict[str, object]:
    """What the question says of the next season (`DETAILS`)."""
    return {detail: getattr(call, detail) for detail in DETAILS}
