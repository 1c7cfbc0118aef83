"""Helpers every service shares at its edge: rules errors, roles, locked rows, the fold.

Words: the *edge* is where a service meets the rules library: a `RuleError` there is a user's
mistake and becomes a `Refusal` (keyed by the field it concerns, with the code of the check:
`flipwell.league.refusals`); the *fold* is the season's facts folded by
`flipwell.rules.season.fold_season`, the only source of points, ladders and finishing orders.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Iterator
from contextlib import contextmanager
from enum import Enum
from typing import TYPE_CHECKING

from django.db import connection
from django.db.models import F, Q

from flipwell.league import models as m
from flipwell.league.adapters.keys import player_key
from flipwell.league.derived import results
from flipwell.league.models.results import new_revision
from flipwell.league.refusals import ConflictError, Refusal
from flipwell.league.revisions import (
    STANDINGS_MASK,
    announce,
    announce_many,
    league_revision,
    standings_tag,
)
from flipwell.league.services.permissions import require_role
from flipwell.rules import RuleError, Ruleset, SeasonResult
from flipwell.rules.officials import ruling_warnings

if TYPE_CHECKING:
    from django.contrib.auth.models import User

PlayerRef = m.Player | int
"""A player given to a service: the row or its id."""
OFFICIAL = (m.LeagueOfficial.Role.LEAGUE_OFFICIAL,)
SCOREKEEPING = (m.LeagueOfficial.Role.LEAGUE_OFFICIAL, m.LeagueOfficial.Role.SCOREKEEPER)


def _sentence(text: str) -> str:
    text = text.strip()
    text = text[:1].upper() + text[1:]
    return text if text.endswith(".") else f"{text}."


@contextmanager
def rules_edge(
    field: str | Callable[[str], str] | None = None,
    *,
    code: str,
    conflict: bool = False,
    message: Callable[[str], str] = _sentence,
) -> Iterator[None]:
    """Turn a `RuleError` raised inside the block into a `Refusal` (on `field`), or a
    `ConflictError` when `conflict` (the league's state refuses it: `flipwell.league.refusals`).

    The error's text, with the players it names written by name (a structured RuleError),
    becomes the message through `message` (by default a sentence: capital first letter, final
    stop); `field` may instead be a function choosing the field from the error's text; `code`
    names the check (a code of `flipwell.league.refusals.CODES`). Every call into the rules
    library from a service runs inside this block, so mypy checks its arguments.
    """
    try:
        yield
    except RuleError as error:
        text = message(with_names(error))
        key = field(str(error)) if callable(field) else field
        refusal = ConflictError if conflict else Refusal
        raise refusal({key: text} if key else text, code=code) from error


def with_names(error: RuleError) -> str:
    """The error's message with the players it names by name, not by player key (one query)."""
    ids = [int(key) for key in error.players.values() if key.isdigit()]
    if not ids:
        return str(error)
    rows = m.Player.objects.filter(pk__in=ids).values_list("pk", "first_name", "last_name")
    return error.render({player_key(pk): f"{first} {last}" for pk, first, last in rows})


class MeetHold(Enum):
    """How a write holds the meet it changes, taken before any other row of the meet (so two
    writes never wait for each other in opposite orders). PostgreSQL's row locks: `SCORES`
    conflicts only with `EXCLUSIVE`.

    Writes of a meet's score sheets only need the meet to stay as it is (open, its groups):
    they hold it shared, and take the game's own row. Before this, each locked the meet and
    its season for its whole transaction, so a league night's scores waited for each other
    in a queue (bench_night); now they wait only for the season's new revision and fold
    (`season_changed`), the part that must be one at a time.
    """

    SCORES = "FOR KEY SHARE"
    """Entering or confirming a game's sheet, or choosing a machine: many at once, never while
    the meet changes (a machine choice also takes `hold_machine_choices`)."""
    EXCLUSIVE = "FOR UPDATE"
    """Anything else changing a game or the meet: alone."""


def hold_meet(hold: MeetHold, *, game: int | None = None, group: int | None = None) -> None:
    """Lock the meet of the game or group with id `game` or `group` as `hold` says, until the
    transaction ends (one query; SQLite runs one write at a time anyway, so nothing to lock
    there)."""
    if connection.vendor != "postgresql":
        return
    meets, groups, games = (x._meta.db_table for x in (m.Meet, m.Group, m.Game))
    if group is not None:
        meet_of, of = f"SELECT meet_id FROM {groups} WHERE id = %s", group
    elif game is not None:
        meet_of, of = (
            (
                f"SELECT gr.meet_id FROM {groups} gr JOIN {games} ga ON ga.group_id = gr.id "
                "WHERE ga.id = %s"
            ),
            game,
        )
    else:
        raise TypeError("hold_meet() needs a game or a group id")
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT 1 FROM {meets} WHERE id = ({meet_of}) {hold.value}", [of])


MACHINE_CHOICES = 0x46574D43
"""The first key of every meet's machine-choice lock (PostgreSQL advisory locks are named by
two numbers; the second is the meet's id)."""


def hold_machine_choices(meet_id: int) -> None:
    """Take the meet's turn to choose a machine, until the transaction ends: one group at a
    time reads which machines are free and takes one (R5-d: one machine, one group).

    A choice takes it after holding the meet (`MeetHold.SCORES`) and locking its group, and
    after its own checks (the picker, the previous game confirmed), just before it reads the
    machines: twelve groups check their choices at once and wait for each other only to read
    the machines, insert the game and fold the season. Writes that change the machines
    otherwise (declarations, replacements) hold the meet alone, so never run beside a choice.
    An advisory lock (PostgreSQL; SQLite runs one write at a time): it never conflicts with a
    row lock, so it adds no order to wait in. A meet id past 2**31 shares its lock with a
    smaller one: the two meets' choices then wait for each other, nothing worse."""
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [MACHINE_CHOICES, meet_id % 2**31])


def locked_game(game: m.Game) -> m.Game:
    """`game` re-read and locked for the service's transaction, with its meet and machine
    (the meet first, held alone: `MeetHold.EXCLUSIVE`)."""
    hold_meet(MeetHold.EXCLUSIVE, game=game.pk)
    return (
        m.Game.objects.select_for_update()
        .select_related("group__meet__season__league", "machine")
        .get(pk=game.pk)
    )


def ref_id(player: PlayerRef) -> int:
    """The id of a player given as a row or an id."""
    return player if isinstance(player, int) else player.pk


def game_subject(game: m.Game, player: m.Player) -> str:
    """A ruling's subject for `player` in `game`: who, which meet, group and game."""
    meet = game.group.meet
    return f"{player}, meet {meet.number} group {game.group.number} game {game.number}"[:200]


def require_official(*, actor: User, league: m.League, action: str) -> None:
    """PermissionDenied unless `actor` is a league official (LO) of `league`."""
    require_role(actor=actor, league=league, roles=OFFICIAL, action=action)


def require_scorekeeping(*, actor: User, league: m.League, action: str) -> None:
    """PermissionDenied unless `actor` is a league official or scorekeeper of `league`."""
    require_role(actor=actor, league=league, roles=SCOREKEEPING, action=action)


def require_reason(reason: str | None, *, field: str, what: str) -> str:
    """The stripped reason; an LO decision without one is refused."""
    text = (reason or "").strip()
    if not text:
        raise Refusal(
            {field: f"{what} needs a reason: say why the official decided it."},
            code="reason_required",
        )
    return text


def fold(season: m.Season) -> tuple[SeasonResult, Ruleset]:
    """The season's fold at its current revision, and the league's ruleset.

    A service reads the season with this before writing (the fold every write stored: a
    write's own queries and CPU go to its facts, not to folding the season it just read); after
    writing it calls `season_changed`, which folds the new facts. A stored fact the rules
    cannot fold is refused as a ValidationError.
    """
    with rules_edge(code="season_facts_refused"):
        folded = results.season_fold(season)
    return folded.result, folded.ruleset


def check_facts_fold(season: m.Season) -> None:
    """Fold the season from its stored facts now, not from a stored or remembered fold:
    ValidationError when the rules reject them. A restore checks every season it wrote."""
    _fold_now(season)


def _fold_now(season: m.Season) -> results.SeasonFold:
    with rules_edge(code="season_facts_refused"):
        return results.compute_fold(season)


def season_changed(
    season: m.Season, *, meets: Collection[int] | None = None
) -> tuple[SeasonResult, Ruleset]:
    """Fold the season's facts inside the caller's transaction; the fold is the judge.

    The write protocol (``_protocol``) calls this once per write that can change a number
    (the write names its season), after its last fact: a fact the fold rejects raises
    ValidationError, so the whole write rolls back and no page of the season can fail on it.
    The single place a write tells the season it changed. Returns the fold, for a service
    that reports from it. Outside a transaction it is a programming error and fails loudly.

    meets: the numbers of the only meets whose facts the write changed (`Write.only_meets`):
    their facts are then folded on the stored prefix of the closed meets before them, when
    the season is still as it was when that prefix was stored or carried
    (`results.write_fold`); None: the season is folded whole.
    """
    if not connection.in_atomic_block:
        raise RuntimeError("season_changed() must run inside the service's transaction")
    # The new revision first: its row lock orders concurrent writers to the season, so each
    # one's fold below sees every write committed before it (PostgreSQL's read committed).
    before = _locked_revision(season) if meets else None
    season.revision = new_revision()
    m.Season.objects.filter(pk=season.pk).update(revision=season.revision)
    with rules_edge(code="season_facts_refused"):
        folded, prefix = results.write_fold(season, before=before, meets=meets)
    results.store_fold(season, folded, on=prefix)
    tag = standings_tag(folded.result, number_of_meets=season.number_of_meets)
    league_changed(season.league_id, standings=tag)
    return folded.result, folded.ruleset


def _locked_revision(season: m.Season) -> int:
    """The season's revision before the write gives it a new one, its row locked until the
    transaction ends (the lock the new revision's update takes, taken first)."""
    rows = m.Season.objects.select_for_update().filter(pk=season.pk)
    return rows.values_list("revision", flat=True).get()


def league_changed(league: m.League | int, *, standings: int | None = None) -> None:
    """Give the league a new revision: something its pages show changed (their ETags change).

    Called by `season_changed` with the tag of the standings it folded, and by every service
    that changes what a page of the league shows outside a season's facts (machines,
    officials, playoffs, a new season): such a write changes no number, so the revision keeps
    its standings part (`flipwell.league.revisions`), read back in a second statement.
    """
    league_id = league if isinstance(league, int) else league.pk
    rows = m.League.objects.filter(pk=league_id)
    if standings is None:
        drawn = league_revision(0)
        rows.update(revision=F("revision").bitand(STANDINGS_MASK).bitor(drawn))
        revision = rows.values_list("revision", flat=True).first()
    else:
        revision = league_revision(standings)
        rows.update(revision=revision)
    announce(league_id, revision)  # the live streams, once the write commits


def player_changed(player: m.Player) -> None:
    """New revisions for every season (and its league) `player` is entered in, or a row merged
    into theirs is: their pages show this name, in any league of this installation. Two
    statements."""
    rows = m.Player.objects.filter(Q(pk=player.pk) | Q(merged_into=player)).values("pk")
    m.Season.objects.filter(entries__player__in=rows).update(revision=new_revision())
    m.League.objects.filter(seasons__entries__player__in=rows).update(revision=league_revision())
    announce_many()


def every_league_changed() -> None:
    """New revisions for every league and season: a change all of them may show (a special
    ruling on a machine title, a ruleset, a repair in the admin). Two statements."""
    m.League.objects.update(revision=league_revision())
    m.Season.objects.update(revision=new_revision())
    announce_many()


def open_meet(meet: m.Meet, *, doing: str) -> None:
    """Refuse `doing` unless the meet is being played."""
    if meet.status != m.Meet.Status.OPEN:
        planned = meet.status == m.Meet.Status.PLANNED
        state = "has not started" if planned else "is closed"
        raise ConflictError(
            f"Meet {meet.number} {state}: cannot {doing} now.",
            code="meet_not_started" if planned else "meet_already_closed",
        )


def record_ruling(
    *,
    league: m.League,
    official: User,
    kind: str,
    subject: str,
    reason: str,
    affected: Iterable[int] = (),
    player: m.Player | None = None,
    game: m.Game | None = None,
    meet: m.Meet | None = None,
) -> m.Ruling:
    """Record an LO decision: who, when, why, and whether he was involved (R1.1-a, A55).

    affected: the ids of the players of the group the decision touches. The ruling stands
    either way (A55 "allow and flag"); an official who plays in that group is flagged.
    player, game: the player and the game the ruling is about, when it is about one.
    meet: the meet it is about (by default its game's meet), so the meet's rulings list it.
    """
    officials = dict(
        m.LeagueOfficial.objects.filter(league=league, player__isnull=False).values_list(
            "user_id", "player_id"
        )
    )
    own = officials.get(official.pk)
    involved = own is not None and bool(
        ruling_warnings(
            official=player_key(own),
            affected=[player_key(p) for p in dict.fromkeys(affected)],
            officials_present=[player_key(p) for p in officials.values()],
        )
    )
    return m.Ruling.objects.create(
        league=league,
        official=official,
        kind=kind,
        subject=subject[:200],
        reason=reason,
        official_involved=involved,
        player=player,
        game=game,
        meet_id=meet.pk if meet is not None else _meet_of(game),
    )


def _meet_of(game: m.Game | None) -> int | None:
    if game is None:
        return None
    return m.Group.objects.filter(pk=game.group_id).values_list("meet_id", flat=True).first()


def group_player_ids(group: m.Group) -> list[int]:
    """The group's players in ladder order (position 1 first)."""
    return list(group.members.order_by("position").values_list("player_id", flat=True))


def require_member(player: m.Player, members: list[int], *, field: str, group: m.Group) -> None:
    """Refuse a player who is not in the group."""
    if player.pk not in members:
        raise Refusal(
            {field: f"{player} is not in group {group.number} of meet {group.meet.number}."},
            code="not_in_group",
        )
