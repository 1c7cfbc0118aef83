"""The one order every write follows, whoever acts, written once.

Words:
- *actor*: who writes and how the protocol checks them (`Actor`, one of `ActorKind`):

  ===============  ===============================================================
  ``official``     a league official (LO) of the league: checked here (`require_official`)
  ``scorekeeper``  an LO or a scorekeeper of the league: checked here
                   (`require_scorekeeping`)
  ``player``       a player through a group's score sheet, a playoff sheet or a personal
                   link; the service checks the sheet's group or the link after its locks
  ``account``      a signed-in account acting for itself (accepting an invitation, opening
                   a league, issuing a token, merging players across leagues); the service
                   checks what the account may do (a ``_require_...`` helper)
  ``token``        an API token (a league's or the installation's): its scopes are checked
                   by the API before the service; the token's account is the audit's actor
  ``installation`` the installation's own command line (``flipwell createofficial``), run by
                   whoever runs the server: nothing to check, no actor in the audit
  ===============  ===============================================================

- *write*: one use case's change of the league's facts, in one transaction (`league_write`,
  `official_write` for an official's).

A write is, in this order:

1. **lock**: the transaction opens (an official's or a scorekeeper's role is checked as it
   opens, before any row is locked: a refused actor waits for nobody); the service then locks
   the rows it changes, the meet first (`MeetHold`), so concurrent writes wait for each other
   in one order;
2. **check**: under its locks, the service checks what the actor's kind leaves to it (the
   sheet's group, the link, the invitation's account) and asks the rules: a `RuleError`
   inside the write becomes a `Refusal` on the write's field;
3. **facts**: the service stores its facts (the body of the ``with`` block);
4. **rulings**: an official's decisions (who, when, why: R1.1-a, A55), `Write.ruling`;
5. **refold**: only a write that can change a number names its season; it gets a new
   revision and is folded once (`season_changed`): at the end, or earlier when the service
   reads the new fold (`Write.refold`). A write that cannot change a number (a turn ruling, a
   photo, a problem report, a notice preference, an invitation, a planned meet scheduled,
   moved or cancelled, an absence or lateness announced or withdrawn, a season's schedule
   before it starts, a score sheet entered and not yet confirmed, the next machine chosen:
   neither is a fact of the fold until a sheet is confirmed, R3-a) names no season and
   never folds (a ruling its event names is recorded
   by `Write.record_rulings`, not `refold`); it calls `league_changed` when a page shows
   what it changed. A write nested in another of the same season leaves its final refold to
   the outer one: the season folds once;
6. **audit**: the events (`Write.event`);
7. **notices**: the notices to players (`Write.notice_of`), as facts the web words
   (`flipwell.league.notices.RulingAbout`): the league writes no sentence of them.

An error anywhere rolls every part back. The service between the check and the end parses its
input, builds the facts (`flipwell.league.adapters`), asks the rules and persists:

    with league_write(league=league, actor=Actor.official(user), action="record a violation",
                      season=meet.season, field="kind") as write:
        ...  # locks, rules and rows
        write.ruling(kind="violation_not_serious", subject=..., reason=why, affected=[...])
        after = write.refold()  # only when the event or the answer needs the new fold
        write.event("violation.recorded", row, {...})
        write.notice_of(player=player, meet=meet, key=..., about=PenaltyFacts(...))

`savepoint` is the only other transaction a service opens: a part of a write that may hit a
database constraint (a concurrent duplicate) and is retried or explained inside the write.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from django.db import models, transaction

from flipwell.league import models as m
from flipwell.league.audit import record_event
from flipwell.league.derived import results
from flipwell.league.notices import RulingAbout, queue_ruling
from flipwell.league.services._edge import (
    open_meet,
    record_ruling,
    require_official,
    require_scorekeeping,
    rules_edge,
    season_changed,
)
from flipwell.rules import SeasonResult

if TYPE_CHECKING:
    from django.contrib.auth.models import User


class ActorKind(StrEnum):
    """Who acts, which says how the write checks them (the module's table)."""

    OFFICIAL = "official"
    SCOREKEEPER = "scorekeeper"
    PLAYER = "player"
    ACCOUNT = "account"
    TOKEN = "token"
    INSTALLATION = "installation"


@dataclass(frozen=True)
class Actor:
    """Who writes: the kind (how they are checked) and the account the audit names (None: a
    player through a sheet or a link, without an account)."""

    kind: ActorKind
    user: User | None = None

    @classmethod
    def official(cls, user: User) -> Actor:
        """A league official of the write's league."""
        return cls(ActorKind.OFFICIAL, user)

    @classmethod
    def scorekeeper(cls, user: User) -> Actor:
        """A league official or a scorekeeper of the write's league."""
        return cls(ActorKind.SCOREKEEPER, user)

    @classmethod
    def player(cls, user: User | None = None) -> Actor:
        """A player through a sheet or a personal link (or whoever records for them: `user`)."""
        return cls(ActorKind.PLAYER, user)

    @classmethod
    def account(cls, user: User) -> Actor:
        """A signed-in account acting for itself; the service checks what it may do."""
        return cls(ActorKind.ACCOUNT, user)

    @classmethod
    def token(cls, user: User | None) -> Actor:
        """An API token, its scopes checked by the API; `user`: the token's account."""
        return cls(ActorKind.TOKEN, user)

    @classmethod
    def installation(cls) -> Actor:
        """The installation's own command line: whoever runs the server."""
        return cls(ActorKind.INSTALLATION)


def check_actor(actor: Actor, *, league: m.League | None, action: str) -> None:
    """PermissionDenied unless `actor` may `action` in `league` by its kind: an official or a
    scorekeeper is checked here; the other kinds by the service (the module's table)."""
    if actor.kind not in (ActorKind.OFFICIAL, ActorKind.SCOREKEEPER):
        return
    if league is None or actor.user is None:
        raise RuntimeError(f"an {actor.kind} write needs its league and account ({action})")
    if actor.kind is ActorKind.OFFICIAL:
        require_official(actor=actor.user, league=league, action=action)
    else:
        require_scorekeeping(actor=actor.user, league=league, action=action)


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
    league: m.League | None


@dataclass
class _Notice:
    player: m.Player
    key: str
    about: RulingAbout
    meet: m.Meet | None


_WRITING: ContextVar[Write | None] = ContextVar("flipwell_write", default=None)
"""The write in progress in this thread, so a write nested in it joins its refold."""


class Write:
    """One write in progress, inside its transaction (`league_write`).

    league: the league written (set by the service when it learns it after its locks, as a
    new league's write does); season: the season whose numbers the write may change (None:
    none, so nothing is refolded), settable until the write ends; who: the actor (an
    official, by default, with the account `actor`); outer: the write this one runs inside.
    """

    def __init__(
        self,
        *,
        league: m.League | None,
        actor: User | None = None,
        season: m.Season | None = None,
        who: Actor | None = None,
        outer: Write | None = None,
    ) -> None:
        self._league = league
        self.who = who if who is not None else Actor(ActorKind.OFFICIAL, actor)
        self.season = season
        self.outer = outer
        self.rulings: list[_Ruling] = []
        self.events: list[_Event] = []
        self.notices: list[_Notice] = []
        self.recorded: list[m.Ruling] = []
        """The rulings recorded so far (by `refold`, `record_rulings`, or at the end)."""
        self._meets: set[int] = set()
        self._only = False  # said by `only_meets`
        self._whole = False  # a write nested in this one changed any fact
        self._after: SeasonResult | None = None

    @property
    def league(self) -> m.League:
        """The league written: known before the write, or set by the service once it has
        locked its rows (a write of no league yet, as opening one, has none until then)."""
        if self._league is None:
            raise RuntimeError(f"this {self.who.kind} write has no league yet")
        return self._league

    @league.setter
    def league(self, league: m.League) -> None:
        self._league = league

    @property
    def actor(self) -> User:
        """The acting account: an official's or a scorekeeper's write always has one."""
        if self.who.user is None:
            raise RuntimeError(f"a {self.who.kind} write without an account has no official")
        return self.who.user

    @property
    def user(self) -> User | None:
        """The account the audit events name (None: a player without one)."""
        return self.who.user

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

    def event(
        self, action: str, obj: models.Model, data: dict[str, Any], *, league: Any = ...
    ) -> None:
        """Record an audit event about `obj` when the write finishes (in the write's league,
        unless `league` names another one or None)."""
        self.events.append(_Event(action, obj, data, self._league if league is ... else league))

    def notice_of(
        self, *, player: m.Player, key: str, about: RulingAbout, meet: m.Meet | None = None
    ) -> None:
        """Queue a ruling's notice to `player` when the write finishes, as facts (`about`)
        that the web puts in words (`flipwell.league.notices.RulingAbout`)."""
        self.notices.append(_Notice(player, key, about, meet))

    def open_meet(self, meet: m.Meet, *, doing: str) -> m.Meet:
        """`meet` locked for this write (its writes wait for each other), refused unless it
        is being played (`open_meet`)."""
        locked = m.Meet.objects.select_for_update().select_related("season__league").get(pk=meet.pk)
        open_meet(locked, doing=doing)
        return locked

    def only_meets(self, *meets: m.Meet) -> None:
        """Say the write changes the facts of `meets` and of no other meet, nor the season's
        own (its entrants, their joinings, its readings): its refold then folds them on the
        stored fold of the closed meets before them (`season_changed`), not the whole
        season. A write that does not say so is folded whole. The write's season, unless it
        named one, becomes theirs (a write of a meet's facts changes its season's numbers)."""
        self._meets.update(meet.number for meet in meets)
        self._only = True
        if self.season is None and meets:
            self.season = meets[0].season

    @property
    def meets(self) -> set[int] | None:
        """The numbers of the only meets whose facts the write (and every write nested in it)
        changes, as said by `only_meets`; None: any fact of the season."""
        return set(self._meets) if self._only and not self._whole else None

    def refold(self) -> SeasonResult:
        """Record the rulings so far (`recorded`) and fold the season's new facts now
        (`season_changed`), for a service whose event or answer reads the new fold or a
        recorded ruling; once per write."""
        if self.season is None:
            raise RuntimeError("refold() needs the write's season: this write changes no number")
        if self._after is None:
            self.record_rulings()
            self._after, _ = season_changed(self.season, meets=self.meets)
        return self._after

    def finish(self) -> None:
        """Rulings, the season's refold, audit events, notices: in that order."""
        self.record_rulings()
        outer = self._left_to_outer()
        if outer is not None:  # its refold folds this write's facts too
            inner = self.meets
            outer._whole = outer._whole or inner is None
            outer._meets.update(inner or ())
        elif self.season is not None and self._after is None:
            self.refold()
        for event in self.events:
            record_event(
                action=event.action,
                obj=event.obj,
                league=event.league,
                actor=self.user,
                data=event.data,
            )
        for notice in self.notices:
            queue_ruling(
                league=self.league,
                player=notice.player,
                key=notice.key,
                about=notice.about,
                meet=notice.meet,
            )
        self.events.clear()
        self.notices.clear()

    def _left_to_outer(self) -> Write | None:
        """The write this one runs inside that will fold the same season after it (it has not
        folded yet), if any: then this write's facts fold there, once (with its meets)."""
        outer = self.outer
        while outer is not None and self.season is not None:
            if outer.season is not None and outer.season.pk == self.season.pk:
                return outer if outer._after is None else None
            outer = outer.outer
        return None

    def record_rulings(self) -> None:
        """Record the rulings given so far now (`recorded`), for a service whose event or
        notice names one; nothing is folded."""
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
def league_write(
    *,
    league: m.League | None,
    actor: Actor,
    action: str,
    season: m.Season | None = None,
    field: str | None = None,
) -> Iterator[Write]:
    """Run a write (see the module) in one transaction: `actor` checked by its kind ("cannot
    `action`"); a `RuleError` inside becomes a ValidationError on `field`; `season` (None: the
    write changes no number) refolded once at the end; then the audit events and notices."""
    with transaction.atomic(), results.within_write():
        check_actor(actor, league=league, action=action)
        outer = _WRITING.get()
        write = Write(league=league, who=actor, season=season, outer=outer)
        token = _WRITING.set(write)
        try:
            with rules_edge(field, code="rules_refused"):
                yield write
            write.finish()
        finally:
            _WRITING.reset(token)


@contextmanager
def official_write(
    *,
    league: m.League,
    actor: User,
    action: str,
    season: m.Season | None = None,
    field: str | None = None,
) -> Iterator[Write]:
    """An official's write (`league_write` with `Actor.official`): refused unless `actor` is
    an official of `league`."""
    with league_write(
        league=league, actor=Actor.official(actor), action=action, season=season, field=field
    ) as write:
        yield write


@contextmanager
def savepoint() -> Iterator[None]:
    """A part of a write that may fail on a database constraint (an IntegrityError, a
    concurrent duplicate): rolled back alone, so the write can explain or replay it."""
    with transaction.atomic():
        yield
