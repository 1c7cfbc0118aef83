"""Notices by e-mail: what a service queues when something a player chose to hear of happens.

Words (see also `flipwell.league.models.notices`):
- *queue*: a service calls one ``queue_*`` function inside its own ``transaction.atomic``, so
  a write that rolls back queues nothing; the rows are sent by ``flipwell work``
  (`flipwell.league.notice_worker`) once committed. Nothing here talks to a mail server.
- *enabled*: the installation sends e-mail (``NOTICES_EMAIL``, on by default when
  ``EMAIL_HOST`` is set) and knows the address its links start with (``FLIPWELL_SITE_URL``:
  a link guessed from the host name would miss the port, ``http://127.0.0.1/``). Off, nothing
  is queued at all: no notice waits for a server that was never configured, and turning it on
  later does not send old news. ``flipwell serve`` and ``flipwell work`` say at start-up
  when the address lacks (`missing_site_address`).
- *preferences link* (`flipwell.league.notice_links`): ``/notices/<token>/``, where the
  token is the league's and the player's ids signed with the installation's key
  (`django.core.signing`), so no token is stored and none can be guessed; every notice
  carries it, and it is the unsubscribe link of that league's notices (a subscription is a
  league's own, `flipwell.league.models.notices`).
- *absence link*: the one-tap link in a reminder with which a player announces their absence
  (R3.1-d): their personal link's page at that meet. `notice_links.absence_tokens` says
  whose it is; the web layer makes the address.
- *reminder*: queued by ``flipwell work`` (`flipwell.league.notice_worker.queue_due_reminders`)
  ``NOTICE_REMINDER_HOURS`` before each planned meet's scheduled start, not by a service.
- *facts* of a notice (`NoticeFacts`): what it tells one player, as plain data (numbers, names,
  a date; a ruling's kind and numbers, `RulingAbout`): no word of the e-mail is chosen here.
- *writer*: what turns facts into an e-mail (subject, body, addresses): the web layer's
  (`flipwell.web.emails`), which its app registers at start-up (`register_writer`), so this
  layer neither reverses a URL nor renders a template (STYLE.md §17) and imports nothing of
  the web.

A notice is written when queued, from facts the service has at hand (the stored groups, the
fold it just stored), so the worker needs no fold; the row keeps its subject and body. Each
queue function costs no query when notices are off, one when nobody chose that kind, and a
fixed number otherwise, whatever the number of players.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from django.conf import settings
from django.db import connection

from flipwell.league import models as m
from flipwell.league.adapters.keys import player_key
from flipwell.rules import Night, SeasonResult

KINDS: tuple[str, ...] = tuple(m.NoticeKind.values)


def enabled() -> bool:
    """Whether this installation sends notices: ``NOTICES_EMAIL`` and a site address to link
    to (``FLIPWELL_SITE_URL``)."""
    return bool(settings.NOTICES_EMAIL and settings.SITE_URL)


def missing_site_address() -> str:
    """What lacks without a site address (``FLIPWELL_SITE_URL``), for ``flipwell serve`` and
    ``flipwell work`` to say at start-up; "" when it is set. Every link in an e-mail starts
    with it, never with the ``Host`` a request named (a forged one would land in the e-mail),
    so without it no notice is queued and the forgot-password page sends no link."""
    if settings.SITE_URL:
        return ""
    notices = "no notice is queued (NOTICES_EMAIL is on) and " if settings.NOTICES_EMAIL else ""
    return (
        "FLIPWELL_SITE_URL is not set: e-mails have no address to link to, so "
        f"{notices}the forgot-password page sends no link. Set it to the address players and "
        "officials open, e.g. https://league.example.org or http://192.168.1.20:8000 "
        "(make run sets it)."
    )


# --- facts and their writer --------------------------------------------------------------------


@dataclass(frozen=True)
class GroupFacts:
    """A ``groups`` notice: the player's group at a meet just started (§4, R5-a)."""

    group: int
    position: int
    players: tuple[str, ...]
    """The group's players by name, in play order."""
    machine: str
    """The group's first machine ("" when none is chosen yet)."""


@dataclass(frozen=True)
class NightFacts:
    """A ``results`` notice: the player's night at a meet just closed, from the fold (§3.3,
    §2.4)."""

    night: Night
    place: int
    """The player's place in the standings after the meet (1 is first)."""
    of: int
    """How many players the standings hold."""
    season_points: Fraction
    """The player's league points in the season so far."""


@dataclass(frozen=True)
class ReminderFacts:
    """A ``reminder`` notice: a planned meet starts soon (R2-a, R3.1-d)."""

    start: datetime.datetime
    """The meet's scheduled start, in the league's time zone."""
    absence_token: str | None
    """The token of the player's personal link (`absence_tokens`), None without one."""


@dataclass(frozen=True)
class PenaltyFacts:
    """A ``ruling`` notice to a violator of the violation recorded and its §8.5 penalty: the
    violation's kind (a `Violation.Kind` value), the meet's and the group's numbers, the
    offense it counts as (None: not serious), the penalty's effect (a
    `flipwell.rules.violation_penalties.PenaltyDecision` effect) and the game it forfeits
    (None: the rules leave it open)."""

    kind: str
    meet: int
    group: int
    offense: int | None
    effect: str
    game: int | None
    reason: str


@dataclass(frozen=True)
class RestartFacts:
    """A ``ruling`` notice to the player responsible for a game voided and restarted for a
    wrong game count (R8.6-c): the game's place, the games started on the machine for the
    players present, and the player's charge in cents (0: none, R8.6-d)."""

    meet: int
    group: int
    game: int
    games_started: int
    players: int
    charge_cents: int
    reason: str


@dataclass(frozen=True)
class TurnRulingFacts:
    """A ``ruling`` notice of a ruling about the player's turn (`flipwell.league.turn_rulings`):
    its kind (a key of `KINDS` there) and the game's place: meet, group and game numbers and
    the machine's title."""

    kind: str
    meet: int
    group: int
    game: int
    machine: str
    reason: str


@dataclass(frozen=True)
class MalfunctionFacts:
    """A ``ruling`` notice of the reporting player's malfunction (§7.3): its kind and reason
    (`Malfunction.Kind`, `Malfunction.ReasonCode` values), the ball, the game's place, the rule
    it was ruled under, and whether the player may now ask for a compensatory game."""

    kind: str
    reason_code: str
    ball: int
    meet: int
    group: int
    game: int
    rule: str
    entitled: bool
    reason: str


@dataclass(frozen=True)
class GameEndedFacts:
    """A ``ruling`` notice to another player owed a compensatory game by a game-ending event
    (R7.3-h): the event's reason (a `Malfunction.ReasonCode` value), the game's place, and
    what they are owed (`flipwell.league.services.malfunctions.game_ending.Owed`)."""

    reason_code: str
    meet: int
    group: int
    game: int
    majors: tuple[int, ...]
    catastrophic: tuple[int, ...]
    balls: int
    slammer: bool
    reason: str


@dataclass(frozen=True)
class LateJoinFacts:
    """A ``ruling`` notice of the official's designation of a late entrant's forfeits before
    the meet they joined at (R2.4-g, R2.5-a); `limit` is the season's forfeit limit."""

    season: str
    joined_at_meet: int
    countable: bool
    limit: int
    reason: str


@dataclass(frozen=True)
class SeasonCallFacts:
    """A ``reminder`` notice before a new season: the official asks the players of the last
    one whether they play in the next (`flipwell.league.models.signups`): its name, league
    night (Monday = 0), first date and dues, and the token of the player's personal link of
    the last season, where they answer."""

    name: str
    weekday: int
    starts_on: datetime.date
    dues_cents: int
    link_token: str


RulingAbout = (
    TurnRulingFacts
    | MalfunctionFacts
    | GameEndedFacts
    | LateJoinFacts
    | PenaltyFacts
    | RestartFacts
)
"""The facts of a ``ruling`` notice, one kind of them per kind of ruling that has its own."""


@dataclass(frozen=True)
class NoticeFacts:
    """What one notice tells one player, as facts; the writer puts them in words."""

    kind: str
    """A `NoticeKind` value."""
    player: m.Player
    league: m.League
    season: m.Season | None
    meet: m.Meet | None
    about: GroupFacts | NightFacts | ReminderFacts | SeasonCallFacts | RulingAbout


@dataclass(frozen=True)
class Written:
    """A notice in words: its e-mail's subject and body."""

    subject: str
    body: str


@dataclass(frozen=True)
class NoticeWriter:
    """What turns notices into e-mails, given by the web layer (see the module docstring).

    write: a notice's subject and body, its body ending with the link to the player's
    preferences. preferences_url: the absolute address of a player's preferences (and
    unsubscribe) page for the notices of one league, by league id and player id (the worker
    names it in each e-mail's ``List-Unsubscribe``)."""

    write: Callable[[NoticeFacts], Written]
    preferences_url: Callable[[int, int], str]


_writers: list[NoticeWriter] = []


def register_writer(writer: NoticeWriter) -> None:
    """Make `writer` the one that writes every notice from now on (the web app's
    ``ready``)."""
    _writers[:] = [writer]


def writer() -> NoticeWriter:
    """The registered writer; without one (the web app is not installed), a loud error."""
    if not _writers:
        raise RuntimeError(
            "No notice writer is registered: the web app (flipwell.web, in INSTALLED_APPS) "
            "registers it when Django starts."
        )
    return _writers[0]


# --- queueing --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Draft:
    """A notice to queue: for whom, its dedupe key, subject and body."""

    player: int
    key: str
    subject: str
    body: str


def draft(facts: NoticeFacts, *, key: str) -> Draft:
    """The notice `facts` tell, written by the registered writer, with its dedupe key
    (``<kind>:<what it is about>``, ``:player:<id>`` added)."""
    written = writer().write(facts)
    return Draft(
        player=facts.player.pk,
        key=f"{key}:player:{facts.player.pk}",
        subject=written.subject,
        body=written.body,
    )


def subscriptions(kind: str, players: Any, *, league_id: int) -> dict[int, m.NoticeSubscription]:
    """Player id -> subscription, for the players (a query of ids) who chose `kind` now from
    the league with id `league_id` (its own subscriptions: another league's address is never
    used for its notices)."""
    rows = m.NoticeSubscription.objects.filter(
        league_id=league_id, player_id__in=players, unsubscribed_at__isnull=True, **{kind: True}
    ).select_related("player")
    return {row.player_id: row for row in rows}


def store_notices(
    *, league_id: int, kind: str, meet: m.Meet | None, drafts: Iterable[Draft]
) -> int:
    """Insert the drafts not queued before (two statements: a count, then one insert that
    ignores a dedupe key queued already); returns how many were new."""
    if not connection.in_atomic_block:
        raise RuntimeError("notices are queued inside the service's transaction")
    rows = [
        m.Notice(
            league_id=league_id,
            player_id=d.player,
            meet=meet,
            kind=kind,
            dedupe_key=d.key[:120],
            subject=d.subject[:200],
            body=d.body,
        )
        for d in drafts
    ]
    if not rows:
        return 0
    keys = [row.dedupe_key for row in rows]
    before = m.Notice.objects.filter(dedupe_key__in=keys).count()
    m.Notice.objects.bulk_create(rows, ignore_conflicts=True)
    return len(rows) - before


def queue_meet_started(meet: m.Meet) -> int:
    """Queue each subscribed player's group at `meet`, just started (§4, R5-a): their group's
    number, its players in play order and its first machine. Returns how many were queued."""
    if not enabled():
        return 0
    members_of_meet = m.GroupMember.objects.filter(group__meet=meet).values("player_id")
    season = meet.season
    wanted = subscriptions("groups", members_of_meet, league_id=season.league_id)
    if not wanted:
        return 0
    members = list(
        m.GroupMember.objects.filter(group__meet=meet)
        .select_related("player", "group")
        .order_by("group__number", "position")
    )
    machines = dict(
        m.Game.objects.filter(group__meet=meet, number=1).values_list(
            "group__number", "machine__title"
        )
    )
    groups: dict[int, list[str]] = {}
    for member in members:
        groups.setdefault(member.group.number, []).append(str(member.player))
    drafts = [
        draft(
            NoticeFacts(
                kind="groups",
                player=member.player,
                league=season.league,
                season=season,
                meet=meet,
                about=GroupFacts(
                    group=member.group.number,
                    position=member.position,
                    players=tuple(groups[member.group.number]),
                    machine=machines.get(member.group.number, ""),
                ),
            ),
            key=f"groups:meet:{meet.pk}",
        )
        for member in members
        if member.player_id in wanted
    ]
    return store_notices(league_id=season.league_id, kind="groups", meet=meet, drafts=drafts)


def queue_meet_closed(meet: m.Meet, result: SeasonResult) -> int:
    """Queue each subscribed player's night at `meet`, just closed, from the season's fold
    (§3.3, §2.4): their game points, match bonus, league points and place in the standings.
    Players who had not joined the season yet, or had left it, get none."""
    if not enabled():
        return 0
    season = meet.season
    entered = m.SeasonEntry.objects.filter(season=season).values("player_id")
    wanted = subscriptions("results", entered, league_id=season.league_id)
    if not wanted:
        return 0
    order = [s.player for s in result.standings()]
    drafts = []
    for player_id, subscription in wanted.items():
        standing = result.players.get(player_key(player_id))
        night = (
            next((n for n in standing.nights if n.meet == meet.number), None) if standing else None
        )
        if standing is None or night is None or night.status in ("not_joined", "out_of_league"):
            continue
        about = NightFacts(
            night=night,
            place=order.index(standing.player) + 1,
            of=len(order),
            season_points=standing.league_points,
        )
        facts = NoticeFacts(
            kind="results",
            player=subscription.player,
            league=season.league,
            season=season,
            meet=meet,
            about=about,
        )
        drafts.append(draft(facts, key=f"results:meet:{meet.pk}"))
    return store_notices(league_id=season.league_id, kind="results", meet=meet, drafts=drafts)


def queue_ruling(
    *,
    league: m.League,
    player: m.Player,
    key: str,
    about: RulingAbout,
    meet: m.Meet | None = None,
) -> int:
    """Queue a notice to `player` of an official's ruling that affects them.

    key: names the ruling (``violation:12``), so it is sent once. about: its facts, with the
    official's reason.
    """
    if not enabled():
        return 0
    wanted = subscriptions("ruling", [player.pk], league_id=league.pk)
    if not wanted:
        return 0
    facts = NoticeFacts(
        kind="ruling", player=player, league=league, season=None, meet=meet, about=about
    )
    drafts = [draft(facts, key=f"ruling:{key}")]
    return store_notices(league_id=league.pk, kind="ruling", meet=meet, drafts=drafts)
