"""Use cases that create and configure a season.

Words: the *next season from this one* is a new season of the same league with this one's
start time, length and dues (and league night unless another is given), and this one's
players entered again, less those the official leaves out. The league's machines and
officials belong to the league, so the new season has them already; its readings of the rules
are the league's when it is created (`Season.ruleset_overrides`), kept from then on.
*Publishing* a season being prepared shows it to the public before its first meet starts
(`selectors.seasons`). *Refreshing the IFPA ranks* sets each listed player's rank at the start
of the season from a roster CSV (`flipwell.league.players_csv`) until its first meet starts:
week 1 is seeded by them, later weeks by league points (R3.1-b, R4.3-a).
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.utils import timezone

from flipwell.league.adapters.keys import PLAYED
from flipwell.league.models import League, Meet, Player, Season, SeasonCall, SeasonEntry, SignUp
from flipwell.league.players_csv import PlayerRow, parse_players_csv
from flipwell.league.refusals import ConflictError, Refusal
from flipwell.league.selectors.seasons import being_prepared, current_of, seasons_newest_first
from flipwell.league.services._edge import (
    league_changed,
)
from flipwell.league.services._protocol import Write, official_write
from flipwell.league.services.signups.newcomers import enter_newcomers

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def create_season(
    *,
    league: League,
    name: str,
    weekday: int,
    start_time: datetime.time,
    number_of_meets: int,
    dues_cents: int = 0,
    actor: User,
) -> Season:
    """Create a season of `league`: its weekday (Monday = 0), start time, length, dues (R2-a).

    The season takes the league's readings of the rules as they are now (its ruleset
    overrides), and keeps them when the league's change later. Side effects: inserts the
    Season and an audit event ``season.created``. Raises
    PermissionDenied unless `actor` is a league official of `league`, and ValidationError
    (nothing written) for a name already used in the league, a weekday outside 0..6, fewer
    than one meet or negative dues.
    """
    with official_write(league=league, actor=actor, action="create a season") as write:
        league_changed(league)
        # Locked: a reading changed meanwhile (`change_ruleset_setting`) is this season's too.
        readings = League.objects.select_for_update().get(pk=league.pk).ruleset_overrides
        season = Season(
            league=league,
            ruleset_overrides=readings,
            name=name.strip(),
            weekday=weekday,
            start_time=start_time,
            number_of_meets=number_of_meets,
            dues_cents=dues_cents,
        )
        _check_name_free(league, season.name)
        season.full_clean()
        season.save()
        write.event(
            "season.created",
            season,
            {
                "name": season.name,
                "weekday": season.weekday,
                "start_time": season.start_time.isoformat(),
                "number_of_meets": season.number_of_meets,
                "dues_cents": season.dues_cents,
                "ruleset_overrides": season.ruleset_overrides,
            },
        )
    return season


def _check_name_free(league: League, name: str) -> None:
    """Refused when `league` has a season called `name` already."""
    if Season.objects.filter(league=league, name=name).exists():
        raise Refusal(
            {"name": f"{league.name} already has a season called “{name}”: choose another name."},
            code="season_name_taken",
        )


def change_season_schedule(
    *,
    season: Season,
    weekday: int | None = None,
    start_time: datetime.time | None = None,
    number_of_meets: int | None = None,
    actor: User,
) -> Season:
    """Change a season's league night (Monday = 0), start time or number of meets (None:
    unchanged) before its first meet starts (R2-a: the official sets the season up before it
    is played). Meets already scheduled keep their dates.

    Side effects: the Season, an audit event ``season.schedule_changed`` with the old and new
    values, and a new revision of the league (nothing when nothing changes). No refold: the
    fold reads no meet yet (none has started) and none of these values (the number of meets
    is read with the fold, as the season's progress and race are, by every read). Raises
    PermissionDenied unless `actor` is a league official of its league; ConflictError
    ``season_started`` once a meet of it has started; ValidationError (keyed by field, nothing
    written) for a weekday outside 0..6, fewer than one meet, or fewer meets than the last one
    scheduled.
    """
    with official_write(
        league=season.league, actor=actor, action="change a season's schedule"
    ) as write:
        season = Season.objects.select_for_update().select_related("league").get(pk=season.pk)
        _refuse_started(season, doing="its schedule no longer changes")
        fields = ("weekday", "start_time", "number_of_meets")
        before = {name: getattr(season, name) for name in fields}
        wanted = dict(zip(fields, (weekday, start_time, number_of_meets), strict=True))
        for name, value in wanted.items():
            if value is not None:
                setattr(season, name, value)
        after = {name: getattr(season, name) for name in fields}
        if after == before:
            return season
        season.full_clean()
        last = season.meets.order_by("-number").values_list("number", flat=True).first()
        if last is not None and last > season.number_of_meets:
            raise ConflictError(
                {
                    "number_of_meets": f"Meet {last} of {season.name} is scheduled: cancel it "
                    f"before the season has {season.number_of_meets} meets."
                },
                code="meets_scheduled",
            )
        season.save(update_fields=list(fields))
        league_changed(season.league_id)  # its pages show the schedule
        shown = {"before": _schedule_text(before), "after": _schedule_text(after)}
        write.event("season.schedule_changed", season, shown)
    return season


def _schedule_text(schedule: dict[str, object]) -> dict[str, object]:
    """A schedule as the audit log keeps it (the start time as HH:MM:SS)."""
    start = schedule["start_time"]
    shown = start.isoformat() if isinstance(start, datetime.time) else start
    return {**schedule, "start_time": shown}


def _refuse_started(season: Season, *, doing: str) -> None:
    """ConflictError ``season_started`` once a meet of `season` has started (1 query)."""
    started = season.meets.filter(status__in=PLAYED).order_by("number").first()
    if started is not None:
        raise ConflictError(
            f"Meet {started.number} of {season.name} has started: {doing}.",
            code="season_started",
        )


def start_next_season(
    *,
    season: Season,
    name: str,
    weekday: int | None = None,
    leave_out: Iterable[Player] = (),
    newcomers: Iterable[SignUp] = (),
    actor: User,
) -> Season:
    """Create the next season from `season` (see the module's words): named `name`, on
    `weekday` (None: `season`'s), with every player of `season` entered again except those in
    `leave_out`, each with their IFPA rank at the start of `season` until the official
    refreshes it before week 1 (R3.1-b), all joining at meet 1. When the players of `season`
    were asked about it (`ask_next_season`), the new season is the one built from the
    question: its dues are the question's, its sign-ups close, and `newcomers` (accepted
    sign-ups) are entered too, unranked (`enter_newcomers`). Audited ``season.created``
    (`create_season`) and ``season.started_from`` (who was carried, who was left out, the
    question). ValidationError for a name already used, a player left out who is not in
    `season`, or a newcomer not accepted for its question.
    """
    with official_write(league=season.league, actor=actor, action="start the next season") as write:
        entries = list(season.entries.select_related("player").order_by("pk"))
        left_out = {player.pk: player for player in leave_out}
        _check_left_out(season, entries, left_out)
        # The question not built from yet: a second season built from `season` is no answer.
        call = SeasonCall.objects.select_for_update().filter(season=season, built=None).first()
        new = create_season(
            league=season.league,
            name=name,
            weekday=season.weekday if weekday is None else weekday,
            start_time=season.start_time,
            number_of_meets=season.number_of_meets,
            dues_cents=season.dues_cents if call is None else call.dues_cents,
            actor=actor,
        )
        carried = [entry for entry in entries if entry.player_id not in left_out]
        SeasonEntry.objects.bulk_create(
            SeasonEntry(
                season=new,
                player_id=entry.player_id,
                ifpa_rank_at_start=entry.ifpa_rank_at_start,
                joined_at_meet=1,
            )
            for entry in carried
        )
        data = {"from_season": season.pk, "carried": [e.player_id for e in carried]}
        write.event("season.started_from", new, {**data, "left_out": sorted(left_out)})
        _built_from(write, call, new, newcomers)
    return new


def _built_from(
    write: Write, call: SeasonCall | None, new: Season, newcomers: Iterable[SignUp]
) -> None:
    """`new` is the season built from `call` (None: no question was asked): its sign-ups
    close and the accepted `newcomers` are entered."""
    chosen = list(newcomers)
    if call is None:
        if chosen:
            raise Refusal(
                {"newcomers": "No question about the next season is open: nobody signed up."},
                code="signup_not_accepted",
            )
        return
    call.built, call.signups_open = new, False
    call.save(update_fields=["built", "signups_open"])
    write.event("season_call.built", call, {"season": new.pk})
    enter_newcomers(write, call=call, season=new, newcomers=chosen)


def _check_left_out(
    season: Season, entries: list[SeasonEntry], left_out: dict[int, Player]
) -> None:
    """Only the players entered in `season` can be left out of the next one."""
    entered = {entry.player_id for entry in entries}
    strangers = sorted(str(p) for pk, p in left_out.items() if pk not in entered)
    if strangers:
        verb = "is" if len(strangers) == 1 else "are"
        raise Refusal(
            {
                "leave_out": f"{', '.join(strangers)} {verb} not entered in {season.name}: "
                "only its players can be left out."
            },
            code="not_entered",
        )


def publish_season(*, season: Season, actor: User) -> Season:
    """Show `season`, being prepared, to the public before its first meet starts: the public
    pages, the TV and the API's current season become `season`.

    Side effects: the season's ``published_at`` and ``published_by`` (the official's decision:
    when, who), the league's new revision, and an audit event ``season.published`` naming the
    season shown until then. Raises PermissionDenied unless `actor` is a league official of
    the league; ConflictError when `season` is already shown (``season_already_public``) or a
    meet of the season shown is open (``meet_open``: tonight's TV and board would leave it);
    ValidationError for a season older than the one shown.
    """
    with official_write(league=season.league, actor=actor, action="publish a season") as write:
        list(Season.objects.select_for_update().filter(league=season.league).values_list("pk"))
        seasons = list(seasons_newest_first(season.league))
        shown = current_of(seasons)
        if shown is None or season.pk not in being_prepared(seasons):
            raise _not_publishable(season, shown)
        tonight = Meet.objects.filter(season=shown, status=Meet.Status.OPEN).first()
        if tonight is not None:
            raise ConflictError(
                f"Meet {tonight.number} of {shown.name} is open: the public pages and the TV "
                f"show it tonight. Publish {season.name} once it is closed.",
                code="meet_open",
            )
        season.published_at, season.published_by = timezone.now(), actor
        season.save(update_fields=["published_at", "published_by"])
        league_changed(season.league)
        write.event("season.published", season, {"shown_before": shown.pk})
    return season


def _not_publishable(season: Season, shown: Season | None) -> Refusal:
    """Why `season`, not being prepared, cannot be published."""
    if shown is None or shown.pk == season.pk or season.published_at is not None:
        return ConflictError(
            f"{season.name} is already shown to the public.", code="season_already_public"
        )
    if season.meets.filter(status__in=PLAYED).exists():
        return ConflictError(
            f"{season.name} is already shown to the public: its first meet has started.",
            code="season_already_public",
        )
    return Refusal(
        f"{season.name} is older than {shown.name}, the season shown to the public: only a "
        "season newer than it can be published.",
        code="older_season",
    )


@dataclass(frozen=True)
class RankRefresh:
    """What `refresh_ifpa_ranks` changed: each player whose rank changed (old, new), how many
    of the file's players kept theirs, and the season's players the file does not list."""

    changed: list[tuple[Player, int | None, int | None]]
    unchanged: int
    not_in_file: list[Player]


def refresh_ifpa_ranks(*, season: Season, csv_text: str, actor: User) -> RankRefresh:
    """Set the IFPA rank at the start of `season` of every player a roster CSV lists (see
    `flipwell.league.players_csv`; an empty rank: unranked, R4.3-b) before its first meet
    starts: week 1 is seeded by IFPA rank, later weeks by league points (R3.1-b, R4.3-a).

    A line names a player of the season by IFPA number, else by name. All or nothing: a bad
    line raises `PlayersCsvError`; a line naming nobody of the season, or a player named twice,
    a ValidationError listing every such line. Side effects: the entries' ranks, an audit
    event ``season.ifpa_ranks_refreshed`` (each change, old and new), the season's refold.
    Raises PermissionDenied unless `actor` is a league official of the league, and
    ConflictError (``season_started``) once a meet of `season` has started.
    """
    rows = parse_players_csv(csv_text)
    with official_write(
        league=season.league, actor=actor, action="refresh IFPA ranks", season=season
    ) as write:
        Season.objects.select_for_update().get(pk=season.pk)
        _refuse_started(
            season,
            doing="week 1 was seeded by the IFPA ranks the players had then, and later weeks "
            "go by league points (R3.1-b), so the ranks no longer change",
        )
        entries = list(season.entries.select_related("player").order_by("pk"))
        ranks = _ranks_by_entry(season, entries, rows)
        changed = [e for e in entries if e.pk in ranks and ranks[e.pk] != e.ifpa_rank_at_start]
        refresh = RankRefresh(
            changed=[(e.player, e.ifpa_rank_at_start, ranks[e.pk]) for e in changed],
            unchanged=len(ranks) - len(changed),
            not_in_file=[e.player for e in entries if e.pk not in ranks],
        )
        for entry in changed:
            entry.ifpa_rank_at_start = ranks[entry.pk]
        SeasonEntry.objects.bulk_update(changed, ["ifpa_rank_at_start"])
        data = {"changed": {str(p.pk): [old, new] for p, old, new in refresh.changed}}
        write.event("season.ifpa_ranks_refreshed", season, data)
    return refresh


def _ranks_by_entry(
    season: Season, entries: Sequence[SeasonEntry], rows: Sequence[PlayerRow]
) -> dict[int, int | None]:
    """Each listed entry's new rank, by entry id; a ValidationError naming every line that
    names nobody of `season` or a player already listed."""
    by_number = {e.player.ifpa_number: e for e in entries if e.player.ifpa_number is not None}
    by_name: dict[tuple[str, str], list[SeasonEntry]] = {}
    for listed in entries:
        key = (listed.player.first_name.casefold(), listed.player.last_name.casefold())
        by_name.setdefault(key, []).append(listed)
    ranks: dict[int, int | None] = {}
    lines: dict[int, int] = {}
    problems: list[str] = []
    for row in rows:
        named = by_name.get((row.first_name.casefold(), row.last_name.casefold()), [])
        entry = by_number.get(row.ifpa_number) if row.ifpa_number is not None else None
        if entry is None and len(named) == 1 and named[0].player.ifpa_number is None:
            entry = named[0]
        who = f"{row.first_name} {row.last_name}"
        if entry is None:
            problems.append(
                f"Line {row.line}: {who} is not a player of {season.name} (enter them on the "
                "roster first, or take the line out)."
            )
        elif entry.pk in lines:
            problems.append(
                f"Line {row.line}: {entry.player} is already on line {lines[entry.pk]}."
            )
        else:
            ranks[entry.pk], lines[entry.pk] = row.ifpa_rank, row.line
    if problems:
        raise Refusal(problems, code="invalid_ranks")
    return ranks
