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
- *preferences link*: ``/notices/<token>/``, where the token is the league's and the player's
  ids signed with the installation's key (`django.core.signing`), so no token is stored and
  none can be guessed; every notice carries it, and it is the unsubscribe link of that
  league's notices (a subscription is a league's own, `flipwell.league.models.notices`).
- *absence link*: the one-tap link in a reminder with which a player announces their absence
  (R3.1-d). `absence_links` is the single place it comes from.
- *reminder*: queued by ``flipwell work`` (`flipwell.league.notice_worker.queue_due_reminders`)
  ``NOTICE_REMINDER_HOURS`` before each planned meet's scheduled start, not by a service.

- *why line*: a notice is plain text, so it has no fold for the rules its sentences rest on
  (as the pages' "why", templates/public/_why.html): each sentence is written without its
  bracketed rule ids (the ``plain`` filter), and the rules they cite go on one line of their
  own at the end, before the footer: ``Why: rules R7.3-h, R7.3-k.`` No other line of a notice
  names a rule. The services' sentences (a ruling's `details`) keep citing their rules in
  brackets; the templates take them apart.

The notices are rendered when queued (templates ``email/*.txt``), from facts the service has at
hand (the stored groups, the fold it just stored), so the worker needs no fold. Each queue
function costs no query when notices are off, one when nobody chose that kind, and a fixed
number otherwise, whatever the number of players.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from django.conf import settings
from django.core import signing
from django.db import connection
from django.template.loader import render_to_string
from django.urls import reverse

from flipwell.league import models as m
from flipwell.league.adapters.keys import player_key
from flipwell.league.player_link_tokens import token_for
from flipwell.rules import SeasonResult
from flipwell.rules.checks import fmt

TOKEN_SALT = "flipwell.notices.preferences"
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


# --- links -----------------------------------------------------------------------------------


def absence_links(meet: m.Meet) -> dict[int, str]:
    """The one-tap link with which each player announces their absence from `meet` (R3.1-d),
    by player id: their personal link's page at that meet (`flipwell.league.services.
    player_links`), absolute (``settings.SITE_URL`` + path). One query. Only players whose
    official issued them a link have one; the others' reminder asks them to tell the league
    official. The link only opens the page: the tap on "I'll be absent" records the notice, so
    a mail scanner that follows links announces nothing.
    """
    # Imported here: the services import this module to queue their notices.
    from flipwell.league.selectors.player_links import season_links

    return {
        player_id: f"{settings.SITE_URL}{reverse('web:me', args=[token_for(link)])}"
        f"#meet-{meet.number}"
        for player_id, link in season_links(meet.season).items()
    }


def preferences_token(league_id: int, player_id: int) -> str:
    """The signed token of a player's preferences link for the notices of one league (see the
    module docstring)."""
    return signing.dumps([league_id, player_id], salt=TOKEN_SALT)


@dataclass(frozen=True)
class PreferencesLink:
    """Whose notices a preferences token names: a player's, from one league (`league` None: a
    token made before subscriptions belonged to a league, which names every league's)."""

    player: int
    league: int | None


def preferences_for_token(token: str) -> PreferencesLink | None:
    """Whose notices a preferences token was made for, or None for a token that is not one.

    A token of ``[league id, player id]``; an older one signs the player's id alone
    and still works, for the notices of every league (the e-mails already sent carry it)."""
    try:
        value = signing.loads(token, salt=TOKEN_SALT)
    except signing.BadSignature:
        return None
    if isinstance(value, int) and not isinstance(value, bool):
        return PreferencesLink(player=value, league=None)
    if (
        isinstance(value, list)
        and len(value) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        return PreferencesLink(player=value[1], league=value[0])
    return None


def preferences_url(league_id: int, player_id: int) -> str:
    """The absolute address of a player's preferences (and unsubscribe) page for the notices
    of one league."""
    path = reverse("web:notice_preferences", args=[preferences_token(league_id, player_id)])
    return f"{settings.SITE_URL}{path}"


# --- wording ---------------------------------------------------------------------------------


def count_of(number: int | Fraction, word: str, plural: str | None = None) -> str:
    """``1 point``, ``2 points``, ``19.75 points``: the number and its word, plural-correct."""
    return f"{fmt(number)} {word if number == 1 else plural or word + 's'}"


def ordinal(number: int) -> str:
    """1st, 2nd, 3rd, 4th, 11th, 21st."""
    suffix = "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10)
    return f"{number}{suffix or 'th'}"


def names_list(names: Sequence[str]) -> str:
    """``Ann``, ``Ann and Ben``, ``Ann, Ben and Cat``."""
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} and {names[-1]}"


# --- queueing --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Draft:
    """A notice to queue: for whom, its dedupe key, subject and body."""

    player: int
    key: str
    subject: str
    body: str


def subscriptions(kind: str, players: Any, *, league_id: int) -> dict[int, m.NoticeSubscription]:
    """Player id -> subscription, for the players (a query of ids) who chose `kind` now from
    the league with id `league_id` (its own subscriptions: another league's address is never
    used for its notices)."""
    rows = m.NoticeSubscription.objects.filter(
        league_id=league_id, player_id__in=players, unsubscribed_at__isnull=True, **{kind: True}
    ).select_related("player")
    return {row.player_id: row for row in rows}


def render_notice(kind: str, context: dict[str, Any], *, league_id: int, player_id: int) -> str:
    """The body of a notice of `kind` (template ``email/notice_<kind>.txt``), with the link to
    the player's preferences for the league's notices."""
    context = {**context, "preferences_url": preferences_url(league_id, player_id)}
    return render_to_string(f"email/notice_{kind}.txt", context).strip() + "\n"


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
    drafts = []
    for member in members:
        if member.player_id not in wanted:
            continue
        number = member.group.number
        others = [name for name in groups[number] if name != str(member.player)]
        context = {
            "player": member.player,
            "league": season.league,
            "season": season,
            "meet": meet,
            "group": number,
            "position": member.position,
            "players": groups[number],
            "others": names_list(others),
            "machine": machines.get(number, ""),
        }
        drafts.append(
            Draft(
                player=member.player_id,
                key=f"groups:meet:{meet.pk}:player:{member.player_id}",
                subject=f"{season.league}: your group at meet {meet.number}",
                body=render_notice(
                    "groups", context, league_id=season.league_id, player_id=member.player_id
                ),
            )
        )
    return store_notices(league_id=season.league_id, kind="groups", meet=meet, drafts=drafts)


NIGHT_WORDS = {
    "absent_announced": "You were absent (announced), so your group was drawn without you.",
    "absent_unannounced": "You were absent without announcing it: your games were forfeits.",
    "in_progress": "Your night was still in progress when the meet closed.",
}


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
        games = ", ".join(str(p) for p in night.game_points)
        context = {
            "player": subscription.player,
            "league": season.league,
            "season": season,
            "meet": meet,
            "game_points": count_of(sum(night.game_points), "game point"),
            "games": games,
            "match_bonus": count_of(night.match_bonus, "match bonus point"),
            "credit": count_of(night.credit, "point") if night.credit else "",
            "league_points": count_of(night.league_points, "league point"),
            "absent": NIGHT_WORDS.get(night.status, ""),
            "forfeits": count_of(night.forfeits, "forfeit") if night.forfeits else "",
            "place": ordinal(order.index(standing.player) + 1),
            "of": len(order),
            "meets": count_of(meet.number, "meet"),
            "season_points": count_of(standing.league_points, "league point"),
        }
        drafts.append(
            Draft(
                player=player_id,
                key=f"results:meet:{meet.pk}:player:{player_id}",
                subject=f"{season.league}: your night at meet {meet.number}",
                body=render_notice(
                    "results", context, league_id=season.league_id, player_id=player_id
                ),
            )
        )
    return store_notices(league_id=season.league_id, kind="results", meet=meet, drafts=drafts)


def queue_ruling(
    *,
    league: m.League,
    player: m.Player,
    key: str,
    what: str,
    details: Sequence[str],
    reason: str = "",
    meet: m.Meet | None = None,
) -> int:
    """Queue a notice to `player` of an official's ruling that affects them.

    key: names the ruling (``violation:12``), so it is sent once. what: the ruling in a few
    words (the subject). details: its consequences, one sentence each. reason: the official's.
    """
    if not enabled():
        return 0
    wanted = subscriptions("ruling", [player.pk], league_id=league.pk)
    if not wanted:
        return 0
    context = {
        "player": player,
        "league": league,
        "meet": meet,
        "what": what,
        "details": [d for d in details if d],
        "reason": reason,
    }
    draft = Draft(
        player=player.pk,
        key=f"ruling:{key}:player:{player.pk}",
        subject=f"{league}: {what}",
        body=render_notice("ruling", context, league_id=league.pk, player_id=player.pk),
    )
    return store_notices(league_id=league.pk, kind="ruling", meet=meet, drafts=[draft])


def late_join_forfeits_detail(joined_at_meet: int, *, countable: bool, limit: int) -> str:
    """The notice's sentence for an official's designation of a late entrant's forfeits before
    meet `joined_at_meet` (R2.4-g, R2.5-a); `limit` is the season's forfeit limit."""
    return (
        f"Your forfeits before meet {joined_at_meet} "
        + ("count" if countable else "do not count")
        + f" toward the {limit} that forfeit a season (R2.4-g, R2.5-a)."
    )
