"""A season cut short: its number of meets lowered once play has begun (R2-a, A68).

Words:
- *started*: a meet recorded in the season's facts, open (its groups drawn) or closed; a
  season is never cut below them (A68.1).
- *cut*: lowering the season's number of meets to a number from the meets started (at least
  1) to one below the number it has; *ending the season early* is cutting it to the meets
  started.
- *place*: a player's place in the playoff race (`flipwell.rules.race`): his *eligibility*
  (eligible, a game still to play before he may be, or not eligible, A05) and, when he is in
  the race and the season has a playoff line, his *status* (clinched, alive, eliminated).
- *change*: a player whose place differs between the season as it is and the season cut.

The fold reads the number of meets from the facts (`SeasonFacts.number_of_meets`), so the
season cut is folded with its new number: the race's meets left, clinched and eliminated, and
the IFPA's meets follow it. The §2.5 limit does not (A68.2): it counts forfeits.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from flipwell.rules.checks import check_count
from flipwell.rules.errors import RuleError
from flipwell.rules.final_positions import attendance_threshold
from flipwell.rules.progress import season_progress
from flipwell.rules.race import PlayoffRace, RaceStatus, playoff_eligible, season_race
from flipwell.rules.ruleset import FWPL_V1, Ruleset
from flipwell.rules.season import fold_season
from flipwell.rules.season_values import SeasonFacts, SeasonResult
from flipwell.rules.values import PlayerId

Eligibility = Literal["eligible", "may_become_eligible", "not_eligible"]
"""A05: eligible (a game played, still active); a game still to play before he may be; or
neither (no game and none left, season forfeited, suspended)."""


@dataclass(frozen=True)
class RacePlace:
    """One player's place in the playoff race (module words); status None: not in the race,
    or no playoff line (fewer than six eligible players may remain, §1)."""

    player: PlayerId
    eligibility: Eligibility
    status: RaceStatus | None


@dataclass(frozen=True)
class PlaceChange:
    """A player whose place changes with the cut: before and after."""

    before: RacePlace
    after: RacePlace

    @property
    def player(self) -> PlayerId:
        """The player."""
        return self.before.player


@dataclass(frozen=True)
class SeasonCut:
    """What cutting a season to `meets_after` meets changes (module words).

    played: meets closed; open_meet: the meet being played (None: none). meets_left_*: the
    race's meets left (R2-a). qualifiers_*: how many enter the playoffs (None: no playoff
    line). attendance_*: the meets half the season asks for (the IFPA's 50%, rounded up).
    changes: every player whose place changes, in the standings' order; places: every
    player's place after the cut.
    """

    meets_before: int
    meets_after: int
    played: int
    open_meet: int | None
    meets_left_before: int
    meets_left_after: int
    qualifiers_before: int | None
    qualifiers_after: int | None
    attendance_before: int
    attendance_after: int
    changes: tuple[PlaceChange, ...]
    places: tuple[RacePlace, ...]

    @property
    def ends_season(self) -> bool:
        """Whether no meet is left to start after the cut: the season ends with its last
        meet started (R6.1-d: playoff entry is decided after it)."""
        return self.meets_after == self.played + (1 if self.open_meet is not None else 0)


def meets_started(facts: SeasonFacts) -> int:
    """The meets recorded (open or closed): a cut never goes below them (A68.1)."""
    return len(facts.meets)


def check_season_cut(facts: SeasonFacts, *, number_of_meets: int) -> int:
    """The new number of meets of a season cut short, checked (R2-a, A68.1): at least the
    meets started (a meet with its groups drawn is played out or closed unfinished, A52) and
    at least 1, and fewer than the season has now. RuleError in plain words otherwise."""
    wanted = check_count(number_of_meets, what="the season's number of meets", minimum=1)
    now = facts.meets_in_season()
    started = meets_started(facts)
    if wanted < started:
        raise RuleError(
            f"meet {started} has started, so the season has at least {started} meets: a meet "
            "whose groups are drawn is played out or closed unfinished, never undone (A68)"
        )
    if wanted >= now:
        raise RuleError(
            f"the season has {now} meets: cutting it short gives it fewer, from {max(started, 1)}"
            f" to {now - 1} (R2-a)"
        )
    return wanted


def race_places(facts: SeasonFacts, result: SeasonResult, *, ruleset: Ruleset) -> list[RacePlace]:
    """Every player's place in the race of the season as its facts stand (module words), in
    the standings' order (§6.1, §6.2, A05)."""
    race = _race(facts, result, ruleset)
    left = season_progress(facts).left
    places = []
    for standing in result.standings():
        found = race.find(standing.player) if race is not None else None
        # Without a playoff line the race names nobody: a player may still become eligible
        # while a meet is left to play (the open one included).
        pending = found is not None if race is not None else standing.active and left > 0
        if playoff_eligible(standing):
            eligibility: Eligibility = "eligible"
        elif pending:
            eligibility = "may_become_eligible"
        else:
            eligibility = "not_eligible"
        status = found.status if found is not None and found.eligible else None
        places.append(RacePlace(standing.player, eligibility, status))
    return places


def _race(facts: SeasonFacts, result: SeasonResult, ruleset: Ruleset) -> PlayoffRace | None:
    try:
        return season_race(facts, result, ruleset=ruleset)
    except RuleError:
        return None  # no ending has six eligible players (§1): no playoff line


def season_cut(
    facts: SeasonFacts,
    *,
    number_of_meets: int,
    ruleset: Ruleset = FWPL_V1,
    result: SeasonResult | None = None,
) -> SeasonCut:
    """What cutting the season to `number_of_meets` meets changes (R2-a, R6.1-d, A68),
    computed by folding the season with the new number (`result`: the fold of `facts` as they
    are, when the caller has it). RuleError for a number `check_season_cut` refuses, and,
    with `season_cut_small_playoffs = "refused"`, for a cut that leaves no playoff line
    where the season had one (§1, A68.3)."""
    wanted = check_season_cut(facts, number_of_meets=number_of_meets)
    cut = replace(facts, number_of_meets=wanted)
    before = result if result is not None else fold_season(facts, ruleset=ruleset)
    after = fold_season(cut, ruleset=ruleset)
    race_before, race_after = _race(facts, before, ruleset), _race(cut, after, ruleset)
    if ruleset.season_cut_small_playoffs == "refused" and race_before and not race_after:
        raise RuleError(
            f"cut to {wanted} meets, the season has fewer than six eligible players and no "
            "playoff line (§1): this league's reading refuses such a cut (A68)"
        )
    places_before = {p.player: p for p in race_places(facts, before, ruleset=ruleset)}
    places_after = race_places(cut, after, ruleset=ruleset)
    progress_before = season_progress(facts)
    progress_after = season_progress(cut)
    return SeasonCut(
        meets_before=facts.meets_in_season(),
        meets_after=wanted,
        played=progress_after.played,
        open_meet=progress_after.open_meet,
        meets_left_before=progress_before.left,
        meets_left_after=progress_after.left,
        qualifiers_before=race_before.qualifiers if race_before else None,
        qualifiers_after=race_after.qualifiers if race_after else None,
        attendance_before=attendance_threshold(facts.meets_in_season()),
        attendance_after=attendance_threshold(wanted),
        changes=tuple(
            PlaceChange(places_before[new.player], new)
            for new in places_after
            if places_before[new.player] != new
        ),
        places=tuple(places_after),
    )
