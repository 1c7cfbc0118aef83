"""Forfeits and late arrivals (§2.3, §2.4, §2.5): a player's forfeit of a game, a late player
joining a game in progress or forfeiting it, and the LO's designation of whether a late entrant's
forfeits count toward forfeiting the season.

Every forfeit counts toward the §2.5 season forfeit unless a league official designates it not
(R2.4-g, R2.4-h); the season fold reads these facts, so no points are stored here.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from flipwell.league import models as m
from flipwell.league.adapters.game_facts import forfeited_in
from flipwell.league.adapters.rulesets import season_ruleset
from flipwell.league.notices import LateJoinFacts
from flipwell.league.refusals import ConflictError, Refusal
from flipwell.league.services._edge import (
    game_subject,
    group_player_ids,
    locked_game,
    open_meet,
    require_member,
    require_official,
    require_reason,
    rules_edge,
)
from flipwell.league.services._protocol import Actor, Write, league_write, official_write
from flipwell.league.services._season_forfeit import refuse_if_season_forfeited
from flipwell.rules import Ruleset
from flipwell.rules.attendance import JoinDecision, join_game_in_progress
from flipwell.rules.forfeits import check_late_join_designation, check_recorded_forfeit_reason

if TYPE_CHECKING:
    from django.contrib.auth.models import User


# --- Forfeits and late joins (§2.3, §2.4) ----------------------------------------------------


def record_forfeit(
    *,
    game: m.Game,
    player: m.Player,
    countable: bool = True,
    reason: str = m.Forfeit.Reason.ABSENT,
    note: str = "",
    actor: User,
) -> m.Forfeit:
    """Record that `player` forfeits `game` (R2.4-a): 0 points, the others re-scored (R2.4-c).

    Every forfeit is countable toward the §2.5 season forfeit (R2.4-h) unless a league
    official designates it not (R2.4-g): `countable=False` needs an LO and a `note` saying why,
    and is recorded as a Ruling. His score on the game's sheet must then be empty.

    Side effects: a Forfeit, a Ruling for a non-countable designation, an audit event
    ``forfeit.recorded``. Raises PermissionDenied unless `actor` is a league official or
    scorekeeper (an LO for non-countable); ValidationError for a meet that is not open, a
    player outside the group, a confirmed score for him, a repeat, a penalty forfeit
    (those follow from a recorded violation, §8.5), or a player who forfeited the season
    before this game (R2.5-b, A65).
    """
    with _scorekeeping_write(game, player, actor=actor, action="record a forfeit") as (
        game,
        write,
    ):
        with rules_edge("reason", code="invalid_forfeit_reason"):
            check_recorded_forfeit_reason(reason)
        why = _forfeit_note(write, countable=countable, note=note)
        _check_forfeitable(game, player)
        forfeit = m.Forfeit.objects.create(
            game=game,
            player=player,
            countable=countable,
            reason=reason,
            note=why,
            recorded_by=actor,
        )
        if not countable:
            write.ruling(**_not_countable_ruling(game, player, why=why))
        write.event(
            "forfeit.recorded",
            forfeit,
            {"game": game.pk, "player": player.pk, "countable": countable, "reason": reason},
        )
        refuse_if_season_forfeited(  # A65; rolls the forfeit back
            game=game,
            players=[player.pk],
            field="player",
            refused="a forfeit",
            result=write.refold(),
        )
    return forfeit


@contextmanager
def _scorekeeping_write(
    game: m.Game, player: m.Player, *, actor: User, action: str
) -> Iterator[tuple[m.Game, Write]]:
    """The write of an official or scorekeeper about `player` in `game` (locked, and given
    back): refused unless `actor` may keep the league's scores, the meet is open and `player`
    is in the group."""
    season = game.group.meet.season
    with league_write(
        league=season.league, actor=Actor.scorekeeper(actor), action=action, season=season
    ) as write:
        locked = locked_game(game)
        open_meet(locked.group.meet, doing=action)
        write.only_meets(locked.group.meet)
        require_member(player, group_player_ids(locked.group), field="player", group=locked.group)
        yield locked, write


def _forfeit_note(write: Write, *, countable: bool, note: str) -> str:
    """The forfeit's note; for a non-countable one an LO's reason (R2.4-g)."""
    if countable:
        return note.strip()
    require_official(actor=write.actor, league=write.league, action="make a forfeit non-countable")
    return require_reason(note, field="note", what="A non-countable forfeit (R2.4-g)")


def _check_forfeitable(game: m.Game, player: m.Player) -> None:
    """Refuse a forfeit over a confirmed score (R3-b) or a second one of the same game."""
    score = _confirmed_score(game, player)
    if score is not None:
        raise ConflictError(
            {
                "player": f"{player} has a confirmed score of {score:,} in this game: a "
                "forfeit cannot replace it (request a correction instead, R3-b)."
            },
            code="score_already_confirmed",
        )
    if m.Forfeit.objects.filter(game=game, player=player).exists():
        raise ConflictError(
            {"player": f"{player}'s forfeit of this game is recorded."},
            code="forfeit_already_recorded",
        )
    if player.pk in forfeited_in(game):
        raise ConflictError(
            {
                "player": f"{player} is absent for the rest of the match: game {game.number} "
                "is already their forfeit."
            },
            code="forfeit_already_recorded",
        )


def designate_forfeit_non_countable(
    *, game: m.Game, player: m.Player, reason: str, actor: User
) -> m.Forfeit:
    """The LO designates `player`'s forfeit of `game` non-countable (R2.4-g): it no longer counts
    toward forfeiting the season (R2.4-h, R2.5-a). The forfeit may have been recorded by an
    official or entered on the score sheet (no score on the counted version); for the latter
    a Forfeit (reason other) is recorded now, carrying the designation.

    Side effects: the Forfeit's countable flag and note (or a new Forfeit), a Ruling, an audit
    event ``forfeit.designated_non_countable``. Raises PermissionDenied unless `actor` is a
    league official; ValidationError without a reason, for a meet that is not open, a player
    outside the group, a player who did not forfeit the game, or one already non-countable.
    """
    with official_write(
        league=game.group.meet.season.league, actor=actor, action="make a forfeit non-countable"
    ) as write:
        game = locked_game(game)
        write.season = game.group.meet.season
        open_meet(game.group.meet, doing="make a forfeit non-countable")
        write.only_meets(game.group.meet)
        require_member(player, group_player_ids(game.group), field="player", group=game.group)
        why = require_reason(reason, field="reason", what="A non-countable forfeit (R2.4-g)")
        forfeit = m.Forfeit.objects.select_for_update().filter(game=game, player=player).first()
        if forfeit is not None and not forfeit.countable:
            raise ConflictError(
                {"player": f"{player}'s forfeit of this game is not countable."},
                code="forfeit_already_non_countable",
            )
        on_sheet = forfeit is None
        if forfeit is None:
            forfeit = _forfeit_on_sheet(game, player, why=why, actor=actor)
        else:
            forfeit.countable = False
            forfeit.note = f"{forfeit.note} {why}".strip()
            forfeit.save(update_fields=["countable", "note"])
        write.ruling(**_not_countable_ruling(game, player, why=why))
        write.event(
            "forfeit.designated_non_countable",
            forfeit,
            {"game": game.pk, "player": player.pk, "on_sheet": on_sheet, "reason": why},
        )
    return forfeit


def _forfeit_on_sheet(game: m.Game, player: m.Player, *, why: str, actor: User) -> m.Forfeit:
    """A non-countable Forfeit (other) for `player`, whose score on `game`'s counted sheet is
    empty (a forfeit entered on the sheet), or (absent) for a player absent for the rest of
    the match at `game` (R2.4-a); refused when they have a score there."""
    if player.pk in forfeited_in(game):  # no Forfeit row: it follows from his absence
        return m.Forfeit.objects.create(
            game=game,
            player=player,
            countable=False,
            reason=m.Forfeit.Reason.ABSENT,
            note=f"Absent for the rest of the match. {why}",
            recorded_by=actor,
        )
    confirmed = m.ScoreLine.objects.filter(
        submission__game=game, submission__confirmed_by__isnull=False, player=player
    ).order_by("-submission__version")
    line = confirmed.values_list("machine_score", flat=True)[:1]
    if list(line) != [None]:
        raise Refusal(
            {"player": f"{player} did not forfeit game {game.number} of this group."},
            code="not_a_forfeit",
        )
    return m.Forfeit.objects.create(
        game=game,
        player=player,
        countable=False,
        reason=m.Forfeit.Reason.OTHER,
        note=f"Entered on the score sheet. {why}",
        recorded_by=actor,
    )


def _not_countable_ruling(game: m.Game, player: m.Player, *, why: str) -> dict[str, Any]:
    """The Ruling of an official who makes `player`'s forfeit of `game` non-countable
    (R2.4-g): recorded when it is entered so, or designated so later."""
    return {
        "kind": "forfeit_not_countable",
        "subject": game_subject(game, player),
        "reason": why,
        "affected": group_player_ids(game.group),
        "player": player,
        "game": game,
    }


@dataclass(frozen=True)
class RecordedLateArrival:
    """A late arrival during a game (§2.3): the stored row, a LateJoin when he joins or his
    Forfeit (reason late) when he may not, and the rules' decision (R2.3-a, A60)."""

    row: m.LateJoin | m.Forfeit
    decision: JoinDecision


def record_late_join(
    *,
    game: m.Game,
    player: m.Player,
    machine_allows_joining: bool,
    last_player_not_past_ball_1: bool,
    actor: User,
) -> RecordedLateArrival:
    """A late player arrives during `game`: he joins it, or forfeits it (§2.3, R2.3-a, A60).

    `join_game_in_progress` decides from the two attested conditions; he then plays last in
    it (R5.2-c) and does not pick the next machine (R5.2-d, A24). Otherwise the game is a
    forfeit for him (reason "late") and he joins at the next game.

    Side effects: a LateJoin, or a Forfeit (late); an audit event ``game.late_arrival``.
    Returns the row and the rules' decision (`RecordedLateArrival`). Raises PermissionDenied
    unless `actor` is a league official or scorekeeper; ValidationError for a meet that is not
    open, a confirmed game, a player outside the group, one who already played a game tonight,
    one recorded absent for the rest of the match, or a repeat.
    """
    with _scorekeeping_write(game, player, actor=actor, action="record a late arrival") as (
        game,
        write,
    ):
        _check_late_arrival(game, player)
        with rules_edge(code="join_refused"):
            decision = join_game_in_progress(
                machine_permits=machine_allows_joining,
                last_player_started_ball_1=not last_player_not_past_ball_1,
            )
        row = _store_late_arrival(game, player, decision, actor=actor)
        write.event(
            "game.late_arrival",
            row,
            {
                "game": game.pk,
                "player": player.pk,
                "joined": decision.may_join,
                "machine_allows_joining": machine_allows_joining,
                "last_player_not_past_ball_1": last_player_not_past_ball_1,
            },
        )
    return RecordedLateArrival(row=row, decision=decision)


def _check_late_arrival(game: m.Game, player: m.Player) -> None:
    """Refuse a late arrival in a confirmed game, for a player who already played an earlier
    game tonight (so is not late), or a second one in the same game."""
    if m.ScoreSubmission.objects.filter(game=game, confirmed_by__isnull=False).exists():
        raise ConflictError(
            {"game": f"Game {game.number}'s scores are confirmed: it is no longer in progress."},
            code="game_already_confirmed",
        )
    played_before = m.ScoreLine.objects.filter(
        submission__game__group=game.group,
        submission__game__number__lt=game.number,
        submission__confirmed_by__isnull=False,
        player=player,
        machine_score__isnull=False,
    ).exists()
    if played_before:
        raise Refusal(
            {"player": f"{player} already played an earlier game tonight: they are not late."},
            code="not_late",
        )
    if m.MatchAbsence.objects.filter(group_id=game.group_id, player=player).exists():
        raise Refusal(
            {
                "player": f"{player} is recorded absent for the rest of the match: they do not "
                "join a game of it (R2.4-a)."
            },
            code="absent_for_the_match",
        )
    if (
        m.LateJoin.objects.filter(game=game, player=player).exists()
        or m.Forfeit.objects.filter(game=game, player=player).exists()
    ):
        raise ConflictError(
            {"player": f"{player}'s arrival in this game is recorded."},
            code="late_join_already_recorded",
        )


def _store_late_arrival(
    game: m.Game, player: m.Player, decision: JoinDecision, *, actor: User
) -> m.LateJoin | m.Forfeit:
    """A LateJoin when the rules let `player` join `game`, else their Forfeit (late)."""
    if decision.may_join:
        return m.LateJoin.objects.create(
            game=game,
            player=player,
            machine_allows_joining=True,
            last_player_not_past_ball_1=True,
            recorded_by=actor,
        )
    return m.Forfeit.objects.create(
        game=game,
        player=player,
        reason=m.Forfeit.Reason.LATE,
        note=decision.reason,
        recorded_by=actor,
    )


# --- Late joiners' forfeits (§2.4) -----------------------------------------------------------


def designate_late_join_forfeits(
    *, season: m.Season, player: m.Player, countable: bool, reason: str, actor: User
) -> m.SeasonEntry:
    """The LO designates, all together, whether a late entrant's forfeits count (R2.4-g, A46).

    The forfeits a player accumulates for the games before they joined (R2.4-f) count toward
    forfeiting the season (R2.5-a) unless the LO designates otherwise (R2.4-h); this stores
    the designation on the player's season entry, which the standings read.

    Side effects: SeasonEntry.late_join_forfeits_countable, a Ruling, an audit event
    ``season.late_join_forfeits_designated``, a notice to the player queued when they chose
    it. Raises PermissionDenied unless `actor` is a league official; ValidationError without a
    reason, for a player not entered or one who joined at the first meet, or for countable
    forfeits when the league's ruleset makes every late-join forfeit non-countable (the rules
    cannot count one player's then).
    """
    league = season.league
    with official_write(
        league=league, actor=actor, action="designate late-join forfeits", season=season
    ) as write:
        why = require_reason(
            reason, field="reason", what="A late-join forfeit designation (R2.4-g)"
        )
        entry = _late_entry(season, player)
        ruleset = _checked_designation(season, countable=countable)
        entry.late_join_forfeits_countable = countable
        entry.save(update_fields=["late_join_forfeits_countable"])
        write.ruling(
            kind="late_join_forfeits_countable"
            if countable
            else "late_join_forfeits_not_countable",
            subject=f"{player}, {season.name}: forfeits before meet {entry.joined_at_meet}",
            reason=why,
        )
        write.refold()  # records the ruling now: its id names the notice
        write.event(
            "season.late_join_forfeits_designated",
            entry,
            {"season": season.pk, "player": player.pk, "countable": countable, "reason": why},
        )
        about = LateJoinFacts(
            season=season.name,
            joined_at_meet=entry.joined_at_meet,
            countable=countable,
            limit=ruleset.season_forfeit_limit,
            reason=why,
        )
        write.notice_of(player=player, key=f"late_join:{write.recorded[-1].pk}", about=about)
    return entry


def _checked_designation(season: m.Season, *, countable: bool) -> Ruleset:
    """The league's ruleset, refusing countable late-join forfeits where it makes every one
    non-countable (the rules cannot count one player's then)."""
    with rules_edge(code="season_facts_refused"):
        ruleset = season_ruleset(season)
    with rules_edge("countable", code="designation_refused"):
        check_late_join_designation(countable, ruleset=ruleset)
    return ruleset


def _late_entry(season: m.Season, player: m.Player) -> m.SeasonEntry:
    """`player`'s season entry, locked; refused unless they joined after the first meet."""
    entry = m.SeasonEntry.objects.select_for_update().filter(season=season, player=player).first()
    if entry is None:
        raise Refusal({"player": f"{player} is not entered in {season.name}."}, code="not_entered")
    if entry.joined_at_meet <= 1:
        raise Refusal(
            {
                "player": f"{player} joined {season.name} at its first meet: they have no "
                "late-join forfeits (R2.4-f)."
            },
            code="no_late_join_forfeits",
        )
    return entry


# --- helpers ---------------------------------------------------------------------------------


def _confirmed_score(game: m.Game, player: m.Player) -> int | None:
    return (
        m.ScoreLine.objects.filter(
            submission__game=game, submission__confirmed_by__isnull=False, player=player
        )
        .order_by("-submission__version")
        .values_list("machine_score", flat=True)
        .first()
    )
