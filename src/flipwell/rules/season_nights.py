"""A player's nights in a season's fold and his running totals (§2.4, §2.5, §3).

Words:
- *night*: one player's line for one meet: game points, match bonus, the §2.4 credit,
  forfeits, and how he took part (played, absent, not yet joined, out of the league).
- *tally*: a player's running totals while the fold walks the meets.
- *credit*: the §2.4 share (50%) of his average night so far, granted to an all-night forfeit
  (R2.4-d, R2.4-e, A14).
- *standing*: a player's season so far, made from his tally at the end of the fold.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction

from flipwell.rules.forfeits import (
    match_forfeits,
    night_forfeit_credit,
    season_forfeited,
)
from flipwell.rules.match import GAMES_PER_MATCH, PlayerMatch
from flipwell.rules.ruleset import Ruleset
from flipwell.rules.season_values import (
    MeetFacts,
    Night,
    NightStatus,
    SeasonFacts,
    Standing,
)
from flipwell.rules.values import PlayerId


@dataclass
class Tally:
    """Running totals for one player while the fold walks the meets."""

    nights: list[Night] = field(default_factory=list)
    points: Fraction | int = 0
    """Running sum of the nights' league points (kept so each meet's ladder is cheap)."""
    countable_forfeits: int = 0
    games_played: int = 0
    forfeits: int = 0
    """Running sums of the nights' games played and forfeits (kept so a standing is cheap)."""
    offenses: int = 0
    credit_used_at: int | None = None
    season_forfeited_at: int | None = None
    season_forfeited_game: int | None = None
    suspended_at: int | None = None

    @property
    def active(self) -> bool:
        return self.season_forfeited_at is None and self.suspended_at is None


def played_night(meet: int, line: PlayerMatch, *, closed: bool, finished: bool) -> Night:
    """A grouped player's night; while the meet is open it is provisional (`in_progress`)."""
    status: NightStatus = "absent_unannounced" if line.absent else "played"
    if not closed:
        status = "in_progress"
    return Night(
        meet=meet,
        status=status,
        game_points=line.game_points,
        match_bonus=line.match_bonus if finished else 0,
        credit=_NO_CREDIT,
        games_played=line.games_played,
        forfeits=line.forfeits,
        countable_forfeits=line.countable_forfeits,
    )


_NO_CREDIT = Fraction(0)


def absent_night(
    player: PlayerId,
    meet: MeetFacts,
    joined: Mapping[PlayerId, int],
    tally: Tally,
    facts: SeasonFacts,
    ruleset: Ruleset,
) -> Night | None:
    """A night for a player in no group: announced absent, not yet joined, or out."""
    if not tally.active:
        return None  # out of the league: no more forfeits (R2.5-b)
    if meet.number < joined[player]:
        countable = (
            ruleset.late_join_forfeits_countable and player not in facts.late_join_non_countable
        )
        status: NightStatus = "not_joined"  # R2.4-f, A46
    else:
        countable = True  # R2.4-h: countable unless the LO says otherwise
        status = "absent_announced"
    # R2.5-a, A65: counted as game by game, it stops at his 12th countable forfeit. He is out
    # for the whole night (no game of it is his), so no season-forfeiting game is kept.
    counted = match_forfeits(
        tally.countable_forfeits, [countable] * GAMES_PER_MATCH, ruleset=ruleset
    )
    return Night(
        meet=meet.number,
        status=status,
        forfeits=GAMES_PER_MATCH,
        countable_forfeits=counted.countable,
    )


def record_night(tally: Tally, night: Night, ruleset: Ruleset) -> None:
    """Add a night, granting the §2.4 credit to an all-night forfeit, and check §2.5."""
    status = night.status
    if status == "played" or status == "in_progress":
        points: Fraction | int = sum(night.game_points) + night.match_bonus  # no credit: played
    else:
        if status in ("absent_announced", "absent_unannounced"):
            night = _with_credit(night, tally, ruleset)
        elif status == "not_joined" and ruleset.late_join_forfeits_use_credit:
            # A14.5 alternative: a night before joining is his (unpaid) all-night forfeit.
            tally.credit_used_at = tally.credit_used_at or night.meet
        points = night.league_points
    tally.nights.append(night)
    tally.points += points
    tally.games_played += night.games_played
    tally.forfeits += night.forfeits
    tally.countable_forfeits += night.countable_forfeits
    counted = night.countable_forfeits > 0  # only a new countable forfeit can make the 12th
    if (
        counted
        and tally.season_forfeited_at is None
        and season_forfeited(tally.countable_forfeits, ruleset=ruleset)
    ):
        tally.season_forfeited_at = night.meet  # R2.5-a
        if not ruleset.season_forfeit_keeps_points:  # A37 alternative
            wipe(tally)


def _with_credit(night: Night, tally: Tally, ruleset: Ruleset) -> Night:
    """R2.4-d, R2.4-e, A14: the ruleset's credit share (50%) of his average night so far, once
    a season by default."""
    played = [n for n in tally.nights if n.games_played > 0]
    credit = night_forfeit_credit(
        _credit_basis(played, ruleset),
        credit_used=tally.credit_used_at is not None,
        ruleset=ruleset,
    )
    if tally.credit_used_at is None and (played or ruleset.zero_credit_without_history_uses_credit):
        tally.credit_used_at = night.meet
    return replace(night, credit=credit)


def _credit_basis(played: Sequence[Night], ruleset: Ruleset) -> list[Fraction | int]:
    """The nightly values averaged for the credit (A14.1)."""
    basis = ruleset.forfeit_credit_basis
    if basis == "game_points_excl_match_bonus":
        return [sum(n.game_points) for n in played]
    if basis == "per_game_times_4" and played:
        games = sum(n.games_played for n in played)
        total = sum(n.league_points for n in played)
        return [Fraction(GAMES_PER_MATCH * total, games)]
    return [n.league_points for n in played]


def wipe(tally: Tally) -> None:
    """Zero every night's points, keeping its attendance and forfeits."""
    tally.nights = [
        replace(n, game_points=tuple(0 for _ in n.game_points), match_bonus=0, credit=Fraction(0))
        for n in tally.nights
    ]
    tally.points = 0


def standing_from(player: PlayerId, tally: Tally) -> Standing:
    return Standing(
        player=player,
        league_points=Fraction(tally.points),
        nights=tuple(tally.nights),
        games_played=tally.games_played,
        forfeits=tally.forfeits,
        countable_forfeits=tally.countable_forfeits,
        offenses=tally.offenses,
        credit_used_at=tally.credit_used_at,
        season_forfeited_at=tally.season_forfeited_at,
        season_forfeited_game=(
            tally.season_forfeited_game if tally.season_forfeited_at is not None else None
        ),
        suspended_at=tally.suspended_at,
    )
