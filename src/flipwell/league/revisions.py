"""A league's new revision, announced once the write that gave it commits.

Words:
- *revision*: a number stored on each league, replaced by a new random one whenever something
  its pages show changes (`flipwell.league.models.results`); the write protocol gives it
  (`flipwell.league.services._edge.league_changed`).
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

from django.db import transaction
from django.dispatch import Signal

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
