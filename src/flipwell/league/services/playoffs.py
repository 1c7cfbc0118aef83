"""Use cases of the playoff night before and after its matches (§6.1, §6.2, §6.6): qualify,
settle seed ties, withdrawals, close the night. The matches are played in
`flipwell.league.services.playoff_matches` (a package).

Words: see `flipwell.league.selectors.playoffs` (facts, match ids, machine keys) and
`flipwell.rules.playoff_seeding` / `playoff_matches` / `playoff_bracket`.

- *qualifying* computes the divisions and seeds from the final standings (R6.1-d, R6.2-a),
  the recorded single-ball playoffs (R6.1-e) and the withdrawals (R6.6-b), and stores them as
  the bracket the night is played with (Qualifier rows). They are rewritten whenever a seed
  playoff or a withdrawal is recorded, and frozen once the first game or no-show of the night
  is recorded: like a meet's groups (A45), the bracket played is not redrawn afterwards.
- Machine draws (a match's game 1, R6.4-b; a tiebreaker, R6.5-b; a seed playoff, R6.1-e) use
  the night's recorded random seed, so a draw can be repeated.
"""

from __future__ import annotations

import datetime
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from flipwell.league import models as m
from flipwell.league.adapters.keys import player_key
from flipwell.league.adapters.rulesets import season_ruleset
from flipwell.league.models.playoffs import PlayoffNoShow
from flipwell.league.refusals import ConflictError, Refusal
from flipwell.league.selectors.playoffs.facts import (
    bracket_state,
    load_playoff_facts,
    player_names,
    playoff_qualification_now,
)
from flipwell.league.services._edge import (
    league_changed,
    rules_edge,
)
from flipwell.league.services._playoff_night import (
    drawn_machine,
    locked_night,
)
from flipwell.league.services._protocol import official_write
from flipwell.rules import PlayoffQualification, SeedTie

if TYPE_CHECKING:
    from django.contrib.auth.models import User


@dataclass(frozen=True)
class QualifiedNight:
    """The playoff night as qualified (§6.1, §6.2): the stored night, its Qualifier rows (the
    bracket drawn; none while a tie is open) and the rules' qualification."""

    night: m.PlayoffNight
    qualifiers: list[m.Qualifier]
    qualification: PlayoffQualification


@dataclass(frozen=True)
class RecordedSeedPlayoff:
    """A recorded single-ball playoff on season points (R6.1-e): the stored Tiebreaker, its
    places (winner first) and the qualification it settles."""

    tiebreaker: m.Tiebreaker
    places: list[m.TiebreakerPlace]
    qualified: QualifiedNight


@dataclass(frozen=True)
class RecordedWithdrawal:
    """A recorded withdrawal before the playoffs (R6.6-b): the stored Withdrawal and the
    qualification with the seeds moved up."""

    withdrawal: m.Withdrawal
    qualified: QualifiedNight


def qualify_for_playoffs(
    *,
    season: m.Season,
    date: datetime.date,
    actor: User,
    cut: int | None = None,
    cut_reason: str = "",
) -> QualifiedNight:
    """Plan the playoff night and draw its bracket from the final standings (§6.1, §6.2),
    once every regular meet is closed (R6.1-d). cut: an official's override of the number of
    qualifiers, with its reason (A06, R6.2-b; a ruling). When the qualification has `ties`,
    no bracket is stored yet: each is settled with `record_seed_playoff`. Audited
    ``playoffs.qualified``. ValidationError once the night's play has started, or for a cut
    the rules refuse or without a reason.
    """
    with official_write(league=season.league, actor=actor, action="run the playoffs") as write:
        league_changed(season.league_id)
        _check_season_over(season)
        if cut is not None and not cut_reason.strip():
            raise Refusal(
                {"cut_reason": "An override of the playoff cut needs a reason (A06)."},
                code="cut_reason_required",
            )
        night = _planned_night(season, date)
        night.cut_override = cut
        night.save()
        qualified = _write_qualifiers(night, field="cut")
        if cut is not None:
            subject = f"{season.name} playoff cut: {cut}"
            write.ruling(kind="playoff_cut_override", subject=subject, reason=cut_reason.strip())
        ties = [list(t.players) for t in qualified.qualification.ties]
        data = {"date": date.isoformat(), "cut": qualified.qualification.cut, "ties": ties}
        write.event("playoffs.qualified", night, {**data, "cut_override": cut})
    return qualified


def _check_season_over(season: m.Season) -> None:
    """Playoff entry is decided after the final regular week (R6.1-d)."""
    closed = season.meets.filter(status=m.Meet.Status.CLOSED).count()
    if closed < season.number_of_meets:
        raise ConflictError(
            f"{season.name} has closed {closed} of its {season.number_of_meets} meets: "
            "playoff entry is decided after the final regular week (R6.1-d).",
            code="season_not_over",
        )


def _planned_night(season: m.Season, date: datetime.date) -> m.PlayoffNight:
    """The season's playoff night on `date` (locked), new with a random machine-draw seed if
    there is none; refused once its play has started."""
    night = m.PlayoffNight.objects.select_for_update().filter(season=season).first()
    if night is None:
        seed = random.SystemRandom().randrange(1, 2**31)
        return m.PlayoffNight.objects.create(season=season, date=date, machine_draw_seed=seed)
    _check_not_started(night)
    night.date = date
    return night


def record_seed_playoff(
    *,
    season: m.Season,
    order: Sequence[m.Player],
    actor: User,
    machine: m.Machine | None = None,
) -> RecordedSeedPlayoff:
    """Record the order a single-ball playoff gave players tied on season points (R6.1-e, A39).

    order: the tied players, winner first; they must be exactly the players of one open tie.
    machine: the machine it was played on; None draws one at random from the playable ones.
    Side effects: inserts a Tiebreaker (entry or seeding) with its places, rewrites the
    Qualifier rows, and an audit event ``playoffs.seed_playoff_recorded``; returns the
    tiebreaker, its places and the new qualification (`RecordedSeedPlayoff`). Raises
    PermissionDenied unless `actor` is a league official, and ValidationError (nothing
    written) when no such tie is open, once play has started, or when the rules refuse it.
    """
    with official_write(league=season.league, actor=actor, action="run the playoffs") as write:
        league_changed(season.league_id)
        night = locked_night(season)
        _check_not_started(night)
        keys = [player_key(p.pk) for p in order]
        tie = _open_tie(season, night, keys)
        drawn = machine or drawn_machine(night, f"seed:{':'.join(keys)}", tiebreaker=True)
        tiebreaker = m.Tiebreaker.objects.create(
            playoff_night=night,
            purpose=m.Tiebreaker.Purpose.SEEDING
            if tie.line == "seeding"
            else m.Tiebreaker.Purpose.ENTRY,
            machine=drawn,
            recorded_by=actor,
        )
        places = m.TiebreakerPlace.objects.bulk_create(
            m.TiebreakerPlace(tiebreaker=tiebreaker, player=p, place=i)
            for i, p in enumerate(order, 1)
        )
        qualified = _write_qualifiers(night, field="order")
        data = {"order": [p.pk for p in order], "line": tie.line, "machine": drawn.pk}
        write.event("playoffs.seed_playoff_recorded", tiebreaker, data)
    return RecordedSeedPlayoff(tiebreaker=tiebreaker, places=places, qualified=qualified)


def _open_tie(season: m.Season, night: m.PlayoffNight, keys: list[str]) -> SeedTie:
    """The open tie (R6.1-e) of exactly the players `keys`; refused, listing the open ties,
    when there is none."""
    open_ties = playoff_qualification_now(season, night).ties
    tie = next((t for t in open_ties if sorted(t.players) == sorted(keys)), None)
    if tie is None:
        names = player_names(p for t in open_ties for p in t.players)
        listed = "; ".join(t.render(names) for t in open_ties) or "none"
        raise Refusal(
            {"order": f"These players are not one open tie. Open ties: {listed}"},
            code="no_such_tie",
        )
    return tie


def record_withdrawal(
    *, season: m.Season, player: m.Player, actor: User, note: str = ""
) -> RecordedWithdrawal:
    """A player announces before the playoffs that he cannot attend (R6.6-b, A41).

    Everyone seeded below him moves up and the best reserve qualifies (the rules'
    `apply_withdrawals`). Side effects: inserts the Withdrawal, rewrites the Qualifier rows,
    and an audit event ``playoffs.withdrawal_recorded``; returns the withdrawal and the new
    qualification (`RecordedWithdrawal`). Raises PermissionDenied unless
    `actor` is a league official, and ValidationError (nothing written) once the night's
    play has started (use `record_no_show` then), or for a player not in the standings.
    """
    with official_write(league=season.league, actor=actor, action="run the playoffs") as write:
        league_changed(season.league_id)
        night = locked_night(season)
        _check_not_started(night)
        if night.withdrawals.filter(player=player).exists():
            raise ConflictError(
                {"player": f"{player} has already withdrawn."}, code="player_already_withdrawn"
            )
        withdrawal = m.Withdrawal.objects.create(
            playoff_night=night, player=player, recorded_by=actor
        )
        qualified = _write_qualifiers(night, field="player")
        data = {"player": player.pk, "note": note.strip()}
        write.event("playoffs.withdrawal_recorded", withdrawal, data)
    return RecordedWithdrawal(withdrawal=withdrawal, qualified=qualified)


def close_playoff_night(*, season: m.Season, actor: User) -> m.PlayoffNight:
    """Close the playoff night once every division's final is complete (R6.1-a).

    Side effects: sets the night's status to closed and an audit event ``playoffs.closed``.
    Raises ValidationError (nothing written) while a division still needs a game, and
    ConflictError once it is closed.
    """
    with official_write(league=season.league, actor=actor, action="run the playoffs") as write:
        league_changed(season.league_id)
        night = locked_night(season)
        _check_not_closed(night)
        facts = load_playoff_facts(night)
        ruleset = season_ruleset(season)
        needed = [
            f"{name} {line}"
            for name, div in facts.divisions.items()
            for line in bracket_state(div, ruleset).needed
        ]
        if not facts.divisions or needed:
            raise ConflictError(
                "The playoffs are not over: " + ("; ".join(needed) or "no bracket drawn") + ".",
                code="playoffs_not_over",
            )
        night.status = m.PlayoffNight.Status.CLOSED
        night.save(update_fields=["status"])
        write.event("playoffs.closed", night, {})
    return night


def _check_not_closed(night: m.PlayoffNight) -> None:
    """A closed playoff night is over: nothing of it is qualified, withdrawn or closed again
    (R6.1-a)."""
    if night.status == m.PlayoffNight.Status.CLOSED:
        raise ConflictError(
            "The playoff night is closed: its bracket and places are final.",
            code="playoffs_closed",
        )


def _check_not_started(night: m.PlayoffNight) -> None:
    _check_not_closed(night)
    if (
        m.PlayoffGame.objects.filter(match__playoff_night=night).exists()
        or PlayoffNoShow.objects.filter(match__playoff_night=night).exists()
    ):
        raise ConflictError(
            "The playoff night has started: its bracket is fixed (withdrawals are announced "
            "before the playoffs, R6.6-b; a player missing at their match is a no-show, R6.6-c).",
            code="playoffs_already_started",
        )


def _write_qualifiers(night: m.PlayoffNight, *, field: str) -> QualifiedNight:
    """Recompute qualification and store it as the night's bracket (nothing while tied)."""
    with rules_edge(field, code="qualification_refused", message=str):
        qualification = playoff_qualification_now(night.season, night)
    night.qualifiers.all().delete()
    night.cut = qualification.cut if qualification.complete else None
    night.save(update_fields=["cut"])
    qualifiers: list[m.Qualifier] = []
    if qualification.complete:
        qualifiers = m.Qualifier.objects.bulk_create(
            m.Qualifier(
                playoff_night=night,
                player_id=int(player),
                division=seeding.division.name,
                seed=seed,
            )
            for seeding in qualification.seedings
            for seed, player in enumerate(seeding.seeds, 1)
            if player is not None
        )
    return QualifiedNight(night=night, qualifiers=qualifiers, qualification=qualification)
