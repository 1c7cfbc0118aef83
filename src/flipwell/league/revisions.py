"""A league's new revision, announced once the write that gave it commits.

Words:
- *revision*: a number stored on each league, replaced by a new random one whenever something
  its pages show changes (`flipwell.league.models.results`); the write protocol gives it
  (`flipwell.league.services._edge.league_changed`).
- *standings part*: the revision's low `STANDINGS_BITS` bits: a fingerprint of the standings
  of the season the last fold was of (`standings_tag`: what a standings table shows of each
  player, his latest night, and the ladder). A fold gives the league a new revision with its
  standings' tag (a score entered but not confirmed leaves it as it was); a write that folds
  nothing keeps it (it cannot change a number: the write protocol, step 5); a change of names
  or of the whole installation draws it anew. A live page whose part is the standings asks
  for them only when this part changed (`flipwell.serving.live`, ``static/flipwell/live.js``):
  after most of a night's writes (a sheet entered, a machine chosen) nobody's standings page
  is fetched.
- *announcement*: the `revised` signal, sent with ``league_id`` and ``revision`` after the
  transaction that stored that revision commits (``transaction.on_commit``): a listener never
  hears of a revision a reader cannot see yet, nor of one rolled back (a write that fails, or
  a savepoint rolled back inside it, announces nothing). ``league_id=None`` (and
  ``revision=None``) says that several leagues changed whose ids the write never read (a
  player's name shown in every league they played in, every league at once): a listener
  reads again the revisions it needs.

The league does not know who listens: the live streams' publisher
(`flipwell.serving.live_events`) connects itself in `flipwell.web.apps.WebConfig.ready` and
tells every app server through Redis. With no listener, an announcement costs nothing.
"""

from __future__ import annotations

import hashlib
import secrets
from fractions import Fraction
from typing import TYPE_CHECKING

from django.db import transaction
from django.dispatch import Signal

if TYPE_CHECKING:
    from flipwell.rules import SeasonResult
    from flipwell.rules.season_values import Standing

STANDINGS_BITS = 20
STANDINGS_MASK = (1 << STANDINGS_BITS) - 1
_DRAWN_BITS = 41
"""The random bits above the standings part: a revision stays a positive signed 64-bit."""

revised = Signal()
"""Sent with ``league_id`` and ``revision`` (both None: several leagues) after the commit."""


def announce(league_id: int | None, revision: int | None) -> None:
    """Send `revised` for `league_id` at `revision` once the current transaction commits (at
    once outside a transaction)."""
    if not revised.has_listeners():
        return
    transaction.on_commit(lambda: revised.send(sender=None, league_id=league_id, revision=revision))


def announce_many() -> None:
    """Announce that several leagues changed, whose ids the write did not read."""
    announce(None, None)


def league_revision(standings: int | None = None) -> int:
    """A fresh league revision: random, with the standings part `standings` (a new random one
    when None)."""
    part = secrets.randbits(STANDINGS_BITS) if standings is None else standings & STANDINGS_MASK
    return ((secrets.randbits(_DRAWN_BITS) + 1) << STANDINGS_BITS) | part


def standings_part(revision: int) -> int:
    """The standings part of a league revision."""
    return revision & STANDINGS_MASK


def standings_tag(result: SeasonResult, *, number_of_meets: int) -> int:
    """The fingerprint of a season's standings: the same in every process for the same
    standings, so two app servers folding one night agree. `number_of_meets`: the season's,
    which the playoff race reads (the meets left: clinched, eliminated; a cut changes it).

    It reads what a standings table shows of each player (points, games, forfeits, offenses,
    the §2.4 credit, a season forfeit or a suspension), his latest night (tonight's
    provisional points, its status) and how many nights he has, and the ladder: not every
    earlier night's points, which only a correction to a closed meet changes, and which every
    write would otherwise pay for on a long season. A change there shows with the next one."""
    rows = [
        (key, *_points(s.league_points), s.games_played, s.forfeits, s.countable_forfeits,
         s.offenses, s.credit_used_at, s.season_forfeited_at, s.suspended_at, len(s.nights),
         *_latest(s))
        for key, s in sorted(result.players.items())
    ]  # fmt: skip
    shown = repr((rows, result.ladder, len(result.meets), number_of_meets)).encode()
    return int.from_bytes(hashlib.blake2b(shown, digest_size=8).digest(), "big") & STANDINGS_MASK


def _points(points: Fraction | int) -> tuple[int, int]:
    value = Fraction(points)
    return value.numerator, value.denominator


def _latest(standing: Standing) -> tuple[object, ...]:
    if not standing.nights:
        return ()
    night = standing.nights[-1]
    return (night.meet, night.status, *_points(night.league_points), night.games_played)
