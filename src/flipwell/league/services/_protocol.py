"""The order every official's write follows, written once.

A write by an official is: check the actor -> lock what it changes -> ask the rules (a
`RuleError` becomes a field error) -> create the facts -> record the official's ruling (who,
when, why) -> give the season a new revision and fold it (`season_changed`) -> record the
audit event -> queue the notices. `official_write` runs the first steps and the last ones;
the service between them parses its input, builds the facts (`flipwell.league.adapters`),
asks the rules and persists, telling the `Write` what to record:

    with official_write(league=league, actor=actor, action="record a violation",
                        season=meet.season, field="kind") as write:
        ...  # rules and rows
        write.ruling(kind="violation_not_serious", subject=..., reason=why, affected=[...])
        after = write.refold()  # only when the event or the answer needs the new fold
        write.event("violation.recorded", row, {...})
        write.notice(player=player, meet=meet, key=..., what=..., details=[...], reason=why)

When the block ends without an error, `Write.finish` records the rulings, refolds the season
(unless the service already did), then records the events and queues the notices, all in the
write's transaction: an error anywhere rolls every one of them back.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from django.db import models, transaction

from flipwell.league import models as m
from flipwell.league.audit import record_event
from flipwell.league.notices import queue_ruling
from flipwell.league.services._edge import (
    open_meet,
    record_ruling,
    require_official,
    rules_edge,
    season_changed,
)
from flipwell.rules import SeasonResult

if TYPE_CHECKING:
    from django.contrib.auth.models import User


@dataclass
class _Ruling:
    kind: str
    subject: str
    reason: str
    affected: tuple[int, ...]
    player: m.Player | None
    game: m.Game | None
    meet: m.Meet | None = None


@dataclass
class _Event:
    action: str
    obj: models.Model
    data: dict[str, Any]


@dataclass
class _Notice:
    player: m.Player
    key: str
    what: str
    details: tuple[str, ...]
    reason: str
    meet: m.Meet | None


@dataclass
class Write:
    """One official's write in progress, inside its transaction (`official_write`)."""

    league: m.League
    actor: User
    season: m.Season | None = None
    rulings: list[_Ruling] = field(default_factory=list)
    events: list[_Event] = field(default_factory=list)
    notices: list[_Notice] = field(default_factory=list)
    recorded: list[m.Ruling] = field(default_factory=list)
    """The rulings recorded so far (by `refold`, or at the end), in the order given."""
    _after: SeasonResult | None = None

    def ruling(
        self,
        *,
        kind: str,
        subject: str,
        reason: str,
        affected: Iterable[int] = (),
        player: m.Player | None = None,
        game: m.Game | None = None,
        meet: m.Meet | None = None,
    ) -> None:
        """Record the official's decision (R1.1-a, A55) when the write finishes; `player`,
        `game` and `meet` name whom, which game and which meet it is about, when it is."""
        self.rulings.append(_Ruling(kind, subject, reason, tuple(affected), player, game, meet))

    def event(self, action: str, obj: models.Model, data: dict[str, Any]) -> None:
        """Record an audit event about `obj` when the write finishes."""
        self.events.append(_Event(action, obj, data))

    def notice(
        self,
        *,
        player: m.Player,
        key: str,
        what: str,
        details: Sequence[str],
        reason: str = "",
        meet: m.Meet | None = None,
    ) -> None:
        """Queue a ruling's notice to `player` when the write finishes (`queue_ruling`)."""
        self.notices.append(_Notice(player, key, what, tuple(details), reason, meet))

    def open_meet(self, meet: m.Meet, *, doing: str) -> m.Meet:
        """`meet` locked for this write (its writes wait for each other), refused unless it
        is being played (`open_meet`)."""
        locked = m.Meet.objects.select_for_update().select_related("season__league").get(pk=meet.pk)
        open_meet(locked, doing=doing)
        return locked

    def refold(self) -> SeasonResult:
        """Record the rulings so far (`recorded`) and fold the season's new facts now
        (`season_changed`), for a service whose event or answer reads the new fold or a
        recorded ruling; once per write."""
        if self.season is None:
            raise RuntimeError("refold() needs the write's season")
        if self._after is None:
            self._record_rulings()
            self._after, _ = season_changed(self.season)
        return self._after

    def finish(self) -> None:
        """Rulings, the season's refold, audit events, notices: in that order."""
        self._record_rulings()
        if self.season is not None and self._after is None:
            self.refold()
        for event in self.events:
            record_event(
                action=event.action,
                obj=event.obj,
                league=self.league,
                actor=self.actor,
                data=event.data,
            )
        for notice in self.notices:
            queue_ruling(
                league=self.league,
                player=notice.player,
                key=notice.key,
                what=notice.what,
                details=notice.details,
                reason=notice.reason,
                meet=notice.meet,
            )
        self.events.clear()
        self.notices.clear()

    def _record_rulings(self) -> None:
        for ruling in self.rulings:
            row = record_ruling(
                league=self.league,
                official=self.actor,
                kind=ruling.kind,
                subject=ruling.subject,
                reason=ruling.reason,
                affected=ruling.affected,
                player=ruling.player,
                game=ruling.game,
                meet=ruling.meet,
            )
            self.recorded.append(row)
        self.rulings.clear()


@contextmanager
def official_write(
    *,
    league: m.League,
    actor: User,
    action: str,
    season: m.Season | None = None,
    field: str | None = None,
) -> Iterator[Write]:
    """Run an official's write (see the module): in one transaction, refused unless `actor`
    is an official of `league` ("cannot `action`"); a `RuleError` inside becomes a
    ValidationError on `field`; the season (if any) refolded once at the end."""
    with transaction.atomic():
        require_official(actor=actor, league=league, action=action)
        write = Write(league=league, actor=actor, season=season)
        with rules_edge(field, code="rules_refused"):
            yield write
        write.finish()
